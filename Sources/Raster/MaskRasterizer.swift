import Geometry
import RasterKernels

/// Fills paths into 8-bit coverage masks: the same cells and the same coverage as `Rasterizer.fill`, with no
/// colour, no compositing and no canvas. The Lottie renderer's masks are made this way; glyphs have a rasterizer
/// of their own, `GlyphMaskRasterizer`.
///
/// A mask is a box of `width × height` bytes whose pixel (0, 0) is the pixel at the origin of the transformed
/// path's space; each byte is the coverage that `Rasterizer.fill` would give that pixel (in opaque white over
/// transparent black, the byte is exactly the alpha). A path that lies inside the box goes into `InteriorCells`
/// with no clipping; one that crosses it goes into `CoverageCells`, clipped to the box; `CoverageSweep` (or, for a
/// `window`, a sweep over the cells the path can reach) turns the cells into bytes. Nothing outside the box is
/// touched or cleared, so a small mask costs its own few hundred bytes, whatever the largest mask was.
///
/// The cell buffers and the mask grow to the largest box seen and are reused: steady-state filling allocates
/// nothing.
public final class MaskRasterizer {
    /// Flattening tolerance in pixels; see `Rasterizer.defaultTolerance`.
    public var tolerance = Rasterizer.defaultTolerance

    private var cells = CoverageCells()
    /// Cells for paths that lie inside their box, `(width + 2) × height`, all zero between fills.
    private var interior: UnsafeMutablePointer<Int32>
    private var interiorCapacity = 1
    private var mask: UnsafeMutablePointer<UInt8>
    private var maskCapacity = 0

    public init() {
        mask = .allocate(capacity: 1)
        interior = .allocate(capacity: 1)
        interior.initialize(to: 0)
    }

    deinit {
        cells.release()
        interior.deallocate()
        mask.deallocate()
    }

    /// Fills `path`, mapped through `transform`, into a `width × height` mask and returns its bytes, row after
    /// row; they stay valid until the next fill, and only while this rasterizer lives. Parts of the path outside
    /// the box are clipped away.
    ///
    /// Returns nil, drawing nothing, when the box is empty, or when a coordinate is not finite or lies beyond
    /// `Rasterizer.maxCoordinate`.
    ///
    /// `window`, when given, is the only part of the mask the caller reads: the bytes there are exactly those a
    /// whole fill gives, and the others are left as they were. Only the cells the path's box can reach are swept,
    /// which saves sweeping a large mask of which a small part is wanted.
    public func fill(_ path: Path, transform: AffineTransform = .identity, rule: FillRule = .nonZero,
                     width: Int, height: Int, window: PixelBox? = nil) -> UnsafePointer<UInt8>? {
        guard width > 0, height > 0, width <= MaskRasterizer.maxSide, height <= MaskRasterizer.maxSide,
              let box = Rasterizer.mappedBounds(path, transform) else { return nil }
        let count = width &* height
        if count > maskCapacity {
            mask.deallocate()
            maskCapacity = Swift.max(count, maskCapacity &* 2)
            mask = .allocate(capacity: maskCapacity)
        }
        let tol = tolerance > 0 && tolerance.isFinite ? tolerance : Rasterizer.defaultTolerance
        let w = Double(width), h = Double(height), slack = MaskRasterizer.slack
        // The cells an edge can reach: its ends are clamped (or clipped) to the box, a piece adds to its pixel and
        // the two right of it, and one more on each side allows for rounding between these bounds and the edges.
        let reach = PixelBox(minX: Swift.max(0, Int(Swift.min(Swift.max(box.minX, 0), w)) &- 1),
                             minY: Swift.max(0, Int(Swift.min(Swift.max(box.minY, 0), h)) &- 1),
                             maxX: Swift.min(width &+ 2, Int(Swift.min(Swift.max(box.maxX, 0), w)) &+ 4),
                             maxY: Swift.min(height,
                                             CoverageCells.lastIndex(Swift.min(Swift.max(box.maxY, 0), h)) &+ 2))
        let wanted = window?.intersection(PixelBox(minX: 0, minY: 0, maxX: width, maxY: height))
        if box.minX >= -slack, box.minY >= -slack, box.maxX <= w + slack, box.maxY <= h + slack {
            // The path lies inside the box (a glyph in its own box always does): no clipping, no bookkeeping.
            let cellCount = (width &+ 2) &* height
            if cellCount > interiorCapacity {
                interior.deallocate()
                interiorCapacity = Swift.max(cellCount, interiorCapacity &* 2)
                interior = .allocate(capacity: interiorCapacity)
                interior.initialize(repeating: 0, count: interiorCapacity)
            }
            var sink = InteriorCells(cells: interior, stride: width &+ 2, maxX: w, maxY: h)
            path.flattenForFill(transform: transform, tolerance: tol, into: &sink)
            if let wanted {
                MaskRasterizer.sweep(interior, stride: width &+ 2, width: width, reach: reach, wanted: wanted,
                                     rule: rule, into: mask)
            } else {
                CoverageSweep.rows(interior, stride: width &+ 2, width: width, from: 0, to: height &- 1, rule: rule,
                                   into: mask)
            }
        } else {
            cells.begin(area: ClipBox(minX: 0, minY: 0, maxX: w, maxY: h))
            path.flattenForFill(transform: transform, tolerance: tol, into: &cells)
            guard let wanted else {
                CoverageSweep.write(cells: &cells, rule: rule, width: width, height: height, into: mask)
                return UnsafePointer(mask)
            }
            // The cells' origin is the mask's (0, 0); edges clipped to the box lie on its sides, within `reach`'s
            // columns, and the rows written are the ones the cells kept track of.
            var rows = reach
            if cells.isEmpty {
                rows.maxY = rows.minY
            } else {
                rows.minY = cells.minRow
                rows.maxY = cells.maxRow &+ 1
                (cells.bits + cells.minRow &* cells.wordsPerRow).update(
                    repeating: 0, count: (cells.maxRow &- cells.minRow &+ 1) &* cells.wordsPerRow)
            }
            MaskRasterizer.sweep(cells.cells, stride: cells.stride, width: width, reach: rows, wanted: wanted,
                                 rule: rule, into: mask)
        }
        return UnsafePointer(mask)
    }

    /// Writes the `wanted` bytes of the mask from cells that are zero outside `reach` (`stride` cells a row, the
    /// box's width plus spare cells), and leaves every cell zero. Outside `reach` a row's running sum is zero,
    /// and right of it the sum stays what it was at its last column.
    private static func sweep(_ cells: UnsafeMutablePointer<Int32>, stride: Int, width: Int, reach: PixelBox,
                              wanted: PixelBox, rule: FillRule, into mask: UnsafeMutablePointer<UInt8>) {
        switch rule {
        case .nonZero:
            sweep(cells, stride: stride, width: width, reach: reach, wanted: wanted, into: mask, NonZeroCoverage.self)
        case .evenOdd:
            sweep(cells, stride: stride, width: width, reach: reach, wanted: wanted, into: mask, EvenOddCoverage.self)
        }
    }

    @inline(__always)
    private static func sweep<Rule: CoverageRule>(_ cells: UnsafeMutablePointer<Int32>, stride: Int, width: Int,
                                                  reach: PixelBox, wanted: PixelBox,
                                                  into mask: UnsafeMutablePointer<UInt8>, _ rule: Rule.Type) {
        let c0 = reach.minX, c1 = reach.maxX
        for row in Swift.min(reach.minY, wanted.minY)..<Swift.max(reach.maxY, wanted.maxY) {
            let line = cells + row &* stride
            let inReach = row >= reach.minY && row < reach.maxY && c0 < c1
            guard row >= wanted.minY && row < wanted.maxY else {
                if inReach { (line + c0).update(repeating: 0, count: c1 &- c0) }
                continue
            }
            let out = mask + row &* width
            guard inReach else {
                (out + wanted.minX).update(repeating: 0, count: wanted.width)
                continue
            }
            // The running sum over the reached cells, in place, then bytes where wanted and the cells zeroed.
            var acc: Int32 = 0
            var i = c0
            while i < c1 {
                acc &+= line[i]
                line[i] = acc
                i &+= 1
            }
            let tail = UInt8(truncatingIfNeeded: Rule.coverage(acc))
            var x = wanted.minX
            while x < Swift.min(wanted.maxX, c0) { out[x] = 0; x &+= 1 }
            let end = Swift.min(wanted.maxX, c1)
            while x < end {
                out[x] = UInt8(truncatingIfNeeded: Rule.coverage(line[x]))
                x &+= 1
            }
            while x < wanted.maxX { out[x] = tail; x &+= 1 }
            (line + c0).update(repeating: 0, count: c1 &- c0)
        }
    }

    /// How far, in pixels, a path's mapped bounds may pass the box's sides and still count as inside: rounding
    /// in the caller's box arithmetic, far below what coverage can show; points that far out are clamped.
    static let slack = 1e-6

    /// Largest side of a mask, in pixels: a glyph is a few hundred; a box beyond this is a broken size.
    public static let maxSide = 1 << 14
}

/// Turns the cells of one fill into coverage bytes, row by row, in two passes over the row's cells.
///
/// A glyph's box is small and mostly touched by its edges, so the rows are swept densely rather than by the
/// marked cells as `SpanCompositor` does: the first pass is the running sum, stored back in place (one add per
/// cell, the only serial dependency); the second maps each sum to a byte and zeroes the cell, with no branch and
/// no dependency between pixels, a loop the compiler vectorises. Together they cost less than the branchy walk
/// over marks and runs at these sizes. Every column of a touched row is swept (cells beyond the last written one
/// are zero and give zero), so a row costs no calls. Rows outside the touched ones are zeroed whole; the mark
/// bits, not needed here, are cleared to restore `CoverageCells`' invariant.
enum CoverageSweep {
    static func write(cells: inout CoverageCells, rule: FillRule, width: Int, height: Int,
                      into mask: UnsafeMutablePointer<UInt8>) {
        switch rule {
        case .nonZero: run(cells: &cells, width: width, height: height, mask: mask, NonZeroCoverage.self)
        case .evenOdd: run(cells: &cells, width: width, height: height, mask: mask, EvenOddCoverage.self)
        }
    }

    /// The row loop, specialised per rule so that the coverage function inlines into it.
    @inline(__always)
    private static func run<Rule: CoverageRule>(cells: inout CoverageCells, width: Int, height: Int,
                                                mask: UnsafeMutablePointer<UInt8>, _ rule: Rule.Type) {
        // The cells' origin is the mask's (0, 0): the fill's area is the whole box.
        guard !cells.isEmpty else {
            mask.update(repeating: 0, count: width &* height)
            return
        }
        let firstRow = Swift.max(cells.minRow, 0), lastRow = Swift.min(cells.maxRow, height &- 1)
        if firstRow > 0 { mask.update(repeating: 0, count: firstRow &* width) }
        if lastRow < height &- 1 {
            (mask + (lastRow &+ 1) &* width).update(repeating: 0, count: (height &- 1 &- lastRow) &* width)
        }
        let stride = cells.stride, wordsPerRow = cells.wordsPerRow
        (cells.bits + firstRow &* wordsPerRow).update(repeating: 0, count: (lastRow &- firstRow &+ 1) &* wordsPerRow)
        sweep(cells.cells, stride: stride, width: width, from: firstRow, to: lastRow, mask: mask, rule)
    }

    /// Sweeps rows `first…last` of `cells` (`stride` cells a row, the box's width plus two spare cells) into
    /// the same rows of `mask`, leaving the cells zero.
    static func rows(_ cells: UnsafeMutablePointer<Int32>, stride: Int, width: Int, from first: Int, to last: Int,
                     rule: FillRule, into mask: UnsafeMutablePointer<UInt8>) {
        switch rule {
        case .nonZero: sweep(cells, stride: stride, width: width, from: first, to: last, mask: mask, NonZeroCoverage.self)
        case .evenOdd: sweep(cells, stride: stride, width: width, from: first, to: last, mask: mask, EvenOddCoverage.self)
        }
    }

    @inline(__always)
    private static func sweep<Rule: CoverageRule>(_ cells: UnsafeMutablePointer<Int32>, stride: Int, width: Int,
                                                  from first: Int, to last: Int, mask: UnsafeMutablePointer<UInt8>,
                                                  _ rule: Rule.Type) {
        var row = first
        while row <= last {
            let line = cells + row &* stride
            let out = mask + row &* width
            var acc: Int32 = 0
            var i = 0
            while i < width {
                acc &+= line[i]
                line[i] = acc
                i &+= 1
            }
            i = 0
            while i < width {
                out[i] = UInt8(truncatingIfNeeded: Rule.coverage(line[i]))
                line[i] = 0
                i &+= 1
            }
            // The two spare cells right of the box, cleared by two stores: a call to clear them would cost more
            // than a narrow glyph's whole row.
            line[width] = 0
            line[width &+ 1] = 0
            row &+= 1
        }
    }
}

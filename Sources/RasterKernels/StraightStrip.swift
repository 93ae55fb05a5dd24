import CIntrinsics
import Geometry

/// The rows of a thin straight outline (a straight segment's stroke: two long sides and a cap of one or three edges at
/// each end) that only its two long sides cross, blended straight onto the pixels, eight at a time, without cells or
/// marks.
///
/// In such a row each side adds its cells exactly as `CoverageCells.addRow` would (the same expressions on the same
/// piece of the edge), and the compositor's running sum over them is, pixel by pixel, 0 left of the side's first cell,
/// its first cell's value there, the first two cells' sum within it, and the whole height past it. Those sums are
/// taken here lane by lane, by comparing each lane's column with the side's cells, so the two sides' coverage, and the
/// pixels, are those of the cells byte for byte, while a row costs none of the cells' loads and stores, no marks, and
/// no search for marked groups. A hairline's row was about sixty instructions of cell updates for each side and a
/// group or two of compositing (docs/guide.md). The rows above and below, where a cap or the clip box's side is, go
/// through the cells as before.
@usableFromInline
struct StraightStrip {
    /// One long side, oriented downwards and relative to the cells' origin, as the edge loop steps it.
    @usableFromInline
    struct Side {
        @usableFromInline let x0: Double, y0: Double, dxdy: Double
        /// Signed height of a whole row in cell units, and of it per unit of width (as `accumulateRows` has them).
        @usableFromInline let h: Double, perX: Double
        @usableFromInline let upright: Bool

        @inlinable
        init(x0: Double, y0: Double, dxdy: Double, h: Double, perX: Double, upright: Bool) {
            self.x0 = x0; self.y0 = y0; self.dxdy = dxdy; self.h = h; self.perX = perX; self.upright = upright
        }
    }

    @usableFromInline let a: Side, b: Side
    /// The rows, relative to the origin, drawn here: `first..<end`.
    @usableFromInline let first: Int, end: Int

    /// The strip of `ends` (four to eight edges as pairs of points, a closed outline) in `cells` as begun and limited,
    /// or nil when the outline has none or too few of its rows would be drawn here. (Generic over the pipeline, as
    /// every function the kernels use, so that each module's copy has a name of its own; see `PipelineCells`.)
    @inlinable
    init?<Pipeline: FillPipeline>(_ ends: UnsafeBufferPointer<Point>, cells: CoverageCells, _ pipeline: Pipeline.Type) {
        // Eight pixels must fit left of the drawn columns' end in the canvas row.
        let edges = ends.count / 2
        guard edges >= 4, edges <= 8, cells.originX &+ Int(cells.clip.maxX.rounded(.up)) >= 8 else { return nil }
        // The two sides: the pair of edges whose common rows no other edge reaches into.
        var pair: (Int, Int)?
        var top = 0.0, bottom = 0.0
        for i in 0..<(edges &- 1) {
            for j in (i &+ 1)..<edges {
                let lo = Swift.max(StraightStrip.minY(ends, i), StraightStrip.minY(ends, j))
                let hi = Swift.min(StraightStrip.maxY(ends, i), StraightStrip.maxY(ends, j))
                guard hi - lo > bottom - top else { continue }
                var alone = true
                for k in 0..<edges where k != i && k != j {
                    if !(StraightStrip.maxY(ends, k) <= lo || StraightStrip.minY(ends, k) >= hi) { alone = false }
                }
                if alone { pair = (i, j); top = lo; bottom = hi }
            }
        }
        guard let (i, j) = pair,
              let a = StraightStrip.side(ends[2 * i], ends[2 * i + 1], cells, pipeline),
              let b = StraightStrip.side(ends[2 * j], ends[2 * j + 1], cells, pipeline),
              (a.side.h > 0) != (b.side.h > 0)
        else { return nil }
        self.a = a.side; self.b = b.side
        // Rows r from `from` and below `to`: whole rows of both pieces, the last row of either left out (there the edge
        // loop takes the piece's end, not the expression), between the caps, and among the rows the cells may write.
        let oy = Double(cells.originY)
        let from = Swift.max(Swift.max(a.y0, b.y0), Swift.max(top - oy, Double(cells.rowLimit.lo)))
        let to = Swift.min(Swift.min(a.y1, b.y1) - 1, Swift.min(bottom - oy - 1, Double(cells.rowLimit.hi)))
        guard from <= to else { return nil }
        first = Int(from.rounded(.up))
        end = Int(to.rounded(.up))
        // A row's cells must fit one window of eight pixels: the sides' span over a row is largest at an end of the
        // strip (the widest of linear functions minus the narrowest is convex).
        guard end &- first >= 4, self.span(of: first) < 6.5, self.span(of: end &- 1) < 6.5 else { return nil }
    }

    /// The piece of the edge `p0`–`p1` that the edge loop steps row by row (as `CoverageCells.addEdge` cuts it:
    /// to the clip box's rows, and inside its vertical sides), as a side: nil when the edge loop would add none of
    /// it, or add it some other way (under a pixel's width a row is required, so that a row's piece crosses one side
    /// at most).
    @inlinable
    static func side<Pipeline: FillPipeline>(_ p0: Point, _ p1: Point, _ cells: CoverageCells,
                                             _ pipeline: Pipeline.Type) -> (side: Side, y0: Double, y1: Double)? {
        let ox = Double(cells.originX), oy = Double(cells.originY)
        var x0 = p0.x - ox, y0 = p0.y - oy, x1 = p1.x - ox, y1 = p1.y - oy
        var dir = 1.0
        if y0 > y1 {
            swap(&x0, &x1); swap(&y0, &y1)
            dir = -1
        }
        guard y0 < y1, y1 > cells.rowSpan.lo, y0 < cells.rowSpan.hi, x0 < cells.cullRight || x1 < cells.cullRight,
              x0 == x0, x1 == x1, cells.clipToRows(&x0, &y0, &x1, &y1)
        else { return nil }
        let lo = cells.clip.minX, hi = cells.clip.maxX
        if x0 < lo || x1 < lo || x0 > hi || x1 > hi {
            // The last piece inside the box, as `splitAtSides` hands it back.
            let (ax, ay, bx, by, cutA, cutB) = CoverageCells.sideCuts(x0, y0, x1, y1, lo: lo, hi: hi)
            var inside: (Double, Double, Double, Double)?
            func piece(_ xa: Double, _ ya: Double, _ xb: Double, _ yb: Double) {
                guard yb > ya else { return }
                let ca = Swift.min(Swift.max(xa, lo), hi), cb = Swift.min(Swift.max(xb, lo), hi)
                if ca != cb { inside = (ca, ya, cb, yb) }
            }
            piece(x0, y0, ax, ay)
            if cutA < 1 { piece(ax, ay, bx, by) }
            if cutB < 1 { piece(bx, by, x1, y1) }
            guard let inside else { return nil }
            (x0, y0, x1, y1) = inside
        }
        let dx = x1 - x0, dy = y1 - y0
        guard abs(dx) < dy else { return nil }
        let scale = dir * CoverageCells.oneScale
        let side = Side(x0: x0, y0: y0, dxdy: dx / dy, h: scale, perX: scale * dy / abs(dx), upright: x0 == x1)
        return (side, y0, y1)
    }

    @inlinable @inline(__always) static func minY(_ ends: UnsafeBufferPointer<Point>, _ e: Int) -> Double {
        Swift.min(ends[2 * e].y, ends[2 * e + 1].y)
    }

    @inlinable @inline(__always) static func maxY(_ ends: UnsafeBufferPointer<Point>, _ e: Int) -> Double {
        Swift.max(ends[2 * e].y, ends[2 * e + 1].y)
    }

    /// How far apart the sides' ends in `row` lie, at most.
    @inlinable @inline(__always) func span(of row: Int) -> Double {
        let top = Double(row), bottom = Double(row &+ 1)
        let a0 = a.x(top), a1 = a.x(bottom), b0 = b.x(top), b1 = b.x(bottom)
        return Swift.max(Swift.max(a0, a1), Swift.max(b0, b1)) - Swift.min(Swift.min(a0, a1), Swift.min(b0, b1))
    }

    /// Blends the strip's rows in `cells`' area onto `pixels` (a canvas `canvasWidth` wide) with `color`.
    @inlinable @inline(__always)
    func draw<Pipeline: FillPipeline>(cells: CoverageCells, color: UInt32, into pixels: UnsafeMutablePointer<UInt32>,
                                      canvasWidth: Int, _ pipeline: Pipeline.Type) {
        let source = VectorBlend(color)
        let opaque = color >> 24 == 255
        // Columns drawn, relative to the origin, as the compositor has them. The window of eight pixels ends at the
        // last at most (so it never passes the canvas row), and starts left of the first only in a narrower area.
        let drawStart = Int(cells.clip.minX.rounded(.down)), drawEnd = Int(cells.clip.maxX.rounded(.up))
        let lastStart = drawEnd &- 8
        var dst = pixels + ((first &+ cells.originY) &* canvasWidth &+ cells.originX)
        let ahead = SpanCompositor.prefetchRows &* canvasWidth
        // Each row's pieces are worked out one row ahead, so that a row's pixels are read and blended while the next
        // row's arithmetic runs; the row's top, as a Double, is counted on rather than converted.
        var below = Double(first)
        var aTop = a.x(below), bTop = b.x(below)
        below += 1
        var aBottom = a.x(below), bBottom = b.x(below)
        var pa = a.piece(aTop, aBottom), pb = b.piece(bTop, bBottom)
        var row = first
        while row < end {
            let start = Swift.min(Swift.min(pa.cell, pb.cell), lastStart)
            if row &+ SpanCompositor.prefetchRows < end { refreshlab_prefetch(dst + ahead + start) }
            let sum = pa.sums(from: start) &+ pb.sums(from: start)
            below += 1
            aTop = aBottom; bTop = bBottom
            aBottom = a.x(below); bBottom = b.x(below)
            pa = a.piece(aTop, aBottom); pb = b.piece(bTop, bBottom)
            // Lanes left of the drawn columns (in an area narrower than eight pixels) are blended at zero.
            let drawn = refreshlab_lanes_from(Swift.max(drawStart &- start, 0))
            let coverage = NonZeroCoverage.coverage(sum) & SIMD8<UInt32>(truncatingIfNeeded: drawn)
            source.blend(coverage, into: dst + start, opaque: opaque)
            dst += canvasWidth
            row &+= 1
        }
    }
}

extension StraightStrip.Side {
    /// The side's x at the top of a row (`y` a whole number): the edge loop's expression.
    @inlinable @inline(__always)
    func x(_ y: Double) -> Double { x0 + (y - y0) * dxdy }

    /// The side's cells in a whole row that it enters at `xa` and leaves at `xb`: the first cell, and the running
    /// sums at it, at the next and from `last` cells on, as `CoverageCells.addRow` (or, upright,
    /// `InteriorCells.column`) adds them.
    @inlinable @inline(__always)
    func piece(_ xa: Double, _ xb: Double) -> StraightStrip.Piece {
        let total = CoverageCells.fixed(h)
        if upright {
            let ix = Int(x0)
            let here = CoverageCells.fixed(Double(total) * (1 - (x0 - Double(ix))))
            return StraightStrip.Piece(cell: ix, first: here, second: total, total: total, last: 1)
        }
        let (left, right) = xa < xb ? (xa, xb) : (xb, xa)
        let il = Int(left)
        let side = Double(il &+ 1)
        let here = InteriorCells.withinArea(h, side, left, right)
        let done = InteriorCells.firstPixelArea(perX, side - left)
        let reach = InteriorCells.areaThroughLastPixel(perX, side, left, right - side)
        let crosses = right > side
        return StraightStrip.Piece(cell: il, first: crosses ? done : here, second: crosses ? reach : total,
                                   total: total, last: crosses ? 2 : 1)
    }
}

extension StraightStrip {
    /// A side's cells in one row.
    @usableFromInline
    struct Piece {
        @usableFromInline let cell: Int
        @usableFromInline let first: Int32, second: Int32, total: Int32
        @usableFromInline let last: Int

        @inlinable @inline(__always)
        init(cell: Int, first: Int32, second: Int32, total: Int32, last: Int) {
            self.cell = cell; self.first = first; self.second = second; self.total = total; self.last = last
        }

        /// The running sum of its cells at each of the eight columns from `start` (at most `cell`).
        @inlinable @inline(__always)
        func sums(from start: Int) -> SIMD8<Int32> {
            let at = cell &- start
            return (SIMD8(repeating: first) & refreshlab_lanes_from(at))
                &+ (SIMD8(repeating: second &- first) & refreshlab_lanes_from(at &+ 1))
                &+ (SIMD8(repeating: total &- second) & refreshlab_lanes_from(at &+ last))
        }
    }
}

extension FillPipeline {
    /// The body of `fillOutline`, for each pipeline to inline: a straight segment's stroke is drawn in three parts,
    /// the rows above its strip and below it through the cells, the strip's straight onto the pixels.
    @inlinable @inline(__always)
    public static func fillOutlineKernel(_ ends: UnsafeBufferPointer<Point>, into cells: inout CoverageCells,
                                         color: UInt32, into pixels: UnsafeMutablePointer<UInt32>, canvasWidth: Int) {
        guard let strip = StraightStrip(ends, cells: cells, Self.self) else {
            addEdgesKernel(ends, into: &cells)
            compositeKernel(cells: &cells, color: color, evenOdd: false, into: pixels, canvasWidth: canvasWidth)
            return
        }
        let rows = cells.rowLimit
        cells.setRowLimit(rows.lo, strip.first)
        addEdgesKernel(ends, into: &cells)
        compositeKernel(cells: &cells, color: color, evenOdd: false, into: pixels, canvasWidth: canvasWidth)
        strip.draw(cells: cells, color: color, into: pixels, canvasWidth: canvasWidth, Self.self)
        cells.setRowLimit(strip.end, rows.hi)
        addEdgesKernel(ends, into: &cells)
        compositeKernel(cells: &cells, color: color, evenOdd: false, into: pixels, canvasWidth: canvasWidth)
    }
}

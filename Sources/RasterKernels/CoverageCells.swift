import CIntrinsics
import Geometry

/// The cell buffer of one fill: per pixel, the change in winding-weighted coverage from the pixel on its left.
///
/// An edge crossing a scanline adds, to each cell it passes through, the signed area between it and the
/// cell's right side, and the rest of its height to the next cell; a running sum along the row then gives
/// every pixel's coverage. Each written cell is also marked in a bit set, one bit per aligned group of eight cells
/// (the compositor's unit), so that the compositor jumps over the long unmarked stretches, where coverage is
/// constant, 512 cells a word, and finds a thin shape's few groups in a row of up to 512 cells in one word; except
/// in an area one group wide (`isNarrow`), whose rows the compositor takes whole.
///
/// Invariant between fills: every cell is 0 and every bit is clear. The compositor restores it as it reads.
public struct CoverageCells: EdgeSink {
    public var cells: UnsafeMutablePointer<Int32>
    public var bits: UnsafeMutablePointer<UInt64>

    /// Coverage of a whole pixel in cell units. Fixed point keeps the compositor's running sum an integer add
    /// (one cycle, where a float add waits four) and its coverage a multiply and a shift; 2¹⁶ leaves 16 bits of
    /// headroom for overlapping windings and keeps rounding far below the 8-bit output.
    @inlinable public static var one: Int32 { 1 << 16 }
    @inlinable static var oneScale: Double { 65536 }
    @usableFromInline var cellCapacity = 0
    @usableFromInline var wordCapacity = 0

    /// The canvas pixel of cell (0, 0): the buffer covers only the fill's area, so a small shape reuses the
    /// same few kilobytes fill after fill, which stay in the first-level cache.
    public var originX = 0, originY = 0
    /// Cells per row: the area's width plus two spare cells, which receive the area that edges on or next to
    /// the right side of the clip box pass to their right-hand neighbour, rounded up to a multiple of eight so that
    /// the compositor's aligned groups of eight cells never reach into the next row (the cells past the spare ones
    /// are never written, and stay zero).
    public var stride = 0
    public var wordsPerRow = 0
    /// The clip box relative to the origin.
    public var clip = ClipBox(minX: 0, minY: 0, maxX: 0, maxY: 0)

    /// Edges at or right of this x (relative to the origin) are dropped: when the clip box's right side is a whole
    /// pixel, all they would add lands in the cells past it, which no pixel drawn reads (text running off the
    /// screen's edge). Infinite when the side is fractional: then they give the last pixel its covered part.
    public var cullRight = Double.infinity

    /// The rows, relative to the origin, that edges may write: all of them, unless a band of the canvas is drawn on
    /// its own (`limitRows`). Rows are skipped, not clipped: the part of an edge inside the band is computed exactly
    /// as when the whole fill is drawn, so every band's pixels are those of the whole fill.
    public var rowLimit = (lo: Int.min, hi: Int.max)
    /// The rows, as coordinates relative to the origin, where an edge adds anything: the clip box's, within
    /// `rowLimit`. An edge or curve wholly above `lo` or at or below `hi` is dropped before any arithmetic (the
    /// threads that draw a band flatten whole paths into it).
    public var rowSpan = (lo: 0.0, hi: 0.0)

    /// Rows written since `begin`: the compositor visits only these. (Every row's marks are scanned whole: a word
    /// holds 512 cells, so a row is one or two words, and noting each edge's columns cost more than it saved.)
    public var minRow = 0, maxRow = 0

    /// Edges of a path being flattened, as pairs of ends, waiting to be added a batch at a time (see `BatchedCells`).
    public let pendingEdges: UnsafeMutablePointer<Point>
    /// Edges `pendingEdges` holds: a batch small enough to stay in the first-level cache.
    @inlinable static var pendingCapacity: Int { 256 }

    @inlinable public init() {
        cells = .allocate(capacity: 1)
        bits = .allocate(capacity: 1)
        pendingEdges = .allocate(capacity: 2 * CoverageCells.pendingCapacity)
    }

    /// Frees the buffers; the owner calls it once, from its deinit.
    @inlinable public func release() {
        cells.deallocate()
        bits.deallocate()
        pendingEdges.deallocate()
    }

    /// Prepares for one fill inside `area`, a box with 0 ≤ minX < maxX and 0 ≤ minY < maxY (in canvas pixels)
    /// that holds every edge of the fill or is its clip: edges are clipped to it.
    @inlinable public mutating func begin(area: ClipBox) {
        originX = Int(area.minX)
        originY = Int(area.minY)
        let width = CoverageCells.lastIndex(area.maxX) &+ 1 &- originX
        let height = CoverageCells.lastIndex(area.maxY) &+ 1 &- originY
        stride = (width &+ 2 &+ 7) & ~7
        wordsPerRow = (stride &+ 511) >> 9
        let needCells = stride &* height, needWords = wordsPerRow &* height
        if needCells > cellCapacity {
            cells.deallocate()
            cellCapacity = Swift.max(needCells, cellCapacity &* 2)
            cells = .allocate(capacity: cellCapacity)
            cells.initialize(repeating: 0, count: cellCapacity)
        }
        if needWords > wordCapacity {
            bits.deallocate()
            wordCapacity = Swift.max(needWords, wordCapacity &* 2)
            bits = .allocate(capacity: wordCapacity)
            bits.initialize(repeating: 0, count: wordCapacity)
        }
        let ox = Double(originX), oy = Double(originY)
        clip = ClipBox(minX: area.minX - ox, minY: area.minY - oy, maxX: area.maxX - ox, maxY: area.maxY - oy)
        cullRight = Double(Int(clip.maxX)) == clip.maxX ? clip.maxX : .infinity
        minRow = Int.max; maxRow = Int.min
        rowLimit = (Int.min, Int.max)
        rowSpan = (clip.minY, clip.maxY)
    }

    /// Limits the edges added after `begin` to the canvas rows `rows`: a band drawn by one worker.
    @inlinable public mutating func limitRows(to rows: Range<Int>) {
        setRowLimit(rows.lowerBound &- originY, rows.upperBound &- originY)
    }

    /// Lets edges write rows `lo..<hi` (relative to the origin) only, and starts the compositor's rows afresh: the
    /// cells must be clear (begun, or composited since).
    @inlinable public mutating func setRowLimit(_ lo: Int, _ hi: Int) {
        rowLimit = (lo, hi)
        rowSpan = (Swift.max(clip.minY, Double(lo)), Swift.min(clip.maxY, Double(hi)))
        minRow = Int.max; maxRow = Int.min
    }

    /// Edges wholly above or below the clip box or the rows allowed, or at or past `cullRight`, are dropped.
    @inlinable @inline(__always)
    public func addsNothing(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
        let ox = Double(originX), oy = Double(originY)
        return maxY - oy <= rowSpan.lo || minY - oy >= rowSpan.hi || minX - ox >= cullRight
    }

    /// True when no cell was written since `begin`.
    @inlinable public var isEmpty: Bool { minRow > maxRow }

    /// Adds one edge; the caller guarantees coordinates within `Rasterizer.maxCoordinate` (edges with a NaN are
    /// dropped).
    @inlinable @inline(__always)
    public mutating func addEdge(from p0: Point, to p1: Point) {
        if isNarrow {
            addEdge(from: p0, to: p1, PortableFill.self, UnmarkedCells.self)
        } else {
            addEdge(from: p0, to: p1, PortableFill.self, MarkedCells.self)
        }
    }

    /// An area one group of cells wide: the compositor blends each row's one group whole, without reading marks, so
    /// the edges write none (`UnmarkedCells`).
    @inlinable public var isNarrow: Bool { stride == 8 }

    /// `addEdge(from:to:)` as compiled in `Pipeline`'s module, marking the cells written or not as `Marks` says (the
    /// caller chooses by `isNarrow`). What is not inlined into the caller (the split of an edge crossing the clip
    /// box's sides, the run of a shallow edge across pixels) is a function specialised for that module, under a name
    /// that holds it: unspecialised, the wider modules would call the portable copy.
    @inlinable @inline(__always)
    public mutating func addEdge<Pipeline: FillPipeline, Marks: CellMarking>(from p0: Point, to p1: Point,
                                                                          _ pipeline: Pipeline.Type,
                                                                          _ marks: Marks.Type) {
        // Orient downwards; `dir` carries the winding sign.
        let ox = Double(originX), oy = Double(originY)
        var x0 = p0.x - ox, y0 = p0.y - oy, x1 = p1.x - ox, y1 = p1.y - oy
        var dir = 1.0
        if y0 > y1 {
            swap(&x0, &x1); swap(&y0, &y1)
            dir = -1
        }
        // Horizontal edges cover no height; edges wholly above or below the clip box or the rows allowed touch no
        // row added (clipping only shortens them), and edges at or past `cullRight` no cell that is drawn.
        // A NaN fails every comparison: in y it fails the first, in x the last two (so no NaN becomes an index).
        guard y0 < y1, y1 > rowSpan.lo, y0 < rowSpan.hi, x0 < cullRight || x1 < cullRight, x0 == x0, x1 == x1
        else { return }
        guard clipToRows(&x0, &y0, &x1, &y1) else { return }
        let lo = clip.minX, hi = clip.maxX
        if x0 < lo || x1 < lo || x0 > hi || x1 > hi {
            // Only the piece inside the box, if any, is left for the general loop below, inlined once.
            guard let inside = splitAtSides(x0, y0, x1, y1, dir, pipeline, marks) else { return }
            (x0, y0, x1, y1) = inside
        }
        accumulate(x0, y0, x1, y1, dir, pipeline, marks)
    }

    /// Cuts a downward edge to the clip box's rows; false when nothing of it is left. (`addEdge` and `StraightStrip`
    /// both cut with it, so that a piece's rows come out the same from either.)
    @inlinable @inline(__always)
    func clipToRows(_ x0: inout Double, _ y0: inout Double, _ x1: inout Double, _ y1: inout Double) -> Bool {
        if y0 < clip.minY || y1 > clip.maxY {
            let dy = y1 - y0, dx = x1 - x0
            if y0 < clip.minY {
                let nx = x0 + dx * ((clip.minY - y0) / dy)
                x0 = nx; y0 = clip.minY
            }
            if y1 > clip.maxY {
                let nx = x1 - dx * ((y1 - clip.maxY) / dy)
                x1 = nx; y1 = clip.maxY
            }
            return y0 < y1
        }
        return true
    }

    /// Where a downward edge crosses the clip box's vertical sides `lo` and `hi`: the ends of its three pieces at
    /// most, before the first cut (a), between the cuts (b) and after the second; a cut at 1 or more is no cut.
    @inlinable @inline(__always)
    static func sideCuts(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, lo: Double, hi: Double)
        -> (ax: Double, ay: Double, bx: Double, by: Double, cutA: Double, cutB: Double) {
        let dx = x1 - x0, dy = y1 - y0
        var cutA = 1.0, cutB = 1.0
        if (x0 < lo) != (x1 < lo) { cutA = (lo - x0) / dx }
        if (x0 > hi) != (x1 > hi) {
            let t = (hi - x0) / dx
            if t < cutA { cutB = cutA; cutA = t } else { cutB = t }
        }
        let ax = cutA >= 1 ? x1 : x0 + dx * cutA, ay = cutA >= 1 ? y1 : y0 + dy * cutA
        let bx = cutB >= 1 ? x1 : x0 + dx * cutB, by = cutB >= 1 ? y1 : y0 + dy * cutB
        return (ax, ay, bx, by, cutA, cutB)
    }

    /// Splits a downward edge within the clip box's rows that crosses or lies beyond one of its vertical sides where
    /// it crosses them. Each piece beyond a side is pushed onto that side, which keeps the winding of every point
    /// inside the box unchanged, and added here (a vertical run); the piece inside the box, with its ends clamped
    /// onto it against rounding, is returned for the caller to add (so that the general loop is inlined once,
    /// there).
    @inlinable @inline(never)
    mutating func splitAtSides<Pipeline: FillPipeline, Marks: CellMarking>(
        _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ dir: Double, _ pipeline: Pipeline.Type,
        _ marks: Marks.Type
    )
        -> (x0: Double, y0: Double, x1: Double, y1: Double)? {
        let lo = clip.minX, hi = clip.maxX
        let (ax, ay, bx, by, cutA, cutB) = CoverageCells.sideCuts(x0, y0, x1, y1, lo: lo, hi: hi)
        var inside: (x0: Double, y0: Double, x1: Double, y1: Double)?
        func piece(_ xa: Double, _ ya: Double, _ xb: Double, _ yb: Double) {
            guard yb > ya else { return }
            let ca = Swift.min(Swift.max(xa, lo), hi), cb = Swift.min(Swift.max(xb, lo), hi)
            if ca == cb {
                // Beyond a side: a vertical run, which the general loop adds without stepping along the rows.
                accumulate(ca, ya, cb, yb, dir, pipeline, marks)
                return
            }
            // A piece cut off just short of a side by rounding is not vertical either: all but the last such piece
            // are added here.
            if let earlier = inside { accumulate(earlier.x0, earlier.y0, earlier.x1, earlier.y1, dir, pipeline, marks) }
            inside = (ca, ya, cb, yb)
        }
        piece(x0, y0, ax, ay)
        if cutA < 1 { piece(ax, ay, bx, by) }
        if cutB < 1 { piece(bx, by, x1, y1) }
        return inside
    }

    /// Adds a downward edge lying inside the clip box (so x, y ≥ 0), scanline by scanline.
    @inlinable @inline(__always)
    mutating func accumulate<Pipeline: FillPipeline, Marks: CellMarking>(
        _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ dir: Double, _ pipeline: Pipeline.Type,
        _ marks: Marks.Type
    ) {
        let firstRow = Int(y0)
        let lastRow = CoverageCells.lastIndex(y1)
        // Within a band only its rows; otherwise the limits are Int.min and Int.max, and every row is added.
        let from = Swift.max(firstRow, rowLimit.lo), to = Swift.min(lastRow, rowLimit.hi &- 1)
        guard from <= to else { return }
        accumulateRows(x0, y0, x1, y1, dir, firstRow, lastRow, from: from, to: to, pipeline, marks)
    }

    /// Adds rows `from…to` of a downward edge that spans rows `firstRow…lastRow`. A row's piece is computed from the
    /// edge's ends, the same whichever rows are added.
    @inlinable @inline(__always)
    mutating func accumulateRows<Pipeline: FillPipeline, Marks: CellMarking>(
        _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ dir: Double, _ firstRow: Int, _ lastRow: Int,
        from: Int, to: Int, _ pipeline: Pipeline.Type, _ marks: Marks.Type
    ) {
        if from < minRow { minRow = from }
        if to > maxRow { maxRow = to }
        let scale = dir * CoverageCells.oneScale
        if x0 == x1 {
            // Vertical edges (rectangles, the sides of strokes) stay in one column: no per-row x stepping.
            let ix = Int(x0)
            let keep = 1 - (x0 - Double(ix))
            var row = from
            var ya = from == firstRow ? y0 : Double(from)
            while row <= to {
                let yb = Swift.min(Double(row + 1), y1)
                InteriorCells.column(cells + row &* stride, ix, CoverageCells.fixed((yb - ya) * scale), keep)
                if Marks.marks { setRun(row, ix, 1) }
                ya = yb
                row &+= 1
            }
            return
        }
        if firstRow == lastRow {
            // Within one scanline, the usual case for the short edges of flattened curves: no slope is needed, and
            // the height per unit of width is the piece's own.
            let h = (y1 - y0) * scale
            addRow(firstRow, x0, x1, h, h / abs(x1 - x0), pipeline, marks)
            return
        }
        let dx = x1 - x0, dy = y1 - y0
        let dxdy = dx / dy
        // Height per unit of width, the same in every scanline of the edge: divided once here, not per row, and
        // from the ends rather than from the slope, so that the two divisions do not wait on each other.
        let perX = scale * dy / abs(dx)
        var row = from
        var ya = y0, xa = x0
        if from > firstRow {
            // Where the rows above would have left the edge: the same expression as the loop's.
            ya = Double(from); xa = x0 + (ya - y0) * dxdy
        }
        while row <= to {
            let yb: Double, xb: Double
            if row == lastRow {
                yb = y1; xb = x1
            } else {
                yb = Double(row &+ 1); xb = x0 + (yb - y0) * dxdy
            }
            addRow(row, xa, xb, (yb - ya) * scale, perX, pipeline, marks)
            ya = yb; xa = xb
            row &+= 1
        }
    }

    /// Adds the piece of an edge within `row` from x = `a` to x = `b` (in either order), of signed height `h`, `perX`
    /// of it per unit of width.
    @inlinable @inline(__always)
    mutating func addRow<Pipeline: FillPipeline, Marks: CellMarking>(
        _ row: Int, _ a: Double, _ b: Double, _ h: Double, _ perX: Double, _ pipeline: Pipeline.Type,
        _ marks: Marks.Type
    ) {
        let (left, right) = a < b ? (a, b) : (b, a)
        let il = Int(left)
        let side = Double(il &+ 1)
        if right <= side + 1 {
            // Within one pixel or across one side into the next: nine pieces in ten, in about equal numbers. Both are
            // written as one set of three cell updates, inline: the one-side case was a call to `across`, around
            // which the edge loop saved and restored its registers. (The compiler still chooses between the two
            // results with a branch: hidden from it, the choice cost more than it saved.)
            let line = cells + row &* stride
            let total = CoverageCells.fixed(h)
            // Within (`InteriorCells.within`): the area right of the edge, and the rest of the height next door.
            let here = InteriorCells.withinArea(h, side, left, right)
            // Across (`InteriorCells.across` with `ir` = il + 1): a triangle in the first pixel, the rest of a
            // trapezoid in the second.
            let done = InteriorCells.firstPixelArea(perX, side - left)
            let reach = InteriorCells.areaThroughLastPixel(perX, side, left, right - side)
            let crosses = right > side
            let first = crosses ? done : here
            let second = crosses ? reach : total
            let last = crosses ? 2 : 1
            line[il] &+= first
            refreshlab_barrier()
            line[il &+ 1] &+= second &- first
            refreshlab_barrier()
            // Within, `total − second` is 0, added to the second cell again: a third cell might lie past the row.
            line[il &+ last] &+= total &- second
            if Marks.marks { setRun(row, il, last) }
        } else {
            CoverageCells.across(cells + row &* stride, bits + row &* wordsPerRow, left, right, il, h, perX, pipeline,
                                 marks)
        }
    }

    /// Adds the part of an edge within one scanline that crosses from pixel `il` into later ones: it runs from
    /// `left` to `right` and covers the signed height `h` (in cell units, `one` for a whole row), `perX` of it
    /// per unit of width.
    ///
    /// Pixel k then gets the coverage h·A(k), A(k) the mean fraction of the pixel right of the edge over the
    /// edge's height. Each cell receives the rounded difference R(h·A(k)) − R(h·A(k−1)), so the deltas of
    /// one edge telescope to exactly R(h) and rounding never leaves a residue that would leak along the row.
    /// The first pixel holds a triangle of the edge's span, whole pixels add h/width each (their mean fraction
    /// right of the edge grows by one pixel's worth), the last holds the rest of a trapezoid.
    ///
    /// `line` and `marks` are the row's cells and marks. Static, so that the caller keeps the cells' state in
    /// registers across the call instead of storing it for a `mutating` one.
    @inlinable @inline(never)
    static func across<Pipeline: FillPipeline, Marks: CellMarking>(
        _ line: UnsafeMutablePointer<Int32>, _ marks: UnsafeMutablePointer<UInt64>, _ left: Double, _ right: Double,
        _ il: Int, _ h: Double, _ perX: Double, _ pipeline: Pipeline.Type, _ marking: Marks.Type
    ) {
        InteriorCells.across(line, left, right, il, h, perX)
        if Marks.marks { CoverageCells.mark(marks, il, Swift.max(il, CoverageCells.lastIndex(right)) &+ 1) }
    }

    /// The index of the last unit interval that a span ending at `v` (≥ 0) reaches into: ⌈v⌉ − 1.
    ///
    /// Coordinates here are never negative (the clip box starts at 0 or later), so truncation is floor; it
    /// avoids the libm calls that `rounded(.down)` and `rounded(.up)` make at the baseline CPU level.
    @inlinable @inline(__always)
    public static func lastIndex(_ v: Double) -> Int {
        let t = Int(v)
        return Double(t) == v ? t - 1 : t
    }

    /// `v` rounded to the nearest integer, for |v| < 2³¹: adding 1.5·2⁵² pushes the fraction out of a Double's
    /// mantissa, so the low bits of the sum are the rounded integer. Unlike `Int32(v)` this compiles to an add
    /// and a move, with no range checks, in the innermost loops.
    @inlinable @inline(__always)
    public static func fixed(_ v: Double) -> Int32 {
        Int32(truncatingIfNeeded: (v + 6_755_399_441_055_744.0).bitPattern)
    }

    /// Marks cells `a…a + extra` of `row` (`extra` 1 or 2): what a piece of an edge within one pixel (a vertical
    /// edge's too) or across one side touches.
    @inlinable @inline(__always)
    func setRun(_ row: Int, _ a: Int, _ extra: Int) {
        let base = bits + row &* wordsPerRow
        let w = a >> 9, group = UInt64(truncatingIfNeeded: (a >> 3) & 63)
        if (a & 511) &+ extra < 512 {
            // The last cell is in the next group when a is within `extra` of its group's end: a mask of two bits.
            let next = UInt64(truncatingIfNeeded: ((a & 7) &+ extra) >> 3)
            base[w] |= (1 | next << 1) << group
        } else {
            CoverageCells.mark(base, a, a &+ extra)
        }
    }

    /// Marks the groups of cells `a…b` (inclusive) of the row whose marks start at `base`.
    @inlinable @inline(__always)
    static func mark(_ base: UnsafeMutablePointer<UInt64>, _ a: Int, _ b: Int) {
        let ga = a >> 3, gb = b >> 3
        let wa = ga >> 6, wb = gb >> 6
        let all = UInt64.max
        if wa == wb {
            base[wa] |= (all >> UInt64(truncatingIfNeeded: 63 &- (gb &- ga))) << UInt64(truncatingIfNeeded: ga & 63)
            return
        }
        base[wa] |= all << UInt64(truncatingIfNeeded: ga & 63)
        var w = wa + 1
        while w < wb {
            base[w] = all
            w += 1
        }
        base[wb] |= all >> UInt64(truncatingIfNeeded: 63 &- (gb & 63))
    }
}

/// Whether edges mark the groups of cells they write, for the compositor to find: not in a narrow area
/// (`CoverageCells.isNarrow`), where the marks are never read. A type, so that each case is compiled on its own
/// with no test per row.
public protocol CellMarking {
    static var marks: Bool { get }
}

public enum MarkedCells: CellMarking {
    @inlinable public static var marks: Bool { true }
}

public enum UnmarkedCells: CellMarking {
    @inlinable public static var marks: Bool { false }
}

/// An axis-aligned box in pixel coordinates, by its sides; the area that a fill may touch.
public struct ClipBox: Equatable {
    public var minX: Double, minY: Double, maxX: Double, maxY: Double

    @inlinable
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }
}

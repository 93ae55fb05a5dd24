import Geometry

/// The cell buffer of one fill: per pixel, the change in winding-weighted coverage from the pixel on its left.
///
/// An edge crossing a scanline adds, to each cell it passes through, the signed area between it and the
/// cell's right side, and the rest of its height to the next cell; a running sum along the row then gives
/// every pixel's coverage. Each written cell is also marked in a bit set (one bit per cell, 64 per word), so
/// the compositor can jump over the long unmarked stretches, where coverage is constant, a word at a time.
///
/// Invariant between fills: every cell is 0 and every bit is clear. The compositor restores it as it reads.
struct CoverageCells: EdgeSink {
    private(set) var cells: UnsafeMutablePointer<Float>
    private(set) var bits: UnsafeMutablePointer<UInt64>
    private var cellCapacity = 0
    private var wordCapacity = 0

    /// Cells per row: the canvas width plus two spare cells, which receive the area that edges on or next to
    /// the right side of the clip box pass to their right-hand neighbour.
    private(set) var stride = 0
    private(set) var wordsPerRow = 0
    private(set) var clip = ClipBox(minX: 0, minY: 0, maxX: 0, maxY: 0)

    /// Rows and cells written since `begin`: the compositor visits only these.
    private(set) var minRow = 0, maxRow = 0, minCell = 0, maxCell = 0

    init() {
        cells = .allocate(capacity: 1)
        bits = .allocate(capacity: 1)
    }

    /// Frees the buffers; the owner calls it once, from its deinit.
    func release() {
        cells.deallocate()
        bits.deallocate()
    }

    /// Prepares for one fill into `canvas`, inside `clip` (already within the canvas).
    mutating func begin(canvas: Canvas, clip: ClipBox) {
        stride = canvas.width + 2
        wordsPerRow = (stride + 63) >> 6
        let needCells = stride * canvas.height, needWords = wordsPerRow * canvas.height
        if needCells > cellCapacity {
            cells.deallocate()
            cells = .allocate(capacity: needCells)
            cells.initialize(repeating: 0, count: needCells)
            cellCapacity = needCells
        }
        if needWords > wordCapacity {
            bits.deallocate()
            bits = .allocate(capacity: needWords)
            bits.initialize(repeating: 0, count: needWords)
            wordCapacity = needWords
        }
        self.clip = clip
        minRow = Int.max; maxRow = Int.min; minCell = Int.max; maxCell = Int.min
    }

    /// True when no cell was written since `begin`.
    var isEmpty: Bool { minRow > maxRow }

    /// Adds one edge; the caller guarantees finite coordinates within `Rasterizer.maxCoordinate`.
    @inline(__always)
    mutating func addEdge(from p0: Point, to p1: Point) {
        // Orient downwards; `dir` carries the winding sign.
        var x0 = p0.x, y0 = p0.y, x1 = p1.x, y1 = p1.y
        var dir: Float = 1
        if y0 > y1 {
            swap(&x0, &x1); swap(&y0, &y1)
            dir = -1
        }
        // Horizontal edges cover no height; edges wholly above or below the clip box touch no row inside it.
        guard y0 < y1, y1 > clip.minY, y0 < clip.maxY else { return }
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
            guard y0 < y1 else { return }
        }
        let lo = clip.minX, hi = clip.maxX
        if x0 >= lo, x1 >= lo, x0 <= hi, x1 <= hi {
            accumulate(x0, y0, x1, y1, dir)
            return
        }
        // Split where the edge crosses the box's sides; each piece outside is pushed onto the side it is beyond,
        // which keeps the winding of every point inside the box unchanged.
        let dx = x1 - x0, dy = y1 - y0
        var cutA = 1.0, cutB = 1.0
        if (x0 < lo) != (x1 < lo) { cutA = (lo - x0) / dx }
        if (x0 > hi) != (x1 > hi) {
            let t = (hi - x0) / dx
            if t < cutA { cutB = cutA; cutA = t } else { cutB = t }
        }
        // Three pieces at most; written out rather than looped over an array so that nothing is allocated.
        let ax = cutA >= 1 ? x1 : x0 + dx * cutA, ay = cutA >= 1 ? y1 : y0 + dy * cutA
        piece(x0, y0, ax, ay, dir)
        guard cutA < 1 else { return }
        let bx = cutB >= 1 ? x1 : x0 + dx * cutB, by = cutB >= 1 ? y1 : y0 + dy * cutB
        piece(ax, ay, bx, by, dir)
        guard cutB < 1 else { return }
        piece(bx, by, x1, y1, dir)
    }

    /// A piece of a split edge, wholly on one side of each of the box's vertical sides: clamping its ends
    /// moves it onto the side it is beyond, or leaves it alone when it is inside.
    @inline(__always)
    private mutating func piece(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ dir: Float) {
        guard y1 > y0 else { return }
        let lo = clip.minX, hi = clip.maxX
        accumulate(Swift.min(Swift.max(x0, lo), hi), y0, Swift.min(Swift.max(x1, lo), hi), y1, dir)
    }

    /// Adds a downward edge lying inside the clip box, scanline by scanline.
    @inline(__always)
    private mutating func accumulate(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ dir: Float) {
        let firstRow = Int(y0.rounded(.down))
        let lastRow = Int(y1.rounded(.up)) - 1
        if firstRow < minRow { minRow = firstRow }
        if lastRow > maxRow { maxRow = lastRow }
        if x0 == x1 {
            // Vertical edges (rectangles, the sides of strokes) stay in one column: no per-row x stepping.
            let ix = Int(x0.rounded(.down))
            let fx = Float(x0 - Double(ix))
            markRange(ix, ix + 1)
            var row = firstRow
            var ya = y0
            while row <= lastRow {
                let yb = Swift.min(Double(row + 1), y1)
                let d = Float(yb - ya) * dir
                let line = cells + row * stride
                line[ix] += d - d * fx
                line[ix + 1] += d * fx
                setBits(row, ix, ix + 1)
                ya = yb
                row += 1
            }
            return
        }
        let dxdy = (x1 - x0) / (y1 - y0)
        var row = firstRow
        var ya = y0, xa = x0
        while row <= lastRow {
            let yb: Double, xb: Double
            if row == lastRow {
                yb = y1; xb = x1
            } else {
                yb = Double(row + 1); xb = x0 + (yb - y0) * dxdy
            }
            scanline(row, xa, xb, Float(yb - ya) * dir)
            ya = yb; xa = xb
            row += 1
        }
    }

    /// Adds the part of an edge within one scanline: it runs from `xa` to `xb` and covers height `d` (signed).
    @inline(__always)
    private mutating func scanline(_ row: Int, _ xa: Double, _ xb: Double, _ d: Float) {
        let line = cells + row * stride
        let (left, right) = xa < xb ? (xa, xb) : (xb, xa)
        let il = Int(left.rounded(.down))
        let ir = Swift.max(il, Int(right.rounded(.up)) - 1)
        if il == ir {
            // Within one pixel: the area right of the edge is the height times the distance from its mean x
            // to the pixel's right side.
            let fx = Float(0.5 * (left + right) - Double(il))
            line[il] += d - d * fx
            line[il + 1] += d * fx
            markRange(il, il + 1)
            setBits(row, il, il + 1)
            return
        }
        // Across several pixels: the height is shared in proportion to the width crossed in each; a pixel crossed
        // whole gives half of its share to itself and half to its right neighbour.
        let perX = d / Float(right - left)
        let wl = Float(Double(il + 1) - left)
        let dl = perX * wl
        let fl = 1 - 0.5 * wl
        line[il] += dl - dl * fl
        line[il + 1] += dl * fl
        let half = 0.5 * perX
        var i = il + 1
        while i < ir {
            line[i] += half
            line[i + 1] += half
            i += 1
        }
        let wr = Float(right - Double(ir))
        let dr = perX * wr
        let fr = 0.5 * wr
        line[ir] += dr - dr * fr
        line[ir + 1] += dr * fr
        markRange(il, ir + 1)
        setBits(row, il, ir + 1)
    }

    @inline(__always)
    private mutating func markRange(_ a: Int, _ b: Int) {
        if a < minCell { minCell = a }
        if b > maxCell { maxCell = b }
    }

    /// Marks cells `a…b` (inclusive) of `row`.
    @inline(__always)
    private func setBits(_ row: Int, _ a: Int, _ b: Int) {
        let base = bits + row * wordsPerRow
        let wa = a >> 6, wb = b >> 6
        let all = UInt64.max
        if wa == wb {
            base[wa] |= (all >> UInt64(63 - (b - a))) << UInt64(a & 63)
            return
        }
        base[wa] |= all << UInt64(a & 63)
        var w = wa + 1
        while w < wb {
            base[w] = all
            w += 1
        }
        base[wb] |= all >> UInt64(63 - (b & 63))
    }
}

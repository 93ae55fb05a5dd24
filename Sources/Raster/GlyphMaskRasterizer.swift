import Geometry

/// Fills glyph outlines into 8-bit coverage masks with integer arithmetic: a scaled and translated path that
/// lies inside its own box, as every glyph does in the box made from its control points.
///
/// Why a rasterizer of its own: a glyph set is tens of thousands of short edges, and per edge the general fill
/// (`MaskRasterizer`) pays for clamping, conversions and a floating-point area per row. Here the flattening
/// (forward differences, no division per point) rounds every point once to 1/256 px, and from there an edge
/// is integer adds and multiplies: the row and column it lies in are shifts, and the area it leaves in a cell
/// is exact, so no rounding is needed per cell and the coverage of a pixel is the exact area of its part of
/// the rounded outline. Coverage matches the general fill within one or two levels on edge pixels.
///
/// Cells hold, per pixel, the change in coverage from the pixel on the left (see `CoverageCells`), in units of
/// 1/(256 · 512) of a pixel; a running sum along the row gives the area. The buffers grow to the largest box
/// seen and are reused: steady-state filling allocates nothing.
public final class GlyphMaskRasterizer {
    /// Flattening tolerance in pixels: how far the straight segments may stray from the curves.
    public var tolerance = 1.0 / 16

    private var cells: UnsafeMutablePointer<Int32>
    private var cellCapacity = 1
    private var mask: UnsafeMutablePointer<UInt8>
    private var maskCapacity = 0

    /// Side of the box, in pixels, that a new rasterizer has room for: larger than any glyph of screen text
    /// (about 66 KB of cells), so that rendering allocates nothing from the first glyph on, where buffers
    /// grown on demand would reallocate again and again while the glyphs get bigger.
    static let initialSide = 128

    public init() {
        let side = GlyphMaskRasterizer.initialSide
        cellCapacity = (side + 2) * side
        cells = .allocate(capacity: cellCapacity)
        cells.initialize(repeating: 0, count: cellCapacity)
        maskCapacity = side * side
        mask = .allocate(capacity: maskCapacity)
    }

    deinit {
        cells.deallocate()
        mask.deallocate()
    }

    /// Fills `path`, each point p mapped to p · `scale` + (`dx`, `dy`), into a `width × height` mask and returns
    /// its bytes, row after row; they stay valid until the next fill, and only while this rasterizer lives.
    /// The mapped path should lie inside the box: points outside are clamped onto its sides (a rounding slip of
    /// the caller's box costs nothing visible; a path far outside is drawn wrongly, not unsafely). Returns nil
    /// when the box is empty or too large, or a mapped coordinate is not finite.
    public func fill(_ path: Path, scale: Double, dx: Double, dy: Double, rule: FillRule = .nonZero,
                     width: Int, height: Int) -> UnsafePointer<UInt8>? {
        fill(PackedPath(path), scale: scale, dx: dx, dy: dy, rule: rule, width: width, height: height)
    }

    /// The same fill from a path packed once (a glyph's outline): the form that allocates nothing, as the
    /// `Path` form packs its path first.
    public func fill(_ path: PackedPath, scale: Double, dx: Double, dy: Double, rule: FillRule = .nonZero,
                     width: Int, height: Int) -> UnsafePointer<UInt8>? {
        guard width > 0, height > 0, width <= MaskRasterizer.maxSide, height <= MaskRasterizer.maxSide,
              (scale + dx + dy).isFinite, !path.isEmpty else { return nil }
        let count = width &* height
        if count > maskCapacity {
            mask.deallocate()
            maskCapacity = Swift.max(count, maskCapacity &* 2)
            mask = .allocate(capacity: maskCapacity)
        }
        let stride = width &+ 2
        let cellCount = stride &* height
        if cellCount > cellCapacity {
            cells.deallocate()
            cellCapacity = Swift.max(cellCount, cellCapacity &* 2)
            cells = .allocate(capacity: cellCapacity)
            cells.initialize(repeating: 0, count: cellCapacity)
        }
        let tol = tolerance > 0 && tolerance.isFinite ? tolerance : 1.0 / 16
        var sink = FixedCells(cells: cells, stride: stride, maxX: width << FixedCells.bits,
                              maxY: height << FixedCells.bits)
        let unit = Double(1 << FixedCells.bits)
        GlyphMaskRasterizer.flatten(path, scale: scale * unit, dx: dx * unit, dy: dy * unit,
                                    tolerance: tol * unit, into: &sink)
        switch rule {
        case .nonZero: FixedSweep.rows(cells, stride: stride, width: width, height: height, mask: mask, FixedNonZero.self)
        case .evenOdd: FixedSweep.rows(cells, stride: stride, width: width, height: height, mask: mask, FixedEvenOdd.self)
        }
        return UnsafePointer(mask)
    }

    /// `v` rounded to the nearest integer, for |v| < 2⁵¹: adding 1.5 · 2⁵² leaves the rounded integer in the low
    /// bits of the sum. An add and a subtract, with no range check, once per point.
    @inline(__always)
    static func round(_ v: Double) -> Int {
        let magic = 6_755_399_441_055_744.0
        return Int(truncatingIfNeeded: (v + magic).bitPattern &- magic.bitPattern)
    }

    /// Feeds the edges of `path`, mapped to fixed-point pixels, to `sink`, closing every contour. Curves are cut
    /// as `Path.flattenForFill` cuts them (Wang's count, `QuadraticSteps` and `CubicSteps`), then each point is
    /// rounded once. Points are clamped into the box as they are rounded, once each, rather than at both ends of
    /// every edge.
    @inline(__always)
    static func flatten(_ path: PackedPath, scale s: Double, dx tx: Double, dy ty: Double, tolerance: Double,
                        into sink: inout FixedCells) {
        let kQuad = Path.quadraticSegmentScale(tolerance: tolerance)
        let kCubic = Path.cubicSegmentScale(tolerance: tolerance)
        let maxX = sink.maxX, maxY = sink.maxY
        @inline(__always) func fix(_ v: Double, _ limit: Int) -> Int { Swift.min(Swift.max(GlyphMaskRasterizer.round(v), 0), limit) }
        // The current point in doubles (for curves) and as rounded fixed point (for edges).
        var lx = 0.0, ly = 0.0, fx = 0, fy = 0
        var sx = 0, sy = 0, slx = 0.0, sly = 0.0, open = false
        path.verbs.withUnsafeBufferPointer { verbs in
            path.coordinates.withUnsafeBufferPointer { coordinates in
                guard var c = coordinates.baseAddress else { return }
                for verb in verbs {
                    switch verb {
                    case PackedPath.move:
                        if open { sink.line(fx, fy, sx, sy) }
                        lx = c[0] * s + tx; ly = c[1] * s + ty
                        c += 2
                        fx = fix(lx, maxX); fy = fix(ly, maxY)
                        sx = fx; sy = fy; slx = lx; sly = ly; open = true
                    case PackedPath.line:
                        lx = c[0] * s + tx; ly = c[1] * s + ty
                        c += 2
                        let nx = fix(lx, maxX), ny = fix(ly, maxY)
                        sink.line(fx, fy, nx, ny)
                        fx = nx; fy = ny
                    case PackedPath.quad:
                        let cx = c[0] * s + tx, cy = c[1] * s + ty, px = c[2] * s + tx, py = c[3] * s + ty
                        c += 4
                        let ddx = lx - 2 * cx + px, ddy = ly - 2 * cy + py
                        let n = Path.segmentCount(squaredSecondDifference: ddx * ddx + ddy * ddy, scale: kQuad)
                        if n > 1 {
                            var steps = QuadraticSteps(x0: lx, y0: ly, cx: cx, cy: cy, ddx: ddx, ddy: ddy, count: n)
                            for _ in 1..<n {
                                steps.advance()
                                let nx = fix(steps.x, maxX), ny = fix(steps.y, maxY)
                                sink.line(fx, fy, nx, ny)
                                fx = nx; fy = ny
                            }
                        }
                        lx = px; ly = py
                        let nx = fix(px, maxX), ny = fix(py, maxY)
                        sink.line(fx, fy, nx, ny)
                        fx = nx; fy = ny
                    case PackedPath.cubic:
                        let c1x = c[0] * s + tx, c1y = c[1] * s + ty, c2x = c[2] * s + tx, c2y = c[3] * s + ty
                        let px = c[4] * s + tx, py = c[5] * s + ty
                        c += 6
                        let ax = lx - 2 * c1x + c2x, ay = ly - 2 * c1y + c2y
                        let bx = c1x - 2 * c2x + px, by = c1y - 2 * c2y + py
                        let dd2 = Swift.max(ax * ax + ay * ay, bx * bx + by * by)
                        let n = Path.segmentCount(squaredSecondDifference: dd2, scale: kCubic)
                        if n > 1 {
                            var steps = CubicSteps(x0: lx, y0: ly, c1x: c1x, c1y: c1y, c2x: c2x, c2y: c2y,
                                                   x3: px, y3: py, ax: ax, ay: ay, count: n)
                            for _ in 1..<n {
                                steps.advance()
                                let nx = fix(steps.x, maxX), ny = fix(steps.y, maxY)
                                sink.line(fx, fy, nx, ny)
                                fx = nx; fy = ny
                            }
                        }
                        lx = px; ly = py
                        let nx = fix(px, maxX), ny = fix(py, maxY)
                        sink.line(fx, fy, nx, ny)
                        fx = nx; fy = ny
                    default:
                        if open { sink.line(fx, fy, sx, sy) }
                        open = false
                        fx = sx; fy = sy
                        lx = slx; ly = sly
                    }
                }
            }
        }
        if open { sink.line(fx, fy, sx, sy) }
    }
}

/// A path packed for filling glyphs: one verb byte per element and the elements' points as flat coordinates.
/// Walking two plain buffers costs a fraction of switching over `Path.Element`'s enum payloads, and a glyph's
/// outline is packed once, when it is decomposed, for every size it is drawn at.
public struct PackedPath: Sendable {
    static let move: UInt8 = 0, line: UInt8 = 1, quad: UInt8 = 2, cubic: UInt8 = 3, close: UInt8 = 4
    /// One per element: move, line, quad, cubic or close.
    let verbs: [UInt8]
    /// x, y of each element's points in order (a quad's control point, then its end).
    let coordinates: [Double]

    public init(_ path: Path) {
        var verbs: [UInt8] = [], coordinates: [Double] = []
        verbs.reserveCapacity(path.elements.count)
        coordinates.reserveCapacity(path.elements.count * 4)
        for e in path.elements {
            switch e {
            case .move(let p): verbs.append(PackedPath.move); coordinates += [p.x, p.y]
            case .line(let p): verbs.append(PackedPath.line); coordinates += [p.x, p.y]
            case .quad(let c, let p): verbs.append(PackedPath.quad); coordinates += [c.x, c.y, p.x, p.y]
            case .cubic(let a, let b, let p):
                verbs.append(PackedPath.cubic); coordinates += [a.x, a.y, b.x, b.y, p.x, p.y]
            case .close: verbs.append(PackedPath.close)
            }
        }
        self.verbs = verbs
        self.coordinates = coordinates
    }

    public var isEmpty: Bool { verbs.isEmpty }
}

/// The integer cell accumulator: edges in fixed point (`bits` fractional bits), inside the box, walked
/// row by row and, only where an edge crosses a pixel side within a row, column by column.
struct FixedCells {
    /// Fractional bits of a coordinate: 1/256 px, FreeType's own precision.
    static let bits = 8
    static let one = 1 << bits
    let cells: UnsafeMutablePointer<Int32>
    let stride: Int
    let maxX: Int, maxY: Int

    /// Adds the edge from (x0, y0) to (x1, y1), fixed point, both inside the box.
    @inline(__always)
    mutating func line(_ ax: Int, _ ay: Int, _ bx: Int, _ by: Int) {
        let one = FixedCells.one
        // The points are already inside the box (`flatten` clamps them).
        var x0 = ax, y0 = ay, x1 = bx, y1 = by
        guard y0 != y1 else { return }
        var sign: Int32 = 1
        if y0 > y1 {
            swap(&x0, &x1); swap(&y0, &y1)
            sign = -1
        }
        let r0 = y0 >> FixedCells.bits, r1 = (y1 &- 1) >> FixedCells.bits
        let base0 = r0 << FixedCells.bits
        // Edges within one row take the same path as longer ones, with no whole rows: whether an edge stays in
        // its row is as unpredictable as whether a piece crosses a pixel side.
        if x0 == x1 {
            // Vertical (a stem's side): every full row adds the same two values.
            vertical(x0, y0, y1, r0, r1, sign)
            return
        }
        // Both slopes once per edge (the two divisions overlap), none per row: a division waited on per row
        // was the largest single cost of slanted edges.
        let dxdy = Double(x1 &- x0) / Double(y1 &- y0), dydx = Double(y1 &- y0) / Double(x1 &- x0)
        var xa = x0
        var line = cells + r0 &* stride
        var row = r0
        var ya = y0 &- base0
        // Whole rows up to the last, which ends at the edge's end: no test of the last row inside the loop, whose
        // outcome flips once per edge and so costs a misprediction per edge.
        while row < r1 {
            let xb = x0 &+ GlyphMaskRasterizer.round(Double(((row &+ 1) << FixedCells.bits) &- y0) * dxdy)
            if !FixedCells.twoColumns(line, xa, ya, xb, one, sign, dydx) {
                FixedCells.across(line, xa, ya, xb, one, sign, dydx)
            }
            xa = xb; ya = 0
            row &+= 1
            line += stride
        }
        let yb = y1 &- (r1 << FixedCells.bits)
        if !FixedCells.twoColumns(line, xa, ya, x1, yb, sign, dydx) {
            FixedCells.across(line, xa, ya, x1, yb, sign, dydx)
        }
    }

    @inline(__always)
    func vertical(_ x: Int, _ y0: Int, _ y1: Int, _ r0: Int, _ r1: Int, _ sign: Int32) {
        let one = FixedCells.one
        let ix = Swift.min(x >> FixedCells.bits, (maxX >> FixedCells.bits) &- 1)
        let keep = 2 &* (((ix &+ 1) << FixedCells.bits) &- x)
        var line = cells + r0 &* stride
        var h = ((r0 &+ 1) << FixedCells.bits) &- y0
        var row = r0
        while row < r1 {
            let here = Int32(truncatingIfNeeded: h &* keep) &* sign
            let total = Int32(truncatingIfNeeded: h << (FixedCells.bits &+ 1)) &* sign
            line[ix] &+= here
            line[ix &+ 1] &+= total &- here
            h = one
            row &+= 1
            line += stride
        }
        // The last row, ending at y1 (and starting at y0 when it is also the first).
        h = y1 &- Swift.max(y0, r1 << FixedCells.bits)
        let here = Int32(truncatingIfNeeded: h &* keep) &* sign
        line[ix] &+= here
        line[ix &+ 1] &+= Int32(truncatingIfNeeded: h << (FixedCells.bits &+ 1)) &* sign &- here
    }

    /// One row's part of an edge, from (xa, ya) to (xb, yb) with 0 ≤ ya < yb ≤ 256 within the row, when it lies
    /// in at most two pixels; false, adding nothing, when it spans more. Whether a short piece crosses a pixel
    /// side is close to a coin toss, so rather than branch on it, the piece is always cut in two at the side
    /// right of its left end (y there from the edge's slope `dydx`, measured from the left end, as `across`
    /// does), and when it does not cross, the second part is made empty by selects.
    @inline(__always)
    static func twoColumns(_ line: UnsafeMutablePointer<Int32>, _ xa: Int, _ ya: Int, _ xb: Int, _ yb: Int,
                           _ sign: Int32, _ dydx: Double) -> Bool {
        let rightward = xa < xb
        let lo = rightward ? xa : xb, hi = rightward ? xb : xa
        let yLo = rightward ? ya : yb
        let ix = lo >> FixedCells.bits
        let side = (ix &+ 1) << FixedCells.bits
        guard hi <= side &+ FixedCells.one else { return false }
        let crosses = hi > side
        // The cut, on the pixel side when the piece crosses it, else at the piece's end.
        let yCut = yLo &+ GlyphMaskRasterizer.round(Double(side &- lo) * dydx)
        let xm = crosses ? side : xb, ym = crosses ? yCut : yb
        // (xa, ya)–(xm, ym) and (xm, ym)–(xb, yb), each inside one pixel; heights are ≥ 0 along the edge.
        let d1 = ym &- ya, d2 = yb &- ym
        let c1 = Swift.min(xa, xm) >> FixedCells.bits, c2 = Swift.min(xm, xb) >> FixedCells.bits
        let h1 = Int32(truncatingIfNeeded: d1 &* (((c1 &+ 1) << (FixedCells.bits &+ 1)) &- xa &- xm)) &* sign
        let h2 = Int32(truncatingIfNeeded: d2 &* (((c2 &+ 1) << (FixedCells.bits &+ 1)) &- xm &- xb)) &* sign
        line[c1] &+= h1
        line[c1 &+ 1] &+= Int32(truncatingIfNeeded: d1 << (FixedCells.bits &+ 1)) &* sign &- h1
        line[c2] &+= h2
        line[c2 &+ 1] &+= Int32(truncatingIfNeeded: d2 << (FixedCells.bits &+ 1)) &* sign &- h2
        return true
    }

    /// A row's part of an edge that crosses pixel sides, cut at each side and walked left to right: a partial
    /// first and last column, and between them whole columns, where the piece's area splits evenly between its
    /// pixel and the next, so each costs a step of y and two adds. `dydx` is the edge's slope. Heights are
    /// taken as signed steps along the edge's direction, so that however y rounds they sum to exactly yb − ya.
    @inline(never)
    static func across(_ line: UnsafeMutablePointer<Int32>, _ xa: Int, _ ya: Int, _ xb: Int, _ yb: Int,
                       _ sign: Int32, _ dydx: Double) {
        let (lo, yLo, hi, yHi) = xa < xb ? (xa, ya, xb, yb) : (xb, yb, xa, ya)
        // +1 when y grows left to right; each piece's height is its step in y times this.
        let ydir = yHi >= yLo ? 1 : -1
        var col = lo >> FixedCells.bits
        let last = (hi &- 1) >> FixedCells.bits
        var right = (col &+ 1) << FixedCells.bits
        // The unrounded y at the current column's right side, stepped by a column's rise.
        var yf = Double(yLo) + Double(right &- lo) * dydx
        var y = GlyphMaskRasterizer.round(yf)
        var d = (y &- yLo) &* ydir
        var here = Int32(truncatingIfNeeded: d &* (right &- lo)) &* sign
        line[col] &+= here
        line[col &+ 1] &+= Int32(truncatingIfNeeded: d << (FixedCells.bits &+ 1)) &* sign &- here
        col &+= 1
        let step = Double(FixedCells.one) * dydx
        let half = Int32(truncatingIfNeeded: ydir << FixedCells.bits) &* sign
        while col < last {
            yf += step
            let yn = GlyphMaskRasterizer.round(yf)
            let v = Int32(truncatingIfNeeded: yn &- y) &* half
            line[col] &+= v
            line[col &+ 1] &+= v
            y = yn
            col &+= 1
        }
        right = (col &+ 1) << FixedCells.bits
        d = (yHi &- y) &* ydir
        here = Int32(truncatingIfNeeded: d &* ((right << 1) &- (col << FixedCells.bits) &- hi)) &* sign
        line[col] &+= here
        line[col &+ 1] &+= Int32(truncatingIfNeeded: d << (FixedCells.bits &+ 1)) &* sign &- here
    }
}

/// Coverage from a running sum of `FixedCells`, whose full pixel is 2¹⁷: the area's top 8 bits, 256 (a full
/// pixel) clamped to 255. Truncating as FreeType's rasterizer does keeps glyphs closest to its masks, and a shift
/// and a minimum vectorise more cheaply than a rounded multiply.
protocol FixedCoverageRule {
    static func coverage(_ acc: Int32) -> UInt8
}

enum FixedNonZero: FixedCoverageRule {
    @inline(__always)
    static func coverage(_ acc: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: Swift.min(acc.magnitude >> 9, 255))
    }
}

enum FixedEvenOdd: FixedCoverageRule {
    @inline(__always)
    static func coverage(_ acc: Int32) -> UInt8 {
        let m = acc.magnitude & ((1 << 18) - 1)
        let a = m > 1 << 17 ? (1 << 18) &- m : m
        return UInt8(truncatingIfNeeded: Swift.min(a >> 9, 255))
    }
}

/// Rows of fixed cells to bytes, in two passes per row: the running sum stored in place (the one serial
/// dependency), then a branch-free map to bytes that also clears the cells, which the compiler vectorises.
enum FixedSweep {
    @inline(__always)
    static func rows<Rule: FixedCoverageRule>(_ cells: UnsafeMutablePointer<Int32>, stride: Int, width: Int,
                                              height: Int, mask: UnsafeMutablePointer<UInt8>, _ rule: Rule.Type) {
        var line = cells
        var out = mask
        for _ in 0..<height {
            var acc: Int32 = 0
            var i = 0
            while i < width {
                acc &+= line[i]
                line[i] = acc
                i &+= 1
            }
            i = 0
            while i < width {
                out[i] = Rule.coverage(line[i])
                line[i] = 0
                i &+= 1
            }
            line[width] = 0
            line[width &+ 1] = 0
            line += stride
            out += width
        }
    }
}

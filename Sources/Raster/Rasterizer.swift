import Geometry

/// How overlapping contours decide what is inside, as SVG's `fill-rule`.
public enum FillRule: String, Sendable, CaseIterable {
    case nonZero = "nonzero"
    case evenOdd = "evenodd"
}

/// Fills paths into a canvas with anti-aliasing by exact area coverage.
///
/// Each edge adds the signed area it covers to the cells of a coverage buffer (the method of FreeType's and
/// font-rs's rasterizers); a running sum along each row then gives the winding-weighted area of every pixel.
/// The buffers are kept between fills and grow only, so steady-state drawing allocates nothing.
public final class Rasterizer {
    /// Flattening tolerance in pixels: curves stay within this distance of their line segments.
    public static let defaultTolerance = 0.1

    public var tolerance = Rasterizer.defaultTolerance

    private var cells: UnsafeMutablePointer<Float>
    private var cellCapacity: Int
    private var sink = CellSink()

    public init() {
        cellCapacity = 1 << 16
        cells = .allocate(capacity: cellCapacity)
        cells.initialize(repeating: 0, count: cellCapacity)
    }

    deinit { cells.deallocate() }

    /// Fills `path`, mapped through `transform` into pixel coordinates, with `color` (source-over), inside `clip`.
    public func fill(_ path: Path, transform: AffineTransform = .identity, color: Color,
                     rule: FillRule = .nonZero, clip: Rect? = nil, into canvas: Canvas) {
        guard color.alpha > 0, !path.isEmpty else { return }
        let bounds = path.controlPointBounds
        let mapped = Rasterizer.transformedBounds(bounds, transform)
        var area = canvas.bounds
        if let clip { area = area.intersection(clip) }
        let x0 = Int(Swift.max(mapped.minX, area.minX).rounded(.down))
        let y0 = Int(Swift.max(mapped.minY, area.minY).rounded(.down))
        let x1 = Int(Swift.min(mapped.maxX, area.maxX).rounded(.up))
        let y1 = Int(Swift.min(mapped.maxY, area.maxY).rounded(.up))
        guard mapped.minX.isFinite, mapped.maxY.isFinite, x1 > x0, y1 > y0 else { return }
        let clipX0 = Int(area.minX.rounded(.up)), clipX1 = Int(area.maxX.rounded(.down))

        // One spare column on the right receives the area of edges that end past the last pixel.
        let w = x1 - x0 + 1, h = y1 - y0
        ensureCapacity(w * h)
        sink.begin(cells: cells, width: w, height: h, originX: Double(x0), originY: Double(y0))
        path.flattenForFill(transform: transform, tolerance: tolerance, into: &sink)

        let src = color.premultipliedPixel
        for row in 0..<h {
            let line = cells + row * w
            let dst = canvas.pixels + (y0 + row) * canvas.width
            var acc: Float = 0
            for col in 0..<(w - 1) {
                acc += line[col]
                line[col] = 0
                let x = x0 + col
                guard x >= clipX0, x < clipX1 else { continue }
                let coverage = Rasterizer.coverage(acc, rule)
                if coverage == 0 { continue }
                let cov8 = UInt32(coverage * 255 + 0.5)
                let s = cov8 >= 255 ? src : Pixel.scale(src, by: cov8)
                dst[x] = Pixel.sourceOver(s, dst[x])
            }
            line[w - 1] = 0
        }
    }

    /// The coverage of a pixel, 0 to 1, from its accumulated winding-weighted area.
    @inline(__always)
    static func coverage(_ acc: Float, _ rule: FillRule) -> Float {
        switch rule {
        case .nonZero:
            return Swift.min(abs(acc), 1)
        case .evenOdd:
            let m = abs(acc).truncatingRemainder(dividingBy: 2)
            return m > 1 ? 2 - m : m
        }
    }

    private func ensureCapacity(_ n: Int) {
        guard n > cellCapacity else { return }
        cells.deallocate()
        cellCapacity = Swift.max(n, cellCapacity * 2)
        cells = .allocate(capacity: cellCapacity)
        cells.initialize(repeating: 0, count: cellCapacity)
    }

    static func transformedBounds(_ r: Rect, _ t: AffineTransform) -> Rect {
        if t.b == 0 && t.c == 0 {
            let xa = r.minX * t.a + t.tx, xb = r.maxX * t.a + t.tx
            let ya = r.minY * t.d + t.ty, yb = r.maxY * t.d + t.ty
            return Rect(x: Swift.min(xa, xb), y: Swift.min(ya, yb), width: abs(xb - xa), height: abs(yb - ya))
        }
        let corners = [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.minX, r.maxY), Point(r.maxX, r.maxY)]
            .map(t.apply)
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}

/// Adds each edge's signed area to the cells of a coverage buffer.
struct CellSink: EdgeSink {
    var cells: UnsafeMutablePointer<Float>?
    var width = 0, height = 0
    var originX = 0.0, originY = 0.0

    mutating func begin(cells: UnsafeMutablePointer<Float>, width: Int, height: Int, originX: Double, originY: Double) {
        self.cells = cells
        self.width = width
        self.height = height
        self.originX = originX
        self.originY = originY
    }

    mutating func addEdge(from p0: Point, to p1: Point) {
        let a = Point(p0.x - originX, p0.y - originY), b = Point(p1.x - originX, p1.y - originY)
        guard a.isFinite, b.isFinite, a.y != b.y else { return }
        // Parts left of the buffer act as vertical edges on its left side; parts right of it fall into the spare
        // column. Split the edge where it crosses those sides so that clamping x keeps it straight.
        let right = Double(width - 1)
        var ts: (Double, Double, Double, Double) = (0, 1, 1, 1)
        var n = 1
        for side in [0.0, right] where (a.x - side) * (b.x - side) < 0 {
            let t = (side - a.x) / (b.x - a.x)
            if n == 1 { ts.1 = t } else { ts.2 = t }
            n += 1
        }
        if n == 3 && ts.1 > ts.2 { swap(&ts.1, &ts.2) }
        let cuts = [ts.0, ts.1, ts.2, ts.3][0...n]
        var prev = a
        for t in cuts.dropFirst() {
            let next = t >= 1 ? b : a.lerp(to: b, t)
            line(Point(Swift.min(Swift.max(prev.x, 0), right), prev.y),
                 Point(Swift.min(Swift.max(next.x, 0), right), next.y))
            prev = next
        }
    }

    /// Accumulates one edge lying within 0…width−1 horizontally.
    private func line(_ p0: Point, _ p1: Point) {
        guard let cells, p0.y != p1.y else { return }
        let (top, bottom, dir): (Point, Point, Float) = p0.y < p1.y ? (p0, p1, 1) : (p1, p0, -1)
        let dxdy = (bottom.x - top.x) / (bottom.y - top.y)
        let yStart = Swift.max(0, Int(top.y.rounded(.down)))
        let yEnd = Swift.min(height, Int(bottom.y.rounded(.up)))
        guard yStart < yEnd else { return }
        var x = top.x + (Double(yStart) > top.y ? (Double(yStart) - top.y) * dxdy : 0)
        for y in yStart..<yEnd {
            let line = cells + y * width
            let dy = Swift.min(Double(y + 1), bottom.y) - Swift.max(Double(y), top.y)
            let xNext = x + dxdy * dy
            let d = Float(dy) * dir
            let (xa, xb) = x < xNext ? (x, xNext) : (xNext, x)
            let xaFloor = xa.rounded(.down), xbCeil = xb.rounded(.up)
            let ia = Int(xaFloor), ib = Int(xbCeil)
            if ib <= ia + 1 {
                // Within one pixel: the area right of the edge's mean x.
                let mid = Float(0.5 * (x + xNext) - xaFloor)
                line[ia] += d - d * mid
                if ia + 1 < width { line[ia + 1] += d * mid }
            } else {
                let s = Float(1 / (xb - xa))
                let fa = Float(xa - xaFloor)
                let a0 = 0.5 * s * (1 - fa) * (1 - fa)
                let fb = Float(xb - xbCeil + 1)
                let am = 0.5 * s * fb * fb
                line[ia] += d * a0
                if ib == ia + 2 {
                    line[ia + 1] += d * (1 - a0 - am)
                } else {
                    let a1 = s * (1.5 - fa)
                    line[ia + 1] += d * (a1 - a0)
                    for i in (ia + 2)..<(ib - 1) { line[i] += d * s }
                    let a2 = a1 + Float(ib - ia - 3) * s
                    line[ib - 1] += d * (1 - a2 - am)
                }
                if ib < width { line[ib] += d * am }
            }
            x = xNext
        }
    }
}

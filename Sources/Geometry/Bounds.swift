/// Tight bounds: end points plus the extrema of each curve, found where a coordinate's derivative is zero.
extension Path {
    /// The smallest rectangle holding every point of the path (not its control points), or `.zero` when empty.
    public var boundingBox: Rect {
        var box = BoundsAccumulator()
        var last = Point.zero
        for e in elements {
            switch e {
            case .move(let p), .line(let p):
                box.add(p)
                last = p
            case .quad(let c, let p):
                box.add(p)
                for t in [Path.quadExtremum(last.x, c.x, p.x), Path.quadExtremum(last.y, c.y, p.y)] where t > 0 && t < 1 {
                    box.add(Path.quadPoint(last, c, p, t))
                }
                last = p
            case .cubic(let c1, let c2, let p):
                box.add(p)
                let xs = Path.cubicExtrema(last.x, c1.x, c2.x, p.x), ys = Path.cubicExtrema(last.y, c1.y, c2.y, p.y)
                for t in [xs.0, xs.1, ys.0, ys.1] where t > 0 && t < 1 {
                    box.add(Path.cubicPoint(last, c1, c2, p, t))
                }
                last = p
            case .close:
                break
            }
        }
        return box.rect
    }

    @inline(__always)
    static func quadPoint(_ p0: Point, _ c: Point, _ p1: Point, _ t: Double) -> Point {
        let u = 1 - t
        return p0 * (u * u) + c * (2 * u * t) + p1 * (t * t)
    }

    @inline(__always)
    static func cubicPoint(_ p0: Point, _ c1: Point, _ c2: Point, _ p3: Point, _ t: Double) -> Point {
        let u = 1 - t
        return p0 * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) + p3 * (t * t * t)
    }

    /// The parameter where a quadratic's coordinate turns; NaN when it never does.
    static func quadExtremum(_ a: Double, _ b: Double, _ c: Double) -> Double {
        let den = a - 2 * b + c
        return den != 0 ? (a - b) / den : .nan
    }

    /// The roots of a cubic coordinate's derivative (a quadratic in t); NaN marks a missing root.
    static func cubicExtrema(_ p0: Double, _ p1: Double, _ p2: Double, _ p3: Double) -> (Double, Double) {
        // d/dt = 3(a t² + 2 b t + c) with a, b, c below.
        let a = -p0 + 3 * p1 - 3 * p2 + p3
        let b = p0 - 2 * p1 + p2
        let c = p1 - p0
        let scale = Swift.max(Swift.abs(a), Swift.abs(b), Swift.abs(c))
        guard scale > 0, scale.isFinite else { return (.nan, .nan) }
        if Swift.abs(a) <= 1e-12 * scale {
            return Swift.abs(b) > 0 ? (-c / (2 * b), .nan) : (.nan, .nan)
        }
        let disc = b * b - a * c
        guard disc >= 0 else { return (.nan, .nan) }
        let s = disc.squareRoot()
        // The numerically stable pair of quadratic roots.
        let q = -(b + (b >= 0 ? s : -s))
        return q == 0 ? (0, .nan) : (q / a, c / q)
    }
}

/// Running minimum and maximum of points.
@usableFromInline
struct BoundsAccumulator {
    @usableFromInline
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity

    @inlinable
    init() {}

    @inlinable @inline(__always)
    mutating func add(_ p: Point) {
        minX = Swift.min(minX, p.x); maxX = Swift.max(maxX, p.x)
        minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y)
    }

    @inlinable
    var rect: Rect {
        guard minX <= maxX, minY <= maxY else { return .zero }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

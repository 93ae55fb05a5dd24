#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry

/// The parametric shapes as Bézier shapes, starting where After Effects starts them (a rectangle at its top right
/// corner, an ellipse and a star at the top) and going clockwise, so that trims and dashes begin at the same place.
enum ShapeGeometry {
    /// Most points a star or polygon may have: a hostile count costs no more than this.
    static let maxStarPoints = 1000

    static func rectangle(center c: [Double], size s: [Double], roundness: Double) -> BezierShape {
        let w = abs(s.at(0)) / 2, h = abs(s.at(1)) / 2
        let cx = c.at(0), cy = c.at(1)
        let r = Swift.max(0, Swift.min(roundness, w, h))
        let left = cx - w, right = cx + w, top = cy - h, bottom = cy + h
        guard r > 0 else {
            let v = [Point(right, top), Point(right, bottom), Point(left, bottom), Point(left, top)]
            let zero = [Point](repeating: .zero, count: 4)
            return BezierShape(vertices: v, inTangents: zero, outTangents: zero, closed: true)
        }
        let k = r * Path.quarterArcKappa
        // Two vertices per corner; each curve's tangents point towards the corner.
        let v = [Point(right, top + r), Point(right, bottom - r), Point(right - r, bottom), Point(left + r, bottom),
                 Point(left, bottom - r), Point(left, top + r), Point(left + r, top), Point(right - r, top)]
        let out = [Point.zero, Point(0, k), .zero, Point(-k, 0), .zero, Point(0, -k), .zero, Point(k, 0)]
        let inn = [Point(0, -k), .zero, Point(k, 0), .zero, Point(0, k), .zero, Point(-k, 0), .zero]
        return BezierShape(vertices: v, inTangents: inn, outTangents: out, closed: true)
    }

    static func ellipse(center c: [Double], size s: [Double]) -> BezierShape {
        let rx = s.at(0) / 2, ry = s.at(1) / 2, cx = c.at(0), cy = c.at(1)
        let kx = rx * Path.quarterArcKappa, ky = ry * Path.quarterArcKappa
        let v = [Point(cx, cy - ry), Point(cx + rx, cy), Point(cx, cy + ry), Point(cx - rx, cy)]
        let out = [Point(kx, 0), Point(0, ky), Point(-kx, 0), Point(0, -ky)]
        return BezierShape(vertices: v, inTangents: out.map { -$0 }, outTangents: out, closed: true)
    }

    /// A star (outer and inner radius in turn) or a polygon, its first point straight up, turned by `rotation`
    /// degrees. Roundness is not drawn.
    static func star(_ star: Star, at frame: Double) -> BezierShape {
        let count = Int(Swift.min(Swift.max(star.points.scalar(at: frame).rounded(), 0), Double(maxStarPoints)))
        guard count >= (star.isPolygon ? 3 : 2) else {
            return BezierShape(vertices: [], inTangents: [], outTangents: [], closed: true)
        }
        let c = star.position.value(at: frame)
        let outer = star.outerRadius.scalar(at: frame), inner = star.innerRadius.scalar(at: frame)
        let n = star.isPolygon ? count : 2 * count
        let step = 2 * Double.pi / Double(n)
        var angle = -Double.pi / 2 + star.rotation.scalar(at: frame) * .pi / 180
        var v: [Point] = []
        v.reserveCapacity(n)
        for i in 0..<n {
            let r = star.isPolygon || i % 2 == 0 ? outer : inner
            v.append(Point(c.at(0) + r * cos(angle), c.at(1) + r * sin(angle)))
            angle += step
        }
        let zero = [Point](repeating: .zero, count: n)
        return BezierShape(vertices: v, inTangents: zero, outTangents: zero, closed: true)
    }
}

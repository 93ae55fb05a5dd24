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
        var shape = BezierShape.empty
        rectangle(center: AnimatedSample(c), size: AnimatedSample(s), roundness: roundness, into: &shape)
        return shape
    }

    /// The rectangle written into `shape`, whose arrays keep their storage.
    static func rectangle(center c: AnimatedSample, size s: AnimatedSample, roundness: Double,
                          into shape: inout BezierShape) {
        shape.removeAll()
        let w = abs(s.at(0)) / 2, h = abs(s.at(1)) / 2
        let cx = c.at(0), cy = c.at(1)
        let r = Swift.max(0, Swift.min(roundness, w, h))
        let left = cx - w, right = cx + w, top = cy - h, bottom = cy + h
        guard r > 0 else {
            for v in [Point(right, top), Point(right, bottom), Point(left, bottom), Point(left, top)] {
                shape.append(v, in: .zero, out: .zero)
            }
            return
        }
        let k = r * Path.quarterArcKappa
        // Two vertices per corner; each curve's tangents point towards the corner.
        shape.append(Point(right, top + r), in: Point(0, -k), out: .zero)
        shape.append(Point(right, bottom - r), in: .zero, out: Point(0, k))
        shape.append(Point(right - r, bottom), in: Point(k, 0), out: .zero)
        shape.append(Point(left + r, bottom), in: .zero, out: Point(-k, 0))
        shape.append(Point(left, bottom - r), in: Point(0, k), out: .zero)
        shape.append(Point(left, top + r), in: .zero, out: Point(0, -k))
        shape.append(Point(left + r, top), in: Point(-k, 0), out: .zero)
        shape.append(Point(right - r, top), in: .zero, out: Point(k, 0))
    }

    static func ellipse(center c: [Double], size s: [Double]) -> BezierShape {
        var shape = BezierShape.empty
        ellipse(center: AnimatedSample(c), size: AnimatedSample(s), into: &shape)
        return shape
    }

    static func ellipse(center c: AnimatedSample, size s: AnimatedSample, into shape: inout BezierShape) {
        shape.removeAll()
        let rx = s.at(0) / 2, ry = s.at(1) / 2, cx = c.at(0), cy = c.at(1)
        let kx = rx * Path.quarterArcKappa, ky = ry * Path.quarterArcKappa
        shape.append(Point(cx, cy - ry), in: Point(-kx, 0), out: Point(kx, 0))
        shape.append(Point(cx + rx, cy), in: Point(0, -ky), out: Point(0, ky))
        shape.append(Point(cx, cy + ry), in: Point(kx, 0), out: Point(-kx, 0))
        shape.append(Point(cx - rx, cy), in: Point(0, ky), out: Point(0, -ky))
    }

    static func star(_ star: Star, at frame: Double) -> BezierShape {
        var shape = BezierShape.empty
        self.star(star, at: frame, into: &shape)
        return shape
    }

    /// A star (outer and inner radius in turn) or a polygon, its first point straight up, turned by `rotation`
    /// degrees.
    ///
    /// Roundness is lottie-web's: each point gets tangents across its radius (perpendicular to it, clockwise out)
    /// whose length is the roundness (0…100 %) of a quarter of the point's share of its circle's perimeter
    /// (2πr / 4n for a polygon of n points; the same for a star's outer and inner points, n being its number of
    /// points): a polygon at 100 % bulges toward its circle without reaching it. rlottie uses other constants.
    static func star(_ star: Star, at frame: Double, into shape: inout BezierShape) {
        shape.removeAll()
        // Keyframed, so only known here: a count past the limit draws the limit, and one that is not a number (an
        // infinite keyframe blended with the next) draws nothing.
        let points = star.points.scalar(at: frame)
        let count = points.isNaN ? 0 : Int(Swift.min(Swift.max(points.rounded(), 0), Double(maxStarPoints)))
        guard count >= (star.isPolygon ? 3 : 2) else { return }
        let c = star.position.sample(at: frame)
        let outer = star.outerRadius.scalar(at: frame), inner = star.innerRadius.scalar(at: frame)
        let outerRoundness = star.outerRoundness.scalar(at: frame) / 100
        let innerRoundness = star.isPolygon ? 0 : star.innerRoundness.scalar(at: frame) / 100
        let n = star.isPolygon ? count : 2 * count
        let step = 2 * Double.pi / Double(n)
        var angle = -Double.pi / 2 + star.rotation.scalar(at: frame) * .pi / 180
        for i in 0..<n {
            let isOuter = star.isPolygon || i % 2 == 0
            let r = isOuter ? outer : inner
            let roundness = isOuter ? outerRoundness : innerRoundness
            let dx = r * cos(angle), dy = r * sin(angle)
            var tangent = Point.zero
            if roundness != 0, roundness.isFinite, dx != 0 || dy != 0 {
                // The unit vector across the radius, pointing back against the drawing direction, as lottie-web's.
                let length = (dx * dx + dy * dy).squareRoot()
                let perimeterShare = 2 * Double.pi * r / Double(4 * count)
                tangent = Point(dy / length, -dx / length) * (perimeterShare * roundness)
            }
            shape.append(Point(c.at(0) + dx, c.at(1) + dy), in: tangent, out: -tangent)
            angle += step
        }
    }
}

extension BezierShape {
    static var empty: BezierShape { BezierShape(vertices: [], inTangents: [], outTangents: [], closed: true) }

    /// Empties the shape (closed), keeping its arrays' storage.
    mutating func removeAll() {
        vertices.removeAll(keepingCapacity: true)
        inTangents.removeAll(keepingCapacity: true)
        outTangents.removeAll(keepingCapacity: true)
        closed = true
    }

    mutating func append(_ vertex: Point, in inTangent: Point, out outTangent: Point) {
        vertices.append(vertex)
        inTangents.append(inTangent)
        outTangents.append(outTangent)
    }
}

extension BezierShape {
    /// lottie-web's tangent length for a rounded corner, as a fraction of the way from the new point back to the
    /// corner (its `roundCorner`, 0.5519; docs/reference.md §8).
    static let roundCornerKappa = 0.5519

    /// The shape with its sharp corners rounded, written into `out` (whose arrays keep their storage), as
    /// lottie-web's rounded-corners modifier does: a vertex with no tangents is replaced by two points on its two
    /// sides, each `radius` (at most half the side) from it, joined by a curve whose tangents reach 0.5519 of the
    /// way back to the corner. The sides are measured to the original neighbours; the ends of an open shape and
    /// vertices with tangents stay as they are.
    func rounded(radius: Double, into out: inout BezierShape) {
        out.removeAll()
        out.closed = closed
        let n = vertices.count
        guard n == inTangents.count, n == outTangents.count else { return }
        for i in 0..<n {
            let v = vertices[i]
            guard inTangents[i] == .zero, outTangents[i] == .zero, closed || (i != 0 && i != n - 1) else {
                out.append(v, in: inTangents[i], out: outTangents[i])
                continue
            }
            let before = vertices[i == 0 ? n - 1 : i - 1], after = vertices[i == n - 1 ? 0 : i + 1]
            let first = v + (before - v) * BezierShape.cornerShare(v, before, radius)
            out.append(first, in: .zero, out: (v - first) * BezierShape.roundCornerKappa)
            let second = v + (after - v) * BezierShape.cornerShare(v, after, radius)
            out.append(second, in: (v - second) * BezierShape.roundCornerKappa, out: .zero)
        }
    }

    /// The share of the side from `corner` to `neighbour` that the rounding takes: the radius, at most half the
    /// side, over its length (0 for a side of no length).
    private static func cornerShare(_ corner: Point, _ neighbour: Point, _ radius: Double) -> Double {
        let length = (neighbour - corner).length
        return length > 0 ? Swift.min(length / 2, radius) / length : 0
    }
}

import Geometry
@testable import Lottie
import Testing

/// lottie-web's rounded corners, against vertices worked out by hand (docs/reference.md §8).
@Suite struct RoundCornersTests {
    static let k = 0.5519

    func shape(_ v: [Point], closed: Bool = true) -> BezierShape {
        BezierShape(vertices: v, inTangents: v.map { _ in .zero }, outTangents: v.map { _ in .zero }, closed: closed)
    }

    func rounded(_ s: BezierShape, _ r: Double) -> BezierShape {
        var out = BezierShape.empty
        s.rounded(radius: r, into: &out)
        return out
    }

    @Test("Each sharp corner of a square becomes two points r along its sides, their tangents 0.5519 of the way back")
    func squareCorners() {
        let square = shape([Point(100, 0), Point(100, 100), Point(0, 100), Point(0, 0)])
        let r = rounded(square, 10)
        let t = 10 * RoundCornersTests.k
        #expect(r.closed)
        #expect(r.vertices == [Point(90, 0), Point(100, 10), Point(100, 90), Point(90, 100),
                               Point(10, 100), Point(0, 90), Point(0, 10), Point(10, 0)])
        #expect(r.outTangents == [Point(t, 0), .zero, Point(0, t), .zero, Point(-t, 0), .zero, Point(0, -t), .zero])
        #expect(r.inTangents == [.zero, Point(0, -t), .zero, Point(t, 0), .zero, Point(0, t), .zero, Point(-t, 0)])
        // A radius past half a side takes half the side: the corners meet in the sides' middles.
        let big = rounded(square, 80)
        #expect(big.vertices == [Point(50, 0), Point(100, 50), Point(100, 50), Point(50, 100),
                                 Point(50, 100), Point(0, 50), Point(0, 50), Point(50, 0)])
        #expect(big.outTangents[0] == Point(50 * RoundCornersTests.k, 0))
    }

    @Test("An open path keeps its ends; a vertex with tangents stays as it is")
    func endsAndCurvesStay() {
        let open = rounded(shape([Point(0, 0), Point(50, 0), Point(50, 50)], closed: false), 10)
        let t = 10 * RoundCornersTests.k
        #expect(!open.closed)
        #expect(open.vertices == [Point(0, 0), Point(40, 0), Point(50, 10), Point(50, 50)])
        #expect(open.outTangents == [.zero, Point(t, 0), .zero, .zero])
        #expect(open.inTangents == [.zero, .zero, Point(0, -t), .zero])
        var curved = shape([Point(0, 0), Point(50, 0), Point(50, 50)])
        curved.inTangents[1] = Point(-5, 0)
        let c = rounded(curved, 10)
        #expect(c.vertices.count == 5 && c.vertices[2] == Point(50, 0) && c.inTangents[2] == Point(-5, 0))
    }
}

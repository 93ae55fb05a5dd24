import Geometry
import Testing
import TestSupport

/// The forward-difference steppers that fills and glyph masks share, against the curves' own polynomials.
@Suite("Curve steps")
struct CurveStepsTests {
    /// B(s) of a quadratic or cubic Bézier curve, by its Bernstein form.
    static func quadratic(_ p0: Point, _ c: Point, _ p: Point, _ s: Double) -> Point {
        let u = 1 - s
        return p0 * (u * u) + c * (2 * u * s) + p * (s * s)
    }

    static func cubic(_ p0: Point, _ c1: Point, _ c2: Point, _ p: Point, _ s: Double) -> Point {
        let u = 1 - s
        return p0 * (u * u * u) + c1 * (3 * u * u * s) + c2 * (3 * u * s * s) + p * (s * s * s)
    }

    @Test("Step k of n lands on the curve at s = k/n, for random curves and counts from 1 to 300")
    func stepsLandOnTheCurve() {
        var random = SeededRandom(seed: 41)
        func point() -> Point { Point(random.double(in: -500...500), random.double(in: -500...500)) }
        for _ in 0..<500 {
            let p0 = point(), c1 = point(), c2 = point(), p3 = point()
            let n = random.int(in: 1...300)
            let dd = p0 - c1 * 2 + c2
            var quad = QuadraticSteps(x0: p0.x, y0: p0.y, cx: c1.x, cy: c1.y, ddx: dd.x, ddy: dd.y, count: n)
            var cube = CubicSteps(x0: p0.x, y0: p0.y, c1x: c1.x, c1y: c1.y, c2x: c2.x, c2y: c2.y, x3: p3.x, y3: p3.y,
                                  ax: dd.x, ay: dd.y, count: n)
            // The quadratic here runs from p0 over c1 to c2, whose second difference is `dd` too.
            for k in 0...n {
                let s = Double(k) / Double(n)
                let q = CurveStepsTests.quadratic(p0, c1, c2, s), c = CurveStepsTests.cubic(p0, c1, c2, p3, s)
                #expect(abs(quad.x - q.x) < 1e-7 && abs(quad.y - q.y) < 1e-7, "quadratic step \(k) of \(n)")
                #expect(abs(cube.x - c.x) < 1e-7 && abs(cube.y - c.y) < 1e-7, "cubic step \(k) of \(n)")
                quad.advance()
                cube.advance()
            }
        }
    }
}

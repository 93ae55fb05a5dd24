import Testing
import TestSupport
@testable import Geometry

@Suite struct MeasureTests {
    @Test func lengthOfACircleIsTwoPiR() {
        for r in [1.0, 10, 100, 1000] {
            let circle = Path.ellipse(in: Rect(x: -r, y: -r, width: 2 * r, height: 2 * r))
            // The cubic quarter arcs bulge by at most 0.027 % of r; chords fall short by about tolerance/(3r).
            #expect(Swift.abs(circle.length(tolerance: 0.001) / (2 * Double.pi * r) - 1) < 5e-4)
        }
        var arc = Path()
        arc.addArc(center: .zero, radius: 50, startAngle: 0, endAngle: Double.pi, clockwise: true)
        #expect(Swift.abs(arc.length() / (50 * Double.pi) - 1) < 5e-4)
    }

    @Test func lengthCountsClosingLines() {
        #expect(Path.rect(Rect(x: 0, y: 0, width: 3, height: 4)).length() == 14)
        #expect(Path(elements: [.move(.zero), .line(Point(3, 4)), .move(Point(9, 9)), .line(Point(9, 10))]).length() == 6)
    }

    let line = Path(elements: [.move(.zero), .line(Point(10, 0))])

    @Test func trimmingALineAtZeroHalfAndOne() {
        #expect(line.trimmed(from: 0, to: 1) == line)
        #expect(line.trimmed(from: 0, to: 0.5).elements == [.move(.zero), .line(Point(5, 0))])
        #expect(line.trimmed(from: 0.5, to: 1).elements == [.move(Point(5, 0)), .line(Point(10, 0))])
        #expect(line.trimmed(from: 0.5, to: 0.5).isEmpty)
        #expect(line.trimmed(from: 0.7, to: 0.2).isEmpty)
        #expect(line.trimmed(from: -1, to: 2) == line)
    }

    @Test func trimmingFractionsAreOfAllContoursTogether() {
        let two = Path(elements: [.move(.zero), .line(Point(10, 0)), .move(Point(0, 10)), .line(Point(30, 10))])
        // Total 40: 0.25…0.75 is 10…30, the whole of nothing in the first and 0…20 of the second.
        #expect(two.trimmed(from: 0.25, to: 0.75).elements == [.move(Point(0, 10)), .line(Point(20, 10))])
        #expect(two.trimmed(from: 0.125, to: 0.5).elements == [
            .move(Point(5, 0)), .line(Point(10, 0)), .move(Point(0, 10)), .line(Point(10, 10)),
        ])
    }

    @Test func trimmingClosedContours() {
        let square = Path.rect(Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(square.trimmed(from: 0, to: 1) == square)
        #expect(square.trimmed(from: 0, to: 0.5).elements == [.move(.zero), .line(Point(10, 0)), .line(Point(10, 10))])
        // The last quarter is the closing line.
        #expect(square.trimmed(from: 0.75, to: 1).elements == [.move(Point(0, 10)), .line(.zero)])
        #expect(square.trimmed(from: 0.875, to: 1).elements == [.move(Point(0, 5)), .line(.zero)])
    }

    @Test func trimmedCurvesKeepTheirShapeAndLength() {
        var rng = SeededRandom(seed: 11)
        for _ in 0..<50 {
            var path = Path()
            path.move(to: rng.point(0...100))
            path.cubic(to: rng.point(0...100), control1: rng.point(0...100), control2: rng.point(0...100))
            path.quad(to: rng.point(0...100), control: rng.point(0...100))
            let total = path.length()
            let a = rng.double(in: 0...1), b = rng.double(in: 0...1)
            let (lo, hi) = (Swift.min(a, b), Swift.max(a, b))
            let piece = path.trimmed(from: lo, to: hi)
            #expect(Swift.abs(piece.length() - (hi - lo) * total) < 1e-3 * total + 0.05)
            let head = path.trimmed(from: 0, to: lo), tail = path.trimmed(from: hi, to: 1)
            #expect(Swift.abs(head.length() + piece.length() + tail.length() - total) < 1e-3 * total + 0.05)
        }
    }

    @Test func flatteningStaysWithinTolerance() {
        struct Edges: EdgeSink {
            var points: [Point] = []
            mutating func addEdge(from p0: Point, to p1: Point) {
                if points.isEmpty { points.append(p0) }
                points.append(p1)
            }
        }
        var rng = SeededRandom(seed: 5)
        for tol in [0.1, 0.25] {
            for _ in 0..<40 {
                let p0 = rng.point(0...300), c1 = rng.point(0...300), c2 = rng.point(0...300), p3 = rng.point(0...300)
                let path = Path(elements: [.move(p0), .cubic(c1, c2, p3)])
                var sink = Edges()
                path.flattenForFill(transform: .identity, tolerance: tol, into: &sink)
                // Drop the closing edge back to the start.
                let poly = Array(sink.points.dropLast())
                for i in 0...400 {
                    let q = Path.cubicPoint(p0, c1, c2, p3, Double(i) / 400)
                    let d = zip(poly, poly.dropFirst()).map { distance(q, $0.0, $0.1) }.min() ?? .infinity
                    #expect(d <= tol + 1e-9)
                }
            }
        }
    }

    @Test func flatteningHugeAndBrokenCurvesIsBounded() {
        struct Count: EdgeSink {
            var n = 0
            mutating func addEdge(from p0: Point, to p1: Point) { n += 1 }
        }
        let huge = Path(elements: [.move(Point(-1e6, -1e6)), .cubic(Point(1e6, -1e6), Point(-1e6, 1e6), Point(1e6, 1e6))])
        var c = Count()
        huge.flattenForFill(transform: .identity, tolerance: 0.1, into: &c)
        #expect(c.n <= Path.maxSegmentsPerCurve + 1)
        let broken = Path(elements: [.move(.zero), .quad(Point(.nan, 0), Point(.infinity, 1))])
        var d = Count()
        broken.flattenForFill(transform: .identity, tolerance: 0.1, into: &d)
        #expect(d.n <= Path.maxSegmentsPerCurve + 1)
    }

    @Test func boundingBoxIsTightOnCurves() {
        // A quadratic from (0,0) to (10,0) with control (5,10) peaks at y = 5, though its control is at 10.
        let q = Path(elements: [.move(.zero), .quad(Point(5, 10), Point(10, 0))])
        #expect(q.boundingBox == Rect(x: 0, y: 0, width: 10, height: 5))
        #expect(q.controlPointBounds.height == 10)
        let circle = Path.ellipse(in: Rect(x: 10, y: 20, width: 30, height: 40))
        let b = circle.boundingBox
        #expect(Swift.abs(b.minX - 10) < 1e-9 && Swift.abs(b.maxY - 60) < 1e-9)
    }

    @Test func arcsFollowUIKitDirections() {
        // Clockwise (increasing angle) from 0 to π/2 on a y-down screen passes through +y.
        var cw = Path()
        cw.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: Double.pi / 2, clockwise: true)
        #expect(cw.boundingBox.minY > -1e-9 && Swift.abs(cw.boundingBox.maxY - 10) < 1e-9)
        // Counter-clockwise between the same angles goes the long way, three quarters round through −y.
        var ccw = Path()
        ccw.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: Double.pi / 2, clockwise: false)
        #expect(Swift.abs(ccw.boundingBox.minY + 10) < 1e-9 && Swift.abs(ccw.boundingBox.minX + 10) < 1e-9)
        #expect(Swift.abs(ccw.length() / (15 * Double.pi) - 1) < 5e-4)
        // A second arc is joined to the first by a line.
        cw.addArc(center: Point(50, 0), radius: 5, startAngle: Double.pi, endAngle: 0, clockwise: true)
        let joins = cw.elements.compactMap { e -> Point? in if case .line(let p) = e { return p } else { return nil } }
        #expect(joins.count == 1 && joins.allSatisfy { $0.distance(to: Point(45, 0)) < 1e-9 })
    }
}

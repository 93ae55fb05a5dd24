import Testing
import TestSupport
@testable import Geometry

/// The closed polygons of an outline made of moves, lines and closes.
func polygons(_ path: Path) -> [[Point]] {
    var result: [[Point]] = [], current: [Point] = []
    for e in path.elements {
        switch e {
        case .move(let p):
            if current.count > 1 { result.append(current) }
            current = [p]
        case .line(let p): current.append(p)
        case .close:
            if current.count > 1 { result.append(current) }
            current = []
        default: Issue.record("an outline holds only lines")
        }
    }
    if current.count > 1 { result.append(current) }
    return result
}

/// Signed area of every contour together (shoelace); the stroker's pieces all turn the same way.
func signedArea(_ path: Path) -> Double {
    var sum = 0.0
    for poly in polygons(path) {
        for i in 0..<poly.count {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            sum += a.x * b.y - b.x * a.y
        }
    }
    return sum / 2
}

/// Non-zero winding number of `p` with respect to the outline.
func winding(_ path: Path, _ p: Point) -> Int {
    var w = 0
    for poly in polygons(path) {
        for i in 0..<poly.count {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            if a.y <= p.y {
                if b.y > p.y && (b - a).cross(p - a) > 0 { w += 1 }
            } else if b.y <= p.y && (b - a).cross(p - a) < 0 {
                w -= 1
            }
        }
    }
    return w
}

/// Distance from `p` to the segment a–b.
func distance(_ p: Point, _ a: Point, _ b: Point) -> Double {
    let ab = b - a
    let len2 = ab.dot(ab)
    let t = len2 > 0 ? Swift.min(Swift.max((p - a).dot(ab) / len2, 0), 1) : 0
    return p.distance(to: a + ab * t)
}

func allPoints(_ path: Path) -> [Point] { polygons(path).flatMap { $0 } }

@Suite struct StrokerTests {
    let segment = Path(elements: [.move(Point(0, 0)), .line(Point(10, 0))])

    @Test func buttCapsCoverTheSegmentExactly() {
        let out = segment.stroked(StrokeStyle(lineWidth: 2, lineCap: .butt), tolerance: 0.1)
        #expect(out.boundingBox == Rect(x: 0, y: -1, width: 10, height: 2))
        #expect(Swift.abs(Swift.abs(signedArea(out)) - 20) < 1e-9)
    }

    @Test func squareCapsCoverTheExpectedRectangle() {
        // Half the width beyond each end: x from −1 to 11, y from −1 to 1, area 24.
        let out = segment.stroked(StrokeStyle(lineWidth: 2, lineCap: .square), tolerance: 0.1)
        #expect(out.boundingBox == Rect(x: -1, y: -1, width: 12, height: 2))
        #expect(Swift.abs(Swift.abs(signedArea(out)) - 24) < 1e-9)
    }

    @Test func roundCapsAreHalfDiscsWithinTolerance() {
        // Two half discs of radius 1 add π; the inscribed polygon falls short by at most tolerance × perimeter.
        let tol = 0.01
        let out = segment.stroked(StrokeStyle(lineWidth: 2, lineCap: .round), tolerance: tol)
        let area = Swift.abs(signedArea(out))
        #expect(area <= 20 + Double.pi + 1e-9)
        #expect(area >= 20 + Double.pi - 2 * Double.pi * tol)
        let b = out.boundingBox
        #expect(b.minX >= -1 - 1e-9 && b.minX <= -1 + tol && b.maxX <= 11 + 1e-9 && b.maxX >= 11 - tol)
        for p in allPoints(out) { #expect(distance(p, Point(0, 0), Point(10, 0)) <= 1 + 1e-9) }
    }

    @Test func miterTipAtTheHandComputedPoint() {
        // A right-angle turn at (10, 0) towards +y, width 2: the outer edges y = −1 and x = 11 meet at (11, −1).
        let path = Path(elements: [.move(.zero), .line(Point(10, 0)), .line(Point(10, 10))])
        let out = path.stroked(StrokeStyle(lineWidth: 2, lineJoin: .miter), tolerance: 0.1)
        #expect(allPoints(out).contains(Point(11, -1)))
        #expect(out.boundingBox == Rect(x: 0, y: -1, width: 11, height: 11))
        // Bevel cuts the corner: (10, −1) to (11, 0), so no point lies beyond x + (−y) = 11.
        let bevel = path.stroked(StrokeStyle(lineWidth: 2, lineJoin: .bevel), tolerance: 0.1)
        #expect(!allPoints(bevel).contains(Point(11, -1)))
        #expect(allPoints(bevel).contains(Point(10, -1)) && allPoints(bevel).contains(Point(11, 0)))
        #expect(allPoints(bevel).allSatisfy { $0.x - $0.y <= 11 + 1e-9 })
        // Round: every outline point within the half width of the polyline.
        let round = path.stroked(StrokeStyle(lineWidth: 2, lineJoin: .round), tolerance: 0.01)
        for p in allPoints(round) {
            #expect(Swift.min(distance(p, .zero, Point(10, 0)), distance(p, Point(10, 0), Point(10, 10))) <= 1 + 1e-9)
        }
    }

    /// How far the outline reaches past the corner along the outer bisector, for two segments meeting at the
    /// origin with interior angle `theta`.
    func reach(theta: Double, join: LineJoin, limit: Double) -> Double {
        // First segment arrives along +x; the second leaves at angle π − θ from it, turning towards +y.
        let phi = Double.pi - theta
        let d1 = Point(cos(phi), sin(phi))
        let path = Path(elements: [.move(Point(-20, 0)), .line(.zero), .line(d1 * 20)])
        let out = path.stroked(StrokeStyle(lineWidth: 2, lineJoin: join, miterLimit: limit), tolerance: 0.1)
        // Outer side is −n: n0 = (0, 1), n1 = (−d1.y, d1.x).
        let bisector = Point(0 + d1.y, -1 - d1.x) / Point(d1.y, -1 - d1.x).length
        return allPoints(out).map { $0.dot(bisector) }.max() ?? 0
    }

    @Test func miterLimitSwitchesToBevelAtTheRightAngle() {
        // The miter is 1/sin(θ/2) widths long: limit 2 allows it down to θ = 60°.
        let h = 1.0
        let wide = 62 * Double.pi / 180, narrow = 58 * Double.pi / 180
        #expect(Swift.abs(reach(theta: wide, join: .miter, limit: 2) - h / sin(wide / 2)) < 1e-9)
        #expect(Swift.abs(reach(theta: narrow, join: .miter, limit: 2) - h * sin(narrow / 2)) < 1e-9)
        #expect(Swift.abs(reach(theta: narrow, join: .bevel, limit: 2) - h * sin(narrow / 2)) < 1e-9)
        // A higher limit keeps the narrow miter.
        #expect(Swift.abs(reach(theta: narrow, join: .miter, limit: 2.2) - h / sin(narrow / 2)) < 1e-9)
    }

    @Test func zeroLengthSegmentsDrawDotsForRoundAndSquareCaps() {
        let dot = Path(elements: [.move(Point(5, 5)), .line(Point(5, 5))])
        #expect(dot.stroked(StrokeStyle(lineWidth: 4, lineCap: .butt), tolerance: 0.1).isEmpty)
        let square = dot.stroked(StrokeStyle(lineWidth: 4, lineCap: .square), tolerance: 0.1)
        #expect(square.boundingBox == Rect(x: 3, y: 3, width: 4, height: 4))
        #expect(Swift.abs(Swift.abs(signedArea(square)) - 16) < 1e-9)
        let round = dot.stroked(StrokeStyle(lineWidth: 4, lineCap: .round), tolerance: 0.01)
        let area = Swift.abs(signedArea(round))
        #expect(area <= 4 * Double.pi && area >= 4 * Double.pi * 0.98)
        // A lone move is not stroked at all.
        #expect(Path(elements: [.move(Point(5, 5))]).stroked(StrokeStyle(lineWidth: 4, lineCap: .round)).isEmpty)
    }

    @Test func closedContoursGetTwoLoopsAndNoCaps() {
        var square = Path()
        square.addRect(Rect(x: 0, y: 0, width: 10, height: 10))
        let out = square.stroked(StrokeStyle(lineWidth: 2, lineCap: .square, lineJoin: .miter), tolerance: 0.1)
        #expect(polygons(out).count == 2)
        #expect(out.boundingBox == Rect(x: -1, y: -1, width: 12, height: 12))
        // The ring between the 12×12 and 8×8 squares: area 144 − 64 = 80.
        #expect(Swift.abs(Swift.abs(signedArea(out)) - 80) < 1e-9)
        #expect(winding(out, Point(5, 5)) == 0)
        #expect(winding(out, Point(0, 5)) != 0)
    }

    /// Many contours, each just under the old per-contour limit of dashes, with round caps: the path's points stay
    /// within its budget (the fuzzer's raster target found 2 GB and 11 s for 69 bytes before the budget was shared).
    @Test func dashesShareOnePointBudgetPerPath() {
        var path = Path()
        for i in 0..<40 {
            path.move(to: Point(0, Double(i)))
            path.line(to: Point(4_500, Double(i)))
        }
        let style = StrokeStyle(lineWidth: 0.5, lineCap: .round, dashPattern: [0.1, 0.1])
        let out = path.stroked(style, tolerance: 0.001)
        var points = 0
        for element in out.elements {
            switch element {
            case .move, .line: points += 1
            case .quad: points += 2
            case .cubic: points += 3
            case .close: break
            }
        }
        #expect(points <= Stroker.maxPointsPerPath + 1000, "\(points) points")
        #expect(points > 1000)  // still stroked: the rest solid, not dropped
    }

    @Test func dashesFollowThePatternAndPhase() {
        let line = Path(elements: [.move(.zero), .line(Point(10, 0))])
        let out = line.stroked(StrokeStyle(lineWidth: 2, dashPattern: [2, 3], dashPhase: 1), tolerance: 0.1)
        // Phase 1 into [2 on, 3 off]: on 0–1, off 1–4, on 4–6, off 6–9, on 9–10.
        let boxes = polygons(out).map { poly -> (Double, Double) in
            (poly.map(\.x).min() ?? 0, poly.map(\.x).max() ?? 0)
        }.sorted { $0.0 < $1.0 }
        #expect(boxes.count == 3)
        let expected: [(Double, Double)] = [(0, 1), (4, 6), (9, 10)]
        for (got, want) in zip(boxes, expected) {
            #expect(Swift.abs(got.0 - want.0) < 1e-9 && Swift.abs(got.1 - want.1) < 1e-9)
        }
        // A closed square dashed with the pattern on at both ends joins its last dash to its first.
        var square = Path()
        square.addRect(Rect(x: 0, y: 0, width: 10, height: 10))
        let dashed = square.stroked(StrokeStyle(lineWidth: 1, dashPattern: [5, 5], dashPhase: 2.5), tolerance: 0.1)
        #expect(polygons(dashed).count == 4)
        // Zero-length dashes with round caps are dots.
        let longer = Path(elements: [.move(.zero), .line(Point(12, 0))])
        let dots = longer.stroked(StrokeStyle(lineWidth: 2, lineCap: .round, dashPattern: [0, 5]), tolerance: 0.1)
        #expect(polygons(dots).count == 3)
    }

    /// Under a transform scaling a path a millionfold the tolerance a caller passes is a millionth of a unit.
    @Test func roundJoinsStayBoundedWhateverTheTolerance() {
        var zigzag = Path(elements: [.move(Point(0, 0))])
        for i in 1...10 { zigzag.line(to: Point(Double(i % 2) * 10, Double(i) * 10)) }
        let style = StrokeStyle(lineWidth: 4, lineCap: .round, lineJoin: .round)
        let outline = zigzag.stroked(style, tolerance: 1e-9)
        // 9 joins and 2 caps, each at most a half turn of 512 steps.
        #expect(allPoints(outline).count <= 11 * 520)
        #expect(allPoints(outline).count > 11 * 100)
    }

    @Test func zeroWidthDrawsNothing() {
        #expect(segment.stroked(StrokeStyle(lineWidth: 0), tolerance: 0.1).isEmpty)
        #expect(segment.stroked(StrokeStyle(lineWidth: -3), tolerance: 0.1).isEmpty)
        #expect(segment.stroked(StrokeStyle(lineWidth: .nan), tolerance: 0.1).isEmpty)
    }

    /// With round joins and caps, a stroke is the set of points within half the width of the polyline: the
    /// outline's non-zero winding must say so for every sample farther than the tolerance from that boundary.
    @Test func roundStrokeIsTheMinkowskiSumOfRandomPolylines() {
        var rng = SeededRandom(seed: 42)
        let tol = 0.05
        for _ in 0..<60 {
            let n = Int.random(in: 2...7, using: &rng)
            var pts = (0..<n).map { _ in rng.point(0...40) }
            // Coincident points, reversals and tiny segments are the cases that break strokers.
            if Bool.random(using: &rng) { pts.insert(pts[0], at: 1) }
            if Bool.random(using: &rng), n > 2 { pts[2] = pts[0] }
            if Bool.random(using: &rng) { pts.append(pts.last! + Point(1e-7, 0)) }
            var path = Path()
            path.move(to: pts[0])
            for p in pts.dropFirst() { path.line(to: p) }
            let closed = Bool.random(using: &rng)
            if closed { path.close() }
            let h = rng.double(in: 0.5...8)
            let out = path.stroked(StrokeStyle(lineWidth: 2 * h, lineCap: .round, lineJoin: .round), tolerance: tol)
            let segments = closed ? Array(zip(pts, pts.dropFirst() + [pts[0]])) : Array(zip(pts, pts.dropFirst()))
            for _ in 0..<150 {
                let q = rng.point(-10...50)
                let d = segments.map { distance(q, $0.0, $0.1) }.min() ?? .infinity
                if Swift.abs(d - h) <= tol + 1e-6 { continue }
                #expect((winding(out, q) != 0) == (d < h), "point \(q) at distance \(d), half width \(h)")
            }
        }
    }

    /// Along a curve the outline stays within the tolerance of the curve's true offset, on the inner side and the
    /// outer: every sample farther than twice the tolerance from the offset (once for the flattening, once for the
    /// joins) is inside exactly when it is nearer the curve than half the width.
    @Test func curveStrokesFollowTheTrueOffset() {
        var rng = SeededRandom(seed: 77)
        let tol = 0.05
        for round in 0..<30 {
            let p0 = rng.point(0...40), c1 = rng.point(0...40), c2 = rng.point(0...40), p3 = rng.point(0...40)
            var path = Path()
            path.move(to: p0)
            path.cubic(to: p3, control1: c1, control2: c2)
            let h = rng.double(in: 0.5...6)
            let out = path.stroked(StrokeStyle(lineWidth: 2 * h, lineCap: .round, lineJoin: .round), tolerance: tol)
            let curve = (0...1000).map { Path.cubicPoint(p0, c1, c2, p3, Double($0) / 1000) }
            for _ in 0..<100 {
                let q = rng.point(-10...50)
                let d = zip(curve, curve.dropFirst()).map { distance(q, $0.0, $0.1) }.min() ?? .infinity
                if Swift.abs(d - h) <= 2 * tol { continue }
                #expect((winding(out, q) != 0) == (d < h), "round \(round): point \(q) at \(d), half width \(h)")
            }
        }
    }

    /// Where a curve turns less than one round step at a vertex, the outer side has one point there, the offset
    /// lines' crossing, like the inner side: a gentle curve's outline has two points per vertex of its flattening,
    /// not three (the ends of a one-chord arc), which is a third fewer edges to fill.
    @Test func gentleCurvesGiveOnePointPerVertexOnEachSide() {
        let p0 = Point(0, 0), c = Point(100, 0), p = Point(100, 100)
        let tol = 0.1
        let vertices = Path.segmentCount(secondDifference: (p0 - c * 2 + p).length, degreeFactor: 0.25,
                                         tolerance: tol) + 1
        var path = Path()
        path.move(to: p0)
        path.quad(to: p, control: c)
        let out = path.stroked(StrokeStyle(lineWidth: 4, lineCap: .butt, lineJoin: .round), tolerance: tol)
        #expect(vertices > 10)
        // Beside them, at each end, the offsets of the curve's own tangent as well as the chord's, and the point that
        // closes the polygon.
        #expect(allPoints(out).count <= 2 * vertices + 5, "\(allPoints(out).count) points for \(vertices) vertices")
    }

    @Test func randomPathsNeverCrashAndStayFinite() {
        var rng = SeededRandom(seed: 2024)
        for round in 0..<300 {
            var path = Path()
            let scale = [1.0, 1e-6, 1e6][round % 3]
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                let p = rng.point(-1...1) * scale
                switch Int.random(in: 0..<7, using: &rng) {
                case 0: path.move(to: p)
                case 1: path.line(to: p)
                case 2: path.quad(to: p, control: rng.point(-1...1) * scale)
                case 3: path.cubic(to: p, control1: p, control2: path.currentPoint ?? p)   // cusp-like
                case 4: path.cubic(to: rng.point(-1...1) * scale, control1: p, control2: rng.point(-1...1) * scale)
                case 5: path.line(to: path.currentPoint ?? p)                               // zero length
                default: path.close()
                }
            }
            let style = StrokeStyle(lineWidth: [0.0, 0.01, 1, 30][round % 4] * scale,
                                    lineCap: LineCap.allCases[round % 3], lineJoin: LineJoin.allCases[(round / 3) % 3],
                                    miterLimit: [1, 4, 10][round % 3],
                                    dashPattern: round % 5 == 0 ? [0.3 * scale, 0.1 * scale] : [])
            let out = path.stroked(style, tolerance: 0.1 * scale)
            #expect(allPoints(out).allSatisfy { $0.isFinite })
            #expect(path.boundingBox.origin.isFinite)
            let trimmed = path.trimmed(from: rng.double(in: 0...1), to: rng.double(in: 0...1))
            #expect(trimmed.controlPointBounds.origin.isFinite)
        }
        // Non-finite input is dropped, not propagated.
        let broken = Path(elements: [.move(.zero), .line(Point(.nan, 1)), .line(Point(.infinity, 0)), .line(Point(5, 5))])
        #expect(allPoints(broken.stroked(StrokeStyle(lineWidth: 2), tolerance: 0.1)).allSatisfy { $0.isFinite })
    }

    @Test func edgeSinkMatchesThePathOutline() {
        struct Edges: EdgeSink {
            var edges: [(Point, Point)] = []
            mutating func addEdge(from p0: Point, to p1: Point) { edges.append((p0, p1)) }
        }
        let path = (try? Path(svgPathData: "M10 10 Q40 60 70 10 T130 10 L130 80 Z")) ?? Path()
        let style = StrokeStyle(lineWidth: 6, lineCap: .round, lineJoin: .round)
        let outline = path.stroked(style, tolerance: 0.1)
        var sink = Edges()
        let t = AffineTransform(translationX: 3, y: -2)
        Stroker().stroke(path, style: style, tolerance: 0.1, transform: t, into: &sink)
        var expected = Edges()
        outline.flattenForFill(transform: t, tolerance: 0.1, into: &expected)
        #expect(sink.edges.count == expected.edges.count)
        for (a, b) in zip(sink.edges, expected.edges) { #expect(a.0 == b.0 && a.1 == b.1) }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

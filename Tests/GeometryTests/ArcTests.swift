#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import Geometry

/// `addArc` against UIKit's rules for whole turns: a difference of 2π or more in the drawing direction is one full
/// circle; a difference against it goes the other way round, so whole turns that way draw nothing.
@Suite struct ArcTests {
    let center = Point(5, 5)
    let r = 10.0

    func arc(_ start: Double, _ end: Double, clockwise: Bool) -> Path {
        var p = Path()
        p.addArc(center: center, radius: r, startAngle: start, endAngle: end, clockwise: clockwise)
        return p
    }

    func cubicCount(_ p: Path) -> Int {
        p.elements.filter { if case .cubic = $0 { return true } else { return false } }.count
    }

    /// True when the path is one full circle of radius `r` round `center`, starting and ending at `startAngle`.
    func isFullCircle(_ p: Path, startAngle: Double) -> Bool {
        let start = Point(center.x + r * cos(startAngle), center.y + r * sin(startAngle))
        let b = p.boundingBox
        // Quarter-turn cubics stray from the circle by at most 0.027 % of r between their ends.
        let e = 3e-4 * r
        return Swift.abs(p.length(tolerance: 0.001) / (2 * Double.pi * r) - 1) < 5e-4
            && Swift.abs(b.minX - (center.x - r)) < e && Swift.abs(b.maxX - (center.x + r)) < e
            && Swift.abs(b.minY - (center.y - r)) < e && Swift.abs(b.maxY - (center.y + r)) < e
            && p.elements.first == .move(start)
            && (p.currentPoint.map { $0.distance(to: start) < 1e-9 } ?? false)
            && cubicCount(p) == 4
    }

    /// The y of the first cubic's first control point: below the centre when the arc leaves 0 rad clockwise.
    func firstControlY(_ p: Path) -> Double? {
        for e in p.elements { if case .cubic(let c1, _, _) = e { return c1.y } }
        return nil
    }

    @Test func aTurnClockwiseIsTheFullCircle() {
        let p = arc(0, 2 * Double.pi, clockwise: true)
        #expect(isFullCircle(p, startAngle: 0))
        // Clockwise on a y-down screen leaves (r, 0) towards +y.
        #expect((firstControlY(p) ?? -1) > center.y)
    }

    @Test func aTurnCounterClockwiseIsTheFullCircleTheOtherWay() {
        let p = arc(0, -2 * Double.pi, clockwise: false)
        #expect(isFullCircle(p, startAngle: 0))
        #expect((firstControlY(p) ?? 1) < center.y)
    }

    @Test func aTurnFromAQuarterUpRoundToThreeQuarters() {
        // The spinner's usual circle: from the top, −π/2, to 3π/2.
        #expect(isFullCircle(arc(-Double.pi / 2, 3 * Double.pi / 2, clockwise: true), startAngle: -Double.pi / 2))
    }

    @Test func moreThanATurnInTheDrawingDirectionIsStillOneCircle() {
        #expect(isFullCircle(arc(0, 4 * Double.pi, clockwise: true), startAngle: 0))
        #expect(isFullCircle(arc(1, 1 + 2 * Double.pi + 0.5, clockwise: true), startAngle: 1))
        #expect(isFullCircle(arc(0, -5 * Double.pi, clockwise: false), startAngle: 0))
    }

    @Test func wholeTurnsAgainstTheDrawingDirectionDrawNoArc() {
        for (start, end, clockwise) in [(0.0, 2 * Double.pi, false), (0, -2 * Double.pi, true),
                                        (0, -4 * Double.pi, true), (1, 1, true), (1, 1, false)] {
            let p = arc(start, end, clockwise: clockwise)
            let startPoint = Point(center.x + r * cos(start), center.y + r * sin(start))
            #expect(p.elements == [.move(startPoint)])
            #expect(p.length() == 0)
        }
    }

    @Test func aDifferenceAgainstTheDrawingDirectionGoesTheOtherWayRound() {
        // Clockwise from 0 to −π/2 is three quarters through +y, −x and round to −y.
        for end in [-Double.pi / 2, -Double.pi / 2 - 2 * Double.pi] {
            let p = arc(0, end, clockwise: true)
            #expect(Swift.abs(p.length(tolerance: 0.001) / (1.5 * Double.pi * r) - 1) < 5e-4)
            #expect(p.currentPoint.map { $0.distance(to: Point(center.x, center.y - r)) < 1e-9 } ?? false)
            #expect((firstControlY(p) ?? -1) > center.y)
        }
        // Counter-clockwise from 0 to π/2 is three quarters through −y.
        let ccw = arc(0, Double.pi / 2 + 2 * Double.pi, clockwise: false)
        #expect(Swift.abs(ccw.length(tolerance: 0.001) / (1.5 * Double.pi * r) - 1) < 5e-4)
        #expect((firstControlY(ccw) ?? 1) < center.y)
    }

    @Test func theSweepRule() {
        let twoPi = 2 * Double.pi
        #expect(Path.arcSweep(from: 0, to: twoPi, clockwise: true) == twoPi)
        #expect(Path.arcSweep(from: 0, to: -twoPi, clockwise: false) == -twoPi)
        #expect(Path.arcSweep(from: 0, to: 3 * twoPi, clockwise: true) == twoPi)
        #expect(Path.arcSweep(from: 0, to: twoPi, clockwise: false) == 0)
        #expect(Path.arcSweep(from: 0, to: -twoPi, clockwise: true) == 0)
        #expect(Path.arcSweep(from: 0, to: Double.pi, clockwise: true) == Double.pi)
        #expect(Path.arcSweep(from: 0, to: Double.pi, clockwise: false) == -Double.pi)
        #expect(Swift.abs(Path.arcSweep(from: 0, to: -Double.pi / 2, clockwise: true) - 1.5 * Double.pi) < 1e-12)
    }
}

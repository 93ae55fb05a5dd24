import Geometry
@testable import Layers
import Motion
import Raster
@testable import Refresh
import Testing
import Colors
import TestSupport

/// A pull pose worked out by hand from docs/reference.md §1, Four dots.
struct HandPose: Sendable, CustomTestStringConvertible {
    var pull: Double
    var y: Double
    var opacity: Double
    var start: Double
    var end: Double
    var phase: Int
    var shown: (left: Bool, bottom: Bool, right: Bool)
    var color: Color

    var testDescription: String { "p = \(pull)" }
}

@Suite("Four dots: the pose at a pull")
struct DotsPoseTests {
    static let top = Color(rgb: 90, 200, 200), left = Color(rgb: 250, 85, 78)
    static let bottom = Color(rgb: 92, 201, 105), right = Color(rgb: 253, 175, 75)

    // y = −p up to 35, −(35 + (p − 35)/2) up to 55, then −45. Opacity p/20 below 15. From 15: stage k = ⌊(p − 15)/10⌋,
    // sub = p − 15 − 10k; first half (sub ≤ 5): start k/4, end k/4 + sub/20; second half: end (k+1)/4,
    // start max(k/4 + (sub − 5)/20, (k+1)/4 − 0.1). Sub-phase 2k or 2k+1; left from 2, bottom from 4, right from 6.
    static let poses: [HandPose] = [
        HandPose(pull: 10, y: -10, opacity: 0.5, start: 0, end: 0, phase: 0, shown: (false, false, false), color: top),
        // k 0, sub 3: end 3/20.
        HandPose(pull: 18, y: -18, opacity: 1, start: 0, end: 0.15, phase: 0, shown: (false, false, false), color: top),
        // k 0, sub 6: start max(1/20, 0.15) = 0.15 (the tail's floor).
        HandPose(pull: 21, y: -21, opacity: 1, start: 0.15, end: 0.25, phase: 1, shown: (false, false, false), color: top),
        // k 0, sub 9: start max(4/20, 0.15) = 0.2.
        HandPose(pull: 24, y: -24, opacity: 1, start: 0.2, end: 0.25, phase: 1, shown: (false, false, false), color: top),
        // k 1, sub 2: start 0.25, end 0.25 + 0.1; the left dot shows, the line is the left dot's colour.
        HandPose(pull: 27, y: -27, opacity: 1, start: 0.25, end: 0.35, phase: 2, shown: (true, false, false), color: left),
        // k 2, sub 5 (end of the first half): start 0.5, end 0.75; y = −(35 + 2.5).
        HandPose(pull: 40, y: -37.5, opacity: 1, start: 0.5, end: 0.75, phase: 4, shown: (true, true, false), color: bottom),
        // k 3, sub 7: start max(0.85, 0.9) = 0.9, end 1; y = −(35 + 8.5).
        HandPose(pull: 52, y: -43.5, opacity: 1, start: 0.9, end: 1, phase: 7, shown: (true, true, true), color: right),
        // Complete: no line, every dot, pinned at −(55 − 10).
        HandPose(pull: 55, y: -45, opacity: 1, start: 1, end: 1, phase: 8, shown: (true, true, true), color: right),
        HandPose(pull: 80, y: -45, opacity: 1, start: 1, end: 1, phase: 8, shown: (true, true, true), color: right),
    ]

    @Test("Header place, top opacity, trim, dots and line colour", arguments: poses)
    func pose(_ hand: HandPose) {
        let p = DotsEffect.pose(pull: hand.pull)
        #expect(abs(p.headerY - hand.y) < 1e-12)
        #expect(abs(p.topOpacity - hand.opacity) < 1e-12)
        #expect(abs(p.strokeStart - hand.start) < 1e-12)
        #expect(abs(p.strokeEnd - hand.end) < 1e-12)
        #expect(p.subPhase == hand.phase)
        #expect(p.showsLeft == hand.shown.left && p.showsBottom == hand.shown.bottom && p.showsRight == hand.shown.right)
        #expect(p.lineColor == hand.color)
    }

    @Test("The layers show the pose: at p = 40 the line runs from the left dot to the bottom one")
    func layers() {
        let effect = DotsEffect()
        let rig = Rig(effect: effect)
        rig.touchDown()
        for p in [10.0, 20, 30, 40] { rig.pull(to: p) }
        #expect(abs(effect.line.strokeStart - 0.5) < 1e-6 && abs(effect.line.strokeEnd - 0.75) < 1e-6)
        #expect(effect.line.strokeColor == DotsPoseTests.bottom)
        #expect(!effect.leftDot.isHidden && !effect.bottomDot.isHidden && effect.rightDot.isHidden)
        // Centred across 375: x = 170; the container's top is at −35, the header's at −37.5: 2.5 above it.
        #expect(effect.layer.frame.minX == 170)
        #expect(abs(effect.layer.frame.minY + 2.5) < 1e-5)
        #expect(effect.line.lineWidth == 10 && effect.line.lineCap == .round && effect.line.lineJoin == .round)
        // The path runs top → left → bottom → right → top round the 35 pt diamond.
        let points = effect.line.path?.elements.compactMap { e -> Point? in
            switch e {
            case .move(let p), .line(let p): p
            default: nil
            }
        }
        #expect(points == [Point(17.5, 5), Point(5, 17.5), Point(17.5, 30), Point(30, 17.5), Point(17.5, 5)])
    }
}

@Suite("Four dots: scripted pulls")
struct DotsStateTests {
    @Test("Short of 55: pulling → idle, nothing fires")
    func shortPull() {
        let effect = DotsEffect()
        let rig = Rig(effect: effect)
        rig.touchDown()
        for p in [10.0, 30, 50] { rig.pull(to: p) }
        rig.release()
        rig.run(seconds: 1)
        #expect(rig.states == [.pulling, .idle])
        #expect(rig.actions == 0)
        #expect(effect.layer.animationKeys.isEmpty)
        #expect(effect.topDot.opacity == 0)
    }

    @Test("Past 55 and released: one refresh, the inset 55 in over 0.5 s, back over 0.5 s, then no animations")
    func fullPull() {
        let effect = DotsEffect()
        let rig = Rig(effect: effect)
        rig.touchDown()
        for p in [20.0, 40, 60] { rig.pull(to: p) }
        #expect(rig.states == [.pulling, .armed])
        rig.release()
        #expect(rig.states == [.pulling, .armed, .refreshing])
        #expect(rig.actions == 1 && rig.cues == 1)
        #expect(effect.layer.animationKeys == ["turn"])
        #expect(effect.topDot.animationKeys == ["breath"])
        rig.run(seconds: 1)
        #expect(rig.control.addedInset == 55)
        #expect(abs(rig.scrollView.contentOffset.y + 55) < 0.5)
        // Pinned at −45 while refreshing: 10 above the container's top at −35.
        #expect(abs(effect.layer.frame.minY + 10) < 1e-9)
        rig.control.endRefreshing(result: .success)
        rig.run(seconds: 0.25)
        #expect(rig.control.addedInset > 0 && rig.control.addedInset < 55)
        #expect(effect.layer.animationKeys == ["turn"])
        rig.run(seconds: 0.3)
        #expect(rig.states == [.pulling, .armed, .refreshing, .finishing(.success), .idle])
        #expect(rig.control.addedInset == 0)
        #expect(effect.layer.animationKeys.isEmpty)
        #expect(effect.topDot.animationKeys.isEmpty && effect.rightDot.animationKeys.isEmpty)
    }

    @Test("Ending while the finger is down: the inset goes, no second refresh until the finger lifts")
    func endWhileDragging() {
        let rig = Rig(effect: DotsEffect())
        rig.touchDown()
        for p in [20.0, 40, 60] { rig.pull(to: p) }
        rig.release()
        rig.run(seconds: 1)
        rig.touchDown()
        for y in stride(from: 110.0, through: 200, by: 10) { rig.move(toFingerY: y) }
        rig.control.endRefreshing(result: .success)
        for _ in 0..<60 { rig.move(toFingerY: rig.fingerY) }
        #expect(rig.control.distance > 55)
        #expect(rig.control.addedInset == 0)
        // Back to rest under the finger: idle, then pulling, never armed again while the finger stays down.
        #expect(Array(rig.states.prefix(5)) == [.pulling, .armed, .refreshing, .finishing(.success), .idle])
        #expect(rig.states.dropFirst(5).allSatisfy { $0 == .pulling || $0 == .idle })
        rig.release()
        rig.run(seconds: 1)
        #expect(rig.actions == 1)
        #expect(rig.control.state == .idle)
    }

    @Test("Begin from code twice: one refresh, the inset 55 once")
    func beginTwice() {
        let effect = DotsEffect()
        let rig = Rig(effect: effect)
        rig.run()
        rig.control.beginRefreshing()
        rig.control.beginRefreshing()
        rig.run(seconds: 1)
        #expect(rig.states == [.refreshing])
        #expect(rig.actions == 1)
        #expect(rig.control.addedInset == 55)
        #expect(rig.scrollView.contentInset.top == 55)
        // Every dot shows, no line.
        #expect(effect.topDot.opacity == 1 && !effect.leftDot.isHidden && !effect.rightDot.isHidden)
        #expect(effect.line.strokeStart == 1 && effect.line.strokeEnd == 1)
    }

    @Test("End twice: one finishing, one collapse")
    func endTwice() {
        let rig = Rig(effect: DotsEffect())
        rig.run()
        rig.control.beginRefreshing()
        rig.run(seconds: 1)
        rig.control.endRefreshing()
        rig.run(seconds: 0.2)
        rig.control.endRefreshing()
        rig.run(seconds: 1)
        #expect(rig.states == [.refreshing, .finishing(.success), .idle])
        #expect(rig.control.addedInset == 0)
    }
}

@Suite("Four dots: the refreshing timeline")
struct DotsTimelineTests {
    /// A rig released past 55, and the time the refresh began.
    func refreshing() -> (DotsEffect, Rig, Double) {
        let effect = DotsEffect()
        let rig = Rig(effect: effect)
        var start = Double.nan
        rig.control.stateDidChange = { [unowned rig] _, new in if new == .refreshing { start = rig.time } }
        rig.touchDown()
        for p in [20.0, 40, 60] { rig.pull(to: p) }
        rig.release()
        return (effect, rig, start)
    }

    @Test("The header has turned π/2 at 0.25 s, π at 0.5 s, linearly")
    func turns() {
        let (effect, _, t0) = refreshing()
        #expect(t0.isFinite)
        func angle(_ t: Double) -> Double { DecomposedTransform(effect.layer.presentation(at: t).transform).rotation }
        #expect(abs(angle(t0 + 0.25) - Double.pi / 2) < 1e-9)
        #expect(abs(angle(t0 + 0.125) - Double.pi / 4) < 1e-9)
        #expect(abs(abs(angle(t0 + 0.5)) - Double.pi) < 1e-9)
        // A second turn repeats the first.
        #expect(abs(angle(t0 + 1.25) - Double.pi / 2) < 1e-9)
    }

    @Test("Each dot moves 5 pt inward and back twice a turn: in at 0.25 s, out at 0.5 s, half way at 0.125 s")
    func breathes() {
        let (effect, _, t0) = refreshing()
        func shift(_ dot: ShapeLayer, _ t: Double) -> Point {
            DecomposedTransform(dot.presentation(at: t).transform).translation
        }
        #expect(abs(shift(effect.topDot, t0 + 0.25).y - 5) < 1e-9)
        #expect(abs(shift(effect.leftDot, t0 + 0.25).x - 5) < 1e-9)
        #expect(abs(shift(effect.bottomDot, t0 + 0.25).y + 5) < 1e-9)
        #expect(abs(shift(effect.rightDot, t0 + 0.25).x + 5) < 1e-9)
        #expect(abs(shift(effect.topDot, t0 + 0.125).y - 2.5) < 1e-9)
        #expect(abs(shift(effect.topDot, t0 + 0.5).y) < 1e-9)
        #expect(abs(shift(effect.rightDot, t0 + 0.75).x + 5) < 1e-9)
    }
}

@Suite("Four dots: pictures")
struct DotsGoldenTests {
    @Test("While pulling", arguments: [10.0, 18, 23, 27, 40, 52, 60])
    func pulled(distance: Double) {
        let rig = Rig(effect: DotsEffect())
        rig.touchDown()
        for p in stride(from: 5.0, to: distance, by: 5) { rig.pull(to: p) }
        rig.pull(to: distance)
        Golden.expect(rig.snapshot(), named: "dots-pull-\(Int(distance))")
    }

    @Test("Refreshing, an eighth of a turn in (45°, the dots 2.5 pt in) and a quarter in")
    func refreshing() {
        let rig = Rig(effect: DotsEffect())
        var start = 0.0
        rig.control.stateDidChange = { [unowned rig] _, new in if new == .refreshing { start = rig.time } }
        rig.touchDown()
        for p in [20.0, 40, 60] { rig.pull(to: p) }
        rig.release()
        rig.run(seconds: 1)
        rig.time = start + 1.125
        Golden.expect(rig.snapshot(), named: "dots-refreshing-45")
        rig.time = start + 1.25
        Golden.expect(rig.snapshot(), named: "dots-refreshing-90")
    }
}

@Suite("Four dots: cost")
struct DotsCostTests {
    @Test("A still frame re-strokes nothing; a refreshing frame strokes no line at all")
    func steadyFrame() {
        let effect = DotsEffect()
        _ = effectFrameCost(effect, frames: 1) { _ in (40, 0) }
        let builds = effect.line.strokeBuildCount
        _ = effectFrameCost(effect, frames: 30) { i in (40, Double(i) / 60) }
        #expect(effect.line.strokeBuildCount == builds)
        effect.transition(from: .armed, to: .refreshing, at: 1)
        _ = effectFrameCost(effect, frames: 60) { i in (55, 1 + Double(i) / 60) }
        #expect(effect.line.strokeBuildCount == builds)
    }

    #if !DEBUG
    @Test("Release: pulling and refreshing each draw inside 0.3 ms a frame at scale 2")
    func releaseTiming() {
        let effect = DotsEffect()
        // The pull sweeps 15 → 55 by half a point a frame: a new trim, so a new stroke, every frame.
        let pulling = effectFrameCost(effect, frames: 600) { i in (15 + Double(i % 80) / 2, Double(i) / 60) }
        effect.transition(from: .armed, to: .refreshing, at: 100)
        let refreshing = effectFrameCost(effect, frames: 600) { i in (55, 100 + Double(i) / 60) }
        print("dots: pulling \(pulling * 1e6) µs, refreshing \(refreshing * 1e6) µs per frame")
        #expect(pulling < effectFrameBudget)
        #expect(refreshing < effectFrameBudget)
    }
    #endif
}

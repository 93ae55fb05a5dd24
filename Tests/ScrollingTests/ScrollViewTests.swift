#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Motion
import Testing
import TestSupport
@testable import Scrolling

/// The demo phone's list: a 375×603 pt viewport on 3000 pt of content.
private func makeList(height: Double = 3000) -> ScrollView {
    ScrollView(boundsSize: Size(375, 603), contentSize: Size(375, height))
}

private let frame = 1.0 / 60
/// k = 1000·ln 0.998, written out from docs/reference.md §2 for the expected values.
private let kNormal = 1000 * log(0.998)

/// A finger that goes down at `start` at time 0 and moves `step` per frame for `frames` frames, then lifts where it is
/// at the time of its last move. Returns the release time.
private func drag(_ view: ScrollView, from start: Point, step: Point, frames: Int, startTime: Double = 0,
                  each: (Int) -> Void = { _ in }) -> Double {
    view.touchBegan(at: start, time: startTime)
    var p = start
    for i in 1...frames {
        p = p + step
        view.touchMoved(to: p, time: startTime + Double(i) * frame)
        view.step(to: startTime + Double(i) * frame)
        each(i)
    }
    let release = startTime + Double(frames) * frame
    view.touchEnded(at: p, time: release)
    return release
}

@Suite struct ScriptedGestureTests {
    @Test func dragReleaseAndFlingFrameByFrame() {
        // The finger moves up 10 pt a frame for 10 frames: the content follows 1:1 (offset 10·i). Every pair moves
        // at 600 pt/s, so the release velocity is 600 pt/s and the content decelerates from 100 at the normal rate:
        // x(t) = 100 + 600·(0.998^(1000t) − 1)/k, resting at 100 − 600/k = 399.6998999.
        let view = makeList()
        var states: [String] = []
        view.addObserver { v, change in
            if change == .state { states.append("\(v.isTracking) \(v.isDragging) \(v.isDecelerating)") }
        }
        let release = drag(view, from: Point(100, 500), step: Point(0, -10), frames: 10) { i in
            #expect(abs(view.contentOffset.y - 10 * Double(i)) < 1e-9)
            #expect(view.isTracking && view.isDragging)
        }
        #expect(view.isDecelerating && !view.isTracking && !view.isDragging)
        #expect(abs(view.panTracker.velocity.y - -600) < 1e-6)
        let stop = log(-kNormal * 0.5 / 600) / kNormal
        for i in 1...300 {
            let t = release + Double(i) * frame
            view.step(to: t)
            let tau = min(Double(i) * frame, stop)
            let expected = 100 + 600 * (pow(0.998, 1000 * tau) - 1) / kNormal
            #expect(abs(view.contentOffset.y - expected) < 1e-6, "frame \(i)")
            #expect(view.contentOffset.x == 0)
        }
        #expect(!view.isDecelerating && !view.isAnimating)
        #expect(abs(view.contentOffset.y - (100 - 600 / kNormal)) <= 0.5 + 1e-9)
        #expect(states == ["true false false", "true true false", "false true false", "false false false",
                           "false false true", "false false false"])
    }

    @Test func fastRateStopsSooner() {
        let view = makeList()
        view.decelerationRate = .fast
        let release = drag(view, from: Point(100, 500), step: Point(0, -10), frames: 10)
        let k = 1000 * log(0.99)
        for i in 1...60 {
            view.step(to: release + Double(i) * frame)
            let tau = min(Double(i) * frame, log(-k * 0.5 / 600) / k)
            #expect(abs(view.contentOffset.y - (100 + 600 * (pow(0.99, 1000 * tau) - 1) / k)) < 1e-6)
        }
        #expect(!view.isDecelerating)
    }

    @Test func pullPastTheTopRubberBandsAndSnapsBack() {
        // From the top the finger pulls down 10 pt a frame: the content shows −f(10·i) with d = 603. The finger
        // leaves at 600 pt/s; past the edge the content moved at the band's slope c/(x·c/d + 1)², so the snap-back
        // spring starts at x0 = −f(100) with v0 = −600·slope(100), and x(t) = (x0 + (v0 + 10·x0)·t)·e^(−10t).
        let view = makeList()
        let d = 603.0, c = 0.55
        let release = drag(view, from: Point(100, 200), step: Point(0, 10), frames: 10) { i in
            let x = 10 * Double(i)
            #expect(abs(view.contentOffset.y - -(1 - 1 / (x * c / d + 1)) * d) < 1e-9, "frame \(i)")
        }
        let x0 = -(1 - 1 / (100 * c / d + 1)) * d
        let v0 = -600 * c / ((100 * c / d + 1) * (100 * c / d + 1))
        #expect(view.isDecelerating)
        for i in 1...60 {
            let t = Double(i) * frame
            view.step(to: release + t)
            let expected = (x0 + (v0 + 10 * x0) * t) * exp(-10 * t)
            if view.isAnimating {
                #expect(abs(view.contentOffset.y - expected) < 1e-6, "frame \(i)")
            } else {
                #expect(view.contentOffset.y == 0 && abs(expected) < 0.25, "frame \(i)")
            }
        }
        #expect(view.contentOffset.y == 0 && !view.isAnimating)
    }

    @Test func flingPastTheTopHandsOverToTheBounceSpring() {
        // Content at 100, the finger flings it down at 1000 pt/s: the decay would rest at 100 − 1000/2.002 < 0, so
        // at t_c = ln(1 + k·100/1000)/k the content reaches 0 with v_c = −1000·(1 + k·100/1000) and the critically
        // damped spring takes over: x = v_c·s·e^(−10s), s the time since t_c.
        let view = makeList()
        view.setContentOffset(Point(0, 100 + 1000.0 / 60 * 6))
        let release = drag(view, from: Point(100, 100), step: Point(0, 1000.0 / 60), frames: 6)
        #expect(abs(view.contentOffset.y - 100) < 1e-9)
        let tc = log(1 + kNormal * 100 / 1000) / kNormal
        let vc = -1000 * (1 + kNormal * 100 / 1000)
        var lowest = 0.0
        for i in 1...90 {
            let t = Double(i) * frame
            view.step(to: release + t)
            let expected = t < tc ? 100 - 1000 * (pow(0.998, 1000 * t) - 1) / kNormal * -1 * -1
                                  : vc * (t - tc) * exp(-10 * (t - tc))
            if view.isAnimating {
                #expect(abs(view.contentOffset.y - expected) < 1e-6, "frame \(i)")
            }
            lowest = min(lowest, view.contentOffset.y)
        }
        // The overshoot peaks 0.1 s after the crossing at v_c·0.1/e.
        #expect(lowest < 0 && lowest >= vc * 0.1 / M_E - 1e-9)
        #expect(view.contentOffset.y == 0 && !view.isAnimating)
    }
}

@Suite struct ScrollPhysicsProperties {
    /// Random flings inside long content: the offset moves monotonically and never passes the decay's projected
    /// resting point x∞ = x₀ − v₀/k.
    @Test func momentumNeverPassesTheProjectedRestPoint() {
        var random = SeededRandom(seed: 99)
        for _ in 0..<200 {
            let view = makeList(height: 40_000)
            if random.next() % 2 == 0 { view.decelerationRate = .fast }
            view.setContentOffset(Point(0, 20_000))
            let speed = random.double(in: -3000...3000) / 60
            let frames = 3 + Int(random.next() % 8)
            let release = drag(view, from: Point(100, 300), step: Point(0, speed), frames: frames)
            let v = -view.panTracker.velocity.y
            let start = view.contentOffset.y
            let rest = start - v / view.decelerationRate.k
            var last = start
            for i in 1...400 {
                view.step(to: release + Double(i) * frame)
                let y = view.contentOffset.y
                #expect((y - last) * v >= -1e-9, "moves backwards")
                #expect((rest - y) * v >= -1e-9, "passes the rest point")
                last = y
            }
            #expect(!view.isAnimating)
        }
    }

    /// Random pulls past either end, released at random speeds (some caught again and flicked): whenever the
    /// finger leaves the content past an edge, it returns exactly to that edge and is at rest within 1 s.
    @Test func releasedOverscrollSettlesAtTheEdgeWithinOneSecond() {
        var random = SeededRandom(seed: 7)
        var checked = 0
        for _ in 0..<300 {
            let view = makeList()
            let atBottom = random.next() % 2 == 0
            let edge = atBottom ? view.maxContentOffset.y : view.minContentOffset.y
            view.setContentOffset(Point(0, edge))
            let frames = 2 + Int(random.next() % 20)
            let travel = random.double(in: 5...800)
            // The finger pulls the content away from the edge.
            let perFrame = (atBottom ? -travel : travel) / Double(frames)
            var release = drag(view, from: Point(100, 300), step: Point(0, perFrame), frames: frames)
            if random.next() % 2 == 0 {
                // A second grab during the snap-back, with a flick in a random direction.
                view.step(to: release + random.double(in: 0...0.2))
                release = drag(view, from: Point(100, 300), step: Point(0, random.double(in: -40...40)),
                               frames: 3, startTime: view.currentTime)
            }
            let y = view.contentOffset.y
            guard y < view.minContentOffset.y || y > view.maxContentOffset.y else { continue }
            checked += 1
            view.step(to: release + 1)
            #expect(view.contentOffset.y == edge, "at \(view.contentOffset.y), edge \(edge)")
            #expect(!view.isAnimating && !view.isDecelerating)
        }
        #expect(checked > 250)
    }
}

@Suite struct ScrollViewBehaviourTests {
    @Test func aDragThatStartsWhileOverscrolledContinuesThroughTheInverseBand() {
        // Pulled 100 pt of finger past the top, then caught during the snap-back: the content stays where it was
        // caught, and further finger travel adds to the travel the band's inverse gives for that overscroll.
        let view = makeList()
        let release = drag(view, from: Point(100, 200), step: Point(0, 10), frames: 10)
        view.step(to: release + 0.05)
        let caught = view.contentOffset.y
        view.touchBegan(at: Point(100, 400), time: release + 0.06)
        #expect(abs(view.contentOffset.y - PhysicsStyle().bounceSpring.motion(from: caught, to: 0, initialVelocity: 0).target) >= 0)
        let held = view.contentOffset.y
        view.step(to: release + 0.2)
        #expect(view.contentOffset.y == held && !view.isDecelerating)
        let x = RubberBand.travel(forOffset: -held, dimension: 603)
        view.touchMoved(to: Point(100, 430), time: release + 0.21)
        #expect(abs(view.contentOffset.y - -RubberBand.offset(forTravel: x + 30, dimension: 603)) < 1e-9)
        view.touchMoved(to: Point(100, 400), time: release + 0.22)
        #expect(abs(view.contentOffset.y - held) < 1e-9)
    }

    @Test func wheelScrollsThroughTheBandWithoutMomentum() {
        let view = makeList()
        view.scrollWheel(by: Point(0, 50), time: 1)
        view.scrollWheel(by: Point(0, 50), time: 1.02)
        #expect(view.contentOffset.y == 100)
        for i in 1...60 { view.step(to: 1.02 + Double(i) * frame) }
        #expect(view.contentOffset.y == 100 && !view.isAnimating)
        // Up past the top: 160 pt of wheel from 100 is 60 pt of travel past the edge, shown through the band.
        view.scrollWheel(by: Point(0, -160), time: 3)
        #expect(abs(view.contentOffset.y - -RubberBand.offset(forTravel: 60, dimension: 603)) < 1e-9)
        view.step(to: 3.05)
        #expect(view.contentOffset.y < 0 && view.isAnimating)
        // After the wheel rests 0.1 s the overscroll springs back from rest: x = x0·(1 + 10s)·e^(−10s).
        let x0 = view.contentOffset.y
        view.step(to: 3.1 + 0.1)
        #expect(abs(view.contentOffset.y - x0 * 2 * exp(-1)) < 1e-9)
        view.step(to: 5)
        #expect(view.contentOffset.y == 0 && !view.isAnimating)
    }

    @Test func animatedOffsetFollowsEaseInEaseOut() {
        let view = makeList()
        view.step(to: 2)
        view.setContentOffset(Point(0, 400), animated: true)
        view.step(to: 2 + 0.15)
        #expect(abs(view.contentOffset.y - 400 * TimingFunction.easeInEaseOut.value(at: 0.5)) < 1e-9)
        view.step(to: 2.31)
        #expect(view.contentOffset.y == 400 && !view.isAnimating)
    }

    @Test func insetAnimationCarriesARestingOffsetBack() {
        // A refresh header's end: the inset shrinks from 54 to 0 over 0.4 s and the offset, shown at −54, follows
        // the top edge as UIKit adjusts it at rest.
        let view = makeList()
        var insetChanges = 0, completions = 0
        view.addObserver { _, change in if change == .contentInset { insetChanges += 1 } }
        view.contentInset = EdgeInsets(top: 54)
        view.setContentOffset(Point(0, -54))
        view.step(to: 1)
        view.setContentInset(EdgeInsets(top: 0), duration: 0.4, timing: .linear) { completions += 1 }
        view.step(to: 1.2)
        #expect(abs(view.contentInset.top - 27) < 1e-9 && abs(view.contentOffset.y - -27) < 1e-9)
        view.step(to: 1.4)
        view.step(to: 1.5)
        #expect(view.contentInset.top == 0 && view.contentOffset.y == 0 && completions == 1 && !view.isAnimating)
        // Set once, then one change per frame: 1.2, 1.4 (in floating point just short of the end) and 1.5.
        #expect(insetChanges == 4)
    }

    @Test func insetGrowingDuringADragDoesNotMoveTheContent() {
        // A refresh that starts while the finger is down: the new inset moves the edge, not the content.
        let view = makeList()
        view.touchBegan(at: Point(100, 200), time: 0)
        view.touchMoved(to: Point(100, 320), time: 0.1)
        let before = view.contentOffset.y
        view.contentInset = EdgeInsets(top: 54)
        #expect(view.contentOffset.y == before)
        view.touchMoved(to: Point(100, 321), time: 0.11)
        #expect(abs(view.contentOffset.y - before) < 1)
    }

    @Test func bothAxesScrollIndependently() {
        let view = ScrollView(boundsSize: Size(375, 603), contentSize: Size(3000, 3000))
        view.setContentOffset(Point(1000, 1000))
        let release = drag(view, from: Point(200, 300), step: Point(-5, -10), frames: 6)
        #expect(abs(view.contentOffset.x - 1030) < 1e-9 && abs(view.contentOffset.y - 1060) < 1e-9)
        for i in 1...30 { view.step(to: release + Double(i) * frame) }
        let t = 30 * frame
        #expect(abs(view.contentOffset.x - (1030 + 300 * (pow(0.998, 1000 * t) - 1) / kNormal)) < 1e-6)
        #expect(abs(view.contentOffset.y - (1060 + 600 * (pow(0.998, 1000 * t) - 1) / kNormal)) < 1e-6)
    }

    @Test func shortContentOnlyBouncesWhenAskedTo() {
        let view = makeList(height: 300)
        _ = drag(view, from: Point(100, 300), step: Point(0, 10), frames: 5)
        #expect(view.contentOffset.y == 0)
        view.alwaysBounceVertical = true
        _ = drag(view, from: Point(100, 300), step: Point(0, 10), frames: 5, startTime: 5)
        #expect(view.contentOffset.y < 0)
    }

    @Test func withoutBouncesTheContentStopsAtTheEdges() {
        let view = makeList()
        view.bounces = false
        view.setContentOffset(Point(0, 50))
        let release = drag(view, from: Point(100, 300), step: Point(0, 20), frames: 5)
        #expect(view.contentOffset.y == 0)
        view.step(to: release + 1)
        #expect(view.contentOffset.y == 0)
    }

    @Test func aHeldTopKeepsTheContentAndCountsTheFingersTravel() {
        let view = makeList()
        view.holdsContentAtTop = true
        var travels: [Double] = []
        view.addObserver { v, change in if change == .topPullTravel { travels.append(v.topPullTravel) } }
        // Down 20 pt a frame for 5 frames from the top: the content stays, the travel grows by 20 a frame.
        view.touchBegan(at: Point(100, 100), time: 0)
        for i in 1...5 {
            view.touchMoved(to: Point(100, 100 + 20 * Double(i)), time: Double(i) * frame)
            #expect(view.contentOffset.y == 0)
            #expect(view.topPullTravel == 20 * Double(i))
        }
        #expect(view.velocity.y == 0)
        // Back up 130 pt: the first 100 undo the travel, the last 30 scroll the content 1:1.
        view.touchMoved(to: Point(100, 70), time: 6 * frame)
        #expect(view.topPullTravel == 0 && view.contentOffset.y == 30)
        view.touchEnded(at: Point(100, 70), time: 1)
        #expect(view.topPullTravel == 0 && travels.last == 0 && travels.count == 6)
        // Pulled down from the top and released with a fast downward flick: the content stays, with no bounce.
        view.setContentOffset(.zero)
        let flick = drag(view, from: Point(100, 100), step: Point(0, 25), frames: 6, startTime: 1.5)
        #expect(view.topPullTravel == 0)
        for i in 1...60 {
            view.step(to: flick + Double(i) * frame)
            #expect(view.contentOffset.y == 0)
        }
        #expect(!view.isDecelerating)
        // A fling towards the top from further down stops at the top too; the wheel stops there.
        view.setContentOffset(Point(0, 100))
        let release = drag(view, from: Point(100, 100), step: Point(0, 25), frames: 4, startTime: 2)
        view.step(to: release + 0.1)
        #expect(view.contentOffset.y >= 0)
        view.step(to: release + 2)
        #expect(view.contentOffset.y == 0 && !view.isDecelerating)
        view.scrollWheel(by: Point(0, -50), time: release + 3)
        #expect(view.contentOffset.y == 0)
    }

    @Test func aHeldTopStillBouncesAtTheBottom() {
        let view = makeList()
        view.holdsContentAtTop = true
        view.setContentOffset(view.maxContentOffset)
        _ = drag(view, from: Point(100, 500), step: Point(0, -20), frames: 5)
        #expect(view.contentOffset.y > view.maxContentOffset.y)
        #expect(view.topPullTravel == 0)
    }

    @Test("A finger catching content still bouncing past a top held since moves it 1:1, not to the top at once")
    func aTouchCatchesABouncePastANewlyHeldTop() {
        let view = makeList()
        // Pulled 200 pt down (a pushing header's pull), released: it springs back; then a floating header comes
        // (an effect switch), which holds the top.
        let release = drag(view, from: Point(100, 100), step: Point(0, 40), frames: 5)
        view.step(to: release + 0.1)
        view.holdsContentAtTop = true
        let caught = view.contentOffset.y
        #expect(caught < -20)
        view.touchBegan(at: Point(100, 300), time: release + 0.1)
        #expect(view.contentOffset.y == caught)
        // A move of 10 pt down moves the content by less than that (the rubber band), and pulls no header.
        view.touchMoved(to: Point(100, 310), time: release + 0.1 + 2 * frame)
        #expect(abs(view.contentOffset.y - caught) <= 10)
        #expect(view.topPullTravel == 0)
        // Let go, it springs back to the top and stays; the next pull from the top is held there.
        view.touchEnded(at: Point(100, 310), time: release + 0.1 + 3 * frame)
        view.step(to: release + 3)
        #expect(view.contentOffset.y == 0 && !view.isDecelerating)
        _ = drag(view, from: Point(100, 100), step: Point(0, 20), frames: 3, startTime: release + 4)
        #expect(view.contentOffset.y == 0)
        // The wheel too: a scroll of 5 pt moves content bouncing past a newly held top by no more than that.
        view.holdsContentAtTop = false
        let again = drag(view, from: Point(100, 100), step: Point(0, 40), frames: 5, startTime: release + 5)
        view.step(to: again + 0.1)
        view.holdsContentAtTop = true
        let before = view.contentOffset.y
        #expect(before < -20)
        view.scrollWheel(by: Point(0, 5), time: again + 0.1)
        #expect(abs(view.contentOffset.y - before) <= 5 && view.contentOffset.y < 0)
    }

    @Test("A finger pulling past a held top keeps the content at that top while the inset changes")
    func aHeldTopFollowsTheInset() {
        let view = makeList()
        view.contentInset = EdgeInsets(top: 40)
        view.setContentOffset(Point(0, -40))
        view.holdsContentAtTop = true
        view.touchBegan(at: Point(100, 100), time: 0)
        view.touchMoved(to: Point(100, 160), time: frame)
        #expect(view.contentOffset.y == -40 && view.topPullTravel == 60)
        // The inset goes out (a header's inset after a switch to a floating one): the content stays at its top,
        // and the finger's travel past it is unchanged.
        view.contentInset = EdgeInsets(top: 25)
        #expect(view.contentOffset.y == -25 && view.topPullTravel == 60)
        view.touchMoved(to: Point(100, 170), time: 2 * frame)
        #expect(view.contentOffset.y == -25 && view.topPullTravel == 70)
    }

    @Test func aTouchCatchesMomentum() {
        let view = makeList()
        let release = drag(view, from: Point(100, 500), step: Point(0, -20), frames: 10)
        view.step(to: release + 0.2)
        let caught = view.contentOffset.y
        view.touchBegan(at: Point(100, 300), time: release + 0.3)
        let expected = 200 + 1200 * (pow(0.998, 300) - 1) / kNormal
        #expect(caught < view.contentOffset.y && abs(view.contentOffset.y - expected) < 1e-6)
        view.step(to: release + 1)
        #expect(abs(view.contentOffset.y - expected) < 1e-6 && !view.isDecelerating)
    }
}

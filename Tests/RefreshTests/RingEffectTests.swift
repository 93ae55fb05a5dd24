import Geometry
@testable import Layers
import Raster
@testable import Refresh
import Testing
import Colors
import TestSupport

/// Values worked out by hand from docs/reference.md §1 (Ring): d = min(1, pull/64), a = max(d − 0.4, 0)·5/3,
/// end = min(0.8, 0.8a), arrow = min(1, a), rotation = (−0.25 + 0.4a + 2t)·0.5 with t = (s/4 − (s/4)²)·2,
/// s = max(0, min(extra, 128)/64); the cycle of 1.332 s with fast-out-slow-in halves.
private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

/// A frame of the ring's pull, for driving the effect without a scroll view.
private func pull(_ distance: Double, at time: Double, dragging: Bool = true) -> RefreshPull {
    RefreshPull(distance: distance, progress: distance / 64, isDragging: dragging, time: time,
                headerSize: Size(375, 64))
}

/// fast-out-slow-in, cubic-bezier(0.4, 0, 0.2, 1), at x = 0.5: solving x(s) = 0.5 for the curve's parameter by
/// bisection on paper gives s ≈ 0.3371 and y(s) = 3(1 − s)s² + s³ ≈ 0.775561.
private let fastOutSlowInHalf = 0.7755613111

@Suite("Ring effect")
struct RingEffectTests {
    // MARK: Drag geometry

    @Test("Tension: 0 at the threshold, 0.375 at 64 pt beyond, 0.5 from 128 pt beyond on")
    func tension() {
        #expect(RingEffect.tension(extra: -10) == 0)
        #expect(RingEffect.tension(extra: 0) == 0)
        // s = 0.5: (0.125 − 0.015625)·2
        #expect(close(RingEffect.tension(extra: 32), 0.21875))
        // s = 1: (0.25 − 0.0625)·2
        #expect(close(RingEffect.tension(extra: 64), 0.375))
        // s = 2: (0.5 − 0.25)·2, and capped there
        #expect(close(RingEffect.tension(extra: 128), 0.5))
        #expect(close(RingEffect.tension(extra: 500), 0.5))
    }

    @Test("Drag pose below 40 % of the threshold: no arc, no arrow, rotation −0.125 turn")
    func dragBelowArc() {
        let p = RingEffect.dragPose(distance: 20)
        #expect(p.startTrim == 0 && p.endTrim == 0 && p.arrowScale == 0)
        #expect(close(p.rotation, -0.125))
    }

    @Test("Drag pose half way (32 pt): a = 1/6, end 2/15, arrow 1/6, rotation −0.0916…")
    func dragHalfWay() {
        let p = RingEffect.dragPose(distance: 32)
        #expect(close(p.endTrim, 0.8 / 6))
        #expect(close(p.arrowScale, 1.0 / 6))
        #expect(close(p.rotation, (-0.25 + 0.4 / 6) * 0.5))
    }

    @Test("Drag pose at the threshold: end 0.8, arrow 1, rotation 0.075; beyond, only the tension turns it")
    func dragAtAndBeyond() {
        let at = RingEffect.dragPose(distance: 64)
        #expect(close(at.endTrim, 0.8) && close(at.arrowScale, 1) && close(at.rotation, 0.075))
        let beyond = RingEffect.dragPose(distance: 96)
        #expect(close(beyond.endTrim, 0.8) && close(beyond.arrowScale, 1))
        #expect(close(beyond.rotation, (0.15 + 2 * 0.21875) * 0.5))   // 0.29375
        let far = RingEffect.dragPose(distance: 400)
        #expect(close(far.rotation, (0.15 + 1) * 0.5))                 // 0.575
    }

    @Test("The disc rides on the content below the threshold and lags behind it beyond")
    func circlePlace() {
        // Below: −40 + 64·(p/64) − (p − 64) = 24 for any p.
        #expect(close(RingEffect.circleTop(distance: 0), 24))
        #expect(close(RingEffect.circleTop(distance: 30), 24))
        #expect(close(RingEffect.circleTop(distance: 64), 24))
        // 96: −40 + 64 + 128·0.21875 − 32 = 20.
        #expect(close(RingEffect.circleTop(distance: 96), 20))
        // 192: −40 + 64 + 64 − 128 = −40.
        #expect(close(RingEffect.circleTop(distance: 192), -40))
    }

    @Test("The effect's layers show the drag pose: arc trimmed to the sweep, turned to its start, arrow at its head")
    func layersWhileDragging() {
        let ring = RingEffect()
        ring.update(pull: pull(32, at: 0))
        #expect(close(ring.arc.strokeEnd, 0.8 / 6))
        #expect(ring.arc.strokeStart == 0)
        #expect(!ring.arrow.isHidden)
        // The disc: 40 across, centred horizontally, its top 24 below the header's top.
        #expect(close(ring.disc.frame.minX, 375.0 / 2 - 20) && close(ring.disc.frame.minY, 24))
        #expect(close(ring.disc.frame.width, 40))
        ring.update(pull: pull(10, at: 0.1))
        #expect(ring.arc.strokeEnd == 0)
        #expect(ring.arrow.isHidden)
    }

    // MARK: Alpha

    @Test("Alpha 0.3 below the threshold, 1.0 at it over 300 ms (0.65 half way), and back")
    func alphaTimeline() {
        let ring = RingEffect()
        ring.update(pull: pull(50, at: 0.5))
        #expect(close(ring.arcAlpha, 0.3))
        ring.update(pull: pull(64, at: 1.0))
        #expect(close(ring.arcAlpha, 0.3))
        #expect(close(ring.alpha(at: 1.15), 0.65, 1e-6))   // ease in, ease out: half way at half time
        ring.update(pull: pull(70, at: 1.3))
        #expect(close(ring.arcAlpha, 1))
        ring.update(pull: pull(40, at: 2.0))
        #expect(close(ring.alpha(at: 2.15), 0.65, 1e-6))
        #expect(close(ring.alpha(at: 2.3), 0.3))
    }

    // MARK: The indeterminate cycle

    @Test("Cycle at 0, 333, 666, 999 and 1332 ms")
    func cycleTimes() {
        let origin = RingPose(startTrim: 0, endTrim: 0.01, rotation: 0)
        let p0 = RingEffect.cyclePose(origin: origin, elapsed: 0)
        #expect(close(p0.startTrim, 0) && close(p0.endTrim, 0.01) && close(p0.rotation, 0) && close(p0.groupRotation, 0))
        let p1 = RingEffect.cyclePose(origin: origin, elapsed: 0.333)
        #expect(close(p1.startTrim, 0))
        #expect(close(p1.endTrim, 0.01 + 0.79 * fastOutSlowInHalf, 1e-6))
        #expect(close(p1.rotation, 0.21 * 0.25) && close(p1.groupRotation, 0.6 * 0.25))
        let p2 = RingEffect.cyclePose(origin: origin, elapsed: 0.666)
        #expect(close(p2.startTrim, 0) && close(p2.endTrim, 0.8))
        let p3 = RingEffect.cyclePose(origin: origin, elapsed: 0.999)
        #expect(close(p3.endTrim, 0.8))
        #expect(close(p3.startTrim, 0.79 * fastOutSlowInHalf, 1e-6))
        let p4 = RingEffect.cyclePose(origin: origin, elapsed: 1.332)
        #expect(close(p4.startTrim, 0.79) && close(p4.endTrim, 0.8))
        #expect(close(p4.rotation, 0.21) && close(p4.groupRotation, 0.6))
        // Two cycles: the tail 1.58 on, the ring 0.42, the drawing 1.2 turns (0.2 of a turn on screen).
        let p5 = RingEffect.cyclePose(origin: origin, elapsed: 2.664)
        #expect(close(p5.startTrim, 1.58) && close(p5.endTrim, 1.59))
        #expect(close(p5.rotation, 0.42) && close(p5.groupRotation, 0.2))
    }

    @Test("Across two cycles the arc never jumps: tail and head move less than 0.01 turn per millisecond")
    func cycleContinuity() {
        let origin = RingPose(startTrim: 0.3, endTrim: 0.31, rotation: 1)
        func ends(_ t: Double) -> (tail: Double, head: Double) {
            let p = RingEffect.cyclePose(origin: origin, elapsed: t)
            return (p.startTrim + p.rotation + p.groupRotation, p.endTrim + p.rotation + p.groupRotation)
        }
        func turnDistance(_ a: Double, _ b: Double) -> Double {
            let d = (a - b).truncatingRemainder(dividingBy: 1)
            return min(abs(d), 1 - abs(d))
        }
        var last = ends(0)
        var worst = 0.0
        for ms in 1...2700 {
            let now = ends(Double(ms) / 1000)
            worst = max(worst, turnDistance(now.tail, last.tail), turnDistance(now.head, last.head))
            last = now
        }
        #expect(worst < 0.01)
        // At the half and the end of a cycle the two sides meet exactly.
        for boundary in [0.666, 1.332, 1.998, 2.664] {
            let before = ends(boundary - 1e-9), after = ends(boundary + 1e-9)
            #expect(turnDistance(before.tail, after.tail) < 1e-6)
            #expect(turnDistance(before.head, after.head) < 1e-6)
        }
    }

    @Test("The colour holds for three quarters of a cycle, then blends to the next")
    func cycleColours() {
        let c = RingEffect.colors
        #expect(RingEffect.cycleColor(elapsed: 0.5 * 1.332) == c[0])
        let mid = RingEffect.cycleColor(elapsed: 0.875 * 1.332)
        #expect(close(mid.red, (c[0].red + c[1].red) / 2, 1e-9))
        #expect(close(mid.blue, (c[0].blue + c[1].blue) / 2, 1e-9))
        #expect(RingEffect.cycleColor(elapsed: 1.332 * 1.25) == c[1])
    }

    @Test("The shrink phase: the tail catches up to 0.01 behind the head, the ring turns on to a whole turn, no arrow")
    func shrinkPhase() {
        let drag = RingEffect.dragPose(distance: 64)   // 0 … 0.8, rotation 0.075, arrow 1
        #expect(RingEffect.shrinkPose(from: drag, fraction: 0).arrowScale == 0)
        let half = RingEffect.shrinkPose(from: drag, fraction: 0.5)
        #expect(close(half.startTrim, 0.395) && close(half.endTrim, 0.8))
        #expect(close(half.rotation, 0.075 + (1 - 0.075) * 0.5) && half.arrowScale == 0)
        let done = RingEffect.shrinkPose(from: drag, fraction: 1)
        #expect(close(done.startTrim, 0.79) && close(done.rotation, 1) && done.arrowScale == 0)
    }

    @Test("Refreshing after a pull: 666 ms of shrinking, then cycles that start where it stopped")
    func refreshingTimeline() {
        let ring = RingEffect()
        ring.update(pull: pull(64, at: 0))
        ring.transition(from: .armed, to: .refreshing, at: 0)
        ring.update(pull: pull(64, at: 0.333, dragging: false))
        #expect(close(ring.pose.startTrim, 0.395) && ring.pose.arrowScale == 0 && ring.arrow.isHidden)
        ring.update(pull: pull(64, at: 0.666, dragging: false))
        #expect(close(ring.pose.startTrim, 0.79) && close(ring.pose.endTrim, 0.8) && close(ring.pose.rotation, 1))
        #expect(ring.arrow.isHidden)
        // 666 ms into the cycles (1332 ms in all) the head has reached tail + 0.8.
        ring.update(pull: pull(64, at: 1.332, dragging: false))
        #expect(close(ring.pose.startTrim, 0.79) && close(ring.pose.endTrim, 1.59))
        #expect(close(ring.arcAlpha, 1))
        // The finish: the disc scales to 0.01 over 0.3 s (0.505 half way) while the arc keeps turning.
        ring.transition(from: .refreshing, to: .finishing(.success), at: 2)
        ring.update(pull: pull(32, at: 2.15, dragging: false))
        #expect(close(ring.discScale, 0.505))
        ring.update(pull: pull(0, at: 2.3, dragging: false))
        #expect(close(ring.discScale, 0.01))
        ring.transition(from: .finishing(.success), to: .idle, at: 2.3)
        ring.update(pull: pull(0, at: 2.4, dragging: false))
        #expect(ring.discScale == 1 && close(ring.arcAlpha, 0.3) && ring.arc.strokeEnd == 0)
    }

    @Test("A refresh begun from code has no arc to shrink: the cycle starts at once with the arrow off")
    func beginFromCodeStartsCycle() {
        let ring = RingEffect()
        ring.update(pull: pull(0, at: 0, dragging: false))
        ring.transition(from: .idle, to: .refreshing, at: 0)
        ring.update(pull: pull(10, at: 0.666, dragging: false))
        #expect(close(ring.pose.startTrim, 0) && close(ring.pose.endTrim, 0.8))
        #expect(ring.arrow.isHidden)
    }

    @Test("The arrow goes at release: off in the first refreshing frame, and off when let go short of the threshold")
    func arrowOffAtRelease() {
        let ring = RingEffect()
        ring.update(pull: pull(80, at: 0))
        #expect(!ring.arrow.isHidden)
        ring.transition(from: .armed, to: .refreshing, at: 0.05)
        ring.update(pull: pull(80, at: 0.05, dragging: false))
        #expect(ring.arrow.isHidden && ring.pose.arrowScale == 0)
        // The arc is still the drag's 0.8 turn: only the arrow went.
        #expect(close(ring.arc.strokeEnd, 0.8))

        let short = RingEffect()
        short.update(pull: pull(50, at: 0))
        #expect(!short.arrow.isHidden)
        // Let go and springing back, at 48 pt: a = (48/64 − 0.4)·5/3 = 0.5833…, the arc 0.8a = 0.4666…, no arrow.
        short.update(pull: pull(48, at: 0.02, dragging: false))
        #expect(short.arrow.isHidden && short.pose.arrowScale == 0)
        #expect(close(short.arc.strokeEnd, 0.8 * (48.0 / 64 - 0.4) * 5 / 3))
        // A finger pulling again brings it back.
        short.update(pull: pull(46, at: 0.04))
        #expect(!short.arrow.isHidden)
    }

    // MARK: At rest

    @Test("At rest the ring is hidden: no disc, no shadow; a pull shows it; after a finish it waits for the next pull")
    func hiddenAtRest() {
        let ring = RingEffect()
        ring.update(pull: pull(0, at: 0, dragging: false))
        #expect(ring.layer.isHidden)
        ring.update(pull: pull(6, at: 0.1))
        #expect(!ring.layer.isHidden)
        ring.transition(from: .idle, to: .refreshing, at: 1)
        ring.update(pull: pull(64, at: 1.5, dragging: false))
        #expect(!ring.layer.isHidden)
        ring.transition(from: .refreshing, to: .finishing(.success), at: 2)
        ring.update(pull: pull(30, at: 2.15, dragging: false))
        #expect(!ring.layer.isHidden)
        // Idle after the finish while the list is still coming back: the disc stays away at its full size.
        ring.transition(from: .finishing(.success), to: .idle, at: 2.3)
        ring.update(pull: pull(5, at: 2.3, dragging: false))
        #expect(ring.layer.isHidden)
        ring.update(pull: pull(5, at: 2.4))
        #expect(!ring.layer.isHidden && ring.discScale == 1)
    }

    @Test("At rest nothing is drawn: neither the disc (under the bar) nor its shadow (over the first row's top)")
    func restPixels() {
        let rig = Rig(effect: RingEffect())
        rig.run(2)
        // The header drawn 60 pt lower than the content's top, so that the disc's resting place (−40 … 0 in the
        // content) and the 6 pt under it, where its shadow (1.75 pt down, 3.5 pt blur) would fall, are all on the
        // canvas.
        func picture() -> Canvas {
            let canvas = Canvas(width: 750, height: 140, fill: .white)
            let transform = AffineTransform(translationX: 0, y: 60 - rig.scrollView.contentOffset.y)
                .concatenating(AffineTransform(scaleX: 2, y: 2))
            rig.control.headerLayer.render(into: canvas, at: rig.time, transform: transform, renderer: LayerRenderer())
            return canvas
        }
        let rest = picture()
        #expect((0..<rest.pixelCount).allSatisfy { rest.pixels[$0] == Color.white.premultipliedPixel })
        // Pulled by 20 pt the disc shows.
        rig.touchDown()
        rig.pull(to: 20)
        let pulled = picture()
        #expect((0..<pulled.pixelCount).contains { pulled.pixels[$0] != Color.white.premultipliedPixel })
    }

    // MARK: Scripted pulls

    @Test("Short of the threshold: pulling → idle, nothing fires")
    func shortPull() {
        let rig = Rig(effect: RingEffect())
        #expect(rig.control.triggerDistance == 64)
        rig.touchDown()
        rig.pull(to: 40)
        rig.release()
        rig.run(seconds: 1)
        #expect(rig.states == [.pulling, .idle])
        #expect(rig.actions == 0 && rig.cues == 0)
    }

    @Test("Past the threshold and released: armed → refreshing at 64 pt over the list, no inset; ending in 0.3 s")
    func pullReleaseEnd() {
        let rig = Rig(effect: RingEffect())
        rig.touchDown()
        rig.pull(to: 30)
        rig.pull(to: 80)
        #expect(rig.states == [.pulling, .armed] && rig.cues == 1)
        rig.release()
        #expect(rig.states.last == .refreshing && rig.actions == 1)
        rig.run(seconds: 1)
        #expect(rig.control.distance == 64 && rig.control.addedInset == 0)
        #expect(rig.scrollView.contentOffset.y == 0)
        rig.control.endRefreshing()
        rig.run(seconds: 0.2)
        #expect(rig.states.last == .finishing(.success) && rig.control.distance == 64)
        rig.run(seconds: 0.2)
        #expect(rig.states.last == .idle && rig.control.distance == 0 && rig.control.addedInset == 0)
    }

    @Test("Ending while the finger is down goes back to idle without a second refresh")
    func endWhileDragging() {
        let rig = Rig(effect: RingEffect())
        rig.touchDown()
        rig.pull(to: 30)
        rig.pull(to: 80)
        rig.release()
        rig.run(seconds: 0.5)
        rig.touchDown()
        rig.move(toFingerY: rig.fingerY + 30)
        rig.control.endRefreshing()
        rig.run(seconds: 0.5)
        // Still held: the ring is back at its start and stays there until the finger lifts (no second refresh).
        #expect(rig.control.state == .idle && rig.control.distance == 0)
        rig.release()
        rig.run(seconds: 1)
        #expect(rig.actions == 1 && rig.cues == 1)
        #expect(rig.states == [.pulling, .armed, .refreshing, .finishing(.success), .idle])
    }

    @Test("Begin from code twice and end twice: one refresh, one finish, the inset added once")
    func beginTwiceEndTwice() {
        let rig = Rig(effect: RingEffect())
        rig.control.beginRefreshing()
        rig.control.beginRefreshing()
        rig.run(seconds: 0.5)
        #expect(rig.actions == 1 && rig.control.distance == 64 && rig.control.addedInset == 0)
        rig.control.endRefreshing()
        rig.control.endRefreshing()
        rig.run(seconds: 0.5)
        #expect(rig.states == [.refreshing, .finishing(.success), .idle])
        #expect(rig.scrollView.contentInset.top == 0)
    }

    // MARK: Pictures

    @Test("Goldens: pulled below the threshold, past it, and refreshing")
    func goldens() {
        let rig = Rig(effect: RingEffect())
        rig.touchDown()
        rig.pull(to: 48)
        rig.run(seconds: 0.4)
        Golden.expect(rig.snapshot(height: 100), named: "ring-pull-48")
        rig.pull(to: 100)
        rig.run(seconds: 0.4)
        Golden.expect(rig.snapshot(height: 120), named: "ring-pull-100")
        rig.release()
        rig.run(seconds: 1.5)
        Golden.expect(rig.snapshot(height: 100), named: "ring-refreshing")
    }
}

@Suite("Ring effect: cost")
struct RingCostTests {
    @Test("A still pull re-strokes nothing and rebuilds no arrow")
    func steadyFrame() {
        let ring = RingEffect()
        _ = effectFrameCost(ring, frames: 1) { _ in (80, 0) }
        let builds = ring.arc.strokeBuildCount
        let arrow = ring.arrow.path
        _ = effectFrameCost(ring, frames: 30) { i in (80, 1 + Double(i) / 60) }
        #expect(ring.arc.strokeBuildCount == builds)
        #expect(ring.arrow.path == arrow)
    }

    #if !DEBUG
    @Test("Release: pulling, refreshing and finishing each draw inside 0.3 ms a frame at scale 2")
    func releaseTiming() {
        let ring = RingEffect()
        // The pull sweeps 0 → 128 and back: a new trim, arrow and turn every frame.
        let pulling = effectFrameCost(ring, frames: 600) { i in
            let f = Double(i % 128) / 64
            return (64 * (f <= 1 ? f : 2 - f) * 2, Double(i) / 60)
        }
        ring.transition(from: .armed, to: .refreshing, at: 100)
        let refreshing = effectFrameCost(ring, frames: 600) { i in (64, 100 + Double(i) / 60) }
        ring.transition(from: .refreshing, to: .finishing(.success), at: 200)
        let finishing = effectFrameCost(ring, frames: 18, warmUp: 0) { i in (64, 200 + Double(i) / 60) }
        print("ring: pulling \(pulling * 1e6) µs, refreshing \(refreshing * 1e6) µs, finishing \(finishing * 1e6) µs per frame")
        #expect(pulling < effectFrameBudget)
        #expect(refreshing < effectFrameBudget)
        #expect(finishing < effectFrameBudget)
    }
    #endif
}

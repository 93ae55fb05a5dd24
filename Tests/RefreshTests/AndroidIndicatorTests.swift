#if canImport(Glibc)
import Glibc
#endif
import Colors
import Geometry
import Motion
@testable import Refresh
import Testing
import TestSupport

/// Android's two indicators against their sources' rules, each worked out here by hand in a form of its own
/// (docs/reference.md §1, swipe-refresh and material3).
private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

private func pull(_ distance: Double, at time: Double, dragging: Bool = true, trigger: Double = 64,
                  height: Double = 64) -> RefreshPull {
    RefreshPull(distance: distance, progress: distance / trigger, isDragging: dragging, time: time,
                headerSize: Size(375, height))
}

/// Android's DecelerateInterpolator(2) and AccelerateDecelerateInterpolator, written out.
private func decelerate(_ t: Double) -> Double { let u = 1 - min(1, max(0, t)); return 1 - u * u * u * u }
private func accelerateDecelerate(_ t: Double) -> Double { (1 - cos(min(1, max(0, t)) * Double.pi)) / 2 }

/// fast-out-slow-in at x = 0.5 (RingEffectTests works it out): 0.7755613111.
private let fastOutSlowInHalf = 0.7755613111

@Suite("Swipe-refresh (SwipeRefreshLayout)")
struct SwipeRefreshTests {
    /// The slingshot by hand: up to the trigger the disc's top is −40 + overscroll (trigger = slingshot = 64); past
    /// it, with x = min(overscroll − 64, 128)/64, the extra move 64·2·(x/4 − x²/16)·2 is 64·(x − x²/4) on top of 24.
    static func handTop(_ o: Double) -> Double {
        if o <= 64 { return -40 + o }
        let x = min(o - 64, 128) / 64
        return 24 + 64 * (x - x * x / 4)
    }

    @Test("Hand-worked points: 0 → −40, 32 → −8, 64 → 24, 96 → 52, 192 → 88, beyond 192 held at 88")
    func slingshotPoints() {
        for (o, top) in [(0.0, -40.0), (32, -8), (64, 24), (96, 52), (192, 88), (400, 88)] {
            #expect(close(SwipeRefreshEffect.drag(overscroll: o).top, top, 1e-12), "at \(o)")
        }
    }

    @Test("The disc follows the slingshot for 2000 generated pulls from 0 to 3× the trigger, and never goes back up")
    func slingshotProperty() {
        var random = SeededRandom(seed: 0x5EED_5111)
        let effect = SwipeRefreshEffect()
        var pulls = (0..<2000).map { _ in random.double(in: 0...192) }
        pulls.sort()
        var last = -Double.infinity
        for (i, o) in pulls.enumerated() {
            effect.update(pull: pull(o, at: Double(i) / 60))
            #expect(close(effect.circleTop, SwipeRefreshTests.handTop(o), 1e-9), "at \(o)")
            #expect(effect.circleTop >= last - 1e-12)
            last = effect.circleTop
        }
    }

    @Test("The disc's layer sits where the slingshot says, in the header the control floats down by the overscroll")
    func discLayerPlace() {
        let effect = SwipeRefreshEffect()
        for o in [10.0, 50, 64, 100, 180] {
            effect.update(pull: pull(o, at: o))
            // The header's top is o − 64 below the list's top, the clip's top the list's top.
            let disc = effect.layer.sublayers[0].sublayers[0]
            #expect(close(effect.layer.sublayers[0].frame.minY, 64 - o))
            #expect(close(disc.frame.minY, SwipeRefreshTests.handTop(o)) && close(disc.frame.width, 40))
            #expect(close(disc.frame.midX, 187.5))
        }
    }

    @Test("Arc and arrow from the pull: nothing up to 40 % of the trigger, then 0.8·a turn and an arrow of scale a")
    func trimAndArrow() {
        var random = SeededRandom(seed: 42)
        for _ in 0..<500 {
            let o = random.double(in: 0...192)
            let a = max(min(1, o / 64) - 0.4, 0) * 5 / 3
            let x = max(0, min(o - 64, 128)) / 64
            let ring = SwipeRefreshEffect.drag(overscroll: o).ring
            #expect(ring.startTrim == 0 && close(ring.endTrim, min(0.8, 0.8 * a)) && close(ring.arrowScale, min(1, a)))
            #expect(close(ring.rotation, (-0.25 + 0.4 * a + (x / 2 - x * x / 8) * 2) * 0.5), "at \(o)")
        }
        let effect = SwipeRefreshEffect()
        effect.update(pull: pull(20, at: 0))
        #expect(effect.arc.isHidden && effect.arrow.isHidden)
        effect.update(pull: pull(32, at: 0.1))
        #expect(close(effect.arc.strokeEnd, 0.8 / 6) && !effect.arrow.isHidden)
        // The arrowhead: a triangle whose base, 10/6 wide, is centred on the arc's radius 8.75 (7.5 + 1.25), half a
        // stroke clockwise of the head, its tip 5/6 further on.
        let box = effect.arrow.path!.controlPointBounds
        #expect(close(box.width, 10.0 / 6, 1e-9) && close(box.height, 5.0 / 6, 1e-9))
        #expect(close(box.midX, 20 + 8.75, 1e-9) && close(box.minY, 20 + 1.25, 1e-9))
    }

    @Test("Alpha: 76 under the trigger, to 255 over 300 ms accelerate-decelerate, truncated; back to 76 the same way")
    func alpha() {
        let effect = SwipeRefreshEffect()
        effect.update(pull: pull(40, at: 0))
        #expect(effect.alpha(at: 0) == 76)
        effect.update(pull: pull(64, at: 1))
        for ms in stride(from: 0, through: 300, by: 25) {
            let t = Double(ms) / 1000
            #expect(effect.alpha(at: 1 + t) == Int(76 + 179 * accelerateDecelerate(t / 0.3)), "at \(ms) ms")
        }
        #expect(effect.alpha(at: 1.15) == 165)   // 76 + 179/2 = 165.5, truncated
        effect.update(pull: pull(63, at: 2))
        #expect(effect.alpha(at: 2.15) == 165 && effect.alpha(at: 2.3) == 76)
    }

    @Test("Released short: 200 ms back to −40 on decelerate(2), then 150 ms of scaling to nothing, frame by frame")
    func returnToStart() {
        let effect = SwipeRefreshEffect()
        effect.update(pull: pull(40, at: 0))
        #expect(close(effect.circleTop, 0))
        effect.transition(from: .pulling, to: .idle, pull: pull(40, at: 1, dragging: false))
        for frame in 0...24 {
            let t = Double(frame) / 60
            effect.update(pull: pull(40 * (1 - t), at: 1 + t, dragging: false))
            #expect(close(effect.circleTop, -40 * decelerate(t / 0.2), 1e-9), "frame \(frame)")
            // The arc went at once, the arrow with it.
            #expect(effect.arc.isHidden && effect.arrow.isHidden)
            let scale = t < 0.2 ? 1 : 1 - accelerateDecelerate((t - 0.2) / 0.15)
            if t < 0.349 { #expect(close(effect.circleScale, scale, 1e-9), "frame \(frame)") }
        }
        #expect(effect.layer.isHidden)
    }

    @Test("Released past the trigger: 200 ms to its place, the arrow shrinking, then the drawable starts")
    func toCorrectPosition() {
        let effect = SwipeRefreshEffect()
        effect.update(pull: pull(96, at: 0))
        let from = SwipeRefreshTests.handTop(96)   // 52
        effect.transition(from: .armed, to: .refreshing, pull: pull(96, at: 1, dragging: false))
        for frame in 0..<12 {
            let t = Double(frame) / 60
            effect.update(pull: pull(64, at: 1 + t, dragging: false))
            #expect(close(effect.circleTop, from + (24 - from) * decelerate(t / 0.2), 1e-9), "frame \(frame)")
            #expect(close(effect.ring.arrowScale, 1 - decelerate(t / 0.2), 1e-9))
            #expect(close(effect.ring.endTrim, 0.8) && effect.ring.startTrim == 0)
        }
        // 200 ms on: at rest, opaque, and the drag arc closes over 666 ms (the tail to 0.01 behind the head).
        effect.update(pull: pull(64, at: 1.2 + 0.333, dragging: false))
        #expect(close(effect.circleTop, 24) && effect.alpha(at: 1.533) == 255)
        #expect(close(effect.ring.startTrim, 0.79 * 0.5, 1e-9) && close(effect.ring.endTrim, 0.8))
    }

    @Test("The finish: 150 ms of accelerate-decelerate scaling to nothing while it spins, frame by frame; then gone")
    func scaleDown() {
        let rig = Rig(effect: SwipeRefreshEffect())
        rig.touchDown()
        rig.pull(to: 80)
        rig.release()
        rig.run(seconds: 1)
        let effect = rig.control.effect as! SwipeRefreshEffect
        rig.control.endRefreshing(at: rig.time)
        let start = rig.time
        var last = effect.ring
        for frame in 1...8 {
            rig.run()
            let t = rig.time - start
            if t <= 0.15 { #expect(close(effect.circleScale, 1 - accelerateDecelerate(t / 0.15), 1e-9), "frame \(frame)") }
            #expect(effect.ring != last || t > 0.15)   // still spinning
            last = effect.ring
            #expect(close(effect.circleTop, 24))
        }
        rig.run(2)
        #expect(rig.control.state == .idle && effect.layer.isHidden)
    }

    @Test("A refresh from code: the disc at its place at once, scaled up over 400 ms, then the cycles from colour 0")
    func fromCode() {
        let effect = SwipeRefreshEffect(style: {
            var s = SwipeRefreshEffect.Style()
            s.colors = [Color(rgb: 0, 0, 0), Color(rgb: 255, 128, 64)]
            return s
        }())
        effect.transition(from: .idle, to: .refreshing, pull: pull(0, at: 0, dragging: false))
        effect.update(pull: pull(0, at: 0.2, dragging: false))
        #expect(close(effect.circleTop, 24) && close(effect.circleScale, accelerateDecelerate(0.5)))
        #expect(effect.arc.isHidden)   // the drawable has not started: no arc yet
        effect.update(pull: pull(0, at: 0.4 + 0.333, dragging: false))
        #expect(close(effect.ring.endTrim, 0.01 + 0.79 * fastOutSlowInHalf, 1e-6) && effect.ring.startTrim == 0)
        // 7/8 through the cycle the colour is half way to the next, each channel truncated: (127, 64, 32).
        effect.update(pull: pull(0, at: 0.4 + 1.332 * 0.875, dragging: false))
        #expect(effect.color == Color(red: 127.0 / 255, green: 64.0 / 255, blue: 32.0 / 255))
    }

    @Test("CircularProgressDrawable's cycle: the head runs 0.79 ahead in the first half, the tail follows to 0.01 behind")
    func spinCycle() {
        let spin = CircularProgressSpin(origin: RingPose(startTrim: 0, endTrim: 0, rotation: 0), cycleDuration: 1.332)
        func at(_ t: Double) -> RingPose { spin.frame(at: t).pose }
        #expect(close(at(0).startTrim, 0) && close(at(0).endTrim, 0.01))
        #expect(close(at(0.333).endTrim, 0.01 + 0.79 * fastOutSlowInHalf, 1e-6))
        // Second half: the head stays at 0.79, the tail starts 0.8 behind it (−0.01) and ends 0.01 behind.
        #expect(close(at(0.666).endTrim, 0.79) && close(at(0.666).startTrim, -0.01, 1e-9))
        #expect(close(at(0.999).startTrim, 0.79 - (0.79 * (1 - fastOutSlowInHalf) + 0.01), 1e-6))
        let end = at(1.332)
        #expect(close(end.startTrim, 0.78) && close(end.endTrim, 0.79))
        #expect(close(end.rotation, 0.21) && close(end.groupRotation, 0.6))
        // The second cycle starts from the first's end: the tail 0.78 on, colour 1.
        #expect(close(at(1.332 + 0.333).startTrim, 0.78) && spin.frame(at: 1.4).color == 1)
        #expect(close(spin.frame(at: 1.332 * 0.875).blend, 0.5, 1e-9) && spin.frame(at: 0.5).blend == 0)
    }

    @Test("A visible arc closes first: its tail to 0.01 behind the head, the ring to the next whole turn, then colour 1")
    func closingHalf() {
        let drag = SwipeRefreshEffect.drag(overscroll: 64).ring   // 0 … 0.8, rotation 0.075
        let spin = CircularProgressSpin(origin: drag, cycleDuration: 1.332)
        let half = spin.frame(at: 0.333).pose
        #expect(close(half.startTrim, 0.395) && close(half.endTrim, 0.8) && close(half.rotation, 0.075 + 0.925 / 2))
        let cycles = spin.frame(at: 0.666)
        #expect(close(cycles.pose.startTrim, 0.79) && close(cycles.pose.endTrim, 0.8) && close(cycles.pose.rotation, 1))
        #expect(cycles.color == 1 && cycles.pose.groupRotation == 0)
    }

    @Test("Through the control: the list never moves; armed at 64, refreshing on release, 64 held while it scales away")
    func throughTheControl() {
        let rig = Rig(effect: SwipeRefreshEffect())
        rig.touchDown()
        rig.pull(to: 60)
        #expect(rig.control.state == .pulling)
        rig.pull(to: 70)
        #expect(rig.control.state == .armed && rig.actions == 0)
        rig.release()
        #expect(rig.control.state == .refreshing && rig.actions == 1)
        rig.run(seconds: 0.5)
        #expect(rig.control.distance == 64 && rig.scrollView.contentOffset.y == 0)
        rig.control.endRefreshing()
        rig.run(seconds: 0.1)
        #expect(rig.control.distance == 64)
        rig.run(seconds: 0.1)
        #expect(rig.control.state == .idle && rig.control.distance == 0)
    }
}

@Suite("Material 3 (Compose pull to refresh)")
struct Material3Tests {
    /// The offset by hand: the distance up to 80; past it 80 + 80·(l − l²/4), l = min((d − 80)/80, 2).
    static func handOffset(_ d: Double) -> Double {
        guard d > 80 else { return d }
        let l = min((d - 80) / 80, 2)
        return 80 + 80 * (l - l * l / 4)
    }

    @Test("Offset: 40 → 40, 80 → 80, 120 → 115, 240 and beyond → 160; over 2000 generated pulls, as by hand")
    func offset() {
        for (d, y) in [(40.0, 40.0), (80, 80), (120, 115), (240, 160), (500, 160)] {
            #expect(close(Material3Effect.verticalOffset(distance: d, threshold: 80), y), "at \(d)")
        }
        var random = SeededRandom(seed: 0xC0_3205E)
        let effect = Material3Effect()
        for i in 0..<2000 {
            let d = random.double(in: 0...240)
            effect.update(pull: pull(d, at: Double(i) / 60, trigger: 80, height: 80))
            #expect(close(effect.containerTop, Material3Tests.handOffset(d) - 40, 1e-9), "at \(d)")
            #expect(close(effect.fraction.value(at: 0), Material3Tests.handOffset(d) / 80, 1e-12))
        }
    }

    @Test("Arrow values from the distance fraction: a = max(min(1, f) − 0.4, 0)·5/3, sweep 0.8a, tension l − l²/4")
    func arrowValues() {
        let half = Material3Effect.arrowValues(fraction: 0.7)
        #expect(close(half.end - half.start, 0.4) && close(half.scale, 0.5) && close(half.rotation, -0.025))
        let past = Material3Effect.arrowValues(fraction: 1.5)   // l = 0.5, tension 0.4375
        #expect(close(past.end - past.start, 0.8) && close(past.scale, 1) && close(past.rotation, (0.15 + 0.4375) / 2))
        #expect(Material3Effect.arrowValues(fraction: 0.3).scale == 0)
        let effect = Material3Effect()
        effect.update(pull: pull(56, at: 0, trigger: 80, height: 80))
        #expect(close(effect.arc.strokeEnd, 0.4) && !effect.arrow.isHidden)
        // The arc's start: the rotation in turns plus the same number read as degrees (the canvas turn).
        let start = -0.025 + -0.025 / 360
        let turned = effect.arrowGroup.transform
        let expected = AffineTransform(rotationAngle: 2 * Double.pi * (start + 1))
        #expect(close(turned.a, expected.a, 1e-9) && close(turned.b, expected.b, 1e-9))
    }

    @Test("Alpha 0.3 under the threshold; at it, the effects spring (ratio 1, stiffness 1600) takes it to 1")
    func alpha() {
        let effect = Material3Effect()
        effect.update(pull: pull(70, at: 0, trigger: 80, height: 80))
        #expect(close(effect.shownAlpha, 0.3))
        effect.update(pull: pull(80, at: 1, trigger: 80, height: 80))
        effect.update(pull: pull(80, at: 1.05, trigger: 80, height: 80))
        let w = 1600.0.squareRoot(), t = 0.05
        #expect(close(effect.shownAlpha, 1 - 0.7 * (1 + w * t) * exp(-w * t), 1e-9))
    }

    @Test("Released past the threshold: the refresh starts on the lift, the container springs to 80 (ratio 1, 1500)")
    func releaseSpring() {
        let rig = Rig(effect: Material3Effect())
        rig.touchDown()
        rig.pull(to: 120)
        #expect(rig.control.state == .armed && rig.actions == 0)
        let effect = rig.control.effect as! Material3Effect
        let from = effect.fraction.value(at: rig.time)   // 115/80
        #expect(close(from, 115.0 / 80))
        // The control hears the lift at its time, and the spring starts there.
        let start = rig.lift()
        rig.run()
        #expect(rig.control.state == .refreshing && rig.actions == 1)
        let w = 1500.0.squareRoot()
        for _ in 0..<9 {
            let t = rig.time - start
            let x = 1 + (from - 1) * (1 + w * t) * exp(-w * t)
            #expect(close(effect.containerTop, (abs(x - 1) < 0.01 ? 1 : x) * 80 - 40, 1e-9), "at \(t)")
            rig.run()
        }
        rig.run(seconds: 0.5)
        #expect(close(effect.containerTop, 40) && effect.isRefreshing)
        #expect(rig.scrollView.contentOffset.y == 0)
    }

    @Test("Lifting short springs it back out of sight; no refresh")
    func releaseShort() {
        let rig = Rig(effect: Material3Effect())
        rig.touchDown()
        rig.pull(to: 60)
        rig.release()
        rig.run(seconds: 0.5)
        let effect = rig.control.effect as! Material3Effect
        #expect(rig.actions == 0 && rig.control.state == .idle && effect.layer.isHidden)
    }

    @Test("A downward fling past the threshold is consumed: the list stays at its top while the indicator refreshes")
    func flingConsumed() {
        let rig = Rig(effect: Material3Effect())
        rig.touchDown()
        for step in 1...8 { rig.move(toFingerY: Rig.fingerStart + Double(step) * 40) }
        rig.scrollView.touchEnded(at: Point(Rig.fingerX, rig.fingerY), time: rig.time)
        #expect(rig.scrollView.panTracker.velocity.y > 1000)
        for _ in 0..<60 {
            rig.run()
            #expect(rig.scrollView.contentOffset.y == 0)
        }
        #expect(rig.control.state == .refreshing)
    }

    @Test("Refreshing: the arrow cross-fades to the spinner; the spinner's turn and arc follow its 6 s cycle")
    func spinner() {
        let s = { (t: Double) in Material3Effect.spinner(elapsed: t) }
        #expect(close(s(0).degrees, 0) && close(s(0).arc, 0.1))
        // 150 ms: 27° of the global turn and half the first 90° step; the arc a twentieth of its rise.
        #expect(close(s(0.15).degrees, 27 + 45, 1e-9) && close(s(0.15).arc, 0.1 + 0.77 * 0.05, 1e-12))
        #expect(close(s(1.5).degrees, 270 + 90, 1e-9) && close(s(3).arc, 0.87))
        #expect(close(s(4.5).arc, 0.87 - 0.77 * TimingFunction(controlPoints: 0.2, 0, 0, 1).value(at: 0.5), 1e-12))
        #expect(close(s(6).degrees, 0) && close(s(6).arc, 0.1))
        let effect = Material3Effect()
        effect.transition(from: .armed, to: .refreshing, pull: pull(80, at: 0, dragging: false, trigger: 80, height: 80))
        effect.update(pull: pull(80, at: 0.05, dragging: false, trigger: 80, height: 80))
        let w = 40.0, fade = 1 - (1 + w * 0.05) * exp(-w * 0.05)
        #expect(close(effect.spinnerGroup.opacity, fade, 1e-9) && close(effect.arrowGroup.opacity, 1 - fade, 1e-9))
    }
}

@Suite("Android indicators: pictures")
struct AndroidIndicatorGoldenTests {
    @Test("Goldens: at rest, pulled, refreshing", arguments: ["swipe-refresh", "material3"])
    func goldens(_ name: String) {
        let rig = Rig(effect: RefreshEffects.make(name)!)
        rig.run(seconds: 0.2)
        Golden.expect(rig.snapshot(height: 180), named: "\(name)-rest")
        rig.touchDown()
        rig.pull(to: rig.control.triggerDistance * 0.8)
        rig.run(seconds: 0.4)
        Golden.expect(rig.snapshot(height: 180), named: "\(name)-pulled")
        rig.pull(to: rig.control.triggerDistance * 1.6)
        rig.release()
        rig.run(seconds: 1.5)
        Golden.expect(rig.snapshot(height: 180), named: "\(name)-refreshing")
    }
}

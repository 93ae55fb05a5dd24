#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Testing
import TestSupport
@testable import Scrolling

// Android's physics checked against the formulas of docs/reference.md §5, written out again here.

private let frame = 1.0 / 60
/// D = ln 0.78 / ln 0.9.
private let decelerationRate = log(0.78) / log(0.9)

/// OverScroller's closed forms for a fling at `v` dp/s on a phone of `density`: the distance in dp and the
/// duration in seconds. coefficient = 9.80665·39.37·(density·160)·0.84 px/s²; l = ln(0.35·v_px/(0.015·coefficient));
/// distance = 0.015·coefficient·e^(D/(D − 1)·l) px; duration = e^(l/(D − 1)) s.
private func closedForm(velocity v: Double, density: Double) -> (distance: Double, duration: Double) {
    let coefficient = 9.80665 * 39.37 * (density * 160) * 0.84
    let l = log(0.35 * abs(v) * density / (0.015 * coefficient))
    let d = decelerationRate
    return (0.015 * coefficient * exp(d / (d - 1) * l) / density, exp(l / (d - 1)))
}

/// A 375×603 pt list on Android at `density`, `height` points of content.
private func androidList(height: Double = 3000, density: Double = 2.625) -> ScrollView {
    let view = ScrollView(boundsSize: Size(375, 603), contentSize: Size(375, height))
    view.usePhysics(of: .android)
    view.displayScale = density
    return view
}

/// A finger down at `start` at `startTime`, moving `step` every `interval` for `moves` samples, lifted where it
/// is at its last move. Each sample also steps the view. Returns the release time.
private func swipe(_ view: ScrollView, from start: Point, step: Point, moves: Int, interval: Double = frame,
                   startTime: Double = 0, each: (Int) -> Void = { _ in }) -> Double {
    view.touchBegan(at: start, time: startTime)
    var p = start
    for i in 1...moves {
        p = p + step
        let t = startTime + Double(i) * interval
        view.touchMoved(to: p, time: t)
        view.step(to: t)
        each(i)
    }
    let release = startTime + Double(moves) * interval
    view.touchEnded(at: p, time: release)
    return release
}

/// Steps the view frame by frame from `release` until it rests (at most `limit` seconds); returns the time of the
/// first frame at rest, calling `each` with every frame's time.
@discardableResult
private func settle(_ view: ScrollView, from release: Double, limit: Double = 10,
                    each: (Double) -> Void = { _ in }) -> Double {
    var i = 0
    while view.isAnimating && Double(i) * frame < limit {
        i += 1
        view.step(to: release + Double(i) * frame)
        each(release + Double(i) * frame)
    }
    return release + Double(i) * frame
}

@Suite("Android fling (OverScroller)")
struct AndroidFlingTests {
    @Test("The spline tables are OverScroller's: each sample solves its cubic, both tables rise from 0 to 1")
    func splineTables() {
        let (position, time) = FlingSpline.tables
        #expect(position.count == 101 && time.count == 101)
        // Sample 0 is where the bisection stopped near 0, not 0 itself; sample 100 is set to 1.
        #expect(position[0] > 0 && position[0] < 1e-4 && time[0] > 0 && time[0] < 1e-4)
        #expect(position[100] == 1 && time[100] == 1)
        // P1 = 0.175, P2 = 0.35: time(u) = 3u(1 − u)((1 − u)·0.175 + 0.35u) + u³, distance(u) = 3u(1 − u)((1 − u)·0.5 + u) + u³.
        func timeCurve(_ u: Double) -> Double { 3 * u * (1 - u) * ((1 - u) * 0.175 + u * 0.35) + u * u * u }
        func distanceCurve(_ u: Double) -> Double { 3 * u * (1 - u) * ((1 - u) * 0.5 + u) + u * u * u }
        func solve(_ f: (Double) -> Double, _ target: Double) -> Double {
            var lo = 0.0, hi = 1.0
            for _ in 0..<60 { let m = (lo + hi) / 2; if f(m) > target { hi = m } else { lo = m } }
            return lo
        }
        for i in 0..<100 {
            let alpha = Double(i) / 100
            // The bisection stops within 1e-5 of the target, in single precision: the sample is that close.
            #expect(abs(position[i] - distanceCurve(solve(timeCurve, alpha))) < 1e-4, "position \(i)")
            #expect(abs(time[i] - timeCurve(solve(distanceCurve, alpha))) < 1e-4, "time \(i)")
            #expect(position[i + 1] > position[i] && time[i + 1] > time[i])
        }
        // A tenth of the time covers far more than a tenth of the distance: the fling starts fast.
        #expect(position[10] > 0.2)
    }

    @Test("Distance and duration match OverScroller's closed forms from 50 to 8000 dp/s at densities 2, 2.625, 3")
    func distanceAndDurationProperty() {
        var random = SeededRandom(seed: 5)
        for density in [2.0, 2.625, 3] {
            // OverScroller takes whole pixels per second: velocities a thousandth of a pixel per second above whole
            // ones, from 50 to 8000 dp/s, 150 of them between.
            var pixelVelocities = [50 * density, 8000 * density - 1].map { $0.rounded(.up) }
            for _ in 0..<150 { pixelVelocities.append(Double(random.int(in: Int(50 * density)...Int(8000 * density) - 1))) }
            for whole in pixelVelocities {
                let pixels = whole + 0.001
                for sign in [1.0, -1.0] {
                    let v = sign * pixels / density
                    let expected = closedForm(velocity: v, density: density)
                    let fling = AndroidFling(friction: 0.015, density: density)
                        .simulation(start: 0, velocity: v, limit: -1e9...1e9)
                    var t = 0.0
                    while !fling.sample(at: t).done { t += frame }
                    let end = fling.sample(at: t).position
                    #expect(abs(end - sign * expected.distance) <= 0.5, "v \(v) at \(density)")
                    #expect(t >= expected.duration - 0.001 && t < expected.duration + frame, "v \(v) at \(density)")
                    // Monotonic all the way, never past its end.
                    #expect(abs(fling.sample(at: expected.duration / 2).position) < abs(end))
                    // OverScroller drops the fraction of a pixel per second.
                    let faster = AndroidFling(friction: 0.015, density: density)
                        .simulation(start: 0, velocity: sign * (whole + 0.9) / density, limit: -1e9...1e9)
                    #expect(faster.final == fling.final && faster.duration == fling.duration)
                }
            }
        }
    }

    @Test("A release on the list flings by OverScroller's distance and duration (random swipes)")
    func flingThroughTheScrollView() {
        var random = SeededRandom(seed: 8)
        for density in [2.0, 2.625, 3] {
            for _ in 0..<20 {
                let view = androidList(height: 100_000, density: density)
                view.setContentOffset(Point(0, 50_000))
                // A finger moving up at v dp/s for 240 ms (past the slop even at 50 dp/s), sampled every 8 ms: the
                // least-squares fit gives v exactly; v·density is a thousandth above a whole number, which OverScroller
                // keeps. The distance counts from where the finger left the list.
                let pixels = Double(random.int(in: Int(50 * density)...Int(8000 * density) - 1)) + 0.001
                let v = pixels / density
                var start = 0.0
                let release = swipe(view, from: Point(100, 500), step: Point(0, -v * 0.008), moves: 30,
                                    interval: 0.008) { _ in start = view.contentOffset.y }
                #expect(abs(view.panTracker.velocity.y + v) < 1e-6)
                // The fling starts where the finger left the list, without a step.
                #expect(view.contentOffset.y == start && view.isDecelerating)
                let expected = closedForm(velocity: v, density: density)
                let rest = settle(view, from: release)
                #expect(abs(view.contentOffset.y - start - expected.distance) <= 0.5, "v \(v) at \(density)")
                #expect(rest - release >= expected.duration - 0.001 && rest - release < expected.duration + frame)
            }
        }
    }

    @Test("The flywheel: a fling in the same direction adds the caught fling's velocity, unless the finger paused")
    func flywheel() {
        let density = 2.625
        /// Flings up at 2000 dp/s, then a finger catches it `catchAfter` s later, holds `pause` s, and flings up at
        /// 3000 dp/s; returns the second fling's distance, its release velocity and the first fling's velocity then.
        func run(pause: Double, direction: Double = 1) -> (distance: Double, released: Double, expected: Double) {
            let view = androidList(height: 100_000, density: density)
            view.setContentOffset(Point(0, 50_000))
            let first = swipe(view, from: Point(100, 500), step: Point(0, -2000.0 / 125), moves: 12, interval: 0.008)
            let flingStart = view.contentOffset.y
            let firstFling = AndroidFling(friction: 0.015, density: density)
                .simulation(start: flingStart, velocity: -view.panTracker.velocity.y, limit: -1e9...1e9)
            let touch = first + 0.1
            view.step(to: touch)
            view.touchBegan(at: Point(100, 500), time: touch)
            if pause > 0 { view.touchMoved(to: Point(100, 500), time: touch + pause) }
            var p = Point(100, 500)
            let begin = touch + pause
            for i in 1...10 {
                p.y -= direction * 3000 * 0.008
                view.touchMoved(to: p, time: begin + Double(i) * 0.008)
            }
            let release = begin + 0.08
            view.touchEnded(at: p, time: release)
            let finger = -view.panTracker.velocity.y
            let old = firstFling.sample(at: release - first)
            let start = view.contentOffset.y
            settle(view, from: release)
            return (view.contentOffset.y - start, finger, old.done ? 0 : old.velocity)
        }
        let kept = run(pause: 0)
        #expect(abs(kept.released - 3000) < 1e-6 && kept.expected > 500)
        // OverScroller adds the running fling's velocity: the distance is the spline's for the sum.
        let sum = closedForm(velocity: kept.released + kept.expected, density: density)
        // (Within 2 dp: OverScroller drops the fraction of a px/s of the sum and of a pixel of the distance.)
        #expect(abs(kept.distance - sum.distance) <= 2, "\(kept.distance) against \(sum.distance)")
        // A finger still for 50 ms fails the 40 ms check: the second fling is the finger's alone.
        let lost = run(pause: 0.05)
        #expect(abs(lost.distance - closedForm(velocity: lost.released, density: density).distance) <= 2)
        #expect(kept.distance > lost.distance + 100)
    }

    @Test("Touch slop: the list follows the finger only past 8 dp, without a jump")
    func touchSlop() {
        let view = androidList()
        view.setContentOffset(Point(0, 500))
        view.touchBegan(at: Point(100, 300), time: 0)
        view.touchMoved(to: Point(100, 292), time: frame)          // 8 dp: not past the slop
        #expect(view.contentOffset.y == 500 && !view.isDragging)
        view.touchMoved(to: Point(100, 291), time: 2 * frame)      // 9 dp: the list moves 1
        #expect(view.contentOffset.y == 501 && view.isDragging)
        view.touchMoved(to: Point(100, 281), time: 3 * frame)      // then 1:1
        #expect(view.contentOffset.y == 511)
        // A slower release than 50 dp/s does not fling; the list rests where the finger left it.
        let slow = androidList()
        slow.setContentOffset(Point(0, 500))
        _ = swipe(slow, from: Point(100, 300), step: Point(0, -49.0 / 60), moves: 20)
        #expect(abs(slow.panTracker.velocity.y + 49) < 1e-6 && !slow.isAnimating)
        let fast = androidList()
        fast.setContentOffset(Point(0, 500))
        _ = swipe(fast, from: Point(100, 300), step: Point(0, -51.0 / 60), moves: 20)
        #expect(fast.isAnimating)
    }
}

@Suite("Android release velocity (VelocityTracker LSQ2)")
struct LeastSquaresVelocityTests {
    @Test("Samples on a parabola give its slope at the newest sample")
    func parabola() {
        // y = 100 + 300·t − 2000·t² sampled every 10 ms from 0 to 50 ms: the fit is exact, and the velocity at
        // t = 0.05 is 300 − 4000·0.05 = 100 pt/s. x(t) = 50·t² + 7 gives 100·0.05 = 5 pt/s.
        var tracker = LeastSquaresVelocity()
        for i in 0...5 {
            let t = Double(i) * 0.01
            tracker.add(Point(50 * t * t + 7, 100 + 300 * t - 2000 * t * t), time: t, horizon: 0.1)
        }
        #expect(abs(tracker.velocity.y - 100) < 1e-6)
        #expect(abs(tracker.velocity.x - 5) < 1e-6)
        // Two samples: the line through them, (130 − 100)/0.01 = 3000.
        var two = LeastSquaresVelocity()
        two.add(Point(0, 100), time: 1, horizon: 0.1)
        two.add(Point(0, 130), time: 1.01, horizon: 0.1)
        #expect(abs(two.velocity.y - 3000) < 1e-6)
        var one = LeastSquaresVelocity()
        one.add(Point(0, 100), time: 1, horizon: 0.1)
        #expect(one.velocity == .zero)
    }

    @Test("Only the last 100 ms and at most 20 samples count; a 40 ms pause forgets; a late lift has no velocity")
    func horizonCapacityAndPauses() {
        // Off-curve samples older than 100 ms before the newest, then y = 1000·t every 10 ms: velocity 1000.
        var tracker = PanTracker(estimator: LeastSquaresVelocity())
        tracker.begin(at: Point(0, 900), time: 0)
        tracker.add(Point(0, -400), time: 0.03)
        for i in 0...10 { let t = 0.06 + Double(i) * 0.01; tracker.add(Point(0, 1000 * t), time: t) }
        // The samples at 0 and 0.03 are more than 100 ms before the newest (0.16): gone.
        #expect(abs(tracker.velocity.y - 1000) < 1e-6)
        // 25 samples 4 ms apart, the first five off-curve: only the newest 20 count.
        var many = LeastSquaresVelocity()
        for i in 0..<25 {
            let t = Double(i) * 0.004
            many.add(Point(0, i < 5 ? 5000 : 2000 * t), time: t, horizon: 0.1)
        }
        #expect(many.count == 20 && abs(many.velocity.y - 2000) < 1e-6)
        // A pause of more than 40 ms between samples forgets the ones before it.
        var paused = LeastSquaresVelocity()
        paused.add(Point(0, 0), time: 0, horizon: 0.1)
        paused.add(Point(0, 10), time: 0.01, horizon: 0.1)
        paused.add(Point(0, 10), time: 0.06, horizon: 0.1)
        #expect(paused.count == 1 && paused.velocity == .zero)
        // Lifted 41 ms after the last sample: no velocity; 39 ms: the fit's.
        #expect(tracker.releaseVelocity(at: 0.16 + 0.041) == .zero)
        #expect(abs(tracker.releaseVelocity(at: 0.16 + 0.039).y - 1000) < 1e-6)
    }

    @Test("Each axis is capped at 8000 dp/s on its own")
    func cap() {
        var tracker = PanTracker(estimator: LeastSquaresVelocity())
        tracker.begin(at: Point(0, 0), time: 0)
        tracker.add(Point(100, 200), time: 0.01)      // 10000 and 20000 pt/s
        #expect(tracker.velocity == Point(8000, 8000))
        tracker.add(Point(110, 100), time: 0.02)
        // Three samples on the lines x = 10000t (not quite: 100 then 110) and y: fits; only the cap is checked here.
        #expect(abs(tracker.velocity.y) <= 8000 && abs(tracker.velocity.x) <= 8000)
    }
}

@Suite("Android overscroll (EdgeEffect)")
struct AndroidOverscrollTests {
    /// EdgeEffect's stretch for a pull distance d: 0.016·d + 0.016·(1 − e^(−d·e/0.33)).
    func stretch(_ d: Double) -> Double { 0.016 * d + 0.016 * (1 - exp(-d * M_E / 0.33)) }

    @Test("A pull past the top stretches instead of moving the list, and recedes as EdgeEffect's spring, frame by frame")
    func stretchAndRelease() {
        let view = androidList()
        let height = 603 * 2.625
        // The finger pulls down 10 pt a frame from the top: the first move is 2 pt past the slop, then 10 a frame;
        // after k moves the pull is (10k − 8)/603 of the height.
        let release = swipe(view, from: Point(100, 200), step: Point(0, 10), moves: 6) { k in
            let d = (10 * Double(k) - 8) / 603
            #expect(view.contentOffset.y == 0)
            #expect(abs(view.edgeEffect(.top).distance - d) < 1e-12, "move \(k)")
            #expect(abs(view.edgeEffect(.top).stretch - stretch(d)) < 1e-12)
        }
        #expect(abs(stretch(1) - 0.032) < 1e-4)   // about 3.2 % at a full pull
        // Released with no velocity on the spring (ω 24.657, ζ 0.98), in pixels of the height:
        // x(t) = e^(−ζωt)·(x₀·cos(ω_d·t) + (ζω·x₀/ω_d)·sin(ω_d·t)), ω_d = ω·√(1 − ζ²); once it is within 8 px and
        // slower than 200 px/s (towards the edge) it goes on linearly at 200 px/s, and is 0 once it would pass 0.
        let w = 24.657, z = 0.98, wd = w * (1 - z * z).squareRoot()
        let x0 = 52.0 / 603 * height
        var linearFrom: (time: Double, x: Double)?
        var previous = (x: x0, v: 0.0)
        var frames = 0
        let rest = settle(view, from: release) { time in
            frames += 1
            let t = time - release
            let expected: Double
            if let linear = linearFrom {
                expected = max(0, linear.x - 200 * (time - linear.time))
            } else if abs(previous.v) <= 200 && abs(previous.x) < 8 && previous.v < 0 {
                linearFrom = (time - frame, previous.x)
                expected = max(0, previous.x - 200 * frame)
            } else {
                let e = exp(-z * w * t), b = z * w * x0 / wd
                let x = e * (x0 * cos(wd * t) + b * sin(wd * t))
                let v = -z * w * x + e * (-wd * x0 * sin(wd * t) + wd * b * cos(wd * t))
                previous = (x, v)
                expected = x
            }
            #expect(abs(view.edgeEffect(.top).distance * height - expected) < 1e-6, "frame \(frames)")
            #expect(view.contentOffset.y == 0)
        }
        #expect(linearFrom != nil && view.edgeEffect(.top) == .none && rest - release < 0.6)
    }

    @Test("A fling into the top stops there and the stretch absorbs its velocity × 13")
    func absorb() {
        let density = 2.625, height = 603 * density
        let view = androidList(density: density)
        view.setContentOffset(Point(0, 300))
        var start = 0.0
        let release = swipe(view, from: Point(100, 200), step: Point(0, 2500.0 / 125), moves: 12,
                            interval: 0.008) { _ in start = view.contentOffset.y }
        let fling = AndroidFling(friction: 0.015, density: density)
            .simulation(start: start, velocity: -view.panTracker.velocity.y, limit: 0...view.maxContentOffset.y)
        #expect(fling.reachesEdge && fling.final == 0)
        // The edge's spring starts at 0 with v = 13·(whole px/s at the edge): x(t) = e^(−ζωt)·(v/ω_d)·sin(ω_d·t).
        let v = 13 * (abs(fling.velocity(at: fling.duration)) * density).rounded(.towardZero)
        let w = 24.657, z = 0.98, wd = w * (1 - z * z).squareRoot()
        var peak = 0.0
        settle(view, from: release) { time in
            let t = time - release
            if t < fling.duration {
                #expect(abs(view.contentOffset.y - fling.sample(at: t).position) < 1e-9)
                #expect(view.edgeEffect(.top).distance == 0)
            } else {
                #expect(view.contentOffset.y == 0)
                let s = t - fling.duration
                let x = exp(-z * w * s) * v / wd * sin(wd * s)
                if x > 8 { #expect(abs(view.edgeEffect(.top).distance * height - x) < 1e-6, "t \(t)") }
                peak = max(peak, view.edgeEffect(.top).distance)
            }
        }
        #expect(peak > 0 && view.edgeEffect(.top) == .none)
    }

    @Test("The glow: its alpha and height follow the pull, and fade over 600 ms after release")
    func glow() {
        let view = androidList()
        view.usePhysics(AndroidPhysics(edgeEffectKind: .glow))
        let release = swipe(view, from: Point(100, 200), step: Point(0, 10), moves: 6)
        // Pulled 52/603 of the height in steps of 2 and 10 pt: alpha = 0.8·52/603; the glow's full height is
        // ⌊r·(1 − cos 30°)⌋ px with r = 1.2·(375·2.625), 158 px; scale = (1 − 1/√(d·158) − 0.3)/0.7.
        let d = 52.0 / 603
        let alpha = 0.8 * d, scale = (1 - 1 / (d * 158).squareRoot() - 0.3) / 0.7
        let shown = view.edgeEffect(.top)
        #expect(abs(shown.glowAlpha - alpha) < 1e-12 && abs(shown.glowScale - scale) < 1e-12 && shown.stretch == 0)
        #expect(view.contentOffset.y == 0)
        // Receding on a decelerate curve over 0.6 s: value·(1 − u)², u = t/0.6.
        settle(view, from: release) { time in
            let u = min(1, (time - release) / 0.6)
            let state = view.edgeEffect(.top)
            #expect(abs(state.glowAlpha - alpha * (1 - u) * (1 - u)) < 1e-12)
            #expect(abs(state.glowScale - scale * (1 - u) * (1 - u)) < 1e-12)
        }
        #expect(view.edgeEffect(.top).glowAlpha == 0)
    }

    @Test("On Android the offset never passes an edge (random drags and flings)")
    func neverPastAnEdge() {
        var random = SeededRandom(seed: 31)
        for _ in 0..<200 {
            let view = androidList(height: random.double(in: 700...4000), density: [2, 2.625, 3][random.int(in: 0...2)])
            let lo = view.minContentOffset.y, hi = view.maxContentOffset.y
            view.setContentOffset(Point(0, random.bool() ? lo : hi))
            var time = 0.0
            for _ in 0..<3 {
                let step = Point(0, random.double(in: -60...60))
                time = swipe(view, from: Point(100, 300), step: step, moves: random.int(in: 2...12), startTime: time) { _ in
                    #expect(view.contentOffset.y >= lo && view.contentOffset.y <= hi)
                }
                time = settle(view, from: time, limit: random.double(in: 0...1.5)) { _ in
                    #expect(view.contentOffset.y >= lo && view.contentOffset.y <= hi)
                }
            }
        }
    }
}

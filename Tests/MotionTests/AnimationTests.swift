#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Raster
import Testing
import TestSupport
@testable import Motion
import Colors

private func basic(from: Double? = 0, to: Double? = 10, by: Double? = nil, duration: Double = 1,
                   configure: (BasicAnimation<Double>) -> Void = { _ in }) -> BasicAnimation<Double> {
    let a = BasicAnimation<Double>(keyPath: "opacity", from: from, to: to, by: by)
    a.duration = duration
    configure(a)
    return a
}

private func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance
}

@Suite struct MediaTimingTests {
    @Test func beginTimeAndDuration() {
        let a = basic(duration: 2) { $0.beginTime = 10 }
        #expect(a.value(atParentTime: 9.9, base: -1) == nil)
        #expect(close(a.value(atParentTime: 10, base: -1), 0))
        #expect(close(a.value(atParentTime: 11, base: -1), 5))
        #expect(a.value(atParentTime: 12, base: -1) == nil)
        #expect(a.hasEnded(atParentTime: 12) && !a.hasEnded(atParentTime: 11.999))
        #expect(a.endTime == 12)
    }

    @Test func fillModes() {
        let forwards = basic { $0.beginTime = 1; $0.fillMode = .forwards }
        #expect(forwards.value(atParentTime: 0, base: -1) == nil)
        #expect(close(forwards.value(atParentTime: 5, base: -1), 10))
        let backwards = basic { $0.beginTime = 1; $0.fillMode = .backwards }
        #expect(close(backwards.value(atParentTime: 0, base: -1), 0))
        #expect(backwards.value(atParentTime: 5, base: -1) == nil)
        let both = basic { $0.beginTime = 1; $0.fillMode = .both }
        #expect(close(both.value(atParentTime: 0, base: -1), 0) && close(both.value(atParentTime: 5, base: -1), 10))
    }

    @Test func fractionalRepeatCountFreezesMidRun() {
        // 2.5 runs of 1 s: at 1.25 s the second run is a quarter through; the frozen end is halfway (5).
        let a = basic { $0.repeatCount = 2.5; $0.fillMode = .forwards }
        #expect(close(a.value(atParentTime: 0.25, base: 0), 2.5))
        #expect(close(a.value(atParentTime: 1.25, base: 0), 2.5))
        #expect(close(a.value(atParentTime: 2.4, base: 0), 4))
        #expect(a.activeDuration == 2.5)
        #expect(close(a.value(atParentTime: 3, base: 0), 5))
        // Whole repeats freeze at the end of the last run, not the start of a next one.
        let whole = basic { $0.repeatCount = 2; $0.fillMode = .forwards }
        #expect(close(whole.value(atParentTime: 7, base: 0), 10))
    }

    @Test func autoreversesPlaysBackAfterEachRun() {
        let a = basic { $0.autoreverses = true; $0.repeatCount = 2; $0.fillMode = .forwards }
        #expect(a.activeDuration == 4)
        #expect(close(a.value(atParentTime: 0.5, base: 0), 5))
        #expect(close(a.value(atParentTime: 1.25, base: 0), 7.5))
        #expect(close(a.value(atParentTime: 1.75, base: 0), 2.5))
        #expect(close(a.value(atParentTime: 2.25, base: 0), 2.5))
        #expect(close(a.value(atParentTime: 9, base: 0), 0))
    }

    @Test func repeatDurationOverridesRepeatCount() {
        let a = basic { $0.repeatCount = 10; $0.repeatDuration = 1.5; $0.fillMode = .forwards }
        #expect(a.activeDuration == 1.5)
        #expect(close(a.value(atParentTime: 100, base: 0), 5))
    }

    @Test func infiniteRepeatNeverEnds() {
        let a = basic { $0.repeatCount = .infinity }
        #expect(!a.hasEnded(atParentTime: 1e9))
        #expect(a.endTime == .infinity)
        #expect(close(a.value(atParentTime: 1000.25, base: 0), 2.5, 1e-6))
    }

    @Test func speedAndTimeOffset() {
        let fast = basic(duration: 2) { $0.speed = 2 }
        #expect(close(fast.value(atParentTime: 0.5, base: 0), 5))
        #expect(fast.hasEnded(atParentTime: 1))
        // A 3 s run with a 1 s offset shows its last 2 s and then its first second.
        let offset = basic(from: 0, to: 3, duration: 3) { $0.timeOffset = 1; $0.fillMode = .forwards }
        #expect(close(offset.value(atParentTime: 0, base: 0), 1))
        #expect(close(offset.value(atParentTime: 1.5, base: 0), 2.5))
        #expect(close(offset.value(atParentTime: 2.5, base: 0), 0.5))
        #expect(close(offset.value(atParentTime: 4, base: 0), 1))
    }

    @Test func zeroDurationMeansAQuarterSecond() {
        let a = basic(duration: 0)
        #expect(close(a.value(atParentTime: 0.125, base: 0), 5))
    }

    @Test func timingFunctionShapesEachRun() {
        let a = basic { $0.timingFunction = .easeIn; $0.repeatCount = 2 }
        let expected = 10 * TimingFunction.easeIn.value(at: 0.3)
        #expect(close(a.value(atParentTime: 0.3, base: 0), expected))
        #expect(close(a.value(atParentTime: 1.3, base: 0), expected))
    }
}

@Suite struct BasicAnimationTests {
    @Test func missingEndsComeFromTheBase() {
        // base 100: to alone 100→10; from alone 0→100; by alone 100→130; from+by 0→30; by+to −20→10.
        #expect(close(basic(from: nil, to: 10).value(atParentTime: 0.5, base: 100), 55))
        #expect(close(basic(from: 0, to: nil).value(atParentTime: 0.5, base: 100), 50))
        #expect(close(basic(from: nil, to: nil, by: 30).value(atParentTime: 0.5, base: 100), 115))
        #expect(close(basic(from: 0, to: nil, by: 30).value(atParentTime: 0.5, base: 100), 15))
        #expect(close(basic(from: nil, to: 10, by: 30).value(atParentTime: 0.5, base: 100), -5))
        #expect(close(basic(from: nil, to: nil).value(atParentTime: 0.5, base: 100), 100))
    }

    @Test func additiveAddsToTheBase() {
        let a = basic(from: 0, to: 10) { $0.isAdditive = true }
        #expect(close(a.value(atParentTime: 0.5, base: 100), 105))
    }

    @Test func applyOnlyTouchesItsKeyPathAndType() {
        let a = basic(from: 0, to: 10)
        var opacity = 1.0
        a.apply(to: &opacity, keyPath: "opacity", atParentTime: 0.5)
        #expect(opacity == 5)
        var other = 1.0
        a.apply(to: &other, keyPath: "strokeEnd", atParentTime: 0.5)
        #expect(other == 1)
        var point = Point(1, 2)
        a.apply(to: &point, keyPath: "opacity", atParentTime: 0.5)
        #expect(point == Point(1, 2))
    }

    @Test func copiesAreIndependent() {
        let a = basic(from: 0, to: 10)
        let b = a.copy() as! BasicAnimation<Double>
        b.toValue = 20
        b.duration = 2
        #expect(a.toValue == 10 && a.duration == 1)
        #expect(close(b.value(atParentTime: 1, base: 0), 10))
    }
}

@Suite struct KeyframeAnimationTests {
    @Test func linearKeyframesEvenlySpaced() {
        // The four-dots refresh's inward bounce: values 0, 5, 0, 5, 0 over 1 s, a quarter second per segment.
        let a = KeyframeAnimation<Double>(keyPath: "position.x", values: [0, 5, 0, 5, 0])
        a.duration = 1
        #expect(close(a.value(atParentTime: 0.125, base: 0), 2.5))
        #expect(close(a.value(atParentTime: 0.25, base: 0), 5))
        #expect(close(a.value(atParentTime: 0.375, base: 0), 2.5))
        #expect(close(a.value(atParentTime: 0.9, base: 0), 2))             // 60 % of the way from 5 back to 0
    }

    @Test func keyTimesAndSegmentCurves() {
        let a = KeyframeAnimation<Double>(keyPath: "strokeEnd", values: [1, 0, 0.2, 1], keyTimes: [0, 0.05, 0.1, 0.3],
                                          timingFunctions: [.linear, .linear, .easeOut])
        a.duration = 2
        #expect(a.validationError == nil)
        #expect(close(a.value(atParentTime: 0.05, base: 9), 0.5))          // fraction 0.025: halfway down the first segment
        #expect(close(a.value(atParentTime: 0.15, base: 9), 0.1))          // fraction 0.075: halfway up the second
        let third = 0.2 + 0.8 * TimingFunction.easeOut.value(at: 0.5)
        #expect(close(a.value(atParentTime: 0.4, base: 9), third))         // fraction 0.2: halfway through the third, eased
        #expect(close(a.value(atParentTime: 1.5, base: 9), 1))             // after the last key time the last value holds
    }

    @Test func discreteKeyframesJump() {
        let a = KeyframeAnimation<Double>(keyPath: "frame", values: [10, 20, 30], calculationMode: .discrete)
        a.duration = 3
        #expect(a.value(atParentTime: 0.5, base: 0) == 10)
        #expect(a.value(atParentTime: 1.0, base: 0) == 20)
        #expect(a.value(atParentTime: 2.99, base: 0) == 30)
        let timed = KeyframeAnimation<Double>(keyPath: "frame", values: [10, 20, 30], keyTimes: [0, 0.5, 0.9, 1],
                                              calculationMode: .discrete)
        timed.duration = 1
        #expect(timed.validationError == nil)
        #expect(timed.value(atParentTime: 0.2, base: 0) == 10)
        #expect(timed.value(atParentTime: 0.5, base: 0) == 20)
        #expect(timed.value(atParentTime: 0.95, base: 0) == 30)
    }

    @Test func badKeyTimesAreNamedAndIgnored() {
        let a = KeyframeAnimation<Double>(keyPath: "opacity", values: [0, 1, 0], keyTimes: [0, 0.8, 0.5])
        #expect(a.validationError?.contains("keyTimes[2]") == true)
        a.duration = 1
        #expect(close(a.value(atParentTime: 0.25, base: 0), 0.5))   // evenly spaced instead
        let short = KeyframeAnimation<Double>(keyPath: "opacity", values: [0, 1, 0], keyTimes: [0, 1])
        #expect(short.validationError?.contains("2 keyTimes for 3 values") == true)
        short.keyTimes = [0, 0.5, 1]
        #expect(short.validationError == nil)
        let empty = KeyframeAnimation<Double>(keyPath: "opacity", values: [])
        #expect(empty.value(atParentTime: 0.1, base: 7) == nil)
    }
}

@Suite struct AnimationGroupTests {
    @Test func childrenRunOnTheGroupsTime() {
        // Group of 2 s; a rotation over its whole length and a stroke that starts 0.5 s in and lasts 1 s.
        let rotation = BasicAnimation<Double>(keyPath: "rotation", from: 0, to: 2 * Double.pi)
        rotation.duration = 2
        let stroke = BasicAnimation<Double>(keyPath: "strokeEnd", from: 0, to: 1)
        stroke.beginTime = 0.5
        stroke.duration = 1
        let group = AnimationGroup(animations: [rotation, stroke])
        group.duration = 2
        group.repeatCount = .infinity
        group.beginTime = 10
        var angle = 0.0, end = 0.3
        group.apply(to: &angle, keyPath: "rotation", atParentTime: 11)
        group.apply(to: &end, keyPath: "strokeEnd", atParentTime: 11)
        #expect(abs(angle - Double.pi) < 1e-12 && abs(end - 0.5) < 1e-12)
        // The second cycle repeats the first; before the stroke's begin the model value shows.
        end = 0.3
        group.apply(to: &end, keyPath: "strokeEnd", atParentTime: 12.25)
        #expect(end == 0.3)
        #expect(group.animates(keyPath: "strokeEnd") && !group.animates(keyPath: "opacity"))
    }

    @Test func groupCutsOffLongerChildren() {
        let child = BasicAnimation<Double>(keyPath: "x", from: 0, to: 10)
        child.duration = 10
        let group = AnimationGroup(animations: [child])
        group.duration = 1
        group.fillMode = .forwards
        var x = -1.0
        group.apply(to: &x, keyPath: "x", atParentTime: 5)
        #expect(abs(x - 1) < 1e-12)
    }
}

@Suite struct PauseResumeTests {
    /// QA1673: pausing freezes the presentation value, and resuming continues from it without a jump.
    @Test func pauseThenResumeKeepsThePresentationValueContinuous() {
        var random = SeededRandom(seed: 42)
        for _ in 0..<200 {
            let a = basic(from: random.double(in: -100...100), to: random.double(in: -100...100),
                          duration: random.double(in: 0.1...3)) {
                $0.beginTime = random.double(in: 0...2)
                $0.repeatCount = random.next() % 2 == 0 ? .infinity : random.double(in: 1...4)
                $0.autoreverses = random.next() % 2 == 0
                $0.timingFunction = random.next() % 2 == 0 ? .easeInEaseOut : nil
                $0.fillMode = .both
            }
            let pauseAt = random.double(in: 0...6), resumeAt = pauseAt + random.double(in: 0...5)
            let originalBegin = a.beginTime
            let before = a.value(atParentTime: pauseAt, base: 0)
            a.pause(atParentTime: pauseAt)
            #expect(a.isPaused)
            #expect(a.value(atParentTime: pauseAt, base: 0) == before)
            #expect(a.value(atParentTime: (pauseAt + resumeAt) / 2, base: 0) == before)
            #expect(!a.hasEnded(atParentTime: resumeAt + 100))
            a.resume(atParentTime: resumeAt)
            let after = a.value(atParentTime: resumeAt, base: 0)
            #expect(before != nil && after != nil && abs(before! - after!) < 1e-9)
            // After the resume the animation runs as before, shifted by the time spent paused.
            let later = random.double(in: 0...0.05)
            let unpaused = basic(from: a.fromValue, to: a.toValue, duration: a.duration) {
                $0.beginTime = originalBegin + (resumeAt - pauseAt)
                $0.repeatCount = a.repeatCount; $0.autoreverses = a.autoreverses
                $0.timingFunction = a.timingFunction; $0.fillMode = .both
            }
            #expect(close(a.value(atParentTime: resumeAt + later, base: 0), unpaused.value(atParentTime: resumeAt + later, base: 0)!, 1e-7))
        }
    }
}

@Suite struct AnimatableTests {
    @Test func transformsTurnInsteadOfShrinking() {
        // Halfway from identity to a quarter turn is an eighth turn, with scale 1; a matrix lerp would give 0.707.
        let half = AffineTransform.identity.interpolated(to: AffineTransform(rotationAngle: Double.pi / 2), fraction: 0.5)
        let eighth = AffineTransform(rotationAngle: Double.pi / 4)
        #expect(abs(half.a - eighth.a) < 1e-12 && abs(half.b - eighth.b) < 1e-12)
        #expect(abs(half.determinant - 1) < 1e-12)
        // From −170° to 170° the short way is through 180°.
        let deg = Double.pi / 180
        let through = AffineTransform(rotationAngle: -170 * deg).interpolated(to: AffineTransform(rotationAngle: 170 * deg), fraction: 0.5)
        #expect(abs(through.a - -1) < 1e-12 && abs(through.b) < 1e-12)
        // Translation and scale move linearly: (0,0)×1 → (100,50)×3 at a quarter is (25,12.5)×1.5.
        let target = AffineTransform(scaleX: 3, y: 3).concatenating(AffineTransform(translationX: 100, y: 50))
        let quarter = AffineTransform.identity.interpolated(to: target, fraction: 0.25)
        #expect(abs(quarter.a - 1.5) < 1e-12 && abs(quarter.tx - 25) < 1e-12 && abs(quarter.ty - 12.5) < 1e-12)
    }

    @Test func decompositionRoundTrips() {
        var random = SeededRandom(seed: 9)
        for _ in 0..<200 {
            let m = AffineTransform(a: random.double(in: -3...3), b: random.double(in: -3...3), c: random.double(in: -3...3),
                                    d: random.double(in: -3...3), tx: random.double(in: -50...50), ty: random.double(in: -50...50))
            let back = DecomposedTransform(m).transform
            for (x, y) in [(m.a, back.a), (m.b, back.b), (m.c, back.c), (m.d, back.d), (m.tx, back.tx), (m.ty, back.ty)] {
                #expect(abs(x - y) < 1e-9)
            }
            let delta = m.subtracting(.identity)
            let sum = AffineTransform.identity.adding(delta)
            #expect(abs(sum.a - m.a) < 1e-9 && abs(sum.d - m.d) < 1e-9 && abs(sum.tx - m.tx) < 1e-9)
        }
    }

    @Test func pathsMovePointByPoint() {
        var a = Path(), b = Path()
        a.move(to: Point(0, 0)); a.line(to: Point(10, 0)); a.quad(to: Point(10, 10), control: Point(20, 0)); a.close()
        b.move(to: Point(10, 10)); b.line(to: Point(30, 10)); b.quad(to: Point(30, 30), control: Point(40, 20)); b.close()
        let mid = a.interpolated(to: b, fraction: 0.5)
        #expect(mid.elements == [.move(Point(5, 5)), .line(Point(20, 5)), .quad(Point(30, 10), Point(20, 20)), .close])
        let other = Path.rect(Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(a.interpolated(to: other, fraction: 0.4) == a && a.interpolated(to: other, fraction: 0.6) == other)
    }

    @Test func colorsRectsAndSizes() {
        let c = Color(red: 0, green: 1, blue: 0.5, alpha: 0).interpolated(to: Color(red: 1, green: 0, blue: 0.5, alpha: 1), fraction: 0.25)
        #expect(c == Color(red: 0.25, green: 0.75, blue: 0.5, alpha: 0.25))
        let r = Rect(x: 0, y: 0, width: 10, height: 10).interpolated(to: Rect(x: 10, y: 20, width: 30, height: 50), fraction: 0.5)
        #expect(r == Rect(x: 5, y: 10, width: 20, height: 30))
        #expect(Size(1, 2).adding(Size(3, 4)) == Size(4, 6) && Point(5, 5).subtracting(Point(1, 2)) == Point(4, 3))
    }
}

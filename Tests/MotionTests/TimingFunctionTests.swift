import Testing
import TestSupport
@testable import Motion

/// The ideal curve, evaluated from its Bernstein form at parameter s (independently of the solver's power basis).
private func bezierPoint(_ f: TimingFunction, _ s: Double) -> (x: Double, y: Double) {
    let u = 1 - s
    let b1 = 3 * u * u * s, b2 = 3 * u * s * s, b3 = s * s * s
    return (b1 * f.x1 + b2 * f.x2 + b3, b1 * f.y1 + b2 * f.y2 + b3)
}

@Suite struct TimingFunctionTests {
    static let named: [(String, TimingFunction)] = [
        ("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut),
        ("easeInEaseOut", .easeInEaseOut), ("default", .default), ("fastOutSlowIn", .fastOutSlowIn),
    ]

    @Test func namedCurvesHaveTheControlPointsOfCoreAnimation() {
        #expect(TimingFunction.easeIn == TimingFunction(controlPoints: 0.42, 0, 1, 1))
        #expect(TimingFunction.easeOut == TimingFunction(controlPoints: 0, 0, 0.58, 1))
        #expect(TimingFunction.easeInEaseOut == TimingFunction(controlPoints: 0.42, 0, 0.58, 1))
        #expect(TimingFunction.default == TimingFunction(controlPoints: 0.25, 0.1, 0.25, 1))
    }

    @Test func androidDecelerateIsOneMinusTheFourthPowerForFactorTwo() {
        let curve = TimingFunction.decelerate(factor: 2)
        // 1 − (1 − t)^4: 0.68359375 at a quarter, 0.9375 at half, 0.99609375 at three quarters.
        #expect(curve.value(at: 0.25) == 0.68359375)
        #expect(curve.value(at: 0.5) == 0.9375)
        #expect(curve.value(at: 0.75) == 0.99609375)
        #expect(curve.value(at: 0) == 0 && curve.value(at: 1) == 1)
        #expect(TimingFunction.decelerate(factor: 1).value(at: 0.5) == 0.75)
        #expect(curve != .linear && curve != .decelerate(factor: 1) && curve == .decelerate(factor: 2))
        #expect(TimingFunction.decelerate(factor: -1) == .linear)
    }

    @Test(arguments: 0..<6)
    func namedCurveFollowsTheIdealCurveWithin1e5(index: Int) {
        let (name, curve) = TimingFunctionTests.named[index]
        var worst = 0.0
        for i in 0...2000 {
            let p = bezierPoint(curve, Double(i) / 2000)
            worst = max(worst, abs(curve.value(at: p.x) - p.y))
        }
        #expect(worst < 1e-5, "\(name): worst error \(worst)")
    }

    @Test func randomCurvesFollowTheIdealCurveWithin1e5() {
        var random = SeededRandom(seed: 7)
        for _ in 0..<200 {
            let curve = TimingFunction(controlPoints: random.double(in: 0...1), random.double(in: -0.5...1.5),
                                       random.double(in: 0...1), random.double(in: -0.5...1.5))
            for i in 0...200 {
                let s = Double(i) / 200
                let p = bezierPoint(curve, s)
                // Where x barely moves with the parameter, x no longer pins down y (a nearly vertical curve): the
                // comparison is made where the x speed is at least 0.05.
                let h = 1e-6
                let speed = (bezierPoint(curve, min(1, s + h)).x - bezierPoint(curve, max(0, s - h)).x) / (min(1, s + h) - max(0, s - h))
                guard speed >= 0.05 else { continue }
                #expect(abs(curve.value(at: p.x) - p.y) < 1e-5, "\(curve) at s=\(s)")
            }
        }
    }

    @Test func endsAreExactAndTimeIsClamped() {
        for (_, curve) in TimingFunctionTests.named {
            #expect(curve.value(at: 0) == 0)
            #expect(curve.value(at: 1) == 1)
            #expect(curve.value(at: -3) == 0)
            #expect(curve.value(at: 7) == 1)
        }
        #expect(TimingFunction.linear.value(at: 0.37) == 0.37)
    }

    @Test func easeInEaseOutIsSymmetricAboutItsMiddle() {
        // Control points (0.42, 0) and (0.58, 1) mirror each other through (0.5, 0.5).
        #expect(abs(TimingFunction.easeInEaseOut.value(at: 0.5) - 0.5) < 1e-9)
        for x in stride(from: 0.05, through: 0.45, by: 0.05) {
            let a = TimingFunction.easeInEaseOut.value(at: x), b = TimingFunction.easeInEaseOut.value(at: 1 - x)
            #expect(abs(a + b - 1) < 1e-9)
        }
    }

    @Test func brokenControlPointsStillGiveAMonotonicTime() {
        let curve = TimingFunction(controlPoints: -2, .nan, 5, 1)
        #expect(curve.x1 == 0 && curve.y1 == 0 && curve.x2 == 1)
        var last = curve.value(at: 0)
        for i in 1...100 {
            let v = curve.value(at: Double(i) / 100)
            #expect(v.isFinite && v >= last - 1e-12)
            last = v
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import Motion

@Suite struct SpringTests {
    @Test func criticallyDampedBouncePositions() {
        // m = 1, k = 100, c = 20: r = −10, x = (x0 + (v0 + 10·x0)·t)·e^(−10t). From 1 at rest:
        // t = 0.1 → 2/e = 0.7357588823; t = 0.2 → 3/e² = 0.4060058497.
        let motion = Spring(mass: 1, stiffness: 100, damping: 20).motion(from: 1, to: 0, initialVelocity: 0)
        guard case .criticallyDamped = motion.regime else { Issue.record("not critically damped"); return }
        #expect(abs(motion.position(at: 0) - 1) < 1e-12)
        #expect(abs(motion.position(at: 0.1) - 0.7357588823428847) < 1e-12)
        #expect(abs(motion.position(at: 0.2) - 0.4060058497098381) < 1e-12)
        // Towards a target of 50 from 40 with 100 pt/s: x0 = −10, b = 100 − 100 = 0, so x = −10·e^(−10t).
        let moving = Spring(mass: 1, stiffness: 100, damping: 20).motion(from: 40, to: 50, initialVelocity: 100)
        #expect(abs(moving.position(at: 0.3) - (50 - 10 * exp(-3.0))) < 1e-12)
    }

    @Test func underDampedPositions() {
        // m = 1, k = 100, c = 12: r = −6, w = √(400 − 144)/2 = 8. From 1 at rest: x = e^(−6t)(cos 8t + 0.75 sin 8t).
        // t = π/16 → 0.75·e^(−3π/8) = 0.2308979785; t = 0.1 → e^(−0.6)(cos 0.8 + 0.75 sin 0.8) = 0.6776307765.
        let motion = Spring(mass: 1, stiffness: 100, damping: 12).motion(from: 1, to: 0, initialVelocity: 0)
        guard case .underDamped(let r, let w, _, _) = motion.regime else { Issue.record("not under-damped"); return }
        #expect(r == -6 && w == 8)
        #expect(abs(motion.position(at: Double.pi / 16) - 0.23089797849637428) < 1e-12)
        #expect(abs(motion.position(at: 0.1) - 0.6776307764659398) < 1e-12)
    }

    @Test func overDampedPositions() {
        // m = 1, k = 100, c = 25: roots (−25 ± 15)/2 = −5 and −20; from 1 at rest x = 4/3·e^(−5t) − 1/3·e^(−20t).
        // t = 0.1 → 4/3·e^(−0.5) − 1/3·e^(−2) = 0.7635957852.
        let motion = Spring(mass: 1, stiffness: 100, damping: 25).motion(from: 1, to: 0, initialVelocity: 0)
        guard case .overDamped = motion.regime else { Issue.record("not over-damped"); return }
        #expect(abs(motion.position(at: 0.1) - 0.7635957852046402) < 1e-12)
    }

    @Test func velocityIsTheDerivativeOfPositionInAllRegimes() {
        var random = SeededRandom(seed: 11)
        for damping in [20.0, 6.0, 40.0] {
            for _ in 0..<20 {
                let motion = Spring(stiffness: 100, damping: damping)
                    .motion(from: random.double(in: -100...100), to: random.double(in: -50...50),
                            initialVelocity: random.double(in: -2000...2000))
                let t = random.double(in: 0...1), h = 1e-6
                let numeric = (motion.position(at: t + h) - motion.position(at: t - h)) / (2 * h)
                #expect(abs(numeric - motion.velocity(at: t)) < 1e-4 * max(1, abs(numeric)))
            }
        }
    }

    @Test func responseAndDampingRatio() {
        // response 0.5 s: k = (2π/0.5)² = 16π², c = 4π·ζ/0.5 = 8π·ζ.
        let spring = Spring(response: 0.5, dampingRatio: 1)
        #expect(abs(spring.stiffness - 16 * Double.pi * Double.pi) < 1e-9)
        #expect(abs(spring.damping - 8 * Double.pi) < 1e-12)
        #expect(abs(spring.dampingRatio - 1) < 1e-12)
        guard case .criticallyDamped = spring.motion(from: 0, to: 1, initialVelocity: 0).regime else {
            Issue.record("ratio 1 from response must be critically damped"); return
        }
        #expect(abs(Spring(response: 0.3, dampingRatio: 0.4).dampingRatio - 0.4) < 1e-12)
    }

    @Test func settlingTimeIsWhenTheSpringStaysWithinEpsilon() {
        var random = SeededRandom(seed: 5)
        for damping in [20.0, 8.0, 35.0] {
            for _ in 0..<20 {
                let motion = Spring(stiffness: 100, damping: damping)
                    .motion(from: random.double(in: -300...300), to: 0, initialVelocity: random.double(in: -4000...4000))
                let eps = 0.25
                let settle = motion.settlingTime(epsilon: eps)
                #expect(settle.isFinite && settle > 0)
                for i in 0...400 {
                    #expect(abs(motion.displacement(at: settle + Double(i) * 0.005)) < eps)
                }
            }
        }
    }

    @Test func aSpringThatStartsAtItsTargetWithAVelocityStillMoves() {
        // The bounce after momentum crosses an edge: x = v0·t·e^(−10t), which peaks at t = 0.1 at v0/(10e).
        let motion = Spring(mass: 1, stiffness: 100, damping: 20).motion(from: 0, to: 0, initialVelocity: -800)
        #expect(abs(motion.position(at: 0.1) - -80 / M_E) < 1e-9)
        let settle = motion.settlingTime(epsilon: 0.25)
        // Hand-solved: 800·t·e^(−10t) = 0.25 near t = 1.0: 800·e^(−10) = 0.0363 < 0.25 < 800·0.7·e^(−7) = 0.511.
        #expect(settle > 0.7 && settle < 1.0)
        #expect(abs(motion.displacement(at: settle) - -0.25) < 1e-6)
    }
}

@Suite struct DecayTests {
    @Test func rateConstants() {
        // k = 1000·ln d: normal −2.0020026707, fast −10.0503358535.
        #expect(abs(DecelerationRate.normal.k - -2.0020026706730794) < 1e-12)
        #expect(abs(DecelerationRate.fast.k - -10.050335853501451) < 1e-12)
    }

    /// (rate, v₀, resting distance −v₀/k, stop time ln(−k·0.5/|v₀|)/k, position after 0.5 s v₀·(d^500 − 1)/k).
    static let cases: [(DecelerationRate, Double, Double, Double, Double)] = [
        (.normal, 1000, 499.4998331664548, 3.449922692823049, 315.9280226785096),
        (.normal, 3000, 1498.4994994993642, 3.998679347727387, 947.7840680355288),
        (.normal, -500, -249.7499165832274, 3.103695791773558, -157.9640113392548),
        (.fast, 1000, 99.49916247342207, 0.5266785592535582, 98.845404913656),
        (.fast, 3000, 298.4974874202662, 0.6359895618590445, 296.536214740968),
        (.fast, -500, -49.74958123671104, 0.45771099531702975, -49.422702456828),
    ]

    @Test(arguments: 0..<6)
    func distanceAndDuration(index: Int) {
        let (rate, v0, distance, duration, atHalf) = DecayTests.cases[index]
        let decay = Decay(start: 100, initialVelocity: v0, rate: rate)
        #expect(abs(decay.restingPoint - (100 + distance)) < 1e-9)
        #expect(abs(decay.duration() - duration) < 1e-9)
        #expect(abs(decay.position(at: 0.5) - (100 + atHalf)) < 1e-9)
        // At the stop time the remaining distance is the threshold, 0.5 pt.
        #expect(abs(abs(decay.restingPoint - decay.position(at: duration)) - 0.5) < 1e-9)
        #expect(abs(decay.velocity(at: 0.5) - v0 * pow(rate.rawValue, 500)) < 1e-9)
    }

    @Test func timeToReachInvertsPosition() {
        var random = SeededRandom(seed: 3)
        for _ in 0..<100 {
            let rate: DecelerationRate = random.next() % 2 == 0 ? .normal : .fast
            let decay = Decay(start: random.double(in: -500...500), initialVelocity: random.double(in: -8000...8000), rate: rate)
            let t = random.double(in: 0...decay.duration())
            let x = decay.position(at: t)
            let back = decay.time(toReach: x)
            #expect(back != nil && abs(back! - t) < 1e-6)
            // Beyond the resting point it never arrives; behind the start neither.
            #expect(decay.time(toReach: decay.restingPoint + (decay.initialVelocity > 0 ? 1 : -1)) == nil)
            #expect(decay.time(toReach: decay.start - (decay.initialVelocity > 0 ? 1 : -1)) == nil)
        }
    }
}

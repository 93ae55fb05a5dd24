#if canImport(Glibc)
import Glibc
#endif
import Motion
import Testing
import TestSupport
@testable import Scrolling

/// The release physics as simulations: each sampled at times worked out by hand from docs/reference.md §2.
@Suite("Release simulations")
struct SimulationTests {
    /// k = 1000·ln 0.998 per second.
    let k = 1000 * log(0.998)

    @Test("Momentum follows x₀ + v₀·(d^(1000t) − 1)/k, stops at its stop time and stays inside its limit")
    func momentum() {
        let decay = Decay(start: 100, initialVelocity: -2000)
        let momentum = MomentumSimulation(decay: decay, stopTime: 0.5, limit: nil)
        // At t = 0.25 s: 100 + (−2000)·(0.998^250 − 1)/k.
        let expected = 100 + -2000 * (pow(0.998, 250) - 1) / k
        let s = momentum.sample(at: 0.25)
        #expect(abs(s.position - expected) < 1e-9)
        #expect(abs(s.velocity - -2000 * pow(0.998, 250)) < 1e-9)
        #expect(!s.done)
        let end = momentum.sample(at: 2)
        #expect(end.done && end.velocity == 0 && end.position == decay.position(at: 0.5))
        // Held at the edge it would pass, with no velocity there.
        let held = MomentumSimulation(decay: decay, stopTime: 10, limit: 0...1000).sample(at: 1)
        #expect(held.position == 0 && held.velocity == 0)
        #expect(momentum.kind(at: 0.1) == .momentum)
    }

    @Test("The spring back reaches its edge and is done at its settling time")
    func springBack() {
        let spring = PhysicsStyle().bounceSpring.motion(from: -80, to: 0, initialVelocity: 0)
        let back = SpringBackSimulation(spring: spring, settle: 0.9)
        // Critically damped, ω = 10: x(t) = (x₀ + (v₀ + 10·x₀)·t)·e^(−10t) with x₀ = −80, v₀ = 0.
        let t = 0.1
        #expect(abs(back.sample(at: t).position - (-80 + -800 * t) * exp(-10 * t)) < 1e-9)
        #expect(back.sample(at: 0.9) == AxisSample(position: 0, velocity: 0, done: true))
        #expect(back.kind(at: 0) == .spring)
    }

    @Test("A hand-off is the first simulation before its time and the second after, continuous between (random flings)")
    func handOff() {
        var random = SeededRandom(seed: 22)
        for _ in 0..<200 {
            let v = -Double.random(in: 500...8000, using: &random)
            let decay = Decay(start: Double.random(in: 0...300, using: &random), initialVelocity: v)
            guard let crossing = decay.time(toReach: 0) else { continue }
            let bounce = PhysicsStyle().bounceSpring
            let spring = bounce.motion(from: 0, to: 0, initialVelocity: decay.velocity(at: crossing))
            let composed = HandOffSimulation(first: MomentumSimulation(decay: decay, stopTime: .infinity, limit: nil),
                                             time: crossing,
                                             second: SpringBackSimulation(spring: spring, settle: 1))
            let before = composed.sample(at: crossing - 1e-6), after = composed.sample(at: crossing + 1e-6)
            #expect(abs(before.position - after.position) < 0.05, "v₀ \(v)")
            #expect(abs(before.velocity - after.velocity) < 0.5, "v₀ \(v)")
            #expect(composed.kind(at: crossing - 1e-6) == .momentum && composed.kind(at: crossing) == .spring)
            #expect(composed.sample(at: crossing + 1.5).done)
        }
    }
}

import Motion

/// Where a motion is on one axis at a time: its position (points), its velocity (points per second), and whether it
/// is over, its position then final.
struct AxisSample: Equatable {
    var position: Double
    var velocity: Double
    var done: Bool
}

/// A motion on one axis as a closed form of the time since it started, as Flutter's `Simulation` (position,
/// velocity, done at a time): any frame is exact whatever frames came before, and a test can sample it anywhere.
/// The iOS physics are the three below and their hand-off; another platform's fling or overscroll is a new type
/// beside them, composed the same way (Android's are in `AndroidFling.swift` and `TopPullLayout.swift`).
protocol AxisSimulation: Sendable {
    /// The motion `t` seconds after it started (`t ≥ 0`).
    func sample(at t: Double) -> AxisSample
    /// What a trace calls the motion `t` seconds after it started.
    func kind(at t: Double) -> ScrollMotion
    /// Where an edge stopped the motion short of its own end, for an edge effect to take what it carried (Android's
    /// fling cut off at an edge); nil for a motion that ends by itself.
    var edgeImpact: EdgeImpact? { get }
}

extension AxisSimulation {
    var edgeImpact: EdgeImpact? { nil }
}

/// A motion stopped by an edge: when (seconds since the motion started), where (the edge's offset) and with what
/// velocity it met the edge (points per second).
struct EdgeImpact: Equatable {
    var time: Double
    var position: Double
    var velocity: Double
}

/// Momentum after a fling: the decay at the deceleration rate, stopped at `stopTime` (docs/reference.md §2), and held
/// inside `limit` (the edges, when bouncing is off or the projection stops short of them) with no velocity there.
struct MomentumSimulation: AxisSimulation {
    let decay: Decay
    let stopTime: Double
    let limit: ClosedRange<Double>?

    func sample(at t: Double) -> AxisSample {
        let done = t >= stopTime
        let tt = done ? stopTime : t
        var position = decay.position(at: tt)
        var velocity = done ? 0 : decay.velocity(at: tt)
        if let limit, !limit.contains(position) {
            position = Swift.min(Swift.max(position, limit.lowerBound), limit.upperBound)
            velocity = 0
        }
        return AxisSample(position: position, velocity: velocity, done: done)
    }

    func kind(at t: Double) -> ScrollMotion { .momentum }
}

/// The bounce spring towards an edge, settled `settle` seconds after it starts (within the rest distance).
struct SpringBackSimulation: AxisSimulation {
    let spring: SpringMotion
    let settle: Double

    func sample(at t: Double) -> AxisSample {
        if t >= settle { return AxisSample(position: spring.target, velocity: 0, done: true) }
        return AxisSample(position: spring.position(at: t), velocity: spring.velocity(at: t), done: false)
    }

    func kind(at t: Double) -> ScrollMotion { .spring }
}

/// An animated offset change (`setContentOffset(_:animated: true)`): `from` to `to` over `duration` on `timing`.
struct OffsetAnimationSimulation: AxisSimulation {
    let duration: Double
    let from: Double
    let to: Double
    let timing: TimingFunction

    func sample(at t: Double) -> AxisSample {
        if t >= duration { return AxisSample(position: to, velocity: 0, done: true) }
        let f = timing.value(at: t / duration)
        // Velocity by a small central difference of the curve: only needed when a finger catches the animation.
        let h = 1e-4
        let slope = (timing.value(at: Swift.min(1, t / duration + h))
                     - timing.value(at: Swift.max(0, t / duration - h))) / (2 * h)
        return AxisSample(position: from + (to - from) * f, velocity: (to - from) * slope / duration, done: false)
    }

    func kind(at t: Double) -> ScrollMotion { .animation }
}

/// One simulation until `time`, then another from there: momentum whose projection crosses an edge hands its
/// velocity at the crossing to the bounce spring (docs/reference.md §2).
struct HandOffSimulation<First: AxisSimulation, Second: AxisSimulation>: AxisSimulation {
    let first: First
    let time: Double
    let second: Second

    func sample(at t: Double) -> AxisSample {
        t >= time ? second.sample(at: t - time) : first.sample(at: t)
    }

    func kind(at t: Double) -> ScrollMotion {
        t >= time ? second.kind(at: t - time) : first.kind(at: t)
    }
}

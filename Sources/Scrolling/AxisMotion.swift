import Geometry
import Motion

/// One of the two scrolling axes; the physics is written once and runs on each.
public enum Axis: Sendable, CaseIterable {
    case horizontal
    case vertical
}

extension Point {
    subscript(axis: Axis) -> Double {
        get { axis == .horizontal ? x : y }
        set { if axis == .horizontal { x = newValue } else { y = newValue } }
    }
}

extension Size {
    subscript(axis: Axis) -> Double {
        axis == .horizontal ? width : height
    }
}

extension EdgeInsets {
    /// The inset before the content on an axis (left or top).
    func leading(_ axis: Axis) -> Double { axis == .horizontal ? left : top }
    /// The inset after the content on an axis (right or bottom).
    func trailing(_ axis: Axis) -> Double { axis == .horizontal ? right : bottom }

    func interpolated(to other: EdgeInsets, fraction f: Double) -> EdgeInsets {
        EdgeInsets(top: top + (other.top - top) * f, left: left + (other.left - left) * f,
                   bottom: bottom + (other.bottom - bottom) * f, right: right + (other.right - right) * f)
    }
}

/// What moves the content on one axis while no finger holds it, as a closed form of the time since it started:
/// any frame is exact, whatever frames came before.
enum AxisMotion {
    /// Nothing moves.
    case idle
    /// Momentum from `start` (seconds); it stops at `stopTime` after the start, or, when its projection crosses an
    /// edge, hands over at `handoff.time` to the bounce spring, which settles `handoff.settle` seconds later.
    /// `limit` holds the content inside the edges when bouncing is off.
    case decelerating(start: Double, decay: Decay, stopTime: Double,
                      handoff: (time: Double, spring: SpringMotion, settle: Double)?, limit: ClosedRange<Double>?)
    /// The bounce spring towards an edge, from `start`, settled `settle` seconds later.
    case bouncing(start: Double, spring: SpringMotion, settle: Double)
    /// An animated offset change (`setContentOffset(_:animated: true)`).
    case animating(start: Double, duration: Double, from: Double, to: Double, timing: TimingFunction)

    var isIdle: Bool {
        if case .idle = self { return true }
        return false
    }

    /// What kind of motion runs at `time`: momentum turns into the bounce spring at its hand-off.
    func kind(at time: Double) -> ScrollMotion {
        switch self {
        case .idle: return .none
        case let .decelerating(start, _, _, handoff, _):
            if let handoff, time - start >= handoff.time { return .spring }
            return .momentum
        case .bouncing: return .spring
        case .animating: return .animation
        }
    }

    /// Position and velocity at `time`, and whether the motion is over (the position is then final).
    func sample(at time: Double) -> (position: Double, velocity: Double, done: Bool)? {
        switch self {
        case .idle:
            return nil
        case let .decelerating(start, decay, stopTime, handoff, limit):
            let t = Swift.max(0, time - start)
            if let handoff, t >= handoff.time {
                let s = t - handoff.time
                if s >= handoff.settle { return (handoff.spring.target, 0, true) }
                return (handoff.spring.position(at: s), handoff.spring.velocity(at: s), false)
            }
            let done = t >= stopTime
            let tt = done ? stopTime : t
            var position = decay.position(at: tt)
            var velocity = done ? 0 : decay.velocity(at: tt)
            if let limit, !limit.contains(position) {
                position = Swift.min(Swift.max(position, limit.lowerBound), limit.upperBound)
                velocity = 0
            }
            return (position, velocity, done)
        case let .bouncing(start, spring, settle):
            let t = Swift.max(0, time - start)
            if t >= settle { return (spring.target, 0, true) }
            return (spring.position(at: t), spring.velocity(at: t), false)
        case let .animating(start, duration, from, to, timing):
            let t = Swift.max(0, time - start)
            if t >= duration { return (to, 0, true) }
            let f = timing.value(at: t / duration)
            // Velocity by a small central difference of the curve: only needed when a finger catches the animation.
            let h = 1e-4
            let slope = (timing.value(at: Swift.min(1, t / duration + h)) - timing.value(at: Swift.max(0, t / duration - h))) / (2 * h)
            return (from + (to - from) * f, (to - from) * slope / duration, false)
        }
    }
}

/// What moves the content without a finger, as a trace names it.
public enum ScrollMotion: String, Sendable {
    /// Nothing: the content rests or follows the finger.
    case none
    /// Momentum after a fling, decaying at the deceleration rate.
    case momentum
    /// The bounce spring, back to an edge.
    case spring
    /// An animated change of the offset or the inset.
    case animation
}

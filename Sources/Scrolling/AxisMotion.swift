import Geometry
import Motion

/// One of the two scrolling axes; the physics is written once and runs on each.
enum Axis: Sendable, CaseIterable {
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

/// What moves the content on one axis while no finger holds it: a simulation started at `start` (seconds on the
/// scroll view's clock), or nothing. Which simulations run after a release is the platform's physics' choice
/// (`PlatformPhysics.releaseSimulation`); a platform with other physics brings other simulations.
struct AxisMotion {
    let start: Double
    let simulation: (any AxisSimulation)?

    /// Nothing moves.
    static let idle = AxisMotion(start: 0, simulation: nil)

    init(start: Double, simulation: (any AxisSimulation)?) {
        self.start = start
        self.simulation = simulation
    }

    var isIdle: Bool { simulation == nil }

    /// What kind of motion runs at `time`.
    func kind(at time: Double) -> ScrollMotion { simulation?.kind(at: time - start) ?? .none }

    /// Position and velocity at `time`, and whether the motion is over (the position is then final); nil when idle.
    func sample(at time: Double) -> AxisSample? { simulation?.sample(at: Swift.max(0, time - start)) }
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

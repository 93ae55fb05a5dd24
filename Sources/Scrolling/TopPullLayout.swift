#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Motion

/// On Android, a refresh layout around the list that takes a pull past the top before the list's edge effect does
/// and moves the content down by it, as SmartRefreshLayout moves its content with its header (docs/reference.md §5,
/// "Who takes the pull"): the finger's travel past the top times the drag rate, damped towards `maxDistance`.
/// A header that floats over the list takes the pull with `ScrollView.holdsContentAtTop` instead.
public struct TopPullLayout: Equatable, Sendable {
    /// How far the content moves per point of the finger's travel before damping: 0.5 (SmartRefreshLayout's
    /// `mDragRate`, docs/reference.md §5).
    public static let smartDragRate = 0.5
    /// The farthest the content comes down, in header heights: 2.5 (SmartRefreshLayout's `mHeaderMaxDragRate`).
    public static let smartMaxDragRate = 2.5
    /// How long the content takes back to its top when released short: 300 ms (SmartRefreshLayout's
    /// `mReboundDuration`), along Android's viscous-fluid curve.
    public static let smartReboundDuration = 0.3

    public var dragRate: Double
    /// The distance the damped pull approaches, in points.
    public var maxDistance: Double
    /// Seconds a release short of a refresh takes back to the top.
    public var returnDuration: Double

    public init(dragRate: Double = smartDragRate, maxDistance: Double, returnDuration: Double = smartReboundDuration) {
        self.dragRate = dragRate
        self.maxDistance = maxDistance
        self.returnDuration = returnDuration
    }

    /// A layout for a header of `headerHeight` points, with SmartRefreshLayout's figures.
    public init(headerHeight: Double) {
        self.init(maxDistance: TopPullLayout.smartMaxDragRate * headerHeight)
    }

    /// How far the content sits below its top for a finger travel of `travel` points past it on a view `height`
    /// points tall: y = min(M·(1 − 100^(−x/H)), x) with x = travel × drag rate (SmartRefreshLayout's
    /// `moveSpinnerInfinitely`, H the view's height).
    public func distance(forTravel travel: Double, height: Double) -> Double {
        let x = Swift.max(0, travel * dragRate), h = Swift.max(height, 1)
        return Swift.min(maxDistance * (1 - pow(100, -x / h)), x)
    }

    /// How far the content moves per point of travel at `travel`: the damped curve's slope.
    public func slope(atTravel travel: Double, height: Double) -> Double {
        let x = Swift.max(0, travel * dragRate), h = Swift.max(height, 1)
        let curve = maxDistance * (1 - pow(100, -x / h))
        guard curve < x else { return dragRate }
        return dragRate * maxDistance * log(100) / h * pow(100, -x / h)
    }

    /// Android's viscous-fluid curve (Scroller's) at `t` in 0…1: what SmartRefreshLayout's rebounds and its second
    /// floor's slides run on (docs/reference.md §5, §10).
    public static func viscousFluid(at t: Double) -> Double { TimingFunction.viscousFluid.value(at: t) }

    /// The inverse of `distance(forTravel:height:)`: the travel that shows the content `distance` below its top
    /// (a touch catching content on its way back, an inset that moved under the finger).
    public func travel(forDistance distance: Double, height: Double) -> Double {
        guard distance > 0, dragRate > 0 else { return 0 }
        let h = Swift.max(height, 1)
        // Past the curve's asymptote the farthest travel the curve gives stands for it.
        let fraction = Swift.min(distance / Swift.max(maxDistance, 1e-9), 1 - 1e-9)
        let damped = -h * log(1 - fraction) / log(100)
        return Swift.max(damped, distance) / dragRate
    }
}

/// Content placed past an edge returning to it along Android's viscous-fluid curve (Scroller's
/// `ViscousFluidInterpolator`, which SmartRefreshLayout's rebound uses: docs/reference.md §5).
struct ViscousReturnSimulation: AxisSimulation {
    let duration: Double
    let from: Double
    let to: Double

    /// The curve at `t` in 0…1 (`TimingFunction.viscousFluid`).
    static func value(at t: Double) -> Double { TimingFunction.viscousFluid.value(at: t) }

    func sample(at t: Double) -> AxisSample {
        if t >= duration { return AxisSample(position: to, velocity: 0, done: true) }
        let f = t / duration, h = 1e-4
        let slope = (Self.value(at: f + h) - Self.value(at: f - h)) / (2 * h)
        return AxisSample(position: from + (to - from) * Self.value(at: f),
                          velocity: (to - from) * slope / duration, done: false)
    }

    func kind(at t: Double) -> ScrollMotion { .spring }
}

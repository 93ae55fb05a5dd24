#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A timing curve, as `CAMediaTimingFunction`: a cubic Bézier from (0, 0) to (1, 1) whose x is the fraction of time
/// elapsed and whose y is the fraction of the change applied. Android's decelerate and viscous-fluid curves, which no
/// cubic Bézier matches exactly, are the two other kinds (`decelerate(factor:)`, `viscousFluid`).
///
/// The curve's polynomial coefficients are computed once, so that evaluating a frame costs a few multiplications
/// and at most eight Newton steps.
public struct TimingFunction: Hashable, Sendable, CustomStringConvertible {
    /// The two inner control points; the outer ones are fixed at (0, 0) and (1, 1).
    public let x1: Double, y1: Double, x2: Double, y2: Double

    // Power-basis coefficients of x(s) = ((ax·s + bx)·s + cx)·s, and the same for y.
    private let ax: Double, bx: Double, cx: Double
    private let ay: Double, by: Double, cy: Double
    /// For Android's decelerate curve, the power 2·factor of 1 − (1 − t)^(2·factor); 0 for a Bézier.
    private let deceleratePower: Double
    /// Whether this is Android's viscous-fluid curve (`viscousFluid`).
    private let isViscousFluid: Bool

    /// A curve with control points (x1, y1) and (x2, y2), as `CAMediaTimingFunction(controlPoints:)`. The x values
    /// are clamped to 0…1 so that time never runs backwards; y may leave 0…1 (an overshooting curve).
    public init(controlPoints x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.init(x1, y1, x2, y2, deceleratePower: 0)
    }

    private init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, deceleratePower: Double,
                 isViscousFluid: Bool = false) {
        func unit(_ v: Double) -> Double { v.isFinite ? Swift.min(Swift.max(v, 0), 1) : 0 }
        func finite(_ v: Double) -> Double { v.isFinite ? v : 0 }
        self.x1 = unit(x1); self.y1 = finite(y1); self.x2 = unit(x2); self.y2 = finite(y2)
        cx = 3 * self.x1; bx = 3 * (self.x2 - self.x1) - cx; ax = 1 - cx - bx
        cy = 3 * self.y1; by = 3 * (self.y2 - self.y1) - cy; ay = 1 - cy - by
        self.deceleratePower = deceleratePower
        self.isViscousFluid = isViscousFluid
    }

    /// Android's viscous-fluid curve (`Scroller`'s `ViscousFluidInterpolator`): slow to start, then fast, then a long
    /// exponential settle. SmartRefreshLayout's rebounds and its second floor's slides run on it (docs/reference.md
    /// §5, §10).
    public static let viscousFluid = TimingFunction(0, 0, 1, 1, deceleratePower: 0, isViscousFluid: true)

    /// The curve's scale: 8 (`VISCOUS_FLUID_SCALE`).
    static let viscousScale = 8.0

    private static func viscousRaw(_ x: Double) -> Double {
        let s = x * viscousScale
        if s < 1 { return s - (1 - exp(-s)) }
        let start = exp(-1.0)
        return start + (1 - exp(1 - s)) * (1 - start)
    }

    /// The viscous-fluid curve at `t` in 0…1, normalised to end at 1 (`VISCOUS_FLUID_NORMALIZE`,
    /// `VISCOUS_FLUID_OFFSET`).
    static func viscousFluidValue(_ t: Double) -> Double {
        let normalize = 1 / viscousRaw(1)
        let v = normalize * viscousRaw(Swift.min(Swift.max(t, 0), 1))
        return v > 0 ? v + (1 - normalize * viscousRaw(1)) : v
    }

    /// Android's `DecelerateInterpolator(factor)`: 1 − (1 − t)^(2·factor), fast at first and slowing to a stop
    /// (docs/reference.md §1, floating headers: SwipeRefreshLayout animates its spinner with factor 2). A factor that
    /// is not a positive finite number gives the linear curve.
    public static func decelerate(factor: Double) -> TimingFunction {
        TimingFunction(0, 0, 1, 1, deceleratePower: factor.isFinite && factor > 0 ? 2 * factor : 0)
    }

    /// The factor of Android's decelerate curve, or nil for a Bézier curve: a style file writes it back as it read it.
    public var decelerateFactor: Double? { deceleratePower > 0 ? deceleratePower / 2 : nil }

    /// Constant speed: (0, 0)(1, 1) (docs/reference.md §3).
    public static let linear = TimingFunction(controlPoints: 0, 0, 1, 1)
    /// Starts slowly: (0.42, 0)(1, 1) (docs/reference.md §3, `kCAMediaTimingFunctionEaseIn`).
    public static let easeIn = TimingFunction(controlPoints: 0.42, 0, 1, 1)
    /// Ends slowly: (0, 0)(0.58, 1) (docs/reference.md §3, `kCAMediaTimingFunctionEaseOut`).
    public static let easeOut = TimingFunction(controlPoints: 0, 0, 0.58, 1)
    /// Starts and ends slowly: (0.42, 0)(0.58, 1) (docs/reference.md §3, `kCAMediaTimingFunctionEaseInEaseOut`).
    public static let easeInEaseOut = TimingFunction(controlPoints: 0.42, 0, 0.58, 1)
    /// Core Animation's default curve: (0.25, 0.1)(0.25, 1) (docs/reference.md §3, `kCAMediaTimingFunctionDefault`).
    public static let `default` = TimingFunction(controlPoints: 0.25, 0.1, 0.25, 1)
    /// Material's fast-out-slow-in: (0.4, 0)(0.2, 1) (docs/reference.md §1, the indeterminate ring).
    public static let fastOutSlowIn = TimingFunction(controlPoints: 0.4, 0, 0.2, 1)

    /// How close x(s) must come to the requested time (docs/reference.md §3 asks for about 1e-6); 1e-9 keeps y within
    /// 1e-6 of the ideal curve wherever its slope dy/dx is below 1000, and Newton reaches it in a step or two more.
    static let solveTolerance = 1e-9
    /// Newton steps before falling back to bisection (docs/reference.md §3: at most 8).
    static let maxNewtonSteps = 8

    public var description: String {
        if isViscousFluid { return "viscous-fluid" }
        return deceleratePower > 0 ? "decelerate(\(deceleratePower / 2))" : "cubic-bezier(\(x1), \(y1), \(x2), \(y2))"
    }

    public static func == (a: TimingFunction, b: TimingFunction) -> Bool {
        a.x1 == b.x1 && a.y1 == b.y1 && a.x2 == b.x2 && a.y2 == b.y2 && a.deceleratePower == b.deceleratePower
            && a.isViscousFluid == b.isViscousFluid
    }

    public func hash(into h: inout Hasher) {
        h.combine(x1); h.combine(y1); h.combine(x2); h.combine(y2); h.combine(deceleratePower); h.combine(isViscousFluid)
    }

    /// The curve's x at parameter s.
    @inline(__always) func curveX(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
    /// The curve's y at parameter s.
    @inline(__always) func curveY(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
    @inline(__always) func slopeX(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }

    /// The fraction of the change applied when `time` (0…1) of the duration has elapsed; times outside 0…1 are clamped.
    public func value(at time: Double) -> Double {
        guard time > 0 else { return 0 }
        guard time < 1 else { return 1 }
        if deceleratePower > 0 { return 1 - pow(1 - time, deceleratePower) }
        if isViscousFluid { return TimingFunction.viscousFluidValue(time) }
        if x1 == y1 && x2 == y2 { return time }  // the control points lie on the diagonal: the identity
        return curveY(parameter(forX: time))
    }

    /// The Bézier parameter s whose x(s) is `x`: Newton from s = x, then bisection when Newton stalls on a flat
    /// slope or leaves 0…1 (x(s) is monotonic because the control x values lie in 0…1).
    func parameter(forX x: Double) -> Double {
        var s = x
        for _ in 0..<TimingFunction.maxNewtonSteps {
            let error = curveX(s) - x
            if abs(error) < TimingFunction.solveTolerance { return s }
            let slope = slopeX(s)
            if abs(slope) < 1e-6 { break }
            s -= error / slope
            if !(s >= 0 && s <= 1) { break }
        }
        var lo = 0.0, hi = 1.0
        s = x
        while hi - lo > 1e-12 {
            let value = curveX(s)
            if abs(value - x) < TimingFunction.solveTolerance { return s }
            if value < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return s
    }
}

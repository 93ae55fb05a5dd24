import Geometry

/// Android's release velocity: VelocityTracker's default strategy, LSQ2 (docs/reference.md §5).
///
/// It keeps the last `capacity` (20) samples no older than the horizon (100 ms) before the newest, and fits each
/// axis's positions with a polynomial of degree 2 in x = −(age of the sample), unweighted, by least squares; the
/// velocity is the fit's slope at the newest sample (the x coefficient). With two samples the fit is a line, with one
/// there is no velocity. A pause longer than 40 ms between samples forgets the ones before it, and a lift more than
/// 40 ms after the last sample leaves with no velocity. The samples live in a fixed ring: adding never allocates.
/// As a `VelocityEstimator` it takes the finger's own time and caps each axis at the physics' maximum fling velocity.
struct LeastSquaresVelocity: VelocityEstimator {
    static let capacity = 20
    /// `ASSUME_POINTER_STOPPED_TIME`, seconds.
    static let assumeStoppedTime = 0.040

    private var times = [Double](repeating: 0, count: capacity)
    private var xs = [Double](repeating: 0, count: capacity)
    private var ys = [Double](repeating: 0, count: capacity)
    /// The oldest sample's slot and the number of samples.
    private var head = 0
    private(set) var count = 0

    var lastTime: Double? { count > 0 ? times[slot(count - 1)] : nil }

    mutating func removeAll() { head = 0; count = 0 }

    /// A sample at `time` (seconds of the finger's own time); `horizon` in seconds.
    mutating func add(_ location: Point, time: Double, horizon: Double) {
        if let last = lastTime {
            if time - last > Self.assumeStoppedTime { removeAll() } else if time == last { count -= 1 }
        }
        if count == Self.capacity { head = (head + 1) % Self.capacity; count -= 1 }
        let i = slot(count)
        times[i] = time; xs[i] = location.x; ys[i] = location.y
        count += 1
        while count > 1 && time - times[head] > horizon { head = (head + 1) % Self.capacity; count -= 1 }
    }

    /// The velocity in points per second (per axis), or zero without a fit.
    var velocity: Point {
        Point(fit(xs), fit(ys))
    }

    mutating func add(_ location: Point, time: Double, clockRate: Double, physics: PhysicsStyle) {
        add(location, time: time / clockRate, horizon: physics.androidVelocityHorizon)
    }

    /// The fit's velocity, each axis capped at `androidMaxFlingVelocity`.
    func velocity(clockRate: Double, physics: PhysicsStyle) -> Point {
        let v = velocity, cap = physics.androidMaxFlingVelocity
        return Point(Swift.min(Swift.max(v.x, -cap), cap), Swift.min(Swift.max(v.y, -cap), cap))
    }

    /// None once the finger has rested more than 40 ms (`ASSUME_POINTER_STOPPED_TIME`), else the fit's.
    func releaseVelocity(at time: Double, clockRate: Double, physics: PhysicsStyle) -> Point {
        if let last = lastTime, time / clockRate - last > Self.assumeStoppedTime { return .zero }
        return velocity(clockRate: clockRate, physics: physics)
    }

    private func slot(_ i: Int) -> Int { (head + i) % Self.capacity }

    /// The slope at the newest sample of the least-squares polynomial through the samples of one axis.
    private func fit(_ positions: [Double]) -> Double {
        guard count >= 2 else { return 0 }
        let newest = times[slot(count - 1)]
        var sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0, sxxx = 0.0, sxxy = 0.0, sxxxx = 0.0
        for i in 0..<count {
            let x = times[slot(i)] - newest, y = positions[slot(i)]
            sx += x; sy += y; sxx += x * x; sxy += x * y
            sxxx += x * x * x; sxxy += x * x * y; sxxxx += x * x * x * x
        }
        let n = Double(count)
        // Centred sums: Sxx, Sxy, S(x,x²), S(x²,y), S(x²,x²).
        let cxx = sxx - sx * sx / n, cxy = sxy - sx * sy / n
        if count == 2 { return cxx != 0 ? cxy / cxx : 0 }
        let cxx2 = sxxx - sx * sxx / n, cx2y = sxxy - sxx * sy / n, cx2x2 = sxxxx - sxx * sxx / n
        let denominator = cxx * cx2x2 - cxx2 * cxx2
        guard denominator != 0 else { return 0 }
        return (cxy * cx2x2 - cx2y * cxx2) / denominator
    }
}

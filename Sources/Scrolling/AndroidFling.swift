#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The curve of Android's fling, as `OverScroller`'s `SplineOverScroller` builds it (docs/reference.md §5).
///
/// Two tables of 101 samples: the distance covered (fraction of the whole) at each hundredth of the duration, and its
/// inverse, the time fraction at each hundredth of the distance. Both come from one cubic in a parameter u,
/// time(u) = 3u(1 − u)((1 − u)·P1 + u·P2) + u³ and distance(u) = 3u(1 − u)((1 − u)·START_TENSION + u) + u³: for each
/// target the parameter is found by bisection to 1e-5, the lower end of the bracket carried over from the previous
/// sample, in single precision as OverScroller does, so the tables are its tables value for value.
enum FlingSpline {
    static let inflexion: Float = 0.35
    static let startTension: Float = 0.5
    static let endTension: Float = 1
    static let p1 = startTension * inflexion
    static let p2 = 1 - endTension * (1 - inflexion)
    static let samples = 100
    /// ln 0.78 / ln 0.9 ≈ 2.358, the exponent of the fling's deceleration; a float in OverScroller.
    static let decelerationRate = Double(Float(log(0.78) / log(0.9)))

    /// SPLINE_POSITION and SPLINE_TIME.
    static let tables: (position: [Double], time: [Double]) = build()

    private static func build() -> (position: [Double], time: [Double]) {
        var position = [Double](repeating: 1, count: samples + 1)
        var time = [Double](repeating: 1, count: samples + 1)
        func timeCurve(_ u: Float) -> Float { 3 * u * (1 - u) * ((1 - u) * p1 + u * p2) + u * u * u }
        func distanceCurve(_ u: Float) -> Float { 3 * u * (1 - u) * ((1 - u) * startTension + u) + u * u * u }
        /// The parameter where `curve` reaches `target`, bisecting from `low` (moved up as the bracket closes).
        func solve(_ curve: (Float) -> Float, _ target: Float, from low: inout Float) -> Float {
            var high: Float = 1
            while true {
                let u = low + (high - low) / 2
                let value = curve(u)
                if abs(value - target) < 1e-5 { return u }
                if value > target { high = u } else { low = u }
            }
        }
        var lowX: Float = 0, lowY: Float = 0
        for i in 0..<samples {
            let alpha = Float(i) / Float(samples)
            position[i] = Double(distanceCurve(solve(timeCurve, alpha, from: &lowX)))
            time[i] = Double(timeCurve(solve(distanceCurve, alpha, from: &lowY)))
        }
        return (position, time)
    }

    /// A table's value at `fraction` (0…1), linear between samples, with its slope there.
    static func interpolate(_ table: [Double], at fraction: Double) -> (value: Double, slope: Double) {
        let index = Int(Double(samples) * fraction)
        guard index >= 0 else { return (0, 0) }
        guard index < samples else { return (1, 0) }
        let low = Double(index) / Double(samples), high = Double(index + 1) / Double(samples)
        let slope = (table[index + 1] - table[index]) / (high - low)
        return (table[index] + (fraction - low) * slope, slope)
    }
}

/// OverScroller's fling in closed form: distance and duration from the release velocity, and the motion along the
/// spline table (docs/reference.md §5). Velocities and distances are in points (dp) here and converted to the
/// phone's pixels with `density` where OverScroller counts whole pixels and milliseconds.
struct AndroidFling {
    /// `ViewConfiguration.getScrollFriction()`.
    var friction: Double
    /// Pixels per dp (2, 2.625, 3, …).
    var density: Double

    /// Earth's gravity 9.80665 m/s² × 39.37 in/m × the screen's pixels per inch (density·160) × 0.84: pixels/s².
    var physicalCoefficient: Double { 9.80665 * 39.37 * (density * 160) * 0.84 }

    /// ln(INFLEXION·|v| / (friction·coefficient)), v in px/s.
    private func splineDeceleration(_ pixelVelocity: Double) -> Double {
        log(Double(FlingSpline.inflexion) * abs(pixelVelocity) / (friction * physicalCoefficient))
    }

    /// The distance, in pixels, a fling at `pixelVelocity` px/s covers: friction·coefficient·e^(D/(D − 1)·l).
    func splineFlingDistance(pixelVelocity: Double) -> Double {
        let d = FlingSpline.decelerationRate
        return friction * physicalCoefficient * exp(d / (d - 1) * splineDeceleration(pixelVelocity))
    }

    /// How long the fling lasts, in milliseconds: 1000·e^(l/(D − 1)).
    func splineFlingDuration(pixelVelocity: Double) -> Double {
        1000 * exp(splineDeceleration(pixelVelocity) / (FlingSpline.decelerationRate - 1))
    }

    /// The fling from `start` at `velocity` (points, points/s), kept inside `limit`: where its path would pass an
    /// edge it ends there, at the time the time table gives for that fraction of the distance (OverScroller's
    /// `adjustDuration`). OverScroller takes whole px/s, whole pixels of distance and whole milliseconds.
    func simulation(start: Double, velocity: Double, limit: ClosedRange<Double>) -> SplineFlingSimulation {
        let pixelVelocity = (velocity * density).rounded(.towardZero)
        guard pixelVelocity != 0 else {
            return SplineFlingSimulation(start: start, distance: 0, splineDuration: 0, duration: 0, final: start)
        }
        let durationMs = splineFlingDuration(pixelVelocity: pixelVelocity).rounded(.towardZero)
        let pixels = splineFlingDistance(pixelVelocity: pixelVelocity).rounded(.towardZero)
        let distance = (pixelVelocity < 0 ? -pixels : pixels) / density
        var final = start + distance
        var clampedMs = durationMs
        if final < limit.lowerBound || final > limit.upperBound {
            let edge = final < limit.lowerBound ? limit.lowerBound : limit.upperBound
            let fraction = distance == 0 ? 0 : abs((edge - start) / distance)
            if fraction < 1 {
                clampedMs = (durationMs * FlingSpline.interpolate(FlingSpline.tables.time, at: fraction).value)
                    .rounded(.towardZero)
            }
            final = edge
        }
        return SplineFlingSimulation(start: start, distance: distance, splineDuration: durationMs / 1000,
                                     duration: clampedMs / 1000, final: final)
    }
}

/// A fling along OverScroller's spline: position start + distance·SPLINE_POSITION(t/splineDuration), over at
/// `duration` (shorter than the spline's when an edge cut it), where it rests at `final`.
struct SplineFlingSimulation: AxisSimulation {
    let start: Double
    /// Signed, in points.
    let distance: Double
    /// Seconds.
    let splineDuration: Double
    let duration: Double
    let final: Double

    /// Whether an edge stopped the fling before its spline ended.
    var reachesEdge: Bool { duration < splineDuration }

    /// Where an edge stopped the fling: at its end, at the edge, with the spline's velocity there.
    var edgeImpact: EdgeImpact? {
        reachesEdge ? EdgeImpact(time: duration, position: final, velocity: velocity(at: duration)) : nil
    }

    func sample(at t: Double) -> AxisSample {
        if t >= duration || splineDuration <= 0 { return AxisSample(position: final, velocity: 0, done: true) }
        // At its start OverScroller reports where it starts (the table's first sample is a hair above 0).
        if t <= 0 { return AxisSample(position: start, velocity: velocity(at: 0), done: false) }
        let point = FlingSpline.interpolate(FlingSpline.tables.position, at: t / splineDuration)
        return AxisSample(position: start + point.value * distance, velocity: velocity(at: t), done: false)
    }

    /// The spline's velocity at `t`, also at the time an edge stops it (the velocity it meets the edge with).
    func velocity(at t: Double) -> Double {
        guard splineDuration > 0 else { return 0 }
        return FlingSpline.interpolate(FlingSpline.tables.position, at: t / splineDuration).slope * distance
            / splineDuration
    }

    func kind(at t: Double) -> ScrollMotion { .momentum }
}

/// OverScroller's `springBack`: from past an edge back to it along 3t² − 2t³ over 1000·√(2·distance/GRAVITY) ms,
/// the distance in pixels and GRAVITY 2000 px/s² (docs/reference.md §5).
struct CubicSpringBackSimulation: AxisSimulation {
    static let gravity = 2000.0
    let from: Double
    let to: Double
    let duration: Double

    init(from: Double, to: Double, density: Double) {
        self.from = from
        self.to = to
        let pixels = abs(from - to) * density
        duration = (1000 * (2 * pixels / Self.gravity).squareRoot()).rounded(.towardZero) / 1000
    }

    func sample(at t: Double) -> AxisSample {
        if t >= duration { return AxisSample(position: to, velocity: 0, done: true) }
        let u = t / duration
        return AxisSample(position: from + (to - from) * (3 * u * u - 2 * u * u * u),
                          velocity: (to - from) * 6 * (u - u * u) / duration, done: false)
    }

    func kind(at t: Double) -> ScrollMotion { .spring }
}

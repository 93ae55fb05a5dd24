import Geometry

/// Follows one finger from timestamped samples: its translation since it went down and the velocity it leaves with.
///
/// The release velocity is iOS's: a weighted mean of the last three sample-pair velocities,
/// v = 0.6·v₋₂ + 0.35·v₋₁ + 0.05·v₀ (v₀ the newest pair), over samples no older than 100 ms, capped at 8000 pt/s
/// (docs/reference.md §2). Only the last four samples matter, so the tracker keeps four and never allocates.
/// On Android the release velocity is VelocityTracker's least-squares fit instead (`LeastSquaresVelocity`,
/// docs/reference.md §5), each axis capped at the physics' maximum fling velocity.
public struct PanTracker: Sendable {

    /// Where the finger went down.
    private(set) var startLocation = Point.zero
    /// Where the finger is now.
    public private(set) var location = Point.zero

    // The last four samples, oldest first; `count` of them are valid.
    private var times: (Double, Double, Double, Double) = (0, 0, 0, 0)
    private var points: (Point, Point, Point, Point) = (.zero, .zero, .zero, .zero)
    private var count = 0

    /// Seconds of the stamping clock per second of the finger's time (a slowed clock runs below 1); the velocity,
    /// its 100 ms window and its cap are all in the finger's time.
    var clockRate = 1.0
    /// The window, weights and cap of the release velocity (docs/reference.md §2 by default).
    public var physics = PhysicsStyle()
    /// Whose release velocity: iOS's weighted pairs or Android's least squares.
    public var platform = Platform.ios {
        didSet { if platform != oldValue { leastSquares = platform == .android ? LeastSquaresVelocity() : nil } }
    }
    /// Android's samples, only kept on Android.
    private var leastSquares: LeastSquaresVelocity?

    public init() {}

    /// The finger went down at `location` at `time` (seconds).
    public mutating func begin(at location: Point, time: Double) {
        startLocation = location
        self.location = location
        count = 0
        leastSquares?.removeAll()
        add(location, time: time)
    }

    /// A new sample. A sample with the same time as the last (the event clock's resolution) replaces it; one from
    /// the past is ignored, so velocities never divide by a zero or negative interval.
    public mutating func add(_ location: Point, time: Double) {
        guard time.isFinite, location.isFinite else { return }
        if leastSquares != nil, count == 0 || time >= sample(count - 1).time {
            let fingerTime = time / fingerRate, horizon = physics.androidVelocityHorizon
            leastSquares?.add(location, time: fingerTime, horizon: horizon)
        }
        if count > 0 {
            let last = sample(count - 1)
            if time < last.time { return }
            if time == last.time {
                set(count - 1, time: time, location: location)
                self.location = location
                return
            }
        }
        if count == 4 {
            times = (times.1, times.2, times.3, 0)
            points = (points.1, points.2, points.3, .zero)
            count = 3
        }
        set(count, time: time, location: location)
        count += 1
        self.location = location
    }

    /// How far the finger has moved since it went down.
    public var translation: Point { location - startLocation }

    /// The release velocity in points per second, capped at `physics.maxVelocity` (its direction kept); zero when fewer
    /// than two samples lie within `physics.velocityWindow` of the newest.
    public var velocity: Point {
        if let leastSquares {
            let v = leastSquares.velocity, cap = physics.androidMaxFlingVelocity
            return Point(Swift.min(Swift.max(v.x, -cap), cap), Swift.min(Swift.max(v.y, -cap), cap))
        }
        guard count >= 2 else { return .zero }
        let newestTime = sample(count - 1).time
        var first = count - 1
        let rate = fingerRate
        while first > 0 && (newestTime - sample(first - 1).time) / rate <= physics.velocityWindow { first -= 1 }
        let pairs = count - 1 - first
        guard pairs > 0 else { return .zero }
        func pairVelocity(_ i: Int) -> Point {
            let a = sample(i - 1), b = sample(i)
            return (b.location - a.location) / ((b.time - a.time) / rate)
        }
        let w = (oldest: physics.velocityWeightOldest, middle: physics.velocityWeightMiddle,
                 newest: physics.velocityWeightNewest)
        let v: Point
        switch pairs {
        case 1:
            v = pairVelocity(count - 1)
        case 2:
            // Two pairs take the weights of the two newest positions, scaled to sum to 1.
            let sum = w.middle + w.newest
            v = sum > 0 ? (pairVelocity(count - 2) * w.middle + pairVelocity(count - 1) * w.newest) / sum : .zero
        default:
            v = pairVelocity(count - 3) * w.oldest + pairVelocity(count - 2) * w.middle + pairVelocity(count - 1) * w.newest
        }
        let speed = v.length
        guard speed.isFinite else { return .zero }
        return speed > physics.maxVelocity ? v * (physics.maxVelocity / speed) : v
    }

    /// The velocity the finger leaves with when it lifts at `time` without moving since its last sample: on Android
    /// none once it has rested more than 40 ms (`ASSUME_POINTER_STOPPED_TIME`), else `velocity`.
    public func releaseVelocity(at time: Double) -> Point {
        if let last = leastSquares?.lastTime, time / fingerRate - last > LeastSquaresVelocity.assumeStoppedTime {
            return .zero
        }
        return velocity
    }

    private var fingerRate: Double { clockRate > 0 && clockRate.isFinite ? clockRate : 1 }

    private func sample(_ i: Int) -> (time: Double, location: Point) {
        switch i {
        case 0: return (times.0, points.0)
        case 1: return (times.1, points.1)
        case 2: return (times.2, points.2)
        default: return (times.3, points.3)
        }
    }

    private mutating func set(_ i: Int, time: Double, location: Point) {
        switch i {
        case 0: times.0 = time; points.0 = location
        case 1: times.1 = time; points.1 = location
        case 2: times.2 = time; points.2 = location
        default: times.3 = time; points.3 = location
        }
    }
}

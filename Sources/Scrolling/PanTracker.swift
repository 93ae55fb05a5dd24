import Geometry

/// Follows one finger from timestamped samples: its translation since it went down and the velocity it leaves with.
///
/// Samples arrive in time order: one with the same time as the last (the event clock's resolution) replaces it, one
/// from the past is ignored, so velocities never divide by a zero or negative interval. The release velocity is the
/// platform's estimate (`VelocityEstimator`): iOS's weighted sample pairs by default, Android's least squares when a
/// scroll view's physics give it theirs.
public struct PanTracker: Sendable {

    /// Where the finger went down.
    private(set) var startLocation = Point.zero
    /// Where the finger is now.
    public private(set) var location = Point.zero
    /// The time of the newest sample, on the stamping clock; nil before the first.
    private var lastTime: Double?

    /// Seconds of the stamping clock per second of the finger's time (a slowed clock runs below 1); the velocity,
    /// its window and its cap are all in the finger's time.
    var clockRate = 1.0
    /// The window, weights and cap of the release velocity (docs/reference.md §2 and §5 by default).
    public var physics = PhysicsStyle()
    /// How the release velocity is estimated from the samples; a new estimator starts empty.
    var estimator: any VelocityEstimator

    public init() { self.init(estimator: WeightedPairsVelocity()) }

    init(estimator: any VelocityEstimator) { self.estimator = estimator }

    /// The finger went down at `location` at `time` (seconds).
    public mutating func begin(at location: Point, time: Double) {
        startLocation = location
        self.location = location
        lastTime = nil
        estimator.removeAll()
        add(location, time: time)
    }

    /// A new sample at `time` (seconds of the stamping clock).
    public mutating func add(_ location: Point, time: Double) {
        guard time.isFinite, location.isFinite else { return }
        if let lastTime, time < lastTime { return }
        estimator.add(location, time: time, clockRate: fingerRate, physics: physics)
        lastTime = time
        self.location = location
    }

    /// How far the finger has moved since it went down.
    public var translation: Point { location - startLocation }

    /// The finger's velocity now, in points per second of its own time.
    public var velocity: Point { estimator.velocity(clockRate: fingerRate, physics: physics) }

    /// The velocity the finger leaves with when it lifts at `time` without moving since its last sample.
    public func releaseVelocity(at time: Double) -> Point {
        estimator.releaseVelocity(at: time, clockRate: fingerRate, physics: physics)
    }

    private var fingerRate: Double { clockRate > 0 && clockRate.isFinite ? clockRate : 1 }
}

/// A platform's estimate of a finger's velocity from its samples, which a `PanTracker` gives it in time order (a
/// sample at the last one's time replaces it). It keeps a fixed number of samples and never allocates once made.
protocol VelocityEstimator: Sendable {
    /// Forgets every sample: a new finger.
    mutating func removeAll()
    /// A sample at `time` on the stamping clock, which runs `clockRate` times the finger's time.
    mutating func add(_ location: Point, time: Double, clockRate: Double, physics: PhysicsStyle)
    /// The finger's velocity at its newest sample, in points per second of its own time.
    func velocity(clockRate: Double, physics: PhysicsStyle) -> Point
    /// The velocity the finger leaves with when it lifts at `time` (stamping clock) without moving since its last
    /// sample.
    func releaseVelocity(at time: Double, clockRate: Double, physics: PhysicsStyle) -> Point
}

/// iOS's release velocity: a weighted mean of the last three sample-pair velocities,
/// v = 0.6·v₋₂ + 0.35·v₋₁ + 0.05·v₀ (v₀ the newest pair), over samples no older than 100 ms, capped at 8000 pt/s
/// (docs/reference.md §2). Only the last four samples matter, so it keeps four.
struct WeightedPairsVelocity: VelocityEstimator {
    // The last four samples, oldest first; `count` of them are valid. Times are the stamping clock's.
    private var times: (Double, Double, Double, Double) = (0, 0, 0, 0)
    private var points: (Point, Point, Point, Point) = (.zero, .zero, .zero, .zero)
    private var count = 0

    mutating func removeAll() { count = 0 }

    mutating func add(_ location: Point, time: Double, clockRate: Double, physics: PhysicsStyle) {
        if count > 0 && time == sample(count - 1).time {
            set(count - 1, time: time, location: location)
            return
        }
        if count == 4 {
            times = (times.1, times.2, times.3, 0)
            points = (points.1, points.2, points.3, .zero)
            count = 3
        }
        set(count, time: time, location: location)
        count += 1
    }

    /// Capped at `physics.maxVelocity` (its direction kept); zero when fewer than two samples lie within
    /// `physics.velocityWindow` of the newest.
    func velocity(clockRate rate: Double, physics: PhysicsStyle) -> Point {
        guard count >= 2 else { return .zero }
        let newestTime = sample(count - 1).time
        var first = count - 1
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

    /// The velocity as it stands: iOS keeps it however long the finger rested.
    func releaseVelocity(at time: Double, clockRate: Double, physics: PhysicsStyle) -> Point {
        velocity(clockRate: clockRate, physics: physics)
    }

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

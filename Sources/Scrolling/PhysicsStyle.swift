import Motion
import Styles

/// The scroll physics as one value: decay, rubber band, bounce, release velocity and the view's own timings, and
/// the tunable figures of Android's (fling friction, touch slop, fling velocities, the velocity's horizon, the
/// stretch's spring), which `AndroidPhysics` uses.
///
/// The defaults are docs/reference.md §2's (§5's for Android), held here and nowhere else (the deceleration rates are
/// UIKit's named `DecelerationRate`s); the scroll view, its platform's physics, the pan tracker and the rubber band
/// read them from the style they are given, and a style file's "physics" section overrides any of them.
public struct PhysicsStyle: StyleValue {
    var normalDecelerationRate = DecelerationRate.normal.rawValue
    var fastDecelerationRate = DecelerationRate.fast.rawValue
    /// c, the band's stiffness: how much of the finger's motion the content follows at the edge (docs/reference.md §2).
    var rubberBandCoefficient = 0.55
    /// The bounce: mass 1, stiffness 100, damping ratio 1, critically damped (docs/reference.md §2).
    public var bounceMass = 1.0
    public var bounceStiffness = 100.0
    var bounceDampingRatio = 1.0
    /// The bounce stops within this many pixels of its edge: 0.5/scale pt (docs/reference.md §2).
    var bounceRestPixels = 0.5
    /// Weights of the oldest, middle and newest of the last three sample-pair velocities (docs/reference.md §2).
    var velocityWeightOldest = 0.6
    var velocityWeightMiddle = 0.35
    var velocityWeightNewest = 0.05
    /// Samples older than this, before the newest, do not count towards the velocity: 100 ms (docs/reference.md §2).
    var velocityWindow = 0.1
    /// The fastest release velocity, in points per second (docs/reference.md §2).
    var maxVelocity = 8000.0
    /// Below this speed, in points per second, a release is not a fling (docs/reference.md §2).
    var minFlingVelocity = 100.0
    /// `setContentOffset(_:animated: true)` takes 0.3 s on an ease-in-ease-out curve. UIKit does not document its
    /// duration or curve; this is an assumption, not a measurement.
    var contentOffsetAnimationDuration = 0.3
    /// A wheel gesture ends, and an overscroll it made snaps back, this long after its last event. Not from
    /// docs/reference.md: a pause between notches longer than a frame or two means the hand has left the wheel.
    var wheelEndDelay = 0.1

    // Android (docs/reference.md §5); lengths in dp, which are the scroll view's points.
    /// `ViewConfiguration.getScrollFriction()`: the fling's friction in OverScroller's spline.
    var androidScrollFriction = 0.015
    /// `TOUCH_SLOP`: how far the finger moves before the list follows it, dp.
    var androidTouchSlop = 8.0
    /// `MINIMUM_FLING_VELOCITY` and `MAXIMUM_FLING_VELOCITY`, dp/s.
    var androidMinFlingVelocity = 50.0
    var androidMaxFlingVelocity = 8000.0
    /// VelocityTracker's horizon: samples older than this before the newest are forgotten, 100 ms.
    var androidVelocityHorizon = 0.1
    /// EdgeEffect's stretch spring: `NATURAL_FREQUENCY` (rad/s) and `DAMPING_RATIO`.
    var androidStretchFrequency = 24.657
    var androidStretchDampingRatio = 0.98
    /// `ON_ABSORB_VELOCITY_ADJUSTMENT`: a fling meeting the edge starts the stretch at its velocity times this.
    var androidAbsorbVelocityFactor = 13.0

    public init() {}

    /// The bounce as a spring: c = ζ·2·√(k·m).
    var bounceSpring: Spring {
        Spring(mass: bounceMass, stiffness: bounceStiffness,
               damping: bounceDampingRatio * 2 * (bounceStiffness * bounceMass).squareRoot())
    }

    /// The rate a scroll view set to `rate` decelerates at: the style's for `.normal` and `.fast`, any other as set.
    func deceleration(for rate: DecelerationRate) -> DecelerationRate {
        if rate == .normal { return DecelerationRate(rawValue: normalDecelerationRate) }
        if rate == .fast { return DecelerationRate(rawValue: fastDecelerationRate) }
        return rate
    }

    public static var fields: [StyleField<PhysicsStyle>] {
        [
            .number("normalDecelerationRate", \.normalDecelerationRate, "per ms", 0.9...0.99999,
                    "fraction of a fling's velocity kept each millisecond (UIScrollView.DecelerationRate.normal)"),
            .number("fastDecelerationRate", \.fastDecelerationRate, "per ms", 0.9...0.99999,
                    "the same for a scroll view set to decelerate fast (UIScrollView.DecelerationRate.fast)"),
            .number("rubberBandCoefficient", \.rubberBandCoefficient, "", 0.01...1,
                    "c of the rubber band f(x) = (1 − 1/(x·c/d + 1))·d: the share of the finger's motion the content follows at the edge"),
            .number("bounceMass", \.bounceMass, "", 0.01...100, "mass of the spring that bounces the content back to an edge"),
            .number("bounceStiffness", \.bounceStiffness, "1/s²", 1...10000, "stiffness k of the bounce spring"),
            .number("bounceDampingRatio", \.bounceDampingRatio, "", 0.05...10,
                    "damping ratio ζ of the bounce spring: 1 returns without overshoot, below 1 it oscillates"),
            .number("bounceRestPixels", \.bounceRestPixels, "px", 0.01...10,
                    "the bounce ends when it is this close to the edge"),
            .number("velocityWeightOldest", \.velocityWeightOldest, "", 0...1,
                    "weight of the oldest of the last three sample-pair velocities in the release velocity"),
            .number("velocityWeightMiddle", \.velocityWeightMiddle, "", 0...1,
                    "weight of the middle sample-pair velocity in the release velocity"),
            .number("velocityWeightNewest", \.velocityWeightNewest, "", 0...1,
                    "weight of the newest sample-pair velocity in the release velocity"),
            .number("velocityWindow", \.velocityWindow, "s", 0.001...1,
                    "samples older than this before the newest do not count towards the release velocity"),
            .number("maxVelocity", \.maxVelocity, "pt/s", 1...100_000, "the fastest release velocity"),
            .number("minFlingVelocity", \.minFlingVelocity, "pt/s", 0...100_000,
                    "a release slower than this does not fling"),
            .number("contentOffsetAnimationDuration", \.contentOffsetAnimationDuration, "s", 0...10,
                    "how long setContentOffset(_:animated: true) takes"),
            .number("wheelEndDelay", \.wheelEndDelay, "s", 0.01...2,
                    "a wheel gesture ends, and its overscroll snaps back, this long after its last event"),
            .number("androidScrollFriction", \.androidScrollFriction, "", 0.001...1,
                    "Android: the fling's friction in OverScroller's spline (ViewConfiguration.getScrollFriction)"),
            .number("androidTouchSlop", \.androidTouchSlop, "dp", 0...100,
                    "Android: how far the finger moves before the list follows it"),
            .number("androidMinFlingVelocity", \.androidMinFlingVelocity, "dp/s", 0...100_000,
                    "Android: a release slower than this does not fling"),
            .number("androidMaxFlingVelocity", \.androidMaxFlingVelocity, "dp/s", 1...100_000,
                    "Android: the fastest release velocity, on each axis"),
            .number("androidVelocityHorizon", \.androidVelocityHorizon, "s", 0.001...1,
                    "Android: samples older than this before the newest do not count towards the release velocity"),
            .number("androidStretchFrequency", \.androidStretchFrequency, "rad/s", 0.1...1000,
                    "Android: natural frequency of the spring the stretch returns with"),
            .number("androidStretchDampingRatio", \.androidStretchDampingRatio, "", 0.01...0.999,
                    "Android: damping ratio of the stretch's spring (under 1)"),
            .number("androidAbsorbVelocityFactor", \.androidAbsorbVelocityFactor, "", 0...100,
                    "Android: a fling meeting the edge starts the stretch at its velocity times this"),
        ]
    }
}

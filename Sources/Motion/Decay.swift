#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How quickly momentum fades, as `UIScrollView.DecelerationRate`: the fraction of velocity kept per millisecond.
public struct DecelerationRate: Hashable, Sendable {
    public var rawValue: Double

    public init(rawValue: Double) {
        self.rawValue = rawValue
    }

    /// The default of a scroll view: 0.998 per millisecond (docs/reference.md §2).
    public static let normal = DecelerationRate(rawValue: 0.998)
    /// Paging-like quick stops: 0.99 per millisecond (docs/reference.md §2).
    public static let fast = DecelerationRate(rawValue: 0.99)

    /// k = 1000·ln d, the exponent per second (negative) of v(t) = v₀·e^(k·t) (docs/reference.md §2).
    public var k: Double { 1000 * log(rawValue) }
}

/// Momentum after a fling: exponential decay of velocity, evaluated in closed form (docs/reference.md §2).
///
/// v(t) = v₀·d^(1000t); x(t) = x₀ + v₀·(d^(1000t) − 1)/k; x∞ = x₀ − v₀/k.
public struct Decay: Hashable, Sendable {
    public let start: Double
    public let initialVelocity: Double
    public let rate: DecelerationRate
    /// k = 1000·ln d, cached.
    public let k: Double

    /// The distance from the resting point, in points, under which momentum stops: ε of docs/reference.md §2's
    /// T = ln(−k·ε/|v₀|)/k. At that time |v| = −k·ε (about 1 pt/s at the normal rate).
    public static let stopThreshold = 0.5

    public init(start: Double, initialVelocity: Double, rate: DecelerationRate = .normal) {
        self.start = start
        self.initialVelocity = initialVelocity
        let d = rate.rawValue > 0 && rate.rawValue < 1 ? rate : .normal
        self.rate = d
        k = d.k
    }

    public func position(at t: Double) -> Double {
        start + initialVelocity * (exp(k * t) - 1) / k
    }

    public func velocity(at t: Double) -> Double {
        initialVelocity * exp(k * t)
    }

    /// x∞ = x₀ − v₀/k: where the momentum would come to rest with nothing in its way.
    public var restingPoint: Double { start - initialVelocity / k }

    /// T = ln(−k·ε/|v₀|)/k: when the remaining distance falls below ε; 0 when it already is at the start.
    public func duration(threshold epsilon: Double = Decay.stopThreshold) -> Double {
        let speed = abs(initialVelocity)
        guard speed > -k * epsilon else { return 0 }
        return log(-k * epsilon / speed) / k
    }

    /// t = ln(1 + k·|x − x₀|/|v₀|)/k: when the motion reaches `x`, or nil when it never does (x lies behind the
    /// start or beyond the resting point).
    public func time(toReach x: Double) -> Double? {
        let distance = x - start
        guard initialVelocity != 0, distance * initialVelocity >= 0 else { return distance == 0 ? 0 : nil }
        let argument = 1 + k * abs(distance) / abs(initialVelocity)
        guard argument > 0 else { return nil }
        return log(argument) / k
    }
}

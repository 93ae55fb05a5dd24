#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A damped spring, as `CASpringAnimation`'s parameters: m·x″ + c·x′ + k·x = 0.
///
/// The spring itself holds no state; `motion(from:to:initialVelocity:)` gives the closed-form path of one run,
/// so a frame at any time is exact and does not depend on the frames before it.
public struct Spring: Hashable, Sendable {
    public var mass: Double
    public var stiffness: Double
    public var damping: Double

    public init(mass: Double = 1, stiffness: Double, damping: Double) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
    }

    /// A spring of mass 1 from its period without damping (`response`, seconds) and its damping ratio ζ:
    /// k = (2π/response)², c = 4π·ζ/response (docs/reference.md §2, SwiftUI's `spring(response:dampingFraction:)`).
    public init(response: Double, dampingRatio: Double) {
        let omega = 2 * Double.pi / response
        self.init(mass: 1, stiffness: omega * omega, damping: 4 * Double.pi * dampingRatio / response)
    }

    /// ζ = c / (2·√(k·m)): below 1 the spring oscillates, at 1 it returns fastest without overshooting from rest.
    var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// The path of a run from `from` towards `to`, starting with `initialVelocity` (units per second).
    public func motion(from: Double, to: Double, initialVelocity: Double) -> SpringMotion {
        SpringMotion(spring: self, from: from, to: to, initialVelocity: initialVelocity)
    }
}

/// One run of a spring: closed-form position, velocity and settling time (docs/reference.md §2).
public struct SpringMotion: Hashable, Sendable {
    /// How the spring returns to rest, with the coefficients of its closed form in x = position − target.
    enum Regime: Hashable, Sendable {
        /// x = (a + b·t)·e^(r·t).
        case criticallyDamped(r: Double, a: Double, b: Double)
        /// x = e^(r·t)·(a·cos wt + b·sin wt).
        case underDamped(r: Double, w: Double, a: Double, b: Double)
        /// x = a·e^(r1·t) + b·e^(r2·t).
        case overDamped(r1: Double, r2: Double, a: Double, b: Double)
    }

    public let target: Double
    let regime: Regime

    /// Relative difference of c² and 4·m·k below which the spring counts as critically damped: the two come from
    /// rounded arithmetic (for example a ratio of 1 through `init(response:dampingRatio:)`) and differ by a few ulps.
    static let criticalTolerance = 1e-9

    public init(spring: Spring, from: Double, to: Double, initialVelocity v0: Double) {
        target = to
        let m = spring.mass > 0 ? spring.mass : 1
        let k = Swift.max(spring.stiffness, 0), c = Swift.max(spring.damping, 0)
        let x0 = from - to
        let discriminant = c * c - 4 * m * k
        if abs(discriminant) <= SpringMotion.criticalTolerance * (c * c + 4 * m * k) {
            let r = -c / (2 * m)
            regime = .criticallyDamped(r: r, a: x0, b: v0 - r * x0)
        } else if discriminant < 0 {
            let r = -c / (2 * m), w = (-discriminant).squareRoot() / (2 * m)
            regime = .underDamped(r: r, w: w, a: x0, b: (v0 - r * x0) / w)
        } else {
            let root = discriminant.squareRoot()
            let r1 = (-c + root) / (2 * m), r2 = (-c - root) / (2 * m)
            // x0 = a + b and v0 = r1·a + r2·b.
            let b = (v0 - r1 * x0) / (r2 - r1)
            regime = .overDamped(r1: r1, r2: r2, a: x0 - b, b: b)
        }
    }

    /// The position `t` seconds after the start.
    public func position(at t: Double) -> Double { target + displacement(at: t) }

    /// The distance from the target `t` seconds after the start.
    func displacement(at t: Double) -> Double {
        switch regime {
        case let .criticallyDamped(r, a, b): return (a + b * t) * exp(r * t)
        case let .underDamped(r, w, a, b): return exp(r * t) * (a * cos(w * t) + b * sin(w * t))
        case let .overDamped(r1, r2, a, b): return a * exp(r1 * t) + b * exp(r2 * t)
        }
    }

    /// The velocity `t` seconds after the start, the derivative of `position(at:)`.
    public func velocity(at t: Double) -> Double {
        switch regime {
        case let .criticallyDamped(r, a, b):
            return (b + r * (a + b * t)) * exp(r * t)
        case let .underDamped(r, w, a, b):
            let cs = cos(w * t), sn = sin(w * t)
            return exp(r * t) * ((r * a + w * b) * cs + (r * b - w * a) * sn)
        case let .overDamped(r1, r2, a, b):
            return a * r1 * exp(r1 * t) + b * r2 * exp(r2 * t)
        }
    }

    /// An upper bound of |displacement| at time t that only falls once it falls: the spring has settled within
    /// `epsilon` once this bound is below it.
    func envelope(at t: Double) -> Double {
        switch regime {
        case let .criticallyDamped(r, a, b): return (abs(a) + abs(b) * t) * exp(r * t)
        case let .underDamped(r, _, a, b): return (a * a + b * b).squareRoot() * exp(r * t)
        case let .overDamped(r1, r2, a, b): return abs(a) * exp(r1 * t) + abs(b) * exp(r2 * t)
        }
    }

    /// The time after which the spring stays within `epsilon` of its target: closed form for the under-damped
    /// envelope, bisection on the (eventually falling) envelope otherwise. Infinite for an undamped spring.
    public func settlingTime(epsilon: Double) -> Double {
        let eps = Swift.max(epsilon, 1e-12)
        // The envelope's highest point: it falls from t = 0 on, except the critically damped one, which first
        // rises when it starts at the target with a velocity (|b| + r·(|a| + |b|·t) = 0 at the peak).
        var peak = 0.0
        switch regime {
        case let .underDamped(r, _, a, b):
            guard r < 0 else { return .infinity }
            let amplitude = (a * a + b * b).squareRoot()
            return amplitude < eps ? 0 : log(eps / amplitude) / r
        case let .criticallyDamped(r, a, b):
            guard r < 0 else { return .infinity }
            if b != 0 { peak = Swift.max(0, -1 / r - abs(a) / abs(b)) }
        case let .overDamped(r1, _, _, _):
            guard r1 < 0 else { return .infinity }
        }
        if envelope(at: peak) < eps { return 0 }
        // Past the peak the envelope only falls: bracket its crossing of eps and bisect.
        var hi = peak + 1
        while envelope(at: hi) >= eps && hi < 1e6 { hi *= 2 }
        var lo = peak
        for _ in 0..<100 {
            let mid = (lo + hi) / 2
            if envelope(at: mid) >= eps { lo = mid } else { hi = mid }
            if hi - lo < 1e-9 { break }
        }
        return hi
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The source of time for animations and physics, in seconds.
///
/// The window uses a `MonotonicClock`; headless runs and tests use a `SimulatedClock` that moves only when told,
/// so that every run of the same input produces the same frames.
public protocol Clock: AnyObject {
    var now: Double { get }
}

/// Wall time from the system's monotonic clock, unaffected by changes to the date.
public final class MonotonicClock: Clock {
    public init() {}

    public var now: Double { MonotonicClock.seconds() }

    /// Seconds since an arbitrary fixed point (the system's boot).
    public static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

/// A clock that advances only when `advance(by:)` is called.
public final class SimulatedClock: Clock {
    public private(set) var now: Double

    public init(start: Double = 0) {
        now = start
    }

    /// Moves time forward; a negative or non-finite step is ignored, so time never runs backwards.
    public func advance(by seconds: Double) {
        guard seconds.isFinite, seconds > 0 else { return }
        now += seconds
    }
}

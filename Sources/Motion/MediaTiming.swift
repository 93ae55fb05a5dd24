#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an animation shows outside its active time, as `CAMediaTimingFillMode`.
public enum FillMode: Sendable, Hashable {
    /// Nothing: the model value shows before and after (the default).
    case removed
    /// The last frame stays after the end.
    case forwards
    /// The first frame shows before the begin time.
    case backwards
    /// Both of the above.
    case both

    var fillsForwards: Bool { self == .forwards || self == .both }
    var fillsBackwards: Bool { self == .backwards || self == .both }
}

/// A timeline nested in its parent's, as `CAMediaTiming`: animations, groups and the objects that hold them.
///
/// Local time t = (t_parent − beginTime)·speed + timeOffset (docs/reference.md §3).
public protocol MediaTiming: AnyObject {
    /// When the timeline starts, in the parent's time.
    var beginTime: Double { get set }
    /// The length of one simple run, in local seconds.
    var duration: Double { get set }
    /// How fast local time runs against the parent's; 0 freezes it.
    var speed: Double { get set }
    /// Added to local time.
    var timeOffset: Double { get set }
    /// How many times the run repeats; may be fractional; `.infinity` repeats forever; 0 means once.
    var repeatCount: Double { get set }
    /// How long, in local seconds, the runs repeat; overrides `repeatCount` when positive.
    var repeatDuration: Double { get set }
    /// Whether each run plays backwards after it plays forwards.
    var autoreverses: Bool { get set }
    var fillMode: FillMode { get set }
}

/// Where a timeline is at a parent time.
enum TimingPhase: Equatable, Sendable {
    /// Before the begin time, with no backwards fill: shows nothing.
    case before
    /// Showing the simple run at `progress` (0…1, before any timing curve).
    case active(progress: Double)
    /// After the end, with no forwards fill: shows nothing.
    case after
}

extension MediaTiming {
    /// The local time at a parent time: (t − beginTime)·speed + timeOffset (docs/reference.md §3).
    public func localTime(atParentTime t: Double) -> Double {
        (t - beginTime) * speed + timeOffset
    }

    /// Freezes the timeline where it is at parent time `now`, exactly as Apple's QA1673:
    /// p = localTime(now); speed = 0; timeOffset = p.
    public func pause(atParentTime now: Double) {
        let paused = localTime(atParentTime: now)
        speed = 0
        timeOffset = paused
    }

    /// Restarts a paused timeline from where it stopped, exactly as QA1673:
    /// p = timeOffset; speed = 1; timeOffset = 0; beginTime = 0; beginTime = localTime(now) − p.
    public func resume(atParentTime now: Double) {
        let paused = timeOffset
        speed = 1
        timeOffset = 0
        beginTime = 0
        beginTime = localTime(atParentTime: now) - paused
    }

    /// True while speed is 0 (after `pause(atParentTime:)`).
    public var isPaused: Bool { speed == 0 }

    /// The duration of one simple run; a duration of 0 means Core Animation's default, 0.25 s.
    var simpleDuration: Double { duration > 0 && duration.isFinite ? duration : defaultAnimationDuration }

    /// The time of one repeat: the run, and its way back when it autoreverses.
    public var cycleDuration: Double { simpleDuration * (autoreverses ? 2 : 1) }

    /// How long the timeline is active in local time: repeatDuration, else repeatCount cycles, else one cycle.
    var activeDuration: Double {
        if repeatDuration > 0 { return repeatDuration }
        if repeatCount > 0 { return repeatCount.isInfinite ? .infinity : repeatCount * cycleDuration }
        return cycleDuration
    }

    /// The parent time at which the active time ends; infinite when it never does (infinite repeats, or paused).
    var endTime: Double {
        let active = activeDuration
        guard active.isFinite, speed > 0 else { return .infinity }
        return beginTime + active / speed
    }

    /// True once the active time is over at parent time `t`.
    func hasEnded(atParentTime t: Double) -> Bool {
        let active = activeDuration
        return active.isFinite && (t - beginTime) * speed >= active && speed != 0
    }

    /// Which part of the simple run shows at parent time `t`, with repeats, autoreverse and fill applied.
    ///
    /// Whether the timeline is before, inside or after its active time depends on (t − beginTime)·speed; the
    /// time offset then shifts the position inside the active time and wraps round it, as Core Animation does
    /// (a 3 s animation with a 1 s offset shows its last 2 s, then its first second).
    func phase(atParentTime t: Double) -> TimingPhase {
        let active = activeDuration
        if speed == 0 {
            // Frozen (QA1673's pause leaves speed 0 and the local time in timeOffset): the phase is the one of that
            // local time, so a timeline paused before its start or after its end keeps showing its fill.
            let local = timeOffset
            if local < 0 { return fillMode.fillsBackwards ? .active(progress: progress(atActiveTime: 0, atEnd: false)) : .before }
            if active.isFinite && local >= active {
                return fillMode.fillsForwards ? .active(progress: progress(atActiveTime: active, atEnd: true)) : .after
            }
            return .active(progress: progress(atActiveTime: local, atEnd: false))
        }
        let elapsed = (t - beginTime) * speed
        if elapsed < 0 {
            guard fillMode.fillsBackwards else { return .before }
            return .active(progress: progress(atActiveTime: wrapped(timeOffset, active), atEnd: false))
        }
        if active.isFinite && elapsed >= active {
            guard fillMode.fillsForwards else { return .after }
            // The frame where the active time ends: the end of the last run, or where the offset wrapped it to.
            let local = wrapped(active + timeOffset, active)
            return .active(progress: local == 0 ? progress(atActiveTime: active, atEnd: true)
                                                : progress(atActiveTime: local, atEnd: false))
        }
        return .active(progress: progress(atActiveTime: wrapped(elapsed + timeOffset, active), atEnd: false))
    }

    /// `time` brought into 0…active (unchanged when active is infinite and time is not negative).
    private func wrapped(_ time: Double, _ active: Double) -> Double {
        if active.isFinite && active > 0 {
            if time >= 0 && time < active { return time }
            let r = fmod(time, active)
            return r < 0 ? r + active : r
        }
        return Swift.max(time, 0)
    }

    /// The simple-run progress (0…1) at a time inside the active time; `atEnd` picks the end of a run at an exact
    /// cycle boundary (the frozen last frame), not the start of the next.
    private func progress(atActiveTime time: Double, atEnd: Bool) -> Double {
        let cycle = cycleDuration, simple = simpleDuration
        var inCycle: Double
        if atEnd {
            let whole = (time / cycle).rounded(.up) - 1
            inCycle = time - Swift.max(whole, 0) * cycle
        } else {
            inCycle = time - (time / cycle).rounded(.down) * cycle
        }
        inCycle = Swift.min(Swift.max(inCycle, 0), cycle)
        if autoreverses && inCycle > simple { inCycle = cycle - inCycle }
        return Swift.min(Swift.max(inCycle / simple, 0), 1)
    }
}

/// The duration Core Animation gives an animation whose duration is 0: 0.25 s (`CAAnimation`'s documented default).
let defaultAnimationDuration = 0.25

import Motion

/// The simulation's own time, read from a base clock (the wall clock in the window, a simulated clock headless) and
/// bent by the simulator's tools: slow animations (time runs at a tenth of its speed, as the iOS Simulator's
/// Slow Animations), pause, and a step of one frame while paused.
///
/// Lab time equals base time until a tool changes its speed; every change re-anchors, so lab time never jumps and
/// never runs backwards:
///
/// ```swift
/// let base = SimulatedClock()
/// let time = TimeControl(base: base)
/// time.isSlow = true
/// base.advance(by: 1)        // time.now == 0.1
/// time.isPaused = true
/// time.stepFrame()           // time.now == 0.1 + 1/60
/// ```
public final class TimeControl: Clock {
    /// How much slower time runs with slow animations on (the iOS Simulator's factor).
    static let slowFactor = 10.0

    public let base: any Clock
    /// How far one `stepFrame()` moves time while paused, in lab seconds: one frame of the display.
    public var frameDuration: Double
    /// Lab time and base time at the last change of speed.
    private var anchorLab: Double
    private var anchorBase: Double

    public init(base: any Clock, frameDuration: Double = 1.0 / 60) {
        self.base = base
        self.frameDuration = frameDuration
        anchorBase = base.now
        anchorLab = anchorBase
    }

    /// Lab seconds per base second: 1, 0.1 when slow, 0 when paused.
    public var rate: Double { isPaused ? 0 : (isSlow ? 1 / TimeControl.slowFactor : 1) }

    /// Slow animations: time runs `slowFactor` times slower.
    var isSlow = false {
        willSet { reanchor() }
    }

    /// Time stands still until resumed or stepped.
    var isPaused = false {
        willSet { reanchor() }
    }

    /// The lab time now.
    public var now: Double { time(atBase: base.now) }

    /// The lab time at a base-clock time (an input event's timestamp), with the current rate; times before the
    /// last change of rate are taken as the moment of that change, so lab time never runs backwards.
    public func time(atBase baseTime: Double) -> Double {
        guard baseTime.isFinite else { return anchorLab }
        return anchorLab + Swift.max(0, baseTime - anchorBase) * rate
    }

    /// Moves time one frame forward; only while paused (returns false otherwise, and nothing changes).
    @discardableResult
    public func stepFrame() -> Bool {
        guard isPaused else { return false }
        reanchor()
        anchorLab += frameDuration
        return true
    }

    private func reanchor() {
        let b = base.now
        anchorLab = time(atBase: b)
        anchorBase = b
    }
}

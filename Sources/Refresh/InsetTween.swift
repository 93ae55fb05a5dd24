import Motion

/// A change of the inset a control adds, as a closed form of time, so a frame at any time gets the exact value.
struct InsetTween {
    var from: Double
    var to: Double
    var start: Double
    var duration: Double
    var timing: TimingFunction

    var end: Double { start + Swift.max(duration, 0) }

    func value(at time: Double) -> Double {
        guard duration > 0, time < end else { return to }
        guard time > start else { return from }
        return from + (to - from) * timing.value(at: (time - start) / duration)
    }
}

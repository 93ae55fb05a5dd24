/// When a phone last presented its frames, for its own frame rate while two phones are compared: each presents at its
/// own refresh rate (a 60 Hz phone beside a 120 Hz one every other frame of the window), and its HUD says its rate.
/// A ring of fixed size: adding a time allocates nothing.
struct Presentations {
    /// Enough for a second at 120 Hz and more.
    static let capacity = 160
    private var times = [Double](repeating: 0, count: Presentations.capacity)
    /// Whether the frame at the same place followed a wait for input (the window was idle before it).
    private var followsIdle = [Bool](repeating: false, count: Presentations.capacity)
    private var next = 0
    private(set) var count = 0
    /// When the phone should present its next frame, on the frame clock; nil before its first.
    var nextDue: Double?

    mutating func add(_ time: Double, followsIdle idle: Bool) {
        times[next] = time
        followsIdle[next] = idle
        next = (next + 1) % Presentations.capacity
        count = Swift.min(count + 1, Presentations.capacity)
    }

    /// Frames presented per second over the last second up to `time`, since the last idle wait; nil without two
    /// frames to measure between.
    func framesPerSecond(at time: Double) -> Double? {
        var n = 0
        var earliest = time
        while n < count {
            let i = (next - 1 - n + 2 * Presentations.capacity) % Presentations.capacity
            guard time - times[i] <= 1 else { break }
            n += 1
            earliest = times[i]
            if followsIdle[i] { break }
        }
        guard n > 0, time > earliest else { return nil }
        return Double(n) / (time - earliest)
    }

    /// Whether a phone presenting every `period` seconds is due at `time` in a window presenting every `frame`
    /// seconds; when it is, the next is scheduled a period on (from now, when the window fell behind).
    mutating func isDue(at time: Double, period: Double, frame: Double) -> Bool {
        // As fast as the window or faster: every frame.
        guard period > frame * 1.25 else { return true }
        if let nextDue, time < nextDue - frame / 2 { return false }
        let scheduled = (nextDue ?? time) + period
        nextDue = scheduled < time ? time + period : scheduled
        return true
    }
}

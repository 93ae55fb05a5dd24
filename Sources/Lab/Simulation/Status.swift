/// Everything the window's title says, in one value: the title is made from it alone, so every toggle the title
/// names is a field here, and comparing two of them (which allocates nothing, unlike making the line) says when the
/// title must be made again.
public struct Status: Equatable, Sendable {
    public var effect: String
    var chinese = false
    var android = false
    var dark = false
    var autoEnd = false
    var slow = false
    var paused = false
    public var debug = false
    public var frameGraph = false
    public var tuning = false
    public var help = false
    var noMoreData = false
    var recordingTimings = false
    var recordingVideo = false
    var overlaysInOutputs = false
    /// While two phones are shown, the selected one's letter (A on the left, B on the right): the effect and the
    /// toggles then are that phone's.
    var comparedPhone: String?
    /// With a second floor: "", or the floor's state while it is armed, opening, open or closing; nil without one.
    var floor: String?

    /// `ring | English | android | dark | auto end | slow x10 | recording video`: the effect, the language, then every toggle that is
    /// on, as the Simulator's menu shows checkmarks. ASCII only, so that every X server and window manager shows it
    /// whatever the locale.
    public var title: String {
        var parts = [effect, chinese ? "Chinese" : "English"]
        if let comparedPhone { parts.insert("phone " + comparedPhone + " of 2", at: 0) }
        for (on, name) in [(android, "android"), (dark, "dark"), (autoEnd, "auto end"), (slow, "slow x10"), (paused, "paused"), (debug, "debug"),
                           (frameGraph, "frame graph"), (tuning, "tuning"), (help, "help"),
                           (noMoreData, "no more data"), (recordingTimings, "recording timings"),
                           (recordingVideo, "recording video"), (overlaysInOutputs, "overlays in outputs")] where on {
            parts.append(name)
        }
        if let floor { parts.append(floor.isEmpty ? "second floor" : "second floor: " + floor) }
        return parts.joined(separator: " | ")
    }
}

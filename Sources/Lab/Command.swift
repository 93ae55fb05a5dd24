/// What a key does in the simulator. The window maps its keys through `Command(keyName:)` and gesture scripts name
/// keys the same way, so a script's `{"key": "Space"}` does exactly what pressing Space does.
public enum Command: Equatable, Sendable {
    /// Shows the header effect at this place (0-based) of the keyboard's order: keys 1…5.
    case selectEffect(index: Int)
    /// Shows the next effect: Tab.
    case nextEffect
    /// Begins a refresh from code, as `beginRefreshing()`: Space.
    case beginRefresh
    /// Ends the running refresh with success (Return), failure (F) or a message (M, for the news banner).
    case endRefreshSuccess
    case endRefreshFailure
    case endRefreshMessage
    /// Turns the automatic end of refreshes on or off: A.
    case toggleAutoEnd
    /// Turns the footer's no-more-data state on or off: N.
    case toggleNoMoreData
    /// Switches between English and Chinese: L.
    case toggleLanguage
    /// Slows animations down ×10, as the iOS Simulator's Slow Animations: S.
    case toggleSlowAnimations
    /// Pauses or resumes time: P.
    case togglePause
    /// Advances one frame while paused: the full stop key.
    case stepFrame
    /// The debug overlay (outlines, control points, thresholds, state): D.
    case toggleDebugOverlay
    /// The frame-time graph: G.
    case toggleFrameGraph
    /// Starts or stops recording frame timings: R.
    case toggleRecording
    /// Saves a screenshot: C.
    case screenshot
    /// The help overlay listing every key: H or F1.
    case toggleHelp
    /// Quits: Q or Esc.
    case quit

    /// Every key the simulator knows, in the order the help overlay lists them, with what it does.
    public static let keyBindings: [(keys: String, command: Command, help: String)] = [
        ("1", .selectEffect(index: 0), "sticky header (QQ)"),
        ("2", .selectEffect(index: 1), "four-dot header"),
        ("3", .selectEffect(index: 2), "ring header (Qidian / Material)"),
        ("4", .selectEffect(index: 3), "news header (NetEase)"),
        ("5", .selectEffect(index: 4), "classic header (MJRefresh / EGO)"),
        ("Tab", .nextEffect, "next header"),
        ("Space", .beginRefresh, "begin refreshing from code"),
        ("Return", .endRefreshSuccess, "end with success"),
        ("F", .endRefreshFailure, "end with failure"),
        ("M", .endRefreshMessage, "end with a message (news)"),
        ("A", .toggleAutoEnd, "end refreshes by themselves after 1.5 s"),
        ("N", .toggleNoMoreData, "footer: no more data"),
        ("L", .toggleLanguage, "English / Chinese"),
        ("S", .toggleSlowAnimations, "slow animations ×10"),
        ("P", .togglePause, "pause"),
        (".", .stepFrame, "one frame forward while paused"),
        ("D", .toggleDebugOverlay, "debug overlay"),
        ("G", .toggleFrameGraph, "frame-time graph"),
        ("R", .toggleRecording, "record frame timings"),
        ("C", .screenshot, "screenshot"),
        ("H", .toggleHelp, "this help"),
        ("F1", .toggleHelp, "this help"),
        ("Q", .quit, "quit"),
        ("Escape", .quit, "quit"),
    ]

    /// The command of a key named as in `keyBindings` (letters in either case), or nil for a key that does nothing.
    public init?(keyName: String) {
        let name = keyName.count == 1 ? keyName.uppercased() : keyName
        guard let binding = Command.keyBindings.first(where: { $0.keys == name }) else { return nil }
        self = binding.command
    }
}

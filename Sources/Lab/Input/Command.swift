import Refresh

/// What a key does in the simulator. The window maps its keys through `Command(keyName:)` and gesture scripts name
/// keys the same way, so a script's `{"key": "Space"}` does exactly what pressing Space does.
public enum Command: Equatable, Sendable {
    /// Shows the header effect at this place (0-based) of the keyboard's order (`RefreshEffects.entries`): keys 1…9.
    case selectEffect(index: Int)
    /// Shows the next effect: Tab; while two phones are shown, selects the other one instead.
    case nextEffect
    /// Opens a second phone beside the first, a copy of it, or closes it: W.
    case toggleSecondPhone
    /// Begins a refresh from code, as `beginRefreshing()`: Space.
    case beginRefresh
    /// Ends the running refresh with success (Return), failure (F) or a message (M: "12 new items").
    case endRefreshSuccess
    case endRefreshFailure
    case endRefreshMessage
    /// Opens the second floor from code, or closes it when it is open or opening; a phone without a floor is given
    /// RefreshLab's own first: U.
    case toggleSecondFloor
    /// Turns the automatic end of refreshes on or off: A.
    case toggleAutoEnd
    /// Turns the footer's no-more-data state on or off: N.
    case toggleNoMoreData
    /// Switches between English and Chinese: L.
    case toggleLanguage
    /// Shows the platform's next phone: on iOS the lab's own, then each model of `PhoneModel.all`: I.
    case nextDevice
    /// Switches the platform between iOS and Android (its default phone, the Pixel 8), keeping the list where it
    /// is: Y.
    case togglePlatform
    /// Shows the next navigation bar style (standard, large, translucent, none): B.
    case nextBarStyle
    /// Switches the phone between light and dark appearance: K (D is the debug overlay's).
    case toggleAppearance
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
    /// Starts or stops recording the window as a video: V (the iOS Simulator's Record Screen).
    case toggleVideoRecording
    /// Saves a screenshot: C.
    case screenshot
    /// Exports the header as a Lottie file into the output folder: E.
    case exportHeader
    /// Whether screenshots and recordings include the simulator's overlays (HUD, toast, help, debug): O.
    case toggleOverlaysInOutputs
    /// Opens or closes the tuning panel, the current effect's and the physics' parameters: T.
    case toggleTuning
    /// In the tuning panel, the row above (Up: -1) or below (Down: +1); the rows wrap around.
    case tuningSelect(by: Int)
    /// In the tuning panel, nudges the selected value by this many steps: Left -1, Right +1, ten with Shift.
    case tuningNudge(by: Int)
    /// In the tuning panel, returns the selected value to its default and removes it from the style file: Backspace.
    case tuningReset
    /// The help overlay listing every key: H or F1.
    case toggleHelp
    /// Closes the help or the tuning panel when one is shown, else quits: Esc.
    case escape
    /// Quits: Q.
    case quit

    /// A key, what it does, and its line in the help in English and Chinese.
    public struct KeyBinding: Sendable {
        public var keys: String
        public var command: Command
        public var help: String
        var chineseHelp: String
    }

    /// What a key's name starts with when Shift is held: "Shift+Right".
    public static let shiftPrefix = "Shift+"

    /// How many effects have a key of their own: 1…9, then 0 for the tenth (the keyboard's order).
    static let effectKeyCount = 10

    /// The number key of the effect at `index` (0 for the tenth), as the help and the README name it.
    static func effectKey(index: Int) -> String { index == 9 ? "0" : String(index + 1) }

    /// The keys of the effects, 1…9 and 0, in the order `RefreshEffects` lists them, each with the effect's own title.
    static var effectKeyBindings: [KeyBinding] {
        RefreshEffects.entries.prefix(effectKeyCount).enumerated().map { index, entry in
            KeyBinding(keys: effectKey(index: index), command: .selectEffect(index: index), help: entry.title.english,
                       chineseHelp: entry.title.chinese)
        }
    }

    /// Every key the simulator knows, in the order the help overlay lists them, with what it does: the effects'
    /// keys as the registry has them, then the tools'.
    static var keyBindings: [KeyBinding] { effectKeyBindings + toolKeyBindings }

    /// What Return, F and M do, on their one line of the help.
    static let endHelp = "end: success, failure, message"
    static let chineseEndHelp = "结束：成功、失败、显示消息"

    /// The keys that do not depend on the effects.
    static let toolKeyBindings: [KeyBinding] = [
        KeyBinding(keys: "Tab", command: .nextEffect, help: "next header (W: other phone)",
                   chineseHelp: "下一个头部，或另一部手机（W）"),
        KeyBinding(keys: "W", command: .toggleSecondPhone, help: "compare two phones side by side",
                   chineseHelp: "并排对比两部手机"),
        KeyBinding(keys: "Space", command: .beginRefresh, help: "begin refreshing from code", chineseHelp: "代码开始刷新"),
        // One line of the help for the three ends: success, failure, a message, in the keys' order.
        KeyBinding(keys: "Return", command: .endRefreshSuccess, help: Command.endHelp, chineseHelp: Command.chineseEndHelp),
        KeyBinding(keys: "F", command: .endRefreshFailure, help: Command.endHelp, chineseHelp: Command.chineseEndHelp),
        KeyBinding(keys: "M", command: .endRefreshMessage, help: Command.endHelp, chineseHelp: Command.chineseEndHelp),
        KeyBinding(keys: "U", command: .toggleSecondFloor, help: "open / close the second floor",
                   chineseHelp: "打开 / 关闭二楼"),
        KeyBinding(keys: "A", command: .toggleAutoEnd, help: "auto end after 1.5 s", chineseHelp: "1.5 秒后自动结束"),
        KeyBinding(keys: "N", command: .toggleNoMoreData, help: "footer: no more data", chineseHelp: "底部：没有更多数据"),
        KeyBinding(keys: "L", command: .toggleLanguage, help: "English / Chinese", chineseHelp: "英文 / 中文"),
        KeyBinding(keys: "I", command: .nextDevice, help: "next phone (iOS: iPhones)", chineseHelp: "下一部手机（iOS：iPhone）"),
        KeyBinding(keys: "Y", command: .togglePlatform, help: "iOS / Android (Pixel 8)", chineseHelp: "iOS / Android（Pixel 8）"),
        KeyBinding(keys: "B", command: .nextBarStyle, help: "navigation bar style", chineseHelp: "导航栏样式"),
        KeyBinding(keys: "K", command: .toggleAppearance, help: "light / dark appearance",
                   chineseHelp: "浅色 / 深色外观"),
        KeyBinding(keys: "S", command: .toggleSlowAnimations, help: "slow animations ×10", chineseHelp: "慢动画 ×10"),
        KeyBinding(keys: "P", command: .togglePause, help: "pause", chineseHelp: "暂停"),
        KeyBinding(keys: ".", command: .stepFrame, help: "one frame forward (paused)", chineseHelp: "前进一帧（暂停时）"),
        KeyBinding(keys: "D", command: .toggleDebugOverlay, help: "debug overlay", chineseHelp: "调试层"),
        KeyBinding(keys: "G", command: .toggleFrameGraph, help: "frame-time graph (HUD)", chineseHelp: "帧时间图（HUD）"),
        KeyBinding(keys: "R", command: .toggleRecording, help: "record frame timings", chineseHelp: "记录帧时间"),
        KeyBinding(keys: "V", command: .toggleVideoRecording, help: "record video (MP4)", chineseHelp: "录制视频（MP4）"),
        KeyBinding(keys: "C", command: .screenshot, help: "screenshot", chineseHelp: "截图"),
        KeyBinding(keys: "E", command: .exportHeader, help: "export the header (Lottie)",
                   chineseHelp: "导出头部为 Lottie 文件"),
        KeyBinding(keys: "O", command: .toggleOverlaysInOutputs, help: "overlays in screenshots, videos",
                   chineseHelp: "截图和视频包含叠加层"),
        KeyBinding(keys: "T", command: .toggleTuning, help: "tuning panel: effect, physics",
                   chineseHelp: "调参面板：效果、物理"),
        KeyBinding(keys: "Up", command: .tuningSelect(by: -1), help: "tuning: choose a value", chineseHelp: "调参：选择数值"),
        KeyBinding(keys: "Down", command: .tuningSelect(by: 1), help: "tuning: choose a value", chineseHelp: "调参：选择数值"),
        KeyBinding(keys: "Left", command: .tuningNudge(by: -1), help: "tuning: nudge (Shift ×10)",
                   chineseHelp: "调参：微调（Shift ×10）"),
        KeyBinding(keys: "Right", command: .tuningNudge(by: 1), help: "tuning: nudge (Shift ×10)",
                   chineseHelp: "调参：微调（Shift ×10）"),
        KeyBinding(keys: "Backspace", command: .tuningReset, help: "tuning: back to the default",
                   chineseHelp: "调参：恢复默认值"),
        KeyBinding(keys: "H", command: .toggleHelp, help: "this help", chineseHelp: "本帮助"),
        KeyBinding(keys: "F1", command: .toggleHelp, help: "this help", chineseHelp: "本帮助"),
        KeyBinding(keys: "Escape", command: .escape, help: "close help or panel; twice: quit",
                   chineseHelp: "关闭帮助或面板；按两次退出"),
        KeyBinding(keys: "Q", command: .quit, help: "quit", chineseHelp: "退出"),
    ]

    /// The command of a key named as in `keyBindings` (letters in either case), or nil for a key that does nothing.
    /// Keys 1…9 and 0 always select an effect, so one without an effect says so rather than doing nothing. "Shift+" before
    /// a name is the key pressed with Shift: Shift+Left and Shift+Right nudge ten steps; other keys ignore Shift.
    public init?(keyName: String) {
        if keyName.hasPrefix(Command.shiftPrefix) {
            guard let plain = Command(keyName: String(keyName.dropFirst(Command.shiftPrefix.count))) else { return nil }
            if case .tuningNudge(let by) = plain { self = .tuningNudge(by: by * 10) } else { self = plain }
            return
        }
        if let digit = Int(keyName), keyName.count == 1 {
            self = .selectEffect(index: digit == 0 ? 9 : digit - 1)
            return
        }
        let name = keyName.count == 1 ? keyName.uppercased() : keyName
        guard let binding = Command.toolKeyBindings.first(where: { $0.keys == name }) else { return nil }
        self = binding.command
    }
}

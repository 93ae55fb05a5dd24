import Refresh

/// What a command asks of the program around the simulation: things only it can do (a file, a window).
public struct HostRequests: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Save the current frame as a PNG (C).
    static let screenshot = HostRequests(rawValue: 1)
    /// Start or stop recording frame timings (R).
    static let toggleRecording = HostRequests(rawValue: 2)
    /// Quit (Q, Esc).
    static let quit = HostRequests(rawValue: 4)
    /// Start or stop recording the window as a video (V).
    static let toggleVideoRecording = HostRequests(rawValue: 8)
    /// Export the selected phone's header as a Lottie file (E).
    static let exportHeader = HostRequests(rawValue: 16)
}

extension Simulation {
    /// Does what a key does and returns the toast that says so (also shown on screen).
    ///
    /// Commands that only the host can carry out (screenshot, recording, quit) are added to `hostRequests`; the
    /// host takes them with `takeHostRequests()` and may replace the toast with one naming the file it wrote.
    @discardableResult
    public func perform(_ command: Command) -> String {
        statusMayHaveChanged = true
        if command != .escape { escapeQuitsUntil = nil }
        let text = showsHelp ? applyWithHelpShown(command) : applyTuning(command) ?? apply(command)
        // The panel's arrows say nothing when all went well: the panel shows the value.
        // The prompt to press Esc again lasts as long as a second Esc would quit.
        let lasting = escapeQuitsUntil != nil ? Simulation.escapeAgainWindow : Toast.duration
        if !text.isEmpty { toast.show(text, at: clock.base.now, lasting: lasting) }
        return text
    }

    /// The help is modal: it closes with H, F1 or Esc, Q still quits, L changes its language, and every other key
    /// waits.
    private func applyWithHelpShown(_ command: Command) -> String {
        switch command {
        case .toggleHelp, .escape:
            showsHelp = false
            return language == .chinese ? "帮助已关闭" : "Help closed"
        case .quit, .toggleLanguage:
            return apply(command)
        default:
            return language == .chinese ? "先关闭帮助（H 或 Esc）" : "Close the help first (H or Esc)"
        }
    }

    /// Hands the host what the keyboard asked of it since the last call, and forgets it.
    func takeHostRequests() -> HostRequests {
        let requests = hostRequests
        hostRequests = []
        return requests
    }

    /// Shows `text` in the toast (a host's own message: a file written, a failure), with `detail` (a file's path)
    /// on a second line.
    func showToast(_ text: String, detail: String? = nil, lasting: Double = Toast.duration) {
        toast.show(text, detail: detail, at: clock.base.now, lasting: lasting)
    }

    /// The keyboard's effects in order, their names as `RefreshEffects` registers them.
    public var effectNames: [String] { RefreshEffects.names }

    private func apply(_ command: Command) -> String {
        switch command {
        case .selectEffect(let index):
            let names = effectNames
            guard names.indices.contains(index) else { return "No effect on key " + Command.effectKey(index: index) }
            return showEffect(names[index])
        case .nextEffect where isComparing:
            return selectOtherPhone()
        case .toggleSecondPhone:
            return toggleSecondPhone()
        case .nextEffect:
            let names = effectNames
            guard !names.isEmpty else { return "No effects" }
            let current = names.firstIndex(of: effectName) ?? -1
            return showEffect(names[(current + 1) % names.count])
        case .beginRefresh:
            // The refresh keys go to every phone, so that two compared phones refresh together.
            let idle = phones.filter { !$0.refreshControl.state.isBusy }
            if idle.isEmpty { return "Already refreshing" }
            for phone in idle { phone.refreshControl.beginRefreshing(at: clock.now) }
            return "Refreshing from code"
        case .endRefreshSuccess:
            return end(with: .success, named: "success")
        case .endRefreshFailure:
            return end(with: .failure, named: "failure")
        case .endRefreshMessage:
            let message = newItemsMessage(in: language)
            return end(with: .message(message), named: "“" + message + "”")
        case .toggleSecondFloor:
            return toggleSecondFloor()
        case .toggleAutoEnd:
            let on = !autoEndsRefreshing
            for phone in phones { phone.autoEndsRefreshing = on }
            return autoEndsRefreshing ? "Auto end on: refreshes end after 1.5 s" : "Auto end off: end with Return, F or M"
        case .toggleNoMoreData:
            if footer.state == .noMoreData {
                for phone in phones { phone.footer.resetNoMoreData() }
                return "Footer: more data to load"
            }
            for phone in phones { phone.footer.endRefreshingWithNoMoreData() }
            return "Footer: no more data"
        case .toggleLanguage:
            setLanguage(language == .english ? .chinese : .english)
            return language == .chinese ? "语言：中文" : "Language: English"
        case .nextDevice:
            // On iOS the lab's own phone, then each model in turn, and round again; on Android its models.
            let platform = phone.platform
            let models: [PhoneModel?] = (platform == .ios ? [nil] : []) + platform.models
            let index = models.firstIndex(of: phone.model) ?? 0
            let next = models[(index + 1) % models.count]
            setPhone(Phone(model: next, bar: phone.bar))
            return (next?.name ?? (language == .chinese ? "默认手机" : "Default phone"))
                + " (\(phone.pixelWidth)×\(phone.pixelHeight), \(Int(phone.refreshRate)) Hz)"
        case .togglePlatform:
            setPlatform(phone.platform.toggled)
            return (phone.platform == .android ? "Android" : "iOS") + ": " + (phone.model?.name
                ?? (language == .chinese ? "默认手机" : "Default phone"))
                + " (\(phone.pixelWidth)×\(phone.pixelHeight), \(Int(phone.refreshRate)) Hz)"
        case .nextBarStyle:
            var next = phone
            next.bar = phone.bar.next
            setPhone(next)
            return (language == .chinese ? "导航栏：" : "Bar: ") + next.bar.rawValue
        case .toggleAppearance:
            appearance = appearance.toggled
            if language == .chinese { return appearance == .dark ? "外观：深色" : "外观：浅色" }
            return appearance == .dark ? "Appearance: dark" : "Appearance: light"
        case .toggleSlowAnimations:
            clock.isSlow.toggle()
            // Finger samples are stamped in the slowed time; the tracker measures them in the finger's own.
            for phone in phones { phone.scrollView.touchClockRate = clock.isSlow ? 1 / TimeControl.slowFactor : 1 }
            return clock.isSlow ? "Slow animations ×10" : "Slow animations off"
        case .togglePause:
            clock.isPaused.toggle()
            return clock.isPaused ? "Paused: . steps one frame" : "Resumed"
        case .stepFrame:
            guard clock.stepFrame() else { return "Pause with P first, then . steps one frame" }
            return "One frame forward"
        case .toggleDebugOverlay:
            showsDebugOverlay.toggle()
            return showsDebugOverlay ? "Debug overlay on" : "Debug overlay off"
        case .toggleFrameGraph:
            showsFrameGraph.toggle()
            return showsFrameGraph ? "Frame-time graph on" : "Frame-time graph off"
        case .toggleRecording:
            hostRequests.insert(.toggleRecording)
            return "Recording timings"
        case .screenshot:
            // No toast of its own: it would be in the screenshot when the overlays are; the host says when saved.
            hostRequests.insert(.screenshot)
            return ""
        case .toggleVideoRecording:
            hostRequests.insert(.toggleVideoRecording)
            return "Recording video"
        case .exportHeader:
            // The host says when the file is written.
            hostRequests.insert(.exportHeader)
            return ""
        case .toggleOverlaysInOutputs:
            includesOverlaysInOutputs.toggle()
            return includesOverlaysInOutputs ? "Screenshots and videos include the overlays"
                : "Screenshots and videos show the phone only"
        case .toggleTuning, .tuningSelect, .tuningNudge, .tuningReset:
            return applyTuning(command) ?? ""
        case .toggleHelp:
            // Opened over a finger that is down: the list behind gets no more input, so the touch ends here.
            cancelTouch()
            showsHelp = true
            return language == .chinese ? "帮助：所有按键" : "Help: every key"
        case .escape:
            let now = clock.base.now
            guard let until = escapeQuitsUntil, now <= until else {
                escapeQuitsUntil = now + Simulation.escapeAgainWindow
                return language == .chinese ? "再按 Esc 退出" : "Press Esc again to quit"
            }
            escapeQuitsUntil = nil
            return apply(.quit)
        case .quit:
            saveTuning()
            hostRequests.insert(.quit)
            return "Quit"
        }
    }

    private func showEffect(_ name: String) -> String {
        guard selectEffect(named: name) else { return "No effect named \(name)" }
        let position = (effectNames.firstIndex(of: name) ?? 0) + 1
        if selectedPhone.description.floor != nil, Simulation.floorRefusal(effect: name) != nil {
            return "\(position) · \(name): " + (language == .chinese ? "悬浮头部，没有二楼" : "floats, no second floor")
        }
        return "\(position) · \(name)"
    }

    /// Opens the second floor of every phone from code, or closes it where it is open or opening, as the refresh keys
    /// go to every phone; a phone without a floor is given RefreshLab's own first. A finger down is lifted first,
    /// as code taking over the list cancels its touch.
    private func toggleSecondFloor() -> String {
        let chinese = language == .chinese
        if let refusal = Simulation.floorRefusal(effect: effectName) {
            return chinese ? "\(effectName) 悬浮在列表上，不能有二楼" : "No second floor: " + refusal
        }
        let closing = phones.contains { $0.refreshControl.state == .floor || $0.refreshControl.state == .floorOpening }
        var done = false
        for phone in phones {
            if phone.description.floor == nil {
                try? phone.setFloor(.drawn)
                stylesRevision &+= 1
            }
            phone.cancelTouch()
            let control = phone.refreshControl
            done = (closing ? control.closeSecondFloor(at: clock.now) : control.openSecondFloor(at: clock.now)) || done
        }
        guard done else {
            return chinese ? "正在刷新：二楼从静止或下拉中打开" : "Refreshing: the floor opens from rest or a pull"
        }
        if closing { return chinese ? "关闭二楼" : "Closing the second floor" }
        return chinese ? "打开二楼（U 关闭）" : "Opening the second floor (U closes it)"
    }

    /// Ends the refresh of every phone refreshing with `result`.
    private func end(with result: RefreshResult, named: String) -> String {
        let refreshing = phones.filter { $0.refreshControl.state == .refreshing }
        guard !refreshing.isEmpty else {
            return "Not refreshing: pull down or press Space first"
        }
        for phone in refreshing {
            phone.refreshControl.endRefreshing(result: result, at: clock.now)
            phone.reloadFirstPage()
        }
        return "Ended with " + named
    }
}

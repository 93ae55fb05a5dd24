import Geometry
import Styles
import UserFiles

/// Two phones side by side (W): the second opens as a copy of the first, the keys that change a phone change the
/// selected one (Tab or a click chooses), and each keeps its own style file for the tuning panel.
extension Simulation {
    /// The folder, beside the first phone's style file, that holds the second phone's: a folder of its own, so that
    /// the first phone (which reads every `*.json` of the user's folder) never reads it.
    static let secondPhoneFolder = "second-phone"
    /// The room between two phones shown side by side in the window, in points.
    public static let comparedGap = 16.0

    /// The style file the second phone's tuned values are saved to: the first phone's file's name in
    /// `second-phone/` beside it; nil when the first phone has none (values then apply live only).
    var secondPhoneStyleFile: String? {
        guard let first = tuning.file else { return nil }
        let (folder, name) = FileName.split(first)
        return (folder.isEmpty ? "" : folder + "/") + Simulation.secondPhoneFolder + "/" + name
    }

    /// The second phone's own style file and its bytes; nil when there is none yet.
    ///
    /// - Throws: `StyleError` when it exists but cannot be read.
    func secondPhoneStyle() throws(StyleError) -> (file: String, bytes: [UInt8])? {
        guard let file = secondPhoneStyleFile else { return nil }
        do {
            return (file, try StyleFiles.read(file))
        } catch {
            if error.reason.hasPrefix("no such") { return nil }
            throw error
        }
    }

    /// The style file the tuning panel saves the selected phone's values to.
    var tuningFile: String? { selectedIndex == 0 ? tuning.file : secondPhoneStyleFile }

    /// The name a phone goes by in toasts and the title: A on the left, B on the right.
    static func phoneLetter(_ index: Int) -> String { index == 0 ? "A" : "B" }

    /// Opens a second phone beside the first, a copy of it (its list scrolled to the same place) with its own style
    /// file over the first's styles, and selects it; or closes it. Returns what the toast says.
    func toggleSecondPhone() -> String {
        let chinese = language == .chinese
        if isComparing {
            select(0)
            phones.removeLast()
            return chinese ? "对比已关闭" : "Comparison closed"
        }
        saveTuning()
        let first = primaryPhone
        var description = first.description
        var problem: String?
        do {
            if let own = try secondPhoneStyle() {
                var book = first.styles
                try book.add(own.file, bytes: own.bytes)
                description.styles = book
            }
        } catch {
            problem = error.description
        }
        let second: SimulatedPhone
        do {
            second = try SimulatedPhone(description: description, clock: clock)
        } catch {
            return (chinese ? "无法打开第二部手机：" : "Cannot open a second phone: ") + "\(error)"
        }
        second.renderer.setDrawingThreads(drawingThreads)
        second.showList(as: first)
        second.scrollView.touchClockRate = first.scrollView.touchClockRate
        second.autoEndsRefreshing = first.autoEndsRefreshing
        listen(to: second)
        phones.append(second)
        select(1)
        if let problem {
            showToast(chinese ? "第二部手机的样式文件有错误" : "The second phone's style file is broken", detail: problem)
            return ""
        }
        return chinese ? "对比：按键改变右边的手机（Tab 切换，W 关闭）"
            : "Compare: keys change the right phone (Tab: the other, W closes)"
    }

    /// Makes the phone at `index` the one keys, the tuning panel and the overlays go to; values tuned for the
    /// phone selected before are saved to its file first.
    func select(_ index: Int) {
        guard index != selectedIndex, phones.indices.contains(index) else { return }
        saveTuning()
        selectedIndex = index
        stylesRevision &+= 1
        statusMayHaveChanged = true
    }

    /// Tab while comparing: the other phone.
    func selectOtherPhone() -> String {
        select(1 - selectedIndex)
        let letter = Simulation.phoneLetter(selectedIndex)
        if language == .chinese { return "手机 " + letter + (selectedIndex == 0 ? "（左）" : "（右）") }
        return "Phone " + letter + (selectedIndex == 0 ? " (left)" : " (right)")
    }

    /// Gives every phone the styles read again from the user's files (`book`): the second phone with its own file
    /// over them, the selected one with the panel's values not saved yet. Returns whether any value changed.
    ///
    /// - Throws: `StyleError` when the second phone's file is broken; no phone changes then.
    func restyle(with book: StyleBook) throws(StyleError) -> Bool {
        var books: [StyleBook] = []
        for index in phones.indices {
            var phoneBook = book
            if index == 1, let own = try secondPhoneStyle() { try phoneBook.add(own.file, bytes: own.bytes) }
            if index == selectedIndex { tuning.reapplyUnsaved(to: &phoneBook) }
            books.append(phoneBook)
        }
        var changed = false
        for (phone, phoneBook) in zip(phones, books) {
            if !phoneBook.hasSameValues(as: phone.styles) { changed = true }
            phone.styles = phoneBook
        }
        stylesRevision &+= 1
        return changed
    }
}

extension InputEvent {
    /// The event at the same place on a phone whose screen is `ratio` times as tall: every point and the wheel's
    /// distance scaled by it.
    func scaled(by ratio: Double) -> InputEvent {
        guard ratio != 1 else { return self }
        switch self {
        case .touchDown(let p): return .touchDown(p * ratio)
        case .touchMove(let p): return .touchMove(p * ratio)
        case .touchUp(let p): return .touchUp(p * ratio)
        case .wheel(let delta, let at): return .wheel(delta * ratio, at: at.map { $0 * ratio })
        }
    }
}

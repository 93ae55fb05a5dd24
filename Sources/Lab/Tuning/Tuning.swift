import Colors
import Geometry
import Raster
import Refresh
import Scrolling
import Styles
#if canImport(Glibc)
import Glibc
#endif
import UserFiles

/// One line of the tuning panel (T): a parameter of the current effect or of the physics, or one part of it (a
/// colour's channel, a size's side), with its effective value and where that comes from.
public struct TuningRow: Equatable, Sendable {
    /// Which part of the parameter the row shows and nudges.
    public enum Part: Equatable, Sendable {
        /// The whole value: a number, a whole number, a timing curve, a text.
        case whole
        /// A channel of a colour: 0 red, 1 green, 2 blue, 3 alpha, each 0…255.
        case channel(Int)
        /// A channel of the colour at `item` of a list of colours.
        case item(Int, channel: Int)
        /// A side of a size: 0 width, 1 height.
        case side(Int)
    }

    /// The style file's section: the effect's name, or "physics".
    public let section: String
    public let key: String
    public let kind: StyleKind
    public let unit: String
    let meaning: String
    public let range: ClosedRange<Double>?
    public let part: Part
    /// The parameter's whole effective value, as a style file writes it.
    public let value: JSONValue
    /// The user's file and line the value comes from; nil for a default.
    public let source: StyleSource?
    /// What the row is called: the key, with the channel or side it shows ("textColor R", "colors 2 G").
    let label: String
    /// The part's value as the panel shows it, without the unit.
    let valueText: String

    /// Texts and segments are shown, not edited: they are edited in the file.
    var isEditable: Bool { kind != .text && kind != .segment }

    /// The channels' names, in their order in "#RRGGBBAA".
    static let channelNames = ["R", "G", "B", "A"]

    /// The rows of one style: one per number, whole number, timing curve or text, four per colour (a channel
    /// each), two per size.
    static func rows<S: StyleValue>(of style: S, section: String, entries: [StyleBook.Entry],
                                    language: RefreshLanguage) -> [TuningRow] {
        var rows: [TuningRow] = []
        for field in S.fields {
            let value = field.read(style)
            // A value tuned live without a file to save to has a source with no file: it is not the user's file's.
            let source = entries.first { $0.key == field.key && !$0.source.file.isEmpty }?.source
            func row(_ part: Part, _ label: String, _ text: String) -> TuningRow {
                TuningRow(section: section, key: field.key, kind: field.kind, unit: field.unit, meaning: field.meaning,
                          range: field.range, part: part, value: value, source: source, label: label, valueText: text)
            }
            switch (field.kind, value) {
            case (.color, .string(let hex)):
                let bytes = TuningStep.channels(of: hex)
                for c in 0..<4 { rows.append(row(.channel(c), field.key + " " + channelNames[c], String(bytes[c]))) }
            case (.colors, .array(let items)):
                for (i, item) in items.enumerated() {
                    guard case .string(let hex) = item else { continue }
                    let bytes = TuningStep.channels(of: hex)
                    for c in 0..<4 {
                        rows.append(row(.item(i, channel: c), "\(field.key) \(i + 1) \(channelNames[c])", String(bytes[c])))
                    }
                }
            case (.size, .array(let sides)) where sides.count == 2:
                for (i, side) in sides.enumerated() {
                    rows.append(row(.side(i), field.key + (i == 0 ? " width" : " height"), TuningStep.show(side)))
                }
            case (.text, .object(let languages)):
                let wanted = language == .chinese ? "zh" : "en"
                let text = languages.first { $0.key == wanted }?.value
                rows.append(row(.whole, field.key, text.map { if case .string(let s) = $0 { "“" + s + "”" } else { "" } } ?? ""))
            case (.segment, .null):
                rows.append(row(.whole, field.key, language == .chinese ? "同名标记" : "its marker"))
            case (.segment, .string(let marker)):
                rows.append(row(.whole, field.key, "“" + marker + "”"))
            case (.segment, .array(let frames)) where frames.count == 2:
                rows.append(row(.whole, field.key, TuningStep.show(frames[0]) + "–" + TuningStep.show(frames[1])))
            default:
                rows.append(row(.whole, field.key, TuningStep.show(value)))
            }
        }
        return rows
    }

    /// The parameter's whole value after nudging this row's part by `steps` (Left −1, Right +1, ×10 with Shift),
    /// within its range; nil for a row that cannot be nudged (a text).
    func nudged(by steps: Int) -> JSONValue? {
        switch (kind, part, value) {
        case (.number, .whole, .number(let v)):
            return .number(TuningStep.nudge(v, by: steps, range: range ?? -Double.infinity...Double.infinity))
        case (.integer, .whole, .number(let v)):
            let bounds = range ?? -1e15...1e15
            return .number(Swift.min(Swift.max(v + Double(steps), bounds.lowerBound), bounds.upperBound))
        case (.color, .channel(let c), .string(let hex)):
            return .string(TuningStep.nudgeChannel(c, of: hex, by: steps))
        case (.colors, .item(let i, let c), .array(var items)) where items.indices.contains(i):
            guard case .string(let hex) = items[i] else { return nil }
            items[i] = .string(TuningStep.nudgeChannel(c, of: hex, by: steps))
            return .array(items)
        case (.size, .side(let s), .array(var sides)) where sides.count == 2:
            guard case .number(let v) = sides[s] else { return nil }
            sides[s] = .number(TuningStep.nudge(v, by: steps, range: range ?? 0...Double.infinity))
            return .array(sides)
        case (.timing, .whole, _):
            let names = StyleKind.timingCurveNames
            guard !names.isEmpty, steps != 0 else { return value }
            let current: Int? = if case .string(let name) = value { names.firstIndex(of: name) } else { nil }
            let next = current.map { ($0 + (steps > 0 ? 1 : -1) + names.count) % names.count }
                ?? (steps > 0 ? 0 : names.count - 1)
            return .string(names[next])
        default:
            return nil
        }
    }
}

/// How far Left and Right move a value.
public enum TuningStep {
    /// The step of a number within `range` when it goes from `value` in the direction of `steps`: a hundredth of
    /// the range's order of magnitude (0.01 in 0…1, 1 in 0…200), and no more than a tenth of the value's own
    /// (10 for a stiffness of 300 in 1…10000), so that small values are tuned finely. Going down from a power of
    /// ten takes the finer step, so that Left undoes Right (100 → 99 → 100 → 110).
    public static func step(range: ClosedRange<Double>, value: Double, steps: Int = 1) -> Double {
        let span = range.upperBound - range.lowerBound
        var step = span.isFinite && span > 0 ? power10(floor(log10(span)) - 2) : 1
        // Moving towards zero, the step is the one just below the value's magnitude.
        let towardsZero = (value > 0) == (steps < 0)
        let magnitude = Swift.abs(value) * (towardsZero ? 1 - 1e-9 : 1)
        if magnitude > 0 && magnitude.isFinite { step = Swift.min(step, power10(floor(log10(magnitude)) - 1)) }
        return step
    }

    /// `value` moved by `steps` steps and kept within `range`; rounded to a thousandth of the step, so that no
    /// binary fraction's noise (0.30000000000000004) reaches the file.
    static func nudge(_ value: Double, by steps: Int, range: ClosedRange<Double>) -> Double {
        let step = self.step(range: range, value: value, steps: steps)
        let raw = value + Double(steps) * step
        let digits = Swift.max(0, Swift.min(15, -Int(floor(log10(step))) + 3))
        let p = power10(Double(digits))
        let clean = (raw * p).rounded() / p
        return Swift.min(Swift.max(clean, range.lowerBound), range.upperBound)
    }

    private static func power10(_ exponent: Double) -> Double { pow(10, exponent) }

    /// The four bytes of "#RRGGBB" or "#RRGGBBAA" (alpha 255 when absent).
    static func channels(of hex: String) -> [Int] {
        let digits = Array(hex.utf8.drop { $0 == UInt8(ascii: "#") })
        var bytes = [0, 0, 0, 255]
        for c in 0..<4 where digits.count >= 2 * c + 2 {
            bytes[c] = Int(String(decoding: digits[(2 * c)..<(2 * c + 2)], as: UTF8.self), radix: 16) ?? 0
        }
        return bytes
    }

    /// A colour from its four bytes, as a style file writes it: "#RRGGBB" when opaque, else "#RRGGBBAA".
    static func hex(_ bytes: [Int]) -> String {
        let shown = bytes[3] == 255 ? bytes.prefix(3) : bytes.prefix(4)
        return "#" + shown.map { b in
            let text = String(b, radix: 16, uppercase: true)
            return b < 16 ? "0" + text : text
        }.joined()
    }

    /// `hex` with `channel` moved by `steps` (one unit of 255 a step), within 0…255.
    static func nudgeChannel(_ channel: Int, of hex: String, by steps: Int) -> String {
        var bytes = channels(of: hex)
        bytes[channel] = Swift.min(255, Swift.max(0, bytes[channel] + steps))
        return self.hex(bytes)
    }

    /// A value as the panel shows it: numbers without a needless ".0", curves by name or as a list.
    static func show(_ value: JSONValue) -> String {
        switch value {
        case .number(let v): return JSONText.number(v)
        case .string(let s): return s
        case .array(let items): return items.map(show).joined(separator: ", ")
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .object: return "…"
        }
    }
}

/// The tuning panel's state: open or not, the selected row, and the changes not yet saved to the style file.
///
/// A change applies to the simulation at once (as a reloaded file does: from the next frame, nothing reset) and
/// goes to `file` at most every `saveInterval`, and when the panel closes, so that holding an arrow does not write
/// the file sixty times a second; the last value is always written. The file keeps every other section and key.
public final class Tuning {
    /// How often a burst of nudges is written to the file, at most, in seconds.
    static let saveInterval = 0.2

    public internal(set) var isOpen = false
    /// The selected row of `Simulation.tuningRows`.
    public internal(set) var selection = 0
    /// The first line the panel shows when its lines do not fit.
    var firstVisibleLine = 0
    /// The selected row the panel last scrolled into view: a new selection is brought into view once, and the
    /// panel scrolled by the wheel or a drag stays where it was put.
    var revealedSelection: Int?
    /// The touch that went down on the panel's sheet, while it lasts.
    var panelTouch: PanelTouch?
    /// Wheel movement over the panel not yet worth a whole step (on a value) or line (elsewhere).
    var wheelRemainder = 0.0

    /// A touch on the panel: a drag along a row tunes its value, a drag up or down scrolls the lines.
    struct PanelTouch {
        let start: Point
        /// The row it went down on and its index, as it was then (a drag's steps count from its value); nil off
        /// the rows.
        let row: (index: Int, row: TuningRow)?
        let firstLine: Int
        /// Decided once the touch has moved `TuningPanel.dragSlop` points.
        var isHorizontal: Bool?
        var appliedSteps = 0
    }
    /// The style file changes are saved to: the last `--style` file, else `tuning.json` in the user's folder
    /// (`StyleFiles.tuningFile`); nil: changes apply live only.
    public var file: String?
    /// When the changes not yet saved are due to be (base clock), or nil.
    public internal(set) var saveDue: Double?
    /// How many times the file was written.
    public internal(set) var saveCount = 0
    /// The last failure to save, said once on standard error until a save works again.
    public internal(set) var lastFailure: String?

    /// A change not yet in the file, with its style's type so that a reload can keep it; a nil value removes the
    /// key, so that its default applies (Backspace).
    struct Change {
        let section: String
        let key: String
        let value: JSONValue?
        var source: StyleSource
        let type: any StyleValue.Type

        /// The file's text with this change made.
        func applied(to text: [UInt8]?) throws(JSONSyntaxError) -> String {
            guard let value else { return try StyleFileEdit.removing(section: section, key: key, in: text) }
            return try StyleFileEdit.setting(value, section: section, key: key, in: text)
        }

        /// The change made on a book in memory.
        func apply(to book: inout StyleBook) {
            guard let value else { return book.remove(key, in: section) }
            func set<S: StyleValue>(_ type: S.Type) { _ = book.set(value, for: key, in: section, of: S.self, source: source) }
            set(self.type)
        }
    }

    var unsaved: [Change] = []
    var lastSave = -Double.infinity
    /// The rows, made again only when the styles, the effect or the language change.
    var rowCache: (revision: Int, effect: String, language: RefreshLanguage, rows: [TuningRow])?
    /// Every section a file may have, to check the file before writing over it; made once.
    private var checkingCatalog: (revision: Int, catalog: StyleCatalog)?

    public init() {}

    /// Whether changes wait to be saved.
    var hasUnsavedChanges: Bool { !unsaved.isEmpty }

    func catalog() -> StyleCatalog {
        if let checkingCatalog, checkingCatalog.revision == RefreshEffects.revision { return checkingCatalog.catalog }
        let made = StyleFiles.catalog
        checkingCatalog = (RefreshEffects.revision, made)
        return made
    }

    /// Records a change for the next save, replacing an earlier one of the same key.
    func record(_ change: Change) {
        unsaved.removeAll { $0.section == change.section && $0.key == change.key }
        unsaved.append(change)
    }

    /// Sets the changes not yet saved on `book`: a file read again before the save keeps what the panel shows.
    func reapplyUnsaved(to book: inout StyleBook) {
        for change in unsaved { change.apply(to: &book) }
    }

    /// The file's bytes with every unsaved change set; nil bytes: the file does not exist yet.
    func edited(_ bytes: [UInt8]?) throws(JSONSyntaxError) -> String {
        var text = bytes
        var result = ""
        for change in unsaved {
            result = try change.applied(to: text)
            text = Array(result.utf8)
        }
        return result
    }
}

extension StyleFiles {
    /// The style file live tuning writes to: the last of the `--style` files when there are any (it is read last,
    /// so its values win), else `tuning.json` in the user's folder; nil without a folder.
    public static func tuningFile(extra: [String], folder: String?) -> String? {
        if let last = extra.last { return last }
        return folder.map { $0 + "/tuning.json" }
    }
}

extension Simulation {
    /// The panel's rows: the current effect's parameters (when it has a style), the second floor's (when the phone
    /// has one), then the physics'.
    var tuningRows: [TuningRow] {
        if let cache = tuning.rowCache, cache.revision == stylesRevision, cache.effect == effectName,
           cache.language == language {
            return cache.rows
        }
        var rows: [TuningRow] = []
        if let styled = refreshControl.effect as? any StyledEffect {
            func add<E: StyledEffect>(_ effect: E) {
                rows += TuningRow.rows(of: effect.style, section: effectName, entries: styles.entries(for: effectName),
                                       language: language)
            }
            add(styled)
        }
        if let floor = refreshControl.secondFloor {
            rows += TuningRow.rows(of: floor, section: StyleFiles.floorSection,
                                   entries: styles.entries(for: StyleFiles.floorSection), language: language)
        }
        rows += TuningRow.rows(of: scrollView.physics, section: StyleFiles.physicsSection,
                               entries: styles.entries(for: StyleFiles.physicsSection), language: language)
        // Another header: a physics row stays selected, else the new header's first row is.
        if let old = tuning.rowCache, old.effect != effectName {
            let previous = old.rows.isEmpty ? nil : old.rows[Swift.min(tuning.selection, old.rows.count - 1)]
            tuning.selection = previous.flatMap { kept in
                rows.firstIndex { $0.section == kept.section && $0.key == kept.key && $0.part == kept.part }
            } ?? 0
            tuning.firstVisibleLine = 0
        }
        tuning.rowCache = (stylesRevision, effectName, language, rows)
        return rows
    }

    /// The selected row, when there is one.
    var selectedTuningRow: TuningRow? {
        let rows = tuningRows
        return rows.isEmpty ? nil : rows[Swift.min(tuning.selection, rows.count - 1)]
    }

    /// What T, the arrows and Esc do for the panel; nil for a command that is not the panel's.
    func applyTuning(_ command: Command) -> String? {
        let chinese = language == .chinese
        switch command {
        case .toggleTuning where tuning.isOpen, .escape where tuning.isOpen:
            tuning.isOpen = false
            saveTuning()
            return chinese ? "调参面板已关闭" : "Tuning closed"
        case .toggleTuning:
            tuning.isOpen = true
            guard tuningFile != nil else {
                return chinese ? "调参只在本次生效：没有样式文件可保存" : "Tuning live only: no style file to save to"
            }
            return chinese ? "调参：↑↓ 选择，←→ 调整" : "Tuning: ↑↓ choose, ←→ nudge"
        case .tuningSelect, .tuningNudge, .tuningReset:
            guard tuning.isOpen else { return chinese ? "按 T 打开调参面板" : "Press T to tune with the arrows" }
            let rows = tuningRows
            guard !rows.isEmpty else { return "" }
            if command == .tuningReset { return resetSelectedTuningRow() }
            if case .tuningSelect(let by) = command {
                let current = Swift.min(tuning.selection, rows.count - 1)
                tuning.selection = ((current + by) % rows.count + rows.count) % rows.count
                return ""
            }
            guard case .tuningNudge(let by) = command else { return "" }
            return nudgeSelectedRow(by: by)
        default:
            return nil
        }
    }

    /// Nudges the selected row's value by `steps` and applies it; returns the toast ("" when none is needed).
    private func nudgeSelectedRow(by steps: Int) -> String {
        guard let row = selectedTuningRow else { return "" }
        let chinese = language == .chinese
        guard let value = row.nudged(by: steps) else {
            return row.kind == .segment ? (chinese ? "片段在样式文件中编辑" : "Segments are edited in the style file")
                                        : (chinese ? "文本在样式文件中编辑" : "Texts are edited in the style file")
        }
        guard value != row.value else {
            let end = steps > 0 ? row.range?.upperBound : row.range?.lowerBound
            let limit = row.kind == .color || row.kind == .colors ? (steps > 0 ? "255" : "0") : end.map { TuningStep.show(.number($0)) } ?? ""
            return chinese ? "\(row.label) 已到极限 \(limit)" : "\(row.label) is at its end, \(limit)"
        }
        return setTuned(value, for: row)
    }

    /// Returns the selected row's parameter to its default (Backspace): the key leaves the style book now and the
    /// style file soon. Returns the toast.
    func resetSelectedTuningRow() -> String {
        guard let row = selectedTuningRow else { return "" }
        let chinese = language == .chinese
        guard let entry = styles.entries(for: row.section).first(where: { $0.key == row.key }) else {
            return chinese ? "\(row.key) 已是默认值" : "\(row.key) is at its default already"
        }
        if !entry.source.file.isEmpty, entry.source.file != tuningFile {
            let place = FileName.split(entry.source.file).name + ":" + String(entry.source.line)
            return chinese ? "\(row.key) 来自 \(place)，请在该文件中删除" : "\(row.key) comes from \(place): remove it there"
        }
        let refusal = setTuned(nil, for: row)
        guard refusal.isEmpty else { return refusal }
        return chinese ? "\(row.key) 恢复默认值" : "\(row.key) back to its default"
    }

    /// Applies `value` to `row`'s parameter now (nil: its default again) and saves it to the style file soon; ""
    /// or what went wrong.
    @discardableResult
    func setTuned(_ value: JSONValue?, for row: TuningRow) -> String {
        let type: any StyleValue.Type
        if row.section == StyleFiles.physicsSection {
            type = PhysicsStyle.self
        } else if row.section == StyleFiles.floorSection {
            type = SecondFloor.Style.self
        } else if let styled = refreshControl.effect as? any StyledEffect, row.section == effectName {
            type = styleType(of: styled)
        } else {
            return "No style for \(row.section)"
        }
        let value = value.map { shownVariant($0, of: row, in: type) }
        /// The change made on a copy of the styles: nil, or why the value was refused.
        func changed(_ book: inout StyleBook, source: StyleSource) -> String? {
            guard let value else {
                book.remove(row.key, in: row.section)
                return nil
            }
            func set<S: StyleValue>(_ type: S.Type) -> String? {
                book.set(value, for: row.key, in: row.section, of: S.self, source: source)
            }
            return set(type)
        }
        guard let file = tuningFile else {
            // Without a file (no folder for the user's styles), the value is live only, as the panel said on opening.
            var book = styles
            if let refusal = changed(&book, source: StyleSource(file: "", line: 0, column: 0)) { return refusal }
            styles = book
            return ""
        }
        let overriding = laterFile(setting: row.key, in: row.section, than: file)
        var change = Tuning.Change(section: row.section, key: row.key, value: value,
                                   source: StyleSource(file: file, line: 1, column: 1), type: type)
        // The file as it will be written says where the value (and every other of the file) will stand.
        let preview = tuningPreview(with: change, file: file)
        if let placed = preview?.entries(for: row.section).first(where: { $0.key == row.key }) { change.source = placed.source }
        var book = styles
        if let refusal = changed(&book, source: change.source) { return refusal }
        if let preview { book.takeSources(of: file, from: preview) }
        tuning.record(change)
        styles = book
        let now = clock.base.now
        if now - tuning.lastSave >= Tuning.saveInterval {
            saveTuning()
        } else if tuning.saveDue == nil {
            tuning.saveDue = tuning.lastSave + Tuning.saveInterval
        }
        guard let overriding, tuning.lastFailure == nil else { return "" }
        let name = FileName.split(overriding).name
        return language == .chinese ? "\(name) 也设置了 \(row.key)，重新读取时以它为准"
            : "\(name) sets \(row.key) too, and wins when the files are read again"
    }

    /// The file read after `file` that gives `section`.`key` now, if one does: its value wins over the tuned one
    /// at the next reload (a `*.json` of the user's folder named after `tuning.json`, say).
    private func laterFile(setting key: String, in section: String, than file: String) -> String? {
        guard let current = styles.entries(for: section).first(where: { $0.key == key }),
              !current.source.file.isEmpty, current.source.file != file else { return nil }
        let source = current.source.file
        if let target = styles.files.firstIndex(of: file), let other = styles.files.firstIndex(of: source) {
            return other > target ? source : nil
        }
        // A file not read yet (tuning.json made by the panel): the folder's files are read in name order.
        let (folder, name) = FileName.split(file), (otherFolder, otherName) = FileName.split(source)
        guard folder == otherFolder, !styles.files.contains(file) else { return nil }
        return Array(otherName.utf8).lexicographicallyPrecedes(Array(name.utf8)) ? nil : source
    }

    private func styleType<E: StyledEffect>(of effect: E) -> any StyleValue.Type { E.Style.self }

    /// `value`, tuned on a colour as the current appearance shows it, as the style file is to hold it: the other
    /// appearance keeps its colour, so the two are written per appearance (`{"light": …, "dark": …}`) unless they
    /// are then the same (a colour without a dark variant tuned in light changes in both, as it always did).
    private func shownVariant(_ value: JSONValue, of row: TuningRow, in type: any StyleValue.Type) -> JSONValue {
        func variants<S: StyleValue>(_ type: S.Type) -> JSONValue {
            guard row.kind.variesByAppearance, let field = S.fields.first(where: { $0.key == row.key }) else { return value }
            let light = field.read(styles.style(S.self, for: row.section, appearance: .light))
            let dark = field.read(styles.style(S.self, for: row.section, appearance: .dark))
            switch appearance {
            case .light: return light == dark ? value : .object([("light", value), ("dark", dark)])
            case .dark: return value == light ? value : .object([("light", light), ("dark", value)])
            }
        }
        return variants(type)
    }

    /// The style file as it would be written with the unsaved changes and `change`, read as a book; nil when the
    /// file cannot be read or is broken now.
    private func tuningPreview(with change: Tuning.Change, file: String) -> StyleBook? {
        var bytes: [UInt8]?
        do { bytes = try StyleFiles.read(file) } catch { guard error.reason.hasPrefix("no such") else { return nil } }
        var text = bytes
        for pending in tuning.unsaved.filter({ !($0.section == change.section && $0.key == change.key) }) + [change] {
            guard let edited = try? pending.applied(to: text) else {
                return nil
            }
            text = Array(edited.utf8)
        }
        guard let text else { return nil }
        return try? StyleBook(catalog: tuning.catalog(), files: [(file, text)])
    }

    /// Writes the changes not yet saved to the style file, keeping the rest of it; a file that is broken now is
    /// not written over, and a file that cannot be written is said in a toast and on standard error (once), the
    /// values staying live.
    func saveTuning() {
        tuning.saveDue = nil
        guard tuning.hasUnsavedChanges else { return }
        tuning.lastSave = clock.base.now
        guard let file = tuningFile else {
            tuning.unsaved = []
            return
        }
        let chinese = language == .chinese
        var bytes: [UInt8]?
        do {
            bytes = try StyleFiles.read(file)
        } catch {
            guard error.reason.hasPrefix("no such") else {
                return tuningFailure(chinese ? "无法读取样式文件，未保存" : "Cannot read the style file; not saved",
                                     line: error.description + "; the tuned values are not saved", detail: file)
            }
        }
        if let bytes {
            do {
                _ = try StyleBook(catalog: tuning.catalog(), files: [(file, bytes)])
            } catch {
                return tuningFailure(chinese ? "样式文件有错误，未覆盖" : "The style file is broken; not written over",
                                     line: error.description + " (fix it; the tuned values apply live but are not saved)",
                                     detail: error.description)
            }
        }
        let text: String
        do {
            text = try tuning.edited(bytes)
        } catch {
            return tuningFailure(chinese ? "样式文件有错误，未覆盖" : "The style file is broken; not written over",
                                 line: "\(file):\(error.line):\(error.column): \(error.reason) (not written over)", detail: file)
        }
        do {
            let (folder, _) = FileName.split(file)
            try makeDirectory(folder)
            let utf8 = Array(text.utf8)
            try utf8.withUnsafeBytes { try OutputFile.write($0, to: file) }
        } catch {
            return tuningFailure(chinese ? "无法保存样式文件；数值仅在本次生效" : "Cannot save the style file; the value applies live only",
                                 line: "cannot save the tuned values to \(file): \(error) (they apply live only)",
                                 detail: file)
        }
        tuning.unsaved = []
        tuning.saveCount += 1
        if let written = try? StyleBook(catalog: tuning.catalog(), files: [(file, Array(text.utf8))]) {
            var book = styles
            book.takeSources(of: file, from: written)
            styles = book
        }
        tuning.lastFailure = nil
    }

    /// A save that did not happen: a toast, and one line on standard error until a save works again.
    private func tuningFailure(_ toast: String, line: String, detail: String?) {
        showToast(toast, detail: detail)
        if tuning.lastFailure != line { FileLines.standardError(line) }
        tuning.lastFailure = line
    }
}

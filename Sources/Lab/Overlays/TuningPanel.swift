import Geometry
import Raster
import Refresh
import Styles
import Text
import Colors

/// The tuning panel (T) as an iOS sheet over the lower part of the phone: a grabber and a title, the rows of the
/// current effect and of the physics under their section names (the selected row filled with the tint, a dot on
/// values from a user's file), and a footer saying what the selected value is, where it comes from and which keys
/// tune it. The upper part of the screen, where the header plays, stays in view.
///
/// Texts are laid out once and kept until the panel's rows change; drawing a frame lays out nothing new.
final class TuningPanel {
    /// The sheet's top, as a share of the screen's height: the header and the first rows stay in view above it.
    static let topShare = 0.45
    static let cornerRadius = 12.0
    static let sheetColor = Color(rgb: 255, 255, 255)
    static let shadowColor = Color(rgb: 0, 0, 0, alpha: 0.12)
    static let grabberColor = Color(rgb: 60, 60, 67, alpha: 0.3)
    /// The selected row: UIKit's system blue, with white text on it.
    static let selectionColor = Color(rgb: 0, 122, 255)
    static let labelColor = Color(rgb: 0, 0, 0)
    static let secondaryColor = Color(rgb: 60, 60, 67, alpha: 0.6)
    static let separatorColor = Color(rgb: 60, 60, 67, alpha: 0.29)
    /// The mark of a value that comes from a user's file: UIKit's system orange.
    static let fileMarkColor = Color(rgb: 255, 149, 0)
    static let titleSize = 15.0
    static let rowSize = 13.0
    static let sectionSize = 11.0
    static let footerSize = 11.0
    static let rowHeight = 24.0
    static let sectionHeight = 22.0
    static let headerHeight = 40.0
    static let footerLineHeight = 15.0
    /// The footer's lines: the meaning (up to three), where the value comes from, and the keys (up to two).
    static let meaningLines = 3
    static let keyLines = 2
    static let footerLines = meaningLines + 1 + keyLines
    static let margin = 16.0
    /// How far a touch on the panel moves before it is a drag, and along which axis, in points.
    static let dragSlop = 6.0
    /// How far a drag along a row moves for one step of its value, in points.
    static let dragStep = 8.0

    /// A line of the list: a section's name, or a row (its index in the rows).
    enum Line: Equatable {
        case section(String)
        case row(Int)
    }

    /// A text laid out: its string, size, weight and width limit (0: none).
    private struct TextKey: Hashable {
        let text: String
        let size: Double
        let bold: Bool
        let maxWidth: Double
    }

    private var laidOut: [TextKey: TextLine] = [:]
    /// The rows the texts and lines were made for, and the lines.
    private var revision: (styles: Int, effect: String, language: RefreshLanguage)?
    private var lines: [Line] = []
    /// The footer's lines for the selected row, laid out again when the selection or the rows change.
    private var footer: (row: Int, lines: [(TextLine, Color)])?

    /// The sheet's frame in points when it lies over the phone's `screen`: its lower part.
    static func sheetFrame(screen: Size) -> Rect {
        let top = (screen.height * topShare).rounded()
        return Rect(x: 0, y: top, width: screen.width, height: screen.height - top)
    }

    /// The frame of the panel's list of lines on `sheet`, in points, between its title and its footer.
    static func listFrame(sheet: Rect) -> Rect {
        let footerHeight = Double(footerLines) * footerLineHeight + 12
        return Rect(x: sheet.minX, y: sheet.minY + headerHeight, width: sheet.width,
                    height: sheet.height - headerHeight - footerHeight)
    }

    /// Where a row's value part begins, in points: the wheel there tunes the value, elsewhere it scrolls the lines.
    static func valueAreaMinX(sheet: Rect) -> Double { (sheet.minX + sheet.width / 2).rounded() }

    /// `first` kept between the first line and the last first line that still fills the list.
    static func clampedFirstLine(_ first: Int, lines: [Line], sheet: Rect) -> Int {
        let room = listFrame(sheet: sheet).height
        var last = lines.count, used = 0.0
        while last > 0 && used + height(of: lines[last - 1]) <= room {
            last -= 1
            used += height(of: lines[last])
        }
        return Swift.max(0, Swift.min(first, last))
    }

    static func height(of line: Line) -> Double {
        if case .section = line { return sectionHeight } else { return rowHeight }
    }

    /// The line drawn under `point` (in points) when the list shows `lines` from `first`; nil off the list.
    static func line(at point: Point, lines: [Line], first: Int, sheet: Rect) -> Line? {
        let list = listFrame(sheet: sheet)
        guard list.contains(point), first >= 0 else { return nil }
        var y = list.minY
        for line in lines.dropFirst(first) {
            let next = y + height(of: line)
            if point.y < next { return line }
            y = next
        }
        return nil
    }

    /// The lines of `rows`: each section's name before its first row.
    static func lines(_ rows: [TuningRow]) -> [Line] {
        var lines: [Line] = []
        for (i, row) in rows.enumerated() {
            if i == 0 || rows[i - 1].section != row.section { lines.append(.section(row.section)) }
            lines.append(.row(i))
        }
        return lines
    }

    private func line(_ text: String, size: Double, bold: Bool = false, renderer: TextRenderer,
                      maxWidth: Double = 0) -> TextLine {
        let key = TextKey(text: text, size: size, bold: bold, maxWidth: maxWidth)
        if let found = laidOut[key] { return found }
        let made = renderer.layout(text, size: size, maxWidth: maxWidth > 0 ? maxWidth : nil)
        laidOut[key] = made
        return made
    }

    /// Draws the panel on `sheet` (points of `canvas`, whose left edge it starts at): over the phone's lower part,
    /// or the whole side area beside it.
    func draw(_ simulation: Simulation, over phone: any PhoneView, text: TextRenderer, bold: TextRenderer?,
              sheet: Rect, into canvas: Canvas) {
        let s = phone.device.scale
        let rasterizer = phone.renderer.rasterizer
        let toPixels = AffineTransform(scaleX: s, y: s)
        let rows = simulation.tuningRows
        let now = (simulation.stylesRevision, phone.effectName, phone.language)
        if revision.map({ $0 != now }) ?? true || laidOut.count > 600 {
            laidOut.removeAll(keepingCapacity: true)
            revision = now
            lines = TuningPanel.lines(rows)
            footer = nil
        }
        let chinese = phone.language == .chinese
        let width = sheet.width

        // The sheet: a soft edge above it, then the sheet with its top corners rounded.
        var shadow = Path()
        shadow.addRoundedRect(Rect(x: 0, y: sheet.minY - 1.5, width: width, height: sheet.height + 20),
                              cornerRadius: TuningPanel.cornerRadius + 1)
        rasterizer.fill(shadow, transform: toPixels, color: TuningPanel.shadowColor, into: canvas)
        var body = Path()
        body.addRoundedRect(Rect(x: 0, y: sheet.minY, width: width, height: sheet.height + 20),
                            cornerRadius: TuningPanel.cornerRadius)
        rasterizer.fill(body, transform: toPixels, color: TuningPanel.sheetColor, into: canvas)
        var grabber = Path()
        grabber.addRoundedRect(Rect(x: (width - 36) / 2, y: sheet.minY + 5, width: 36, height: 5), cornerRadius: 2.5)
        rasterizer.fill(grabber, transform: toPixels, color: TuningPanel.grabberColor, into: canvas)

        // The title: the effect and the physics.
        let effectTitle = rows.first { $0.section != StyleFiles.physicsSection && $0.section != StyleFiles.floorSection }?.section
        let physics = chinese ? "物理" : "physics"
        let titleText = effectTitle.map { $0 + "  ·  " + physics } ?? physics
        let title = line(titleText, size: TuningPanel.titleSize, bold: bold != nil, renderer: bold ?? text)
        (bold ?? text).draw(title, at: title.origin(in: Rect(x: 0, y: sheet.minY + 12, width: width, height: 24), alignment: .center),
                            color: TuningPanel.labelColor, scale: s, into: canvas)

        // The rows, scrolled so that the selected one is in view.
        let list = TuningPanel.listFrame(sheet: sheet)
        let selected = rows.isEmpty ? -1 : Swift.min(simulation.tuning.selection, rows.count - 1)
        let selectedLine = lines.firstIndex(of: .row(selected)) ?? 0
        let height = TuningPanel.height(of:)
        var first = TuningPanel.clampedFirstLine(simulation.tuning.firstVisibleLine, lines: lines, sheet: sheet)
        // A new selection is brought into view once, its section's name with it; the panel scrolled by the wheel
        // or a drag stays where it was put.
        if simulation.tuning.revealedSelection != selected {
            simulation.tuning.revealedSelection = selected
            let wantedTop = selectedLine > 0 && lines[selectedLine - 1] != .row(selected - 1) ? selectedLine - 1 : selectedLine
            if wantedTop < first { first = wantedTop }
            while first < selectedLine && lines[first...selectedLine].reduce(0, { $0 + height($1) }) > list.height { first += 1 }
        }
        simulation.tuning.firstVisibleLine = first
        let clip = Rect(x: 0, y: list.minY * s, width: width * s, height: list.height * s)
        var y = list.minY
        var shownEnd = first
        for index in first..<lines.count {
            guard y < list.maxY else { break }
            let item = lines[index]
            let h = height(item)
            switch item {
            case .section(let name):
                let caption = name == StyleFiles.physicsSection ? (chinese ? "物理" : "PHYSICS")
                    : name == StyleFiles.floorSection ? (chinese ? "二楼" : "SECOND FLOOR")
                    : (chinese ? name + " 效果" : name.uppercased())
                let laid = line(caption, size: TuningPanel.sectionSize, renderer: text)
                text.draw(laid, at: laid.origin(in: Rect(x: TuningPanel.margin + 4, y: y + 6, width: width, height: h - 6)),
                          color: TuningPanel.secondaryColor, scale: s, clip: clip, into: canvas)
            case .row(let i):
                drawRow(rows[i], isSelected: i == selected, frame: Rect(x: 0, y: y, width: width, height: h),
                        phone: phone, text: text, clip: clip, into: canvas)
            }
            y += h
            shownEnd = index + 1
        }
        // A scroll indicator when the lines do not all fit.
        if first > 0 || shownEnd < lines.count {
            let total = lines.reduce(0) { $0 + height($1) }
            let before = lines[..<first].reduce(0) { $0 + height($1) }
            let barHeight = Swift.max(24, list.height * list.height / total)
            let barY = list.minY + (list.height - barHeight) * before / Swift.max(1, total - list.height)
            var bar = Path()
            bar.addRoundedRect(Rect(x: width - 5, y: Swift.min(barY, list.maxY - barHeight), width: 3, height: barHeight),
                               cornerRadius: 1.5)
            rasterizer.fill(bar, transform: toPixels, color: TuningPanel.grabberColor, into: canvas)
        }

        // The footer: the selected value's meaning, its source and range, and the keys.
        let footerTop = list.maxY
        rasterizer.fill(.rect(Rect(x: TuningPanel.margin * s, y: (footerTop * s).rounded(), width: (width - 2 * TuningPanel.margin) * s,
                                   height: Swift.max(1, s / 2))),
                        color: TuningPanel.separatorColor, into: canvas)
        let footerWidth = width - 2 * TuningPanel.margin
        if footer?.row != selected {
            var made: [(TextLine, Color)] = []
            if selected >= 0 {
                let row = rows[selected]
                for meaning in text.layoutLines(row.meaning, size: TuningPanel.footerSize, maxWidth: footerWidth,
                                                maxLines: TuningPanel.meaningLines) {
                    made.append((meaning, TuningPanel.secondaryColor))
                }
                made.append((text.layout(TuningPanel.sourceLine(row, chinese: chinese), size: TuningPanel.footerSize,
                                         maxWidth: footerWidth),
                             row.source == nil ? TuningPanel.secondaryColor : TuningPanel.fileMarkColor))
            }
            // Each key stays with what it does: the spaces inside a hint do not break (U+00A0).
            let hints = chinese ? ["↑↓ 选择", "←→、拖动或滚轮 调整", "Shift ×10", "Backspace 默认值", "T 关闭"]
                : ["↑↓ choose", "←→, drag or wheel: tune", "Shift ×10", "Backspace: default", "T close"]
            let keys = hints.map { String($0.map { $0 == " " ? "\u{00A0}" : $0 }) }.joined(separator: "   ")
            for line in text.layoutLines(keys, size: TuningPanel.footerSize, maxWidth: footerWidth,
                                         maxLines: TuningPanel.keyLines) {
                made.append((line, TuningPanel.secondaryColor))
            }
            footer = (selected, made)
        }
        for (k, (shown, color)) in (footer?.lines ?? []).enumerated() {
            let box = Rect(x: TuningPanel.margin, y: footerTop + 6 + Double(k) * TuningPanel.footerLineHeight,
                           width: footerWidth, height: TuningPanel.footerLineHeight)
            text.draw(shown, at: shown.origin(in: box), color: color, scale: s, into: canvas)
        }
    }

    /// The footer's second line: where the value comes from, and what it may be.
    static func sourceLine(_ row: TuningRow, chinese: Bool) -> String {
        let from: String
        if let source = row.source {
            let name = source.file.split(separator: "/").last.map(String.init) ?? source.file
            from = "● " + name + ":" + String(source.line)
        } else {
            from = chinese ? "默认值" : "default"
        }
        let what: String
        switch row.kind {
        case .color, .colors:
            what = chinese ? "通道 0 到 255" : "channel 0 to 255"
        case .timing:
            what = chinese ? "←→ 切换命名曲线" : "←→ cycles the named curves"
        case .text, .segment:
            what = chinese ? "此处只读，请在文件中编辑" : "read only here: edit it in the file"
        default:
            if let range = row.range {
                let unit = row.unit.isEmpty ? "" : " " + row.unit
                what = (chinese ? "范围 " : "range ") + TuningStep.show(.number(range.lowerBound))
                    + (chinese ? " 到 " : " to ") + TuningStep.show(.number(range.upperBound)) + unit
            } else {
                what = ""
            }
        }
        return what.isEmpty ? from : from + "  ·  " + what
    }

    private func drawRow(_ row: TuningRow, isSelected: Bool, frame: Rect, phone: any PhoneView, text: TextRenderer,
                         clip: Rect, into canvas: Canvas) {
        let s = phone.device.scale
        let rasterizer = phone.renderer.rasterizer
        let toPixels = AffineTransform(scaleX: s, y: s)
        let inner = Rect(x: 8, y: frame.minY + 1, width: frame.width - 16, height: frame.height - 2)
        if isSelected {
            var fill = Path()
            fill.addRoundedRect(inner, cornerRadius: 6)
            rasterizer.fill(fill, transform: toPixels, color: TuningPanel.selectionColor, clip: clip, into: canvas)
        }
        let ink = isSelected ? Color.white : TuningPanel.labelColor
        let faint = isSelected ? Color(rgb: 255, 255, 255, alpha: 0.8) : TuningPanel.secondaryColor
        if row.source != nil {
            var dot = Path()
            dot.addEllipse(in: Rect(x: inner.minX + 4, y: inner.midY - 3, width: 6, height: 6))
            rasterizer.fill(dot, transform: toPixels, color: isSelected ? .white : TuningPanel.fileMarkColor, clip: clip,
                            into: canvas)
        }
        let label = line(row.label, size: TuningPanel.rowSize, renderer: text)
        let textBox = Rect(x: inner.minX + 14, y: inner.minY, width: inner.width - 24, height: inner.height)
        text.draw(label, at: label.origin(in: textBox), color: row.isEditable ? ink : faint, scale: s, clip: clip,
                  into: canvas)
        // The value at the right, its unit after it in the secondary colour.
        var right = inner.maxX - 8
        if !row.unit.isEmpty {
            let unit = line(row.unit, size: TuningPanel.rowSize, renderer: text)
            right -= unit.width
            text.draw(unit, at: unit.origin(in: Rect(x: right, y: inner.minY, width: unit.width, height: inner.height)),
                      color: faint, scale: s, clip: clip, into: canvas)
            right -= 4
        }
        let value = line(row.valueText, size: TuningPanel.rowSize, renderer: text)
        let valueWidth = Swift.min(value.width, inner.width * 0.5)
        text.draw(value, at: value.origin(in: Rect(x: right - valueWidth, y: inner.minY, width: valueWidth, height: inner.height)),
                  color: row.isEditable ? ink : faint, scale: s,
                  clip: Rect(x: (right - inner.width * 0.5) * s, y: clip.minY, width: inner.width * 0.5 * s, height: clip.height),
                  into: canvas)
        right -= valueWidth + 8
        // A colour's swatch: the whole colour, beside each of its channels.
        if let swatch = TuningPanel.swatchColor(row) {
            var chip = Path()
            let chipRect = Rect(x: right - 14, y: inner.midY - 7, width: 14, height: 14)
            chip.addRoundedRect(chipRect, cornerRadius: 3)
            var rim = Path()
            rim.addRoundedRect(Rect(x: chipRect.minX - 1, y: chipRect.minY - 1, width: 16, height: 16), cornerRadius: 4)
            rasterizer.fill(rim, transform: toPixels, color: isSelected ? .white : TuningPanel.separatorColor, clip: clip,
                            into: canvas)
            rasterizer.fill(chip, transform: toPixels, color: swatch, clip: clip, into: canvas)
        }
    }

    /// The colour a colour row shows in its swatch.
    static func swatchColor(_ row: TuningRow) -> Color? {
        switch (row.part, row.value) {
        case (.channel, .string(let hex)): return Color(hex: hex)
        case (.item(let i, _), .array(let items)) where items.indices.contains(i):
            if case .string(let hex) = items[i] { return Color(hex: hex) }
            return nil
        default: return nil
        }
    }
}

import Geometry

/// The tuning panel under the mouse: a click selects a row, a drag along a row or the wheel over its value tunes
/// it (Shift: ten steps), a drag up or down or the wheel elsewhere over the sheet scrolls the lines.
extension Simulation {
    /// A touch that goes down on the open panel's sheet is the panel's to its end, and the list behind gets
    /// nothing; so is the wheel over the sheet. A row is selected by a tap on it or a drag along it. Returns
    /// whether the event was the panel's.
    func handleOnTuningPanel(_ event: InputEvent) -> Bool {
        let sheet = tuningSheet
        switch event {
        case .touchDown(let p):
            guard tuning.isOpen, sheet.contains(p) else { return false }
            let rows = tuningRows
            var touched: Int?
            if case .row(let i)? = TuningPanel.line(at: p, lines: TuningPanel.lines(rows),
                                                    first: tuning.firstVisibleLine, sheet: sheet) {
                touched = i
            }
            tuning.panelTouch = Tuning.PanelTouch(start: p, row: touched.map { (index: $0, row: rows[$0]) },
                                                  firstLine: tuning.firstVisibleLine)
            return true
        case .touchMove(let p):
            guard var touch = tuning.panelTouch else { return false }
            let moved = p - touch.start
            if touch.isHorizontal == nil && moved.length >= TuningPanel.dragSlop {
                touch.isHorizontal = abs(moved.x) >= abs(moved.y)
            }
            switch touch.isHorizontal {
            case true?:
                if let (index, row) = touch.row {
                    tuning.selection = index
                    let steps = Int((moved.x / TuningPanel.dragStep).rounded(.towardZero)) * (shiftIsDown ? 10 : 1)
                    if steps != touch.appliedSteps {
                        touch.appliedSteps = steps
                        tuneDragged(row, by: steps)
                    }
                }
            case false?:
                let lines = TuningPanel.lines(tuningRows)
                let first = touch.firstLine - Int((moved.y / TuningPanel.rowHeight).rounded())
                tuning.firstVisibleLine = TuningPanel.clampedFirstLine(first, lines: lines, sheet: sheet)
            case nil:
                break
            }
            tuning.panelTouch = touch
            return true
        case .touchUp:
            guard let touch = tuning.panelTouch else { return false }
            tuning.panelTouch = nil
            // A tap selects the row under it; a drag up or down only scrolled.
            if touch.isHorizontal == nil, let (index, _) = touch.row { tuning.selection = index }
            return true
        case .wheel(let delta, let at):
            guard tuning.isOpen, let at, sheet.contains(at) else { return false }
            let rows = tuningRows
            let lines = TuningPanel.lines(rows)
            let line = TuningPanel.line(at: at, lines: lines, first: tuning.firstVisibleLine, sheet: sheet)
            // Rolling away from the user (the content would move down: delta.y < 0) raises the value.
            tuning.wheelRemainder -= delta.y / Simulation.wheelNotch
            let whole = Int(tuning.wheelRemainder.rounded(.towardZero))
            guard whole != 0 else { return true }
            tuning.wheelRemainder -= Double(whole)
            if case .row(let i)? = line, at.x >= TuningPanel.valueAreaMinX(sheet: sheet), rows[i].isEditable {
                tuning.selection = i
                let toast = applyTuning(.tuningNudge(by: whole * (shiftIsDown ? 10 : 1))) ?? ""
                if !toast.isEmpty { showToast(toast) }
            } else {
                tuning.firstVisibleLine = TuningPanel.clampedFirstLine(tuning.firstVisibleLine - whole, lines: lines,
                                                                       sheet: sheet)
            }
            return true
        }
    }

    /// Sets `row`'s parameter to its value when the drag began moved by `steps`, saying in a toast when it stops
    /// at an end of its range.
    private func tuneDragged(_ row: TuningRow, by steps: Int) {
        guard let value = row.nudged(by: steps) else { return }
        let current = tuningRows.first { $0.section == row.section && $0.key == row.key }?.value
        guard value != current else { return }
        let toast = setTuned(value, for: row)
        if !toast.isEmpty { showToast(toast) }
    }
}

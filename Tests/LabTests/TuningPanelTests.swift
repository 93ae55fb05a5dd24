import Geometry
import Motion
@testable import Lab
import Colors
@testable import UserFiles
import Raster
@testable import Refresh
import Scrolling
import Styles
import Testing
import Text
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A simulation on a simulated clock whose tuning saves to `file`, with the styles of `paths` loaded.
private func tuningSimulation(file: String?, paths: [String] = [], effect: String = "ring",
                              scale: Double = 2) throws -> (Simulation, SimulatedClock) {
    let clock = SimulatedClock()
    let simulation = Simulation(phone: Phone(scale: scale), clock: clock)
    simulation.styles = try StyleFiles.load(paths)
    simulation.selectEffect(named: effect)
    simulation.tuning.file = file
    return (simulation, clock)
}

/// Presses Down until the row of `key` (and `part`) is selected; the row.
@discardableResult
private func select(_ key: String, part: TuningRow.Part = .whole, in simulation: Simulation) throws -> TuningRow {
    let rows = simulation.tuningRows
    let index = try #require(rows.firstIndex { $0.key == key && $0.part == part }, "no row \(key)")
    for _ in 0..<(index - simulation.tuning.selection + rows.count) % rows.count { simulation.perform(.tuningSelect(by: 1)) }
    let row = try #require(simulation.selectedTuningRow)
    #expect(row.key == key && row.part == part)
    return row
}

private func number(_ value: JSONValue?) -> Double? {
    if case .number(let v) = value { return v }
    return nil
}

@Suite("Live tuning in the window (T)", .serialized)
struct TuningPanelTests {
    @Test("T opens and closes the panel; Esc closes it rather than quitting; the keys are named as the window names them")
    func keys() throws {
        #expect(Command(keyName: "T") == .toggleTuning && Command(keyName: "t") == .toggleTuning)
        #expect(Command(keyName: "Right") == .tuningNudge(by: 1) && Command(keyName: "Left") == .tuningNudge(by: -1))
        #expect(Command(keyName: "Shift+Right") == .tuningNudge(by: 10) && Command(keyName: "Shift+Left") == .tuningNudge(by: -10))
        #expect(Command(keyName: "Up") == .tuningSelect(by: -1) && Command(keyName: "Shift+Down") == .tuningSelect(by: 1))
        #expect(Command(keyName: "Shift+Tab") == .nextEffect && Command(keyName: "Shift+X") == nil)
        let (simulation, _) = try tuningSimulation(file: nil)
        #expect(simulation.perform(.tuningNudge(by: 1)) == "Press T to tune with the arrows")
        simulation.perform(.toggleTuning)
        #expect(simulation.tuning.isOpen)
        simulation.perform(.escape)
        #expect(!simulation.tuning.isOpen && simulation.takeHostRequests().isEmpty)
        simulation.perform(.toggleTuning)
        simulation.perform(.toggleTuning)
        #expect(!simulation.tuning.isOpen)
        simulation.perform(.escape)
        simulation.perform(.escape)
        #expect(simulation.takeHostRequests().contains(.quit))
    }

    @Test("A click on a row selects it; a touch on the sheet never reaches the list, one from the list keeps scrolling it")
    func clickSelects() throws {
        // Classic, whose header pushes the content: a pull moves the list.
        let (simulation, clock) = try tuningSimulation(file: nil, effect: "classic")
        simulation.perform(.toggleTuning)
        simulation.step()
        let screen = simulation.phone.screenSize
        let lines = TuningPanel.lines(simulation.tuningRows)
        let list = TuningPanel.listFrame(sheet: simulation.tuningSheet)
        // Every row whose middle is in the list, clicked in turn, is selected; the list behind does not move.
        var y = list.minY
        var clicked = 0
        for line in lines.dropFirst(simulation.tuning.firstVisibleLine) {
            let middle = y + TuningPanel.height(of: line) / 2
            y += TuningPanel.height(of: line)
            guard middle < list.maxY, case .row(let i) = line else { continue }
            // A click may wobble a little without becoming a drag.
            let p = Point(screen.width / 2, middle)
            simulation.handle(.touchDown(p))
            simulation.handle(.touchMove(Point(p.x + 3, p.y - 4)))
            simulation.handle(.touchUp(Point(p.x + 3, p.y - 4)))
            clock.advance(by: 1.0 / 60)
            simulation.step()
            #expect(simulation.tuning.selection == i, "row \(i) at \(middle) pt")
            #expect(simulation.scrollView.contentOffset.y == 0 && !simulation.scrollView.isTracking)
            clicked += 1
        }
        #expect(clicked >= 5)
        // A drag that starts on the list above the sheet scrolls it, into the sheet and on.
        simulation.handle(.touchDown(Point(100, list.minY - 200)))
        clock.advance(by: 1.0 / 60)
        simulation.handle(.touchMove(Point(100, list.minY + 50)))
        simulation.step()
        #expect(simulation.scrollView.isTracking && simulation.scrollView.contentOffset.y < 0)
        simulation.handle(.touchUp(Point(100, list.minY + 50)))
    }

    /// The middle of `key`'s row on the screen, when it is in view.
    private func rowMiddle(_ key: String, part: TuningRow.Part = .whole, in simulation: Simulation) -> Double? {
        let rows = simulation.tuningRows
        let list = TuningPanel.listFrame(sheet: simulation.tuningSheet)
        var y = list.minY
        for line in TuningPanel.lines(rows).dropFirst(simulation.tuning.firstVisibleLine) {
            let h = TuningPanel.height(of: line)
            if case .row(let i) = line, rows[i].key == key, rows[i].part == part {
                return y + h / 2 < list.maxY ? y + h / 2 : nil
            }
            y += h
        }
        return nil
    }

    @Test("A drag along a row tunes it a step every 8 pt (Shift: ten), counted from its value when the touch went down, at every distance")
    func dragTunes() throws {
        let (simulation, clock) = try tuningSimulation(file: nil)
        simulation.perform(.toggleTuning)
        simulation.step()
        let y = try #require(rowMiddle("strokeWidth", in: simulation))
        let start = try #require(simulation.tuningRows.first { $0.key == "strokeWidth" })
        var rng = SeededRandom(seed: 24)
        for shift in [false, true] {
            simulation.shiftIsDown = shift
            let x0 = rng.double(in: 120...250)
            simulation.handle(.touchDown(Point(x0, y)))
            // Random moves left and right, even back past the start; the value follows the distance only.
            for _ in 0..<30 {
                let dx = rng.double(in: -110...110)
                simulation.handle(.touchMove(Point(x0 + dx, y + rng.double(in: -3...3))))
                clock.advance(by: 1.0 / 60)
                let steps = Int((dx / TuningPanel.dragStep).rounded(.towardZero)) * (shift ? 10 : 1)
                let expected = try #require(start.nudged(by: steps))
                let ring = try #require(simulation.refreshControl.effect as? RingEffect)
                #expect(number(expected) == ring.style.strokeWidth, "dx \(dx), shift \(shift)")
            }
            #expect(simulation.selectedTuningRow?.key == "strokeWidth")
            simulation.handle(.touchMove(Point(x0, y)))
            simulation.handle(.touchUp(Point(x0, y)))
            #expect((simulation.refreshControl.effect as? RingEffect)?.style.strokeWidth == number(start.value))
        }
        // The list behind never moved.
        #expect(simulation.scrollView.contentOffset.y == 0 && !simulation.scrollView.isTracking)
    }

    @Test("A drag up or down on the sheet and the wheel beside the values scroll the lines; the selection stays, and so does the panel where it was put")
    func panelScrolls() throws {
        let (simulation, _) = try tuningSimulation(file: nil)
        simulation.perform(.toggleTuning)
        simulation.render()
        simulation.renderOverlays()
        let list = TuningPanel.listFrame(sheet: simulation.tuningSheet)
        let lines = TuningPanel.lines(simulation.tuningRows)
        let last = TuningPanel.clampedFirstLine(lines.count, lines: lines, sheet: simulation.tuningSheet)
        #expect(last > 3 && simulation.tuning.firstVisibleLine == 0)
        // Dragging up by three rows shows three more lines.
        simulation.handle(.touchDown(Point(100, list.maxY - 10)))
        simulation.handle(.touchMove(Point(100, list.maxY - 10 - 3 * TuningPanel.rowHeight)))
        simulation.handle(.touchUp(Point(100, list.maxY - 10 - 3 * TuningPanel.rowHeight)))
        #expect(simulation.tuning.firstVisibleLine == 3)
        simulation.render()
        simulation.renderOverlays()
        #expect(simulation.tuning.firstVisibleLine == 3)
        // The wheel over the labels: a notch a line, never past the ends.
        let labels = Point(40, list.midY)
        simulation.handle(.wheel(Point(0, 2 * Simulation.wheelNotch), at: labels))
        #expect(simulation.tuning.firstVisibleLine == 5)
        simulation.handle(.wheel(Point(0, 1000 * Simulation.wheelNotch), at: labels))
        #expect(simulation.tuning.firstVisibleLine == last)
        simulation.handle(.wheel(Point(0, -1000 * Simulation.wheelNotch), at: labels))
        #expect(simulation.tuning.firstVisibleLine == 0)
        // Half notches add up.
        simulation.handle(.wheel(Point(0, Simulation.wheelNotch / 2), at: labels))
        #expect(simulation.tuning.firstVisibleLine == 0)
        simulation.handle(.wheel(Point(0, Simulation.wheelNotch / 2), at: labels))
        #expect(simulation.tuning.firstVisibleLine == 1)
        #expect(simulation.tuning.selection == 0 && simulation.scrollView.contentOffset.y == 0)
        // The wheel over the list above the sheet, or from a script (no pointer), scrolls the list.
        simulation.handle(.wheel(Point(0, 200), at: Point(100, 150)))
        #expect(simulation.scrollView.contentOffset.y > 0)
        simulation.scrollView.setContentOffset(Point(0, 0), animated: false)
        simulation.handle(.wheel(Point(0, 200)))
        #expect(simulation.scrollView.contentOffset.y > 0)
    }

    @Test("The wheel over a value tunes it a step a notch, up raising it, Shift ten steps")
    func wheelTunes() throws {
        let (simulation, _) = try tuningSimulation(file: nil)
        simulation.perform(.toggleTuning)
        simulation.step()
        let screen = simulation.phone.screenSize
        let y = try #require(rowMiddle("strokeWidth", in: simulation))
        let start = try #require(simulation.tuningRows.first { $0.key == "strokeWidth" })
        let over = Point(screen.width - 40, y)
        func width() -> Double? { (simulation.refreshControl.effect as? RingEffect)?.style.strokeWidth }
        simulation.handle(.wheel(Point(0, -Simulation.wheelNotch), at: over))
        #expect(simulation.selectedTuningRow?.key == "strokeWidth")
        #expect(width() == number(start.nudged(by: 1)))
        simulation.handle(.wheel(Point(0, Simulation.wheelNotch), at: over))
        #expect(width() == number(start.value))
        simulation.shiftIsDown = true
        simulation.handle(.wheel(Point(0, -Simulation.wheelNotch), at: over))
        #expect(width() == number(start.nudged(by: 10)))
        #expect(simulation.tuning.firstVisibleLine == 0)
    }

    @Test("Backspace returns the selected value to its default and takes it out of the file; a value from another file is named, a default said")
    func resetToDefault() throws {
        let dir = temporaryDirectory("tuning-reset")
        let other = dir + "/team.json", mine = dir + "/mine.json"
        writeTextFile(other, #"{"ring": {"circleDiameter": 50}}"#)
        writeTextFile(mine, #"{"ring": {"strokeWidth": 5}, "physics": {"maxVelocity": 5000}}"#)
        #expect(Command(keyName: "Backspace") == .tuningReset)
        let (simulation, _) = try tuningSimulation(file: mine, paths: [other, mine])
        let ring = try #require(simulation.refreshControl.effect as? RingEffect)
        #expect(ring.style.strokeWidth == 5)
        simulation.perform(.toggleTuning)
        try select("strokeWidth", in: simulation)
        #expect(simulation.perform(.tuningReset) == "strokeWidth back to its default")
        #expect(ring.style.strokeWidth == RingEffect.Style().strokeWidth)
        #expect(simulation.selectedTuningRow?.source == nil)
        simulation.perform(.toggleTuning)
        // The file keeps the physics and loses the ring's section, now empty.
        let book = try StyleFiles.load([mine])
        #expect(book.entries(for: "ring").isEmpty)
        #expect(number(book.entries(for: "physics").first { $0.key == "maxVelocity" }?.value) == 5000)
        #expect(readTextFile(mine)?.contains("ring") == false)
        simulation.perform(.toggleTuning)
        #expect(simulation.perform(.tuningReset) == "strokeWidth is at its default already")
        try select("circleDiameter", in: simulation)
        #expect(simulation.perform(.tuningReset) == "circleDiameter comes from team.json:1: remove it there")
        #expect(ring.style.circleDiameter == 50)
    }

    @Test("With room beside the phone the panel and the HUD are drawn there, the phone left whole; the panel takes input there, the list none",
          .enabled(if: standardFontsInstalled, "the standard fonts are installed"))
    func besideThePhone() throws {
        let (simulation, clock) = try tuningSimulation(file: nil)
        func frame() -> [UInt32] {
            clock.advance(by: Toast.duration)
            simulation.step()
            simulation.render()
            simulation.renderOverlays()
            return Array(UnsafeBufferPointer(start: simulation.canvas.pixels, count: simulation.canvas.pixelCount))
        }
        let phoneOnly = frame()
        // Too little room: still over the phone.
        simulation.sideRoom = Simulation.sideMinimumWidth - 1
        simulation.perform(.toggleTuning)
        #expect(frame() != phoneOnly && simulation.sideCanvas == nil)
        // Room enough: the phone is as it is without the panel; the side area has the panel, its selected row in
        // the tint; the HUD goes there too.
        simulation.sideRoom = 1000
        #expect(simulation.sideAreaWidth == Simulation.sideMaximumWidth)
        #expect(frame() == phoneOnly)
        let side = try #require(simulation.sideCanvas)
        #expect(side.width == Int(Simulation.sideMaximumWidth * simulation.phone.scale) && side.height == simulation.canvas.height)
        let tint = TuningPanel.selectionColor.premultipliedPixel
        let tinted = UnsafeBufferPointer(start: side.pixels, count: side.pixelCount).filter { $0 == tint }.count
        #expect(tinted > Int(TuningPanel.rowHeight * 100 * 4))
        simulation.perform(.toggleFrameGraph)
        #expect(frame() == phoneOnly)
        simulation.perform(.toggleFrameGraph)
        // A tap on a row of the side area selects it; the list behind never moves, even for a touch begun there.
        let sheet = simulation.tuningSheet
        #expect(sheet.minX == simulation.phone.screenSize.width && sheet.minY == 0)
        let list = TuningPanel.listFrame(sheet: sheet)
        let p = Point(sheet.minX + 60, list.minY + TuningPanel.sectionHeight + 2.5 * TuningPanel.rowHeight)
        simulation.handle(.touchDown(p))
        simulation.handle(.touchUp(p))
        #expect(simulation.tuning.selection == 2)
        simulation.perform(.toggleTuning)
        simulation.handle(.touchDown(p))
        simulation.handle(.touchMove(Point(p.x, p.y + 200)))
        simulation.handle(.wheel(Point(0, 300), at: p))
        #expect(simulation.scrollView.contentOffset.y == 0 && !simulation.scrollView.isTracking)
        simulation.handle(.touchUp(Point(p.x, p.y + 200)))
    }

    @Test("The rows list the current effect's parameters, then the physics'; Up and Down wrap around")
    func rows() throws {
        let (simulation, _) = try tuningSimulation(file: nil)
        let rows = simulation.tuningRows
        #expect(rows.first?.section == "ring" && rows.last?.section == "physics")
        #expect(rows.contains { $0.key == "strokeWidth" } && rows.contains { $0.key == "bounceStiffness" })
        // A list of colours has a row per channel of each colour.
        #expect(rows.filter { $0.key == "colors" }.count % 4 == 0)
        simulation.perform(.toggleTuning)
        simulation.perform(.tuningSelect(by: -1))
        #expect(simulation.tuning.selection == rows.count - 1)
        simulation.perform(.tuningSelect(by: 1))
        #expect(simulation.tuning.selection == 0)
        // Another effect: its own rows, the physics' still last.
        simulation.perform(.nextEffect)
        #expect(simulation.tuningRows.first?.section == simulation.effectName)
    }

    @Test("A timing curve cycles through the named curves; another header keeps a physics row selected; the title says tuning")
    func curvesAndHeaders() throws {
        let (simulation, _) = try tuningSimulation(file: nil)
        simulation.perform(.toggleTuning)
        #expect(simulation.status.hasSuffix("| tuning"))
        let row = try select("floatTiming", in: simulation)
        let names = StyleKind.timingCurveNames
        var seen: [String] = []
        for _ in names {
            simulation.perform(.tuningNudge(by: 1))
            guard case .string(let name) = simulation.selectedTuningRow?.value else { Issue.record("no name"); return }
            seen.append(name)
        }
        // Each name once, whatever the curve was (the ring's default is not a named one).
        #expect(Set(seen) == Set(names) && seen.count == names.count)
        #expect(row.value != simulation.selectedTuningRow?.value || names.contains(TuningStep.show(row.value)))
        try select("maxVelocity", in: simulation)
        simulation.perform(.nextEffect)
        #expect(simulation.selectedTuningRow?.key == "maxVelocity")
        try select(simulation.tuningRows[0].key, part: simulation.tuningRows[0].part, in: simulation)
        simulation.perform(.nextEffect)
        #expect(simulation.tuning.selection == 0 && simulation.selectedTuningRow?.section == simulation.effectName)
    }

    @Test("Right and Left move a number by its step, Shift by ten steps, whole numbers by one, always within the range (random fields)")
    func nudgesByStepWithinRange() throws {
        var random = SeededRandom(seed: 12)
        for effect in Simulation.effectNames {
            let (simulation, _) = try tuningSimulation(file: nil, effect: effect)
            simulation.perform(.toggleTuning)
            let numeric = simulation.tuningRows.filter { ($0.kind == .number || $0.kind == .integer) }
            for _ in 0..<6 {
                let pick = numeric[random.int(in: 0...(numeric.count - 1))]
                let range = try #require(pick.range)
                // Start anywhere in the range (its ends too).
                let start: Double = switch random.int(in: 0...3) {
                case 0: range.lowerBound
                case 1: range.upperBound
                default: pick.kind == .integer ? random.double(in: range).rounded() : random.double(in: range)
                }
                simulation.setTuned(.number(start), for: pick)
                try select(pick.key, in: simulation)
                let steps = [1, -1, 10, -10][random.int(in: 0...3)]
                simulation.perform(.tuningNudge(by: steps))
                let after = try #require(number(simulation.selectedTuningRow?.value))
                let step = pick.kind == .integer ? 1 : TuningStep.step(range: range, value: start, steps: steps)
                let expected = Swift.min(Swift.max(start + Double(steps) * step, range.lowerBound), range.upperBound)
                #expect(Swift.abs(after - expected) <= step * 1e-3, "\(effect).\(pick.key) from \(start) by \(steps)")
                #expect(range.contains(after))
            }
        }
    }

    @Test("The live effect takes each nudge at once, without resetting a refresh under way")
    func liveWithoutReset() throws {
        let (simulation, clock) = try tuningSimulation(file: nil)
        simulation.perform(.beginRefresh)
        for _ in 0..<20 { clock.advance(by: 1 / 60); simulation.step() }
        let ring = try #require(simulation.refreshControl.effect as? RingEffect)
        let offset = simulation.scrollView.contentOffset
        #expect(simulation.refreshControl.state == .refreshing)
        simulation.perform(.toggleTuning)
        let row = try select("strokeWidth", in: simulation)
        let before = ring.style.strokeWidth
        simulation.perform(.tuningNudge(by: 10))
        let step = TuningStep.step(range: row.range!, value: before, steps: 10)
        #expect(Swift.abs(ring.style.strokeWidth - (before + 10 * step)) < 1e-9)
        simulation.perform(.tuningNudge(by: -1))
        clock.advance(by: 1 / 60)
        simulation.step()
        #expect(simulation.refreshControl.effect === ring)
        #expect(simulation.refreshControl.state == .refreshing)
        #expect(simulation.scrollView.contentOffset == offset)
        // The physics is the scroll view's at once too.
        try select("bounceStiffness", in: simulation)
        let stiffness = simulation.scrollView.physics.bounceStiffness
        simulation.perform(.tuningNudge(by: 1))
        #expect(simulation.scrollView.physics.bounceStiffness > stiffness)
    }

    @Test("A colour's channel row changes that channel only, by 1 or 10 with Shift, within 0…255")
    func colourChannel() throws {
        let (simulation, _) = try tuningSimulation(file: nil, effect: "classic")
        simulation.perform(.toggleTuning)
        let row = try select("arrowColor", part: .channel(1), in: simulation)
        guard case .string(let hex) = row.value else { Issue.record("not a colour"); return }
        let before = TuningStep.channels(of: hex)
        simulation.perform(.tuningNudge(by: before[1] > 200 ? -10 : 10))
        guard case .string(let changed) = simulation.selectedTuningRow?.value else { Issue.record("not a colour"); return }
        let after = TuningStep.channels(of: changed)
        #expect(after[0] == before[0] && after[2] == before[2] && after[3] == before[3])
        #expect(Swift.abs(after[1] - before[1]) == 10)
        // The effect draws with it.
        let classic = try #require(simulation.refreshControl.effect as? ClassicEffect)
        #expect(classic.style.arrowColor == Color(hex: changed))
        // At 255, Right stays.
        for _ in 0..<30 { simulation.perform(.tuningNudge(by: 10)) }
        guard case .string(let top) = simulation.selectedTuningRow?.value else { return }
        #expect(TuningStep.channels(of: top)[1] == 255)
        #expect(simulation.perform(.tuningNudge(by: 1)).contains("at its end"))
    }

    @Test("A change is saved to the style file, which keeps the user's other sections and keys and reads back with the same value and its source")
    func savedToTheFile() throws {
        let dir = temporaryDirectory("tuning-save")
        let path = dir + "/mine.json"
        writeTextFile(path, """
            {"physics": {"maxVelocity": 5000},
             "ring": {"circleDiameter": 44, "strokeWidth": 3},
             "sticky": {"viewWidth": 300}}
            """)
        let (simulation, clock) = try tuningSimulation(file: path, paths: [path])
        simulation.perform(.toggleTuning)
        try select("strokeWidth", in: simulation)
        simulation.perform(.tuningNudge(by: 1))
        clock.advance(by: 0.05)
        simulation.perform(.tuningNudge(by: 1))
        try select("bounceDampingRatio", in: simulation)
        simulation.perform(.tuningNudge(by: -10))
        simulation.perform(.toggleTuning)
        #expect(!simulation.tuning.hasUnsavedChanges)

        let book = try StyleFiles.load([path])
        let ring = try #require(simulation.refreshControl.effect as? RingEffect)
        #expect(book.style(RingEffect.Style.self, for: "ring") == ring.style)
        #expect(book.style(PhysicsStyle.self, for: "physics") == simulation.scrollView.physics)
        let stroke = try #require(book.entries(for: "ring").first { $0.key == "strokeWidth" })
        #expect(stroke.source.file == path && number(stroke.value) == ring.style.strokeWidth)
        // What the panel says of the source is where the value is in the file.
        let shown = try #require(simulation.tuningRows.first { $0.key == "strokeWidth" }?.source)
        #expect(shown.file == path && shown.line == stroke.source.line)
        // The rest stays.
        #expect(number(book.entries(for: "physics").first { $0.key == "maxVelocity" }?.value) == 5000)
        #expect(number(book.entries(for: "ring").first { $0.key == "circleDiameter" }?.value) == 44)
        #expect(number(book.entries(for: "sticky").first { $0.key == "viewWidth" }?.value) == 300)
        #expect(book.entries(for: "physics").contains { $0.key == "bounceDampingRatio" })
    }

    @Test("Nudges in a burst are written at most every 200 ms, and the last value is never lost")
    func debouncedSaves() throws {
        let dir = temporaryDirectory("tuning-debounce")
        let path = dir + "/refreshlab/tuning.json"
        let (simulation, clock) = try tuningSimulation(file: path)
        simulation.perform(.toggleTuning)
        try select("dragDistance", in: simulation)
        // 60 nudges a second for a second: about five saves, not sixty.
        for _ in 0..<60 {
            simulation.perform(.tuningNudge(by: 1))
            clock.advance(by: 1 / 60)
            simulation.step()
        }
        #expect(simulation.tuning.saveCount >= 4 && simulation.tuning.saveCount <= 6, "\(simulation.tuning.saveCount) saves")
        // Still: the loop sleeps until the save is due, then saves.
        if simulation.tuning.hasUnsavedChanges {
            guard case .still(let until) = simulation.activity else { Issue.record("not still"); return }
            #expect(until <= clock.now + Tuning.saveInterval)
            clock.advance(by: Tuning.saveInterval)
            simulation.step()
        }
        #expect(!simulation.tuning.hasUnsavedChanges)
        let book = try StyleFiles.load([path])
        let ring = try #require(simulation.refreshControl.effect as? RingEffect)
        #expect(number(book.entries(for: "ring").first?.value) == ring.style.dragDistance)
    }

    @Test("A broken style file is not written over, and a file that cannot be written is said; the value applies live")
    func badFiles() throws {
        let dir = temporaryDirectory("tuning-bad")
        let broken = dir + "/broken.json"
        let text = "{\"ring\": {\"strokeWidth\": 3,}}"
        writeTextFile(broken, text)
        let (simulation, _) = try tuningSimulation(file: broken)
        simulation.perform(.toggleTuning)
        try select("strokeWidth", in: simulation)
        let ring = try #require(simulation.refreshControl.effect as? RingEffect)
        let before = ring.style.strokeWidth
        simulation.perform(.tuningNudge(by: 1))
        #expect(ring.style.strokeWidth > before)
        #expect(readTextFile(broken) == text)
        #expect(simulation.toast.text.contains("broken") && simulation.tuning.hasUnsavedChanges)
        #expect(simulation.tuning.lastFailure?.contains(broken) == true)

        // A folder that cannot be made: a file stands where it would be.
        writeTextFile(dir + "/plain", "x")
        let (other, _) = try tuningSimulation(file: dir + "/plain/refreshlab/tuning.json")
        other.perform(.toggleTuning)
        try select("strokeWidth", in: other)
        other.perform(.tuningNudge(by: 1))
        let live = try #require(other.refreshControl.effect as? RingEffect)
        #expect(live.style.strokeWidth > before)
        #expect(other.toast.text.hasPrefix("Cannot"))
        #expect(other.toast.detail == dir + "/plain/refreshlab/tuning.json")
        #expect(other.tuning.lastFailure?.contains("plain") == true)
    }

    @Test("A file read after the one saved to, setting the same key, is named: its value wins at the next reload")
    func laterFileSaid() throws {
        let dir = temporaryDirectory("tuning-later")
        let folder = dir + "/refreshlab"
        _ = mkdir(folder, 0o755)
        writeTextFile(folder + "/zebra.json", #"{"ring": {"strokeWidth": 3}}"#)
        let (simulation, _) = try tuningSimulation(file: folder + "/tuning.json",
                                                   paths: StyleFiles.paths(folder: folder, extra: []))
        simulation.perform(.toggleTuning)
        try select("strokeWidth", in: simulation)
        #expect(simulation.perform(.tuningNudge(by: 1)) == "zebra.json sets strokeWidth too, and wins when the files are read again")
        // A key no later file sets says nothing.
        try select("arrowWidth", in: simulation)
        #expect(simulation.perform(.tuningNudge(by: 1)) == "")
    }

    @Test("The watcher sees the panel's own save: the file reads back the same values, silently, and unsaved nudges stay")
    func noReloadLoop() throws {
        let dir = temporaryDirectory("tuning-reload")
        let path = dir + "/mine.json"
        writeTextFile(path, #"{"ring": {"strokeWidth": 3}}"#)
        let (simulation, clock) = try tuningSimulation(file: path, paths: [path])
        let reloader = try StyleReloader(paths: { [path] }, folder: nil, wake: {})
        defer { reloader.stop() }
        simulation.perform(.toggleTuning)
        try select("strokeWidth", in: simulation)
        simulation.perform(.tuningNudge(by: 1))
        #expect(simulation.tuning.saveCount == 1)
        // A nudge not yet saved when the reload comes.
        clock.advance(by: 0.05)
        simulation.perform(.tuningNudge(by: 1))
        #expect(simulation.tuning.hasUnsavedChanges)
        let ring = try #require(simulation.refreshControl.effect as? RingEffect)
        let shown = ring.style.strokeWidth
        simulation.showToast("before")
        #expect(waitForReload(reloader, simulation, since: monotonicNow()) != nil)
        #expect(reloader.lastError == nil)
        #expect(ring.style.strokeWidth == shown)
        #expect(simulation.toast.text == "before")
        // The save of the second nudge: read back, the same, and nothing said.
        clock.advance(by: Tuning.saveInterval)
        simulation.step()
        #expect(!simulation.tuning.hasUnsavedChanges)
        _ = waitForReload(reloader, simulation, since: monotonicNow(), limit: 1)
        #expect(ring.style.strokeWidth == shown && simulation.toast.text == "before")
    }

    @Test("The panel is drawn over the lower part of the phone, its selected row in the tint, in both languages at scales 1 to 3",
          .enabled(if: standardFontsInstalled, "the standard fonts are installed"))
    func drawn() throws {
        let dir = temporaryDirectory("tuning-look")
        let tint = TuningPanel.selectionColor
        /// Pixels of the tint, as a set of indexes.
        func tintPixels(_ canvas: Canvas) -> Set<Int> {
            var found = Set<Int>()
            for y in 0..<canvas.height {
                for x in 0..<canvas.width {
                    let c = canvas.color(atX: x, y: y)
                    if Swift.abs(c.red - tint.red) < 0.02 && Swift.abs(c.green - tint.green) < 0.02
                        && Swift.abs(c.blue - tint.blue) < 0.02 { found.insert(y * canvas.width + x) }
                }
            }
            return found
        }
        for scale in [1.0, 2, 3] {
            for language in [RefreshLanguage.english, .chinese] {
                let userFile = dir + "/style.json"
                writeTextFile(userFile, ##"{"ring": {"strokeWidth": 3, "colors": ["#4285F4", "#EA4335"]}}"##)
                let (simulation, clock) = try tuningSimulation(file: userFile, paths: [userFile], scale: scale)
                simulation.setLanguage(language)
                func frame() -> Set<Int> {
                    clock.advance(by: Toast.duration)
                    simulation.step()
                    simulation.render()
                    simulation.renderOverlays()
                    return tintPixels(simulation.canvas)
                }
                // The phone has the tint of its own (an avatar): only what the panel adds counts.
                let phoneOnly = frame()
                let top = Int(TuningPanel.sheetFrame(screen: simulation.phone.screenSize).minY * scale) * simulation.canvas.width
                simulation.perform(.toggleTuning)
                try select("strokeWidth", in: simulation)
                let added = frame().subtracting(phoneOnly)
                let rowArea = Int(TuningPanel.rowHeight * 200 * scale * scale)
                #expect(added.count > rowArea / 2, "scale \(scale)")
                // All of it on the sheet: the header above stays in view.
                #expect(added.allSatisfy { $0 >= top })
                if scale == 2 {
                    let suffix = language == .chinese ? "zh" : "en"
                    try PNG.write(simulation.canvas, to: dir + "/panel-" + suffix + ".png")
                    // Far down the list: it scrolls to keep the selected row in view.
                    try select("wheelEndDelay", in: simulation)
                    #expect(frame().subtracting(phoneOnly).count > rowArea / 2)
                    try PNG.write(simulation.canvas, to: dir + "/panel-scrolled-" + suffix + ".png")
                    print("tuning panel drawn to \(dir)/panel-\(suffix).png")
                }
                simulation.perform(.toggleTuning)
                #expect(frame() == phoneOnly)
            }
        }
    }
}

import Geometry
import Lab
import Motion
import Raster
import Refresh
import Testing

@Suite("Demo list")
struct DemoListTests {
    @Test("200 rows of 72 pt; only the rows meeting the viewport are visible")
    func visibleRows() {
        let list = DemoList()
        #expect(list.rowCount == 200)
        #expect(list.contentHeight == 14_400)
        // 603 pt from the top: rows 0…8 (row 8 spans 576–648).
        #expect(list.visibleRows(in: Rect(x: 0, y: 0, width: 375, height: 603)) == 0...8)
        // From 100 pt down to 703: rows 1 (72–144) … 9 (648–720).
        #expect(list.visibleRows(in: Rect(x: 0, y: 100, width: 375, height: 603)) == 1...9)
        // Pulled down past the top: from −80 to 523, rows 0…7.
        #expect(list.visibleRows(in: Rect(x: 0, y: -80, width: 375, height: 603)) == 0...7)
        #expect(list.visibleRows(in: Rect(x: 0, y: 14_400, width: 375, height: 603)) == nil)
    }

    @Test("Rows read like an inbox, in English and in Chinese")
    func content() {
        let first = DemoList.content(row: 0, language: .english)
        #expect(first == DemoList.RowContent(initials: "OB", title: "Olivia Bennett",
                                             subtitle: "Sounds good, see you at 7!", time: "9:41", unread: 3))
        // Row 1: 9:41 − 23 min.
        #expect(DemoList.content(row: 1, language: .english).time == "9:18")
        #expect(DemoList.content(row: 12, language: .english).time == "Yesterday")
        #expect(DemoList.content(row: 12, language: .chinese).time == "昨天")
        let chinese = DemoList.content(row: 0, language: .chinese)
        #expect(chinese.title == "王小明" && chinese.initials == "王")
    }

    @Test("Only the rows shown are laid out, once per language")
    func layOutOnce() {
        let simulation = Simulation(clock: SimulatedClock())
        simulation.step()
        simulation.render()
        #expect(simulation.list.laidOutRowCount == 9)
        simulation.render()
        #expect(simulation.list.laidOutRowCount == 9)
        simulation.perform(.toggleLanguage)
        #expect(simulation.list.laidOutRowCount == 0)
        simulation.render()
        #expect(simulation.list.laidOutRowCount == 9)
    }

    @Test("The debug overlay draws the header's threshold line across the screen")
    func debugOverlay() {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.perform(.toggleDebugOverlay)
        clock.advance(by: Toast.duration)
        simulation.step()
        simulation.render()
        simulation.renderOverlays()
        // Sticky arms at 88 pt: the line is at 64 + 88 = 152 pt, pixel rows 303 and 304, red over the white rows.
        let pixel = simulation.canvas[740, 303]
        #expect(pixel >> 16 & 0xFF > 240 && pixel & 0xFF < 120)
    }
}

import Geometry
@testable import Lab
import Motion
import Raster
import Refresh
import Testing
import TestSupport

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

    /// A simulation with the debug overlay on, drawn once its toast has gone.
    func debugFrame() -> Simulation {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.perform(.toggleDebugOverlay)
        clock.advance(by: Toast.duration)
        simulation.step()
        simulation.render()
        simulation.renderOverlays()
        return simulation
    }

    @Test("The debug overlay draws the header's threshold line across the screen")
    func debugOverlay() {
        let simulation = debugFrame()
        // Sticky arms at 88 pt: the line is at 64 + 88 = 152 pt, pixel rows 303 and 304, red over the white rows.
        let pixel = simulation.canvas[740, 303]
        #expect(pixel >> 16 & 0xFF > 240 && pixel & 0xFF < 120)
    }

    @Test("The debug overlay labels each line on a dark backing and has a legend of its colours and the state",
          .enabled(if: standardFontsInstalled, "the standard fonts are installed"))
    func debugLabels() {
        let simulation = debugFrame()
        // Every line has its label on a dark backing, over whatever row lies there: the trigger's at the right
        // just above it, the refreshing inset's (44 pt: 108 pt, pixel 216) at the left.
        func isDark(_ x: Int, _ y: Int) -> Bool {
            let pixel: UInt32 = simulation.canvas[x, y]
            return pixel & 0xFF < 60 && (pixel >> 8) & 0xFF < 60
        }
        #expect(isDark(736, 298) && isDark(14, 211))
        // The legend at the bottom left: the outline's and the control points' colours on its backing.
        let legendTop: Double = 667.0 - 20 - 3 * 14 - 8
        let swatchX: Int = (12 + 5) * 2
        let outlineSwatch: UInt32 = simulation.canvas[swatchX, Int((legendTop + 4 + 7) * 2)]
        let handleSwatch: UInt32 = simulation.canvas[swatchX, Int((legendTop + 18 + 7) * 2)]
        #expect(outlineSwatch == Overlays.outlineColor.premultipliedPixel)
        #expect(handleSwatch == Overlays.handleColor.premultipliedPixel)
        #expect(isDark(Int(8 * 2), Int((legendTop + 2) * 2)))
    }
}

@Suite("A demo list that loads")
struct LoadingListTests {
    /// Runs `seconds` of frames on the simulated clock.
    func run(_ simulation: Simulation, _ clock: SimulatedClock, seconds: Double) {
        for _ in 0..<Int((seconds * 60).rounded()) {
            clock.advance(by: 1.0 / 60)
            simulation.step()
        }
    }

    /// Scrolls the list near its end with the wheel, then drags it up to its end, so the footer comes into view
    /// under a finger (an automatic footer loads on a drag or its momentum, once per touch, as MJRefresh's).
    func scrollToEnd(_ simulation: Simulation, _ clock: SimulatedClock) {
        let end = simulation.list.contentHeight - simulation.scrollView.boundsSize.height
        simulation.handle(.wheel(Point(0, end - 200 - simulation.scrollView.contentOffset.y)))
        run(simulation, clock, seconds: 0.3)
        simulation.handle(.touchDown(Point(187, 500)))
        for k in 1...20 {
            clock.advance(by: 1.0 / 60)
            simulation.handle(.touchMove(Point(187, 500 - Double(k) * 15)))
            simulation.step()
        }
        run(simulation, clock, seconds: 0.2)
        simulation.handle(.touchUp(Point(187, 200)))
        run(simulation, clock, seconds: 0.5)
    }

    @Test("It starts with 60 rows; each load adds 20 after the auto-end delay, up to 200, then no more data")
    func pages() {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        #expect(simulation.list.rowCount == 60 && simulation.scrollView.contentSize.height == 60 * DemoList.rowHeight)
        var counts: [Int] = []
        for _ in 0..<8 {
            scrollToEnd(simulation, clock)
            #expect(simulation.footer.state == .refreshing || simulation.footer.state == .noMoreData)
            run(simulation, clock, seconds: Simulation.autoEndDelay + 0.5)
            counts.append(simulation.list.rowCount)
        }
        #expect(counts == [80, 100, 120, 140, 160, 180, 200, 200])
        #expect(simulation.footer.state == .noMoreData)
        #expect(simulation.scrollView.contentSize.height == 200 * DemoList.rowHeight)
        // A refresh of the whole list reloads the first page, and the footer can load again.
        simulation.handle(.wheel(Point(0, -simulation.list.contentHeight)))
        run(simulation, clock, seconds: 1)
        simulation.perform(.beginRefresh)
        run(simulation, clock, seconds: Simulation.autoEndDelay + 0.1)
        #expect(simulation.list.rowCount == 60 && simulation.footer.state == .idle)
    }

    @Test("Tapping the footer loads; tapping a row does not")
    func tapFooter() {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.footer.endRefreshingWithNoMoreData()
        scrollToEnd(simulation, clock)
        run(simulation, clock, seconds: 1)
        simulation.footer.resetNoMoreData()
        run(simulation, clock, seconds: 0.1)
        #expect(simulation.footer.state == .idle)
        // The footer's middle on the screen: the content's end, seen through the list's frame.
        let footerY = simulation.phone.listFrame.minY + simulation.scrollView.contentSize.height
            - simulation.scrollView.contentOffset.y + simulation.footer.height / 2
        #expect(footerY < simulation.phone.screenSize.height)
        simulation.handle(.touchDown(Point(187, 200)))
        simulation.handle(.touchUp(Point(187, 200)))
        run(simulation, clock, seconds: 0.6)
        #expect(simulation.footer.state == .idle)
        let y = simulation.phone.listFrame.minY + simulation.scrollView.contentSize.height
            - simulation.scrollView.contentOffset.y + simulation.footer.height / 2
        simulation.handle(.touchDown(Point(187, y)))
        simulation.handle(.touchUp(Point(188, y + 2)))
        run(simulation, clock, seconds: 0.1)
        #expect(simulation.footer.state == .refreshing)
    }

    @Test("Tapping the navigation bar scrolls the list to its top, animated, as scrollsToTop")
    func scrollsToTop() {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.handle(.wheel(Point(0, 2000)))
        run(simulation, clock, seconds: 0.5)
        #expect(simulation.scrollView.contentOffset.y == 2000)
        simulation.handle(.touchDown(Point(187, 40)))
        simulation.handle(.touchUp(Point(187, 40)))
        run(simulation, clock, seconds: 0.1)
        let midway = simulation.scrollView.contentOffset.y
        #expect(midway < 2000 && midway > 0)
        run(simulation, clock, seconds: 0.5)
        #expect(simulation.scrollView.contentOffset.y == -simulation.scrollView.contentInset.top)
    }
}

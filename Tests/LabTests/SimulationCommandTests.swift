import Geometry
@testable import Lab
import Colors
import Motion
import Raster
@testable import Refresh
@testable import Text
import Testing
import TestSupport

@Suite("Simulation commands")
struct SimulationCommandTests {
    func frames(_ simulation: Simulation, _ clock: SimulatedClock, _ n: Int) {
        for _ in 0..<n {
            clock.advance(by: 1.0 / 60)
            simulation.step()
        }
    }

    @Test("Keys 1…5 choose sticky, dots, ring, news, classic; Tab goes on to the next and wraps around")
    func effects() {
        let simulation = Simulation(clock: SimulatedClock())
        #expect(simulation.perform(.selectEffect(index: 2)) == "3 · ring")
        #expect(simulation.effectName == "ring")
        #expect(simulation.perform(.selectEffect(index: 4)) == "5 · classic")
        // Tab walks every registered effect in order (other test targets in the same process may have added some)
        // and wraps around to the first.
        let names = RefreshEffects.names
        for step in 1...names.count {
            let index = (4 + step) % names.count
            #expect(simulation.perform(.nextEffect) == "\(index + 1) · \(names[index])")
        }
        #expect(simulation.effectName == "classic")
        #expect(simulation.perform(.selectEffect(index: 40)) == "No effect on key 41")
        #expect(simulation.effectName == "classic")
        #expect(simulation.toast.text == "No effect on key 41")
    }

    @Test("Keys 1…9 and then 0 choose the first ten effects: 9 swipe-refresh, 0 material3")
    func numberKeys() {
        for (key, index) in [("1", 0), ("9", 8), ("0", 9)] {
            #expect(Command(keyName: key) == .selectEffect(index: index))
        }
        let simulation = Simulation(clock: SimulatedClock())
        simulation.perform(Command(keyName: "0")!)
        #expect(simulation.effectName == "material3")
        simulation.perform(Command(keyName: "9")!)
        #expect(simulation.effectName == "swipe-refresh")
        #expect(Command.keyBindings.first { $0.keys == "0" }?.help == "Material 3 (Compose)")
    }

    @Test("Space begins a refresh; Return, F and M end it with success, failure and a message")
    func refreshFromCode() {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.perform(.toggleAutoEnd)
        #expect(!simulation.autoEndsRefreshing)
        #expect(simulation.perform(.endRefreshSuccess) == "Not refreshing: pull down or press Space first")
        #expect(simulation.perform(.beginRefresh) == "Refreshing from code")
        frames(simulation, clock, 1)
        #expect(simulation.refreshControl.state == .refreshing)
        #expect(simulation.perform(.beginRefresh) == "Already refreshing")
        #expect(simulation.perform(.endRefreshFailure) == "Ended with failure")
        #expect(simulation.refreshControl.state == .finishing(.failure))
        frames(simulation, clock, 180)
        #expect(simulation.refreshControl.state == .idle)
        simulation.perform(.beginRefresh)
        frames(simulation, clock, 1)
        #expect(simulation.perform(.endRefreshMessage) == "Ended with “12 new items”")
        #expect(simulation.refreshControl.state == .finishing(.message("12 new items")))
    }

    @Test("A toggles the automatic end: on, a refresh begun with Space ends by itself after 1.5 s")
    func autoEnd() {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        #expect(simulation.perform(.toggleAutoEnd) == "Auto end off: end with Return, F or M")
        #expect(simulation.perform(.toggleAutoEnd) == "Auto end on: refreshes end after 1.5 s")
        simulation.perform(.beginRefresh)
        frames(simulation, clock, 1)
        frames(simulation, clock, 88)
        #expect(simulation.refreshControl.state == .refreshing)
        frames(simulation, clock, 3)
        #expect(simulation.refreshControl.state == .finishing(.success))
    }

    @Test("N puts the footer in and out of no-more-data; L switches everything to Chinese and back")
    func footerAndLanguage() {
        let simulation = Simulation(clock: SimulatedClock())
        #expect(simulation.perform(.toggleNoMoreData) == "Footer: no more data")
        #expect(simulation.footer.state == .noMoreData)
        #expect(simulation.perform(.toggleNoMoreData) == "Footer: more data to load")
        #expect(simulation.footer.state == .idle)
        #expect(simulation.perform(.toggleLanguage) == "语言：中文")
        #expect(simulation.refreshControl.language == .chinese && simulation.footer.language == .chinese)
        #expect(simulation.list.language == .chinese)
        // One setting: the parts cannot disagree.
        #expect(simulation.refreshControl.languageSetting === simulation.footer.languageSetting
                && simulation.footer.languageSetting === simulation.list.languageSetting)
        #expect(simulation.perform(.toggleLanguage) == "Language: English")
        #expect(simulation.list.language == .english)
    }

    @Test("S slows time ×10, P stops it, . moves it one frame while paused and not otherwise")
    func time() {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        #expect(simulation.perform(.stepFrame) == "Pause with P first, then . steps one frame")
        #expect(simulation.clock.now == 0)
        #expect(simulation.perform(.toggleSlowAnimations) == "Slow animations ×10")
        clock.advance(by: 1)
        #expect(abs(simulation.clock.now - 0.1) < 1e-12)
        #expect(simulation.perform(.togglePause) == "Paused: . steps one frame")
        clock.advance(by: 5)
        #expect(abs(simulation.clock.now - 0.1) < 1e-12)
        #expect(simulation.perform(.stepFrame) == "One frame forward")
        #expect(abs(simulation.clock.now - (0.1 + 1.0 / 60)) < 1e-12)
        simulation.perform(.togglePause)
        simulation.perform(.toggleSlowAnimations)
        clock.advance(by: 2)
        #expect(abs(simulation.clock.now - (2.1 + 1.0 / 60)) < 1e-12)
    }

    @Test("A paused simulation is still but while its toast fades; the next change is scheduled, not polled")
    func pausedIsStill() {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.perform(.beginRefresh)
        frames(simulation, clock, 1)
        #expect(simulation.activity == .moving)
        simulation.perform(.togglePause)
        // The toast "Paused" shows unchanged until its fade begins 1.3 s after it was shown.
        let shown = clock.now
        #expect(simulation.activity == .still(until: shown + Toast.duration - Toast.fadeDuration))
        clock.advance(by: 1.4)
        #expect(simulation.activity == .moving)     // fading
        clock.advance(by: 0.3)
        #expect(simulation.activity == .still(until: .infinity))
    }

    @Test("Screenshot, recording and quit are handed to the host once; overlays toggle")
    func hostRequests() {
        let simulation = Simulation(clock: SimulatedClock())
        simulation.perform(.screenshot)
        simulation.perform(.toggleRecording)
        #expect(simulation.takeHostRequests() == [.screenshot, .toggleRecording])
        #expect(simulation.takeHostRequests() == [])
        simulation.perform(.quit)
        #expect(simulation.takeHostRequests() == .quit)
        #expect(simulation.perform(.toggleDebugOverlay) == "Debug overlay on" && simulation.showsDebugOverlay)
        #expect(simulation.perform(.toggleFrameGraph) == "Frame-time graph on" && simulation.showsFrameGraph)
        #expect(simulation.perform(.toggleHelp) == "Help: every key" && simulation.showsHelp)
        #expect(simulation.perform(.toggleHelp) == "Help closed" && !simulation.showsHelp)
    }

    @Test("The toast shows for 1.6 s and fades over its last 0.3 s, on the base clock even while paused")
    func toast() {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.perform(.togglePause)
        #expect(simulation.toast.opacity(at: clock.now) == 1)
        clock.advance(by: 1.3)
        #expect(simulation.toast.opacity(at: clock.now) == 1)
        clock.advance(by: 0.15)
        #expect(abs(simulation.toast.opacity(at: clock.now) - 0.5) < 1e-9)
        clock.advance(by: 0.16)
        #expect(!simulation.toast.isVisible(at: clock.now))
    }

    @Test("The help's opaque sheet covers the screen; the toast draws a dark pill near the bottom")
    func overlaysDraw() {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.step()
        simulation.render()
        // A point of a row's white background, right of the text: (360, 300) pt → pixel (720, 600).
        #expect(simulation.canvas[720, 600] == Color.white.premultipliedPixel)
        simulation.perform(.toggleHelp)
        simulation.render()
        #expect(simulation.canvas[720, 600] == Color.white.premultipliedPixel)   // the phone alone
        simulation.renderOverlays()
        // The sheet's own colour: nothing of the white row shows through.
        #expect(simulation.canvas[720, 600] == Overlays.helpBackground.premultipliedPixel)
        simulation.perform(.toggleHelp)
        simulation.render()
        simulation.renderOverlays()
        // The toast's pill is centred 48 pt above the bottom: its middle row at about 667 − 48 − 16 pt.
        let pill = simulation.canvas[375, Int((667.0 - 48 - 4) * 2)] & 0xFF
        #expect(pill < 60)
    }

    /// A finger flicking the list up at 1000 pt/s for 0.1 s, then lifting; returns where the list comes to rest.
    func flingRestingOffset(slow: Bool) -> Double {
        let base = SimulatedClock()
        let simulation = Simulation(clock: base)
        if slow { _ = simulation.perform(.toggleSlowAnimations) }
        frames(simulation, base, 2)
        simulation.handle(.touchDown(Point(187, 500)), at: base.now)
        for i in 1...6 {
            frames(simulation, base, 1)
            simulation.handle(.touchMove(Point(187, 500 - Double(i) * 1000.0 / 60)), at: base.now)
        }
        simulation.handle(.touchUp(Point(187, 400)), at: base.now)
        frames(simulation, base, slow ? 60 * 40 : 60 * 4)
        return simulation.scrollView.contentOffset.y
    }

    @Test("A fling in slow animations comes to rest where it does at full speed, only ten times later")
    func slowFling() {
        let normal = flingRestingOffset(slow: false)
        let slow = flingRestingOffset(slow: true)
        // 1000 pt/s decays over −v/k = 1000 / (1000·ln(1/0.998)) ≈ 499.5 pt beyond the 100 pt the finger moved.
        #expect(normal > 500)
        #expect(abs(slow - normal) < 0.01 * normal, "slow fling rests at \(slow), full speed at \(normal)")
    }
}

@Suite("Help and status")
struct HelpAndStatusTests {
    @Test("The help is modal: the list gets no input, other keys wait, H, F1 and Esc close it, Esc then quits")
    func modalHelp() {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.handle(.touchDown(Point(187, 300)))
        simulation.handle(.touchMove(Point(187, 340)))
        #expect(simulation.scrollView.isTracking)
        // Opened over a finger that is down: the touch ends there, and nothing more reaches the list.
        simulation.perform(.toggleHelp)
        #expect(simulation.showsHelp && !simulation.scrollView.isTracking && simulation.finger == nil)
        let offset = simulation.scrollView.contentOffset
        simulation.handle(.touchDown(Point(187, 500)))
        simulation.handle(.touchMove(Point(187, 200)))
        simulation.handle(.touchUp(Point(187, 200)))
        simulation.handle(.wheel(Point(0, 300)))
        clock.advance(by: 1)
        simulation.step()
        // The cancelled pull settled back at the top; the drag and the wheel behind the help moved nothing.
        #expect(offset.y < 0 && simulation.scrollView.contentOffset.y == 0 && !simulation.scrollView.isTracking)
        #expect(simulation.perform(.selectEffect(index: 2)) == "Close the help first (H or Esc)")
        #expect(simulation.effectName == "sticky")
        for close in [Command.toggleHelp, .escape] {
            simulation.showsHelp = true
            simulation.perform(close)
            #expect(!simulation.showsHelp && simulation.takeHostRequests().isEmpty)
        }
        simulation.showsHelp = true
        simulation.perform(Command(keyName: "F1")!)
        #expect(!simulation.showsHelp)
        // With nothing open, a first Esc only says how to quit, for as long as a second one quits.
        #expect(simulation.perform(.escape) == "Press Esc again to quit" && simulation.takeHostRequests().isEmpty)
        simulation.perform(.escape)
        #expect(simulation.takeHostRequests() == .quit)
    }

    @Test("The help is an opaque sheet; L works while it is open; its toast takes its title's place, never its lines",
          .enabled(if: standardFontsInstalled, "the standard fonts are installed"))
    func helpSheet() throws {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.step()
        #expect(simulation.perform(.toggleHelp) == "Help: every key")
        #expect(simulation.perform(.toggleLanguage) == "语言：中文" && simulation.showsHelp && simulation.language == .chinese)
        simulation.render()
        simulation.renderOverlays()
        let canvas = simulation.canvas, s = simulation.phone.scale
        // Opaque: a row's text behind the sheet leaves no trace; the sheet's colour wherever the help draws nothing.
        let sheet = Overlays.helpBackground.premultipliedPixel
        let right = Int((simulation.phone.screenSize.width - 4) * s)
        for y in stride(from: 0, to: canvas.height, by: 7) { #expect(canvas[right, y] == sheet, "row \(y)") }
        // The toast sits where the title was, above the first key line.
        let text = try #require(simulation.renderer.loadTextRenderer())
        let lines = simulation.overlays.helpLayout(language: .chinese, text: text).lines.count
        let (top, rowHeight) = Overlays.helpRows(lines: lines, screenHeight: simulation.phone.screenSize.height)
        let toast = try #require(simulation.toast.frame)
        let firstLineTop = top + 2 * rowHeight - Overlays.helpFontSize
        #expect(toast.maxY <= firstLineTop, "the toast ends at \(toast.maxY), the first line starts at \(firstLineTop)")
        #expect(toast.minY >= 0)
    }

    @Test("A screenshot shows no toast of its own: C says nothing until the file is saved")
    func screenshotToast() {
        let simulation = Simulation(clock: SimulatedClock())
        #expect(simulation.perform(.screenshot).isEmpty && simulation.takeHostRequests() == .screenshot)
        #expect(!simulation.toast.isVisible(at: 0))
    }

    @Test("Esc quits only when pressed again within a second, with no other key between")
    func escapeTwice() {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        for gap in [0.1, 0.5, 0.99, 1.01, 2.0] {
            #expect(simulation.perform(.escape) == "Press Esc again to quit")
            #expect(simulation.toast.isVisible(at: clock.now + Simulation.escapeAgainWindow - 0.01))
            #expect(!simulation.toast.isVisible(at: clock.now + Simulation.escapeAgainWindow + 0.01))
            clock.advance(by: gap)
            simulation.perform(.escape)
            let quits = simulation.takeHostRequests() == .quit
            #expect(quits == (gap <= Simulation.escapeAgainWindow), "a second Esc after \(gap) s")
            if !quits { simulation.perform(.escape) }
            clock.advance(by: 5)
            _ = simulation.takeHostRequests()
        }
        // Another key between the two: the second Esc only asks again.
        simulation.perform(.escape)
        simulation.perform(.toggleLanguage)
        #expect(simulation.perform(.escape) != "Quit" && simulation.takeHostRequests().isEmpty)
    }

    @Test("The first start's hint names H for a few seconds")
    func keysHint() {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.showKeysHint()
        #expect(simulation.toast.text == "H: every key")
        #expect(simulation.toast.isVisible(at: clock.now + 3.5) && !simulation.toast.isVisible(at: clock.now + 4.1))
    }

    @Test("Every help line fits whole on the screen, in both languages, at scales 1 to 3, with all ten effect keys",
          .enabled(if: standardFontsInstalled, "the standard fonts are installed"))
    func helpFits() throws {
        let fonts = try FontSet.standard()
        let text = TextRenderer(fonts: fonts)
        // Ten effects whatever the registry holds in this process: the built-in titles, then the longest again.
        let titles = RefreshEffects.builtIn.map(\.title)
        let longest = titles.max { $0.english.count < $1.english.count }!
        let effects = (0..<Command.effectKeyCount).map { i in
            let title = i < titles.count ? titles[i] : longest
            return Command.KeyBinding(keys: Command.effectKey(index: i), command: .selectEffect(index: i), help: title.english,
                                      chineseHelp: title.chinese)
        }
        for language in [RefreshLanguage.english, .chinese] {
            for scale in [1.0, 2, 3] {
                let simulation = Simulation(phone: Phone(scale: scale), clock: SimulatedClock())
                let layout = simulation.overlays.helpLayout(language: language, text: text,
                                                            bindings: effects + Command.toolKeyBindings)
                let keyWidth = layout.lines.map(\.key.width).max() ?? 0
                let width = simulation.phone.screenSize.width
                #expect(!layout.title.isTruncated && layout.title.width <= width - 2 * Overlays.helpMargin)
                for line in layout.lines {
                    #expect(!line.help.isTruncated && !line.key.isTruncated)
                    #expect(Overlays.helpMargin + keyWidth + Overlays.helpColumnGap + line.help.width
                            <= width - Overlays.helpMargin, "\(line.help.string) at scale \(scale)")
                }
                let height = simulation.phone.screenSize.height
                let pitch = Overlays.helpRowHeight(lines: layout.lines.count, screenHeight: height)
                #expect(Double(layout.lines.count + 2) * pitch <= height - 2 * Overlays.helpVerticalMargin + 1e-9)
                // Rows closer than a line of text would overlap.
                let tallest = layout.lines.map { max($0.key.lineHeight, $0.help.lineHeight) }.max() ?? 0
                #expect(pitch >= tallest, "rows \(pitch) pt apart, lines \(tallest) pt tall")
            }
        }
    }

    @Test("The status names the effect, the language and every toggle that is on")
    func status() {
        let simulation = Simulation(clock: SimulatedClock())
        #expect(simulation.status == "sticky | English | auto end")
        simulation.perform(.selectEffect(index: 2))
        simulation.perform(.toggleAutoEnd)
        simulation.perform(.toggleSlowAnimations)
        simulation.perform(.togglePause)
        simulation.perform(.toggleLanguage)
        #expect(simulation.status == "ring | Chinese | slow x10 | paused")
    }

    @Test("A toast too long for the screen is shortened in the middle, keeping the file's name",
          .enabled(if: standardFontsInstalled, "the standard fonts are installed"))
    func toastShortened() throws {
        let fonts = try FontSet.standard()
        let text = TextRenderer(fonts: fonts)
        let long = "/home/someone/projects/refresh-designs/exports/today/refreshlab-2026-11-24-094105.png"
        let line = Toast.layout(long, size: Toast.detailFontSize, maxWidth: 327, renderer: text)
        #expect(line.width <= 327)
        #expect(line.string.hasPrefix("/home"))
        #expect(line.string.hasSuffix("/refreshlab-2026-11-24-094105.png"))
        #expect(line.string.contains("…"))
        // Without a path, half from each end.
        let words = String(repeating: "pull to refresh ", count: 8) + "the end"
        let shortened = Toast.layout(words, maxWidth: 200, renderer: text).string
        #expect(shortened.hasPrefix("pull to") && shortened.hasSuffix("the end") && shortened.contains("…"))
        #expect(Toast.layout("Saved", maxWidth: 327, renderer: text).string == "Saved")
    }
}

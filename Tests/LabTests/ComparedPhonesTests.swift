#if canImport(Glibc)
import Glibc
#endif
import Geometry
@testable import Lab
import Motion
import Raster
import Recording
@testable import Refresh
import Styles
import Testing
import TestSupport

/// Two phones in one session (W): the second starts as a copy of the first, the keys that change a phone change the
/// selected one only, the finger and the refresh keys drive both, and each phone's tuned values go to its own file.
@Suite struct ComparedPhonesTests {
    /// Whether two canvases hold the same pixels.
    private func samePixels(_ a: Canvas, _ b: Canvas) -> Bool {
        a.width == b.width && a.height == b.height && memcmp(a.pixels, b.pixels, a.pixelCount * 4) == 0
    }

    @Test func theSecondPhoneStartsAsACopyAndKeysChangeTheSelectedOneOnly() {
        let (simulation, clock) = effectSimulation(showing: "classic")
        simulation.perform(.toggleAppearance)
        simulation.perform(.toggleLanguage)
        // Scrolled down, with a page more of rows: the copy starts there too.
        simulation.primaryPhone.finishLoad()
        simulation.scrollView.setContentOffset(Point(0, 900))
        advance(simulation, clock, frames: 2)
        #expect(simulation.perform(.toggleSecondPhone) == "对比：按键改变右边的手机（Tab 切换，W 关闭）")
        #expect(simulation.phones.count == 2 && simulation.selectedIndex == 1)
        let a = simulation.phones[0], b = simulation.phones[1]
        #expect(b.effectName == "classic" && b.appearance == .dark && b.language == .chinese && b.device == a.device)
        advance(simulation, clock, frames: 2)
        simulation.render()
        #expect(b.scrollView.contentOffset == a.scrollView.contentOffset && b.list.rowCount == a.list.rowCount)
        #expect(samePixels(a.canvas, b.canvas), "a copy draws what the first phone draws")

        // Keys that change a phone: the selected one (B), then after Tab the other (A).
        simulation.perform(.selectEffect(index: 2))
        simulation.perform(.toggleAppearance)
        simulation.perform(.nextBarStyle)
        #expect(b.effectName == Simulation.effectNames[2] && b.appearance == .light && b.device.bar != a.device.bar)
        #expect(a.effectName == "classic" && a.appearance == .dark)
        #expect(simulation.perform(.nextEffect) == "手机 A（左）", "Tab selects the other phone while comparing")
        #expect(simulation.selectedIndex == 0)
        simulation.perform(.nextDevice)
        simulation.perform(.toggleLanguage)
        #expect(a.device.model != nil && b.device.model == nil)
        #expect(a.language == .english && b.language == .chinese)
        #expect(simulation.status.hasPrefix("phone A of 2 | classic"))

        // W again closes the second phone; Tab is the next header again.
        simulation.perform(.toggleSecondPhone)
        #expect(simulation.phones.count == 1 && simulation.selectedIndex == 0 && simulation.phones[0] === a)
        simulation.perform(.nextEffect)
        #expect(a.effectName != "classic")
    }

    /// A drag on either phone moves both by the same points (same phones) frame by frame, through the release, the
    /// refresh and its end by key; a touch going down on the phone not selected selects it.
    @Test(arguments: [0, 1])
    func theFingerAndTheRefreshKeysDriveBoth(touched: Int) {
        let (simulation, clock) = effectSimulation(showing: "sticky")
        simulation.perform(.toggleSecondPhone)
        simulation.perform(.nextEffect)   // A selected
        let a = simulation.phones[0], b = simulation.phones[1]
        var time = clock.now
        simulation.handle(.touchDown(Point(180, 200)), at: time, onPhone: touched)
        #expect(simulation.selectedIndex == touched)
        for step in 1...30 {
            clock.advance(by: 1 / simulatedFrameRate)
            time = clock.now
            simulation.handle(.touchMove(Point(180, 200 + Double(step) * 10)), at: time, onPhone: touched)
            simulation.step()
            #expect(a.scrollView.contentOffset == b.scrollView.contentOffset, "frame \(step)")
            #expect(a.finger == b.finger)
        }
        simulation.handle(.touchUp(Point(180, 500)), at: time, onPhone: touched)
        for frame in 0..<90 {
            advance(simulation, clock)
            #expect(a.scrollView.contentOffset == b.scrollView.contentOffset, "frame \(frame) after the release")
            #expect(a.refreshControl.state == b.refreshControl.state)
        }
        #expect(a.refreshControl.state == .refreshing)
        simulation.perform(.endRefreshFailure)
        #expect(a.refreshControl.state == b.refreshControl.state && b.refreshControl.state != .refreshing)
        advance(simulation, clock, frames: 120)
        simulation.perform(.beginRefresh)
        #expect(a.refreshControl.state == .refreshing && b.refreshControl.state == .refreshing)
        simulation.perform(.toggleAutoEnd)
        #expect(a.autoEndsRefreshing == b.autoEndsRefreshing && a.autoEndsRefreshing)
    }

    /// Phones of other heights: each gets the finger at the same place from its top left, scaled by the ratio of
    /// their heights, so that both pull past their thresholds together.
    @Test func phonesOfOtherHeightsGetTheFingerScaled() throws {
        let clock = SimulatedClock()
        let simulation = Simulation(phone: Phone(model: try PhoneModel.named("iphone-se")), clock: clock)
        simulation.autoEndsRefreshing = false
        simulation.perform(.toggleSecondPhone)
        let b = simulation.phones[1]
        b.setDevice(Phone(model: try PhoneModel.named("iphone-16-pro-max")))
        let a = simulation.phones[0]
        let ratio = b.device.screenSize.height / a.device.screenSize.height
        #expect(ratio > 1.4)
        simulation.handle(.touchDown(Point(100, 150)), onPhone: 0)
        simulation.handle(.touchMove(Point(100, 150)), onPhone: 0)
        #expect(b.finger == Point(100 * ratio, 150 * ratio))
        for step in 1...40 {
            clock.advance(by: 1 / simulatedFrameRate)
            simulation.handle(.touchMove(Point(100, 150 + Double(step) * 10)), at: clock.now, onPhone: 0)
            simulation.step()
        }
        let fingerB = try #require(b.finger)
        #expect(abs(fingerB.y - 550 * ratio) < 1e-9)
        simulation.handle(.touchUp(Point(100, 550)), at: clock.now, onPhone: 0)
        advance(simulation, clock, frames: 60)
        #expect(a.refreshControl.state == .refreshing && b.refreshControl.state == .refreshing)
    }

    /// The tuning panel tunes the selected phone and saves to its own file: the first phone's file, or the file of
    /// that name in `second-phone/` beside it; a second phone opened again reads its own file over the first's.
    @Test func eachPhoneTunesIntoItsOwnStyleFile() throws {
        let dir = temporaryDirectory("compare-tuning")
        defer { _ = removeDirectory(dir) }
        let path = dir + "/mine.json", second = dir + "/second-phone/mine.json"
        writeTextFile(path, #"{"ring": {"strokeWidth": 3}}"#)
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.styles = try StyleFiles.load([path])
        simulation.selectEffect(named: "ring")
        simulation.tuning.file = path
        simulation.perform(.toggleSecondPhone)
        #expect(simulation.tuningFile == second)
        simulation.perform(.toggleTuning)
        let rows = simulation.tuningRows
        let index = try #require(rows.firstIndex { $0.section == "ring" && $0.key == "strokeWidth" })
        for _ in 0..<index { simulation.perform(.tuningSelect(by: 1)) }
        simulation.perform(.tuningNudge(by: 10))
        clock.advance(by: Tuning.saveInterval + 0.1)
        simulation.step()
        let ringA = try #require(simulation.phones[0].refreshControl.effect as? RingEffect)
        let ringB = try #require(simulation.phones[1].refreshControl.effect as? RingEffect)
        #expect(ringA.style.strokeWidth == 3)
        #expect(ringB.style.strokeWidth > 3)
        #expect(readTextFile(path) == #"{"ring": {"strokeWidth": 3}}"#, "the first phone's file is not written")
        let secondText = try #require(readTextFile(second))
        #expect(secondText.contains("strokeWidth"))

        // Closed and opened again, the second phone reads its own file over the first phone's.
        simulation.perform(.toggleSecondPhone)
        simulation.perform(.toggleSecondPhone)
        let reopened = try #require(simulation.phones[1].refreshControl.effect as? RingEffect)
        #expect(reopened.style.strokeWidth == ringB.style.strokeWidth)

        // A reload of the first phone's file reaches both; the key the second phone's file sets stays its own.
        writeTextFile(path, #"{"ring": {"strokeWidth": 4, "arrowWidth": 9}}"#)
        let changed = try simulation.restyle(with: StyleFiles.load([path]))
        #expect(changed)
        let afterA = try #require(simulation.phones[0].refreshControl.effect as? RingEffect)
        let afterB = try #require(simulation.phones[1].refreshControl.effect as? RingEffect)
        #expect(afterA.style.strokeWidth == 4 && afterB.style.strokeWidth == ringB.style.strokeWidth)
        #expect(afterA.style.arrowWidth == 9 && afterB.style.arrowWidth == 9)
    }

    /// In the window each phone presents at its own refresh rate: over a second of a 120 Hz window, the 16 Pro
    /// presents 120 frames and the SE beside it 60, every other one, and each one's HUD rate says so; after input
    /// (or for an output) both present.
    @Test func eachPhonePresentsAtItsOwnRate() throws {
        let clock = SimulatedClock()
        let simulation = Simulation(phone: Phone(model: try PhoneModel.named("iphone-se")), clock: clock)
        simulation.perform(.toggleSecondPhone)
        simulation.setPhone(Phone(model: try PhoneModel.named("iphone-16-pro")))
        simulation.clock.frameDuration = 1.0 / 120
        let se = simulation.phones[0], pro = simulation.phones[1]
        var presented = (se: 0, pro: 0), pattern: [Bool] = []
        for frame in 0..<120 {
            let time = Double(frame) / 120
            simulation.renderFrame(at: time, followsIdle: false, everyPhone: false)
            if se.isPresentedThisFrame { presented.se += 1 }
            if pro.isPresentedThisFrame { presented.pro += 1 }
            pattern.append(se.isPresentedThisFrame)
        }
        #expect(presented.se == 60 && presented.pro == 120)
        #expect(pattern.prefix(6) == [true, false, true, false, true, false])
        let seRate = try #require(se.framesPerSecond(at: 119.0 / 120))
        let proRate = try #require(pro.framesPerSecond(at: 119.0 / 120))
        #expect(abs(seRate - 60) < 1.5 && abs(proRate - 120) < 1.5, "\(seRate) and \(proRate) fps")
        simulation.renderFrame(at: 1, followsIdle: false, everyPhone: false)
        simulation.renderFrame(at: 1 + 1.0 / 120, followsIdle: false, everyPhone: false)
        #expect(!se.isPresentedThisFrame)
        simulation.renderFrame(at: 1 + 1.0 / 120, followsIdle: false, everyPhone: true)
        #expect(se.isPresentedThisFrame && pro.isPresentedThisFrame)
    }
}

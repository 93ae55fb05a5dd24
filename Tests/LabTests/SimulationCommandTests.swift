import Geometry
import Lab
import Motion
import Raster
import Refresh
import Testing

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
        #expect(!simulation.isAnimating)
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

    @Test("The help overlay darkens the screen; the toast draws a dark pill near the bottom")
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
        // White under black at 0.85: 255 × 0.15 ≈ 38.
        let darkened = simulation.canvas[720, 600] & 0xFF
        #expect(darkened >= 36 && darkened <= 40)
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

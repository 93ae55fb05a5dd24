import Geometry
@testable import Layers
import Motion
import Raster
import Refresh
import Testing
import TestSupport
@testable import Lab
import Colors
@testable import UserFiles
@testable import Scenes
@testable import Recording

/// An input for the loop as a window would be: each turn is one 1/60 s tick of a simulated clock, with the
/// actions queued for it; a turn the loop asks to sleep jumps the clock to the deadline (or by `idleJump` when
/// nothing is scheduled) as a window asleep in its event queue would, and records what it was asked.
final class TickInput: FrameInput {
    let clock: SimulatedClock
    var turns: [(Simulation) -> Bool] = []
    /// The `idleUntil` of every turn, in order.
    var asked: [Double?] = []
    /// How far an unscheduled sleep moves the clock (until the next queued input "arrives").
    var idleJump = 1.0

    init(clock: SimulatedClock) { self.clock = clock }

    var now: Double { clock.now }
    var presentsEveryFrame: Bool { false }

    func nextFrame(for simulation: Simulation, idleUntil: Double?) -> FrameInputResult {
        asked.append(idleUntil)
        guard !turns.isEmpty else { return .end }
        if let deadline = idleUntil {
            clock.advance(by: deadline.isFinite ? Swift.max(deadline - clock.now, 0) : idleJump)
        } else {
            clock.advance(by: 1.0 / 60)
        }
        let changed = turns.removeFirst()(simulation)
        return .frame(changed: changed, waited: idleUntil != nil)
    }

    /// Queues `count` turns with no input.
    func nothing(_ count: Int) {
        for _ in 0..<count { turns.append { _ in false } }
    }
}

@Suite("Frame loop")
struct FrameLoopTests {
    func makeLoop() -> (FrameLoop, TickInput, SimulatedClock) {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        let input = TickInput(clock: clock)
        let loop = FrameLoop(simulation: simulation, input: input, recorder: FrameRecorder(phaseClock: .monotonic))
        loop.report = { _ in }
        return (loop, input, clock)
    }

    @Test("A still list presents nothing and sleeps with no deadline; a toast schedules its fade and is presented")
    func sleepsUntilTheNextChange() throws {
        let (loop, input, clock) = makeLoop()
        input.nothing(3)
        try loop.run()
        // The first turn draws the first frame (nothing was shown yet); then nothing moves and nothing is due.
        #expect(loop.frameIndex == 1)
        #expect(input.asked.dropFirst().allSatisfy { $0 == .infinity })

        // A key shows a toast: a frame at once, then sleep until its fade begins, 1.3 s after it was shown.
        let (loop2, input2, _) = makeLoop()
        input2.nothing(1)
        input2.turns.append { simulation in simulation.perform(.toggleAutoEnd); return true }
        input2.nothing(2)
        try loop2.run()
        let shown = try #require(loop2.simulation.toast.shownAt)
        #expect(input2.asked[2] == shown + Toast.duration - Toast.fadeDuration)
        _ = clock
    }

    @Test("While something moves every tick is presented; the frame after a sleep is marked as following idle")
    func presentsWhileMoving() throws {
        let (loop, input, _) = makeLoop()
        input.nothing(2)
        input.turns.append { simulation in simulation.perform(.beginRefresh); return true }
        input.nothing(30)
        try loop.run()
        // Frame 0, then the key's frame and every tick of the refresh's motion.
        #expect(loop.frameIndex == 32)
        #expect(input.asked[2] == .infinity && input.asked[3...].allSatisfy { $0 == nil })
        let recorder = loop.recorder
        #expect(recorder.recent(30).followsIdle)                          // the key, after the loop slept
        #expect((0..<30).allSatisfy { !recorder.recent($0).followsIdle })
        #expect(abs(recorder.recent(0).interval - 1.0 / 60) < 1e-9)
        // The idle stretch before the key is no dropped frame.
        #expect(recorder.recent(30).droppedFrames(budget: 1.0 / 60) == 0)
        #expect(recorder.recent(30).interval > 0.9)
    }

    @Test("A screenshot taken with the HUD, the help and a toast on equals one taken with them off")
    func cleanScreenshots() throws {
        func screenshot(withOverlays: Bool) throws -> Canvas {
            let (loop, input, _) = makeLoop()
            let dir = temporaryDirectory("screenshot")
            loop.files = try OutputFolder(path: dir)
            input.nothing(1)
            input.turns.append { simulation in
                if withOverlays {
                    simulation.perform(.toggleFrameGraph)
                    simulation.perform(.toggleDebugOverlay)
                    simulation.perform(.toggleHelp)   // modal: the next key only says to close it
                    simulation.perform(.screenshot)
                    #expect(simulation.hostRequests.isEmpty)
                    simulation.hostRequests.insert(.screenshot)   // as C would, were the help not modal
                } else {
                    simulation.perform(.screenshot)
                }
                return true
            }
            input.nothing(1)
            var written: [String] = []
            loop.report = { written.append($0) }
            try loop.run()
            let line = try #require(written.first { $0.hasPrefix("saved ") })
            let path = String(line.dropFirst("saved ".count))
            #expect(path.hasPrefix(dir + "/refreshlab-") && path.hasSuffix(".png"))
            if withOverlays {
                // The window did show them.
                #expect(loop.simulation.showsHelp && loop.simulation.toast.isVisible(at: loop.input.now))
            }
            return try PNG.read(from: path)
        }
        let plain = try screenshot(withOverlays: false)
        let busy = try screenshot(withOverlays: true)
        let difference = try #require(ImageDifference(plain, busy))
        #expect(difference.maxChannelDifference == 0)
        // And the overlays do change the window's own picture: the check above could fail.
        let (loop, input, _) = makeLoop()
        input.turns.append { simulation in simulation.perform(.toggleHelp); return true }
        try loop.run()
        #expect(ImageDifference(plain, loop.simulation.canvas).map { $0.maxChannelDifference > 100 } == true)
    }

    @Test("Outputs include the overlays when asked (--overlays, O)")
    func overlaysOnRequest() throws {
        let dir = temporaryDirectory("overlay-frames")
        let script = GestureScript(steps: [.key("H", .toggleHelp), .wait(0.05)])
        let plain = try ScriptRun(script: script, outputs: ScriptRunOutputs(framesDirectory: dir + "/plain"))
        try plain.run()
        let busy = try ScriptRun(script: script, outputs: ScriptRunOutputs(framesDirectory: dir + "/busy",
                                                                            includesOverlays: true))
        try busy.run()
        let a = try PNG.read(from: PNGSequence.path(of: 2, in: dir + "/plain"))
        let b = try PNG.read(from: PNGSequence.path(of: 2, in: dir + "/busy"))
        // White rows under 85 % black: the help's dimming is in the second only.
        #expect(a[720, 600] == Color.white.premultipliedPixel)
        #expect(b[720, 600] & 0xFF < 45)
    }

    @Test("Files written by a headless run are timed as output, outside the frame's budget")
    func outputIsNotBudget() throws {
        let dir = temporaryDirectory("output-phase")
        let run = try ScriptRun(script: GestureScript(steps: [.wait(0.1)]),
                                outputs: ScriptRunOutputs(framesDirectory: dir))
        // Longer than the first frame's drawing in a debug build: PNGs are encoded on other threads, so the
        // output phase is this sink's alone.
        let slow = 0.1
        run.loop.sinks.append(SlowSink(seconds: slow))
        let csv = dir + "/t.csv"
        try run.recorder.startRecording(csvPath: csv, jsonPath: dir + "/t.json")
        try run.run()
        let summary = try #require(try run.recorder.stopRecording())
        let rows = try TimingRow.parse(try TimingFiles.readText(csv), path: csv)
        #expect(rows.count == 7)
        for row in rows {
            #expect(row.phases[FramePhase.output.rawValue] >= slow)
            // cpu_ms is the budgeted phases alone.
            let budgeted = FramePhase.budgeted.map { row.phases[$0.rawValue] }.reduce(0, +)
            #expect(abs(row.cpuTime - budgeted) < 2e-6)
        }
        // Had the sink's time gone into a budgeted phase, every frame's cpu_ms would be past it. The median frame,
        // not every one: a loaded machine once drew a cold first frame of a debug build in 0.113 s.
        let cpuTimes = rows.map(\.cpuTime).sorted()
        #expect(cpuTimes[cpuTimes.count / 2] < slow, "cpu times \(cpuTimes) s")
        // Janky frames are those whose own work exceeds the budget, whatever the files cost.
        #expect(summary.jankyFrames == rows.filter { $0.cpuTime > 1.0 / 60 }.count)
    }
}

/// A missing font is said, not silently drawn as nothing.
@Suite("Missing fonts")
struct MissingFontTests {
    @Test("A font that cannot be loaded is said once on standard error, with the package to install")
    func saidOnce() throws {
        let run = try ScriptRun(script: GestureScript(steps: [.wait(0.05)]))
        // A message of its own: messages are said once per process, whichever test met them first.
        let message = "font 'Missing Sans \(UInt64.random(in: 0...UInt64.max))' is not installed: install it with "
            + "'apt-get install fonts-dejavu-core'"
        run.simulation.renderer.loadFonts = { _ in throw LabError(message) }
        var said: [String] = []
        run.loop.reportError = { said.append($0) }
        try run.run()
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.contains(message) == true && said.first?.contains("text is not drawn") == true)
    }
}

/// A sink that takes `seconds` of CPU per frame, as a slow PNG encoder would.
final class SlowSink: FrameSink {
    let seconds: Double
    init(seconds: Double) { self.seconds = seconds }
    func write(_ canvas: Canvas, frame index: Int) throws {
        // The thread's own CPU time, as the recorder's phases count it: a wall-clock wait would count less
        // while other threads (the PNG workers) share the cores.
        let start = FrameRecorder.threadSeconds()
        var x = 0.0
        while FrameRecorder.threadSeconds() - start < seconds { x += 1 }
        #expect(x > 0)
    }
    func finish() throws {}
}

/// A display that keeps the titles it was given.
final class TitleDisplay: FrameDisplay {
    var titles: [String] = []
    func upload(_ canvas: Canvas, second: Canvas?, side: Canvas?) {}
    func present() {}
    func showStatus(_ status: String) { titles.append(status) }
}

@Suite("The window's title")
struct TitleTests {
    /// The titles a window shows over a frame loop whose turns do `turns` (each after a first turn that does
    /// nothing).
    private func titles(_ turns: [(Simulation) -> Void]) throws -> [String] {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        let input = TickInput(clock: clock)
        let display = TitleDisplay()
        let loop = FrameLoop(simulation: simulation, input: input, display: display)
        loop.report = { _ in }
        input.turns.append { _ in true }
        for turn in turns { input.turns.append { simulation in turn(simulation); return true } }
        try loop.run()
        return display.titles
    }

    @Test("Every key that turns something on or off changes the title at the next frame, and back")
    func everyToggleChangesTheTitle() throws {
        let toggles: [(Command, String)] = [(.toggleTuning, "tuning"), (.toggleDebugOverlay, "debug"),
                                            (.toggleSlowAnimations, "slow x10"), (.togglePause, "paused"),
                                            (.toggleAutoEnd, "auto end"), (.toggleLanguage, "Chinese"),
                                            (.toggleOverlaysInOutputs, "overlays in outputs"),
                                            (.toggleFrameGraph, "frame graph"), (.toggleHelp, "help")]
        for (command, word) in toggles {
            let titles = try titles([{ $0.perform(command) }, { $0.perform(command) }])
            #expect(titles.count == 3, "\(command): \(titles)")
            let withWord = titles.map { $0.split(separator: " | ").contains { $0 == word } }
            #expect(withWord == [false, true, false] || withWord == [true, false, true], "\(command): \(titles)")
        }
    }

    /// The footer running out of data is heard through its callback: the title says so at the next frame, with no
    /// key pressed.
    @Test func theFootersChangeReachesTheTitleThroughItsCallback() throws {
        let titles = try titles([{ $0.footer.endRefreshingWithNoMoreData() }, { _ in }])
        #expect(titles.count == 2, "\(titles)")
        #expect(titles.last?.hasSuffix("| no more data") == true, "\(titles)")
    }
}

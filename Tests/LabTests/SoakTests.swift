#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import Motion
import Refresh
import Testing
import TestSupport
@testable import Lab
@testable import Recording

/// Random use of the simulator, one frame at a time: drags and flicks (pulls past the top among them), wheel
/// scrolls, taps and keys — effect switches, refreshes begun and ended from code, slow motion and pause (each
/// undone after a while), the footer, the language, the overlays and the help.
struct SoakGestures {
    private var random: SeededRandom
    private let phone: Phone
    /// Frames left of the drag or wheel scroll under way, and its speed in points a frame.
    private var remaining = 0
    private var speed = Point(0, 0)
    private var wheeling = false
    private var finger = Point(0, 0)
    /// Frames until the next gesture or key.
    private var rest = 30
    /// Frames until slow motion, pause or the automatic end's switch is undone (0: nothing to undo).
    private var undoIn = 0
    private var undo: Command?
    /// The last few gestures and keys with their frames, for a problem's message.
    private(set) var recent: [String] = []
    private var frame = 0
    /// Every key but those asking the host for files or to quit.
    static let keys: [Command] = (0..<5).map { Command.selectEffect(index: $0) } + [
        .nextEffect, .beginRefresh, .endRefreshSuccess, .endRefreshFailure, .endRefreshMessage, .toggleAutoEnd,
        .toggleNoMoreData, .toggleLanguage, .toggleSlowAnimations, .togglePause, .toggleDebugOverlay,
        .toggleFrameGraph, .toggleOverlaysInOutputs, .toggleHelp,
    ]
    /// Keys that stop the list (slow motion, pause, no automatic end): pressed again after a while.
    static let undone: [Command] = [.toggleSlowAnimations, .togglePause, .toggleAutoEnd]

    init(seed: UInt64, phone: Phone) {
        random = SeededRandom(seed: seed)
        self.phone = phone
    }

    /// Applies this frame's input to `simulation`; returns how far the finger or the wheel moved the content at
    /// most (points).
    mutating func apply(to simulation: Simulation) -> Double {
        frame += 1
        if undoIn > 0 {
            undoIn -= 1
            if simulation.clock.isPaused && random.next() % 8 == 0 { simulation.perform(.stepFrame) }
            if undoIn == 0, let command = undo {
                note("\(command) again")
                simulation.perform(command)
                undo = nil
            }
        }
        if remaining > 0 { return continueGesture(simulation) }
        if rest > 0 {
            rest -= 1
            return 0
        }
        rest = random.int(in: 0...90)
        switch random.next() % 20 {
        case 0..<9: startDrag(simulation)
        case 9..<12: startWheel()
        case 12..<14: tap(simulation)
        default: press(simulation)
        }
        return remaining > 0 ? continueGesture(simulation) : 0
    }

    private mutating func startDrag(_ simulation: Simulation) {
        let list = phone.listFrame
        finger = Point(random.double(in: 20...(list.maxX - 20)), random.double(in: (list.minY + 10)...(list.maxY - 10)))
        simulation.handle(.touchDown(finger))
        remaining = random.int(in: 3...60)
        defer { note("drag from \(finger) by \(speed) pt a frame for \(remaining) frames") }
        // Down (pulls, once at the top) or up (scrolls and flicks), up to 2,400 pt/s.
        let down = random.next() % 5 < 3
        let perFrame = random.double(in: 0...40) * (down ? 1 : -1)
        speed = Point(random.double(in: -2...2), perFrame)
        wheeling = false
    }

    private mutating func startWheel() {
        remaining = random.int(in: 1...40)
        speed = Point(0, random.double(in: -60...60))
        wheeling = true
        note("wheel by \(speed) pt a frame for \(remaining) frames")
    }

    private mutating func tap(_ simulation: Simulation) {
        // On the navigation bar (scroll to the top) or anywhere on the list (the footer, when it is there).
        let y = random.next() % 2 == 0 ? random.double(in: 25...60) : random.double(in: 70...660)
        let p = Point(random.double(in: 10...365), y)
        simulation.handle(.touchDown(p))
        simulation.handle(.touchUp(p))
        note("tap at \(p)")
    }

    private mutating func press(_ simulation: Simulation) {
        let command = SoakGestures.keys[Int(random.next() % UInt64(SoakGestures.keys.count))]
        if SoakGestures.undone.contains(command) {
            guard undo == nil else { return }
            undo = command
            undoIn = random.int(in: 30...600)
        }
        note("key \(command)")
        simulation.perform(command)
        // The help is modal: closed again soon, as a person reads it.
        if command == .toggleHelp { rest = random.int(in: 10...120) }
        if simulation.showsHelp && command != .toggleHelp { simulation.perform(.toggleHelp) }
    }

    private mutating func note(_ action: String) {
        if recent.count == 8 { recent.removeFirst() }
        recent.append("frame \(frame - 1): " + action)
    }

    private mutating func continueGesture(_ simulation: Simulation) -> Double {
        remaining -= 1
        if wheeling {
            simulation.handle(.wheel(speed))
            return abs(speed.y)
        }
        // Slows down at times before lifting (a held release), otherwise lifts at speed (a flick).
        if remaining < 8 && random.next() % 3 == 0 { speed = Point(0, 0) }
        let next = Point(finger.x + speed.x, finger.y + speed.y)
        let moved = abs(next.y - finger.y)
        finger = next
        simulation.handle(.touchMove(finger))
        if remaining == 0 { simulation.handle(.touchUp(finger)) }
        return moved
    }
}

/// The process's resident memory in bytes, from `/proc/self/statm` (its second field, in pages).
func residentBytes() -> Int? {
    guard let text = readTextFile("/proc/self/statm") else { return nil }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// A positive number from the environment, or `fallback`.
func environmentNumber(_ name: String, _ fallback: Double) -> Double {
    guard let raw = getenv(name), let value = Double(String(cString: raw)), value > 0, value.isFinite else {
        return fallback
    }
    return value
}

@Suite("Soak: simulated minutes of random use, every invariant on every frame, memory flat", .serialized)
struct SoakTests {
    /// Simulated minutes: `REFRESHLAB_SOAK_MINUTES` (CI runs 10, `make soak` 60), else one, to keep the suite fast.
    static let minutes = environmentNumber("REFRESHLAB_SOAK_MINUTES", 1)
    /// Every frame is stepped and checked; one in `REFRESHLAB_SOAK_DRAW_EVERY` (60 by default: one a simulated
    /// second) is also drawn, as a debug build takes about 0.1 s to draw a frame with its overlays: drawing every
    /// frame of an hour would take six hours.
    static let drawEvery = Int(environmentNumber("REFRESHLAB_SOAK_DRAW_EVERY", 60))
    /// Memory may grow by less than this from the end of the warm-up to the end.
    static let allowedGrowth = 2 << 20

    @Test(.enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"))
    func randomUse() throws {
        let folder = temporaryDirectory("soak")
        var keepsFolder = false
        defer { if !keepsFolder { _ = removeDirectory(folder) } }
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        let events = try EventLog(simulation: simulation, path: folder + "/events.jsonl")
        let trace = try TraceWriter(path: folder + "/trace.jsonl")
        let recorder = FrameRecorder(budget: 1 / simulatedFrameRate)
        try recorder.startRecording(csvPath: folder + "/timings.csv", jsonPath: folder + "/timings.json")
        let invariants = RefreshInvariants(scrollView: simulation.scrollView, control: simulation.refreshControl,
                                           footer: simulation.footer)
        var frame = 0
        // A copy of the gestures' recent inputs: the context is read while the gestures apply (a state change), so
        // it cannot read them.
        var recentInputs: [String] = []
        invariants.context = { "frame \(frame) (\(Double(frame) / 3600) min), \(simulation.effectName), "
            + "\(simulation.refreshControl.state), after \(recentInputs)" }
        // The header's changes, checked against its state machine; the footer's, against its own.
        let header = simulation.refreshControl.stateDidChange
        var refreshes = 0
        simulation.refreshControl.stateDidChange = { old, new in
            header?(old, new)
            if new == .refreshing { refreshes += 1 }
            invariants.checkTransition(from: old, to: new)
        }
        let footerStates: [RefreshState] = [.idle, .pulling, .refreshing, .noMoreData]
        var gestures = SoakGestures(seed: 0x50AC, phone: simulation.phone)
        // The handler and the context hold the simulation, which holds the handler: let go at the end.
        defer {
            simulation.refreshControl.stateDidChange = nil
            invariants.context = { "" }
        }

        let frames = Int(SoakTests.minutes * 60 * simulatedFrameRate)
        let warmUp = Int(Swift.min(5, SoakTests.minutes / 2) * 60 * simulatedFrameRate)
        var residentAtWarmUp = 0, residentAtEnd = 0
        var lastTime = simulation.clock.now
        let started = MonotonicClock.seconds()
        while frame < frames && invariants.problems.isEmpty {
            if frame > 0 { clock.advance(by: 1 / simulatedFrameRate) }
            events.frame = frame
            recorder.beginFrame(at: clock.now)
            let moved = gestures.apply(to: simulation)
            if gestures.recent.last != recentInputs.last { recentInputs = gestures.recent }
            _ = simulation.takeHostRequests()
            recorder.endPhase(.input)
            let contentHeight = simulation.scrollView.contentSize.height
            simulation.step()
            recorder.endPhase(.update)
            let now = simulation.clock.now
            invariants.check(time: now, fingerMove: moved, frameDuration: now - lastTime,
                             contentReplaced: simulation.scrollView.contentSize.height != contentHeight)
            lastTime = now
            let footer = simulation.footer
            if !footerStates.contains(footer.state) { invariants.note("footer \(footer.state)") }
            if footer.layer.frame.minY != simulation.scrollView.contentSize.height {
                invariants.note("the footer at \(footer.layer.frame.minY), the content's end at "
                    + "\(simulation.scrollView.contentSize.height)")
            }
            if frame % SoakTests.drawEvery == 0 {
                simulation.render()
                simulation.renderOverlays()
            }
            recorder.endPhase(.draw)
            try trace.record(frame: frame, time: now, simulation: simulation)
            recorder.endPhase(.output)
            recorder.endFrame(state: simulation.refreshControl.state, effect: simulation.effectName)
            frame += 1
            if frame == warmUp { residentAtWarmUp = residentBytes() ?? 0 }
            if frame % 3600 == 0 || frame == frames {
                residentAtEnd = residentBytes() ?? 0
                print("soak: minute \(frame / 3600): resident \(residentAtEnd / 1024) KB, "
                    + "\(Int(MonotonicClock.seconds() - started)) s")
            }
        }
        #expect(invariants.problems.isEmpty, "\(invariants.problems)")
        if !invariants.problems.isEmpty {
            // The frames before the fault, as the trace has them, and the whole run's files kept to look into.
            try trace.close()
            keepsFolder = true
            let lines = (readTextFile(folder + "/trace.jsonl") ?? "").split(separator: "\n").suffix(12)
            print("soak: the last frames (all in \(folder)/trace.jsonl):\n" + lines.joined(separator: "\n"))
            return
        }
        // The random use did refresh, again and again.
        #expect(Double(refreshes) > SoakTests.minutes, "\(refreshes) refreshes")
        let summary = try #require(try recorder.stopRecording())
        #expect(summary.frameCount == frame)
        try trace.close()
        try events.close()
        // Memory only when the soak runs by itself (CI and `make soak` set the minutes): other tests running
        // beside it in the same process move the resident size.
        let growth = residentAtEnd - residentAtWarmUp
        print("soak: \(frame) frames, \(refreshes) refreshes, resident \(residentAtWarmUp / 1024) KB after the warm-up, "
            + "\(residentAtEnd / 1024) KB at the end (\(growth / 1024) KB more)")
        if getenv("REFRESHLAB_SOAK_MINUTES") != nil {
            #expect(growth < SoakTests.allowedGrowth, "resident memory grew by \(growth / 1024) KB after the warm-up")
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Geometry
@testable import Lab
import Colors
@testable import UserFiles
import Motion
import Raster
@testable import Refresh
import Testing
import TestSupport

/// What a resource script must do: its frames and the header's state changes, worked out from the script's steps
/// (60 frames a second) and the effect's rules.
struct ExpectedRun: Sendable, CustomStringConvertible {
    var name: String
    var effect: String
    var frameCount: Int
    var states: [String]
    /// Frames at which a change must happen, as (index in `states`, first allowed frame, last allowed frame).
    var at: [(Int, Int, Int)]
    /// A frame during the refresh, when the header is in view.
    var refreshingFrame: Int?

    var description: String { name }
}

/// Reads a resource script by name.
func resourceScript(_ name: String) throws -> GestureScript {
    let path = try #require(ResourceLocator.gestureScript(named: name))
    return try GestureScript.load(path: path)
}

/// Runs a replay without drawing (fast) and returns the header's changes.
func replayStates(_ replay: ScriptReplay) throws -> [StateChange] {
    let log = try EventLog(simulation: replay.simulation)
    log.frame = replay.frame
    while replay.advance() { log.frame = replay.frame }
    return log.headerChanges
}

@Suite("Gesture scripts: end-to-end headless runs")
struct ScriptRunTests {
    // Frames: a move of d seconds takes d·60 frames after the current one; a wait moves on by d·60 frames.
    // Auto end: 1.5 s = 90 frames after the refresh starts (a frame later when the summed clock rounds down).
    static let expected: [ExpectedRun] = [
        // down 0, move 36 frames (→36), wait 12 (→48), up at 48, wait 180 (→228). The sticky header fires at its
        // threshold with the finger still down (before frame 48), then ends by itself.
        ExpectedRun(name: "sticky", effect: "sticky", frameCount: 229,
                    states: ["pulling", "refreshing", "finishing(success)", "idle"],
                    at: [(0, 1, 1), (1, 2, 47)], refreshingFrame: 60),
        // move 30 (→30), wait 6 (→36), up at 36: refreshing then; wait 60 (→96), end at 96; wait 90 (→186).
        ExpectedRun(name: "dots", effect: "dots", frameCount: 187,
                    states: ["pulling", "armed", "refreshing", "finishing(success)", "idle"],
                    at: [(0, 1, 1), (1, 2, 35), (2, 36, 36), (3, 96, 96), (4, 97, 186)], refreshingFrame: 70),
        // The same timeline, ended by the Return key.
        ExpectedRun(name: "ring", effect: "ring", frameCount: 187,
                    states: ["pulling", "armed", "refreshing", "finishing(success)", "idle"],
                    at: [(0, 1, 1), (1, 2, 35), (2, 36, 36), (3, 96, 96), (4, 97, 186)], refreshingFrame: 70),
        // Release at 36, auto end with the banner's message at 126 (or 127), wait 240 (→276).
        ExpectedRun(name: "news", effect: "news", frameCount: 277,
                    states: ["pulling", "armed", "refreshing", "finishing(12 new items)", "idle"],
                    at: [(2, 36, 36), (3, 126, 127)], refreshingFrame: 70),
        // A short pull (15 frames, released at 15) springs back; then down at 60, move 30 (→90), wait 6 (→96),
        // up at 96: refreshing; wait 60 (→156), ended with failure; wait 90 (→246).
        ExpectedRun(name: "classic", effect: "classic", frameCount: 247,
                    states: ["pulling", "idle", "pulling", "armed", "refreshing", "finishing(failure)", "idle"],
                    at: [(0, 1, 1), (1, 15, 15), (2, 61, 61), (4, 96, 96), (5, 156, 156)], refreshingFrame: 130),
        // A flick up moves the list away from the top: the header never changes.
        ExpectedRun(name: "fling", effect: "sticky", frameCount: 157, states: [], at: [], refreshingFrame: nil),
    ]

    @Test("Every effect's script gives its states at its frames", arguments: expected)
    func states(_ run: ExpectedRun) throws {
        let replay = try ScriptReplay(script: try resourceScript(run.name))
        #expect(replay.simulation.effectName == run.effect)
        #expect(replay.frameCount == run.frameCount)
        let changes = try replayStates(replay)
        #expect(changes.map { $0.to.description } == run.states)
        for (index, first, last) in run.at where index < changes.count {
            #expect((first...last).contains(changes[index].frame), "change \(index) at frame \(changes[index].frame)")
        }
        #expect(replay.frame == run.frameCount)
        // Each change's time is its frame's.
        for change in changes { #expect(abs(change.time - Double(change.frame) / 60) < 1e-9) }
    }

    @Test("The ten-second script runs 601 frames through two headers, a fling, the wheel and a refresh from code")
    func longScript() throws {
        let replay = try ScriptReplay(script: try resourceScript("long"))
        #expect(replay.frameCount == 601)
        let changes = try replayStates(replay)
        // Key 3 (the ring) at frame 36 + 132 = 168 ends the sticky refresh mid-finish; its inset goes back over
        // 0.4 s with the content along. The ring floats, so the fling's finger, down a frame later, scrolls the list
        // and pulls nothing.
        #expect(changes.map { $0.to.description } == [
            "pulling", "refreshing", "finishing(success)", "idle",
            "pulling", "armed", "refreshing", "finishing(success)", "idle",
            "refreshing", "finishing(success)", "idle",
        ])
        #expect(changes[3].frame == 168 && changes[4].effect == "ring")
        #expect(replay.simulation.effectName == "ring")
    }

    /// Pixels of the canvas row band [top, bottom) in points that are not the screen's background.
    func drawnPixels(_ canvas: Canvas, top: Double, bottom: Double) -> Int {
        let background = Color(rgb: 242, 242, 247).premultipliedPixel
        var count = 0
        for y in Int(top * 2)..<Int(bottom * 2) {
            for x in 0..<canvas.width where canvas[x, y] != background { count += 1 }
        }
        return count
    }

    @Test("Frames show the header while refreshing, and the list back at the top at the end",
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"),
          arguments: expected.filter { $0.refreshingFrame != nil })
    func frames(_ run: ExpectedRun) throws {
        let replay = try ScriptRun(script: try resourceScript(run.name))
        let refreshingFrame = try #require(run.refreshingFrame)
        // The first row's avatar centre in pixels, and its colour when the list rests at the top.
        let avatar = (x: Int((DemoList.margin + DemoList.avatarDiameter / 2) * 2),
                      y: Int((64 + DemoList.rowHeight / 2) * 2))
        let red = Color(rgb: 255, 59, 48).premultipliedPixel
        let floats = RefreshEffects.make(run.effect)?.metrics.placement.floating != nil
        var refreshingCanvas: Canvas?
        while !replay.replay.isFinished {
            let frame = replay.replay.frame
            try replay.runFrame()
            if frame == refreshingFrame {
                #expect(replay.simulation.refreshControl.state == .refreshing)
                let inset = replay.simulation.scrollView.contentInset.top
                if floats {
                    // A floating header adds no inset and leaves the list at its top, under the header.
                    #expect(inset == 0 && replay.simulation.canvas[avatar.x, avatar.y] == red)
                    let copy = Canvas(width: replay.simulation.canvas.width, height: replay.simulation.canvas.height)
                    copy.copy(from: replay.simulation.canvas)
                    refreshingCanvas = copy
                } else {
                    #expect(inset > 0)
                    // The header fills the inset under the navigation bar: its band is not bare background.
                    #expect(drawnPixels(replay.simulation.canvas, top: 64, bottom: 64 + inset) > 200)
                    #expect(replay.simulation.canvas[avatar.x, avatar.y] != red)
                }
            }
            if frame == replay.replay.frameCount - 1 {
                #expect(replay.simulation.refreshControl.state == .idle)
                #expect(replay.simulation.canvas[avatar.x, avatar.y] == red)
                // The floating header was drawn over the list's top 64 pt: that band differs from the list alone.
                if let refreshingCanvas {
                    let canvas = replay.simulation.canvas
                    var differing = 0
                    for y in 128..<256 { for x in 0..<canvas.width where canvas[x, y] != refreshingCanvas[x, y] { differing += 1 } }
                    #expect(differing > 200)
                }
            }
        }
    }

    @Test("The fling carries the list on after the finger lifts, slower and slower")
    func fling() throws {
        let replay = try ScriptReplay(script: try resourceScript("fling"))
        var offsets: [Double] = []
        while replay.advance() {
            offsets.append(replay.simulation.scrollView.contentOffset.y)
        }
        // The finger moved the list 300 pt over frames 1…6; momentum takes it further, slower and slower.
        #expect(abs(offsets[6] - 300) < 1)
        #expect(offsets[60] > offsets[6] + 100)
        let early = offsets[60] - offsets[54], late = offsets[156] - offsets[150]
        #expect(late > 0 && late < early / 2)
    }

    @Test("--effect wins over the script's effect; an unknown one is refused")
    func effectChoice() throws {
        let sticky = try resourceScript("sticky")
        #expect(try ScriptReplay(script: sticky, effect: "classic").simulation.effectName == "classic")
        let error = #expect(throws: LabError.self) { try ScriptReplay(script: sticky, effect: "wobble") }
        #expect(error?.description.contains("'wobble'") == true)
        // With no effect anywhere, the simulator's default.
        #expect(try ScriptReplay(script: GestureScript(steps: [])).simulation.effectName == Simulation.defaultEffectName)
    }

    @Test("The last-updated line reads the simulated clock, not the wall clock, so that every run draws the same frames")
    func lastUpdatedFollowsTheSimulatedClock() throws {
        // The gif script refreshes once, successfully: the line then holds the replay's own date.
        let replay = try ScriptReplay(script: try resourceScript("gif"))
        var refreshedAt: Double?
        while replay.advance() {
            if refreshedAt == nil, replay.simulation.refreshControl.lastUpdated != nil { refreshedAt = replay.now }
        }
        let seconds = try #require(refreshedAt)
        #expect(replay.simulation.refreshControl.lastUpdated == ScriptReplay.date(at: seconds))
        #expect(replay.simulation.refreshControl.lastUpdatedText == "Last updated: Today 10:00")
        // The replay's dates, worked out by hand: 10:00 on 1 January 2026 at the start, then on by the minute.
        #expect(ScriptReplay.date(at: 0) == RefreshDate(year: 2026, month: 1, day: 1, hour: 10, minute: 0))
        #expect(ScriptReplay.date(at: 59.99) == RefreshDate(year: 2026, month: 1, day: 1, hour: 10, minute: 0))
        #expect(ScriptReplay.date(at: 60) == RefreshDate(year: 2026, month: 1, day: 1, hour: 10, minute: 1))
        #expect(ScriptReplay.date(at: 14 * 3600 - 1) == RefreshDate(year: 2026, month: 1, day: 1, hour: 23, minute: 59))
        #expect(ScriptReplay.date(at: 14 * 3600) == RefreshDate(year: 2026, month: 1, day: 2, hour: 0, minute: 0))
        #expect(ScriptReplay.date(at: 1_000_000) == RefreshDate(year: 2026, month: 1, day: 12, hour: 23, minute: 46))
    }

    @Test("A Q key ends the replay after its frame")
    func quitKey() throws {
        let script = GestureScript(steps: [.wait(0.1), .key("Q", .quit), .wait(1)])
        let replay = try ScriptReplay(script: script)
        while replay.advance() {}
        #expect(replay.quitRequested)
        #expect(replay.frame == 7)
    }

    @Test("Keys do what the window's keys do: effects by number and Tab, auto end, language")
    func keys() throws {
        let script = try GestureScript(json: """
            {"steps": [{"key": "4"}, {"key": "Tab"}, {"key": "A"}, {"key": "L"}]}
            """)
        let replay = try ScriptReplay(script: script)
        replay.advance()
        #expect(replay.simulation.effectName == RefreshEffects.names[(3 + 1) % RefreshEffects.names.count])
        #expect(!replay.simulation.autoEndsRefreshing)
        #expect(replay.simulation.refreshControl.language == .chinese)
    }

    @Test("Resources: every effect has a script, and every script in the folder loads")
    func resources() throws {
        let names = ResourceLocator.gestureScriptNames
        for effect in ["sticky", "dots", "ring", "news", "classic", "gif", "system", "swipe-refresh", "material3", "fling", "long"] {
            #expect(names.contains(effect))
        }
        for name in names { _ = try resourceScript(name) }
    }

    @Test("The event log keeps only the recent changes in memory, and every one in its file")
    func eventLogMemoryIsBounded() throws {
        let dir = temporaryDirectory("events")
        let simulation = Simulation(clock: SimulatedClock())
        let log = try EventLog(simulation: simulation, path: dir + "/events.jsonl")
        // The footer's no-more-data switch changes its state at once: two changes a round.
        let rounds = 3 * EventLog.retainedChanges
        for _ in 0..<rounds {
            simulation.perform(Command.toggleNoMoreData)
            simulation.perform(Command.toggleNoMoreData)
        }
        try log.close()
        #expect(log.changes.count <= 2 * EventLog.retainedChanges && log.changes.count >= EventLog.retainedChanges)
        #expect(log.droppedCount + log.changes.count == 2 * rounds)
        #expect(log.changes.last?.to == .idle)
        let lines = try #require(readTextFile(dir + "/events.jsonl")).split(separator: "\n")
        #expect(lines.count == 2 * rounds)
    }
}

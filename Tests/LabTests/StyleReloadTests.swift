import Geometry
import Motion
@testable import Lab
@testable import Refresh
@testable import Scrolling
import Styles
import Synchronization
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Saves `text` at `path` as editors do: written beside it, then renamed over it.
func saveByRename(_ path: String, _ text: String) {
    saveByRename(path, Array(text.utf8))
}

func saveByRename(_ path: String, _ bytes: [UInt8]) {
    let temporary = path + ".saving"
    _ = writeBytes(temporary, bytes)
    rename(temporary, path)
}

/// Waits until the reloader applies a change, as the window's frame loop does in its input phase; returns the
/// seconds it took, or nil after `limit`.
func waitForReload(_ reloader: any FileReloader, _ simulation: Simulation, since start: Double,
                   limit: Double = 2) -> Double? {
    while monotonicNow() - start < limit {
        if reloader.applyPending(to: simulation) { return monotonicNow() - start }
        usleep(2000)
    }
    return nil
}

@Suite("Styles reload when a file is saved", .serialized)
struct StyleReloadTests {
    /// A pull under way in the ring: a style file saved mid-pull reaches the simulation within 200 ms through the
    /// window's watcher, and the pull goes on (no reset): the state and the finger's offset are kept.
    @Test func aSavedFileReachesARunningSimulationWithin200ms() throws {
        let dir = temporaryDirectory("style-reload")
        let path = dir + "/mine.json"
        writeTextFile(path, #"{"ring": {"strokeWidth": 3}}"#)
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.selectEffect(named: "ring")
        simulation.styles = try StyleFiles.load([path])
        let wokenBox = WakeCounter()
        let reloader = try StyleReloader(paths: { [path] }, folder: nil, wake: { wokenBox.add() })
        defer { reloader.stop() }

        // A finger pulls the list down past the ring's threshold and holds.
        simulation.handle(InputEvent.touchDown(Point(187.5, 150)))
        for i in 1...30 {
            clock.advance(by: 1 / 60)
            simulation.handle(InputEvent.touchMove(Point(187.5, 150 + Double(i) * 6)))
            simulation.step()
        }
        let stateBefore = simulation.refreshControl.state
        let offsetBefore = simulation.scrollView.contentOffset
        #expect(stateBefore == .armed)
        let ring = try #require(simulation.refreshControl.effect as? RingEffect)
        #expect(ring.style.strokeWidth == 3)

        var latencies: [Double] = []
        for (round, width) in [4.0, 5, 6].enumerated() {
            let start = monotonicNow()
            saveByRename(path, "{\"ring\": {\"strokeWidth\": \(width), \"dragDistance\": \(64 + round)}}")
            let latency = try #require(waitForReload(reloader, simulation, since: start))
            latencies.append(latency)
            #expect(latency < 0.2, "reloaded \(Int(latency * 1000)) ms after the save")
            #expect(ring.style.strokeWidth == width)
            #expect(simulation.refreshControl.effect === ring)
            #expect(simulation.refreshControl.triggerDistance == Double(64 + round))
            #expect(simulation.refreshControl.state == stateBefore)
            #expect(simulation.scrollView.contentOffset == offsetBefore)
        }
        #expect(wokenBox.count >= 3)
        print("style reload latency (save → applied): " + latencies.map { "\(Int(($0 * 1000).rounded())) ms" }.joined(separator: ", "))

        // The finger lets go: the pull goes on to a refresh with the new values.
        clock.advance(by: 1 / 60)
        simulation.handle(InputEvent.touchUp(Point(187.5, 330)))
        simulation.step()
        #expect(simulation.refreshControl.state == .refreshing)
    }

    /// Every kind of broken file, saved over a good one, keeps the last good values and names its fault.
    @Test(arguments: [
        (#"{"ring": {"strokeWidth": "wide"}}"#, "mine.json:1:26: \"ring\".\"strokeWidth\": expected a number"),
        (#"{"ring": {"strokeWidth": 400}}"#, "mine.json:1:26: \"ring\".\"strokeWidth\": 400 is out of range"),
        (#"{"ring": {"strokeWidht": 4}}"#, "mine.json:1:11: unknown key \"strokeWidht\" in \"ring\"; did you mean \"strokeWidth\"?"),
        (#"{"rnig": {}}"#, "mine.json:1:2: unknown section \"rnig\"; did you mean \"ring\"?"),
        (#"{"ring": {"colors": ["orange"]}}"#, "mine.json:1:21: \"ring\".\"colors\": expected a colour"),
        (#"{"ring": {"floatTiming": "springy"}}"#, "mine.json:1:26: \"ring\".\"floatTiming\": expected a timing curve"),
        ("{\"ring\": {\"strokeWidth\": 4}", "mine.json:1:28: not valid JSON"),
    ] as [(String, String)])
    func aBrokenFileKeepsTheLastGoodValues(text: String, message: String) throws {
        let dir = temporaryDirectory("style-broken")
        let path = dir + "/mine.json"
        writeTextFile(path, #"{"ring": {"strokeWidth": 3}, "physics": {"normalDecelerationRate": 0.995}}"#)
        let simulation = Simulation(clock: SimulatedClock())
        simulation.selectEffect(named: "ring")
        simulation.styles = try StyleFiles.load([path])
        let reloader = try StyleReloader(paths: { [path] }, folder: nil, wake: {})
        defer { reloader.stop() }

        saveByRename(path, text)
        #expect(waitForReload(reloader, simulation, since: monotonicNow()) != nil)
        let error = try #require(reloader.lastError)
        #expect(error.description.hasPrefix(dir + "/" + message), "\(error)")
        let ring = try #require(simulation.refreshControl.effect as? RingEffect)
        #expect(ring.style.strokeWidth == 3)
        #expect(simulation.scrollView.physics.normalDecelerationRate == 0.995)
        #expect(simulation.toast.text.contains("broken"))
    }

    /// The user's folder: every `*.json` in name order, before the `--style` files; `XDG_CONFIG_HOME` first, then
    /// `HOME/.config`; a file added to the folder is picked up by the watcher.
    @Test func theUserFolderIsReadInNameOrderBeforeTheStyleFiles() throws {
        let home = temporaryDirectory("style-home")
        #expect(StyleFiles.userFolder(environment: { ["HOME": home][$0] }) == home + "/.config/refreshlab")
        #expect(StyleFiles.userFolder(environment: { ["HOME": home, "XDG_CONFIG_HOME": "/x"][$0] }) == "/x/refreshlab")
        #expect(StyleFiles.userFolder(environment: { _ in nil }) == nil)

        let folder = temporaryDirectory("style-folder")
        writeTextFile(folder + "/b.json", #"{"dots": {"pullLength": 70}}"#)
        writeTextFile(folder + "/a.json", #"{"dots": {"pullLength": 60, "dotRadius": 6}}"#)
        writeTextFile(folder + "/notes.txt", "not a style")
        let extra = temporaryDirectory("style-extra") + "/mine.json"
        writeTextFile(extra, #"{"dots": {"dotRadius": 7}}"#)
        let paths = StyleFiles.paths(folder: folder, extra: [extra])
        #expect(paths == [folder + "/a.json", folder + "/b.json", extra])
        let style = try StyleFiles.load(paths).style(DotsEffect.Style.self, for: "dots")
        #expect(style.pullLength == 70 && style.dotRadius == 7)

        let simulation = Simulation(clock: SimulatedClock())
        simulation.selectEffect(named: "dots")
        let reloader = try StyleReloader(paths: { StyleFiles.paths(folder: folder, extra: []) }, folder: folder, wake: {})
        defer { reloader.stop() }
        saveByRename(folder + "/c.json", #"{"dots": {"pullLength": 80}}"#)
        #expect(waitForReload(reloader, simulation, since: monotonicNow()) != nil)
        #expect(simulation.refreshControl.triggerDistance == 80)
    }
}

@Suite struct StyleFileReadingTests {
    /// A missing file, a device and an oversized file are refused by name, at once (a device is never read).
    @Test func filesThatAreNotStylesAreRefusedByName() throws {
        let dir = temporaryDirectory("style-files")
        let big = dir + "/big.json"
        writeTextFile(big, "{" + String(repeating: " ", count: StyleFiles.maxFileSize) + "}")
        for (path, message) in [(dir + "/none.json", "no such style file"), ("/dev/zero", "not a regular file"),
                                (dir, "a folder"), (big, "larger than 1 MB")] {
            #expect(throws: StyleError.self) { _ = try StyleFiles.load([path]) }
            do {
                _ = try StyleFiles.load([path])
            } catch {
                #expect(error.description == path + ": " + error.reason)
                #expect(error.reason.hasPrefix(message), "\(error)")
            }
        }
    }
}

/// Counts wake calls from the watcher's thread.
final class WakeCounter: Sendable {
    private let value = Atomic<Int>(0)
    func add() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

/// `refreshlab styles` and `--style` on the command line, in a child whose configuration folder is the tests' own.
@Suite("Styles on the command line")
struct StyleCommandTests {
    /// The listing names each value's source; saved and edited, it is a style file that `run` accepts; a broken
    /// one stops `run` with its file, line and column.
    @Test(.enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"))
    func theListingIsAStyleFileForRun() throws {
        let dir = temporaryDirectory("styles-command")
        writeTextFile(dir + "/mine.json", "{\n  \"news\": {\"threshold\": 90}\n}\n")
        let listed = try runRefreshlab(["styles", "news", "--style", dir + "/mine.json"], in: dir)
        #expect(listed.status == 0, "\(listed.errors)")
        #expect(listed.output.contains("\"threshold\": 90,"))
        #expect(listed.output.contains("\"threshold\": \"\(dir)/mine.json:2\""))
        #expect(listed.output.contains("\"bannerHeight\": \"default\""))
        var edited = listed.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let line = try #require(edited.firstIndex(of: "    \"threshold\": 90,"))
        edited[line] = "    \"threshold\": 100,"
        writeTextFile(dir + "/edited.json", edited.joined(separator: "\n"))
        let events = dir + "/events.jsonl"
        let run = try runRefreshlab(["run", "--script", "news", "--style", dir + "/edited.json", "--events", events],
                                    in: dir)
        #expect(run.status == 0, "\(run.errors)")
        #expect(readTextFile(events)?.contains("\"to\":\"armed\"") == true)

        writeTextFile(dir + "/broken.json", "{\"news\": {\"treshold\": 100}}")
        let broken = try runRefreshlab(["run", "--script", "news", "--style", dir + "/broken.json"], in: dir)
        #expect(broken.status != 0)
        #expect(broken.errors.contains("\(dir)/broken.json:1:11: unknown key \"treshold\" in \"news\"; did you mean \"threshold\"?"))
    }
}

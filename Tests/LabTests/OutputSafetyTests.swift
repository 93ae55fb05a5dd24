#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster
import Testing
import TestSupport
@testable import Lab
@testable import UserFiles
@testable import Recording

/// The commands themselves: every pair of a command's file options given one path is refused before anything is
/// written, the input left as it was.
@Suite("Commands refuse an output over an input")
struct CommandClashTests {
    /// One file option of a command.
    struct Slot: Sendable {
        /// How the error names it.
        let option: String
        let isOutput: Bool
        /// The arguments that make the command use `path` for it.
        let arguments: @Sendable (String) -> [String]
        /// A path of its own when the test does not share it with another slot; nil when it may be left out.
        let own: String?
    }

    static let script = """
        {"effect": "sticky", "steps": [{"down": [187.5, 150]}, {"move": [187.5, 300], "duration": 0.1}, "up"]}
        """

    /// The commands and their file options. Inputs are written with valid contents before each run.
    static let commands: [(name: String, fixed: [String], slots: [Slot])] = [
        ("lottie", ["lottie"], [
            Slot(option: "the Lottie file", isOutput: false, arguments: { [$0] }, own: "anim.json"),
            Slot(option: "--out", isOutput: true, arguments: { ["--out", $0] }, own: "out.png")]),
        ("report", ["report"], [
            Slot(option: "the timings CSV", isOutput: false, arguments: { [$0] }, own: "t.csv"),
            Slot(option: "the summary JSON beside it", isOutput: false,
                 arguments: { [String($0.dropLast(5)) + ".csv"] }, own: nil),
            Slot(option: "--out", isOutput: true, arguments: { ["--out", $0] }, own: "chart.png")]),
        ("scene", ["scene"], [
            Slot(option: "the scene file", isOutput: false, arguments: { [$0] }, own: "scene.json"),
            Slot(option: "--reference", isOutput: false, arguments: { ["--reference", $0] }, own: "ref.png"),
            Slot(option: "--out", isOutput: true, arguments: { ["--out", $0] }, own: nil),
            Slot(option: "--diff", isOutput: true, arguments: { ["--diff", $0] }, own: nil)]),
        ("run", ["run"], [
            Slot(option: "--script", isOutput: false, arguments: { ["--script", $0] }, own: "script.json"),
            Slot(option: "--style", isOutput: false, arguments: { ["--style", $0] }, own: nil),
            Slot(option: "--events", isOutput: true, arguments: { ["--events", $0] }, own: nil),
            Slot(option: "--trace", isOutput: true, arguments: { ["--trace", $0] }, own: nil),
            Slot(option: "--timings", isOutput: true, arguments: { ["--timings", $0] }, own: nil),
            Slot(option: "--timings (its summary JSON)", isOutput: true,
                 arguments: { ["--timings", String($0.dropLast(5)) + ".csv"] }, own: nil),
            Slot(option: "--capture", isOutput: true, arguments: { ["--capture", $0] }, own: nil)]),
        ("window", [], [
            Slot(option: "--style", isOutput: false, arguments: { ["--style", $0] }, own: nil),
            Slot(option: "--events", isOutput: true, arguments: { ["--events", $0] }, own: nil),
            Slot(option: "--trace", isOutput: true, arguments: { ["--trace", $0] }, own: nil)]),
    ]

    /// What an input of `option` holds: enough to be read without complaint.
    func writeInput(_ option: String, at path: String) throws {
        switch option {
        case "the Lottie file":
            try #require(writeTextFile(path, #"{"v":"5.7.0","fr":30,"ip":0,"op":10,"w":20,"h":20,"layers":[]}"#))
        case "the timings CSV":
            try #require(writeTextFile(path, TimingFixtures.csv))
        case "the summary JSON beside it", "--style":
            try #require(writeTextFile(path, "{}"))
        case "the scene file":
            try #require(writeTextFile(path, SceneReferenceCommandTests.scene))
        case "--reference":
            try PNG.write(Canvas(width: 80, height: 60), to: path)
        case "--script":
            try #require(writeTextFile(path, CommandClashTests.script))
        default:
            Issue.record("no contents for \(option)")
        }
    }

    @Test("every pair of file options of every command, given one path, is refused and writes nothing",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"))
    func everyPair() throws {
        var pairs = 0
        for command in CommandClashTests.commands {
            for (i, a) in command.slots.enumerated() {
                for b in command.slots[(i + 1)...] where a.isOutput || b.isOutput {
                    // Two inputs read from one file are allowed; the summary is always the CSV's own.
                    if a.option == "--timings" && b.option == "--timings (its summary JSON)" { continue }
                    try check(command, a, b)
                    pairs += 1
                }
            }
        }
        #expect(pairs >= 20)
    }

    /// The slot another stands in for: the summary is named through its CSV, given in the CSV's place.
    let replaced = ["the summary JSON beside it": "the timings CSV"]

    func check(_ command: (name: String, fixed: [String], slots: [Slot]), _ a: Slot, _ b: Slot) throws {
        let dir = temporaryDirectory("clash-\(command.name)")
        let shared = dir + "/same.json"
        var arguments = command.fixed
        var inputs: [String: String] = [:]
        let pair = [a.option, b.option]
        for slot in command.slots {
            let path: String
            if pair.contains(slot.option) { path = shared }
            else if let own = slot.own, !pair.contains(where: { slot.option == replaced[$0] }) {
                path = dir + "/" + own
            }
            else { continue }
            if !slot.isOutput {
                try writeInput(slot.option, at: path)
                inputs[path] = readTextFile(path)
            }
            if slot.option == "the summary JSON beside it" { try writeInput("the timings CSV", at: dir + "/same.csv") }
            arguments += slot.arguments(path)
        }
        if pair.contains("--diff") && !arguments.contains("--reference") {
            arguments += ["--reference", dir + "/ref.png"]
            try writeInput("--reference", at: dir + "/ref.png")
        }
        let before = Set(try listDirectory(dir))
        let outcome = try runRefreshlab(arguments, in: dir)
        let what = "\(command.name): \(a.option) and \(b.option): \(arguments.joined(separator: " "))"
        #expect(outcome.status == 1, "\(what)\n\(outcome.errors)")
        let named = [(a, b), (b, a)].contains {
            outcome.errors.contains("\($0.option) and \($1.option) name the same file")
        }
        #expect(named, "\(what)\n\(outcome.errors)")
        #expect(outcome.errors.contains("nothing was written"), "\(what)")
        for (path, text) in inputs { #expect(readTextFile(path) == text, "\(what): \(path) changed") }
        let streams: Set = ["stdout", "stderr"]
        #expect(Set(try listDirectory(dir)).subtracting(streams) == before.subtracting(streams),
                "\(what): files appeared")
    }

    @Test("a frames folder that is the gif header's animation folder, or holds the capture, is refused",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"))
    func framesFolder() throws {
        let dir = temporaryDirectory("clash-frames")
        let frames = dir + "/frames"
        try #require(mkdir(frames, 0o755) == 0)
        try PNG.write(Canvas(width: 8, height: 8), to: frames + "/frame-001.png")
        let asAnimation = try runRefreshlab(["run", "--script", "gif", "--effect", "gif", "--animation", frames,
                                             "--frames", frames], in: dir)
        #expect(asAnimation.status == 1 && asAnimation.errors.contains("--animation and --frames name the same file"),
                "\(asAnimation.errors)")
        let inside = try runRefreshlab(["run", "--script", "sticky", "--frames", frames,
                                        "--capture", frames + "/frame-0001.png"], in: dir)
        #expect(inside.status == 1 && inside.errors.contains("is in the --frames folder"), "\(inside.errors)")
        #expect(try listDirectory(frames) == ["frame-001.png"])
    }
}

/// A `--frames` folder never mixes two runs: earlier frames are refused, or with `--replace-frames` removed first.
@Suite("Frames folders")
struct FramesFolderTests {
    func script(frames: Int) -> String {
        """
        {"effect": "dots", "steps": [{"wait": \(Double(frames - 1) / 60)}]}
        """
    }

    @Test("a second run into a folder holding frames is refused, names the folder, and touches nothing",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"))
    func refused() throws {
        let dir = temporaryDirectory("frames-refused")
        try #require(writeTextFile(dir + "/long.json", script(frames: 12)))
        try #require(writeTextFile(dir + "/short.json", script(frames: 5)))
        let first = try runRefreshlab(["run", "--script", dir + "/long.json", "--frames", dir + "/f"], in: dir)
        #expect(first.status == 0, "\(first.errors)")
        let firstFrames = try listDirectory(dir + "/f")
        let second = try runRefreshlab(["run", "--script", dir + "/short.json", "--frames", dir + "/f",
                                        "--events", dir + "/e.jsonl"], in: dir)
        #expect(second.status == 1)
        #expect(second.errors.contains("'\(dir)/f' already holds \(firstFrames.count) frames of an earlier run"),
                "\(second.errors)")
        #expect(second.errors.contains("--replace-frames"))
        #expect(try listDirectory(dir + "/f") == firstFrames)
        #expect(!fileExists(dir + "/e.jsonl") && !fileExists(dir + "/e.jsonl.tmp"))
    }

    @Test("--replace-frames removes exactly the earlier run's frames: the folder then holds this run's alone",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"))
    func replaced() throws {
        let dir = temporaryDirectory("frames-replaced")
        try #require(writeTextFile(dir + "/long.json", script(frames: 12)))
        try #require(writeTextFile(dir + "/short.json", script(frames: 5)))
        #expect(try runRefreshlab(["run", "--script", dir + "/long.json", "--frames", dir + "/f"], in: dir).status == 0)
        // The user's own files in the folder stay, whatever they are named, unless named as frames are.
        try #require(writeTextFile(dir + "/f/notes.txt", "mine"))
        try #require(writeTextFile(dir + "/f/frame-001.png", "a designer's frame, three digits"))
        let second = try runRefreshlab(["run", "--script", dir + "/short.json", "--frames", dir + "/f",
                                        "--replace-frames"], in: dir)
        #expect(second.status == 0, "\(second.errors)")
        let left = try listDirectory(dir + "/f")
        let frames = left.filter(PNGSequence.isFrameName)
        let expected = (0..<frames.count).map { PNGSequence.path(of: $0, in: "") }.map { String($0.dropFirst()) }
        #expect(frames == expected)
        #expect(frames.count < 12)
        #expect(left.contains("notes.txt") && left.contains("frame-001.png"))
    }

    @Test("--replace-frames goes with --frames",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"))
    func strayFlag() throws {
        let dir = temporaryDirectory("frames-stray")
        let outcome = try runRefreshlab(["run", "--script", "sticky", "--replace-frames"], in: dir)
        #expect(outcome.status != 0 && outcome.errors.contains("--replace-frames goes with --frames DIR"))
    }
}

/// The window's file names: two in one second are two files.
@Suite("Window output names")
struct WindowOutputNameTests {
    @Test("a name taken, or being written, gets -2, -3, …; a recording's companion counts as taken")
    func distinct() throws {
        let dir = temporaryDirectory("window-names")
        let folder = try OutputFolder(path: dir)
        var seen: Set<String> = []
        for _ in 0..<5 {
            let path = folder.newPath(prefix: "refreshlab-", suffix: ".png")
            #expect(!seen.contains(path) && !fileExists(path))
            seen.insert(path)
            try #require(writeTextFile(path, "png"))
        }
        // Being written: only the temporary exists.
        let next = folder.newPath(prefix: "shot-", suffix: ".png")
        try #require(writeTextFile(next + ".tmp", ""))
        #expect(folder.newPath(prefix: "shot-", suffix: ".png") != next)
        // The timings' JSON is written with its CSV: either existing makes the name taken.
        let csv = folder.newPath(prefix: "t-", suffix: ".csv") { [$0, TimingFiles.summaryPath(forCSV: $0)] }
        try #require(writeTextFile(TimingFiles.summaryPath(forCSV: csv), "{}"))
        let again = folder.newPath(prefix: "t-", suffix: ".csv") { [$0, TimingFiles.summaryPath(forCSV: $0)] }
        #expect(again != csv && again.hasSuffix("-2.csv"))
    }
}

/// The names in the folder at `path`, sorted, without `.` and `..`.
func listDirectory(_ path: String) throws -> [String] {
    try #require(folderEntries(path)).sorted()
}

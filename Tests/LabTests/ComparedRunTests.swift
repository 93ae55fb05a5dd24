import Raster
import Testing
import TestSupport
@testable import Lab
@testable import Recording

/// `run --compare`: two phones replaying one script side by side.
@Suite("Compared runs: two phones, one script")
struct ComparedRunTests {
    /// A pull past every header's trigger and a release, short enough for a debug build.
    static let pull = try! GestureScript(json: """
        {"steps": [{"down": [187.5, 150]}, {"move": [187.5, 430], "duration": 0.3}, {"wait": 0.05}, "up",
                   {"wait": 0.2}]}
        """)

    /// The lines of a JSON-lines file naming `phone`, without that field: what a single run writes.
    static func lines(_ path: String, of phone: String) throws -> [String] {
        let text = try #require(readTextFile(path))
        let prefix = "{\"phone\":\"\(phone)\","
        return text.split(separator: "\n").map(String.init).filter { $0.hasPrefix(prefix) }
            .map { "{" + $0.dropFirst(prefix.count) }
    }

    /// Every line of a single run's JSON-lines file.
    static func lines(_ path: String) throws -> [String] {
        try #require(readTextFile(path)).split(separator: "\n").map(String.init)
    }

    /// The finger's point on a trace line.
    static func finger(_ line: String) throws -> (x: Double, y: Double) {
        let start = try #require(line.range(of: "\"finger\":[")).upperBound
        let end = try #require(line[start...].firstIndex(of: "]"))
        let numbers = line[start..<end].split(separator: ",").compactMap { Double($0) }
        try #require(numbers.count == 2)
        return (numbers[0], numbers[1])
    }

    @Test("the same options on both sides give identical halves and identical lines but for the phone")
    func identicalSides() throws {
        let dir = temporaryDirectory("compare-same")
        let phone = ComparedPhone(effect: "dots", device: Phone(scale: 1))
        let run = try ComparedRun(script: ComparedRunTests.pull, a: phone, b: phone,
                                  outputs: ScriptRunOutputs(framesDirectory: dir + "/frames",
                                                            eventsPath: dir + "/events.jsonl",
                                                            tracePath: dir + "/trace.jsonl"))
        let frames = try run.run()
        #expect(frames == run.a.loop.frameIndex && frames == run.b.loop.frameIndex && frames > 20)
        for index in 0..<frames {
            let frame = try PNG.read(from: PNGSequence.path(of: index, in: dir + "/frames"))
            let width = (frame.width - SideBySide.gap) / 2
            #expect(frame.width == 2 * width + SideBySide.gap)
            var same = true, gapClear = true
            for y in 0..<frame.height {
                for x in 0..<width where frame[x, y] != frame[x + width + SideBySide.gap, y] { same = false }
                for x in width..<(width + SideBySide.gap) where frame[x, y] != 0 { gapClear = false }
            }
            #expect(same, "frame \(index): the halves differ")
            #expect(gapClear, "frame \(index): the gap is not transparent")
        }
        for file in ["trace", "events"] {
            let a = try ComparedRunTests.lines(dir + "/\(file).jsonl", of: "a")
            #expect(a == (try ComparedRunTests.lines(dir + "/\(file).jsonl", of: "b")))
            #expect(a.count * 2 == (try ComparedRunTests.lines(dir + "/\(file).jsonl")).count)
        }
        #expect(run.summary.last == "content offsets never differ by more than 0.5 pt")
    }

    @Test("another device: both widths and the gap by the taller height, padded transparent, touches scaled")
    func otherDevice() throws {
        let dir = temporaryDirectory("compare-device")
        let small = Phone(scale: 1), tall = Phone(model: .iPhone16, scale: 1)
        let run = try ComparedRun(script: ComparedRunTests.pull, a: ComparedPhone(device: small),
                                  b: ComparedPhone(device: tall),
                                  outputs: ScriptRunOutputs(framesDirectory: dir + "/frames",
                                                            tracePath: dir + "/trace.jsonl"))
        try run.run()
        let frame = try PNG.read(from: PNGSequence.path(of: 10, in: dir + "/frames"))
        #expect(frame.width == small.pixelWidth + 16 + tall.pixelWidth)
        #expect(frame.height == Swift.max(small.pixelHeight, tall.pixelHeight))
        #expect(frame[small.pixelWidth / 2, small.pixelHeight] == 0, "below the shorter phone")
        #expect(frame[small.pixelWidth + 8, 10] == 0, "in the gap")
        #expect(frame[small.pixelWidth / 2, small.pixelHeight - 1] >> 24 == 255, "the phone itself is opaque")
        let ratio = tall.screenSize.height / small.screenSize.height
        let a = try ComparedRunTests.lines(dir + "/trace.jsonl", of: "a")
        let b = try ComparedRunTests.lines(dir + "/trace.jsonl", of: "b")
        for index in [0, 10] {
            let fingerA = try ComparedRunTests.finger(a[index]), fingerB = try ComparedRunTests.finger(b[index])
            #expect(abs(fingerB.x - fingerA.x * ratio) < 0.002 && abs(fingerB.y - fingerA.y * ratio) < 0.002,
                    "frame \(index): a's finger \(fingerA), b's \(fingerB)")
        }
    }

    @Test("another effect: the two phones' state changes differ, and the summary reports each")
    func otherEffect() throws {
        let run = try ComparedRun(script: ComparedRunTests.pull,
                                  a: ComparedPhone(effect: "sticky", device: Phone(scale: 1)),
                                  b: ComparedPhone(effect: "dots", device: Phone(scale: 1)),
                                  outputs: ScriptRunOutputs())
        try run.run()
        let statesA = run.a.events.headerChanges.map(\.to.description)
        let statesB = run.b.events.headerChanges.map(\.to.description)
        #expect(statesA != statesB)
        let summary = run.summary
        #expect(summary[0].hasPrefix("a (sticky, default, 60 Hz) header states: pulling at 1"))
        #expect(summary[1].hasPrefix("b (dots, default, 60 Hz) header states: pulling at 1"))
        #expect(summary[1].contains("armed at"))
        let armedB = try #require(run.b.events.firstArmingFrame)
        #expect(summary[2].hasSuffix("b armed at its frame \(armedB)"))
    }

    @Test("another language: the second phone's list and bar read in it, the first's in English, and they move together")
    func otherLanguage() throws {
        let dir = temporaryDirectory("compare-language")
        defer { _ = removeDirectory(dir) }
        let run = try ComparedRun(script: ComparedRunTests.pull, a: ComparedPhone(device: Phone(scale: 1)),
                                  b: ComparedPhone(device: Phone(scale: 1), language: .chinese),
                                  outputs: ScriptRunOutputs(framesDirectory: dir))
        try run.run()
        #expect(run.a.simulation.language == .english && run.b.simulation.language == .chinese)
        #expect(run.summary.last == "content offsets never differ by more than 0.5 pt")
        // The bar's title and the first rows: the same places, other words.
        let frame = try PNG.read(from: PNGSequence.path(of: 0, in: dir))
        let width = run.a.simulation.canvas.width, gap = SideBySide.gap
        var differing = 0
        for y in 0..<120 {
            for x in 0..<width where frame[x, y] != frame[width + gap + x, y] { differing += 1 }
        }
        #expect(differing > 200, "\(differing) pixels differ between the halves' tops")
    }

    @Test("60 Hz beside 120 Hz: the run ticks at 120, and the slower phone writes exactly its solo run's lines")
    func refreshRates() throws {
        let dir = temporaryDirectory("compare-rates")
        let slow = ComparedPhone(effect: "dots", device: Phone(scale: 1))
        let fast = ComparedPhone(effect: "dots", device: Phone(model: .iPhone16Pro, scale: 1))
        let run = try ComparedRun(script: ComparedRunTests.pull, a: slow, b: fast,
                                  outputs: ScriptRunOutputs(eventsPath: dir + "/events.jsonl",
                                                            tracePath: dir + "/trace.jsonl"))
        let frames = try run.run()
        #expect(run.frameRate == 120)
        #expect(frames == run.b.loop.frameIndex)
        // The 60 Hz phone presents at every other tick: a's frame 0 and b's 0, b's 1, a's 1 and b's 2, b's 3, …
        let phones = try ComparedRunTests.lines(dir + "/trace.jsonl").prefix(8).map { $0.dropFirst(10).prefix(1) }
        #expect(phones.joined() == "abbabbab")
        let solo = try ScriptRun(script: ComparedRunTests.pull, effect: "dots",
                                 outputs: ScriptRunOutputs(eventsPath: dir + "/solo-events.jsonl",
                                                           tracePath: dir + "/solo-trace.jsonl"),
                                 phone: Phone(scale: 1))
        let soloFrames = try solo.run()
        #expect(run.a.loop.frameIndex == soloFrames)
        #expect(try ComparedRunTests.lines(dir + "/trace.jsonl", of: "a")
            == (try ComparedRunTests.lines(dir + "/solo-trace.jsonl")))
        #expect(try ComparedRunTests.lines(dir + "/events.jsonl", of: "a")
            == (try ComparedRunTests.lines(dir + "/solo-events.jsonl")))
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Geometry
@testable import Lab
@testable import UserFiles
@testable import Recording
import Raster
import Refresh
import Testing
import TestSupport

/// The lines of a text file.
func readLines(_ path: String) throws -> [String] {
    let bytes = try GestureScript.readFile(path)
    return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
}

/// One JSON line as its fields.
func fields(_ line: String) throws -> [String: JSONValue] {
    guard case .object(let pairs) = try JSONReader.parse(line) else { throw LabError("not an object: \(line)") }
    return Dictionary(uniqueKeysWithValues: pairs.map { ($0.key, $0.value) })
}

func numbers(_ value: JSONValue?) -> [Double] {
    guard case .array(let items) = value else { return [] }
    return items.compactMap { if case .number(let n) = $0 { n } else { nil } }
}

@Suite("Gesture scripts: events, trace, frames and captures")
struct ScriptOutputTests {
    @Test("Events: one JSON line per state change with frame, time, effect, control, from and to, and an arming's haptic and announcement",
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"))
    func eventsFormat() throws {
        let dir = temporaryDirectory("events")
        let outputs = ScriptRunOutputs(eventsPath: dir + "/events.jsonl")
        let run = try ScriptRun(script: try resourceScript("dots"), outputs: outputs)
        #expect(try run.run() == 187)
        let lines = try readLines(dir + "/events.jsonl")
        // Five state changes, and after the one that armed the header its haptic and its announcement.
        #expect(lines.count == 7)
        #expect(try fields(lines[1])["to"] == .string("armed"))
        #expect(try fields(lines[2])["haptic"] == .string("medium"))
        #expect(try fields(lines[3])["announcement"] == .string("Refreshing"))
        #expect(try fields(lines[2])["frame"] == fields(lines[1])["frame"])
        let third = try fields(lines[4])
        #expect(Array(try JSONReader.parse(lines[4]).objectKeys) == ["frame", "time", "effect", "control", "from", "to"])
        // Released at frame 36 (0.6 s): armed → refreshing.
        #expect(third["frame"] == .number(36))
        #expect(third["time"] == .number(0.6))
        #expect(third["effect"] == .string("dots"))
        #expect(third["control"] == .string("header"))
        #expect(third["from"] == .string("armed"))
        #expect(third["to"] == .string("refreshing"))
        #expect(try fields(lines[5])["to"] == .string("finishing(success)"))
        #expect(lines[0] == #"{"frame":1,"time":0.016667,"effect":"dots","control":"header","from":"idle","to":"pulling"}"#)
    }

    @Test("A state's name with quotes is escaped in its JSON line")
    func escaping() throws {
        let change = StateChange(frame: 2, time: 0.5, effect: "news", control: .header, from: .refreshing,
                                 to: .finishing(.message("say \"hi\"\n")))
        let parsed = try fields(change.jsonLine)
        #expect(parsed["to"] == .string("finishing(say \"hi\"\n)"))
        #expect(parsed["time"] == .number(0.5))
    }

    @Test("Trace: a JSON line per frame with frame, time, offset, inset, velocity, motion, finger and states",
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"))
    func traceFormat() throws {
        let dir = temporaryDirectory("trace")
        let run = try ScriptRun(script: try resourceScript("dots"), outputs: ScriptRunOutputs(tracePath: dir + "/t.jsonl"))
        try run.run()
        let lines = try readLines(dir + "/t.jsonl")
        #expect(lines.count == 187)
        #expect(lines[0] == #"{"frame":0,"time":0.000000,"viewport":[375.000,603.000],"contentSize":[375.000,4320.000],"#
            + #""device":"default","screen":[375.000,667.000],"scale":2,"fps":60,"safeArea":[20.000,0.000,0.000,0.000],"#
            + #""adjustedContentInset":[0.000,0.000,44.000,0.000],"#
            + #""contentOffset":[0.000,0.000],"contentInset":[0.000,0.000,44.000,0.000],"barHeight":44.000,"#
            + #""velocity":[0.000,0.000],"#
            + #""tracking":true,"dragging":false,"decelerating":false,"motion":"none","finger":[187.500,150.000],"#
            + #""state":"idle","footer":"idle"}"#)
        // The sizes and the phone are given once, on the first line.
        #expect(lines.dropFirst().allSatisfy { !$0.contains("viewport") && !$0.contains("contentSize")
            && !$0.contains("device") })
        for (index, line) in lines.enumerated() {
            let f = try fields(line)
            #expect(f["frame"] == .number(Double(index)))
            guard case .number(let time) = f["time"] else { Issue.record("no time in \(line)"); continue }
            #expect(abs(time - Double(index) / 60) < 1e-6)
            #expect(numbers(f["contentOffset"]).count == 2)
            #expect(numbers(f["contentInset"]).count == 4)
        }
        // Settled in the refresh (frame 90, a second after the release at 36... well before the end at 96):
        // the header's inset holds the content just below it.
        let settled = try fields(lines[90])
        #expect(settled["state"] == .string("refreshing"))
        let inset = numbers(settled["contentInset"])[0]
        #expect(inset > 0)
        #expect(numbers(settled["contentOffset"])[1] == -inset)
        // After the end, back to rest.
        let last = try fields(lines[186])
        #expect(last["state"] == .string("idle"))
        #expect(numbers(last["contentOffset"]) == [0, 0])
    }

    @Test("On a phone model the trace's first line gives the phone, and every line the bar's height")
    func traceOfAPhone() throws {
        // The 16 Pro with a large title (drawn at 1× to keep the test short): 402 × 874 pt, 120 Hz, safe area 62
        // (status bar) + 44 (bar) at the top, 34 at the bottom; the list's own safe area holds the 52 pt band, so
        // the adjusted inset's top is 52 and its bottom the footer's 44 plus 34.
        let dir = temporaryDirectory("trace-phone")
        let script = GestureScript(steps: [.down(Point(200, 300)), .move(to: Point(200, 420), duration: 0.5, easing: .linear)])
        let run = try ScriptRun(script: script, outputs: ScriptRunOutputs(tracePath: dir + "/t.jsonl"),
                                phone: Phone(model: .iPhone16Pro, bar: .large, scale: 1))
        try run.run()
        let lines = try readLines(dir + "/t.jsonl")
        let first = try fields(lines[0])
        #expect(first["device"] == .string("iphone-16-pro"))
        #expect(numbers(first["screen"]) == [402, 874] && first["scale"] == .number(1) && first["fps"] == .number(120))
        #expect(numbers(first["safeArea"]) == [62, 0, 34, 0])
        #expect(numbers(first["adjustedContentInset"]) == [52, 0, 78, 0])
        // Frames at 1/120 s; the band stretches with the pull past the header's inset, so the bar grows.
        var heights: [Double] = []
        for (index, line) in lines.enumerated() {
            let f = try fields(line)
            guard case .number(let time) = f["time"], case .number(let bar) = f["barHeight"] else {
                Issue.record("no time or barHeight in \(line)"); continue
            }
            #expect(abs(time - Double(index) / 120) < 1e-6)
            heights.append(bar)
        }
        #expect(heights.first == 96 && (heights.max() ?? 0) > 96, "\(heights.prefix(5))…\(heights.suffix(3))")
    }

    @Test("Two runs of a script give the same trace, byte for byte, and the same pixels",
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"))
    func deterministic() throws {
        func trace(_ name: String) throws -> ([UInt8], [UInt32]) {
            let path = temporaryDirectory(name) + "/t.jsonl"
            let run = try ScriptRun(script: try resourceScript("classic"), outputs: ScriptRunOutputs(tracePath: path))
            try run.run()
            let canvas = run.simulation.canvas
            return (try GestureScript.readFile(path), Array(UnsafeBufferPointer(start: canvas.pixels, count: canvas.pixelCount)))
        }
        let (a, pixelsA) = try trace("det-a"), (b, pixelsB) = try trace("det-b")
        #expect(a.count > 1000)
        #expect(a == b)
        #expect(pixelsA == pixelsB)
    }

    @Test("Frames go to a PNG sequence, one per frame")
    func pngFrames() throws {
        let dir = temporaryDirectory("pngs") + "/out"
        let script = GestureScript(steps: [.down(Point(187.5, 150)), .move(to: Point(187.5, 250), duration: 0.05, easing: .linear)])
        let run = try ScriptRun(script: script, outputs: ScriptRunOutputs(framesDirectory: dir))
        #expect(try run.run() == 4)
        for index in 0..<4 {
            let png = try PNG.read(from: dir + "/frame-000\(index).png")
            #expect(png.width == 750 && png.height == 1334)
        }
        #expect(access(dir + "/frame-0004.png", F_OK) != 0)
    }

    @Test("A capture without ffmpeg says so and how to do without; a capture that is not .gif or .mp4 is refused")
    func captureErrors() throws {
        let missing = #expect(throws: LabError.self) {
            try FFmpegCapture(output: "out.gif", width: 4, height: 4, searchPath: "/no/such/dir")
        }
        #expect(missing?.description.contains("needs ffmpeg") == true)
        #expect(missing?.description.contains("--frames DIR") == true)
        let avi = #expect(throws: LabError.self) {
            try FFmpegCapture(output: "out.avi", width: 4, height: 4, searchPath: "/no/such/dir")
        }
        #expect(avi?.description.contains(".gif or an .mp4") == true)
        #expect(FFmpegCapture.format(of: "a/b.MP4") == .mp4)
        #expect(FFmpegCapture.format(of: "a.dir/b") == nil)
        // The run checks its capture before the first frame.
        #expect(throws: LabError.self) {
            try ScriptRun(script: GestureScript(steps: []), outputs: ScriptRunOutputs(capturePath: "x.gif"),
                          searchPath: "/no/such/dir")
        }
    }

    @Test("ffmpeg is found as an executable file on the search path, not as a plain file")
    func findExecutable() throws {
        let plain = temporaryDirectory("path-plain"), runnable = temporaryDirectory("path-exec")
        for (dir, mode) in [(plain, mode_t(0o644)), (runnable, mode_t(0o755))] {
            writeTextFile(dir + "/ffmpeg", "")
            chmod(dir + "/ffmpeg", mode)
        }
        #expect(FFmpegCapture.findExecutable("ffmpeg", searchPath: plain) == nil)
        #expect(FFmpegCapture.findExecutable("ffmpeg", searchPath: plain + "::" + runnable) == runnable + "/ffmpeg")
        #expect(FFmpegCapture.findExecutable("ffmpeg", searchPath: nil) == nil)
    }

    @Test("An output that cannot be written is named before anything runs")
    func unwritableOutputs() {
        let script = GestureScript(steps: [])
        let events = #expect(throws: LabError.self) {
            try ScriptRun(script: script, outputs: ScriptRunOutputs(eventsPath: "/no/such/dir/e.jsonl"))
        }
        #expect(events?.description.contains("'/no/such/dir/e.jsonl'") == true)
        let trace = #expect(throws: LabError.self) {
            try ScriptRun(script: script, outputs: ScriptRunOutputs(tracePath: "/no/such/dir/t.jsonl"))
        }
        #expect(trace?.description.contains("'/no/such/dir/t.jsonl'") == true)
    }

    @Test("Numbers in JSON lines: fixed decimals, rounded half away from zero, no negative zero")
    func numberFormatting() {
        var line = JSONLineBuffer(capacity: 16)
        line.append(-84.2496, decimals: 3)
        line.append(",")
        line.append(-0.0004, decimals: 3)
        line.append(",")
        line.append(2.5, decimals: 0)
        line.append(",")
        line.append(1234567, decimals: 2)
        line.append(",")
        line.append(-42)
        line.append(",")
        line.append(Double.nan, decimals: 1)
        #expect(line.string == "-84.250,0.000,3,1234567.00,-42,null")
    }
}

extension JSONValue {
    /// An object's keys in file order.
    var objectKeys: [String] {
        if case .object(let pairs) = self { return pairs.map { $0.key } }
        return []
    }
}

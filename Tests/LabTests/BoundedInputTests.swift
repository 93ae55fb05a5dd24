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

/// Inputs that claim more than they are: every number checked against its range with a message naming it, and
/// work that grows with what is made, never with what an input asks for. Each command runs in a child process with
/// a time and memory limit, so that a regression fails its test instead of hanging or exhausting the machine.
@Suite("Bounded inputs")
struct BoundedInputTests {
    static let enabled = refreshlabExecutable != nil
    /// Address space for a child: several times what any of these commands needs.
    static let memoryLimit = 1 << 30

    func run(_ arguments: [String], in dir: String, timeout: Double = 20) throws -> CommandOutcome {
        try runRefreshlab(arguments, in: dir, timeout: timeout, memoryLimit: BoundedInputTests.memoryLimit)
    }

    /// A tiny scene to give commands that need one.
    func scene(in dir: String) throws -> String {
        let path = dir + "/card.json"
        try #require(writeTextFile(path, SceneReferenceCommandTests.scene))
        return path
    }

    @Test("Negative and non-finite numbers are named as such, with the range to give", .enabled(if: enabled))
    func negativeAndNonFinite() throws {
        let dir = temporaryDirectory("bounded-negative")
        let scene = try scene(in: dir), csv = dir + "/t.csv"
        try #require(writeTextFile(csv, TimingFixtures.csv))
        let cases: [([String], String)] = [
            (["--scale", "-1"], "--scale: '-1' is negative; give 1, 2 or 3"),
            (["scene", scene, "--iterations", "-3"], "--iterations: '-3' is negative; give a whole number from 1 to 100000"),
            (["--headless", "--frame-count", "-5"], "--frame-count: '-5' is negative"),
            (["report", csv, "--out", dir + "/c.png", "--budget-ms", "-1"], "--budget-ms: '-1' is negative"),
            (["report", csv, "--out", dir + "/c.png", "--budget-ms", "nan"], "--budget-ms: 'nan' is not a finite number"),
            (["run", "--script", "sticky", "--max-duration", "inf"], "--max-duration: 'inf' is not a finite number"),
        ]
        for (arguments, message) in cases {
            let outcome = try run(arguments, in: dir)
            #expect(outcome.status == 64, "\(arguments): \(outcome.errors)")
            #expect(outcome.errors.contains("Error: " + message), "\(arguments): \(outcome.errors)")
        }
    }

    @Test("Counts too large for an Int are refused with their range, not a crash", .enabled(if: enabled))
    func hugeCounts() throws {
        let dir = temporaryDirectory("bounded-huge")
        let scene = try scene(in: dir)
        let frames = try run(["--headless", "--frame-count", "9223372036854775807", "--frames", dir + "/f"], in: dir)
        #expect(frames.status == 64, "\(frames.errors)")
        #expect(frames.errors.contains("--frame-count: '9223372036854775807' is too large; give a whole number from 1 "
            + "to 216000 (the limit of 3600 s at 60 frames a second; raise it with --max-duration SECONDS)"),
                "\(frames.errors)")
        let iterations = try run(["scene", scene, "--iterations", "9223372036854775807"], in: dir)
        #expect(iterations.status == 64, "\(iterations.errors)")
        #expect(iterations.errors.contains("--iterations: '9223372036854775807' is too large"), "\(iterations.errors)")
    }

    @Test("lottie --iterations times the frame and prints one JSON line; without --out or --iterations there is nothing to do",
          .enabled(if: enabled))
    func lottieIterations() throws {
        let dir = temporaryDirectory("bounded-lottie-iterations")
        let file = try #require(ResourceLocator.path(LottieFile.defaultAnimation))
        let timed = try run(["lottie", file, "--frame", "12", "--size", "64x48", "--iterations", "4"], in: dir)
        #expect(timed.status == 0, "\(timed.errors)")
        let line = String(timed.output.filter { $0 != "\n" })
        #expect(line.hasPrefix("{\"file\": \"\(file)\", \"frame\": 12, \"width\": 64, \"height\": 48, \"iterations\": 4, "
                               + "\"median_ns\": "), "\(line)")
        #expect(line.contains("\"mean_ns\": ") && line.contains("\"min_ns\": ") && line.hasSuffix("}"), "\(line)")
        let idle = try run(["lottie", file], in: dir)
        #expect(idle.status == 64 && idle.errors.contains("nothing to do: give --out FILE.png or --iterations N"),
                "\(idle.errors)")
        let huge = try run(["lottie", file, "--iterations", "0"], in: dir)
        #expect(huge.status == 64 && huge.errors.contains("--iterations: '0'"), "\(huge.errors)")
    }

    /// A script of `count` steps, each lasting an hour.
    func hourSteps(_ step: String, count: Int, first: String = "") -> String {
        "{\"steps\": [" + first + Array(repeating: step, count: count).joined(separator: ",") + "]}"
    }

    @Test("A script longer than --max-duration is refused at once, naming the limit and the option",
          .enabled(if: enabled))
    func longScripts() throws {
        let dir = temporaryDirectory("bounded-long")
        let waits = dir + "/waits.json", moves = dir + "/moves.json"
        try #require(writeTextFile(waits, hourSteps("{\"wait\": 3600}", count: 1000)))
        try #require(writeTextFile(moves, hourSteps("{\"move\": [100, 300], \"duration\": 3600}", count: 1000,
                                                    first: "{\"down\": [100, 100]},")))
        for script in [waits, moves] {
            let outcome = try run(["run", "--script", script], in: dir)
            #expect(outcome.status == 1, "\(outcome.errors)")
            #expect(outcome.errors.contains("Error: '\(script)' lasts 3600000 s of simulated time, longer than the "
                + "limit of 3600 s; raise it with --max-duration SECONDS"), "\(outcome.errors)")
        }
    }

    @Test("Finger samples are made frame by frame: a script of 200 one-hour moves quits at once",
          .enabled(if: enabled))
    func lazyTimeline() throws {
        let dir = temporaryDirectory("bounded-lazy")
        let script = dir + "/moves.json"
        try #require(writeTextFile(script, hourSteps("{\"move\": [100, 300], \"duration\": 3600}", count: 200,
                                                     first: "{\"key\": \"Q\"}, {\"down\": [100, 100]},")))
        let outcome = try run(["run", "--script", script, "--max-duration", "1000000"], in: dir)
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains(": 1 frames"), "\(outcome.output)")
    }

    @Test("A PNG declaring 100000×100000 pixels is refused before it is decoded", .enabled(if: enabled))
    func pngDeclaredSize() throws {
        let dir = temporaryDirectory("bounded-png")
        let scene = try scene(in: dir), png = dir + "/huge.png"
        try #require(writeBytes(png, BoundedInputTests.pngHeader(width: 100_000, height: 100_000)))
        let outcome = try run(["scene", scene, "--reference", png], in: dir)
        #expect(outcome.status == 1, "\(outcome.errors)")
        #expect(outcome.errors.contains("cannot read PNG '\(png)': it declares 100000×100000 pixels, more than the "
            + "67108864 allowed"), "\(outcome.errors)")
    }

    @Test("A stroke under a 1e57 shear costs nothing and draws nothing", .enabled(if: enabled))
    func hugeShear() throws {
        let dir = temporaryDirectory("bounded-shear")
        let curves = stride(from: 0, to: 2000, by: 10).map { "C\($0) 50 \($0 + 5) -50 \($0 + 10) 0" }
            .joined(separator: " ")
        let scene = dir + "/shear.json"
        try #require(writeTextFile(scene, """
            {"width": 64, "height": 64, "items": [{"path": "M0 0 \(curves)", "stroke": "#000000FF", "lineWidth": 3,
              "lineJoin": "round", "lineCap": "round", "transform": [1, 1e57, 1e57, 1, 0, 0]}]}
            """))
        let outcome = try run(["scene", scene, "--out", dir + "/shear.png"], in: dir, timeout: 10)
        #expect(outcome.status == 0, "\(outcome.errors)")
        let picture = try PNG.read(from: dir + "/shear.png")
        #expect((0..<picture.pixelCount).allSatisfy { picture.pixels[$0] == 0 })
    }

    @Test("report charts 36,000 rows (a 10-minute recording) in seconds even in a debug build", .enabled(if: enabled))
    func reportIsLinear() throws {
        let dir = temporaryDirectory("bounded-report-rows")
        let csv = dir + "/t.csv"
        var text = TimingFiles.header + "\n"
        for i in 0..<36_000 { text += "\(i),\(Double(i) / 60),16.667,0.012,0.051,1.204,0,0,3.52,1.267,idle,sticky,0,0\n" }
        try #require(writeTextFile(csv, text))
        let outcome = try run(["report", csv, "--out", dir + "/c.png"], in: dir, timeout: 15)
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("36000 frames"), "\(outcome.output)")
    }

    @Test("report refuses out-of-range times and budgets, naming them, instead of drawing grid lines for ever",
          .enabled(if: enabled))
    func reportRanges() throws {
        let dir = temporaryDirectory("bounded-report-ranges")
        let good = "0,0,16.667,0.012,0.051,1.204,0,0,3.52,1.267,idle,sticky,0,0"
        let huge = dir + "/huge.csv", csv = dir + "/t.csv", json = dir + "/t.json"
        try #require(writeTextFile(huge, TimingFiles.header + "\n" + good.replacing("16.667", with: "1e300") + "\n"))
        try #require(writeTextFile(csv, TimingFiles.header + "\n" + good + "\n"))
        let interval = try run(["report", huge, "--out", dir + "/c.png"], in: dir, timeout: 10)
        #expect(interval.status == 1)
        #expect(interval.errors.contains("\(huge):2:5: 'interval_ms' is a time from 0 to 1000000000, not '1e300'"),
                "\(interval.errors)")
        let option = try run(["report", csv, "--out", dir + "/c.png", "--budget-ms", "1e12"], in: dir, timeout: 10)
        #expect(option.status == 64)
        #expect(option.errors.contains("--budget-ms: '1e12' is too large; give a number from 0.1 to 10000"),
                "\(option.errors)")
        try #require(writeTextFile(json, "{\n  \"frames\": 1,\n  \"budget_ms\": 1e300\n}\n"))
        let summary = try run(["report", csv, "--out", dir + "/c.png"], in: dir, timeout: 10)
        #expect(summary.status == 1)
        #expect(summary.errors.contains("\(json):3:16: \"budget_ms\" is 1e+300, outside 0.1 to 10000 ms"),
                "\(summary.errors)")
    }

    @Test("a timings CSV with CRLF line ends reads as with LF")
    func crlf() throws {
        let crlf = TimingFixtures.csv.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
        #expect(try TimingRow.parse(crlf, path: "t.csv") == TimingRow.parse(TimingFixtures.csv, path: "t.csv"))
        #expect(try TimingRow.parse(crlf, path: "t.csv").count == 4)
    }

    @Test("File names that are not UTF-8 open, and outputs keep their names", .enabled(if: enabled))
    func byteFileNames() throws {
        let dir = temporaryDirectory("bounded-names")
        // "scène.json" and "été.png" in Latin-1: é is the single byte 0xE9.
        let e = FileName.decode([CChar(bitPattern: 0xE9), 0])
        let scene = dir + "/sc\(e)ne.json", out = dir + "/\(e)t\(e).png"
        try #require(FileName.withBytes(scene) { fopen($0, "w") }.map { file in
            fputs(SceneReferenceCommandTests.scene, file)
            return fclose(file) == 0
        } == true)
        let outcome = try run(["scene", scene, "--out", out], in: dir)
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(FileName.withBytes(out) { access($0, F_OK) } == 0)
        #expect(try PNG.read(from: out).width == 80)
    }

    /// A PNG declaring its size but holding a few bytes of (empty) pixel data: the signature, the header, a tiny
    /// data chunk and the end.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func bigEndian(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        // A zlib stream of no data: the header, an empty stored block, the Adler-32 of nothing.
        let empty: [UInt8] = [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]) + chunk("IDAT", empty)
            + chunk("IEND", [])
    }

    /// The CRC of a PNG chunk (ISO 3309).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    func writeBytes(_ path: String, _ bytes: [UInt8]) -> Bool {
        guard let file = fopen(path, "wb") else { return false }
        let written = fwrite(bytes, 1, bytes.count, file) == bytes.count
        return fclose(file) == 0 && written
    }
}

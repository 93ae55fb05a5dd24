#if canImport(Glibc)
import Glibc
#endif
@testable import Lab
import Colors
@testable import UserFiles
@testable import Recording
import Raster
import Testing
import TestSupport

/// The colours of a video's frames, each the mean of its pixels, decoded by ffmpeg.
func frameColours(_ path: String) throws -> [(r: Int, g: Int, b: Int)] {
    let bytes = try runTool([ffmpegTools!.ffmpeg, "-v", "error", "-i", path, "-vf", "scale=1:1:flags=area",
                             "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
    return stride(from: 0, to: bytes.count - 2, by: 3).map { (Int(bytes[$0]), Int(bytes[$0 + 1]), Int(bytes[$0 + 2])) }
}

/// Which of `palette`'s colours `colour` is nearest, allowing for yuv420p's error; nil when none is near.
func nearest(_ colour: (r: Int, g: Int, b: Int), in palette: [(name: Character, r: Int, g: Int, b: Int)]) -> Character? {
    let (distance, name) = palette.map { p in
        (Swift.max(abs(p.r - colour.r), abs(p.g - colour.g), abs(p.b - colour.b)), p.name)
    }.min { $0.0 < $1.0 }!
    return distance <= 40 ? name : nil
}

@Suite("Window video recording")
struct VideoRecordingTests {
    static let palette: [(name: Character, r: Int, g: Int, b: Int)] = [
        ("R", 220, 30, 30), ("G", 30, 200, 60), ("B", 30, 60, 220), ("W", 255, 255, 255),
    ]

    static func canvas(_ name: Character) -> Canvas {
        let p = palette.first { $0.name == name }!
        return Canvas(width: 160, height: 120, fill: Color(rgb: p.r, p.g, p.b))
    }

    /// The video's frames as palette letters, one per frame.
    static func letters(_ path: String) throws -> String {
        String(try frameColours(path).map { nearest($0, in: palette) ?? "?" })
    }

    @Test("Frames at irregular times fill a constant 60 fps video in real time; finish pads to the stop time",
          .enabled(if: ffmpegTools != nil, "ffmpeg and ffprobe are installed"))
    func realTime() throws {
        let mp4 = temporaryDirectory("rec") + "/new folder/rec.mp4"
        let recording = try VideoRecording(output: mp4, width: 160, height: 120)
        // Times on some monotonic clock that does not start at zero.
        let t0 = 5000.25
        try recording.write(Self.canvas("R"), at: t0)
        try recording.write(Self.canvas("G"), at: t0 + 0.5)
        try recording.write(Self.canvas("B"), at: t0 + 0.5 + 1.0 / 60)
        try recording.write(Self.canvas("W"), at: t0 + 2.0)
        try recording.finish(at: t0 + 3.0)
        #expect(recording.framesWritten == 180)
        let count = try #require(try decodedFrameCount(mp4))
        #expect(abs(count - 180) <= 1)
        let duration = try #require(try probe(["-show_entries", "format=duration", "-of", "csv=p=0", mp4]).first
            .flatMap { Double($0) })
        #expect(abs(duration - 3.0) <= 1.0 / 60 + 1e-6)
        let expected = String(repeating: "R", count: 30) + "G" + String(repeating: "B", count: 89)
            + String(repeating: "W", count: 60)
        #expect(try Self.letters(mp4) == expected)
    }

    @Test("Of two frames at one video frame the later is kept, and nothing is written twice",
          .enabled(if: ffmpegTools != nil, "ffmpeg and ffprobe are installed"))
    func sameVideoFrame() throws {
        let mp4 = temporaryDirectory("rec-same") + "/rec.mp4"
        let recording = try VideoRecording(output: mp4, width: 160, height: 120)
        try recording.write(Self.canvas("R"), at: 10)
        try recording.write(Self.canvas("G"), at: 10.005)
        try recording.write(Self.canvas("B"), at: 10 + 1.0 / 60)
        try recording.write(Self.canvas("W"), at: 10 + 1.0 / 60 + 0.008)
        // A stop before the last frame's end still shows it once.
        try recording.finish(at: 10 + 1.0 / 60)
        #expect(recording.framesWritten == 2)
        #expect(try Self.letters(mp4) == "GW")
    }

    @Test("A long idle gap is cut to the limit, and later frames keep their spacing",
          .enabled(if: ffmpegTools != nil, "ffmpeg and ffprobe are installed"))
    func gapLimit() throws {
        #expect(VideoRecording.maximumGap == 36_000)
        let mp4 = temporaryDirectory("rec-gap") + "/rec.mp4"
        let recording = try VideoRecording(output: mp4, width: 160, height: 120)
        recording.gapLimit = 10
        try recording.write(Self.canvas("R"), at: 0)
        try recording.write(Self.canvas("G"), at: 3600)
        try recording.write(Self.canvas("B"), at: 3600 + 5.0 / 60)
        try recording.finish(at: 3600 + 10.0 / 60)
        #expect(try Self.letters(mp4) == String(repeating: "R", count: 10) + "GGGGGBBBBB")
    }

    static func grey(_ level: Int) -> Canvas {
        Canvas(width: 160, height: 120, fill: Color(rgb: level, level, level))
    }

    /// The video's frames as grey levels (the mean of red, green and blue).
    static func greys(_ path: String) throws -> [Int] {
        try frameColours(path).map { ($0.r + $0.g + $0.b) / 3 }
    }

    @Test("Frames written while ffmpeg keeps up all come out, in order, each where its time puts it",
          .enabled(if: ffmpegTools != nil, "ffmpeg and ffprobe are installed"))
    func inOrder() throws {
        let mp4 = temporaryDirectory("rec-order") + "/rec.mp4"
        let recording = try VideoRecording(output: mp4, width: 160, height: 120)
        // Forty greys, one video frame each but every fifth, which lasts two.
        var expected: [Int] = []
        var time = 20.0
        for k in 0..<40 {
            try recording.write(Self.grey(k * 6), at: time)
            let frames = k % 5 == 4 ? 2 : 1
            expected += Array(repeating: k * 6, count: frames)
            time += Double(frames) / 60
            recording.waitUntilWritten()
        }
        try recording.finish(at: time)
        #expect(recording.droppedFrames == 0)
        #expect(recording.framesWritten == expected.count)
        let greys = try Self.greys(mp4)
        #expect(greys.count == expected.count)
        let wrong = zip(greys, expected).enumerated().filter { abs($0.element.0 - $0.element.1) > 2 }
        #expect(wrong.isEmpty, "video frames (index, grey, expected): \(wrong.prefix(5))")
    }

    @Test("A burst faster than ffmpeg takes drops frames and counts them; the video keeps its length and order",
          .enabled(if: ffmpegTools != nil, "ffmpeg and ffprobe are installed"))
    func burst() throws {
        let mp4 = temporaryDirectory("rec-burst") + "/rec.mp4"
        let recording = try VideoRecording(output: mp4, width: 160, height: 120)
        // Sixty frames two video frames apart, written at once: ffmpeg is still starting when the ring fills.
        let count = 60
        let canvases = (0..<count).map { Self.grey($0 * 4) }
        let before = monotonicNow()
        for (k, canvas) in canvases.enumerated() {
            try recording.write(canvas, at: Double(k) / 30)
        }
        let writing = monotonicNow() - before
        try recording.finish(at: Double(count) / 30)
        let dropped = recording.droppedFrames
        print("VideoRecording burst: \(count) frames written in \(Int(writing * 1e6)) µs, \(dropped) dropped")
        #expect(dropped > 0 && dropped < count)
        #expect(recording.framesWritten == 2 * count)
        let decoded = try #require(try decodedFrameCount(mp4))
        #expect(abs(decoded - 2 * count) <= 1)
        // Each video frame shows the newest frame kept at or before it, so the greys never go down and never run
        // ahead of the frame's time; every frame kept starts a run of its own.
        let greys = try Self.greys(mp4)
        #expect(greys.first.map { $0 <= 2 } == true)
        for (i, grey) in greys.enumerated() {
            #expect(grey <= i / 2 * 4 + 2, "video frame \(i) shows grey \(grey), a later frame's")
            if i > 0 { #expect(grey >= greys[i - 1] - 2, "video frame \(i) goes back to grey \(grey)") }
        }
        let runs = 1 + zip(greys, greys.dropFirst()).filter { $1 - $0 >= 3 }.count
        #expect(runs == count - dropped)
    }

    @Test("Without ffmpeg a recording says what to install; one stopped before any frame says nothing was recorded")
    func errors() throws {
        let missing = #expect(throws: LabError.self) {
            try VideoRecording(output: "out.mp4", width: 4, height: 4, searchPath: "/no/such/dir")
        }
        #expect(missing?.description.contains("needs ffmpeg") == true)
        #expect(missing?.description.contains("apt-get install ffmpeg") == true)
        guard ffmpegTools != nil else { return }
        let mp4 = temporaryDirectory("rec-empty") + "/rec.mp4"
        let recording = try VideoRecording(output: mp4, width: 16, height: 16)
        let empty = #expect(throws: LabError.self) { try recording.finish(at: 1) }
        #expect(empty?.description.contains("nothing was recorded") == true)
        #expect(access(mp4, F_OK) != 0)
    }

    @Test("When ffmpeg dies, the next write says so in ffmpeg's words, and so does finish")
    func ffmpegDies() throws {
        // A stand-in ffmpeg that complains and exits without reading a frame.
        let bin = temporaryDirectory("rec-dies")
        let script = fopen(bin + "/ffmpeg", "w")
        fputs("#!/bin/sh\necho 'stand-in ffmpeg: no encoder' >&2\nexit 1\n", script)
        fclose(script)
        chmod(bin + "/ffmpeg", 0o755)
        let recording = try VideoRecording(output: bin + "/rec.mp4", width: 160, height: 120, searchPath: bin)
        var failure: (any Error)?
        for k in 0..<1000 {
            do {
                try recording.write(Self.canvas(k % 2 == 0 ? "R" : "G"), at: Double(k) / 60)
            } catch {
                failure = error
                break
            }
            recording.waitUntilWritten()
        }
        let message = try #require(failure as? LabError).description
        #expect(message.contains("ffmpeg stopped taking frames"))
        #expect(message.contains("rec.mp4"))
        #expect(message.contains("stand-in ffmpeg: no encoder"), "\(message)")
        #expect(access(bin + "/rec.mp4", F_OK) != 0)
        let finishing = #expect(throws: LabError.self) { try recording.finish(at: 100) }
        #expect(finishing?.description == message)
    }

    @Test("end returns at once while ffmpeg is behind; the file is finished in the background, and finish then gives it whole",
          .enabled(if: ffmpegTools != nil, "ffmpeg and ffprobe are installed"))
    func endsInTheBackground() throws {
        // A stand-in ffmpeg that starts reading only after a second, as one far behind real time would.
        let bin = temporaryDirectory("rec-behind")
        let script = fopen(bin + "/ffmpeg", "w")
        fputs("#!/bin/sh\nsleep 1\nexec '\(ffmpegTools!.ffmpeg)' \"$@\"\n", script)
        fclose(script)
        chmod(bin + "/ffmpeg", 0o755)
        let recording = try VideoRecording(output: bin + "/rec.mp4", width: 160, height: 120, searchPath: bin)
        for k in 0..<30 { try recording.write(Self.canvas(k % 2 == 0 ? "R" : "G"), at: Double(k) / 60) }
        let before = monotonicNow()
        recording.end(at: 0.5)
        let ending = monotonicNow() - before
        #expect(ending < 0.1, "end took \(ending) s")
        #expect(!recording.isFinished)
        while !recording.isFinished { usleep(10_000) }
        let waited = monotonicNow() - before
        try recording.finish(at: 99)   // at once, and the end stays at 0.5 s
        #expect(waited > 0.5, "finished after \(waited) s, before the stand-in read anything")
        #expect(recording.framesWritten == 30)
        #expect(try decodedFrameCount(bin + "/rec.mp4") == 30)
    }

    @Test("A video's name is taken from its start, before ffmpeg has a frame: the folder's next name in that second is another",
          .enabled(if: ffmpegTools != nil, "ffmpeg and ffprobe are installed"))
    func nameTakenAtStart() throws {
        let folder = try OutputFolder(path: temporaryDirectory("rec-name"))
        let first = folder.newPath(prefix: "v-", suffix: ".mp4")
        let recording = try VideoRecording(output: first, width: 16, height: 16)
        let second = folder.newPath(prefix: "v-", suffix: ".mp4")
        #expect(second != first)
        // Ended before any frame: nothing is left of it.
        #expect(throws: LabError.self) { try recording.finish(at: 0) }
        #expect(access(first, F_OK) != 0 && access(first + ".tmp", F_OK) != 0)
    }

    @Test("A recording let go without finish stops its thread, and ffmpeg finishes the file with what it was sent",
          .enabled(if: ffmpegTools != nil, "ffmpeg and ffprobe are installed"))
    func letGo() throws {
        let mp4 = temporaryDirectory("rec-let-go") + "/rec.mp4"
        do {
            let recording = try VideoRecording(output: mp4, width: 160, height: 120)
            for k in 0..<3 { try recording.write(Self.canvas("B"), at: Double(k) / 60) }
            recording.waitUntilWritten()
        }
        #expect(try decodedFrameCount(mp4) == 2)
        // Let go before ffmpeg had a frame, nothing is written.
        let empty = temporaryDirectory("rec-let-go-empty") + "/rec.mp4"
        do { _ = try VideoRecording(output: empty, width: 160, height: 120) }
        #expect(access(empty, F_OK) != 0 && access(empty + ".tmp", F_OK) != 0)
    }
}

/// Seconds on the monotonic clock.
func monotonicNow() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}

/// CPU seconds used by this process's finished children (ffmpeg, once waited for).
func childCPUTime() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6
}

@Suite("Window video recording cost")
struct VideoRecordingCostTests {
    /// Release only: the sticky script drawn and recorded at the phone's full pixels as the window would, one frame
    /// per 1/60 s. Prints the cost of `write` per frame and the frames dropped; `write` only copies the frame, so
    /// its median must be a small part of a frame.
    @Test("Recording at 750×1334 costs the frame loop little and keeps up with 60 fps",
          .enabled(if: !isDebugBuild && ffmpegTools != nil, "a release build, with ffmpeg installed"))
    func cost() throws {
        let mp4 = temporaryDirectory("rec-cost") + "/rec.mp4"
        let childrenBefore = childCPUTime()
        let run = try ScriptRun(script: try resourceScript("sticky"))
        let replay = run.replay
        let canvas = replay.simulation.canvas
        let recording = try VideoRecording(output: mp4, width: canvas.width, height: canvas.height)
        var costs: [Double] = []
        let start = monotonicNow()
        while try run.runFrame() {
            let now = monotonicNow()
            try recording.write(canvas, at: now)
            costs.append(monotonicNow() - now)
            // Wait for the next display refresh, as a window with vsync does.
            let next = start + Double(replay.frame) / 60
            let wait = next - monotonicNow()
            if wait > 0 { usleep(UInt32(wait * 1e6)) }
        }
        let dropped = recording.droppedFrames
        // Two seconds of stillness, as when the window sleeps, then the next frame: 120 repeats for the writer. In
        // those seconds the writer works off what the ring holds, so the frame after them finds a free slot even
        // where ffmpeg fell behind during the gesture (on a loaded machine).
        recording.waitUntilWritten()
        let before = monotonicNow()
        try recording.write(canvas, at: start + Double(replay.frame) / 60 + 2)
        let idle = monotonicNow() - before
        let stop = monotonicNow()
        try recording.finish(at: stop)
        let finishing = monotonicNow() - stop
        let encoding = childCPUTime() - childrenBefore
        var info = stat()
        stat(mp4, &info)
        var sorted = costs
        sorted.sort()
        let median = sorted[sorted.count / 2], p95 = TimingSummary.nearestRank(sorted, 0.95)
        print("VideoRecording.write at 750×1334: median \(Int(median * 1e6)) µs, p95 \(Int(p95 * 1e6)) µs, "
            + "max \(Int(sorted.last! * 1e6)) µs over \(sorted.count) frames, \(dropped) dropped; "
            + "after 2 s idle \(Int(idle * 1e6)) µs; finish \(Int(finishing * 1000)) ms; "
            + "\(recording.framesWritten) video frames, \(info.st_size / 1024) KB; "
            + "ffmpeg's CPU \(Int(encoding * 1000 / Double(recording.framesWritten))) ms a frame")
        #expect(median < 0.002)
        #expect(try decodedFrameCount(mp4) == recording.framesWritten)
        #expect(abs(recording.framesWritten - (replay.frame + 120)) <= 2)
    }
}

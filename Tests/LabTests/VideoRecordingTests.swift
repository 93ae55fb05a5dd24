#if canImport(Glibc)
import Glibc
#endif
@testable import Lab
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
}

/// Seconds on the monotonic clock.
func monotonicNow() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}

@Suite("Window video recording cost")
struct VideoRecordingCostTests {
    /// Release only: the sticky script drawn and recorded at the phone's full pixels as the window would, one frame
    /// per 1/60 s. Prints the cost of `write` per frame; its median must leave room in a frame.
    @Test("Recording keeps up with 60 fps at 750×1334",
          .enabled(if: !isDebugBuild && ffmpegTools != nil, "a release build, with ffmpeg installed"))
    func cost() throws {
        let mp4 = temporaryDirectory("rec-cost") + "/rec.mp4"
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
        // Two seconds of stillness, as when the window sleeps, then the next frame: 120 repeats in one write.
        let before = monotonicNow()
        try recording.write(canvas, at: start + Double(replay.frame) / 60 + 2)
        let idle = monotonicNow() - before
        let stop = monotonicNow()
        try recording.finish(at: stop)
        let finishing = monotonicNow() - stop
        // The second write waits for ffmpeg to start and read its first frame; the rest are the steady cost.
        let startup = costs[1]
        var steady = Array(costs[2...])
        steady.sort()
        let median = steady[steady.count / 2], p95 = TimingSummary.nearestRank(steady, 0.95)
        print("VideoRecording.write at 750×1334: median \(Int(median * 1e6)) µs, p95 \(Int(p95 * 1e6)) µs, "
            + "max \(Int(steady.last! * 1e6)) µs over \(steady.count) frames; ffmpeg's start \(Int(startup * 1000)) ms; "
            + "2 s idle written in \(Int(idle * 1000)) ms; finish \(Int(finishing * 1000)) ms; "
            + "\(recording.framesWritten) video frames")
        #expect(median < 1.0 / 60)
        #expect(try decodedFrameCount(mp4) == recording.framesWritten)
        #expect(abs(recording.framesWritten - (replay.frame + 120)) <= 2)
    }
}

#if canImport(Glibc)
import Glibc
#endif
@testable import Lab
import Colors
@testable import Recording
import Raster
import UserFiles
import Testing
import TestSupport

/// ffmpeg and ffprobe on this process's PATH, or nil when either is missing: the tests that encode need both.
let ffmpegTools: (ffmpeg: String, ffprobe: String)? = {
    let path = FFmpegCapture.processSearchPath
    guard let ffmpeg = FFmpegCapture.findExecutable("ffmpeg", searchPath: path),
          let ffprobe = FFmpegCapture.findExecutable("ffprobe", searchPath: path) else { return nil }
    return (ffmpeg, ffprobe)
}()

/// Runs a program to its end and returns what it wrote to standard output.
func runTool(_ arguments: [String]) throws -> [UInt8] {
    let out = temporaryDirectory("tool") + "/stdout"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    _ = isolatedUserConfiguration
    try #require(posix_spawn(&pid, arguments[0], &actions, nil, argv, environ) == 0)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    try #require(status == 0, "\(arguments.joined(separator: " ")) failed")
    return try GestureScript.readFile(out)
}

/// ffprobe's answer as text lines.
func probe(_ arguments: [String]) throws -> [String] {
    let text = String(decoding: try runTool([ffmpegTools!.ffprobe, "-v", "error"] + arguments), as: UTF8.self)
    return text.split(whereSeparator: \.isNewline).map(String.init)
}

/// The number of frames in a video's first stream, counted by decoding it.
func decodedFrameCount(_ path: String) throws -> Int? {
    try probe(["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
               "-of", "csv=p=0", path]).first.flatMap { Int($0) }
}

/// A file's size in bytes.
func fileSize(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : -1
}

@Suite("Captures and recordings through ffmpeg")
struct CaptureTests {
    @Test("A GIF's rate is the fastest whose frames last whole hundredths, two at least, no faster than the frames")
    func gifFrameRate() {
        #expect(FFmpegCapture.gifFrameRate(for: 60) == 50)
        #expect(FFmpegCapture.gifFrameRate(for: 120) == 50)
        #expect(FFmpegCapture.gifFrameRate(for: 50) == 50)
        #expect(FFmpegCapture.gifFrameRate(for: 30) == 25)
        #expect(FFmpegCapture.gifFrameRate(for: 20) == 20)
    }

    @Test("The sticky script's GIF plays in real time (every delay two hundredths), at one pixel per point, under 2 MB",
          .enabled(if: ffmpegTools != nil, "ffmpeg and ffprobe are installed"),
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"))
    func stickyGIF() throws {
        let gif = temporaryDirectory("gif") + "/sticky.gif"
        let run = try ScriptRun(script: try resourceScript("sticky"), outputs: ScriptRunOutputs(capturePath: gif))
        let frames = try run.run()
        #expect(frames == 229)
        let delays = try probe(["-select_streams", "v:0", "-show_entries", "packet=duration_time", "-of", "csv=p=0",
                                gif]).compactMap { Double($0) }
        #expect(delays.count == 191)
        #expect((delays.min() ?? 0) >= 0.02 - 1e-9)
        let total = delays.reduce(0, +)
        #expect(abs(total - Double(frames) / 60) <= 1 / 60 + 1e-9, "the GIF plays \(total) s")
        #expect(try probe(["-show_entries", "stream=width,height", "-of", "csv=p=0", gif]) == ["375,667"])
        #expect(fileSize(gif) > 100_000)
        #expect(fileSize(gif) < 2_000_000)
    }

    @Test("The sticky script's MP4 has every frame of the run, at 60 fps, at the phone's full pixels",
          .enabled(if: ffmpegTools != nil, "ffmpeg and ffprobe are installed"),
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"))
    func stickyMP4() throws {
        let mp4 = temporaryDirectory("mp4") + "/sticky.mp4"
        let run = try ScriptRun(script: try resourceScript("sticky"), outputs: ScriptRunOutputs(capturePath: mp4))
        let frames = try run.run()
        #expect(try decodedFrameCount(mp4) == frames)
        #expect(try probe(["-select_streams", "v:0", "-show_entries", "stream=width,height,r_frame_rate,pix_fmt",
                           "-of", "csv=p=0", mp4]) == ["750,1334,yuv420p,60/1"])
    }

    @Test("An MP4 of an odd size loses its last column and row, since yuv420p needs an even size",
          .enabled(if: ffmpegTools != nil, "ffmpeg and ffprobe are installed"))
    func oddMP4() throws {
        let mp4 = temporaryDirectory("odd") + "/odd.mp4"
        let capture = try FFmpegCapture(output: mp4, width: 33, height: 21)
        let canvas = Canvas(width: 33, height: 21, fill: .white)
        for index in 0..<3 { try capture.write(canvas, frame: index) }
        try capture.finish()
        #expect(try probe(["-show_entries", "stream=width,height", "-of", "csv=p=0", mp4]) == ["32,20"])
    }

    /// A folder holding a stand-in `ffmpeg` that runs `body` (a shell script's lines).
    static func standIn(_ name: String, _ body: String) throws -> String {
        let bin = temporaryDirectory(name)
        try #require(writeTextFile(bin + "/ffmpeg", "#!/bin/sh\n" + body + "\n"))
        chmod(bin + "/ffmpeg", 0o755)
        return bin
    }

    @Test("A capture's writes return while ffmpeg reads nothing yet; every frame reaches the file, in order",
          .enabled(if: ffmpegTools != nil, "ffmpeg and ffprobe are installed"))
    func writesDoNotWaitForFFmpeg() throws {
        // ffmpeg starts reading a second late, as one encoding slower than the frames come does; a frame of
        // 800×800 (2.5 MB) is more than its input pipe holds.
        let bin = try Self.standIn("capture-behind", "sleep 1\nexec '\(ffmpegTools!.ffmpeg)' \"$@\"")
        let mp4 = bin + "/c.mp4"
        let capture = try FFmpegCapture(output: mp4, width: 800, height: 800, searchPath: bin)
        let colours = VideoRecordingTests.palette.prefix(3)
        let frames = colours.map { Canvas(width: 800, height: 800, fill: Color(rgb: $0.r, $0.g, $0.b)) }
        let start = monotonicNow()
        for (index, frame) in frames.enumerated() { try capture.write(frame, frame: index) }
        let writing = monotonicNow() - start
        #expect(writing < 0.5, "three writes took \(writing) s, waiting for ffmpeg")
        try capture.finish()
        #expect(monotonicNow() - start > 1, "finish returned before the stand-in read anything")
        #expect(String(try frameColours(mp4).map { nearest($0, in: VideoRecordingTests.palette) ?? "?" }) == "RGB")
    }

    @Test("A capture that ends with no frame is not written and says why; one whose ffmpeg dies says so in its words",
          .enabled(if: ffmpegTools != nil, "ffmpeg and ffprobe are installed"))
    func captureFailures() throws {
        let empty = temporaryDirectory("capture-empty") + "/c.mp4"
        let nothing = #expect(throws: LabError.self) {
            try FFmpegCapture(output: empty, width: 16, height: 16).finish()
        }
        #expect(nothing?.description.contains("no frame came before it ended") == true,
                "\(String(describing: nothing))")
        #expect(access(empty, F_OK) != 0 && access(empty + ".tmp", F_OK) != 0)

        let bin = try Self.standIn("capture-dies", "echo 'stand-in ffmpeg: no encoder' >&2\nexit 1")
        let capture = try FFmpegCapture(output: bin + "/c.gif", width: 800, height: 800, searchPath: bin)
        let frame = Canvas(width: 800, height: 800, fill: .white)
        var failure: (any Error)?
        for index in 0..<1000 {
            do { try capture.write(frame, frame: index) } catch {
                failure = error
                break
            }
        }
        let message = try #require(failure as? LabError).description
        #expect(message.contains("ffmpeg stopped taking frames") && message.contains("writing '\(bin)/c.gif'"))
        #expect(message.contains("stand-in ffmpeg: no encoder"), "\(message)")
        let finishing = #expect(throws: LabError.self) { try capture.finish() }
        #expect(finishing?.description == message)
        #expect(access(bin + "/c.gif", F_OK) != 0 && access(bin + "/c.gif.tmp", F_OK) != 0)
    }
}

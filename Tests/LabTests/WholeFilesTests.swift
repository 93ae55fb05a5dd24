#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import Lab
@testable import UserFiles
@testable import Recording
import Raster
import Testing
import TestSupport

/// Paths in `directory` that lead to the device `device` (`/dev/null`, `/dev/full`): a symbolic link, and when the
/// tests run as root a device node of the same kind, made here so that the system's own is never at risk.
func devicePaths(like device: String, in directory: String) throws -> [String] {
    let link = directory + "/link-" + (device.split(separator: "/").last.map(String.init) ?? "device")
    try #require(symlink(device, link) == 0)
    var paths = [link]
    var info = stat()
    if getuid() == 0, stat(device, &info) == 0 {
        let node = directory + "/node-" + (device.split(separator: "/").last.map(String.init) ?? "device")
        if mknod(node, S_IFCHR | 0o666, info.st_rdev) == 0 { paths.append(node) }
    }
    return paths
}

/// The kind of what is at `path` itself (`S_IFLNK`, `S_IFCHR`, `S_IFREG`, …), or nil when nothing is.
func fileKind(_ path: String) -> mode_t? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
}

/// Waits up to `timeout` seconds for `pid` to end and returns its status as a shell gives it (128 + a signal that
/// ended it); kills it and records an issue when it does not end in time.
func waitForExit(_ pid: pid_t, timeout: Double = 30) -> Int32 {
    var status: Int32 = 0
    for _ in 0..<Int(timeout * timeLimitScale * 20) {
        if waitpid(pid, &status, WNOHANG) == pid {
            return status & 0x7F != 0 ? 128 + (status & 0x7F) : (status >> 8) & 0xFF
        }
        usleep(50_000)
    }
    kill(pid, SIGKILL)
    _ = waitpid(pid, &status, 0)
    Issue.record("the process did not end within \(timeout) s")
    return -1
}

/// Waits until the temporary timings CSV at `csv` has more than `rows` rows (the recorder writes them every
/// second of frames); false when `pid` ended first or it takes more than a minute.
func waitForRows(_ rows: Int, in csv: String, of pid: pid_t) -> Bool {
    for _ in 0..<1200 {
        if let partial = readTextFile(csv + ".tmp"), partial.split(separator: "\n").count > rows + 1 { return true }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { return false }
        usleep(50_000)
    }
    return false
}

/// The frames of a timings CSV.
func timingRows(_ csv: String) throws -> [TimingRow] {
    try TimingRow.parse(try #require(readTextFile(csv)), path: csv)
}

/// A short gesture: a pull of half a second, about 32 frames.
let shortScript = #"{"steps": [{"down": [187.5, 150]}, {"move": [187.5, 400], "duration": 0.3}, "up", {"wait": 0.2}]}"#

@Suite("Files whole or absent")
struct WholeFilesTests {
    @Test("A PNG written to a device is written in place: the device is neither replaced nor removed, even when full")
    func pngToDevices() throws {
        let dir = temporaryDirectory("png-devices")
        let canvas = Canvas(width: 8, height: 8, fill: .white)
        for path in try devicePaths(like: "/dev/null", in: dir) {
            let kind = fileKind(path)
            try PNG.write(canvas, to: path)
            #expect(fileKind(path) == kind, "\(path) was replaced")
        }
        for path in try devicePaths(like: "/dev/full", in: dir) {
            let kind = fileKind(path)
            #expect(throws: (any Error).self) { try PNG.write(canvas, to: path) }
            #expect(fileKind(path) == kind, "\(path) was replaced or removed")
        }
        #expect(fileKind("/dev/null") == S_IFCHR && fileKind("/dev/full") == S_IFCHR)
    }

    @Test("A failed PNG write leaves the file that was there, and no temporary",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"))
    func failedPNGKeepsTheOldFile() throws {
        let dir = temporaryDirectory("png-full")
        let scene = SceneFixtures.directory + "/sticky.json", png = dir + "/sticky.png"
        try #require(writeTextFile(png, "the picture before\n"))
        // Room for 4 KB a file: the PNG does not fit, as on a full disk.
        let outcome = try runRefreshlab(["scene", scene, "--out", png], in: dir, fileSizeLimit: 4096)
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("cannot write PNG '\(png)'"), "\(outcome.errors)")
        #expect(readTextFile(png) == "the picture before\n")
        #expect(!fileExists(png + ".tmp"))
    }

    @Test("Timings to a device are written in place: the device stays, the summary is beside it")
    func timingsToDevice() throws {
        let dir = temporaryDirectory("timings-device")
        for csv in try devicePaths(like: "/dev/null", in: dir) {
            let kind = fileKind(csv)
            let recorder = FrameRecorder()
            try recorder.startRecording(csvPath: csv, jsonPath: csv + ".json")
            recordFrames(3, into: recorder)
            #expect(try recorder.stopRecording()?.frameCount == 3)
            #expect(fileKind(csv) == kind, "\(csv) was replaced")
            #expect(timingJSONNumber(try JSONReader.parse(try #require(readTextFile(csv + ".json"))), "frames") == 3)
        }
    }

    @Test("A recording's CSV and JSON are saved together or not at all: a full disk under either keeps both old files")
    func timingsTogether() throws {
        let dir = temporaryDirectory("timings-together")
        for full in try devicePaths(like: "/dev/full", in: dir) {
            for fullIsCSV in [false, true] {
                let other = dir + (fullIsCSV ? "/t.json" : "/t.csv")
                try #require(writeTextFile(other, "before\n"))
                let (csv, json) = fullIsCSV ? (full, other) : (other, full)
                let recorder = FrameRecorder()
                try recorder.startRecording(csvPath: csv, jsonPath: json)
                recordFrames(3, into: recorder)
                let failure = #expect(throws: (any Error).self) { try recorder.stopRecording() }
                #expect("\(failure.map { "\($0)" } ?? "")".contains(full), "the error names the full file")
                #expect(readTextFile(other) == "before\n", "\(other) was replaced though \(full) was not written")
                #expect(!fileExists(other + ".tmp"))
                #expect(fileKind(full) == S_IFLNK || fileKind(full) == S_IFCHR)
                #expect(!recorder.isRecording)
            }
        }
    }

    @Test("A capture whose device is full is reported as not written, in ffmpeg's words, and the device stays",
          .enabled(if: ffmpegTools != nil, "ffmpeg and ffprobe are installed"))
    func captureToFullDevice() throws {
        let dir = temporaryDirectory("capture-device")
        let path = dir + "/full.mp4"
        try #require(symlink("/dev/full", path) == 0)
        let capture = try FFmpegCapture(output: path, width: 32, height: 32)
        let canvas = Canvas(width: 32, height: 32, fill: .white)
        var failure: (any Error)?
        do {
            for index in 0..<10 { try capture.write(canvas, frame: index) }
            try capture.finish()
        } catch {
            failure = error
        }
        let message = "\(try #require(failure, "the capture was reported as written"))"
        #expect(message.contains(path) && message.contains("No space left on device"), "\(message)")
        #expect(fileKind(path) == S_IFLNK)
    }

    @Test("A full disk during a run: the capture is not written and says why, the file before stays, timings are whole",
          .enabled(if: refreshlabExecutable != nil && ffmpegTools != nil, "refreshlab is built and ffmpeg installed"))
    func fullDiskDuringRun() throws {
        let dir = temporaryDirectory("run-full")
        let script = dir + "/pull.json", mp4 = dir + "/c.mp4", csv = dir + "/t.csv", json = dir + "/t.json"
        try #require(writeTextFile(script, shortScript))
        try #require(writeTextFile(mp4, "the video before\n"))
        // Room for 16 KB a file: the timings fit, the video does not.
        let outcome = try runRefreshlab(["run", "--script", script, "--capture", mp4, "--timings", csv], in: dir,
                                        fileSizeLimit: 16 * 1024)
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("'\(mp4)' is not written") && outcome.errors.contains("File too large"),
                "\(outcome.errors)")
        #expect(readTextFile(mp4) == "the video before\n")
        #expect(!fileExists(mp4 + ".tmp"))
        let rows = try timingRows(csv)
        #expect(rows.count > 20)
        let summary = try JSONReader.parse(try #require(readTextFile(json)))
        #expect(timingJSONNumber(summary, "frames") == Double(rows.count))
    }

    @Test("Ctrl-C (SIGINT to the process group) during a capture: ffmpeg finishes the video, all is whole, exit 130",
          .enabled(if: refreshlabExecutable != nil && ffmpegTools != nil, "refreshlab is built and ffmpeg installed"),
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"))
    func interruptedCapture() throws {
        let dir = temporaryDirectory("run-sigint")
        let mp4 = dir + "/c.mp4", csv = dir + "/t.csv"
        let pid = try spawnRefreshlab(["run", "--script", "long", "--capture", mp4, "--timings", csv], in: dir,
                                      newProcessGroup: true)
        #expect(waitForRows(60, in: csv, of: pid), "\(readTextFile(dir + "/stderr") ?? "")")
        kill(-pid, SIGINT)
        let status = waitForExit(pid)
        let errors = readTextFile(dir + "/stderr") ?? ""
        #expect(status == 128 + SIGINT, "\(errors)")
        #expect(!errors.contains("ffmpeg"), "\(errors)")
        let rows = try timingRows(csv)
        #expect(rows.count > 60 && rows.count < 600)
        #expect(try decodedFrameCount(mp4) == rows.count)
        #expect(!fileExists(mp4 + ".tmp") && !fileExists(csv + ".tmp"))
    }

    /// Starts `refreshlab run` of the long script capturing a GIF and recording timings in `dir`, with an ffmpeg
    /// as a slow machine runs it: `delay` seconds after its input ends it says it is done (in `ffmpeg-finished`).
    /// Returns the pid once the first second of frames is recorded.
    func startSlowGIFCapture(in dir: String, delay: Double) throws -> pid_t {
        let bin = dir + "/bin"
        try #require(mkdir(bin, 0o755) == 0)
        try #require(writeTextFile(bin + "/ffmpeg", """
            #!/bin/sh
            '\(ffmpegTools!.ffmpeg)' "$@"
            status=$?
            sleep \(delay)
            echo done > '\(dir)/ffmpeg-finished'
            exit $status

            """))
        chmod(bin + "/ffmpeg", 0o755)
        let path = bin + ":" + (FFmpegCapture.processSearchPath ?? "/usr/bin:/bin")
        let pid = try spawnRefreshlab(["run", "--script", "long", "--capture", dir + "/c.gif", "--timings",
                                       dir + "/t.csv"], in: dir, environment: ["PATH": path])
        #expect(waitForRows(60, in: dir + "/t.csv", of: pid), "\(readTextFile(dir + "/stderr") ?? "")")
        return pid
    }

    @Test("SIGTERM during a GIF capture waits for ffmpeg to finish the file, however long it takes, then exits 143",
          .enabled(if: refreshlabExecutable != nil && ffmpegTools != nil, "refreshlab is built and ffmpeg installed"),
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"))
    func terminatedGIF() throws {
        let dir = temporaryDirectory("run-sigterm-gif")
        let gif = dir + "/c.gif", csv = dir + "/t.csv", finished = dir + "/ffmpeg-finished"
        let pid = try startSlowGIFCapture(in: dir, delay: 1.5)
        kill(pid, SIGTERM)
        let status = waitForExit(pid)
        #expect(status == 128 + SIGTERM, "\(readTextFile(dir + "/stderr") ?? "")")
        #expect(fileExists(finished), "refreshlab exited before ffmpeg finished")
        let rows = try timingRows(csv).count
        let packets = try probe(["-count_packets", "-select_streams", "v:0", "-show_entries", "stream=nb_read_packets",
                                 "-of", "csv=p=0", gif]).first.flatMap { Int($0) }
        #expect(packets == Int((Double(rows) * 50 / 60).rounded()), "\(rows) frames at 60 fps")
    }

    @Test("A second signal stops at once: the timings are saved, the capture ffmpeg has not finished is removed",
          .enabled(if: refreshlabExecutable != nil && ffmpegTools != nil, "refreshlab is built and ffmpeg installed"),
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"))
    func secondSignal() throws {
        let dir = temporaryDirectory("run-second-signal")
        let pid = try startSlowGIFCapture(in: dir, delay: 30)
        kill(pid, SIGTERM)
        usleep(500_000)
        kill(pid, SIGTERM)
        let status = waitForExit(pid, timeout: 10)
        #expect(status == 128 + SIGTERM, "\(readTextFile(dir + "/stderr") ?? "")")
        #expect(!fileExists(dir + "/c.gif") && !fileExists(dir + "/c.gif.tmp"))
        #expect(try timingRows(dir + "/t.csv").count > 60)
        #expect(readTextFile(dir + "/stderr")?.contains("stopped ffmpeg before it finished") == true)
    }
}

/// Records `count` frames of a millisecond's drawing each, at 60 fps.
func recordFrames(_ count: Int, into recorder: FrameRecorder) {
    for i in 0..<count {
        recorder.beginFrame(at: Double(i) / 60)
        recorder.add(0.001, to: .draw)
        recorder.endFrame(state: .idle, effect: "dots")
    }
}

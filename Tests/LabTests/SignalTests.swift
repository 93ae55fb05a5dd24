#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Motion
import Raster
import Testing
import TestSupport
@testable import Lab
@testable import Recording
import UserFiles

/// Every way a run can end finishes its outputs: each ending signal at random moments of a run, a closed standard
/// output, and the commands that write one file.
@Suite("Signals end runs with their outputs whole")
struct SignalTests {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Every file under `dir` (one level of folders), by path.
    func files(in dir: String) throws -> [String] {
        var paths: [String] = []
        for name in try listDirectory(dir) {
            let path = dir + "/" + name
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                paths += try listDirectory(path).map { path + "/" + $0 }
            } else {
                paths.append(path)
            }
        }
        return paths
    }

    /// Checks what a run stopped by a signal left in `dir`: no temporary, the timings CSV and summary both whole
    /// or both absent, every trace and events line whole JSON, every frame a whole PNG.
    func checkOutputs(in dir: String, _ what: String) throws {
        let all = try files(in: dir)
        let temporaries = all.filter { $0.hasSuffix(".tmp") }
        #expect(temporaries.isEmpty, "\(what): temporaries left: \(temporaries)")
        #expect(fileExists(dir + "/t.csv") == fileExists(dir + "/t.json"), "\(what): one of the timings files alone")
        if fileExists(dir + "/t.csv") { #expect(try timingRows(dir + "/t.csv").count > 0, "\(what)") }
        for log in ["tr.jsonl", "e.jsonl"] {
            let text = readTextFile(dir + "/" + log) ?? ""
            #expect(text.isEmpty || text.hasSuffix("\n"), "\(what): \(log) ends mid-line")
            for line in text.split(separator: "\n") {
                #expect((try? JSONReader.parse(Array(line.utf8))) != nil, "\(what): \(log): \(line)")
            }
        }
        for frame in all where frame.hasSuffix(".png") {
            #expect((try? PNG.read(from: frame)) != nil, "\(what): \(frame) is not a whole PNG")
        }
        // Frames are written in order: the run's first frames, none missing.
        if fileExists(dir + "/f") {
            let frames = try listDirectory(dir + "/f").sorted()
            #expect(frames == (0..<frames.count).map { String(PNGSequence.path(of: $0, in: "").dropFirst()) },
                    "\(what): frames missing among \(frames.count)")
        }
    }

    func stopRun(with signal: Int32, after seconds: Double) throws {
        let dir = temporaryDirectory("signal-\(signal)")
        let pid = try spawnRefreshlab(["run", "--script", "long", "--timings", dir + "/t.csv", "--trace",
                                       dir + "/tr.jsonl", "--events", dir + "/e.jsonl", "--frames", dir + "/f"],
                                      in: dir)
        usleep(UInt32(seconds * 1e6))
        kill(pid, signal)
        let status = waitForExit(pid)
        let errors = readTextFile(dir + "/stderr") ?? ""
        let what = "signal \(signal) after \(seconds) s"
        // Before its handlers are installed the default action ends the process: the same status, nothing written.
        #expect(status == 128 + signal, "\(what)\n\(errors)")
        #expect(errors.split(separator: "\n").count <= 1, "\(what): more than one line (a crash report?)\n\(errors)")
        try checkOutputs(in: dir, what)
    }

    @Test("SIGQUIT in the middle of a run ends it as SIGTERM does: status 131, outputs whole, no crash report",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"))
    func quit() throws {
        try stopRun(with: SIGQUIT, after: 0.8)
    }

    @Test("each ending signal at random moments of a run leaves every output whole or absent and no temporary",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"),
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"),
          arguments: SignalTests.signals)
    func randomMoments(signal: Int32) throws {
        var random = SeededRandom(seed: UInt64(signal) * 7919)
        for _ in 0..<4 {
            // From a moment the program has started (its handlers are its first line), to the middle of the run.
            try stopRun(with: signal, after: Double.random(in: 0.2...2.0, using: &random) * timeLimitScale)
        }
    }

    @Test("a second signal while frames are encoded ends the run at once: every frame whole, in order, no temporary",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"),
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"))
    func secondSignalDuringFrames() throws {
        var random = SeededRandom(seed: 3939)
        for round in 0..<6 {
            let dir = temporaryDirectory("signal-twice")
            let signal = SignalTests.signals[round % SignalTests.signals.count]
            let pid = try spawnRefreshlab(["run", "--script", "long", "--frames", dir + "/f"], in: dir)
            usleep(UInt32(Double.random(in: 0.3...1.5, using: &random) * timeLimitScale * 1e6))
            kill(pid, signal)
            usleep(UInt32(Double.random(in: 0...0.05, using: &random) * 1e6))
            kill(pid, signal)
            let status = waitForExit(pid)
            let what = "signal \(signal) twice, round \(round)"
            #expect(status == 128 + signal, "\(what)\n\(readTextFile(dir + "/stderr") ?? "")")
            try checkOutputs(in: dir, what)
        }
    }

    @Test("a standard output closed by its reader stops nothing: the run ends with status 0 and every file",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"))
    func closedOutput() throws {
        let dir = temporaryDirectory("closed-stdout")
        // A dozen frames: enough for every report line, few enough for a debug build on a busy machine.
        try #require(writeTextFile(dir + "/s.json", #"{"effect": "dots", "steps": [{"wait": 0.2}]}"#))
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        // Closed on exec, so that no other test's child started later holds either end.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        close(ends[0])
        let pid = try spawnRefreshlab(["run", "--script", dir + "/s.json", "--timings", dir + "/t.csv", "--frames",
                                       dir + "/f"], in: dir, standardOutput: ends[1])
        close(ends[1])
        let status = waitForExit(pid)
        #expect(status == 0, "\(readTextFile(dir + "/stderr") ?? "")")
        try checkOutputs(in: dir, "closed standard output")
        #expect(fileExists(dir + "/t.csv") && fileExists(dir + "/f/frame-0000.png"))
    }

    @Test("scene, at the first signal, ends with its PNG whole or absent and no temporary, at random moments",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"),
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"))
    func shortCommand() throws {
        var random = SeededRandom(seed: 23)
        let scene = SceneFixtures.scenePath("stress")
        for round in 0..<12 {
            let dir = temporaryDirectory("signal-scene")
            let signal = SignalTests.signals[round % SignalTests.signals.count]
            let pid = try spawnRefreshlab(["scene", scene, "--out", dir + "/o.png", "--iterations", "100000"],
                                          in: dir)
            usleep(UInt32(Double.random(in: 0.15...0.5, using: &random) * timeLimitScale * 1e6))
            kill(pid, signal)
            let status = waitForExit(pid)
            #expect(status == 128 + signal, "\(readTextFile(dir + "/stderr") ?? "")")
            #expect(!fileExists(dir + "/o.png.tmp"))
            if fileExists(dir + "/o.png") { #expect((try? PNG.read(from: dir + "/o.png")) != nil) }
        }
    }
}

/// An ffmpeg that stops reading never hangs a capture.
@Suite("A stalled ffmpeg")
struct StalledFFmpegTests {
    @Test("an ffmpeg reading nothing for 10 s is stopped: the run fails with that said, and leaves no file",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"),
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"))
    func stalled() throws {
        let dir = temporaryDirectory("ffmpeg-stalled")
        let bin = dir + "/bin"
        try #require(mkdir(bin, 0o755) == 0)
        try #require(writeTextFile(bin + "/ffmpeg", "#!/bin/sh\necho 'stand-in ffmpeg: stuck' >&2\nexec sleep 120\n"))
        chmod(bin + "/ffmpeg", 0o755)
        let started = MonotonicClock.seconds()
        let outcome = try runRefreshlabWithPath(["run", "--script", "sticky", "--capture", dir + "/c.mp4"],
                                                in: dir, path: bin + ":/usr/bin:/bin")
        let seconds = MonotonicClock.seconds() - started
        #expect(outcome.status == 1, "\(outcome.errors)")
        #expect(seconds >= 10 && seconds < 20 * timeLimitScale, "took \(seconds) s")
        let said = "ffmpeg read nothing for 10 s and was stopped; it said: stand-in ffmpeg: stuck"
        #expect(outcome.errors.contains(said), "\(outcome.errors)")
        #expect(!fileExists(dir + "/c.mp4") && !fileExists(dir + "/c.mp4.tmp"))
    }

    /// `runRefreshlab` with `PATH` set, so that the stand-in is the ffmpeg found.
    func runRefreshlabWithPath(_ arguments: [String], in dir: String, path: String) throws -> CommandOutcome {
        let pid = try spawnRefreshlab(arguments, in: dir, environment: ["PATH": path])
        let status = waitForExit(pid, timeout: 40)
        return CommandOutcome(status: status, output: readTextFile(dir + "/stdout") ?? "",
                              errors: readTextFile(dir + "/stderr") ?? "")
    }
}

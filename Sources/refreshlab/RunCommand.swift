import ArgumentParser
import Lab

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `refreshlab run --headless`: replays a gesture script on the simulated clock and writes what it saw.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Replay a gesture script headless and write its frames, events, trace and timings.",
        discussion: """
            The script is a JSON file of steps (down, move, up, wait, wheel, key, beginRefresh, endRefresh) \
            played on a simulated 60 fps clock, so every run gives the same frames. --script also takes the \
            name of a script in Resources/gestures (sticky, dots, ring, news, classic, fling, long). \
            Without --effect, the script's own effect is shown, else the sticky header.
            """
    )

    /// The root command: its --headless, --frames and --out are also taken by its parser here.
    @ParentCommand var root: RefreshLabCommand

    @Option(help: ArgumentHelp("The header effect: sticky, dots, ring, news or classic.", valueName: "name"))
    var effect: String?

    @Option(help: ArgumentHelp("The gesture script: a JSON file, or a script's name in Resources/gestures.",
                               valueName: "file"))
    var script: String

    @Option(help: ArgumentHelp("Write the frame-time CSV here, and its JSON summary beside it.", valueName: "file"))
    var timings: String?

    @Option(help: ArgumentHelp("Write the header's and footer's state changes here, one JSON line each.",
                               valueName: "file"))
    var events: String?

    @Option(help: ArgumentHelp("Write one JSON line per frame (time, contentOffset, contentInset, state) here.",
                               valueName: "file"))
    var trace: String?

    @Option(help: ArgumentHelp("Record the run as a GIF or MP4 through ffmpeg (which must be installed).",
                               valueName: "file"))
    var capture: String?

    @Option(name: .long, help: ArgumentHelp("Pixels per point (default 2, as the phone).", valueName: "s"))
    var scale: Double?

    func run() throws {
        guard root.headless else {
            throw LabError("'refreshlab run' replays scripts without a window: add --headless")
        }
        // `--frames DIR`: the root command's parser takes --frames wherever it appears, as a string.
        let framesDirectory = root.frames
        // So too --effect, --events and --scale, which the root has for the window: its values stand for ours.
        let effect = self.effect ?? root.effect, events = self.events ?? root.events
        let scale = try self.scale ?? root.scale.map { t in try Double(t) ?? { throw LabError("--scale takes a number, not '\(t)'") }() }
        if root.out != nil {
            throw LabError("'refreshlab run' writes frames with --frames DIR, not --out")
        }
        if let effect, !RefreshEffectNames.all.contains(effect) {
            throw LabError("unknown effect '\(effect)' for --effect; expected one of "
                + RefreshEffectNames.all.joined(separator: ", "))
        }
        var phone = Phone()
        if let scale {
            guard scale.isFinite, scale >= 0.5, scale <= 4 else {
                throw LabError("--scale must be between 0.5 and 4, not \(scale)")
            }
            phone = Phone(scale: scale)
        }
        let path = try RunCommand.scriptPath(script)
        let gestures: GestureScript
        do {
            gestures = try GestureScript.load(path: path)
        } catch {
            throw LabError(error.description)
        }
        let outputs = ScriptRunOutputs(framesDirectory: framesDirectory, capturePath: capture, eventsPath: events,
                                       tracePath: trace)
        let run = try ScriptRun(script: gestures, effect: effect, outputs: outputs, phone: phone)
        var recorder: FrameRecorder?
        if let timings {
            FrameRecorder.flushOnTermination()
            let timer = FrameRecorder(budget: 1 / simulatedFrameRate)
            try timer.startRecording(csvPath: timings, jsonPath: RunCommand.summaryPath(timings))
            run.recorder = timer
            recorder = timer
        }
        let started = MonotonicSeconds.now
        let frames: Int
        do {
            frames = try run.run()
        } catch {
            _ = try? recorder?.stopRecording()
            throw error
        }
        let elapsed = MonotonicSeconds.now - started
        if let recorder, let timings {
            _ = try recorder.stopRecording()
            print("wrote timings to \(timings) and \(RunCommand.summaryPath(timings))")
        }
        if run.wasInterrupted {
            FileHandleLine.standardError("stopped by a signal after \(frames) frames; everything written so far is complete")
        }
        var report = "ran '\(path)' with the \(run.simulation.effectName) header: \(frames) frames "
            + "(\(formatted(Double(frames) / 60)) s simulated) in \(formatted(elapsed)) s"
        if elapsed > 0 { report += ", \(Int(Double(frames) / elapsed)) frames per second" }
        print(report)
        let states = run.events.headerChanges.map { $0.to.description }
        print("header states: " + (states.isEmpty ? "(no change)" : states.joined(separator: " → ")))
        for (what, where_) in [("frames", framesDirectory.map { $0 + "/" }), ("capture", capture),
                               ("events", events), ("trace", trace)] {
            if let where_ { print("wrote \(what) to \(where_)") }
        }
    }

    /// The timing summary's path: the CSV's with `.json` for `.csv`, or `.json` added.
    static func summaryPath(_ csv: String) -> String {
        csv.hasSuffix(".csv") ? String(csv.dropLast(4)) + ".json" : csv + ".json"
    }

    /// A script's file: the path as given when it exists, else the script of that name in Resources/gestures.
    static func scriptPath(_ given: String) throws -> String {
        if access(given, F_OK) == 0 || given.contains("/") || given.hasSuffix(".json") { return given }
        if let found = ResourceLocator.gestureScript(named: given) { return found }
        let known = ResourceLocator.gestureScriptNames
        throw LabError("no gesture script '\(given)': no such file"
            + (known.isEmpty ? "; give the path of a script file"
                : ", and Resources/gestures has only " + known.joined(separator: ", ")))
    }

    private func formatted(_ seconds: Double) -> String {
        let hundredths = Int((seconds * 100).rounded())
        let fraction = hundredths % 100
        return String(hundredths / 100) + "." + (fraction < 10 ? "0" : "") + String(fraction)
    }
}

/// The registered header effects, for checking `--effect` before anything runs.
enum RefreshEffectNames {
    static var all: [String] { ScriptReplay.effectNames }
}

/// The monotonic clock in seconds, for the run's own timing.
enum MonotonicSeconds {
    static var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

/// Lines on standard error, where they do not mix with the run's report.
enum FileHandleLine {
    static func standardError(_ line: String) {
        let text = Array((line + "\n").utf8)
        _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}

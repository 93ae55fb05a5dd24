import ArgumentParser
import Lab
import Motion
import Raster
import Styles
import Colors

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UserFiles
import Recording
import Refresh

/// `refreshlab run`: replays a gesture script headless and writes what it saw.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Replay a gesture script headless and write its frames, events, trace, timings and capture.",
        discussion: """
            The script is a JSON file of steps (down, move, up, wait, wheel, key, beginRefresh, endRefresh) \
            played on a simulated clock at the phone's refresh rate (60 fps, 120 on the ProMotion phones), so \
            every run gives the same frames. --script also takes the \
            name of a script in Resources/gestures (one per effect, fling, long, second-floor). \
            Without --effect, the script's own effect is shown, else the sticky header.
            """
    )

    @Option(help: ArgumentHelp("The gesture script: a JSON file, or a script's name in Resources/gestures.",
                               valueName: "file"))
    var script: String

    @OptionGroup var phone: PhoneOptions
    @OptionGroup var record: RecordOptions
    @OptionGroup var outputs: HeadlessOutputOptions
    @OptionGroup var style: StyleOptions
    @OptionGroup var appearance: AppearanceOptions
    @OptionGroup var threads: ThreadOptions

    @Flag(help: "Accepted for clarity: 'run' always replays without a window.")
    var headless = false

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Replay the script on a second phone too, shown to the right of the first: these "
                               + "options (--effect, --device, --platform, --bar, --scale, --animation, --style, "
                               + "--appearance) say how it differs; the rest is the first phone's. The trace and "
                               + "events name each line's phone; a comparison follows the report.",
                               valueName: "options"))
    var compare: String?

    func validate() throws {
        guard let compare else { return }
        _ = try CompareOptions.parsing(compare)
        if outputs.timings != nil {
            throw ValidationError("--timings times a single phone's frames; leave it out with --compare")
        }
    }

    func run() throws {
        let phone = try phone.phone()
        let effect = try self.phone.checkedEffect()
        let path = try RunCommand.scriptPath(script)
        let gestures: GestureScript
        do {
            gestures = try GestureScript.load(path: path)
        } catch {
            throw LabError(error.description)
        }
        if let compare {
            return try HeadlessComparison(script: gestures, scriptPath: path, first: self.phone,
                                          second: try CompareOptions.parsing(compare), record: record,
                                          outputs: outputs, style: style, appearance: appearance,
                                          threads: try threads.count()).run()
        }
        var replay = HeadlessReplay(script: gestures, scriptPath: path, effect: effect,
                                    phone: phone.phone(for: gestures), animation: self.phone,
                                    record: record, outputs: outputs, style: style, styles: try style.load(),
                                    appearance: try appearance.chosen(), language: try appearance.chosenLanguage())
        replay.threads = try threads.count()
        try replay.run()
    }

    /// A script's file: the path as given when it exists, else the script of that name in Resources/gestures.
    static func scriptPath(_ given: String) throws -> String {
        if FileName.withBytes(given, { access($0, F_OK) }) == 0 || given.contains("/") || given.hasSuffix(".json") { return given }
        if let found = ResourceLocator.gestureScript(named: given) { return found }
        let known = ResourceLocator.gestureScriptNames
        throw LabError("no gesture script '\(given)': no such file"
            + (known.isEmpty ? "; give the path of a script file"
                : ", and Resources/gestures has only " + known.joined(separator: ", ")))
    }

}

/// A headless replay of a gesture script with the outputs asked for, and its report on standard output: what
/// `refreshlab run` and `refreshlab --headless` do.
struct HeadlessReplay {
    var script: GestureScript
    var scriptPath: String?
    var effect: String?
    var phone: Phone
    /// Where the gif header's animation comes from.
    var animation: PhoneOptions
    var record: RecordOptions
    var outputs: HeadlessOutputOptions
    /// The style files, named so that no output lands on one.
    var style: StyleOptions
    var styles: StyleBook
    /// `--appearance`, over the script's own; nil: the script's, else light.
    var appearance: Appearance?
    /// `--language`; nil: English, or what the script's keys choose.
    var language: RefreshLanguage?
    /// `--threads`: the threads each frame is drawn on.
    var threads = 1

    init(script: GestureScript, scriptPath: String? = nil, effect: String?, phone: Phone, animation: PhoneOptions,
         record: RecordOptions, outputs: HeadlessOutputOptions, style: StyleOptions, styles: StyleBook,
         appearance: Appearance? = nil, language: RefreshLanguage? = nil) {
        self.appearance = appearance
        self.language = language
        self.style = style
        self.styles = styles
        self.script = script
        self.scriptPath = scriptPath
        self.effect = effect
        self.phone = phone
        self.animation = animation
        self.record = record
        self.outputs = outputs
    }

    func run() throws {
        var named = CommandFiles()
        named.reads(scriptPath, as: "--script")
        style.declare(in: &named)
        animation.declare(in: &named)
        record.declare(in: &named)
        outputs.declare(in: &named)
        try named.checkApart()
        let files = ScriptRunOutputs(framesDirectory: outputs.frames, capturePath: outputs.capture,
                                     eventsPath: record.events, tracePath: record.trace,
                                     includesOverlays: record.overlays, replacesEarlierFrames: outputs.replaceFrames)
        let timeline = ScriptTimeline(script, frameRate: phone.refreshRate)
        let limit = try outputs.durationLimit()
        if timeline.duration > limit {
            throw LabError((scriptPath.map { "'\($0)'" } ?? "the run") + " lasts \(JSONText.number(timeline.duration)) s "
                + "of simulated time, longer than the limit of \(JSONText.number(limit)) s; raise it with "
                + "--max-duration SECONDS")
        }
        Termination.install()
        let run = try ScriptRun(script: script, effect: effect, outputs: files, phone: phone,
                                prepare: animation.prepare(_:))
        run.simulation.styles = styles
        run.simulation.drawingThreads = threads
        if let appearance { run.simulation.appearance = appearance }
        if let language { run.simulation.language = language }
        if isatty(2) != 0 && timeline.frameCount >= ProgressLine.minimumFrames {
            let progress = ProgressLine(total: timeline.frameCount)
            run.loop.afterFrame = { progress.update(frame: $0) }
        }
        if let timings = outputs.timings {
            try run.recorder.startRecording(csvPath: timings, jsonPath: TimingFiles.summaryPath(forCSV: timings))
        }
        let started = MonotonicClock.seconds()
        let frames: Int
        do {
            frames = try run.run()
        } catch {
            _ = try? run.recorder.stopRecording()
            throw error
        }
        run.loop.afterFrame?(-1)
        let elapsed = MonotonicClock.seconds() - started
        if let timings = outputs.timings {
            try run.recorder.stopRecording()
            print("wrote timings to \(timings) and \(TimingFiles.summaryPath(forCSV: timings))")
        }
        var report = "ran " + (scriptPath.map { "'\($0)'" } ?? "the demo drag")
            + " with the \(run.simulation.effectName) header: \(frames) frames "
            + "(\(HeadlessReplay.formatted(Double(frames) / simulatedFrameRate)) s simulated) in \(HeadlessReplay.formatted(elapsed)) s"
        if elapsed > 0 { report += ", \(Int(Double(frames) / elapsed)) frames per second" }
        print(report)
        let states = run.events.headerChanges.map { $0.to.description }
        let earlier = run.events.droppedCount > 0 ? "… (\(run.events.droppedCount) earlier changes) → " : ""
        print("header states: " + (states.isEmpty ? "(no change)" : earlier + states.joined(separator: " → ")))
        for (what, where_) in [("frames", outputs.frames.map { $0 + "/" }), ("capture", outputs.capture),
                               ("events", record.events), ("trace", record.trace)] {
            if let where_ { print("wrote \(what) to \(where_)") }
        }
        try exitIfSignalled(after: "\(frames) frames")
    }

    /// Seconds with two decimals, as the report gives them.
    static func formatted(_ seconds: Double) -> String {
        let hundredths = Int((seconds * 100).rounded())
        let fraction = hundredths % 100
        return String(hundredths / 100) + "." + (fraction < 10 ? "0" : "") + String(fraction)
    }
}

/// A line on standard error (a terminal) saying how far a long headless run is, rewritten in place a few times a
/// second; `frame` -1 clears it at the end.
final class ProgressLine {
    /// Runs shorter than this many frames (10 simulated seconds) end before a line would help.
    static let minimumFrames = 600
    let total: Int
    private var lastShown = 0.0

    init(total: Int) { self.total = total }

    func update(frame: Int) {
        guard frame >= 0 else { return write("\r\u{1B}[K") }
        // The clock is read every 64 frames only: a headless frame takes a millisecond or two.
        guard frame & 63 == 0 else { return }
        let now = MonotonicClock.seconds()
        guard now - lastShown >= 0.25 else { return }
        lastShown = now
        let percent = Double(frame) * 100 / Double(Swift.max(total, 1))
        write("\rrefreshlab: frame \(frame) of \(total) (\(Int(percent)) %)\u{1B}[K")
    }

    private func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

/// Ends the command with status 128 + the signal's number when a signal (`Termination.endingSignals`) asked it to
/// stop, as a shell reports a program the signal ended; everything under way was finished whole before.
func exitIfSignalled(after what: String) throws {
    guard let signal = Termination.signal else { return }
    FileLines.standardError("stopped by a signal after \(what); everything written is complete")
    throw ExitCode(128 + signal)
}

import ArgumentParser
import Lab
import Motion
import Recording
import UserFiles

/// The second phone of `run --compare "OPTIONS"`: the words of OPTIONS parsed with the same option groups as the
/// first phone's, so that each is checked as it would be there. What OPTIONS leaves out is the first phone's.
struct CompareOptions: ParsableArguments {
    @OptionGroup var phone: PhoneOptions
    @OptionGroup var style: StyleOptions
    @OptionGroup var appearance: AppearanceOptions

    /// Parses `text`, split into words at white space (a path in it cannot hold a space).
    ///
    /// - Throws: `ValidationError` starting `--compare:` and saying what is wrong with it.
    static func parsing(_ text: String) throws -> CompareOptions {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        do {
            return try parse(words)
        } catch {
            throw ValidationError("--compare: " + message(for: error))
        }
    }

    /// The second phone's options: each one not given is the first phone's. A platform or device given replaces
    /// both of the first's (a device of one platform does not go with the other), and another effect does not take
    /// the first's animation.
    func phone(over first: PhoneOptions) -> PhoneOptions {
        var merged = phone
        if phone.platform == nil && phone.device == nil {
            merged.platform = first.platform
            merged.device = first.device
        }
        merged.bar = phone.bar ?? first.bar
        merged.scale = phone.scale ?? first.scale
        merged.effect = phone.effect ?? first.effect
        if phone.animation == nil && merged.effect == first.effect { merged.animation = first.animation }
        return merged
    }

    /// The style files of the second phone: its own when it names any, else the first's.
    func style(over first: StyleOptions) -> StyleOptions {
        style.files.isEmpty ? first : style
    }
}

/// A headless replay of a script on two phones side by side (`run --compare`), with its outputs and its report.
struct HeadlessComparison {
    var script: GestureScript
    var scriptPath: String
    var first: PhoneOptions
    var second: CompareOptions
    var record: RecordOptions
    var outputs: HeadlessOutputOptions
    var style: StyleOptions
    var appearance: AppearanceOptions
    /// `--threads`: the threads each phone's frame is drawn on.
    var threads = 1

    func run() throws {
        let secondPhone = second.phone(over: first)
        let secondStyle = second.style(over: style)
        var named = CommandFiles()
        named.reads(scriptPath, as: "--script")
        style.declare(in: &named)
        if secondStyle.files != style.files { secondStyle.declare(in: &named) }
        first.declare(in: &named)
        if secondPhone.animation != first.animation { named.reads(secondPhone.animation, as: "--compare's --animation") }
        record.declare(in: &named)
        outputs.declare(in: &named)
        try named.checkApart()
        let limit = try outputs.durationLimit()
        let firstDevice = try first.phone().phone(for: script)
        let timeline = ScriptTimeline(script, frameRate: firstDevice.refreshRate)
        if timeline.duration > limit {
            throw LabError("'\(scriptPath)' lasts \(JSONText.number(timeline.duration)) s of simulated time, longer "
                + "than the limit of \(JSONText.number(limit)) s; raise it with --max-duration SECONDS")
        }
        let a = ComparedPhone(effect: try first.checkedEffect(), device: firstDevice,
                              styles: try style.load(), appearance: try appearance.chosen(),
                              language: try appearance.chosenLanguage(), prepare: first.prepare(_:))
        let b = ComparedPhone(effect: try secondPhone.checkedEffect(),
                              device: try secondPhone.phone().phone(for: script), styles: try secondStyle.load(),
                              appearance: try second.appearance.chosen() ?? appearance.chosen(),
                              language: try second.appearance.chosenLanguage() ?? appearance.chosenLanguage(),
                              prepare: secondPhone.prepare(_:))
        let files = ScriptRunOutputs(framesDirectory: outputs.frames, capturePath: outputs.capture,
                                     eventsPath: record.events, tracePath: record.trace,
                                     includesOverlays: record.overlays, replacesEarlierFrames: outputs.replaceFrames)
        Termination.install()
        let run = try ComparedRun(script: script, a: a, b: b, outputs: files)
        run.a.simulation.drawingThreads = threads
        run.b.simulation.drawingThreads = threads
        let started = MonotonicClock.seconds()
        let frames = try run.run()
        let elapsed = MonotonicClock.seconds() - started
        print("ran '\(scriptPath)' on two phones, a with the \(run.a.simulation.effectName) header and b with the "
            + "\(run.b.simulation.effectName) header: \(frames) side-by-side frames at \(Int(run.frameRate)) fps "
            + "(a \(run.a.loop.frameIndex), b \(run.b.loop.frameIndex)) in \(HeadlessReplay.formatted(elapsed)) s")
        for (what, where_) in [("frames", outputs.frames.map { $0 + "/" }), ("capture", outputs.capture),
                               ("events", record.events), ("trace", record.trace)] {
            if let where_ { print("wrote \(what) to \(where_)") }
        }
        for line in run.summary { print(line) }
        try exitIfSignalled(after: "\(frames) frames")
    }
}

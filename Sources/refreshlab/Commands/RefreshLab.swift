import ArgumentParser
import Lab
import Raster
import Scrolling
import Styles

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UserFiles
import Recording

/// The command line: with no subcommand, the simulator's window (`window`); `run` replays a gesture script
/// headless; `scene` renders a vector scene; `report` charts a timings recording; `styles` prints the effective
/// style; `lottie` draws a frame of a Lottie file; `devices` lists the phones.
@main
struct RefreshLabCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refreshlab",
        abstract: "Design and preview pull-to-refresh effects on a simulated iOS or Android phone.",
        discussion: """
            With no subcommand, opens the simulator's window (the 'window' command: see 'refreshlab window \
            --help' for its options). Drag the list with the mouse, scroll with the wheel; keys 1…9 and 0 choose \
            the header effect, Space refreshes, H lists every key, Q (or Esc twice) quits.
            'refreshlab --headless' renders a short demo drag as PNG frames without a window; 'refreshlab run' \
            replays a gesture script headless on a simulated clock at the phone's refresh rate.
            The window's options: --effect NAME, --platform ios|android, --device NAME, --bar STYLE, --scale 1|2|3, --appearance light|dark, --language english|chinese, --events FILE, --trace FILE, --overlays, \
            --output-dir DIR, --style FILE; with --headless also --frame-count N, --frames DIR (--replace-frames), \
            --timings FILE, --capture FILE, --max-duration SECONDS (a run longer than an hour of simulated time is \
            refused unless raised). No output may be an input or another output: such a command is refused whole.
            """,
        version: "0.2.0",
        subcommands: [WindowCommand.self, RunCommand.self, SceneCommand.self, ReportCommand.self, StylesCommand.self,
                      LottieCommand.self, ExportCommand.self, AuditCommand.self, DevicesCommand.self],
        defaultSubcommand: WindowCommand.self
    )

    /// Parses the arguments as the system gave them: `CommandLine.arguments` replaces bytes that are not UTF-8,
    /// which would name another file; `FileName` keeps them.
    static func main() {
        // From the first line a signal ends the process with its outputs whole or absent (and no crash report);
        // the commands that run a frame loop then ask for the run to be finished instead.
        Termination.install(.endsAtOnce)
        main((1..<Int(CommandLine.argc)).map { FileName.decode(CommandLine.unsafeArgv[$0]!) })
    }
}

/// The phone the simulator shows: its header effect and its pixels per point.
struct PhoneOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The header effect: one of \(Simulation.effectNames.joined(separator: ", ")) (the first by default).",
                               valueName: "name"))
    var effect: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Pixels per point: 1, 2 or 3 (default: the phone's own).", valueName: "n"))
    var scale: String?

    @Option(help: ArgumentHelp("The platform: " + Platform.allCases.map(\.rawValue).joined(separator: " or ")
                               + " (default ios; android shows the Pixel 8 unless --device names another of its "
                               + "phones; Y switches it in the window). Over a gesture script's own \"platform\".",
                               valueName: "name"))
    var platform: String?

    @Option(help: ArgumentHelp("The phone: " + PhoneModel.catalog.map(\.id).joined(separator: ", ")
                               + " (default: the platform's; iOS's is the lab's own 375×667 phone; 'refreshlab "
                               + "devices' lists their figures).", valueName: "name"))
    var device: String?

    @Option(help: ArgumentHelp("The navigation bar: " + BarStyle.allCases.map(\.rawValue).joined(separator: ", ")
                               + " (default standard).", valueName: "style"))
    var bar: String?

    @Option(help: ArgumentHelp("With --effect gif: an animated GIF, a folder of numbered PNG frames, or a folder "
                               + "with idle, pulling and refreshing sequences (default: Resources/"
                               + "\(AnimationFiles.defaultResource)); with --effect lottie: a Lottie (Bodymovin "
                               + "JSON) file (default: the one in the resources).", valueName: "file|dir"))
    var animation: String?

    @Option(help: ArgumentHelp("Give the header a second floor (二楼) behind the list: a PNG, JPEG, WebP or GIF "
                               + "picture, a Lottie file (its 'reveal' marker, if any, scrubbed by the pull), or "
                               + "'\(FloorSource.drawnName)' for RefreshLab's own page. Headers that push the list only; "
                               + "settings in a style file's \"floor\" section.", valueName: "file|drawn"))
    var floor: String?

    /// Adds the animation and the floor read (a file or a folder of frames) to `files`.
    func declare(in files: inout CommandFiles) {
        files.reads(animation, as: "--animation")
        if let floor, FloorSource(option: floor) != .drawn { files.reads(floor, as: "--floor") }
    }

    func validate() throws {
        _ = try validating(phone)
        let animated = Simulation.animationEffectNames
        if animation != nil && !animated.contains(effect ?? "") {
            throw ValidationError("--animation goes with --effect " + animated.joined(separator: " or ")
                + ", which shows it")
        }
        if floor != nil, let effect, let refusal = Simulation.floorRefusal(effect: effect) {
            throw ValidationError("--floor: " + refusal)
        }
    }

    /// Reads `--floor` into `simulation`, and `--animation` for the header of `--effect`, or that header's default
    /// animation when none is given, so that a missing default is one clear error rather than an empty header;
    /// prints the file's warning about what is not drawn. An unreadable file is an error naming it.
    func prepare(_ simulation: Simulation) throws {
        if let floor { try simulation.setFloor(FloorSource(option: floor)) }
        guard let effect, Simulation.animationEffectNames.contains(effect) else { return }
        if let warning = try simulation.loadAnimation(path: animation, for: effect) {
            FileLines.standardError(warning)
        }
    }

    /// The phone `--platform`, `--device`, `--bar` and `--scale` ask for, checked; what they leave open a script may
    /// choose.
    func phone() throws -> PhoneChoice {
        var choice = PhoneChoice()
        if let scale {
            choice.scale = Double(try OptionNumber.integer(scale, option: "--scale", in: 1...3, allowed: "1, 2 or 3"))
        }
        if let platform {
            do { choice.platform = try Platform.named(platform) } catch { throw LabError("--platform: " + error.description) }
        }
        if let device {
            do throws(LabError) {
                if let platform = choice.platform {
                    choice.model = try PhoneModel.named(device, on: platform)
                } else {
                    choice.model = try PhoneModel.named(anyPlatform: device)
                }
            } catch {
                throw LabError("--device: " + error.description)
            }
        }
        if let bar {
            do { choice.bar = try BarStyle.named(bar) } catch { throw LabError("--bar: " + error.description) }
        }
        return choice
    }

    /// `--effect`, checked against the registered effects.
    func checkedEffect() throws -> String? {
        guard let effect else { return nil }
        guard ScriptReplay.effectNames.contains(effect) else {
            throw ValidationError("--effect: no effect named '\(effect)'; choose one of "
                + ScriptReplay.effectNames.joined(separator: ", "))
        }
        return effect
    }
}

/// What a run writes as it goes, in the window and headless alike.
struct RecordOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write the header's and footer's state changes here, one JSON line each.",
                               valueName: "file"))
    var events: String?

    @Option(help: ArgumentHelp("Write one JSON line per frame presented (time, offset, inset, velocity, motion, "
                               + "finger, states) here.", valueName: "file"))
    var trace: String?

    @Flag(help: ArgumentHelp("Include the simulator's overlays (HUD, toast, help, debug overlay) in frames, "
                             + "captures, screenshots and videos; by default they show the phone only."))
    var overlays = false

    /// Adds what these options write to `files`.
    func declare(in files: inout CommandFiles) {
        files.writes(events, as: "--events")
        files.writes(trace, as: "--trace")
    }
}

/// What only a headless run writes.
struct HeadlessOutputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write every frame as a PNG into this folder (created if missing; a folder holding an "
                               + "earlier run's frames is refused unless --replace-frames).", valueName: "dir"))
    var frames: String?

    @Flag(name: .customLong("replace-frames"),
          help: "With --frames: first remove the frames (frame-NNNN.png) an earlier run left in the folder.")
    var replaceFrames = false

    @Option(help: ArgumentHelp("Write the frame-time CSV here, and its JSON summary beside it.", valueName: "file"))
    var timings: String?

    @Option(help: ArgumentHelp("Record the run as a .gif (50 fps) or .mp4 (60 fps) through ffmpeg.",
                               valueName: "file"))
    var capture: String?

    @Option(name: .customLong("max-duration"), parsing: .unconditional,
            help: ArgumentHelp("The longest run allowed, in simulated seconds: from 1 to \(Int(maxDurationLimit)) "
                               + "(default \(Int(GestureScript.defaultMaxDuration)), one hour).", valueName: "s"))
    var maxDuration: String?

    /// Adds what these options write to `files`: the timings' summary JSON beside its CSV included.
    func declare(in files: inout CommandFiles) {
        files.writes(frames, as: "--frames", owning: PNGSequence.isFrameName)
        files.writes(timings, as: "--timings")
        files.writes(timings.map(TimingFiles.summaryPath(forCSV:)), as: "--timings (its summary JSON)")
        files.writes(capture, as: "--capture")
    }

    /// The most `--max-duration` may allow: about eleven days of frames.
    static let maxDurationLimit = 1_000_000.0

    /// `--max-duration` in seconds, checked; the default when not given.
    func durationLimit() throws -> Double {
        guard let maxDuration else { return GestureScript.defaultMaxDuration }
        return try OptionNumber.real(maxDuration, option: "--max-duration", in: 1...HeadlessOutputOptions.maxDurationLimit)
    }

    /// The most frames a run may make within `--max-duration`.
    func frameLimit() throws -> Int { ScriptTimeline.frames(for: try durationLimit()) }

    func validate() throws {
        _ = try validating(durationLimit)
        if replaceFrames && frames == nil { throw ValidationError("--replace-frames goes with --frames DIR") }
    }
}

/// Runs an option's check, its `LabError` becoming a `ValidationError`, so that the usage follows the message.
func validating<T>(_ check: () throws -> T) throws -> T {
    do {
        return try check()
    } catch let error as LabError {
        throw ValidationError(error.description)
    }
}

/// `refreshlab` / `refreshlab window`: the simulator's window, or with `--headless` a short demo without one.
struct WindowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "window",
        abstract: "Open the simulator's window (the default), or with --headless render a demo drag as frames.",
        discussion: """
            In the window the mouse is the finger: drag the list, flick it, pull it down past the header's \
            threshold to refresh. H lists every key. Screenshots (C), timing recordings (R) and videos (V) go to \
            --output-dir. With --headless, a finger drags the list up over --frame-count frames on a simulated \
            60 fps clock, written as PNGs to --frames (default 'frames').
            """
    )

    @OptionGroup var phone: PhoneOptions
    @OptionGroup var appearance: AppearanceOptions
    @OptionGroup var record: RecordOptions
    @OptionGroup var style: StyleOptions
    @OptionGroup var threads: ThreadOptions

    @Option(name: .customLong("output-dir"),
            help: ArgumentHelp("Where screenshots, timing recordings and videos go (default: the current folder).",
                               valueName: "dir"))
    var outputDirectory: String?

    @Flag(help: "Run the demo drag without a window, on a simulated clock, writing frames as PNGs.")
    var headless = false

    @Option(name: .customLong("frame-count"), parsing: .unconditional,
            help: ArgumentHelp("With --headless: how many frames the demo drag lasts (default 60), from 1 to "
                               + "--max-duration × 60.", valueName: "n"))
    var frameCount: String?

    /// `--frame-count`, checked against `--max-duration`.
    func frames() throws -> Int {
        guard let frameCount else { return 60 }
        let limit = try outputs.frameLimit()
        return try OptionNumber.integer(frameCount, option: "--frame-count", in: 1...limit,
                                        allowed: "a whole number from 1 to \(limit) (the limit of "
                                            + "\(JSONText.number(try outputs.durationLimit())) s at 60 frames a "
                                            + "second; raise it with --max-duration SECONDS)")
    }

    @OptionGroup var outputs: HeadlessOutputOptions

    func validate() throws {
        _ = try validating(frames)
        if !headless {
            for (given, name) in [(frameCount != nil, "--frame-count"), (outputs.frames != nil, "--frames"),
                                  (outputs.timings != nil, "--timings"), (outputs.capture != nil, "--capture"),
                                  (outputs.maxDuration != nil, "--max-duration")]
            where given {
                throw ValidationError("\(name) goes with --headless; in the window, C takes screenshots, R records "
                    + "timings and V records a video into --output-dir")
            }
        } else if outputDirectory != nil {
            throw ValidationError("--output-dir is the window's; with --headless, name each output (--frames DIR)")
        }
    }

    func run() throws {
        let phone = try phone.phone()
        let effect = try self.phone.checkedEffect()
        let styles = try style.load()
        if headless {
            let frames = try frames()
            var outputs = self.outputs
            outputs.frames = outputs.frames ?? "frames"
            let drag = DemoDrag().script(frames: frames, frameRate: phone.phone().refreshRate)
            var replay = HeadlessReplay(script: drag, effect: effect, phone: phone.phone(),
                                        animation: self.phone, record: record, outputs: outputs, style: style,
                                        styles: styles, appearance: try appearance.chosen(),
                                        language: try appearance.chosenLanguage())
            replay.threads = try threads.count()
            try replay.run()
            return
        }
        var named = CommandFiles()
        style.declare(in: &named)
        self.phone.declare(in: &named)
        record.declare(in: &named)
        try named.checkApart()
        let files = try OutputFolder(path: outputDirectory ?? ".")
        Termination.install()
        // The phone as the options describe it, built at once; the animation file is read after, so that what it
        // warns of is said.
        let simulation = try Simulation(description: PhoneDescription(
            device: phone.phone(), effect: effect ?? Simulation.defaultEffectName,
            appearance: try appearance.chosen() ?? .light, language: try appearance.chosenLanguage() ?? .english,
            styles: styles))
        simulation.drawingThreads = try threads.count()
        simulation.tuning.file = StyleFiles.tuningFile(extra: style.files, folder: StyleFiles.userFolder())
        try self.phone.prepare(simulation)
        simulation.includesOverlaysInOutputs = record.overlays
        let host = WindowHost(simulation: simulation)
        // Files named on the command line are opened before the window, so a bad path fails at once.
        let events = try record.events.map { try EventLog(simulation: simulation, path: $0) }
        let trace = try record.trace.map { try TraceWriter(path: $0) }
        try host.open()
        let loop = FrameLoop(simulation: simulation, input: host, display: host,
                             recorder: FrameRecorder(budget: host.frameBudget))
        loop.events = events
        loop.trace = trace
        loop.files = files
        simulation.showKeysHint()
        // A display lost in the middle (its X server stopped) still ends with every recording whole.
        LostDisplay.install(display: DisplayName.fromEnvironment()?.x11 ?? "") { try? loop.finish() }
        let styleFiles = style
        loop.reloaders = [try StyleReloader(paths: { styleFiles.paths }, folder: StyleFiles.userFolder(),
                                            wake: host.wake)]
        if !simulation.animationPaths.isEmpty {
            loop.reloaders.append(try AnimationReloader(paths: simulation.animationPaths, wake: host.wake))
        }
        let frames = try loop.run()
        try exitIfSignalled(after: "\(frames) frames")
    }
}

/// `refreshlab devices`: the phones `--device` takes, with their figures (docs/reference.md §6).
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the phones --device takes, with their screen, scale, refresh rate, safe area and cut-out.")

    func run() throws {
        for line in DevicesCommand.lines() { print(line) }
    }

    /// One line per phone model, then the lab's own phone.
    static func lines() -> [String] {
        // Whole numbers as they are; others to three decimals at most (the Pixel's 411.429 dp, 2.625).
        func number(_ x: Double) -> String {
            if x == x.rounded() { return String(Int(x)) }
            var digits = String(Int((x * 1000).rounded()))
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -3))
            while digits.hasSuffix("0") { digits.removeLast() }
            return digits
        }
        return PhoneModel.catalog.map { m in
            let cutout: String
            switch m.cutout {
            case .homeButton: cutout = "home button"
            case .dynamicIsland(let size, let top):
                cutout = "Dynamic Island \(number(size.width))×\(number(size.height)) pt at \(number(top)) pt, home indicator"
            case .punchHole(let diameter, let centreY):
                cutout = "punch-hole \(number(diameter)) dp centred \(number(centreY)) dp down, gesture navigation bar"
            }
            // Android's unit is the dp, iOS's the point.
            let unit = m.platform == .android ? "dp" : "pt"
            let pixels = Phone(model: m)
            return "\(m.id): \(m.name), \(number(m.screenSize.width))×\(number(m.screenSize.height)) \(unit) @\(number(m.scale)) "
                + "(\(pixels.pixelWidth)×\(pixels.pixelHeight) px), "
                + "\(number(m.refreshRate)) Hz, corner radius \(number(m.cornerRadius)) \(unit), safe area top "
                + "\(number(m.statusBarHeight)) bottom \(number(m.bottomSafeArea)) \(unit), \(cutout)"
                + (m.platform == .ios ? "" : " (\(m.platform.rawValue))")
        } + ["default (no --device): the lab's own phone, 375×667 pt @2 at 60 Hz, a plain 20 pt status strip"]
    }
}

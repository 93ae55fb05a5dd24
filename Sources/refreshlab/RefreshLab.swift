import ArgumentParser
import Lab

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command line: with no arguments, the simulator's window; with `--headless`, the same engine writing frames.
@main
struct RefreshLabCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refreshlab",
        abstract: "Design and preview iOS pull-to-refresh effects on a simulated phone.",
        discussion: """
            With no options, opens a window with a phone-sized list: drag it with the mouse, scroll with the \
            wheel. Keys: 1…5 choose the header effect, Space refreshes, H lists every key, Esc or Q quits.
            With --headless, runs the same engine without a window on a simulated 60 fps clock and writes \
            every frame as a PNG.
            """,
        version: "0.1.0",
        subcommands: [SceneCommand.self, RunCommand.self, ReportCommand.self]
    )

    @Flag(help: "Run without a window or display, on a simulated clock, and write frames as PNG files.")
    var headless = false

    /// A string, so that `run --frames DIR` can name a folder: this parser takes --frames after a subcommand too.
    @Option(help: ArgumentHelp("Number of frames to render (with --headless; default 60); with 'run', the folder "
                               + "for the frames' PNGs.", valueName: "n"))
    var frames: String?

    @Option(help: ArgumentHelp("Directory for the frame PNGs, created if missing (with --headless; default 'frames').",
                               valueName: "dir"))
    var out: String?

    @Option(help: ArgumentHelp("The window's pixels per point: 1, 2 (default, as the phone) or 3.", valueName: "s"))
    var scale: String?

    @Option(help: ArgumentHelp("The header effect shown first: sticky (default), dots, ring, news or classic.",
                               valueName: "name"))
    var effect: String?

    @Option(help: ArgumentHelp("Write the header's and footer's state changes here, one JSON line each.",
                               valueName: "file"))
    var events: String?

    func run() throws {
        // Checked here, not in validate(): a subcommand's own --out is also seen by this command's parser.
        if !headless && (frames != nil || out != nil) {
            throw ValidationError("--frames and --out go with --headless")
        }
        let count = try frames.map { text in
            guard let n = Int(text) else { throw ValidationError("--frames takes a number of frames, not '\(text)'") }
            guard n >= 1 else { throw ValidationError("--frames must be at least 1, not \(n)") }
            return n
        }
        if headless && (scale != nil || effect != nil || events != nil) {
            throw ValidationError("--scale, --effect and --events go with the window or with 'run --headless'")
        }
        if headless {
            let run = HeadlessRun(frames: count ?? 60, outputDirectory: out ?? "frames")
            let written = try run.run()
            print("wrote \(written.count) frames to \(run.outputDirectory)/")
            return
        }
        let phone = Phone(scale: try WindowOptions.scale(scale))
        guard Display.isAvailable else {
            throw LabError("no display to open a window on (DISPLAY is not set); "
                + "run 'refreshlab --headless --frames 60 --out frames' to render without one")
        }
        let simulation = Simulation(phone: phone)
        if let effect, !simulation.selectEffect(named: effect) {
            throw ValidationError("--effect: no effect named '\(effect)'; choose one of "
                + simulation.effectNames.joined(separator: ", "))
        }
        try WindowHost(simulation: simulation, eventsPath: events).run()
    }
}

/// The window's options, checked.
enum WindowOptions {
    /// The scales the window offers: a phone's 1×, 2× and 3× screens.
    static let scales = [1, 2, 3]

    /// `--scale`'s value as pixels per point (2 when not given).
    static func scale(_ text: String?) throws -> Double {
        guard let text else { return 2 }
        guard let s = Int(text), scales.contains(s) else {
            throw ValidationError("--scale takes 1, 2 or 3 (pixels per point), not '\(text)'")
        }
        return Double(s)
    }
}

/// Whether a window can be opened at all.
enum Display {
    /// True when an X11 or Wayland display is named, or SDL is told which video driver to use.
    /// Without this check SDL would quietly pick its off-screen driver and show nothing.
    static var isAvailable: Bool {
        ["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"].contains { name in
            guard let value = getenv(name) else { return false }
            return value.pointee != 0
        }
    }
}

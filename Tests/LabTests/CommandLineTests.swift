#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster
import Testing
import TestSupport
@testable import Lab
import Colors
@testable import UserFiles
@testable import Scenes

/// How a run of the `refreshlab` executable ended.
struct CommandOutcome {
    /// The exit status, or 128 + the signal that ended it.
    var status: Int32
    var output: String
    var errors: String
}

/// Whether the tests, and so the `refreshlab` built with them, run under AddressSanitizer: its shadow memory takes
/// terabytes of address space, so a child cannot start under an address-space limit, and none is set then.
/// Starts the built `refreshlab` with the arguments, its standard output and error going to `stdout` and `stderr`
/// in `directory`; the child starts with no signal blocked and the ending signals and SIGPIPE at their defaults,
/// whatever the test runner's are. `environment` adds to or replaces variables of the runner's; `newProcessGroup`
/// starts it in a group of its own (its pid is the group's), as a shell starts a command. Limits go through `sh`,
/// which sets them and then becomes `refreshlab` (same process): `memoryLimit` (bytes of address space) and
/// `fileSizeLimit` (bytes, `ulimit -f`, with SIGXFSZ ignored, so that every write past that size fails as on a full
/// disk).
/// `standardOutput`, when given, is the descriptor the child writes its standard output to instead of the file.
/// `wrapper`, when given, is a command (its program by its full path) that runs `refreshlab` as its last arguments
/// (a tracer).
func spawnRefreshlab(_ arguments: [String], in directory: String, environment: [String: String] = [:],
                     newProcessGroup: Bool = false, memoryLimit: Int? = nil,
                     fileSizeLimit: Int? = nil, standardOutput: Int32? = nil, wrapper: [String] = []) throws -> pid_t {
    let exe = try #require(refreshlabExecutable)
    var command = wrapper + [exe] + arguments
    var limits: [String] = []
    if let memoryLimit, !runsUnderAddressSanitizer { limits.append("ulimit -v \(memoryLimit / 1024)") }
    if let fileSizeLimit { limits.append("trap '' XFSZ; ulimit -f \(fileSizeLimit / 512)") }
    if !limits.isEmpty {
        command = ["/bin/sh", "-c", limits.joined(separator: " && ") + " && exec \"$0\" \"$@\""] + command
    }
    // Arguments as bytes, so that a test can give a file name that is not UTF-8 (see `FileName`).
    var cArgs: [UnsafeMutablePointer<CChar>?] = command.map { FileName.withBytes($0) { strdup($0) } } + [nil]
    defer { for p in cArgs { free(p) } }
    _ = isolatedUserConfiguration
    var variables: [String] = []
    var index = 0
    while let entry = environ[index] {
        let text = String(cString: entry)
        if let equals = text.firstIndex(of: "="), environment[String(text[..<equals])] == nil { variables.append(text) }
        index += 1
    }
    variables += environment.map { $0.key + "=" + $0.value }
    var cEnvironment: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
    defer { for p in cEnvironment { free(p) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let standardOutput {
        posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
    } else {
        posix_spawn_file_actions_addopen(&actions, 1, directory + "/stdout", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }
    posix_spawn_file_actions_addopen(&actions, 2, directory + "/stderr", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t(), defaults = sigset_t()
    sigemptyset(&none)
    sigemptyset(&defaults)
    for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
    if newProcessGroup {
        posix_spawnattr_setpgroup(&attributes, 0)
        flags |= POSIX_SPAWN_SETPGROUP
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    var pid: pid_t = 0
    try #require(posix_spawn(&pid, command[0], &actions, &attributes, &cArgs, &cEnvironment) == 0)
    return pid
}

/// Runs the built `refreshlab` with the arguments, its output kept in `directory`; stopped after `timeout` seconds
/// so that a hanging command fails its test instead of the whole run, and given at most `memoryLimit` bytes of
/// address space so that a command that would exhaust memory fails instead of the machine.
func runRefreshlab(_ arguments: [String], in directory: String, timeout: Double = 60,
                   memoryLimit: Int = 2 << 30, fileSizeLimit: Int? = nil, wrapper: [String] = []) throws -> CommandOutcome {
    let pid = try spawnRefreshlab(arguments, in: directory, memoryLimit: memoryLimit, fileSizeLimit: fileSizeLimit,
                                  wrapper: wrapper)
    var status: Int32 = 0
    var exited = false
    for _ in 0..<Int(timeout * timeLimitScale * 20) {
        if waitpid(pid, &status, WNOHANG) == pid { exited = true; break }
        usleep(50_000)
    }
    if !exited { kill(pid, SIGKILL); _ = waitpid(pid, &status, 0) }
    #expect(exited, "refreshlab \(arguments.joined(separator: " ")) did not end within \(timeout) s")
    let signalled = status & 0x7F
    return CommandOutcome(status: signalled != 0 ? 128 + signalled : (status >> 8) & 0xFF,
                          output: readTextFile(directory + "/stdout") ?? "",
                          errors: readTextFile(directory + "/stderr") ?? "")
}

/// `refreshlab scene … --reference`: the exit status follows the tolerance, and `--diff` shows where.
@Suite("Scene command against a reference")
struct SceneReferenceCommandTests {
    /// A small scene: a white card with a blue square on it, all opaque, so a PNG of it reads back exactly.
    static let scene = """
        {"name":"card","width":80,"height":60,"background":"#FFFFFFFF","items":[
          {"path":"M10 10 L40 10 L40 40 L10 40 Z","fill":"#2060E0FF"}]}
        """

    /// The scene's file and an exact reference PNG of it, written in a fresh directory.
    func prepare(_ name: String) throws -> (dir: String, scene: String, reference: String) {
        let dir = temporaryDirectory(name)
        let scenePath = dir + "/card.json", referencePath = dir + "/card.png"
        try #require(writeTextFile(scenePath, SceneReferenceCommandTests.scene))
        let scene = try Scene.load(path: scenePath)
        let canvas = scene.makeCanvas()
        scene.render(into: canvas, rasterizer: Rasterizer())
        try PNG.write(canvas, to: referencePath)
        return (dir, scenePath, referencePath)
    }

    @Test("a reference equal to the rendering passes",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"))
    func equalReference() throws {
        let (dir, scene, reference) = try prepare("scene-equal")
        let outcome = try runRefreshlab(["scene", scene, "--reference", reference], in: dir)
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.errors.contains("mean |Δ| 0.000, 0.000 % of pixels off by more than 32, max 0"))
    }

    @Test("a block of wrong pixels fails with the figures against the tolerance, and --diff marks the block",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"))
    func wrongBlock() throws {
        let (dir, scene, reference) = try prepare("scene-wrong")
        // A 10×10 black block on the white card, away from the square: 100 of 4800 pixels, about 2 %.
        let wrong = try PNG.read(from: reference)
        for y in 45..<55 { for x in 60..<70 { wrong[x, y] = Color.black.premultipliedPixel } }
        let wrongPath = dir + "/wrong.png", diffPath = dir + "/diff.png"
        try PNG.write(wrong, to: wrongPath)

        let outcome = try runRefreshlab(["scene", scene, "--reference", wrongPath, "--diff", diffPath], in: dir)
        #expect(outcome.status == 1)
        let message = outcome.errors.split(separator: "\n").last.map(String.init) ?? ""
        #expect(message.hasPrefix("Error: scene 'card' (\(scene)) differs from '\(wrongPath)' more than allowed: "))
        #expect(message.contains("mean |Δ| 3.984 (allowed: 0.6)"))
        #expect(message.contains("2.083 % of pixels off by more than 32 (allowed: 0.2 %)"))
        #expect(message.hasSuffix("see \(diffPath) for where"))

        let picture = try PNG.read(from: diffPath)
        #expect(picture.width == 80 && picture.height == 60)
        #expect(picture[65, 50] == 0xFFFF_0000)
        // Outside the block: the card faded to white, the square to a light grey.
        #expect(picture[5, 5] == 0xFFFF_FFFF)
        let square = picture[25, 25]
        #expect(square >> 16 & 0xFF == square & 0xFF && square & 0xFF >= 170 && square & 0xFF < 255)

        // The same difference passes a tolerance that allows it.
        let lenient = try runRefreshlab(["scene", scene, "--reference", wrongPath,
                                         "--max-mean", "4", "--max-percent", "2.1"], in: dir)
        #expect(lenient.status == 0, "\(lenient.errors)")
    }

    @Test("a bad bound is an error naming the option and the value",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"))
    func badBound() throws {
        let (dir, scene, reference) = try prepare("scene-bound")
        for (option, value) in [("--max-mean", "-1"), ("--max-percent", "nan"), ("--max-mean", "lots")] {
            let outcome = try runRefreshlab(["scene", scene, "--reference", reference, option, value], in: dir)
            #expect(outcome.status != 0)
            #expect(outcome.errors.contains("Error: \(option): '\(value)'"),
                    "\(outcome.errors)")
        }
        let stray = try runRefreshlab(["scene", scene, "--diff", dir + "/d.png"], in: dir)
        #expect(stray.status != 0 && stray.errors.contains("--diff goes with --reference"), "\(stray.errors)")
    }
}

/// `refreshlab report`: errors name the first real fault, the input before the output.
@Suite("Report command errors")
struct ReportCommandTests {
    @Test("a missing or unreadable CSV is named before a missing --out",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"))
    func inputFirst() throws {
        let dir = temporaryDirectory("report-input")
        let missing = dir + "/none.csv"
        for arguments in [["report", missing], ["report", missing, "--out", dir + "/chart.png"], ["report", dir]] {
            let outcome = try runRefreshlab(arguments, in: dir)
            let named = arguments[1]
            #expect(outcome.status == 1)
            #expect(outcome.errors.contains(named + ": ") && outcome.errors.contains("timings CSV"), "\(outcome.errors)")
            #expect(!outcome.errors.contains("--out"), "\(outcome.errors)")
        }
        #expect(!fileExists(dir + "/chart.png"))
    }

    @Test("with a good CSV, a missing --out is named, and with one the chart is written",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"))
    func outputSecond() throws {
        let dir = temporaryDirectory("report-output")
        let csv = dir + "/t.csv", chart = dir + "/chart.png"
        try #require(writeTextFile(csv, TimingFixtures.csv))
        let noOut = try runRefreshlab(["report", csv], in: dir)
        #expect(noOut.status == 1)
        #expect(noOut.errors.contains("give the chart's path with --out CHART.png"), "\(noOut.errors)")
        let written = try runRefreshlab(["report", csv, "--out", chart], in: dir)
        #expect(written.status == 0, "\(written.errors)")
        #expect(written.output.hasPrefix("wrote \(chart)"))
        #expect(try PNG.read(from: chart).width > 0)
    }
}

/// The command line's shape: one meaning per option, the first real fault named first, no hang without a display.
@Suite("Command line")
struct CommandLineShapeTests {
    static let enabled = refreshlabExecutable != nil

    @Test("The short demo takes --frame-count, --frames, --effect and --scale", .enabled(if: enabled))
    func demo() throws {
        let dir = temporaryDirectory("demo")
        let outcome = try runRefreshlab(["--headless", "--frame-count", "3", "--frames", dir + "/f", "--effect", "ring",
                                         "--scale", "1"], in: dir)
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("the ring header: 3 frames"))
        let last = try PNG.read(from: dir + "/f/frame-0002.png")
        #expect(last.width == 375 && last.height == 667)
        #expect(access(dir + "/f/frame-0003.png", F_OK) != 0)
    }

    @Test("'run' replays without --headless, and accepts it", .enabled(if: enabled),
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"))
    func runNeedsNoHeadless() throws {
        let dir = temporaryDirectory("run-plain")
        for extra in [[], ["--headless"]] {
            let outcome = try runRefreshlab(["run", "--script", "classic", "--events", dir + "/e.jsonl"] + extra, in: dir)
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(outcome.output.contains("header states: pulling"))
        }
    }

    @Test("Every option of the window and of run is in their --help", .enabled(if: enabled))
    func helpListsEverything() throws {
        let dir = temporaryDirectory("help")
        let root = try runRefreshlab(["--help"], in: dir).output
        let window = try runRefreshlab(["window", "--help"], in: dir).output
        let run = try runRefreshlab(["run", "--help"], in: dir).output
        for option in ["--effect", "--scale", "--events", "--trace", "--overlays", "--output-dir", "--headless",
                       "--frame-count", "--frames", "--timings", "--capture"] {
            #expect(root.contains(option) && window.contains(option), "\(option)")
        }
        for option in ["--script", "--effect", "--scale", "--events", "--trace", "--overlays", "--frames", "--timings",
                       "--capture", "--headless"] {
            #expect(run.contains(option), "\(option)")
        }
    }

    @Test("Errors name the first real fault: a missing script before an unwritable output", .enabled(if: enabled))
    func firstFault() throws {
        let dir = temporaryDirectory("faults")
        let missing = try runRefreshlab(["run", "--script", dir + "/none.json", "--trace", "/no/such/dir/t.jsonl"],
                                        in: dir)
        #expect(missing.status != 0 && missing.errors.contains("none.json") && !missing.errors.contains("t.jsonl"))
        let window = try runRefreshlab(["--frames", dir + "/f"], in: dir)
        #expect(window.status != 0 && window.errors.contains("--frames goes with --headless"))
        let scale = try runRefreshlab(["--scale", "4"], in: dir)
        #expect(scale.status != 0 && scale.errors.contains("--scale: '4' is too large; give 1, 2 or 3"))
    }

    @Test("An output folder that cannot be written is said at start, before any window", .enabled(if: enabled))
    func unwritableOutputFolder() throws {
        let dir = temporaryDirectory("outdir")
        let file = dir + "/a-file"
        try #require(writeTextFile(file, ""))
        let outcome = try runRefreshlab(["--output-dir", file + "/shots"], in: dir, timeout: 10)
        #expect(outcome.status != 0)
        #expect(outcome.errors.contains(file) && outcome.errors.contains("--output-dir"), "\(outcome.errors)")
    }
}

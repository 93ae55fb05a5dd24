import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Colors
import Lab
import Motion
import Refresh
import Scrolling
import UserFiles

/// `refreshlab audit`: every header on every phone, bar and appearance through every awkward moment, each frame
/// checked (docs/audit.md); exit status 1 when a case fails.
struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Run every header through awkward moments on every phone and bar, checking every frame.",
        discussion: """
            Each case is a moment (a built-in gesture script: a pull let go short or at the trigger, a refresh \
            begun twice or ended during a drag, …) on a configuration (a header, a phone, a bar, an appearance); \
            every frame is checked for a jump, a header left hidden while refreshing, an inset added twice or not \
            taken back, footer and header insets that fight and a change of state the header cannot make, and \
            the end for the list back at rest. One case of each configuration (--draw one; all, or none) also \
            draws its frames: each must step and draw within the platform's frame budget (scaled on a machine \
            slower than the reference one) and draw nothing of the header past the screen's sides. \
            Without options it runs every header, phone, bar and appearance; --effect, --device, --bar, \
            --appearance and --moment (each repeatable) and --platform narrow it; --style and --animation apply \
            to every case. Prints a line per failing case and a total; exits 1 when a case fails. --out DIR \
            writes report.json, report.html (a table of configurations and moments, and for each failing case \
            a chart of its frames, the frames around the failure for the first 12, and the command that \
            replays it) and the failing cases' scripts. --shard K/N \
            runs the K-th of N even parts of the same cases on any machine; --merge DIR… --out DIR makes one \
            report of the shards' folders.
            """)

    @Option(help: ArgumentHelp("A header to audit (repeatable; default: every one).", valueName: "name"))
    var effect: [String] = []

    @Option(help: ArgumentHelp("A phone to audit on (repeatable; default: every phone of the platforms audited).",
                               valueName: "name"))
    var device: [String] = []

    @Option(help: ArgumentHelp("Only the phones of this platform: ios or android.", valueName: "name"))
    var platform: String?

    @Option(help: ArgumentHelp("A navigation bar (repeatable; default: every one).", valueName: "style"))
    var bar: [String] = []

    @Option(help: ArgumentHelp("light or dark (repeatable; default: both).", valueName: "name"))
    var appearance: [String] = []

    @Option(help: ArgumentHelp("A moment (repeatable; default: every one): "
                               + AuditMoment.all.map(\.name).joined(separator: ", ") + ".", valueName: "name"))
    var moment: [String] = []

    @Option(help: ArgumentHelp("Give every header that pushes the list this second floor (a picture, a GIF, a Lottie "
                               + "file, or 'drawn') and run the floor's moments on it too.", valueName: "file|drawn"))
    var floor: String?

    @OptionGroup var style: StyleOptions

    @Option(help: ArgumentHelp("An animation for the gif header (a GIF or a folder of frames) or the lottie header "
                               + "(a .json file).", valueName: "file|dir"))
    var animation: String?

    @Option(help: ArgumentHelp("Run the K-th of N even parts of the cases (1 ≤ K ≤ N).", valueName: "K/N"))
    var shard: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("How many cases run at once (default: the machine's cores).", valueName: "n"))
    var threads: String?

    @Option(help: ArgumentHelp("Which cases draw their frames, judged against the frame budget and the screen's "
                               + "sides: one a configuration (\(Audit.drawnMoment)), all or none.", valueName: "which"))
    var draw = "one"

    @Option(help: ArgumentHelp("A folder for report.json, report.html and the failing cases' scripts.",
                               valueName: "dir"))
    var out: String?

    /// How many failing cases' frames the page shows: enough to see what goes wrong, few enough for a page.
    static let strips = 12

    @Option(parsing: .upToNextOption,
            help: ArgumentHelp("Instead of running cases, make one report (with --out) of the --out folders of an "
                               + "audit's shards.", valueName: "dir"))
    var merge: [String] = []

    func run() throws {
        if !merge.isEmpty { return try mergeShards() }
        var named = CommandFiles()
        style.declare(in: &named)
        named.reads(animation, as: "--animation")
        try named.checkApart()
        let effects = try effect.isEmpty ? RefreshEffects.builtInNames : effect.map { name in
            guard Simulation.effectNames.contains(name) else {
                throw LabError("--effect: no header '\(name)'; expected one of "
                    + Simulation.effectNames.joined(separator: ", "))
            }
            return name
        }
        let platforms = try platform.map { name -> [Platform] in
            do throws(LabError) { return [try Platform.named(name)] } catch { throw LabError("--platform: " + error.description) }
        } ?? Platform.allCases
        let devices: [PhoneModel?] = try device.isEmpty
            ? PhoneModel.catalog.filter { platforms.contains($0.platform) }
            : device.map { name in
                do throws(LabError) {
                    return try PhoneModel.named(anyPlatform: name)
                } catch {
                    throw LabError("--device: " + error.description)
                }
            }
        let bars = try bar.isEmpty ? BarStyle.allCases : bar.map { name in
            do throws(LabError) { return try BarStyle.named(name) } catch { throw LabError("--bar: " + error.description) }
        }
        let appearances = try appearance.isEmpty ? Appearance.allCases : appearance.map { name in
            guard let a = Appearance(rawValue: name) else { throw LabError("--appearance: '\(name)'; expected light or dark") }
            return a
        }
        // A file's path from the root, as the report's replay commands give it.
        let floor = self.floor.map { FloorSource(option: $0 == FloorSource.drawnName ? $0 : absolute($0)) }
        // Read once here, so that a floor file that cannot be read is one error, not one per case.
        try floor?.check()
        let known = AuditMoment.all + (floor == nil ? [] : AuditMoment.floorMoments)
        let moments = try moment.isEmpty ? known : moment.map { name in
            guard let m = known.first(where: { $0.name == name }) else {
                let floorOnly = AuditMoment.floorMoments.contains { $0.name == name }
                throw LabError("--moment: " + (floorOnly ? "'\(name)' is a moment of the second floor: add --floor"
                    : "no moment '\(name)'; expected one of " + known.map(\.name).joined(separator: ", ")))
            }
            return m
        }
        guard let drawing = Audit.Drawing(rawValue: draw) else {
            throw LabError("--draw: '\(draw)'; expected one, all or none")
        }
        var cases = Audit.cases(Audit.configurations(effects: effects, devices: devices, bars: bars,
                                                     appearances: appearances, floor: floor), moments: moments)
        // Chosen before the shards are: the same cases are drawn however the matrix is spread.
        let drawn = Audit.drawn(cases, drawing)
        if let shard {
            let parts = shard.split(separator: "/").compactMap { Int($0) }
            guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else {
                throw LabError("--shard: '\(shard)'; give K/N with 1 ≤ K ≤ N, such as 2/4")
            }
            cases = Audit.shard(cases, part: parts[0], of: parts[1])
        }
        let threads = try self.threads.map { try OptionNumber.integer($0, option: "--threads", in: 1...256,
                                                                      allowed: "1 to 256") } ?? Audit.cores
        var animations: [String: String] = [:]
        if let animation { animations[animation.hasSuffix(".json") ? "lottie" : "gif"] = animation }
        let styles = try style.load()
        let start = MonotonicClock.seconds()
        let budget = drawn.isDisjoint(with: cases) ? nil : try FrameBudget.measure()
        var results = try Audit.run(cases, styles: styles, animations: animations, threads: threads, drawn: drawn,
                                    budget: budget)
        if out != nil {
            // The page shows the frames around the first failures (drawn again, a few each).
            for i in results.indices.filter({ !results[$0].passed }).prefix(AuditCommand.strips) {
                results[i].strip = try Audit.strip(of: results[i], styles: styles, animations: animations)
            }
        }
        // The replay commands run from the report's folder: the files they name are given whole.
        var options: [String] = []
        for file in style.files { options += ["--style", absolute(file)] }
        if let animation { options += ["--animation", absolute(animation)] }
        let report = AuditReport(results: results, seconds: MonotonicClock.seconds() - start, threads: threads,
                                 options: options, budget: budget)
        try finish(report)
    }

    /// One report of the shards' folders, written to `--out`.
    private func mergeShards() throws {
        guard let out else { throw LabError("--merge writes one report: give its folder with --out DIR") }
        if merge.contains(out) { throw LabError("--out \(out) is one of the --merge folders; give another") }
        try finish(AuditReport.merged(try merge.map { try AuditReport.read(folder: $0) }))
    }

    /// Prints the failing cases and the total, writes the report when asked, and exits 1 when a case failed.
    private func finish(_ report: AuditReport) throws {
        for failure in report.failed { print(AuditReport.line(failure)) }
        if let out { try report.write(to: out) }
        if let line = report.budgetLine { print(line) }
        print(report.summary)
        if !report.failed.isEmpty { throw ExitCode(1) }
    }

    /// `path` from the root: as given when it is, else under the current folder.
    private func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        return String(cString: cwd) + "/" + path
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Motion
import Raster
import Testing
import TestSupport
@testable import Lab
@testable import Recording
@testable import UserFiles

/// A hand on the window at random, as the frame loop gets it from the window, a frame at a time on a simulated
/// clock (mostly 1/60 s, at times a late frame; a still loop sleeps to its next change), up to three events a frame:
/// every key at any moment — recordings, screenshots, the help, the tuning panel and its arrows, pause and single
/// steps, slow motion, a phone, platform or bar change, Esc and Q —, drags, taps and the wheel anywhere (beside the
/// phone and far off the screen), resizes (the room beside the phone, from none to far past the side area's
/// widest) and the style file saved valid or broken while it runs.
final class RandomHand: FrameInput {
    let clock: SimulatedClock
    private var random: SeededRandom
    private let styleFile: String
    /// Numeric parameters of every style section with their ranges, for valid saves.
    private let parameters: [(section: String, key: String, range: ClosedRange<Double>)]
    /// Turns left before the input ends.
    var turnsLeft: Int
    /// The last actions, for a failure's message.
    private(set) var recent: [String] = []
    private var turn = 0
    /// The finger while it is down: where it is, its move a turn, turns left.
    private var finger: (at: Point, step: Point, left: Int, phone: Int)?

    init(seed: UInt64, turns: Int, styleFile: String,
         parameters: [(section: String, key: String, range: ClosedRange<Double>)]) {
        clock = SimulatedClock()
        random = SeededRandom(seed: seed)
        turnsLeft = turns
        self.styleFile = styleFile
        self.parameters = parameters
    }

    var now: Double { clock.now }
    var presentsEveryFrame: Bool { false }

    func nextFrame(for simulation: Simulation, idleUntil: Double?) -> FrameInputResult {
        guard turnsLeft > 0 else { return .end }
        turnsLeft -= 1
        turn += 1
        if let deadline = idleUntil {
            clock.advance(by: deadline.isFinite ? Swift.min(Swift.max(deadline - clock.now, 0), 2) : 0.5)
        } else {
            // A frame of the display, or a late one, as a loaded machine presents.
            clock.advance(by: RandomHand.frameTimes[random.int(in: 0...(RandomHand.frameTimes.count - 1))])
        }
        // Several events may come in one frame.
        var changed = false
        for _ in 0..<random.int(in: 1...3) where act(on: simulation) { changed = true }
        return .frame(changed: changed, waited: idleUntil != nil)
    }

    /// How long a turn takes while something moves, in seconds: mostly a 60 Hz frame, at times a late one.
    static let frameTimes = [1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 20, 0.2, 0.7]

    /// Every key the window knows, Shift with the arrows included.
    static let commands: [Command] = Command.keyBindings.map(\.command)
        + [.tuningNudge(by: -10), .tuningNudge(by: 10), .selectEffect(index: 10)]

    /// The keys that start and stop recordings, change the phone's size, open what takes the keys (the help, the
    /// panel) or a second phone, or stop time.
    static let pivotalCommands: [Command] = [
        .toggleVideoRecording, .toggleRecording, .screenshot, .nextDevice, .togglePlatform, .nextBarStyle,
        .toggleTuning, .toggleHelp, .togglePause, .stepFrame, .toggleSlowAnimations, .escape, .toggleOverlaysInOutputs,
        .toggleSecondPhone,
    ]

    /// The rooms beside the phone a resize gives, in points: none (a window down to 1×1 has none), just under and
    /// at the side area's narrowest, its widest and far past it.
    static let rooms: [Double] = [0, 1, 120, 279.9, 280, 333, 400, 401, 5000, 1e6]

    private func note(_ action: String) {
        if recent.count == 12 { recent.removeFirst() }
        recent.append("turn \(turn): \(action)")
    }

    /// A point anywhere: mostly on the screen, else beside it (the side area) or far off.
    /// One of the phones shown, now and then one past them (a phone closed while the finger is on it).
    private func anyPhone(_ simulation: Simulation) -> Int {
        random.int(in: 0...simulation.phones.count)
    }

    private func anyPoint(_ simulation: Simulation) -> Point {
        let screen = simulation.phone.screenSize
        switch random.next() % 10 {
        case 0: return Point(random.double(in: -1e5...1e5), random.double(in: -1e5...1e5))
        case 1: return Point(random.double(in: screen.width...(screen.width + 500)), random.double(in: 0...screen.height))
        default: return Point(random.double(in: 0...screen.width), random.double(in: 0...screen.height))
        }
    }

    /// This turn's input; true when it may have changed what is shown.
    private func act(on simulation: Simulation) -> Bool {
        // A finger that is down moves on (or lifts) half the time; keys and the rest come meanwhile.
        if var down = finger, random.next() % 2 == 0 {
            down.at = down.at + down.step
            down.left -= 1
            if down.left > 0 {
                simulation.handle(.touchMove(down.at), onPhone: down.phone)
                finger = down
            } else {
                simulation.handle(.touchUp(down.at), onPhone: down.phone)
                finger = nil
            }
            return true
        }
        switch random.next() % 40 {
        case 20..<40:
            // Two times in three one of the keys that start, stop or change what the others act on.
            let keys = random.next() % 3 == 0 ? RandomHand.commands : RandomHand.pivotalCommands
            let command = keys[random.int(in: 0...(keys.count - 1))]
            note("key \(command)")
            simulation.perform(command)
        case 0..<4 where finger == nil:
            let start = anyPoint(simulation)
            let step = Point(random.double(in: -8...8), random.double(in: -40...40))
            let phone = anyPhone(simulation)
            finger = (start, step, random.int(in: 1...20), phone)
            note("drag on phone \(phone) from \(start) by \(step) a turn")
            simulation.handle(.touchDown(start), onPhone: phone)
        case 4 where finger == nil:
            let at = anyPoint(simulation), phone = anyPhone(simulation)
            note("tap at \(at) on phone \(phone)")
            simulation.handle(.touchDown(at), onPhone: phone)
            simulation.handle(.touchUp(at), onPhone: phone)
        case 5..<7:
            let delta = Point(random.double(in: -80...80), random.double(in: -400...400))
            let at: Point? = random.next() % 4 == 0 ? nil : anyPoint(simulation)
            let phone = anyPhone(simulation)
            note("wheel by \(delta) at \(at.map { "\($0)" } ?? "nowhere") on phone \(phone)")
            simulation.handle(.wheel(delta, at: at), onPhone: phone)
        case 7..<9:
            let room = RandomHand.rooms[random.int(in: 0...(RandomHand.rooms.count - 1))]
            note("resize: \(room) pt beside the phone")
            simulation.sideRoom = room
        case 9..<11:
            simulation.shiftIsDown.toggle()
            return false
        case 11..<13:
            saveStyle()
        default:
            return false
        }
        return true
    }

    /// Writes the style file as an editor would (in place, or a temporary renamed over it): valid values anywhere in
    /// their ranges, or a broken file.
    private func saveStyle() {
        let text: String
        if random.next() % 2 == 0, !parameters.isEmpty {
            var sections: [String: [String]] = [:]
            for _ in 0..<random.int(in: 1...4) {
                let p = parameters[random.int(in: 0...(parameters.count - 1))]
                let value = [p.range.lowerBound, p.range.upperBound, random.double(in: p.range)][random.int(in: 0...2)]
                sections[p.section, default: []].append("\"\(p.key)\": \(value)")
            }
            text = "{" + sections.map { "\"\($0.key)\": {" + $0.value.joined(separator: ", ") + "}" }
                .joined(separator: ", ") + "}"
        } else {
            text = ["", "{\"ring\": ", "{\"ring\": {\"dragDistance\": \"far\"}}", "{\"physics\": {\"nope\": 1}}",
                    "\u{1}\u{FFFD}", "[1, 2", "{\"ring\": {\"dragDistance\": 1e309}}"][random.int(in: 0...6)]
        }
        let inPlace = random.next() % 2 == 0
        note("style saved \(inPlace ? "in place" : "by a rename"): \(text)")
        let path = inPlace ? styleFile : styleFile + ".saving"
        guard let file = fopen(path, "w") else { return }
        fputs(text, file)
        fclose(file)
        if !inPlace { rename(path, styleFile) }
    }
}

@Suite("Random hands on the window", .serialized)
struct RandomHandTests {
    /// Every numeric parameter of the physics and of each effect, with its range, from the schemas in Resources.
    static func numericParameters() throws -> [(section: String, key: String, range: ClosedRange<Double>)] {
        let folder = try #require(ResourceLocator.directory)
        var parameters: [(section: String, key: String, range: ClosedRange<Double>)] = []
        for section in StyleFiles.catalog.sections.map(\.name) {
            let bytes = try GestureScript.readFile(folder + "/" + StyleFiles.schemaResource(for: section))
            guard case .object(let fields) = try JSONReader.parse(bytes),
                  case .array(let list)? = fields.first(where: { $0.key == "parameters" })?.value else { continue }
            for case .object(let parameter) in list {
                func field(_ name: String) -> JSONValue? { parameter.first { $0.key == name }?.value }
                guard case .string("number")? = field("kind"), case .string(let key)? = field("key"),
                      case .array(let range)? = field("range"), range.count == 2,
                      case .number(let low) = range[0], case .number(let high) = range[1], low <= high else { continue }
                parameters.append((section, key, low...high))
            }
        }
        return parameters
    }

    /// Runs `turns` turns of a random hand from `seed` through frame loops (a new one after each quit, as the
    /// window started again), checking every frame and every output.
    func run(seed: UInt64, turns: Int) throws {
        let folder = temporaryDirectory("random-hand-\(seed)")
        let styleFile = folder + "/style.json"
        #expect(writeTextFile(styleFile, "{}"))
        let output = folder + "/out"
        let hand = RandomHand(seed: seed, turns: turns, styleFile: styleFile, parameters: try Self.numericParameters())
        let simulation = Simulation(clock: hand.clock)
        simulation.tuning.file = styleFile
        let reloader = try StyleReloader(paths: { [styleFile] }, folder: nil, wake: {})
        defer { reloader.stop() }
        var saved: [String] = []
        var failures: [String] = []
        var problems: [String] = []
        func context() -> String { "seed \(seed), \(simulation.phone.model?.name ?? "the lab's phone"), after \(hand.recent)" }
        while hand.turnsLeft > 0 {
            let loop = FrameLoop(simulation: simulation, input: hand, recorder: FrameRecorder(phaseClock: .monotonic))
            loop.files = try OutputFolder(path: output)
            loop.reloaders = [reloader]
            loop.report = { line in if line.hasPrefix("saved ") { saved.append(String(line.dropFirst(6))) } }
            loop.reportError = { failures.append($0) }
            loop.afterFrame = { _ in
                for shown in simulation.phones {
                    let canvas = shown.canvas, phone = shown.device
                    if canvas.width != phone.pixelWidth || canvas.height != phone.pixelHeight {
                        problems.append("a \(canvas.width)×\(canvas.height) canvas for a \(phone.pixelWidth)×"
                            + "\(phone.pixelHeight) phone: \(context())")
                    }
                    let offset = shown.scrollView.contentOffset
                    if !offset.x.isFinite || !offset.y.isFinite { problems.append("offset \(offset): \(context())") }
                }
                if let side = simulation.sideCanvas, side.height != simulation.canvas.height {
                    problems.append("a side area \(side.height) px tall beside \(simulation.canvas.height): \(context())")
                }
            }
            try loop.run()
        }
        #expect(problems.isEmpty, "\(problems.prefix(3))")
        #expect(failures.isEmpty, "\(failures.prefix(3)); \(context())")
        // Every output whole: screenshots decode, videos hold frames, timings come with their summary; no
        // temporary is left.
        for path in saved {
            if path.hasSuffix(".png") {
                #expect(throws: Never.self, "\(path)") { _ = try PNG.read(from: path) }
            } else if path.hasSuffix(".mp4") {
                let frames = try decodedFrameCount(path)
                #expect((frames ?? 0) > 0, "\(path) holds \(frames ?? 0) frames")
            } else if path.hasSuffix(".csv") {
                #expect(access(TimingFiles.summaryPath(forCSV: path), R_OK) == 0, "\(path) has no summary")
            }
        }
        let entries = folderEntries(output) ?? []
        #expect(entries.filter { $0.hasSuffix(".tmp") }.isEmpty, "\(entries)")
        #expect(entries.count == saved.count + saved.filter { $0.hasSuffix(".csv") }.count,
                "files \(entries.sorted()) for saved \(saved)")
        print("random hand, seed \(seed): \(turns) turns, \(saved.count) files saved, ends on "
            + "\(simulation.phone.model?.name ?? "the lab's phone")")
    }

    @Test("Any key at any moment, drags, the wheel, resizes and style saves: no trap, every frame the phone's size, every output whole",
          .enabled(if: ffmpegTools != nil, "ffmpeg and ffprobe are installed (V records videos)"))
    func oneSeed() throws {
        try run(seed: 34, turns: 60)
    }

    @Test("The same over many seeds",
          .enabled(if: longTestsEnabled && ffmpegTools != nil, "a long test: REFRESHLAB_LONG_TESTS=1 runs it, with ffmpeg"))
    func manySeeds() throws {
        for seed in UInt64(1)...3 { try run(seed: seed, turns: 100) }
    }
}

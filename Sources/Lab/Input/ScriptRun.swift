import Geometry
import Motion
import Refresh
import UserFiles
import Recording

/// A gesture script laid out on frames: what happens at each frame of the simulated clock.
///
/// Frame `f` is at `f / rate` s, `rate` the phone's refresh rate (60, or 120 on ProMotion phones). Steps without a
/// duration (down, up, key, refresh, a move or a wheel without one) happen at the current frame; a move or wheel
/// lasting `d` seconds takes the next `round(d · rate)` frames (at least one), one sample each; a wait moves the
/// current frame on by `round(d · rate)`. The run ends with the
/// frame the last step leaves it at, so `frameCount` is that frame plus one.
///
/// The actions are made one at a time as a replay reaches them (the timeline is a `Sequence`), so memory stays
/// that of the steps however long they last: an hour's move is one step, not 216,000 samples.
public struct ScriptTimeline: Sequence, Sendable {
    /// Something that happens at a frame, before the frame's step.
    public enum Action: Equatable, Sendable {
        case input(InputEvent)
        case command(Command)
        case endRefresh(RefreshResult)
    }

    public let steps: [GestureScript.Step]
    public let frameCount: Int
    /// Frames per second of the simulated clock.
    public let frameRate: Double

    /// The number of frames a duration takes on a simulated clock of `frameRate` (0 for a duration that is not a
    /// positive number; at most 2^52, where frame numbers are still exact in a Double).
    public static func frames(for seconds: Double, frameRate: Double = simulatedFrameRate) -> Int {
        let frames = (seconds * frameRate).rounded()
        guard frames > 0 else { return 0 }
        return Int(Swift.min(frames, 0x1p52))
    }

    /// How long the script lasts on the simulated clock, in seconds.
    public var duration: Double { Double(frameCount - 1) / frameRate }

    public init(_ script: GestureScript, frameRate: Double = simulatedFrameRate) {
        steps = script.steps
        self.frameRate = frameRate
        var frame = 0
        for step in script.steps {
            switch step {
            case .move(_, let duration, _), .wheel(_, let duration), .wait(let duration):
                frame = Swift.min(frame + ScriptTimeline.frames(for: duration, frameRate: frameRate), 1 << 52)
            default:
                break
            }
        }
        frameCount = frame + 1
    }

    public func makeIterator() -> Cursor { Cursor(steps: steps, frameRate: frameRate) }

    /// Makes the timeline's actions in order, each with its frame (frames never decrease).
    public struct Cursor: IteratorProtocol, Sendable {
        let steps: [GestureScript.Step]
        let frameRate: Double
        private var stepIndex = 0
        /// The frame the current step starts at.
        private var frame = 0
        /// The sample of a move or wheel under way (1 … its frame count), or 0 before the step starts.
        private var sample = 0
        private var finger = Point(0, 0)
        /// The point a move under way started from.
        private var from = Point(0, 0)
        /// A second action of the same step (the jump before an `up` to a point).
        private var pending: (frame: Int, action: Action)?

        init(steps: [GestureScript.Step], frameRate: Double) {
            self.steps = steps
            self.frameRate = frameRate
        }

        public mutating func next() -> (frame: Int, action: Action)? {
            if let queued = pending {
                pending = nil
                return queued
            }
            while stepIndex < steps.count {
                let step = steps[stepIndex]
                switch step {
                case .down(let p):
                    finger = p
                    return finish((frame, .input(.touchDown(p))))
                case .move(let to, let duration, let easing):
                    let n = ScriptTimeline.frames(for: duration, frameRate: frameRate)
                    if n == 0 {
                        finger = to
                        return finish((frame, .input(.touchMove(to))))
                    }
                    if sample == 0 { from = finger }
                    sample += 1
                    let k = sample
                    let progress = k == n ? 1 : easing.timingFunction.value(at: Double(k) / Double(n))
                    let p = Point(from.x + (to.x - from.x) * progress, from.y + (to.y - from.y) * progress)
                    guard k == n else { return (frame + k, .input(.touchMove(p))) }
                    finger = to
                    return finish((frame + n, .input(.touchMove(p))), frames: n)
                case .up(let p):
                    if let p {
                        finger = p
                        pending = (frame, .input(.touchUp(p)))
                        return finish((frame, .input(.touchMove(p))))
                    }
                    return finish((frame, .input(.touchUp(finger))))
                case .wait(let seconds):
                    frame += ScriptTimeline.frames(for: seconds, frameRate: frameRate)
                    stepIndex += 1
                case .wheel(let delta, let duration):
                    let n = ScriptTimeline.frames(for: duration, frameRate: frameRate)
                    if n == 0 { return finish((frame, .input(.wheel(delta)))) }
                    sample += 1
                    let part = (frame + sample, Action.input(.wheel(Point(delta.x / Double(n), delta.y / Double(n)))))
                    return sample == n ? finish(part, frames: n) : part
                case .key(_, let command):
                    return finish((frame, .command(command)))
                case .beginRefresh:
                    return finish((frame, .command(.beginRefresh)))
                case .endRefresh(let result):
                    return finish((frame, .endRefresh(result)))
                }
            }
            return nil
        }

        /// Moves on to the next step, `frames` later, and returns the step's last action.
        private mutating func finish(_ action: (frame: Int, action: Action), frames: Int = 0)
            -> (frame: Int, action: Action) {
            stepIndex += 1
            sample = 0
            frame += frames
            return action
        }
    }
}

/// Replays a gesture script on a simulation driven by a simulated clock: the input of a headless frame loop.
///
/// Frame 0 is at time 0; each later frame first moves the clock on by one frame of the phone's refresh rate (1/60
/// or 1/120 s), then applies the frame's actions.
/// Every frame is presented, so a run writes exactly `frameCount` frames whatever moves.
public final class ScriptReplay: FrameInput {
    public let script: GestureScript
    public let timeline: ScriptTimeline
    public let clock: SimulatedClock
    public let simulation: Simulation
    /// The frame the next `nextFrame` call makes; `frameCount` once the replay is over.
    public private(set) var frame = 0
    /// True once a `Q` or `Escape` key in the script asked to quit: the replay stops after that frame.
    private(set) var quitRequested = false
    private var actions: ScriptTimeline.Cursor
    /// The next action, made but not yet due.
    private var nextAction: (frame: Int, action: ScriptTimeline.Action)?
    /// What the script's touch points are multiplied by (from the screen's top left): 1, but for the second phone of
    /// a comparison whose screen height differs, so that it pulls as far down its screen as the first.
    let touchScale: Double
    /// How far the finger and the wheel moved the list in the last frame, in points (up and down alike): what a
    /// check of the content's motion allows it to move besides its own animations.
    public private(set) var frameTravel = 0.0
    private var finger: Point?
    /// Where the finger is while it touches the screen; nil while it is up.
    public private(set) var touch: Point?

    /// A replay of `script` with the header `effect` (or the script's own, or the simulator's default) on `phone`,
    /// else on the phone the script names (`PhoneChoice.phone(for:)`).
    ///
    /// - Throws: `LabError` when `effect` names no effect.
    /// `prepare` sets the simulation up before the effect is chosen (the gif header's animation).
    public init(script: GestureScript, effect: String? = nil, phone given: Phone? = nil, touchScale: Double = 1,
                prepare: (Simulation) throws -> Void = { _ in }) throws {
        self.script = script
        self.touchScale = touchScale
        let phone = given ?? PhoneChoice().phone(for: script)
        timeline = ScriptTimeline(script, frameRate: phone.refreshRate)
        actions = timeline.makeIterator()
        nextAction = actions.next()
        clock = SimulatedClock()
        simulation = Simulation(phone: phone, clock: clock)
        // The last-updated line reads the simulated clock too, not the wall clock, so that two runs of a script
        // draw the same frames whenever they run.
        let clock = clock
        simulation.refreshControl.dateSource = { ScriptReplay.date(at: clock.now) }
        try prepare(simulation)
        if let name = effect ?? script.effect {
            guard simulation.selectEffect(named: name) else {
                throw LabError("unknown effect '\(name)'; expected one of " + RefreshEffects.names.joined(separator: ", "))
            }
        }
        if let floor = script.floor, simulation.selectedPhone.description.floor == nil { try simulation.setFloor(floor) }
        simulation.autoEndsRefreshing = script.autoEnd ?? true
        if let appearance = script.appearance { simulation.appearance = appearance }
    }

    /// A replay of `script` on the phone `description` describes (its device, header, styles and animations), the
    /// script's own phone and header left aside.
    public init(script: GestureScript, description: PhoneDescription) throws {
        self.script = script
        touchScale = 1
        timeline = ScriptTimeline(script, frameRate: description.device.refreshRate)
        actions = timeline.makeIterator()
        nextAction = actions.next()
        clock = SimulatedClock()
        simulation = try Simulation(description: description, clock: clock)
        let clock = clock
        simulation.refreshControl.dateSource = { ScriptReplay.date(at: clock.now) }
        simulation.autoEndsRefreshing = script.autoEnd ?? true
    }

    /// The date a replay's clock shows `seconds` into the run: 10:00 on 1 January 2026 at its start, then on by the
    /// minute (a run lasts at most about twelve days of simulated time, so it stays in January).
    static func date(at seconds: Double) -> RefreshDate {
        let minutes = 600 + Int(Swift.max(0, Swift.min(seconds, 2_000_000)) / 60)
        return RefreshDate(year: 2026, month: 1, day: 1 + minutes / 1440, hour: minutes / 60 % 24, minute: minutes % 60)
    }

    public var frameCount: Int { timeline.frameCount }
    /// The header effects a script or a run may name.
    public static var effectNames: [String] { RefreshEffects.names }
    var isFinished: Bool { frame >= timeline.frameCount || quitRequested }

    /// The frame's time on the simulated clock, in seconds.
    public var now: Double { clock.now }
    public var presentsEveryFrame: Bool { true }

    /// Moves the clock to the next frame's time and applies the actions of that frame.
    public func nextFrame(for simulation: Simulation, idleUntil: Double?) -> FrameInputResult {
        guard !isFinished else { return .end }
        if frame > 0 { clock.advance(by: 1 / timeline.frameRate) }
        frameTravel = 0
        while let due = nextAction, due.frame == frame {
            apply(due.action)
            nextAction = actions.next()
        }
        frame += 1
        return .frame(changed: true, waited: false)
    }

    /// Applies the next frame's input and steps the simulation, without drawing: for checking states quickly.
    /// Returns false when the script is over.
    @discardableResult
    public func advance() -> Bool {
        guard case .frame = nextFrame(for: simulation, idleUntil: nil) else { return false }
        simulation.step()
        return true
    }

    /// A touch at its point times `touchScale`; a wheel's delta is content points and stays as it is.
    private func scaled(_ event: InputEvent) -> InputEvent {
        let k = touchScale
        switch event {
        case .touchDown(let p): return .touchDown(Point(p.x * k, p.y * k))
        case .touchMove(let p): return .touchMove(Point(p.x * k, p.y * k))
        case .touchUp(let p): return .touchUp(Point(p.x * k, p.y * k))
        case .wheel: return event
        }
    }

    private func apply(_ action: ScriptTimeline.Action) {
        switch action {
        case .input(let event):
            switch event {
            case .touchDown(let p):
                finger = p
                touch = p
            case .touchMove(let p), .touchUp(let p):
                frameTravel += Swift.abs(p.y - (finger ?? p).y)
                finger = p
                if case .touchUp = event { touch = nil } else { touch = p }
            case .wheel(let delta, _): frameTravel += Swift.abs(delta.y)
            }
            simulation.handle(touchScale == 1 ? event : scaled(event))
        case .endRefresh(let result):
            simulation.refreshControl.endRefreshing(result: result, at: simulation.clock.now)
        case .command(let command):
            simulation.perform(command)
            // Of what only a host can do, a replay honours quit; the loop ignores screenshots and recordings
            // without an output folder (a run writes frames with --frames and timings with --timings).
            if simulation.hostRequests.contains(.quit) { quitRequested = true }
        }
    }
}

/// Where a headless run of a script writes what it saw; every output is optional.
public struct ScriptRunOutputs: Sendable {
    /// A folder for the frames as PNGs (`frame-0000.png`, …).
    public var framesDirectory: String?
    /// Whether frames of an earlier run in `framesDirectory` are removed (else they are an error).
    public var replacesEarlierFrames: Bool
    /// A `.gif` or `.mp4` recorded through ffmpeg.
    public var capturePath: String?
    /// JSON lines of state changes (see `StateChange.jsonLine`).
    public var eventsPath: String?
    /// A JSON line per frame (see `TraceWriter`).
    public var tracePath: String?
    /// Whether frames and captures include the overlays (toast, help, debug overlay, HUD).
    public var includesOverlays: Bool

    public init(framesDirectory: String? = nil, capturePath: String? = nil, eventsPath: String? = nil,
                tracePath: String? = nil, includesOverlays: Bool = false, replacesEarlierFrames: Bool = false) {
        self.framesDirectory = framesDirectory
        self.replacesEarlierFrames = replacesEarlierFrames
        self.capturePath = capturePath
        self.eventsPath = eventsPath
        self.tracePath = tracePath
        self.includesOverlays = includesOverlays
    }
}

/// A headless run of a gesture script: the replay driving the frame loop, with its state changes logged and its
/// frames, trace and capture written as they are made.
///
/// Every output is opened before the first frame, so a bad path fails at once and not after a long run; every line
/// and frame is on disk as soon as it is made, so a run stopped half-way keeps what it did.
public final class ScriptRun {
    public let replay: ScriptReplay
    public let loop: FrameLoop
    public let events: EventLog
    public let outputs: ScriptRunOutputs

    /// Prepares a run: the replay and every output.
    ///
    /// - Throws: `LabError` for an unknown effect or an output that cannot be written (naming it).
    public convenience init(script: GestureScript, effect: String? = nil, outputs: ScriptRunOutputs = ScriptRunOutputs(),
                            phone given: Phone? = nil, searchPath: String? = FFmpegCapture.processSearchPath,
                            prepare: (Simulation) throws -> Void = { _ in }) throws {
        try self.init(script: script, effect: effect, outputs: outputs, phone: given, searchPath: searchPath,
                      prepare: prepare, comparedAs: nil)
    }

    /// A run that is one side of a comparison when `comparedAs` is given: its trace and events lines name it, and
    /// the second side writes them into the first side's files.
    init(script: GestureScript, effect: String?, outputs: ScriptRunOutputs, phone given: Phone?, searchPath: String?,
         prepare: (Simulation) throws -> Void,
         comparedAs side: (label: String, touchScale: Double, first: ScriptRun?)?) throws {
        replay = try ScriptReplay(script: script, effect: effect, phone: given, touchScale: side?.touchScale ?? 1,
                                  prepare: prepare)
        let phone = replay.simulation.phone
        self.outputs = outputs
        loop = FrameLoop(simulation: replay.simulation, input: replay,
                         recorder: FrameRecorder(budget: 1 / replay.timeline.frameRate))
        replay.simulation.includesOverlaysInOutputs = outputs.includesOverlays
        // The frames folder first: a folder holding an earlier run's frames stops the run before any file opens.
        if let directory = outputs.framesDirectory {
            loop.sinks.append(try PNGSequence(directory: directory, replacing: outputs.replacesEarlierFrames))
        }
        if let side, let first = side.first {
            events = EventLog(simulation: replay.simulation, sharingFileOf: first.events, phone: side.label)
            loop.trace = first.loop.trace.map { TraceWriter(sharingFileOf: $0, phone: side.label) }
        } else {
            events = try EventLog(simulation: replay.simulation, path: outputs.eventsPath, phone: side?.label)
            loop.trace = try outputs.tracePath.map { try TraceWriter(path: $0, phone: side?.label) }
        }
        loop.events = events
        if let capture = outputs.capturePath {
            // A GIF at one pixel per point: at the phone's full pixels it is several times bigger for little gain.
            loop.sinks.append(try FFmpegCapture(output: capture, width: phone.pixelWidth, height: phone.pixelHeight,
                                                gifScale: 1 / phone.scale, searchPath: searchPath))
        }
    }

    public var simulation: Simulation { replay.simulation }
    /// Times each frame's phases; `startRecording` on it writes them to files.
    public var recorder: FrameRecorder { loop.recorder }

    /// Runs one frame and writes its outputs; false once the script is over.
    @discardableResult
    public func runFrame() throws -> Bool { try loop.runFrame() }

    /// True when a signal stopped the run before the script's end (see
    /// `Termination.install`); what was made so far is written whole.
    var wasInterrupted: Bool { loop.wasInterrupted }

    /// Runs every frame of the script, then finishes every output; returns the number of frames run.
    @discardableResult
    public func run() throws -> Int { try loop.run() }

    /// Closes the trace, the events file and the captures.
    func finish() throws { try loop.finish() }
}

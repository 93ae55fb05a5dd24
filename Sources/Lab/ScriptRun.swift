import Geometry
import Motion
import Refresh

/// A gesture script laid out on frames: what happens at each frame of the simulated clock.
///
/// Frame `f` is at `f / 60` s. Steps without a duration (down, up, key, refresh, a move or a wheel without one)
/// happen at the current frame; a move or wheel lasting `d` seconds takes the next `round(d · 60)` frames (at
/// least one), one sample each; a wait moves the current frame on by `round(d · 60)`. The run ends with the
/// frame the last step leaves it at, so `frameCount` is that frame plus one.
public struct ScriptTimeline: Equatable, Sendable {
    /// Something that happens at a frame, before the frame's step.
    public enum Action: Equatable, Sendable {
        case input(InputEvent)
        case command(Command)
        case endRefresh(RefreshResult)
    }

    /// Every action with its frame, in the order they happen (frames never decrease).
    public let actions: [(frame: Int, action: Action)]
    public let frameCount: Int

    public static func == (a: ScriptTimeline, b: ScriptTimeline) -> Bool {
        a.frameCount == b.frameCount && a.actions.count == b.actions.count
            && zip(a.actions, b.actions).allSatisfy { $0.frame == $1.frame && $0.action == $1.action }
    }

    /// The number of frames a duration takes on the simulated clock.
    public static func frames(for seconds: Double) -> Int {
        Int((seconds * simulatedFrameRate).rounded())
    }

    public init(_ script: GestureScript) {
        var actions: [(frame: Int, action: Action)] = []
        var frame = 0
        var finger = Point(0, 0)
        for step in script.steps {
            switch step {
            case .down(let p):
                finger = p
                actions.append((frame, .input(.touchDown(p))))
            case .move(let to, let duration, let easing):
                let n = ScriptTimeline.frames(for: duration)
                if n == 0 {
                    actions.append((frame, .input(.touchMove(to))))
                } else {
                    let from = finger
                    let timing = easing.timingFunction
                    for k in 1...n {
                        let progress = k == n ? 1 : timing.value(at: Double(k) / Double(n))
                        let p = Point(from.x + (to.x - from.x) * progress, from.y + (to.y - from.y) * progress)
                        actions.append((frame + k, .input(.touchMove(p))))
                    }
                    frame += n
                }
                finger = to
            case .up(let p):
                if let p {
                    actions.append((frame, .input(.touchMove(p))))
                    finger = p
                }
                actions.append((frame, .input(.touchUp(finger))))
            case .wait(let seconds):
                frame += ScriptTimeline.frames(for: seconds)
            case .wheel(let delta, let duration):
                let n = ScriptTimeline.frames(for: duration)
                if n == 0 {
                    actions.append((frame, .input(.wheel(delta))))
                } else {
                    let part = Point(delta.x / Double(n), delta.y / Double(n))
                    for k in 1...n { actions.append((frame + k, .input(.wheel(part)))) }
                    frame += n
                }
            case .key(_, let command):
                actions.append((frame, .command(command)))
            case .beginRefresh:
                actions.append((frame, .command(.beginRefresh)))
            case .endRefresh(let result):
                actions.append((frame, .endRefresh(result)))
            }
        }
        self.actions = actions
        frameCount = frame + 1
    }
}

/// Replays a gesture script on a simulation driven by a simulated clock: the input of a headless frame loop.
///
/// Frame 0 is at time 0; each later frame first moves the clock on by 1/60 s, then applies the frame's actions.
/// Every frame is presented, so a run writes exactly `frameCount` frames whatever moves.
public final class ScriptReplay: FrameInput {
    public let script: GestureScript
    public let timeline: ScriptTimeline
    public let clock: SimulatedClock
    public let simulation: Simulation
    /// The frame the next `nextFrame` call makes; `frameCount` once the replay is over.
    public private(set) var frame = 0
    /// True once a `Q` or `Escape` key in the script asked to quit: the replay stops after that frame.
    public private(set) var quitRequested = false
    private var nextAction = 0

    /// A replay of `script` with the header `effect` (or the script's own, or the simulator's default).
    ///
    /// - Throws: `LabError` when `effect` names no effect.
    public init(script: GestureScript, effect: String? = nil, phone: Phone = Phone()) throws {
        self.script = script
        timeline = ScriptTimeline(script)
        clock = SimulatedClock()
        simulation = Simulation(phone: phone, clock: clock)
        if let name = effect ?? script.effect {
            guard simulation.selectEffect(named: name) else {
                throw LabError("unknown effect '\(name)'; expected one of " + RefreshEffects.names.joined(separator: ", "))
            }
        }
        simulation.autoEndsRefreshing = script.autoEnd ?? true
    }

    public var frameCount: Int { timeline.frameCount }
    /// The header effects a script or a run may name.
    public static var effectNames: [String] { RefreshEffects.names }
    public var isFinished: Bool { frame >= timeline.frameCount || quitRequested }

    /// The frame's time on the simulated clock, in seconds.
    public var now: Double { clock.now }
    public var presentsEveryFrame: Bool { true }

    /// Moves the clock to the next frame's time and applies the actions of that frame.
    public func nextFrame(for simulation: Simulation, idleUntil: Double?) -> FrameInputResult {
        guard !isFinished else { return .end }
        if frame > 0 { clock.advance(by: 1 / simulatedFrameRate) }
        let actions = timeline.actions
        while nextAction < actions.count && actions[nextAction].frame == frame {
            apply(actions[nextAction].action)
            nextAction += 1
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

    private func apply(_ action: ScriptTimeline.Action) {
        switch action {
        case .input(let event):
            simulation.handle(event)
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
    /// A `.gif` or `.mp4` recorded through ffmpeg.
    public var capturePath: String?
    /// JSON lines of state changes (see `StateChange.jsonLine`).
    public var eventsPath: String?
    /// A JSON line per frame (see `TraceWriter`).
    public var tracePath: String?
    /// Whether frames and captures include the overlays (toast, help, debug overlay, HUD).
    public var includesOverlays: Bool

    public init(framesDirectory: String? = nil, capturePath: String? = nil, eventsPath: String? = nil,
                tracePath: String? = nil, includesOverlays: Bool = false) {
        self.framesDirectory = framesDirectory
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
    public init(script: GestureScript, effect: String? = nil, outputs: ScriptRunOutputs = ScriptRunOutputs(),
                phone: Phone = Phone(), searchPath: String? = FFmpegCapture.processSearchPath) throws {
        replay = try ScriptReplay(script: script, effect: effect, phone: phone)
        self.outputs = outputs
        loop = FrameLoop(simulation: replay.simulation, input: replay,
                         recorder: FrameRecorder(budget: 1 / simulatedFrameRate))
        replay.simulation.includesOverlaysInOutputs = outputs.includesOverlays
        events = try EventLog(simulation: replay.simulation, path: outputs.eventsPath)
        loop.events = events
        loop.trace = try outputs.tracePath.map { try TraceWriter(path: $0) }
        if let directory = outputs.framesDirectory { loop.sinks.append(try PNGSequence(directory: directory)) }
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

    /// True when SIGINT or SIGTERM stopped the run before the script's end (see
    /// `FrameRecorder.flushOnTermination`); what was made so far is written whole.
    public var wasInterrupted: Bool { loop.wasInterrupted }

    /// Runs every frame of the script, then finishes every output; returns the number of frames run.
    @discardableResult
    public func run() throws -> Int { try loop.run() }

    /// Closes the trace, the events file and the captures.
    public func finish() throws { try loop.finish() }
}

import Colors
import Geometry
import Raster
import Recording
import Refresh
import Styles
import UserFiles

/// One side of a comparison: what its phone shows, as a single run would be given it.
public struct ComparedPhone {
    /// The header's effect; nil for the script's own, else the simulator's default.
    public var effect: String?
    public var device: Phone
    /// The user's style files, merged; nil for none (docs/reference.md's values).
    public var styles: StyleBook?
    /// Over the script's own appearance; nil keeps the script's.
    public var appearance: Appearance?
    /// The list's, header's and footer's language at start; nil: English.
    public var language: RefreshLanguage?
    /// Sets the simulation up before the effect is chosen (the gif or Lottie header's animation).
    public var prepare: (Simulation) throws -> Void

    public init(effect: String? = nil, device: Phone, styles: StyleBook? = nil, appearance: Appearance? = nil,
                language: RefreshLanguage? = nil, prepare: @escaping (Simulation) throws -> Void = { _ in }) {
        self.language = language
        self.effect = effect
        self.device = device
        self.styles = styles
        self.appearance = appearance
        self.prepare = prepare
    }
}

/// Two phones replaying one gesture script together, headless: `refreshlab run --compare`.
///
/// Each side is a whole single run (`ScriptRun`) that produces exactly the frames, trace lines and events it would
/// alone. The comparison's clock ticks at the faster phone's refresh rate, and each phone presents a frame at the
/// first tick at or after its own frame's time, so a 60 Hz phone beside a 120 Hz one advances every other tick and
/// shows its last frame in between. The script's points are the first phone's; the second gets them scaled by the
/// ratio of the screen heights, so that both pull, release and fling together.
///
/// The frames and the capture show the two side by side (`SideBySide`); the trace and the events go to one file
/// each, every line naming its phone.
public final class ComparedRun {
    public let a: ScriptRun
    public let b: ScriptRun
    /// The comparison's ticks per second: the faster phone's refresh rate.
    public let frameRate: Double
    /// Frames written, side by side: one per tick at which either phone presented a frame.
    public private(set) var frameCount = 0
    /// The first side-by-side frame at which the content offsets differ by more than `offsetTolerance`, with each
    /// phone's own frame then and the offsets (y, in points); nil while they have not.
    public private(set) var firstOffsetDifference: (frame: Int, aFrame: Int, bFrame: Int, a: Point, b: Point)?
    /// Points of content offset within which the two phones count as moving together.
    public static let offsetTolerance = 0.5

    private let shownA = LastFrame()
    private let shownB = LastFrame()
    private let composite = SideBySide()
    private var sinks: [any FrameSink] = []
    private var tick = 0
    private var ended = (a: false, b: false)

    /// Prepares both runs and every output; `outputs`' frames and capture show the two side by side.
    ///
    /// - Throws: `LabError` for an unknown effect or an output that cannot be written (naming it).
    public init(script: GestureScript, a first: ComparedPhone, b second: ComparedPhone, outputs: ScriptRunOutputs,
                searchPath: String? = FFmpegCapture.processSearchPath) throws {
        // The frames folder first: a folder holding an earlier run's frames stops the run before any file opens.
        if let directory = outputs.framesDirectory {
            sinks.append(try PNGSequence(directory: directory, replacing: outputs.replacesEarlierFrames))
        }
        let own = ScriptRunOutputs(eventsPath: outputs.eventsPath, tracePath: outputs.tracePath,
                                   includesOverlays: outputs.includesOverlays)
        let heightA = first.device.screenSize.height, heightB = second.device.screenSize.height
        a = try ComparedRun.side(script, first, own, searchPath, as: ("a", 1, nil))
        b = try ComparedRun.side(script, second, own, searchPath,
                                 as: ("b", heightA == heightB ? 1 : heightB / heightA, a))
        frameRate = Swift.max(a.replay.timeline.frameRate, b.replay.timeline.frameRate)
        if let capture = outputs.capturePath {
            let phoneA = a.simulation.phone, phoneB = b.simulation.phone
            let size = SideBySide.size(left: (phoneA.pixelWidth, phoneA.pixelHeight),
                                       right: (phoneB.pixelWidth, phoneB.pixelHeight))
            // A GIF at about one pixel per point, as a single run's.
            sinks.append(try FFmpegCapture(output: capture, width: size.width, height: size.height,
                                           frameRate: frameRate, gifScale: 1 / Swift.max(phoneA.scale, phoneB.scale),
                                           searchPath: searchPath))
        }
        // Each phone's last frame is kept only for a side-by-side output: without one, two phones cost what two
        // single runs do.
        if !sinks.isEmpty {
            a.loop.sinks.append(shownA)
            b.loop.sinks.append(shownB)
        }
    }

    private static func side(_ script: GestureScript, _ phone: ComparedPhone, _ outputs: ScriptRunOutputs,
                             _ searchPath: String?, as side: (String, Double, ScriptRun?)) throws -> ScriptRun {
        let run = try ScriptRun(script: script, effect: phone.effect, outputs: outputs, phone: phone.device,
                                searchPath: searchPath, prepare: phone.prepare, comparedAs: side)
        if let styles = phone.styles { run.simulation.styles = styles }
        if let appearance = phone.appearance { run.simulation.appearance = appearance }
        if let language = phone.language { run.simulation.language = language }
        return run
    }

    /// Runs every tick until both scripts are over, then finishes every output; returns the side-by-side frames.
    @discardableResult
    public func run() throws -> Int {
        do {
            while try runTick() {}
        } catch {
            try? finish()
            throw error
        }
        try finish()
        return frameCount
    }

    /// Runs one tick: each phone whose next frame is due presents it, and a side-by-side frame is written when
    /// one did. Returns false once both are over or a signal stopped the run.
    @discardableResult
    public func runTick() throws -> Bool {
        var presented = false
        if !ended.a, isDue(a) { (ended.a, presented) = try step(a) }
        if !ended.b, isDue(b) {
            let (over, shown) = try step(b)
            ended.b = over
            presented = presented || shown
        }
        tick += 1
        if presented {
            if let left = shownA.canvas, let right = shownB.canvas {
                let frame = composite.compose(left, right)
                for sink in sinks { try sink.write(frame, frame: frameCount) }
            }
            noteOffsets()
            frameCount += 1
        }
        return !(ended.a && ended.b) && !a.wasInterrupted && !b.wasInterrupted
    }

    /// Whether `run`'s next frame is due at this tick: frame `f` of a phone at rate `r` is at `f / r` seconds, tick
    /// `k` at `k / frameRate` (compared as whole products, so that no rounding moves a frame).
    private func isDue(_ run: ScriptRun) -> Bool {
        Double(run.replay.frame) * frameRate <= Double(tick) * run.replay.timeline.frameRate
    }

    /// Runs `run`'s next frame: whether it is over, and whether it presented a frame.
    private func step(_ run: ScriptRun) throws -> (over: Bool, presented: Bool) {
        let before = run.loop.frameIndex
        let goesOn = try run.runFrame()
        return (!goesOn, run.loop.frameIndex > before)
    }

    private func noteOffsets() {
        guard firstOffsetDifference == nil else { return }
        let offsetA = a.simulation.scrollView.contentOffset, offsetB = b.simulation.scrollView.contentOffset
        let apart = Swift.max(abs(offsetA.x - offsetB.x), abs(offsetA.y - offsetB.y))
        guard apart > ComparedRun.offsetTolerance else { return }
        firstOffsetDifference = (frameCount, a.loop.frameIndex - 1, b.loop.frameIndex - 1, offsetA, offsetB)
    }

    /// Finishes every output: the second phone's first, since it writes into the first's files.
    func finish() throws {
        var failure: (any Error)?
        do { try b.finish() } catch { failure = error }
        do { try a.finish() } catch { failure = failure ?? error }
        for sink in sinks {
            do { try sink.finish() } catch { failure = failure ?? error }
        }
        sinks.removeAll()
        if let failure { throw failure }
    }

    /// The comparison for standard output: each phone's header states with their frames, each one's arming frame,
    /// and where their content offsets first part. Frames are each phone's own, but for the offsets' side-by-side
    /// frame.
    public var summary: [String] {
        var lines: [String] = []
        for (name, run) in [("a", a), ("b", b)] {
            let changes = run.events.headerChanges.map { "\($0.to.description) at \($0.frame)" }
            let earlier = run.events.droppedCount > 0 ? "… (\(run.events.droppedCount) earlier changes) → " : ""
            lines.append("\(name) (\(run.simulation.effectName), \(run.simulation.phone.deviceName), "
                + "\(Int(run.replay.timeline.frameRate)) Hz) header states: "
                + (changes.isEmpty ? "(no change)" : earlier + changes.joined(separator: " → ")))
        }
        let arming = [("a", a), ("b", b)].map { name, run in
            run.events.firstArmingFrame.map { "\(name) armed at its frame \($0)" } ?? "\(name) never armed"
        }
        lines.append(arming.joined(separator: ", "))
        if let apart = firstOffsetDifference {
            lines.append("content offsets first differ by more than \(JSONText.number(ComparedRun.offsetTolerance)) pt "
                + "at side-by-side frame \(apart.frame) (a's frame \(apart.aFrame), b's \(apart.bFrame)): "
                + "a \(points(apart.a.y)) pt, b \(points(apart.b.y)) pt")
        } else {
            lines.append("content offsets never differ by more than \(JSONText.number(ComparedRun.offsetTolerance)) pt")
        }
        return lines
    }

    /// Points to a thousandth, as the trace gives them.
    private func points(_ value: Double) -> String { JSONText.number((value * 1000).rounded() / 1000) }
}

/// Keeps a copy of the last frame a phone presented, as its outputs see it, for the side-by-side frame to show
/// until the phone presents another.
private final class LastFrame: FrameSink {
    private(set) var canvas: Canvas?

    func write(_ frame: Canvas, frame index: Int) throws {
        if canvas?.width != frame.width || canvas?.height != frame.height {
            canvas = Canvas(width: frame.width, height: frame.height)
        }
        canvas?.copy(from: frame)
    }

    func finish() throws {}
}

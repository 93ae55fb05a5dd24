import Geometry
import Layers
import Motion
import Refresh
import UserFiles

/// A header's drawing frame by frame, as an export takes it (docs/export.md): the pull from 0 to the trigger
/// distance, the animation of arming where the header has one, one period of the refreshing animation, and the end,
/// each a named stretch of frames at `frameRate`.
/// Each frame is what the header draws in its box, as filled paths: a header that pushes the list, in its own box
/// (the phone's width by the header's height, the box the control places top-aligned above the content); one that
/// floats over the list, in a box from the list's top down to the lowest point it reaches (`box(of:)`).
public struct HeaderSamples {
    /// A named stretch of the frames: `pull`, `armed` (which starts at the pull's last frame), `refresh`, `end`.
    public struct Section: Equatable, Sendable {
        public var name: String
        public var frames: Range<Int>
    }

    /// The header's box, in points.
    public var size: Size
    public var frames: [LayerRecording]
    public var sections: [Section]
    /// Whether the refresh stretch is one whole period of the refreshing animation (its last frame leads into its
    /// first), so that looping it is seamless; false when no period was found within `longestPeriod`.
    public var refreshLoops: Bool
    /// The frames per second of the samples.
    public static let frameRate = 60.0
    /// How many frames the pull's stretch takes, past its first: progress k / `pullFrames` at its frame k.
    public static let pullFrames = 60
    /// The longest refreshing period looked for, in seconds; without one, `unloopedRefresh` seconds are taken.
    public static let longestPeriod = 14.0
    public static let unloopedRefresh = 2.0
    /// How long the refresh runs before its period is taken, in seconds, at least: the header's inset animation
    /// and any animation's start are over by then (and the list must be at rest too).
    static let refreshSettle = 0.6
    /// The longest animation of arming taken, in seconds: a header still changing after it (one that animates all
    /// the while it is armed) has its first second as `armed`.
    static let longestArming = 1.0
    /// The longest end taken, in seconds.
    static let longestEnd = 5.0
    /// The finger's step while it pulls, in points: fine enough that each frame's pull is within a small fraction
    /// of a point of its target.
    static let fingerStep = 0.05

    /// Samples the header `description` shows. `observe` is called at each frame taken, with the phone in that
    /// state (a test draws the live header there).
    ///
    /// - Throws: `LabError` for a header whose drawing cannot be exported (one that draws what `LayerRecording`
    ///   cannot hold), naming what.
    public static func take(_ description: PhoneDescription,
                            observe: ((Int, SimulatedPhone) -> Void)? = nil) throws -> HeaderSamples {
        // Once to find the refreshing animation's period, then again (the simulation is exact) to take the frames.
        let probe = try Drive(description)
        let candidates = try probe.run(refreshFrames: Int(longestPeriod * frameRate), takesEnd: false)
        let refresh = candidates.sections.first { $0.name == "refresh" }?.frames ?? 0..<0
        let first = candidates.frames[refresh.lowerBound]
        let period = (refresh.lowerBound + 6..<refresh.upperBound).first { same(candidates.frames[$0], first) }
            .map { $0 - refresh.lowerBound }
        let drive = try Drive(description)
        drive.observe = observe
        var samples = try drive.run(refreshFrames: period ?? Int(unloopedRefresh * frameRate), takesEnd: true)
        samples.refreshLoops = period != nil
        let unsupported = samples.frames.reduce(into: Set<String>()) { $0.formUnion($1.unsupported) }
        if !unsupported.isEmpty {
            throw LabError("the \(description.effect) header draws " + unsupported.sorted().joined(separator: ", ")
                + ", which its export does not carry yet")
        }
        return samples
    }

    /// One run of the header through its pull, refresh and end on a simulated clock.
    private final class Drive {
        let simulation: Simulation
        let clock = SimulatedClock()
        var observe: ((Int, SimulatedPhone) -> Void)?
        var frames: [LayerRecording] = []
        let effect: String

        init(_ description: PhoneDescription) throws {
            simulation = try Simulation(description: description, clock: clock)
            simulation.autoEndsRefreshing = false
            // The time a header may show is a replay's, so that an export is the same whenever it is made.
            let clock = self.clock
            simulation.primaryPhone.refreshControl.dateSource = { ScriptReplay.date(at: clock.now) }
            effect = description.effect
        }

        /// Records the header as it is now, in its box.
        func take() {
            let phone = simulation.primaryPhone
            observe?(frames.count, phone)
            let (transform, clip) = HeaderSamples.box(of: phone)
            frames.append(phone.renderer.record(phone.refreshControl.headerLayer, at: phone.frameTime ?? clock.now,
                                                transform: transform, pixelScale: phone.device.scale, clip: clip))
        }

        func advance(by seconds: Double) {
            clock.advance(by: seconds)
            simulation.step()
        }

        func run(refreshFrames: Int, takesEnd: Bool) throws -> HeaderSamples {
            let phone = simulation.primaryPhone, control = phone.refreshControl
            let frame = 1 / HeaderSamples.frameRate
            var sections: [Section] = []
            simulation.step()
            // The pull: a finger moved a little at a time, each frame taken where the pull first reaches its target.
            var finger = Point(phone.device.screenSize.width / 2, phone.device.listFrame.minY + 80)
            simulation.handle(.touchDown(finger))
            var target = 0, moved = 0.0
            while target <= HeaderSamples.pullFrames {
                let wanted = control.triggerDistance * Double(target) / Double(HeaderSamples.pullFrames)
                if control.pull.distance >= wanted - 1e-9 {
                    take()
                    target += 1
                    continue
                }
                guard moved < 4000 else { throw LabError("the \(effect) header's pull never reached its trigger") }
                clock.advance(by: frame / 10)
                finger.y += HeaderSamples.fingerStep
                moved += HeaderSamples.fingerStep
                simulation.handle(.touchMove(finger))
                simulation.step()
            }
            sections.append(Section(name: "pull", frames: 0..<frames.count))

            // Armed before the finger lets go, a header may animate the change (classic's arrow turning over): with
            // the finger held, its frames from the pull's last until the drawing is still.
            if control.state == .armed {
                let from = frames.count - 1
                var held = 0.0
                while held < HeaderSamples.longestArming {
                    advance(by: frame)
                    held += frame
                    take()
                    if HeaderSamples.same(frames[frames.count - 1], frames[frames.count - 2]) {
                        frames.removeLast()
                        break
                    }
                }
                if frames.count - 1 > from { sections.append(Section(name: "armed", frames: from..<frames.count)) }
            }

            // Let go just past the trigger; once the refresh has settled, its frames.
            clock.advance(by: frame)
            finger.y += 2
            simulation.handle(.touchMove(finger))
            simulation.step()
            simulation.handle(.touchUp(finger))
            var settled = 0.0, waited = 0.0
            // Settled: refreshing for a while, the list at rest (a header laid out in the pulled space moves with it).
            while settled < HeaderSamples.refreshSettle || phone.scrollView.isAnimating {
                guard waited < 10 else { throw LabError("the \(effect) header never began refreshing") }
                advance(by: frame)
                waited += frame
                if control.state == .refreshing { settled += frame }
            }
            let refreshStart = frames.count
            for _ in 0..<refreshFrames {
                take()
                advance(by: frame)
            }
            sections.append(Section(name: "refresh", frames: refreshStart..<frames.count))
            guard takesEnd else { return HeaderSamples(size: .zero, frames: frames, sections: sections, refreshLoops: false) }

            // The end: from the refresh's end with success until the header is idle and still.
            let endStart = frames.count
            control.endRefreshing(result: .success, at: clock.now)
            var elapsed = 0.0
            repeat {
                take()
                advance(by: frame)
                elapsed += frame
            } while (control.state != .idle || control.isAnimating) && elapsed < HeaderSamples.longestEnd
            take()
            sections.append(Section(name: "end", frames: endStart..<frames.count))
            return HeaderSamples(size: HeaderSamples.size(of: phone, frames: frames), frames: frames,
                                 sections: sections, refreshLoops: false)
        }
    }

    /// What maps the header's layer to its box, and what cuts it there: a header that pushes the list is drawn in
    /// its own box; one that floats over it, from the list's top, cut there as the list's bounds cut it on the
    /// phone (nothing shows above the list's top).
    public static func box(of phone: SimulatedPhone) -> (transform: AffineTransform, clip: Rect?) {
        let control = phone.refreshControl, root = control.headerLayer
        guard control.metrics.placement.floating != nil else {
            return (root.presentation(at: phone.frameTime ?? 0).transformToSuperlayer.inverted ?? .identity, nil)
        }
        // The control puts a floating header's top `distance` − its height below the list's top.
        let top = control.distance - control.metrics.headerHeight
        return (AffineTransform(translationX: 0, y: top), Rect(x: 0, y: 0, width: 1e9, height: 1e9))
    }

    /// The box's size: the header's own, or for one that floats, the phone's width by the lowest point any frame
    /// draws below the list's top.
    static func size(of phone: SimulatedPhone, frames: [LayerRecording]) -> Size {
        let control = phone.refreshControl
        guard control.metrics.placement.floating != nil else { return control.headerLayer.bounds.size }
        let bottom = frames.flatMap(\.shapes).map(\.path.controlPointBounds.maxY).max() ?? 0
        return Size(control.headerLayer.bounds.width, Swift.max(1, bottom.rounded(.up)))
    }

    /// Whether two recordings draw the same (paths within a hundredth of a point, colours within a thousandth).
    static func same(_ a: LayerRecording, _ b: LayerRecording) -> Bool {
        guard a.shapes.count == b.shapes.count else { return false }
        for (x, y) in zip(a.shapes, b.shapes) {
            guard x.rule == y.rule, x.path.elements.count == y.path.elements.count else { return false }
            let c = x.color, d = y.color
            if Swift.abs(c.red - d.red) + Swift.abs(c.green - d.green) + Swift.abs(c.blue - d.blue)
                + Swift.abs(c.alpha - d.alpha) > 0.004 { return false }
            for (e, f) in zip(x.path.elements, y.path.elements) where !close(e, f) { return false }
        }
        return true
    }

    private static func close(_ e: Path.Element, _ f: Path.Element) -> Bool {
        func near(_ p: Point, _ q: Point) -> Bool { (p - q).length < 0.01 }
        switch (e, f) {
        case (.move(let p), .move(let q)), (.line(let p), .line(let q)): return near(p, q)
        case (.quad(let c, let p), .quad(let d, let q)): return near(c, d) && near(p, q)
        case (.cubic(let c1, let c2, let p), .cubic(let d1, let d2, let q)):
            return near(c1, d1) && near(c2, d2) && near(p, q)
        case (.close, .close): return true
        default: return false
        }
    }
}

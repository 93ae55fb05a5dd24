import Geometry
import Layers
import Motion
import Raster
import Recording
import Refresh

/// What a drawn case's frames are judged against: the platform's frame budget on the reference machine, scaled on a
/// slower one by how much longer it takes to draw the reference frame (docs/audit.md).
public struct FrameBudget: Sendable, Equatable {
    /// The reference frame's cost on the reference machine, in seconds: `measure()` in a release build on the
    /// 2-core machine the README's figures come from (docs/audit.md says how it was measured).
    public static let referenceSeconds = 0.00018

    /// What this machine took to draw the reference frame, in seconds.
    public var measuredSeconds: Double

    public init(measuredSeconds: Double) {
        self.measuredSeconds = measuredSeconds
    }

    /// How many times longer than the reference machine this one takes to draw a frame, at least 1: a frame's
    /// budget is the platform's times this.
    public var slowness: Double { Swift.max(1, measuredSeconds / FrameBudget.referenceSeconds) }

    /// Draws the reference frame several times on this machine: the lab's own phone with the classic header
    /// refreshing over the list, as the frame loop draws it, timed in the thread's CPU time.
    public static func measure() throws -> FrameBudget {
        let clock = SimulatedClock()
        let simulation = try Simulation(description: PhoneDescription(effect: "classic"), clock: clock)
        simulation.autoEndsRefreshing = false
        simulation.refreshControl.beginRefreshing()
        for _ in 0..<60 {
            clock.advance(by: 1.0 / 60)
            simulation.step()
        }
        for _ in 0..<5 { simulation.render() }
        // The least of three batches' medians: a batch another process slowed down does not set the budget.
        let medians = (0..<3).map { _ in
            let times = (0..<21).map { _ in
                let start = FrameRecorder.threadSeconds()
                simulation.render()
                return FrameRecorder.threadSeconds() - start
            }
            return times.sorted()[times.count / 2]
        }
        return FrameBudget(measuredSeconds: medians.min()!)
    }
}

/// The checks of a drawn case, made on every frame as the window makes it: stepping and drawing the frame within
/// the platform's budget, and nothing of the header where the screen's sides would cut it off.
final class AuditDrawing {
    let simulation: Simulation
    /// A frame's budget on this machine, in seconds.
    let budget: Double
    /// The budget as a failure says it.
    private let budgetText: String
    /// The header drawn alone at one pixel a point, the screen's height and its width with `margin` on each side.
    private let sides: Canvas
    /// Draws it there without the layers' background colours (`LayerRenderer.drawsBackgrounds`), with the phone's
    /// glyphs.
    private let sidesRenderer: LayerRenderer
    /// The first thing that went wrong, or nil.
    private(set) var failure: AuditResult.Failure?

    /// How far past each side of the screen the header is looked for, in points.
    static let margin = 48
    /// The least alpha of a pixel past a side that counts as drawn there: a shadow's faint tail does not.
    static let visibleAlpha: UInt32 = 16

    init(simulation: Simulation, budget: FrameBudget, frameRate: Double) {
        self.simulation = simulation
        let platform = 1 / frameRate
        self.budget = platform * budget.slowness
        let ms = { (seconds: Double) in "\((seconds * 10_000).rounded() / 10) ms" }
        let slowness = (budget.slowness * 100).rounded() / 100
        budgetText = "\(ms(platform)) of a frame at \(Int(frameRate.rounded())) Hz"
            + (slowness > 1 ? " (\(ms(self.budget)) on this machine, \(slowness) times as slow as the reference one)" : "")
        let screen = simulation.primaryPhone.device.screenSize
        sides = Canvas(width: Int(screen.width.rounded(.up)) + 2 * AuditDrawing.margin,
                       height: Swift.max(1, Int(screen.height.rounded(.up))))
        sidesRenderer = LayerRenderer(textRenderer: simulation.primaryPhone.renderer.loadTextRenderer())
        sidesRenderer.drawsBackgrounds = false
        // The first frame fills the caches every later frame finds filled (the list's glyphs), as the window's first
        // frame does before anything moves.
        simulation.render()
    }

    /// Draws frame `frame` at `time`, whose step took `stepSeconds` of the thread's time, and checks it.
    func check(time: Double, frame: Int, stepSeconds: Double) {
        guard failure == nil else { return }
        var start = FrameRecorder.threadSeconds()
        simulation.render()
        var cost = stepSeconds + FrameRecorder.threadSeconds() - start
        // A Lottie frame past the renderer's budget of work is not drawn whole, however fast the rest was.
        if let error = (simulation.refreshControl.effect as? LottieEffect)?.renderError {
            failure = .init(frame: frame, time: time, invariant: AuditDrawing.budgetInvariant,
                            detail: "the animation's frame was not drawn whole: \(error)")
            return
        }
        if cost > budget {
            // Drawn again, the faster of the two: a pause of the machine's (another process, a page fault) is not
            // the frame's.
            start = FrameRecorder.threadSeconds()
            simulation.render()
            cost = Swift.min(cost, stepSeconds + FrameRecorder.threadSeconds() - start)
            if cost > budget {
                failure = .init(frame: frame, time: time, invariant: AuditDrawing.budgetInvariant,
                                detail: "stepping and drawing the frame took \((cost * 10_000).rounded() / 10) ms, "
                                    + "over the \(budgetText)")
                return
            }
        }
        if let (side, reach) = headerPastTheSides() {
            failure = .init(frame: frame, time: time, invariant: AuditDrawing.screenInvariant,
                            detail: "the header draws \(AuditDrawing.describe(reach: reach)) past the screen's \(side) edge")
        }
    }

    static let budgetInvariant = "frame budget"
    static let screenInvariant = "on screen"

    /// Draws the header alone, cut where the bars and the list's bottom hide it but not at its sides, and finds
    /// how far past a side of the screen it draws: the side and the points, or nil when it stays within. What its
    /// layers draw counts; their background colours do not (the boxes they lay out in, which the phone cuts at its
    /// edges as it cuts the list's rows).
    private func headerPastTheSides() -> (side: String, reach: Int)? {
        let phone = simulation.primaryPhone
        let m = AuditDrawing.margin, width = sides.width - 2 * m
        sides.clear(PixelBox(minX: 0, minY: 0, maxX: m, maxY: sides.height))
        sides.clear(PixelBox(minX: m + width, minY: 0, maxX: sides.width, maxY: sides.height))
        let (contentToPixels, listClip) = phone.listTransform()
        let s = phone.device.scale
        let toSides = contentToPixels.concatenating(AffineTransform(scaleX: 1 / s, y: 1 / s))
            .concatenating(AffineTransform(translationX: Double(m), y: 0))
        // The list's part the bars leave in view: a header resting under a bar is not yet seen.
        let top = listClip.minY / s + phone.scrollView.safeAreaInsets.top
        let rows = Rect(x: 0, y: top, width: Double(sides.width), height: Swift.max(0, listClip.maxY / s - top))
        phone.refreshControl.headerLayer.render(into: sides, at: phone.frameTime ?? phone.clock.now, transform: toSides,
                                                clip: rows, renderer: sidesRenderer)
        var left = 0, right = 0
        for y in 0..<sides.height {
            for x in 0..<m where sides[x, y] >> 24 >= AuditDrawing.visibleAlpha {
                left = Swift.max(left, m - x)
                break
            }
            for x in stride(from: sides.width - 1, through: m + width, by: -1)
            where sides[x, y] >> 24 >= AuditDrawing.visibleAlpha {
                right = Swift.max(right, x - (m + width) + 1)
                break
            }
        }
        if left == 0 && right == 0 { return nil }
        return left >= right ? ("left", left) : ("right", right)
    }

    /// How a reach past a side reads: "12 pt", or "48 pt or more" at the edge of what is looked at.
    static func describe(reach: Int) -> String {
        reach >= margin ? "\(margin) pt or more" : "\(reach) pt"
    }
}

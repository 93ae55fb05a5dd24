import Geometry
import Raster
import Refresh
import Text
import Colors
import UserFiles
import Recording

/// The heads-up display in the screen's bottom-right corner, clear of the header and its labels: frames per second presented while something moves
/// ("idle" while nothing does); the last, mean and p99 frame time (CPU time of the recent frames); the refresh
/// state and the pull distance; the armings' haptics (how many, and the last one's announcement while its mark
/// shows: docs/reference.md §6); and a live graph of the recent frames, one bar per frame stacked by phase with a
/// labelled line at the budget and a legend of the phase colours, as Android's Profile GPU Rendering draws it.
///
/// Drawing allocates nothing once warm: numbers are formatted into a byte buffer made once and drawn a character
/// at a time from lines laid out on first use; bars are filled straight into the canvas's pixels.
public final class HUD {
    /// The panel's size and margin from the screen's bottom-right corner, in points.
    public static let width = 150.0
    public static let margin = 6.0
    static let padding = 6.0
    /// Text size and line spacing, in points: 10 pt is 20 px at scale 2, legible on the simulated phone.
    static let fontSize = 10.0
    static let lineHeight = 13.0
    /// The lines of figures: rate and last, mean and p99, state and pull, haptics.
    static let textLines = 4.0
    /// The legend's text size and its two rows' spacing, in points.
    static let legendFontSize = 8.0
    static let legendLineHeight = 11.0
    /// The graph's height in points: it spans 0 to `graphRange` budgets, so the budget line sits at a third of its
    /// height, with room above it to see how far a slow frame went.
    static let graphHeight = 66.0
    static let graphRange = 3.0
    /// Width of one frame's bar, in points (1 pt = 2 px at scale 2).
    static let barWidth = 1.0
    /// The legend's rows: the budgeted phases, three then two.
    static let legendRows: [[FramePhase]] = [[.input, .update, .draw], [.upload, .present]]

    public static let background = Color(rgb: 0, 0, 0, alpha: 0.88)
    static let textColor = Color(rgb: 255, 255, 255)
    static let budgetColor = Color(rgb: 0, 230, 118)

    /// Whether the frame graph is drawn under the figures (the G key).
    var showsGraph = true

    private var glyphLines: [TextLine?] = []
    private var stateLines: [TextLine] = []
    private var legendLines: [TextLine] = []
    private var budgetLabel: (budget: Double, line: TextLine)?
    private var digitWidth = 0.0
    private var line = ByteBuffer(capacity: 64)
    /// ` "Refreshing"`: what a recent arming adds to its line (its announcement), made once.
    private let recentArmingBytes = Array((" \"" + ArmingFeedback.announcement(in: .english) + "\"").utf8)
    private let phaseColors: [UInt32] = FramePhase.allCases.map { $0.color.premultipliedPixel }
    private let backgroundPixel = HUD.background.premultipliedPixel
    private let budgetPixel = HUD.budgetColor.premultipliedPixel

    public init() {}

    deinit { line.deallocate() }

    /// The panel's frame in screen points.
    func panelFrame(screen: Size) -> Rect {
        let textHeight = HUD.textLines * HUD.lineHeight
        let graphHeight = HUD.graphHeight + HUD.padding + Double(HUD.legendRows.count) * HUD.legendLineHeight
        let height = 2 * HUD.padding + textHeight + (showsGraph ? graphHeight : 0)
        // 20 pt above the bottom, as far as the status bar's height is from the top.
        return Rect(x: screen.width - HUD.width - HUD.margin, y: screen.height - height - HUD.margin - 20,
                    width: HUD.width, height: height)
    }

    /// The graph's frame in screen points (inside the panel, under the text).
    func graphFrame(screen: Size) -> Rect {
        let panel = panelFrame(screen: screen)
        return Rect(x: panel.minX + HUD.padding, y: panel.minY + HUD.padding + HUD.textLines * HUD.lineHeight + HUD.padding,
                    width: panel.width - 2 * HUD.padding, height: HUD.graphHeight)
    }

    /// How many frames the graph shows: one bar per `barWidth` of its width, at most the recorder's ring.
    func barCount(screen: Size, recorder: FrameRecorder) -> Int {
        Swift.min(Int(graphFrame(screen: screen).width / HUD.barWidth), recorder.historyCapacity)
    }

    /// Draws the HUD for `recorder`'s recent frames into `canvas` (pixels at `scale` per point), during a frame
    /// that began at `time` on the recorder's frame clock; `isMoving` says whether anything moves (else the rate
    /// reads "idle"). Without `text` (no fonts) only the panel and the graph are drawn.
    /// The frames the HUD shows: the frame loop's recorder, the frame's time, and whether anything moves.
    struct Frames {
        let recorder: FrameRecorder
        let time: Double
        let isMoving: Bool
    }

    /// The armings the HUD tells of: how many haptics have played, and whether the last one is recent (its mark
    /// shows), when the line also gives its announcement.
    public struct Armings: Equatable, Sendable {
        public var count = 0
        public var isRecent = false

        public init(count: Int = 0, isRecent: Bool = false) {
            self.count = count
            self.isRecent = isRecent
        }
    }

    /// `phoneRate`: the rate the phone itself presents at, when it is not every frame's (a phone beside another).
    public func draw(recorder: FrameRecorder, time: Double, isMoving: Bool, state: RefreshState, pullDistance: Double,
                     armings: Armings = Armings(), phoneRate: Double? = nil, screen: Size, scale: Double,
                     text: TextRenderer?, into canvas: Canvas) {
        let panel = panelFrame(screen: screen)
        fill(panel, pixel: backgroundPixel, scale: scale, canvas: canvas)
        let rate = isMoving ? phoneRate ?? recorder.framesPerSecond(at: time) : nil
        if let text { drawFigures(recorder: recorder, rate: rate, state: state, pullDistance: pullDistance,
                                  armings: armings, panel: panel, scale: scale, text: text, canvas: canvas) }
        if showsGraph {
            let graph = graphFrame(screen: screen)
            drawGraph(recorder: recorder, frame: graph, scale: scale, canvas: canvas)
            if let text { drawLabels(budget: recorder.budget, graph: graph, scale: scale, text: text, canvas: canvas) }
        }
    }

    // MARK: Figures

    private func prepare(_ text: TextRenderer) {
        guard glyphLines.isEmpty else { return }
        glyphLines = (0..<128).map { code -> TextLine? in
            guard code >= 32 && code < 127 else { return nil }
            return text.layout(String(Character(Unicode.Scalar(UInt8(code)))), size: HUD.fontSize)
        }
        stateLines = RefreshState.kindNames.map { text.layout($0, size: HUD.fontSize) }
        legendLines = FramePhase.allCases.map { text.layout($0.name, size: HUD.legendFontSize) }
        digitWidth = glyphLines[Int(UInt8(ascii: "0"))]?.width ?? HUD.fontSize * 0.6
    }

    private func drawFigures(recorder: FrameRecorder, rate: Double?, state: RefreshState, pullDistance: Double,
                             armings: Armings, panel: Rect, scale: Double, text: TextRenderer, canvas: Canvas) {
        prepare(text)
        let x = panel.minX + HUD.padding
        var baseline = panel.minY + HUD.padding + HUD.fontSize
        let last = recorder.lastFrame?.cpuTime ?? 0
        // "60 fps  last 1.23 ms", or "idle  last 1.23 ms" while nothing moves.
        line.removeAll()
        if let rate {
            line.append(int: Int(rate.rounded())); line.append(" fps  last ")
        } else {
            line.append("idle  last ")
        }
        line.append(fixed: last * 1000, decimals: 2); line.append(" ms")
        drawLine(at: Point(x, baseline), scale: scale, text: text, canvas: canvas)
        baseline += HUD.lineHeight
        // "mean 1.10  p99 2.34 ms"
        line.removeAll()
        line.append("mean "); line.append(fixed: recorder.recentMeanCPUTime * 1000, decimals: 2)
        line.append("  p99 "); line.append(fixed: recorder.recentCPUTime(percentile: 0.99) * 1000, decimals: 2)
        line.append(" ms")
        drawLine(at: Point(x, baseline), scale: scale, text: text, canvas: canvas)
        baseline += HUD.lineHeight
        // "refreshing  pull 64.0 pt"
        let stateLine = stateLines[Int(state.kindCode)]
        text.draw(stateLine, at: Point(x, baseline), color: HUD.textColor, scale: scale, into: canvas)
        line.removeAll()
        line.append("  pull "); line.append(fixed: pullDistance, decimals: 1); line.append(" pt")
        drawLine(at: Point(x + stateLine.width, baseline), scale: scale, text: text, canvas: canvas)
        baseline += HUD.lineHeight
        // "haptic x3", and while the last arming's mark shows: "haptic x3 "Refreshing"" (the HUD's lines are
        // English, as its states).
        line.removeAll()
        line.append("haptic x"); line.append(int: armings.count)
        if armings.isRecent {
            line.append(recentArmingBytes)
        }
        drawLine(at: Point(x, baseline), scale: scale, text: text, canvas: canvas)
    }

    /// Draws the bytes in `line` one character at a time from the laid-out characters.
    private func drawLine(at origin: Point, scale: Double, text: TextRenderer, canvas: Canvas) {
        var x = origin.x
        for i in 0..<line.count {
            let code = Int(line.storage[i])
            guard code < glyphLines.count, let glyph = glyphLines[code] else { continue }
            if code != 32 {
                text.draw(glyph, at: Point(x, origin.y), color: HUD.textColor, scale: scale, into: canvas)
            }
            x += glyph.width
        }
    }

    // MARK: Graph

    private func drawGraph(recorder: FrameRecorder, frame: Rect, scale: Double, canvas: Canvas) {
        let bars = Swift.min(Int(frame.width / HUD.barWidth), recorder.historyCapacity)
        let pointsPerSecond = frame.height / (HUD.graphRange * recorder.budget)
        // Newest frame on the right, as Android draws it.
        for back in 0..<Swift.min(bars, recorder.recentCount) {
            let sample = recorder.recent(back)
            let x = frame.maxX - Double(back + 1) * HUD.barWidth
            var top = frame.maxY
            for phase in FramePhase.budgeted {
                let h = Swift.min(sample[phase] * pointsPerSecond, top - frame.minY)
                guard h > 0 else { continue }
                fill(Rect(x: x, y: top - h, width: HUD.barWidth, height: h), pixel: phaseColors[phase.rawValue],
                     scale: scale, canvas: canvas)
                top -= h
            }
        }
        let budgetY = frame.maxY - recorder.budget * pointsPerSecond
        fill(Rect(x: frame.minX, y: budgetY - 0.5 / scale, width: frame.width, height: 1 / scale * 2),
             pixel: budgetPixel, scale: scale, canvas: canvas)
    }

    /// The budget line's label ("16.7 ms", above the line at the graph's left) and the legend under the graph.
    private func drawLabels(budget: Double, graph: Rect, scale: Double, text: TextRenderer, canvas: Canvas) {
        prepare(text)
        if budgetLabel?.budget != budget {
            budgetLabel = (budget, text.layout(TimingChart.format(budget * 1000, decimals: 1) + " ms",
                                               size: HUD.legendFontSize))
        }
        if let label = budgetLabel?.line {
            let budgetY = graph.maxY - graph.height / HUD.graphRange
            text.draw(label, at: Point(graph.minX + 1, budgetY - 2), color: HUD.budgetColor, scale: scale, into: canvas)
        }
        var baseline = graph.maxY + HUD.padding + HUD.legendFontSize
        for row in HUD.legendRows {
            var x = graph.minX
            for phase in row {
                let swatch = HUD.legendFontSize * 0.8
                fill(Rect(x: x, y: baseline - swatch, width: swatch, height: swatch),
                     pixel: phaseColors[phase.rawValue], scale: scale, canvas: canvas)
                let name = legendLines[phase.rawValue]
                text.draw(name, at: Point(x + swatch + 2, baseline), color: HUD.textColor, scale: scale, into: canvas)
                x += swatch + 2 + name.width + 8
            }
            baseline += HUD.legendLineHeight
        }
    }

    private func fill(_ rect: Rect, pixel: UInt32, scale: Double, canvas: Canvas) {
        canvas.fillPixels(rect, pixel: pixel, scale: scale)
    }
}

import Geometry
import Raster
import Text
import Colors
import UserFiles

/// The frame-time chart of a recording, as Android's Profile GPU Rendering draws it: one bar per frame, the whole
/// frame's interval, stacked by phase (CPU time) with the rest of the interval (waiting: vsync, the display, the
/// system) above; a line at the budget and one at twice it; a mark under each frame over the budget (its CPU time
/// past it, or its interval past one and a half, a refresh missed); the frame-time axis labelled in milliseconds, the frames along the bottom, a title with the
/// summary's figures and a legend naming every colour and line. Drawn in pixels (scale 1) with our rasterizer and
/// text. A frame after an idle stretch has no waiting part: its interval is the window's sleep, not its work.
public struct TimingChart {
    /// Margins around the plot, in pixels.
    public static let left = 64.0
    public static let right = 24.0
    public static let top = 92.0
    static let bottom = 44.0
    static let plotHeight = 420.0
    /// Pixels per frame when the chart has room: the plot is at least `minPlotWidth` and at most `maxPlotWidth`
    /// wide; past that, several frames share a column and the tallest shows.
    static let pixelsPerFrame = 3.0
    static let minPlotWidth = 960.0
    static let maxPlotWidth = 2400.0

    static let background = Color(rgb: 255, 255, 255)
    static let gridColor = Color(rgb: 224, 224, 224)
    static let axisColor = Color(rgb: 96, 96, 96)
    static let textColor = Color(rgb: 33, 33, 33)
    static let budgetColor = Color(rgb: 0, 200, 83)
    static let twiceBudgetColor = Color(rgb: 229, 57, 53)
    /// The part of a frame's interval outside its phases.
    static let waitingColor = Color(rgb: 207, 216, 220)
    /// The mark under a frame over the budget.
    static let overBudgetColor = Color(rgb: 183, 28, 28)
    /// The marks' rows under the axis, in pixels below the plot.
    static let overBudgetMark = (top: 2.0, height: 7.0, minWidth: 4.0)
    /// A frame is late when its interval passes this many budgets: it missed a refresh. Intervals of a frame on
    /// time wander around one budget (16.7 ms against 16.67), so one budget would mark them all.
    static let lateInterval = 1.5

    public let rows: [TimingRow]
    public let budget: Double
    public let summary: TimingSummary
    /// The milliseconds between the axis's labelled lines, and the axis's top (a whole number of them): at least
    /// twice the budget, and up to the slowest frame but never past eight budgets. Made once: every bar's height
    /// depends on it.
    public let axis: (step: Double, top: Double)

    /// The chart of `rows` against `budget` (seconds per frame, brought into `TimingFiles.budgetRange`).
    public init(rows: [TimingRow], budget: Double) {
        self.rows = rows
        let range = TimingFiles.budgetRange
        self.budget = budget.isFinite ? Swift.min(Swift.max(budget * 1000, range.lowerBound), range.upperBound) / 1000
            : 1 / 60
        summary = TimingSummary(budget: self.budget, intervals: rows.filter { !$0.followsIdle }.map(\.interval),
                                cpuTimes: rows.map(\.cpuTime), idleGaps: rows.filter(\.followsIdle).count)
        axis = TimingChart.axis(budget: self.budget, slowest: Swift.max(summary.cpuTime.max, summary.interval.max))
    }

    /// The plot's width in pixels for this many frames.
    var plotWidth: Double {
        Swift.min(Swift.max(Double(rows.count) * TimingChart.pixelsPerFrame, TimingChart.minPlotWidth),
                  TimingChart.maxPlotWidth)
    }

    /// The plot area in the image, in pixels.
    var plotFrame: Rect {
        Rect(x: TimingChart.left, y: TimingChart.top, width: plotWidth, height: TimingChart.plotHeight)
    }

    /// The image's size in pixels.
    public var size: (width: Int, height: Int) {
        (Int(TimingChart.left + plotWidth + TimingChart.right),
         Int(TimingChart.top + TimingChart.plotHeight + TimingChart.bottom))
    }

    /// The axis for a budget within `TimingFiles.budgetRange` and the slowest frame's CPU time (seconds): at most
    /// eight steps, each a step of the list, whose last one covers eight of the largest budgets.
    static func axis(budget: Double, slowest: Double) -> (step: Double, top: Double) {
        let wanted = Swift.max(2 * budget, Swift.min(slowest.isFinite ? slowest : 0, 8 * budget)) * 1000
        var step = 1.0
        for candidate in [1.0, 2, 4, 5, 10, 20, 25, 50, 100, 200, 500, 1000, 2000, 5000, 10000] {
            step = candidate
            if wanted / candidate <= 8 { break }
        }
        return (step, (wanted / step).rounded(.up) * step)
    }

    /// The columns of pixels frame `index` covers: [start, end).
    func columns(ofFrame index: Int) -> (start: Int, end: Int) {
        let n = Double(Swift.max(rows.count, 1))
        let start = Int(TimingChart.left + (Double(index) * plotWidth / n).rounded(.down))
        let end = Int(TimingChart.left + (Double(index + 1) * plotWidth / n).rounded(.down))
        return (start, Swift.max(end - (plotWidth / n >= 3 ? 1 : 0), start + 1))  // a gap between wide bars
    }

    /// The height in the image of `seconds` of frame time.
    public func y(ofSeconds seconds: Double) -> Double {
        let axisTop = axis.top / 1000
        return plotFrame.maxY - Swift.min(seconds, axisTop) / axisTop * plotFrame.height
    }

    /// Draws the chart; without `text` (no fonts) the labels and the title are left out.
    public func render(title: String, text: TextRenderer?) -> Canvas {
        let (width, height) = size
        let canvas = Canvas(width: width, height: height, fill: TimingChart.background)
        let plot = plotFrame
        let (step, axisTop) = axis
        // Grid lines and their labels in ms: at most nine, the axis being at most eight steps.
        for line in 0...Int((axisTop / step).rounded()) {
            let value = Double(line) * step
            let y = self.y(ofSeconds: value / 1000)
            fill(Rect(x: plot.minX, y: y.rounded(.down), width: plot.width, height: 1), TimingChart.gridColor, canvas)
            if let text {
                let label = text.layout(TimingChart.format(value, decimals: step < 1 ? 1 : 0) + " ms", size: 12)
                text.draw(label, at: Point(plot.minX - 8 - label.width, y + 4), color: TimingChart.axisColor, scale: 1,
                          into: canvas)
            }
        }
        // The bars, stacked from the bottom in phase order: the phases within the budget (files written are not),
        // then the rest of the interval; a mark under each frame over the budget.
        let colors = FramePhase.budgeted.map { $0.color }
        for (index, row) in rows.enumerated() {
            let (x0, x1) = columns(ofFrame: index)
            var below = 0.0
            for (phase, seconds) in row.phases.enumerated() where seconds > 0 && phase < colors.count {
                bar(x0, x1, from: below, to: below + seconds, colors[phase], canvas)
                below += seconds
            }
            let interval = row.followsIdle ? 0 : row.interval
            if interval > below { bar(x0, x1, from: below, to: interval, TimingChart.waitingColor, canvas) }
            if row.cpuTime > budget || interval > TimingChart.lateInterval * budget {
                // At least a few pixels wide, so that one frame among thousands shows.
                let mark = TimingChart.overBudgetMark
                let width = Swift.max(Double(x1 - x0), mark.minWidth)
                fill(Rect(x: (Double(x0 + x1) - width) / 2, y: plot.maxY + mark.top, width: width, height: mark.height),
                     TimingChart.overBudgetColor, canvas)
            }
        }
        // The budget line, and twice the budget when it is on the axis.
        fill(Rect(x: plot.minX, y: y(ofSeconds: budget).rounded() - 1, width: plot.width, height: 2),
             TimingChart.budgetColor, canvas)
        if 2 * budget * 1000 <= axisTop + 1e-9 {
            fill(Rect(x: plot.minX, y: y(ofSeconds: 2 * budget).rounded(), width: plot.width, height: 1),
                 TimingChart.twiceBudgetColor, canvas)
        }
        // Axes.
        fill(Rect(x: plot.minX - 1, y: plot.minY, width: 1, height: plot.height + 1), TimingChart.axisColor, canvas)
        fill(Rect(x: plot.minX - 1, y: plot.maxY, width: plot.width + 1, height: 1), TimingChart.axisColor, canvas)
        guard let text else { return canvas }
        // Frame numbers along the bottom: about every 100 px.
        if !rows.isEmpty {
            let every = Swift.max(1, TimingChart.niceFrameStep(Double(rows.count) * 100 / plot.width))
            var i = 0
            while i < rows.count {
                let x = Double(columns(ofFrame: i).start)
                let label = text.layout(String(rows[i].frame), size: 12)
                text.draw(label, at: Point(x, plot.maxY + 18), color: TimingChart.axisColor, scale: 1, into: canvas)
                fill(Rect(x: x, y: plot.maxY, width: 1, height: 5), TimingChart.axisColor, canvas)
                i += every
            }
            let axisName = text.layout("frame", size: 12)
            text.draw(axisName, at: Point(plot.maxX - axisName.width, plot.maxY + 36), color: TimingChart.axisColor,
                      scale: 1, into: canvas)
        }
        // Title, figures and legend.
        text.draw(text.layout(title, size: 18, maxWidth: plot.maxX - 16), at: Point(16, 28), color: TimingChart.textColor,
                  scale: 1, into: canvas)
        text.draw(text.layout(figures, size: 13, maxWidth: plot.maxX - 16), at: Point(16, 52),
                  color: TimingChart.textColor, scale: 1, into: canvas)
        // The legend: every colour and line of the chart, by its shape.
        var x = 16.0
        func entry(_ name: String, _ key: Rect, _ color: Color) {
            fill(key.offsetBy(dx: x, dy: 0), color, canvas)
            let label = text.layout(name, size: 12)
            text.draw(label, at: Point(x + key.maxX + 4, 77), color: TimingChart.textColor, scale: 1, into: canvas)
            x += key.maxX + 4 + label.width + 16
        }
        let box = Rect(x: 0, y: 66, width: 12, height: 12)
        for phase in FramePhase.budgeted { entry(phase.name, box, phase.color) }
        entry("waiting", box, TimingChart.waitingColor)
        let ms = TimingChart.format(budget * 1000, decimals: 2)
        entry("budget " + ms + " ms", Rect(x: 0, y: 71, width: 16, height: 2), TimingChart.budgetColor)
        entry("2× budget", Rect(x: 0, y: 71, width: 16, height: 1), TimingChart.twiceBudgetColor)
        entry("over budget", Rect(x: 0, y: 71, width: 12, height: TimingChart.overBudgetMark.height),
              TimingChart.overBudgetColor)
        return canvas
    }

    /// A bar in frame columns [x0, x1) from `low` to `high` seconds; nothing when under half a pixel.
    private func bar(_ x0: Int, _ x1: Int, from low: Double, to high: Double, _ color: Color, _ canvas: Canvas) {
        let yTop = y(ofSeconds: high).rounded(), yBottom = y(ofSeconds: low).rounded()
        guard y(ofSeconds: low) - y(ofSeconds: high) >= 0.5 else { return }
        fill(Rect(x: Double(x0), y: yTop, width: Double(x1 - x0), height: yBottom - yTop), color, canvas)
    }

    /// Draws the chart with the standard fonts; when they cannot be loaded, without its labels and with a
    /// warning saying what to install.
    public func renderWithStandardFonts(title: String) -> (canvas: Canvas, warning: String?) {
        do {
            return (render(title: title, text: TextRenderer(fonts: try FontSet.standard())), nil)
        } catch {
            return (render(title: title, text: nil), "\(error); the chart is drawn without its labels")
        }
    }

    /// The summary's figures in one line.
    public var figures: String {
        let s = summary
        func ms(_ v: Double) -> String { TimingChart.format(v * 1000, decimals: 2) }
        return "\(s.frameCount) frames · CPU p50 \(ms(s.cpuTime.p50)) · p90 \(ms(s.cpuTime.p90)) · p99 \(ms(s.cpuTime.p99)) · "
            + "max \(ms(s.cpuTime.max)) ms · janky \(s.jankyFrames) (\(s.badlyJankyFrames) over 2×) · "
            + "dropped \(s.droppedFrames) · interval p99 \(ms(s.interval.p99)) ms"
    }

    static func niceFrameStep(_ wanted: Double) -> Int {
        for step in [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000] where Double(step) >= wanted {
            return step
        }
        return Int(wanted.rounded(.up))
    }

    /// A number with `decimals` digits after the point.
    public static func format(_ value: Double, decimals: Int) -> String {
        var buffer = ByteBuffer(capacity: 32)
        defer { buffer.deallocate() }
        buffer.append(fixed: value, decimals: decimals)
        return buffer.string
    }

    private func fill(_ rect: Rect, _ color: Color, _ canvas: Canvas) {
        canvas.fillPixels(rect, pixel: color.premultipliedPixel, scale: 1)
    }
}

extension FramePhase {
    /// The phase's colour in the HUD's bars and the chart (after Android's Profile GPU Rendering: input teal, update
    /// green, draw blue, upload purple, present orange; output, which the phone never pays, grey).
    public var color: Color {
        switch self {
        case .input: Color(rgb: 0, 150, 136)
        case .update: Color(rgb: 76, 175, 80)
        case .draw: Color(rgb: 33, 150, 243)
        case .upload: Color(rgb: 171, 71, 188)
        case .present: Color(rgb: 255, 152, 0)
        case .output: Color(rgb: 158, 158, 158)
        }
    }
}

import Geometry
import Layers
import Motion
import Raster
import Styles
import Text
import Colors

/// QQ's sticky header (ZNStickyRefresher): a grey blob with a refresh icon that stretches like taffy as the list
/// is pulled, fires while the finger is still down, gives way to a spinner and ends with a result row.
///
/// The blob is drawn in its own 30 pt wide box, `H − 14` tall for a pull of H between 44 and 88 (docs/reference.md §1,
/// Sticky): a top half circle of radius R·s about (15, 15), a bottom half circle of radius R·s² whose centre is
/// R·s² above the box's bottom, and two quadratic curves between them whose control points sit R·s² either side
/// of the middle, halfway down; s falls from 1 to 0.4 over the stretch and also scales the icon.
///
/// Layout: the 157 × 44 refresh view is centred across the header. Short of 44 pt it rests at the bottom of the
/// header, so the list uncovers it; past 44 pt its top follows the top of the gap, so the blob hangs from there
/// and stretches down to 7 pt above the content. The blob's outline is rebuilt only when the pull changes it.
final class StickyEffect: StyledEffect {
    // MARK: Constants (docs/reference.md §1, Sticky)

    /// The header's original height, 44 pt (ZNStickyRefresher: originalHeight).
    static let originalHeight = 44.0
    /// The width of the refresh view that holds the blob and the result row (ZNStickyRefresher: 157×44 view).
    static let viewWidth = 157.0
    /// Blob radius R (ZNStickyRefresher: 30×30 blob).
    static let blobRadius = 15.0
    /// The blob's left edge inside the refresh view (ZNStickyRefresher: blob at (63, 7)).
    static let blobX = 63.0
    /// The margin above and below the blob (ZNStickyRefresher: margin 7, the blob's y).
    static let blobMargin = 7.0
    /// How far past the original height the blob stretches (ZNStickyRefresher: maximum stretch 44).
    static let maxStretch = 44.0
    /// How much the top circle shrinks at full stretch: s = 1 − 0.6·(H − 44)/44 (ZNStickyRefresher: maximum scale
    /// factor 0.6).
    static let maxScaleFactor = 0.6
    /// The blob's fill, UIKit's dark grey (white 1/3) at alpha 0.6 (ZNStickyRefresher: dark grey, alpha 0.6).
    static let blobColor = Color(white: 1.0 / 3.0, alpha: 0.6)
    /// The blob in dark: the demo has none, and its dark grey would vanish on black, so the system grey at the same
    /// alpha (docs/reference.md §1, "Dark variants").
    static let darkBlobColor = SystemColor.systemGray.dark.withAlphaMultiplied(by: 0.6)
    /// The refresh icon's side (ZNStickyRefresher: a 20×20 icon).
    static let iconSize = 20.0
    /// The icon's offset inside the blob (ZNStickyRefresher: icon at (5, 5)).
    static let iconInset = 5.0
    /// The pull that fires the refresh: twice the original height (ZNStickyRefresher: height > 2·originalHeight).
    static let triggerHeight = 2 * originalHeight
    /// How long the blob takes to fade and collapse when a refresh begins (ZNStickyRefresher: 0.15 s).
    static let blobFadeDuration = 0.15
    /// When the spinner starts after the refresh begins (ZNStickyRefresher: 0.2 s later).
    static let spinnerDelay = 0.2
    /// How long the result row takes to fade in (ZNStickyRefresher: 0.5 s).
    static let resultFadeDuration = 0.5
    /// How long the result stays before the inset collapses (ZNStickyRefresher: a 0.5 s wait).
    static let resultWait = 0.5
    /// How long the inset takes to collapse after the result (ZNStickyRefresher: 0.5 s).
    static let collapseDuration = 0.5
    /// The result row's font size (ZNStickyRefresher: 14 pt).
    static let resultFontSize = 14.0
    /// The result row's colour (ZNStickyRefresher: grey 0.54).
    static let resultColor = Color(white: 0.54)

    // Sizes of the drawn icons, not given by docs/reference.md: chosen to read like the phone's at these sizes.

    /// The refresh arrow's circle radius inside its 20 pt box; not from docs/reference.md.
    static let arrowRadius = 6.0
    /// The refresh arrow's line width; not from docs/reference.md.
    static let arrowLineWidth = 2.0
    /// The refresh arrow's colour: white on the grey blob; not from docs/reference.md.
    static let arrowColor = Color.white
    /// The spinner: UIActivityIndicatorView's small style, 20 pt, 12 spokes 2 pt wide from 4.5 to 9.5 pt out, a
    /// turn a second, grey 0.5, each spoke behind the lit one 0.07 fainter (the last at 0.23); not from
    /// docs/reference.md.
    static let spinnerStyle = ActivityIndicatorStyle(color: Color(white: 0.5), trailingAlpha: 0.23)
    /// The result icon's side and its gap to the text; not from docs/reference.md.
    static let resultIconSize = 16.0, resultIconGap = 6.0

    /// The metrics: fires at 88 with the finger down, adds 44 at once, keeps the result 0.5 s + 0.5 s, then takes
    /// the inset back over 0.5 s with UIView's default curve.
    private(set) var metrics: RefreshMetrics
    /// The parameters in use; a change shows from the next frame and keeps the pull or refresh under way.
    var style: Style {
        didSet { styleDidChange() }
    }

    static func metrics(for s: Style) -> RefreshMetrics {
        var metrics = RefreshMetrics(headerHeight: s.originalHeight, triggerDistance: s.triggerHeight,
                                     trigger: .atThreshold, refreshingInset: s.originalHeight, insertDuration: 0,
                                     finishing: [RefreshInsetStage(delay: s.resultFadeDuration + s.resultWait,
                                                                   duration: s.collapseDuration)],
                                     hasResultRow: true)
        metrics.showsAtOnce = true
        return metrics
    }

    // MARK: The blob's geometry

    /// The blob's outline at one header height, in the blob's own coordinates (x 0…30, y 0…H − 14).
    struct BlobGeometry: Equatable, Sendable {
        /// The header height it was made for, clamped to 44…88.
        var height: Double
        /// s = 1 − 0.6·(H − 44)/44, from 1 at 44 to 0.4 at 88; the icon scales by it.
        var scale: Double
        var topCenter: Point
        /// R·s.
        var topRadius: Double
        var bottomCenter: Point
        /// R·s².
        var bottomRadius: Double
        /// The control points of the curve down the left side and of the one up the right side.
        var leftControl: Point
        var rightControl: Point

        init(height: Double, style: Style = Style()) {
            blobMargin = style.blobMargin
            let r = style.blobRadius
            let h = Swift.min(Swift.max(height, style.originalHeight), style.triggerHeight)
            let s = 1 - style.maxScaleFactor * (h - style.originalHeight) / style.maxStretch
            self.height = h
            scale = s
            topCenter = Point(r, r)
            topRadius = r * s
            bottomRadius = r * s * s
            bottomCenter = Point(r, h - 2 * style.blobMargin - bottomRadius)
            let midY = r + (bottomCenter.y - r) / 2
            leftControl = Point(r - bottomRadius, midY)
            rightControl = Point(r + bottomRadius, midY)
        }

        /// The box the blob fills: 30 wide, H − 14 tall.
        /// The margin above and below the blob it was made with.
        var blobMargin: Double

        var boxHeight: Double { height - 2 * blobMargin }

        /// The closed outline: the top half circle left to right, the right curve down, the bottom half circle
        /// right to left, the left curve up.
        var path: Path {
            var p = Path()
            p.addArc(center: topCenter, radius: topRadius, startAngle: Double.pi, endAngle: 2 * Double.pi,
                     clockwise: true)
            p.quad(to: Point(bottomCenter.x + bottomRadius, bottomCenter.y), control: rightControl)
            p.addArc(center: bottomCenter, radius: bottomRadius, startAngle: 0, endAngle: Double.pi, clockwise: true)
            p.quad(to: Point(topCenter.x - topRadius, topCenter.y), control: leftControl)
            p.close()
            return p
        }
    }

    // MARK: Phases

    /// ZNStickyRefresher's own states, which the effect goes through as the control's state and the pull change.
    enum Phase: Equatable, Sendable {
        /// At rest, nothing pulled.
        case original
        /// Pulled less than the original height.
        case normal
        /// Pulled between 44 and 88: the blob stretches.
        case showStickyEffect
        case refreshing
        case succeeded
        case failed
    }

    private(set) var phase = Phase.original {
        didSet { if phase != oldValue { phaseDidChange?(phase) } }
    }
    /// Called with each new phase.
    var phaseDidChange: ((Phase) -> Void)?

    // MARK: Layers

    let layer = Layer()
    /// The 157 × 44 refresh view, centred across the header.
    let refreshView = Layer()
    /// The blob's box, hung from its top edge and cut to its bounds, so that collapsing its height hides it.
    let blob = Layer()
    let blobShape = ShapeLayer()
    /// The refresh icon, scaled by s about its centre.
    let icon = Layer()
    let spinner = ActivityIndicatorLayer(style: StickyEffect.spinnerStyle)
    let resultRow = ResultRowLayer()

    private var busy = false
    /// The header height the blob was last laid out for; NaN forces a layout.
    private var blobHeight = Double.nan
    private var rootFrame = Rect.zero

    private let fadeOut: BasicAnimation<Double>
    private let collapse: BasicAnimation<Double>
    private let spinnerHold: BasicAnimation<Double>
    private let resultFade: BasicAnimation<Double>

    init(style: Style = Style()) {
        self.style = style
        metrics = StickyEffect.metrics(for: style)
        layer.name = "sticky"
        layer.addSublayer(refreshView)

        blob.anchorPoint = Point(0.5, 0)
        blob.masksToBounds = true
        blob.addSublayer(blobShape)
        icon.frame = Rect(x: StickyEffect.iconInset, y: StickyEffect.iconInset, width: StickyEffect.iconSize,
                          height: StickyEffect.iconSize)
        for part in StickyEffect.makeArrow() { icon.addSublayer(part) }
        blob.addSublayer(icon)
        refreshView.addSublayer(blob)

        spinner.isHidden = true
        refreshView.addSublayer(spinner)

        resultRow.alignmentMode = .center
        resultRow.verticalAlignment = .center
        resultRow.isHidden = true
        refreshView.addSublayer(resultRow)

        fadeOut = BasicAnimation<Double>(keyPath: "opacity", from: 1, to: 0)
        collapse = BasicAnimation<Double>(keyPath: "bounds.size.height", to: 0)
        for a in [fadeOut, collapse] { a.timingFunction = .easeInEaseOut }
        // Keeps the spinner out of sight until it starts; the model opacity (1) shows after.
        spinnerHold = BasicAnimation<Double>(keyPath: "opacity", from: 0, to: 0)
        resultFade = BasicAnimation<Double>(keyPath: "opacity", from: 0, to: 1)
        resultFade.timingFunction = .easeInEaseOut
        applyStyle()
    }

    private func styleDidChange() {
        metrics = StickyEffect.metrics(for: style)
        applyStyle()
    }

    /// Sizes, colours and timings from the style; the blob and the view are laid out again on the next frame.
    private func applyStyle() {
        refreshView.frame = Rect(x: 0, y: 0, width: style.viewWidth, height: style.originalHeight)
        let d = 2 * style.blobRadius
        blob.frame = Rect(x: style.blobX, y: style.blobMargin, width: d, height: d)
        blobShape.frame = Rect(x: 0, y: 0, width: d, height: d)
        blobShape.fillColor = style.blobColor
        spinner.position = Point(style.viewWidth / 2, style.originalHeight / 2)
        resultRow.fontSize = style.resultFontSize
        resultRow.foregroundColor = style.resultColor
        // The text is centred half an icon and a gap right of the middle, so that icon and text together are centred.
        let shift = (StickyEffect.resultIconSize + StickyEffect.resultIconGap) / 2
        resultRow.frame = Rect(x: shift, y: 0, width: style.viewWidth, height: style.originalHeight)
        for a in [fadeOut, collapse] { a.duration = style.blobFadeDuration }
        spinnerHold.duration = style.spinnerDelay
        resultFade.duration = style.resultFadeDuration
        rootFrame = .zero
        let height = blobHeight.isNaN ? style.originalHeight : blobHeight
        blobHeight = .nan
        if !busy { layoutBlob(height: height) }
    }

    /// MJRefresh's texts, with the style's results in their place.
    func strings(for language: RefreshLanguage) -> RefreshStrings {
        style.texts.strings(language, over: RefreshStrings.standard(language))
    }

    // MARK: Frames

    func update(pull: RefreshPull) {
        let h = pull.distance
        // Short of 44 the view rests at the header's bottom; past it, its top follows the top of the gap.
        let frame = Rect(x: 0, y: style.originalHeight - Swift.max(h, style.originalHeight),
                         width: pull.headerSize.width, height: style.originalHeight)
        if frame != rootFrame {
            rootFrame = frame
            layer.frame = frame
            refreshView.frame = Rect(x: ((frame.width - style.viewWidth) / 2).rounded(), y: 0,
                                     width: style.viewWidth, height: style.originalHeight)
        }
        guard !busy else { return }
        phase = h <= 0 ? .original : h < style.originalHeight ? .normal : .showStickyEffect
        layoutBlob(height: h)
    }

    /// Lays the blob out for header height `height` (clamped to 44…88); nothing is rebuilt when it is unchanged.
    private func layoutBlob(height: Double) {
        let h = Swift.min(Swift.max(height, style.originalHeight), style.triggerHeight)
        guard h != blobHeight else { return }
        blobHeight = h
        let g = BlobGeometry(height: h, style: style)
        blobShape.path = g.path
        blob.bounds.size = Size(2 * style.blobRadius, g.boxHeight)
        blob.position = Point(style.blobX + style.blobRadius, style.blobMargin)
        icon.transform = AffineTransform(scaleX: g.scale, y: g.scale)
    }

    func transition(from old: RefreshState, to new: RefreshState, pull: RefreshPull) {
        switch new {
        case .refreshing:
            busy = true
            phase = .refreshing
            startRefreshing(pull: pull)
        case .finishing(let result):
            busy = true
            phase = result == .failure ? .failed : .succeeded
            showResult(result, title: strings(for: pull.language).headerTitle(for: new), at: pull.time)
        case .idle, .pulling, .armed, .noMoreData, .willRefresh, .releaseToFloor, .floorOpening, .floor, .floorClosing:
            if busy || old.isBusy { reset() }
        }
    }

    /// The blob fades and collapses; the spinner turns after a short pause.
    private func startRefreshing(pull: RefreshPull) {
        let time = pull.time
        resultRow.isHidden = true
        resultRow.removeAllAnimations()
        blob.removeAllAnimations()
        // The refresh fires within the frame that crossed the threshold: the blob fades from the shape of that pull.
        layoutBlob(height: pull.distance)
        // The model is where the fade ends; the animations run from the current look to it.
        let start = blob.localTime(atParentTime: time)
        fadeOut.beginTime = start
        collapse.beginTime = start
        collapse.fromValue = blob.bounds.height
        blob.opacity = 0
        blob.bounds.size.height = 0
        blob.add(fadeOut, forKey: "fade")
        blob.add(collapse, forKey: "collapse")

        spinner.removeAllAnimations()
        spinner.opacity = 1
        spinnerHold.beginTime = spinner.localTime(atParentTime: time)
        spinner.add(spinnerHold, forKey: "hold")
        spinner.startAnimating(at: time + style.spinnerDelay)
    }

    /// The spinner stops and the result row fades in with its icon.
    private func showResult(_ result: RefreshResult, title: String, at time: Double) {
        spinner.removeAllAnimations()
        spinner.stopAnimating()
        blob.removeAllAnimations()
        blob.opacity = 0
        resultRow.string = title
        resultRow.iconPath = result == .failure ? StickyEffect.failureIcon : StickyEffect.successIcon
        resultRow.isHidden = false
        resultRow.removeAllAnimations()
        resultRow.opacity = 1
        resultFade.beginTime = resultRow.localTime(atParentTime: time)
        resultRow.add(resultFade, forKey: "fade")
    }

    /// Back to the original look once the refresh is over.
    private func reset() {
        busy = false
        phase = .original
        blob.removeAllAnimations()
        blob.opacity = 1
        spinner.removeAllAnimations()
        spinner.stopAnimating()
        resultRow.removeAllAnimations()
        resultRow.isHidden = true
        blobHeight = .nan
        layoutBlob(height: style.originalHeight)
    }

    // MARK: Drawn icons

    /// The refresh icon in its 20 pt box: three quarters of a circle, clockwise from the right round to the top,
    /// with an arrowhead at the top pointing on clockwise.
    static func makeArrow() -> [ShapeLayer] {
        let c = StickyEffect.iconSize / 2
        let r = StickyEffect.arrowRadius
        let arc = ShapeLayer()
        arc.frame = Rect(x: 0, y: 0, width: StickyEffect.iconSize, height: StickyEffect.iconSize)
        var path = Path()
        path.addArc(center: Point(c, c), radius: r, startAngle: 0, endAngle: 1.5 * Double.pi, clockwise: true)
        arc.path = path
        arc.fillColor = nil
        arc.strokeColor = StickyEffect.arrowColor
        arc.lineWidth = StickyEffect.arrowLineWidth
        arc.lineCap = .round
        let head = ShapeLayer()
        head.frame = arc.frame
        let w = StickyEffect.arrowLineWidth
        var tip = Path()
        tip.move(to: Point(c + 2 * w, c - r))
        tip.line(to: Point(c - 0.5 * w, c - r - 1.6 * w))
        tip.line(to: Point(c - 0.5 * w, c - r + 1.6 * w))
        tip.close()
        head.path = tip
        head.fillColor = StickyEffect.arrowColor
        return [arc, head]
    }

    /// A circle with a tick, as an outline to fill, in a 16 pt box.
    static let successIcon: Path = {
        var mark = Path()
        let s = StickyEffect.resultIconSize
        mark.move(to: Point(s * 0.28, s * 0.52))
        mark.line(to: Point(s * 0.44, s * 0.68))
        mark.line(to: Point(s * 0.72, s * 0.36))
        return resultIcon(mark: mark)
    }()

    /// A circle with a cross, as an outline to fill, in a 16 pt box.
    static let failureIcon: Path = {
        var mark = Path()
        let s = StickyEffect.resultIconSize
        mark.move(to: Point(s * 0.34, s * 0.34))
        mark.line(to: Point(s * 0.66, s * 0.66))
        mark.move(to: Point(s * 0.66, s * 0.34))
        mark.line(to: Point(s * 0.34, s * 0.66))
        return resultIcon(mark: mark)
    }()

    /// The ring and `mark` stroked 1.5 pt wide, as one path to fill with the non-zero rule: the ring's two
    /// outlines wind opposite ways, and the mark inside it does not touch the ring.
    private static func resultIcon(mark: Path) -> Path {
        let s = StickyEffect.resultIconSize
        let stroker = Stroker()
        var ring = Path()
        ring.addCircle(center: Point(s / 2, s / 2), radius: s / 2 - 0.75)
        let style = StrokeStyle(lineWidth: 1.5, lineCap: .round, lineJoin: .round)
        var outline = stroker.stroke(ring, style: style, tolerance: 0.01)
        for e in stroker.stroke(mark, style: style, tolerance: 0.01).elements { outline.append(e) }
        return outline
    }
}

/// The result row: a line of text centred in its bounds with a small icon drawn before it, in the text's colour.
///
/// The icon's place depends on the text's width, which only the renderer's fonts know: the row measures the line
/// when it draws (once per string) and puts the icon a gap to the left of it.
final class ResultRowLayer: TextLayer {
    /// The icon's outline in a `StickyEffect.resultIconSize` box, filled with the text's colour.
    var iconPath = Path()
    private var measured: (string: String, size: Double, fonts: ObjectIdentifier, width: Double)?

    /// The width of the current string as the renderer lays it out, measured once per string.
    private func textWidth(fonts: FontSet, size: Double) -> Double {
        let id = ObjectIdentifier(fonts)
        if let m = measured, m.string == string, m.size == size, m.fonts == id { return m.width }
        let width = TextLine(string, fonts: fonts, size: size).width
        measured = (string, size, id, width)
        return width
    }

    override func draw(in context: LayerDrawingContext) {
        super.draw(in: context)
        guard !string.isEmpty, !iconPath.isEmpty, let text = context.renderer.loadTextRenderer() else { return }
        let (color, size) = textPresentation(at: context.time)
        let b = presentation(at: context.time).bounds
        let left = b.minX + (b.width - textWidth(fonts: text.fonts, size: size)) / 2
        let side = StickyEffect.resultIconSize
        let origin = Point(left - StickyEffect.resultIconGap - side, b.midY - side / 2)
        context.fill(iconPath, offset: origin, color: color)
    }

    override func contentBounds(at time: Double) -> Rect? {
        guard let box = super.contentBounds(at: time) else { return nil }
        let extra = StickyEffect.resultIconGap + StickyEffect.resultIconSize
        let b = presentation(at: time).bounds
        let top = Swift.min(box.minY, b.midY - StickyEffect.resultIconSize / 2)
        let bottom = Swift.max(box.maxY, b.midY + StickyEffect.resultIconSize / 2)
        return Rect(x: box.minX - extra, y: top, width: box.width + extra, height: bottom - top)
    }

    override var contentPrimitiveCount: Int { string.isEmpty ? 0 : 2 }
}

extension StickyEffect {
    /// The sticky header's parameters; the defaults are the constants above.
    struct Style: StyleValue {
        var originalHeight = StickyEffect.originalHeight
        var triggerHeight = StickyEffect.triggerHeight
        var viewWidth = StickyEffect.viewWidth
        var blobRadius = StickyEffect.blobRadius
        var blobX = StickyEffect.blobX
        var blobMargin = StickyEffect.blobMargin
        var maxStretch = StickyEffect.maxStretch
        var maxScaleFactor = StickyEffect.maxScaleFactor
        var blobColor = StickyEffect.blobColor
        var blobFadeDuration = StickyEffect.blobFadeDuration
        var spinnerDelay = StickyEffect.spinnerDelay
        var resultFadeDuration = StickyEffect.resultFadeDuration
        var resultWait = StickyEffect.resultWait
        var collapseDuration = StickyEffect.collapseDuration
        var resultFontSize = StickyEffect.resultFontSize
        var resultColor = StickyEffect.resultColor

        /// The texts it shows, in both languages.
        var texts = HeaderTexts(RefreshStrings.standard)

        init() {}

        static var fields: [StyleField<Style>] {
            [
                .number("originalHeight", \.originalHeight, "pt", 10...500,
                        "the header's height, where the blob starts to stretch, and the refreshing inset"),
                .number("triggerHeight", \.triggerHeight, "pt", 10...1000,
                        "the pull that fires the refresh while the finger is still down"),
                .number("viewWidth", \.viewWidth, "pt", 10...1000, "width of the view holding the blob and the result row"),
                .number("blobRadius", \.blobRadius, "pt", 1...200, "the blob's radius R"),
                .number("blobX", \.blobX, "pt", 0...1000, "the blob's left edge inside that view"),
                .number("blobMargin", \.blobMargin, "pt", 0...200, "the margin above and below the blob"),
                .number("maxStretch", \.maxStretch, "pt", 1...1000, "how far past the header's height the blob stretches"),
                .number("maxScaleFactor", \.maxScaleFactor, "", 0...1, "how much the top circle shrinks at full stretch"),
                .color("blobColor", \.blobColor, dark: StickyEffect.darkBlobColor, "the blob's fill"),
                .number("blobFadeDuration", \.blobFadeDuration, "s", 0...10, "how long the blob takes to fade when a refresh begins"),
                .number("spinnerDelay", \.spinnerDelay, "s", 0...10, "when the spinner starts after the refresh begins"),
                .number("resultFadeDuration", \.resultFadeDuration, "s", 0...10, "how long the result row takes to fade in"),
                .number("resultWait", \.resultWait, "s", 0...60, "how long the result stays before the inset collapses"),
                .number("collapseDuration", \.collapseDuration, "s", 0...10, "how long the inset takes to collapse"),
                .number("resultFontSize", \.resultFontSize, "pt", 4...72, "the result row's font size"),
                .color("resultColor", \.resultColor, dark: SystemColor.secondaryLabel.dark, "the result row's colour"),
            ]
                + HeaderTexts.fields(at: \.texts, [.succeeded, .failed])
        }
    }
}

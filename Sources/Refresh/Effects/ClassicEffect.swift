#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import Layers
import Motion
import Raster
import Styles
import Text
import Colors

/// The classic header of MJRefresh and EGORefreshTableHeaderView: a downward arrow that flips when letting go would
/// refresh, the state's text with the last-updated line below it, and the iOS activity indicator while refreshing.
///
/// The texts are the control's (English or Chinese, `RefreshControl.title` and `lastUpdatedText`), both lines in
/// bold 14 pt as MJRefresh draws them; while finishing the state line reads as idle again, since MJRefresh's header
/// is back in Idle when a refresh ends (it has no result row). The arrow sits left of the wider of the two lines,
/// as MJRefresh's normal header places it, and flips through the right. The arrow's flip and the indicator's turn
/// are worked out from the frame's time in `update(pull:)`, so any frame can be drawn on its own.
public final class ClassicEffect: StyledEffect {
    // MARK: Constants

    /// How long the arrow takes to flip, 0.18 s (EGORefreshTableHeaderView's FLIP_ANIMATION_DURATION).
    static let flipDuration = 0.18
    /// The arrow's turn while armed, a hair short of −180° (MJRefresh's transform rotation 0.000001 − π): negative
    /// is anticlockwise on a screen whose y grows downwards, so the shorter way there takes the arrow's tip from
    /// the bottom through the right to the top, and back the same way.
    static let flippedAngle = 0.000001 - Double.pi
    /// The arrow image's size, 15 × 40 pt; not in docs/reference.md: MJRefresh's arrow.png.
    static let arrowSize = Size(15, 40)
    /// The arrow's colour; not in docs/reference.md: the grey of MJRefresh's arrow.png.
    static let arrowColor = Color(rgb: 150, 150, 150)
    /// The arrow's line width, 1.5 pt; not in docs/reference.md: read off MJRefresh's arrow.png.
    static let arrowLineWidth = 1.5
    /// The activity indicator: UIActivityIndicatorView's gray style, 20 pt, 12 spokes 2 pt wide from 4.5 to 9.5 pt
    /// out, grey RGB (128, 128, 128), fading to 0.2 behind the leading spoke, a turn a second in 12 steps; not in
    /// docs/reference.md: measured off UIActivityIndicatorView.
    static let spinnerStyle = ActivityIndicatorStyle()

    public private(set) var metrics: RefreshMetrics
    /// The parameters in use; a change shows from the next frame and keeps the pull or refresh under way.
    public var style: Style {
        didSet { styleDidChange() }
    }

    static func metrics(for s: Style) -> RefreshMetrics {
        RefreshMetrics(headerHeight: s.headerHeight, insertDuration: s.insertDuration,
                       finishing: [RefreshInsetStage(duration: s.removeDuration)])
    }
    public let layer = Layer()
    /// The state and last-updated lines, MJRefreshStateHeader's, as the gif header's.
    let labels: StateLabels
    public var stateLabel: TextLayer { labels.stateLabel }
    var lastUpdatedLabel: TextLayer { labels.lastUpdatedLabel }
    /// The arrow, turned about its centre by `arrowAngle`.
    public let arrow = ShapeLayer()
    /// The activity indicator: 12 spokes, turned in steps of 30°.
    let spinner = ActivityIndicatorLayer(style: ClassicEffect.spinnerStyle)

    private var state = RefreshState.idle
    private var flipFrom = 0.0, flipTo = 0.0, flipStart = -Double.infinity
    private var spinStart = 0.0
    private var fadeStart: Double?
    private var arrowIsPlaced = false

    /// The arrow's turn in the last frame, radians clockwise on the screen (negative: anticlockwise).
    private(set) var arrowAngle = 0.0
    /// How many 30° steps the indicator has turned in the last frame (0…11).
    private(set) var spinnerStep = 0
    /// The indicator's alpha in the last frame (it fades out while the inset goes back).
    var spinnerAlpha: Double { spinner.fade }

    public init(style: Style = Style()) {
        self.style = style
        metrics = ClassicEffect.metrics(for: style)
        labels = StateLabels(in: layer)
        arrow.fillColor = nil
        arrow.lineCap = .round
        arrow.lineJoin = .round
        layer.addSublayer(arrow)
        layOut()

        spinner.isHidden = true
        layer.addSublayer(spinner)
    }

    // MARK: RefreshEffect

    /// MJRefresh's texts, with the style's in their place.
    public func strings(for language: RefreshLanguage) -> RefreshStrings {
        style.texts.strings(language, over: RefreshStrings.standard(language))
    }

    public func didMove(to control: RefreshControl?) {
        labels.didMove(to: control)
    }

    public func transition(from old: RefreshState, to new: RefreshState, pull: RefreshPull) {
        let time = pull.time
        state = new
        labels.transition(to: new)
        let armed = new == .armed
        let target = armed ? ClassicEffect.flippedAngle : 0
        switch new {
        // Armed for the floor, the arrow turns back down (SmartRefreshLayout's classic header, docs/reference.md §10).
        case .armed, .pulling, .idle, .releaseToFloor:
            if old.isBusy {
                // Back from a refresh the arrow is down again at once (MJRefresh resets its transform).
                flipFrom = 0
                flipTo = 0
                flipStart = -Double.infinity
            } else if target != flipTo {
                flipFrom = arrowAngle(at: time)
                flipTo = target
                flipStart = time
            }
            fadeStart = nil
        case .refreshing, .willRefresh:
            if !old.isBusy && old != .willRefresh { spinStart = time }
            fadeStart = nil
        case .finishing:
            fadeStart = time
        case .noMoreData, .floorOpening, .floor, .floorClosing:
            break
        }
    }

    /// The arrow's turn at `time`: it flips to `flippedAngle` (−180°, through the right) over 0.18 s when armed and
    /// back when disarmed (ease in, ease out, as a UIView animation), from wherever it was.
    func arrowAngle(at time: Double) -> Double {
        let f = (time - flipStart) / style.flipDuration
        guard f < 1 else { return flipTo }
        return flipFrom + (flipTo - flipFrom) * TimingFunction.easeInEaseOut.value(at: Swift.max(0, f))
    }

    public func update(pull: RefreshPull) {
        let time = pull.time
        let size = pull.headerSize
        let relaid = labels.update(size: size, showsResult: metrics.hasResultRow, fallback: strings(for:))
        if relaid || !arrowIsPlaced { placeArrow(in: size) }

        let busy = state.isBusy || state == .willRefresh
        arrow.isHidden = busy
        spinner.isHidden = !busy
        if busy {
            spinnerStep = spinner.style.step(after: time - spinStart)
            spinner.show(step: spinnerStep)
            var fade = 1.0
            if let start = fadeStart {
                fade = 1 - Swift.min(1, Swift.max(0, (time - start) / style.removeDuration))
            }
            spinner.fade = fade
        } else {
            arrowAngle = arrowAngle(at: time)
            arrow.transform = AffineTransform(rotationAngle: arrowAngle)
            spinner.fade = 1
        }
    }

    // MARK: Layout

    private func styleDidChange() {
        metrics = ClassicEffect.metrics(for: style)
        layOut()
    }

    /// The labels' look and the arrow from the style.
    private func layOut() {
        labels.fontSize = style.fontSize
        labels.textColor = style.textColor
        labels.labelLeftInset = style.labelLeftInset
        let size = style.arrowSize
        arrow.bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
        var path = Path()
        let mid = size.width / 2, inset = style.arrowLineWidth
        path.move(to: Point(mid, inset))
        path.line(to: Point(mid, size.height - inset))
        path.move(to: Point(inset, size.height - inset - (mid - inset)))
        path.line(to: Point(mid, size.height - inset))
        path.line(to: Point(size.width - inset, size.height - inset - (mid - inset)))
        arrow.path = path
        arrow.strokeColor = style.arrowColor
        arrow.lineWidth = style.arrowLineWidth
        arrowIsPlaced = false
    }

    /// MJRefresh's normal header: the arrow and the indicator centred vertically, `labelLeftInset` left of the
    /// wider line (the lines themselves are `labels`').
    private func placeArrow(in size: Size) {
        layer.frame = Rect(origin: .zero, size: size)
        let centre = Point(labels.pictureRightEdge(headerWidth: size.width), size.height / 2)
        arrow.position = centre
        spinner.position = centre
        arrowIsPlaced = true
    }
}

extension ClassicEffect {
    /// The classic header's parameters; the defaults are the constants above and MJRefresh's metrics.
    public struct Style: StyleValue {
        public var headerHeight = RefreshMetrics.classicHeaderHeight
        var insertDuration = RefreshMetrics.classicInsertDuration
        var removeDuration = RefreshMetrics.classicRemoveDuration
        var flipDuration = ClassicEffect.flipDuration
        public var fontSize = StateLabels.fontSize
        public var textColor = StateLabels.textColor
        var labelLeftInset = StateLabels.labelLeftInset
        var arrowSize = ClassicEffect.arrowSize
        var arrowColor = ClassicEffect.arrowColor
        var arrowLineWidth = ClassicEffect.arrowLineWidth

        /// The texts it shows, in both languages.
        var texts = HeaderTexts(RefreshStrings.standard)

        public init() {}

        public static var fields: [StyleField<Style>] {
            [
                .number("headerHeight", \.headerHeight, "pt", 10...500,
                        "the header's height: the pull that arms it (its trigger) and the refreshing inset"),
                .number("insertDuration", \.insertDuration, "s", 0...10, "how long the refreshing inset takes to come in"),
                .number("removeDuration", \.removeDuration, "s", 0...10, "how long the inset takes to go when a refresh ends"),
                .number("flipDuration", \.flipDuration, "s", 0...10, "how long the arrow takes to flip"),
                .number("fontSize", \.fontSize, "pt", 4...72, "font size of both lines"),
                .color("textColor", \.textColor, dark: StateLabels.darkTextColor, "colour of both lines"),
                .number("labelLeftInset", \.labelLeftInset, "pt", 0...300, "gap between the arrow's centre and the text"),
                .size("arrowSize", \.arrowSize, "pt", 1...200, "the arrow's box [width, height]"),
                .color("arrowColor", \.arrowColor, "the arrow's colour"),
                .number("arrowLineWidth", \.arrowLineWidth, "pt", 0.1...20, "the arrow's line width"),
            ]
                + HeaderTexts.fields(at: \.texts, [.pullDown, .release, .refreshing, .lastUpdated, .today, .noRecord])
        }
    }
}

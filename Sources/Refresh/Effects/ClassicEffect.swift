#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import Layers
import Motion
import Raster
import Text

/// The classic header of MJRefresh and EGORefreshTableHeaderView: a downward arrow that flips when letting go would
/// refresh, the state's text with the last-updated line below it, and the iOS activity indicator while refreshing.
///
/// The texts are the control's (English or Chinese, `RefreshControl.title` and `lastUpdatedText`), both lines in
/// bold 14 pt as MJRefresh draws them; while finishing the state line reads as idle again, since MJRefresh's header
/// is back in Idle when a refresh ends (it has no result row). The arrow sits left of the wider of the two lines,
/// as MJRefresh's normal header places it, and flips through the right. The arrow's flip and the indicator's turn
/// are worked out from the frame's time in `update(pull:)`, so any frame can be drawn on its own.
public final class ClassicEffect: RefreshEffect {
    // MARK: Constants

    /// How long the arrow takes to flip, 0.18 s (EGORefreshTableHeaderView's FLIP_ANIMATION_DURATION).
    public static let flipDuration = 0.18
    /// The arrow's turn while armed, a hair short of −180° (MJRefresh's transform rotation 0.000001 − π): negative
    /// is anticlockwise on a screen whose y grows downwards, so the shorter way there takes the arrow's tip from
    /// the bottom through the right to the top, and back the same way.
    public static let flippedAngle = 0.000001 - Double.pi
    /// The arrow image's size, 15 × 40 pt; not in REFERENCE: MJRefresh's arrow.png.
    public static let arrowSize = Size(15, 40)
    /// The arrow's colour; not in REFERENCE: the grey of MJRefresh's arrow.png.
    public static let arrowColor = Color(rgb: 150, 150, 150)
    /// The arrow's line width, 1.5 pt; not in REFERENCE: read off MJRefresh's arrow.png.
    public static let arrowLineWidth = 1.5
    /// The activity indicator: UIActivityIndicatorView's gray style, 20 pt, 12 spokes 2 pt wide from 4.5 to 9.5 pt
    /// out, grey RGB (128, 128, 128), fading to 0.2 behind the leading spoke, a turn a second in 12 steps; not in
    /// REFERENCE: measured off UIActivityIndicatorView.
    public static let spinnerStyle = ActivityIndicatorStyle()

    public let metrics = RefreshMetrics()
    public let layer = Layer()
    /// The state and last-updated lines, shared with the image-sequence header.
    public let labels: StateLabels
    public var stateLabel: TextLayer { labels.stateLabel }
    public var lastUpdatedLabel: TextLayer { labels.lastUpdatedLabel }
    /// The arrow, turned about its centre by `arrowAngle`.
    public let arrow = ShapeLayer()
    /// The activity indicator: 12 spokes, turned in steps of 30°.
    public let spinner = ActivityIndicatorLayer(style: ClassicEffect.spinnerStyle)

    private var state = RefreshState.idle
    private var flipFrom = 0.0, flipTo = 0.0, flipStart = -Double.infinity
    private var spinStart = 0.0
    private var fadeStart: Double?

    /// The arrow's turn in the last frame, radians clockwise on the screen (negative: anticlockwise).
    public private(set) var arrowAngle = 0.0
    /// How many 30° steps the indicator has turned in the last frame (0…11).
    public private(set) var spinnerStep = 0
    /// The indicator's alpha in the last frame (it fades out while the inset goes back).
    public var spinnerAlpha: Double { spinner.fade }

    public init() {
        labels = StateLabels(in: layer)
        let size = ClassicEffect.arrowSize
        arrow.bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
        var path = Path()
        let mid = size.width / 2, inset = ClassicEffect.arrowLineWidth
        path.move(to: Point(mid, inset))
        path.line(to: Point(mid, size.height - inset))
        path.move(to: Point(inset, size.height - inset - (mid - inset)))
        path.line(to: Point(mid, size.height - inset))
        path.line(to: Point(size.width - inset, size.height - inset - (mid - inset)))
        arrow.path = path
        arrow.fillColor = nil
        arrow.strokeColor = ClassicEffect.arrowColor
        arrow.lineWidth = ClassicEffect.arrowLineWidth
        arrow.lineCap = .round
        arrow.lineJoin = .round
        layer.addSublayer(arrow)

        spinner.isHidden = true
        layer.addSublayer(spinner)
    }

    // MARK: RefreshEffect

    public func didMove(to control: RefreshControl?) {
        labels.didMove(to: control)
    }

    public func transition(from old: RefreshState, to new: RefreshState, at time: Double) {
        state = new
        labels.transition(to: new)
        let armed = new == .armed
        let target = armed ? ClassicEffect.flippedAngle : 0
        switch new {
        case .armed, .pulling, .idle:
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
        case .noMoreData:
            break
        }
    }

    /// The arrow's turn at `time`: it flips to `flippedAngle` (−180°, through the right) over 0.18 s when armed and
    /// back when disarmed (ease in, ease out, as a UIView animation), from wherever it was.
    public func arrowAngle(at time: Double) -> Double {
        let f = (time - flipStart) / ClassicEffect.flipDuration
        guard f < 1 else { return flipTo }
        return flipFrom + (flipTo - flipFrom) * TimingFunction.easeInEaseOut.value(at: Swift.max(0, f))
    }

    public func update(pull: RefreshPull) {
        let time = pull.time
        let size = pull.headerSize
        if labels.update(size: size, showsResult: metrics.hasResultRow, fallback: strings(for:)) {
            layout(size)
        }

        let busy = state.isBusy || state == .willRefresh
        arrow.isHidden = busy
        spinner.isHidden = !busy
        if busy {
            spinnerStep = spinner.style.step(after: time - spinStart)
            spinner.show(step: spinnerStep)
            var fade = 1.0
            if let start = fadeStart {
                fade = 1 - Swift.min(1, Swift.max(0, (time - start) / RefreshMetrics.classicRemoveDuration))
            }
            spinner.fade = fade
        } else {
            arrowAngle = arrowAngle(at: time)
            arrow.transform = AffineTransform(rotationAngle: arrowAngle)
            spinner.fade = 1
        }
    }

    // MARK: Layout

    /// The arrow and the indicator centred vertically, `labelLeftInset` left of the wider line, as MJRefresh's
    /// normal header places them.
    private func layout(_ size: Size) {
        layer.frame = Rect(origin: .zero, size: size)
        let centre = Point(labels.pictureRightEdge(headerWidth: size.width), size.height / 2)
        arrow.position = centre
        spinner.position = centre
    }
}

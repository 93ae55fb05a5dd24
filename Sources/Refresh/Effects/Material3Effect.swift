import Colors
import Geometry
import Layers
import Motion
import Styles

/// Compose Material 3's pull to refresh, `PullToRefreshBox` with `PullToRefreshDefaults.Indicator`, as Material 3
/// 1.4 has it (docs/reference.md §1, material3): a 40 pt container floats over the list, which does not move. The
/// finger's travel past the top, times 0.5, is the distance pulled; up to the 80 pt threshold the container's bottom
/// is that far below the list's top, and past it it slows (80·(1 + l − l²/4), l the overshoot over the threshold,
/// capped at 2). In it an arc with an arrowhead grows from 40 % of the threshold, faint (0.3) until the threshold.
/// The finger lifting past the threshold starts the refresh: the container springs to the threshold and the arrow
/// cross-fades to the indeterminate progress indicator; lifting short springs it back out of sight; an ended
/// refresh springs it away as the arrow fades back in.
///
/// Every frame is worked out from the time and the pull in `update(pull:)` with closed-form springs, so any frame
/// can be drawn on its own.
final class Material3Effect: StyledEffect {
    // MARK: Constants (docs/reference.md §1, material3)

    /// `PullToRefreshDefaults.PositionalThreshold`, 80 dp.
    static let threshold = 80.0
    /// `SpinnerContainerSize`, 40 dp, and the indicator's canvas, `SpinnerSize`, 16 dp.
    static let containerSize = 40.0
    /// `StrokeWidth` 2.5 dp and `ArcRadius` 5.5 dp: the arc is drawn on 5.5 + 2.5/2.
    static let strokeWidth = 2.5, arcRadius = 5.5
    /// `ArrowWidth` × `ArrowHeight`, 10 × 5 dp.
    static let arrowWidth = 10.0, arrowHeight = 5.0
    /// `MaxProgressArc`, 0.8 turn.
    static let maxProgressArc = 0.8
    /// `MinAlpha` and `MaxAlpha` of the arc and arrow, 0.3 and 1.
    static let minAlpha = 0.3, maxAlpha = 1.0
    /// `DragMultiplier`, 0.5.
    static let dragMultiplier = 0.5
    /// `PullToRefreshDefaults.Elevation`, `ElevationTokens.Level2`, 3 dp, drawn as the disc shadow SwipeRefreshLayout
    /// uses for its 4 dp, scaled by 3/4 (chosen here).
    static let shadowOpacity = SwipeRefreshEffect.shadowOpacity, shadowRadius = SwipeRefreshEffect.shadowRadius * 0.75,
               shadowOffset = Size(0, SwipeRefreshEffect.shadowOffset.height * 0.75)
    /// `Animatable.animateTo`'s default spring, damping ratio 1, `StiffnessMedium` 1500: the container's moves.
    static let positionStiffness = 1500.0
    /// The standard motion scheme's `DefaultEffects` spring, damping ratio 1, stiffness 1600: the alpha and the
    /// cross-fade.
    static let effectsStiffness = 1600.0
    /// The arrowhead is turned back from the arc's head by the stroke width in pixels read as degrees (its source
    /// passes `StrokeWidth.toPx()` to a rotation in degrees): 2.5 dp at density 2.625 (chosen here), 6.5625°.
    static let arrowTurnBack = 2.5 * 2.625
    /// `surfaceContainerHigh` and `onSurfaceVariant` of the baseline colour scheme, light and dark.
    static let containerColor = DynamicColor(light: Color(rgb: 0xEC, 0xE6, 0xF0), dark: Color(rgb: 0x2B, 0x29, 0x30))
    static let indicatorColor = DynamicColor(light: Color(rgb: 0x49, 0x45, 0x4F), dark: Color(rgb: 0xCA, 0xC4, 0xD0))
    /// The indeterminate `CircularProgressIndicator`: one 6 s cycle turns it 1080°, adds 90° in 300 ms every
    /// 1.5 s, and takes its arc from 0.1 to 0.87 turn and back.
    static let spinCycle = 6.0, spinGlobalTurn = 1080.0, spinStepDegrees = 90.0, spinStepEvery = 1.5,
               spinStepDuration = 0.3, spinMinArc = 0.1, spinMaxArc = 0.87
    /// `MotionTokens.EasingStandardCubicBezier`: the arc's fall.
    static let standardEasing = TimingFunction(controlPoints: 0.2, 0, 0, 1)

    var style: Style {
        didSet { styleDidChange() }
    }
    private(set) var metrics: RefreshMetrics
    let layer = Layer()
    private let floating: FloatingDisc
    /// The pull's indicator: the arc and its arrowhead.
    let arrowGroup: Layer, arc: ShapeLayer, arrow: ShapeLayer
    /// The refreshing indicator.
    let spinnerGroup: Layer, spinnerArc: ShapeLayer
    private let spinnerArrow: ShapeLayer

    // MARK: State

    /// `distanceFraction`: the container's offset over the threshold.
    private(set) var fraction = ComposeSpring(value: 0, stiffness: positionStiffness)
    private var arcAlpha = ComposeSpring(value: minAlpha, stiffness: effectsStiffness)
    /// The cross-fade, 0 showing the arrow, 1 the progress indicator.
    private var crossfade = ComposeSpring(value: 0, stiffness: effectsStiffness)
    private(set) var isRefreshing = false
    private var spinStart = 0.0
    private var arrowPathScale = -1.0
    /// What the last frame showed: the container's top below the list's top, and the arc's alpha.
    private(set) var containerTop = -containerSize
    private(set) var shownAlpha = minAlpha

    init(style: Style = Style()) {
        self.style = style
        metrics = Material3Effect.metrics(for: style)
        floating = FloatingDisc(in: layer)
        (arrowGroup, arc, arrow) = floating.addIndicator()
        (spinnerGroup, spinnerArc, spinnerArrow) = floating.addIndicator()
        arrow.fillColor = nil
        layOut()
    }

    /// Floating over the list: the control's distance is the distance pulled times the multiplier, the trigger and
    /// the refreshing place the threshold; its moves last as long as the container's spring takes to settle from
    /// twice the threshold.
    static func metrics(for s: Style) -> RefreshMetrics {
        let settle = s.settleDuration
        return RefreshMetrics(headerHeight: s.threshold, triggerDistance: s.threshold, refreshingInset: s.threshold,
                              insertDuration: settle, insertTiming: .easeOut,
                              finishing: [RefreshInsetStage(inset: 0, duration: settle, timing: .easeOut)],
                              placement: .floatsOverContent(FloatingPlacement(
                                  dragRate: s.dragMultiplier, returnDuration: settle, returnTiming: .easeOut)))
    }

    private func styleDidChange() {
        metrics = Material3Effect.metrics(for: style)
        fraction.stiffness = style.positionStiffness
        layOut()
    }

    private func layOut() {
        floating.layOut(diameter: style.containerSize, color: style.containerColor, shadowOpacity: style.shadowOpacity,
                        shadowRadius: style.shadowRadius, shadowOffset: style.shadowOffset)
        let radius = style.arcRadius + style.strokeWidth / 2
        floating.shape(group: arrowGroup, arc: arc, arrow: arrow, radius: radius, lineWidth: style.strokeWidth, cap: .butt)
        arrow.lineWidth = style.strokeWidth
        floating.shape(group: spinnerGroup, arc: spinnerArc, arrow: spinnerArrow, radius: radius, lineWidth: style.strokeWidth,
                       cap: .round)
        arrowPathScale = -1
    }

    // MARK: Formulas

    /// The container's offset for `distance` points pulled (already times the multiplier): the distance up to the
    /// threshold; past it thr·(1 + l − l²/4), with l = clamp(distance/thr − 1, 0, 2).
    static func verticalOffset(distance: Double, threshold: Double) -> Double {
        guard distance > threshold else { return distance }
        let l = Swift.min(2, Swift.max(0, distance / threshold - 1))
        return threshold * (1 + l - l * l / 4)
    }

    /// The arrow's values for a `fraction` (`ArrowValues`): a = max(min(1, f) − 0.4, 0)·5/3, l = clamp(f − 1, 0, 2),
    /// tension = l − l²/4; rotation (−0.25 + 0.4a + tension)·0.5 turn, the arc from the rotation to rotation + 0.8a,
    /// the arrowhead's scale min(1, a). Turns, clockwise from 3 o'clock.
    static func arrowValues(fraction f: Double) -> (rotation: Double, start: Double, end: Double, scale: Double) {
        let a = Swift.max(Swift.min(1, f) - 0.4, 0) * 5 / 3
        let l = Swift.min(2, Swift.max(0, abs(f) - 1))
        let tension = l - l * l / 4
        let rotation = (-0.25 + 0.4 * a + tension) * 0.5
        return (rotation, rotation, rotation + a * maxProgressArc, Swift.min(1, a))
    }

    /// The indeterminate indicator `elapsed` seconds in: its turn in degrees (1080° a cycle, plus 90° steps each
    /// moving linearly over 300 ms every 1.5 s) and its arc in turns (0.1 → 0.87 linearly over the first half, back
    /// on the standard easing over the second).
    static func spinner(elapsed: Double, style s: Style = Style()) -> (degrees: Double, arc: Double) {
        let t = Swift.max(0, elapsed).truncatingRemainder(dividingBy: s.spinCycle)
        // The steps keep their share of the cycle when it is tuned: every quarter, over a twentieth.
        let every = s.spinCycle * spinStepEvery / spinCycle, duration = s.spinCycle * spinStepDuration / spinCycle
        let steps = (t / every).rounded(.down)
        let degrees = spinGlobalTurn * t / s.spinCycle
            + spinStepDegrees * (steps + Swift.min(1, (t - steps * every) / duration))
        let half = s.spinCycle / 2
        let arc = t < half
            ? spinMinArc + (spinMaxArc - spinMinArc) * t / half
            : spinMaxArc - (spinMaxArc - spinMinArc) * standardEasing.value(at: (t - half) / half)
        return (degrees, arc)
    }

    // MARK: RefreshEffect

    func transition(from old: RefreshState, to new: RefreshState, pull: RefreshPull) {
        let time = pull.time
        switch new {
        case .refreshing:
            // onRefresh → isRefreshing → animateToThreshold, and the indicator cross-fades to the spinner.
            isRefreshing = true
            spinStart = time
            fraction.animate(to: 1, at: time)
            crossfade.animate(to: 1, at: time)
        case .finishing:
            isRefreshing = false
            fraction.animate(to: 0, at: time)
            crossfade.animate(to: 0, at: time)
        case .idle:
            if isRefreshing {
                isRefreshing = false
                crossfade.snap(to: 0)
                fraction.snap(to: 0)
            } else if !pull.isDragging {
                // onRelease short of the threshold: animateToHidden.
                fraction.animate(to: 0, at: time)
            }
        default:
            break
        }
    }

    func update(pull: RefreshPull) {
        let time = pull.time
        layer.frame = Rect(origin: .zero, size: pull.headerSize)
        if pull.isDragging && !isRefreshing && crossfade.target == 0 {
            fraction.snap(to: Material3Effect.verticalOffset(distance: pull.distance, threshold: style.threshold)
                          / style.threshold)
        }
        let f = fraction.value(at: time)
        arcAlpha.animate(to: f >= 1 ? style.maxAlpha : style.minAlpha, at: time)
        shownAlpha = arcAlpha.value(at: time)
        containerTop = f * style.threshold - style.containerSize
        layer.isHidden = f <= 0 && !isRefreshing && crossfade.value(at: time) == 0
        guard !layer.isHidden else { return }
        floating.place(top: containerTop, scale: 1, distance: pull.distance, size: pull.headerSize)
        floating.disc.shadowOpacity = f > 0 || isRefreshing ? style.shadowOpacity : 0
        let fade = Swift.min(1, Swift.max(0, crossfade.value(at: time)))
        arrowGroup.opacity = 1 - fade
        spinnerGroup.opacity = fade
        arrowGroup.isHidden = fade >= 1
        spinnerGroup.isHidden = fade <= 0
        if !arrowGroup.isHidden { drawArrow(fraction: f) }
        if !spinnerGroup.isHidden {
            let spin = Material3Effect.spinner(elapsed: time - spinStart, style: style)
            FloatingDisc.show(arc: spinnerArc, in: spinnerGroup, start: spin.degrees / 360, sweep: spin.arc,
                              ink: style.indicatorColor)
        }
    }

    /// The pull's arc and arrowhead. The source turns its canvas by the rotation read as degrees (a turn of a few
    /// tenths of a degree), then draws the arc from the rotation in turns: both are kept.
    private func drawArrow(fraction f: Double) {
        let v = Material3Effect.arrowValues(fraction: f)
        let ink = style.indicatorColor.withAlphaMultiplied(by: shownAlpha)
        FloatingDisc.show(arc: arc, in: arrowGroup, start: v.start + v.rotation / 360, sweep: v.end - v.start, ink: ink)
        arrow.isHidden = v.scale <= 0
        guard !arrow.isHidden else { return }
        if v.scale != arrowPathScale { buildArrow(scale: v.scale) }
        arrow.strokeColor = ink
        arrow.transform = AffineTransform(rotationAngle: 2 * Double.pi * (v.end - v.start)
                                          - style.arrowTurnBack * Double.pi / 180)
    }

    /// The arrowhead for the head at 3 o'clock, before its turn: an open chevron stroked as wide as the arc, from
    /// its left corner to its tip `arrowHeight × scale` clockwise and back to its right corner, `arrowWidth × scale`
    /// wide, centred on the arc's radius and lifted by a stroke width. Built only when the scale changes.
    private func buildArrow(scale: Double) {
        let c = style.containerSize / 2
        let w = style.arrowWidth * scale, h = style.arrowHeight * scale
        let x = c + style.arcRadius + style.strokeWidth / 2 - w / 2, y = c - style.strokeWidth
        var path = Path()
        path.move(to: Point(x, y))
        path.line(to: Point(x + w / 2, y + h))
        path.line(to: Point(x + w, y))
        arrow.path = path
        arrowPathScale = scale
    }
}

extension Material3Effect {
    /// Material 3's parameters; the defaults are the constants above.
    struct Style: StyleValue {
        var threshold = Material3Effect.threshold
        var containerSize = Material3Effect.containerSize
        var strokeWidth = Material3Effect.strokeWidth
        var arcRadius = Material3Effect.arcRadius
        var arrowWidth = Material3Effect.arrowWidth
        var arrowHeight = Material3Effect.arrowHeight
        var arrowTurnBack = Material3Effect.arrowTurnBack
        var minAlpha = Material3Effect.minAlpha
        var maxAlpha = Material3Effect.maxAlpha
        var dragMultiplier = Material3Effect.dragMultiplier
        var positionStiffness = Material3Effect.positionStiffness
        var spinCycle = Material3Effect.spinCycle
        var containerColor = Material3Effect.containerColor.light
        var indicatorColor = Material3Effect.indicatorColor.light
        var shadowOpacity = Material3Effect.shadowOpacity
        var shadowRadius = Material3Effect.shadowRadius
        var shadowOffset = Material3Effect.shadowOffset

        init() {}

        /// How long the container's spring takes to come within 0.01 of the threshold from twice it (the farthest
        /// a pull takes it), at rest: the control's moves last that long.
        var settleDuration: Double {
            SpringMotion(spring: ComposeSpring.spring(positionStiffness), from: 2, to: 1, initialVelocity: 0)
                .settlingTime(epsilon: 0.01)
        }

        static var fields: [StyleField<Style>] {
            [
                .number("threshold", \.threshold, "pt", 8...1000,
                        "PositionalThreshold: the pull past which lifting the finger refreshes, and the refreshing place"),
                .number("containerSize", \.containerSize, "pt", 8...200, "the container's diameter"),
                .number("strokeWidth", \.strokeWidth, "pt", 0.1...40, "width of the arc and the arrowhead's lines"),
                .number("arcRadius", \.arcRadius, "pt", 1...100, "the arc's radius; it is drawn half a stroke further out"),
                .number("arrowWidth", \.arrowWidth, "pt", 0...100, "width of the arrowhead at full size"),
                .number("arrowHeight", \.arrowHeight, "pt", 0...100, "height of the arrowhead at full size"),
                .number("arrowTurnBack", \.arrowTurnBack, "°", -90...90,
                        "how far the arrowhead is turned back from the arc's head (the stroke width in pixels, as degrees)"),
                .number("minAlpha", \.minAlpha, "", 0...1, "the arc's alpha before the threshold"),
                .number("maxAlpha", \.maxAlpha, "", 0...1, "the arc's alpha at or past the threshold"),
                .number("dragMultiplier", \.dragMultiplier, "", 0.05...2,
                        "the distance pulled per point of the finger's travel past the top"),
                .number("positionStiffness", \.positionStiffness, "", 50...10000,
                        "the stiffness of the critically damped spring that moves the container"),
                .number("spinCycle", \.spinCycle, "s", 0.5...60, "one cycle of the refreshing indicator"),
                .color("containerColor", \.containerColor, dark: Material3Effect.containerColor.dark,
                       "the container's colour (surfaceContainerHigh)"),
                .color("indicatorColor", \.indicatorColor, dark: Material3Effect.indicatorColor.dark,
                       "the arc's and arrowhead's colour (onSurfaceVariant)"),
                .number("shadowOpacity", \.shadowOpacity, "", 0...1, "the container's shadow opacity"),
                .number("shadowRadius", \.shadowRadius, "pt", 0...50, "the shadow's blur"),
                .size("shadowOffset", \.shadowOffset, "pt", -50...50, "the shadow's offset [x, y]"),
            ]
        }
    }
}

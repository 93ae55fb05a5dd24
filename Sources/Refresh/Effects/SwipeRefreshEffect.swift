import Colors
import Geometry
import Layers
import Motion
import Styles

/// CircularProgressDrawable's indeterminate animation from one `start()` (docs/reference.md §1, swipe-refresh): a
/// pure function of the time since, as the drawable works its frame out of its animator's fraction.
struct CircularProgressSpin: Equatable {
    /// The ring when `start()` ran: a visible arc first closes over half a cycle.
    var origin: RingPose
    var cycleDuration: Double

    /// MAX_PROGRESS_ARC and MIN_PROGRESS_ARC.
    static let maxArc = 0.8, minArc = 0.01
    /// RING_ROTATION: the ring's turn per cycle, 1 − (0.8 − 0.01).
    static let ringRotation = 1 - (maxArc - minArc)
    /// GROUP_FULL_ROTATION, 1080°/5 a cycle, in turns.
    static let groupRotation = 216.0 / 360
    /// COLOR_CHANGE_OFFSET: the colour blends to the next over a cycle's last quarter.
    static let colorChangeOffset = 0.75

    var closesFirst: Bool { origin.endTrim != origin.startTrim }

    /// The ring `elapsed` seconds after `start()`, with the index of the colour it shows (into the colour list,
    /// before wrapping) and how far that colour has blended into the next.
    func frame(at elapsed: Double) -> (pose: RingPose, color: Int, blend: Double) {
        typealias S = CircularProgressSpin
        var t = Swift.max(0, elapsed)
        var tail = 0.0, rotation = 0.0, color = 0
        if closesFirst {
            let half = cycleDuration / 2
            let target = (origin.rotation / S.maxArc).rounded(.down) + 1
            if t < half {
                let f = t / half
                let pose = RingPose(startTrim: origin.startTrim + (origin.endTrim - S.minArc - origin.startTrim) * f,
                                    endTrim: origin.endTrim, rotation: origin.rotation + (target - origin.rotation) * f,
                                    groupRotation: 0, arrowScale: origin.arrowScale)
                return (pose, 0, S.blend(f))
            }
            // The closing half ends with the tail 0.01 short of the head, the ring on a whole turn, the next colour.
            t -= half
            tail = origin.endTrim - S.minArc
            rotation = target
            color = 1
        }
        let cycles = t / cycleDuration
        let n = cycles.rounded(.down), f = cycles - n
        // Each cycle ends with the tail 0.78 on (its head stops at tail + 0.79, the tail 0.01 short of it).
        let startTail = tail + (S.maxArc - 2 * S.minArc) * n
        let start: Double, end: Double
        if f < 0.5 {
            start = startTail
            end = startTail + (S.maxArc - S.minArc) * TimingFunction.fastOutSlowIn.value(at: f * 2) + S.minArc
        } else {
            end = startTail + (S.maxArc - S.minArc)
            start = end - ((S.maxArc - S.minArc) * (1 - TimingFunction.fastOutSlowIn.value(at: f * 2 - 1)) + S.minArc)
        }
        let group = S.groupRotation * (f + n)
        let pose = RingPose(startTrim: start, endTrim: end, rotation: rotation + S.ringRotation * (f + n),
                            groupRotation: group - group.rounded(.down), arrowScale: 0)
        return (pose, color + Int(n), S.blend(f))
    }

    private static func blend(_ f: Double) -> Double {
        f > colorChangeOffset ? (f - colorChangeOffset) / (1 - colorChangeOffset) : 0
    }

    /// The colour shown: colour `index` blended into the next by `blend`, the list wrapping round.
    static func color(_ colors: [Color], index: Int, blend: Double) -> Color {
        let from = colors[index % colors.count]
        return blend > 0 ? AndroidCurves.blend(from, colors[(index + 1) % colors.count], blend) : from
    }
}

/// Android's SwipeRefreshLayout with its CircularProgressDrawable, as androidx has them (docs/reference.md §1,
/// swipe-refresh): a 40 pt disc floats over the list, which does not move. The finger's travel past the top, times
/// 0.5, is the overscroll; the disc's top follows SwipeRefreshLayout's slingshot (down with the overscroll up to the
/// 64 pt trigger, then slower, to at most 128 pt), the arc and arrowhead grow from 40 % of the trigger, and the arc
/// is faint (76 of 255) until the trigger, then opaque over 300 ms. Released past the trigger the disc goes to its
/// refreshing place (its top 24 pt below the list's top) in 200 ms, the arrowhead shrinking, and only then does the
/// drawable start: a visible arc first closes over 666 ms, then the 1332 ms cycles run through the colour
/// sequence. Released short, the arc goes at once and the disc goes back up in 200 ms, then scales to nothing in
/// 150 ms. A refresh ends by scaling the disc to nothing in 150 ms while it spins; a refresh begun from code puts the
/// disc at its place and scales it up over 400 ms before it spins.
///
/// Everything is worked out from the time and the pull in `update(pull:)` (no layer animations), so any frame can be
/// drawn on its own.
final class SwipeRefreshEffect: StyledEffect {
    // MARK: Constants (docs/reference.md §1, swipe-refresh)

    /// CIRCLE_DIAMETER, 40 dp.
    static let circleDiameter = 40.0
    /// CircularProgressDrawable's DEFAULT style: CENTER_RADIUS 7.5, STROKE_WIDTH 2.5, ARROW_WIDTH × ARROW_HEIGHT 10 × 5.
    static let centerRadius = 7.5, strokeWidth = 2.5, arrowWidth = 10.0, arrowHeight = 5.0
    /// DEFAULT_CIRCLE_TARGET, 64 dp: the total drag distance (the trigger) and the spinner's offset end.
    static let circleTarget = 64.0
    /// MAX_PROGRESS_ANGLE: the pull's arc reaches 0.8 turn.
    static let maxProgressAngle = 0.8
    /// STARTING_PROGRESS_ALPHA, (int)(0.3 × 255); MAX_ALPHA 255.
    static let startingAlpha = 76, maxAlpha = 255
    /// ALPHA_ANIMATION_DURATION, 300 ms.
    static let alphaDuration = 0.3
    /// SCALE_DOWN_DURATION, 150 ms.
    static let scaleDownDuration = 0.15
    /// `config_mediumAnimTime`, 400 ms: the scale-up of a refresh begun from code.
    static let scaleUpDuration = 0.4
    /// ANIMATION_DURATION, 1332 ms.
    static let cycleDuration = 1.332
    /// CircleImageView's DEFAULT_BACKGROUND_COLOR, #FAFAFA; the library has no dark one, and keeps it in dark.
    static let discColor = Color(rgb: 250, 250, 250)
    /// CircleImageView's pre-Lollipop shadow, KEY_SHADOW_COLOR 0x1E000000, SHADOW_RADIUS 3.5, Y_OFFSET 1.75: what
    /// stands for its 4 dp elevation here.
    static let shadowOpacity = 30.0 / 255, shadowRadius = 3.5, shadowOffset = Size(0, 1.75)
    /// CircularProgressDrawable's COLORS: black alone.
    static let colors = [Color.black]

    var style: Style {
        didSet { styleDidChange() }
    }
    private(set) var metrics: RefreshMetrics
    let layer = Layer()
    private let floating: FloatingDisc
    let arc: ShapeLayer
    let arrow: ShapeLayer
    private let spinner: Layer

    // MARK: What the last frame showed

    /// The disc's top below the list's top, and its scale.
    private(set) var circleTop: Double
    private(set) var circleScale = 1.0
    /// The drawable's ring, alpha (of 255) and colour.
    private(set) var ring = RingPose(startTrim: 0, endTrim: 0, rotation: 0)
    private(set) var alpha = startingAlpha
    private(set) var color = Color.black
    /// Whether the arrowhead is on (`setArrowEnabled`).
    private(set) var showsArrow = false

    // MARK: Timelines

    private enum Phase: Equatable {
        /// Gone: at rest, or reset after a refresh.
        case hidden
        /// Following the finger.
        case dragging
        /// Released short: back to the start from `from`, then scaled down.
        case returning(from: Double, start: Double)
        /// Released past the trigger: to the refreshing place from `from`, then spinning.
        case settling(from: Double, start: Double)
        /// Begun from code: scaled up at the refreshing place, then spinning.
        case growing(start: Double)
        case spinning(CircularProgressSpin, start: Double)
    }
    private var phase = Phase.hidden
    /// When the finish's scale-down started, and where the disc was then.
    private var scaleDown: (start: Double, top: Double)?
    private var fade = AlphaFade(Double(startingAlpha))
    private var arrowPathScale = -1.0

    init(style: Style = Style()) {
        self.style = style
        metrics = SwipeRefreshEffect.metrics(for: style)
        circleTop = -style.circleDiameter
        floating = FloatingDisc(in: layer)
        (spinner, arc, arrow) = floating.addIndicator()
        layOut()
    }

    /// Floating over the list as SwipeRefreshLayout: the control's distance is the overscroll (finger travel × the
    /// drag rate); past the trigger a release brings it to the spinner's offset end over the move's 200 ms, and a
    /// short release takes it back over the move and the scale-down; a finish holds it while the disc scales away.
    static func metrics(for s: Style) -> RefreshMetrics {
        RefreshMetrics(headerHeight: s.triggerDistance, triggerDistance: s.triggerDistance,
                       refreshingInset: s.spinnerOffsetEnd, insertDuration: s.moveDuration, insertTiming: s.moveTiming,
                       finishing: [RefreshInsetStage(inset: s.spinnerOffsetEnd, duration: s.scaleDownDuration)],
                       placement: .floatsOverContent(FloatingPlacement(
                           dragRate: s.dragRate, returnDuration: s.moveDuration + s.scaleDownDuration,
                           returnTiming: s.moveTiming)))
    }

    private func styleDidChange() {
        metrics = SwipeRefreshEffect.metrics(for: style)
        layOut()
    }

    private func layOut() {
        floating.layOut(diameter: style.circleDiameter, color: style.discColor, shadowOpacity: style.shadowOpacity,
                        shadowRadius: style.shadowRadius, shadowOffset: style.shadowOffset)
        floating.shape(group: spinner, arc: arc, arrow: arrow, radius: style.arcRadius, lineWidth: style.strokeWidth,
                       cap: .square)
        arrowPathScale = -1
    }

    // MARK: Formulas

    /// SwipeRefreshLayout's moveSpinner for `overscroll` points: the disc's top below the list's top, and the
    /// drawable's ring. With p = overscroll/trigger, drag = min(1, |p|), adjusted = max(drag − 0.4, 0)·5/3,
    /// extra = |overscroll| − trigger, s = max(0, min(extra, 2·slingshot)/slingshot), tension = (s/4 − (s/4)²)·2:
    /// top = −diameter + slingshot·drag + slingshot·tension·2; trims 0 … min(0.8, 0.8·adjusted), arrow scale
    /// min(1, adjusted), rotation (−0.25 + 0.4·adjusted + 2·tension)·0.5.
    static func drag(overscroll: Double, style s: Style = Style()) -> (top: Double, ring: RingPose) {
        let slingshot = s.spinnerOffsetEnd
        let drag = Swift.min(1, abs(overscroll / s.triggerDistance))
        let adjusted = Swift.max(drag - 0.4, 0) * 5 / 3
        let extra = abs(overscroll) - s.triggerDistance
        let tensionSlingshot = Swift.max(0, Swift.min(extra, slingshot * 2) / slingshot)
        let q = tensionSlingshot / 4
        let tension = (q - q * q) * 2
        let top = -s.circleDiameter + slingshot * drag + slingshot * tension * 2
        let ring = RingPose(startTrim: 0, endTrim: Swift.min(maxProgressAngle, adjusted * maxProgressAngle),
                            rotation: (-0.25 + 0.4 * adjusted + tension * 2) * 0.5, groupRotation: 0,
                            arrowScale: Swift.min(1, adjusted))
        return (top, ring)
    }

    /// Where a 200 ms move from `from` to `to` is `elapsed` seconds in (SwipeRefreshLayout's animations to the
    /// start and to the correct position, on its decelerate curve), and its curve's value.
    func move(from: Double, to: Double, elapsed: Double) -> (top: Double, fraction: Double) {
        let f = style.moveTiming.value(at: style.moveDuration > 0 ? elapsed / style.moveDuration : 1)
        return (from + (to - from) * f, f)
    }

    /// The disc's scale `elapsed` seconds into a scale-down (1 → 0) or scale-up (0 → 1) of `duration`, on Android's
    /// default accelerate-decelerate curve.
    static func scale(elapsed: Double, duration: Double, up: Bool) -> Double {
        let f = AndroidCurves.accelerateDecelerate(duration > 0 ? elapsed / duration : 1)
        return up ? f : 1 - f
    }

    /// The refreshing place: the disc's top at the spinner's offset end less its diameter.
    var restingTop: Double { style.spinnerOffsetEnd - style.circleDiameter }

    // MARK: RefreshEffect

    func transition(from old: RefreshState, to new: RefreshState, pull: RefreshPull) {
        let time = pull.time
        switch new {
        case .pulling, .armed:
            if phase != .dragging { beginDrag() }
        case .refreshing:
            scaleDown = nil
            if old == .armed && !pull.isDragging {
                phase = .settling(from: circleTop, start: time)
            } else {
                // setRefreshing(true) from code: the disc jumps to its place, fully opaque, and scales up.
                phase = .growing(start: time)
                circleTop = restingTop
                setAlpha(style.maxAlpha, at: time, animated: false)
            }
        case .finishing:
            scaleDown = (time, circleTop)
        case .idle:
            if old.isBusy || !pull.isDragging && phase == .dragging && pull.distance <= 0 {
                phase = .hidden
                scaleDown = nil
            } else if phase == .dragging && !pull.isDragging {
                // finishSpinner, short: the arc goes at once, the arrow off, back to the start.
                ring = RingPose(startTrim: 0, endTrim: 0, rotation: ring.rotation)
                showsArrow = false
                phase = .returning(from: circleTop, start: time)
            }
        // A floating header never has a second floor (`RefreshControl.hasSecondFloor`).
        case .willRefresh, .noMoreData, .releaseToFloor, .floorOpening, .floor, .floorClosing:
            break
        }
    }

    /// A finger starts a pull (startDragging): the disc shows at full size, the arc at the starting alpha.
    private func beginDrag() {
        phase = .dragging
        scaleDown = nil
        showsArrow = true
        fade = AlphaFade(Double(style.startingAlpha))
    }

    func update(pull: RefreshPull) {
        let time = pull.time
        layer.frame = Rect(origin: .zero, size: pull.headerSize)
        var scale = 1.0
        switch phase {
        case .hidden:
            if pull.isDragging && pull.distance > 0 {
                beginDrag()
                return update(pull: pull)
            }
        case .dragging:
            let drag = SwipeRefreshEffect.drag(overscroll: pull.distance, style: style)
            circleTop = drag.top
            ring = drag.ring
            setAlpha(pull.distance < style.triggerDistance ? style.startingAlpha : style.maxAlpha, at: time, animated: true)
            color = style.colors[0]
        case .returning(let from, let start):
            let elapsed = time - start
            circleTop = move(from: from, to: -style.circleDiameter, elapsed: elapsed).top
            scale = SwipeRefreshEffect.scale(elapsed: elapsed - style.moveDuration, duration: style.scaleDownDuration,
                                             up: false)
            if elapsed >= style.moveDuration + style.scaleDownDuration { phase = .hidden }
        case .settling(let from, let start):
            let moved = move(from: from, to: restingTop, elapsed: time - start)
            circleTop = moved.top
            ring.arrowScale = 1 - moved.fraction
            if time - start >= style.moveDuration { startSpinning(at: start + style.moveDuration) }
        case .growing(let start):
            circleTop = restingTop
            scale = SwipeRefreshEffect.scale(elapsed: time - start, duration: style.scaleUpDuration, up: true)
            if time - start >= style.scaleUpDuration { startSpinning(at: start + style.scaleUpDuration) }
        case .spinning:
            break
        }
        if case .spinning(let spin, let start) = phase {
            let frame = spin.frame(at: time - start)
            ring = frame.pose
            if !spin.closesFirst || time - start >= style.cycleDuration / 2 { showsArrow = false }
            color = CircularProgressSpin.color(style.colors, index: frame.color, blend: frame.blend)
        }
        if let finish = scaleDown {
            circleTop = finish.top
            scale = SwipeRefreshEffect.scale(elapsed: time - finish.start, duration: style.scaleDownDuration, up: false)
        }
        circleScale = scale
        draw(pull: pull)
    }

    /// The move or the scale-up is over: the drawable turns opaque and starts (`mRefreshListener`).
    private func startSpinning(at time: Double) {
        setAlpha(style.maxAlpha, at: time, animated: false)
        phase = .spinning(CircularProgressSpin(origin: ring, cycleDuration: style.cycleDuration), start: time)
    }

    private func draw(pull: RefreshPull) {
        layer.isHidden = phase == .hidden || circleScale <= 0
        guard !layer.isHidden else { return }
        floating.place(top: circleTop, scale: circleScale, distance: pull.distance, size: pull.headerSize)
        var ink = color
        ink.alpha = Double(alpha(at: pull.time)) / 255
        FloatingDisc.show(arc: arc, in: spinner, start: ring.screenStart, sweep: ring.sweep, ink: ink)
        arrow.isHidden = !showsArrow || ring.arrowScale <= 0
        if !arrow.isHidden {
            if ring.arrowScale != arrowPathScale {
                arrow.path = FloatingDisc.arrowhead(diameter: style.circleDiameter, radius: style.arcRadius,
                                                    strokeWidth: style.strokeWidth, width: style.arrowWidth,
                                                    height: style.arrowHeight, scale: ring.arrowScale)
                arrowPathScale = ring.arrowScale
            }
            arrow.fillColor = ink
            arrow.transform = AffineTransform(rotationAngle: 2 * Double.pi * ring.sweep)
        }
    }

    /// The drawable's alpha (of 255) at `time` on its 300 ms change (accelerate-decelerate, truncated to a whole
    /// level, as SwipeRefreshLayout's alpha animations set it).
    func alpha(at time: Double) -> Int {
        Int(fade.value(at: time, duration: style.alphaDuration, curve: AndroidCurves.accelerateDecelerate))
    }

    private func setAlpha(_ target: Int, at time: Double, animated: Bool) {
        if animated {
            fade.head(to: Double(target), from: Double(alpha(at: time)), at: time)
        } else {
            fade = AlphaFade(Double(target))
        }
    }
}

extension SwipeRefreshEffect {
    /// SwipeRefreshLayout's parameters; the defaults are the constants above.
    struct Style: StyleValue {
        var circleDiameter = SwipeRefreshEffect.circleDiameter
        var centerRadius = SwipeRefreshEffect.centerRadius
        var strokeWidth = SwipeRefreshEffect.strokeWidth
        var arrowWidth = SwipeRefreshEffect.arrowWidth
        var arrowHeight = SwipeRefreshEffect.arrowHeight
        var triggerDistance = SwipeRefreshEffect.circleTarget
        var spinnerOffsetEnd = SwipeRefreshEffect.circleTarget
        var dragRate = FloatingPlacement.androidDragRate
        var moveDuration = FloatingPlacement.androidAnimationDuration
        var moveTiming = FloatingPlacement.androidTiming
        var scaleDownDuration = SwipeRefreshEffect.scaleDownDuration
        var scaleUpDuration = SwipeRefreshEffect.scaleUpDuration
        var startingAlpha = SwipeRefreshEffect.startingAlpha
        var maxAlpha = SwipeRefreshEffect.maxAlpha
        var alphaDuration = SwipeRefreshEffect.alphaDuration
        var cycleDuration = SwipeRefreshEffect.cycleDuration
        var discColor = SwipeRefreshEffect.discColor
        var shadowOpacity = SwipeRefreshEffect.shadowOpacity
        var shadowRadius = SwipeRefreshEffect.shadowRadius
        var shadowOffset = SwipeRefreshEffect.shadowOffset
        var colors = SwipeRefreshEffect.colors

        init() {}

        /// The radius the arc is drawn on: the centre radius plus half the stroke (CircularProgressDrawable's
        /// `Ring.draw`).
        var arcRadius: Double { centerRadius + strokeWidth / 2 }

        static var fields: [StyleField<Style>] {
            [
                .number("circleDiameter", \.circleDiameter, "pt", 8...200, "the disc's diameter (CIRCLE_DIAMETER; 56 for LARGE)"),
                .number("centerRadius", \.centerRadius, "pt", 1...100, "the arc's centre radius (7.5; 11 for LARGE); it is drawn half a stroke further out"),
                .number("strokeWidth", \.strokeWidth, "pt", 0.1...40, "width of the arc (2.5; 3 for LARGE)"),
                .number("arrowWidth", \.arrowWidth, "pt", 0...100, "base of the arrowhead at full size"),
                .number("arrowHeight", \.arrowHeight, "pt", 0...100, "height of the arrowhead at full size"),
                .number("triggerDistance", \.triggerDistance, "pt", 8...1000,
                        "the overscroll past which a release refreshes (the total drag distance)"),
                .number("spinnerOffsetEnd", \.spinnerOffsetEnd, "pt", 8...1000,
                        "where the disc's bottom rests while refreshing, below the list's top; also the slingshot distance"),
                .number("dragRate", \.dragRate, "", 0.05...2, "the overscroll per point of the finger's travel past the top"),
                .number("moveDuration", \.moveDuration, "s", 0...10,
                        "how long the disc takes to its refreshing place, or back to the start when released short"),
                .timing("moveTiming", \.moveTiming, "the curve of those moves"),
                .number("scaleDownDuration", \.scaleDownDuration, "s", 0...10,
                        "how long the disc takes to scale to nothing at the end, and after a short release"),
                .number("scaleUpDuration", \.scaleUpDuration, "s", 0...10,
                        "how long the disc takes to scale up for a refresh begun from code"),
                .integer("startingAlpha", \.startingAlpha, "", 0...255, "the arc's alpha before the trigger, of 255"),
                .integer("maxAlpha", \.maxAlpha, "", 0...255, "the arc's alpha past the trigger and while refreshing, of 255"),
                .number("alphaDuration", \.alphaDuration, "s", 0...10, "how long the alpha takes to change"),
                .number("cycleDuration", \.cycleDuration, "s", 0.05...60,
                        "one spinning cycle; a visible arc closes over half of one when refreshing starts"),
                .color("discColor", \.discColor, "the disc's colour, in dark too (the library has no dark one)"),
                .number("shadowOpacity", \.shadowOpacity, "", 0...1, "the disc's shadow opacity"),
                .number("shadowRadius", \.shadowRadius, "pt", 0...50, "the shadow's blur"),
                .size("shadowOffset", \.shadowOffset, "pt", -50...50, "the shadow's offset [x, y]"),
                .colors("colors", \.colors, "the colour sequence (setColorSchemeColors); the first is also the pull's"),
            ]
        }
    }
}

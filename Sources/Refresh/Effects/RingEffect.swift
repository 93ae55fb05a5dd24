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
import Colors

/// Where the ring's arc and arrow are at one moment, as plain numbers (fractions of a turn, clockwise from the
/// 3 o'clock direction, as Android's `CircularProgressDrawable` keeps them).
///
/// On screen the arc starts at `startTrim + rotation + groupRotation` turns and sweeps `endTrim − startTrim` turns;
/// the arrowhead sits at its head. Trims may exceed 1: only the sum matters on screen.
struct RingPose: Equatable, Sendable {
    /// Where the arc starts, in turns before the rotations.
    var startTrim: Double
    /// Where the arc ends (its head), in turns before the rotations.
    var endTrim: Double
    /// The ring's own rotation, in turns.
    var rotation: Double
    /// The rotation of the whole drawing, in turns (the indeterminate cycle's 216° per cycle).
    var groupRotation: Double
    /// The arrowhead's scale, 0 (none) to 1.
    var arrowScale: Double

    init(startTrim: Double, endTrim: Double, rotation: Double, groupRotation: Double = 0, arrowScale: Double = 0) {
        self.startTrim = startTrim
        self.endTrim = endTrim
        self.rotation = rotation
        self.groupRotation = groupRotation
        self.arrowScale = arrowScale
    }

    /// The arc's length in turns.
    var sweep: Double { endTrim - startTrim }

    /// Where the arc's tail is on screen, in turns in 0..<1.
    var screenStart: Double {
        let a = startTrim + rotation + groupRotation
        return a - a.rounded(.down)
    }
}

/// The Qidian reader's ring (`ZNRefreshHUD`) finished the way its author wanted, as Android's Material spinner
/// (`SwipeRefreshLayout` with `CircularProgressDrawable`) does it: a white disc with a soft shadow holding an arc with
/// round caps and an arrowhead at its head. Pulling grows the arc and the arrow and turns the ring; the arc is
/// faint until the threshold. Letting go turns the arrow off at once, as SwipeRefreshLayout does when the pull is
/// released or the refresh starts. Refreshing first shrinks a visible drag arc (666 ms), then runs the
/// indeterminate cycle (1332 ms: the head runs ahead, then the tail catches up) that always starts where the last
/// one stopped, changing colour at the end of each cycle. Ending scales the disc away over 0.3 s while the inset
/// goes. At rest, with no pull, the disc is hidden and draws nothing, not even its shadow (which would otherwise
/// darken the top of the first row); after a finish it stays hidden until a finger pulls again.
///
/// Everything is worked out from the frame's time and the pull in `update(pull:)` (no layer animations), as the
/// Android drawable works out its frame in `draw`: any frame can be drawn, stepped or recorded on its own.
final class RingEffect: StyledEffect {
    // MARK: Constants (docs/reference.md §1, Ring)

    /// The disc's diameter, 40 pt (ZNRefreshHUD's 40×40 disc; CircularProgressDrawable's normal circle).
    static let circleDiameter = 40.0
    /// Radius of the arc's centre line, 7.5 pt (CircularProgressDrawable, normal size).
    static let centerRadius = 7.5
    /// Width of the arc, 2.5 pt (CircularProgressDrawable, normal size).
    static let strokeWidth = 2.5
    /// Base of the arrowhead at scale 1, 10 pt (CircularProgressDrawable, normal size).
    static let arrowWidth = 10.0
    /// Height of the arrowhead at scale 1, 5 pt (CircularProgressDrawable, normal size).
    static let arrowHeight = 5.0
    /// The pull that arms the ring and the spinner's resting offset, 64 pt (SwipeRefreshLayout's circle target).
    static let dragDistance = 64.0
    /// Pull beyond the threshold over which the tension term grows, 2 × 64 pt (SwipeRefreshLayout's slingshot).
    static let maxExtraPull = 2 * dragDistance
    /// Share of the drag distance before the arc starts to grow, 0.4 (SwipeRefreshLayout: max(d − 0.4, 0)).
    static let arcStartFraction = 0.4
    /// The drag rotation's start, −0.25 turn, before the factor 0.5 (SwipeRefreshLayout's moveSpinner).
    static let dragRotationStart = -0.25
    /// The drag rotation's turn per unit of a, 0.4 (SwipeRefreshLayout's moveSpinner).
    static let dragRotationPerA = 0.4
    /// The drag rotation's turn per unit of tension, 2 (SwipeRefreshLayout's moveSpinner).
    static let dragRotationPerTension = 2.0
    /// The factor on the whole drag rotation, 0.5 (SwipeRefreshLayout's moveSpinner).
    static let dragRotationFactor = 0.5
    /// Longest arc, 0.8 turn (CircularProgressDrawable's MAX_PROGRESS_ARC).
    static let maxArc = 0.8
    /// Shortest arc of the cycle, 0.01 turn (CircularProgressDrawable's MIN_PROGRESS_ARC).
    static let minArc = 0.01
    /// Arc alpha below the threshold, 0.3 (ZNRefreshHUD and SwipeRefreshLayout's starting alpha).
    static let faintAlpha = 0.3
    /// Arc alpha at or past the threshold, 1.0.
    static let fullAlpha = 1.0
    /// How long the alpha takes to change, 0.3 s (SwipeRefreshLayout's ALPHA_ANIMATION_DURATION 300 ms).
    static let alphaDuration = 0.3
    /// One indeterminate cycle, 1.332 s (CircularProgressDrawable's ANIMATION_DURATION 1332 ms).
    static let cycleDuration = 1.332
    /// The phase that shrinks a visible drag arc before the cycles, 0.666 s (half a cycle).
    static let shrinkDuration = cycleDuration / 2
    /// The ring's advance per cycle, 0.21 turn (1 − (0.8 − 0.01)).
    static let ringRotationPerCycle = 1 - (maxArc - minArc)
    /// The whole drawing's turn per cycle, 216° = 0.6 turn (1080° / 5).
    static let groupRotationPerCycle = 216.0 / 360
    /// Share of a cycle after which the colour blends to the next, 0.75 (the last 25 %).
    static let colorChangeStart = 0.75
    /// The finish: the disc scales to 0.01 over 0.3 s (ZNRefreshHUD), while the inset goes back.
    static let finishDuration = 0.3
    /// The disc's scale at the end of the finish, 0.01 (ZNRefreshHUD).
    static let finishScale = 0.01
    /// The disc's colour: white (ZNRefreshHUD); in dark, tertiarySystemBackground's dark grey (docs/reference.md §1,
    /// "Dark variants": the demo has none).
    static let discColor = DynamicColor(light: .white, dark: SystemColor.tertiarySystemBackground.dark)
    /// The disc's shadow opacity, 0.15 (ZNRefreshHUD).
    static let shadowOpacity = 0.15
    /// The shadow's blur, 3.5 pt; not in docs/reference.md: Android's CircleImageView (shadow radius 3.5 dp).
    static let shadowRadius = 3.5
    /// The shadow's drop, 1.75 pt down; not in docs/reference.md: Android's CircleImageView (y offset 1.75 dp).
    static let shadowOffset = Size(0, 1.75)
    /// The cycle's colours: the Qidian orange first; the others are not in docs/reference.md (Material demo colours).
    static let colors = [Color(rgb: 255, 149, 0), Color(rgb: 66, 133, 244), Color(rgb: 219, 68, 55),
                                Color(rgb: 15, 157, 88)]

    /// The parameters in use; a change shows from the next frame and keeps the pull or refresh under way.
    var style: Style {
        didSet { styleDidChange() }
    }
    private(set) var metrics: RefreshMetrics
    let layer = Layer()
    /// The white disc; it rides with the pull and scales away at the end.
    let disc = Layer()
    /// The arc and the arrowhead, turned so the arc starts at `pose.screenStart`.
    private let spinner = Layer()
    let arc = ShapeLayer()
    let arrow = ShapeLayer()

    // MARK: What the last frame showed

    /// The pose of the last frame.
    private(set) var pose = RingPose(startTrim: 0, endTrim: 0, rotation: dragRotationStart * dragRotationFactor)
    /// The arc's alpha in the last frame.
    private(set) var arcAlpha = faintAlpha
    /// The arc's colour (before alpha) in the last frame.
    private(set) var color = colors[0]
    /// The disc's scale in the last frame.
    private(set) var discScale = 1.0

    // MARK: Timelines

    private var state = RefreshState.idle
    private var fade = AlphaFade(faintAlpha)
    /// The drag pose that was showing when refreshing started, when it had an arc to shrink.
    private var shrinkFrom: RingPose?
    private var shrinkStart = 0.0
    /// When the cycles start, and the tail and ring rotation they start from.
    private var cyclesStart = 0.0
    private var cycleOrigin = RingPose(startTrim: 0, endTrim: minArc, rotation: 0)
    private var finishStart: Double?
    /// Set when a refresh has ended: the scaled-away disc stays hidden until a finger pulls again.
    private var isReset = false
    /// The arrow's scale its path was built for.
    private var arrowPathScale = -1.0

    init(style: Style = Style()) {
        self.style = style
        metrics = RingEffect.metrics(for: style)
        arc.fillColor = nil
        arc.lineCap = .round
        arc.strokeEnd = 0
        arrow.isHidden = true
        layer.addSublayer(disc)
        disc.addSublayer(spinner)
        spinner.addSublayer(arc)
        spinner.addSublayer(arrow)
        layOut()
    }

    /// The ring floats over the list as SwipeRefreshLayout's spinner (seed 003: the table's offset does not change
    /// during the pull): it comes down half the finger's travel, goes back under the navigation bar over 200 ms
    /// when released short, and to its refreshing place, its bottom 64 pt below the list's top, over 200 ms when
    /// released past it; it stays there while the disc scales away and is then back at its start.
    static func metrics(for s: Style) -> RefreshMetrics {
        RefreshMetrics(headerHeight: s.dragDistance, triggerDistance: s.dragDistance, refreshingInset: s.dragDistance,
                       insertDuration: s.floatDuration, insertTiming: s.floatTiming,
                       finishing: [RefreshInsetStage(inset: s.dragDistance, duration: s.finishDuration)],
                       placement: .floatsOverContent(FloatingPlacement(dragRate: s.dragRate, returnDuration: s.floatDuration,
                                                                       returnTiming: s.floatTiming)))
    }

    private func styleDidChange() {
        metrics = RingEffect.metrics(for: style)
        layOut()
    }

    /// Sizes the disc, the arc and the shadow from the style; the arrow is rebuilt on the next frame.
    private func layOut() {
        let d = style.circleDiameter
        disc.bounds = Rect(x: 0, y: 0, width: d, height: d)
        disc.cornerRadius = d / 2
        disc.backgroundColor = style.discColor
        disc.shadowOpacity = style.shadowOpacity
        disc.shadowRadius = style.shadowRadius
        disc.shadowOffset = style.shadowOffset
        // The shadow is the disc's alone: given as a path, the renderer fills one circle for it instead of drawing
        // the disc, the arc and the arrow a second time.
        disc.shadowPath = Path.ellipse(in: disc.bounds)
        spinner.frame = disc.bounds
        arc.frame = disc.bounds
        var circle = Path()
        let c = Point(d / 2, d / 2)
        // Two half turns from 3 o'clock, clockwise: the trims are then fractions of a turn from there.
        circle.addArc(center: c, radius: style.centerRadius, startAngle: 0, endAngle: Double.pi, clockwise: true)
        circle.addArc(center: c, radius: style.centerRadius, startAngle: Double.pi, endAngle: 2 * Double.pi,
                      clockwise: true)
        arc.path = circle
        arc.lineWidth = style.strokeWidth
        arrow.frame = disc.bounds
        arrowPathScale = -1
    }

    // MARK: Formulas

    /// SwipeRefreshLayout's tension term for `extra` points of pull beyond the threshold: with
    /// s = max(0, min(extra, 2·64)/64), t = (s/4 − (s/4)²)·2, so t grows from 0 to 0.5 and stops at 2 × 64 pt.
    static func tension(extra: Double, style s: Style = Style()) -> Double {
        let s = Swift.max(0, Swift.min(extra, s.maxExtraPull) / s.dragDistance)
        let q = s / 4
        return (q - q * q) * 2
    }

    /// The pose while dragging at `distance` points with the threshold at `trigger`: d = min(1, distance/trigger),
    /// a = max(d − 0.4, 0)·5/3, end trim min(0.8, 0.8a), arrow scale min(1, a), rotation (−0.25 + 0.4a + 2t)·0.5.
    static func dragPose(distance: Double, trigger: Double? = nil, style s: Style = Style()) -> RingPose {
        let trigger = trigger ?? s.dragDistance
        let d = Swift.min(1, Swift.max(0, distance / trigger))
        let a = Swift.max(d - s.arcStartFraction, 0) * 5 / 3
        let t = tension(extra: distance - trigger, style: s)
        return RingPose(startTrim: 0, endTrim: Swift.min(s.maxArc, s.maxArc * a), rotation: (dragRotationStart + dragRotationPerA * a + dragRotationPerTension * t) * dragRotationFactor,
                        groupRotation: 0, arrowScale: Swift.min(1, a))
    }

    /// The disc's top in the header, whose top the controller places `distance` − 64 pt below the list's resting
    /// top (the header floats): the spinner's offset from the list's top is −40 + 64·d + 2·64·t
    /// (SwipeRefreshLayout), so below the threshold the disc comes down with the pull, its bottom `distance` below
    /// the list's top, and past it slows under the tension; refreshing it rests with its bottom 64 pt below the top
    /// of the list.
    static func circleTop(distance: Double, trigger: Double? = nil, style s: Style = Style()) -> Double {
        let trigger = trigger ?? s.dragDistance
        let d = Swift.min(1, Swift.max(0, distance / trigger))
        let fromListTop = -s.circleDiameter + s.dragDistance * d + 2 * s.dragDistance * tension(extra: distance - trigger)
        return fromListTop - (distance - s.dragDistance)
    }

    /// The shrink phase `fraction` (0…1) of the way: the tail catches up to 0.01 short of the head and the ring
    /// turns on to the next whole turn (⌊rotation/0.8⌋ + 1, as CircularProgressDrawable). The arrow is off from the
    /// start: SwipeRefreshLayout turns it off when the refresh starts, it does not shrink it.
    static func shrinkPose(from p: RingPose, fraction f: Double, style s: Style = Style()) -> RingPose {
        let target = (p.rotation / s.maxArc).rounded(.down) + 1
        return RingPose(startTrim: p.startTrim + (p.endTrim - s.minArc - p.startTrim) * f, endTrim: p.endTrim,
                        rotation: p.rotation + (target - p.rotation) * f, groupRotation: 0, arrowScale: 0)
    }

    /// The pose `elapsed` seconds into the indeterminate cycles that start from `origin` (its tail and rotation).
    /// In each cycle the head grows from tail + 0.01 to tail + 0.8 over the first half (fast-out-slow-in), then the
    /// tail follows to head − 0.01; the next cycle starts from that tail, the ring 0.21 turn and the whole drawing
    /// 216° further on, so the arc never jumps.
    static func cyclePose(origin: RingPose, elapsed: Double, style s: Style = Style()) -> RingPose {
        let cycles = Swift.max(0, elapsed) / s.cycleDuration
        let n = cycles.rounded(.down)
        let u = cycles - n
        let tail = origin.startTrim + (s.maxArc - s.minArc) * n
        let start: Double, end: Double
        if u < 0.5 {
            start = tail
            end = tail + s.minArc + (s.maxArc - s.minArc) * TimingFunction.fastOutSlowIn.value(at: u * 2)
        } else {
            end = tail + s.maxArc
            start = tail + (s.maxArc - s.minArc) * TimingFunction.fastOutSlowIn.value(at: u * 2 - 1)
        }
        let group = s.groupRotationPerCycle * (n + u)
        return RingPose(startTrim: start, endTrim: end, rotation: origin.rotation + s.ringRotationPerCycle * (n + u),
                        groupRotation: group - group.rounded(.down), arrowScale: 0)
    }

    /// The colour `elapsed` seconds into the cycles: cycle n shows colour n, blending linearly to colour n + 1 in
    /// its last 25 %.
    static func cycleColor(elapsed: Double, style s: Style = Style()) -> Color {
        let cycles = Swift.max(0, elapsed) / s.cycleDuration
        let n = cycles.rounded(.down)
        let u = cycles - n
        let i = Int(n.truncatingRemainder(dividingBy: Double(s.colors.count)))
        let from = s.colors[i]
        guard u > s.colorChangeStart else { return from }
        let to = s.colors[(i + 1) % s.colors.count]
        let f = (u - s.colorChangeStart) / (1 - s.colorChangeStart)
        return Color(red: from.red + (to.red - from.red) * f, green: from.green + (to.green - from.green) * f,
                     blue: from.blue + (to.blue - from.blue) * f, alpha: from.alpha + (to.alpha - from.alpha) * f)
    }

    // MARK: RefreshEffect

    func transition(from old: RefreshState, to new: RefreshState, pull: RefreshPull) {
        let time = pull.time
        state = new
        switch new {
        case .refreshing:
            let p = pose
            finishStart = nil
            if p.endTrim > p.startTrim {
                shrinkFrom = p
                shrinkStart = time
                cyclesStart = time + style.shrinkDuration
                let end = RingEffect.shrinkPose(from: p, fraction: 1, style: style)
                cycleOrigin = RingPose(startTrim: end.startTrim, endTrim: end.endTrim, rotation: end.rotation)
            } else {
                shrinkFrom = nil
                cyclesStart = time
                cycleOrigin = RingPose(startTrim: 0, endTrim: style.minArc, rotation: 0)
            }
            setAlphaTarget(style.fullAlpha, at: time)
        case .finishing:
            finishStart = time
        case .idle:
            if old.isBusy {
                // The reset: the next pull starts from a fresh ring, and the disc stays away until then.
                isReset = true
                shrinkFrom = nil
                finishStart = nil
                fade = AlphaFade(style.faintAlpha)
            }
        default:
            break
        }
    }

    func update(pull: RefreshPull) {
        let time = pull.time
        layer.frame = Rect(origin: .zero, size: pull.headerSize)
        if pull.isDragging { isReset = false }
        // Hidden at rest, under the navigation bar and over the first row's top: nothing drawn, no shadow.
        layer.isHidden = state == .idle && (pull.distance <= 0 || isReset)
        let trigger = pull.progress > 0 ? pull.distance / pull.progress : style.dragDistance
        let d = style.circleDiameter
        disc.position = Point(pull.headerSize.width / 2, RingEffect.circleTop(distance: pull.distance, trigger: trigger, style: style) + d / 2)

        var scale = 1.0
        switch state {
        case .refreshing, .finishing:
            if let from = shrinkFrom, time < cyclesStart {
                let f = Swift.min(1, Swift.max(0, (time - shrinkStart) / style.shrinkDuration))
                pose = RingEffect.shrinkPose(from: from, fraction: f, style: style)
                color = style.colors[0]
            } else {
                pose = RingEffect.cyclePose(origin: cycleOrigin, elapsed: time - cyclesStart, style: style)
                color = RingEffect.cycleColor(elapsed: time - cyclesStart, style: style)
            }
            if let start = finishStart {
                let f = Swift.min(1, Swift.max(0, (time - start) / style.finishDuration))
                scale = 1 + (style.finishScale - 1) * f
            }
        default:
            pose = RingEffect.dragPose(distance: pull.distance, trigger: trigger, style: style)
            // The arrow shows only under the finger: a release turns it off (SwipeRefreshLayout's finishSpinner).
            if !pull.isDragging { pose.arrowScale = 0 }
            color = style.colors[0]
            setAlphaTarget(pull.progress >= 1 ? style.fullAlpha : style.faintAlpha, at: time)
        }
        discScale = scale
        disc.transform = scale == 1 ? .identity : AffineTransform(scaleX: scale, y: scale)
        arcAlpha = alpha(at: time)
        let ink = color.withAlphaMultiplied(by: arcAlpha)

        spinner.transform = AffineTransform(rotationAngle: 2 * Double.pi * pose.screenStart)
        let sweep = Swift.min(1, Swift.max(0, pose.sweep))
        arc.strokeEnd = sweep
        arc.strokeColor = ink
        arrow.isHidden = pose.arrowScale <= 0
        if !arrow.isHidden {
            if pose.arrowScale != arrowPathScale {
                arrow.path = FloatingDisc.arrowhead(diameter: style.circleDiameter, radius: style.centerRadius,
                                                    strokeWidth: style.strokeWidth, width: style.arrowWidth,
                                                    height: style.arrowHeight, scale: pose.arrowScale)
                arrowPathScale = pose.arrowScale
            }
            arrow.fillColor = ink
            arrow.transform = AffineTransform(rotationAngle: 2 * Double.pi * sweep)
        }
    }

    /// The arc's alpha at `time` on its 300 ms change (ease in, ease out, as Android's default interpolator).
    func alpha(at time: Double) -> Double {
        fade.value(at: time, duration: style.alphaDuration) { TimingFunction.easeInEaseOut.value(at: $0) }
    }

    private func setAlphaTarget(_ target: Double, at time: Double) {
        fade.head(to: target, from: alpha(at: time), at: time)
    }
}

extension RingEffect {
    /// The ring's parameters; the defaults are the constants above.
    struct Style: StyleValue {
        var circleDiameter = RingEffect.circleDiameter
        var centerRadius = RingEffect.centerRadius
        var strokeWidth = RingEffect.strokeWidth
        var arrowWidth = RingEffect.arrowWidth
        var arrowHeight = RingEffect.arrowHeight
        var dragDistance = RingEffect.dragDistance
        var arcStartFraction = RingEffect.arcStartFraction
        var maxArc = RingEffect.maxArc
        var minArc = RingEffect.minArc
        var faintAlpha = RingEffect.faintAlpha
        var fullAlpha = RingEffect.fullAlpha
        var alphaDuration = RingEffect.alphaDuration
        var cycleDuration = RingEffect.cycleDuration
        var groupRotationPerCycle = RingEffect.groupRotationPerCycle
        var colorChangeStart = RingEffect.colorChangeStart
        var finishDuration = RingEffect.finishDuration
        var finishScale = RingEffect.finishScale
        var discColor = RingEffect.discColor.light
        var shadowOpacity = RingEffect.shadowOpacity
        var shadowRadius = RingEffect.shadowRadius
        var shadowOffset = RingEffect.shadowOffset
        var colors = RingEffect.colors
        var dragRate = FloatingPlacement.androidDragRate
        var floatDuration = FloatingPlacement.androidAnimationDuration
        var floatTiming = FloatingPlacement.androidTiming

        init() {}

        /// Pull beyond the threshold over which the tension grows: twice the drag distance.
        var maxExtraPull: Double { 2 * dragDistance }
        /// The phase that shrinks a visible drag arc: half a cycle.
        var shrinkDuration: Double { cycleDuration / 2 }
        /// The ring's advance per cycle: what the arc does not cover.
        var ringRotationPerCycle: Double { 1 - (maxArc - minArc) }

        static var fields: [StyleField<Style>] {
            [
                .number("circleDiameter", \.circleDiameter, "pt", 8...200, "the white disc's diameter"),
                .number("centerRadius", \.centerRadius, "pt", 1...100, "radius of the arc's centre line"),
                .number("strokeWidth", \.strokeWidth, "pt", 0.1...40, "width of the arc"),
                .number("arrowWidth", \.arrowWidth, "pt", 0...100, "base of the arrowhead at full size"),
                .number("arrowHeight", \.arrowHeight, "pt", 0...100, "height of the arrowhead at full size"),
                .number("dragDistance", \.dragDistance, "pt", 8...1000,
                        "the pull that arms the ring (its trigger) and its resting place while refreshing"),
                .number("arcStartFraction", \.arcStartFraction, "", 0...0.99,
                        "share of the drag distance pulled before the arc starts to grow"),
                .number("maxArc", \.maxArc, "turn", 0.02...0.99, "the longest arc"),
                .number("minArc", \.minArc, "turn", 0...0.5, "the shortest arc of the spinning cycle"),
                .number("faintAlpha", \.faintAlpha, "", 0...1, "the arc's alpha before the threshold"),
                .number("fullAlpha", \.fullAlpha, "", 0...1, "the arc's alpha at or past the threshold"),
                .number("alphaDuration", \.alphaDuration, "s", 0...10, "how long the alpha takes to change"),
                .number("cycleDuration", \.cycleDuration, "s", 0.05...60,
                        "one spinning cycle (the head runs ahead, the tail catches up); a visible drag arc shrinks over half of one"),
                .number("groupRotationPerCycle", \.groupRotationPerCycle, "turn", -10...10,
                        "how far the whole drawing turns per cycle"),
                .number("colorChangeStart", \.colorChangeStart, "", 0...1,
                        "share of a cycle after which the colour blends to the next"),
                .number("finishDuration", \.finishDuration, "s", 0...10, "how long the disc takes to scale away at the end"),
                .number("finishScale", \.finishScale, "", 0...1, "the disc's scale at the end of the finish"),
                .color("discColor", \.discColor, dark: RingEffect.discColor.dark, "the disc's colour"),
                .number("shadowOpacity", \.shadowOpacity, "", 0...1, "the disc's shadow opacity"),
                .number("shadowRadius", \.shadowRadius, "pt", 0...50, "the shadow's blur"),
                .size("shadowOffset", \.shadowOffset, "pt", -50...50, "the shadow's offset [x, y]"),
                .colors("colors", \.colors, "the spinning cycle's colours in turn; the first is also the pull's"),
                .number("dragRate", \.dragRate, "", 0.05...2,
                        "the ring's travel per point of the finger's travel past the top"),
                .number("floatDuration", \.floatDuration, "s", 0...10,
                        "how long the ring takes to go to its refreshing place, or back out of sight when released short"),
                .timing("floatTiming", \.floatTiming, "the curve of those moves"),
            ]
        }
    }
}

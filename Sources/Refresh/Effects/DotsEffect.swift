import Geometry
import Layers
import Motion
import Raster
import Styles
import Colors

/// The four-dot header (MSRefreshHeader): a thick line draws itself from dot to dot round a diamond as the list
/// is pulled, each dot appearing as the line reaches it; while refreshing the diamond turns and the dots breathe.
///
/// Everything while pulling is a function of the pull p (docs/reference.md §1, Four dots), worked out by `pose(pull:)`:
/// the top dot fades in over the first 15 pt; from 15 to 55 pt the line runs through four stages of 10 pt, one
/// per side of the diamond, each stage stretching the line from its dot to the next (first 5 pt) and then pulling
/// its tail after it (last 5 pt). The line's trim changes only with the pull, so a still frame re-strokes nothing.
final class DotsEffect: StyledEffect {
    // MARK: Constants (docs/reference.md §1, Four dots)

    /// The header's side, 35 pt (MSRefreshHeader: SURefreshHeaderHeight, a 35×35 header).
    static let headerSide = 35.0
    /// Dot radius (MSRefreshHeader: SURefreshPointRadius 5).
    static let dotRadius = 5.0
    /// The joining line's width, a dot's diameter (MSRefreshHeader: lineWidth = 2 × radius).
    static let lineWidth = 2 * dotRadius
    /// Top dot colour (MSRefreshHeader: RGB 90, 200, 200).
    static let topColor = Color(rgb: 90, 200, 200)
    /// Left dot colour (MSRefreshHeader: RGB 250, 85, 78).
    static let leftColor = Color(rgb: 250, 85, 78)
    /// Bottom dot colour (MSRefreshHeader: RGB 92, 201, 105).
    static let bottomColor = Color(rgb: 92, 201, 105)
    /// Right dot colour (MSRefreshHeader: RGB 253, 175, 75).
    static let rightColor = Color(rgb: 253, 175, 75)
    /// The pull that arms the header and where it stops moving (MSRefreshHeader: SURefreshPullLen 55).
    static let pullLength = 55.0
    /// The pull where the line starts, 40 pt before the end (MSRefreshHeader: SURefreshPullLen − 40 = 15).
    static let lineStart = pullLength - 40
    /// The top dot's opacity is p over this, until the line starts (MSRefreshHeader: progress / 20).
    static let fadeInLength = 20.0
    /// The pull of one stage, one side of the diamond (MSRefreshHeader: 4 stages of 10 pt).
    static let stageLength = 10.0
    /// Half a stage: the line stretches for this much, then its tail follows (MSRefreshHeader: halves of 5 pt).
    static let halfStage = stageLength / 2
    /// The stroke fraction the line gains per point of pull: a quarter of the path per half stage (MSRefreshHeader: sub
    /// / 40 × 2).
    static let strokePerPoint = 1.0 / 20
    /// The shortest tail the line keeps behind the next dot until late in a stage (MSRefreshHeader: (k+1)/4 − 0.1).
    static let tailLength = 0.1
    /// The header's y while it moves with the pull at half speed: −(35 + (p − 35)/2) (MSRefreshHeader).
    static let followRate = 0.5
    /// Where the header stays once p ≥ 55: −(55 − (55 − 35)/2) = −45 (MSRefreshHeader).
    static let pinnedY = -(pullLength - (pullLength - headerSide) / 2)
    /// How long the refreshing inset takes to come in and to go (MSRefreshHeader: UIView animation of 0.5 s).
    static let insetDuration = 0.5
    /// One turn of the header while refreshing, linear, repeated (MSRefreshHeader: rotationAni 1.0 s, 0 → 2π).
    static let turnDuration = 1.0
    /// How far each dot moves inward and back, twice per turn (MSRefreshHeader: SURefreshTranslatLen 5).
    static let breathDistance = 5.0
    /// The breathing keyframes as fractions of the distance: in, out, in, out (MSRefreshHeader: 0, 5, 0, 5, 0).
    static let breathKeyframes = [0.0, 1, 0, 1, 0]

    /// Fires on release at 55; the inset of 55 comes in and goes over 0.5 s with UIView's default curve. The header
    /// is drawn behind the rows, as MSRefreshHeader inserts it at index 0 of the scroll view: below a 35 pt pull,
    /// where it still reaches under the content's top, the first row covers it.
    private(set) var metrics: RefreshMetrics
    /// The parameters in use; a change shows from the next frame and keeps the pull or refresh under way.
    var style: Style {
        didSet { styleDidChange() }
    }

    static func metrics(for s: Style) -> RefreshMetrics {
        RefreshMetrics(headerHeight: s.headerSide, triggerDistance: s.pullLength, trigger: .onRelease,
                       refreshingInset: s.pullLength, insertDuration: s.insetDuration, insertTiming: s.insetTiming,
                       finishing: [RefreshInsetStage(duration: s.insetDuration, timing: s.insetTiming)],
                       drawsBehindContent: true)
    }

    // MARK: The pose at a pull

    /// What the header shows at one pull.
    struct Pose: Equatable, Sendable {
        /// The header's top in the content's coordinates (0 is the content's top; the header is above, negative).
        var headerY: Double
        var topOpacity: Double
        var strokeStart: Double
        var strokeEnd: Double
        /// The sub-phase 0…7 (two per stage), or 8 once all four dots show.
        var subPhase: Int
        var showsLeft: Bool
        var showsBottom: Bool
        var showsRight: Bool
        /// The colour of the dot the line is leaving.
        var lineColor: Color
    }

    /// The sub-phase given once the whole diamond shows.
    static let completePhase = 8

    /// The pose at pull `p` (points past the content's resting top).
    static func pose(pull p: Double, style s: Style = Style()) -> Pose {
        let y: Double
        if p <= s.headerSide {
            y = -p
        } else if p < s.pullLength {
            y = -(s.headerSide + (p - s.headerSide) * s.followRate)
        } else {
            y = s.pinnedY
        }
        var opacity = 1.0, start = 0.0, end = 0.0, index = 0
        if p < s.lineStart {
            opacity = Swift.max(p, 0) / s.fadeInLength
        } else if p < s.pullLength {
            let stage = Swift.min(Int((p - s.lineStart) / s.stageLength), 3)
            let k = Double(stage)
            let sub = p - s.lineStart - k * s.stageLength
            if sub <= s.halfStage {
                index = 2 * stage
                start = k / 4
                end = k / 4 + sub * s.strokePerPoint
            } else {
                index = 2 * stage + 1
                end = (k + 1) / 4
                start = Swift.max(k / 4 + (sub - s.halfStage) * s.strokePerPoint, (k + 1) / 4 - s.tailLength)
            }
        } else {
            index = completePhase
            start = 1
            end = 1
        }
        let color = index > 5 ? s.rightColor : index > 3 ? s.bottomColor : index > 1 ? s.leftColor : s.topColor
        return Pose(headerY: y, topOpacity: opacity, strokeStart: start, strokeEnd: end, subPhase: index,
                    showsLeft: index > 1, showsBottom: index > 3, showsRight: index > 5, lineColor: color)
    }

    // MARK: Layers

    /// The 35 × 35 header; it turns about its centre while refreshing.
    let layer = Layer()
    let line = ShapeLayer()
    let topDot: ShapeLayer
    let leftDot: ShapeLayer
    let bottomDot: ShapeLayer
    let rightDot: ShapeLayer

    private var busy = false
    private var lastPull = Double.nan
    private var lastWidth = Double.nan
    private let turn: BasicAnimation<Double>
    /// One breathing animation per dot, in top, left, bottom, right order.
    private let breaths: [KeyframeAnimation<Double>]

    /// The dots' centres in the header: top, left, bottom, right.
    static let centres = [Point(headerSide / 2, dotRadius), Point(dotRadius, headerSide / 2),
                                 Point(headerSide / 2, headerSide - dotRadius), Point(headerSide - dotRadius, headerSide / 2)]

    init(style: Style = Style()) {
        self.style = style
        metrics = DotsEffect.metrics(for: style)
        layer.name = "dots"
        topDot = ShapeLayer()
        leftDot = ShapeLayer()
        bottomDot = ShapeLayer()
        rightDot = ShapeLayer()
        line.fillColor = nil
        line.lineCap = .round
        line.lineJoin = .round
        // As the original stacks them: the top dot, the line over it, then the other three over the line.
        for l in [topDot, line, leftDot, bottomDot, rightDot] { layer.addSublayer(l) }

        turn = BasicAnimation<Double>(keyPath: "transform.rotation.z", from: 0, to: 2 * Double.pi)
        turn.repeatCount = .infinity
        turn.timingFunction = .linear
        // Inward is down for the top dot, right for the left one, up for the bottom one, left for the right one.
        let inward: [(String, Double)] = [("transform.translation.y", 1), ("transform.translation.x", 1),
                                          ("transform.translation.y", -1), ("transform.translation.x", -1)]
        breaths = inward.map { keyPath, sign in
            let a = KeyframeAnimation<Double>(keyPath: keyPath, values: DotsEffect.breathKeyframes.map { $0 * sign })
            a.repeatCount = .infinity
            a.timingFunction = .linear
            return a
        }
        layOut()
    }

    private func styleDidChange() {
        metrics = DotsEffect.metrics(for: style)
        layOut()
    }

    /// Sizes, colours and timings from the style; the pose is applied again on the next frame. The refreshing
    /// animations take new timings when they start next.
    private func layOut() {
        let side = style.headerSide, r = style.dotRadius
        layer.bounds = Rect(x: 0, y: 0, width: side, height: side)
        let c = style.centres
        for (d, (centre, color)) in zip(dots, zip(c, [style.topColor, style.leftColor, style.bottomColor, style.rightColor])) {
            d.frame = Rect(x: centre.x - r, y: centre.y - r, width: 2 * r, height: 2 * r)
            d.path = Path.ellipse(in: Rect(x: 0, y: 0, width: 2 * r, height: 2 * r))
            d.fillColor = color
        }
        line.frame = layer.bounds
        var path = Path()
        path.move(to: c[0])
        for i in [1, 2, 3, 0] { path.line(to: c[i]) }
        line.path = path
        line.lineWidth = style.lineWidth
        turn.duration = style.turnDuration
        for (breath, sign) in zip(breaths, [1.0, 1, -1, -1]) {
            breath.values = DotsEffect.breathKeyframes.map { $0 * sign * style.breathDistance }
            breath.duration = style.turnDuration
        }
        lastPull = .nan
        if lastWidth.isNaN { apply(DotsEffect.pose(pull: 0, style: style)) }
    }

    private var dots: [ShapeLayer] { [topDot, leftDot, bottomDot, rightDot] }

    // MARK: Frames

    func update(pull: RefreshPull) {
        let width = pull.headerSize.width
        // While refreshing and ending the header keeps the look it had when it fired.
        let p = busy ? style.pullLength : pull.distance
        guard p != lastPull || width != lastWidth else { return }
        lastPull = p
        lastWidth = width
        let pose = DotsEffect.pose(pull: p, style: style)
        apply(pose)
        // The container's top is at −35 in the content's coordinates.
        let side = style.headerSide
        layer.frame = Rect(x: (width - side) / 2, y: pose.headerY + side, width: side, height: side)
    }

    private func apply(_ pose: Pose) {
        topDot.opacity = pose.topOpacity
        leftDot.isHidden = !pose.showsLeft
        bottomDot.isHidden = !pose.showsBottom
        rightDot.isHidden = !pose.showsRight
        line.strokeStart = pose.strokeStart
        line.strokeEnd = pose.strokeEnd
        line.strokeColor = pose.lineColor
    }

    func transition(from old: RefreshState, to new: RefreshState, pull: RefreshPull) {
        let time = pull.time
        switch new {
        case .refreshing:
            busy = true
            lastPull = .nan
            turn.beginTime = layer.localTime(atParentTime: time)
            layer.add(turn, forKey: "turn")
            for (dot, breath) in zip(dots, breaths) {
                breath.beginTime = dot.localTime(atParentTime: time)
                dot.add(breath, forKey: "breath")
            }
        case .finishing:
            // The animations run on while the inset goes back; they are removed when it is gone.
            busy = true
        case .idle, .pulling, .armed, .willRefresh, .noMoreData, .releaseToFloor, .floorOpening, .floor, .floorClosing:
            guard busy || old.isBusy else { return }
            busy = false
            lastPull = .nan
            layer.removeAllAnimations()
            for dot in dots { dot.removeAllAnimations() }
        }
    }
}

extension DotsEffect {
    /// The four dots' parameters; the defaults are the constants above.
    struct Style: StyleValue {
        var headerSide = DotsEffect.headerSide
        var dotRadius = DotsEffect.dotRadius
        var lineWidth = DotsEffect.lineWidth
        var topColor = DotsEffect.topColor
        var leftColor = DotsEffect.leftColor
        var bottomColor = DotsEffect.bottomColor
        var rightColor = DotsEffect.rightColor
        var pullLength = DotsEffect.pullLength
        var fadeInLength = DotsEffect.fadeInLength
        var stageLength = DotsEffect.stageLength
        var tailLength = DotsEffect.tailLength
        var followRate = DotsEffect.followRate
        var insetDuration = DotsEffect.insetDuration
        /// UIView's default animation curve, as the demo's animateWithDuration uses.
        var insetTiming = TimingFunction.easeInEaseOut
        var turnDuration = DotsEffect.turnDuration
        var breathDistance = DotsEffect.breathDistance

        init() {}

        /// The pull where the line starts: four stages before the end.
        var lineStart: Double { pullLength - 4 * stageLength }
        var halfStage: Double { stageLength / 2 }
        /// A quarter of the path per half stage.
        var strokePerPoint: Double { 0.25 / halfStage }
        /// Where the header stays once fully pulled.
        var pinnedY: Double { -(headerSide + (pullLength - headerSide) * followRate) }
        /// The dots' centres in the header: top, left, bottom, right.
        var centres: [Point] {
            [Point(headerSide / 2, dotRadius), Point(dotRadius, headerSide / 2),
             Point(headerSide / 2, headerSide - dotRadius), Point(headerSide - dotRadius, headerSide / 2)]
        }

        static var fields: [StyleField<Style>] {
            [
                .number("headerSide", \.headerSide, "pt", 10...200, "the square header's side"),
                .number("dotRadius", \.dotRadius, "pt", 0.5...50, "each dot's radius"),
                .number("lineWidth", \.lineWidth, "pt", 0.1...100, "the joining line's width"),
                .color("topColor", \.topColor, "the top dot's colour"),
                .color("leftColor", \.leftColor, "the left dot's colour"),
                .color("bottomColor", \.bottomColor, "the bottom dot's colour"),
                .color("rightColor", \.rightColor, "the right dot's colour"),
                .number("pullLength", \.pullLength, "pt", 10...1000,
                        "the pull that arms the header (its trigger), where it stops moving and the refreshing inset"),
                .number("fadeInLength", \.fadeInLength, "pt", 0.1...1000, "the top dot's opacity is the pull over this"),
                .number("stageLength", \.stageLength, "pt", 0.5...250,
                        "the pull of one of the four stages that draw the diamond"),
                .number("tailLength", \.tailLength, "", 0...1, "the shortest tail the line keeps, as a share of the path"),
                .number("followRate", \.followRate, "", 0...1,
                        "past the header's side, the header moves this much per point of pull"),
                .number("insetDuration", \.insetDuration, "s", 0...10, "how long the refreshing inset takes to come and to go"),
                .timing("insetTiming", \.insetTiming, "the curve of the inset's changes"),
                .number("turnDuration", \.turnDuration, "s", 0.05...60,
                        "one turn of the header while refreshing; the dots breathe twice per turn"),
                .number("breathDistance", \.breathDistance, "pt", 0...100, "how far each dot moves inward and back"),
            ]
        }
    }
}

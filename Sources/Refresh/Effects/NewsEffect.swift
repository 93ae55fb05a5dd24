import Geometry
import Layers
import Motion
import Raster
import Styles
import Colors

/// The NetEase News header (docs/reference.md §1, News banner, `RefreshControl_News`): a tall grey view with a little
/// animated newspaper and a short label; when a refresh ends, the header shrinks to a 32 pt banner that bounces in
/// with the refresh's message ("12 new items"), stays 1.5 s, and goes away with the inset.
///
/// The controller runs the two-stage collapse (`metrics.finishing`); the effect follows the same clock: it shows
/// the banner when the first stage has run, and fades it out when the control returns to idle. While the banner
/// shows, a finger on the list freezes the banner's animations (QA1673's pause) and the 1.5 s hold with them
/// (`holdsFinishing`), so the inset does not collapse under the finger; any release resumes both.
///
/// The image and the label are centred across as one group, the label as wide as its text, so the group moves
/// when the text changes, as a centred row of an image and a label does.
///
/// Layout inside the header's container (70 pt, the threshold, above the content's top):
///
/// ```
///  y = −80 ┌──────────────── top view, 150 tall, grey ────────────────┐
///          │                                                          │
///  y = 0   │          ┌─48×48─┐                                       │  ← the header's container
///          │          │ paper │  下拉刷新                              │
///  y = 38  │          └───────┘        ┌ banner, 32 tall (hidden) ┐   │
///  y = 70  └──────────────────────────────────────────────────────────┘  ← the content's top
/// ```
final class NewsEffect: StyledEffect {
    /// Trigger distance and refreshing inset, 70 pt (RefreshControl_News: threshold 70).
    static let threshold = 70.0
    /// The trigger distance is never set below 45 pt (RefreshControl_News).
    static let minimumThreshold = 45.0
    /// The banner's height, and the inset the first collapse stage ends at, 32 pt (RefreshControl_News).
    static let bannerHeight = 32.0
    /// The grey top view's height, 150 pt, taller than the header so a long pull shows no gap (RefreshControl_News).
    static let topViewHeight = 150.0
    /// The top view's grey, RGB (235, 235, 235) (RefreshControl_News).
    static let topViewColor = Color(rgb: 235, 235, 235)
    /// The animated image's side, 48 pt (RefreshControl_News: 48×48 image view).
    static let imageSide = 48.0
    /// The image's animation cycles through its frames in 0.6 s (RefreshControl_News: animationDuration 0.6).
    static let imageCycleDuration = 0.6
    /// The label's font size, 14 pt (RefreshControl_News).
    static let labelFontSize = 14.0
    /// The label's grey, RGB (102, 102, 102) (RefreshControl_News).
    static let labelColor = Color(rgb: 102, 102, 102)
    /// Each collapse stage of the inset takes 0.2 s (RefreshControl_News: animateWithDuration 0.2).
    static let collapseDuration = 0.2
    /// The banner stays 1.5 s before the inset returns (RefreshControl_News: delay 1.5).
    static let bannerHoldDuration = 1.5
    /// The banner's background, RGB (220, 232, 244) (RefreshControl_News).
    static let bannerColor = Color(rgb: 220, 232, 244)
    /// The banner's text colour, RGB (69, 141, 243), at 14 pt like the label (RefreshControl_News).
    static let bannerTextColor = Color(rgb: 69, 141, 243)
    /// The banner's background in dark: the demo has none; the banner's blue at a fifth over black, a dim wash of
    /// the brand colour as the light one is a pale one (docs/reference.md §1, "Dark variants").
    static let darkBannerColor = Color(rgb: 14, 28, 49)
    /// Each half of the banner's bounce takes 0.25 s, ease-in (RefreshControl_News: animateWithDuration 0.25).
    static let bounceHalfDuration = 0.25
    /// The scale the bounce overshoots to, 1.1, before it settles at exactly 1 (docs/reference.md §1, News).
    static let bounceScale = 1.1
    /// The banner fades out over 0.25 s once the inset is back (docs/reference.md §1, News).
    static let fadeOutDuration = 0.25

    /// The image's frames: a page with one, two, three, then four lines of text on it. Not from docs/reference.md:
    /// our own drawing of "news loading" for the demo's animated image.
    static let imageFrameCount = 4
    /// The headline bar's red, NetEase's brand colour. Not from docs/reference.md: a touch of colour for the drawing.
    static let headlineColor = Color(rgb: 221, 56, 44)
    /// The gap between the image and the label, in points. Not from docs/reference.md: the demo's row, by eye.
    static let imageLabelGap = 8.0
    /// The row's left edge is rounded to half points, a pixel at the phone's scale 2, so the page's lines stay
    /// crisp. Not from docs/reference.md.
    static let layoutGrid = 0.5

    private(set) var metrics: RefreshMetrics
    /// The parameters in use; a change shows from the next frame and keeps the pull or refresh under way.
    var style: Style {
        didSet { styleDidChange() }
    }

    static func metrics(for s: Style) -> RefreshMetrics {
        RefreshMetrics(headerHeight: s.threshold, triggerDistance: s.threshold, minimumTriggerDistance: s.minimumThreshold,
                       trigger: .onRelease, refreshingInset: s.threshold,
                       finishing: [RefreshInsetStage(inset: s.bannerHeight, duration: s.collapseDuration),
                                   RefreshInsetStage(delay: s.bannerHoldDuration, inset: 0, duration: s.collapseDuration)],
                       hasResultRow: true)
    }
    let layer = Layer()

    /// The grey view with the image and the label; hidden while the banner shows.
    let topView = Layer()
    /// The page outline and its lines, one path per frame.
    let image = ShapeLayer()
    /// The red headline bar on the page, which does not change.
    private let headline = ShapeLayer()
    let label = TextLayer()
    /// The message banner at the bottom of the header: its animations are the ones a finger pauses.
    let banner = Layer()
    let bannerLabel = TextLayer()

    /// The image's frames, built once.
    let frames: [Path]
    /// The language of the texts shown, the pull's as last given.
    private var language = RefreshLanguage.english
    private(set) var state = RefreshState.idle
    private var size = Size.zero
    /// The label's text the row was last centred for.
    private var laidOutText = ""
    /// The frame the image shows while pulled (nil while its cycle animation runs).
    private var shownFrame: Int? = 0
    /// The time the running refresh ended; the banner comes when the first collapse stage is over.
    private var finishTime: Double?
    /// The parent time at which the banner appeared, while it is (or was) shown for the current refresh.
    private(set) var bannerStartTime: Double?
    /// The banner's local time at which its fade-out ends, while it fades.
    private var fadeEndLocalTime: Double?
    /// True while a finger holds the list and the banner's animations are frozen.
    private(set) var isBannerPaused = false

    init(style: Style = Style()) {
        self.style = style
        metrics = NewsEffect.metrics(for: style)
        var frames: [Path] = []
        for k in 0..<NewsEffect.imageFrameCount { frames.append(NewsEffect.pagePath(lines: k + 1)) }
        self.frames = frames

        image.fillRule = .evenOdd
        image.path = frames[0]
        headline.path = NewsEffect.headlinePath()
        image.addSublayer(headline)
        label.verticalAlignment = .center
        topView.addSublayer(image)
        topView.addSublayer(label)

        banner.isHidden = true
        bannerLabel.alignmentMode = .center
        bannerLabel.verticalAlignment = .center
        banner.addSublayer(bannerLabel)

        layer.addSublayer(topView)
        layer.addSublayer(banner)
        applyLook()
        refreshTexts()
    }

    private func styleDidChange() {
        metrics = NewsEffect.metrics(for: style)
        applyLook()
        // Laid out again on the next frame, with the new sizes.
        size = .zero
        laidOutText = ""
        refreshTexts()
    }

    /// The colours and font sizes from the style.
    private func applyLook() {
        topView.backgroundColor = style.topViewColor
        image.fillColor = style.labelColor
        headline.fillColor = style.headlineColor
        label.fontSize = style.labelFontSize
        label.foregroundColor = style.labelColor
        banner.backgroundColor = style.bannerColor
        bannerLabel.fontSize = style.labelFontSize
        bannerLabel.foregroundColor = style.bannerTextColor
    }

    // MARK: Drawing of the image

    /// A page in a 48×48 box: a rounded outline 2 pt wide (even-odd ring) with `lines` lines of text under the
    /// headline.
    static func pagePath(lines: Int) -> Path {
        var path = Path()
        let page = Rect(x: 9, y: 5, width: 30, height: 38)
        path.addRoundedRect(page, cornerRadius: 3)
        path.addRoundedRect(page.insetBy(dx: 2, dy: 2), cornerRadius: 1)
        for i in 0..<lines {
            // The last line of a paragraph is shorter.
            let width = i == 3 ? 12.0 : 20.0
            path.addRect(Rect(x: 14, y: 22 + Double(i) * 5, width: width, height: 2))
        }
        return path
    }

    /// The headline bar at the top of the page.
    static func headlinePath() -> Path {
        Path.rect(Rect(x: 14, y: 10, width: 20, height: 7))
    }

    // MARK: RefreshEffect

    func update(pull: RefreshPull) {
        if pull.language != language {
            language = pull.language
            refreshTexts()
        }
        if pull.headerSize != size { layout(pull.headerSize) }
        switch state {
        case .idle, .pulling, .armed:
            // Pulled: the page fills with lines as the pull nears the threshold.
            let k = Swift.min(NewsEffect.imageFrameCount - 1,
                              Swift.max(0, Int(pull.progress * Double(NewsEffect.imageFrameCount))))
            if shownFrame != k {
                shownFrame = k
                image.path = frames[k]
            }
        default:
            break
        }
        if case .finishing = state, bannerStartTime == nil, let end = finishTime,
           pull.time >= end + style.collapseDuration {
            showBanner(at: end + style.collapseDuration)
        }
        guard !banner.isHidden else { return }
        let touching = pull.isTracking
        if touching && !isBannerPaused {
            banner.pause(atParentTime: pull.time)
            isBannerPaused = true
        } else if !touching && isBannerPaused {
            banner.resume(atParentTime: pull.time)
            isBannerPaused = false
        }
        if let end = fadeEndLocalTime, !isBannerPaused, banner.localTime(atParentTime: pull.time) >= end {
            hideBanner()
        }
    }

    /// True while a finger holds the banner: the controller's wait before the inset returns stands still too.
    var holdsFinishing: Bool { isBannerPaused }

    func transition(from old: RefreshState, to new: RefreshState, pull: RefreshPull) {
        let time = pull.time
        state = new
        language = pull.language
        switch new {
        case .refreshing, .willRefresh:
            startImageCycle(at: time)
        case .finishing:
            stopImageCycle(showing: NewsEffect.imageFrameCount - 1)
            finishTime = time
            bannerStartTime = nil
        case .idle, .pulling, .armed, .noMoreData, .releaseToFloor, .floorOpening, .floor, .floorClosing:
            stopImageCycle(showing: nil)
            finishTime = nil
            if case .finishing = old {
                if bannerStartTime != nil { fadeOutBanner(at: time) } else { hideBanner() }
            }
            topView.isHidden = false
        }
        refreshTexts()
    }

    // MARK: Parts

    private func layout(_ header: Size) {
        size = header
        layer.frame = Rect(origin: .zero, size: header)
        let bottom = header.height
        topView.frame = Rect(x: 0, y: bottom - style.topViewHeight, width: header.width,
                             height: style.topViewHeight)
        layoutRow()
        banner.frame = Rect(x: 0, y: bottom - style.bannerHeight, width: header.width,
                            height: style.bannerHeight)
        bannerLabel.frame = Rect(origin: .zero, size: banner.bounds.size)
    }

    /// The image and the label in a row, centred across as one group, in the part of the top view the threshold
    /// shows; the label's box is as wide as its text.
    private func layoutRow() {
        let textWidth = TextMeasure.width(of: label.string, size: style.labelFontSize)
        let rowWidth = style.imageSide + style.imageLabelGap + textWidth
        let grid = NewsEffect.layoutGrid
        let left = ((size.width - rowWidth) / 2 / grid).rounded() * grid
        let visibleTop = style.topViewHeight - style.threshold
        image.frame = Rect(x: left, y: visibleTop + (style.threshold - style.imageSide) / 2,
                           width: style.imageSide, height: style.imageSide)
        headline.frame = Rect(origin: .zero, size: image.bounds.size)
        label.frame = Rect(x: left + style.imageSide + style.imageLabelGap, y: visibleTop,
                           width: textWidth, height: style.threshold)
    }

    /// The news header's own short texts (docs/reference.md §1, News: 下拉刷新 / 释放刷新 / 加载中 / 加载完成), MJRefresh's for
    /// the rest.
    static func newsStrings(_ language: RefreshLanguage) -> RefreshStrings {
        var strings = RefreshStrings.standard(language)
        switch language {
        case .english:
            strings.pullDown = "Pull to refresh"
            strings.release = "Release to refresh"
            strings.refreshing = "Loading"
            strings.succeeded = "Done"
        case .chinese:
            strings.pullDown = "下拉刷新"
            strings.release = "释放刷新"
            strings.refreshing = "加载中"
            strings.succeeded = "加载完成"
        }
        return strings
    }

    func strings(for language: RefreshLanguage) -> RefreshStrings {
        style.texts.strings(language, over: NewsEffect.newsStrings(language))
    }

    /// The banner says how many new items came, as NetEase's does.
    var reportsNewItems: Bool { true }

    /// The texts of the current state and language.
    private func refreshTexts() {
        let strings = strings(for: language)
        switch state {
        case .finishing(.failure):
            label.string = strings.failed
            bannerLabel.string = strings.failed
        case .finishing(.message(let text)):
            label.string = strings.succeeded
            bannerLabel.string = text
        case .finishing(.success):
            label.string = strings.succeeded
            bannerLabel.string = strings.succeeded
        default:
            label.string = strings.headerTitle(for: state)
        }
        if label.string != laidOutText {
            laidOutText = label.string
            layoutRow()
        }
    }

    /// The image cycles through its frames every 0.6 s, from the time refreshing started.
    private func startImageCycle(at time: Double) {
        let cycle = KeyframeAnimation<Path>(keyPath: "path", values: frames, calculationMode: .discrete)
        cycle.duration = style.imageCycleDuration
        cycle.repeatCount = .infinity
        cycle.beginTime = image.localTime(atParentTime: time)
        image.add(cycle, forKey: "cycle")
        shownFrame = nil
    }

    private func stopImageCycle(showing frame: Int?) {
        image.removeAnimation(forKey: "cycle")
        let k = frame ?? 0
        shownFrame = k
        image.path = frames[k]
    }

    /// The top view hides and the banner bounces in: opacity 0 → 1 and scale 1 → 1.1 over 0.25 s ease-in, then
    /// back to exactly 1 over 0.25 s ease-in, both from `time`.
    private func showBanner(at time: Double) {
        bannerStartTime = time
        fadeEndLocalTime = nil
        topView.isHidden = true
        banner.isHidden = false
        banner.opacity = 1
        banner.removeAllAnimations()
        let begin = banner.localTime(atParentTime: time)
        let bounce = KeyframeAnimation<Double>(keyPath: "transform.scale", values: [1, style.bounceScale, 1],
                                               keyTimes: [0, 0.5, 1], timingFunctions: [.easeIn, .easeIn])
        bounce.duration = 2 * style.bounceHalfDuration
        bounce.beginTime = begin
        banner.add(bounce, forKey: "bounce")
        let fadeIn = BasicAnimation<Double>(keyPath: "opacity", from: 0, to: 1)
        fadeIn.duration = style.bounceHalfDuration
        fadeIn.timingFunction = .easeIn
        fadeIn.beginTime = begin
        banner.add(fadeIn, forKey: "fade")
    }

    /// The banner fades out over 0.25 s from `time`, then hides; the top view is back under it.
    private func fadeOutBanner(at time: Double) {
        let begin = banner.localTime(atParentTime: time)
        banner.opacity = 0
        let fade = BasicAnimation<Double>(keyPath: "opacity", from: 1, to: 0)
        fade.duration = style.fadeOutDuration
        fade.beginTime = begin
        banner.add(fade, forKey: "fade")
        fadeEndLocalTime = begin + style.fadeOutDuration
    }

    private func hideBanner() {
        banner.isHidden = true
        banner.removeAllAnimations()
        banner.opacity = 1
        if isBannerPaused {
            banner.speed = 1
            banner.timeOffset = 0
            isBannerPaused = false
        }
        fadeEndLocalTime = nil
        bannerStartTime = nil
    }
}

extension NewsEffect {
    /// The news banner's parameters; the defaults are the constants above.
    struct Style: StyleValue {
        var threshold = NewsEffect.threshold
        var minimumThreshold = NewsEffect.minimumThreshold
        var bannerHeight = NewsEffect.bannerHeight
        var topViewHeight = NewsEffect.topViewHeight
        var topViewColor = NewsEffect.topViewColor
        var imageSide = NewsEffect.imageSide
        var imageLabelGap = NewsEffect.imageLabelGap
        var imageCycleDuration = NewsEffect.imageCycleDuration
        var labelFontSize = NewsEffect.labelFontSize
        var labelColor = NewsEffect.labelColor
        var headlineColor = NewsEffect.headlineColor
        var collapseDuration = NewsEffect.collapseDuration
        var bannerHoldDuration = NewsEffect.bannerHoldDuration
        var bannerColor = NewsEffect.bannerColor
        var bannerTextColor = NewsEffect.bannerTextColor
        var bounceHalfDuration = NewsEffect.bounceHalfDuration
        var bounceScale = NewsEffect.bounceScale
        var fadeOutDuration = NewsEffect.fadeOutDuration

        /// The texts it shows, in both languages.
        var texts = HeaderTexts(NewsEffect.newsStrings)

        init() {}

        static var fields: [StyleField<Style>] {
            [
                .number("threshold", \.threshold, "pt", 45...1000,
                        "the pull that arms the header (its trigger), and the refreshing inset"),
                .number("minimumThreshold", \.minimumThreshold, "pt", 1...1000, "the trigger distance is never set below this"),
                .number("bannerHeight", \.bannerHeight, "pt", 1...200, "the banner's height, and the inset it holds"),
                .number("topViewHeight", \.topViewHeight, "pt", 1...2000,
                        "the grey view's height, taller than the header so a long pull shows no gap"),
                .color("topViewColor", \.topViewColor, dark: SystemColor.secondarySystemBackground.dark,
                       "the grey view's colour"),
                .number("imageSide", \.imageSide, "pt", 1...200, "the animated image's side"),
                .number("imageLabelGap", \.imageLabelGap, "pt", 0...200, "the gap between the image and the label"),
                .number("imageCycleDuration", \.imageCycleDuration, "s", 0.05...60,
                        "the image cycles through its frames in this time while refreshing"),
                .number("labelFontSize", \.labelFontSize, "pt", 4...72, "the label's and the banner's font size"),
                .color("labelColor", \.labelColor, dark: SystemColor.secondaryLabel.dark,
                       "the label's and the image's colour"),
                .color("headlineColor", \.headlineColor, "the image's headline bar"),
                .number("collapseDuration", \.collapseDuration, "s", 0...10, "each collapse stage of the inset"),
                .number("bannerHoldDuration", \.bannerHoldDuration, "s", 0...60, "how long the banner stays before the inset returns"),
                .color("bannerColor", \.bannerColor, dark: NewsEffect.darkBannerColor, "the banner's background"),
                .color("bannerTextColor", \.bannerTextColor, "the banner's text colour"),
                .number("bounceHalfDuration", \.bounceHalfDuration, "s", 0...10, "each half of the banner's bounce"),
                .number("bounceScale", \.bounceScale, "", 0.1...5, "the scale the banner's bounce overshoots to"),
                .number("fadeOutDuration", \.fadeOutDuration, "s", 0...10, "the banner's fade-out once the inset is back"),
            ]
                + HeaderTexts.fields(at: \.texts, [.pullDown, .release, .refreshing, .succeeded, .failed])
        }
    }
}

import Geometry
import Layers
import Motion
import Styles
import Colors

/// iOS's own header, `UIRefreshControl` (docs/reference.md §1, System): an activity indicator of eight ticks that
/// the pull reveals one at a time, clockwise from the top, fading in over the first part of the pull; at the
/// trigger distance it starts refreshing with the finger still down and the indicator turns; an optional title sits
/// below it (`attributedTitle`); the ticks take the tint; when the refresh ends the indicator shrinks with the
/// inset as it goes back.
///
/// Every frame is worked out from the pull and the time in `update(pull:)`, so any frame can be drawn on its own.
final class SystemEffect: StyledEffect {
    // MARK: Constants

    /// The ticks' colour: RGB (60, 60, 68) in light, (235, 235, 245) in dark, the greys read off iOS 13.2
    /// (docs/reference.md §1, System): the system control follows the appearance.
    static let tintColor = DynamicColor(light: Color(rgb: 60, 60, 68), dark: Color(rgb: 235, 235, 245))
    /// The indicator's side, 28 pt: a radius of 14 pt, the pull-to-refresh indicator's (docs/reference.md §1,
    /// System).
    static let spinnerSide = 28.0
    /// How far below the top of the opened gap the indicator's top sits once the gap is tall enough, 16 pt
    /// (docs/reference.md §1, System).
    static let spinnerTopMargin = 16.0
    /// The height the control holds while refreshing, 60 pt (docs/reference.md §1, System: an estimate).
    static let headerHeight = 60.0
    /// The pull at which it starts refreshing, 100 pt (docs/reference.md §1, System: an estimate).
    static let triggerDistance = 100.0
    /// The share of the trigger distance over which the revealed ticks fade in, 0.35, ease in ease out
    /// (docs/reference.md §1, System).
    static let fadeInShare = 0.35
    /// The revealed ticks' alpha, 147/255 (docs/reference.md §1, System).
    static let revealAlpha = 147.0 / 255
    /// The turning ticks' alphas from the leading one backwards, of 255 (docs/reference.md §1, System).
    static let spinAlphas = [147.0, 122, 97, 72, 47, 47, 47, 47].map { $0 / 255 }
    /// The tick count, 8 (docs/reference.md §1, System).
    static let tickCount = 8
    /// A tick's width, and where it starts and ends from the centre, as shares of the indicator's side: 1/10,
    /// 1/6 and 1/2 (docs/reference.md §1, System).
    static let tickWidthShare = 0.1
    static let tickInnerShare = 1.0 / 6
    static let tickOuterShare = 0.5
    /// The title's size, 13 pt, its colour, the label colour (black, white in dark), and its gap below the
    /// indicator, 6 pt (docs/reference.md §1, System: estimates).
    static let titleFontSize = 13.0
    static let titleColor = DynamicColor(light: .black, dark: .white)
    static let titleGap = 6.0
    /// A title's line is this many times its font size tall (chosen here): the control grows by the gap and the
    /// line when it has a title.
    static let titleLineHeightRatio = 1.25
    /// How long the inset takes to come in and to go back, 0.3 s each (docs/reference.md §1, System: estimates).
    static let insertDuration = 0.3
    static let removeDuration = 0.3

    public private(set) var metrics: RefreshMetrics
    /// The parameters in use; a change shows from the next frame and keeps the pull or refresh under way.
    public var style: Style {
        didSet { styleDidChange() }
    }
    public let layer = Layer()
    /// The indicator: made again only when its look changes (side or tint), in a holder that keeps its place
    /// under the title.
    private(set) var spinner: ActivityIndicatorLayer
    private let spinnerHolder = Layer()
    /// The optional title under the indicator.
    let titleLabel = TextLayer()

    private var state = RefreshState.idle
    private var spinStart = 0.0

    /// How many ticks the last frame revealed (nil: the indicator turned), its step, its scale and its opacity.
    private(set) var revealedTicks: Int?
    private(set) var spinnerStep = 0
    private(set) var spinnerScale = 1.0
    var spinnerOpacity: Double { spinner.opacity }

    init(style: Style = Style()) {
        self.style = style
        metrics = SystemEffect.metrics(for: style)
        spinner = ActivityIndicatorLayer(style: SystemEffect.indicatorStyle(for: style))
        spinnerHolder.addSublayer(spinner)
        layer.addSublayer(spinnerHolder)
        titleLabel.alignmentMode = .center
        layer.addSublayer(titleLabel)
        styleTitle()
    }

    static func metrics(for s: Style) -> RefreshMetrics {
        let height = s.headerHeight + (s.hasTitle ? s.titleGap + s.titleFontSize * titleLineHeightRatio : 0)
        return RefreshMetrics(headerHeight: height, triggerDistance: Swift.max(s.triggerDistance, height),
                              trigger: .atThreshold, insertDuration: s.insertDuration,
                              finishing: [RefreshInsetStage(duration: s.removeDuration)])
    }

    static func indicatorStyle(for s: Style) -> ActivityIndicatorStyle {
        let side = s.spinnerSide
        return ActivityIndicatorStyle(side: side, spokeCount: tickCount, spokeWidth: side * tickWidthShare,
                                      spokeInnerRadius: side * tickInnerShare, spokeOuterRadius: side * tickOuterShare,
                                      color: s.tintColor, alphas: spinAlphas)
    }

    /// How many of `count` ticks a pull of `progress` (of the trigger distance) reveals: tick i shows once
    /// `count × progress` is past i, so the first shows with the least pull and all of them from the trigger on.
    static func revealedTicks(progress: Double, count: Int = tickCount) -> Int {
        var shown = 0
        while shown < count && Double(shown) < Double(count) * progress { shown += 1 }
        return shown
    }

    // MARK: RefreshEffect

    func transition(from old: RefreshState, to new: RefreshState, pull: RefreshPull) {
        state = new
        if (new == .refreshing || new == .willRefresh) && !old.isBusy && old != .willRefresh { spinStart = pull.time }
    }

    func update(pull: RefreshPull) {
        let size = pull.headerSize
        layer.frame = Rect(origin: .zero, size: size)
        let side = style.spinnerSide
        // Centred in the gap while it is short, then held `spinnerTopMargin` below its top.
        let gapTop = size.height - pull.distance
        let centreY = gapTop + Swift.min(style.spinnerTopMargin + side / 2, pull.distance / 2)
        spinner.position = Point(size.width / 2, centreY)

        var opacity = 1.0
        switch state {
        case .idle, .pulling, .armed, .noMoreData, .releaseToFloor, .floorOpening, .floor, .floorClosing:
            let count = SystemEffect.revealedTicks(progress: pull.progress)
            revealedTicks = count
            spinnerScale = 1
            opacity = TimingFunction.easeInEaseOut.value(at: Swift.min(1, Swift.max(0, pull.progress / style.fadeInShare)))
            spinner.reveal(count: count, alpha: SystemEffect.revealAlpha)
        case .refreshing, .willRefresh, .finishing:
            revealedTicks = nil
            spinner.endReveal()
            spinnerStep = spinner.style.step(after: pull.time - spinStart)
            // Ending, it shrinks with the inset going back.
            if case .finishing = state {
                spinnerScale = Swift.min(1, Swift.max(0, pull.distance / metrics.refreshingInset))
            } else {
                spinnerScale = 1
            }
            spinner.show(step: spinnerStep, scale: spinnerScale)
        }
        spinner.opacity = opacity
        spinner.isHidden = revealedTicks == 0

        let title = pull.language == .chinese ? style.title.chinese : style.title.english
        if titleLabel.string != title { titleLabel.string = title }
        titleLabel.isHidden = title.isEmpty
        let lineHeight = style.titleFontSize * SystemEffect.titleLineHeightRatio
        titleLabel.frame = Rect(x: 0, y: centreY + side / 2 + style.titleGap, width: size.width, height: lineHeight)
        titleLabel.opacity = opacity * spinnerScale
    }

    // MARK: Style

    private func styleDidChange() {
        metrics = SystemEffect.metrics(for: style)
        let look = SystemEffect.indicatorStyle(for: style)
        if look != spinner.style {
            let fresh = ActivityIndicatorLayer(style: look)
            spinner.removeFromSuperlayer()
            spinnerHolder.addSublayer(fresh)
            spinner = fresh
        }
        styleTitle()
    }

    private func styleTitle() {
        titleLabel.fontSize = style.titleFontSize
        titleLabel.foregroundColor = style.titleColor
    }
}

extension SystemEffect {
    /// The system header's parameters; the defaults are the constants above.
    public struct Style: StyleValue {
        var headerHeight = SystemEffect.headerHeight
        var triggerDistance = SystemEffect.triggerDistance
        var insertDuration = SystemEffect.insertDuration
        var removeDuration = SystemEffect.removeDuration
        var tintColor = SystemEffect.tintColor.light
        var spinnerSide = SystemEffect.spinnerSide
        var spinnerTopMargin = SystemEffect.spinnerTopMargin
        var fadeInShare = SystemEffect.fadeInShare
        /// `attributedTitle`: none by default, as UIKit's.
        var title = LocalizedText(english: "", chinese: "")
        var titleFontSize = SystemEffect.titleFontSize
        var titleColor = SystemEffect.titleColor.light
        var titleGap = SystemEffect.titleGap

        /// Whether a title shows in either language: the control is then taller by its line.
        var hasTitle: Bool { !title.english.isEmpty || !title.chinese.isEmpty }

        public init() {}

        public static var fields: [StyleField<Style>] {
            [
                .number("headerHeight", \.headerHeight, "pt", 10...500,
                        "the height the control holds while refreshing, without a title"),
                .number("triggerDistance", \.triggerDistance, "pt", 10...500,
                        "the pull at which it starts refreshing, the finger still down (at least the height)"),
                .number("insertDuration", \.insertDuration, "s", 0...10, "how long the refreshing inset takes to come in"),
                .number("removeDuration", \.removeDuration, "s", 0...10,
                        "how long the inset takes to go when a refresh ends, the indicator shrinking with it"),
                .color("tintColor", \.tintColor, dark: SystemEffect.tintColor.dark, "the ticks' colour (tintColor)"),
                .number("spinnerSide", \.spinnerSide, "pt", 4...200, "the indicator's side"),
                .number("spinnerTopMargin", \.spinnerTopMargin, "pt", 0...200,
                        "the indicator's top below the top of the opened gap"),
                .number("fadeInShare", \.fadeInShare, "", 0.01...1,
                        "the share of the trigger distance over which the revealed ticks fade in"),
                .text("title", \.title, "the title below the indicator (attributedTitle); empty for none"),
                .number("titleFontSize", \.titleFontSize, "pt", 4...72, "the title's font size"),
                .color("titleColor", \.titleColor, dark: SystemEffect.titleColor.dark, "the title's colour"),
                .number("titleGap", \.titleGap, "pt", 0...100, "the gap between the indicator and the title"),
            ]
        }
    }
}

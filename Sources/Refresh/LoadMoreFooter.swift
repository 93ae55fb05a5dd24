import Geometry
import Layers
import Motion
import Raster
import Scrolling
import Colors

/// A footer that loads more content at the end of the list: automatically when it comes into view, or when pulled
/// up past the end and released (MJRefresh's auto and back footers, docs/reference.md §1, Classic).
///
/// It is hidden, adds no inset and never fires while the content is shorter than the screen, so a list with little
/// in it shows no "No more data" line under its last row (docs/reference.md §1, most wanted 4).
public final class LoadMoreFooter {
    public enum Mode: Equatable, Sendable {
        /// Fires when this fraction of the footer's height is in view: 1 when all of it shows, 0 when its top edge
        /// reaches the bottom of the screen, negative to start loading before it shows.
        case automatic(triggerPercent: Double)
        /// Fires when pulled up past its height and released.
        case back
    }

    /// MJRefresh's footer height, 44 pt (docs/reference.md §1, Classic).
    public static let defaultHeight = 44.0
    /// MJRefresh's automatic footer fires only once it is entirely in view (trigger percentage 1.0).
    public static let defaultTriggerPercent = 1.0
    /// The back footer takes its inset back as the header does, over 0.4 s (docs/reference.md §1, Classic).
    static let removeDuration = RefreshMetrics.classicRemoveDuration
    /// The title's size, 14 pt. Not from docs/reference.md: MJRefresh's label font size.
    public static let titleFontSize = 14.0
    /// The title's grey: MJRefresh's label colour, RGB (90, 90, 90), which has no dark variant, so in dark the
    /// system's secondary label colour, as the headers' state lines (docs/reference.md §1, "Dark variants").
    public static let titleColor = DynamicColor(light: Color(rgb: 90, 90, 90), dark: StateLabels.darkTextColor)
    /// How far left of the footer's centre the spinner's centre sits, clear of the title. Not from docs/reference.md:
    /// by eye, for titles up to about 140 pt wide.
    static let spinnerOffset = 90.0
    /// The spinner: UIActivityIndicatorView's gray style as the footer draws it, 20 pt, spokes from 4 to 9 pt out of
    /// the centre, grey RGB (110, 110, 115), the last spoke at a quarter of the first's alpha, a turn a second.
    /// Not from docs/reference.md: by eye.
    static let spinnerStyle = ActivityIndicatorStyle(spokeInnerRadius: 4, spokeOuterRadius: 9,
                                                            color: Color(rgb: 110, 110, 115), trailingAlpha: 0.25)

    public let mode: Mode
    public let height: Double
    public private(set) var state: RefreshState = .idle
    /// The footer's container, at (0, contentHeight, width, height) in content coordinates.
    public let layer = Layer()
    /// The footer's title, centred: "Tap or pull up to load more", "Loading more...", "No more data", …
    let titleLayer = TextLayer()
    /// The activity indicator left of the title, shown while loading.
    let spinner = ActivityIndicatorLayer(style: LoadMoreFooter.spinnerStyle)
    public private(set) weak var scrollView: ScrollView?
    /// Called once each time loading starts.
    public var action: (() -> Void)?
    public var stateDidChange: ((RefreshState, RefreshState) -> Void)?
    /// Where the footer's language is held: its own, or the one its screen shares with its other parts.
    public var languageSetting = LanguageSetting()
    public var language: RefreshLanguage {
        get { languageSetting.current }
        set { languageSetting.current = newValue }
    }
    /// The appearance the footer is drawn in: its title's colour follows it.
    public var appearance = Appearance.light {
        didSet { titleLayer.foregroundColor = LoadMoreFooter.titleColor.resolved(appearance) }
    }
    /// True while the content is shorter than the screen: the footer shows nothing and does nothing.
    public private(set) var isHidden = false
    /// The bottom inset the footer adds to the scroll view's own right now, in points.
    public var addedInset: Double { inset.value }

    /// The footer's title in the current state ("No more data", 已经全部加载完毕, …).
    public var title: String {
        RefreshStrings.standard(language).footerTitle(for: state, automatic: mode != .back)
    }

    private var observation: ScrollObservation?
    private var tween: InsetTween?
    /// An automatic footer fires at most once per touch, so a load that has not yet grown the content does not
    /// fire again and again while the footer stays in view.
    private var hasFiredThisTouch = false
    private var wasTracking = false
    /// The bottom inset the footer adds, under the scroll view's own.
    private let inset = AddedInset(edge: .bottom)
    private var lastTime = 0.0
    /// The state and language the title was last written for, so a steady frame writes nothing.
    private var titleKey: (state: RefreshState, language: RefreshLanguage)?
    private var laidOutWidth = -1.0

    public init(mode: Mode = .automatic(triggerPercent: LoadMoreFooter.defaultTriggerPercent),
                height: Double = LoadMoreFooter.defaultHeight) {
        self.mode = mode
        self.height = height
        titleLayer.fontSize = LoadMoreFooter.titleFontSize
        titleLayer.foregroundColor = LoadMoreFooter.titleColor.resolved(appearance)
        titleLayer.alignmentMode = .center
        titleLayer.verticalAlignment = .center
        layer.addSublayer(titleLayer)
        spinner.isHidden = true
        layer.addSublayer(spinner)
        updateTitle()
    }

    private func updateTitle() {
        if let key = titleKey, key.state == state, key.language == language { return }
        titleKey = (state, language)
        titleLayer.string = title
    }

    private func layoutContent(width: Double) {
        guard width != laidOutWidth else { return }
        laidOutWidth = width
        titleLayer.frame = Rect(x: 0, y: 0, width: width, height: height)
        spinner.position = Point(width / 2 - LoadMoreFooter.spinnerOffset, height / 2)
    }

    // MARK: Attaching

    public func attach(to scrollView: ScrollView) {
        detach()
        self.scrollView = scrollView
        observation = scrollView.addObserver { [weak self] view, change in
            guard let self, !self.inset.isWriting, change != .contentInset else { return }
            if view.isTracking && !self.wasTracking { self.hasFiredThisTouch = false }
            self.wasTracking = view.isTracking
            self.evaluate(at: view.currentTime)
        }
        lastTime = Swift.max(lastTime, scrollView.currentTime)
        updateVisibility()
    }

    func detach() {
        guard let scrollView else { return }
        if let observation { scrollView.removeObserver(observation) }
        observation = nil
        tween = nil
        inset.set(0, on: scrollView)
        self.scrollView = nil
    }

    // MARK: From code

    /// Starts loading from code (a tap on an automatic footer); does nothing while hidden, loading or out of data.
    public func beginRefreshing() {
        guard state == .idle || state == .pulling || state == .armed, !isHidden, scrollView != nil else { return }
        startRefreshing(at: now)
    }

    /// Ends loading; the footer is ready for the next load.
    public func endRefreshing() {
        guard state == .refreshing else { return }
        finish(to: .idle)
    }

    /// Ends loading (or the idle footer) with nothing more to load: it says so and no longer fires.
    public func endRefreshingWithNoMoreData() {
        guard state != .noMoreData else { return }
        finish(to: .noMoreData)
    }

    /// Makes a footer with no more data ready to load again (after a refresh of the whole list).
    public func resetNoMoreData() {
        guard state == .noMoreData else { return }
        setState(.idle)
    }

    // MARK: Frames

    /// Follows the content's size and advances the inset; call once per frame after the scroll view's step.
    public func step(to time: Double) {
        if time > lastTime { lastTime = time }
        updateVisibility()
        if let current = tween {
            inset.set(current.value(at: lastTime), on: scrollView)
            if lastTime >= current.end { tween = nil }
        }
        if let scrollView {
            layer.frame = Rect(x: 0, y: scrollView.contentSize.height, width: scrollView.boundsSize.width, height: height)
            layoutContent(width: scrollView.boundsSize.width)
        }
        layer.isHidden = isHidden
        evaluate(at: lastTime)
        updateTitle()
    }

    /// How far the content's end sits above the bottom of the visible area (above a tab bar's inset), in points:
    /// how much of the footer's slot is in view; negative while the end is still below the screen.
    var revealedDistance: Double {
        guard let scrollView else { return 0 }
        let visibleBottom = scrollView.contentOffset.y + scrollView.boundsSize.height - baseBottomInset
        return visibleBottom - scrollView.contentSize.height
    }

    // MARK: State machine

    private var now: Double { Swift.max(lastTime, scrollView?.currentTime ?? 0) }

    private var baseBottomInset: Double {
        guard let scrollView else { return 0 }
        return inset.base(of: scrollView)
    }

    private func updateVisibility() {
        guard let scrollView else { return }
        let base = scrollView.adjustedContentInset.top + baseBottomInset
        let hidden = scrollView.contentSize.height + base < scrollView.boundsSize.height
        if hidden != isHidden {
            isHidden = hidden
            if hidden && state == .refreshing { setState(.idle) }
        }
        if tween == nil, case .automatic = mode { inset.set(isHidden ? 0 : height, on: scrollView) }
    }

    private func evaluate(at time: Double) {
        guard let scrollView, !isHidden else { return }
        let revealed = revealedDistance
        switch (mode, state) {
        case (.automatic(let percent), .idle):
            // Only a scroll towards the end (a drag or its momentum) loads; not a list that is merely short.
            guard !hasFiredThisTouch, scrollView.isDragging || scrollView.isDecelerating else { return }
            if revealed >= height * percent {
                hasFiredThisTouch = true
                startRefreshing(at: time)
            }
        case (.back, .idle), (.back, .pulling):
            if scrollView.isDragging && revealed >= height {
                setState(.armed)
            } else {
                setState(scrollView.isDragging && revealed > 0 ? .pulling : .idle)
            }
        case (.back, .armed):
            if !scrollView.isDragging {
                startRefreshing(at: time)
            } else if revealed < height - RefreshControl.disarmHysteresis {
                setState(revealed > 0 ? .pulling : .idle)
            }
        default:
            break
        }
    }

    private func startRefreshing(at time: Double) {
        setState(.refreshing)
        if mode == .back {
            // Pulled past its height, the content is already beyond the new edge: the bounce carries it there.
            tween = InsetTween(from: addedInset, to: height, start: time, duration: 0, timing: .linear)
        }
        action?()
    }

    private func finish(to new: RefreshState) {
        setState(new)
        if mode == .back {
            tween = InsetTween(from: addedInset, to: 0, start: now, duration: LoadMoreFooter.removeDuration,
                               timing: .easeInEaseOut)
        }
    }

    private func setState(_ new: RefreshState) {
        guard new != state else { return }
        let old = state
        state = new
        if new == .refreshing { spinner.startAnimating(at: now) } else if old == .refreshing { spinner.stopAnimating() }
        updateTitle()
        stateDidChange?(old, new)
    }
}

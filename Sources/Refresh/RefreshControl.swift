import Geometry
import Layers
import Motion
import Scrolling

/// A pull-to-refresh header: it observes a scroll view, runs the state machine, adds and removes the inset that
/// holds the header in view, fires the action and the threshold cue, and tells its effect what happens.
///
/// The inset is kept as the amount the control has added on top of the scroll view's own (a navigation bar's, a
/// safe area's), so repeated begins and ends never add it twice and an inset changed by someone else is kept.
///
/// One rule moves the content when a refresh starts or ends, whatever the scroll view is doing: with the finger
/// up, the inset and the content offset move together in one animation (the effect's duration and curve, as
/// MJRefresh animates both in one UIView animation) to the new resting position, so once it is done the whole
/// header is in view; with the finger down, the content stays under the finger and the edge moves beneath it
/// (the scroll view rebases the drag), and the release then bounces to the new edge. Inset changes are applied in
/// `step(to:)`, which also starts the offset's animation beside the inset's.
///
/// A header whose effect floats over the content (`HeaderPlacement.floatsOverContent`, Android's
/// SwipeRefreshLayout) moves by the same timeline without any inset: the control asks the scroll view to hold the
/// content at its top, the header comes down by the finger's travel past it times the drag rate, goes back out of
/// sight when released short, and comes to its refreshing place when released past the trigger.
///
/// ```swift
/// let control = RefreshControl(effect: RefreshEffects.make("classic")!)
/// control.attach(to: scrollView)
/// control.action = { model.reload { control.endRefreshing(result: .success) } }
/// // each frame, after scrollView.step(to: now):
/// control.step(to: now)
/// ```
public final class RefreshControl {
    /// How far, in points, the pull must fall back under the threshold before an armed control disarms, so a
    /// finger that trembles back by a point keeps it armed and the cue fires once. Not from docs/reference.md: a little
    /// more than a point, the trembling users report (docs/reference.md §1, most wanted 8).
    static let disarmHysteresis = 2.0
    /// The key the last-updated time is kept under unless the app sets one (MJRefresh keeps one per header class).
    static let defaultLastUpdatedKey = "RefreshHeader"

    public private(set) var state: RefreshState = .idle
    public private(set) var effect: any RefreshEffect
    /// The container of the effect's layer, at (0, −headerHeight, width, headerHeight) in content coordinates (a
    /// floating header's: `distance` below the viewport's top, less its height): draw it with the list's transform,
    /// above the rows (or before them when `metrics.drawsBehindContent`) and under the navigation bar.
    public let headerLayer = Layer()
    public private(set) weak var scrollView: ScrollView?

    /// Called once each time a refresh starts, after the state has become `refreshing`.
    public var action: (() -> Void)?
    /// Called once each time a pull arms the header, after the state change it makes: the moment iOS plays its
    /// haptic and VoiceOver says the refresh (docs/reference.md §6, a cue at the threshold). Arming is the finger
    /// dragging the pull to the trigger distance: the change to `armed` for a header that refreshes on release,
    /// the start of `refreshing` for one that refreshes at the threshold (sticky, system). A refresh begun from
    /// code is not a pull arming and gives no cue; falling back under the trigger by more than `disarmHysteresis`
    /// and pulling past it again is a new arming.
    public var cue: (() -> Void)?
    /// Called after every state change, with the old and the new state.
    public var stateDidChange: ((RefreshState, RefreshState) -> Void)?
    /// How many cues have fired: the app's visual tick counts them.
    private(set) var cueCount = 0
    /// The pull at which a refresh starts; the effect's by default, never below its minimum.
    public var triggerDistance: Double {
        didSet {
            let floor = effect.metrics.minimumTriggerDistance
            if !(triggerDistance >= floor) { triggerDistance = floor }
        }
    }
    /// Whether the control's view is on screen; a `beginRefreshing()` made while it is not waits in `willRefresh`.
    var isOnScreen = true {
        didSet { if isOnScreen { startWaitingRefresh() } }
    }

    /// Where the control's language is held: its own, or the one its screen shares with its other parts.
    public var languageSetting = LanguageSetting()
    public var language: RefreshLanguage {
        get { languageSetting.current }
        set { languageSetting.current = newValue }
    }
    /// The effect's texts in the control's language.
    public var strings: RefreshStrings { effect.strings(for: language) }
    /// The header's title in the current state ("Pull down to refresh", "Release to refresh", …); while finishing,
    /// the result only for an effect with a result row (`metrics.hasResultRow`), else the idle text.
    public var title: String { strings.headerTitle(for: state, showsResult: metrics.hasResultRow) }

    var lastUpdatedKey = RefreshControl.defaultLastUpdatedKey
    var lastUpdatedStore: LastUpdatedStore
    /// The source of the local date, injected so tests are exact.
    public var dateSource: () -> RefreshDate
    /// When the list under `lastUpdatedKey` was last refreshed with a result other than failure.
    var lastUpdated: RefreshDate? { lastUpdatedStore[lastUpdatedKey] }
    /// "Last updated: Today 10:32", in the control's language.
    var lastUpdatedText: String { strings.lastUpdatedText(lastUpdated, now: dateSource()) }

    /// The top inset the control adds to the scroll view's own right now, in points.
    public var addedInset: Double { inset.value }
    /// The pull as the effect last saw it.
    public private(set) var pull = RefreshPull(distance: 0, progress: 0, isDragging: false, time: 0, headerSize: .zero)

    private var observation: ScrollObservation?
    /// The change under way of the added inset, or of a floating header's distance (`tweenMovesHeader`).
    private var tween: InsetTween?
    private var tweenMovesHeader = false
    /// How far a floating header has come down over the content, in points; 0 for a header that pushes it.
    private var floatingDistance = 0.0
    /// A tween the content offset is to follow (the finger is up and the header is to stay in view):
    /// `step(to:)` starts the scroll view's animation on its timeline, once.
    private var offsetFollow: InsetTween?
    /// The finishing stage to run next, and the time it may start.
    private var nextStage = 0
    private var nextStageTime = 0.0
    /// Set when a refresh ends with the finger down: the pull cannot arm again until the finger lifts, so a
    /// finger still holding the content past the threshold does not start a second refresh by accident.
    private var waitsForLift = false
    /// Set when a refresh starts with the finger down (from code, or at a threshold): when that finger lifts, the
    /// header comes into view as it would have at the start with the finger up.
    private var showsHeaderOnLift = false
    /// When that finger lifted: `step(to:)` starts the content's animation, after the release set its own motion.
    private var liftTime: Double?
    /// The top inset the control adds, over the scroll view's own.
    private let inset = AddedInset(edge: .top)
    private var lastTime = 0.0

    /// The second floor behind the list, with its settings, or nil for none (`SecondFloor`, docs/reference.md §10).
    /// A header that floats over the list cannot open one (`hasSecondFloor`): the list never moves to reveal it.
    /// Taking the floor away while it holds the list returns the control to idle.
    public var secondFloor: SecondFloor.Style? {
        didSet { if !hasSecondFloor && (state == .releaseToFloor || state.holdsFloor) { reset() } }
    }
    /// Whether a pull can open the second floor: one is set and the header pushes the list.
    public var hasSecondFloor: Bool { secondFloor != nil && metrics.placement.floating == nil }
    /// The pull, in trigger distances, when the state was last worked out: the floor arms on crossing its rate.
    private var floorRatio = 0.0
    /// When the floor last began opening or closing: the inner header's fade runs from then.
    private var floorSlideStart = 0.0
    /// When the floor last began to open: an animated floor plays from then.
    public private(set) var floorOpenedAt = 0.0
    /// Whether the inner header faded out as the floor opened: a release does, an opening from code does not
    /// (SmartRefreshLayout's `openTwoLevel`), and the closing fades back in only what faded.
    private var floorHeaderFaded = false
    /// Set while a finger drags the open floor; its lift decides whether the floor stays open.
    private var floorDragged = false
    /// The finger's speed while it dragged the open floor, in the screen's pixels a second (downwards positive).
    private var floorFingerVelocity = 0.0

    public init(effect: any RefreshEffect = ClassicEffect(), lastUpdatedStore: LastUpdatedStore = LastUpdatedStore(),
                dateSource: @escaping () -> RefreshDate = RefreshDate.current) {
        self.effect = effect
        self.lastUpdatedStore = lastUpdatedStore
        self.dateSource = dateSource
        triggerDistance = Swift.max(effect.metrics.triggerDistance, effect.metrics.minimumTriggerDistance)
        headerLayer.addSublayer(effect.layer)
        effect.didMove(to: self)
    }

    /// The metrics of the current effect.
    public var metrics: RefreshMetrics { effect.metrics }

    // MARK: Attaching

    /// Starts observing `scrollView` (and stops observing any other); a refresh begun before waits until now.
    public func attach(to scrollView: ScrollView) {
        detach()
        self.scrollView = scrollView
        observation = scrollView.addObserver { [weak self] view, change in
            guard let self, !self.inset.isWriting, change != .contentInset else { return }
            self.evaluate(at: view.currentTime)
        }
        lastTime = Swift.max(lastTime, scrollView.currentTime)
        giveTopPull(evenWhileTracking: true)
        startWaitingRefresh()
    }

    /// Stops observing, takes the added inset back at once and returns to idle.
    func detach() {
        guard let scrollView else { return }
        if let observation { scrollView.removeObserver(observation) }
        observation = nil
        tween = nil
        inset.set(0, on: scrollView)
        floatingDistance = 0
        scrollView.holdsContentAtTop = false
        scrollView.topPullLayout = nil
        topPullPassedToHeader = nil
        self.scrollView = nil
        setState(.idle, at: lastTime)
    }

    /// The name the effect was chosen by (its `RefreshEffects` name), as titles and logs show it; empty for an
    /// effect given without one. Set with the effect, so that the two never disagree.
    public private(set) var effectName = ""

    /// Replaces the effect, chosen by `name`; its layer takes the old one's place. A refresh under way, ending or
    /// waiting is dropped first (`reset()`), so the new effect always starts idle: it never inherits a timeline made
    /// for another.
    public func setEffect(_ newEffect: any RefreshEffect, named name: String = "") {
        guard newEffect !== effect else { return }
        reset()
        effect.layer.removeFromSuperlayer()
        effect.didMove(to: nil)
        // The old effect's last change (to idle) is told under its own name.
        effect = newEffect
        effectName = name
        headerLayer.addSublayer(newEffect.layer)
        newEffect.didMove(to: self)
        triggerDistance = newEffect.metrics.triggerDistance
        giveTopPull(evenWhileTracking: true)
    }

    /// Takes the effect's metrics again after its style changed: the trigger distance and the placement. The state,
    /// the inset under way and the finishing timeline are kept; the new values apply from the next frame.
    public func effectStyleDidChange() {
        triggerDistance = effect.metrics.triggerDistance
        giveTopPull(evenWhileTracking: true)
    }

    /// The layout that moves the content on Android for a header that pushes it, with SmartRefreshLayout's figures
    /// for a header as tall as its trigger (SmartRefreshLayout triggers at its header's height, `mHeaderTriggerRate`
    /// 1), or as its own height when that is taller (docs/reference.md §5).
    var pushLayout: TopPullLayout {
        let height = Swift.max(metrics.headerHeight, triggerDistance)
        guard let floor = secondFloor, hasSecondFloor else { return TopPullLayout(headerHeight: height) }
        return TopPullLayout(maxDistance: floor.maxRate * height)
    }

    /// Which rule for a pull past the top the scroll view was last given (`giveTopPull`): the one of physics that
    /// pass the pull to the header first (true) or the other (false).
    private var topPullPassedToHeader: Bool?

    /// Tells the scroll view who takes a pull past its top. Where the list's own overscroll shows the pull (iOS) a
    /// floating header holds the content at its top and any other lets the rubber band show the pull, in every state.
    /// Where the physics pass the pull to the header first (Android, `ScrollView.passesTopPullToHeader`) the header
    /// takes it before the list's edge effect while a pull can start a refresh (idle, pulling, armed), as nested scrolling gives it to
    /// SwipeRefreshLayout or to Compose's pull-to-refresh first: a floating header holds the content at its top, one
    /// that pushes the content has the layout move it (`TopPullLayout`). Refreshing or finishing, neither takes it
    /// and the list's top stretches (docs/reference.md §5). A state change with the finger down applies once it
    /// lifts, so one gesture keeps one rule; a new effect applies at once.
    private func giveTopPull(evenWhileTracking: Bool) {
        guard let scrollView else { return }
        let passed = scrollView.passesTopPullToHeader
        let floats = metrics.placement.floating != nil
        guard passed else {
            guard evenWhileTracking || topPullPassedToHeader != passed else { return }
            topPullPassedToHeader = passed
            scrollView.topPullLayout = nil
            scrollView.holdsContentAtTop = floats
            return
        }
        guard evenWhileTracking || !scrollView.isTracking else { return }
        topPullPassedToHeader = passed
        let takesPull: Bool
        switch state {
        case .idle, .pulling, .armed, .releaseToFloor: takesPull = true
        default: takesPull = false
        }
        // The rule being dropped goes first, so that a travel is never left to the other.
        let layout = takesPull && !floats ? pushLayout : nil
        if layout == nil { scrollView.topPullLayout = nil }
        scrollView.holdsContentAtTop = takesPull && floats
        if layout != nil && scrollView.topPullLayout != layout { scrollView.topPullLayout = layout }
    }

    /// Returns to idle from any state: a refresh under way, ending or waiting is dropped with its finishing
    /// timeline, and the added inset is taken back over MJRefresh's 0.4 s with the content along when it shows the
    /// header, so nothing jumps. A finger still dragging cannot arm the control again until it lifts. The effect
    /// hears the change to idle like any other; a floating header is back at its start at once.
    public func reset() {
        let time = now
        nextStage = 0
        waitsForLift = scrollView?.isDragging ?? false
        setState(.idle, at: time)
        floatingDistance = 0
        if addedInset != 0 {
            startTween(to: 0, at: time, duration: RefreshMetrics.classicRemoveDuration, timing: .easeInEaseOut,
                       movesHeader: false, bringsHeaderIntoView: false)
        } else {
            tween = nil
            offsetFollow = nil
        }
    }

    // MARK: From code

    /// Starts a refresh from code at `time` (the frame's; now when nil): the header comes into view and the action
    /// fires. While the control is not on screen (or not attached) it waits in `willRefresh`. Calling it again
    /// while refreshing does nothing, so the inset is never added twice.
    public func beginRefreshing(at time: Double? = nil) {
        switch state {
        case .refreshing, .willRefresh, .floorOpening, .floor, .floorClosing: return
        default: break
        }
        let start = commandTime(time)
        guard scrollView != nil, isOnScreen else {
            setState(.willRefresh, at: start)
            return
        }
        startRefreshing(at: start)
    }

    /// A command's time: the frame's own when given (never before the last step), else now.
    private func commandTime(_ time: Double?) -> Double {
        guard let time, time.isFinite else { return now }
        lastTime = Swift.max(lastTime, time)
        return lastTime
    }

    /// Ends a refresh: the result shows and the inset collapses along the effect's finishing timeline, then the
    /// state returns to idle. Works at any moment, also with the finger down; does nothing unless refreshing
    /// (a waiting `willRefresh` is cancelled).
    public func endRefreshing(result: RefreshResult = .success, at time: Double? = nil) {
        switch state {
        case .willRefresh:
            setState(.idle, at: commandTime(time))
        case .refreshing:
            let time = commandTime(time)
            if result != .failure { lastUpdatedStore[lastUpdatedKey] = dateSource() }
            tween = nil
            nextStage = 0
            nextStageTime = time + (metrics.finishing.first?.delay ?? 0)
            setState(.finishing(result), at: time)
        default:
            return
        }
    }

    // MARK: Frames

    /// Advances the inset's timeline to `time` and gives the effect this frame's pull; call once per frame, after
    /// the scroll view's own `step(to:)`.
    public func step(to time: Double) {
        let previous = lastTime
        if time > lastTime { lastTime = time }
        holdFinishingWait(from: previous, to: lastTime)
        // The offset's animation starts before the inset moves, so the scroll view never clamps resting content
        // to the new edge in between.
        moveOffsetWithTween()
        if let lifted = liftTime {
            liftTime = nil
            if state == .refreshing { showHeaderAfterLift(at: lifted) }
        }
        advanceInset(to: lastTime)
        if scrollView != nil { evaluate(at: lastTime) }
        giveTopPull(evenWhileTracking: false)
        let height = metrics.headerHeight
        let width = scrollView?.boundsSize.width ?? 0
        var top = -height
        if metrics.placement.floating != nil, let scrollView {
            top += scrollView.contentOffset.y + baseTopInset + floatingDistance
        }
        headerLayer.frame = Rect(x: 0, y: top, width: width, height: height)
        headerLayer.opacity = innerHeaderOpacity(at: lastTime)
        pull = currentPull(at: lastTime)
        effect.update(pull: pull)
    }

    /// The pull as it stands now, dated `time`: what the effect is given each frame and at each state change.
    private func currentPull(at time: Double) -> RefreshPull {
        let d = distance
        return RefreshPull(distance: d, progress: d / triggerDistance, isDragging: scrollView?.isDragging ?? false,
                           isTracking: scrollView?.isTracking ?? false, time: time,
                           headerSize: Size(scrollView?.boundsSize.width ?? 0, metrics.headerHeight),
                           language: language)
    }

    /// True while the inset is changing or a finishing timeline is under way: the window keeps drawing.
    public var isAnimating: Bool { tween != nil || state.isBusy || state == .floorOpening || state == .floorClosing }

    // MARK: State machine

    private var now: Double { Swift.max(lastTime, scrollView?.currentTime ?? 0) }

    /// The scroll view's top inset without the part the control added.
    private var baseTopInset: Double {
        guard let scrollView else { return 0 }
        return inset.base(of: scrollView)
    }

    /// How far the content sits below its resting top, measured from the scroll view's own inset; for a floating
    /// header, how far the header has come down over the content.
    public var distance: Double {
        guard let scrollView else { return 0 }
        if metrics.placement.floating != nil { return floatingDistance }
        return Swift.max(0, -baseTopInset - scrollView.contentOffset.y)
    }

    private func evaluate(at time: Double) {
        guard let scrollView else { return }
        let dragging = scrollView.isDragging
        if !dragging { waitsForLift = false }
        if let floating = metrics.placement.floating {
            moveFloatingHeader(floating, dragging: dragging, at: time)
        }
        let d = distance
        if hasSecondFloor {
            let previousRatio = floorRatio
            floorRatio = d / triggerDistance
            switch state {
            case .idle, .pulling, .armed, .releaseToFloor:
                evaluateFloorPull(from: previousRatio, dragging: dragging, at: time)
                return
            case .floor:
                evaluateOpenFloor(dragging: dragging, at: time)
                return
            default: break
            }
        }
        switch state {
        case .idle, .pulling:
            if dragging && !waitsForLift && d >= triggerDistance {
                arm(at: time)
            } else {
                setState(dragging && d > 0 ? .pulling : .idle, at: time)
            }
        case .armed:
            if !dragging {
                startRefreshing(at: time)
            } else if d < triggerDistance - RefreshControl.disarmHysteresis {
                setState(d > 0 ? .pulling : .idle, at: time)
            }
        case .refreshing:
            // The finger that was down, moved or not, has lifted.
            if showsHeaderOnLift && !scrollView.isTracking {
                showsHeaderOnLift = false
                liftTime = time
            }
        case .willRefresh, .finishing, .noMoreData, .releaseToFloor, .floorOpening, .floor, .floorClosing:
            break
        }
    }

    // MARK: The second floor

    /// A pull on a header with a second floor, by SmartRefreshLayout's rules (`SecondFloor.armed`): past the trigger
    /// it arms a refresh, crossing the floor's rate upwards it arms the floor (with the cue of an arming), and falling
    /// back it arms the refresh again or nothing. An armed refresh keeps `disarmHysteresis` as without a floor, so a
    /// trembling finger cues once. A header that refreshes at its threshold refreshes on release here, or no pull
    /// could reach the floor. Letting go opens what is armed.
    private func evaluateFloorPull(from previousRatio: Double, dragging: Bool, at time: Double) {
        guard let floor = secondFloor else { return }
        let d = distance
        guard dragging else {
            switch state {
            case .releaseToFloor: openFloor(at: time, fadingHeader: true)
            case .armed: startRefreshing(at: time)
            default: setState(.idle, at: time)
            }
            return
        }
        guard !waitsForLift else {
            setState(d > 0 ? .pulling : .idle, at: time)
            return
        }
        let was: SecondFloor.Armed = state == .releaseToFloor ? .floor : state == .armed ? .refresh : .nothing
        var armed = SecondFloor.armed(after: previousRatio, to: floorRatio, was: was, style: floor)
        if armed == .nothing && was == .refresh && d >= triggerDistance - RefreshControl.disarmHysteresis {
            armed = .refresh
        }
        switch armed {
        case .nothing:
            setState(d > 0 ? .pulling : .idle, at: time)
        case .refresh:
            setState(.armed, at: time)
            if was == .nothing { countCue() }
        case .floor:
            setState(.releaseToFloor, at: time)
            if was != .floor { countCue() }
        }
    }

    /// The list's height below the scroll view's own inset: the inset that puts the content's top at the list's
    /// bottom, the open floor's.
    private var floorInset: Double {
        guard let scrollView else { return 0 }
        return Swift.max(0, scrollView.boundsSize.height - baseTopInset)
    }

    /// Starts the floor's opening: the content slides to the list's bottom over the floor's duration along the
    /// viscous-fluid curve, and the header, when `fadingHeader`, fades out over half of it.
    private func openFloor(at time: Double, fadingHeader: Bool) {
        guard let floor = secondFloor else { return }
        floorSlideStart = time
        floorOpenedAt = time
        floorHeaderFaded = fadingHeader
        floorDragged = false
        setState(.floorOpening, at: time)
        startTween(to: floorInset, at: time, duration: floor.floorDuration, timing: .viscousFluid, movesHeader: false,
                   bringsHeaderIntoView: true)
    }

    /// Starts the floor's closing: the content slides back to its top over the floor's duration, the header fading in.
    private func closeFloor(at time: Double) {
        guard let floor = secondFloor else { return }
        floorSlideStart = time
        floorDragged = false
        setState(.floorClosing, at: time)
        startTween(to: 0, at: time, duration: floor.floorDuration, timing: .viscousFluid, movesHeader: false,
                   bringsHeaderIntoView: false)
    }

    /// The open floor under a finger (which can only have come down in its bottom strip, `acceptsTouch`): while it
    /// drags, its speed is kept; when it lifts, the floor stays open, the content sliding back to the list's bottom
    /// as the floor opens, or closes (`SecondFloor.staysOpen`).
    private func evaluateOpenFloor(dragging: Bool, at time: Double) {
        guard let scrollView else { return }
        if dragging {
            floorDragged = true
            // Read only while the finger is on: as it lifts, the velocity is already the release's motion's.
            if scrollView.isTracking { floorFingerVelocity = -scrollView.velocity.y * scrollView.displayScale }
            return
        }
        guard floorDragged else { return }
        floorDragged = false
        let down = -baseTopInset - scrollView.contentOffset.y
        if SecondFloor.staysOpen(down: down, height: floorInset, velocity: floorFingerVelocity) {
            offsetFollow = InsetTween(from: addedInset, to: addedInset, start: time,
                                      duration: secondFloor?.floorDuration ?? 0, timing: .viscousFluid)
        } else {
            closeFloor(at: time)
        }
    }

    /// Opens the second floor from code (SmartRefreshLayout's `openTwoLevel`: the header does not fade): from rest or
    /// a pull, not while a refresh runs. False, and nothing done, when it cannot.
    @discardableResult
    public func openSecondFloor(at time: Double? = nil) -> Bool {
        guard hasSecondFloor else { return false }
        switch state {
        case .idle, .pulling, .armed, .releaseToFloor: break
        default: return false
        }
        openFloor(at: commandTime(time), fadingHeader: false)
        return true
    }

    /// Closes the open or opening floor from code (`finishTwoLevel`); false, and nothing done, when it is not.
    @discardableResult
    public func closeSecondFloor(at time: Double? = nil) -> Bool {
        guard state == .floor || state == .floorOpening else { return false }
        closeFloor(at: commandTime(time))
        return true
    }

    /// Whether a touch going down `y` points below the list's top, on a list `height` points tall, reaches the list:
    /// always but while the floor holds it, when only one in the open floor's bottom strip does (opening or closing,
    /// none).
    public func acceptsTouch(atListY y: Double, height: Double) -> Bool {
        switch state {
        case .floorOpening, .floorClosing: return false
        case .floor: return SecondFloor.canDrag(touchY: y, height: height, style: secondFloor ?? SecondFloor.Style())
        default: return true
        }
    }

    /// The inner header's opacity at `time`: fading out as the floor opens, gone while it is open, fading back in
    /// as it closes, whole otherwise and when the floor opened from code.
    private func innerHeaderOpacity(at time: Double) -> Double {
        guard let floor = secondFloor, floorHeaderFaded else { return 1 }
        let elapsed = Swift.max(0, time - floorSlideStart)
        switch state {
        case .floorOpening:
            return SecondFloor.innerHeaderOpacity(elapsed: Swift.min(elapsed, floor.floorDuration / 2), fadingOut: true,
                                                  style: floor)
        case .floor: return 0
        case .floorClosing:
            return SecondFloor.innerHeaderOpacity(elapsed: Swift.min(elapsed, floor.floorDuration / 2), fadingOut: false,
                                                  style: floor)
        default: return 1
        }
    }

    /// The finger that held the content when the refresh started has lifted: content that shows less than the
    /// whole header, or whose inset is still on its way, moves to show the header, in one animation of the effect's
    /// own duration from now (replacing the release's own motion), so that it is not left half under the bar until
    /// the end. Content pulled past an inset already in place springs back to it as from any pull.
    private func showHeaderAfterLift(at time: Double) {
        guard metrics.placement.floating == nil, let scrollView else { return }
        let showsLess = scrollView.contentOffset.y > -(baseTopInset + metrics.refreshingInset) + 0.5
        guard showsLess || tween != nil else { return }
        let target = Point(scrollView.contentOffset.x, -(baseTopInset + metrics.refreshingInset))
        scrollView.animateContentOffset(to: target, start: time, duration: metrics.insertDuration,
                                        timing: metrics.insertTiming)
    }

    /// A floating header follows the finger's travel past the held top, times the drag rate, while a finger pulls
    /// it (catching it up if it was on its way back); released short of a refresh it goes back out of sight.
    private func moveFloatingHeader(_ floating: FloatingPlacement, dragging: Bool, at time: Double) {
        guard let scrollView else { return }
        switch state {
        case .idle, .pulling, .armed: break
        default: return
        }
        let returning = tween != nil && tweenMovesHeader
        if dragging && !waitsForLift {
            let pulled = scrollView.topPullTravel * floating.dragRate
            if returning && pulled < floatingDistance { return }
            if returning { tween = nil }
            floatingDistance = pulled
        } else if !dragging && state != .armed && floatingDistance > 0 && !returning {
            startTween(to: 0, at: time, duration: floating.returnDuration, timing: floating.returnTiming,
                       movesHeader: true, bringsHeaderIntoView: false)
        }
    }

    private func arm(at time: Double) {
        if metrics.trigger == .atThreshold {
            startRefreshing(at: time)
        } else {
            setState(.armed, at: time)
        }
        countCue()
    }

    /// A pull armed the header or its floor: the cue fires.
    private func countCue() {
        cueCount += 1
        cue?()
    }

    private func startWaitingRefresh() {
        if state == .willRefresh && isOnScreen && scrollView != nil {
            startRefreshing(at: now)
        }
    }

    /// Enters `refreshing`: schedules the inset on the effect's timeline, with the content offset along when the
    /// finger is up (from wherever the content is: at rest, bouncing, coasting, past the new edge), and fires the
    /// action.
    private func startRefreshing(at time: Double) {
        showsHeaderOnLift = scrollView?.isTracking ?? false
        setState(.refreshing, at: time)
        startTween(to: metrics.refreshingInset, at: time, duration: metrics.insertDuration,
                   timing: metrics.insertTiming, movesHeader: metrics.placement.floating != nil,
                   bringsHeaderIntoView: true)
        action?()
    }

    /// Starts changing the added inset, or a floating header's distance when `movesHeader`; the offset follows an
    /// inset when the finger is up and the header is to stay in view: always when a refresh starts, and on the way
    /// back when the content sits above its own top, showing some of the header (a list scrolled away keeps its
    /// place, as UIKit keeps the offset of content inside its bounds). Following replaces whatever moved the
    /// content, an earlier animation towards an old edge included, so no later clamp to the new edge can make it
    /// jump.
    private func startTween(to value: Double, at time: Double, duration: Double, timing: TimingFunction,
                            movesHeader: Bool, bringsHeaderIntoView: Bool) {
        let next = InsetTween(from: movesHeader ? floatingDistance : addedInset, to: value, start: time,
                              duration: duration, timing: timing)
        tween = next
        tweenMovesHeader = movesHeader
        offsetFollow = nil
        guard !movesHeader, let scrollView, !scrollView.isTracking else { return }
        let showsHeader = scrollView.contentOffset.y < -baseTopInset + 0.5
        if bringsHeaderIntoView || showsHeader { offsetFollow = next }
    }

    /// Starts the content offset's animation on the timeline of the tween it follows, once.
    private func moveOffsetWithTween() {
        guard let follow = offsetFollow, let scrollView else { return }
        offsetFollow = nil
        guard !scrollView.isTracking else { return }
        let target = Point(scrollView.contentOffset.x, -(baseTopInset + follow.to))
        scrollView.animateContentOffset(to: target, start: follow.start, duration: follow.duration,
                                        timing: follow.timing)
    }

    /// Runs the insert tween and the finishing stages up to `time`; zero-length stages run within the same frame.
    private func advanceInset(to time: Double) {
        while true {
            if let current = tween {
                if tweenMovesHeader {
                    floatingDistance = current.value(at: time)
                } else {
                    inset.set(current.value(at: time), on: scrollView)
                }
                guard time >= current.end else { return }
                tween = nil
                if state == .floorOpening {
                    setState(.floor, at: current.end)
                } else if state == .floorClosing {
                    waitsForLift = scrollView?.isDragging ?? false
                    setState(.idle, at: current.end)
                }
                if case .finishing = state {
                    nextStage += 1
                    let stages = metrics.finishing
                    nextStageTime = current.end + (nextStage < stages.count ? stages[nextStage].delay : 0)
                }
                continue
            }
            guard case .finishing = state else { return }
            let stages = metrics.finishing
            if nextStage < stages.count {
                guard time >= nextStageTime else { return }
                let stage = stages[nextStage]
                startTween(to: stage.inset, at: nextStageTime, duration: stage.duration, timing: stage.timing,
                           movesHeader: metrics.placement.floating != nil, bringsHeaderIntoView: false)
                moveOffsetWithTween()
                continue
            }
            inset.set(0, on: scrollView)
            floatingDistance = 0
            waitsForLift = scrollView?.isDragging ?? false
            setState(.idle, at: nextStageTime)
            return
        }
    }

    /// While the effect holds its finishing (`RefreshEffect.holdsFinishing`), the wait before the next finishing
    /// stage stands still: that stage starts later by the time held, from `previous` to `time`.
    private func holdFinishingWait(from previous: Double, to time: Double) {
        guard case .finishing = state, tween == nil, time > previous, effect.holdsFinishing else { return }
        nextStageTime += time - previous
    }

    private func setState(_ new: RefreshState, at time: Double) {
        guard new != state else { return }
        let old = state
        state = new
        if new != .refreshing {
            showsHeaderOnLift = false
            liftTime = nil
        }
        effect.transition(from: old, to: new, pull: currentPull(at: time))
        stateDidChange?(old, new)
    }
}

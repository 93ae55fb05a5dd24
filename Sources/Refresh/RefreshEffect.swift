import Layers
import Motion

/// One change of the inset the control adds, on the way from refreshing back to rest.
public struct RefreshInsetStage: Equatable, Sendable {
    /// How long the previous stage's result stays before this one starts, in seconds.
    public var delay: Double
    /// The added top inset this stage ends at, in points.
    public var inset: Double
    /// How long the change takes, in seconds; 0 changes it at once.
    public var duration: Double
    public var timing: TimingFunction

    public init(delay: Double = 0, inset: Double = 0, duration: Double, timing: TimingFunction = .easeInEaseOut) {
        self.delay = delay
        self.inset = inset
        self.duration = duration
        self.timing = timing
    }
}

/// Where a header sits while it is pulled and while it refreshes.
public enum HeaderPlacement: Equatable, Sendable {
    /// iOS: the pull moves the content down and the header shows in the gap above it; refreshing adds an inset
    /// that holds the header in view.
    case pushesContent
    /// Android's SwipeRefreshLayout: the content stays at its top and the header slides down over it.
    case floatsOverContent(FloatingPlacement)

    /// The floating placement's parameters, or nil when the header pushes the content.
    public var floating: FloatingPlacement? {
        if case .floatsOverContent(let floating) = self { return floating }
        return nil
    }
}

/// How a floating header follows the finger and goes back (docs/reference.md §1, floating headers).
public struct FloatingPlacement: Equatable, Sendable {
    /// SwipeRefreshLayout's DRAG_RATE: the header comes down half the finger's travel past the top.
    public static let androidDragRate = 0.5
    /// SwipeRefreshLayout's ANIMATE_TO_START_DURATION and ANIMATE_TO_TRIGGER_DURATION, 200 ms.
    public static let androidAnimationDuration = 0.2
    /// SwipeRefreshLayout's DecelerateInterpolator(2).
    public static let androidTiming = TimingFunction.decelerate(factor: 2)

    /// The header's distance per point of the finger's travel past the top.
    public var dragRate: Double
    /// How long a header released short of the trigger takes to go back out of sight, in seconds.
    public var returnDuration: Double
    var returnTiming: TimingFunction

    public init(dragRate: Double = androidDragRate, returnDuration: Double = androidAnimationDuration,
                returnTiming: TimingFunction = androidTiming) {
        self.dragRate = dragRate
        self.returnDuration = returnDuration
        self.returnTiming = returnTiming
    }
}

/// What an effect asks of the controller: its size, when it fires, and the timeline of the inset.
///
/// The defaults are MJRefresh's (docs/reference.md §1, Classic), so a new effect states only what differs.
public struct RefreshMetrics: Equatable, Sendable {
    /// MJRefresh's header height, 54 pt (docs/reference.md §1, Classic).
    public static let classicHeaderHeight = 54.0
    /// MJRefresh inserts the refreshing inset over 0.25 s (docs/reference.md §1, Classic).
    public static let classicInsertDuration = 0.25
    /// MJRefresh takes the inset back over 0.4 s when a refresh ends (docs/reference.md §1, Classic).
    public static let classicRemoveDuration = 0.4

    /// The height of the header view, above the content's top, in points.
    public var headerHeight: Double
    /// The pull, in points, at which a release (or the pull itself) starts a refresh.
    public var triggerDistance: Double
    /// The smallest trigger distance a caller may set (news: never below 45).
    var minimumTriggerDistance: Double
    public var trigger: RefreshTrigger
    /// The top inset added while refreshing, which holds the header in view; for a floating header, the distance
    /// it comes down over the content and stays at while refreshing (no inset is added).
    public var refreshingInset: Double
    /// How long inserting the refreshing inset (or bringing a floating header to its refreshing place) takes, in
    /// seconds; 0 inserts it at once (sticky).
    public var insertDuration: Double
    var insertTiming: TimingFunction
    /// The steps from refreshing back to rest; the state returns to idle when the last one has run. An empty list,
    /// or one that does not end at 0, is completed by removing what is left of the inset (or taking a floating
    /// header back to its start) at once.
    public var finishing: [RefreshInsetStage]
    /// Whether the header shows how a refresh ended (the sticky header's result row, the news banner). Without
    /// one the title reads as idle again while finishing, as MJRefresh's header is back in Idle as soon as the
    /// refresh ends.
    var hasResultRow: Bool
    /// Whether the header is drawn behind the list's rows instead of over them, as a header view inserted at
    /// index 0 of the scroll view (four dots): the rows' opaque backgrounds then cover whatever part of it reaches
    /// below the content's top.
    public var drawsBehindContent: Bool
    /// Whether the pull moves the content (iOS) or a header floating over it (Android).
    public var placement: HeaderPlacement
    /// Whether the header is shown at once when a refresh starts, by its source's design (the sticky header, as
    /// ZNStickyRefresher): the content's move then is no jump. Any other header inserting its inset in no time
    /// jumps, and an audit says so.
    public var showsAtOnce = false

    public init(headerHeight: Double = classicHeaderHeight, triggerDistance: Double? = nil,
                minimumTriggerDistance: Double = 1, trigger: RefreshTrigger = .onRelease,
                refreshingInset: Double? = nil, insertDuration: Double = classicInsertDuration,
                insertTiming: TimingFunction = .easeInEaseOut,
                finishing: [RefreshInsetStage] = [RefreshInsetStage(duration: classicRemoveDuration)],
                hasResultRow: Bool = false,
                drawsBehindContent: Bool = false, placement: HeaderPlacement = .pushesContent) {
        self.headerHeight = headerHeight
        self.triggerDistance = triggerDistance ?? headerHeight
        self.minimumTriggerDistance = minimumTriggerDistance
        self.trigger = trigger
        self.refreshingInset = refreshingInset ?? headerHeight
        self.insertDuration = insertDuration
        self.insertTiming = insertTiming
        self.finishing = finishing
        self.hasResultRow = hasResultRow
        self.drawsBehindContent = drawsBehindContent
        self.placement = placement
    }
}

/// A refresh header's look: it builds its layers and reacts to the pull and to the controller's state changes.
///
/// The controller owns the state machine, the insets, the action and the texts; an effect never changes them.
/// A minimal effect:
///
/// ```swift
/// final class BarEffect: RefreshEffect {
///     let metrics = RefreshMetrics(headerHeight: 44)
///     let layer = Layer()
///     private let bar = Layer()
///     init() { bar.backgroundColor = Color(rgb: 0, 122, 255); layer.addSublayer(bar) }
///     func update(pull: RefreshPull) {
///         bar.frame = Rect(x: 0, y: 40, width: pull.headerSize.width * min(pull.progress, 1), height: 4)
///     }
///     func transition(from old: RefreshState, to new: RefreshState, pull: RefreshPull) {
///         bar.backgroundColor = new == .armed ? Color(rgb: 52, 199, 89) : Color(rgb: 0, 122, 255)
///     }
/// }
/// RefreshEffects.register(name: "bar", title: LocalizedText(english: "bar header", chinese: "进度条头部")) {
///     BarEffect()
/// }
/// ```
public protocol RefreshEffect: AnyObject {
    var metrics: RefreshMetrics { get }
    /// The header's root layer. The controller puts it in a container whose frame is the header's place above
    /// the content's top, (0, −headerHeight, width, headerHeight) in content coordinates; the effect lays out
    /// its layer inside that container as it likes (it may move it, as four dots does).
    var layer: Layer { get }
    /// Called once per frame with the pull; this is where per-frame drawing happens.
    func update(pull: RefreshPull)
    /// Called once for each state change, with the pull as it stands at that moment (its `time` the change's):
    /// a change comes before the frame's `update(pull:)`, and an effect that reacts to it reads the pull here.
    func transition(from old: RefreshState, to new: RefreshState, pull: RefreshPull)
    /// True while the effect holds its finishing timeline, as the news banner does while a finger is on the list:
    /// meanwhile the wait before the next finishing stage stands still, like the effect's own paused animations,
    /// and it goes on from where it stood once this is false again. False unless an effect says otherwise.
    var holdsFinishing: Bool { get }
    /// Called when the effect is given to a control, or taken from it (nil): effects that show the control's title
    /// and last-updated time (`StateLabels`) keep it (weakly) to read them.
    func didMove(to control: RefreshControl?)
    /// The texts the header shows in `language` (the control's `strings`): each effect owns its wording, so a new
    /// one changes no shared table. MJRefresh's standard set unless an effect says otherwise.
    func strings(for language: RefreshLanguage) -> RefreshStrings
    /// Whether the header can tell how many new items a refresh brought (the news banner's "12 new items"): an
    /// app, or the lab's automatic end, then ends a refresh with that message rather than plain success. False
    /// unless an effect says otherwise.
    var reportsNewItems: Bool { get }
}

extension RefreshEffect {
    public func didMove(to control: RefreshControl?) {}
    public var holdsFinishing: Bool { false }
    public func strings(for language: RefreshLanguage) -> RefreshStrings { .standard(language) }
    public var reportsNewItems: Bool { false }
}

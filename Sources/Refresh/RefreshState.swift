import Geometry

/// How a refresh ended, as the result row of the sticky header or the banner of the news header shows it.
public enum RefreshResult: Equatable, Sendable {
    case success
    case failure
    /// A message of the app's own, such as "12 new items".
    case message(String)
}

/// Where a refresh control (header or footer) is in its life, as the user sees it.
///
/// The pull's distance and progress are not part of the state: they change every frame, while a state change is
/// an event the effect reacts to once (see `RefreshPull`).
public enum RefreshState: Equatable, Sendable, CustomStringConvertible {
    /// At rest, or springing back with no refresh to come.
    case idle
    /// Pulled by the finger, short of the trigger distance.
    case pulling
    /// Pulled past the trigger distance: letting go will refresh (MJRefresh's Pulling).
    case armed
    /// `beginRefreshing()` was called while the control is not on screen; it refreshes once it is (MJRefresh's
    /// WillRefresh).
    case willRefresh
    /// The refresh action is running; the header is held in view by the added inset.
    case refreshing
    /// The refresh has ended and its result shows until the inset has collapsed.
    case finishing(RefreshResult)
    /// A footer with nothing more to load, until `resetNoMoreData()`.
    case noMoreData
    /// Pulled past the second floor's rate: letting go opens the floor (SmartRefreshLayout's ReleaseToTwoLevel).
    case releaseToFloor
    /// The floor opening: the list sliding down to the bottom of the screen, the header fading out
    /// (TwoLevelReleased).
    case floorOpening
    /// The floor open, the list out of sight below it (TwoLevel).
    case floor
    /// The floor closing: the list sliding back to its top, the header fading in (TwoLevelFinish).
    case floorClosing

    public var description: String {
        switch self {
        case .idle: "idle"
        case .pulling: "pulling"
        case .armed: "armed"
        case .willRefresh: "willRefresh"
        case .refreshing: "refreshing"
        case .finishing(.success): "finishing(success)"
        case .finishing(.failure): "finishing(failure)"
        case .finishing(.message(let text)): "finishing(\(text))"
        case .noMoreData: "noMoreData"
        case .releaseToFloor: "releaseToFloor"
        case .floorOpening: "floorOpening"
        case .floor: "floor"
        case .floorClosing: "floorClosing"
        }
    }

    /// The states' names as recordings and the HUD show them, one per kind (a message's text left out), indexed by
    /// `kindCode`.
    public static let kindNames = ["idle", "pulling", "armed", "willRefresh", "refreshing", "finishing(success)",
                                   "finishing(failure)", "finishing(message)", "noMoreData", "releaseToFloor",
                                   "floorOpening", "floor", "floorClosing"]

    /// This state's index in `kindNames`.
    public var kindCode: UInt8 {
        switch self {
        case .idle: 0
        case .pulling: 1
        case .armed: 2
        case .willRefresh: 3
        case .refreshing: 4
        case .finishing(.success): 5
        case .finishing(.failure): 6
        case .finishing(.message): 7
        case .noMoreData: 8
        case .releaseToFloor: 9
        case .floorOpening: 10
        case .floor: 11
        case .floorClosing: 12
        }
    }

    /// True while the control holds its added inset for a refresh or its ending.
    public var isBusy: Bool {
        switch self {
        case .refreshing, .finishing: true
        default: false
        }
    }

    /// True while the second floor holds the list down: opening, open or closing.
    public var holdsFloor: Bool {
        switch self {
        case .floorOpening, .floor, .floorClosing: true
        default: false
        }
    }
}

/// When a pull past the trigger distance starts a refresh.
public enum RefreshTrigger: Equatable, Sendable {
    /// When the finger lifts past the trigger distance (MJRefresh, four dots, news, the ring).
    case onRelease
    /// As soon as the pull reaches the trigger distance, with the finger still down (the sticky header).
    case atThreshold
}

/// What the effect sees of the pull each frame.
public struct RefreshPull: Equatable, Sendable {
    /// How far the content sits below its resting top, in points: the pull past the scroll view's own inset,
    /// including the inset the control adds while refreshing (four dots' p = −contentOffset.y). Never negative.
    public var distance: Double
    /// `distance` over the trigger distance: 0 at rest, 1 at the threshold, beyond 1 past it.
    public var progress: Double
    /// True while a finger drags the content.
    public var isDragging: Bool
    /// True while a finger is on the content, dragging or not yet (`UIScrollView.isTracking`): what pauses the news
    /// banner's animations.
    public var isTracking: Bool
    /// The time of the frame, in seconds on the simulation's clock.
    public var time: Double
    /// The header's size: the scroll view's width by the effect's header height.
    public var headerSize: Size
    /// The language the header's texts are in (the screen's): an effect shows `strings(for: language)`.
    public var language: RefreshLanguage

    /// `isTracking` is `isDragging` unless given: a drag is always tracked.
    public init(distance: Double, progress: Double, isDragging: Bool, isTracking: Bool? = nil, time: Double,
                headerSize: Size, language: RefreshLanguage = .english) {
        self.distance = distance
        self.progress = progress
        self.isDragging = isDragging
        self.isTracking = isTracking ?? isDragging
        self.time = time
        self.headerSize = headerSize
        self.language = language
    }
}

import Geometry
import Scrolling

/// Where a refresh control is in its life, as the user sees it.
public enum RefreshState: Equatable, Sendable, CustomStringConvertible {
    /// At rest: nothing pulled.
    case idle
    /// Pulled by `progress` of the threshold (0 up to, but not including, 1).
    case pulling(progress: Double)
    /// Pulled past the threshold: letting go will refresh.
    case armed
    /// The refresh action is running.
    case refreshing

    public var description: String {
        switch self {
        case .idle: "idle"
        case .pulling(let p): "pulling(\(Int((p * 100).rounded()))%)"
        case .armed: "armed"
        case .refreshing: "refreshing"
        }
    }
}

/// Watches a scroll view's pull past its top edge and decides when a refresh starts.
///
/// This first version knows the pull, the threshold and the release; effects, insets and the end of a refresh
/// come with the effects.
public final class RefreshControl {
    /// Pull distance, in points, past which a release refreshes (MJRefresh's header height, 54).
    public var threshold: Double
    public private(set) var state: RefreshState = .idle
    /// Called once each time a refresh starts.
    public var action: (() -> Void)?

    public init(threshold: Double = 54) {
        self.threshold = threshold
    }

    /// How far the content is pulled down past its top, in points; 0 when it is not.
    public static func pullDistance(of scrollView: ScrollView) -> Double {
        Swift.max(0, scrollView.minContentOffset.y - scrollView.contentOffset.y)
    }

    /// Updates the state from the pull distance and whether the finger is down; call on every offset change.
    public func update(pullDistance: Double, isDragging: Bool) {
        guard state != .refreshing else { return }
        if isDragging {
            state = pullDistance >= threshold ? .armed
                : pullDistance > 0 ? .pulling(progress: pullDistance / threshold) : .idle
        } else if state == .armed {
            state = .refreshing
            action?()
        } else {
            state = .idle
        }
    }

    /// Ends a refresh that is running; does nothing otherwise.
    public func endRefreshing() {
        if state == .refreshing { state = .idle }
    }
}

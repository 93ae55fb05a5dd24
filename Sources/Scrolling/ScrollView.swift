import Geometry

/// The model of a vertical `UIScrollView`: which part of the content the viewport shows, and the finger on it.
///
/// This first version tracks the finger 1:1 and keeps the offset inside the content; the rubber band, momentum
/// and bounce of the phone come with the physics.
public final class ScrollView {
    /// The size of the viewport, in points.
    public var boundsSize: Size
    /// The size of the scrollable content, in points.
    public var contentSize: Size {
        didSet { contentOffset = clamped(contentOffset) }
    }
    /// Extra space around the content, as `UIScrollView.contentInset`.
    public var contentInset: EdgeInsets = .zero
    /// The point of the content shown at the viewport's top-left corner.
    public private(set) var contentOffset: Point = .zero
    /// True while a finger is on the view.
    public private(set) var isTracking = false
    /// True once the finger has moved the content.
    public private(set) var isDragging = false

    private var lastTouch = Point.zero

    public init(boundsSize: Size, contentSize: Size) {
        self.boundsSize = boundsSize
        self.contentSize = contentSize
        contentOffset = Point(0, -contentInset.top)
    }

    /// The smallest content offset: the top of the content (less the top inset) at the top of the viewport.
    public var minContentOffset: Point { Point(-contentInset.left, -contentInset.top) }

    /// The largest content offset: the bottom of the content (plus the bottom inset) at the bottom of the viewport.
    public var maxContentOffset: Point {
        Point(Swift.max(minContentOffset.x, contentSize.width + contentInset.right - boundsSize.width),
              Swift.max(minContentOffset.y, contentSize.height + contentInset.bottom - boundsSize.height))
    }

    public func setContentOffset(_ offset: Point) {
        contentOffset = clamped(offset)
    }

    /// A finger touches the view at `location` (viewport coordinates) at `time` (seconds on the simulation's clock).
    public func touchBegan(at location: Point, time: Double) {
        isTracking = true
        lastTouch = location
    }

    /// The finger moves: the content follows it vertically.
    public func touchMoved(to location: Point, time: Double) {
        guard isTracking else { return }
        let dy = location.y - lastTouch.y
        lastTouch = location
        if dy != 0 { isDragging = true }
        contentOffset = clamped(Point(contentOffset.x, contentOffset.y - dy))
    }

    /// The finger lifts at `location`.
    public func touchEnded(at location: Point, time: Double) {
        isTracking = false
        isDragging = false
    }

    /// Advances animations and physics to `time` (seconds on the simulation's clock); call once per frame.
    public func step(to time: Double) {}

    private func clamped(_ p: Point) -> Point {
        let lo = minContentOffset, hi = maxContentOffset
        return Point(Swift.min(Swift.max(p.x, lo.x), hi.x), Swift.min(Swift.max(p.y, lo.y), hi.y))
    }
}

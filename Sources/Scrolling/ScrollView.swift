import Geometry
import Motion

/// What changed in a scroll view, for its observers.
public enum ScrollViewChange: Sendable, Hashable {
    case contentOffset
    case contentInset
    /// isTracking, isDragging or isDecelerating.
    case state
    /// The finger's travel past a held top (`ScrollView.topPullTravel`).
    case topPullTravel
}

/// A handle to remove an observer with.
public struct ScrollObservation: Hashable, Sendable {
    let id: Int
}

/// The model of a `UIScrollView`: which part of the content the viewport shows, the finger on it and the motion
/// after the finger lifts, on both axes.
///
/// The finger moves the content 1:1 inside its bounds and through the rubber band past them; a release flings it
/// with exponential momentum that hands over to the critically damped bounce spring where it crosses an edge, and a
/// release past an edge snaps back on the same spring (docs/reference.md §2). Every motion is a closed form of the time
/// since it started, so `step(to:)` at any time is exact and a run on a simulated clock is deterministic.
///
/// With `platform` Android the view scrolls as Android's do instead (docs/reference.md §5): a drag starts past the touch
/// slop, the release velocity is VelocityTracker's least-squares fit, a fling follows OverScroller's spline and adds
/// the velocity of a fling it interrupts in the same direction (the flywheel), and the content never passes an edge:
/// the pull past it, or a fling into it, goes to the edge effect (`edgeEffect(_:)`), the stretch or the glow.
///
/// Times are seconds on the caller's clock. Animations started from code (`setContentOffset(_:animated:)`,
/// `setContentInset(_:duration:timing:completion:)`) start at the latest time the view has been given, by a touch,
/// a wheel event or `step(to:)`.
public final class ScrollView {
    /// The size of the viewport, in points.
    public var boundsSize: Size {
        didSet { boundsDidChange() }
    }
    /// The size of the scrollable content, in points.
    public var contentSize: Size {
        didSet { boundsDidChange() }
    }
    /// Extra space around the content, as `UIScrollView.contentInset`. Setting it stops an inset animation; at rest
    /// the offset is brought inside the new bounds, as UIKit does.
    public var contentInset: EdgeInsets {
        get { inset }
        set {
            insetAnimation = nil
            applyInset(newValue)
        }
    }
    /// The part of the viewport the system's bars cover (status bar, home indicator, a translucent navigation bar),
    /// as `UIScrollView.safeAreaInsets`: with `.automatic` adjustment (docs/reference.md §6) it is added to
    /// `contentInset`, so the content rests below it. Changing it moves resting content as an inset change does.
    public var safeAreaInsets = EdgeInsets.zero {
        didSet {
            guard safeAreaInsets != oldValue else { return }
            notify(.contentInset)
            boundsDidChange()
        }
    }
    /// `contentInset` plus `safeAreaInsets`: the edges the content scrolls between, as
    /// `UIScrollView.adjustedContentInset` with `.automatic` adjustment (docs/reference.md §6).
    public var adjustedContentInset: EdgeInsets {
        EdgeInsets(top: inset.top + safeAreaInsets.top, left: inset.left + safeAreaInsets.left,
                   bottom: inset.bottom + safeAreaInsets.bottom, right: inset.right + safeAreaInsets.right)
    }
    /// The point of the content shown at the viewport's top-left corner.
    public private(set) var contentOffset: Point {
        didSet { if contentOffset != oldValue { notify(.contentOffset) } }
    }
    /// True while a finger is on the view.
    public private(set) var isTracking = false {
        didSet { if isTracking != oldValue { notify(.state) } }
    }
    /// True once the finger has moved the content, until it lifts.
    public private(set) var isDragging = false {
        didSet { if isDragging != oldValue { notify(.state) } }
    }
    /// True while the content moves on after a release: momentum, bounce or snap-back.
    public private(set) var isDecelerating = false {
        didSet { if isDecelerating != oldValue { notify(.state) } }
    }

    /// Whether the content can be pulled past its edges (through the rubber band) and bounces back.
    public var bounces = true
    /// Whether a pull past the top leaves the content at its top, as Android's SwipeRefreshLayout takes such a pull
    /// for its floating header: the finger's travel past the top goes to `topPullTravel` instead of moving the
    /// content through the rubber band, the wheel stops at the top, and momentum stops there without a bounce.
    /// The other edges keep bouncing. On Android the same pull goes to `topPullTravel` before the top's edge effect,
    /// and a fling into the top is absorbed by its stretch all the same (docs/reference.md §5).
    public var holdsContentAtTop = false {
        didSet { if !holdsContentAtTop && topPullTravel != 0 { topPullTravel = 0; rebaseDrag() } }
    }
    /// True during a drag (or a wheel step) that caught the content past a top held since (the hold came on during a
    /// bounce, with an effect switch): it moves the content through the rubber band as before the hold, rather than
    /// snapping the content to its top (and a drag handing its overscroll to `topPullTravel`) in one frame.
    private var caughtPastHeldTop = false
    /// Whether the top holds the content now: not during a drag that caught it past the top.
    private var holdsTop: Bool { holdsContentAtTop && !caughtPastHeldTop }
    /// How far the finger has travelled down past the top while `holdsContentAtTop` held the content there, in
    /// points; 0 once it lifts.
    public private(set) var topPullTravel = 0.0 {
        didSet { if topPullTravel != oldValue { notify(.topPullTravel) } }
    }
    /// On Android: the refresh layout that takes a pull past the top before the edge effect and moves the content
    /// down by it (a header that pushes the content), as nested scrolling gives the pull to a parent first
    /// (docs/reference.md §5). The finger's travel past the top goes to `topPullTravel`, the content shows it damped,
    /// a push back takes it back first, and a release short of it returns along the layout's rebound. Nil: the
    /// top's edge effect takes the pull (or, with `holdsContentAtTop`, a floating header does). iOS ignores it.
    public var topPullLayout: TopPullLayout? {
        didSet { if topPullLayout == nil && oldValue != nil { topPullTravel = 0 } }
    }
    /// Whether a vertical drag moves content no taller than the viewport (it then only rubber-bands).
    var alwaysBounceVertical = false
    /// Whether a horizontal drag moves content no wider than the viewport.
    var alwaysBounceHorizontal = false
    /// How quickly momentum fades after a fling; `.normal` and `.fast` take their rates from `physics`.
    var decelerationRate = DecelerationRate.normal
    /// The physics' parameters. A change applies to what starts next (a release, a drag's next move, a bounce); a
    /// motion under way keeps the path it was planned with.
    public var physics = PhysicsStyle() {
        didSet { panTracker.physics = physics }
    }
    /// How fast the clock that stamps touches runs against the finger: 1 normally, 0.1 under slow animations. The
    /// release velocity is measured in the finger's own time, so a fling keeps the phone's speed and distance and only
    /// plays out slower.
    public var touchClockRate: Double {
        get { panTracker.clockRate }
        set { panTracker.clockRate = newValue }
    }
    /// Pixels per point of the screen: the bounce stops within half a pixel, 0.5/scale pt (docs/reference.md §2). On
    /// Android it is the density, pixels per dp, which OverScroller's and EdgeEffect's pixel figures are read in.
    public var displayScale = ScrollView.iOSDisplayScale
    /// The pixels per point iOS's bounce settles in unless told otherwise: 2, the lab's own phone's.
    public static let iOSDisplayScale = 2.0
    /// Whose scrolling this is: iOS's (the default) or Android's. A change applies from the next touch.
    public var platform = Platform.ios {
        didSet {
            panTracker.platform = platform
            resetEdges()
        }
    }
    /// On Android: the stretch (Android 12 and later, the default) or the glow of earlier versions.
    public var edgeEffectKind = EdgeEffectKind.stretch {
        didSet { resetEdges() }
    }

    /// The finger's samples, translation and release velocity.
    public private(set) var panTracker = PanTracker()
    /// The latest time the view has been given (seconds).
    public private(set) var currentTime = 0.0


    private var inset: EdgeInsets
    private var motion: (horizontal: AxisMotion, vertical: AxisMotion) = (.idle, .idle)
    /// Where the finger was when the drag was last rebased, and the content's offset then with the rubber band
    /// undone: the content follows the finger 1:1 in this unbanded space and the band is applied afterwards.
    private var dragAnchor = (finger: Point.zero, unbandedOffset: Point.zero)
    private var wheelEndTime: Double?
    private var insetAnimation: (start: Double, duration: Double, from: EdgeInsets, to: EdgeInsets,
                                 timing: TimingFunction, completion: (() -> Void)?)?
    /// Android: the edge effects at the top and the bottom of the vertical axis.
    private var edges = (top: EdgeEffectModel(), bottom: EdgeEffectModel())
    /// Android: where the finger was at the last move (shifted by the touch slop when the drag started).
    private var lastFinger = Point.zero
    /// Android: the fling a finger caught, kept while the flywheel may still add its velocity, and the time of the
    /// next check of the finger's velocity.
    private var flywheel: (motion: AxisMotion, nextCheck: Double)?
    private var observers: [(id: Int, handler: (ScrollView, ScrollViewChange) -> Void)] = []
    private var nextObserverID = 0

    public init(boundsSize: Size, contentSize: Size, contentInset: EdgeInsets = .zero) {
        self.boundsSize = boundsSize
        self.contentSize = contentSize
        inset = contentInset
        contentOffset = Point(-contentInset.left, -contentInset.top)
    }

    // MARK: Bounds

    /// The smallest content offset: the top of the content (less the top inset) at the top of the viewport.
    var minContentOffset: Point { Point(minOffset(.horizontal), minOffset(.vertical)) }

    /// The largest content offset: the bottom of the content (plus the bottom inset) at the bottom of the viewport.
    var maxContentOffset: Point { Point(maxOffset(.horizontal), maxOffset(.vertical)) }

    func minOffset(_ axis: Axis) -> Double { -adjustedContentInset.leading(axis) }

    func maxOffset(_ axis: Axis) -> Double {
        Swift.max(minOffset(axis), contentSize[axis] + adjustedContentInset.trailing(axis) - boundsSize[axis])
    }

    /// Whether a drag moves the content on `axis`: the content is larger than the viewport there, or the view
    /// always bounces on that axis.
    func canScroll(_ axis: Axis) -> Bool {
        let always = axis == .horizontal ? alwaysBounceHorizontal : alwaysBounceVertical
        let adjusted = adjustedContentInset
        return always || contentSize[axis] + adjusted.leading(axis) + adjusted.trailing(axis) > boundsSize[axis]
    }

    /// True while something moves the content or the inset without a finger: the window must keep drawing.
    public var isAnimating: Bool {
        !motion.horizontal.isIdle || !motion.vertical.isIdle || insetAnimation != nil || wheelEndTime != nil
            || !edges.top.isFinished || !edges.bottom.isFinished
    }

    /// Android's edge effect at `edge` of the vertical axis: how far it is pulled, the stretch to draw (a scale of the
    /// content from that edge) or the glow's opacity and height; nothing on iOS.
    public func edgeEffect(_ edge: ScrollEdge) -> EdgeEffectState {
        (edge == .top ? edges.top : edges.bottom).snapshot()
    }

    /// The content's velocity in points per second: the finger's (against it, as the content moves) while
    /// dragging, the motion's after a release, zero at rest.
    public var velocity: Point {
        if isTracking {
            let finger = panTracker.velocity
            var vertical = canScroll(.vertical) && topPullTravel == 0 ? -finger.y : 0
            // Content a refresh layout pulls moves at the slope of its damped drag.
            if let layout = topPullLayout, platform == .android, topPullTravel > 0 {
                vertical = -finger.y * layout.slope(atTravel: topPullTravel, height: boundsSize.height)
            }
            return Point(canScroll(.horizontal) ? -finger.x : 0, vertical)
        }
        return Point(motion.horizontal.sample(at: currentTime)?.velocity ?? 0,
                     motion.vertical.sample(at: currentTime)?.velocity ?? 0)
    }

    /// What moves the content now: momentum, the bounce spring, an animation (of the offset or the inset), or
    /// none. The vertical axis first, the list's own.
    public var runningMotion: ScrollMotion {
        let vertical = motion.vertical.kind(at: currentTime)
        if vertical != .none { return vertical }
        let horizontal = motion.horizontal.kind(at: currentTime)
        if horizontal != .none { return horizontal }
        return insetAnimation != nil ? .animation : .none
    }

    // MARK: Observers

    /// Calls `handler` after every change of the offset, the inset or the tracking state.
    @discardableResult
    public func addObserver(_ handler: @escaping (ScrollView, ScrollViewChange) -> Void) -> ScrollObservation {
        nextObserverID += 1
        observers.append((nextObserverID, handler))
        return ScrollObservation(id: nextObserverID)
    }

    public func removeObserver(_ observation: ScrollObservation) {
        observers.removeAll { $0.id == observation.id }
    }

    private func notify(_ change: ScrollViewChange) {
        for observer in observers { observer.handler(self, change) }
    }

    // MARK: Changes from code

    /// Moves the content, at once or over the physics' `contentOffsetAnimationDuration`. As in UIKit the offset is not
    /// clamped: a refresh control may show its header by setting an offset past the top.
    public func setContentOffset(_ offset: Point, animated: Bool = false) {
        guard offset.isFinite else { return }
        wheelEndTime = nil
        if isTracking || !animated {
            motion = (.idle, .idle)
            isDecelerating = false
            contentOffset = offset
            if isTracking { rebaseDrag() }
            return
        }
        animateContentOffset(to: offset, start: currentTime, duration: physics.contentOffsetAnimationDuration,
                             timing: .easeInEaseOut)
    }

    /// Moves the content to `offset` over `duration` seconds along `timing`, from where it is, on a timeline that
    /// began at `start` (at most now), in place of whatever moved it (momentum, a bounce): a refresh control moves
    /// the offset on the timeline of the inset it animates, so the two arrive together. At once for a duration
    /// of 0. Nothing happens while a finger holds the content: it stays under the finger.
    public func animateContentOffset(to offset: Point, start: Double, duration: Double, timing: TimingFunction) {
        guard offset.isFinite, start.isFinite, !isTracking else { return }
        wheelEndTime = nil
        isDecelerating = false
        guard duration > 0 && duration.isFinite && start + duration > currentTime else {
            motion = (.idle, .idle)
            contentOffset = offset
            return
        }
        let begin = Swift.min(start, currentTime)
        var from = contentOffset
        // On Android a release's own motion begun since `start` is replaced from where it began: the refresh layout
        // decides at the release where the content goes (SmartRefreshLayout's `overSpinner`), so the frame the
        // release moved the content back is not shown.
        if platform == .android, motion.vertical.start >= begin, let began = motion.vertical.simulation?.sample(at: 0) {
            from.y = began.position
        }
        let x = OffsetAnimationSimulation(duration: duration, from: from.x, to: offset.x, timing: timing)
        let y = OffsetAnimationSimulation(duration: duration, from: from.y, to: offset.y, timing: timing)
        motion = (AxisMotion(start: begin, simulation: x), AxisMotion(start: begin, simulation: y))
        sampleMotion(at: currentTime)
    }

    /// Changes the inset over `duration` seconds along `timing`, from the current one; `completion` runs once when
    /// it arrives (not when another inset change replaces it). A duration of 0 or less changes it at once.
    func setContentInset(_ newInset: EdgeInsets, duration: Double, timing: TimingFunction = .easeInEaseOut,
                                completion: (() -> Void)? = nil) {
        guard duration > 0 && duration.isFinite else {
            contentInset = newInset
            completion?()
            return
        }
        insetAnimation = (currentTime, duration, inset, newInset, timing, completion)
    }

    private func boundsDidChange() {
        guard isTracking else { return restartMotion(at: currentTime, clampAtRest: true) }
        // A finger pulling past a held top holds the content at that top wherever it moves (an inset on its way out
        // after an effect switch): the content would otherwise show a gap under the floating header.
        if holdsTop && topPullTravel > 0 && canScroll(.vertical) {
            contentOffset.y = minOffset(.vertical)
        } else if platform == .android, let layout = topPullLayout, topPullTravel > 0 {
            // The content stays under the finger: the travel is what shows it there from the new top.
            topPullTravel = layout.travel(forDistance: minOffset(.vertical) - contentOffset.y, height: boundsSize.height)
        }
        rebaseDrag()
    }

    /// Sets the inset and keeps the motion consistent with the new edges: a drag is rebased so the content does
    /// not jump; a bounce retargets the new edge; content at rest is brought inside the bounds.
    private func applyInset(_ newInset: EdgeInsets) {
        guard newInset != inset else { return }
        inset = newInset
        notify(.contentInset)
        boundsDidChange()
    }

    // MARK: Touches

    /// A finger touches the view at `location` (viewport coordinates) at `time`; it catches moving content where it is.
    public func touchBegan(at location: Point, time: Double) {
        advanceTime(to: time)
        let interrupted = motion.vertical
        settleMotion(at: currentTime)
        wheelEndTime = nil
        let caught = platform == .android ? androidCatch(interrupted, at: location) : false
        panTracker.begin(at: location, time: time)
        isTracking = true
        if caught { isDragging = true }
        caughtPastHeldTop = holdsContentAtTop && canScroll(.vertical) && contentOffset.y < minOffset(.vertical)
        rebaseDrag()
    }

    /// The finger moves: the content follows it 1:1 inside its bounds and through the rubber band past them.
    public func touchMoved(to location: Point, time: Double) {
        guard isTracking else { return }
        advanceTime(to: time)
        panTracker.add(location, time: time)
        if platform == .android { return androidDrag(to: location) }
        let travel = location - dragAnchor.finger
        if travel != .zero && !isDragging { isDragging = true }
        var offset = contentOffset
        for axis in Axis.allCases where canScroll(axis) {
            offset[axis] = banded(dragAnchor.unbandedOffset[axis] - travel[axis], axis)
        }
        contentOffset = offset
        if holdsTop && canScroll(.vertical) {
            topPullTravel = Swift.max(0, minOffset(.vertical) - (dragAnchor.unbandedOffset.y - travel.y))
        }
    }

    /// The finger lifts at `location`: a fling decelerates, an overscroll snaps back.
    public func touchEnded(at location: Point, time: Double) {
        guard isTracking else { return }
        if platform == .android { return androidTouchEnded(at: location, time: time) }
        touchMoved(to: location, time: time)
        let fingerVelocity = panTracker.velocity
        let isFling = isDragging && fingerVelocity.length >= physics.minFlingVelocity
        isTracking = false
        isDragging = false
        topPullTravel = 0
        var velocity = Point.zero
        for axis in Axis.allCases where isFling && canScroll(axis) {
            // The content moves against the finger; past an edge it moved at the band's slope.
            let over = overscroll(contentOffset[axis], axis)
            let travel = RubberBand.travel(forOffset: over, dimension: boundsSize[axis], coefficient: physics.rubberBandCoefficient)
            let slope = over == 0 ? 1 : RubberBand.slope(atTravel: travel, dimension: boundsSize[axis],
                                                         coefficient: physics.rubberBandCoefficient)
            velocity[axis] = -fingerVelocity[axis] * slope
        }
        release(velocity: velocity, at: currentTime)
        caughtPastHeldTop = false
    }

    /// The finger leaves without lifting (the gesture was taken over): as a lift with no velocity.
    public func touchCancelled(time: Double) {
        guard isTracking else { return }
        advanceTime(to: time)
        finishTouch(releasing: .zero)
    }

    /// The finger is off (lifted on Android, or cancelled): the touch's state clears, Android's edge effects recede
    /// and the content is released with `velocity`.
    private func finishTouch(releasing velocity: Point) {
        isTracking = false
        isDragging = false
        topPullTravel = 0
        flywheel = nil
        releaseEdges(at: currentTime)
        release(velocity: velocity, at: currentTime)
        caughtPastHeldTop = false
    }

    /// A mouse-wheel or trackpad scroll by `delta` points of content (positive moves the content's offset up, as
    /// a drag upwards does): moves the content through the rubber band, with no momentum; an overscroll snaps back
    /// the physics' `wheelEndDelay` after the last event.
    public func scrollWheel(by delta: Point, time: Double) {
        guard !isTracking, delta.isFinite else { return }
        advanceTime(to: time)
        settleMotion(at: currentTime)
        caughtPastHeldTop = holdsContentAtTop && canScroll(.vertical) && contentOffset.y < minOffset(.vertical)
        defer { caughtPastHeldTop = false }
        var offset = contentOffset
        for axis in Axis.allCases where canScroll(axis) {
            offset[axis] = banded(unbanded(offset[axis], axis) + delta[axis], axis)
        }
        contentOffset = offset
        wheelEndTime = currentTime + physics.wheelEndDelay
    }

    // MARK: Frames

    /// Advances the inset animation, the wheel's end and the motion after a release to `time`; call once per frame.
    public func step(to time: Double) {
        advanceTime(to: time)
        let now = currentTime
        if let animation = insetAnimation {
            let t = now - animation.start
            if t >= animation.duration {
                insetAnimation = nil
                applyInset(animation.to)
                animation.completion?()
            } else {
                applyInset(animation.from.interpolated(to: animation.to, fraction: animation.timing.value(at: t / animation.duration)))
            }
        }
        if let end = wheelEndTime, now >= end, !isTracking {
            wheelEndTime = nil
            release(velocity: .zero, at: end)
        }
        sampleMotion(at: now)
        if platform == .android { advanceEdges(to: now) }
    }

    // MARK: Physics

    private func advanceTime(to time: Double) {
        if time.isFinite && time > currentTime { currentTime = time }
    }

    /// How far `offset` lies past the bounds on `axis`: negative before the start, positive after the end, else 0.
    private func overscroll(_ offset: Double, _ axis: Axis) -> Double {
        let lo = minOffset(axis), hi = maxOffset(axis)
        return offset < lo ? offset - lo : offset > hi ? offset - hi : 0
    }

    /// The offset shown for an unbanded offset: itself inside the bounds, the rubber band past them (clamped when
    /// the view does not bounce there).
    private func banded(_ u: Double, _ axis: Axis) -> Double {
        let lo = minOffset(axis), hi = maxOffset(axis), d = boundsSize[axis], c = physics.rubberBandCoefficient
        // Android's content stops at its edges (the edge effect shows the pull instead).
        if platform == .android { return Swift.min(Swift.max(u, lo), hi) }
        if u < lo { return bouncesAtStart(axis) ? lo + RubberBand.offset(forTravel: u - lo, dimension: d, coefficient: c) : lo }
        if u > hi { return bounces ? hi + RubberBand.offset(forTravel: u - hi, dimension: d, coefficient: c) : hi }
        return u
    }

    /// Whether the content bounces past the start of `axis`: not at a top held for a floating header.
    private func bouncesAtStart(_ axis: Axis) -> Bool {
        bounces && !(holdsTop && axis == .vertical)
    }

    /// The inverse of `banded`: the finger travel that shows `offset`.
    private func unbanded(_ offset: Double, _ axis: Axis) -> Double {
        let over = overscroll(offset, axis)
        guard over != 0 else { return offset }
        let edge = offset - over
        return edge + RubberBand.travel(forOffset: over, dimension: boundsSize[axis], coefficient: physics.rubberBandCoefficient)
    }

    /// Restarts the finger's 1:1 mapping from where the content is now, so a change of bounds or offset during a
    /// drag moves nothing on screen; a travel past a held top is kept.
    private func rebaseDrag() {
        dragAnchor = (panTracker.location,
                      Point(unbanded(contentOffset.x, .horizontal), unbanded(contentOffset.y, .vertical) - topPullTravel))
    }

    /// Stops the motion on every axis where it is at `time`.
    private func settleMotion(at time: Double) {
        sampleMotion(at: time)
        motion = (.idle, .idle)
        isDecelerating = false
    }

    /// Evaluates the motion at `time`, updates the offset and ends the motions that are over.
    private func sampleMotion(at time: Double) {
        var offset = contentOffset
        var moving = false
        if let s = motion.horizontal.sample(at: time) {
            offset.x = s.position
            if s.done { motion.horizontal = .idle } else { moving = true }
        }
        if let s = motion.vertical.sample(at: time) {
            offset.y = s.position
            if s.done {
                if platform == .android { absorbFling(motion.vertical) }
                motion.vertical = .idle
            } else { moving = true }
        }
        contentOffset = offset
        if !moving { isDecelerating = false }
    }

    /// Re-plans the motion after the edges changed: a release in progress continues from its current position and
    /// velocity towards the new edges (the momentum's decay is memoryless, so its path inside the bounds is
    /// unchanged); content at rest moves inside the new bounds when `clampAtRest`, as UIKit adjusts the offset.
    private func restartMotion(at time: Double, clampAtRest: Bool) {
        if isDecelerating {
            var offset = contentOffset, velocity = Point.zero
            if let s = motion.horizontal.sample(at: time) { offset.x = s.position; velocity.x = s.velocity }
            if let s = motion.vertical.sample(at: time) { offset.y = s.position; velocity.y = s.velocity }
            contentOffset = offset
            release(velocity: velocity, at: time)
            return
        }
        // An offset animation or a wheel gesture in progress keeps its course.
        guard clampAtRest, motion.horizontal.isIdle, motion.vertical.isIdle, wheelEndTime == nil else { return }
        var clamped = contentOffset
        for axis in Axis.allCases {
            clamped[axis] = Swift.min(Swift.max(clamped[axis], minOffset(axis)), maxOffset(axis))
        }
        contentOffset = clamped
    }

    /// Starts the motion after a release at `time` with the content's `velocity` (points per second).
    private func release(velocity: Point, at time: Double) {
        var moving = false
        for axis in Axis.allCases {
            let m = releaseMotion(axis, position: contentOffset[axis], velocity: velocity[axis], at: time)
            if axis == .horizontal { motion.horizontal = m } else { motion.vertical = m }
            if !m.isIdle { moving = true }
        }
        isDecelerating = moving
        sampleMotion(at: time)
    }

    /// The motion on one axis after a release: the snap-back spring from past an edge; momentum inside the bounds,
    /// handing over to the bounce spring at the time its projection crosses an edge (docs/reference.md §2).
    private func releaseMotion(_ axis: Axis, position: Double, velocity: Double, at time: Double) -> AxisMotion {
        AxisMotion(start: time, simulation: releaseSimulation(axis, position: position, velocity: velocity))
    }

    private func releaseSimulation(_ axis: Axis, position: Double, velocity: Double) -> (any AxisSimulation)? {
        if platform == .android { return androidReleaseSimulation(axis, position: position, velocity: velocity) }
        let lo = minOffset(axis), hi = maxOffset(axis)
        let epsilon = physics.bounceRestPixels / Swift.max(displayScale, 1)
        let bounce = physics.bounceSpring
        if position < lo || position > hi {
            let edge = position < lo ? lo : hi
            guard bounces else { return nil }
            let spring = bounce.motion(from: position, to: edge, initialVelocity: velocity)
            return SpringBackSimulation(spring: spring, settle: spring.settlingTime(epsilon: epsilon))
        }
        guard velocity != 0 else { return nil }
        let decay = Decay(start: position, initialVelocity: velocity, rate: physics.deceleration(for: decelerationRate))
        let stop = decay.duration()
        let rest = decay.restingPoint
        let crossedEdge: Double? = rest < lo ? lo : rest > hi ? hi : nil
        // The limit only matters when the projection passes an edge by less than the stop distance.
        guard let edge = crossedEdge, let crossing = decay.time(toReach: edge), crossing < stop else {
            return MomentumSimulation(decay: decay, stopTime: stop, limit: lo...hi)
        }
        guard edge == lo ? bouncesAtStart(axis) : bounces else {
            return MomentumSimulation(decay: decay, stopTime: crossing, limit: lo...hi)
        }
        let spring = bounce.motion(from: edge, to: edge, initialVelocity: decay.velocity(at: crossing))
        let momentum = MomentumSimulation(decay: decay, stopTime: .infinity, limit: nil)
        let back = SpringBackSimulation(spring: spring, settle: spring.settlingTime(epsilon: epsilon))
        return HandOffSimulation(first: momentum, time: crossing, second: back)
    }
}

// MARK: Android

extension ScrollView {
    /// How often, while a finger holds a caught fling, its velocity is checked to keep the flywheel: 40 ms
    /// (AbsListView's `FLYWHEEL_TIMEOUT`, docs/reference.md §5).
    static let flywheelCheckInterval = 0.040

    /// The view's height in the phone's pixels, which EdgeEffect measures in.
    private var pixelHeight: Double { boundsSize.height * displayScale }
    /// The glow's full height, in pixels.
    private var glowHeight: Double {
        EdgeEffectModel.glowBoundsHeight(width: boundsSize.width * displayScale, height: pixelHeight)
    }
    private var stretchSpring: (frequency: Double, damping: Double) {
        (physics.androidStretchFrequency, physics.androidStretchDampingRatio)
    }

    /// A finger goes down: it catches a showing stretch and a running fling (the flywheel's candidate); either
    /// makes the touch a drag at once, with no slop, as Android's ScrollView does. Returns whether it caught one.
    private func androidCatch(_ interrupted: AxisMotion, at location: Point) -> Bool {
        lastFinger = location
        let showing = !edges.top.isFinished || !edges.bottom.isFinished
        edges.top.catchStretch(at: currentTime, glowHeight: glowHeight)
        edges.bottom.catchStretch(at: currentTime, glowHeight: glowHeight)
        let flinging = interrupted.simulation is SplineFlingSimulation
            && interrupted.sample(at: currentTime)?.done == false
        flywheel = nil
        if flinging { flywheel = (interrupted, currentTime + Self.flywheelCheckInterval) }
        // Content a refresh layout pulled down, caught on its way back: the finger holds it where it is.
        if let layout = topPullLayout, contentOffset.y < minOffset(.vertical) {
            topPullTravel = layout.travel(forDistance: minOffset(.vertical) - contentOffset.y, height: boundsSize.height)
        }
        return showing || flinging
    }

    /// The finger moves: once past the touch slop the content follows it, never past an edge; a pull past an edge
    /// goes to its edge effect (or to `topPullTravel` at a held top), and a push back takes from them first.
    private func androidDrag(to location: Point) {
        checkFlywheel(until: currentTime)
        if !isDragging {
            let travel = location - panTracker.startLocation, slop = physics.androidTouchSlop
            var started = false
            for axis in Axis.allCases where canScroll(axis) && abs(travel[axis]) > slop {
                lastFinger[axis] += travel[axis] > 0 ? slop : -slop
                started = true
            }
            guard started else { return }
            isDragging = true
        }
        let delta = lastFinger - location
        lastFinger = location
        var offset = contentOffset
        for axis in Axis.allCases where canScroll(axis) {
            offset[axis] = androidScroll(offset[axis], by: delta[axis], axis)
        }
        contentOffset = offset
    }

    /// `offset` moved by `delta` (positive scrolls towards the end) on `axis`, with the vertical edges' effects. A
    /// header's layout takes a pull past the top first (nested scrolling's post-scroll) and gives its travel back
    /// first on the way up (pre-scroll); the top's edge effect takes the pull only when no header does.
    private func androidScroll(_ offset: Double, by delta: Double, _ axis: Axis) -> Double {
        let layout = axis == .vertical ? topPullLayout : nil
        // Content a layout holds past the top counts, for the list, as at its top.
        let listOffset = layout != nil && topPullTravel > 0 ? minOffset(axis) : offset
        // Content already outside its edges (an inset on its way) moves freely back towards them.
        let lo = Swift.min(minOffset(axis), listOffset), hi = Swift.max(maxOffset(axis), listOffset)
        guard axis == .vertical else { return Swift.min(Swift.max(listOffset + delta, lo), hi) }
        let height = boundsSize.height, time = currentTime
        let headerTakesPull = holdsTop || layout != nil
        var d = delta
        if d > 0 && headerTakesPull && topPullTravel > 0 {
            let back = Swift.min(d, topPullTravel)
            topPullTravel -= back
            d -= back
        }
        if d > 0 && edges.top.distance > 0 {
            d += height * edges.top.pull(-d / height, at: time, glowHeight: glowHeight)
        } else if d < 0 && edges.bottom.distance > 0 {
            d -= height * edges.bottom.pull(d / height, at: time, glowHeight: glowHeight)
        }
        let moved = listOffset + d
        var shown = moved
        if moved < lo {
            if headerTakesPull {
                topPullTravel += lo - moved
                edges.top.release(at: time)
            } else if bounces {
                _ = edges.top.pull((lo - moved) / height, at: time, glowHeight: glowHeight)
            }
            edges.bottom.release(at: time)
            shown = lo
        } else if moved > hi {
            if bounces { _ = edges.bottom.pull((moved - hi) / height, at: time, glowHeight: glowHeight) }
            edges.top.release(at: time)
            shown = hi
        }
        if let layout, topPullTravel > 0 {
            return minOffset(axis) - layout.distance(forTravel: topPullTravel, height: height)
        }
        return shown
    }

    /// The flywheel's checks up to `time`: every 40 ms from the touch the finger must still move at the minimum
    /// fling velocity in the caught fling's direction, or the flywheel is lost (AbsListView's `mCheckFlywheel`).
    private func checkFlywheel(until time: Double) {
        while let wheel = flywheel, wheel.nextCheck <= time {
            let fingerDirection = -panTracker.velocity.y
            guard let s = wheel.motion.sample(at: wheel.nextCheck), !s.done,
                  abs(fingerDirection) >= physics.androidMinFlingVelocity,
                  (fingerDirection > 0) == (s.velocity > 0) else {
                flywheel = nil
                return
            }
            flywheel = (wheel.motion, wheel.nextCheck + Self.flywheelCheckInterval)
        }
    }

    /// The finger lifts: a release faster than the minimum fling velocity flings (adding the caught fling's
    /// velocity when the flywheel still holds and the directions agree, OverScroller's rule); the edge effects recede.
    private func androidTouchEnded(at location: Point, time: Double) {
        if location != panTracker.location {
            touchMoved(to: location, time: time)
        } else {
            advanceTime(to: time)
        }
        checkFlywheel(until: currentTime)
        let finger = panTracker.releaseVelocity(at: time)
        var velocity = Point.zero
        for axis in Axis.allCases where isDragging && canScroll(axis) {
            let v = -finger[axis], position = contentOffset[axis]
            let canFling = (position > minOffset(axis) || v > 0) && (position < maxOffset(axis) || v < 0)
            if abs(v) > physics.androidMinFlingVelocity && canFling { velocity[axis] = v }
        }
        if let wheel = flywheel, let old = wheel.motion.sample(at: currentTime), !old.done,
           velocity.y != 0, (velocity.y > 0) == (old.velocity > 0) {
            velocity.y += old.velocity
        }
        finishTouch(releasing: velocity)
    }

    /// The motion after a release on Android: OverScroller's spring back from outside the edges (content placed
    /// there by code), else its spline fling, stopped at an edge it would pass.
    fileprivate func androidReleaseSimulation(_ axis: Axis, position: Double, velocity: Double) -> (any AxisSimulation)? {
        let lo = minOffset(axis), hi = maxOffset(axis)
        if axis == .vertical, position < lo, let layout = topPullLayout {
            return ViscousReturnSimulation(duration: layout.returnDuration, from: position, to: lo)
        }
        if position < lo || position > hi {
            guard bounces else { return nil }
            return CubicSpringBackSimulation(from: position, to: position < lo ? lo : hi, density: displayScale)
        }
        guard velocity != 0 else { return nil }
        let fling = AndroidFling(friction: physics.androidScrollFriction, density: displayScale)
        return fling.simulation(start: position, velocity: velocity, limit: lo...hi)
    }

    /// A fling that ended at an edge gives its velocity there to that edge's effect (RecyclerView's `absorbGlows`),
    /// at the top too whatever header is there: the refresh layouts take touches, not a list's coasting fling
    /// (docs/reference.md §5).
    fileprivate func absorbFling(_ finished: AxisMotion) {
        guard let fling = finished.simulation as? SplineFlingSimulation, fling.reachesEdge, bounces else { return }
        let time = finished.start + fling.duration
        let speed = abs(fling.velocity(at: fling.duration)) * displayScale
        let factor = physics.androidAbsorbVelocityFactor
        if fling.final <= minOffset(.vertical) {
            edges.top.absorb(pixelVelocity: speed, at: time, factor: factor)
        } else {
            edges.bottom.absorb(pixelVelocity: speed, at: time, factor: factor)
        }
    }

    fileprivate func resetEdges() {
        edges = (EdgeEffectModel(kind: edgeEffectKind), EdgeEffectModel(kind: edgeEffectKind))
    }

    fileprivate func releaseEdges(at time: Double) {
        edges.top.release(at: time)
        edges.bottom.release(at: time)
    }

    fileprivate func advanceEdges(to time: Double) {
        edges.top.advance(to: time, height: pixelHeight, glowHeight: glowHeight, spring: stretchSpring)
        edges.bottom.advance(to: time, height: pixelHeight, glowHeight: glowHeight, spring: stretchSpring)
    }
}

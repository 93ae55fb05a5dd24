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
/// How the finger moves the content, how fast it leaves, what moves the content after it lifts and what its edges
/// do are the platform's physics, which the view is given (`usePhysics(of:)`) and asks, never which platform it is
/// on: iOS's by default (`IOSPhysics`: the rubber band, momentum and the bounce spring, docs/reference.md §2), or
/// Android's (`AndroidPhysics`: the touch slop, OverScroller's fling and the edge effect, docs/reference.md §5).
/// Every motion is a closed form of the time since it started, so `step(to:)` at any time is exact and a run on a
/// simulated clock is deterministic.
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
    public internal(set) var contentOffset: Point {
        didSet { if contentOffset != oldValue { notify(.contentOffset) } }
    }
    /// True while a finger is on the view.
    public private(set) var isTracking = false {
        didSet { if isTracking != oldValue { notify(.state) } }
    }
    /// True once the finger has moved the content, until it lifts.
    public internal(set) var isDragging = false {
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
    var holdsTop: Bool { holdsContentAtTop && !caughtPastHeldTop }
    /// How far the finger has travelled down past the top while `holdsContentAtTop` held the content there, in
    /// points; 0 once it lifts.
    public internal(set) var topPullTravel = 0.0 {
        didSet { if topPullTravel != oldValue { notify(.topPullTravel) } }
    }
    /// On Android: the refresh layout that takes a pull past the top before the edge effect and moves the content
    /// down by it (a header that pushes the content), as nested scrolling gives the pull to a parent first
    /// (docs/reference.md §5). The finger's travel past the top goes to `topPullTravel`, the content shows it damped,
    /// a push back takes it back first, and a release short of it returns along the layout's rebound. Nil: the
    /// top's edge effect takes the pull (or, with `holdsContentAtTop`, a floating header does). Only physics that
    /// pass a pull past the top to the header (`passesTopPullToHeader`) read it: iOS's ignore it.
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
    /// The platform's physics: iOS's until the view is given others (`usePhysics(of:)`).
    private(set) var platformPhysics: any PlatformPhysics = IOSPhysics()

    /// The finger's samples, translation and release velocity (estimated as the platform's physics do).
    public private(set) var panTracker = PanTracker()
    /// The latest time the view has been given (seconds).
    public private(set) var currentTime = 0.0


    private var inset: EdgeInsets
    private var motion: (horizontal: AxisMotion, vertical: AxisMotion) = (.idle, .idle)
    private var wheelEndTime: Double?
    private var insetAnimation: (start: Double, duration: Double, from: EdgeInsets, to: EdgeInsets,
                                 timing: TimingFunction, completion: (() -> Void)?)?
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

    /// True while something moves the content or the inset without a finger, or the platform's physics animate
    /// an edge: the window must keep drawing.
    public var isAnimating: Bool {
        !motion.horizontal.isIdle || !motion.vertical.isIdle || insetAnimation != nil || wheelEndTime != nil
            || platformPhysics.isAnimating
    }

    /// The edge effect at `edge` of the vertical axis: on Android how far it is pulled, the stretch to draw (a scale
    /// of the content from that edge) or the glow's opacity and height; `.none` on iOS.
    public func edgeEffect(_ edge: ScrollEdge) -> EdgeEffectState {
        platformPhysics.edgeEffect(edge)
    }

    /// Whether a pull past the top goes to a refresh header before the list's own overscroll, as on Android
    /// (`PlatformPhysics.passesTopPullToHeader`): the refresh control then gives the view `topPullLayout` or
    /// `holdsContentAtTop` only while the header can start a refresh.
    public var passesTopPullToHeader: Bool { platformPhysics.passesTopPullToHeader }

    /// The content's velocity in points per second: the finger's (against it, as the content moves) while
    /// dragging, the motion's after a release, zero at rest.
    public var velocity: Point {
        if isTracking { return platformPhysics.trackingVelocity(self) }
        return Point(motion.horizontal.sample(at: currentTime)?.velocity ?? 0,
                     motion.vertical.sample(at: currentTime)?.velocity ?? 0)
    }

    /// The content's velocity for a finger moving at `finger`: against it on each axis that scrolls, and none on the
    /// vertical axis while a pull past a held top goes to `topPullTravel`.
    func contentVelocity(following finger: Point) -> Point {
        Point(canScroll(.horizontal) ? -finger.x : 0, canScroll(.vertical) && topPullTravel == 0 ? -finger.y : 0)
    }

    // MARK: Physics

    /// Gives the view `platform`'s physics (`Platform.makePhysics`), new, in place of the ones it has, as
    /// `usePhysics(_:)` does.
    public func usePhysics(of platform: Platform) {
        usePhysics(platform.makePhysics())
    }

    /// Gives the view `physics`, in place of the ones it has. Nothing of the old physics carries over: a touch under
    /// way ends as a cancelled one, the old physics' state goes with them (a stretch, a caught fling, the finger's
    /// samples), and the content is released where it is with no velocity, by the new physics: whatever moved it
    /// stops, and content left past an edge returns to it by the new rule.
    func usePhysics(_ physics: any PlatformPhysics) {
        if isTracking { finishTouch { .zero } }
        wheelEndTime = nil
        platformPhysics = physics
        panTracker.estimator = physics.makeVelocityEstimator()
        release(velocity: .zero, at: currentTime)
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
        // A release's own motion begun since `start` may be replaced from where it began (Android's refresh layouts).
        if platformPhysics.offsetAnimationReplacesRelease, motion.vertical.start >= begin,
           let began = motion.vertical.simulation?.sample(at: 0) {
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
        } else {
            platformPhysics.edgesDidMoveUnderFinger(self)
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
        let caught = platformPhysics.touchBegan(self, at: location, interrupting: interrupted)
        panTracker.begin(at: location, time: time)
        isTracking = true
        if caught { isDragging = true }
        caughtPastHeldTop = holdsContentAtTop && canScroll(.vertical) && contentOffset.y < minOffset(.vertical)
        rebaseDrag()
    }

    /// The finger moves: the content follows it as the platform's physics map it.
    public func touchMoved(to location: Point, time: Double) {
        guard isTracking else { return }
        advanceTime(to: time)
        panTracker.add(location, time: time)
        platformPhysics.touchMoved(self, to: location)
    }

    /// The finger lifts at `location`: a fling moves on, an overscroll returns, as the platform's physics have it.
    public func touchEnded(at location: Point, time: Double) {
        guard isTracking else { return }
        platformPhysics.touchEnded(self, at: location, time: time)
    }

    /// The finger leaves without lifting (the gesture was taken over): as a lift with no velocity.
    public func touchCancelled(time: Double) {
        guard isTracking else { return }
        advanceTime(to: time)
        finishTouch { .zero }
    }

    /// The finger is off (lifted, or cancelled): the touch's state clears, the physics let go of what the finger
    /// held, and the content is released with the velocity `velocity` gives, worked out once the touch's state is
    /// clear (its observers may move the edges on the way).
    func finishTouch(releasing velocity: () -> Point) {
        isTracking = false
        isDragging = false
        topPullTravel = 0
        platformPhysics.touchFinished(self, at: currentTime)
        release(velocity: velocity(), at: currentTime)
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
            offset[axis] = platformPhysics.offset(self, forTravel: travel(showing: offset[axis], axis) + delta[axis], axis)
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
        platformPhysics.advance(self, to: now)
    }

    // MARK: Motion

    func advanceTime(to time: Double) {
        if time.isFinite && time > currentTime { currentTime = time }
    }

    /// Whether the content bounces past the start of `axis`: not at a top held for a floating header.
    func bouncesAtStart(_ axis: Axis) -> Bool {
        bounces && !(holdsTop && axis == .vertical)
    }

    /// Restarts the physics' mapping of the finger from where the content is now, so a change of bounds or offset
    /// during a drag moves nothing on screen; a travel past a held top is kept.
    private func rebaseDrag() {
        platformPhysics.rebaseDrag(self)
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
                platformPhysics.verticalMotionEnded(self, motion.vertical)
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

    /// The motion on one axis after a release at `time`, as the platform's physics choose it.
    private func releaseMotion(_ axis: Axis, position: Double, velocity: Double, at time: Double) -> AxisMotion {
        AxisMotion(start: time,
                   simulation: platformPhysics.releaseSimulation(self, axis, position: position, velocity: velocity))
    }
}

import Geometry

/// Which phone's scrolling a scroll view reproduces: iOS's `UIScrollView` (the default) or Android's views
/// (OverScroller's fling, VelocityTracker's release velocity, the touch slop and EdgeEffect at the edges).
public enum Platform: String, Sendable, CaseIterable {
    case ios
    case android

    /// The platform's physics, new and at rest: the one place a platform chooses them.
    func makePhysics() -> any PlatformPhysics {
        switch self {
        case .ios: IOSPhysics()
        case .android: AndroidPhysics()
        }
    }
}

/// One platform's scrolling, which a `ScrollView` is given (`ScrollView.usePhysics(of:)`) and asks at every point
/// where platforms differ: when a finger starts to move the content and how it maps the finger's travel (iOS's
/// rubber band, Android's touch slop and edges), how the finger's release velocity is estimated, what moves the
/// content after the finger lifts, and what happens at the edges (iOS's bounce, Android's edge effect). The view
/// keeps what every platform shares (the offset, the insets, the touch's state, the motion on each axis, a pull
/// handed to a refresh header) and never asks which platform it is on; a third platform is one new type.
///
/// An object holds its own state (the drag's anchor, a fling caught for the flywheel, the edge effects), so it
/// belongs to one scroll view. Its calls take that view and change it through the view's own members; they run on
/// every touch and frame, so they allocate nothing.
protocol PlatformPhysics: AnyObject {
    /// The release-velocity estimator the finger's samples go to (`PanTracker`): a new one, empty.
    func makeVelocityEstimator() -> any VelocityEstimator

    /// A finger touches `view` at `location`; the vertical motion it stopped was `interrupted`. Returns whether the
    /// touch drags at once, as a finger catching a fling does on Android.
    func touchBegan(_ view: ScrollView, at location: Point, interrupting interrupted: AxisMotion) -> Bool
    /// The finger moved to `location` (the pan tracker has the sample): moves the content, or not yet.
    func touchMoved(_ view: ScrollView, to location: Point)
    /// The finger lifts at `location` at `time`: the physics ends the touch with `ScrollView.finishTouch(releasing:)`,
    /// giving it the content's velocity.
    func touchEnded(_ view: ScrollView, at location: Point, time: Double)
    /// The touch is over (lifted or cancelled), just before the content is released: what the finger held lets go.
    func touchFinished(_ view: ScrollView, at time: Double)
    /// The content's velocity while a finger holds it, in points per second.
    func trackingVelocity(_ view: ScrollView) -> Point
    /// Restarts whatever maps the finger to the content from where the content is now, so that a change of bounds
    /// or offset under the finger moves nothing on screen.
    func rebaseDrag(_ view: ScrollView)
    /// The edges moved under a finger that holds the content (an inset on its way), outside a held top: the physics
    /// keeps what the finger holds where it is on screen.
    func edgesDidMoveUnderFinger(_ view: ScrollView)
    /// The offset on `axis` shown for content a finger or the wheel would have moved to `travel`: the drag mapping
    /// (iOS's rubber band past the edges; Android's content stops at them).
    func offset(_ view: ScrollView, forTravel travel: Double, _ axis: Axis) -> Double

    /// What moves `axis` after a release from `position` at `velocity` (points, points per second), or nothing.
    func releaseSimulation(_ view: ScrollView, _ axis: Axis, position: Double, velocity: Double) -> (any AxisSimulation)?
    /// The vertical motion `finished` is over: an edge may take what it carried.
    func verticalMotionEnded(_ view: ScrollView, _ finished: AxisMotion)
    /// Whether an offset animation started from code on the timeline of a release (a refresh control's, begun at or
    /// before it) replaces the release's own motion from where that motion began, so that the frame the release
    /// moved the content is never shown: Android's refresh layouts decide at the release where the content goes
    /// (SmartRefreshLayout's `overSpinner`, docs/reference.md §5). Otherwise the animation starts where the content is.
    var offsetAnimationReplacesRelease: Bool { get }

    /// Advances what the physics animates on its own (Android's edge effects) to `time`, once a frame.
    func advance(_ view: ScrollView, to time: Double)
    /// True while the physics animates something on its own: the window must keep drawing.
    var isAnimating: Bool { get }
    /// The edge effect at `edge` of the vertical axis, to draw; `.none` on a platform without one.
    func edgeEffect(_ edge: ScrollEdge) -> EdgeEffectState
    /// Whether a pull past the top goes to a refresh header before the list's own overscroll, as Android's nested
    /// scrolling gives it to the refresh layout (docs/reference.md §5): the header then takes it only while it can
    /// start a refresh, and a header that pushes the content moves it with a `TopPullLayout`. Otherwise the
    /// overscroll shows the pull, and a floating header holds the content at its top (`holdsContentAtTop`).
    var passesTopPullToHeader: Bool { get }
}

/// What a platform without edge effects or a refresh layout of its own does: nothing of its own at the edges.
extension PlatformPhysics {
    func touchFinished(_ view: ScrollView, at time: Double) {}
    func edgesDidMoveUnderFinger(_ view: ScrollView) {}
    func verticalMotionEnded(_ view: ScrollView, _ finished: AxisMotion) {}
    var offsetAnimationReplacesRelease: Bool { false }
    func advance(_ view: ScrollView, to time: Double) {}
    var isAnimating: Bool { false }
    func edgeEffect(_ edge: ScrollEdge) -> EdgeEffectState { .none }
    var passesTopPullToHeader: Bool { false }
}

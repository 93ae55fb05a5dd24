import Geometry

/// Android's scrolling, as its views have it (docs/reference.md §5): a drag starts past the touch slop, the release
/// velocity is VelocityTracker's least-squares fit (`LeastSquaresVelocity`), a fling follows OverScroller's spline and
/// adds the velocity of a fling it interrupts in the same direction (the flywheel), and the content never passes an
/// edge: the pull past it, or a fling into it, goes to the edge effect (`EdgeEffectModel`), the stretch or the glow.
/// A pull past the top goes to a refresh header first, as nested scrolling gives it to the refresh layout: a
/// floating header holds the content at its top (`ScrollView.holdsContentAtTop`), one that pushes the content moves
/// it with its `TopPullLayout`.
///
/// Its pixel figures (OverScroller's, EdgeEffect's) are read at the view's `displayScale`, the phone's density.
final class AndroidPhysics: PlatformPhysics {
    /// How often, while a finger holds a caught fling, its velocity is checked to keep the flywheel: 40 ms
    /// (AbsListView's `FLYWHEEL_TIMEOUT`, docs/reference.md §5).
    static let flywheelCheckInterval = 0.040

    /// The stretch (Android 12 and later, the default) or the glow of earlier versions.
    let edgeEffectKind: EdgeEffectKind
    /// The edge effects at the top and the bottom of the vertical axis.
    private var edges: (top: EdgeEffectModel, bottom: EdgeEffectModel)
    /// Where the finger was at the last move (shifted by the touch slop when the drag started).
    private var lastFinger = Point.zero
    /// The fling a finger caught, kept while the flywheel may still add its velocity, and the time of the next
    /// check of the finger's velocity.
    private var flywheel: (motion: AxisMotion, nextCheck: Double)?

    init(edgeEffectKind: EdgeEffectKind = .stretch) {
        self.edgeEffectKind = edgeEffectKind
        edges = (EdgeEffectModel(kind: edgeEffectKind), EdgeEffectModel(kind: edgeEffectKind))
    }

    func makeVelocityEstimator() -> any VelocityEstimator { LeastSquaresVelocity() }

    var offsetAnimationReplacesRelease: Bool { true }
    var passesTopPullToHeader: Bool { true }

    // MARK: Touches

    /// A finger goes down: it catches a showing stretch and a running fling (the flywheel's candidate); either
    /// makes the touch a drag at once, with no slop, as Android's ScrollView does.
    func touchBegan(_ view: ScrollView, at location: Point, interrupting interrupted: AxisMotion) -> Bool {
        let time = view.currentTime, glow = glowHeight(view)
        lastFinger = location
        let showing = !edges.top.isFinished || !edges.bottom.isFinished
        edges.top.catchStretch(at: time, glowHeight: glow)
        edges.bottom.catchStretch(at: time, glowHeight: glow)
        let flinging = interrupted.kind(at: time) == .momentum && interrupted.sample(at: time)?.done == false
        flywheel = nil
        if flinging { flywheel = (interrupted, time + Self.flywheelCheckInterval) }
        // Content a refresh layout pulled down, caught on its way back: the finger holds it where it is.
        if let layout = view.topPullLayout, view.contentOffset.y < view.minOffset(.vertical) {
            view.topPullTravel = layout.travel(forDistance: view.minOffset(.vertical) - view.contentOffset.y,
                                               height: view.boundsSize.height)
        }
        return showing || flinging
    }

    /// The finger moves: once past the touch slop the content follows it, never past an edge; a pull past an edge
    /// goes to its edge effect (or to `topPullTravel` at a held top), and a push back takes from them first.
    func touchMoved(_ view: ScrollView, to location: Point) {
        checkFlywheel(view, until: view.currentTime)
        if !view.isDragging {
            let travel = location - view.panTracker.startLocation, slop = view.physics.androidTouchSlop
            var started = false
            for axis in Axis.allCases where view.canScroll(axis) && abs(travel[axis]) > slop {
                lastFinger[axis] += travel[axis] > 0 ? slop : -slop
                started = true
            }
            guard started else { return }
            view.isDragging = true
        }
        let delta = lastFinger - location
        lastFinger = location
        var offset = view.contentOffset
        for axis in Axis.allCases where view.canScroll(axis) {
            offset[axis] = scroll(view, offset[axis], by: delta[axis], axis)
        }
        view.contentOffset = offset
    }

    /// The finger lifts: a release faster than the minimum fling velocity flings (adding the caught fling's
    /// velocity when the flywheel still holds and the directions agree, OverScroller's rule); the edge effects recede.
    func touchEnded(_ view: ScrollView, at location: Point, time: Double) {
        if location != view.panTracker.location {
            view.touchMoved(to: location, time: time)
        } else {
            view.advanceTime(to: time)
        }
        checkFlywheel(view, until: view.currentTime)
        let finger = view.panTracker.releaseVelocity(at: time)
        var velocity = Point.zero
        for axis in Axis.allCases where view.isDragging && view.canScroll(axis) {
            let v = -finger[axis], position = view.contentOffset[axis]
            let canFling = (position > view.minOffset(axis) || v > 0) && (position < view.maxOffset(axis) || v < 0)
            if abs(v) > view.physics.androidMinFlingVelocity && canFling { velocity[axis] = v }
        }
        if let wheel = flywheel, let old = wheel.motion.sample(at: view.currentTime), !old.done,
           velocity.y != 0, (velocity.y > 0) == (old.velocity > 0) {
            velocity.y += old.velocity
        }
        view.finishTouch { velocity }
    }

    func touchFinished(_ view: ScrollView, at time: Double) {
        flywheel = nil
        edges.top.release(at: time)
        edges.bottom.release(at: time)
    }

    /// The finger's velocity, against it; content a refresh layout pulls moves at the slope of its damped drag.
    func trackingVelocity(_ view: ScrollView) -> Point {
        let finger = view.panTracker.velocity
        var velocity = view.contentVelocity(following: finger)
        if let layout = view.topPullLayout, view.topPullTravel > 0 {
            velocity.y = -finger.y * layout.slope(atTravel: view.topPullTravel, height: view.boundsSize.height)
        }
        return velocity
    }

    /// The drag counts from the finger's last move, not from an anchor: nothing to rebase.
    func rebaseDrag(_ view: ScrollView) {}

    /// Content a refresh layout pulls stays under the finger: the travel is what shows it there from the new top.
    func edgesDidMoveUnderFinger(_ view: ScrollView) {
        guard let layout = view.topPullLayout, view.topPullTravel > 0 else { return }
        view.topPullTravel = layout.travel(forDistance: view.minOffset(.vertical) - view.contentOffset.y,
                                           height: view.boundsSize.height)
    }

    /// The content stops at its edges (the edge effect shows the pull instead).
    func offset(_ view: ScrollView, forTravel travel: Double, _ axis: Axis) -> Double {
        Swift.min(Swift.max(travel, view.minOffset(axis)), view.maxOffset(axis))
    }

    /// `offset` moved by `delta` (positive scrolls towards the end) on `axis`, with the vertical edges' effects. A
    /// header's layout takes a pull past the top first (nested scrolling's post-scroll) and gives its travel back
    /// first on the way up (pre-scroll); the top's edge effect takes the pull only when no header does.
    private func scroll(_ view: ScrollView, _ offset: Double, by delta: Double, _ axis: Axis) -> Double {
        let layout = axis == .vertical ? view.topPullLayout : nil
        // Content a layout holds past the top counts, for the list, as at its top.
        let listOffset = layout != nil && view.topPullTravel > 0 ? view.minOffset(axis) : offset
        // Content already outside its edges (an inset on its way) moves freely back towards them.
        let lo = Swift.min(view.minOffset(axis), listOffset), hi = Swift.max(view.maxOffset(axis), listOffset)
        guard axis == .vertical else { return Swift.min(Swift.max(listOffset + delta, lo), hi) }
        let height = view.boundsSize.height, time = view.currentTime, glow = glowHeight(view)
        let headerTakesPull = view.holdsTop || layout != nil
        var d = delta
        if d > 0 && headerTakesPull && view.topPullTravel > 0 {
            let back = Swift.min(d, view.topPullTravel)
            view.topPullTravel -= back
            d -= back
        }
        if d > 0 && edges.top.distance > 0 {
            d += height * edges.top.pull(-d / height, at: time, glowHeight: glow)
        } else if d < 0 && edges.bottom.distance > 0 {
            d -= height * edges.bottom.pull(d / height, at: time, glowHeight: glow)
        }
        let moved = listOffset + d
        var shown = moved
        if moved < lo {
            if headerTakesPull {
                view.topPullTravel += lo - moved
                edges.top.release(at: time)
            } else if view.bounces {
                _ = edges.top.pull((lo - moved) / height, at: time, glowHeight: glow)
            }
            edges.bottom.release(at: time)
            shown = lo
        } else if moved > hi {
            if view.bounces { _ = edges.bottom.pull((moved - hi) / height, at: time, glowHeight: glow) }
            edges.top.release(at: time)
            shown = hi
        }
        if let layout, view.topPullTravel > 0 {
            return view.minOffset(axis) - layout.distance(forTravel: view.topPullTravel, height: height)
        }
        return shown
    }

    /// The flywheel's checks up to `time`: every 40 ms from the touch the finger must still move at the minimum
    /// fling velocity in the caught fling's direction, or the flywheel is lost (AbsListView's `mCheckFlywheel`).
    private func checkFlywheel(_ view: ScrollView, until time: Double) {
        while let wheel = flywheel, wheel.nextCheck <= time {
            let fingerDirection = -view.panTracker.velocity.y
            guard let s = wheel.motion.sample(at: wheel.nextCheck), !s.done,
                  abs(fingerDirection) >= view.physics.androidMinFlingVelocity,
                  (fingerDirection > 0) == (s.velocity > 0) else {
                flywheel = nil
                return
            }
            flywheel = (wheel.motion, wheel.nextCheck + Self.flywheelCheckInterval)
        }
    }

    // MARK: Release

    /// OverScroller's spring back from outside the edges (content placed there by code), along the refresh layout's
    /// rebound for content it pulled down, else its spline fling, stopped at an edge it would pass.
    func releaseSimulation(_ view: ScrollView, _ axis: Axis, position: Double, velocity: Double) -> (any AxisSimulation)? {
        let lo = view.minOffset(axis), hi = view.maxOffset(axis)
        if axis == .vertical, position < lo, let layout = view.topPullLayout {
            return ViscousReturnSimulation(duration: layout.returnDuration, from: position, to: lo)
        }
        if position < lo || position > hi {
            guard view.bounces else { return nil }
            return CubicSpringBackSimulation(from: position, to: position < lo ? lo : hi, density: view.displayScale)
        }
        guard velocity != 0 else { return nil }
        let fling = AndroidFling(friction: view.physics.androidScrollFriction, density: view.displayScale)
        return fling.simulation(start: position, velocity: velocity, limit: lo...hi)
    }

    /// A fling that an edge stopped gives its velocity there to that edge's effect (RecyclerView's `absorbGlows`),
    /// at the top too whatever header is there: the refresh layouts take touches, not a list's coasting fling
    /// (docs/reference.md §5).
    func verticalMotionEnded(_ view: ScrollView, _ finished: AxisMotion) {
        guard let impact = finished.simulation?.edgeImpact, view.bounces else { return }
        let time = finished.start + impact.time
        let speed = abs(impact.velocity) * view.displayScale
        let factor = view.physics.androidAbsorbVelocityFactor
        if impact.position <= view.minOffset(.vertical) {
            edges.top.absorb(pixelVelocity: speed, at: time, factor: factor)
        } else {
            edges.bottom.absorb(pixelVelocity: speed, at: time, factor: factor)
        }
    }

    // MARK: Edges

    func advance(_ view: ScrollView, to time: Double) {
        let height = pixelHeight(view), glow = glowHeight(view)
        let spring = (frequency: view.physics.androidStretchFrequency, damping: view.physics.androidStretchDampingRatio)
        edges.top.advance(to: time, height: height, glowHeight: glow, spring: spring)
        edges.bottom.advance(to: time, height: height, glowHeight: glow, spring: spring)
    }

    var isAnimating: Bool { !edges.top.isFinished || !edges.bottom.isFinished }

    func edgeEffect(_ edge: ScrollEdge) -> EdgeEffectState {
        (edge == .top ? edges.top : edges.bottom).snapshot()
    }

    /// The view's height in the phone's pixels, which EdgeEffect measures in.
    private func pixelHeight(_ view: ScrollView) -> Double { view.boundsSize.height * view.displayScale }

    /// The glow's full height, in pixels.
    private func glowHeight(_ view: ScrollView) -> Double {
        EdgeEffectModel.glowBoundsHeight(width: view.boundsSize.width * view.displayScale, height: pixelHeight(view))
    }
}

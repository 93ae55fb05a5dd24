import Geometry
import Motion

/// iOS's scrolling, as `UIScrollView` has it (docs/reference.md §2): the content follows the finger 1:1 from its
/// first move, and past an edge through the rubber band; the release velocity is the weighted mean of the last
/// sample pairs (`WeightedPairsVelocity`); a release flings the content with exponential momentum that hands over to
/// the critically damped bounce spring where it crosses an edge, and a release past an edge snaps back on the same
/// spring.
final class IOSPhysics: PlatformPhysics {
    /// Where the finger was when the drag was last rebased, and the content's offset then with the rubber band
    /// undone: the content follows the finger 1:1 in this unbanded space and the band is applied afterwards.
    private var dragAnchor = (finger: Point.zero, unbandedOffset: Point.zero)

    func makeVelocityEstimator() -> any VelocityEstimator { WeightedPairsVelocity() }

    /// A touch catches the content where it is; it drags from its first move.
    func touchBegan(_ view: ScrollView, at location: Point, interrupting interrupted: AxisMotion) -> Bool { false }

    /// The content follows the finger 1:1 inside its bounds and through the rubber band past them; at a held top
    /// the travel past it goes to `topPullTravel`.
    func touchMoved(_ view: ScrollView, to location: Point) {
        let travel = location - dragAnchor.finger
        if travel != .zero && !view.isDragging { view.isDragging = true }
        var offset = view.contentOffset
        for axis in Axis.allCases where view.canScroll(axis) {
            offset[axis] = self.offset(view, forTravel: dragAnchor.unbandedOffset[axis] - travel[axis], axis)
        }
        view.contentOffset = offset
        if view.holdsTop && view.canScroll(.vertical) {
            view.topPullTravel = Swift.max(0, view.minOffset(.vertical) - (dragAnchor.unbandedOffset.y - travel.y))
        }
    }

    /// The finger lifts: a release at the fling velocity or faster flings, with the content's velocity (past an edge
    /// the band's slope times the finger's); any other lets an overscroll snap back.
    func touchEnded(_ view: ScrollView, at location: Point, time: Double) {
        view.touchMoved(to: location, time: time)
        let fingerVelocity = view.panTracker.velocity
        let isFling = view.isDragging && fingerVelocity.length >= view.physics.minFlingVelocity
        view.finishTouch {
            var velocity = Point.zero
            let coefficient = view.physics.rubberBandCoefficient
            for axis in Axis.allCases where isFling && view.canScroll(axis) {
                // The content moves against the finger; past an edge it moved at the band's slope.
                let over = view.overscroll(view.contentOffset[axis], axis), d = view.boundsSize[axis]
                let travel = RubberBand.travel(forOffset: over, dimension: d, coefficient: coefficient)
                let slope = over == 0 ? 1 : RubberBand.slope(atTravel: travel, dimension: d, coefficient: coefficient)
                velocity[axis] = -fingerVelocity[axis] * slope
            }
            return velocity
        }
    }

    func trackingVelocity(_ view: ScrollView) -> Point {
        view.contentVelocity(following: view.panTracker.velocity)
    }

    func rebaseDrag(_ view: ScrollView) {
        let offset = view.contentOffset
        dragAnchor = (view.panTracker.location,
                      Point(view.travel(showing: offset.x, .horizontal),
                            view.travel(showing: offset.y, .vertical) - view.topPullTravel))
    }

    /// Itself inside the bounds, the rubber band past them (at the edge when the view does not bounce there).
    func offset(_ view: ScrollView, forTravel u: Double, _ axis: Axis) -> Double {
        let lo = view.minOffset(axis), hi = view.maxOffset(axis)
        let d = view.boundsSize[axis], c = view.physics.rubberBandCoefficient
        if u < lo {
            return view.bouncesAtStart(axis) ? lo + RubberBand.offset(forTravel: u - lo, dimension: d, coefficient: c) : lo
        }
        if u > hi { return view.bounces ? hi + RubberBand.offset(forTravel: u - hi, dimension: d, coefficient: c) : hi }
        return u
    }

    /// The snap-back spring from past an edge; momentum inside the bounds, handing over to the bounce spring at the
    /// time its projection crosses an edge (docs/reference.md §2).
    func releaseSimulation(_ view: ScrollView, _ axis: Axis, position: Double, velocity: Double) -> (any AxisSimulation)? {
        let lo = view.minOffset(axis), hi = view.maxOffset(axis)
        let physics = view.physics
        let epsilon = physics.bounceRestPixels / Swift.max(view.displayScale, 1)
        let bounce = physics.bounceSpring
        if position < lo || position > hi {
            let edge = position < lo ? lo : hi
            guard view.bounces else { return nil }
            let spring = bounce.motion(from: position, to: edge, initialVelocity: velocity)
            return SpringBackSimulation(spring: spring, settle: spring.settlingTime(epsilon: epsilon))
        }
        guard velocity != 0 else { return nil }
        let decay = Decay(start: position, initialVelocity: velocity,
                          rate: physics.deceleration(for: view.decelerationRate))
        let stop = decay.duration()
        let rest = decay.restingPoint
        let crossedEdge: Double? = rest < lo ? lo : rest > hi ? hi : nil
        // The limit only matters when the projection passes an edge by less than the stop distance.
        guard let edge = crossedEdge, let crossing = decay.time(toReach: edge), crossing < stop else {
            return MomentumSimulation(decay: decay, stopTime: stop, limit: lo...hi)
        }
        guard edge == lo ? view.bouncesAtStart(axis) : view.bounces else {
            return MomentumSimulation(decay: decay, stopTime: crossing, limit: lo...hi)
        }
        let spring = bounce.motion(from: edge, to: edge, initialVelocity: decay.velocity(at: crossing))
        let momentum = MomentumSimulation(decay: decay, stopTime: .infinity, limit: nil)
        let back = SpringBackSimulation(spring: spring, settle: spring.settlingTime(epsilon: epsilon))
        return HandOffSimulation(first: momentum, time: crossing, second: back)
    }
}

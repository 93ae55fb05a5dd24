import Geometry
import Testing
@testable import Scrolling

// The scroll view asks the physics it is given, and a change of physics carries nothing of the old ones over.

private let frame = 1.0 / 60

/// A third platform, made up here: the content moves at twice the finger's travel and stops at its edges, a touch
/// drags at once, the finger's velocity is always `GlideVelocity.velocity`, a release glides on at the content's
/// velocity for `glideDuration` and stops, the top's edge effect counts the frames it was advanced, and a pull past
/// the top goes to the header first.
private final class GlidePhysics: PlatformPhysics {
    static let glideDuration = 0.5
    private var anchor = (finger: Point.zero, offset: Point.zero)
    private(set) var frames = 0
    var animatesEdge = false

    func makeVelocityEstimator() -> any VelocityEstimator { GlideVelocity() }
    func touchBegan(_ view: ScrollView, at location: Point, interrupting interrupted: AxisMotion) -> Bool { true }

    func touchMoved(_ view: ScrollView, to location: Point) {
        let travel = location - anchor.finger
        view.contentOffset = Point(view.contentOffset.x,
                                   offset(view, forTravel: anchor.offset.y - 2 * travel.y, .vertical))
    }

    func touchEnded(_ view: ScrollView, at location: Point, time: Double) {
        view.touchMoved(to: location, time: time)
        view.finishTouch { Point.zero - view.panTracker.velocity }
    }

    func trackingVelocity(_ view: ScrollView) -> Point { view.panTracker.velocity * -2 }
    func rebaseDrag(_ view: ScrollView) { anchor = (view.panTracker.location, view.contentOffset) }

    func offset(_ view: ScrollView, forTravel travel: Double, _ axis: Axis) -> Double {
        min(max(travel, view.minOffset(axis)), view.maxOffset(axis))
    }

    func releaseSimulation(_ view: ScrollView, _ axis: Axis, position: Double, velocity: Double) -> (any AxisSimulation)? {
        velocity == 0 ? nil : Glide(start: position, velocity: velocity, duration: Self.glideDuration)
    }

    func advance(_ view: ScrollView, to time: Double) { frames += 1 }
    var isAnimating: Bool { animatesEdge }
    func edgeEffect(_ edge: ScrollEdge) -> EdgeEffectState {
        edge == .top ? EdgeEffectState(distance: Double(frames)) : .none
    }
    var passesTopPullToHeader: Bool { true }
}

/// The made-up platform's velocity estimate: the same whatever the samples.
private struct GlideVelocity: VelocityEstimator {
    static let velocity = Point(0, -400)
    mutating func removeAll() {}
    mutating func add(_ location: Point, time: Double, clockRate: Double, physics: PhysicsStyle) {}
    func velocity(clockRate: Double, physics: PhysicsStyle) -> Point { Self.velocity }
    func releaseVelocity(at time: Double, clockRate: Double, physics: PhysicsStyle) -> Point { Self.velocity }
}

/// A constant velocity for `duration`, then rest.
private struct Glide: AxisSimulation {
    let start: Double, velocity: Double, duration: Double

    func sample(at t: Double) -> AxisSample {
        t >= duration ? AxisSample(position: start + velocity * duration, velocity: 0, done: true)
            : AxisSample(position: start + velocity * t, velocity: velocity, done: false)
    }

    func kind(at t: Double) -> ScrollMotion { .momentum }
}

/// A 375×603 pt list of 3000 pt, at `offset`.
private func list(at offset: Double = 0) -> ScrollView {
    let view = ScrollView(boundsSize: Size(375, 603), contentSize: Size(375, 3000))
    view.setContentOffset(Point(0, offset))
    return view
}

@Suite("The platform's physics, given to the scroll view")
struct PlatformPhysicsTests {
    @Test("A third platform's physics drive the drag, the finger's velocity, the release, the wheel and the edge")
    func aThirdPlatformDrivesTheView() {
        let view = list(at: 1000)
        let glide = GlidePhysics()
        view.usePhysics(glide)
        #expect(view.passesTopPullToHeader)
        view.touchBegan(at: Point(100, 300), time: 0)
        #expect(view.isDragging, "the made-up platform drags at once")
        view.touchMoved(to: Point(100, 290), time: 0.01)
        // Twice the finger's 10 pt; the samples say 1000 pt/s up, the made-up estimator 400.
        #expect(view.contentOffset.y == 1020)
        #expect(view.panTracker.velocity == GlideVelocity.velocity && view.velocity == Point(0, 800))
        view.touchEnded(at: Point(100, 290), time: 0.02)
        // Released at 400 pt/s: a glide of half a second from 1020, 100 pt after 0.25 s, 200 in all.
        view.step(to: 0.27)
        #expect(abs(view.contentOffset.y - 1120) < 1e-9)
        #expect(view.runningMotion == .momentum && view.isDecelerating && view.velocity == Point(0, 400))
        view.step(to: 1)
        #expect(view.contentOffset.y == 1220 && !view.isDecelerating && !view.isAnimating)
        // The edge effect and the animation the view reports are the physics'.
        #expect(glide.frames == 2 && view.edgeEffect(.top) == EdgeEffectState(distance: 2))
        glide.animatesEdge = true
        #expect(view.isAnimating)
        glide.animatesEdge = false
        // The wheel goes through the platform's mapping: it stops at the end, with no rubber band.
        view.scrollWheel(by: Point(0, 5000), time: 1.1)
        #expect(view.contentOffset.y == view.maxContentOffset.y)
    }

    @Test("A fling under way stops where it is when the platform changes: Android's touch then catches nothing")
    func aFlingDoesNotCarryOver() {
        let view = list(at: 300)
        view.touchBegan(at: Point(100, 400), time: 0)
        for i in 1...5 { view.touchMoved(to: Point(100, 400 - 30 * Double(i)), time: Double(i) * frame) }
        view.touchEnded(at: Point(100, 250), time: 5 * frame)
        view.step(to: 8 * frame)
        #expect(view.runningMotion == .momentum)
        let at = view.contentOffset
        view.displayScale = 2.625
        view.usePhysics(of: .android)
        #expect(view.platformPhysics is AndroidPhysics)
        #expect(!view.isDecelerating && view.runningMotion == .none && view.contentOffset == at)
        view.step(to: 20 * frame)
        #expect(view.contentOffset == at && !view.isAnimating)
        // No fling is caught (no flywheel, no drag at once), and 5 pt is inside Android's 8 dp slop.
        view.touchBegan(at: Point(100, 300), time: 21 * frame)
        #expect(!view.isDragging)
        view.touchMoved(to: Point(100, 295), time: 22 * frame)
        #expect(view.contentOffset == at && !view.isDragging)
    }

    @Test("A stretch held on Android ends with its physics: iOS's rubber band takes the next pull")
    func aStretchDoesNotCarryOver() {
        let view = list()
        view.displayScale = 2.625
        view.usePhysics(of: .android)
        view.touchBegan(at: Point(100, 200), time: 0)
        for i in 1...6 { view.touchMoved(to: Point(100, 200 + 10 * Double(i)), time: Double(i) * frame) }
        #expect(view.edgeEffect(.top).distance > 0 && view.contentOffset.y == 0)
        view.displayScale = ScrollView.iOSDisplayScale
        view.usePhysics(of: .ios)
        #expect(!view.isTracking && !view.isDragging && view.edgeEffect(.top) == .none)
        #expect(!view.isAnimating && view.contentOffset.y == 0)
        view.touchBegan(at: Point(100, 200), time: 7 * frame)
        view.touchMoved(to: Point(100, 300), time: 8 * frame)
        #expect(abs(view.contentOffset.y + RubberBand.offset(forTravel: 100, dimension: 603)) < 1e-9)
    }

    @Test("Content held past the top, by a finger or the wheel, when the platform changes returns by the new platform's rule",
          arguments: [false, true])
    func contentPastTheTopReturnsByTheNewRule(byWheel: Bool) {
        let view = list()
        if byWheel {
            view.scrollWheel(by: Point(0, -120), time: frame)
        } else {
            view.touchBegan(at: Point(100, 200), time: 0)
            view.touchMoved(to: Point(100, 320), time: frame)
        }
        let over = view.contentOffset.y
        #expect(over < 0)
        view.displayScale = 2.625
        view.usePhysics(of: .android)
        // OverScroller's spring back from the switch on (not iOS's snap-back when the wheel would have ended):
        // 3u² − 2u³ over ⌊1000·√(2·px/2000)⌋ ms, px the overscroll in pixels.
        let duration = (1000 * (2 * -over * 2.625 / 2000).squareRoot()).rounded(.towardZero) / 1000
        #expect(!view.isTracking && view.runningMotion == .spring && view.contentOffset.y == over)
        view.step(to: frame + duration / 2)
        #expect(abs(view.contentOffset.y - over / 2) < 1e-9)
        view.step(to: frame + duration)
        #expect(view.contentOffset.y == 0 && !view.isDecelerating)
    }

    @Test("The finger's velocity is the new platform's estimate: 1125 pt/s on iOS, 2500 on Android, from the same samples")
    func theEstimatorIsTheNewPlatforms() {
        // y = 0, 10, 30 at 0, 10 and 20 ms. iOS: pairs of 1000 and 2000 pt/s weighted 0.35 and 0.05, scaled to
        // sum to 1: (350 + 100)/0.4 = 1125. Android: the parabola through them, y = 50000·t² + 500·t, has the
        // slope 2·50000·0.02 + 500 = 2500 at the newest.
        func velocity(_ view: ScrollView) -> Double {
            view.touchBegan(at: Point(100, 0), time: 10)
            view.touchMoved(to: Point(100, 10), time: 10.01)
            view.touchMoved(to: Point(100, 30), time: 10.02)
            defer { view.touchCancelled(time: 10.03) }
            return view.panTracker.velocity.y
        }
        let view = list(at: 1000)
        #expect(abs(velocity(view) - 1125) < 1e-6)
        view.usePhysics(of: .android)
        #expect(abs(velocity(view) - 2500) < 1e-6)
        view.usePhysics(of: .ios)
        #expect(abs(velocity(view) - 1125) < 1e-6)
    }
}

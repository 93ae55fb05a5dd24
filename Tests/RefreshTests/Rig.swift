import Geometry
import Layers
@testable import Refresh
@testable import Scrolling

/// A tiny effect that only records what the controller tells it.
final class RecordingEffect: RefreshEffect {
    let metrics: RefreshMetrics
    let layer = Layer()
    private(set) var transitions: [(from: RefreshState, to: RefreshState, time: Double)] = []
    private(set) var lastPull: RefreshPull?
    private(set) var pullCount = 0
    weak var control: RefreshControl?

    init(metrics: RefreshMetrics = RefreshMetrics()) {
        self.metrics = metrics
    }

    func update(pull: RefreshPull) {
        lastPull = pull
        pullCount += 1
    }

    func transition(from old: RefreshState, to new: RefreshState, pull: RefreshPull) {
        transitions.append((old, new, pull.time))
    }

    func didMove(to control: RefreshControl?) {
        self.control = control
    }
}

/// A phone-sized scroll view with a control on it, driven frame by frame by a scripted finger at 60 frames a second.
final class Rig {
    static let frame = 1.0 / 60
    static let viewport = Size(375, 600)
    static let fingerX = 187.0
    static let fingerStart = 100.0

    let scrollView: ScrollView
    let control: RefreshControl
    var time = 0.0
    var fingerY = Rig.fingerStart
    /// Every state the control entered, in order.
    var states: [RefreshState] = []
    var actions = 0
    var cues = 0

    /// Android's density on the Pixel 8: the Android rig measures its physics in its pixels.
    static let androidDensity = 2.625

    init(effect: any RefreshEffect = RecordingEffect(), topInset: Double = 0, contentHeight: Double = 2000,
         attach: Bool = true, platform: Platform = .ios) {
        scrollView = ScrollView(boundsSize: Rig.viewport, contentSize: Size(375, contentHeight),
                                contentInset: EdgeInsets(top: topInset))
        if platform == .android {
            scrollView.usePhysics(of: .android)
            scrollView.displayScale = Rig.androidDensity
        }
        control = RefreshControl(effect: effect, dateSource: { RefreshDate(year: 2024, month: 5, day: 17, hour: 10, minute: 32) })
        control.stateDidChange = { [unowned self] _, new in states.append(new) }
        control.action = { [unowned self] in actions += 1 }
        control.cue = { [unowned self] in cues += 1 }
        if attach { control.attach(to: scrollView) }
    }

    /// The scroll view's own top inset, without the control's.
    var baseTop: Double { scrollView.contentInset.top - control.addedInset }

    /// Advances `count` frames with no input.
    func run(_ count: Int = 1) {
        for _ in 0..<count {
            time += Rig.frame
            scrollView.step(to: time)
            control.step(to: time)
        }
    }

    /// Runs frames until `seconds` have passed.
    func run(seconds: Double) {
        run(Int((seconds / Rig.frame).rounded(.up)))
    }

    func touchDown() {
        fingerY = Rig.fingerStart
        scrollView.touchBegan(at: Point(Rig.fingerX, fingerY), time: time)
    }

    /// Moves the finger to `y` within one frame.
    func move(toFingerY y: Double) {
        time += Rig.frame
        fingerY = y
        scrollView.touchMoved(to: Point(Rig.fingerX, y), time: time)
        scrollView.step(to: time)
        control.step(to: time)
    }

    /// From a touch-down with the content at rest at its top, moves the finger so the pull is `distance`.
    func pull(to distance: Double) {
        move(toFingerY: Rig.fingerStart + fingerTravel(forPull: distance))
    }

    /// How far the finger travels down past the top for a pull of `distance`: through the rubber band for a header
    /// that pushes the content, by the drag rate for a floating one; on Android through the refresh layout's damped
    /// drag for one that pushes, and after the touch slop, which the drag does not count.
    func fingerTravel(forPull distance: Double) -> Double {
        let android = scrollView.platformPhysics is AndroidPhysics
        let slop = android ? scrollView.physics.androidTouchSlop : 0
        if let floating = control.metrics.placement.floating { return distance / floating.dragRate + slop }
        if android {
            return control.pushLayout.travel(forDistance: distance, height: Rig.viewport.height) + slop
        }
        return -RubberBand.travel(forOffset: -distance, dimension: Rig.viewport.height)
    }

    /// Holds the finger still long enough that the release is not a fling, then lifts it and runs a frame.
    func release() {
        lift()
        run()
    }

    /// Holds the finger still long enough that the release is not a fling, then lifts it within the same frame;
    /// returns the time it lifted.
    @discardableResult
    func lift() -> Double {
        for _ in 0..<8 { move(toFingerY: fingerY) }
        scrollView.touchEnded(at: Point(Rig.fingerX, fingerY), time: time)
        return time
    }
}

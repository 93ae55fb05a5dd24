import Benchmark
import Geometry
import Layers
import Motion
import Raster
import Refresh
import Scrolling

/// One header effect on a phone-wide scroll view, driven to a pull or a refresh and drawn at scale 2: the cost of
/// the header alone, which must stay under 0.3 ms a frame.
final class HeaderBench {
    /// Pixels per point, the phone's.
    static let scale = 2.0
    /// The header's part of the screen, in points: the tallest pull shown.
    static let height = 160.0
    static let frame = 1.0 / 60

    let clock = SimulatedClock()
    let scrollView = ScrollView(boundsSize: Size(375, 603), contentSize: Size(375, 4000))
    let control: RefreshControl
    let renderer = LayerRenderer()
    let canvas = Canvas(width: 750, height: Int(HeaderBench.height * HeaderBench.scale), fill: .white)

    init(effect name: String) {
        control = RefreshControl(effect: RefreshEffects.make(name)!)
        control.headerLayer.animator = Animator(clock: clock)
        control.attach(to: scrollView)
    }

    /// Drags the content down until the pull is `pull` points and holds it there.
    func hold(pull: Double) {
        scrollView.touchBegan(at: Point(187, 100), time: clock.now)
        let travel = -RubberBand.travel(forOffset: -pull, dimension: 603)
        for i in 1...20 {
            clock.advance(by: HeaderBench.frame)
            scrollView.touchMoved(to: Point(187, 100 + travel * Double(i) / 20), time: clock.now)
            step()
        }
    }

    /// Starts a refresh from code and runs a second of it.
    func refresh() {
        control.beginRefreshing()
        for _ in 0..<60 {
            clock.advance(by: HeaderBench.frame)
            step()
        }
    }

    func step() {
        scrollView.step(to: clock.now)
        control.step(to: clock.now)
    }

    /// Draws a second of frames, so that the renderer's buffers have grown to the largest area the moving header
    /// covers: what follows is the steady state.
    func warmUp() {
        for _ in 0..<60 { frameStep() }
    }

    /// One frame: a sixtieth of a second on, the header drawn over the list's background.
    func frameStep() {
        clock.advance(by: HeaderBench.frame)
        step()
        canvas.clear(to: .white)
        let offset = scrollView.contentOffset
        let transform = AffineTransform(translationX: -offset.x, y: -offset.y)
            .concatenating(AffineTransform(scaleX: HeaderBench.scale, y: HeaderBench.scale))
        control.headerLayer.render(into: canvas, at: clock.now, transform: transform, renderer: renderer)
    }
}

/// Every registered header effect, mid-pull (held at 60 % of its trigger distance) and mid-refresh.
let headerEffectBenchmarks: @Sendable () -> Void = {
    for name in RefreshEffects.names {
        Benchmark("header \(name) mid-pull",
                  configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2))) { benchmark in
            let bench = HeaderBench(effect: name)
            bench.hold(pull: bench.control.triggerDistance * 0.6)
            bench.warmUp()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { bench.frameStep() }
        }
        Benchmark("header \(name) mid-refresh",
                  configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2))) { benchmark in
            let bench = HeaderBench(effect: name)
            bench.refresh()
            bench.warmUp()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { bench.frameStep() }
        }
    }
}

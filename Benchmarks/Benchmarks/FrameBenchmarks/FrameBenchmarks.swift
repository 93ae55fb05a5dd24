import Benchmark
import Colors
import Geometry
import Lab
import Motion
import Refresh

/// Full frames of the simulator at 750×1334 (the phone at 2×), and on the largest phone at 1320×2868: the demo list's visible rows with their text, the
/// navigation bar, the footer and a header effect, run through the window's frame loop (`FrameLoop`: input, update,
/// draw, outputs, each phase timed) with no display to present to. Before measuring, every
/// frame shown is run once, so that the rows' texts and the glyphs are laid out and cached: the steady state must
/// allocate nothing.
let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]
    let configuration = Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(2), maxIterations: 2000)

    // Each bench is made and warmed once, outside the measured closure, so that every sample is a steady frame and
    // the time budget goes to samples rather than to set-up.
    let still = ListFrameBench(effect: Simulation.defaultEffectName)
    still.warm(frames: 10)
    Benchmark("list frame (750×1334)", configuration: configuration) { benchmark in
        let bench = still
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { bench.frame() }
    }

    let scrolling = ListFrameBench(effect: Simulation.defaultEffectName)
    scrolling.startScrolling()
    scrolling.warm(frames: ListFrameBench.scrollPeriod)
    Benchmark("list frame, scrolling with the finger (750×1334)", configuration: configuration) { benchmark in
        let bench = scrolling
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { bench.frame() }
    }

    let instrumented = ListFrameBench(effect: Simulation.defaultEffectName)
    instrumented.startScrolling()
    instrumented.simulation.showsFrameGraph = true
    instrumented.loop.trace = try? TraceWriter(path: "/dev/null")
    instrumented.warm(frames: ListFrameBench.scrollPeriod)
    Benchmark("list frame, scrolling, with the HUD and a trace (750×1334)", configuration: configuration) { benchmark in
        let bench = instrumented
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { bench.frame() }
    }

    for name in RefreshEffects.names {
        let held = ListFrameBench(effect: name)
        held.holdPull()
        held.warm(frames: 60)
        Benchmark("list frame, \(name) held mid-pull (750×1334)", configuration: configuration) { benchmark in
            let bench = held
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { bench.frame() }
        }
        let refreshing = ListFrameBench(effect: name)
        refreshing.simulation.autoEndsRefreshing = false
        refreshing.simulation.perform(.beginRefresh)
        // Past the toast, whose text is laid out when shown.
        refreshing.warm(frames: Int(Toast.duration * 60) + 60)
        Benchmark("list frame, \(name) refreshing (750×1334)", configuration: configuration) { benchmark in
            let bench = refreshing
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { bench.frame() }
        }
    }
    // The largest phone at 3× and 120 Hz, under the translucent bar (whose blur is the costliest bar): each header
    // refreshing must stay well inside the 8.33 ms a frame has there.
    let largest = Phone(model: .iPhone16ProMax, bar: .translucent)
    for name in RefreshEffects.names {
        let refreshing = ListFrameBench(effect: name, phone: largest)
        refreshing.simulation.autoEndsRefreshing = false
        refreshing.simulation.perform(.beginRefresh)
        refreshing.warm(frames: Int(Toast.duration * 120) + 120)
        Benchmark("list frame, \(name) refreshing, iPhone 16 Pro Max, translucent bar (1320×2868)",
                  configuration: configuration) { benchmark in
            let bench = refreshing
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { bench.frame() }
        }
    }
    // The Pixel 8 on Android (1080×2400 at 120 Hz), its chrome and Material's app bar in light and dark, scrolled
    // by the finger with a trace written: the steady frame allocates nothing there either.
    for appearance in [Appearance.light, .dark] {
        let pixel = ListFrameBench(effect: Simulation.defaultEffectName, phone: Phone(model: .pixel8))
        pixel.simulation.appearance = appearance
        pixel.loop.trace = try? TraceWriter(path: "/dev/null")
        pixel.startScrolling()
        pixel.warm(frames: 2 * ListFrameBench.scrollPeriod)
        Benchmark("list frame, scrolling, Pixel 8, \(appearance.rawValue), with a trace (1080×2400)",
                  configuration: configuration) { benchmark in
            let bench = pixel
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { bench.frame() }
        }
    }
    // The second floor behind the list (RefreshLab's own page): revealed by a pull held past the floor's rate, and
    // open. Its picture is drawn where the list has slid away; the steady frame allocates nothing.
    let revealed = ListFrameBench(effect: "classic")
    try? revealed.simulation.setFloor(.drawn)
    revealed.holdPull(by: 260)
    revealed.warm(frames: 60)
    let open = ListFrameBench(effect: "classic")
    open.simulation.perform(.toggleSecondFloor)
    open.warm(frames: Int(Toast.duration * 60) + 60)
    for (bench, name) in [(revealed, "revealed, held past the floor's rate"), (open, "open")] {
        Benchmark("list frame, classic, the second floor \(name) (750×1334)", configuration: configuration) { benchmark in
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { bench.frame() }
        }
    }
    headerEffectBenchmarks()
}

/// A simulation on a simulated clock run by the frame loop, as the window runs it, one frame per call: the bench
/// is the loop's input (a finger, and a sixtieth of a second per frame).
final class ListFrameBench: FrameInput, @unchecked Sendable {
    /// Frames of one up-and-down cycle of the scrolling finger.
    static let scrollPeriod = 120
    let clock = SimulatedClock()
    let simulation: Simulation
    private(set) var loop: FrameLoop!
    private var scrolling = false
    private var frameIndex = 0

    init(effect: String, phone: Phone = Phone()) {
        simulation = Simulation(phone: phone, clock: clock)
        _ = simulation.selectEffect(named: effect)
        loop = FrameLoop(simulation: simulation, input: self)
    }

    /// A finger down from the top, dragged `travel` points down over 20 frames and held: by default to a pull of about
    /// 60 pt, short of every effect's trigger.
    func holdPull(by travel: Double = 100) {
        simulation.handle(.touchDown(Point(187.5, 200)))
        for i in 1...20 {
            clock.advance(by: 1.0 / 60)
            simulation.handle(.touchMove(Point(187.5, 200 + Double(i) * travel / 20)))
            simulation.step()
        }
    }

    /// A finger that moves the list up and down by 300 pt, a triangle wave, from the next frame on.
    func startScrolling() {
        simulation.handle(.touchDown(Point(187.5, 500)))
        scrolling = true
    }

    func warm(frames: Int) {
        for _ in 0..<frames { frame() }
    }

    /// One frame of the loop.
    @inline(never)
    func frame() {
        _ = try? loop.runFrame()
    }

    var now: Double { clock.now }
    var presentsEveryFrame: Bool { true }

    func nextFrame(for simulation: Simulation, idleUntil: Double?) -> FrameInputResult {
        clock.advance(by: 1 / simulation.phone.refreshRate)
        if scrolling {
            let phase = frameIndex % ListFrameBench.scrollPeriod, half = ListFrameBench.scrollPeriod / 2
            let travel = 300.0 * Double(phase < half ? phase : ListFrameBench.scrollPeriod - phase) / Double(half)
            simulation.handle(.touchMove(Point(187.5, 500 - travel)))
        }
        frameIndex += 1
        return .frame(changed: true, waited: false)
    }
}

import Benchmark
import Geometry
import Motion
import Scrolling

/// One frame of motion: the scroll physics stepped to the frame's time, the animator ending what is over, and the
/// presentation values of 100 running animations read as a layer tree would read them. Budget: under 20 µs.
let benchmarks: @Sendable () -> Void = {
    Benchmark("scroll physics + 100 animations, one frame",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3))) { benchmark in
        let frame = 1.0 / 60
        let clock = SimulatedClock()
        let animator = Animator(clock: clock)
        let scrollView = ScrollView(boundsSize: Size(375, 603), contentSize: Size(375, 1_000_000))
        scrollView.setContentOffset(Point(0, 500_000))

        // Ten objects with ten animations each, of the kinds the refresh effects use.
        var sets: [AnimationSet] = []
        for object in 0..<10 {
            let set = AnimationSet(animator: animator)
            for i in 0..<10 {
                let animation: Animation
                switch i % 5 {
                case 0:
                    let a = BasicAnimation<Double>(keyPath: "rotation", from: 0, to: 2 * Double.pi)
                    a.duration = 1
                    animation = a
                case 1:
                    let a = BasicAnimation<Double>(keyPath: "opacity", from: 0.3, to: 1)
                    a.duration = 0.3
                    a.autoreverses = true
                    a.timingFunction = .easeInEaseOut
                    animation = a
                case 2:
                    let a = KeyframeAnimation<Double>(keyPath: "position.x", values: [0, 5, 0, 5, 0])
                    a.duration = 1
                    animation = a
                case 3:
                    let end = BasicAnimation<Double>(keyPath: "strokeEnd", from: 0.2, to: 1)
                    end.beginTime = 0.1
                    end.duration = 0.2
                    end.fillMode = .both
                    let start = BasicAnimation<Double>(keyPath: "strokeStart", from: 0.2, to: 0.95)
                    start.beginTime = 0.4
                    start.duration = 0.2
                    start.fillMode = .both
                    let group = AnimationGroup(animations: [end, start])
                    group.duration = 2
                    group.timingFunction = .fastOutSlowIn
                    animation = group
                default:
                    let a = BasicAnimation<Point>(keyPath: "position", from: Point(0, 0), to: Point(100, 50))
                    a.duration = 0.5
                    a.timingFunction = .default
                    animation = a
                }
                animation.repeatCount = .infinity
                set.add(animation, forKey: "a\(object)-\(i)")
            }
            sets.append(set)
        }
        let keyPaths = ["rotation", "opacity", "position.x", "strokeEnd", "strokeStart"]

        func fling(at time: Double) {
            scrollView.touchBegan(at: Point(100, 500), time: time)
            for i in 1...5 { scrollView.touchMoved(to: Point(100, 500 - 40 * Double(i)), time: time + Double(i) * frame) }
            scrollView.touchEnded(at: Point(100, 300), time: time + 5 * frame)
        }
        fling(at: 0)
        clock.advance(by: 5 * frame)

        var sink = 0.0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            clock.advance(by: frame)
            if !scrollView.isDecelerating { fling(at: clock.now) }
            scrollView.step(to: clock.now)
            animator.update()
            for set in sets {
                for keyPath in keyPaths { sink += set.value(forKeyPath: keyPath, model: 0.0) }
                sink += set.value(forKeyPath: "position", model: Point.zero).x
            }
            sink += scrollView.contentOffset.y
        }
        benchmark.stopMeasurement()
        blackHole(sink)
    }
}

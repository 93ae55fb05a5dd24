import Benchmark
import Lab

/// The steady-state frame of the list: stepping and drawing must allocate nothing.
let benchmarks: @Sendable () -> Void = {
    Benchmark("list frame (750×1334)",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3))) { benchmark in
        let simulation = Simulation()
        simulation.render()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            simulation.step()
            simulation.render()
        }
    }
    headerEffectBenchmarks()
}

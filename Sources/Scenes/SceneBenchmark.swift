#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UserFiles

/// The timing protocol shared by every renderer that draws scenes, so their figures can be compared: untimed
/// warm-up renders (caches, page faults, CPU frequency), then each timed render measured on its own.
public struct SceneTiming: Equatable, Sendable {
    /// Renders before timing starts, at least; they fault in the canvas and the rasterizer's buffers and warm the
    /// caches.
    static let warmUpRenders = 3
    /// How long the warm-up renders go on, at least: on two threads the first 25–150 ms of renders took up to 1.8
    /// times as long as the rest, Blend2D's as well as ours, so three renders of a small scene timed only that start
    /// (docs/guide.md, "The rasterizer on every core").
    public static let warmUpNanoseconds: UInt64 = 250_000_000

    /// Every timed render's duration, in nanoseconds, in the order they ran.
    public var samples: [UInt64]

    public init(samples: [UInt64]) {
        self.samples = samples
    }

    /// Runs `render` untimed `warmUpRenders` times and until `warmUp` nanoseconds have passed, then `iterations`
    /// times, timing each run.
    public static func measure(iterations: Int, warmUp: UInt64 = warmUpNanoseconds,
                               _ render: () -> Void) -> SceneTiming {
        let warmUpStart = nanoseconds()
        var warmed = 0
        while warmed < warmUpRenders || nanoseconds() - warmUpStart < warmUp {
            render()
            warmed += 1
        }
        var samples: [UInt64] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<Swift.max(iterations, 0) {
            let start = nanoseconds()
            render()
            samples.append(nanoseconds() - start)
        }
        return SceneTiming(samples: samples)
    }

    /// The middle sample; the mean of the two middle ones for an even count; 0 with no samples.
    var medianNanoseconds: Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? Double(sorted[mid]) : (Double(sorted[mid - 1]) + Double(sorted[mid])) / 2
    }

    var meanNanoseconds: Double {
        guard !samples.isEmpty else { return 0 }
        return samples.reduce(0.0) { $0 + Double($1) } / Double(samples.count)
    }

    var minNanoseconds: UInt64 { samples.min() ?? 0 }

    /// The one-line JSON report both renderers print, e.g.
    /// `{"scene": "sticky", "width": 750, "height": 1334, "iterations": 30, "median_ns": 1, "mean_ns": 1, "min_ns":
    /// 1}`.
    public func jsonLine(scene: String, width: Int, height: Int) -> String {
        "{\"scene\": \(JSONLineBuffer.quoted(scene)), \"width\": \(width), \"height\": \(height), " + figures + "}"
    }

    /// The figures of a JSON report, after the fields that say what was drawn: `"iterations": 30, "median_ns": 1,
    /// "mean_ns": 1, "min_ns": 1`.
    public var figures: String {
        "\"iterations\": \(samples.count), \"median_ns\": \(Int(medianNanoseconds.rounded())), "
            + "\"mean_ns\": \(Int(meanNanoseconds.rounded())), \"min_ns\": \(minNanoseconds)"
    }

    /// The monotonic clock in nanoseconds.
    static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

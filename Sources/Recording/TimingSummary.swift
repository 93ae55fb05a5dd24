/// The figures a recording of frame timings sums up to (docs/reference.md §4): percentiles of the frame interval and of
/// the frames' CPU time, janky frames and dropped frames, against the display's budget.
///
/// Percentiles are nearest-rank on the sorted values: the p-th of n values is `sorted[round((n − 1) · p)]`, so
/// p50 of [1, 2, 3, 4] is `sorted[round(1.5)] = sorted[2] = 3` and p100 is the maximum.
///
/// A frame is janky when its CPU time (the work of its phases) exceeds the budget, and badly janky past twice the
/// budget (Android's JankStats). A frame whose interval since the previous one spans k budgets dropped k − 1
/// frames: `round(interval / budget) − 1`, never below 0. A frame after an idle stretch (nothing moved, no frame
/// was due) dropped none: its interval is left out of the interval figures and counted as an idle gap.
public struct TimingSummary: Equatable, Sendable {
    /// The nearest-rank percentiles that the summary reports, with their JSON names.
    static let percentiles: [(name: String, p: Double)] = [("p50", 0.50), ("p90", 0.90), ("p95", 0.95), ("p99", 0.99)]

    /// p50, p90, p95, p99 and max of a set of durations, in seconds.
    public struct Distribution: Equatable, Sendable {
        public var p50: Double
        var p90: Double
        var p95: Double
        public var p99: Double
        public var max: Double

        public init(p50: Double, p90: Double, p95: Double, p99: Double, max: Double) {
            self.p50 = p50
            self.p90 = p90
            self.p95 = p95
            self.p99 = p99
            self.max = max
        }

        /// The distribution of `values` (not necessarily sorted); all zero when there are none.
        public init(_ values: [Double]) {
            let sorted = values.sorted()
            p50 = TimingSummary.nearestRank(sorted, 0.50)
            p90 = TimingSummary.nearestRank(sorted, 0.90)
            p95 = TimingSummary.nearestRank(sorted, 0.95)
            p99 = TimingSummary.nearestRank(sorted, 0.99)
            max = sorted.last ?? 0
        }
    }

    /// Seconds per frame: 1 / the display's refresh rate.
    public var budget: Double
    public var frameCount: Int
    public var interval: Distribution
    public var cpuTime: Distribution
    /// Mean CPU time of a frame, in seconds.
    var meanCPUTime: Double
    /// Frames whose CPU time exceeds the budget, and twice the budget.
    var jankyFrames: Int
    var badlyJankyFrames: Int
    /// Frames the display showed again because a frame came late: the sum of `round(interval / budget) − 1`.
    public var droppedFrames: Int
    /// Frames that came after an idle stretch.
    var idleGaps: Int

    /// The summary of frames with these CPU times, whose intervals in motion are `intervals` (seconds; frames
    /// after an idle stretch have none there and are counted in `idleGaps`).
    public init(budget: Double, intervals: [Double], cpuTimes: [Double], idleGaps: Int = 0) {
        self.idleGaps = idleGaps
        self.budget = budget
        frameCount = cpuTimes.count
        interval = Distribution(intervals)
        cpuTime = Distribution(cpuTimes)
        meanCPUTime = cpuTimes.isEmpty ? 0 : cpuTimes.reduce(0, +) / Double(cpuTimes.count)
        jankyFrames = cpuTimes.lazy.filter { $0 > budget }.count
        badlyJankyFrames = cpuTimes.lazy.filter { $0 > 2 * budget }.count
        droppedFrames = intervals.reduce(0) { $0 + TimingSummary.droppedFrames(interval: $1, budget: budget) }
    }

    /// The nearest-rank percentile `p` (0…1) of values sorted in ascending order: `sorted[round((n − 1) · p)]`;
    /// 0 for no values.
    static func nearestRank(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = (Double(sorted.count - 1) * Swift.min(Swift.max(p, 0), 1)).rounded()
        return sorted[Int(rank)]
    }

    /// Nearest-rank percentile over the first `count` values of a sorted buffer (the HUD's allocation-free form).
    @inlinable
    static func nearestRank(_ sorted: UnsafeMutableBufferPointer<Double>, count: Int, _ p: Double) -> Double {
        guard count > 0 else { return 0 }
        return sorted[Int((Double(count - 1) * p).rounded())]
    }

    /// The frames dropped before a frame that came `interval` seconds after the previous one:
    /// `round(interval / budget) − 1`, at least 0.
    @inlinable
    public static func droppedFrames(interval: Double, budget: Double) -> Int {
        guard budget > 0, interval.isFinite, interval > 0 else { return 0 }
        let frames = (interval / budget).rounded()
        return frames >= 1 ? Int(Swift.min(frames, 1e9)) - 1 : 0
    }
}

/// The shortest of `runs` timings of `work`, in seconds: the least disturbed by other work on the machine, for tests
/// that compare how time grows with size.
public func fastestSeconds(of runs: Int = 3, _ work: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
        let start = ContinuousClock.now
        try work()
        let elapsed = ContinuousClock.now - start
        best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    return best
}

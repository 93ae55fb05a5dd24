/// SplitMix64: a small, seeded, deterministic generator, so that property tests draw the same inputs on every run.
/// One generator for every test target; a target adds its own drawing helpers (points, numbers) in an extension.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number drawn uniformly from `range`.
    public mutating func double(in range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }

    /// A whole number drawn uniformly from `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// A coin toss.
    public mutating func bool() -> Bool { next() & 1 == 1 }
}

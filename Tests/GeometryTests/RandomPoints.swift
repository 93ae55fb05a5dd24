import Geometry
import TestSupport

extension SeededRandom {
    /// A point with both coordinates drawn uniformly from `range`.
    mutating func point(_ range: ClosedRange<Double>) -> Point {
        Point(double(in: range), double(in: range))
    }
}

/// Measuring and trimming, as `CAShapeLayer`'s `strokeStart` and `strokeEnd`.
///
/// A curve's length is that of its flattening within the tolerance (a chord is never longer than its arc, and the
/// shortfall of a polyline within distance ε of an arc of radius r is about ε/(3r) of its length). Trimming finds
/// the parameter at a given length on that same polyline, then cuts the curve there exactly (de Casteljau), so the
/// trimmed path keeps its curves.
extension Path {
    /// The default tolerance of measuring, in the path's units: a hundredth of a point.
    public static let defaultMeasureTolerance = 0.01

    /// The length of every contour, closing lines included.
    public func length(tolerance: Double = Path.defaultMeasureTolerance) -> Double {
        var total = 0.0
        var start = Point.zero, last = Point.zero
        for e in elements {
            if case .move(let p) = e { start = p; last = p; continue }
            let len = Path.length(of: e, from: last, contourStart: start, tolerance: tolerance)
            if len.isFinite { total += len }
            last = Path.endPoint(of: e, contourStart: start)
        }
        return total
    }

    /// The part of the path between the fractions `start` and `end` (clamped to 0…1) of its total length, as
    /// `strokeStart` and `strokeEnd`: the fractions are of the length of all contours together, contours keep their
    /// order, and a closed contour that is cut becomes open. `start >= end` gives an empty path.
    public func trimmed(from start: Double, to end: Double, tolerance: Double = Path.defaultMeasureTolerance) -> Path {
        if Path.trimKeepsAll(start, end) { return self }
        var out = Path()
        trimmed(from: start, to: end, tolerance: tolerance, into: &out)
        return out
    }

    /// The same trim written into `out`, which is emptied first and keeps its storage: a caller that trims every
    /// frame into the same path allocates only while the trimmed path outgrows every earlier one.
    public func trimmed(from start: Double, to end: Double, tolerance: Double = Path.defaultMeasureTolerance,
                        into out: inout Path) {
        out.removeAll(keepingCapacity: true)
        if Path.trimKeepsAll(start, end) { return out.append(contentsOf: self) }
        let f0 = start.isNaN ? 0 : Swift.min(Swift.max(start, 0), 1)
        let f1 = end.isNaN ? 1 : Swift.min(Swift.max(end, 0), 1)
        guard f0 < f1 else { return }
        let total = length(tolerance: tolerance)
        guard total > 0, total.isFinite else { return }
        let s0 = f0 * total, s1 = f1 * total

        var contourStart = Point.zero, last = Point.zero
        var distance = 0.0          // length before the current element
        var contourBegin = 0.0      // length where the current contour began
        var continuing = false      // the output's current contour ends where this element begins
        var contourWhole = false    // the whole current contour so far is inside the range
        for e in elements {
            if case .move(let p) = e {
                contourStart = p; last = p
                continuing = false
                contourBegin = distance
                contourWhole = distance >= s0
                continue
            }
            let len = Path.length(of: e, from: last, contourStart: contourStart, tolerance: tolerance)
            let a = distance, b = distance + (len.isFinite ? len : 0)
            let endPoint = Path.endPoint(of: e, contourStart: contourStart)
            defer { distance = b; last = endPoint }
            let lo = Swift.max(a, s0), hi = Swift.min(b, s1)
            let zeroLengthClose: Bool
            if case .close = e { zeroLengthClose = len == 0 } else { zeroLengthClose = false }
            guard hi > lo || (zeroLengthClose && contourWhole && a <= s1 && continuing) else {
                if b > s1 || a < s0 { contourWhole = false }
                continuing = false
                continue
            }
            if case .close = e, contourWhole, a >= s0, b <= s1, continuing, contourBegin >= s0 {
                out.close()
                continuing = false
                continue
            }
            if b > s1 || a < s0 { contourWhole = false }
            let t0 = lo <= a ? 0.0 : Path.parameter(atLength: lo - a, of: e, from: last, contourStart: contourStart,
                                                    tolerance: tolerance)
            let t1 = hi >= b ? 1.0 : Path.parameter(atLength: hi - a, of: e, from: last, contourStart: contourStart,
                                                    tolerance: tolerance)
            let piece = Path.segment(of: e, from: last, contourStart: contourStart, t0, t1)
            if !continuing || t0 > 0 { out.move(to: piece.start) }
            switch piece.element {
            case .line(let p): out.line(to: p)
            case .quad(let c, let p): out.quad(to: p, control: c)
            case .cubic(let c1, let c2, let p): out.cubic(to: p, control1: c1, control2: c2)
            default: break
            }
            continuing = t1 >= 1
        }
    }

    /// True when fractions `start` and `end` (clamped as `trimmed` clamps them) keep the whole path.
    static func trimKeepsAll(_ start: Double, _ end: Double) -> Bool {
        (start.isNaN || start <= 0) && (end.isNaN || end >= 1)
    }

    /// Where element `e` (drawn from `p0`) ends; `close` ends at the contour's start.
    static func endPoint(of e: Element, contourStart: Point) -> Point {
        switch e {
        case .move(let p), .line(let p), .quad(_, let p), .cubic(_, _, let p): return p
        case .close: return contourStart
        }
    }

    /// The number of chords a curve is measured with: Wang's count for the tolerance.
    static func measureSegments(of e: Element, from p0: Point, tolerance: Double) -> Int {
        switch e {
        case .quad(let c, let p):
            return segmentCount(secondDifference: (p0 - c * 2 + p).length, degreeFactor: 0.25, tolerance: tolerance)
        case .cubic(let c1, let c2, let p):
            let dd = Swift.max((p0 - c1 * 2 + c2).length, (c1 - c2 * 2 + p).length)
            return segmentCount(secondDifference: dd, degreeFactor: 0.75, tolerance: tolerance)
        default:
            return 1
        }
    }

    /// The point at parameter `t` of element `e` drawn from `p0`.
    static func point(of e: Element, from p0: Point, contourStart: Point, at t: Double) -> Point {
        switch e {
        case .move(let p): return p
        case .line(let p): return p0.lerp(to: p, t)
        case .close: return p0.lerp(to: contourStart, t)
        case .quad(let c, let p): return quadPoint(p0, c, p, t)
        case .cubic(let c1, let c2, let p): return cubicPoint(p0, c1, c2, p, t)
        }
    }

    static func length(of e: Element, from p0: Point, contourStart: Point, tolerance: Double) -> Double {
        switch e {
        case .move: return 0
        case .line(let p): return p0.distance(to: p)
        case .close: return p0.distance(to: contourStart)
        case .quad, .cubic:
            let n = measureSegments(of: e, from: p0, tolerance: tolerance)
            var sum = 0.0, prev = p0
            for i in 1...n {
                let q = point(of: e, from: p0, contourStart: contourStart, at: Double(i) / Double(n))
                sum += prev.distance(to: q)
                prev = q
            }
            return sum
        }
    }

    /// The parameter of element `e` at distance `s` along it (measured on the same chords as `length(of:)`).
    static func parameter(atLength s: Double, of e: Element, from p0: Point, contourStart: Point,
                          tolerance: Double) -> Double {
        switch e {
        case .move: return 0
        case .line, .close:
            let len = length(of: e, from: p0, contourStart: contourStart, tolerance: tolerance)
            return len > 0 ? Swift.min(Swift.max(s / len, 0), 1) : 0
        case .quad, .cubic:
            let n = measureSegments(of: e, from: p0, tolerance: tolerance)
            var sum = 0.0, prev = p0
            for i in 1...n {
                let q = point(of: e, from: p0, contourStart: contourStart, at: Double(i) / Double(n))
                let d = prev.distance(to: q)
                if sum + d >= s {
                    let local = d > 0 ? (s - sum) / d : 0
                    return (Double(i - 1) + Swift.min(Swift.max(local, 0), 1)) / Double(n)
                }
                sum += d
                prev = q
            }
            return 1
        }
    }

    /// The part of element `e` (drawn from `p0`) between parameters `t0` and `t1`: its start and the element
    /// that draws it (a `close` becomes a line).
    static func segment(of e: Element, from p0: Point, contourStart: Point, _ t0: Double, _ t1: Double)
        -> (start: Point, element: Element) {
        switch e {
        case .move(let p):
            return (p, .move(p))
        case .line(let p):
            return (p0.lerp(to: p, t0), .line(t1 >= 1 ? p : p0.lerp(to: p, t1)))
        case .close:
            return (p0.lerp(to: contourStart, t0), .line(t1 >= 1 ? contourStart : p0.lerp(to: contourStart, t1)))
        case .quad(let c, let p):
            // Cut at t1, then cut the first part at t0/t1.
            var (a, b, d) = (p0, c, p)
            if t1 < 1 { (a, b, d) = splitQuad(a, b, d, t1).0 }
            if t0 > 0 { (a, b, d) = splitQuad(a, b, d, t1 > 0 ? t0 / t1 : 0).1 }
            return (a, .quad(b, d))
        case .cubic(let c1, let c2, let p):
            var (a, b, c, d) = (p0, c1, c2, p)
            if t1 < 1 { (a, b, c, d) = splitCubic(a, b, c, d, t1).0 }
            if t0 > 0 { (a, b, c, d) = splitCubic(a, b, c, d, t1 > 0 ? t0 / t1 : 0).1 }
            return (a, .cubic(b, c, d))
        }
    }

    /// A quadratic split at `t` into two (de Casteljau).
    static func splitQuad(_ p0: Point, _ c: Point, _ p1: Point, _ t: Double)
        -> ((Point, Point, Point), (Point, Point, Point)) {
        let a = p0.lerp(to: c, t), b = c.lerp(to: p1, t)
        let m = a.lerp(to: b, t)
        return ((p0, a, m), (m, b, p1))
    }

    /// A cubic split at `t` into two (de Casteljau).
    static func splitCubic(_ p0: Point, _ c1: Point, _ c2: Point, _ p1: Point, _ t: Double)
        -> ((Point, Point, Point, Point), (Point, Point, Point, Point)) {
        let a = p0.lerp(to: c1, t), b = c1.lerp(to: c2, t), c = c2.lerp(to: p1, t)
        let d = a.lerp(to: b, t), e = b.lerp(to: c, t)
        let m = d.lerp(to: e, t)
        return ((p0, a, d, m), (m, e, c, p1))
    }
}

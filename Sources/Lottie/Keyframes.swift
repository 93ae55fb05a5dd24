import Geometry
import Motion

/// One keyframe: the value from its time on, and how it eases into the next.
public struct Keyframe<Value: Sendable>: Sendable {
    public var time: Double
    public var value: Value
    /// The value the segment ends at, when the file gives one (older files); otherwise the next keyframe's value.
    public var endValue: Value?
    /// Holds its value until the next keyframe instead of interpolating.
    public var hold: Bool
    /// The easing of the segment from this keyframe, one curve per dimension (one for all when there is one).
    public var easing: [TimingFunction]
    /// Spatial tangents of a position segment: out of this keyframe and into the next, relative to the points.
    public var outTangent: Point?
    public var inTangent: Point?

    public init(time: Double, value: Value, endValue: Value? = nil, hold: Bool = false, easing: [TimingFunction] = [],
                outTangent: Point? = nil, inTangent: Point? = nil) {
        self.time = time
        self.value = value
        self.endValue = endValue
        self.hold = hold
        self.easing = easing
        self.outTangent = outTangent
        self.inTangent = inTangent
    }
}

/// A property that is either constant or animated by keyframes, as numbers (a scalar is one number).
public struct Animated: Sendable {
    public var keyframes: [Keyframe<[Double]>]

    public init(keyframes: [Keyframe<[Double]>]) {
        self.keyframes = keyframes
    }

    public static func constant(_ value: [Double]) -> Animated {
        Animated(keyframes: [Keyframe(time: 0, value: value, endValue: nil, hold: true, easing: [],
                                      outTangent: nil, inTangent: nil)])
    }

    public var isAnimated: Bool { keyframes.count > 1 }

    public func scalar(at frame: Double) -> Double { value(at: frame).at(0) }

    /// The value at `frame` (the layer's own time).
    public func value(at frame: Double) -> [Double] {
        guard !keyframes.isEmpty else { return [] }
        let (index, t) = keyframes.segment(at: frame)
        let k = keyframes[index]
        guard t > 0 else { return k.value }
        let from = k.value, to = k.endValue ?? keyframes[index + 1].value
        if let spatial = spatialPoint(k, from: from, to: to, t: t) { return spatial }
        var out = from
        for i in 0..<Swift.min(from.count, to.count) {
            let curve = k.easing.isEmpty ? TimingFunction.linear : k.easing[Swift.min(i, k.easing.count - 1)]
            let e = curve.value(at: t)
            out[i] = from[i] + (to[i] - from[i]) * e
        }
        return out
    }

    /// A position moving along the cubic its spatial tangents make, at the eased fraction of its length.
    private func spatialPoint(_ k: Keyframe<[Double]>, from: [Double], to: [Double], t: Double) -> [Double]? {
        guard let o = k.outTangent, let i = k.inTangent, o != .zero || i != .zero, from.count >= 2, to.count >= 2
        else { return nil }
        let e = (k.easing.first ?? .linear).value(at: t)
        let p0 = Point(from[0], from[1]), p3 = Point(to[0], to[1])
        let p1 = p0 + o, p2 = p3 + i
        func at(_ s: Double) -> Point {
            let u = 1 - s
            return p0 * (u * u * u) + p1 * (3 * u * u * s) + p2 * (3 * u * s * s) + p3 * (s * s * s)
        }
        // Arc length by a fixed polyline: bounded work, and smooth enough for motion.
        let steps = 512
        var lengths = [Double](repeating: 0, count: steps + 1)
        var last = p0
        for j in 1...steps {
            let p = at(Double(j) / Double(steps))
            lengths[j] = lengths[j - 1] + p.distance(to: last)
            last = p
        }
        let total = lengths[steps]
        guard total > 0, total.isFinite else { return nil }
        let target = Swift.min(Swift.max(e, 0), 1) * total
        var j = 1
        while j < steps && lengths[j] < target { j += 1 }
        let span = lengths[j] - lengths[j - 1]
        let f = span > 0 ? (target - lengths[j - 1]) / span : 0
        var p = at((Double(j - 1) + f) / Double(steps))
        if e < 0 || e > 1 { p = p0 + (p3 - p0) * e }  // an overshooting ease leaves the curve along its chord
        var out = from
        out[0] = p.x; out[1] = p.y
        return out
    }
}

/// A Bézier path as Bodymovin writes it: vertices with in and out tangents relative to them.
public struct BezierShape: Sendable {
    public var vertices: [Point]
    public var inTangents: [Point]
    public var outTangents: [Point]
    public var closed: Bool

    public init(vertices: [Point], inTangents: [Point], outTangents: [Point], closed: Bool) {
        self.vertices = vertices
        self.inTangents = inTangents
        self.outTangents = outTangents
        self.closed = closed
    }

    /// Appends the shape as one contour, backwards when `reversed`.
    func append(to path: inout Path, reversed: Bool) {
        let n = vertices.count
        guard n > 0, inTangents.count == n, outTangents.count == n else { return }
        @inline(__always) func index(_ k: Int) -> Int { reversed ? (n - k) % n : k }
        let first = index(0)
        path.move(to: vertices[first])
        let segments = closed ? n : n - 1
        guard segments > 0 else { return }
        for k in 1...segments {
            let a = index(k - 1), b = index(k % n)
            // Going backwards, the curve leaves a by its in tangent and reaches b by its out tangent.
            let c1 = vertices[a] + (reversed ? inTangents[a] : outTangents[a])
            let c2 = vertices[b] + (reversed ? outTangents[b] : inTangents[b])
            if c1 == vertices[a] && c2 == vertices[b] {
                path.line(to: vertices[b])
            } else {
                path.cubic(to: vertices[b], control1: c1, control2: c2)
            }
        }
        if closed { path.close() }
    }

    func interpolated(to other: BezierShape, _ e: Double) -> BezierShape {
        guard other.vertices.count == vertices.count else { return e < 1 ? self : other }
        func mix(_ a: [Point], _ b: [Point]) -> [Point] {
            var out = a
            for i in out.indices where i < b.count { out[i] = a[i] + (b[i] - a[i]) * e }
            return out
        }
        return BezierShape(vertices: mix(vertices, other.vertices), inTangents: mix(inTangents, other.inTangents),
                           outTangents: mix(outTangents, other.outTangents), closed: closed)
    }
}

/// A path property: a constant shape or keyframes of shapes with the same number of vertices.
public struct AnimatedShape: Sendable {
    public var keyframes: [Keyframe<BezierShape>]

    public init(keyframes: [Keyframe<BezierShape>]) {
        self.keyframes = keyframes
    }

    public func value(at frame: Double) -> BezierShape? {
        guard !keyframes.isEmpty else { return nil }
        let (index, t) = keyframes.segment(at: frame)
        let k = keyframes[index]
        guard t > 0 else { return k.value }
        let e = (k.easing.first ?? .linear).value(at: t)
        return k.value.interpolated(to: k.endValue ?? keyframes[index + 1].value, e)
    }
}

extension Array {
    /// The keyframe whose segment holds `frame` and the linear fraction through that segment; the fraction is 0
    /// before the first keyframe, from the last on, and on a hold, where the keyframe's own value applies.
    func segment<V>(at frame: Double) -> (index: Int, fraction: Double) where Element == Keyframe<V> {
        guard count > 1, frame.isFinite, frame > self[0].time else { return (0, 0) }
        var lo = 0, hi = count - 1
        if frame >= self[hi].time { return (hi, 0) }
        // Binary search for the last keyframe at or before the frame: a long animation costs log(n) per frame.
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if self[mid].time <= frame { lo = mid } else { hi = mid }
        }
        let span = self[lo + 1].time - self[lo].time
        guard !self[lo].hold, span > 0 else { return (lo, 0) }
        return (lo, (frame - self[lo].time) / span)
    }
}

import Geometry
import Motion

/// One keyframe: the value from its time on, and how it eases into the next.
struct Keyframe<Value: Sendable>: Sendable {
    var time: Double
    var value: Value
    /// The value the segment ends at, when the file gives one (older files); otherwise the next keyframe's value.
    var endValue: Value?
    /// Holds its value until the next keyframe instead of interpolating.
    var hold: Bool
    /// The easing of the segment from this keyframe, one curve per dimension (one for all when there is one).
    var easing: [TimingFunction]
    /// Spatial tangents of a position segment: out of this keyframe and into the next, relative to the points.
    var outTangent: Point?
    var inTangent: Point?

    init(time: Double, value: Value, endValue: Value? = nil, hold: Bool = false, easing: [TimingFunction] = [],
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
struct Animated: Sendable {
    var keyframes: [Keyframe<[Double]>]
    /// The After Effects expression that gives the value instead, when the property has one.
    var expression: ExpressionBinding?

    init(keyframes: [Keyframe<[Double]>], expression: ExpressionBinding? = nil) {
        self.keyframes = keyframes
        self.expression = expression
    }

    static func constant(_ value: [Double]) -> Animated {
        Animated(keyframes: [Keyframe(time: 0, value: value, endValue: nil, hold: true, easing: [],
                                      outTangent: nil, inTangent: nil)])
    }

    func scalar(at frame: Double) -> Double { sample(at: frame).at(0) }

    /// The value at `frame` (the layer's own time).
    func value(at frame: Double) -> [Double] {
        var out: [Double] = []
        value(at: frame, into: &out)
        return out
    }

    /// The value at `frame`, written into `out`, which keeps its storage: a value of any length (a gradient's
    /// stops) evaluated every frame into the same array allocates nothing once the array is large enough.
    func value(at frame: Double, into out: inout [Double]) {
        if let expression { return expression.engine.value(expression.property, at: frame, into: &out) }
        out.removeAll(keepingCapacity: true)
        guard !keyframes.isEmpty else { return }
        let (index, t) = keyframes.segment(at: frame)
        let k = keyframes[index]
        out.append(contentsOf: k.value)
        guard t > 0 else { return }
        let to = k.endValue ?? keyframes[index + 1].value
        if let p = spatialPoint(k, from: k.value, to: to, t: t) {
            out[0] = p.x; out[1] = p.y
            return
        }
        for i in 0..<Swift.min(out.count, to.count) { out[i] += (to[i] - out[i]) * k.eased(i, t) }
    }

    /// The value at `frame` when it has at most four numbers (a scalar, a point, a scale, a colour): the same as
    /// `value(at:)` without an array, so evaluating a frame's transforms and colours allocates nothing.
    func sample(at frame: Double) -> AnimatedSample {
        if let expression { return expression.engine.sample(expression.property, at: frame) }
        guard !keyframes.isEmpty else { return AnimatedSample() }
        let (index, t) = keyframes.segment(at: frame)
        let k = keyframes[index]
        var out = AnimatedSample(k.value)
        guard t > 0 else { return out }
        let to = k.endValue ?? keyframes[index + 1].value
        if let p = spatialPoint(k, from: k.value, to: to, t: t) {
            out.values.x = p.x; out.values.y = p.y
            return out
        }
        for i in 0..<Swift.min(out.count, to.count) { out.values[i] += (to[i] - out.values[i]) * k.eased(i, t) }
        return out
    }

    /// Steps of the polyline a spatial segment is measured by: bounded work, and smooth enough for motion.
    static let spatialSteps = 512

    /// A position moving along the cubic its spatial tangents make, at the eased fraction of its length.
    private func spatialPoint(_ k: Keyframe<[Double]>, from: [Double], to: [Double], t: Double) -> Point? {
        guard let o = k.outTangent, let i = k.inTangent, o != .zero || i != .zero, from.count >= 2, to.count >= 2
        else { return nil }
        let e = (k.easing.first ?? .linear).value(at: t)
        let p0 = Point(from[0], from[1]), p3 = Point(to[0], to[1])
        let p1 = p0 + o, p2 = p3 + i
        // The point operations and the distance written out, in the same order, so that the walks below inline.
        @inline(__always) func at(_ s: Double) -> Point {
            let u = 1 - s
            let a = u * u * u, b = 3 * u * u * s, c = 3 * u * s * s, d = s * s * s
            return Point(p0.x * a + p1.x * b + p2.x * c + p3.x * d, p0.y * a + p1.y * b + p2.y * c + p3.y * d)
        }
        @inline(__always) func distance(_ p: Point, _ q: Point) -> Double {
            let dx = p.x - q.x, dy = p.y - q.y
            return (dx * dx + dy * dy).squareRoot()
        }
        // Arc length by a fixed polyline, walked twice (the total, then the target) rather than kept in an array.
        let steps = Animated.spatialSteps
        var total = 0.0, last = p0
        for j in 1...steps {
            let p = at(Double(j) / Double(steps))
            total += distance(p, last)
            last = p
        }
        guard total > 0, total.isFinite else { return nil }
        let target = Swift.min(Swift.max(e, 0), 1) * total
        var j = 1, before = 0.0, span = 0.0
        last = p0
        while true {
            let p = at(Double(j) / Double(steps))
            span = distance(p, last)
            if j >= steps || before + span >= target { break }
            before += span
            last = p
            j += 1
        }
        let f = span > 0 ? (target - before) / span : 0
        var p = at((Double(j - 1) + f) / Double(steps))
        if e < 0 || e > 1 { p = p0 + (p3 - p0) * e }  // an overshooting ease leaves the curve along its chord
        return p
    }
}

/// A property's value of up to four numbers, held inline.
struct AnimatedSample: Sendable {
    /// How many of the components the value has (at most 4; a longer value keeps its first four).
    var count = 0
    var values = SIMD4<Double>()

    init() {}

    init(_ array: [Double]) {
        count = Swift.min(array.count, 4)
        for i in 0..<count { values[i] = array[i] }
    }

    /// Component `i`, or `fallback` when the value is shorter.
    @inline(__always) func at(_ i: Int, _ fallback: Double = 0) -> Double { i < count ? values[i] : fallback }
}

extension Keyframe where Value == [Double] {
    /// The eased fraction of dimension `i` at linear fraction `t` of the segment.
    @inline(__always) func eased(_ i: Int, _ t: Double) -> Double {
        let curve = easing.isEmpty ? TimingFunction.linear : easing[Swift.min(i, easing.count - 1)]
        return curve.value(at: t)
    }
}

/// A Bézier path as Bodymovin writes it: vertices with in and out tangents relative to them.
struct BezierShape: Sendable {
    var vertices: [Point]
    var inTangents: [Point]
    var outTangents: [Point]
    var closed: Bool

    init(vertices: [Point], inTangents: [Point], outTangents: [Point], closed: Bool) {
        self.vertices = vertices
        self.inTangents = inTangents
        self.outTangents = outTangents
        self.closed = closed
    }

    /// Appends the shape as one contour, backwards when `reversed`.
    func append(to path: inout Path, reversed: Bool, transform m: AffineTransform = .identity) {
        append(to: &path, reversed: reversed, transform: m, towards: nil, 0)
    }

    /// Appends the shape, or when `other` is given the shape a fraction `e` of the way to it (a path keyframe
    /// between its values, vertex by vertex), mapped through `m`: no shape is made on the way.
    func append(to path: inout Path, reversed: Bool, transform m: AffineTransform, towards other: BezierShape?,
                _ e: Double) {
        let n = vertices.count
        guard n > 0, inTangents.count == n, outTangents.count == n else { return }
        // Shapes that do not match are not blended: the nearer end is drawn.
        if let other, other.vertices.count != n || other.inTangents.count != n || other.outTangents.count != n {
            return (e < 1 ? self : other).append(to: &path, reversed: reversed, transform: m, towards: nil, 0)
        }
        @inline(__always) func vertex(_ i: Int) -> Point {
            guard let other else { return vertices[i] }
            return vertices[i] + (other.vertices[i] - vertices[i]) * e
        }
        @inline(__always) func inTangent(_ i: Int) -> Point {
            guard let other else { return inTangents[i] }
            return inTangents[i] + (other.inTangents[i] - inTangents[i]) * e
        }
        @inline(__always) func outTangent(_ i: Int) -> Point {
            guard let other else { return outTangents[i] }
            return outTangents[i] + (other.outTangents[i] - outTangents[i]) * e
        }
        @inline(__always) func index(_ k: Int) -> Int { reversed ? (n - k) % n : k }
        let first = index(0)
        path.move(to: m.apply(vertex(first)))
        let segments = closed ? n : n - 1
        guard segments > 0 else { return }
        for k in 1...segments {
            let a = index(k - 1), b = index(k % n)
            let va = vertex(a), vb = vertex(b)
            // Going backwards, the curve leaves a by its in tangent and reaches b by its out tangent.
            let c1 = va + (reversed ? inTangent(a) : outTangent(a))
            let c2 = vb + (reversed ? outTangent(b) : inTangent(b))
            if c1 == va && c2 == vb {
                path.line(to: m.apply(vb))
            } else {
                path.cubic(to: m.apply(vb), control1: m.apply(c1), control2: m.apply(c2))
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
struct AnimatedShape: Sendable {
    var keyframes: [Keyframe<BezierShape>]
    /// The After Effects expression that gives the shape instead, when the path has one.
    var expression: ExpressionBinding?

    init(keyframes: [Keyframe<BezierShape>], expression: ExpressionBinding? = nil) {
        self.keyframes = keyframes
        self.expression = expression
    }

    func value(at frame: Double) -> BezierShape? {
        if let expression {
            var shape = BezierShape(vertices: [], inTangents: [], outTangents: [], closed: false)
            expression.engine.path(expression.property, at: frame) { shape = $0 }
            return shape
        }
        guard !keyframes.isEmpty else { return nil }
        let (index, t) = keyframes.segment(at: frame)
        let k = keyframes[index]
        guard t > 0 else { return k.value }
        let e = (k.easing.first ?? .linear).value(at: t)
        return k.value.interpolated(to: k.endValue ?? keyframes[index + 1].value, e)
    }

    /// The shape at `frame`, as `value(at:)` gives it, written into `shape`, whose arrays keep their storage.
    func sample(at frame: Double, into shape: inout BezierShape) {
        if let expression {
            shape.removeAll()
            return expression.engine.path(expression.property, at: frame) { value in
                shape.closed = value.closed
                for i in value.vertices.indices {
                    shape.append(value.vertices[i], in: value.inTangents[i], out: value.outTangents[i])
                }
            }
        }
        shape.removeAll()
        guard !keyframes.isEmpty else { return }
        let (index, t) = keyframes.segment(at: frame)
        let k = keyframes[index]
        let from = k.value
        shape.closed = from.closed
        let n = from.vertices.count
        guard n == from.inTangents.count, n == from.outTangents.count else { return }
        var e = 0.0, to = from
        if t > 0 {
            e = (k.easing.first ?? .linear).value(at: t)
            to = k.endValue ?? keyframes[index + 1].value
            // Shapes that do not match are not blended: the nearer end is drawn, as `append` does.
            if to.vertices.count != n || to.inTangents.count != n || to.outTangents.count != n {
                if e >= 1 { return sample(to, into: &shape) }
                e = 0
                to = from
            }
        }
        for i in 0..<n {
            shape.append(from.vertices[i] + (to.vertices[i] - from.vertices[i]) * e,
                         in: from.inTangents[i] + (to.inTangents[i] - from.inTangents[i]) * e,
                         out: from.outTangents[i] + (to.outTangents[i] - from.outTangents[i]) * e)
        }
    }

    private func sample(_ value: BezierShape, into shape: inout BezierShape) {
        let n = value.vertices.count
        guard n == value.inTangents.count, n == value.outTangents.count else { return }
        shape.closed = value.closed
        for i in 0..<n { shape.append(value.vertices[i], in: value.inTangents[i], out: value.outTangents[i]) }
    }

    /// Appends the shape at `frame` to `path`, mapped through `m`, as `value(at:)` gives it, without making it.
    func append(at frame: Double, to path: inout Path, reversed: Bool, transform m: AffineTransform) {
        if let expression {
            return expression.engine.path(expression.property, at: frame) {
                $0.append(to: &path, reversed: reversed, transform: m)
            }
        }
        guard !keyframes.isEmpty else { return }
        let (index, t) = keyframes.segment(at: frame)
        let k = keyframes[index]
        guard t > 0 else { return k.value.append(to: &path, reversed: reversed, transform: m) }
        let e = (k.easing.first ?? .linear).value(at: t)
        k.value.append(to: &path, reversed: reversed, transform: m, towards: k.endValue ?? keyframes[index + 1].value, e)
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

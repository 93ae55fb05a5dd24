#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a path and a `StrokeStyle` into the outline of its stroke, to be filled with the non-zero rule.
///
/// Each contour is flattened to a polyline within the tolerance, cut into dashes if asked, and each polyline is
/// offset by half the width on both sides: one closed outline per open polyline (right side forward, end cap, left
/// side backward, start cap) and two loops per closed one. The outer side of a corner gets the style's join; the
/// inner side meets at the offset lines' crossing when that lies well inside both segments, or else goes through
/// the corner point itself (as Skia and cairo do). Going through the corner makes the outline's winding number the
/// sum of those of every segment's rectangle and every join's wedge, all turning the same way, so the non-zero
/// fill is exactly their union however short the segments, however sharp the turns. Vertices inside a curve get
/// a round join, which keeps the outline within the tolerance of the curve's true offset; where the turn is too
/// small for the round join to have a point of its own, the outer side too meets at the offset lines' crossing.
///
/// A `Stroker` keeps its scratch buffers between calls: reuse one to stroke many paths without allocating.
public final class Stroker {
    /// The centre line of the contour being stroked, and whether each vertex is a corner (an element boundary,
    /// which gets the style's join) or lies inside a curve (which gets a round join).
    private var points: [Point] = []
    private var corners: [Vertex] = []
    /// The left side of the polyline being stroked, built forwards and emitted backwards.
    private var left: [Point] = []
    /// The dash being built, and the first dash of a closed contour (joined to the last one when both are on).
    private var dashPoints: [Point] = []
    private var dashCorners: [Vertex] = []
    private var firstDashPoints: [Point] = []
    private var firstDashCorners: [Vertex] = []

    // Per-stroke settings.
    private var halfWidth = 0.5
    private var tolerance = 0.1
    private var join = LineJoin.miter
    private var cap = LineCap.butt
    /// Square of the miter limit, compared with 2/(1 + cos φ), the squared ratio of miter length to width.
    private var miterLimitSquared = 100.0
    /// The angle step of round joins and caps, so that each chord stays within the tolerance of the arc.
    private var roundCos = 0.0, roundSin = 1.0
    /// Points closer than this are merged: a shorter segment has no reliable direction.
    private var mergeDistanceSquared = 0.0
    /// How many more dashes this path may be cut into: each dash makes its own caps, so the path's point budget is
    /// shared by all its contours' dashes.
    private var dashBudget = 0.0

    public init() {
        points.reserveCapacity(256); corners.reserveCapacity(256); left.reserveCapacity(256)
    }

    /// The outline of `path` stroked with `style`; `tolerance` is in the path's units (a device tolerance
    /// divided by the scale of the transform that will be applied).
    public func stroke(_ path: Path, style: StrokeStyle, tolerance: Double) -> Path {
        var sink = PathOutlineSink()
        sink.path.reserveCapacity(path.elements.count * 8)
        stroke(path, style: style, tolerance: tolerance, into: &sink)
        return sink.path
    }

    /// Feeds `sink` the edges of the outline of `path` stroked with `style`, mapped through `transform`: the same
    /// outline as `stroke(_:style:tolerance:)` without building a path. `tolerance` is in the path's units.
    public func stroke<Sink: EdgeSink>(_ path: Path, style: StrokeStyle, tolerance: Double,
                                       transform: AffineTransform, into sink: inout Sink) {
        streamEdges(path, style: style, tolerance: tolerance, transform: transform, into: &sink)
    }

    /// The same edges into `edges` (after what it holds), through a copy of the stroker specialised for it: the
    /// generic form above runs unspecialised when called from another module, a protocol call per edge.
    public func stroke(_ path: Path, style: StrokeStyle, tolerance: Double, transform: AffineTransform,
                       into edges: inout EdgeList) {
        streamEdges(path, style: style, tolerance: tolerance, transform: transform, into: &edges)
    }

    @inline(__always)
    private func streamEdges<Sink: EdgeSink>(_ path: Path, style: StrokeStyle, tolerance: Double,
                                             transform: AffineTransform, into sink: inout Sink) {
        withUnsafeMutablePointer(to: &sink) { target in
            var edges = EdgeOutlineSink(sink: target, transform: transform)
            stroke(path, style: style, tolerance: tolerance, into: &edges)
            edges.closeContour()
        }
    }

    func stroke<S: OutlineSink>(_ path: Path, style: StrokeStyle, tolerance tol: Double, into out: inout S) {
        let h = style.lineWidth / 2
        guard h > 0, h.isFinite, !path.isEmpty else { return }
        halfWidth = h
        tolerance = tol.isFinite && tol > 0 ? Swift.max(tol, h * 1e-9) : defaultStrokeTolerance
        join = style.lineJoin
        cap = style.lineCap
        let limit = style.miterLimit.isFinite ? Swift.max(style.miterLimit, 1) : 1
        miterLimitSquared = limit * limit
        let roundJoins = style.lineJoin == .round || style.lineCap == .round
        let estimate = Stroker.pointEstimate(path, tolerance: tolerance, roundStep: roundStep(), roundJoins: roundJoins)
        if estimate > Double(Stroker.maxPointsPerPath) {
            // The count of a curve's points goes as 1/√tolerance: coarsen until the path fits.
            let ratio = estimate / Double(Stroker.maxPointsPerPath)
            tolerance = Swift.min(tolerance * ratio * ratio, h)
        }
        let step = roundStep()
        roundCos = cos(step); roundSin = sin(step)
        let merge = tolerance * 1e-3
        mergeDistanceSquared = merge * merge
        let dashes = style.effectiveDashes
        // A dash is two caps and its sides: a round cap is a half turn of round steps.
        let pointsPerDash = 4 + (style.lineCap == .round ? 2 * (Double.pi / step + 1) : 4)
        dashBudget = Swift.min(Double(Stroker.maxDashesPerPath), Double(Stroker.maxPointsPerPath) / pointsPerDash)

        points.removeAll(keepingCapacity: true)
        corners.removeAll(keepingCapacity: true)
        var drawn = false   // the contour has an element after its move (a lone move is not stroked)
        var start = Point.zero
        for e in path.elements {
            switch e {
            case .move(let p):
                finishContour(closed: false, drawn: drawn, dashes: dashes, style: style, into: &out)
                points.removeAll(keepingCapacity: true)
                corners.removeAll(keepingCapacity: true)
                drawn = false
                start = p
                addPoint(p, corner: true)
            case .line(let p):
                drawn = true
                addPoint(p, corner: true)
            case .quad(let c, let p):
                drawn = true
                let p0 = points.last ?? start
                setOutgoingTangent(Stroker.firstTangent(p0, c, c, p))
                let n = Path.segmentCount(secondDifference: (p0 - c * 2 + p).length, degreeFactor: 0.25,
                                          tolerance: tolerance)
                if n > 1 {
                    let dt = 1 / Double(n)
                    for i in 1..<n {
                        addPoint(Path.quadPoint(p0, c, p, Double(i) * dt), corner: false)
                    }
                }
                addPoint(p, corner: true, incoming: Stroker.firstTangent(p, c, c, p0, reversed: true))
            case .cubic(let c1, let c2, let p):
                drawn = true
                let p0 = points.last ?? start
                setOutgoingTangent(Stroker.firstTangent(p0, c1, c2, p))
                let dd = Swift.max((p0 - c1 * 2 + c2).length, (c1 - c2 * 2 + p).length)
                let n = Path.segmentCount(secondDifference: dd, degreeFactor: 0.75, tolerance: tolerance)
                if n > 1 {
                    let dt = 1 / Double(n)
                    for i in 1..<n {
                        addPoint(Path.cubicPoint(p0, c1, c2, p, Double(i) * dt), corner: false)
                    }
                }
                addPoint(p, corner: true, incoming: Stroker.firstTangent(p, c2, c1, p0, reversed: true))
            case .close:
                finishContour(closed: true, drawn: true, dashes: dashes, style: style, into: &out)
                points.removeAll(keepingCapacity: true)
                corners.removeAll(keepingCapacity: true)
                drawn = false
            }
        }
        finishContour(closed: false, drawn: drawn, dashes: dashes, style: style, into: &out)
    }

    /// The most points one path's outline may take, whatever the transform: a tolerance so fine that the path
    /// would need more (a transform scaling it a millionfold makes the tolerance a millionth) is coarsened until
    /// it fits, so work and memory stay bounded.
    static let maxPointsPerPath = 1 << 20

    /// The least angle between two points of a round join or cap: a half turn takes at most 512 points, which
    /// keeps the chords within 0.1 px of circles up to about 20,000 px in radius, larger than any canvas.
    static let minRoundStep = Double.pi / 512

    /// The angle step of round joins and caps for the current half width and tolerance: a chord of angle θ on a
    /// circle of radius h is within h(1 − cos θ/2) of the arc.
    private func roundStep() -> Double {
        let h = halfWidth
        let step = tolerance < h ? Swift.min(2 * acos(1 - tolerance / h), Double.pi / 2) : Double.pi / 2
        return Swift.max(step, Stroker.minRoundStep)
    }

    /// About how many points stroking `path` at `tolerance` makes: each curve's flattened points, and every
    /// vertex's join (a full turn of round steps at most when joins or caps are round).
    static func pointEstimate(_ path: Path, tolerance: Double, roundStep: Double, roundJoins: Bool) -> Double {
        let perVertex = roundJoins ? 2 * Double.pi / roundStep + 4 : 4
        var total = 0.0
        var last = Point.zero
        for e in path.elements {
            switch e {
            case .move(let p), .line(let p):
                last = p
            case .quad(let c, let p):
                let dd = (last - c * 2 + p).length
                total += Double(Path.segmentCount(secondDifference: dd, degreeFactor: 0.25, tolerance: tolerance))
                last = p
            case .cubic(let c1, let c2, let p):
                let dd = Swift.max((last - c1 * 2 + c2).length, (c1 - c2 * 2 + p).length)
                total += Double(Path.segmentCount(secondDifference: dd, degreeFactor: 0.75, tolerance: tolerance))
                last = p
            case .close:
                break
            }
            total += perVertex
        }
        return total
    }

    /// Appends a vertex to the centre line, merging it into the last one when they (nearly) coincide and
    /// dropping it when it is not finite.
    @inline(__always)
    private func addPoint(_ p: Point, corner: Bool, incoming: Point = .zero) {
        guard p.x.isFinite, p.y.isFinite else { return }
        if let last = points.last {
            let dx = p.x - last.x, dy = p.y - last.y
            if dx * dx + dy * dy <= mergeDistanceSquared {
                if corner { corners[corners.count - 1].corner = true }
                return
            }
        }
        points.append(p)
        corners.append(Vertex(corner: corner, tangentIn: incoming, tangentOut: .zero))
    }

    /// Records the exact direction in which a curve leaves the last vertex.
    @inline(__always)
    private func setOutgoingTangent(_ t: Point) {
        guard !corners.isEmpty else { return }
        corners[corners.count - 1].tangentOut = t
    }

    /// The unit tangent at the start of a curve from `p0` (towards the first control point distinct from it), or
    /// with `reversed` the unit direction in which a curve arrives at `p0`; zero when the curve is a point.
    static func firstTangent(_ p0: Point, _ a: Point, _ b: Point, _ c: Point, reversed: Bool = false) -> Point {
        for q in [a, b, c] {
            let dx = q.x - p0.x, dy = q.y - p0.y
            let len = (dx * dx + dy * dy).squareRoot()
            if len > 1e-12 * Swift.max(1, Swift.abs(p0.x) + Swift.abs(p0.y)) && len.isFinite {
                return reversed ? Point(-dx / len, -dy / len) : Point(dx / len, dy / len)
            }
        }
        return .zero
    }

    private func finishContour<S: OutlineSink>(closed: Bool, drawn: Bool, dashes: [Double]?, style: StrokeStyle,
                                               into out: inout S) {
        guard drawn, let first = points.first else { return }
        var closed = closed
        if closed, points.count > 2 {
            let last = points[points.count - 1]
            let dx = last.x - first.x, dy = last.y - first.y
            if dx * dx + dy * dy <= mergeDistanceSquared {
                points.removeLast()
                let v = corners.removeLast()
                corners[0].tangentIn = v.tangentIn
            }
        }
        if points.count == 2, closed, points[0] == points[1] { closed = false }
        if points.count < 2 {
            if let dashes, !Stroker.dashIsOn(atStartOf: dashes, phase: style.dashPhase) { return }
            dot(at: first, direction: Point(1, 0), into: &out)
            return
        }
        if let dashes {
            dash(closed: closed, pattern: dashes, phase: style.dashPhase, into: &out)
        } else {
            points.withUnsafeBufferPointer { p in
                corners.withUnsafeBufferPointer { c in
                    if closed { strokeClosed(p, c, into: &out) } else { strokeOpen(p, c, into: &out) }
                }
            }
        }
    }

    // MARK: Polylines

    /// Unit direction and length of the segment from `a` to `b` (distinct points).
    @inline(__always)
    private static func direction(_ a: Point, _ b: Point) -> (Point, Double) {
        let dx = b.x - a.x, dy = b.y - a.y
        let len = (dx * dx + dy * dy).squareRoot()
        guard len > 0, len.isFinite else { return (Point(1, 0), 0) }
        return (Point(dx / len, dy / len), len)
    }

    private func strokeOpen<S: OutlineSink>(_ p: UnsafeBufferPointer<Point>, _ info: UnsafeBufferPointer<Vertex>,
                                            into out: inout S) {
        let n = p.count, h = halfWidth
        let (firstDir, firstLen) = Stroker.direction(p[0], p[1])
        var d0 = firstDir, len0 = firstLen
        left.removeAll(keepingCapacity: true)
        let n0 = Point(-d0.y, d0.x)
        out.moveTo(Point(p[0].x - n0.x * h, p[0].y - n0.y * h))
        left.append(Point(p[0].x + n0.x * h, p[0].y + n0.y * h))
        if n > 2 {
            for i in 1..<(n - 1) {
                let (d1, len1) = Stroker.direction(p[i], p[i + 1])
                joinAt(p[i], d0, len0, d1, len1, info[i], into: &out)
                d0 = d1; len0 = len1
            }
        }
        let pe = p[n - 1], ne = Point(-d0.y, d0.x)
        out.lineTo(Point(pe.x - ne.x * h, pe.y - ne.y * h))
        let endTangent = info[n - 1].tangentIn
        capAt(pe, chord: d0, tangent: endTangent == .zero ? d0 : endTangent, into: &out)
        for q in left.reversed() { out.lineTo(q) }
        let startTangent = info[0].tangentOut
        let back = Point(-firstDir.x, -firstDir.y)
        capAt(p[0], chord: back, tangent: startTangent == .zero ? back : Point(-startTangent.x, -startTangent.y),
              into: &out)
        out.closeContour()
    }

    private func strokeClosed<S: OutlineSink>(_ p: UnsafeBufferPointer<Point>, _ info: UnsafeBufferPointer<Vertex>,
                                              into out: inout S) {
        let n = p.count
        left.removeAll(keepingCapacity: true)
        var (d0, len0) = Stroker.direction(p[n - 1], p[0])
        out.beginContour()
        for i in 0..<n {
            let (d1, len1) = Stroker.direction(p[i], p[i + 1 == n ? 0 : i + 1])
            joinAt(p[i], d0, len0, d1, len1, info[i], into: &out)
            d0 = d1; len0 = len1
        }
        out.closeContour()
        out.beginContour()
        for q in left.reversed() { out.lineTo(q) }
        out.closeContour()
    }

    /// Emits the join at vertex `v` between the incoming chord direction `c0` and the outgoing `c1`: right-side
    /// points to `out`, left-side points to `left`. At a corner where a curve arrives or leaves, the join's shape
    /// (and the miter limit's verdict) follows the curve's exact tangent, as cairo's does.
    @inline(__always)
    private func joinAt<S: OutlineSink>(_ v: Point, _ c0: Point, _ len0: Double, _ c1: Point, _ len1: Double,
                                        _ info: Vertex, into out: inout S) {
        let h = halfWidth
        let t0 = info.tangentIn == .zero ? c0 : info.tangentIn
        let t1 = info.tangentOut == .zero ? c1 : info.tangentOut
        let exact = t0 == c0 && t1 == c1
        let n0 = Point(-t0.y, t0.x), n1 = Point(-t1.y, t1.x)
        let cross = t0.x * t1.y - t0.y * t1.x
        let dot = t0.x * t1.x + t0.y * t1.y
        if exact && dot > 0 && Swift.abs(cross) < 1e-12 {
            // Straight on: both offsets continue.
            out.lineTo(Point(v.x - n1.x * h, v.y - n1.y * h))
            left.append(Point(v.x + n1.x * h, v.y + n1.y * h))
            return
        }
        // Inside a curve the join is round; a turn under one round step has no point of its fan, so the arc would be
        // one chord, and the offset lines' crossing, about as far outside the arc as that chord lies inside it (within
        // the tolerance either way), stands for both of its ends: one edge fewer per vertex of a curve.
        let style: LineJoin = info.corner ? join : .round
        let tipOnly = !info.corner && exact && dot >= roundCos
        // The offset lines cross at v ± (n0 + n1)·h/(1 + cos φ); on the inner side that point may stand in for the
        // corner when it lies within half of each segment (see the type's comment).
        let onePlusDot = 1 + dot
        let innerOK = exact && onePlusDot > 1e-12 && h * Swift.abs(cross) <= onePlusDot * 0.5 * Swift.min(len0, len1)
        let k = onePlusDot > 1e-12 ? h / onePlusDot : 0
        let mx = (n0.x + n1.x) * k, my = (n0.y + n1.y) * k
        let cn0 = Point(-c0.y, c0.x), cn1 = Point(-c1.y, c1.x)
        if cross >= 0 {
            // Turning towards +n: the right side (−n) is outside.
            if t0 != c0 { out.lineTo(Point(v.x - cn0.x * h, v.y - cn0.y * h)) }
            outerJoin(v, Point(-n0.x, -n0.y), Point(-n1.x, -n1.y), Point(v.x - mx, v.y - my), onePlusDot,
                      positive: true, style: style, tipOnly: tipOnly, into: &out)
            if t1 != c1 { out.lineTo(Point(v.x - cn1.x * h, v.y - cn1.y * h)) }
            if innerOK {
                left.append(Point(v.x + mx, v.y + my))
            } else {
                left.append(Point(v.x + cn0.x * h, v.y + cn0.y * h))
                left.append(v)
                left.append(Point(v.x + cn1.x * h, v.y + cn1.y * h))
            }
        } else {
            if t0 != c0 { left.append(Point(v.x + cn0.x * h, v.y + cn0.y * h)) }
            outerJoin(v, n0, n1, Point(v.x + mx, v.y + my), onePlusDot, positive: false, style: style,
                      tipOnly: tipOnly, into: &left)
            if t1 != c1 { left.append(Point(v.x + cn1.x * h, v.y + cn1.y * h)) }
            if innerOK {
                out.lineTo(Point(v.x - mx, v.y - my))
            } else {
                out.lineTo(Point(v.x - cn0.x * h, v.y - cn0.y * h))
                out.lineTo(v)
                out.lineTo(Point(v.x - cn1.x * h, v.y - cn1.y * h))
            }
        }
    }

    /// The outer side of a join from v + u0·h to v + u1·h (unit offsets), turning the `positive` way; with `tipOnly`,
    /// the offset lines' crossing alone.
    @inline(__always)
    private func outerJoin<S: PointSink>(_ v: Point, _ u0: Point, _ u1: Point, _ miterTip: Point, _ onePlusDot: Double,
                                         positive: Bool, style: LineJoin, tipOnly: Bool, into out: inout S) {
        let h = halfWidth
        switch style {
        case _ where tipOnly, .miter where miterLimitSquared * onePlusDot >= 2:
            out.add(miterTip)
        case .round:
            out.add(Point(v.x + u0.x * h, v.y + u0.y * h))
            fan(v, from: u0, to: u1, positive: positive, into: &out)
            out.add(Point(v.x + u1.x * h, v.y + u1.y * h))
        default:
            out.add(Point(v.x + u0.x * h, v.y + u0.y * h))
            out.add(Point(v.x + u1.x * h, v.y + u1.y * h))
        }
    }

    /// The points strictly between v + u·h and v + w·h on the circle around `v`, one round step apart, turning
    /// the `positive` way (from +x towards +y) through at most a half turn.
    @inline(__always)
    private func fan<S: PointSink>(_ v: Point, from u: Point, to w: Point, positive: Bool, into out: inout S) {
        let h = halfWidth, c = roundCos, s = positive ? roundSin : -roundSin
        var x = u.x, y = u.y
        // The remaining turn exceeds one step while cos(remaining) < cos(step); a half turn needs at most π/step.
        var guardCount = 0
        while x * w.x + y * w.y < c && guardCount < 4096 {
            let nx = x * c - y * s, ny = x * s + y * c
            x = nx; y = ny
            out.add(Point(v.x + x * h, v.y + y * h))
            guardCount += 1
        }
    }

    /// The cap at end point `v` of a polyline whose last chord runs in direction `chord` and whose curve (if any)
    /// arrives in direction `tangent`: from the right side (v − n·h) round the front to the left side (v + n·h).
    @inline(__always)
    private func capAt<S: OutlineSink>(_ v: Point, chord c: Point, tangent d: Point, into out: inout S) {
        let h = halfWidth, n = Point(-d.y, d.x)
        if d != c { out.lineTo(Point(v.x - n.x * h, v.y - n.y * h)) }
        switch cap {
        case .butt:
            break
        case .square:
            out.lineTo(Point(v.x + (d.x - n.x) * h, v.y + (d.y - n.y) * h))
            out.lineTo(Point(v.x + (d.x + n.x) * h, v.y + (d.y + n.y) * h))
        case .round:
            fan(v, from: Point(-n.x, -n.y), to: n, positive: true, into: &out)
        }
        out.lineTo(Point(v.x + n.x * h, v.y + n.y * h))
        if d != c { out.lineTo(Point(v.x - c.y * h, v.y + c.x * h)) }
    }

    /// A zero-length stroke: a disc for round caps, a square turned along `direction` for square caps, nothing for
    /// butt caps (as cairo and SVG).
    private func dot<S: OutlineSink>(at v: Point, direction d: Point, into out: inout S) {
        let h = halfWidth, n = Point(-d.y, d.x)
        switch cap {
        case .butt:
            return
        case .square:
            out.moveTo(Point(v.x + (d.x - n.x) * h, v.y + (d.y - n.y) * h))
            out.lineTo(Point(v.x + (d.x + n.x) * h, v.y + (d.y + n.y) * h))
            out.lineTo(Point(v.x + (-d.x + n.x) * h, v.y + (-d.y + n.y) * h))
            out.lineTo(Point(v.x + (-d.x - n.x) * h, v.y + (-d.y - n.y) * h))
        case .round:
            out.moveTo(Point(v.x + d.x * h, v.y + d.y * h))
            fan(v, from: d, to: Point(-d.x, -d.y), positive: true, into: &out)
            out.lineTo(Point(v.x - d.x * h, v.y - d.y * h))
            fan(v, from: Point(-d.x, -d.y), to: d, positive: true, into: &out)
        }
        out.closeContour()
    }

    // MARK: Dashes

    /// Whether the pattern is in a dash (not a gap) at its start, after `phase`.
    static func dashIsOn(atStartOf pattern: [Double], phase: Double) -> Bool {
        var index = 0, remaining = 0.0
        return dashStart(pattern, phase: phase, index: &index, remaining: &remaining)
    }

    /// Finds where `phase` falls in the pattern: the entry's index and what is left of it; true when it is a dash.
    static func dashStart(_ pattern: [Double], phase: Double, index: inout Int, remaining: inout Double) -> Bool {
        let total = pattern.reduce(0, +)
        var offset = phase.isFinite ? phase.truncatingRemainder(dividingBy: total) : 0
        if offset < 0 { offset += total }
        index = 0
        // A zero-length dash at the phase is kept (it draws a dot); a full entry moves on to the next.
        while index < pattern.count - 1 && offset >= pattern[index] && pattern[index] > 0 {
            offset -= pattern[index]
            index += 1
        }
        remaining = Swift.max(0, pattern[index] - offset)
        return index % 2 == 0
    }

    /// Most dashes one path may be cut into (fewer when its caps are round): a pattern far finer than the path is
    /// long strokes the rest of it solid instead of taking unbounded time and memory.
    static let maxDashesPerPath = 100_000

    private func dash<S: OutlineSink>(closed: Bool, pattern: [Double], phase: Double, into out: inout S) {
        let n = points.count
        let segmentCount = closed ? n : n - 1
        var total = 0.0
        for i in 0..<segmentCount { total += points[i].distance(to: points[i + 1 == n ? 0 : i + 1]) }
        let period = pattern.reduce(0, +)
        let dashCount = total / period * Double(pattern.count)
        guard dashCount <= dashBudget else {
            points.withUnsafeBufferPointer { p in
                corners.withUnsafeBufferPointer { c in
                    if closed { strokeClosed(p, c, into: &out) } else { strokeOpen(p, c, into: &out) }
                }
            }
            return
        }
        dashBudget -= dashCount
        var index = 0, remaining = 0.0
        var on = Stroker.dashStart(pattern, phase: phase, index: &index, remaining: &remaining)
        let startsOn = on
        var toggled = false
        dashPoints.removeAll(keepingCapacity: true)
        dashCorners.removeAll(keepingCapacity: true)
        firstDashPoints.removeAll(keepingCapacity: true)
        firstDashCorners.removeAll(keepingCapacity: true)
        if on { dashPoints.append(points[0]); dashCorners.append(corners[0]) }
        var lastDirection = Point(1, 0)
        for i in 0..<segmentCount {
            let a = points[i], b = points[i + 1 == n ? 0 : i + 1]
            let (d, len) = Stroker.direction(a, b)
            lastDirection = d
            var pos = 0.0
            while len - pos > remaining {
                pos += remaining
                let q = Point(a.x + d.x * pos, a.y + d.y * pos)
                if on {
                    dashPoints.append(q); dashCorners.append(.cut)
                    if closed && startsOn && !toggled {
                        swap(&firstDashPoints, &dashPoints)
                        swap(&firstDashCorners, &dashCorners)
                    } else {
                        emitDash(direction: d, into: &out)
                    }
                    dashPoints.removeAll(keepingCapacity: true)
                    dashCorners.removeAll(keepingCapacity: true)
                } else {
                    dashPoints.append(q); dashCorners.append(.cut)
                }
                toggled = true
                on.toggle()
                index = index + 1 == pattern.count ? 0 : index + 1
                remaining = pattern[index]
            }
            remaining -= len - pos
            if on {
                dashPoints.append(b)
                dashCorners.append(corners[i + 1 == n ? 0 : i + 1])
            }
        }
        if closed && !toggled {
            // Never a gap: the contour stays closed.
            points.withUnsafeBufferPointer { p in
                corners.withUnsafeBufferPointer { c in strokeClosed(p, c, into: &out) }
            }
            return
        }
        if closed && startsOn {
            if on {
                // The last dash runs through the start into the first one.
                for j in 1..<firstDashPoints.count {
                    dashPoints.append(firstDashPoints[j]); dashCorners.append(firstDashCorners[j])
                }
                emitDash(direction: lastDirection, into: &out)
            } else {
                swap(&firstDashPoints, &dashPoints)
                swap(&firstDashCorners, &dashCorners)
                emitDash(direction: lastDirection, into: &out)
            }
        } else if on {
            emitDash(direction: lastDirection, into: &out)
        }
    }

    /// Strokes the dash in `dashPoints` as an open polyline (merging coincident points); a dash of zero length
    /// becomes a dot turned along `direction`.
    private func emitDash<S: OutlineSink>(direction: Point, into out: inout S) {
        var w = 0
        for r in 0..<dashPoints.count {
            if w > 0 {
                let dx = dashPoints[r].x - dashPoints[w - 1].x, dy = dashPoints[r].y - dashPoints[w - 1].y
                if dx * dx + dy * dy <= mergeDistanceSquared { continue }
            }
            dashPoints[w] = dashPoints[r]; dashCorners[w] = dashCorners[r]
            w += 1
        }
        guard w > 0 else { return }
        if w == 1 { return dot(at: dashPoints[0], direction: direction, into: &out) }
        dashPoints.withUnsafeBufferPointer { p in
            dashCorners.withUnsafeBufferPointer { c in
                strokeOpen(UnsafeBufferPointer(rebasing: p[0..<w]), UnsafeBufferPointer(rebasing: c[0..<w]),
                           into: &out)
            }
        }
    }
}

/// What the stroker knows of a vertex of its centre line: whether it is a corner (an element boundary, which gets
/// the style's join; inside a curve the join is round), and the exact directions in which curves arrive and leave
/// (zero when the chord's direction is exact, as for lines).
struct Vertex {
    var corner: Bool
    var tangentIn: Point
    var tangentOut: Point

    /// A vertex where a dash was cut from a segment.
    static let cut = Vertex(corner: true, tangentIn: .zero, tangentOut: .zero)
}

/// The rasterizer's default tolerance in pixels, used when a caller passes no usable tolerance.
let defaultStrokeTolerance = 0.1

/// Receives the points of an outline side.
protocol PointSink {
    mutating func add(_ p: Point)
}

extension Array: PointSink where Element == Point {
    @inline(__always) mutating func add(_ p: Point) { append(p) }
}

/// Receives closed outline contours, point by point.
protocol OutlineSink: PointSink {
    mutating func moveTo(_ p: Point)
    mutating func lineTo(_ p: Point)
    /// Marks that the next `lineTo` starts a new contour.
    mutating func beginContour()
    mutating func closeContour()
}

extension OutlineSink {
    @inline(__always) mutating func add(_ p: Point) { lineTo(p) }
}

/// Builds the outline as a `Path` of straight lines.
struct PathOutlineSink: OutlineSink {
    var path = Path()
    var needsMove = true

    @inline(__always) mutating func moveTo(_ p: Point) { path.move(to: p); needsMove = false }
    @inline(__always) mutating func lineTo(_ p: Point) {
        if needsMove { moveTo(p) } else { path.line(to: p) }
    }
    mutating func beginContour() { needsMove = true }
    mutating func closeContour() { path.close(); needsMove = true }
}

/// Feeds the outline's edges, mapped through a transform, to an `EdgeSink`.
struct EdgeOutlineSink<Sink: EdgeSink>: OutlineSink {
    /// The caller's sink, added to in place: a copy would share the storage of what it already holds, which the
    /// first edge added would then copy whole (every earlier outline, when a thread gathers a batch's in one list).
    let sink: UnsafeMutablePointer<Sink>
    let transform: AffineTransform
    var start = Point.zero, last = Point.zero
    var open = false

    init(sink: UnsafeMutablePointer<Sink>, transform: AffineTransform) {
        self.sink = sink
        self.transform = transform
    }

    @inline(__always) mutating func moveTo(_ p: Point) {
        closeContour()
        start = transform.apply(p); last = start; open = true
    }
    @inline(__always) mutating func lineTo(_ p: Point) {
        guard open else { return moveTo(p) }
        let q = transform.apply(p)
        sink.pointee.addEdge(from: last, to: q)
        last = q
    }
    mutating func beginContour() { closeContour() }
    mutating func closeContour() {
        if open && last != start { sink.pointee.addEdge(from: last, to: start) }
        open = false
    }
}

extension Path {
    /// The outline of this path stroked with `style`, to fill with the non-zero rule; `tolerance` is in the path's
    /// own units (a device tolerance divided by the scale of the transform that will be applied).
    public func stroked(_ style: StrokeStyle, tolerance: Double = 0.1) -> Path {
        Stroker().stroke(self, style: style, tolerance: tolerance)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A vector path: contours of lines and quadratic and cubic Bézier curves, as `CGPath`.
///
/// Arcs, ellipses and rounded rectangles are stored as the cubic curves that approximate them, so every
/// consumer (flattening, measuring, stroking, rasterizing) deals with four kinds of element only.
public struct Path: Hashable, Sendable {
    public enum Element: Hashable, Sendable {
        case move(Point)
        case line(Point)
        case quad(Point, Point)
        case cubic(Point, Point, Point)
        case close
    }

    /// Set only by the module's builders (here and in `PathReuse.swift`), which keep the four in step.
    public internal(set) var elements: [Element] = []
    /// The bounds of the elements' points, control points included, kept as they are added.
    public internal(set) var controlBounds = ControlBounds()
    /// The first point of the current contour, where `close` returns to.
    var contourStart: Point = .zero
    /// The end point of the last element, or nil when the path is empty.
    var currentPoint: Point?

    public init() {}

    public init(elements: [Element]) {
        for e in elements { append(e) }
    }

    public var isEmpty: Bool { elements.isEmpty }

    /// Reserves room for `n` elements, so that building a path of known size allocates once.
    public mutating func reserveCapacity(_ n: Int) {
        elements.reserveCapacity(n)
    }

    public mutating func append(_ e: Element) {
        switch e {
        case .move(let p): move(to: p)
        case .line(let p): line(to: p)
        case .quad(let c, let p): quad(to: p, control: c)
        case .cubic(let c1, let c2, let p): cubic(to: p, control1: c1, control2: c2)
        case .close: close()
        }
    }

    public mutating func move(to p: Point) {
        elements.append(.move(p))
        controlBounds.add(p)
        contourStart = p
        currentPoint = p
    }

    /// A line from the current point; starts a contour at `p` when there is no current point.
    public mutating func line(to p: Point) {
        guard currentPoint != nil else { return move(to: p) }
        reopenAfterClose()
        elements.append(.line(p))
        controlBounds.add(p)
        currentPoint = p
    }

    public mutating func quad(to p: Point, control c: Point) {
        if currentPoint == nil { move(to: c) }
        reopenAfterClose()
        elements.append(.quad(c, p))
        controlBounds.add(c); controlBounds.add(p)
        currentPoint = p
    }

    public mutating func cubic(to p: Point, control1 c1: Point, control2 c2: Point) {
        if currentPoint == nil { move(to: c1) }
        reopenAfterClose()
        elements.append(.cubic(c1, c2, p))
        controlBounds.add(c1); controlBounds.add(c2); controlBounds.add(p)
        currentPoint = p
    }

    /// Drawing on after `close` starts a new contour at the closed one's start (as CGPath and SVG do), so that
    /// every contour begins with a `move` and consumers need not track it.
    @inline(__always)
    private mutating func reopenAfterClose() {
        if case .close? = elements.last { move(to: contourStart) }
    }

    /// Closes the current contour with a straight line back to its start.
    public mutating func close() {
        guard currentPoint != nil else { return }
        if case .close? = elements.last { return }
        elements.append(.close)
        currentPoint = contourStart
    }

    /// Appends a closed rectangle, clockwise on a y-down screen (as `UIBezierPath(rect:)`).
    public mutating func addRect(_ r: Rect) {
        move(to: Point(r.minX, r.minY))
        line(to: Point(r.maxX, r.minY))
        line(to: Point(r.maxX, r.maxY))
        line(to: Point(r.minX, r.maxY))
        close()
    }

    /// Appends a closed ellipse inscribed in `r`, as four cubic quarter arcs.
    public mutating func addEllipse(in r: Rect) {
        let k = Path.quarterArcKappa
        let cx = r.midX, cy = r.midY, rx = r.width / 2, ry = r.height / 2
        move(to: Point(cx + rx, cy))
        cubic(to: Point(cx, cy + ry), control1: Point(cx + rx, cy + k * ry), control2: Point(cx + k * rx, cy + ry))
        cubic(to: Point(cx - rx, cy), control1: Point(cx - k * rx, cy + ry), control2: Point(cx - rx, cy + k * ry))
        cubic(to: Point(cx, cy - ry), control1: Point(cx - rx, cy - k * ry), control2: Point(cx - k * rx, cy - ry))
        cubic(to: Point(cx + rx, cy), control1: Point(cx + k * rx, cy - ry), control2: Point(cx + rx, cy - k * ry))
        close()
    }

    /// Appends a closed rectangle with circular corners, as `UIBezierPath(roundedRect:cornerRadius:)`; the radius is
    /// limited to half the shorter side, and a radius of 0 gives a plain rectangle.
    public mutating func addRoundedRect(_ r: Rect, cornerRadius: Double) {
        let rad = Swift.max(0, Swift.min(cornerRadius, r.width / 2, r.height / 2))
        guard rad > 0 else { return addRect(r) }
        let k = rad * (1 - Path.quarterArcKappa)
        move(to: Point(r.minX + rad, r.minY))
        line(to: Point(r.maxX - rad, r.minY))
        cubic(to: Point(r.maxX, r.minY + rad), control1: Point(r.maxX - k, r.minY), control2: Point(r.maxX, r.minY + k))
        line(to: Point(r.maxX, r.maxY - rad))
        cubic(to: Point(r.maxX - rad, r.maxY), control1: Point(r.maxX, r.maxY - k), control2: Point(r.maxX - k, r.maxY))
        line(to: Point(r.minX + rad, r.maxY))
        cubic(to: Point(r.minX, r.maxY - rad), control1: Point(r.minX + k, r.maxY), control2: Point(r.minX, r.maxY - k))
        line(to: Point(r.minX, r.minY + rad))
        cubic(to: Point(r.minX + rad, r.minY), control1: Point(r.minX, r.minY + k), control2: Point(r.minX + k, r.minY))
        close()
    }

    /// The control-point distance, as a fraction of the radius, of a cubic that best approximates a quarter circle:
    /// 4/3·(√2 − 1), whose radial error is at most 0.027 % of the radius.
    public static let quarterArcKappa = 4.0 / 3.0 * (2.0.squareRoot() - 1.0)

    public static func rect(_ r: Rect) -> Path {
        var p = Path()
        p.addRect(r)
        return p
    }

    public static func ellipse(in r: Rect) -> Path {
        var p = Path()
        p.addEllipse(in: r)
        return p
    }

    /// The path with every point mapped through `t`.
    public func applying(_ t: AffineTransform) -> Path {
        var out = Path()
        out.elements.reserveCapacity(elements.count)
        for e in elements {
            switch e {
            case .move(let p): out.move(to: t.apply(p))
            case .line(let p): out.line(to: t.apply(p))
            case .quad(let c, let p): out.quad(to: t.apply(p), control: t.apply(c))
            case .cubic(let c1, let c2, let p): out.cubic(to: t.apply(p), control1: t.apply(c1), control2: t.apply(c2))
            case .close: out.close()
            }
        }
        return out
    }

    /// The bounds of every point and control point; contains the path (the tight bounds may be smaller).
    public var controlPointBounds: Rect {
        let b = controlBounds
        guard b.minX <= b.maxX else { return .zero }
        return Rect(x: b.minX, y: b.minY, width: b.maxX - b.minX, height: b.maxY - b.minY)
    }
}

/// The bounds of a path's points and control points, which hold the path, and whether every coordinate is finite:
/// kept by the path's builders as elements are added, so that a fill, a stroke or a layer finds the area a path may
/// cover without walking its elements again each time it is drawn.
public struct ControlBounds: Hashable, Sendable {
    /// Infinite and inverted while no point has been added; a NaN coordinate is left out of them.
    public private(set) var minX = Double.infinity, minY = Double.infinity
    public private(set) var maxX = -Double.infinity, maxY = -Double.infinity
    /// False once a point with a NaN or infinite coordinate has been added.
    public private(set) var allFinite = true

    public init() {}

    @inline(__always)
    mutating func add(_ p: Point) {
        if p.x < minX { minX = p.x }
        if p.x > maxX { maxX = p.x }
        if p.y < minY { minY = p.y }
        if p.y > maxY { maxY = p.y }
        allFinite = allFinite && p.x.isFinite && p.y.isFinite
    }
}

/// Receives the straight edges of a flattened path, for filling.
public protocol EdgeSink {
    mutating func addEdge(from p0: Point, to p1: Point)
    /// True when no edge lying within the box from (`minX`, `minY`) to (`maxX`, `maxY`) would change what the sink
    /// produces (a rasterizer's edges beyond its clip box): a curve inside such a box is then not flattened.
    func addsNothing(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool
}

extension EdgeSink {
    @inlinable
    public func addsNothing(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool { false }
}

/// Straight edges kept in order, as pairs of points, in memory that is reused: a stroke's outline handed from the
/// stroker to a rasterizer without building a path. A class, so that adding an edge is two stores and a count, with
/// none of the checks an array makes for storage it shares (a stroke adds hundreds, twice per edge).
public final class EdgeList: EdgeSink {
    private var base: UnsafeMutablePointer<Point>
    private var capacity = 64
    private var used = 0

    public init() {
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// How many points the list holds: twice its edges.
    public var count: Int { used }

    public var isEmpty: Bool { used == 0 }

    /// Each edge's two ends, one after the other; valid until the list changes.
    public var ends: UnsafeBufferPointer<Point> { UnsafeBufferPointer(start: base, count: used) }

    /// Empties the list, keeping its memory.
    public func removeAll() { used = 0 }

    public func addEdge(from p0: Point, to p1: Point) {
        if used &+ 2 > capacity { grow() }
        (base + used).initialize(to: p0)
        (base + (used &+ 1)).initialize(to: p1)
        used &+= 2
    }

    /// Doubles the memory; kept out of `addEdge`, which is inlined.
    @inline(never)
    private func grow() {
        let grown = UnsafeMutablePointer<Point>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: base, count: used)
        base.deallocate()
        base = grown
        capacity *= 2
    }
}

extension Path {
    /// The most line segments one curve is split into: keeps a huge or broken curve from taking unbounded time.
    public static let maxSegmentsPerCurve = 4096

    /// Feeds `sink` the path mapped through `transform` as straight edges that stay within `tolerance` of the
    /// curves, closing every contour (fills treat open contours as closed).
    ///
    /// Inlinable so that a rasterizer in another module gets a copy specialised for its sink: each edge is then
    /// a direct, inlined call rather than a protocol call through a witness table.
    @inlinable @inline(__always)
    public func flattenForFill<Sink: EdgeSink>(transform t: AffineTransform, tolerance: Double, into sink: inout Sink) {
        Path.flatten(elements, transform: t, tolerance: tolerance, into: &sink)
    }

    /// What `flattenForFill` does, on the elements given. It takes them, not the path: the fill kernels inline the
    /// flattening, and a copy of the path made there would be destroyed by a helper that every module defines alike
    /// (which `scripts/check-fill-kernels.sh` forbids in the kernel modules).
    @inlinable @inline(__always)
    static func flatten<Elements: Sequence, Sink: EdgeSink>(_ elements: Elements, transform t: AffineTransform,
                                                            tolerance: Double, into sink: inout Sink)
    where Elements.Element == Element {
        var start = Point(0, 0), last = Point(0, 0), open = false
        // Wang's bound in squares (see `segmentCount(squaredSecondDifference:scale:)`), one product per curve.
        let quadScale = Path.quadraticSegmentScale(tolerance: tolerance)
        let cubicScale = Path.cubicSegmentScale(tolerance: tolerance)
        // Closing a contour is written out where it happens: a nested function capturing these variables made the
        // compiler box them, with a runtime call per box on every fill.
        for e in elements {
            switch e {
            case .move(let p):
                if open && last != start { sink.addEdge(from: last, to: start) }
                start = t.apply(p); last = start; open = true
            case .line(let p):
                let q = t.apply(p)
                sink.addEdge(from: last, to: q)
                last = q
            case .quad(let c, let p):
                let c1 = t.apply(c), p2 = t.apply(p)
                // A curve lies within its control points' box: where the sink would drop every edge of it, one
                // edge to its end stands for it.
                // (Two-argument min and max: the variadic ones build an array on every call.)
                if sink.addsNothing(minX: Swift.min(Swift.min(last.x, c1.x), p2.x),
                                    minY: Swift.min(Swift.min(last.y, c1.y), p2.y),
                                    maxX: Swift.max(Swift.max(last.x, c1.x), p2.x),
                                    maxY: Swift.max(Swift.max(last.y, c1.y), p2.y)) {
                    sink.addEdge(from: last, to: p2)
                    last = p2
                    continue
                }
                // The second difference's length, written out by coordinates (the same arithmetic as
                // `(last - c1 * 2 + p2).length`) so that nothing here is a call into another module.
                let ddx = last.x - c1.x * 2 + p2.x, ddy = last.y - c1.y * 2 + p2.y
                let n = Path.segmentCount(squaredSecondDifference: ddx * ddx + ddy * ddy, scale: quadScale)
                var steps = QuadraticSteps(x0: last.x, y0: last.y, cx: c1.x, cy: c1.y, ddx: ddx, ddy: ddy, count: n)
                for _ in 1..<n {
                    steps.advance()
                    let q = Point(steps.x, steps.y)
                    sink.addEdge(from: last, to: q)
                    last = q
                }
                sink.addEdge(from: last, to: p2)
                last = p2
            case .cubic(let a, let b, let p):
                let c1 = t.apply(a), c2 = t.apply(b), p3 = t.apply(p)
                if sink.addsNothing(minX: Swift.min(Swift.min(last.x, c1.x), Swift.min(c2.x, p3.x)),
                                    minY: Swift.min(Swift.min(last.y, c1.y), Swift.min(c2.y, p3.y)),
                                    maxX: Swift.max(Swift.max(last.x, c1.x), Swift.max(c2.x, p3.x)),
                                    maxY: Swift.max(Swift.max(last.y, c1.y), Swift.max(c2.y, p3.y))) {
                    sink.addEdge(from: last, to: p3)
                    last = p3
                    continue
                }
                let p0 = last
                let ax = p0.x - c1.x * 2 + c2.x, ay = p0.y - c1.y * 2 + c2.y
                let bx = c1.x - c2.x * 2 + p3.x, by = c1.y - c2.y * 2 + p3.y
                let n = Path.segmentCount(squaredSecondDifference: Swift.max(ax * ax + ay * ay, bx * bx + by * by),
                                          scale: cubicScale)
                var steps = CubicSteps(x0: p0.x, y0: p0.y, c1x: c1.x, c1y: c1.y, c2x: c2.x, c2y: c2.y, x3: p3.x,
                                       y3: p3.y, ax: ax, ay: ay, count: n)
                for _ in 1..<n {
                    steps.advance()
                    let q = Point(steps.x, steps.y)
                    sink.addEdge(from: last, to: q)
                    last = q
                }
                sink.addEdge(from: last, to: p3)
                last = p3
            case .close:
                if open && last != start { sink.addEdge(from: last, to: start) }
                open = false
                last = start
            }
        }
        if open && last != start { sink.addEdge(from: last, to: start) }
    }

    /// `scale` for `segmentCount(squaredSecondDifference:scale:)` of a quadratic curve: (1/4)² / tolerance².
    @inlinable @inline(__always)
    public static func quadraticSegmentScale(tolerance: Double) -> Double {
        let tol = Swift.max(tolerance, 1e-6)
        return 0.25 * 0.25 / (tol * tol)
    }

    /// `scale` for `segmentCount(squaredSecondDifference:scale:)` of a cubic curve: (3/4)² / tolerance².
    @inlinable @inline(__always)
    public static func cubicSegmentScale(tolerance: Double) -> Double {
        let tol = Swift.max(tolerance, 1e-6)
        return 0.75 * 0.75 / (tol * tol)
    }

    /// Segments needed so that a uniform split of a Bézier curve stays within `tolerance`: the chord error of a
    /// degree-d curve cut into n equal parameter steps is at most d(d−1)/8 · M / n², M the largest second difference
    /// of its control points (Wang's formula); `degreeFactor` is d(d−1)/8.
    /// The same count from the squared second difference and `scale` = (d(d−1)/8)² / tolerance²: the curve's
    /// count is then a product and two square roots, where the other form waits on a root, a division and a root
    /// in a row; fills count every curve of every glyph this way.
    ///
    /// Transparent, because `@inline(__always)` left it a call from the rasterizer's modules, and a call makes the
    /// flattening loop spill its floating-point registers around it, once per curve.
    @_transparent
    public static func segmentCount(squaredSecondDifference m2: Double, scale: Double) -> Int {
        // The count is the least n with n⁴ ≥ q. Up to 8, the usual case (a glyph's curves take one to four),
        // it is found by comparing q with the fourth powers below it: a few cycles, where the two roots wait on
        // each other for some forty, and every curve's edges wait on its count.
        let q = m2 * scale
        if q <= 4096 {
            return 1 &+ (q > 1 ? 1 : 0) &+ (q > 16 ? 1 : 0) &+ (q > 81 ? 1 : 0) &+ (q > 256 ? 1 : 0)
                &+ (q > 625 ? 1 : 0) &+ (q > 1296 ? 1 : 0) &+ (q > 2401 ? 1 : 0)
        }
        let v = q.squareRoot().squareRoot()
        guard v < Double(maxSegmentsPerCurve) else { return v.isFinite ? maxSegmentsPerCurve : 1 }
        guard v > 1 else { return 1 }
        let n = Int(v)
        return Double(n) < v ? n &+ 1 : n
    }

    /// 1 / n, the same Double as the division gives; for the counts of most curves a constant from a table,
    /// because each curve's points wait on the step and a division takes some fifteen cycles.
    @_transparent @usableFromInline
    static func reciprocal(_ n: Int) -> Double {
        switch n {
        case 1: return 1
        case 2: return 1.0 / 2
        case 3: return 1.0 / 3
        case 4: return 1.0 / 4
        case 5: return 1.0 / 5
        case 6: return 1.0 / 6
        case 7: return 1.0 / 7
        case 8: return 1.0 / 8
        default: return 1 / Double(n)
        }
    }

    @inlinable @inline(__always)
    static func segmentCount(secondDifference m: Double, degreeFactor: Double, tolerance: Double) -> Int {
        let v = (degreeFactor * m / Swift.max(tolerance, 1e-6)).squareRoot()
        // ⌈v⌉ by truncation, once v is known to be in range: `rounded(.up)` is a library call at the baseline CPU
        // level, made for every curve of every glyph. A NaN or infinite count gives 1, a huge finite one the cap.
        guard v < Double(maxSegmentsPerCurve) else { return v.isFinite ? maxSegmentsPerCurve : 1 }
        guard v > 1 else { return 1 }
        let n = Int(v)
        return Double(n) < v ? n &+ 1 : n
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Circular and elliptical arcs, stored as cubic curves of at most a quarter turn each (radial error ≤ 0.027 %).
extension Path {
    /// Appends a circular arc as `UIBezierPath.addArc(withCenter:radius:startAngle:endAngle:clockwise:)`: angles in
    /// radians from +x towards +y, so on a y-down screen `clockwise` means increasing angle. A line joins the
    /// current point to the arc's start; with no current point the arc starts a contour. As in UIKit, a difference
    /// of 2π or more in the drawing direction draws the full circle once; a difference against the drawing
    /// direction goes the other way round to the end angle, so a whole number of turns that way draws no arc.
    public mutating func addArc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        guard center.isFinite, radius.isFinite, startAngle.isFinite, endAngle.isFinite else { return }
        let r = Swift.abs(radius)
        let sweep = Path.arcSweep(from: startAngle, to: endAngle, clockwise: clockwise)
        let start = Point(center.x + r * cos(startAngle), center.y + r * sin(startAngle))
        if currentPoint == nil || lastIsClose { move(to: start) } else { line(to: start) }
        appendEllipticalArc(center: center, rx: r, ry: r, cosPhi: 1, sinPhi: 0, startAngle: startAngle, sweep: sweep)
    }

    /// The signed sweep UIKit draws from `start` to `end`: in the drawing direction (positive when `clockwise`)
    /// it is clamped to one turn; against it, the angles are taken modulo 2π and the arc goes the other way round,
    /// so it is less than a turn and zero when the two angles name the same point.
    static func arcSweep(from start: Double, to end: Double, clockwise: Bool) -> Double {
        let twoPi = 2 * Double.pi
        // Measured in the drawing direction, so that one rule serves both.
        let forward = clockwise ? end - start : start - end
        let sweep: Double
        if forward >= twoPi {
            sweep = twoPi
        } else if forward >= 0 {
            sweep = forward
        } else {
            // forward is in (−∞, 0): its remainder is in (−2π, 0], and 2π more is the way round to the end.
            let wrapped = forward.truncatingRemainder(dividingBy: twoPi) + twoPi
            sweep = wrapped >= twoPi ? 0 : wrapped
        }
        return clockwise ? sweep : -sweep
    }

    /// Appends an SVG elliptical arc (the `A` command) from the current point to `end`: radii `rx`, `ry`, the
    /// ellipse's x axis turned by `xAxisRotation` degrees, and the large-arc and sweep flags (sweep true goes
    /// towards increasing angle, clockwise on a y-down screen). Follows SVG's rules for out-of-range parameters:
    /// zero radii give a straight line, radii too small to reach `end` are scaled up, an arc to the current point
    /// is omitted.
    mutating func addSVGArc(to end: Point, rx: Double, ry: Double, xAxisRotation: Double,
                                   largeArc: Bool, sweep: Bool) {
        guard let p0 = currentPoint else { return move(to: end) }
        guard end.isFinite, rx.isFinite, ry.isFinite, xAxisRotation.isFinite else { return line(to: end) }
        if p0 == end { return }
        var rx = Swift.abs(rx), ry = Swift.abs(ry)
        guard rx > 0, ry > 0 else { return line(to: end) }
        let phi = xAxisRotation.truncatingRemainder(dividingBy: 360) * Double.pi / 180
        let cosPhi = cos(phi), sinPhi = sin(phi)
        // The midpoint-relative start point in the ellipse's own axes (SVG implementation notes, F.6.5 step 1).
        let hx = (p0.x - end.x) / 2, hy = (p0.y - end.y) / 2
        let x1 = cosPhi * hx + sinPhi * hy
        let y1 = -sinPhi * hx + cosPhi * hy
        // Radii too small to span the chord grow in proportion until they just do (F.6.6).
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 {
            let s = lambda.squareRoot()
            rx *= s; ry *= s
        }
        // The centre in the ellipse's axes (F.6.5 step 2).
        let rx2 = rx * rx, ry2 = ry * ry
        let num = rx2 * ry2 - rx2 * y1 * y1 - ry2 * x1 * x1
        let den = rx2 * y1 * y1 + ry2 * x1 * x1
        var coef = den > 0 ? (Swift.max(0, num) / den).squareRoot() : 0
        if largeArc == sweep { coef = -coef }
        let cxp = coef * rx * y1 / ry
        let cyp = -coef * ry * x1 / rx
        let center = Point(cosPhi * cxp - sinPhi * cyp + (p0.x + end.x) / 2,
                           sinPhi * cxp + cosPhi * cyp + (p0.y + end.y) / 2)
        // Start angle and sweep on the unit circle (F.6.5 steps 3 and 4).
        let ux = (x1 - cxp) / rx, uy = (y1 - cyp) / ry
        let vx = (-x1 - cxp) / rx, vy = (-y1 - cyp) / ry
        let theta1 = atan2(uy, ux)
        var dTheta = atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        if sweep && dTheta < 0 { dTheta += 2 * Double.pi }
        if !sweep && dTheta > 0 { dTheta -= 2 * Double.pi }
        guard center.isFinite, theta1.isFinite, dTheta.isFinite else { return line(to: end) }
        appendEllipticalArc(center: center, rx: rx, ry: ry, cosPhi: cosPhi, sinPhi: sinPhi,
                            startAngle: theta1, sweep: dTheta, exactEnd: end)
    }

    /// Appends cubic pieces of at most a quarter turn for the arc of the ellipse (centre, radii, axis rotation given
    /// by its cosine and sine) from `startAngle` over `sweep` radians; the current point must be the arc's start.
    mutating func appendEllipticalArc(center: Point, rx: Double, ry: Double, cosPhi: Double, sinPhi: Double,
                                      startAngle: Double, sweep: Double, exactEnd: Point? = nil) {
        guard sweep != 0, sweep.isFinite else { return }
        let pieces = Swift.max(1, Swift.min(4, Int((Swift.abs(sweep) / (Double.pi / 2) - 1e-9).rounded(.up))))
        let step = sweep / Double(pieces)
        let k = 4.0 / 3.0 * tan(step / 4)
        func map(_ x: Double, _ y: Double) -> Point {
            Point(center.x + cosPhi * rx * x - sinPhi * ry * y, center.y + sinPhi * rx * x + cosPhi * ry * y)
        }
        var a0 = startAngle
        var c0 = cos(a0), s0 = sin(a0)
        for i in 1...pieces {
            let a1 = i == pieces ? startAngle + sweep : startAngle + step * Double(i)
            let c1 = cos(a1), s1 = sin(a1)
            let end = i == pieces ? (exactEnd ?? map(c1, s1)) : map(c1, s1)
            cubic(to: end, control1: map(c0 - k * s0, s0 + k * c0), control2: map(c1 + k * s1, s1 - k * c1))
            a0 = a1; c0 = c1; s0 = s1
        }
    }

    /// True when the last element closed its contour.
    var lastIsClose: Bool {
        if case .close? = elements.last { return true }
        return false
    }

    /// Appends a closed circle, as `UIBezierPath(arcCenter:radius:startAngle:0 endAngle:2π clockwise:true)` closed.
    public mutating func addCircle(center: Point, radius: Double) {
        addEllipse(in: Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
    }
}

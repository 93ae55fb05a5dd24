import Geometry

/// The resistance past a scroll view's edge: the content follows the finger less and less the further it is pulled.
///
/// f(x) = (1 − 1/(x·c/d + 1))·d, with x the finger's travel past the edge, d the viewport's extent on that axis and
/// c the physics' `rubberBandCoefficient`, 0.55 by default (docs/reference.md §2). The content never moves more than d
/// past the edge, and its first point of overscroll moves at c times the finger's speed.
public enum RubberBand {
    /// The coefficient of the default physics, for callers that give none.
    public static var defaultCoefficient: Double { PhysicsStyle().rubberBandCoefficient }

    /// How far past the edge the content shows for a finger travel `x` past it (x ≥ 0; the sign is kept); a style may
    /// give another `coefficient`, as every function here takes.
    public static func offset(forTravel x: Double, dimension d: Double,
                              coefficient: Double = defaultCoefficient) -> Double {
        guard d > 0 else { return 0 }
        let magnitude = abs(x)
        let f = (1 - 1 / (magnitude * coefficient / d + 1)) * d
        return x < 0 ? -f : f
    }

    /// The finger travel that shows the content `f` past the edge: x = f·d/(c·(d − f)) (docs/reference.md §2), used
    /// when a new drag starts while the content is overscrolled. An overscroll of d or more has no travel; it maps to a
    /// very large one.
    public static func travel(forOffset f: Double, dimension d: Double,
                              coefficient: Double = defaultCoefficient) -> Double {
        guard d > 0 else { return 0 }
        let magnitude = Swift.min(abs(f), d * maxOverscrollFraction)
        let x = magnitude * d / (coefficient * (d - magnitude))
        return f < 0 ? -x : x
    }

    /// df/dx = c/(x·c/d + 1)²: how fast the content moves past the edge per point of finger travel, which turns a
    /// finger's velocity into the content's at release.
    public static func slope(atTravel x: Double, dimension d: Double,
                             coefficient: Double = defaultCoefficient) -> Double {
        guard d > 0 else { return 0 }
        let u = abs(x) * coefficient / d + 1
        return coefficient / (u * u)
    }

    /// The largest overscroll, as a fraction of d, that `travel(forOffset:dimension:)` inverts; the band approaches
    /// d only in the limit, so a larger value (set from code) is treated as this one.
    static let maxOverscrollFraction = 0.999
}

extension ScrollView {
    /// How far `offset` lies past the bounds on `axis`: negative before the start, positive after the end, else 0.
    func overscroll(_ offset: Double, _ axis: Axis) -> Double {
        let lo = minOffset(axis), hi = maxOffset(axis)
        return offset < lo ? offset - lo : offset > hi ? offset - hi : 0
    }

    /// The finger's travel that shows the content at `offset` on `axis`: the offset itself inside the bounds, the
    /// rubber band's inverse past them. A drag (iOS's) or a wheel step counts from it.
    func travel(showing offset: Double, _ axis: Axis) -> Double {
        let over = overscroll(offset, axis)
        guard over != 0 else { return offset }
        let edge = offset - over
        return edge + RubberBand.travel(forOffset: over, dimension: boundsSize[axis], coefficient: physics.rubberBandCoefficient)
    }
}

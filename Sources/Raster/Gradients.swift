import Geometry
import RasterKernels

/// A gradient laid over a canvas: for each pixel centre, the entry (0…255) of the gradient's colour table where it
/// falls, t running from 0 at the start (a radial gradient's focus) to 1 at the end (its circle). Rows are worked
/// on the fill path the CPU runs (see `FillPath`); every path gives the same entries.
public struct GradientPlacement: Sendable {
    let geometry: GradientGeometry

    /// A linear gradient from `start` to `end`, or a radial one centred on `start` with `radius` whose colours
    /// start at `focus` (a two-point conical gradient when the focus is not the centre); `inverse` maps pixels
    /// into the gradient's space. A radial gradient of no radius is its last colour everywhere, a linear one of
    /// no length its first.
    public init(inverse m: AffineTransform, isRadial: Bool, start s: Point, end e: Point, radius: Double,
                focus: Point) {
        func make(_ kind: GradientGeometry.Kind, _ o: Point, _ d: Point, _ k: Double) -> GradientGeometry {
            GradientGeometry(kind: kind, a: m.a, b: m.b, c: m.c, d: m.d, tx: m.tx, ty: m.ty,
                             sx: o.x, sy: o.y, dx: d.x, dy: d.y, k: k)
        }
        if isRadial {
            let d = s - focus
            if radius <= 0 {
                geometry = make(.constant, s, d, 1)
            } else if focus == s {
                geometry = make(.circle, s, d, radius)
            } else {
                geometry = make(.conical, focus, d, d.dot(d) - radius * radius)
            }
        } else {
            let d = e - s, length2 = d.dot(d)
            geometry = length2 > 0 ? make(.linear, s, d, length2) : make(.constant, s, d, 0)
        }
    }

    /// Writes the entries of `count` pixels of row `y` from column `x0`.
    public func entries(y: Int, from x0: Int, count: Int, into out: UnsafeMutablePointer<Int32>) {
        FillPath.best.pipeline.gradientEntries(geometry, y: y, from: x0, count: count, into: out)
    }

    /// The entry for `t`: t clamped to 0…1 (NaN taken as 0), times 255, rounded as `rounded()` rounds.
    public static func entry(_ t: Double) -> Int32 { GradientGeometry.entry(t) }
}

/// Where the pixels of a row fall along a gradient, as entries 0…255 of its colour table: t runs from 0 at the
/// start (a radial gradient's focus) to 1 at the end (its circle), clamped, then scaled to 255 and rounded.
///
/// The arithmetic is a pixel centre mapped into the gradient's space and the gradient's formula, the same double
/// operations in the same order on every instruction set, so every pipeline gives the same entries; a row at a
/// time, in loops the compiler turns into vector instructions as wide as the pipeline's.
public struct GradientGeometry: Sendable {
    public enum Kind: Sendable {
        /// t is `k` everywhere.
        case constant
        /// t = (q − s)·d / k, with d the vector from the start to the end and k = |d|².
        case linear
        /// t = |q − s| / k, with s the centre and k the radius.
        case circle
        /// |f − t·d| = t·radius with f = q − s, s the focus, d the centre less the focus and k = |d|² − radius²,
        /// solved for t ≥ 0: t = (f·d − √((f·d)² − k·|f|²)) / k.
        case conical
    }

    public var kind: Kind
    /// From pixels to the gradient's space.
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double
    public var sx: Double, sy: Double, dx: Double, dy: Double, k: Double

    public init(kind: Kind, a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double,
                sx: Double, sy: Double, dx: Double, dy: Double, k: Double) {
        self.kind = kind
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
        self.sx = sx; self.sy = sy; self.dx = dx; self.dy = dy; self.k = k
    }

    /// The table's entry for `t`: t clamped to 0…1 (NaN taken as 0), times 255, rounded with halves up, as
    /// `rounded()` does. Without its library call, and without a conversion that could trap, so that a loop of
    /// them can run as vector instructions: adding 1.5·2⁵² rounds to the nearest integer (halves to even) and leaves
    /// it in the low bits; the difference from the rounded value is exact, and a half left over is rounded up.
    @inlinable @inline(__always)
    public static func entry(_ t: Double) -> Int32 {
        let v = t != t ? 0 : Swift.min(Swift.max(t, 0), 1) * 255
        let shifted = v + 6_755_399_441_055_744.0
        let n = Int32(truncatingIfNeeded: shifted.bitPattern)
        return v - (shifted - 6_755_399_441_055_744.0) >= 0.5 ? n &+ 1 : n
    }

    /// The body of `FillPipeline.gradientEntries`: the entries of `count` pixels of row `y` from column `x0`.
    @inlinable @inline(__always)
    public func entriesKernel(y: Int, from x0: Int, count: Int, into out: UnsafeMutablePointer<Int32>) {
        let a = self.a, b = self.b, c = self.c, d = self.d, tx = self.tx, ty = self.ty
        let sx = self.sx, sy = self.sy, dx = self.dx, dy = self.dy, k = self.k
        let py = Double(y) + 0.5
        // Columns counted in 32 bits: converting those to doubles is a vector instruction at every level, and a
        // double stepped by one would keep the loop from being vectorised at all.
        let first = Int32(truncatingIfNeeded: x0), n = Int32(truncatingIfNeeded: count)
        var i: Int32 = 0
        switch kind {
        case .constant:
            out.update(repeating: GradientGeometry.entry(k), count: count)
        case .linear:
            while i < n {
                let px = Double(first &+ i) + 0.5
                let qx = a * px + c * py + tx, qy = b * px + d * py + ty
                out[Int(i)] = GradientGeometry.entry(((qx - sx) * dx + (qy - sy) * dy) / k)
                i &+= 1
            }
        case .circle:
            while i < n {
                let px = Double(first &+ i) + 0.5
                let qx = a * px + c * py + tx, qy = b * px + d * py + ty
                let ex = qx - sx, ey = qy - sy
                out[Int(i)] = GradientGeometry.entry((ex * ex + ey * ey).squareRoot() / k)
                i &+= 1
            }
        case .conical:
            while i < n {
                let px = Double(first &+ i) + 0.5
                let qx = a * px + c * py + tx, qy = b * px + d * py + ty
                let fx = qx - sx, fy = qy - sy
                let fd = fx * dx + fy * dy
                out[Int(i)] = GradientGeometry.entry((fd - (fd * fd - k * (fx * fx + fy * fy)).squareRoot()) / k)
                i &+= 1
            }
        }
    }
}

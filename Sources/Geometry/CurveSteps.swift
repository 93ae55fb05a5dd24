/// The points of a quadratic Bézier curve at equal parameter steps, by forward differences. The curve is
/// dd·s² + 2(c − p0)·s + p0, with dd = p0 − 2c + p its second difference, so each step adds a first difference
/// that grows by a constant second one: two adds a coordinate per point instead of a polynomial.
///
/// Filled paths (`Path.flattenForFill`) and glyph masks (Raster's `GlyphMaskRasterizer`) both step their curves
/// with it, so a curve is cut into the same points whichever draws it.
@frozen public struct QuadraticSteps {
    /// The current point: the curve's start until the first `advance()`.
    public var x: Double { px }
    public var y: Double { py }
    @usableFromInline var px: Double, py: Double
    @usableFromInline var dx: Double, dy: Double
    @usableFromInline let d2x: Double, d2y: Double

    /// Steps from (`x0`, `y0`) with control (`cx`, `cy`) and second difference (`ddx`, `ddy`) in `count` steps.
    @inlinable @inline(__always)
    public init(x0: Double, y0: Double, cx: Double, cy: Double, ddx: Double, ddy: Double, count: Int) {
        let h = Path.reciprocal(count)
        let squareX = ddx * h * h, squareY = ddy * h * h
        dx = (cx - x0) * 2 * h + squareX
        dy = (cy - y0) * 2 * h + squareY
        d2x = 2 * squareX
        d2y = 2 * squareY
        px = x0
        py = y0
    }

    /// Moves to the next point.
    @inlinable @inline(__always)
    public mutating func advance() {
        px += dx; py += dy
        dx += d2x; dy += d2y
    }
}

/// The points of a cubic Bézier curve at equal parameter steps, by forward differences of
/// cube·s³ + square·s² + linear·s + p0: three adds a coordinate per point. Shared as `QuadraticSteps` is.
@frozen public struct CubicSteps {
    /// The current point: the curve's start until the first `advance()`.
    public var x: Double { px }
    public var y: Double { py }
    @usableFromInline var px: Double, py: Double
    @usableFromInline var dx: Double, dy: Double
    @usableFromInline var d2x: Double, d2y: Double
    @usableFromInline let d3x: Double, d3y: Double

    /// Steps from (`x0`, `y0`) over controls (`c1x`, `c1y`), (`c2x`, `c2y`) to (`x3`, `y3`) in `count` steps;
    /// (`ax`, `ay`) is the first second difference, p0 − 2·c1 + c2, which the caller has already worked out for
    /// the count.
    @inlinable @inline(__always)
    public init(x0: Double, y0: Double, c1x: Double, c1y: Double, c2x: Double, c2y: Double, x3: Double, y3: Double,
                ax: Double, ay: Double, count: Int) {
        let h = Path.reciprocal(count), h2 = h * h, h3 = h2 * h
        let linearX = 3 * (c1x - x0), linearY = 3 * (c1y - y0)
        let squareX = 3 * ax, squareY = 3 * ay
        let cubeX = x3 - x0 + 3 * (c1x - c2x), cubeY = y3 - y0 + 3 * (c1y - c2y)
        dx = cubeX * h3 + squareX * h2 + linearX * h
        dy = cubeY * h3 + squareY * h2 + linearY * h
        d2x = 6 * cubeX * h3 + 2 * squareX * h2
        d2y = 6 * cubeY * h3 + 2 * squareY * h2
        d3x = 6 * cubeX * h3
        d3y = 6 * cubeY * h3
        px = x0
        py = y0
    }

    /// Moves to the next point.
    @inlinable @inline(__always)
    public mutating func advance() {
        px += dx; py += dy
        dx += d2x; dy += d2y
        d2x += d3x; d2y += d3y
    }
}

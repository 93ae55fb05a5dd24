import CIntrinsics
import Geometry

/// The cells of a fill whose path lies inside its box: the same area arithmetic as `CoverageCells`, without
/// what only a clipped fill needs. No edge is clipped (its ends are only clamped onto the box, against
/// rounding), no row or column range is tracked and no cell is marked, because a glyph touches nearly every
/// row and column of its own box and the sweep visits them all anyway. The state is three values the
/// specialised flattening keeps in registers, which is most of the gain over `CoverageCells` per edge.
public struct InteriorCells: EdgeSink {
    public let cells: UnsafeMutablePointer<Int32>
    public let stride: Int
    public let maxX: Double, maxY: Double

    @inlinable
    public init(cells: UnsafeMutablePointer<Int32>, stride: Int, maxX: Double, maxY: Double) {
        self.cells = cells; self.stride = stride; self.maxX = maxX; self.maxY = maxY
    }

    @inlinable @inline(__always)
    public mutating func addEdge(from p0: Point, to p1: Point) {
        var x0 = Swift.min(Swift.max(p0.x, 0), maxX), y0 = Swift.min(Swift.max(p0.y, 0), maxY)
        var x1 = Swift.min(Swift.max(p1.x, 0), maxX), y1 = Swift.min(Swift.max(p1.y, 0), maxY)
        var scale = CoverageCells.oneScale
        if y0 > y1 {
            swap(&x0, &x1); swap(&y0, &y1)
            scale = -scale
        }
        // A NaN survives the clamping above but fails these comparisons, so it never becomes an index.
        guard y0 < y1, x0 == x0, x1 == x1 else { return }
        let firstRow = Int(y0)
        let lastRow = CoverageCells.lastIndex(y1)
        if x0 == x1 {
            let ix = Int(x0)
            let keep = 1 - (x0 - Double(ix))
            var row = firstRow
            var ya = y0
            while row <= lastRow {
                let yb = Swift.min(Double(row &+ 1), y1)
                InteriorCells.column(cells + row &* stride, ix, CoverageCells.fixed((yb - ya) * scale), keep)
                ya = yb
                row &+= 1
            }
            return
        }
        let dxdy = (x1 - x0) / (y1 - y0)
        var row = firstRow
        var ya = y0, xa = x0
        while row <= lastRow {
            let yb: Double, xb: Double
            if row == lastRow {
                yb = y1; xb = x1
            } else {
                yb = Double(row &+ 1); xb = x0 + (yb - y0) * dxdy
            }
            let h = (yb - ya) * scale
            let (left, right) = xa < xb ? (xa, xb) : (xb, xa)
            let il = Int(left)
            let line = cells + row &* stride
            if right <= Double(il &+ 1) {
                InteriorCells.within(line, il, left, right, h)
            } else {
                // Divided here, not once per edge: most edges of a glyph never cross a pixel side within a row.
                InteriorCells.across(line, left, right, il, h, scale / abs(dxdy))
            }
            ya = yb; xa = xb
            row &+= 1
        }
    }

    /// Adds one row's piece of a vertical edge in column `ix`: `total` of height, the fraction `keep` of it (the
    /// part of the pixel right of the edge) in its own cell and the rest in the next. Both rasterizers use it.
    /// (Here and below, the barrier keeps the two cells' adds separate; see `refreshlab_barrier`.)
    @inlinable @inline(__always)
    public static func column(_ line: UnsafeMutablePointer<Int32>, _ ix: Int, _ total: Int32, _ keep: Double) {
        let here = CoverageCells.fixed(Double(total) * keep)
        line[ix] &+= here
        refreshlab_barrier()
        line[ix &+ 1] &+= total &- here
    }

    /// Adds one row's piece of an edge from `left` to `right` within pixel `il`, of signed height `h`: the area
    /// right of the edge is its height times the distance from its mean x to the pixel's right side, and the rest
    /// of the height goes to the next cell. `CoverageCells.addRow` works it out the same way, beside the case of an
    /// edge crossing one side.
    @inlinable @inline(__always)
    public static func within(_ line: UnsafeMutablePointer<Int32>, _ il: Int, _ left: Double, _ right: Double,
                              _ h: Double) {
        let total = CoverageCells.fixed(h)
        let here = InteriorCells.withinArea(h, Double(il &+ 1), left, right)
        line[il] &+= here
        refreshlab_barrier()
        line[il &+ 1] &+= total &- here
    }

    /// Adds one row's piece of an edge that spans several pixels to that row's cells (see `CoverageCells.across`
    /// for the arithmetic); both rasterizers use it, so their coverage agrees exactly.
    @inlinable
    public static func across(_ line: UnsafeMutablePointer<Int32>, _ left: Double, _ right: Double, _ il: Int,
                       _ h: Double, _ perX: Double) {
        let ir = Swift.max(il, CoverageCells.lastIndex(right))
        let total = CoverageCells.fixed(h)
        let wl = Double(il &+ 1) - left
        var done = InteriorCells.firstPixelArea(perX, wl)
        line[il] &+= done
        var k = il &+ 1
        var reach = wl + 0.5
        while k < ir {
            let c = CoverageCells.fixed(perX * reach)
            line[k] &+= c &- done
            done = c
            reach += 1
            k &+= 1
        }
        let c = InteriorCells.areaThroughLastPixel(perX, Double(ir), left, right - Double(ir))
        line[ir] &+= c &- done
        refreshlab_barrier()
        line[ir &+ 1] &+= total &- c
    }

    /// Of a piece within one pixel (whose right side is at `side`), of height `h`: the area right of it, its height
    /// times the distance from its mean x to the side.
    @inlinable @inline(__always)
    static func withinArea(_ h: Double, _ side: Double, _ left: Double, _ right: Double) -> Int32 {
        CoverageCells.fixed(h * (side - 0.5 * (left + right)))
    }

    /// Of a piece running across pixels, `perX` of height per unit of width: the triangle it leaves in its first
    /// pixel, whose right side is `wl` past its start.
    @inlinable @inline(__always)
    static func firstPixelArea(_ perX: Double, _ wl: Double) -> Int32 {
        CoverageCells.fixed(perX * (0.5 * wl * wl))
    }

    /// Of the same piece: its area up to the right side of its last pixel, which starts at `lastLeft` and which the
    /// piece enters `wr` deep, from its start at `left`.
    @inlinable @inline(__always)
    static func areaThroughLastPixel(_ perX: Double, _ lastLeft: Double, _ left: Double, _ wr: Double) -> Int32 {
        CoverageCells.fixed(perX * (lastLeft - left + wr - 0.5 * wr * wr))
    }
}

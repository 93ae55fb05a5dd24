#if canImport(Glibc)
import Glibc
#endif
import Colors
import RasterKernels

/// What shows through a translucent bar: the canvas's top rows blurred, on premultiplied channels, as a box
/// `2 × radius + 1` pixels wide run twice each way (close to a Gaussian), with the bar's tint laid over them. A blur
/// that wide keeps nothing finer than a fifth of its radius, so it is worked on a coarser grid: the rows are averaged
/// in cells of `factor` × `factor` pixels, the cells are blurred by a box of the same width in pixels (a whole number
/// of cells and a fraction of one at each end, with running sums: the same cost whatever the radius), the tint is
/// laid over each cell (source-over is the same affine map on every pixel, so it can be laid before the
/// interpolation that follows), and each pixel is put back between the four cells around it, in whole levels. Past
/// an edge the last row or column is repeated, as a box blur clamped at the edges reads it: one more cell on each side
/// holds it. The pixels put back depend on the cells alone, so a strip whose cells are those of the blur before (a
/// list that did not move under the bar) gets that blur's pixels again, kept from the second such frame on, without
/// the passes. The buffers are made for the largest strip seen and kept, so a frame allocates nothing.
public final class BackdropBlur {
    public init() {}

    /// A cell: its premultiplied blue, green, red and alpha, in 0…255.
    typealias Cell = SIMD4<Float>

    /// The cells, one more on each side than the strip needs, and a second set for the passes to go back and forth.
    private var cells = Buffer<Cell>(), passed = Buffer<Cell>()
    /// The running sums of the cell rows' vertical pass, one per column of cells.
    private var sums = Buffer<Cell>()
    /// Down columns of the strip, the sum of `factor` rows' pixels: blue and red, green and alpha, in 16-bit lanes.
    private var blueRed = Buffer<UInt32>(), greenAlpha = Buffer<UInt32>()
    /// The blurred, tinted cells as premultiplied pixels.
    private var cellPixels = Buffer<UInt32>()
    /// Every row of cells at the canvas's width, as pixels; each canvas row lies between two of them.
    private var wide = Buffer<UInt32>()
    /// For each pixel of a row: the cell at its left, and how far its centre lies past that cell's, in 256ths.
    private var leftCell = Buffer<Int32>(), weights = Buffer<UInt32>()
    /// The last blur's strip, radius and tint, and its cells before the passes.
    private var lastStrip: Strip?
    private var averaged = Buffer<Cell>()
    /// The last blur's pixels, kept (`keepsResult`) when its cells were those of the blur before.
    private var kept = Buffer<UInt32>()
    private var keepsResult = false
    /// The row kernels of the widest instruction set the CPU runs.
    private let pipeline = FillPath.best.pipeline

    /// The side of a cell, in pixels, for a blur of `radius` pixels (chosen here): a fifth of the radius, so that
    /// the blur spans about ten cells; at most 6 pixels, and 1 (the blur at the canvas's own pixels) for a radius
    /// under 10. The cells' own averaging and the interpolation between them blur by much less than the box.
    public static func factor(radius: Int) -> Int { Swift.max(1, Swift.min(6, radius / 5)) }

    /// Blurs rows `0..<rows` of `canvas` with a box `2 × radius + 1` pixels wide, twice each way, and lays `tint`
    /// over them, source-over.
    public func blur(_ canvas: Canvas, rows: Int, radius: Int, tint: Color = .clear) {
        let w = canvas.width, h = Swift.min(rows, canvas.height)
        guard h > 0 else { return }
        let f = radius > 0 ? BackdropBlur.factor(radius: radius) : 1
        // The strip's cells and one more on each side.
        let cw = (w + f - 1) / f + 2, ch = (h + f - 1) / f + 2
        cells.reserve(cw * ch)
        passed.reserve(cw * ch)
        sums.reserve(cw)
        blueRed.reserve(w)
        greenAlpha.reserve(w)
        cellPixels.reserve(cw * ch)
        wide.reserve(w * ch)
        leftCell.reserve(w)
        weights.reserve(w)
        averaged.reserve(cw * ch)
        kept.reserve(w * h)
        average(canvas.pixels, width: w, height: h, factor: f, cellsWide: cw, cellsHigh: ch)
        let strip = Strip(width: w, rows: h, radius: radius, tint: tint)
        let cellBytes = cw * ch * MemoryLayout<Cell>.stride
        let unchanged = strip == lastStrip && memcmp(cells.base, averaged.base, cellBytes) == 0
        if unchanged && keepsResult {
            canvas.pixels.update(from: kept.base, count: w * h)
            return
        }
        if !unchanged {
            lastStrip = strip
            averaged.base.update(from: cells.base, count: cw * ch)
        }
        if radius > 0 {
            // The box in cells: 2r + 1 whole ones and `part` of one more at each end, as wide as 2 × radius + 1
            // pixels.
            let boxWidth = Float(2 * radius + 1) / Float(f)
            let r = Int((boxWidth - 1) / 2)
            let part = (boxWidth - Float(2 * r + 1)) / 2
            for _ in 0..<2 {
                for j in 0..<ch {
                    BackdropBlur.rowPass(cells.base + j * cw, into: passed.base + j * cw, count: cw, radius: r,
                                         part: part, width: boxWidth)
                }
                columnPass(cellsWide: cw, cellsHigh: ch, radius: r, part: part, width: boxWidth)
            }
        }
        tintCells(tint, count: cw * ch)
        widen(width: w, factor: f, cellsWide: cw, cellsHigh: ch)
        spread(into: canvas.pixels, width: w, height: h, factor: f)
        if unchanged { kept.base.update(from: canvas.pixels, count: w * h) }
        keepsResult = unchanged
    }

    /// What a blur's pixels depend on besides its cells.
    private struct Strip: Equatable {
        var width: Int, rows: Int, radius: Int
        var tint: Color
    }

    /// Each cell: the mean of its `factor` × `factor` pixels, rows and columns past the strip's edges read as the
    /// edge's own.
    private func average(_ pixels: UnsafeMutablePointer<UInt32>, width w: Int, height h: Int, factor f: Int,
                         cellsWide cw: Int, cellsHigh ch: Int) {
        let scale = 1 / Float(f * f)
        let blueRed = blueRed.base, greenAlpha = greenAlpha.base, cells = cells.base
        for j in 0..<ch {
            // At most 36 pixels of 255 a sum: each fits its 16-bit lane.
            blueRed.update(repeating: 0, count: w)
            greenAlpha.update(repeating: 0, count: w)
            for k in 0..<f {
                let row = pixels + Swift.min(Swift.max((j - 1) * f + k, 0), h - 1) * w
                pipeline.addHalves(of: row, blueRed: blueRed, greenAlpha: greenAlpha, count: w)
            }
            let out = cells + j * cw
            for i in 0..<cw {
                var br: UInt32 = 0, ga: UInt32 = 0
                let first = (i - 1) * f
                if first >= 0 && first + f <= w {
                    for x in first..<(first + f) {
                        br &+= blueRed[x]
                        ga &+= greenAlpha[x]
                    }
                } else {
                    for m in 0..<f {
                        let x = Swift.min(Swift.max(first + m, 0), w - 1)
                        br &+= blueRed[x]
                        ga &+= greenAlpha[x]
                    }
                }
                out[i] = Cell(Float(br & 0xFFFF), Float(ga & 0xFFFF), Float(br >> 16), Float(ga >> 16)) * scale
            }
        }
    }

    /// One box pass along a row of `count` cells, the ends clamped: a running sum of the whole cells, and `part` of
    /// the one past each end.
    private static func rowPass(_ src: UnsafeMutablePointer<Cell>, into dst: UnsafeMutablePointer<Cell>, count n: Int,
                                radius r: Int, part: Float, width: Float) {
        @inline(__always) func at(_ i: Int) -> Cell { src[Swift.min(Swift.max(i, 0), n - 1)] }
        let scale = 1 / width
        var sum = Cell.zero
        for k in -r...r { sum += at(k) }
        // Clamped reads only where the box reaches past an end.
        let inner = (r + 1)..<Swift.max(r + 1, n - r - 1)
        for i in 0..<n {
            if inner.contains(i) {
                dst[i] = (sum + (src[i - r - 1] + src[i + r + 1]) * part) * scale
                sum += src[i + r + 1] - src[i - r]
            } else {
                dst[i] = (sum + (at(i - r - 1) + at(i + r + 1)) * part) * scale
                sum += at(i + r + 1) - at(i - r)
            }
        }
    }

    /// One box pass down every column of cells at once, from `passed` back into `cells`, row after row.
    private func columnPass(cellsWide cw: Int, cellsHigh ch: Int, radius r: Int, part: Float, width: Float) {
        let src = passed.base, dst = cells.base, sums = sums.base
        @inline(__always) func row(_ j: Int) -> UnsafeMutablePointer<Cell> { src + Swift.min(Swift.max(j, 0), ch - 1) * cw }
        let scale = 1 / width
        sums.update(repeating: .zero, count: cw)
        for k in -r...r {
            let s = row(k)
            for c in 0..<cw { sums[c] += s[c] }
        }
        for j in 0..<ch {
            let above = row(j - r - 1), below = row(j + r + 1), leaving = row(j - r), out = dst + j * cw
            for c in 0..<cw {
                out[c] = (sums[c] + (above[c] + below[c]) * part) * scale
                sums[c] += below[c] - leaving[c]
            }
        }
    }

    /// Each cell with `tint` laid over it, source-over, as a premultiplied pixel rounded to whole levels.
    private func tintCells(_ tint: Color, count: Int) {
        let a = Float(Swift.min(Swift.max(tint.alpha, 0), 1))
        let over = Cell(Float(tint.blue), Float(tint.green), Float(tint.red), 1) * (255 * a)
        let under = 1 - a
        // Adding 1.5 × 2²³ leaves a float's nearest whole number in the low bits of its mantissa.
        let rounding = Cell(repeating: 12_582_912)
        let cells = cells.base, out = cellPixels.base
        for i in 0..<count {
            let q = unsafeBitCast(over + cells[i] * under + rounding, to: SIMD4<UInt32>.self) & 0xFF
            // A colour channel never above alpha, whatever the rounding did.
            let alpha = q.w
            out[i] = Swift.min(q.x, alpha) | Swift.min(q.y, alpha) << 8 | Swift.min(q.z, alpha) << 16 | alpha << 24
        }
    }

    /// Every row of cells at the canvas's width: each pixel between the two cells on either side of its centre.
    private func widen(width w: Int, factor f: Int, cellsWide cw: Int, cellsHigh ch: Int) {
        let leftCell = leftCell.base, weights = weights.base, cells = cellPixels.base, wide = wide.base
        for x in 0..<w {
            // The pixel's centre in cells, counting the extra one at the left: always between two cells.
            let u = (Double(x) + 0.5) / Double(f) + 0.5
            leftCell[x] = Int32(Int(u))
            weights[x] = UInt32(((u - Double(Int(u))) * 256).rounded())
        }
        for j in 0..<ch {
            pipeline.mixColumns(cells + j * cw, left: leftCell, weights: weights, into: wide + j * w, count: w)
        }
    }

    /// Each canvas row of the strip between the two widened rows on either side of its centre.
    private func spread(into pixels: UnsafeMutablePointer<UInt32>, width w: Int, height h: Int, factor f: Int) {
        let wide = wide.base
        for y in 0..<h {
            let v = (Double(y) + 0.5) / Double(f) + 0.5
            let j = Int(v), t = UInt32(((v - Double(j)) * 256).rounded())
            let out = pixels + y * w, a = wide + j * w, b = wide + (j + 1) * w
            pipeline.mixRows(a, b, weight: t, into: out, count: w)
        }
    }

    /// A buffer that grows to the largest size asked of it and is kept.
    private struct Buffer<Element> {
        private(set) var base = UnsafeMutablePointer<Element>.allocate(capacity: 1)
        private var capacity = 1

        mutating func reserve(_ count: Int) {
            guard count > capacity else { return }
            base.deallocate()
            base = .allocate(capacity: count)
            capacity = count
        }

        func release() { base.deallocate() }
    }

    deinit {
        cells.release()
        passed.release()
        sums.release()
        blueRed.release()
        greenAlpha.release()
        cellPixels.release()
        averaged.release()
        kept.release()
        wide.release()
        leftCell.release()
        weights.release()
    }
}

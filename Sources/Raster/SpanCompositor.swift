/// Turns the cells of one fill into pixels: sums each touched row left to right, blending as it goes.
///
/// Between marked cells the running sum does not change, so the coverage there is constant: such a stretch
/// is drawn as one span (skipped when empty, stored with a plain fill when full and the colour is opaque,
/// blended with one pre-scaled colour otherwise). Only marked cells cost per-pixel work, and each is reset to
/// zero as it is read, which restores `CoverageCells`' invariant without a separate clearing pass.
enum SpanCompositor {
    static func composite(cells: inout CoverageCells, color: UInt32, rule: FillRule, into canvas: Canvas) {
        guard !cells.isEmpty else { return }
        switch rule {
        case .nonZero: run(cells: &cells, color: color, canvas: canvas, NonZeroCoverage.self)
        case .evenOdd: run(cells: &cells, color: color, canvas: canvas, EvenOddCoverage.self)
        }
    }

    /// The row loop, specialised per rule so that the coverage function inlines into the pixel loops.
    @inline(__always)
    private static func run<Rule: CoverageRule>(cells: inout CoverageCells, color: UInt32, canvas: Canvas,
                                                _ rule: Rule.Type) {
        let clip = cells.clip
        // Pixels drawn: columns whose area meets the clip box; marked cells beyond are only cleared.
        let drawStart = Int(clip.minX.rounded(.down))
        let drawEnd = Int(clip.maxX.rounded(.up))
        let firstWord = cells.minCell >> 6, lastWord = cells.maxCell >> 6
        let stride = cells.stride, wordsPerRow = cells.wordsPerRow
        let opaque = color >> 24 == 255
        let spreadColor = Lanes.spread(color)
        for row in cells.minRow...cells.maxRow {
            let line = cells.cells + row &* stride
            let marks = cells.bits + row &* wordsPerRow
            let dst = canvas.pixels + ((row &+ cells.originY) &* canvas.width &+ cells.originX)
            var acc: Int32 = 0
            var x = drawStart
            var w = firstWord
            while w <= lastWord {
                var word = marks[w]
                if word == 0 {
                    w += 1
                    continue
                }
                marks[w] = 0
                let base = w << 6
                while word != 0 {
                    let start = word.trailingZeroBitCount
                    let ones = (~(word >> UInt64(truncatingIfNeeded: start))).trailingZeroBitCount
                    let runStart = base &+ start, runEnd = runStart &+ ones
                    // The constant stretch before the run.
                    let spanEnd = Swift.min(runStart, drawEnd)
                    if spanEnd > x {
                        span(dst + x, count: spanEnd - x, coverage: Rule.coverage(acc), color: color, opaque: opaque)
                    }
                    // The marked run: running sum, blend, reset. A coverage of 0 blends to the same pixel and
                    // scaling by 255 is exact, so one path serves all, except that a fully covered pixel of an
                    // opaque colour is stored without reading the destination: about half of the marked cells
                    // are the inner neighbours of an edge, and the read is usually a cache miss.
                    let blendEnd = Swift.min(runEnd, drawEnd)
                    var i = runStart
                    while i < blendEnd {
                        acc &+= line[i]
                        line[i] = 0
                        let c = Rule.coverage(acc)
                        if c == 255 && opaque {
                            dst[i] = color
                        } else {
                            dst[i] = Lanes.blend(spreadColor, coverage: c, over: dst[i])
                        }
                        i &+= 1
                    }
                    while i < runEnd {
                        acc &+= line[i]
                        line[i] = 0
                        i &+= 1
                    }
                    x = Swift.max(x, runEnd)
                    let consumed = start &+ ones
                    word = consumed >= 64 ? 0 : word & (UInt64.max << UInt64(truncatingIfNeeded: consumed))
                }
                w += 1
            }
            // Past the last marked cell the sum is the winding far to the right, zero for a closed outline;
            // a clip box cuts no outline open (pieces outside it lie on its sides), so nothing is left to draw.
        }
    }

    /// Draws `count` pixels at one coverage.
    @inline(__always)
    private static func span(_ dst: UnsafeMutablePointer<UInt32>, count: Int, coverage: UInt32, color: UInt32,
                             opaque: Bool) {
        if coverage == 0 { return }
        if coverage == 255 && opaque {
            dst.update(repeating: color, count: count)
            return
        }
        let s = coverage == 255 ? color : Pixel.scale(color, by: coverage)
        for i in 0..<count { dst[i] = Pixel.sourceOver(s, dst[i]) }
    }
}

/// Maps a pixel's winding-weighted area (`CoverageCells.one` per pixel) to an 8-bit coverage.
protocol CoverageRule {
    static func coverage(_ acc: Int32) -> UInt32
}

/// Non-zero: any winding counts as inside; the area saturates at one.
enum NonZeroCoverage: CoverageRule {
    @inline(__always)
    static func coverage(_ acc: Int32) -> UInt32 {
        let a = Swift.min(acc.magnitude, UInt32(CoverageCells.one))
        return (a &* 255 &+ 0x8000) >> 16
    }
}

/// Even-odd: the area folds every two windings, so 1 is inside, 2 outside, 1.5 half covered.
enum EvenOddCoverage: CoverageRule {
    @inline(__always)
    static func coverage(_ acc: Int32) -> UInt32 {
        let period = UInt32(CoverageCells.one) << 1
        let m = acc.magnitude & (period - 1)
        let a = m > UInt32(CoverageCells.one) ? period - m : m
        return (a &* 255 &+ 0x8000) >> 16
    }
}

/// Source-over of a colour at a coverage, with the four channels in the 16-bit lanes of one 64-bit word.
///
/// The arithmetic is `Pixel.scale` followed by `Pixel.sourceOver`, lane for lane, so the results are identical;
/// spreading the channels apart lets one multiply do the work of two, which matters in the per-pixel loop of
/// marked cells, the one loop here that the compiler cannot vectorise.
enum Lanes {
    /// The lanes' mask: one byte of value in each 16-bit lane.
    static let mask: UInt64 = 0x00FF_00FF_00FF_00FF
    /// Half of 256 in every lane, for rounding.
    static let half: UInt64 = 0x0080_0080_0080_0080

    /// `0xAARRGGBB` as `0x00AA_00GG_00RR_00BB`.
    @inline(__always)
    static func spread(_ p: UInt32) -> UInt64 {
        let q = UInt64(p)
        return (q | (q << 24)) & mask
    }

    /// The inverse of `spread`.
    @inline(__always)
    static func pack(_ q: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: q | (q >> 24))
    }

    /// Every lane times `k` / 255, rounded as `Pixel` rounds.
    @inline(__always)
    static func scale(_ q: UInt64, by k: UInt64) -> UInt64 {
        let t = q &* k &+ half
        return ((t &+ ((t >> 8) & mask)) >> 8) & mask
    }

    /// The spread colour `s` at `coverage` (0…255), source-over the pixel `dst`.
    @inline(__always)
    static func blend(_ s: UInt64, coverage: UInt32, over dst: UInt32) -> UInt32 {
        let src = scale(s, by: UInt64(coverage))
        let inverse = 255 &- (src >> 48)
        return pack(src &+ scale(spread(dst), by: inverse))
    }
}

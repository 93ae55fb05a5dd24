import CIntrinsics

/// Turns the cells of one fill into pixels: sums each touched row left to right, blending as it goes.
///
/// Between marked cells the running sum does not change, so the coverage there is constant: such a stretch
/// is drawn as one span (skipped when empty, stored with a plain fill when full and the colour is opaque,
/// blended with one pre-scaled colour otherwise). Only marked cells cost per-pixel work, and each is reset to
/// zero as it is read, which restores `CoverageCells`' invariant without a separate clearing pass.
public enum SpanCompositor {
    /// Composites the cells onto `pixels`, a canvas `canvasWidth` pixels wide whose pixel (0, 0) is where the
    /// cells' origin is measured from, with the non-zero rule or the even-odd one.
    /// `Pipeline` only names the instruction set the caller is compiled for (see `PipelineCells`).
    @inlinable @inline(__always)
    public static func composite<Pipeline: FillPipeline>(cells: inout CoverageCells, color: UInt32, evenOdd: Bool,
                                                          into pixels: UnsafeMutablePointer<UInt32>, canvasWidth: Int,
                                                          _ pipeline: Pipeline.Type) {
        guard !cells.isEmpty else { return }
        if evenOdd {
            run(cells: &cells, color: color, pixels: pixels, canvasWidth: canvasWidth, EvenOddCoverage.self, pipeline)
        } else {
            run(cells: &cells, color: color, pixels: pixels, canvasWidth: canvasWidth, NonZeroCoverage.self, pipeline)
        }
    }

    /// The row loop for `Rule`, compiled on its own for areas of one word of marks a row (up to 510 pixels wide:
    /// glyphs, icons, a hairline's slant) and of two (up to 1022: a phone's width). With the count of words known,
    /// the loop over them goes away and the row's state stays in registers: the hairlines of stress-moved took 0.88
    /// of the time, the other scenes 0.97–1.0 (docs/guide.md).
    @inlinable @inline(__always)
    static func run<Rule: CoverageRule, Pipeline: FillPipeline>(cells: inout CoverageCells, color: UInt32,
                                                                pixels: UnsafeMutablePointer<UInt32>, canvasWidth: Int,
                                                                _ rule: Rule.Type, _ pipeline: Pipeline.Type) {
        switch cells.wordsPerRow {
        case 1:
            run(cells: &cells, color: color, pixels: pixels, canvasWidth: canvasWidth, Rule.self, OneWordRows.self,
                pipeline)
        case 2:
            run(cells: &cells, color: color, pixels: pixels, canvasWidth: canvasWidth, Rule.self, TwoWordRows.self,
                pipeline)
        default:
            run(cells: &cells, color: color, pixels: pixels, canvasWidth: canvasWidth, Rule.self, AnyWordRows.self,
                pipeline)
        }
    }

    /// The row loop, specialised per rule so that the coverage function inlines into the pixel loops.
    ///
    /// Marked cells are taken eight at a time, in the aligned groups of eight that hold at least one mark: cells
    /// that are not marked are zero, so a group's unmarked cells only carry the running sum on, and eight cells
    /// summed, mapped to coverage and blended as one vector cost about what one cell costs alone.
    @inlinable @inline(__always)
    static func run<Rule: CoverageRule, Words: MarkWords, Pipeline: FillPipeline>(
        cells: inout CoverageCells, color: UInt32, pixels: UnsafeMutablePointer<UInt32>, canvasWidth: Int,
        _ rule: Rule.Type, _ words: Words.Type, _ pipeline: Pipeline.Type
    ) {
        let clip = cells.clip
        // Pixels drawn: columns whose area meets the clip box; marked cells beyond are only cleared.
        let drawStart = Int(clip.minX.rounded(.down))
        let drawEnd = Int(clip.maxX.rounded(.up))
        let stride = cells.stride, wordsPerRow = Words.perRow(cells.wordsPerRow)
        // Groups ending here at most stay within the canvas row.
        let rowEnd = canvasWidth &- cells.originX
        let opaque = color >> 24 == 255
        let source = VectorBlend(color)
        let ahead = SpanCompositor.prefetchRows &* canvasWidth
        if cells.isNarrow {
            // A narrow area (a hairline, a speck): a row is one group, blended whole from the first column
            // (`drawStart` is 0: the area starts on the clip box's first pixel) without marks, which its edges do not
            // write. Its pixels lie in the canvas row unless the area ends within eight pixels of the row's end.
            var line = cells.cells + cells.minRow &* 8
            var dst = pixels + ((cells.minRow &+ cells.originY) &* canvasWidth &+ cells.originX)
            for row in cells.minRow...cells.maxRow {
                if row &+ SpanCompositor.prefetchRows <= cells.maxRow { refreshlab_prefetch(dst + ahead) }
                if rowEnd >= 8 {
                    _ = source.blendGroup(cells: line, into: dst, carry: SIMD8(), opaque: opaque, Rule.self, pipeline,
                                          drawn: drawEnd)
                } else {
                    _ = blendCells(line, from: 0, to: 8, carry: 0, into: dst, drawStart: drawStart, drawEnd: drawEnd,
                                   source: source, Rule.self, pipeline)
                }
                line += 8
                dst += canvasWidth
            }
            return
        }
        // Where the rows ahead are likely to be marked: the last group marked in the row before (an edge moves
        // little from one row to the next), to ask for their cells and pixels early.
        var hint = 0
        let aheadCells = SpanCompositor.prefetchRows &* stride
        // The row's cells, marks and pixels, moved on a row at a time.
        var line = cells.cells + cells.minRow &* stride
        var marks = cells.bits + cells.minRow &* wordsPerRow
        var dst = pixels + ((cells.minRow &+ cells.originY) &* canvasWidth &+ cells.originX)
        let lastPrefetched = cells.maxRow &- SpanCompositor.prefetchRows
        for row in cells.minRow...cells.maxRow {
            defer { line += stride; marks += wordsPerRow; dst += canvasWidth }
            if row <= lastPrefetched {
                refreshlab_prefetch(line + aheadCells + hint)
                if hint < rowEnd { refreshlab_prefetch(dst + ahead + hint) }
            }
            // The running sum, in every lane: kept as a vector so that the groups' arithmetic never waits on a
            // scalar moved into one (which also let the compiler fold it into the prefix sum, badly).
            var acc = SIMD8<Int32>()
            var x = drawStart
            var w = 0
            while w < wordsPerRow {
                let word = marks[w]
                if word == 0 {
                    w &+= 1
                    continue
                }
                marks[w] = 0
                var groups = word
                let base = w << 9
                while groups != 0 {
                    let g = base &+ (groups.trailingZeroBitCount << 3)
                    groups &= groups &- 1
                    hint = g
                    // The constant stretch before the group.
                    let spanEnd = Swift.min(g, drawEnd)
                    if spanEnd > x {
                        span(dst + x, count: spanEnd &- x, coverage: Rule.coverage(acc[0]), source: source,
                             opaque: opaque)
                    }
                    let end = g &+ 8
                    if g >= drawStart && end <= drawEnd {
                        acc = source.blendGroup(cells: line + g, into: dst + g, carry: acc, opaque: opaque, Rule.self,
                                                pipeline)
                    } else if g >= drawStart && end <= rowEnd {
                        // The last group of a narrow area (a hairline is one group a row): the pixels past the drawn
                        // columns are still in the canvas row, so the group is blended whole with their coverage
                        // zero, which leaves them as they are.
                        acc = source.blendGroup(cells: line + g, into: dst + g, carry: acc, opaque: opaque, Rule.self,
                                                pipeline, drawn: drawEnd &- g)
                    } else {
                        // A group at an end of the canvas row: pixels outside the drawn columns are only cleared.
                        acc = SIMD8(repeating: blendCells(line, from: g, to: Swift.min(end, stride), carry: acc[0],
                                                          into: dst, drawStart: drawStart, drawEnd: drawEnd,
                                                          source: source, Rule.self, pipeline))
                    }
                    x = Swift.max(x, end)
                }
                w &+= 1
            }
            // Past the last marked cell the sum is the winding of the rest of the row: zero for a closed outline,
            // except where edges past the clip box's right side were dropped (see `CoverageCells.cullRight`).
            if x < drawEnd {
                span(dst + x, count: drawEnd &- x, coverage: Rule.coverage(acc[0]), source: source, opaque: opaque)
            }
        }
    }

    /// Sums cells `from..<to` of a row (`line`) on from `carry`, clearing them, and blends each pixel of `dst` whose
    /// column lies in `drawStart..<drawEnd` at its coverage; returns the sum after the last. Cell by cell: for the
    /// few groups that reach past the drawn columns at an end of the canvas row.
    @inlinable
    static func blendCells<Rule: CoverageRule, Pipeline: FillPipeline>(
        _ line: UnsafeMutablePointer<Int32>, from: Int, to: Int, carry: Int32, into dst: UnsafeMutablePointer<UInt32>,
        drawStart: Int, drawEnd: Int, source: VectorBlend, _ rule: Rule.Type, _ pipeline: Pipeline.Type
    ) -> Int32 {
        var sum = carry
        var i = from
        while i < to {
            sum &+= line[i]
            line[i] = 0
            if i >= drawStart && i < drawEnd {
                dst[i] = Lanes.blend(source.spread, coverage: Rule.coverage(sum), over: dst[i])
            }
            i &+= 1
        }
        return sum
    }

    /// Rows between the one composited and the one whose cells and pixels are asked for: a row apart, those of a
    /// narrow or slanted shape are each a cache miss that the hardware does not see coming.
    @inlinable static var prefetchRows: Int { 12 }

    /// Draws `count` pixels at one coverage.
    @inlinable @inline(__always)
    static func span(_ dst: UnsafeMutablePointer<UInt32>, count: Int, coverage: UInt32, source: VectorBlend,
                             opaque: Bool) {
        if coverage == 0 { return }
        if coverage == 255 && opaque {
            dst.update(repeating: source.color, count: count)
            return
        }
        source.blendSpan(dst, count: count, coverage: coverage)
    }
}

/// How many 64-bit words of marks each row of the cells has, as the compositor is compiled for it.
public protocol MarkWords {
    /// The count to use for cells whose rows have `words`: `words` itself, or a constant equal to it.
    static func perRow(_ words: Int) -> Int
}

/// Any count, read from the cells.
public enum AnyWordRows: MarkWords {
    @inlinable @inline(__always) public static func perRow(_ words: Int) -> Int { words }
}

/// One word: rows of at most 512 cells.
public enum OneWordRows: MarkWords {
    @inlinable @inline(__always) public static func perRow(_ words: Int) -> Int { 1 }
}

/// Two words: rows of 513 to 1024 cells.
public enum TwoWordRows: MarkWords {
    @inlinable @inline(__always) public static func perRow(_ words: Int) -> Int { 2 }
}

/// Maps a pixel's winding-weighted area (`CoverageCells.one` per pixel) to an 8-bit coverage.
public protocol CoverageRule {
    static func coverage(_ acc: Int32) -> UInt32
    /// The same for eight sums at once.
    static func coverage(_ acc: SIMD8<Int32>) -> SIMD8<UInt32>
}

/// Non-zero: any winding counts as inside; the area saturates at one.
public enum NonZeroCoverage: CoverageRule {
    @inlinable @inline(__always)
    public static func coverage(_ acc: Int32) -> UInt32 {
        let a = Swift.min(acc.magnitude, UInt32(CoverageCells.one))
        return (a &* 255 &+ 0x8000) >> 16
    }

    @inlinable @inline(__always)
    public static func coverage(_ acc: SIMD8<Int32>) -> SIMD8<UInt32> {
        // min(|acc|, one) without comparisons (the standard library builds its vector masks lane by lane):
        // adding `d` where it is negative brings a larger value down to `one`, with wrapping for 2³¹.
        let m = magnitude(acc)
        let d = CoverageCells.one &- m
        let a = m &+ (d & (d &>> 31))
        return SIMD8<UInt32>(truncatingIfNeeded: (a &* 255 &+ 0x8000) &>> 16)
    }
}

/// Each lane's magnitude by wrapping arithmetic: `Int32.min` stays `Int32.min`, which is 2³¹ read unsigned, as
/// `Int32.magnitude` gives it.
@inlinable @inline(__always)
public func magnitude(_ v: SIMD8<Int32>) -> SIMD8<Int32> {
    let sign = v &>> 31
    return (v ^ sign) &- sign
}

/// Even-odd: the area folds every two windings, so 1 is inside, 2 outside, 1.5 half covered.
public enum EvenOddCoverage: CoverageRule {
    @inlinable @inline(__always)
    public static func coverage(_ acc: Int32) -> UInt32 {
        let period = UInt32(CoverageCells.one) << 1
        let m = acc.magnitude & (period - 1)
        let a = m > UInt32(CoverageCells.one) ? period - m : m
        return (a &* 255 &+ 0x8000) >> 16
    }

    @inlinable @inline(__always)
    public static func coverage(_ acc: SIMD8<Int32>) -> SIMD8<UInt32> {
        let period = CoverageCells.one << 1
        let m = magnitude(acc) & (period - 1)
        // Past one, the fold `period − m`: added as a difference where `one − m` is negative.
        let d = CoverageCells.one &- m
        let a = m &+ ((period &- (m &<< 1)) & (d &>> 31))
        return SIMD8<UInt32>(truncatingIfNeeded: (a &* 255 &+ 0x8000) &>> 16)
    }
}

/// Source-over of a colour at a coverage, with the four channels in the 16-bit lanes of one 64-bit word.
///
/// The arithmetic is `Pixel.scale` followed by `Pixel.sourceOver`, lane for lane, so the results are identical;
/// spreading the channels apart lets one multiply do the work of two, which matters in the per-pixel loop of
/// marked cells, the one loop here that the compiler cannot vectorise.
public enum Lanes {
    /// The lanes' mask: one byte of value in each 16-bit lane.
    @inlinable public static var mask: UInt64 { 0x00FF_00FF_00FF_00FF }
    /// Half of 256 in every lane, for rounding.
    @inlinable public static var half: UInt64 { 0x0080_0080_0080_0080 }

    /// `0xAARRGGBB` as `0x00AA_00GG_00RR_00BB`.
    @inlinable @inline(__always)
    public static func spread(_ p: UInt32) -> UInt64 {
        let q = UInt64(p)
        return (q | (q << 24)) & mask
    }

    /// The inverse of `spread`.
    @inlinable @inline(__always)
    public static func pack(_ q: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: q | (q >> 24))
    }

    /// Every lane times `k` / 255, rounded as `Pixel` rounds.
    @inlinable @inline(__always)
    public static func scale(_ q: UInt64, by k: UInt64) -> UInt64 {
        let t = q &* k &+ half
        return ((t &+ ((t >> 8) & mask)) >> 8) & mask
    }

    /// The spread colour `s` at `coverage` (0…255), source-over the pixel `dst`.
    @inlinable @inline(__always)
    public static func blend(_ s: UInt64, coverage: UInt32, over dst: UInt32) -> UInt32 {
        let src = scale(s, by: UInt64(coverage))
        let inverse = 255 &- (src >> 48)
        return pack(src &+ scale(spread(dst), by: inverse))
    }
}

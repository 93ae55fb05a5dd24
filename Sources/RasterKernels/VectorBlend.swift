import CIntrinsics

/// Source-over of one colour at eight coverages at once: the arithmetic of `Lanes.blend`, lane for lane, on eight
/// pixels, so that every pixel comes out the same as the one-pixel path gives it.
///
/// The channels are paired in the 16-bit halves of each pixel's 32-bit lane (blue with red, green with alpha): a
/// product of two bytes fits a half, so one 16-bit multiply serves two channels of a pixel, and that multiply is
/// in the base instruction set (SSE2) as in every wider one.
public struct VectorBlend {
    public typealias Pixels = SIMD8<UInt32>
    public typealias Halves = SIMD16<UInt16>

    /// The premultiplied colour, `0xAARRGGBB`, and the same spread for the one-pixel path.
    public let color: UInt32
    public let spread: UInt64
    /// The colour's blue and red, and its green and alpha, in the halves of every lane.
    @usableFromInline let blueRed: Halves, greenAlpha: Halves

    @inlinable public init(_ color: UInt32) {
        self.color = color
        spread = Lanes.spread(color)
        blueRed = unsafeBitCast(Pixels(repeating: color & 0x00FF_00FF), to: Halves.self)
        greenAlpha = unsafeBitCast(Pixels(repeating: (color >> 8) & 0x00FF_00FF), to: Halves.self)
    }

    /// Sums the eight cells at `cells` on from `carry` (the running sum in every lane), clears them, blends the colour
    /// at their coverage onto the eight pixels at `dst`, and returns the sum after the last cell, in every lane.
    /// Only the first `drawn` pixels take their coverage; the others are blended at zero, which leaves them unchanged.
    @inlinable @inline(__always)
    public func blendGroup<Rule: CoverageRule, Pipeline: FillPipeline>(
        cells: UnsafeMutablePointer<Int32>, into dst: UnsafeMutablePointer<UInt32>, carry: SIMD8<Int32>, opaque: Bool,
        _ rule: Rule.Type, _ pipeline: Pipeline.Type, drawn: Int = 8
    ) -> SIMD8<Int32> {
        let cellBytes = UnsafeMutableRawPointer(cells)
        var s = cellBytes.loadUnaligned(as: SIMD8<Int32>.self)
        cellBytes.storeBytes(of: SIMD8<Int32>(), as: SIMD8<Int32>.self)
        // Prefix sum in three adds, then the carry: the next group waits only for the carry's add and a broadcast.
        // Each odd lane gains the even one before it by a shift of the 64-bit lanes; lanes 2–3 and 6–7 gain lane 1
        // and 5, spread over both halves of a 64-bit lane and moved up one; the upper four gain lane 3. Written so,
        // each step compiles to a shift or a shuffle; shifting every lane by one, two and four places compiled to
        // some twenty inserts and extracts.
        s &+= unsafeBitCast(unsafeBitCast(s, to: SIMD4<UInt64>.self) &<< 32, to: SIMD8<Int32>.self)
        let odd = unsafeBitCast(s, to: SIMD4<UInt64>.self) &>> 32
        let pairs = odd | (odd &<< 32)
        s &+= unsafeBitCast(SIMD4<UInt64>(0, pairs[0], 0, pairs[2]), to: SIMD8<Int32>.self)
        s &+= SIMD8(lowHalf: SIMD4(), highHalf: SIMD4(repeating: s[3]))
        s &+= carry
        var coverage = Rule.coverage(s)
        if drawn < 8 {
            // Lane i is kept where drawn − i > 0: (drawn − i − 1) >> 31 is all ones exactly where it is not.
            let past = (SIMD8<Int32>(repeating: Int32(truncatingIfNeeded: drawn &- 1)) &- SIMD8(0, 1, 2, 3, 4, 5, 6, 7))
                &>> 31
            coverage &= ~SIMD8<UInt32>(truncatingIfNeeded: past)
        }
        blend(coverage, into: dst, opaque: opaque)
        return SIMD8(repeating: s[7])
    }

    /// Blends the colour at `coverage` onto the eight pixels at `dst` (`opaque`: the colour's alpha is 255).
    @inlinable @inline(__always)
    public func blend(_ coverage: Pixels, into dst: UnsafeMutablePointer<UInt32>, opaque: Bool) {
        let pixelBytes = UnsafeMutableRawPointer(dst)
        if opaque && VectorBlend.isZero(coverage ^ 255) {
            // Covered whole by an opaque colour: stored without reading the destination.
            pixelBytes.storeBytes(of: Pixels(repeating: color), as: Pixels.self)
        } else if !VectorBlend.isZero(coverage) {
            let under = pixelBytes.loadUnaligned(as: Pixels.self)
            pixelBytes.storeBytes(of: blend(coverage, over: under), as: Pixels.self)
        }
    }

    /// `count` pixels at `dst` blended with the colour at one coverage (1…255).
    @inlinable @inline(__always)
    public func blendSpan(_ dst: UnsafeMutablePointer<UInt32>, count: Int, coverage: UInt32) {
        var i = 0
        if count >= 8 {
            let c = Pixels(repeating: coverage)
            let bytes = UnsafeMutableRawPointer(dst)
            while i &+ 8 <= count {
                let at = i &* 4
                let under = bytes.loadUnaligned(fromByteOffset: at, as: Pixels.self)
                bytes.storeBytes(of: blend(c, over: under), toByteOffset: at, as: Pixels.self)
                i &+= 8
            }
        }
        while i < count {
            dst[i] = Lanes.blend(spread, coverage: coverage, over: dst[i])
            i &+= 1
        }
    }

    /// The colour at `coverage` (0…255 per pixel) source-over `under`.
    @inlinable @inline(__always)
    public func blend(_ coverage: Pixels, over under: Pixels) -> Pixels {
        let k = unsafeBitCast(coverage | (coverage &<< 16), to: Halves.self)
        let sourceBlueRed = VectorBlend.divide255(blueRed &* k)
        let sourceGreenAlpha = VectorBlend.divide255(greenAlpha &* k)
        // 255 − alpha in both halves of each lane; as an exclusive or (alpha ≤ 255), because the subtraction
        // compiled to extracting and re-inserting lanes.
        let alpha = unsafeBitCast(sourceGreenAlpha, to: Pixels.self) &>> 16
        let j = unsafeBitCast((alpha | (alpha &<< 16)) ^ Pixels(repeating: 0x00FF_00FF), to: Halves.self)
        let mask = Pixels(repeating: 0x00FF_00FF)
        let underBlueRed = VectorBlend.divide255(unsafeBitCast(under & mask, to: Halves.self) &* j)
        let underGreenAlpha = VectorBlend.divide255(unsafeBitCast((under &>> 8) & mask, to: Halves.self) &* j)
        let low = unsafeBitCast(sourceBlueRed &+ underBlueRed, to: Pixels.self)
        let high = unsafeBitCast(sourceGreenAlpha &+ underGreenAlpha, to: Pixels.self)
        return low | (high &<< 8)
    }

    /// Whether every lane is zero, by halving: the standard library's `all` and `any` go lane by lane.
    @inlinable @inline(__always)
    static func isZero(_ v: Pixels) -> Bool {
        let four = v.lowHalf | v.highHalf
        let two = four.lowHalf | four.highHalf
        return two[0] | two[1] == 0
    }

    /// Each half (a product of two bytes) divided by 255, rounded as `Pixel` rounds (see `refreshlab_divide255`).
    @inlinable @inline(__always)
    public static func divide255(_ v: Halves) -> Halves {
        refreshlab_divide255(v)
    }
}

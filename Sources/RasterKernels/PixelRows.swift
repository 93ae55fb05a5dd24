import CIntrinsics

/// Rows of pixels put down over others, eight at a time: a layer's offscreen pixels composited at an opacity, and a
/// gradient's colours at their coverage. Each pixel comes out as `Pixel.scale` then `Pixel.sourceOver` give it
/// (the channels paired in 16-bit halves as in `VectorBlend`, divided by 255 the same way): a transparent source
/// leaves the pixel under it, an opaque one replaces it, so the one-pixel paths' shortcuts change nothing.
public enum PixelRows {
    public typealias Pixels = SIMD8<UInt32>
    public typealias Halves = SIMD16<UInt16>

    /// `source` (premultiplied, already scaled) over `under`, given the source's blue-red and green-alpha halves.
    @inlinable @inline(__always)
    static func over(blueRed: Halves, greenAlpha: Halves, _ under: Pixels) -> Pixels {
        let alpha = unsafeBitCast(greenAlpha, to: Pixels.self) &>> 16
        let j = unsafeBitCast((alpha | (alpha &<< 16)) ^ Pixels(repeating: 0x00FF_00FF), to: Halves.self)
        let mask = Pixels(repeating: 0x00FF_00FF)
        let underBlueRed = VectorBlend.divide255(unsafeBitCast(under & mask, to: Halves.self) &* j)
        let underGreenAlpha = VectorBlend.divide255(unsafeBitCast((under &>> 8) & mask, to: Halves.self) &* j)
        let low = unsafeBitCast(blueRed &+ underBlueRed, to: Pixels.self)
        let high = unsafeBitCast(greenAlpha &+ underGreenAlpha, to: Pixels.self)
        return low | (high &<< 8)
    }

    /// Every channel of `p` times `k` (0…255, per pixel, in both halves of its lane) / 255, as halves.
    @inlinable @inline(__always)
    static func scaled(_ p: Pixels, by k: Halves) -> (blueRed: Halves, greenAlpha: Halves) {
        let mask = Pixels(repeating: 0x00FF_00FF)
        return (VectorBlend.divide255(unsafeBitCast(p & mask, to: Halves.self) &* k),
                VectorBlend.divide255(unsafeBitCast((p &>> 8) & mask, to: Halves.self) &* k))
    }

    /// The body of `FillPipeline.compositeRow`: `count` pixels of `source` scaled by `alpha` (1…255) and put
    /// source-over the pixels at `dst`.
    @inlinable @inline(__always)
    public static func compositeKernel(_ source: UnsafePointer<UInt32>, onto dst: UnsafeMutablePointer<UInt32>,
                                       count: Int, alpha: UInt32) {
        var i = 0
        let k = Halves(repeating: UInt16(truncatingIfNeeded: alpha))
        let mask = Pixels(repeating: 0x00FF_00FF)
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(dst)
        while i &+ 8 <= count {
            let at = i &* 4
            let p = from.loadUnaligned(fromByteOffset: at, as: Pixels.self)
            i &+= 8
            // Nothing to put down: the pixels under stay as they are.
            guard !isZero(p) else { continue }
            let under = to.loadUnaligned(fromByteOffset: at, as: Pixels.self)
            let out: Pixels
            if alpha == 255 {
                out = over(blueRed: unsafeBitCast(p & mask, to: Halves.self),
                           greenAlpha: unsafeBitCast((p &>> 8) & mask, to: Halves.self), under)
            } else {
                let s = scaled(p, by: k)
                out = over(blueRed: s.blueRed, greenAlpha: s.greenAlpha, under)
            }
            to.storeBytes(of: out, toByteOffset: at, as: Pixels.self)
        }
        while i < count {
            let p = source[i]
            if p != 0 { dst[i] = Lanes.blend(Lanes.spread(p), coverage: alpha, over: dst[i]) }
            i &+= 1
        }
    }

    /// The body of `FillPipeline.shadeRow`: `count` pixels at `dst`, each with the colour `colors[entries[i]]`
    /// at coverage `coverage[i]` put source-over it.
    @inlinable @inline(__always)
    public static func shadeKernel(entries: UnsafePointer<Int32>, colors: UnsafePointer<UInt32>,
                                   coverage: UnsafePointer<UInt8>, onto dst: UnsafeMutablePointer<UInt32>, count: Int) {
        var i = 0
        let to = UnsafeMutableRawPointer(dst), cover = UnsafeRawPointer(coverage)
        while i &+ 8 <= count {
            let c8 = cover.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            guard c8 != 0 else { i &+= 8; continue }
            let e = entries + i
            let p = Pixels(colors[Int(e[0])], colors[Int(e[1])], colors[Int(e[2])], colors[Int(e[3])],
                           colors[Int(e[4])], colors[Int(e[5])], colors[Int(e[6])], colors[Int(e[7])])
            let c = Pixels(truncatingIfNeeded: cover.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt8>.self))
            let k = unsafeBitCast(c | (c &<< 16), to: Halves.self)
            let s = scaled(p, by: k)
            let at = i &* 4
            let under = to.loadUnaligned(fromByteOffset: at, as: Pixels.self)
            to.storeBytes(of: over(blueRed: s.blueRed, greenAlpha: s.greenAlpha, under), toByteOffset: at,
                          as: Pixels.self)
            i &+= 8
        }
        while i < count {
            let c = UInt32(coverage[i])
            if c > 0 { dst[i] = Lanes.blend(Lanes.spread(colors[Int(entries[i])]), coverage: c, over: dst[i]) }
            i &+= 1
        }
    }

    /// `a` and `b` mixed channel by channel, `b` weighing `t` 256ths (0…256), rounded to the nearest level: two
    /// channels at a time in the 16-bit halves of a word, where 255 × 256 + 128 still fits, so no channel carries into
    /// the next. A channel at or below its alpha in both pixels stays so.
    @inlinable @inline(__always)
    public static func mix(_ a: UInt32, _ b: UInt32, weight t: UInt32) -> UInt32 {
        let s = 256 &- t
        let blueRed = ((a & 0x00FF_00FF) &* s &+ (b & 0x00FF_00FF) &* t &+ 0x0080_0080) >> 8
        let greenAlpha = ((a >> 8) & 0x00FF_00FF) &* s &+ ((b >> 8) & 0x00FF_00FF) &* t &+ 0x0080_0080
        return blueRed & 0x00FF_00FF | greenAlpha & 0xFF00_FF00
    }

    /// The body of `FillPipeline.mixRows`: `count` pixels, each `mix(a[i], b[i], weight: t)`, eight at a time in
    /// 16-bit lanes (the same sums, lane by lane).
    @inlinable @inline(__always)
    public static func mixKernel(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, weight t: UInt32,
                                 into out: UnsafeMutablePointer<UInt32>, count: Int) {
        var i = 0
        let mask = Pixels(repeating: 0x00FF_00FF), half = Halves(repeating: 128)
        let s = Halves(repeating: UInt16(truncatingIfNeeded: 256 &- t)), w = Halves(repeating: UInt16(truncatingIfNeeded: t))
        let from = UnsafeRawPointer(a), to = UnsafeRawPointer(b), dst = UnsafeMutableRawPointer(out)
        while i &+ 8 <= count {
            let at = i &* 4
            let p = from.loadUnaligned(fromByteOffset: at, as: Pixels.self)
            let q = to.loadUnaligned(fromByteOffset: at, as: Pixels.self)
            let blueRed = (unsafeBitCast(p & mask, to: Halves.self) &* s
                &+ unsafeBitCast(q & mask, to: Halves.self) &* w &+ half) &>> 8
            let greenAlpha = (unsafeBitCast((p &>> 8) & mask, to: Halves.self) &* s
                &+ unsafeBitCast((q &>> 8) & mask, to: Halves.self) &* w &+ half) &>> 8
            let mixed = unsafeBitCast(blueRed, to: Pixels.self) | (unsafeBitCast(greenAlpha, to: Pixels.self) &<< 8)
            dst.storeBytes(of: mixed, toByteOffset: at, as: Pixels.self)
            i &+= 8
        }
        while i < count {
            out[i] = mix(a[i], b[i], weight: t)
            i &+= 1
        }
    }

    /// The body of `FillPipeline.mixColumns`: `count` pixels, each `mix(cells[left[i]], cells[left[i] + 1],
    /// weight: weights[i])`, eight at a time in 16-bit lanes.
    @inlinable @inline(__always)
    public static func mixColumnsKernel(_ cells: UnsafePointer<UInt32>, left: UnsafePointer<Int32>,
                                        weights: UnsafePointer<UInt32>, into out: UnsafeMutablePointer<UInt32>,
                                        count: Int) {
        var i = 0
        let mask = Pixels(repeating: 0x00FF_00FF), half = Halves(repeating: 128), whole = Pixels(repeating: 256)
        let weight = UnsafeRawPointer(weights), dst = UnsafeMutableRawPointer(out)
        while i &+ 8 <= count {
            let l = left + i
            let p = Pixels(cells[Int(l[0])], cells[Int(l[1])], cells[Int(l[2])], cells[Int(l[3])],
                           cells[Int(l[4])], cells[Int(l[5])], cells[Int(l[6])], cells[Int(l[7])])
            let q = Pixels(cells[Int(l[0]) &+ 1], cells[Int(l[1]) &+ 1], cells[Int(l[2]) &+ 1], cells[Int(l[3]) &+ 1],
                           cells[Int(l[4]) &+ 1], cells[Int(l[5]) &+ 1], cells[Int(l[6]) &+ 1], cells[Int(l[7]) &+ 1])
            let t = weight.loadUnaligned(fromByteOffset: i &* 4, as: Pixels.self), u = whole &- t
            let w = unsafeBitCast(t | (t &<< 16), to: Halves.self), s = unsafeBitCast(u | (u &<< 16), to: Halves.self)
            let blueRed = (unsafeBitCast(p & mask, to: Halves.self) &* s
                &+ unsafeBitCast(q & mask, to: Halves.self) &* w &+ half) &>> 8
            let greenAlpha = (unsafeBitCast((p &>> 8) & mask, to: Halves.self) &* s
                &+ unsafeBitCast((q &>> 8) & mask, to: Halves.self) &* w &+ half) &>> 8
            let mixed = unsafeBitCast(blueRed, to: Pixels.self) | (unsafeBitCast(greenAlpha, to: Pixels.self) &<< 8)
            dst.storeBytes(of: mixed, toByteOffset: i &* 4, as: Pixels.self)
            i &+= 8
        }
        while i < count {
            let l = Int(left[i])
            out[i] = mix(cells[l], cells[l &+ 1], weight: weights[i])
            i &+= 1
        }
    }

    /// The body of `FillPipeline.addHalves`: adds each of `count` pixels' blue and red to `blueRed[i]` and its green
    /// and alpha to `greenAlpha[i]`, in the words' 16-bit halves (up to 257 pixels before a half can overflow).
    @inlinable @inline(__always)
    public static func addHalvesKernel(of row: UnsafePointer<UInt32>, blueRed: UnsafeMutablePointer<UInt32>,
                                       greenAlpha: UnsafeMutablePointer<UInt32>, count: Int) {
        var i = 0
        let mask = Pixels(repeating: 0x00FF_00FF)
        let from = UnsafeRawPointer(row), low = UnsafeMutableRawPointer(blueRed), high = UnsafeMutableRawPointer(greenAlpha)
        while i &+ 8 <= count {
            let at = i &* 4
            let p = from.loadUnaligned(fromByteOffset: at, as: Pixels.self)
            let br = low.loadUnaligned(fromByteOffset: at, as: Pixels.self) &+ (p & mask)
            let ga = high.loadUnaligned(fromByteOffset: at, as: Pixels.self) &+ ((p &>> 8) & mask)
            low.storeBytes(of: br, toByteOffset: at, as: Pixels.self)
            high.storeBytes(of: ga, toByteOffset: at, as: Pixels.self)
            i &+= 8
        }
        while i < count {
            let p = row[i]
            blueRed[i] &+= p & 0x00FF_00FF
            greenAlpha[i] &+= (p >> 8) & 0x00FF_00FF
            i &+= 1
        }
    }

    /// Whether every lane is zero, by halving: the standard library's `all` and `any` go lane by lane.
    @inlinable @inline(__always)
    static func isZero(_ v: Pixels) -> Bool {
        let four = v.lowHalf | v.highHalf
        let two = four.lowHalf | four.highHalf
        return two[0] | two[1] == 0
    }
}

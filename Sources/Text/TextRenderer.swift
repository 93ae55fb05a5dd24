import Geometry
import Raster
import Colors

/// Draws lines of text into a canvas from a glyph cache: each glyph is a coverage mask, rendered once by our
/// rasterizer from the font's outline and then composited wherever the glyph appears.
///
/// Positions and sizes are in points; the canvas is in pixels at `scale`. Pens are snapped to a quarter pixel
/// horizontally (the cache keeps four sub-pixel renderings of a glyph) and baselines to whole pixels, so text
/// sits as crisply as on the phone while its spacing keeps the font's fractional advances.
///
/// ```swift
/// let fonts = try FontSet.standard()          // DejaVu Sans, then WenQuanYi Micro Hei for Chinese
/// let text = TextRenderer(fonts: fonts)
/// let title = text.layout("Pull down to refresh", size: 14)
/// text.draw(title, at: title.origin(in: header, alignment: .center), color: Color(white: 0.54), scale: 2,
///           into: canvas)
/// ```
///
/// Drawing a laid-out line from a warm cache allocates nothing.
public final class TextRenderer {
    public let fonts: FontSet
    public let cache: GlyphCache

    /// Largest pen coordinate in pixels that is drawn; beyond it a line is far off any canvas, and pixel
    /// arithmetic in `Int` stays far from overflow.
    static let maxCoordinate = 1e9

    public init(fonts: FontSet, cacheByteLimit: Int = GlyphCache.defaultByteLimit) {
        self.fonts = fonts
        cache = GlyphCache(byteLimit: cacheByteLimit)
    }

    /// Lays out `text` at `size` points with this renderer's fonts; see `TextLine.init`.
    public func layout(_ text: String, size: Double, maxWidth: Double? = nil) -> TextLine {
        TextLine(text, fonts: fonts, size: size, maxWidth: maxWidth)
    }

    /// Lays out `text` in lines no wider than `maxWidth`, at most `maxLines` of them: each line breaks after the
    /// last space that fits (within a word only when the word alone is too wide, and anywhere in text without
    /// spaces, as Chinese is written); the last line is cut with an ellipsis when text remains.
    public func layoutLines(_ text: String, size: Double, maxWidth: Double, maxLines: Int) -> [TextLine] {
        var lines: [TextLine] = []
        var rest = Array(text)
        while !rest.isEmpty && lines.count < maxLines - 1 && layout(String(rest), size: size).width > maxWidth {
            // The longest prefix that fits, by bisection (widths grow with the prefix); at least one character.
            var fits = 1, tooWide = rest.count
            while tooWide - fits > 1 {
                let middle = (fits + tooWide) / 2
                if layout(String(rest[..<middle]), size: size).width <= maxWidth { fits = middle } else { tooWide = middle }
            }
            var cut = fits
            if let space = rest[...fits].lastIndex(of: " "), space > 0 { cut = space }
            lines.append(layout(String(rest[..<cut]), size: size))
            rest.removeFirst(cut)
            while rest.first == " " { rest.removeFirst() }
        }
        if !rest.isEmpty && maxLines > 0 { lines.append(layout(String(rest), size: size, maxWidth: maxWidth)) }
        return lines
    }

    /// Lays out and draws `text` in one call; for text that changes every frame (a HUD counter). Text that
    /// stays the same should be laid out once and drawn with `draw(_:at:…)`.
    public func draw(_ text: String, size: Double, at origin: Point, color: Color, scale: Double,
                     clip: Rect? = nil, into canvas: Canvas) {
        draw(layout(text, size: size), at: origin, color: color, scale: scale, clip: clip, into: canvas)
    }

    /// Draws `line` with its baseline origin at `origin` (points), in `color` (source-over), into `canvas`
    /// whose pixels are `scale` per point, inside `clip` (canvas pixels) when given.
    public func draw(_ line: TextLine, at origin: Point, color: Color, scale: Double, clip: Rect? = nil,
                     into canvas: Canvas) {
        let pixelSize = line.size * scale
        guard color.alpha > 0, pixelSize > 0, pixelSize <= GlyphCache.maxPixelSize, origin.isFinite,
              !line.glyphs.isEmpty else { return }
        // The clip, as whole pixels inside the canvas.
        var minX = 0, minY = 0, maxX = canvas.width, maxY = canvas.height
        if let clip {
            guard clip.minX.isFinite, clip.maxX.isFinite, clip.minY.isFinite, clip.maxY.isFinite else { return }
            minX = Swift.max(minX, Int(Swift.max(clip.minX, -1).rounded(.up)))
            minY = Swift.max(minY, Int(Swift.max(clip.minY, -1).rounded(.up)))
            maxX = Swift.min(maxX, Int(Swift.min(clip.maxX, Double(canvas.width)).rounded(.down)))
            maxY = Swift.min(maxY, Int(Swift.min(clip.maxY, Double(canvas.height)).rounded(.down)))
        }
        guard minX < maxX, minY < maxY else { return }
        let baseline = (origin.y * scale).rounded()
        guard abs(baseline) < TextRenderer.maxCoordinate, abs(origin.x * scale) < TextRenderer.maxCoordinate else { return }
        let by = Int(baseline)
        let premultiplied = color.premultipliedPixel
        let size64 = Int((pixelSize * 64).rounded())
        let positions = Double(GlyphCache.subpixelPositions)
        for g in line.glyphs {
            // The pen in sub-pixel steps, rounded to nearest: floor(v + 0.5) by truncation, corrected below zero
            // (cheaper than `rounded()`, a library call at the baseline CPU level, once per glyph).
            let v = (origin.x + g.x) * scale * positions + 0.5
            var quarters = Int(v)
            if Double(quarters) > v { quarters -= 1 }
            let mask = cache.mask(fonts: fonts, font: g.font, glyph: g.glyph, size64: size64,
                                  subpixel: quarters & (GlyphCache.subpixelPositions - 1))
            TextRenderer.composite(mask, x: quarters >> GlyphCache.subpixelBits, y: by, color: premultiplied,
                                   minX: minX, minY: minY, maxX: maxX, maxY: maxY, into: canvas)
        }
    }

    /// Blends `color` through `mask` with the pen's whole pixel at (x, y), inside the pixel box
    /// [minX, maxX) × [minY, maxY) which lies within the canvas. Walks the mask's runs when it has them:
    /// empty pixels cost nothing, solid runs are a fill (or one pre-scaled blend), and only the partial
    /// runs blend per pixel, without a branch per pixel.
    @inline(__always)
    static func composite(_ mask: GlyphMask, x: Int, y: Int, color: UInt32,
                          minX: Int, minY: Int, maxX: Int, maxY: Int, into canvas: Canvas) {
        guard let coverage = mask.coverage else { return }
        let left = x + mask.left, top = y + mask.top
        let x0 = Swift.max(left, minX), x1 = Swift.min(left + mask.width, maxX)
        let y0 = Swift.max(top, minY), y1 = Swift.min(top + mask.height, maxY)
        guard x0 < x1, y0 < y1 else { return }
        let opaque = color >> 24 == 255
        let pixels = canvas.pixels, stride = canvas.width
        if opaque && mask.width >= 8 && x0 == left && x1 == left &+ mask.width {
            mixRows(coverage + (y0 &- top) &* mask.width, mask.width, rows: y1 &- y0,
                    into: pixels + (y0 &* stride &+ left), stride: stride, color: color)
            return
        }
        guard var r = mask.runs else {
            compositeBytes(coverage, mask.width, left: left, top: top, x0: x0, x1: x1, y0: y0, y1: y1, color: color,
                           into: pixels, stride: stride)
            return
        }
        let colorLanes = lanes(color)
        // Columns of the mask that are inside the clip.
        let c0 = x0 &- left, c1 = x1 &- left
        var row = top
        while row < y1 {
            let n = Int(r[0])
            if row >= y0 {
                let src = coverage + (row &- top) &* mask.width
                let dst = pixels + (row &* stride &+ left)
                var k = 0
                while k < n {
                    let packed = r[2 &* k &+ 2]
                    var a = Int(r[2 &* k &+ 1])
                    var b = a &+ Int(packed & 0x7FFF)
                    if a < c0 { a = c0 }
                    if b > c1 { b = c1 }
                    if a < b {
                        if packed & GlyphMask.solidRun != 0 {
                            if opaque {
                                (dst + a).update(repeating: color, count: b &- a)
                            } else {
                                for i in a..<b { dst[i] = blend(color, coverage: 255, over: dst[i]) }
                            }
                        } else if opaque {
                            for i in a..<b { dst[i] = mix(colorLanes, coverage: UInt64(src[i]), dst[i]) }
                        } else {
                            for i in a..<b { dst[i] = blend(color, coverage: UInt32(src[i]), over: dst[i]) }
                        }
                    }
                    k &+= 1
                }
            }
            r += 1 &+ 2 &* n
            row &+= 1
        }
    }

    /// An opaque `color` through `rows` rows of `width ≥ 8` coverage bytes over the pixels at `dst`, eight pixels
    /// a step in 16-bit vector lanes; see `mix8`. Every row takes the same number of steps (a row of width
    /// 8q + r starts with a block that keeps only its first r pixels), so the loop's branches are predicted,
    /// which costs less than walking short runs of varying length; zero coverage leaves a pixel as it was.
    @inline(__always)
    static func mixRows(_ coverage: UnsafePointer<UInt8>, _ width: Int, rows: Int,
                        into dst: UnsafeMutablePointer<UInt32>, stride: Int, color: UInt32) {
        let both = unsafeBitCast(SIMD4<UInt32>(repeating: color), to: SIMD8<UInt16>.self)
        let even = both & 0x00FF, odd = both &>> 8
        let r = width & 7
        let headKeep: UInt64 = r == 0 ? 0 : ~0 &>> UInt64(truncatingIfNeeded: 64 &- 8 &* r)
        var src = coverage, line = dst
        for _ in 0..<rows {
            var i = r
            if r > 4 {
                // The head [0, 8) overlaps the block at r: both are read before either is written, and the head,
                // holding only its first r coverages, is written first. A read of pixels that a write has just
                // half covered would wait for that write to reach the cache.
                let head = mix8(load(src) & headKeep, line, even, odd)
                let next = mix8(load(src + r), line + r, even, odd)
                store(head, line)
                store(next, line + r)
                i = r &+ 8
            } else if r != 0 {
                // The same with a head of four pixels.
                let head = mix8(load(src) & headKeep, line, even, odd).0
                let next = mix8(load(src + r), line + r, even, odd)
                UnsafeMutableRawPointer(line).storeBytes(of: head, as: SIMD8<UInt16>.self)
                store(next, line + r)
                i = r &+ 8
            }
            while i < width {
                store(mix8(load(src + i), line + i, even, odd), line + i)
                i &+= 8
            }
            src += width
            line += stride
        }
    }

    @inline(__always)
    static func load(_ p: UnsafePointer<UInt8>) -> UInt64 { UnsafeRawPointer(p).loadUnaligned(as: UInt64.self) }

    @inline(__always)
    static func store(_ v: (SIMD8<UInt16>, SIMD8<UInt16>), _ p: UnsafeMutablePointer<UInt32>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v.0, as: SIMD8<UInt16>.self)
        UnsafeMutableRawPointer(p + 4).storeBytes(of: v.1, as: SIMD8<UInt16>.self)
    }

    /// Eight pixels at `dst` under coverages `m` (one byte each): per channel c·m + d·(255 − m), rounded once,
    /// exactly as `mix`. The pixels' bytes are split into even (blue, red) and odd (green, alpha) 16-bit lanes,
    /// where every product fits, and each coverage is spread to its pixel's two lanes by byte interleaves.
    /// Plain `SIMD8<UInt16>` arithmetic lowers to SSE2 instructions; the generic SIMD conversions do not.
    @inline(__always)
    static func mix8(_ m: UInt64, _ dst: UnsafeMutablePointer<UInt32>, _ even: SIMD8<UInt16>,
                     _ odd: SIMD8<UInt16>) -> (SIMD8<UInt16>, SIMD8<UInt16>) {
        let v = unsafeBitCast(SIMD2<UInt64>(m, 0), to: SIMD16<UInt8>.self)
        let w = unsafeBitCast(SIMD16<UInt8>(v[0], 0, v[1], 0, v[2], 0, v[3], 0, v[4], 0, v[5], 0, v[6], 0, v[7], 0),
                              to: SIMD8<UInt16>.self)
        let lo = SIMD8<UInt16>(w[0], w[0], w[1], w[1], w[2], w[2], w[3], w[3])
        let hi = SIMD8<UInt16>(w[4], w[4], w[5], w[5], w[6], w[6], w[7], w[7])
        let d0 = UnsafeRawPointer(dst).loadUnaligned(as: SIMD8<UInt16>.self)
        let d1 = UnsafeRawPointer(dst + 4).loadUnaligned(as: SIMD8<UInt16>.self)
        return (mix4(lo, d0, even, odd), mix4(hi, d1, even, odd))
    }

    /// Four pixels `d` (as 16-bit halves) under coverages `m` (each in its pixel's two lanes).
    @inline(__always)
    static func mix4(_ m: SIMD8<UInt16>, _ d: SIMD8<UInt16>, _ even: SIMD8<UInt16>,
                     _ odd: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let n = 255 &- m
        let te = even &* m &+ (d & 0x00FF) &* n &+ 128
        let to = odd &* m &+ (d &>> 8) &* n &+ 128
        return divide255(te) | divide255(to) &<< 8
    }

    /// ⌊(t + ⌊t / 256⌋) / 256⌋ per lane, which is `t − 128` divided by 255 and rounded: the same as
    /// ⌊257 t / 2¹⁶⌋ for 16-bit t (writing t = 256q + s, both add less than one to q + s before the last
    /// division), and that is one high-half multiply (`pmulhuw`) in place of two shifts and an add.
    @inline(__always)
    static func divide255(_ t: SIMD8<UInt16>) -> SIMD8<UInt16> {
        SIMD8<UInt16>(truncatingIfNeeded: (SIMD8<UInt32>(truncatingIfNeeded: t) &* 257) &>> 16)
    }

    /// The same blend over plain coverage bytes, for masks without runs.
    static func compositeBytes(_ coverage: UnsafePointer<UInt8>, _ width: Int, left: Int, top: Int,
                               x0: Int, x1: Int, y0: Int, y1: Int, color: UInt32,
                               into pixels: UnsafeMutablePointer<UInt32>, stride: Int) {
        for row in y0..<y1 {
            let src = coverage + ((row &- top) &* width &+ (x0 &- left))
            let dst = pixels + (row &* stride &+ x0)
            for i in 0..<(x1 &- x0) where src[i] != 0 {
                dst[i] = blend(color, coverage: UInt32(src[i]), over: dst[i])
            }
        }
    }

    /// The four channels of a pixel spread into 16-bit lanes, 0x00AA00GG_00RR00BB, so that one 64-bit multiply
    /// scales all of them.
    @inline(__always)
    static func lanes(_ p: UInt32) -> UInt64 {
        let x = UInt64(p)
        return (x | x << 24) & 0x00FF_00FF_00FF_00FF
    }

    /// Each 16-bit lane divided by 255, rounded to nearest (exact for lanes up to 255 × 255).
    @inline(__always)
    static func divide255(_ v: UInt64) -> UInt64 {
        let t = v &+ 0x0080_0080_0080_0080
        return ((t &+ ((t >> 8) & 0x00FF_00FF_00FF_00FF)) >> 8) & 0x00FF_00FF_00FF_00FF
    }

    /// `color` (premultiplied) at `coverage`/255, source-over `dst`; exact at coverage 0 and 255.
    @inline(__always)
    static func blend(_ color: UInt32, coverage m: UInt32, over dst: UInt32) -> UInt32 {
        let src = divide255(lanes(color) &* UInt64(m))
        let inv = 255 &- (src >> 48)
        let out = src &+ divide255(lanes(dst) &* inv)
        return UInt32(truncatingIfNeeded: out | out >> 24)
    }

    /// An opaque colour (in lanes) over `dst` at `coverage`/255: color·m + dst·(255 − m), one rounding.
    @inline(__always)
    static func mix(_ colorLanes: UInt64, coverage m: UInt64, _ dst: UInt32) -> UInt32 {
        let out = divide255(colorLanes &* m &+ lanes(dst) &* (255 &- m))
        return UInt32(truncatingIfNeeded: out | out >> 24)
    }
}

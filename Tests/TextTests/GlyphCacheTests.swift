import Geometry
import Raster
import Testing
import TestSupport
@testable import Text

@Suite("Glyph cache")
struct GlyphCacheTests {
    let fonts: FontSet

    init() throws {
        fonts = try FontSet.standard()
    }

    @Test("Hits and evictions follow a least-recently-used model over random lookups")
    func lruModel() {
        let limit = 16
        let cache = GlyphCache(byteLimit: 1 << 30, entryLimit: limit)
        var model: [UInt64] = []  // most recent last
        var random = SeededRandom(seed: 42)
        let glyphs: [UInt32] = Array(36...70)
        var expectedHits = 0
        for _ in 0..<2000 {
            let g = glyphs[Int.random(in: 0..<glyphs.count, using: &random)]
            let sub = Int.random(in: 0..<GlyphCache.subpixelPositions, using: &random)
            let size = [10.0, 24.0][Int.random(in: 0..<2, using: &random)]
            let key = GlyphCache.key(font: 0, glyph: g, size64: Int(size * 64), subpixel: sub)
            if let i = model.firstIndex(of: key) {
                model.remove(at: i)
                expectedHits += 1
            } else if model.count == limit {
                model.removeFirst()
            }
            model.append(key)
            _ = cache.mask(fonts: fonts, font: 0, glyph: g, pixelSize: size, subpixel: sub)
            #expect(cache.count == model.count)
        }
        #expect(cache.hits == expectedHits)
        #expect(cache.misses == 2000 - expectedHits)
        #expect(cache.evictions == cache.misses - limit)
    }

    @Test("The byte limit holds after every lookup, and a re-rendered mask has the same bytes")
    func byteLimit() throws {
        let limit = 6000
        let cache = GlyphCache(byteLimit: limit)
        let rasterizer = GlyphRasterizer()
        var random = SeededRandom(seed: 7)
        let latin = fonts.fonts[0]
        for _ in 0..<500 {
            let g = UInt32.random(in: 36...90, using: &random)
            let size = Double(Int.random(in: 10...40, using: &random))
            let sub = Int.random(in: 0..<4, using: &random)
            let m = cache.mask(fonts: fonts, font: 0, glyph: g, pixelSize: size, subpixel: sub)
            #expect(cache.byteCount <= limit)
            let fresh = rasterizer.render(latin.outline(glyph: g), scale: size / latin.unitsPerEm,
                                          offsetX: Double(sub) / 4)
            #expect(m.left == fresh.left && m.top == fresh.top && m.width == fresh.width && m.height == fresh.height)
            for y in m.top..<(m.top + m.height) {
                for x in m.left..<(m.left + m.width) where m.value(x: x, y: y) != fresh.value(x: x, y: y) {
                    Issue.record("glyph \(g) at \(size) px differs at (\(x), \(y))")
                }
            }
        }
        #expect(cache.evictions > 0)
    }

    @Test("Sub-pixel positions are quarters: position 2 is the glyph rendered half a pixel to the right")
    func subpixel() {
        let cache = GlyphCache()
        let latin = fonts.fonts[0]
        let g = latin.glyphIndex(for: "l")
        let zero = cache.mask(fonts: fonts, font: 0, glyph: g, pixelSize: 16, subpixel: 0)
        let half = cache.mask(fonts: fonts, font: 0, glyph: g, pixelSize: 16, subpixel: 2)
        // The stem spans 193…377 units: 1.5078…2.9453 px, and 2.0078…3.4453 px half a pixel on.
        #expect(zero.left == 1 && half.left == 2)
        let row = zero.top + zero.height / 2
        #expect(abs(Int(zero.value(x: 1, y: row)) - Int(((2 - 1.5078) * 255).rounded())) <= 1)
        #expect(abs(Int(half.value(x: 2, y: row)) - Int(((3 - 2.0078) * 255).rounded())) <= 1)
        #expect(abs(Int(half.value(x: 3, y: row)) - Int((0.4453 * 255).rounded())) <= 1)
    }
}

@Suite("Mask runs")
struct MaskRunTests {
    @Test("Runs cover exactly the non-zero pixels, solid runs only 255s, over random masks")
    func runsProperty() {
        var random = SeededRandom(seed: 0x5EED)
        for _ in 0..<200 {
            let w = Int.random(in: 1...40, using: &random), h = Int.random(in: 1...12, using: &random)
            var bytes = [UInt8](repeating: 0, count: w * h)
            for i in bytes.indices {
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes[i] = 0
                case 1: bytes[i] = UInt8.random(in: 1...254, using: &random)
                default: bytes[i] = 255
                }
            }
            var out = [UInt16](repeating: 0, count: GlyphMask.runCapacity(width: w, height: h))
            let n = bytes.withUnsafeBufferPointer { b in
                out.withUnsafeMutableBufferPointer { GlyphMask.writeRuns(b.baseAddress!, width: w, height: h, into: $0.baseAddress!) }
            }
            var covered = [Bool](repeating: false, count: w * h)
            var r = 0
            for j in 0..<h {
                let count = Int(out[r])
                r += 1
                var last = -1
                for _ in 0..<count {
                    let a = Int(out[r]), len = Int(out[r + 1] & 0x7FFF), solid = out[r + 1] & GlyphMask.solidRun != 0
                    r += 2
                    #expect(a > last && len > 0 && a + len <= w)
                    last = a + len - 1
                    for i in a..<(a + len) {
                        covered[j * w + i] = true
                        if solid { #expect(bytes[j * w + i] == 255) }
                    }
                    if solid { #expect(len >= GlyphMask.minSolidRun) }
                }
            }
            #expect(r == n)
            #expect((0..<(w * h)).allSatisfy { covered[$0] == (bytes[$0] != 0) })
        }
    }
}

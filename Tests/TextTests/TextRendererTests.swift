import Geometry
import Raster
import Testing
import TestSupport
@testable import Text
import Colors

@Suite("Text renderer")
struct TextRendererTests {
    let fonts: FontSet

    init() throws {
        fonts = try FontSet.standard()
    }

    /// The expected picture: FreeType's own rendering of each glyph, blended in black at the pen positions the
    /// renderer must use (quarter-pixel x, whole-pixel baseline).
    func reference(_ line: TextLine, at origin: Point, scale: Double, width: Int, height: Int) -> [Double] {
        var ink = [Double](repeating: 0, count: width * height)
        let by = Int((origin.y * scale).rounded())
        for g in line.glyphs {
            let px = ((origin.x + g.x) * scale * 4).rounded() / 4
            let whole = px.rounded(.down)
            let font = fonts.font(at: g.font)
            guard let m = font.referenceMask(glyph: g.glyph, pixelSize: line.size * scale, offsetX: px - whole)
            else { continue }
            for j in 0..<m.height {
                for i in 0..<m.width {
                    let x = Int(whole) + m.left + i, y = by + m.top + j
                    guard x >= 0, y >= 0, x < width, y < height else { continue }
                    let a = Double(m.coverage[j * m.width + i]) / 255
                    ink[y * width + x] = ink[y * width + x] + a * (1 - ink[y * width + x])
                }
            }
        }
        return ink
    }

    @Test("English and Chinese drawn in black on white match FreeType's glyphs at the same pens")
    func againstFreeType() {
        let renderer = TextRenderer(fonts: fonts)
        for (text, size) in [("Pull down to refresh", 14.0), ("最后更新：今天 10:32", 12.0), ("Wavy AV 下拉刷新", 17.0)] {
            let canvas = Canvas(width: 400, height: 60, fill: .white)
            let line = renderer.layout(text, size: size)
            let origin = Point(3.3, 20)
            renderer.draw(line, at: origin, color: .black, scale: 2, into: canvas)
            let expected = reference(line, at: origin, scale: 2, width: 400, height: 60)
            var sum = 0.0, worst = 0.0, inked = 0
            for y in 0..<60 {
                for x in 0..<400 {
                    let ours = 1 - Double(canvas[x, y] & 0xFF) / 255
                    let d = abs(ours - expected[y * 400 + x]) * 255
                    sum += d
                    worst = max(worst, d)
                    if ours > 0 { inked += 1 }
                }
            }
            #expect(inked > 200, "\(text) drew almost nothing")
            // Glyphs that overlap are blended by both in the same order; the rest is the glyph-level tolerance.
            #expect(sum / Double(inked) <= 4, "\(text): mean \(sum / Double(inked)) per inked pixel")
            #expect(worst <= 64, "\(text): worst \(worst)")
        }
    }

    @Test("A second draw comes from the cache: no new renderings, the same pixels")
    func warmCache() {
        let renderer = TextRenderer(fonts: fonts)
        let line = renderer.layout("Release to refresh 松开立即刷新", size: 15)
        let a = Canvas(width: 500, height: 50, fill: .white), b = Canvas(width: 500, height: 50, fill: .white)
        renderer.draw(line, at: Point(5, 25), color: Color(rgb: 69, 141, 243), scale: 2, into: a)
        let misses = renderer.cache.misses
        renderer.draw(line, at: Point(5, 25), color: Color(rgb: 69, 141, 243), scale: 2, into: b)
        #expect(renderer.cache.misses == misses)
        #expect(renderer.cache.hits >= line.glyphs.count)
        #expect((0..<a.pixelCount).allSatisfy { a.pixels[$0] == b.pixels[$0] })
    }

    @Test("The clip keeps every pixel outside it untouched; text off the canvas or at absurd sizes draws nothing")
    func clipping() {
        let renderer = TextRenderer(fonts: fonts)
        let canvas = Canvas(width: 200, height: 40, fill: .white)
        let clip = Rect(x: 20.5, y: 5, width: 60, height: 20)
        renderer.draw("Loading...", size: 16, at: Point(0, 18), color: .black, scale: 2, clip: clip, into: canvas)
        var inside = 0
        for y in 0..<40 {
            for x in 0..<200 {
                let touched = canvas[x, y] != 0xFFFF_FFFF
                let within = x >= 21 && x < 80 && y >= 5 && y < 25
                if touched { #expect(within, "pixel (\(x), \(y)) drawn outside the clip") }
                if touched && within { inside += 1 }
            }
        }
        #expect(inside > 50)
        let before = (0..<canvas.pixelCount).map { canvas.pixels[$0] }
        renderer.draw("off", size: 16, at: Point(-500, -500), color: .black, scale: 2, into: canvas)
        renderer.draw("nan", size: .nan, at: Point(0, 10), color: .black, scale: 2, into: canvas)
        renderer.draw("huge", size: 1e300, at: Point(0, 10), color: .black, scale: 2, into: canvas)
        renderer.draw("far", size: 12, at: Point(1e200, 10), color: .black, scale: 2, into: canvas)
        renderer.draw("inf", size: 12, at: Point(0, 10), color: .black, scale: .infinity, into: canvas)
        #expect((0..<canvas.pixelCount).allSatisfy { canvas.pixels[$0] == before[$0] })
    }

    @Test("A character that no font has draws the missing-glyph box")
    func missingGlyphBox() {
        let renderer = TextRenderer(fonts: fonts)
        let canvas = Canvas(width: 60, height: 40, fill: .white)
        renderer.draw("\u{FFFF}", size: 16, at: Point(2, 16), color: .black, scale: 2, into: canvas)
        // DejaVu's .notdef is a hollow rectangle: ink on its sides, none in its middle.
        let mask = renderer.cache.mask(fonts: fonts, font: 0, glyph: 0, pixelSize: 32, subpixel: 0)
        let midY = 32 + mask.top + mask.height / 2
        let row = (0..<60).map { canvas[$0, midY] & 0xFF }
        #expect(row.filter { $0 < 128 }.count >= 2)
        #expect(canvas[4 + mask.left + mask.width / 2, midY] == 0xFFFF_FFFF)
    }

    @Test("Compositing a mask gives, per channel, round((c·m + d·(255 − m)) / 255) for opaque colours and the exact source-over blend otherwise, for every width, clip and background")
    func compositeMatchesPerPixelBlend() {
        var random = SeededRandom(seed: 7)
        for trial in 0..<300 {
            let w = Int.random(in: 1...40, using: &random), h = Int.random(in: 1...6, using: &random)
            // Zeros, partial values and runs of 255, as glyph masks have.
            var bytes = [UInt8](repeating: 0, count: w * h)
            for k in 0..<bytes.count {
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes[k] = 0
                case 1: bytes[k] = 255
                default: bytes[k] = UInt8.random(in: 0...255, using: &random)
                }
            }
            var runs = [UInt16](repeating: 0, count: GlyphMask.runCapacity(width: w, height: h))
            _ = bytes.withUnsafeBufferPointer { b in
                runs.withUnsafeMutableBufferPointer { GlyphMask.writeRuns(b.baseAddress!, width: w, height: h, into: $0.baseAddress!) }
            }
            let opaque = trial % 3 != 0
            let color = opaque ? 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &random)
                : Color(rgb: 200, 40, 90, alpha: Double.random(in: 0.1...0.9, using: &random)).premultipliedPixel
            let canvas = Canvas(width: 48, height: 10, fill: .white)
            for k in 0..<canvas.pixelCount { canvas.pixels[k] = UInt32.random(in: 0...UInt32.max, using: &random) | 0xFF00_0000 }
            let before = (0..<canvas.pixelCount).map { canvas.pixels[$0] }
            let x = Int.random(in: -4...12, using: &random), y = Int.random(in: 0...3, using: &random)
            let clipped = trial % 4 == 0
            let minX = clipped ? Int.random(in: 0...10, using: &random) : 0
            let maxX = clipped ? Int.random(in: 20...48, using: &random) : 48
            bytes.withUnsafeBufferPointer { b in
                runs.withUnsafeBufferPointer { r in
                    let mask = GlyphMask(left: 0, top: 0, width: w, height: h, coverage: b.baseAddress, runs: r.baseAddress)
                    TextRenderer.composite(mask, x: x, y: y, color: color, minX: minX, minY: 0, maxX: maxX, maxY: 10,
                                           into: canvas)
                }
            }
            var wrong = 0
            for py in 0..<10 {
                for px in 0..<48 {
                    let i = px - x, j = py - y
                    let inside = i >= 0 && i < w && j >= 0 && j < h && px >= minX && px < maxX
                    let m = inside ? UInt32(bytes[j * w + i]) : 0
                    let d = before[py * 48 + px]
                    var expected: UInt32 = 0
                    for shift in [0, 8, 16, 24] as [UInt32] {
                        let c = color >> shift & 0xFF, dc = d >> shift & 0xFF
                        let value: UInt32
                        if opaque {
                            value = (c * m + dc * (255 - m) + 127) / 255
                        } else {
                            let s = (c * m + 127) / 255, sa = ((color >> 24) * m + 127) / 255
                            value = s + (dc * (255 - sa) + 127) / 255
                        }
                        expected |= value << shift
                    }
                    if canvas.pixels[py * 48 + px] != expected { wrong += 1 }
                }
            }
            #expect(wrong == 0, "trial \(trial): width \(w), x \(x), clip \(minX)..<\(maxX): \(wrong) pixels differ")
        }
    }
}

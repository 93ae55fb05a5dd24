import Geometry
import Raster
import Testing
import TestSupport
@testable import Text

/// Our coverage against FreeType's smooth rasterizer (`FT_Render_Glyph`), both filling the same outline: the one
/// FreeType scales to the pixel size, unhinted, translated to each sub-pixel pen position.
@Suite("Glyph coverage against FreeType")
struct GlyphQualityTests {
    /// Largest mean absolute difference over all pixels of a glyph set at one size, in 1/255 units.
    static let meanTolerance = 2.0
    /// Largest mean absolute difference of any single glyph: a 3-pixel-wide glyph is nearly all edge pixels,
    /// where the two rasterizers' flattening of the same curve differ most.
    static let glyphTolerance = 3.0
    /// Sub-pixel pen positions compared: the four the glyph cache renders.
    static let offsets: [Double] = [0, 0.25, 0.5, 0.75]

    /// Sum of absolute differences over the union of both boxes, that union's pixel count, the largest single one.
    static func difference(_ ours: GlyphMask, _ theirs: ReferenceMask) -> (sum: Int, pixels: Int, max: Int) {
        let x0 = min(ours.left, theirs.left), y0 = min(ours.top, theirs.top)
        let x1 = max(ours.left + ours.width, theirs.left + theirs.width)
        let y1 = max(ours.top + ours.height, theirs.top + theirs.height)
        guard x1 > x0, y1 > y0 else { return (0, 0, 0) }
        var sum = 0, worst = 0
        for y in y0..<y1 {
            for x in x0..<x1 {
                let d = abs(Int(ours.value(x: x, y: y)) - Int(theirs.value(x: x, y: y)))
                sum += d
                worst = max(worst, d)
            }
        }
        return (sum, (x1 - x0) * (y1 - y0), worst)
    }

    /// Checks every glyph of `scalars` at every size and offset; `exact` fills the outline as FreeType scaled it,
    /// otherwise our own unrounded scaling of the font-unit outline (what the glyph cache draws).
    func check(_ font: Font, _ scalars: [Unicode.Scalar], sameOutline: Bool) {
        let rasterizer = GlyphRasterizer()
        for size in GlyphSets.sizes {
            var sum = 0, pixels = 0
            var worstMean = 0.0, worstGlyph = ""
            for s in scalars {
                let g = font.glyphIndex(for: s)
                #expect(g != 0, "\(font.familyName) lacks \(s)")
                for dx in GlyphQualityTests.offsets {
                    guard let reference = font.referenceMask(glyph: g, pixelSize: size, offsetX: dx),
                          let scaled = font.referenceOutline(glyph: g, pixelSize: size) else {
                        Issue.record("FreeType could not render \(s) at \(size) px")
                        continue
                    }
                    let ours = sameOutline
                        ? rasterizer.render(scaled, scale: 1, offsetX: dx)
                        : rasterizer.render(font.outline(glyph: g), scale: size / font.unitsPerEm, offsetX: dx)
                    let d = GlyphQualityTests.difference(ours, reference)
                    sum += d.sum
                    pixels += d.pixels
                    let mean = Double(d.sum) / Double(max(d.pixels, 1))
                    if mean > worstMean {
                        worstMean = mean
                        worstGlyph = "\(s) at offset \(dx)"
                    }
                }
            }
            let mean = Double(sum) / Double(max(pixels, 1))
            #expect(mean <= GlyphQualityTests.meanTolerance, "\(font.familyName) at \(size) px: mean \(mean)/255")
            #expect(worstMean <= GlyphQualityTests.glyphTolerance,
                    "\(font.familyName) at \(size) px: worst glyph \(worstGlyph), mean \(worstMean)/255")
        }
    }

    @Test("Printable ASCII in DejaVu Sans at 12, 16, 24 and 48 px, same outline: mean difference at most 2/255")
    func ascii() throws {
        check(try FontRequest.dejaVuSans.load(), GlyphSets.ascii, sameOutline: true)
    }

    @Test("200 common Chinese characters in WenQuanYi Micro Hei, same outline: mean difference at most 2/255")
    func chinese() throws {
        check(try FontRequest.wenQuanYiMicroHei.load(), GlyphSets.chinese, sameOutline: true)
    }

    @Test("Our unrounded scaling of the font-unit outlines stays within the same bounds")
    func unroundedScaling() throws {
        check(try FontRequest.dejaVuSans.load(), GlyphSets.ascii, sameOutline: false)
        check(try FontRequest.wenQuanYiMicroHei.load(), GlyphSets.chinese, sameOutline: false)
    }

    @Test("The stem of l, a rectangle, matches FreeType's coverage within the rounding of 8-bit coverage")
    func stem() throws {
        // No curve to flatten: the two rasterizers differ only in how they round area to 8 bits (FreeType truncates).
        let font = try FontRequest.dejaVuSans.load()
        let g = font.glyphIndex(for: "l")
        let rasterizer = GlyphRasterizer()
        for dx in GlyphQualityTests.offsets {
            let outline = try #require(font.referenceOutline(glyph: g, pixelSize: 16))
            let ours = rasterizer.render(outline, scale: 1, offsetX: dx)
            let reference = try #require(font.referenceMask(glyph: g, pixelSize: 16, offsetX: dx))
            #expect(GlyphQualityTests.difference(ours, reference).max <= 1)
            // The stem is 184 of 2048 units wide at 16 px: 1.4375 px, so every row holds 1.4375 × 255 of ink.
            let row = ours.top + ours.height / 2
            let ink = (ours.left..<(ours.left + ours.width)).reduce(0) { $0 + Int(ours.value(x: $1, y: row)) }
            #expect(abs(Double(ink) - 1.4375 * 255) <= 2)
        }
    }
}

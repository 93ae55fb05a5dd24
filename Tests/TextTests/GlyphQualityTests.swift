import Geometry
import Raster
import Testing
import TestSupport
@_spi(FreeTypeReference) @testable import Text
import CFreeType

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

/// A bold asked of a face that has none (the Chinese fonts) is synthesized as FreeType's own `FT_GlyphSlot_Embolden`
/// makes it, so that a bold Chinese label matches the bold Latin digits beside it.
@Suite("Synthetic bold against FreeType's")
struct SyntheticBoldTests {
    static let text = "已经全部加载完毕刷新成功"

    @Test("Advances and outline boxes of emboldened Chinese glyphs match FreeType's at 13, 17 and 26 px",
          .enabled(if: standardFontsInstalled, "the standard fonts are installed"))
    func matchesFreeType() throws {
        let regular = try FontRequest.wenQuanYiMicroHei.load()
        let bold = try FontRequest.wenQuanYiMicroHei.load(emboldened: true)
        #expect(regular.emboldening == 0 && bold.emboldening == bold.unitsPerEm / 24)
        for size in [13.0, 17, 26] {
            let scale = size / bold.unitsPerEm
            for scalar in SyntheticBoldTests.text.unicodeScalars {
                let glyph = regular.glyphIndex(for: scalar)
                try #require(regular.setReferenceSize(size) && regular.loadReferenceOutline(glyph: glyph))
                let slot = try #require(regular.faceHandle?.pointee.glyph)
                FT_GlyphSlot_Embolden(slot)
                var box = FT_BBox()
                FT_Outline_Get_CBox(&slot.pointee.outline, &box)
                let theirs = (advance: Double(slot.pointee.advance.x) / 64, left: Double(box.xMin) / 64,
                              right: Double(box.xMax) / 64, bottom: Double(box.yMin) / 64, top: Double(box.yMax) / 64)
                let outline = bold.outline(glyph: glyph).bounds
                let what = "\(scalar) at \(size) px"
                // FreeType rounds its points and strength to 1/64 px; ours are exact.
                #expect(abs(bold.advance(glyph: glyph) * scale - theirs.advance) < 0.05, "\(what): advance")
                #expect(abs(outline.minX * scale - theirs.left) < 0.05, "\(what): left")
                #expect(abs(outline.maxX * scale - theirs.right) < 0.05, "\(what): right")
                // y grows downwards in our outlines, upwards in FreeType's.
                #expect(abs(-outline.maxY * scale - theirs.bottom) < 0.05, "\(what): bottom")
                #expect(abs(-outline.minY * scale - theirs.top) < 0.05, "\(what): top")
            }
        }
    }

    @Test("A bold line of Chinese is wider than the regular by a 24th of an em a character, its Latin digits bold",
          .enabled(if: standardFontsInstalled, "the standard fonts are installed"))
    func boldLine() throws {
        let regular = TextRenderer(fonts: try FontSet.standard(weight: .regular))
        let bold = TextRenderer(fonts: try FontSet.standard(weight: .bold))
        let text = SyntheticBoldTests.text
        let extra = bold.layout(text, size: 17).width - regular.layout(text, size: 17).width
        #expect(abs(extra - Double(text.count) * 17 / 24) < 0.01, "\(extra)")
        // The bold set's Chinese face is the emboldened one; its Latin face is DejaVu Sans Bold itself.
        let fonts = try FontSet.standard(weight: .bold).fonts
        #expect(fonts[0].styleName == "Bold" && fonts[0].emboldening == 0 && fonts[1].emboldening > 0)
    }
}

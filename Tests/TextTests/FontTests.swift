#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Raster
import Testing
@testable import Text

@Suite("Font")
struct FontTests {
    let font: Font

    init() throws {
        font = try Font(path: Font.dejaVuSansPath)
    }

    @Test("DejaVu Sans loads and names its family")
    func loads() {
        #expect(font.familyName == "DejaVu Sans")
        #expect(font.unitsPerEm == 2048)
    }

    @Test("The bold set's Latin face is DejaVu Sans Bold, found by family and style; Chinese falls back as before")
    func boldSet() throws {
        let found = try #require(FontRequest.dejaVuSansBold.locate())
        #expect(found.path.hasSuffix("DejaVuSans-Bold.ttf"))
        let bold = try FontSet.standard(weight: .bold)
        #expect(bold.fonts[0].familyName == "DejaVu Sans" && bold.fonts[0].styleName == "Bold")
        #expect(bold.warnings.isEmpty == (try FontSet.standard()).warnings.isEmpty)
        // Bold strokes are wider: the same line takes more room.
        let regular = try FontSet.standard()
        #expect(TextLine("Pull down to refresh", fonts: bold, size: 14).width
            > TextLine("Pull down to refresh", fonts: regular, size: 14).width)
        // A style that the family does not have is not replaced by a look-alike.
        #expect(FontRequest.fontconfigMatch(family: "DejaVu Sans", style: "Nonexistent") == nil)
    }

    @Test("A missing font names the file and the package to install")
    func missingFont() {
        let error = #expect(throws: FontError.self) { try Font(path: "no/such/font.ttf", package: "fonts-wqy-microhei") }
        #expect(error?.description.contains("no/such/font.ttf") == true)
        #expect(error?.description.contains("apt-get install fonts-wqy-microhei") == true)
    }

    @Test("The capital I is a bar standing on the baseline, y growing downwards")
    func capitalI() {
        let path = font.glyphPath(for: "I", size: 100)
        let box = path.controlPointBounds
        // Capital height of DejaVu Sans: 1493 units of 2048 per em, so 72.9 px at 100 px per em.
        #expect(abs(box.minY - -1493.0 * 100 / 2048) < 0.01)
        #expect(abs(box.maxY) < 0.01)
        // A bar: its filled area is its bounding box's area.
        let canvas = Canvas(width: 100, height: 100, fill: .clear)
        Rasterizer().fill(path, transform: AffineTransform(translationX: 10, y: 90), color: .black, into: canvas)
        var covered = 0.0
        for i in 0..<canvas.pixelCount { covered += Double(canvas.pixels[i] >> 24) / 255 }
        #expect(abs(covered - box.width * box.height) < 0.01 * box.width * box.height)
    }

    @Test("Advances grow with the size and differ between narrow and wide letters")
    func advances() {
        #expect(font.advance(for: "i", size: 20) < font.advance(for: "W", size: 20))
        #expect(abs(font.advance(for: "W", size: 40) - 2 * font.advance(for: "W", size: 20)) < 1e-9)
        #expect(font.hasGlyph(for: "A"))
        #expect(!font.hasGlyph(for: "中"))
    }

    @Test("The letter o is two contours that wind opposite ways: its hole stays empty under both fill rules")
    func counterOfO() {
        let path = font.glyphPath(for: "o", size: 100)
        let box = path.controlPointBounds
        for rule in FillRule.allCases {
            let canvas = Canvas(width: 100, height: 100, fill: .clear)
            Rasterizer().fill(path, transform: AffineTransform(translationX: 10, y: 90), color: .black, rule: rule,
                              into: canvas)
            let centre = canvas[Int(10 + box.midX), Int(90 + box.midY)]
            let ring = canvas[Int(10 + box.minX + 3), Int(90 + box.midY)]
            #expect(centre >> 24 == 0)
            #expect(ring >> 24 == 255)
        }
    }
}

@Suite("Finding fonts")
struct FontSetTests {
    @Test("The standard set is DejaVu Sans, then a Chinese font, with nothing to warn about")
    func standard() throws {
        let fonts = try FontSet.standard()
        #expect(fonts.fonts[0].familyName == "DejaVu Sans")
        #expect(fonts.fonts.count == 2)
        #expect(fonts.warnings.isEmpty)
        #expect(fonts.resolve("A").font == 0)
        #expect(fonts.resolve("新").font == 1)
    }

    @Test("A missing font is named with its package, and DejaVu Sans takes its place")
    func missingLatin() throws {
        let request = FontRequest(family: "Nonexistent Sans", package: "fonts-nonexistent",
                                  debianPath: "/nonexistent/NonexistentSans.ttf")
        let error = #expect(throws: FontError.self) { try request.load() }
        #expect(error?.description.contains("'Nonexistent Sans'") == true)
        #expect(error?.description.contains("apt-get install fonts-nonexistent") == true)
        let fonts = try FontSet.standard(latin: [request, .dejaVuSans])
        #expect(fonts.fonts[0].familyName == "DejaVu Sans")
        #expect(fonts.warnings.count == 1)
        #expect(fonts.warnings[0].contains("fonts-nonexistent") && fonts.warnings[0].contains("DejaVu Sans"))
    }

    @Test("Without a Chinese font, Chinese draws as boxes and the warning names the package to install")
    func missingChinese() throws {
        let none = FontRequest(family: "Nonexistent Hei", package: "fonts-nonexistent-cjk",
                               debianPath: "/nonexistent/hei.ttc")
        let fonts = try FontSet.standard(cjk: [none])
        #expect(fonts.fonts.count == 1)
        #expect(fonts.warnings.count == 1)
        #expect(fonts.warnings[0].contains("'Nonexistent Hei'") && fonts.warnings[0].contains("fonts-nonexistent-cjk"))
        #expect(fonts.resolve("新") == (font: 0, glyph: 0))
    }

    @Test("Without any Latin font, the Chinese font draws Latin text too, and the warning names fonts-dejavu-core")
    func noLatinFont() throws {
        let missing = FontRequest(family: "Nonexistent Sans", package: "fonts-dejavu-core",
                                  debianPath: "/nonexistent/NonexistentSans.ttf")
        let fonts = try FontSet.standard(latin: [missing])
        #expect(fonts.fonts.count == 1 && fonts.fonts[0].familyName == "WenQuanYi Micro Hei")
        #expect(fonts.resolve("A").glyph != 0 && fonts.resolve("新").glyph != 0)
        #expect(fonts.warnings.count == 1)
        #expect(fonts.warnings[0].contains("apt-get install fonts-dejavu-core")
            && fonts.warnings[0].contains("drawn with 'WenQuanYi Micro Hei'"))
    }

    @Test("With no font at all, one error names both packages")
    func noFontAtAll() {
        let latin = FontRequest(family: "Nonexistent Sans", package: "fonts-dejavu-core", debianPath: "/nonexistent/a.ttf")
        let cjk = FontRequest(family: "Nonexistent Hei", package: "fonts-wqy-microhei", debianPath: "/nonexistent/b.ttc")
        let error = #expect(throws: FontError.self) { try FontSet.standard(latin: [latin], cjk: [cjk]) }
        #expect(error?.description.contains("apt-get install fonts-dejavu-core fonts-wqy-microhei") == true)
    }

    @Test("A file that is not a font gives one error naming it")
    func notAFont() {
        let error = #expect(throws: FontError.self) { try Font(path: #filePath) }
        #expect(error?.description.contains("FontTests.swift") == true)
    }
}

@Suite("Font search path")
struct FontSearchPathTests {
    @Test("A family fontconfig does not know is found by file name in the folders of REFRESHLAB_FONT_PATH")
    func searchPath() throws {
        let folder = String(Font.dejaVuSansPath.split(separator: "/").dropLast().joined(separator: "/"))
        let request = FontRequest(family: "Renamed Sans", package: "fonts-dejavu-core",
                                  debianPath: "/nonexistent/DejaVuSans.ttf")
        #expect(request.locate() == nil)
        setenv(FontRequest.searchPathVariable, "/nonexistent:/" + folder, 1)
        defer { unsetenv(FontRequest.searchPathVariable) }
        let found = try #require(request.locate())
        #expect(found.path == "/" + folder + "/DejaVuSans.ttf")
        #expect(try request.load().familyName == "DejaVu Sans")
    }
}

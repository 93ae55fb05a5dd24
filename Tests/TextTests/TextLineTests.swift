import Geometry
import Raster
import Testing
import TestSupport
@testable import Text

@Suite("Text lines")
struct TextLineTests {
    let fonts: FontSet

    init() throws {
        fonts = try FontSet.standard()
    }

    @Test("Digits advance 1303 of 2048 units each in DejaVu Sans: ten at 20.48 pt are 130.3 pt wide")
    func digits() {
        let line = TextLine("0123456789", fonts: fonts, size: 20.48)
        #expect(abs(line.width - 130.3) < 1e-9)
        #expect(abs(TextLine.width(of: "0123456789", fonts: fonts, size: 20.48) - 130.3) < 1e-9)
        #expect(line.glyphs.map(\.x).enumerated().allSatisfy { i, x in abs(x - Double(i) * 13.03) < 1e-9 })
    }

    @Test("Metrics come from DejaVu Sans' hhea table: ascender 1901, descender 483, no line gap")
    func metrics() {
        let line = TextLine("Hello", fonts: fonts, size: 2048)
        #expect(line.ascent == 1901)
        #expect(line.descent == 483)
        #expect(line.lineHeight == 2384)
    }

    @Test("A and V kern: the pair is narrower than its two advances (1401 units each)")
    func kerning() throws {
        let latin = fonts.fonts[0]
        let a = latin.glyphIndex(for: "A"), v = latin.glyphIndex(for: "V")
        let kern = latin.kerning(a, v)
        #expect(kern < 0)
        let line = TextLine("AV", fonts: fonts, size: 2048)
        #expect(line.width == 1401 + 1401 + kern)
        #expect(line.glyphs[1].x == 1401 + kern)
        // Across fonts there is no kerning: a Chinese character after A sits at A's advance.
        let mixed = TextLine("A中", fonts: fonts, size: 2048)
        #expect(mixed.glyphs[1].x == 1401)
    }

    @Test("Each character takes the first font that has it: Latin from DejaVu, Chinese from the CJK font")
    func fallback() throws {
        try #require(fonts.fonts.count == 2, "a Chinese font must be installed (fonts-wqy-microhei)")
        let line = TextLine("最后更新：今天 10:32", fonts: fonts, size: 12)
        let byScalar = Dictionary(line.glyphs.map { ($0.scalar, $0.font) }, uniquingKeysWith: { a, _ in a })
        #expect(byScalar["最"] == 1)
        #expect(byScalar["："] == 1)
        #expect(byScalar["1"] == 0)
        #expect(byScalar[" "] == 0)
        #expect(line.glyphs.allSatisfy { $0.glyph != 0 })
        // The line is as tall as its tallest font.
        let cjk = fonts.fonts[1]
        #expect(line.ascent == max(1901 / 2048.0, cjk.ascender / cjk.unitsPerEm) * 12)
    }

    @Test("A character that no font has takes the missing-glyph box of the first font")
    func missingCharacter() {
        // U+0FFFF is a noncharacter: no font maps it.
        let line = TextLine("A\u{FFFF}B", fonts: fonts, size: 12)
        #expect(line.glyphs[1].font == 0)
        #expect(line.glyphs[1].glyph == 0)
        #expect(!fonts.fonts[0].outline(glyph: 0).path.isEmpty)
    }

    @Test("Control characters are dropped: a line is one line")
    func controls() {
        #expect(TextLine("a\nb\tc", fonts: fonts, size: 12).string == "abc")
    }

    @Test("Truncation keeps the longest prefix that fits with the ellipsis, over random texts and widths")
    func truncationProperty() {
        var random = SeededRandom(seed: 0x7E57_11E5)
        let alphabet = Array("abcdefghij KLMNOP 0123 下拉刷新最后更新 .,:!".unicodeScalars)
        for _ in 0..<300 {
            let n = Int.random(in: 0..<40, using: &random)
            var s = String.UnicodeScalarView()
            for _ in 0..<n { s.append(alphabet[Int.random(in: 0..<alphabet.count, using: &random)]) }
            let text = String(s)
            let size = Double.random(in: 8...30, using: &random)
            let maxWidth = Double.random(in: 0...300, using: &random)
            let full = TextLine(text, fonts: fonts, size: size)
            let line = TextLine(text, fonts: fonts, size: size, maxWidth: maxWidth)
            if full.width <= maxWidth {
                #expect(!line.isTruncated)
                #expect(line.string == text)
                #expect(line.width == full.width)
                continue
            }
            #expect(line.isTruncated)
            #expect(line.width <= maxWidth + 1e-9, "\(text) at \(size) in \(maxWidth): \(line.width)")
            if line.glyphs.isEmpty { continue }
            #expect(line.string.hasSuffix("\u{2026}"))
            let kept = String(line.string.dropLast())
            #expect(text.hasPrefix(kept))
            #expect(kept.last.map { $0 != " " } ?? true)
            // One more character (with the ellipsis) would not have fitted.
            let next = text.unicodeScalars.count > kept.unicodeScalars.count
            if next {
                let longer = String(text.unicodeScalars.prefix(kept.unicodeScalars.count + 1)) + "\u{2026}"
                let longerLine = TextLine(longer, fonts: fonts, size: size)
                #expect(longerLine.width > maxWidth || longer.dropLast().last == " ")
            }
        }
    }

    @Test("Alignment places the line's box in a rect; the baseline centres ascent plus descent")
    func alignment() {
        let line = TextLine("Pull down to refresh", fonts: fonts, size: 14)
        let rect = Rect(x: 10, y: 20, width: 300, height: 44)
        let left = line.origin(in: rect, alignment: .left)
        let center = line.origin(in: rect, alignment: .center)
        let right = line.origin(in: rect, alignment: .right)
        #expect(left.x == 10)
        #expect(abs(center.x - (10 + (300 - line.width) / 2)) < 1e-9)
        #expect(abs(right.x + line.width - 310) < 1e-9)
        #expect(left.y == center.y && center.y == right.y)
        // Above the baseline: ascent, below: descent, equal margins.
        let top = center.y - line.ascent - rect.minY, bottom = rect.maxY - (center.y + line.descent)
        #expect(abs(top - bottom) < 1e-9)
    }

    @Test("Text in lines: each fits, breaks after the last space that fits (in Chinese anywhere), keeps every character, and the last is cut when lines run out (random texts and widths)",
          .enabled(if: standardFontsInstalled, "the standard fonts are installed"))
    func wrappedLines() {
        let renderer = TextRenderer(fonts: fonts)
        func text(_ line: TextLine) -> String { String(String.UnicodeScalarView(line.glyphs.map(\.scalar))) }
        let words = ["the", "tail", "catches", "up", "with", "its", "head", "when", "released", "stiffness", "弹簧",
                     "刚度越大回弹越快"]
        var rng = SeededRandom(seed: 31)
        for _ in 0..<200 {
            let string = (0..<rng.int(in: 1...14)).map { _ in words[rng.int(in: 0...words.count - 1)] }
                .joined(separator: " ")
            let width = rng.double(in: 30...300)
            let lines = renderer.layoutLines(string, size: 11, maxWidth: width, maxLines: 50)
            let texts = lines.map(text)
            // Each fits (a single character too wide for the width stands alone).
            #expect(lines.allSatisfy { $0.width <= width + 1e-9 || $0.glyphs.count == 1 }, "\(string) in \(width)")
            // Nothing lost or added: the lines are the text, broken at spaces or inside a word.
            #expect(texts.joined().filter { $0 != " " } == string.filter { $0 != " " } && !lines.contains { $0.isTruncated })
            #expect(texts.allSatisfy { !$0.hasPrefix(" ") && !$0.hasSuffix(" ") })
            // The break is as late as it can be: the next line's first word (or character) did not fit.
            for (line, next) in zip(texts, texts.dropFirst()) {
                let word = next.split(separator: " ").first.map(String.init) ?? next
                let joinedBySpace = string.contains(line + " " + word)
                let more = joinedBySpace ? line + " " + word : line + String(next.prefix(1))
                #expect(TextLine(more, fonts: fonts, size: 11).width > width, "\(line) | \(next) in \(width)")
            }
            // Too few lines: the last one is cut with the ellipsis.
            if lines.count > 2 {
                let cut = renderer.layoutLines(string, size: 11, maxWidth: width, maxLines: 2)
                #expect(cut.count == 2 && cut[1].width <= width + 1e-9 && cut[1].isTruncated)
                #expect(texts[0] == text(cut[0]))
            }
        }
    }
}

import Geometry

/// Where a line sits horizontally in the width it is given, as `NSTextAlignment`.
public enum TextAlignment: String, Sendable, CaseIterable {
    case left, center, right
}

/// One line of text laid out in points: glyphs placed by their advances and the font's kerning (no complex
/// shaping), each character from the first font of the set that has it, optionally cut to a width with an
/// ellipsis. Laying out measures; drawing is `TextRenderer`'s job, so a line is laid out once and drawn every
/// frame at no layout cost.
///
/// ```swift
/// let fonts = try FontSet.standard()
/// let line = TextLine("最后更新：今天 10:32", fonts: fonts, size: 12, maxWidth: 200)
/// let origin = line.origin(in: Rect(x: 0, y: 30, width: 375, height: 20), alignment: .center)
/// renderer.draw(line, at: origin, color: Color(white: 0.54), scale: 2, into: canvas)
/// ```
public struct TextLine: Sendable {
    /// A glyph of the line: which font, which glyph, the character it draws and its pen position.
    public struct Glyph: Hashable, Sendable {
        /// Index in the font set's `fonts`.
        public var font: Int
        public var glyph: UInt32
        public var scalar: Unicode.Scalar
        /// Pen position on the baseline, in points from the line's origin.
        public var x: Double
        /// Advance, in points (kerning with the next glyph is in the next glyph's `x`).
        public var advance: Double
    }

    /// The ellipsis that ends a truncated line.
    static let ellipsis: Unicode.Scalar = "\u{2026}"

    /// Font size, in points per em.
    public let size: Double
    public private(set) var glyphs: [Glyph]
    /// Advance width of the whole line, in points.
    public private(set) var width: Double
    /// Height above the baseline, in points: the largest ascender of the fonts the line uses.
    public let ascent: Double
    /// Depth below the baseline, in points, positive: the largest descender of the fonts the line uses.
    public let descent: Double
    /// Distance from this line's baseline to the next one's, in points.
    public let lineHeight: Double
    /// True when the text was cut to fit and ends with an ellipsis.
    private(set) var isTruncated = false

    /// Lays out `text` at `size` points per em. With `maxWidth`, text wider than it is cut at a character and
    /// ends with "…" so that the whole fits (only the ellipsis, or nothing, when even little fits). Line breaks
    /// and other control characters are dropped: a `TextLine` is one line.
    public init(_ text: String, fonts: FontSet, size: Double, maxWidth: Double? = nil) {
        let size = size.isFinite && size > 0 ? size : 0
        self.size = size
        glyphs = []
        glyphs.reserveCapacity(text.unicodeScalars.count)
        var x = 0.0
        var previous: (font: Int, glyph: UInt32)?
        var usedFonts = Set<Int>([0])
        for scalar in text.unicodeScalars where !TextLine.isControl(scalar) {
            let (fi, g) = fonts.resolve(scalar)
            let font = fonts.font(at: fi)
            let perUnit = size / font.unitsPerEm
            if let previous, previous.font == fi { x += font.kerning(previous.glyph, g) * perUnit }
            let advance = font.advance(glyph: g) * perUnit
            glyphs.append(Glyph(font: fi, glyph: g, scalar: scalar, x: x, advance: advance))
            x += advance
            previous = (fi, g)
            usedFonts.insert(fi)
        }
        width = x
        var asc = 0.0, desc = 0.0, spacing = 0.0
        for fi in usedFonts {
            let f = fonts.font(at: fi), perUnit = size / f.unitsPerEm
            asc = Swift.max(asc, f.ascender * perUnit)
            desc = Swift.max(desc, f.descender * perUnit)
            spacing = Swift.max(spacing, f.lineSpacing * perUnit)
        }
        ascent = asc
        descent = desc
        lineHeight = Swift.max(spacing, asc + desc)
        if let maxWidth, width > maxWidth { truncate(to: maxWidth, fonts: fonts) }
    }

    /// Width of `text` at `size`, in points, without building a line (no truncation).
    public static func width(of text: String, fonts: FontSet, size: Double) -> Double {
        var x = 0.0
        var previous: (font: Int, glyph: UInt32)?
        for scalar in text.unicodeScalars where !isControl(scalar) {
            let (fi, g) = fonts.resolve(scalar)
            let font = fonts.font(at: fi)
            if let previous, previous.font == fi { x += font.kerning(previous.glyph, g) * size / font.unitsPerEm }
            x += font.advance(glyph: g) * size / font.unitsPerEm
            previous = (fi, g)
        }
        return x
    }

    /// The text the line draws (after truncation).
    public var string: String {
        var s = String.UnicodeScalarView()
        for g in glyphs { s.append(g.scalar) }
        return String(s)
    }

    /// The baseline origin that places the line in `rect` (points): aligned horizontally, and centred
    /// vertically by its ascent and descent, as a `UILabel` centres its single line.
    public func origin(in rect: Rect, alignment: TextAlignment = .left) -> Point {
        let free = rect.width - width
        let x: Double
        switch alignment {
        case .left: x = rect.minX
        case .center: x = rect.minX + free / 2
        case .right: x = rect.minX + free
        }
        return Point(x, rect.minY + (rect.height - ascent - descent) / 2 + ascent)
    }

    static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (s.value >= 0x7F && s.value < 0xA0)
    }

    /// Keeps the longest prefix that fits in `maxWidth` together with the ellipsis (three full stops when no
    /// font has "…"), dropping spaces before it.
    private mutating func truncate(to maxWidth: Double, fonts: FontSet) {
        isTruncated = true
        let marks: [Unicode.Scalar] = fonts.resolve(TextLine.ellipsis).glyph != 0 ? [TextLine.ellipsis] : [".", ".", "."]
        let markWidth = marks.reduce(0.0) { w, s in
            let (fi, g) = fonts.resolve(s)
            let f = fonts.font(at: fi)
            return w + f.advance(glyph: g) * size / f.unitsPerEm
        }
        var keep = glyphs.count
        while keep > 0 && glyphs[keep - 1].x + glyphs[keep - 1].advance + markWidth > maxWidth { keep -= 1 }
        while keep > 0 && glyphs[keep - 1].scalar.properties.isWhitespace { keep -= 1 }
        glyphs.removeSubrange(keep...)
        var x = keep > 0 ? glyphs[keep - 1].x + glyphs[keep - 1].advance : 0
        if markWidth > maxWidth {
            width = x
            return
        }
        var previous = keep > 0 ? (font: glyphs[keep - 1].font, glyph: glyphs[keep - 1].glyph) : nil
        for s in marks {
            let (fi, g) = fonts.resolve(s)
            let f = fonts.font(at: fi), perUnit = size / f.unitsPerEm
            if let previous, previous.font == fi { x += f.kerning(previous.glyph, g) * perUnit }
            let advance = f.advance(glyph: g) * perUnit
            glyphs.append(Glyph(font: fi, glyph: g, scalar: s, x: x, advance: advance))
            x += advance
            previous = (fi, g)
        }
        width = x
    }
}

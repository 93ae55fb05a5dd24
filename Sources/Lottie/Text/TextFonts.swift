import Geometry
import Text

/// The fonts a file's text layers name (`fonts.list`) and the glyph outlines it embeds (`chars`), and the installed
/// fonts that draw what it does not embed, found through fontconfig by our Text module. Used while the file is
/// read: layouts keep the outlines they need, so that drawing never touches a font.
struct TextFonts {
    struct Entry {
        var family: String
        var style: String
        /// Height above the baseline in % of the size, when the file gives it.
        var ascent: Double?
    }

    /// The file's fonts by their name (`fName`), in the file's order: a name not in the list takes the first.
    private var entries: [(name: String, entry: Entry)] = []
    /// The file's own glyphs, by family, style and character, at size 100.
    private var glyphs: [String: (width: Double, outline: Path?)] = [:]
    /// Installed fonts by family and style, loaded when a document first needs one.
    private var installed: [String: (fonts: FontSet, substitution: String?)] = [:]
    /// What was drawn otherwise than the file asks, each with the layers concerned, in the order first met.
    private(set) var notes: [(message: String, layers: [String])] = []
    /// Letters that neither the file's glyphs nor any font text is drawn with has, each with its layers, in the
    /// order first met: they are drawn as the font's empty box.
    private(set) var lettersWithoutGlyph: [(letter: String, layers: [String])] = []
    /// The most such letters the warning names; past them it counts.
    static let maxLettersNamed = 8

    var isEmpty: Bool { entries.isEmpty }

    mutating func add(name: String, _ entry: Entry) { entries.append((name, entry)) }

    /// Adds a glyph of the file's; the first of a character, family and style is the one drawn, as lottie-web
    /// looks glyphs up.
    mutating func addGlyph(_ character: String, family: String, style: String, width: Double, outline: Path?) {
        let key = TextFonts.key(family, style, character)
        if glyphs[key] == nil { glyphs[key] = (width, outline) }
    }

    private static func key(_ family: String, _ style: String, _ character: String = "") -> String {
        family + "\u{0}" + style + "\u{0}" + character
    }

    private mutating func note(_ message: String, layer: String) {
        if let i = notes.firstIndex(where: { $0.message == message }) {
            if !notes[i].layers.contains(layer) { notes[i].layers.append(layer) }
        } else {
            notes.append((message, [layer]))
        }
    }

    /// A character that no font of `fonts` has and that is meant to be seen: drawn as the empty box (glyph 0).
    private static func drawsBox(_ fonts: FontSet, _ scalar: Unicode.Scalar) -> Bool {
        fonts.resolve(scalar).glyph == 0 && !scalar.properties.isDefaultIgnorableCodePoint
    }

    /// A character that no font of `fonts` has and that is never seen (a variation selector, a zero-width
    /// joiner, as in emoji sequences): it takes no room and draws nothing, as Unicode asks of such characters.
    private static func isInvisible(_ fonts: FontSet, _ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isDefaultIgnorableCodePoint && fonts.resolve(scalar).glyph == 0
    }

    private mutating func noteWithoutGlyph(_ letter: String, layer: String) {
        if let i = lettersWithoutGlyph.firstIndex(where: { $0.letter == letter }) {
            if !lettersWithoutGlyph[i].layers.contains(layer) { lettersWithoutGlyph[i].layers.append(layer) }
        } else {
            lettersWithoutGlyph.append((letter, [layer]))
        }
    }

    /// One line naming the letters no font has (`U+1F600 '😀' in 'Title'`), the first `maxLettersNamed` of them,
    /// or nil when every letter has a glyph.
    func lettersWithoutGlyphWarning() -> String? {
        guard !lettersWithoutGlyph.isEmpty else { return nil }
        let named = lettersWithoutGlyph.prefix(TextFonts.maxLettersNamed).map { entry in
            let layers = entry.layers.map { "'\($0)'" }
            return TextFonts.describe(entry.letter) + " in " + (layers.count == 1 ? layers[0]
                : layers.dropLast().joined(separator: ", ") + " and " + layers[layers.count - 1])
        }
        let more = lettersWithoutGlyph.count - named.count
        return "letters that no font here has, drawn as empty boxes: " + named.joined(separator: ", ")
            + (more > 0 ? " and \(more) more" : "") + " (install a font that has them and name its family in the file)"
    }

    /// A letter as a message shows it: its code points, and itself in quotes when a terminal can show it (no
    /// control, private or unassigned character, and of the format characters only the joiner and the variation
    /// selectors of emoji sequences, never one that reorders the line).
    static func describe(_ letter: String) -> String {
        let points = letter.unicodeScalars.map { scalar in
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: Swift.max(0, 4 - hex.count)) + hex
        }.joined(separator: " ")
        let shown = letter.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .control, .privateUse, .surrogate, .unassigned, .lineSeparator, .paragraphSeparator: false
            case .format: scalar.value == 0x200D || scalar.properties.isVariationSelector
            default: true
            }
        }
        return shown ? points + " '\(letter)'" : points
    }

    /// The font entry for a document's font name: the listed one, else the file's first, else one made of the name.
    func entry(named name: String) -> Entry {
        entries.first { $0.name == name }?.entry ?? entries.first?.entry ?? Entry(family: name, style: "", ascent: nil)
    }

    /// The installed fonts for `entry`, loaded once; nil when no font at all is installed.
    private mutating func fontSet(_ entry: Entry, layer: String) -> FontSet? {
        let k = TextFonts.key(entry.family, entry.style)
        if installed[k] == nil {
            let regular = ["", "regular", "normal", "book", "roman"].contains(entry.style.lowercased())
            guard let found = try? FontSet.family(entry.family, style: regular ? nil : entry.style) else {
                note("no font is installed for text: install one with 'apt-get install fonts-dejavu-core'; text is "
                     + "not drawn until then", layer: layer)
                return nil
            }
            installed[k] = found
        }
        if let message = installed[k]?.substitution { note(message, layer: layer) }
        return installed[k]?.fonts
    }

    /// Where the glyphs of `text` in font `name` come from, for layer `layer`: the file's own for the characters
    /// it embeds, an installed font (of the family, else the standard one, said in `notes`) for the others.
    mutating func source(forFont name: String, text: String, layer: String) -> GlyphSource {
        let entry = entry(named: name)
        let prefix = TextFonts.key(entry.family, entry.style)
        var missing: [String] = []
        for c in text where !TextLayout.isLineBreak(String(c)) {
            if glyphs[prefix + String(c)] == nil && !missing.contains(String(c)) { missing.append(String(c)) }
        }
        if !glyphs.isEmpty, !missing.isEmpty {
            let shown = missing.prefix(8).map { "'\($0)'" }.joined(separator: ", ") + (missing.count > 8 ? "…" : "")
            note("the file's glyphs of '\(entry.family)' lack \(shown): drawn from the installed font", layer: layer)
        }
        let fonts = missing.isEmpty ? nil : fontSet(entry, layer: layer)
        if let fonts {
            for c in missing where c.unicodeScalars.contains(where: { TextFonts.drawsBox(fonts, $0) }) {
                noteWithoutGlyph(c, layer: layer)
            }
        }
        let own = glyphs
        func advance(_ c: String) -> Double {
            if let g = own[prefix + c] { return g.width }
            guard let fonts else { return 0 }
            var total = 0.0
            for scalar in c.unicodeScalars where !TextFonts.isInvisible(fonts, scalar) {
                let (i, glyph) = fonts.resolve(scalar)
                let font = fonts.font(at: i)
                total += font.advance(glyph: glyph) * 100 / font.unitsPerEm
            }
            return total
        }
        func outline(_ c: String) -> Path? {
            if let g = own[prefix + c] { return g.outline }
            guard let fonts else { return nil }
            var path = Path(), x = 0.0
            for scalar in c.unicodeScalars where !TextFonts.isInvisible(fonts, scalar) {
                let (i, glyph) = fonts.resolve(scalar)
                let font = fonts.font(at: i), s = 100 / font.unitsPerEm
                path.append(contentsOf: font.outline(glyph: glyph).path
                    .applying(AffineTransform(scaleX: s, y: s).concatenating(AffineTransform(translationX: x, y: 0))))
                x += font.advance(glyph: glyph) * s
            }
            return path
        }
        let ascent = entry.ascent ?? fonts.map { $0.fonts[0].ascender * 100 / $0.fonts[0].unitsPerEm } ?? 75
        return GlyphSource(advance: advance, outline: outline, ascent: ascent)
    }
}

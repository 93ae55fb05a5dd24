import CFontconfig
#if canImport(Glibc)
import Glibc
#endif

/// How heavy a text's strokes are: the regular or the bold face of the standard fonts.
public enum FontWeight: Hashable, Sendable {
    case regular
    case bold
}

/// A font the program asks for by family (and style, for a face other than the family's regular one), with the
/// Debian package that provides it and where that package installs it.
///
/// Fonts are found at run time in this order: fontconfig (the family and the style must match, not just a
/// look-alike); then
/// each directory listed in the environment variable `REFRESHLAB_FONT_PATH` (colon-separated), for the file
/// name of `debianPath`; then `debianPath` itself.
public struct FontRequest: Hashable, Sendable {
    let family: String
    /// The face's style as fontconfig names it ("Bold"), or nil for the family's regular face.
    public let style: String?
    public let package: String
    let debianPath: String
    /// Face in the file when found by path (a `.ttc` holds several); fontconfig reports its own.
    let faceIndex: Int

    public init(family: String, style: String? = nil, package: String, debianPath: String, faceIndex: Int = 0) {
        self.family = family
        self.style = style
        self.package = package
        self.debianPath = debianPath
        self.faceIndex = faceIndex
    }

    /// The default font, for Latin text.
    public static let dejaVuSans = FontRequest(family: "DejaVu Sans", package: "fonts-dejavu-core",
                                               debianPath: Font.dejaVuSansPath)
    /// The bold face of the default font, for bold Latin text (as `UIFont.boldSystemFont(ofSize:)`).
    static let dejaVuSansBold = FontRequest(family: "DejaVu Sans", style: "Bold", package: "fonts-dejavu-core",
                                                   debianPath: Font.dejaVuSansBoldPath)
    /// The first choice for Chinese text.
    public static let wenQuanYiMicroHei = FontRequest(family: "WenQuanYi Micro Hei", package: "fonts-wqy-microhei",
                                                      debianPath: "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")
    /// The second choice for Chinese text; face 2 of the collection is the Simplified Chinese one.
    public static let notoSansCJK = FontRequest(family: "Noto Sans CJK SC", package: "fonts-noto-cjk",
                                                debianPath: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
                                                faceIndex: 2)

    /// The environment variable holding extra font directories.
    static let searchPathVariable = "REFRESHLAB_FONT_PATH"

    /// The file and face that provide this family, or nil when none is installed.
    public func locate() -> (path: String, faceIndex: Int)? {
        if let found = FontRequest.fontconfigMatch(family: family, style: style) { return found }
        let fileName = debianPath.split(separator: "/").last.map(String.init) ?? debianPath
        if let dirs = getenv(FontRequest.searchPathVariable) {
            for dir in String(cString: dirs).split(separator: ":") where !dir.isEmpty {
                let candidate = String(dir) + (dir.hasSuffix("/") ? "" : "/") + fileName
                if access(candidate, R_OK) == 0 { return (candidate, faceIndex) }
            }
        }
        if access(debianPath, R_OK) == 0 { return (debianPath, faceIndex) }
        return nil
    }

    /// Loads the font, or says which package to install.
    public func load(emboldened: Bool = false) throws -> Font {
        guard let (path, index) = locate() else {
            throw FontError(description: "font '\(displayName)' is not installed: install it with "
                + "'apt-get install \(package)' (or list its folder in \(FontRequest.searchPathVariable))")
        }
        return try Font(path: path, faceIndex: index, package: package, emboldened: emboldened)
    }

    /// The family, with the style when there is one: "DejaVu Sans Bold".
    var displayName: String { style.map { family + " " + $0 } ?? family }

    /// Asks fontconfig for `family` in `style` (any when nil); nil unless the best match really is that family and
    /// that style.
    static func fontconfigMatch(family: String, style: String? = nil) -> (path: String, faceIndex: Int)? {
        guard FcInit() != 0, let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        let name = Array(family.utf8) + [0]
        _ = FcPatternAddString(pattern, FC_FAMILY, name)
        if let style { _ = FcPatternAddString(pattern, FC_STYLE, Array(style.utf8) + [0]) }
        _ = FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(nil, pattern, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        var matches = false
        var i: Int32 = 0
        var value: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(match, FC_FAMILY, i, &value) == FcResultMatch, let value {
            if String(cString: value).lowercased() == family.lowercased() { matches = true }
            i += 1
        }
        if let style {
            var styleMatches = false
            i = 0
            while FcPatternGetString(match, FC_STYLE, i, &value) == FcResultMatch, let value {
                if String(cString: value).lowercased() == style.lowercased() { styleMatches = true }
                i += 1
            }
            guard styleMatches else { return nil }
        }
        guard matches, FcPatternGetString(match, FC_FILE, 0, &value) == FcResultMatch, let value else { return nil }
        var index: Int32 = 0
        if FcPatternGetInteger(match, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
        return (String(cString: value), Int(index))
    }
}

/// The fonts a line of text may draw from, in order: each character takes the first font that has it; a
/// character that none has draws the first font's missing-glyph box.
public final class FontSet {
    public let fonts: [Font]
    /// What went wrong while gathering the fonts (a font not installed and what replaced it), one line each.
    public let warnings: [String]
    /// Font and glyph chosen per character, packed as font << 32 | glyph.
    private var resolved: [UInt32: UInt64] = [:]

    public init(_ primary: Font, fallbacks: [Font] = [], warnings: [String] = []) {
        fonts = [primary] + fallbacks
        self.warnings = warnings
    }

    /// The first installed of `latin` for Latin text, then the first installed of `cjk` for Chinese.
    ///
    /// Text is drawn with whatever is there: without a Latin font the Chinese one draws everything (its Latin
    /// letters included); without a Chinese font Chinese characters draw as missing-glyph boxes. Either way
    /// `warnings` names the package to install. Throws only when no font at all can be loaded, naming both
    /// packages.
    public static func standard(latin: [FontRequest] = [.dejaVuSans],
                                cjk: [FontRequest] = [.wenQuanYiMicroHei, .notoSansCJK],
                                emboldensCJK: Bool = false) throws -> FontSet {
        let latinFound = latin.lazy.compactMap { request in (try? request.load()).map { (request, $0) } }.first
        let latinFont = latinFound?.1
        let cjkFont = cjk.lazy.compactMap { try? $0.load(emboldened: emboldensCJK) }.first
        var warnings: [String] = []
        if let wanted = latin.first, latinFound?.0 != wanted {
            let instead = latinFont.map { "'\($0.familyName)'" } ?? cjkFont.map { "'\($0.familyName)'" }
            warnings.append("font '\(wanted.displayName)' is not installed: install it with 'apt-get install "
                + "\(wanted.package)'; " + (instead.map { "Latin text is drawn with \($0) until then" }
                    ?? "text is not drawn until then"))
        }
        if cjkFont == nil, let first = cjk.first {
            warnings.append("font '\(first.family)' for Chinese text is not installed: install it with "
                + "'apt-get install \(first.package)'; Chinese characters draw as boxes until then")
        }
        guard let primary = latinFont ?? cjkFont else {
            let packages = (latin.prefix(1) + cjk.prefix(1)).map(\.package).joined(separator: " ")
            throw FontError(description: "no font is installed for text: install them with 'apt-get install "
                + "\(packages)' (or list their folder in \(FontRequest.searchPathVariable))")
        }
        let fallbacks = latinFont != nil ? [cjkFont].compactMap { $0 } : []
        return FontSet(primary, fallbacks: fallbacks, warnings: warnings)
    }

    /// The standard set in `weight`: DejaVu Sans, or DejaVu Sans Bold, for Latin text, then the same Chinese fonts
    /// as `standard()`; their packages have no bold face, so bold Chinese text is synthesized (`Font.emboldening`)
    /// and matches the bold Latin digits beside it.
    public static func standard(weight: FontWeight) throws -> FontSet {
        weight == .bold ? try standard(latin: [.dejaVuSansBold, .dejaVuSans], emboldensCJK: true)
            : try standard(latin: [.dejaVuSans])
    }

    /// The font at `index`, or the primary font for an index out of range.
    public func font(at index: Int) -> Font {
        index >= 0 && index < fonts.count ? fonts[index] : fonts[0]
    }

    /// The font (its index in `fonts`) and glyph that draw `scalar`.
    public func resolve(_ scalar: Unicode.Scalar) -> (font: Int, glyph: UInt32) {
        if let packed = resolved[scalar.value] {
            return (Int(packed >> 32), UInt32(truncatingIfNeeded: packed))
        }
        var choice = (font: 0, glyph: UInt32(0))
        for (i, f) in fonts.enumerated() {
            let g = f.glyphIndex(for: scalar)
            if g != 0 {
                choice = (i, g)
                break
            }
        }
        resolved[scalar.value] = UInt64(choice.font) << 32 | UInt64(choice.glyph)
        return choice
    }
}

extension FontSet {
    /// The installed face of `family` in `style` (the family's regular face when that style is not installed),
    /// then the standard fonts for the characters it lacks; the standard set alone when the family is not
    /// installed. `substitution` says what was drawn instead of what was asked for, or is nil when nothing was.
    ///
    /// For fonts a document names (a Lottie file's), which may be any family: the exact family is required of
    /// fontconfig, never a look-alike, so that a substitution is always said.
    public static func family(_ family: String, style: String?) throws -> (fonts: FontSet, substitution: String?) {
        let standard = try FontSet.standard()
        let asked = style.map { family + " " + $0 } ?? family
        var substitution: String?
        var found = FontRequest.fontconfigMatch(family: family, style: style)
        if found == nil, style != nil, let regular = FontRequest.fontconfigMatch(family: family) {
            found = regular
            substitution = "font '\(asked)' is not installed: drawn with the family's regular face"
        }
        guard let found, let font = try? Font(path: found.path, faceIndex: found.faceIndex, package: family) else {
            return (standard, "font '\(asked)' is not installed: drawn with '\(standard.fonts[0].familyName)'")
        }
        return (FontSet(font, fallbacks: standard.fonts, warnings: standard.warnings), substitution)
    }
}

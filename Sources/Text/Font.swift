import CFreeType
import Geometry
import Raster

/// A font could not be found or loaded; the message names the font, the file and the Debian package to install.
struct FontError: Error, CustomStringConvertible, Equatable {
    let description: String

    init(description: String) { self.description = description }
}

/// A glyph's outline in font units (y growing downwards, origin on the baseline), kept so that every size and
/// sub-pixel position is a transform of one decomposition instead of a new call into FreeType.
public struct GlyphOutline: Sendable {
    public let path: Path
    /// Bounds of the control points in font units; the outline lies inside.
    public let bounds: Rect
    /// TrueType outlines fill non-zero; a font may ask for even-odd.
    let isEvenOdd: Bool
    /// The path packed for `GlyphMaskRasterizer`, once per glyph rather than once per rendering.
    public let packed: PackedPath

    public init(path: Path, bounds: Rect, isEvenOdd: Bool) {
        self.path = path
        self.bounds = bounds
        self.isEvenOdd = isEvenOdd
        packed = PackedPath(path)
    }
}

/// A font face loaded with FreeType, whose glyph outlines become our `Path`s so that text is filled by the same
/// rasterizer as every other shape.
///
/// Outlines are read unscaled (`FT_LOAD_NO_SCALE`), so they do not depend on the face's current size; each
/// glyph's outline and advance are decomposed once and cached. A `Font` is not thread-safe (neither is an
/// `FT_Face`): use one per thread.
public final class Font {
    /// Where Debian's fonts-dejavu-core installs DejaVu Sans, the default font.
    static let dejaVuSansPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    /// Where the same package installs its bold face.
    static let dejaVuSansBoldPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    public let path: String
    /// The face inside the file (a `.ttc` collection holds several).
    let faceIndex: Int
    /// Design units per em: outline coordinates are in these units.
    public let unitsPerEm: Double
    /// Height above the baseline that lines reserve, in font units (hhea ascender).
    public let ascender: Double
    /// Depth below the baseline that lines reserve, in font units, positive (minus the hhea descender).
    let descender: Double
    /// Distance between baselines of consecutive lines, in font units (hhea ascender − descender + line gap).
    let lineSpacing: Double
    /// True when the font has a TrueType `kern` table that `FT_Get_Kerning` reads.
    let hasKerning: Bool
    /// How much a synthesized bold widens each stroke's outline, in font units: 0 for the face as drawn. A bold
    /// asked of a family without a bold face (the Chinese fonts) is made so, as browsers synthesize it.
    let emboldening: Double

    /// FreeType's synthetic bold strength, `FT_GlyphSlot_Embolden`'s: a 24th of the em, the outline widened by
    /// that on each axis and the advance by as much (docs/reference.md §7).
    static let emboldeningPerEm = 1.0 / 24

    private var library: FT_Library?
    private var face: FT_Face?
    private var outlines: [UInt32: GlyphOutline] = [:]
    private var advances: [UInt32: Double] = [:]

    /// Loads face `faceIndex` of the file at `path`; `package` names what provides it, for the error message. With
    /// `emboldened`, its glyphs are given a synthetic bold (`emboldeningPerEm`).
    public init(path: String, faceIndex: Int = 0, package: String = "fonts-dejavu-core", emboldened: Bool = false) throws {
        self.path = path
        self.faceIndex = faceIndex
        var lib: FT_Library?
        guard FT_Init_FreeType(&lib) == 0, let lib else {
            throw FontError(description: "cannot start FreeType to load '\(path)'")
        }
        var f: FT_Face?
        guard FT_New_Face(lib, path, FT_Long(faceIndex), &f) == 0, let f else {
            FT_Done_FreeType(lib)
            throw FontError(description: "cannot load font '\(path)': install it with 'apt-get install \(package)'")
        }
        guard f.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 else {
            FT_Done_Face(f)
            FT_Done_FreeType(lib)
            throw FontError(description: "font '\(path)' has no outlines (a bitmap-only font): use a TrueType or "
                + "OpenType font, for example from 'apt-get install \(package)'")
        }
        library = lib
        face = f
        let units = f.pointee.units_per_EM == 0 ? 1000 : Double(f.pointee.units_per_EM)
        unitsPerEm = units
        ascender = Double(f.pointee.ascender)
        descender = -Double(f.pointee.descender)
        let height = Double(f.pointee.height)
        lineSpacing = height > 0 ? height : ascender + descender
        hasKerning = f.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING) != 0
        emboldening = emboldened ? units * Font.emboldeningPerEm : 0
    }

    deinit {
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    /// The font's family name, as its file states it.
    var familyName: String {
        guard let name = face?.pointee.family_name else { return "" }
        return String(cString: name)
    }

    /// The face's style name, as its file states it ("Book", "Bold").
    var styleName: String {
        guard let name = face?.pointee.style_name else { return "" }
        return String(cString: name)
    }

    /// True when the font has a glyph for `scalar`.
    func hasGlyph(for scalar: Unicode.Scalar) -> Bool {
        glyphIndex(for: scalar) != 0
    }

    /// The glyph that the font's character map gives `scalar`; 0, the missing-glyph box, when it has none.
    public func glyphIndex(for scalar: Unicode.Scalar) -> UInt32 {
        UInt32(FT_Get_Char_Index(face, FT_ULong(scalar.value)))
    }

    /// The horizontal advance of `scalar`'s glyph at `size` (pixels or points per em).
    public func advance(for scalar: Unicode.Scalar, size: Double) -> Double {
        advance(glyph: glyphIndex(for: scalar)) * size / unitsPerEm
    }

    /// The horizontal advance of glyph `glyph` in font units (unhinted, so it scales linearly with the size).
    public func advance(glyph: UInt32) -> Double {
        if let a = advances[glyph] { return a }
        var a = 0.0
        if let face, FT_Load_Glyph(face, glyph, FT_Int32(FT_LOAD_NO_SCALE)) == 0 {
            a = Double(face.pointee.glyph.pointee.advance.x) + emboldening
        }
        advances[glyph] = a
        return a
    }

    /// The kerning adjustment between glyphs `left` and `right`, in font units (usually negative: closer).
    func kerning(_ left: UInt32, _ right: UInt32) -> Double {
        guard hasKerning, let face else { return 0 }
        var v = FT_Vector()
        guard FT_Get_Kerning(face, left, right, FT_UInt(FT_KERNING_UNSCALED.rawValue), &v) == 0 else { return 0 }
        return Double(v.x)
    }

    /// The outline of `scalar`'s glyph at `size` per em, with its origin on the baseline at (0, 0) and y growing
    /// downwards, as on screen. A character the font lacks gives the font's missing-glyph outline.
    func glyphPath(for scalar: Unicode.Scalar, size: Double) -> Path {
        let s = size / unitsPerEm
        return outline(glyph: glyphIndex(for: scalar)).path.applying(AffineTransform(scaleX: s, y: s))
    }

    /// Glyph `glyph`'s outline in font units, decomposed once and cached. A glyph that cannot be loaded (an index
    /// past the font's end, a broken entry) has an empty outline and draws nothing.
    public func outline(glyph: UInt32) -> GlyphOutline {
        if let o = outlines[glyph] { return o }
        let o = decompose(glyph)
        outlines[glyph] = o
        return o
    }

    private func decompose(_ glyph: UInt32) -> GlyphOutline {
        guard let face, FT_Load_Glyph(face, glyph, FT_Int32(FT_LOAD_NO_SCALE)) == 0 else {
            return GlyphOutline(path: Path(), bounds: .zero, isEvenOdd: false)
        }
        if emboldening > 0, face.pointee.glyph.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
            // As FT_GlyphSlot_Embolden: every stroke widened, the glyph growing by the strength rightwards and
            // upwards, its left and bottom edges where they were.
            let strength = FT_Pos(emboldening.rounded())
            FT_Outline_EmboldenXY(&face.pointee.glyph.pointee.outline, strength, strength)
        }
        return Font.decomposeSlot(face, scale: 1)
    }

    /// The outline in `face`'s glyph slot as a path, its coordinates multiplied by `scale`. Test support's FreeType
    /// reference renderings decompose the outlines FreeType scaled with it too (SPI: not part of the module's API).
    @_spi(FreeTypeReference) public static func decomposeSlot(_ face: FT_Face, scale: Double) -> GlyphOutline {
        guard face.pointee.glyph.pointee.format == FT_GLYPH_FORMAT_OUTLINE else {
            return GlyphOutline(path: Path(), bounds: .zero, isEvenOdd: false)
        }
        var outline = face.pointee.glyph.pointee.outline
        let builder = OutlineBuilder(scale: scale)
        var funcs = FT_Outline_Funcs(
            move_to: { to, user in OutlineBuilder.from(user).move(to!.pointee) },
            line_to: { to, user in OutlineBuilder.from(user).line(to!.pointee) },
            conic_to: { c, to, user in OutlineBuilder.from(user).conic(c!.pointee, to!.pointee) },
            cubic_to: { c1, c2, to, user in OutlineBuilder.from(user).cubic(c1!.pointee, c2!.pointee, to!.pointee) },
            shift: 0, delta: 0)
        withExtendedLifetime(builder) {
            _ = FT_Outline_Decompose(&outline, &funcs, Unmanaged.passUnretained(builder).toOpaque())
        }
        builder.path.close()
        let evenOdd = outline.flags & Int32(FT_OUTLINE_EVEN_ODD_FILL) != 0
        return GlyphOutline(path: builder.path, bounds: builder.path.controlPointBounds, isEvenOdd: evenOdd)
    }

    /// The face and the library, for test support's FreeType reference renderings (SPI: not part of the module's API;
    /// production text never renders through FreeType).
    @_spi(FreeTypeReference) public var faceHandle: FT_Face? { face }
    @_spi(FreeTypeReference) public var libraryHandle: FT_Library? { library }
}

/// Collects FreeType's outline callbacks into a `Path`, flipping y so that it grows downwards.
private final class OutlineBuilder {
    let scale: Double
    var path = Path()

    init(scale: Double) { self.scale = scale }

    static func from(_ user: UnsafeMutableRawPointer?) -> OutlineBuilder {
        Unmanaged<OutlineBuilder>.fromOpaque(user!).takeUnretainedValue()
    }

    private func point(_ v: FT_Vector) -> Point { Point(Double(v.x) * scale, -Double(v.y) * scale) }

    func move(_ v: FT_Vector) -> Int32 {
        path.close()
        path.move(to: point(v))
        return 0
    }

    func line(_ v: FT_Vector) -> Int32 {
        path.line(to: point(v))
        return 0
    }

    func conic(_ c: FT_Vector, _ v: FT_Vector) -> Int32 {
        path.quad(to: point(v), control: point(c))
        return 0
    }

    func cubic(_ c1: FT_Vector, _ c2: FT_Vector, _ v: FT_Vector) -> Int32 {
        path.cubic(to: point(v), control1: point(c1), control2: point(c2))
        return 0
    }
}

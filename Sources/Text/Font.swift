import CFreeType
import Geometry

/// A font could not be found or loaded; the message names the font, the file and the Debian package to install.
public struct FontError: Error, CustomStringConvertible, Equatable {
    public let description: String
}

/// A font face loaded with FreeType, whose glyph outlines become our `Path`s so that text is filled by the same
/// rasterizer as every other shape.
public final class Font {
    /// Where Debian's fonts-dejavu-core installs DejaVu Sans, the default font.
    public static let dejaVuSansPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    public let path: String
    /// Design units per em: outline coordinates are in these units.
    public let unitsPerEm: Double

    private var library: FT_Library?
    private var face: FT_Face?

    /// Loads the face at `path`; `package` names what provides it, for the error message.
    public init(path: String, package: String = "fonts-dejavu-core") throws {
        self.path = path
        var lib: FT_Library?
        guard FT_Init_FreeType(&lib) == 0, let lib else {
            throw FontError(description: "cannot start FreeType to load '\(path)'")
        }
        var f: FT_Face?
        guard FT_New_Face(lib, path, 0, &f) == 0, let f else {
            FT_Done_FreeType(lib)
            throw FontError(description: "cannot load font '\(path)': install it with 'apt-get install \(package)'")
        }
        library = lib
        face = f
        unitsPerEm = Double(f.pointee.units_per_EM == 0 ? 1000 : f.pointee.units_per_EM)
    }

    deinit {
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    /// The font's family name, as its file states it.
    public var familyName: String {
        guard let name = face?.pointee.family_name else { return "" }
        return String(cString: name)
    }

    /// True when the font has a glyph for `scalar`.
    public func hasGlyph(for scalar: Unicode.Scalar) -> Bool {
        FT_Get_Char_Index(face, FT_ULong(scalar.value)) != 0
    }

    /// The horizontal advance of `scalar`'s glyph at `size` (pixels or points per em).
    public func advance(for scalar: Unicode.Scalar, size: Double) -> Double {
        guard let face, FT_Load_Glyph(face, FT_Get_Char_Index(face, FT_ULong(scalar.value)),
                                      FT_Int32(FT_LOAD_NO_SCALE)) == 0 else { return 0 }
        return Double(face.pointee.glyph.pointee.advance.x) * size / unitsPerEm
    }

    /// The outline of `scalar`'s glyph at `size` per em, with its origin on the baseline at (0, 0) and y growing
    /// downwards, as on screen. A character the font lacks gives the font's missing-glyph outline.
    public func glyphPath(for scalar: Unicode.Scalar, size: Double) -> Path {
        guard let face, FT_Load_Glyph(face, FT_Get_Char_Index(face, FT_ULong(scalar.value)),
                                      FT_Int32(FT_LOAD_NO_SCALE)) == 0 else { return Path() }
        var outline = face.pointee.glyph.pointee.outline
        let builder = OutlineBuilder(scale: size / unitsPerEm)
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
        return builder.path
    }
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

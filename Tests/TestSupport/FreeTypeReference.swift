import CFreeType
@_spi(FreeTypeReference) import Text

// FreeType's own rasterizer, the reference that our glyph coverage is checked (TextTests) and timed (TextBenchmarks)
// against. Test support only: text on screen never goes through it, so the shipped Text module does not carry it.

/// A coverage bitmap rendered by FreeType itself, used only as the reference that our own glyph coverage is
/// checked and timed against; text on screen never goes through it.
public struct ReferenceMask: Sendable {
    /// Column of the first pixel, relative to the pen's whole-pixel position.
    public let left: Int
    /// Row of the first pixel, relative to the baseline, y growing downwards (negative above the baseline).
    public let top: Int
    public let width: Int
    public let height: Int
    /// Coverage 0…255, row after row.
    public let coverage: [UInt8]

    /// The coverage at pixel (x, y) relative to the pen (same frame as `left`, `top`); 0 outside the bitmap.
    public func value(x: Int, y: Int) -> UInt8 {
        let i = x - left, j = y - top
        guard i >= 0, j >= 0, i < width, j < height else { return 0 }
        return coverage[j * width + i]
    }
}

extension Font {
    /// FreeType's rendering of `glyph` at `pixelSize` per em, unhinted, with the pen at (`offsetX`, `offsetY`)
    /// pixels right and down of a whole pixel: the outline is loaded with `FT_LOAD_NO_HINTING`, translated,
    /// and filled by `FT_Render_Glyph` in `FT_RENDER_MODE_NORMAL` (the smooth rasterizer). Nil when FreeType fails.
    public func referenceMask(glyph: UInt32, pixelSize: Double, offsetX: Double = 0, offsetY: Double = 0)
        -> ReferenceMask? {
        guard loadReferenceOutline(glyph: glyph, pixelSize: pixelSize), let face = faceHandle else { return nil }
        let slot = face.pointee.glyph!
        FT_Outline_Translate(&slot.pointee.outline, FT_Pos((offsetX * 64).rounded()), FT_Pos((-offsetY * 64).rounded()))
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
        let bitmap = slot.pointee.bitmap
        let w = Int(bitmap.width), h = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        var bytes = [UInt8](repeating: 0, count: w * h)
        if let buffer = bitmap.buffer {
            for j in 0..<h {
                let row = pitch >= 0 ? buffer + j * pitch : buffer + (h - 1 - j) * (-pitch)
                for i in 0..<w { bytes[j * w + i] = row[i] }
            }
        }
        return ReferenceMask(left: Int(slot.pointee.bitmap_left), top: -Int(slot.pointee.bitmap_top),
                             width: w, height: h, coverage: bytes)
    }

    /// The outline that FreeType itself fills at `pixelSize` (unhinted, points rounded to 1/64 px), in pixels:
    /// what our rasterizer must fill to be compared with `referenceMask` on the same geometry.
    public func referenceOutline(glyph: UInt32, pixelSize: Double) -> GlyphOutline? {
        guard loadReferenceOutline(glyph: glyph, pixelSize: pixelSize), let face = faceHandle else { return nil }
        return Font.decomposeSlot(face, scale: 1.0 / 64)
    }

    /// Loads `glyph`'s outline into the face's slot, scaled by FreeType to `pixelSize` and unhinted; the first
    /// half of a reference rendering.
    public func loadReferenceOutline(glyph: UInt32, pixelSize: Double) -> Bool {
        setReferenceSize(pixelSize) && loadReferenceOutline(glyph: glyph)
    }

    /// Sets the face's size to `pixelSize` per em, for FreeType's own scaling; false when FreeType refuses.
    /// Benchmarks set it once per size and then time `loadReferenceOutline(glyph:)` alone.
    public func setReferenceSize(_ pixelSize: Double) -> Bool {
        guard let face = faceHandle else { return false }
        let size = FT_F26Dot6((pixelSize * 64).rounded())
        return size > 0 && FT_Set_Char_Size(face, 0, size, 72, 72) == 0
    }

    /// Loads `glyph`'s outline into the face's slot at the size `setReferenceSize` last set, unhinted.
    public func loadReferenceOutline(glyph: UInt32) -> Bool {
        guard let face = faceHandle else { return false }
        let flags = FT_Int32(FT_LOAD_NO_HINTING) | FT_Int32(FT_LOAD_NO_BITMAP)
        return FT_Load_Glyph(face, glyph, flags) == 0
            && face.pointee.glyph.pointee.format == FT_GLYPH_FORMAT_OUTLINE
    }

    /// Renders the outline that `loadReferenceOutline` put in the slot with `FT_Render_Glyph` (smooth, 8-bit),
    /// after shifting it by `offsetX` pixels; returns the bitmap's pixel count, or −1 when FreeType fails.
    /// The second half of a reference rendering, for benchmarks.
    public func renderLoadedReference(offsetX: Double) -> Int {
        guard let slot = faceHandle?.pointee.glyph else { return -1 }
        FT_Outline_Translate(&slot.pointee.outline, FT_Pos((offsetX * 64).rounded()), 0)
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return -1 }
        return Int(slot.pointee.bitmap.width) * Int(slot.pointee.bitmap.rows)
    }
}

/// FreeType's smooth rasterizer run straight on stored outlines (`FT_Outline_Get_Bitmap`, the rasterizer that
/// `FT_Render_Glyph` calls), into one reused bitmap: the reference for timing our own glyph rasterization, with
/// neither side paying for loading glyphs or allocating bitmaps.
public final class FreeTypeOutlineRasterizer {
    private let font: Font
    private var outlines: [FT_Outline] = []
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity = 1 << 16

    /// Copies the outlines of `glyphs` as FreeType scales them to `pixelSize` (unhinted).
    public init(font: Font, glyphs: [UInt32], pixelSize: Double) {
        self.font = font
        buffer = .allocate(capacity: capacity)
        guard let library = font.libraryHandle else { return }
        for g in glyphs {
            guard font.loadReferenceOutline(glyph: g, pixelSize: pixelSize),
                  let slot = font.faceHandle?.pointee.glyph else { continue }
            let source = slot.pointee.outline
            var copy = FT_Outline()
            guard FT_Outline_New(library, FT_UInt(source.n_points), FT_Int(source.n_contours), &copy) == 0 else { continue }
            withUnsafePointer(to: slot.pointee.outline) { src in _ = FT_Outline_Copy(src, &copy) }
            outlines.append(copy)
        }
    }

    deinit {
        if let library = font.libraryHandle {
            for i in outlines.indices { FT_Outline_Done(library, &outlines[i]) }
        }
        buffer.deallocate()
    }

    /// Renders every stored outline with the pen `offsetX` pixels right of a whole pixel; returns the sum of the
    /// first coverage byte of each bitmap, so that the work cannot be optimised away.
    public func renderAll(offsetX: Double) -> Int {
        guard let library = font.libraryHandle else { return 0 }
        let shift = FT_Pos((offsetX * 64).rounded())
        var check = 0
        for i in outlines.indices {
            FT_Outline_Translate(&outlines[i], shift, 0)
            var box = FT_BBox()
            FT_Outline_Get_CBox(&outlines[i], &box)
            let x0 = box.xMin >> 6, y0 = box.yMin >> 6, x1 = (box.xMax + 63) >> 6, y1 = (box.yMax + 63) >> 6
            let w = Int(x1 - x0), h = Int(y1 - y0)
            if w > 0, h > 0 {
                if w * h > capacity {
                    buffer.deallocate()
                    capacity = w * h
                    buffer = .allocate(capacity: capacity)
                }
                buffer.update(repeating: 0, count: w * h)
                // The bitmap's lower-left corner is the origin: move the outline there and back.
                FT_Outline_Translate(&outlines[i], -x0 * 64, -y0 * 64)
                var bitmap = FT_Bitmap()
                bitmap.rows = UInt32(h)
                bitmap.width = UInt32(w)
                bitmap.pitch = Int32(w)
                bitmap.buffer = buffer
                bitmap.num_grays = 256
                bitmap.pixel_mode = UInt8(FT_PIXEL_MODE_GRAY.rawValue)
                _ = FT_Outline_Get_Bitmap(library, &outlines[i], &bitmap)
                FT_Outline_Translate(&outlines[i], x0 * 64, y0 * 64)
                check &+= Int(buffer[(h / 2) * w + w / 2])
            }
            FT_Outline_Translate(&outlines[i], -shift, 0)
        }
        return check
    }
}

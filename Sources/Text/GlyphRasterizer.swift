import Geometry
import Raster

/// A glyph's coverage: 8-bit values in a box placed relative to the pen.
///
/// The pen sits at a whole pixel plus the sub-pixel offset the mask was made for; `left` and `top` place the
/// first pixel relative to that whole pixel (y growing downwards, so `top` is negative above the baseline).
/// The bytes belong to whoever made the mask (a `GlyphRasterizer` until its next render, a `GlyphCache` until
/// the entry is evicted).
public struct GlyphMask {
    public let left: Int
    public let top: Int
    public let width: Int
    public let height: Int
    /// `width × height` coverage bytes, row after row; nil when the mask is empty (a space).
    public let coverage: UnsafePointer<UInt8>?
    /// The rows as runs, for compositing without looking at empty pixels (masks in a `GlyphCache` have them):
    /// per row a run count n, then n pairs (first column, length), the length's top bit set when every pixel
    /// of the run is fully covered. Pixels outside the runs are 0.
    public let runs: UnsafePointer<UInt16>?

    /// Flags a run whose pixels are all 255.
    public static let solidRun: UInt16 = 0x8000

    public init(left: Int, top: Int, width: Int, height: Int, coverage: UnsafePointer<UInt8>?,
                runs: UnsafePointer<UInt16>? = nil) {
        self.left = left
        self.top = top
        self.width = width
        self.height = height
        self.coverage = coverage
        self.runs = runs
    }

    public static var empty: GlyphMask { GlyphMask(left: 0, top: 0, width: 0, height: 0, coverage: nil) }

    /// The number of UInt16 that `writeRuns` needs at most for a mask of this size: a count per row, and at
    /// worst a run per pixel.
    static func runCapacity(width: Int, height: Int) -> Int { height * (1 + 2 * width) }

    /// Shortest stretch of fully covered pixels that becomes a solid run of its own; shorter ones stay inside
    /// a partial run, because a run costs more to start than a few blends do.
    static let minSolidRun = 8

    /// Encodes `coverage` (`width × height`) as runs into `out`; returns how many UInt16 it wrote. Partial runs
    /// are maximal stretches of non-zero pixels; a stretch of at least `minSolidRun` pixels at 255 inside one is
    /// cut out as a solid run.
    static func writeRuns(_ coverage: UnsafePointer<UInt8>, width: Int, height: Int,
                          into out: UnsafeMutablePointer<UInt16>) -> Int {
        var n = 0
        for j in 0..<height {
            let row = coverage + j * width
            let countAt = n
            n += 1
            var runs: UInt16 = 0
            func emit(_ a: Int, _ b: Int, solid: Bool) {
                out[n] = UInt16(a)
                out[n + 1] = UInt16(b - a) | (solid ? solidRun : 0)
                n += 2
                runs += 1
            }
            var i = 0
            while i < width {
                if row[i] == 0 {
                    i += 1
                    continue
                }
                var start = i
                while i < width && row[i] != 0 {
                    if row[i] == 255 {
                        var k = i
                        while k < width && row[k] == 255 { k += 1 }
                        if k - i >= minSolidRun {
                            if i > start { emit(start, i, solid: false) }
                            emit(i, k, solid: true)
                            start = k
                        }
                        i = k
                    } else {
                        i += 1
                    }
                }
                if i > start { emit(start, i, solid: false) }
            }
            out[countAt] = runs
        }
        return n
    }

    /// The coverage at pixel (x, y) relative to the pen's whole pixel; 0 outside the mask.
    public func value(x: Int, y: Int) -> UInt8 {
        let i = x - left, j = y - top
        guard let coverage, i >= 0, j >= 0, i < width, j < height else { return 0 }
        return coverage[j * width + i]
    }
}

/// Turns glyph outlines into coverage masks with the shared `Rasterizer`, so that text is anti-aliased by the
/// same coverage code as every other shape.
///
/// The outline is filled in opaque white into a scratch canvas that is clear outside the glyph's box; the alpha
/// of each pixel is then exactly its coverage, is copied out, and the box is cleared again for the next glyph.
/// The canvas and the output buffer grow to the largest glyph seen and are reused: rendering allocates nothing
/// once they are big enough.
public final class GlyphRasterizer {
    /// Side of the scratch canvas first made, in pixels: holds any glyph up to about 100 px per em.
    static let initialSide = 128
    /// Flattening tolerance for glyph curves, in pixels: FreeType's smooth rasterizer splits a curve until its
    /// second difference is at most 1/4 px, which bounds its distance from the chords by 1/16 px; matching that
    /// bound gives the closest coverage to FreeType's and half the segments of a 1/64 px tolerance.
    public static let defaultTolerance = 1.0 / 16

    private let rasterizer = Rasterizer()

    /// Flattening tolerance for glyph curves, in pixels; see `defaultTolerance`.
    public var tolerance: Double {
        get { rasterizer.tolerance }
        set { rasterizer.tolerance = newValue }
    }
    private var scratch: Canvas
    private var output: UnsafeMutablePointer<UInt8>
    private var outputCapacity: Int

    public init() {
        rasterizer.tolerance = GlyphRasterizer.defaultTolerance
        scratch = Canvas(width: GlyphRasterizer.initialSide, height: GlyphRasterizer.initialSide, fill: .clear)
        outputCapacity = GlyphRasterizer.initialSide * GlyphRasterizer.initialSide
        output = .allocate(capacity: outputCapacity)
    }

    deinit { output.deallocate() }

    /// The box of pixels, relative to the pen's whole pixel, that `outline` scaled by `scale` (pixels per font
    /// unit) touches with the pen at (`offsetX`, `offsetY`); width or height 0 when it touches none.
    public static func pixelBox(_ outline: GlyphOutline, scale: Double, offsetX: Double, offsetY: Double)
        -> (left: Int, top: Int, width: Int, height: Int) {
        let b = outline.bounds
        guard !outline.path.isEmpty, b.width > 0 || b.height > 0, scale > 0 else { return (0, 0, 0, 0) }
        let x0 = (b.minX * scale + offsetX).rounded(.down), x1 = (b.maxX * scale + offsetX).rounded(.up)
        let y0 = (b.minY * scale + offsetY).rounded(.down), y1 = (b.maxY * scale + offsetY).rounded(.up)
        // A glyph is a few hundred pixels at most; a box beyond this limit means a broken outline or size.
        let limit = 1 << 14
        guard x0.isFinite, x1.isFinite, y0.isFinite, y1.isFinite,
              x1 - x0 <= Double(limit), y1 - y0 <= Double(limit) else { return (0, 0, 0, 0) }
        return (Int(x0), Int(y0), Int(x1 - x0), Int(y1 - y0))
    }

    /// The coverage of `outline` scaled by `scale` pixels per font unit, pen at (`offsetX`, `offsetY`) pixels
    /// from a whole pixel. The bytes are valid until the next call, and only while this rasterizer lives.
    public func render(_ outline: GlyphOutline, scale: Double, offsetX: Double, offsetY: Double = 0) -> GlyphMask {
        let box = GlyphRasterizer.pixelBox(outline, scale: scale, offsetX: offsetX, offsetY: offsetY)
        guard box.width > 0, box.height > 0 else { return .empty }
        let w = box.width, h = box.height
        if w > scratch.width || h > scratch.height {
            scratch = Canvas(width: Swift.max(w, scratch.width), height: Swift.max(h, scratch.height), fill: .clear)
        }
        if w * h > outputCapacity {
            output.deallocate()
            outputCapacity = w * h
            output = .allocate(capacity: outputCapacity)
        }
        let transform = AffineTransform(a: scale, b: 0, c: 0, d: scale,
                                        tx: offsetX - Double(box.left), ty: offsetY - Double(box.top))
        rasterizer.fill(outline.path, transform: transform, color: .white, rule: outline.isEvenOdd ? .evenOdd : .nonZero,
                        clip: Rect(x: 0, y: 0, width: Double(w), height: Double(h)), into: scratch)
        // White at coverage c is c in every channel: the low byte is the coverage.
        let stride = scratch.width
        for j in 0..<h {
            let row = scratch.pixels + j &* stride
            let out = output + j &* w
            for i in 0..<w {
                out[i] = UInt8(truncatingIfNeeded: row[i])
                row[i] = 0
            }
        }
        return GlyphMask(left: box.left, top: box.top, width: w, height: h, coverage: UnsafePointer(output))
    }
}

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
    static let solidRun: UInt16 = 0x8000

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

/// Turns glyph outlines into coverage masks with `GlyphMaskRasterizer`, the integer area accumulator made for
/// paths inside their own box: the same coverage model as every other shape (exact area), with fixed-point
/// edges because a glyph set is tens of thousands of short ones and their per-edge cost is the whole price.
///
/// The outline is filled straight into an 8-bit mask the size of the glyph's box: no colour, no canvas, no copy.
/// The buffers grow to the largest glyph seen and are reused: rendering allocates nothing once they are big enough.
public final class GlyphRasterizer {
    /// Flattening tolerance for glyph curves, in pixels: FreeType's smooth rasterizer splits a curve until its
    /// second difference is at most 1/4 px, which bounds its distance from the chords by 1/16 px; matching that
    /// bound gives the closest coverage to FreeType's and half the segments of a 1/64 px tolerance.
    public static let defaultTolerance = 1.0 / 16

    private let rasterizer = GlyphMaskRasterizer()

    /// Flattening tolerance for glyph curves, in pixels; see `defaultTolerance`.
    public var tolerance: Double {
        get { rasterizer.tolerance }
        set { rasterizer.tolerance = newValue }
    }

    public init() {
        rasterizer.tolerance = GlyphRasterizer.defaultTolerance
    }

    /// Largest side of a glyph's box in pixels: a glyph is a few hundred pixels at most, so a bigger box means a
    /// broken outline or size.
    static let maxSide = 1 << 14

    /// The box of pixels, relative to the pen's whole pixel, that `outline` scaled by `scale` (pixels per font
    /// unit) touches with the pen at (`offsetX`, `offsetY`); width or height 0 when it touches none.
    public static func pixelBox(_ outline: GlyphOutline, scale: Double, offsetX: Double, offsetY: Double)
        -> (left: Int, top: Int, width: Int, height: Int) {
        let b = outline.bounds
        guard !outline.path.isEmpty, b.width > 0 || b.height > 0, scale > 0 else { return (0, 0, 0, 0) }
        let x0 = b.minX * scale + offsetX, x1 = b.maxX * scale + offsetX
        let y0 = b.minY * scale + offsetY, y1 = b.maxY * scale + offsetY
        // The sides must be finite and the box small before they are turned into integers.
        let limit = Double(maxSide)
        guard (x0 + x1 + y0 + y1).isFinite, abs(x0) < 1e15, abs(y0) < 1e15, x1 - x0 <= limit, y1 - y0 <= limit
        else { return (0, 0, 0, 0) }
        let left = floor(x0), top = floor(y0), right = ceil(x1), bottom = ceil(y1)
        guard right - left <= maxSide, bottom - top <= maxSide else { return (0, 0, 0, 0) }
        return (left, top, right - left, bottom - top)
    }

    /// ⌊v⌋ for finite |v| < 2⁶³, by truncation: `rounded(.down)` is a library call at the baseline CPU level,
    /// and a glyph needs four of these.
    @inline(__always)
    static func floor(_ v: Double) -> Int {
        let t = Int(v)
        return Double(t) > v ? t &- 1 : t
    }

    /// ⌈v⌉ for finite |v| < 2⁶³; see `floor`.
    @inline(__always)
    static func ceil(_ v: Double) -> Int {
        let t = Int(v)
        return Double(t) < v ? t &+ 1 : t
    }

    /// The coverage of `outline` scaled by `scale` pixels per font unit, pen at (`offsetX`, `offsetY`) pixels
    /// from a whole pixel. The bytes are valid until the next call, and only while this rasterizer lives.
    public func render(_ outline: GlyphOutline, scale: Double, offsetX: Double, offsetY: Double = 0) -> GlyphMask {
        let box = GlyphRasterizer.pixelBox(outline, scale: scale, offsetX: offsetX, offsetY: offsetY)
        guard box.width > 0, box.height > 0 else { return .empty }
        guard let coverage = rasterizer.fill(outline.packed, scale: scale, dx: offsetX - Double(box.left),
                                             dy: offsetY - Double(box.top),
                                             rule: outline.isEvenOdd ? .evenOdd : .nonZero,
                                             width: box.width, height: box.height)
        else { return .empty }
        return GlyphMask(left: box.left, top: box.top, width: box.width, height: box.height, coverage: coverage)
    }
}

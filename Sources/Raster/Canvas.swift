import Geometry
import Colors

/// A grid of premultiplied 32-bit pixels, `0xAARRGGBB` each, row after row with no padding.
///
/// The pixel memory is allocated once, when the canvas is made, and owned by it: drawing never allocates.
///
/// Fills recorded for the canvas in a batch drawn on several threads (`Rasterizer.beginBands`) are drawn before
/// anyone reads `pixels`: whatever works on the pixels themselves (blurs, images, glyphs, compositing, the window's
/// upload) sees every fill made before it, in order, with no call of its own.
public final class Canvas {
    public let width: Int
    public let height: Int
    /// The pixel memory, for the batch's threads, which must not wait on themselves.
    @usableFromInline let storage: UnsafeMutablePointer<UInt32>
    /// True while fills recorded for this canvas wait in `pendingFills`.
    @usableFromInline var hasPendingFills = false
    /// The batch holding them. Unowned: a batch draws (and forgets) its fills before it ends.
    unowned(unsafe) var pendingFills: FillBands?

    /// The pixels, `width × height` of them; valid for the life of the canvas. Fills recorded and not yet drawn are
    /// drawn first.
    @inlinable public var pixels: UnsafeMutablePointer<UInt32> {
        if hasPendingFills { drawPendingFills() }
        return storage
    }

    public init(width: Int, height: Int, fill: Color = .clear) {
        precondition(width > 0 && height > 0, "a canvas needs a positive size, not \(width)×\(height)")
        self.width = width
        self.height = height
        storage = .allocate(capacity: width * height)
        storage.initialize(repeating: fill.premultipliedPixel, count: width * height)
    }

    deinit { storage.deallocate() }

    /// Draws the fills recorded for this canvas (and every other fill of their batch).
    @usableFromInline func drawPendingFills() {
        pendingFills?.draw()
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }

    public var pixelCount: Int { width * height }

    /// Sets every pixel to `color`, replacing what was there.
    public func clear(to color: Color) {
        FillPath.best.pipeline.fill(pixels, count: pixelCount, with: color.premultipliedPixel)
    }

    /// The premultiplied pixel at (x, y).
    public subscript(x: Int, y: Int) -> UInt32 {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside the canvas")
            return pixels[y * width + x]
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside the canvas")
            pixels[y * width + x] = newValue
        }
    }

    /// The colour at (x, y), un-premultiplied.
    public func color(atX x: Int, y: Int) -> Color {
        Pixel.unpremultiply(self[x, y])
    }

    /// Copies another canvas of the same size into this one.
    public func copy(from other: Canvas) {
        precondition(other.width == width && other.height == height, "canvas sizes differ")
        pixels.update(from: other.pixels, count: pixelCount)
    }
}

/// Operations on single premultiplied `0xAARRGGBB` pixels.
public enum Pixel {
    /// Source-over: `src + dst × (1 − src.alpha)`, per channel, rounded as 8-bit arithmetic does. Inlinable, as
    /// is `scale`: other modules' pixel loops call them for every pixel.
    @inlinable @inline(__always)
    public static func sourceOver(_ src: UInt32, _ dst: UInt32) -> UInt32 {
        let inv = 255 - (src >> 24)
        // Two channels at a time in one 32-bit word: red and blue, then alpha and green.
        var rb = (dst & 0x00FF_00FF) &* inv &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((dst >> 8) & 0x00FF_00FF) &* inv &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return src &+ rb &+ ag
    }

    /// Every channel of a premultiplied pixel scaled by `coverage` / 255.
    @inlinable @inline(__always)
    public static func scale(_ p: UInt32, by coverage: UInt32) -> UInt32 {
        var rb = (p & 0x00FF_00FF) &* coverage &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((p >> 8) & 0x00FF_00FF) &* coverage &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return rb | ag
    }

    /// The straight-alpha colour of a premultiplied pixel.
    static func unpremultiply(_ p: UInt32) -> Color {
        let a = Double(p >> 24)
        guard a > 0 else { return .clear }
        return Color(red: Double((p >> 16) & 0xFF) / a, green: Double((p >> 8) & 0xFF) / a,
                     blue: Double(p & 0xFF) / a, alpha: a / 255)
    }
}

extension Canvas {
    /// Blends a premultiplied pixel over the whole pixels a rectangle (points at `scale`) covers, rounded to the
    /// pixel grid: the panels and bars of the HUD and the timing chart, which need no anti-aliasing.
    public func fillPixels(_ rect: Rect, pixel: UInt32, scale: Double) {
        let x0 = Swift.max(0, Int((rect.minX * scale).rounded()))
        let x1 = Swift.min(width, Int((rect.maxX * scale).rounded()))
        let y0 = Swift.max(0, Int((rect.minY * scale).rounded()))
        let y1 = Swift.min(height, Int((rect.maxY * scale).rounded()))
        guard x0 < x1, y0 < y1 else { return }
        let opaque = pixel >> 24 == 0xFF
        for y in y0..<y1 {
            let row = pixels + y * width
            if opaque {
                for x in x0..<x1 { row[x] = pixel }
            } else {
                for x in x0..<x1 { row[x] = Pixel.sourceOver(pixel, row[x]) }
            }
        }
    }
}

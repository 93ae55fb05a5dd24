import Geometry
import Raster

/// Draws lines of text into a canvas from a glyph cache: each glyph is a coverage mask, rendered once by our
/// rasterizer from the font's outline and then composited wherever the glyph appears.
///
/// Positions and sizes are in points; the canvas is in pixels at `scale`. Pens are snapped to a quarter pixel
/// horizontally (the cache keeps four sub-pixel renderings of a glyph) and baselines to whole pixels, so text
/// sits as crisply as on the phone while its spacing keeps the font's fractional advances.
///
/// ```swift
/// let fonts = try FontSet.standard()          // DejaVu Sans, then WenQuanYi Micro Hei for Chinese
/// let text = TextRenderer(fonts: fonts)
/// let title = text.layout("Pull down to refresh", size: 14)
/// text.draw(title, at: title.origin(in: header, alignment: .center), color: Color(white: 0.54), scale: 2,
///           into: canvas)
/// ```
///
/// Drawing a laid-out line from a warm cache allocates nothing.
public final class TextRenderer {
    public let fonts: FontSet
    public let cache: GlyphCache

    public init(fonts: FontSet, cacheByteLimit: Int = GlyphCache.defaultByteLimit) {
        self.fonts = fonts
        cache = GlyphCache(byteLimit: cacheByteLimit)
    }

    /// Lays out `text` at `size` points with this renderer's fonts; see `TextLine.init`.
    public func layout(_ text: String, size: Double, maxWidth: Double? = nil) -> TextLine {
        TextLine(text, fonts: fonts, size: size, maxWidth: maxWidth)
    }

    /// Lays out and draws `text` in one call; for text that changes every frame (a HUD counter). Text that
    /// stays the same should be laid out once and drawn with `draw(_:at:…)`.
    public func draw(_ text: String, size: Double, at origin: Point, color: Color, scale: Double,
                     clip: Rect? = nil, into canvas: Canvas) {
        draw(layout(text, size: size), at: origin, color: color, scale: scale, clip: clip, into: canvas)
    }

    /// Draws `line` with its baseline origin at `origin` (points), in `color` (source-over), into `canvas`
    /// whose pixels are `scale` per point, inside `clip` (canvas pixels) when given.
    public func draw(_ line: TextLine, at origin: Point, color: Color, scale: Double, clip: Rect? = nil,
                     into canvas: Canvas) {
        let pixelSize = line.size * scale
        guard color.alpha > 0, pixelSize > 0, pixelSize.isFinite, origin.isFinite, !line.glyphs.isEmpty else { return }
        // The clip, as whole pixels inside the canvas.
        var minX = 0, minY = 0, maxX = canvas.width, maxY = canvas.height
        if let clip {
            guard clip.minX.isFinite, clip.maxX.isFinite, clip.minY.isFinite, clip.maxY.isFinite else { return }
            minX = Swift.max(minX, Int(Swift.max(clip.minX, -1).rounded(.up)))
            minY = Swift.max(minY, Int(Swift.max(clip.minY, -1).rounded(.up)))
            maxX = Swift.min(maxX, Int(Swift.min(clip.maxX, Double(canvas.width)).rounded(.down)))
            maxY = Swift.min(maxY, Int(Swift.min(clip.maxY, Double(canvas.height)).rounded(.down)))
        }
        guard minX < maxX, minY < maxY else { return }
        let baseline = (origin.y * scale).rounded()
        guard abs(baseline) < 1e9, abs(origin.x * scale) < 1e9 else { return }
        let by = Int(baseline)
        let premultiplied = color.premultipliedPixel
        let positions = Double(GlyphCache.subpixelPositions)
        for g in line.glyphs {
            let px = (origin.x + g.x) * scale
            let quarters = (px * positions).rounded()
            let whole = (quarters / positions).rounded(.down)
            let sub = Int(quarters - whole * positions)
            let mask = cache.mask(fonts: fonts, font: g.font, glyph: g.glyph, pixelSize: pixelSize, subpixel: sub)
            TextRenderer.composite(mask, x: Int(whole), y: by, color: premultiplied,
                                   minX: minX, minY: minY, maxX: maxX, maxY: maxY, into: canvas)
        }
    }

    /// Blends `color` through `mask` with the pen's whole pixel at (x, y), inside the pixel box
    /// [minX, maxX) × [minY, maxY) which lies within the canvas.
    @inline(__always)
    static func composite(_ mask: GlyphMask, x: Int, y: Int, color: UInt32,
                          minX: Int, minY: Int, maxX: Int, maxY: Int, into canvas: Canvas) {
        guard let coverage = mask.coverage else { return }
        let left = x + mask.left, top = y + mask.top
        let x0 = Swift.max(left, minX), x1 = Swift.min(left + mask.width, maxX)
        let y0 = Swift.max(top, minY), y1 = Swift.min(top + mask.height, maxY)
        guard x0 < x1, y0 < y1 else { return }
        let opaque = color >> 24 == 255
        let count = x1 - x0
        var row = y0
        while row < y1 {
            let src = coverage + ((row &- top) &* mask.width &+ (x0 &- left))
            let dst = canvas.pixels + (row &* canvas.width &+ x0)
            var i = 0
            while i < count {
                let m = UInt32(src[i])
                if m != 0 {
                    if m == 255 && opaque {
                        dst[i] = color
                    } else {
                        dst[i] = Pixel.sourceOver(Pixel.scale(color, by: m), dst[i])
                    }
                }
                i &+= 1
            }
            row &+= 1
        }
    }
}

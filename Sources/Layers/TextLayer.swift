import Geometry
import Motion
import Raster
import Text
import Colors

/// A layer that draws one line of text, as `CATextLayer` (no wrapping), with the renderer's fonts.
///
/// As in Core Animation the text starts at the top of the bounds (`verticalAlignment` can centre it, as a
/// `UILabel` does) and the defaults are 36 pt white. The laid-out line is cached with its inputs. Text drawn
/// through a transform that only moves and scales uses the glyph cache (crisp, hinted to the pixel grid); text
/// that is turned or stretched is filled from the glyph outlines instead.
open class TextLayer: Layer {
    public var string = ""
    /// Font size in points; Core Animation's default is 36.
    public var fontSize = TextLayer.defaultFontSize
    /// Core Animation's default text colour is opaque white.
    public var foregroundColor: Color = .white
    /// The face: regular, or bold as `UIFont.boldSystemFont(ofSize:)` gives it.
    public var fontWeight = FontWeight.regular
    public var alignmentMode = TextAlignment.left
    public var verticalAlignment = VerticalAlignment.top
    /// Whether text wider than the bounds ends with "…", as `truncationMode = .end`.
    var truncatesToBounds = false

    /// Core Animation's default `fontSize`, 36 pt.
    static let defaultFontSize = 36.0

    /// Where the line sits vertically in the bounds.
    public enum VerticalAlignment: Sendable {
        /// The line's ascent touches the top of the bounds, as in `CATextLayer`.
        case top
        /// The line is centred by its ascent and descent, as in a one-line `UILabel`.
        case center
    }

    private struct LineKey: Equatable {
        var string: String
        var size: Double
        var maxWidth: Double?
        var fonts: ObjectIdentifier
    }
    private var cachedLine: (key: LineKey, line: TextLine)?
    private var cachedOutline: (key: LineKey, path: Path)?

    /// The laid-out line for `fonts` at `size`, from the cache when nothing changed.
    func line(fonts: FontSet, size: Double, width: Double) -> TextLine {
        let key = LineKey(string: string, size: size, maxWidth: truncatesToBounds ? width : nil,
                          fonts: ObjectIdentifier(fonts))
        if let c = cachedLine, c.key == key { return c.line }
        let line = TextLine(string, fonts: fonts, size: size, maxWidth: key.maxWidth)
        cachedLine = (key, line)
        return line
    }

    /// The line's glyph outlines as one path with the pen at the origin, cached like the line.
    /// The line's glyph outlines with the baseline at `origin` and `scale` times their size, each glyph placed as
    /// `TextRenderer` places its image at `pixelScale` pixels per unit: the baseline on a whole pixel, each pen
    /// position on a quarter of one.
    private func placedOutline(of line: TextLine, fonts: FontSet, origin: Point, scale: Double,
                               pixelScale: Double) -> Path {
        let positions = Double(GlyphCache.subpixelPositions)
        let baseline = (origin.y * pixelScale).rounded() / pixelScale
        var path = Path()
        for g in line.glyphs {
            let font = fonts.font(at: g.font)
            let s = line.size / font.unitsPerEm * scale
            let x = ((origin.x + g.x * scale) * pixelScale * positions).rounded() / positions / pixelScale
            let glyph = font.outline(glyph: g.glyph).path.applying(AffineTransform(a: s, b: 0, c: 0, d: s, tx: x, ty: baseline))
            for e in glyph.elements { path.append(e) }
        }
        return path
    }

    private func outline(of line: TextLine, fonts: FontSet, key: LineKey) -> Path {
        if let c = cachedOutline, c.key == key { return c.path }
        var path = Path()
        for g in line.glyphs {
            let font = fonts.font(at: g.font)
            let s = line.size / font.unitsPerEm
            let glyph = font.outline(glyph: g.glyph).path.applying(AffineTransform(a: s, b: 0, c: 0, d: s, tx: g.x, ty: 0))
            for e in glyph.elements { path.append(e) }
        }
        cachedOutline = (key, path)
        return path
    }

    /// Text colour and size at `time`.
    public func textPresentation(at time: Double) -> (foregroundColor: Color, fontSize: Double) {
        (animated(.foregroundColor, "foregroundColor", foregroundColor, time),
         animated(.fontSize, "fontSize", fontSize, time))
    }

    /// The baseline origin of `line` in the bounds `b`.
    func origin(of line: TextLine, in b: Rect) -> Point {
        let x: Double
        switch alignmentMode {
        case .left: x = b.minX
        case .center: x = b.minX + (b.width - line.width) / 2
        case .right: x = b.maxX - line.width
        }
        switch verticalAlignment {
        case .top: return Point(x, b.minY + line.ascent)
        case .center: return Point(x, b.minY + (b.height - line.ascent - line.descent) / 2 + line.ascent)
        }
    }

    open override func draw(in context: LayerDrawingContext) {
        guard !string.isEmpty, let text = context.renderer.loadTextRenderer(weight: fontWeight) else { return }
        let (color, size) = textPresentation(at: context.time)
        let b = presentation(at: context.time).bounds
        let line = self.line(fonts: text.fonts, size: size, width: b.width)
        guard !line.glyphs.isEmpty else { return }
        let origin = self.origin(of: line, in: b)
        let m = context.transform
        if let recording = context.recording, m.b == 0 && m.c == 0 && m.a == m.d && m.a > 0 {
            // Recorded: the glyphs' outlines where the glyph cache would put them at the recording's pixel scale.
            recording.add(placedOutline(of: line, fonts: text.fonts, origin: m.apply(origin), scale: m.a,
                                        pixelScale: recording.pixelScale),
                          transform: .identity, color: context.paint(color), rule: .nonZero, clip: context.clip)
        } else if !context.isRecording && m.b == 0 && m.c == 0 && m.a == m.d && m.a > 0 {
            // Moves and a uniform scale: the glyph cache at that scale, the pen placed in canvas points.
            let p = m.apply(origin)
            context.drawText(line, at: Point(p.x / m.a, p.y / m.a), color: color, scale: m.a, renderer: text)
        } else {
            let key = LineKey(string: string, size: size, maxWidth: truncatesToBounds ? b.width : nil,
                              fonts: ObjectIdentifier(text.fonts))
            let path = outline(of: line, fonts: text.fonts, key: key)
            context.fill(path, offset: origin, color: color, rule: .nonZero)
        }
    }

    open override func contentBounds(at time: Double) -> Rect? {
        guard !string.isEmpty else { return nil }
        let b = presentation(at: time).bounds
        let size = textPresentation(at: time).fontSize
        // Without a font at hand the line is bounded by the layer's width and a generous line height.
        let width: Double, height: Double
        if let c = cachedLine, c.key.string == string, c.key.size == size {
            width = c.line.width
            height = c.line.ascent + c.line.descent
        } else {
            width = Swift.max(b.width, size * Double(string.unicodeScalars.count))
            height = size * 1.6
        }
        let top = verticalAlignment == .top ? b.minY : b.minY + (b.height - height) / 2
        let left: Double
        switch alignmentMode {
        case .left: left = b.minX
        case .center: left = b.minX + (b.width - width) / 2
        case .right: left = b.maxX - width
        }
        // Glyphs may overhang their advances a little: a margin of a fifth of the size on every side.
        let margin = size * 0.2
        return Rect(x: left - margin, y: top - margin, width: width + 2 * margin, height: height + 2 * margin)
    }

    open override var contentPrimitiveCount: Int { string.isEmpty ? 0 : 1 }
}

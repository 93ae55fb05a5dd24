import Geometry
import Motion
import Raster
import Text
import Colors

/// Draws layer trees into canvases: holds what drawing reuses from frame to frame (the rasterizer, the stroker,
/// the text renderer, offscreen canvases and the shadow blur's buffers), so that a steady frame allocates nothing.
///
/// For each visible layer, in order: its shadow, its background, its content (`draw(in:)`), its sublayers (cut to
/// its bounds when `masksToBounds`), its border. Opacity multiplies down the tree; a layer whose opacity is below
/// 1 and whose subtree paints more than one thing is flattened into an offscreen canvas first and then put down
/// with its opacity (group opacity), so overlapping children do not show through each other. Offscreen work
/// covers only the pixels the subtree can touch.
///
/// `masksToBounds` on a layer that is only moved and scaled, with square corners, is an exact clip rectangle;
/// turned, sheared or rounded bounds are drawn offscreen and multiplied by the coverage of the bounds' shape.
///
/// ```swift
/// let renderer = LayerRenderer()
/// header.render(into: canvas, at: clock.now, scale: 2, renderer: renderer)
/// ```
public final class LayerRenderer {
    public private(set) var rasterizer: Rasterizer
    /// Strokes shape layers' paths; its buffers are reused.
    public let stroker = Stroker()
    /// The fonts and glyph cache of text layers; loaded with the standard fonts on the first text drawn when nil.
    var textRenderer: TextRenderer?
    /// The same for bold text layers, with the standard fonts' bold face; a glyph cache of its own, since a cache
    /// knows glyphs by their place in one font set.
    var boldTextRenderer: TextRenderer?
    /// Why text could not be drawn (no font could be loaded), or nil.
    private(set) var fontError: String?
    /// What is wrong with the fonts, one line each with the package to install: the font sets' warnings and
    /// `fontError`. It only grows, so a reader can say each line once.
    public private(set) var fontMessages: [String] = []
    /// Loads the font set of a weight: the standard fonts, unless a test supplies others.
    var loadFonts: (FontWeight) throws -> FontSet = { try FontSet.standard(weight: $0) }
    let blur = ShadowBlur()
    /// Whether layers' background colours are drawn: an audit leaves them out to see only what a header draws in
    /// its boxes (a banner's box, scaled past the screen's sides by its bounce, is cut there on the phone too).
    public var drawsBackgrounds = true

    /// Offscreen canvases, one per level of nesting of offscreen passes, each the size of the canvas drawn into.
    private var scratch: [Canvas] = []
    private var scratchDepth = 0

    /// The time, base scale and clip of the tree being drawn.
    private var time = 0.0
    /// Pixels per point of the whole tree (from the transform given to `render`): the scale of shadow radii and
    /// offsets.
    private var baseScale = 1.0

    /// Counts for the last `render` call: what it cost, for tests and the frame recorder.
    struct Statistics: Equatable, Sendable {
        var layersDrawn = 0
        var offscreenPasses = 0
        var shadows = 0
    }
    private(set) var statistics = Statistics()

    public init(rasterizer: Rasterizer = Rasterizer(), textRenderer: TextRenderer? = nil) {
        self.rasterizer = rasterizer
        self.textRenderer = textRenderer
    }

    /// Draws batches of fills (`Rasterizer.beginBands`) on `threads` threads from now on.
    public func setDrawingThreads(_ threads: Int) {
        guard threads != rasterizer.threadCount else { return }
        rasterizer = Rasterizer(path: rasterizer.path, threads: threads)
    }

    /// The least opacity that can change an 8-bit pixel; anything fainter is skipped.
    static let minimumOpacity = 1.0 / 510

    /// Draws `layer` and its sublayers with their presentation values at `time`; `transform` maps the layer's
    /// superlayer coordinates (points) to the canvas's pixels; nothing is drawn outside `clip` (pixels).
    public func render(_ layer: Layer, into canvas: Canvas, at time: Double, transform: AffineTransform,
                       clip: Rect? = nil) {
        statistics = Statistics()
        guard time.isFinite, Self.isFinite(transform) else { return }
        self.time = time
        baseScale = Swift.abs(transform.determinant).squareRoot()
        var box = canvas.bounds
        if let clip { box = box.intersection(clip) }
        guard !box.isEmpty else { return }
        draw(layer, parent: transform, opacity: 1, clip: box, into: canvas, mask: false)
    }

    /// The text renderer for `weight`, loading the standard fonts in that weight the first time; nil (with
    /// `fontError` set) when none loads. A missing bold face falls back to the regular one, with a warning in the
    /// renderer's font set.
    public func loadTextRenderer(weight: FontWeight = .regular) -> TextRenderer? {
        if let loaded = weight == .bold ? boldTextRenderer : textRenderer { return loaded }
        guard fontError == nil else { return nil }
        do {
            let renderer = TextRenderer(fonts: try loadFonts(weight))
            if weight == .bold { boldTextRenderer = renderer } else { textRenderer = renderer }
            fontMessages += renderer.fonts.warnings.filter { !fontMessages.contains($0) }
            return renderer
        } catch {
            fontError = "text is not drawn: \(error)"
            fontMessages.append(fontError!)
            return nil
        }
    }

    // MARK: The tree

    /// Draws one layer; `parent` maps its superlayer's coordinates to pixels; `mask` paints everything black
    /// with its alpha (a shadow's shape).
    private func draw(_ layer: Layer, parent: AffineTransform, opacity inherited: Double, clip: Rect,
                      into canvas: Canvas, mask: Bool) {
        guard !layer.isHidden else { return }
        let p = layer.presentation(at: time)
        let alpha = p.opacity * inherited
        guard alpha >= LayerRenderer.minimumOpacity else { return }
        let m = p.transformToSuperlayer.concatenating(parent)
        guard Self.isFinite(m) else { return }
        statistics.layersDrawn += 1
        if p.opacity < 1 && primitiveCount(layer, p, limit: 2) > 1 {
            guard let bounds = subtreeBounds(layer, p, m, includeShadow: true) else { return }
            let box = PixelBox(covering: bounds.intersection(clip)).intersection(canvas.pixelBox)
            guard !box.isEmpty else { return }
            let offscreen = acquireScratch(like: canvas)
            defer { releaseScratch() }
            statistics.offscreenPasses += 1
            offscreen.clear(box)
            drawContents(layer, p, m, opacity: 1, clip: clip.intersection(box.rect), into: offscreen, mask: mask)
            canvas.composite(offscreen, in: box, opacity: alpha)
        } else {
            drawContents(layer, p, m, opacity: alpha, clip: clip, into: canvas, mask: mask)
        }
    }

    /// Shadow, background, content, sublayers and border of a layer whose coordinates map to pixels by `m`.
    private func drawContents(_ layer: Layer, _ p: LayerPresentation, _ m: AffineTransform, opacity: Double,
                              clip: Rect, into canvas: Canvas, mask: Bool, shadow: Bool = true) {
        if shadow, p.shadowOpacity > 0, let color = p.shadowColor, color.alpha > 0 {
            drawShadow(layer, p, m, color: color, opacity: opacity, clip: clip, into: canvas, mask: mask)
        }
        let context = LayerDrawingContext(canvas: canvas, transform: m, opacity: opacity, clip: clip, time: time,
                                          renderer: self, isMask: mask)
        if drawsBackgrounds, let bg = p.backgroundColor, bg.alpha > 0 {
            context.fill(layer.backgroundPath(p.bounds, radius: p.cornerRadius), color: bg)
        }
        layer.draw(in: context)
        if !layer.sublayers.isEmpty {
            drawSublayers(layer, p, m, opacity: opacity, clip: clip, into: canvas, mask: mask)
        }
        if p.borderWidth > 0, let border = p.borderColor, border.alpha > 0 {
            let path = layer.borderPath(p.bounds, radius: p.cornerRadius, width: p.borderWidth)
            context.fill(path, color: border, rule: .evenOdd)
        }
    }

    private func drawSublayers(_ layer: Layer, _ p: LayerPresentation, _ m: AffineTransform, opacity: Double,
                               clip: Rect, into canvas: Canvas, mask: Bool) {
        guard layer.masksToBounds else {
            for sublayer in layer.sublayers {
                draw(sublayer, parent: m, opacity: opacity, clip: clip, into: canvas, mask: mask)
            }
            return
        }
        let visible = p.bounds.boundingBox(through: m).intersection(clip)
        guard !visible.isEmpty else { return }
        let radius = Swift.min(p.cornerRadius, p.bounds.width / 2, p.bounds.height / 2)
        if m.b == 0 && m.c == 0 && radius <= 0 {
            for sublayer in layer.sublayers {
                draw(sublayer, parent: m, opacity: opacity, clip: visible, into: canvas, mask: mask)
            }
            return
        }
        // Turned or rounded bounds: draw the sublayers offscreen, keep what the bounds' shape covers.
        let box = PixelBox(covering: visible).intersection(canvas.pixelBox)
        guard !box.isEmpty else { return }
        let offscreen = acquireScratch(like: canvas)
        defer { releaseScratch() }
        statistics.offscreenPasses += 1
        offscreen.clear(box)
        let inner = visible.intersection(box.rect)
        for sublayer in layer.sublayers {
            draw(sublayer, parent: m, opacity: opacity, clip: inner, into: offscreen, mask: mask)
        }
        let shape = acquireScratch(like: canvas)
        defer { releaseScratch() }
        shape.clear(box)
        rasterizer.fill(layer.backgroundPath(p.bounds, radius: p.cornerRadius), transform: m, color: .black,
                        clip: inner, into: shape)
        offscreen.multiply(byAlphaOf: shape, in: box)
        canvas.composite(offscreen, in: box)
    }

    /// A blurred copy of the layer's shape (its shadow path, else everything it and its sublayers draw) in the
    /// shadow colour, under the layer. Radius and offset are in points of the canvas: σ = radius × scale pixels.
    private func drawShadow(_ layer: Layer, _ p: LayerPresentation, _ m: AffineTransform, color: Color,
                            opacity: Double, clip: Rect, into canvas: Canvas, mask: Bool) {
        let shapeBounds: Rect?
        if let path = p.shadowPath {
            shapeBounds = path.isEmpty ? nil : path.controlPointBounds.boundingBox(through: m)
        } else {
            shapeBounds = subtreeBounds(layer, p, m, includeShadow: false)
        }
        guard let shapeBounds else { return }
        let sigma = Swift.max(0, p.shadowRadius) * baseScale
        let spread = ShadowBlur.spread(sigma: sigma) + 1
        let dx = Int((p.shadowOffset.width * baseScale).rounded()), dy = Int((p.shadowOffset.height * baseScale).rounded())
        // The shape's pixels whose blur can reach the clip once moved by the offset.
        let reach = PixelBox(covering: clip).offsetBy(dx: -dx, dy: -dy).outset(by: spread)
        let box = PixelBox(covering: shapeBounds).outset(by: spread).intersection(reach)
        guard !box.isEmpty else { return }
        let drawable = box.intersection(canvas.pixelBox)
        let shape = acquireScratch(like: canvas)
        defer { releaseScratch() }
        statistics.shadows += 1
        shape.clear(drawable)
        if !drawable.isEmpty {
            if let path = p.shadowPath {
                rasterizer.fill(path, transform: m, color: .black, clip: drawable.rect, into: shape)
            } else {
                drawContents(layer, p, m, opacity: 1, clip: drawable.rect, into: shape, mask: true, shadow: false)
            }
        }
        // Inside another shadow's shape every colour is black; the alpha is the colour's, the opacity's and the
        // layer's.
        let alpha = Swift.min(Swift.max(p.shadowOpacity, 0), 1) * opacity * color.alpha
        let paint = mask ? Color(white: 0, alpha: alpha)
                         : Color(red: color.red, green: color.green, blue: color.blue, alpha: alpha)
        blur.paint(alphaOf: shape, in: box, sigma: sigma, color: paint, dx: dx, dy: dy, into: canvas,
                   clip: PixelBox(covering: clip))
    }

    // MARK: Measuring

    /// How many separate things the subtree paints, counting up to `limit` (model values below the layer).
    private func primitiveCount(_ layer: Layer, _ p: LayerPresentation, limit: Int) -> Int {
        var n = 0
        if p.shadowOpacity > 0, let c = p.shadowColor, c.alpha > 0 { n += 1 }
        if let bg = p.backgroundColor, bg.alpha > 0 { n += 1 }
        if p.borderWidth > 0, let c = p.borderColor, c.alpha > 0 { n += 1 }
        n += layer.contentPrimitiveCount
        if n >= limit { return n }
        for sublayer in layer.sublayers where !sublayer.isHidden {
            n += primitiveCount(sublayer, sublayer.modelValues, limit: limit - n)
            if n >= limit { return n }
        }
        return n
    }

    /// The pixels the subtree of a layer (mapped by `m`) can touch at the current time, anti-aliasing included;
    /// nil when it draws nothing.
    private func subtreeBounds(_ layer: Layer, _ p: LayerPresentation, _ m: AffineTransform,
                               includeShadow: Bool) -> Rect? {
        var box = BoxBuilder()
        func add(_ r: Rect) {
            box.add(r.origin)
            box.add(Point(r.maxX, r.maxY))
        }
        let hasBackground = (p.backgroundColor?.alpha ?? 0) > 0
        let hasBorder = p.borderWidth > 0 && (p.borderColor?.alpha ?? 0) > 0
        if hasBackground || hasBorder { add(p.bounds.boundingBox(through: m)) }
        if let c = layer.contentBounds(at: time) { add(c.boundingBox(through: m)) }
        if !layer.sublayers.isEmpty {
            let limit = layer.masksToBounds ? p.bounds.boundingBox(through: m) : nil
            for sublayer in layer.sublayers where !sublayer.isHidden {
                let sp = sublayer.presentation(at: time)
                let sm = sp.transformToSuperlayer.concatenating(m)
                guard Self.isFinite(sm), var r = subtreeBounds(sublayer, sp, sm, includeShadow: true) else { continue }
                if let limit {
                    r = r.intersection(limit)
                    if r.isEmpty { continue }
                }
                add(r)
            }
        }
        if includeShadow, p.shadowOpacity > 0, (p.shadowColor?.alpha ?? 0) > 0 {
            let shape: Rect? = p.shadowPath.map { $0.controlPointBounds.boundingBox(through: m) } ?? box.rect
            if let shape {
                let spread = Double(ShadowBlur.spread(sigma: Swift.max(0, p.shadowRadius) * baseScale) + 2)
                let moved = shape.offsetBy(dx: p.shadowOffset.width * baseScale, dy: p.shadowOffset.height * baseScale)
                add(moved.insetBy(dx: -spread, dy: -spread))
            }
        }
        return box.rect?.insetBy(dx: -1, dy: -1)
    }

    // MARK: Offscreen canvases

    /// A canvas the size of `canvas` for the next level of offscreen drawing, made only the first time that level
    /// is needed at that size; the caller clears the part it uses.
    private func acquireScratch(like canvas: Canvas) -> Canvas {
        defer { scratchDepth += 1 }
        if scratchDepth < scratch.count {
            let c = scratch[scratchDepth]
            if c.width == canvas.width && c.height == canvas.height { return c }
            let made = Canvas(width: canvas.width, height: canvas.height)
            scratch[scratchDepth] = made
            return made
        }
        let made = Canvas(width: canvas.width, height: canvas.height)
        scratch.append(made)
        return made
    }

    private func releaseScratch() { scratchDepth -= 1 }

    /// How many offscreen canvases the renderer holds (they are kept for the next frames).
    var offscreenCanvasCount: Int { scratch.count }

    static func isFinite(_ t: AffineTransform) -> Bool {
        (t.a + t.b + t.c + t.d + t.tx + t.ty).isFinite
    }
}

/// What a layer's `draw(in:)` draws with: the canvas, the map from the layer's coordinates to its pixels, the
/// opacity and clip to apply, and the time of the frame.
public struct LayerDrawingContext {
    public let canvas: Canvas
    /// Layer coordinates (points) to canvas pixels.
    public let transform: AffineTransform
    /// Multiplies the alpha of everything drawn.
    public let opacity: Double
    /// Pixels outside this rectangle stay untouched.
    public let clip: Rect
    /// The frame's time, for presentation values.
    public let time: Double
    public let renderer: LayerRenderer
    /// True while drawing a shadow's shape: every colour becomes black with its alpha.
    let isMask: Bool
    /// Where a recording walk keeps what is drawn instead of drawing it (`LayerRenderer.record`); nil when drawing.
    let recording: LayerRecording?

    init(canvas: Canvas, transform: AffineTransform, opacity: Double, clip: Rect, time: Double,
         renderer: LayerRenderer, isMask: Bool, recording: LayerRecording? = nil) {
        self.canvas = canvas
        self.transform = transform
        self.opacity = opacity
        self.clip = clip
        self.time = time
        self.renderer = renderer
        self.isMask = isMask
        self.recording = recording
    }

    /// Whether this context records paths rather than drawing pixels.
    var isRecording: Bool { recording != nil }

    /// Pixels per point along the layer's axes (the square root of the transform's area scale).
    var pixelsPerPoint: Double { Swift.abs(transform.determinant).squareRoot() }

    /// The colour as drawn: with the opacity applied, and black when drawing a shadow's shape.
    @inline(__always)
    func paint(_ color: Color) -> Color {
        isMask ? Color(white: 0, alpha: color.alpha * opacity) : color.withAlphaMultiplied(by: opacity)
    }

    /// Fills `path` (layer coordinates) with `color`.
    public func fill(_ path: Path, color: Color, rule: FillRule = .nonZero) {
        if let recording {
            recording.add(path, transform: transform, color: paint(color), rule: rule, clip: clip)
            return
        }
        renderer.rasterizer.fill(path, transform: transform, color: paint(color), rule: rule, clip: clip, into: canvas)
    }

    /// Fills `path` moved by `offset` (layer coordinates) with `color`.
    public func fill(_ path: Path, offset: Point, color: Color, rule: FillRule = .nonZero) {
        if let recording {
            recording.add(path, transform: transform.translatedBy(x: offset.x, y: offset.y), color: paint(color),
                          rule: rule, clip: clip)
            return
        }
        renderer.rasterizer.fill(path, transform: transform.translatedBy(x: offset.x, y: offset.y),
                                 color: paint(color), rule: rule, clip: clip, into: canvas)
    }

    /// Strokes `path` (layer coordinates) with `style` and `color`, the outline's edges going straight into the
    /// rasterizer (see `Rasterizer.stroke`); shape layers cache their outlines instead.
    public func stroke(_ path: Path, style: StrokeStyle, color: Color) {
        let tol = ShapeLayer.tolerance(pixelsPerPoint: pixelsPerPoint)
        if let recording {
            recording.add(renderer.stroker.stroke(path, style: style, tolerance: tol), transform: transform,
                          color: paint(color), rule: .nonZero, clip: clip)
            return
        }
        renderer.rasterizer.stroke(path, style: style, transform: transform, tolerance: tol, color: paint(color),
                                   clip: clip, into: canvas)
    }

    /// Draws a laid-out line with its baseline origin at `origin` in canvas points (pixels / `scale`).
    func drawText(_ line: TextLine, at origin: Point, color: Color, scale: Double, renderer text: TextRenderer) {
        // Text layers record their glyphs' outlines (`TextLayer.draw(in:)`); a line drawn otherwise cannot be.
        if let recording {
            recording.refuse("text drawn as glyph images")
            return
        }
        text.draw(line, at: origin, color: paint(color), scale: scale, clip: clip, into: canvas)
    }
}

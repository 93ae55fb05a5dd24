#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import Raster
import Colors

/// Draws a `LottieAnimation` at any frame into a `Canvas` through Geometry and Raster.
///
/// Layers are drawn bottom (the last in the file) to top. A layer goes straight onto its target unless it needs a
/// group of its own — opacity below 1, masks, a track matte or a blend mode — when it is drawn into an offscreen
/// canvas, masked, matted and put down with its opacity and blend mode, as After Effects composites it. Such a
/// group's work covers only the pixels that can show: drawing is confined to its masks' reach within what its
/// target keeps, and masking, matting, compositing and clearing cover what was drawn there. Inside a
/// shape layer, each fill and stroke paints every path above it in its group and in the groups above it, after
/// every trim below those paths; paints lower in the list are drawn first. The rasterizers, stroker, offscreen
/// canvases, paths and tables are kept between frames: a steady frame allocates nothing.
///
/// A frame's work is bounded by `maxLayerDraws` and `maxOffscreenBytes` (see Budget.swift): a file past them is
/// refused when it is read where that can be known, and otherwise stops the frame with a `LottieRenderError`.
public final class LottieRenderer {
    /// Deepest nesting of precompositions drawn: a file whose precompositions refer to each other ends here.
    static let maxPrecompDepth = 16

    private let rasterizer: Rasterizer
    private let masks = MaskRasterizer()
    private let stroker = Stroker()
    /// Offscreen canvases of the current target's size, free for the next group that needs one; all transparent.
    private var free: [Canvas] = []
    /// The pixels of the current target that can still show, to which drawing is confined, and the pixels drawing
    /// has changed in it so far: what a group's later passes cover and what its canvas is cleared of.
    private var clip = PixelBox.empty
    /// The pixels of the composition, outside which nothing is drawn.
    private var frameBox = PixelBox.empty
    private var touched = PixelBox.empty
    private var coverage: [Float] = []
    /// A mask's coverage for each of its bytes, and one mask's alpha for each.
    private var maskTable = [Float](repeating: 0, count: 256)
    private var maskAlpha = [UInt8](repeating: 0, count: 256)
    /// Kept between layers and frames, so that a steady frame allocates nothing once they have grown: the shape
    /// layer's contents, the paths a paint covers, a stroke in its own space and its outline, a mask's path, a
    /// solid's rectangle, the dash lengths, a gradient's stop values and colour table.
    private var scene = ShapeScene()
    private var combined = Path(), local = Path(), outline = Path(), maskPath = Path(), rectPath = Path()
    /// A mask's path cut to a Stroke effect's start and end.
    private var strokePiece = Path()
    private var dashes: [Double] = []
    /// A text layer's animator values at the current frame.
    private var textFrame = TextFrame()
    private var ramp = GradientRamp()
    /// A Tint's or Tritone's colour for each grey level, Pro Levels' four channel tables, and the blurs of the
    /// Gaussian Blur and Drop Shadow effects.
    private var greyRamp = [UInt32](repeating: 0, count: 256)
    private var levelTables = [UInt8](repeating: 0, count: 4 * 256)
    private let layerBlur = LayerBlur()
    private let shadowBlur = ShadowBlur()
    /// One row of a gradient's table entries.
    private var gradientRow: [Int32] = []
    /// The current frame's budgets: layer draws left, bytes of offscreen canvases alive, and the first budget
    /// passed, after which nothing more is drawn.
    private var drawsLeft = 0
    /// The budgets this renderer holds a frame to: the constants, lowered by tests to reach them cheaply.
    var layerDrawBudget = LottieRenderer.maxLayerDraws
    var offscreenByteBudget = LottieRenderer.maxOffscreenBytes
    private var offscreenAlive = 0
    private var failure: LottieRenderError?

    /// A renderer whose frames are drawn on `threads` threads: each frame's fills are one batch in bands of rows
    /// (`Rasterizer.beginBands`), with the pixels of one thread.
    public init(threads: Int = 1) {
        rasterizer = Rasterizer(threads: threads)
    }

    /// The transform that fits a `size` composition into `rect`, keeping its proportions, centred.
    public static func fitting(_ size: Size, into rect: Rect) -> AffineTransform {
        guard size.width > 0, size.height > 0 else { return .identity }
        let s = Swift.min(rect.width / size.width, rect.height / size.height)
        return AffineTransform(scaleX: s, y: s).concatenating(AffineTransform(
            translationX: rect.midX - size.width * s / 2, y: rect.midY - size.height * s / 2))
    }

    /// Draws frame `frame` (the file's own numbering) of `animation` over what `canvas` holds, its composition
    /// mapped through `transform` into the canvas's pixels; nothing outside `clip` (pixels) when it is given.
    ///
    /// - Throws: `LottieRenderError` when the frame would pass a budget of work; what was drawn before stays.
    public func render(_ animation: LottieAnimation, frame: Double, into canvas: Canvas,
                       transform: AffineTransform = .identity, clip outer: Rect? = nil) throws(LottieRenderError) {
        if free.first.map({ $0.width != canvas.width || $0.height != canvas.height }) ?? false { free.removeAll() }
        // The deepest chain of offscreen canvases was found when the file was read; at this canvas's size it
        // says before anything is drawn whether some frame could pass the memory budget.
        let bytes = LottieRenderer.offscreenBytes(width: canvas.width, height: canvas.height)
        let chain = animation.offscreenChain
        if !chain.isEmpty, bytes > 0, chain.count > offscreenByteBudget / bytes {
            throw LottieRenderError(layer: chain[offscreenByteBudget / bytes],
                                    reason: offscreenReason(chain.count, canvas))
        }
        drawsLeft = layerDrawBudget
        offscreenAlive = 0
        failure = nil
        frameBox = LottieRenderer.compositionBox(animation.size, transform: transform).intersection(canvas.pixelBox)
        // A clip the caller gives (a list's bounds around a header) cuts everything, at whole pixels.
        if let outer { frameBox = frameBox.intersection(PixelBox(covering: outer)) }
        clip = frameBox
        touched = .empty
        rasterizer.beginBands()
        defer { rasterizer.drawBands() }
        animation.expressions?.beginFrame()
        drawComposition(animation.layers, animation, frame: frame, transform: transform, into: canvas, depth: 0)
        animation.expressions?.endFrame()
        if let failure { throw failure }
    }

    /// The pixels the composition covers, to which its drawing is confined, as lottie-web clips it to its
    /// size: its box through `transform` with its sides on the nearest pixel edges (the box around it when
    /// `transform` turns it).
    static func compositionBox(_ size: Size, transform: AffineTransform) -> PixelBox {
        let r = Rect(x: 0, y: 0, width: size.width, height: size.height).boundingBox(through: transform)
        let limit = Double(1 << 30)
        guard r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite else { return .empty }
        func edge(_ v: Double) -> Int { Int(Swift.min(Swift.max(v.rounded(), -limit), limit)) }
        return PixelBox(minX: edge(r.minX), minY: edge(r.minY), maxX: edge(r.maxX), maxY: edge(r.maxY))
    }

    private func offscreenReason(_ count: Int, _ canvas: Canvas) -> String {
        let bytes = count.multipliedReportingOverflow(
            by: LottieRenderer.offscreenBytes(width: canvas.width, height: canvas.height)).partialValue
        return "the frame could keep \(count) offscreen canvases of \(canvas.width)×\(canvas.height) px alive at "
            + "once (opacity, masks, mattes and precomposition bounds nested in each other), \(bytes >> 20) MB, past "
            + "the \(offscreenByteBudget >> 20) MB a frame may use; draw it smaller or nest fewer of them"
    }

    /// An offscreen canvas like `canvas` for `layer`, or nil (the frame failing) past the memory budget.
    private func acquire(like canvas: Canvas, for layer: LottieLayer) -> Canvas? {
        let bytes = LottieRenderer.offscreenBytes(width: canvas.width, height: canvas.height)
        guard offscreenAlive + bytes <= offscreenByteBudget else {
            if failure == nil {
                failure = LottieRenderError(layer: layer.name, reason: offscreenReason(
                    offscreenAlive / Swift.max(bytes, 1) + 1, canvas))
            }
            return nil
        }
        offscreenAlive += bytes
        return free.popLast() ?? Canvas(width: canvas.width, height: canvas.height)
    }

    /// Gives back a canvas, clearing `drawn`, all it was drawn on, so that it is transparent for the next group.
    private func release(_ canvas: Canvas, drawn: PixelBox) {
        canvas.clear(drawn)
        offscreenAlive -= LottieRenderer.offscreenBytes(width: canvas.width, height: canvas.height)
        free.append(canvas)
    }

    /// Runs `draw` with drawing confined to `region` of a fresh target, and returns the pixels it changed; the
    /// current target's clip and changed pixels are as they were afterwards.
    private func confined(to region: PixelBox, _ draw: () -> Void) -> PixelBox {
        let saved = (clip, touched)
        clip = region
        touched = .empty
        draw()
        let drawn = touched
        (clip, touched) = saved
        return drawn
    }

    /// Counts one layer drawn; false (the frame failing) past the budget of layer draws.
    private func spendDraw(on layer: LottieLayer) -> Bool {
        guard drawsLeft > 0 else {
            if failure == nil {
                failure = LottieRenderError(layer: layer.name, reason: "the frame would draw more than "
                    + "\(layerDrawBudget) layers (each precomposition counted as often as it is "
                    + "shown); show fewer copies or nest them less deep")
            }
            return false
        }
        drawsLeft -= 1
        return true
    }

    private func drawComposition(_ layers: [LottieLayer], _ animation: LottieAnimation, frame: Double,
                                 transform: AffineTransform, into canvas: Canvas, depth: Int) {
        guard depth <= LottieRenderer.maxPrecompDepth else { return }
        var i = layers.count - 1
        while i >= 0, failure == nil {
            let layer = layers[i]
            defer { i -= 1 }
            if layer.isMatteSource || layer.hidden || !(frame >= layer.inPoint && frame < layer.outPoint) { continue }
            guard spendDraw(on: layer) else { return }
            let matteSource = layer.matte != nil && i > 0 && layers[i - 1].isMatteSource ? layers[i - 1] : nil
            // A layer's own keyframes (transform, shapes, masks) are in the time of the composition that holds it,
            // as lottie-web reads them: its start time shifts the keyframes and the frame alike and cancels out, and
            // its stretch applies to a precomposition's contents only (docs/reference.md §8).
            let matrix = worldMatrix(layer, in: layers, frame: frame).concatenating(transform)
            let opacity = unitClamped(layer.transform.opacity.scalar(at: frame) / 100)
            guard opacity > 0 || matteSource != nil else { continue }
            if opacity >= 1 && layer.masks.isEmpty && matteSource == nil && layer.blendMode == .normal
                && layer.effects.isEmpty {
                drawContents(layer, animation, frame: frame, matrix: matrix, into: canvas, depth: depth)
                continue
            }
            // Only pixels within the masks' reach and the target's clip can show; outside them the group stays
            // transparent, so a layer that cannot show is not drawn. Masks a Stroke effect strokes do not clip its
            // strokes.
            let masksStroked = layer.masksStroked
            let region = masksStroked ? clip : maskReach(layer.masks, frame: frame, matrix: matrix)
            guard !region.isEmpty else { continue }
            guard let group = acquire(like: canvas, for: layer) else { return }
            // Effects that move pixels (blurs, shadows) bring in what lies within their reach of the region.
            let layerScale = matrix.determinant.magnitude.squareRoot()
            var reach = 0
            for effect in layer.effects { reach += effect.reach(at: frame, scale: layerScale) }
            let source = reach > 0 ? region.outset(by: reach).intersection(group.pixelBox) : region
            var drawn = confined(to: source) {
                drawContents(layer, animation, frame: frame, matrix: matrix, into: group, depth: depth)
            }
            var box = drawn.intersection(source)
            if !layer.effects.isEmpty, !box.isEmpty || masksStroked {
                let changed = applyEffects(of: layer, frame: frame, matrix: matrix, to: group, in: box)
                drawn = drawn.union(changed)
                box = changed.intersection(region)
            }
            if !layer.masks.isEmpty, !masksStroked, !box.isEmpty {
                applyMasks(layer.masks, frame: frame, matrix: matrix, to: group, in: box)
            }
            if let source = matteSource, let mode = layer.matte, !box.isEmpty {
                guard let matte = acquire(like: canvas, for: source) else { return release(group, drawn: drawn) }
                let shown = confined(to: box) {
                    guard frame >= source.inPoint && frame < source.outPoint, spendDraw(on: source) else { return }
                    let m = worldMatrix(source, in: layers, frame: frame).concatenating(transform)
                    let o = unitClamped(source.transform.opacity.scalar(at: frame) / 100)
                    drawContents(source, animation, frame: frame, matrix: m, into: matte, depth: depth)
                    let inside = touched.intersection(box)
                    if !source.masks.isEmpty, !inside.isEmpty {
                        applyMasks(source.masks, frame: frame, matrix: m, to: matte, in: inside)
                    }
                    if o < 1 { scale(matte, by: o, in: inside) }
                }
                applyMatte(matte, mode, to: group, in: box)
                // Where the matte is transparent, an alpha or luma matte leaves nothing.
                if mode == .alpha || mode == .luma { box = box.intersection(shown) }
                release(matte, drawn: shown)
            }
            if !box.isEmpty {
                if layer.blendMode == .normal {
                    canvas.composite(group, in: box, opacity: opacity)
                } else {
                    LottieRenderer.blend(group, onto: canvas, layer.blendMode, opacity: opacity, in: box)
                }
                touched = touched.union(box)
            }
            release(group, drawn: drawn)
        }
    }

    /// The pixels of the current clip where a layer's masks can leave anything: all of the clip without masks,
    /// else the start `applyMasks` takes (all of the clip, or nothing when the first mask that counts adds), with
    /// what the masks added (each within its path's bounds, or everywhere inverted) less what an intersected mask
    /// leaves out. Subtracted masks are not followed, only ever giving a larger box.
    private func maskReach(_ list: [Mask], frame: Double, matrix: AffineTransform) -> PixelBox {
        guard !list.isEmpty else { return clip }
        var reach = LottieRenderer.masksStartCovered(list) ? clip : .empty
        for mask in list where mask.mode == .add || mask.mode == .intersect {
            let support: PixelBox
            if !(unitClamped(mask.opacity.scalar(at: frame) / 100) > 0) {
                support = .empty
            } else if mask.inverted {
                support = clip
            } else {
                maskPath.removeAll(keepingCapacity: true)
                mask.path.append(at: frame, to: &maskPath, reversed: false, transform: .identity)
                if maskPath.isEmpty {
                    support = .empty
                } else {
                    let r = maskPath.controlPointBounds.boundingBox(through: matrix)
                    // One pixel more on each side, against rounding between these bounds and the rasterizer's.
                    support = r.minX.isFinite && r.minY.isFinite && r.maxX.isFinite && r.maxY.isFinite
                        ? PixelBox(covering: r).outset(by: 1).intersection(clip) : clip
                }
            }
            reach = mask.mode == .add ? reach.union(support) : reach.intersection(support)
        }
        return reach.intersection(clip)
    }

    /// Puts `source` (a layer's composited result) onto `canvas` with a separable blend mode, in premultiplied
    /// colour: co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs), αo = αs + αb − αs·αb (W3C Compositing and
    /// Blending, which lottie-web's renderers use), Cs and Cb being the colours before premultiplication.
    static func blend(_ source: Canvas, onto canvas: Canvas, _ mode: LottieLayer.BlendMode, opacity: Double,
                      in box: PixelBox) {
        let o = unitClamped(opacity)
        @inline(__always) func mix(_ cb: Double, _ cs: Double) -> Double {
            switch mode {
            case .multiply: return cb * cs
            case .screen: return cb + cs - cb * cs
            case .overlay: return cb <= 0.5 ? 2 * cb * cs : cs + (2 * cb - 1) - cs * (2 * cb - 1)
            case .darken: return Swift.min(cb, cs)
            case .lighten: return Swift.max(cb, cs)
            case .hardLight: return cs <= 0.5 ? 2 * cs * cb : cb + (2 * cs - 1) - cb * (2 * cs - 1)
            case .difference: return abs(cb - cs)
            case .exclusion: return cb + cs - 2 * cb * cs
            default: return cs
            }
        }
        let box = box.intersection(canvas.pixelBox)
        for y in box.minY..<box.maxY {
            for i in (y * canvas.width + box.minX)..<(y * canvas.width + box.maxX) {
                let s = source.pixels[i]
                guard s >> 24 != 0 else { continue }
                let b = canvas.pixels[i]
                let sa = Double(s >> 24) / 255 * o, ba = Double(b >> 24) / 255
                @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
                    let cs = Double((s >> shift) & 0xFF) / 255 * o, cb = Double((b >> shift) & 0xFF) / 255
                    var c = cs * (1 - ba) + cb * (1 - sa)
                    if sa > 0 && ba > 0 { c += sa * ba * mix(Swift.min(cb / ba, 1), Swift.min(cs / sa, 1)) }
                    return UInt32((unitClamped(c) * 255).rounded()) << shift
                }
                let alpha = UInt32((Swift.min(1, sa + ba - sa * ba) * 255).rounded()) << 24
                canvas.pixels[i] = alpha | channel(16) | channel(8) | channel(0)
            }
        }
    }

    /// Most parents followed up from a layer: real rigs are a few deep, and a chain that loops ends here.
    static let maxParentDepth = 64

    /// The layer's transform followed by its parents', all at the composition's `frame`; each parent's place in
    /// the list was found when the file was read.
    private func worldMatrix(_ layer: LottieLayer, in layers: [LottieLayer], frame: Double) -> AffineTransform {
        var m = layer.transform.matrix(at: frame)
        var parent = layer.parentPosition, steps = 0
        while let i = parent, steps < LottieRenderer.maxParentDepth, i < layers.count {
            let p = layers[i]
            m = m.concatenating(p.transform.matrix(at: frame))
            parent = p.parentPosition
            steps += 1
        }
        return m
    }

    /// Draws what the layer holds at the composition's `frame`: a precomposition's contents at its own time (the
    /// time remap's value, else the time since the layer's start over its stretch).
    private func drawContents(_ layer: LottieLayer, _ animation: LottieAnimation, frame: Double,
                              matrix: AffineTransform, into canvas: Canvas, depth: Int) {
        switch layer.kind {
        case .null: return
        case .solid(let color, let w, let h):
            rectPath.removeAll(keepingCapacity: true)
            rectPath.addRect(Rect(x: 0, y: 0, width: w, height: h))
            let drawn = rasterizer.fill(rectPath, transform: matrix, color: color, clip: clip.rect, into: canvas)
            touched = touched.union(drawn)
        case .precomp(let id, let w, let h):
            guard let layers = animation.precomps[id] else { return }
            var time = (frame - layer.startTime) / layer.stretch
            if let remap = layer.timeRemap {
                time = remap.scalar(at: frame) * animation.frameRate
                // lottie-web steps back a frame from a remapped time that lands on the layer's out point.
                if time == layer.outPoint { time = layer.outPoint - 1 }
            }
            guard w > 0, h > 0 else {
                return drawComposition(layers, animation, frame: time, transform: matrix, into: canvas,
                                       depth: depth + 1)
            }
            // A precomposition shows only what lies inside its own bounds, as in After Effects.
            let bounds = Rect(x: 0, y: 0, width: w, height: h)
            let region = PixelBox(covering: bounds.boundingBox(through: matrix)).outset(by: 1).intersection(clip)
            guard !region.isEmpty, let group = acquire(like: canvas, for: layer) else { return }
            let drawn = confined(to: region) {
                drawComposition(layers, animation, frame: time, transform: matrix, into: group, depth: depth + 1)
            }
            let box = drawn.intersection(region)
            if !box.isEmpty {
                // Pixels wholly inside the bounds keep all they have: an upright rectangle holding the box (and
                // within the rasterizer's reach, past which its coverage is none) clips nothing.
                let mapped = bounds.boundingBox(through: matrix), r = box.rect, limit = Rasterizer.maxCoordinate
                let inside = matrix.b == 0 && matrix.c == 0 && mapped.minX <= r.minX && mapped.minY <= r.minY
                    && mapped.maxX >= r.maxX && mapped.maxY >= r.maxY && mapped.minX >= -limit
                    && mapped.minY >= -limit && mapped.maxX <= limit && mapped.maxY <= limit
                if !inside { clip(group, to: bounds, matrix: matrix, in: box) }
                canvas.composite(group, in: box)
                touched = touched.union(box)
            }
            release(group, drawn: drawn)
        case .image(let id):
            guard let image = animation.images[id], let bitmap = image.bitmap else { return }
            // A picture of another shape than its box is cut to the box (exactly so unless the layer is turned).
            // Confined to the composition's box, not to the clip: where a row starts changes how the picture is
            // sampled along it.
            let box = PixelBox(covering: image.box(of: bitmap).boundingBox(through: matrix)).intersection(frameBox)
            canvas.draw(bitmap, transform: image.placement(of: bitmap).concatenating(matrix), clip: box)
            touched = touched.union(box)
        case .text(let text):
            drawText(text, frame: frame, matrix: matrix, into: canvas)
        case .shape(let items):
            scene.reset()
            scene.collect(items, frame: frame, matrix: matrix, opacity: 1)
            scene.applyTrims(frame: frame)
            drawPaints(frame: frame, into: canvas)
        }
    }

    // MARK: Text

    /// Draws a text layer's letters at `frame`: each glyph filled, and stroked in its own space (so that a scaled
    /// letter's stroke scales with it) under or over the fill as its document asks.
    private func drawText(_ text: LottieText, frame: Double, matrix: AffineTransform, into canvas: Canvas) {
        let layout = text.layout(at: frame)
        var scratch = TextFrame()
        swap(&scratch, &textFrame)
        defer { swap(&scratch, &textFrame) }
        text.letters(of: layout, at: frame, scratch: &scratch) { glyph, letter in
            let m = letter.matrix.concatenating(matrix), path = layout.glyphs[glyph]
            let opacity = unitClamped(letter.opacity)
            guard opacity > 0 else { return }
            func fill() {
                guard let color = letter.fill else { return }
                touched = touched.union(rasterizer.fill(path, transform: m, color: color.withAlphaMultiplied(by: opacity),
                                                        clip: clip.rect, into: canvas))
            }
            func stroke() {
                let scale = m.determinant.magnitude.squareRoot()
                guard let color = letter.stroke, letter.strokeWidth > 0, letter.strokeWidth.isFinite, scale > 0,
                      Rasterizer.canDraw(path, transform: m, margin: letter.strokeWidth * 4) else { return }
                let style = StrokeStyle(lineWidth: letter.strokeWidth, lineCap: .butt, lineJoin: .miter, miterLimit: 4)
                stroker.stroke(path, style: style, tolerance: Rasterizer.defaultTolerance / scale, into: &outline)
                touched = touched.union(rasterizer.fill(outline, transform: m, color: color.withAlphaMultiplied(by: opacity),
                                                        clip: clip.rect, into: canvas))
            }
            if layout.strokeOverFill {
                fill()
                stroke()
            } else {
                stroke()
                fill()
            }
        }
    }

    // MARK: Paints

    private func drawPaints(frame: Double, into canvas: Canvas) {
        var p = scene.paints.count
        while p > 0 {
            p -= 1
            let paint = scene.paints[p]
            combined.removeAll(keepingCapacity: true)
            for k in paint.shapes { combined.append(contentsOf: scene.shapes[k]) }
            guard !combined.isEmpty else { continue }
            switch paint.item {
            case .fill(let fill):
                let alpha = paint.opacity * unitClamped(fill.opacity.scalar(at: frame) / 100)
                draw(combined, transform: .identity, paint: fill.paint, rule: fill.rule, alpha: alpha,
                     group: paint.matrix, frame: frame, into: canvas)
            case .stroke(let stroke):
                let alpha = paint.opacity * unitClamped(stroke.opacity.scalar(at: frame) / 100)
                let width = stroke.width.scalar(at: frame)
                guard alpha > 0, width > 0, width.isFinite, let inverse = paint.matrix.inverted else { continue }
                var style = StrokeStyle(lineWidth: width, lineCap: stroke.cap, lineJoin: stroke.join,
                                        miterLimit: stroke.miterLimit)
                dashes.removeAll(keepingCapacity: true)
                for d in stroke.dashes { dashes.append(Swift.max(0, d.scalar(at: frame))) }
                if !dashes.isEmpty, dashes.contains(where: { $0 > 0 }), dashes.allSatisfy(\.isFinite) {
                    if dashes.count % 2 != 0 { for k in 0..<dashes.count { dashes.append(dashes[k]) } }
                    style.dashPattern = dashes
                    style.dashPhase = stroke.dashOffset?.scalar(at: frame) ?? 0
                }
                // Stroked in the paint's own space, so that a scaled group scales the width and the dashes too.
                local.removeAll(keepingCapacity: true)
                for e in combined.elements { local.append(LottieRenderer.map(e, inverse)) }
                let scale = paint.matrix.determinant.magnitude.squareRoot()
                guard scale > 0, Rasterizer.canDraw(local, transform: paint.matrix, margin: width * 4) else { continue }
                stroker.stroke(local, style: style, tolerance: Rasterizer.defaultTolerance / scale, into: &outline)
                style.dashPattern = []  // the pattern's buffer is the renderer's again
                draw(outline, transform: paint.matrix, paint: stroke.paint, rule: .nonZero, alpha: alpha,
                     group: paint.matrix, frame: frame, into: canvas)
            default: continue
            }
        }
    }

    /// An element mapped through `m`.
    static func map(_ e: Path.Element, _ m: AffineTransform) -> Path.Element {
        switch e {
        case .move(let p): return .move(m.apply(p))
        case .line(let p): return .line(m.apply(p))
        case .quad(let c, let p): return .quad(m.apply(c), m.apply(p))
        case .cubic(let c1, let c2, let p): return .cubic(m.apply(c1), m.apply(c2), m.apply(p))
        case .close: return .close
        }
    }

    /// Fills `path`, mapped through `transform` into pixels, with a paint.
    private func draw(_ path: Path, transform: AffineTransform, paint: Paint, rule: FillRule, alpha: Double,
                      group: AffineTransform, frame: Double, into canvas: Canvas) {
        guard alpha > 0 else { return }
        switch paint {
        case .color(let c):
            let drawn = rasterizer.fill(path, transform: transform,
                                        color: LottieRenderer.color(c.sample(at: frame)).withAlphaMultiplied(by: alpha),
                                        rule: rule, clip: clip.rect, into: canvas)
            touched = touched.union(drawn)
        case .gradient(let g):
            guard let inverse = group.inverted else { return }
            ramp.update(g, frame: frame, alpha: alpha)
            let start = g.start.sample(at: frame), end = g.end.sample(at: frame)
            let s = Point(start.at(0), start.at(1)), e = Point(end.at(0), end.at(1))
            // A radial gradient's highlight moves its focus from the centre toward the rim, as lottie-web draws it:
            // at `h` (−99…99 % of the radius) along the direction of the end point turned by `a` degrees; colours
            // then run from the focus (t = 0) to the circle (t = 1), a two-point conical gradient.
            let radius = (e - s).length
            var focus = s
            if g.isRadial, radius > 0 {
                let h = Swift.min(Swift.max(g.highlightLength.scalar(at: frame) / 100, -0.99), 0.99)
                let angle = atan2(e.y - s.y, e.x - s.x) + g.highlightAngle.scalar(at: frame) * .pi / 180
                if h.isFinite, angle.isFinite, h != 0 { focus = s + Point(cos(angle), sin(angle)) * (radius * h) }
            }
            let place = GradientPlacement(inverse: inverse, isRadial: g.isRadial, start: s, end: e, radius: radius,
                                          focus: focus)
            if transform != .identity {
                maskPath.removeAll(keepingCapacity: true)
                for element in path.elements { maskPath.append(LottieRenderer.map(element, transform)) }
            }
            shade(transform == .identity ? path : maskPath, rule: rule, place, into: canvas)
        }
    }

    /// Fills `path` (pixel coordinates) with a gradient's colour at each pixel's centre, within the clip.
    private func shade(_ path: Path, rule: FillRule, _ place: GradientPlacement, into canvas: Canvas) {
        // The mask covers the path's box whatever the clip, so that its coverage is the same either way.
        guard let box = pixelBox(of: path, in: canvas) else { return }
        let shown = box.intersection(clip)
        guard !shown.isEmpty,
              let mask = masks.fill(path, transform: AffineTransform(translationX: -Double(box.minX),
                                                                     y: -Double(box.minY)),
                                    rule: rule, width: box.width, height: box.height,
                                    window: shown.offsetBy(dx: -box.minX, dy: -box.minY)) else { return }
        if gradientRow.count < shown.width { gradientRow = [Int32](repeating: 0, count: shown.width) }
        ramp.withColors { colors in
            gradientRow.withUnsafeMutableBufferPointer { entries in
                let entry = entries.baseAddress!
                for y in shown.minY..<shown.maxY {
                    place.entries(y: y, from: shown.minX, count: shown.width, into: entry)
                    canvas.shade(row: y, from: shown.minX, count: shown.width, entries: entry, colors: colors,
                                 coverage: mask + ((y - box.minY) * box.width + (shown.minX - box.minX)))
                }
            }
        }
        touched = touched.union(shown)
    }

    private func pixelBox(of path: Path, in canvas: Canvas) -> PixelBox? {
        guard !path.isEmpty, Rasterizer.canDraw(path, transform: .identity) else { return nil }
        let b = PixelBox(covering: path.controlPointBounds).intersection(canvas.pixelBox)
        return b.isEmpty ? nil : b
    }

    /// A colour from Bodymovin's 0…1 components (or 0…255 in some older files).
    static func color(_ c: [Double]) -> Color { color(AnimatedSample(c)) }

    static func color(_ c: AnimatedSample) -> Color {
        let scale = c.at(0) > 1 || c.at(1) > 1 || c.at(2) > 1 ? 255.0 : 1
        func unit(_ v: Double) -> Double { v.isFinite ? Swift.min(Swift.max(v / scale, 0), 1) : 0 }
        let a = c.at(3, 1)
        return Color(red: unit(c.at(0)), green: unit(c.at(1)), blue: unit(c.at(2)),
                     alpha: a.isFinite ? Swift.min(Swift.max(a, 0), 1) : 1)
    }

    // MARK: Effects

    /// Applies a layer's effects in order to its pixels in `box` of `canvas`, and returns the pixels they may have
    /// changed (a blur, a shadow or a stroke reaches past `box`); docs/reference.md §8 gives each formula.
    private func applyEffects(of layer: LottieLayer, frame: Double, matrix: AffineTransform, to canvas: Canvas,
                              in box: PixelBox) -> PixelBox {
        let scale = matrix.determinant.magnitude.squareRoot()
        var box = box, masked = false
        for effect in layer.effects where !box.isEmpty || effect.drawsOnTransparent {
            switch effect {
            case .fill(let color, let opacity):
                let c = LottieRenderer.color(color.sample(at: frame))
                ColorEffects.fill(canvas, in: box, with: Color(red: c.red, green: c.green, blue: c.blue,
                                                               alpha: unitClamped(opacity.scalar(at: frame))))
            case .tint, .tritone:
                greyRamp.withUnsafeMutableBufferPointer { ramp in
                    guard let amount = effect.colorMap(at: frame, into: ramp.baseAddress!) else { return }
                    ColorEffects.mapGrey(canvas, in: box, ramp: ramp.baseAddress!, amount: unitClamped(amount))
                }
            case .gaussianBlur(let blurriness, let dimensions):
                let sigma = LayerEffect.sigma(blurriness.scalar(at: frame) * LayerEffect.blurrinessToSigma * scale)
                let d = dimensions.scalar(at: frame).rounded()
                box = box.outset(by: ShadowBlur.spread(sigma: sigma)).intersection(canvas.pixelBox)
                layerBlur.blur(canvas, in: box, sigmaX: d == 3 ? 0 : sigma, sigmaY: d == 2 ? 0 : sigma)
            case .dropShadow(let color, let opacity, let direction, let distance, let softness):
                let sigma = LayerEffect.sigma(softness.scalar(at: frame) * LayerEffect.softnessToSigma * scale)
                let c = LottieRenderer.color(color.sample(at: frame))
                let alpha = unitClamped(opacity.scalar(at: frame) / LayerEffect.shadowOpacityScale)
                // The direction is clockwise from up, in the layer's space, as After Effects measures it.
                let angle = direction.scalar(at: frame) * .pi / 180, d = distance.scalar(at: frame)
                let v = Point(sin(angle) * d, -cos(angle) * d)
                let offset = Point(matrix.a * v.x + matrix.c * v.y, matrix.b * v.x + matrix.d * v.y)
                guard alpha > 0, offset.x.isFinite, offset.y.isFinite else { continue }
                let limit = Double(canvas.width + canvas.height)
                let dx = Int(Swift.min(Swift.max(offset.x, -limit), limit).rounded())
                let dy = Int(Swift.min(Swift.max(offset.y, -limit), limit).rounded())
                let spread = ShadowBlur.spread(sigma: sigma)
                let shadow = box.outset(by: spread).offsetBy(dx: dx, dy: dy)
                let grown = box.union(shadow).intersection(canvas.pixelBox)
                shadowBlur.paint(alphaOf: canvas, in: box.outset(by: spread), sigma: sigma,
                                 color: Color(red: c.red, green: c.green, blue: c.blue, alpha: alpha), dx: dx, dy: dy,
                                 into: canvas, clip: grown, under: true)
                box = grown
            case .stroke(let stroke):
                // The masks the stroke follows mask the layer's own pixels first, as After Effects masks a layer
                // before its effects; the strokes are not masked.
                if !masked, !layer.masks.isEmpty, !box.isEmpty {
                    applyMasks(layer.masks, frame: frame, matrix: matrix, to: canvas, in: box)
                }
                masked = true
                box = drawStroke(stroke, along: layer.masks, frame: frame, matrix: matrix, on: canvas, in: box)
            case .levels(let levels):
                let composite = levels.composite.at(frame), red = levels.red.at(frame)
                let green = levels.green.at(frame), blue = levels.blue.at(frame), alpha = levels.alpha.at(frame)
                guard composite != .identity || red != .identity || green != .identity || blue != .identity
                    || alpha != .identity else { continue }
                levelTables.withUnsafeMutableBufferPointer { tables in
                    ColorEffects.levelTables(composite: composite, red: red, green: green, blue: blue, alpha: alpha,
                                             into: tables.baseAddress!)
                    ColorEffects.mapChannels(canvas, in: box, tables: tables.baseAddress!)
                }
            }
        }
        return box
    }

    /// Draws a Stroke effect onto a layer's pixels in `box` and returns the pixels it may have changed: the paths
    /// of the masks it names (all, or the one it picks) cut to its start and end, stroked with a round brush of its
    /// size in the layer's units and dabbed along them at its spacing, painted in its colour and opacity over the
    /// layer or on a transparent one, or revealing the layer through the strokes (docs/reference.md §8).
    private func drawStroke(_ effect: StrokeEffect, along list: [Mask], frame: Double, matrix: AffineTransform,
                            on canvas: Canvas, in box: PixelBox) -> PixelBox {
        // lottie-web draws nothing for a paint style it does not know (a file's NaN or huge value among them).
        let styleValue = effect.paintStyle.scalar(at: frame)
        guard styleValue >= 0.5, styleValue < 3.5,
              let style = StrokeEffect.PaintStyle(rawValue: Int(styleValue.rounded())) else { return box }
        var start = effect.start.scalar(at: frame) / 100, end = effect.end.scalar(at: frame) / 100
        start = start.isNaN ? 0 : Swift.min(Swift.max(start, 0), 1)
        end = end.isNaN ? 1 : Swift.min(Swift.max(end, 0), 1)
        if start > end { swap(&start, &end) }
        let all = effect.allMasks.scalar(at: frame) != 0, chosen = effect.mask.scalar(at: frame).rounded()
        local.removeAll(keepingCapacity: true)
        for (i, mask) in list.enumerated() where all || Double(i + 1) == chosen {
            maskPath.removeAll(keepingCapacity: true)
            mask.path.append(at: frame, to: &maskPath, reversed: false, transform: .identity)
            maskPath.trimmed(from: start, to: end, into: &strokePiece)
            local.append(contentsOf: strokePiece)
        }
        let radius = effect.brushSize.scalar(at: frame), opacity = unitClamped(effect.opacity.scalar(at: frame))
        let scale = matrix.determinant.magnitude.squareRoot()
        let drawn = !local.isEmpty && opacity > 0 && radius > 0 && radius.isFinite && scale > 0
            && Rasterizer.canDraw(local, transform: matrix, margin: 2 * radius)
        if drawn {
            var stroke = StrokeStyle(lineWidth: 2 * radius, lineCap: .round, lineJoin: .round)
            // lottie-web's dabs: dashes of one unit, `spacing` % of the brush's diameter apart, from one unit into
            // the pattern; round caps make each a dot. Dots that overlap so much that the line between them dips
            // by less than 1/32 pixel are drawn as the line itself.
            let gap = 2 * radius * effect.spacing.scalar(at: frame) / 100
            if gap > 0, gap.isFinite {
                let halfGap = Swift.min(gap / 2, radius)
                if (radius - (radius * radius - halfGap * halfGap).squareRoot()) * scale >= 1.0 / 32 {
                    dashes.removeAll(keepingCapacity: true)
                    dashes.append(1)
                    dashes.append(gap)
                    stroke.dashPattern = dashes
                    stroke.dashPhase = 1
                }
            }
            stroker.stroke(local, style: stroke, tolerance: Rasterizer.defaultTolerance / scale, into: &outline)
            stroke.dashPattern = []  // the pattern's buffer is the renderer's again
        }
        switch style {
        case .onOriginal, .onTransparent:
            if style == .onTransparent { canvas.clear(box) }
            guard drawn else { return style == .onTransparent ? .empty : box }
            let c = LottieRenderer.color(effect.color.sample(at: frame))
            let painted = rasterizer.fill(outline, transform: matrix,
                                          color: Color(red: c.red, green: c.green, blue: c.blue, alpha: opacity),
                                          clip: clip.rect, into: canvas)
            return style == .onTransparent ? painted : box.union(painted)
        case .revealOriginal:
            let coverage = drawn ? masks.fill(outline, transform: matrix, width: canvas.width, height: canvas.height,
                                              window: box) : nil
            canvas.multiply(byCoverage: coverage, opacity: opacity, in: box)
            return box
        }
    }

    // MARK: Masks and mattes

    /// Multiplies the pixels of `box` by the masks' combined coverage: starting from `masksStartCovered`, each
    /// mask in the file's order is combined into it (`combine`).
    ///
    /// Each mask's contribution depends only on its coverage byte, so it is worked out once per byte value into a
    /// table, with the arithmetic a pixel would get; one mask alone (most files) goes from byte to alpha directly.
    private func applyMasks(_ list: [Mask], frame: Double, matrix: AffineTransform, to canvas: Canvas,
                            in box: PixelBox) {
        let w = box.width, n = w * box.height, stride = canvas.width
        let initial: Float = LottieRenderer.masksStartCovered(list) ? 1 : 0
        var active = 0
        for mask in list where mask.mode != .none { active += 1 }
        if active > 1, coverage.count < n { coverage = [Float](repeating: 0, count: n) }
        coverage.withUnsafeMutableBufferPointer { acc in
            if active > 1 { acc.update(repeating: initial) }
            for mask in list where mask.mode != .none {
                let o = Float(unitClamped(mask.opacity.scalar(at: frame) / 100))
                maskPath.removeAll(keepingCapacity: true)
                mask.path.append(at: frame, to: &maskPath, reversed: false, transform: .identity)
                let bytes = maskPath.isEmpty ? nil
                    : masks.fill(maskPath, transform: matrix, width: canvas.width, height: canvas.height,
                                 window: box)
                maskTable.withUnsafeMutableBufferPointer { table in
                    for c in 0..<256 {
                        var m = Float(c) / 255
                        if mask.inverted { m = 1 - m }
                        table[c] = m * o
                    }
                }
                if active == 1 {
                    // The combined coverage is this mask's over the initial value: an alpha for each byte.
                    maskAlpha.withUnsafeMutableBufferPointer { alpha in
                        for c in 0..<256 {
                            let a = LottieRenderer.combine(initial, maskTable[c], mask.mode)
                            alpha[c] = UInt8(truncatingIfNeeded: LottieRenderer.rounded(a * 255))
                        }
                    }
                    maskAlpha.withUnsafeBufferPointer { alpha in
                        // Runs of eight bytes that keep their pixels whole (fully inside the mask) or clear them
                        // (fully outside) are taken at once; this is most of a mask.
                        let keep = alpha[255] == 255, drop = alpha[0] == 0
                        for y in box.minY..<box.maxY {
                            let row = canvas.pixels + (y * stride + box.minX)
                            guard let src = bytes.map({ $0 + (y * stride + box.minX) }) else {
                                let a = UInt32(alpha[0])
                                if a < 255 { for x in 0..<w { row[x] = a == 0 ? 0 : Pixel.scale(row[x], by: a) } }
                                continue
                            }
                            var x = 0
                            while x < w {
                                if x + 8 <= w {
                                    let eight = UnsafeRawPointer(src + x).loadUnaligned(as: UInt64.self)
                                    if eight == ~0 && keep { x += 8; continue }
                                    if eight == 0 && drop { (row + x).update(repeating: 0, count: 8); x += 8; continue }
                                }
                                let a = UInt32(alpha[Int(src[x])])
                                if a < 255 { row[x] = a == 0 ? 0 : Pixel.scale(row[x], by: a) }
                                x += 1
                            }
                        }
                    }
                    return
                }
                maskTable.withUnsafeBufferPointer { table in
                    for y in 0..<box.height {
                        let src = bytes.map { $0 + ((box.minY + y) * stride + box.minX) }
                        let line = acc.baseAddress! + y * w
                        for x in 0..<w {
                            line[x] = LottieRenderer.combine(line[x], table[Int(src?[x] ?? 0)], mask.mode)
                        }
                    }
                }
            }
            guard active > 1 else {
                // No mask counts: the initial value everywhere.
                if initial == 0 {
                    for y in box.minY..<box.maxY { (canvas.pixels + (y * stride + box.minX)).update(repeating: 0, count: w) }
                }
                return
            }
            for y in 0..<box.height {
                let row = canvas.pixels + ((box.minY + y) * stride + box.minX)
                for x in 0..<w {
                    let a = LottieRenderer.rounded(acc[y * w + x] * 255)
                    if a < 255 { row[x] = a == 0 ? 0 : Pixel.scale(row[x], by: a) }
                }
            }
        }
    }

    /// Whether a layer's combined mask coverage starts at 1 (the whole layer) rather than 0. Masks of mode none
    /// do not count; the first that does decides: one that adds starts from nothing, one that subtracts or
    /// intersects from the whole layer, so a first intersected mask keeps what lies inside it, as an added one
    /// would. With no mask that counts the layer is kept whole (docs/reference.md §8, lottie-web's `mask.js`).
    static func masksStartCovered(_ list: [Mask]) -> Bool {
        guard let first = list.first(where: { $0.mode != .none }) else { return true }
        return first.mode != .add
    }

    /// A mask's coverage `m` combined into the coverage so far, `acc`.
    @inline(__always)
    static func combine(_ acc: Float, _ m: Float, _ mode: Mask.Mode) -> Float {
        switch mode {
        case .add: return acc + m - acc * m
        case .subtract: return acc * (1 - m)
        case .intersect: return acc * m
        case .none: return acc
        }
    }

    /// `v.rounded()` (halves away from zero) for 0 ≤ v < 2³¹, without the library call it compiles to: the
    /// fraction `v − ⌊v⌋` is exact, so comparing it with a half rounds exactly as `roundf` does.
    @inline(__always)
    static func rounded(_ v: Float) -> UInt32 {
        let t = Int32(v)
        return UInt32(t) &+ (v - Float(t) >= 0.5 ? 1 : 0)
    }

    /// Keeps only what lies inside `rect` (mapped through `matrix`), with anti-aliased sides, in the pixels of
    /// `box`: a precomposition's bounds, as a single added mask would keep them.
    private func clip(_ canvas: Canvas, to rect: Rect, matrix: AffineTransform, in box: PixelBox) {
        maskPath.removeAll(keepingCapacity: true)
        maskPath.addRect(rect)
        canvas.multiply(byCoverage: masks.fill(maskPath, transform: matrix, width: canvas.width, height: canvas.height,
                                               window: box), in: box)
    }

    private func applyMatte(_ matte: Canvas, _ mode: LottieLayer.Matte, to canvas: Canvas, in box: PixelBox) {
        for y in box.minY..<box.maxY {
            for i in (y * canvas.width + box.minX)..<(y * canvas.width + box.maxX) {
                let p = matte.pixels[i]
                var a: UInt32
                switch mode {
                case .alpha, .alphaInverted: a = p >> 24
                case .luma, .lumaInverted:
                    // Luminance of the premultiplied colour: transparent counts as black, as After Effects has it.
                    let r = Double((p >> 16) & 0xFF), g = Double((p >> 8) & 0xFF), b = Double(p & 0xFF)
                    a = UInt32(Swift.min(255, (0.2125 * r + 0.7154 * g + 0.0721 * b).rounded()))
                }
                if mode == .alphaInverted || mode == .lumaInverted { a = 255 - a }
                if a < 255 { canvas.pixels[i] = a == 0 ? 0 : Pixel.scale(canvas.pixels[i], by: a) }
            }
        }
    }

    private func scale(_ canvas: Canvas, by opacity: Double, in box: PixelBox) {
        let a = UInt32((opacity * 255).rounded())
        for y in box.minY..<box.maxY {
            for i in (y * canvas.width + box.minX)..<(y * canvas.width + box.maxX) {
                canvas.pixels[i] = Pixel.scale(canvas.pixels[i], by: a)
            }
        }
    }
}

/// A gradient's colours at one frame, as 256 premultiplied pixels from its start to its end. The renderer keeps
/// one and updates it for each gradient paint: the table and the stop values keep their storage.
struct GradientRamp {
    private var table = [UInt32](repeating: 0, count: 256)
    private var values: [Double] = []

    init() {}

    init(_ g: Gradient, frame: Double, alpha: Double) {
        update(g, frame: frame, alpha: alpha)
    }

    mutating func update(_ g: Gradient, frame: Double, alpha: Double) {
        g.stops.value(at: frame, into: &values)
        let values = self.values
        let n = Swift.min(g.colorStopCount, values.count / 4)
        let alphaStart = 4 * n, alphaCount = Swift.max(0, (values.count - alphaStart) / 2)
        // Component `c` (0…2 a colour's, 3 the opacity) at `t`: linear between the stops around it, the first or
        // last stop's beyond them; stops are (position, components…) runs of `width` numbers from `start`.
        func sample(_ t: Double, start: Int, count: Int, width: Int, component c: Int, fallback: Double) -> Double {
            guard count > 0 else { return fallback }
            if t <= values[start] { return values[start + 1 + c] }
            for j in 1..<Swift.max(count, 1) where t <= values[start + j * width] {
                let t0 = values[start + (j - 1) * width], t1 = values[start + j * width]
                let a = values[start + (j - 1) * width + 1 + c], b = values[start + j * width + 1 + c]
                let f = t1 > t0 ? (t - t0) / (t1 - t0) : 1
                return a + (b - a) * f
            }
            return values[start + (count - 1) * width + 1 + c]
        }
        table.withUnsafeMutableBufferPointer { table in
            for i in 0..<256 {
                let t = Double(i) / 255
                var c = AnimatedSample()
                c.count = 4
                c.values = SIMD4(sample(t, start: 0, count: n, width: 4, component: 0, fallback: 0),
                                 sample(t, start: 0, count: n, width: 4, component: 1, fallback: 0),
                                 sample(t, start: 0, count: n, width: 4, component: 2, fallback: 0),
                                 sample(t, start: alphaStart, count: alphaCount, width: 2, component: 0, fallback: 1))
                table[i] = LottieRenderer.color(c).withAlphaMultiplied(by: alpha).premultipliedPixel
            }
        }
    }

    /// The 256 colours, for a `GradientPlacement`'s entries to index.
    func withColors(_ body: (UnsafePointer<UInt32>) -> Void) {
        table.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

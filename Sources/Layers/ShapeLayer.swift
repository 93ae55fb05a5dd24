import Geometry
import Motion
import Raster
import Colors

/// A layer that fills and strokes a path, as `CAShapeLayer`; the path is in the layer's coordinates.
///
/// The stroke's outline is cached with the inputs that made it (the path, the trim, the style and the flattening
/// tolerance), so a frame that changes none of them strokes nothing. When they change (a spinner's trim moving
/// every frame), the trim and the outline are built again into paths the layer keeps, so once those have grown
/// to the largest stroke seen, a frame allocates nothing. The tolerance is a tenth of a pixel rounded down to a
/// power of two in points, so that a scale animation re-strokes only when the scale doubles or halves.
open class ShapeLayer: Layer {
    public var path: Path?
    /// Core Animation's default fill is opaque black; nil fills nothing.
    public var fillColor: Color? = .black
    public var fillRule = FillRule.nonZero
    /// nil (the default) strokes nothing.
    public var strokeColor: Color?
    public var lineWidth = 1.0
    public var lineCap = LineCap.butt
    public var lineJoin = LineJoin.miter
    public var miterLimit = 10.0
    /// Lengths of dashes and gaps; empty draws a solid line.
    var lineDashPattern: [Double] = []
    var lineDashPhase = 0.0
    /// The fraction of the path's length where the stroke starts, 0…1.
    public var strokeStart = 0.0
    /// The fraction of the path's length where the stroke ends, 0…1.
    public var strokeEnd = 1.0

    /// The values a shape layer shows at one time, beyond a layer's.
    public struct ShapePresentation: Equatable {
        public var path: Path?
        public var fillColor: Color?
        public var strokeColor: Color?
        public var lineWidth: Double
        public var miterLimit: Double
        var lineDashPhase: Double
        public var strokeStart: Double
        public var strokeEnd: Double
    }

    /// The shape's presentation values at `time` (see `presentation(at:)`).
    public func shapePresentation(at time: Double) -> ShapePresentation {
        var s = ShapePresentation(path: path, fillColor: fillColor, strokeColor: strokeColor, lineWidth: lineWidth,
                                  miterLimit: miterLimit, lineDashPhase: lineDashPhase,
                                  strokeStart: strokeStart, strokeEnd: strokeEnd)
        let paths = animatedKeyPaths
        guard !paths.isDisjoint(with: [.path, .fillColor, .strokeColor, .lineWidth, .miterLimit, .lineDashPhase,
                                       .strokeStart, .strokeEnd]) else { return s }
        if paths.contains(.path) { s.path = animated(.path, "path", s.path ?? Path(), time) }
        s.fillColor = animatedColor(.fillColor, "fillColor", s.fillColor, time)
        s.strokeColor = animatedColor(.strokeColor, "strokeColor", s.strokeColor, time)
        s.lineWidth = animated(.lineWidth, "lineWidth", s.lineWidth, time)
        s.miterLimit = animated(.miterLimit, "miterLimit", s.miterLimit, time)
        s.lineDashPhase = animated(.lineDashPhase, "lineDashPhase", s.lineDashPhase, time)
        s.strokeStart = animated(.strokeStart, "strokeStart", s.strokeStart, time)
        s.strokeEnd = animated(.strokeEnd, "strokeEnd", s.strokeEnd, time)
        return s
    }

    /// The stroke style of these presentation values.
    func strokeStyle(_ s: ShapePresentation) -> StrokeStyle {
        StrokeStyle(lineWidth: s.lineWidth, lineCap: lineCap, lineJoin: lineJoin, miterLimit: s.miterLimit,
                    dashPattern: lineDashPattern, dashPhase: s.lineDashPhase)
    }

    /// The inputs of the cached stroke outline.
    private struct StrokeKey: Equatable {
        var path: Path
        var start: Double
        var end: Double
        var style: StrokeStyle
        var tolerance: Double
    }
    /// The inputs of the outline in `strokeOutline`, or nil before the first stroke.
    private var strokeKey: StrokeKey?
    /// The trimmed path and its stroke's outline, rebuilt in place: the layer holds their only references
    /// between frames, so emptying them keeps their buffers.
    private var trimmedPath = Path()
    private var outline = Path()
    private var outlineBounds = Rect.zero
    /// How many times the stroke outline was built: a frame that finds it cached adds nothing.
    private(set) var strokeBuildCount = 0

    /// The outline of the trimmed, dashed stroke of `path`, from the cache when its inputs are unchanged.
    func strokeOutline(_ path: Path, _ s: ShapePresentation, tolerance: Double, stroker: Stroker) -> (Path, Rect) {
        let key = StrokeKey(path: path, start: s.strokeStart, end: s.strokeEnd, style: strokeStyle(s),
                            tolerance: tolerance)
        if let cached = strokeKey, cached == key { return (outline, outlineBounds) }
        // Dropped first, so that the key holds no second reference to a path being rebuilt.
        strokeKey = nil
        path.trimmed(from: s.strokeStart, to: s.strokeEnd, into: &trimmedPath)
        if trimmedPath.isEmpty {
            outline.removeAll(keepingCapacity: true)
        } else {
            stroker.stroke(trimmedPath, style: key.style, tolerance: tolerance, into: &outline)
        }
        outlineBounds = outline.controlPointBounds
        strokeKey = key
        strokeBuildCount += 1
        return (outline, outlineBounds)
    }

    /// The flattening tolerance in points for a layer drawn at `pixelsPerPoint`: a tenth of a pixel, rounded down
    /// to a power of two so that small changes of scale keep the cache.
    static func tolerance(pixelsPerPoint: Double) -> Double {
        let ideal = Rasterizer.defaultTolerance / Swift.max(pixelsPerPoint, 1e-6)
        guard ideal.isFinite, ideal > 0 else { return Rasterizer.defaultTolerance }
        return Swift.max(Double(sign: .plus, exponent: ideal.exponent, significand: 1), 1e-6)
    }

    open override func draw(in context: LayerDrawingContext) {
        let s = shapePresentation(at: context.time)
        guard let path = s.path, !path.isEmpty else { return }
        if let fill = s.fillColor, fill.alpha > 0 {
            context.fill(path, color: fill, rule: fillRule)
        }
        if let stroke = s.strokeColor, stroke.alpha > 0, s.lineWidth > 0, s.strokeEnd > s.strokeStart {
            let tol = ShapeLayer.tolerance(pixelsPerPoint: context.pixelsPerPoint)
            let (outline, _) = strokeOutline(path, s, tolerance: tol, stroker: context.renderer.stroker)
            let m = context.transform
            if let recording = context.recording, lineDashPattern.isEmpty, Swift.abs(m.a - m.d) < 1e-9,
               Swift.abs(m.b + m.c) < 1e-9, m.determinant > 0 {
                // Recorded as the stroke it is, besides its outline.
                recording.add(outline, transform: m, color: context.paint(stroke), rule: .nonZero, clip: context.clip,
                              stroke: LayerRecording.Stroke(path: path, transform: m, style: strokeStyle(s),
                                                            start: s.strokeStart, end: s.strokeEnd))
                return
            }
            context.fill(outline, color: stroke, rule: .nonZero)
        }
    }

    open override func contentBounds(at time: Double) -> Rect? {
        let s = shapePresentation(at: time)
        guard let path = s.path, !path.isEmpty else { return nil }
        var box = BoxBuilder()
        if let fill = s.fillColor, fill.alpha > 0, let b = Optional(path.controlPointBounds) {
            box.add(b.origin)
            box.add(Point(b.maxX, b.maxY))
        }
        if let stroke = s.strokeColor, stroke.alpha > 0, s.lineWidth > 0 {
            // The farthest a stroke reaches from its path: a miter tip, a square cap's corner, or half the width.
            let h = s.lineWidth / 2
            var reach = h * 2.0.squareRoot()
            if lineJoin == .miter { reach = Swift.max(reach, h * Swift.max(s.miterLimit, 1)) }
            let b = path.controlPointBounds.insetBy(dx: -reach, dy: -reach)
            box.add(b.origin)
            box.add(Point(b.maxX, b.maxY))
        }
        return box.rect
    }

    open override var contentPrimitiveCount: Int {
        guard let path, !path.isEmpty else { return 0 }
        var n = 0
        if let fill = fillColor, fill.alpha > 0 { n += 1 }
        if let stroke = strokeColor, stroke.alpha > 0, lineWidth > 0 { n += 1 }
        // An animated colour may appear while the model has none.
        if animatedKeyPaths.contains(.fillColor) || animatedKeyPaths.contains(.strokeColor) { n = Swift.max(n, 2) }
        return n
    }
}

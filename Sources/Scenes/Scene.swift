import Geometry
import Raster
import Colors

/// A vector scene: a canvas size, a background and filled and stroked paths drawn in order.
///
/// Scenes are the common work that RefreshLab's rasterizer and reference renderers (cairo) both draw, so the two
/// can be compared on speed and on pixels; the file format is described beside the scenes in the test fixtures.
public struct Scene: Sendable {
    public var name: String
    public var width: Int
    public var height: Int
    /// What the canvas holds before the first item is drawn.
    public var background: Color
    public var items: [SceneItem]

    public init(name: String, width: Int, height: Int, background: Color = .clear, items: [SceneItem] = []) {
        self.name = name
        self.width = width
        self.height = height
        self.background = background
        self.items = items
    }

    /// A canvas of the scene's size, filled with its background.
    public func makeCanvas() -> Canvas {
        Canvas(width: width, height: height, fill: background)
    }

    /// Draws the whole scene: the canvas is first set to the background, then every item is drawn over it.
    ///
    /// Every path is flattened, stroked and rasterized afresh: nothing is kept from one render to the next, so a
    /// timed render measures the whole work.
    /// With a rasterizer of several threads, the scene is drawn as one batch of bands (`Rasterizer.beginBands`).
    public func render(into canvas: Canvas, rasterizer: Rasterizer) {
        rasterizer.beginBands()
        rasterizer.clear(canvas, to: background)
        for item in items { item.render(into: canvas, rasterizer: rasterizer) }
        rasterizer.drawBands()
    }
}

/// One path of a scene, filled, stroked or both (the fill first).
public struct SceneItem: Sendable {
    public var path: Path
    /// The fill colour before `opacity`, or nil for no fill.
    public var fill: Color?
    public var fillRule: FillRule
    /// The stroke colour before `opacity`, or nil for no stroke.
    public var stroke: Color?
    public var strokeStyle: StrokeStyle
    /// Maps the item's own coordinates (where the path is given and the stroke is made) to canvas pixels.
    public var transform: AffineTransform
    /// Multiplies the alpha of the fill and of the stroke.
    public var opacity: Double

    public init(path: Path, fill: Color? = nil, fillRule: FillRule = .nonZero, stroke: Color? = nil,
                strokeStyle: StrokeStyle = SceneItem.defaultStrokeStyle, transform: AffineTransform = .identity,
                opacity: Double = 1) {
        self.path = path
        self.fill = fill
        self.fillRule = fillRule
        self.stroke = stroke
        self.strokeStyle = strokeStyle
        self.transform = transform
        self.opacity = opacity
    }

    /// The scene format's stroke defaults, SVG's: width 1, butt caps, miter joins, miter limit 10.
    public static let defaultStrokeStyle = StrokeStyle(lineWidth: 1, lineCap: .butt, lineJoin: .miter, miterLimit: 10,
                                                       dashPattern: [], dashPhase: 0)

    /// The fill colour with the item's opacity applied, or nil when nothing would be drawn.
    public var effectiveFill: Color? {
        guard let fill, fill.alpha * opacity > 0 else { return nil }
        return fill.withAlphaMultiplied(by: opacity)
    }

    /// The stroke colour with the item's opacity applied, or nil when nothing would be drawn.
    public var effectiveStroke: Color? {
        guard let stroke, stroke.alpha * opacity > 0, strokeStyle.lineWidth > 0 else { return nil }
        return stroke.withAlphaMultiplied(by: opacity)
    }

    /// The stroker's tolerance in the item's own units, so that the outline is within
    /// `Rasterizer.defaultTolerance` pixels once the transform has scaled it (by √|det| on average).
    var strokeTolerance: Double {
        let scale = abs(transform.determinant).squareRoot()
        guard scale.isFinite, scale > SceneItem.minimumScale else { return Rasterizer.defaultTolerance }
        return Rasterizer.defaultTolerance / scale
    }

    /// Below this scale a transform squashes the item to nothing visible; the tolerance then stays in pixels.
    static let minimumScale = 1e-9

    public func render(into canvas: Canvas, rasterizer: Rasterizer) {
        if let color = effectiveFill {
            rasterizer.fill(path, transform: transform, color: color, rule: fillRule, clip: nil, into: canvas)
        }
        if let color = effectiveStroke {
            rasterizer.stroke(path, style: strokeStyle, transform: transform, tolerance: strokeTolerance, color: color,
                              into: canvas)
        }
    }
}

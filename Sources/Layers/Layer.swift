import Geometry
import Raster

/// A rectangle of content in a tree, as `CALayer`: a frame in its parent's coordinates, a background, children.
///
/// This first version draws background colours, with an optional corner radius, and its sublayers in order.
public class Layer {
    /// Position and size in the parent's coordinate space, in points.
    public var frame: Rect
    public var backgroundColor: Color?
    /// Radius of the rounded corners of the background, in points.
    public var cornerRadius: Double = 0
    public var isHidden = false
    public private(set) var sublayers: [Layer] = []
    public private(set) weak var superlayer: Layer?

    public init(frame: Rect = .zero) {
        self.frame = frame
    }

    public func addSublayer(_ layer: Layer) {
        layer.removeFromSuperlayer()
        sublayers.append(layer)
        layer.superlayer = self
    }

    public func removeFromSuperlayer() {
        superlayer?.sublayers.removeAll { $0 === self }
        superlayer = nil
    }

    /// The background's outline in the layer's own coordinates, made again only when its size or corners change,
    /// so that drawing an unchanged layer allocates nothing.
    private var backgroundPath: Path {
        if let cached = cachedBackground, cached.size == frame.size, cached.radius == cornerRadius {
            return cached.path
        }
        var path = Path()
        path.addRoundedRect(Rect(origin: .zero, size: frame.size), cornerRadius: cornerRadius)
        cachedBackground = (frame.size, cornerRadius, path)
        return path
    }

    private var cachedBackground: (size: Size, radius: Double, path: Path)?

    /// Draws the layer and its sublayers; `transform` maps the parent's points to canvas pixels.
    public func render(into canvas: Canvas, rasterizer: Rasterizer, transform: AffineTransform) {
        guard !isHidden else { return }
        let t = AffineTransform(translationX: frame.minX, y: frame.minY).concatenating(transform)
        if let backgroundColor {
            rasterizer.fill(backgroundPath, transform: t, color: backgroundColor, into: canvas)
        }
        for layer in sublayers {
            layer.render(into: canvas, rasterizer: rasterizer, transform: t)
        }
    }
}

import Colors
import Geometry
import Raster

/// What a layer tree draws at one time, as filled paths rather than pixels: the drawing an export writes (a Lottie
/// file of the header). Strokes come as the outlines the renderer fills, text as its glyphs' outlines, so that
/// whoever draws the paths draws what the renderer does.
public final class LayerRecording {
    /// One filled path, in the coordinates the recording was made in, with its colour (the layers' opacity
    /// multiplied in) and fill rule.
    public struct Shape: Equatable {
        public var path: Path
        public var color: Color
        public var rule: FillRule

        public init(path: Path, color: Color, rule: FillRule) {
            self.path = path
            self.color = color
            self.rule = rule
        }
    }

    public private(set) var shapes: [Shape] = []
    /// What the tree draws that a list of filled paths cannot hold (a shadow, a clip to a layer's bounds, an
    /// image), by name: an export refuses such a drawing rather than leave it out silently.
    public private(set) var unsupported: Set<String> = []

    /// The pixels per unit of the recording's coordinates the drawing is meant for: text is placed as the glyph
    /// cache places it at that scale.
    public let pixelScale: Double

    init(pixelScale: Double) {
        self.pixelScale = pixelScale
    }

    /// The clip of a recording: none.
    static let everywhere = Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9)

    func add(_ path: Path, transform: AffineTransform, color: Color, rule: FillRule) {
        guard !path.isEmpty, color.alpha > 0 else { return }
        shapes.append(Shape(path: path.applying(transform), color: color, rule: rule))
    }

    func refuse(_ feature: String) { unsupported.insert(feature) }
}

extension LayerRenderer {
    /// Records what `layer` draws at `time`, through `transform`, as filled paths (see `LayerRecording`), for a
    /// drawing at `pixelScale` pixels per unit. A layer's opacity multiplies into each of its paths' colours, as it
    /// does where they do not overlap.
    public func record(_ layer: Layer, at time: Double, transform: AffineTransform,
                       pixelScale: Double = 1) -> LayerRecording {
        let recording = LayerRecording(pixelScale: pixelScale)
        let canvas = Canvas(width: 1, height: 1)
        func walk(_ layer: Layer, parent: AffineTransform, opacity inherited: Double) {
            guard !layer.isHidden else { return }
            let p = layer.presentation(at: time)
            let alpha = p.opacity * inherited
            guard alpha >= LayerRenderer.minimumOpacity else { return }
            let m = p.transformToSuperlayer.concatenating(parent)
            if p.shadowOpacity > 0, let shadow = p.shadowColor, shadow.alpha > 0 { recording.refuse("shadows") }
            if layer.masksToBounds, !layer.sublayers.isEmpty { recording.refuse("layers clipped to their bounds") }
            let context = LayerDrawingContext(canvas: canvas, transform: m, opacity: alpha, clip: LayerRecording.everywhere,
                                              time: time, renderer: self, isMask: false, recording: recording)
            if let bg = p.backgroundColor, bg.alpha > 0 {
                context.fill(layer.backgroundPath(p.bounds, radius: p.cornerRadius), color: bg)
            }
            layer.draw(in: context)
            for sublayer in layer.sublayers { walk(sublayer, parent: m, opacity: alpha) }
            if p.borderWidth > 0, let border = p.borderColor, border.alpha > 0 {
                context.fill(layer.borderPath(p.bounds, radius: p.cornerRadius, width: p.borderWidth), color: border,
                             rule: FillRule.evenOdd)
            }
        }
        walk(layer, parent: transform, opacity: 1)
        return recording
    }
}

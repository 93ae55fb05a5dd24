#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import Colors
import Geometry
import Raster

/// What a layer tree draws at one time, as filled paths rather than pixels: the drawing an export writes (a Lottie
/// file of the header). Strokes come as the outlines the renderer fills, text as its glyphs' outlines, a circle's
/// shadow as a circle filled with a radial fade, so that whoever draws the paths draws what the renderer does.
public final class LayerRecording {
    /// One filled path, in the coordinates the recording was made in, with its colour (the layers' opacity
    /// multiplied in) and fill rule; cut to `clip` when it is not nil.
    public struct Shape: Equatable {
        public var path: Path
        public var color: Color
        public var rule: FillRule
        /// When not nil, the path is painted with `color` fading out from its centre rather than solid.
        public var fade: RadialFade?
        /// The rectangle the path is cut to (a layer clipping to its bounds, or the recording's own clip), when the
        /// path crosses its edge; nil when the path lies inside every clip.
        public var clip: Rect?
        /// When the path is the outline of a solid stroke, the stroke it outlines: a writer may write the stroke
        /// itself, far smaller than its outline frame by frame (a spinner's arc is a turning, trimmed circle).
        public var stroke: Stroke?

        public init(path: Path, color: Color, rule: FillRule, fade: RadialFade? = nil, clip: Rect? = nil,
                    stroke: Stroke? = nil) {
            self.path = path
            self.color = color
            self.rule = rule
            self.fade = fade
            self.clip = clip
            self.stroke = stroke
        }
    }

    /// A solid stroke: `path` (in its layer's coordinates, untrimmed) kept from `start` to `end` (fractions of its
    /// length), stroked with `style`, all mapped by `transform`, which only moves, turns and scales evenly.
    public struct Stroke: Equatable {
        public var path: Path
        public var transform: AffineTransform
        public var style: StrokeStyle
        public var start: Double
        public var end: Double
    }

    /// A paint whose alpha falls with the distance from `center`: `color.alpha` times the stops' alpha, linear
    /// between stops (offsets are fractions of `radius`) and the last stop's beyond.
    public struct RadialFade: Equatable {
        public var center: Point
        public var radius: Double
        public var stops: [(offset: Double, alpha: Double)]

        public static func == (a: RadialFade, b: RadialFade) -> Bool {
            a.center == b.center && a.radius == b.radius && a.stops.map(\.offset) == b.stops.map(\.offset)
                && a.stops.map(\.alpha) == b.stops.map(\.alpha)
        }
    }

    public private(set) var shapes: [Shape] = []
    /// What the tree draws that these shapes cannot hold (a shadow of anything but a circle, a clip to turned or
    /// rounded bounds, an image), by name: an export refuses such a drawing rather than leave it out silently.
    public private(set) var unsupported: Set<String> = []

    /// The pixels per unit of the recording's coordinates the drawing is meant for: text is placed as the glyph
    /// cache places it at that scale, a shadow's offset is rounded to its pixels.
    public let pixelScale: Double

    init(pixelScale: Double) {
        self.pixelScale = pixelScale
    }

    /// The clip of a recording: none.
    static let everywhere = Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9)

    func add(_ path: Path, transform: AffineTransform, color: Color, rule: FillRule, clip: Rect,
             fade: RadialFade? = nil, stroke: Stroke? = nil) {
        guard !path.isEmpty, color.alpha > 0 else { return }
        let placed = path.applying(transform)
        let bounds = placed.controlPointBounds
        var cut: Rect? = clip
        if clip == LayerRecording.everywhere || clip.contains(bounds) {
            cut = nil
        } else if clip.intersection(bounds).isEmpty {
            return
        }
        shapes.append(Shape(path: placed, color: color, rule: rule, fade: fade, clip: cut, stroke: stroke))
    }

    func refuse(_ feature: String) { unsupported.insert(feature) }

    // MARK: Shadows

    /// How many stops a circle's shadow takes: one at its centre, the rest over the blur's edge.
    static let shadowStops = 12

    /// Records the shadow the renderer draws of `path` (a layer's shadow path, mapped by `transform`): a circle's as
    /// a larger circle filled with the radial fade of a Gaussian blur of σ = `sigma` over it, moved by `offset`
    /// rounded to the recording's pixels as the renderer rounds it. Any other shape is refused.
    func addShadow(of path: Path, transform: AffineTransform, sigma: Double, offset: Size, color: Color, clip: Rect) {
        guard color.alpha > 0 else { return }
        guard let (center, radius) = LayerRecording.circle(path.applying(transform)) else {
            return refuse("shadows of shapes other than a circle")
        }
        let moved = center + Point((offset.width * pixelScale).rounded() / pixelScale,
                                   (offset.height * pixelScale).rounded() / pixelScale)
        let sigma = Swift.max(sigma, 0)
        let outer = radius + 3 * sigma + 0.5
        // A stop at the centre, the others evenly over the blurred edge, where the alpha changes.
        let from = Swift.max(0, radius - 3 * sigma - 0.5)
        var stops: [(offset: Double, alpha: Double)] = [(0, LayerRecording.blurredDisc(at: 0, radius: radius, sigma: sigma))]
        let n = LayerRecording.shadowStops - 1
        for k in 0..<n {
            let rho = from + (outer - from) * Double(k) / Double(n - 1)
            if rho <= 0 { continue }
            stops.append((rho / outer, LayerRecording.blurredDisc(at: rho, radius: radius, sigma: sigma)))
        }
        while stops.count < LayerRecording.shadowStops { stops.insert(stops[0], at: 0) }
        add(Path.ellipse(in: Rect(x: moved.x - outer, y: moved.y - outer, width: 2 * outer, height: 2 * outer)),
            transform: .identity, color: color, rule: .nonZero, clip: clip,
            fade: RadialFade(center: moved, radius: outer, stops: stops))
    }

    /// The centre and radius of `path` when it is a circle (its bounds square, its points on the circle they
    /// inscribe, within half a percent), else nil.
    static func circle(_ path: Path) -> (Point, Double)? {
        let b = path.controlPointBounds
        guard b.width > 0, Swift.abs(b.width - b.height) <= 1e-6 * b.width else { return nil }
        let center = Point(b.midX, b.midY), r = b.width / 2
        for element in path.elements {
            switch element {
            case .move(let p), .line(let p), .quad(_, let p), .cubic(_, _, let p):
                guard Swift.abs((p - center).length - r) <= 0.005 * r else { return nil }
            case .close: break
            }
        }
        return (center, r)
    }

    /// The alpha, `rho` from the centre, of a disc of `radius` (alpha 1) blurred by a Gaussian of σ = `sigma`: the
    /// integral over the disc's chords, each column's Gaussian weight times the fraction of its vertical Gaussian
    /// the chord holds, by Simpson's rule.
    static func blurredDisc(at rho: Double, radius: Double, sigma: Double) -> Double {
        guard sigma > 1e-3 else { return rho < radius ? 1 : rho == radius ? 0.5 : 0 }
        let steps = 400
        let h = 2 * radius / Double(steps)
        var sum = 0.0
        for i in 0...steps {
            let x = -radius + h * Double(i)
            let chord = (radius * radius - x * x).squareRoot()
            let u = (x - rho) / sigma
            let value = exp(-u * u / 2) * erf(chord / (sigma * 2.0.squareRoot()))
            sum += value * (i == 0 || i == steps ? 1 : i % 2 == 1 ? 4 : 2)
        }
        return Swift.min(1, sum * h / 3 / (sigma * (2 * Double.pi).squareRoot()))
    }
}

extension LayerRenderer {
    /// Records what `layer` draws at `time`, through `transform`, as filled paths (see `LayerRecording`), for a
    /// drawing at `pixelScale` pixels per unit, cut to `clip` (in the recording's coordinates). A layer's opacity
    /// multiplies into each of its paths' colours, as it does where they do not overlap.
    public func record(_ layer: Layer, at time: Double, transform: AffineTransform,
                       pixelScale: Double = 1, clip: Rect? = nil) -> LayerRecording {
        let recording = LayerRecording(pixelScale: pixelScale)
        let canvas = Canvas(width: 1, height: 1)
        func walk(_ layer: Layer, parent: AffineTransform, opacity inherited: Double, clip: Rect) {
            guard !layer.isHidden else { return }
            let p = layer.presentation(at: time)
            let alpha = p.opacity * inherited
            guard alpha >= LayerRenderer.minimumOpacity else { return }
            let m = p.transformToSuperlayer.concatenating(parent)
            if p.shadowOpacity > 0, let shadow = p.shadowColor, shadow.alpha > 0 {
                if let path = p.shadowPath {
                    let paint = shadow.withAlphaMultiplied(by: Swift.min(p.shadowOpacity, 1) * alpha)
                    recording.addShadow(of: path, transform: m, sigma: p.shadowRadius, offset: p.shadowOffset,
                                        color: paint, clip: clip)
                } else {
                    recording.refuse("shadows of shapes other than a circle")
                }
            }
            let context = LayerDrawingContext(canvas: canvas, transform: m, opacity: alpha, clip: clip,
                                              time: time, renderer: self, isMask: false, recording: recording)
            if let bg = p.backgroundColor, bg.alpha > 0 {
                context.fill(layer.backgroundPath(p.bounds, radius: p.cornerRadius), color: bg)
            }
            layer.draw(in: context)
            var inner = clip
            if layer.masksToBounds, !layer.sublayers.isEmpty {
                if m.b == 0 && m.c == 0 && p.cornerRadius <= 0 {
                    inner = p.bounds.boundingBox(through: m).intersection(clip)
                } else {
                    recording.refuse("layers clipped to turned or rounded bounds")
                }
            }
            for sublayer in layer.sublayers { walk(sublayer, parent: m, opacity: alpha, clip: inner) }
            if p.borderWidth > 0, let border = p.borderColor, border.alpha > 0 {
                context.fill(layer.borderPath(p.bounds, radius: p.cornerRadius, width: p.borderWidth), color: border,
                             rule: FillRule.evenOdd)
            }
        }
        walk(layer, parent: transform, opacity: 1, clip: clip ?? LayerRecording.everywhere)
        return recording
    }
}

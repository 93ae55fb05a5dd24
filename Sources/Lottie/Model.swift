#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import Raster
import Colors

/// A Bodymovin animation, parsed: what `LottieRenderer` draws at any frame.
public struct LottieAnimation: Sendable {
    /// The composition's size in its own units (After Effects pixels, drawn as points).
    public var width: Double
    public var height: Double
    public var frameRate: Double
    /// The first frame and the frame after the last, in the file's own frame numbers.
    public var inPoint: Double
    public var outPoint: Double
    var layers: [LottieLayer]
    /// Precompositions by their asset id.
    var precomps: [String: [LottieLayer]]
    /// Image assets by their id.
    var images: [String: LottieImage] = [:]
    var markers: [LottieMarker]
    /// What the file uses that is not drawn, one line naming the features and the layers concerned; nil when
    /// everything is supported.
    public var warning: String?
    /// The layers that take an offscreen canvas, outermost first, along the path of the layer tree that keeps most
    /// alive at once (`LottieWorkBound`): checked against the memory budget for the canvas of each frame.
    var offscreenChain: [String] = []
    /// The file's After Effects expressions, compiled; nil when it has none.
    var expressions: ExpressionEngine?

    public var size: Size { Size(width, height) }

    /// Warnings about expressions that failed while frames were drawn since the last call, each once: each such
    /// expression then gives its keyframed value.
    public func takeExpressionWarnings() -> [String] { expressions?.takeWarnings() ?? [] }

    /// The marker named `name`, if the file has one.
    public func marker(named name: String) -> LottieMarker? { markers.first { $0.name == name } }
}

/// A named span of frames, as After Effects' composition markers.
public struct LottieMarker: Sendable, Equatable {
    public var name: String
    public var start: Double
    public var duration: Double

    public init(name: String, start: Double, duration: Double) {
        self.name = name
        self.start = start
        self.duration = duration
    }
}

struct LottieLayer: Sendable {
    enum Kind: Sendable {
        case null
        case shape([ShapeItem])
        case solid(Color, width: Double, height: Double)
        /// A precomposition, clipped to its `width × height` when they are given.
        case precomp(id: String, width: Double, height: Double)
        /// An image asset, drawn over its box at the layer's origin.
        case image(id: String)
        /// Text, its first line's baseline at the layer's origin (or in its paragraph box).
        case text(LottieText)
    }

    /// After Effects' blend modes by their Bodymovin number (`bm`); the separable ones are drawn, as the W3C
    /// compositing specification (and so lottie-web's canvas and SVG renderers) defines them.
    enum BlendMode: Int, Sendable {
        case normal = 0, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, hardLight, softLight,
             difference, exclusion, hue, saturation, color, luminosity, add, hardMix

        /// Drawn as After Effects draws it; the others are drawn as `normal`, with a warning.
        var isSupported: Bool {
            switch self {
            case .normal, .multiply, .screen, .overlay, .darken, .lighten, .hardLight, .difference, .exclusion:
                return true
            default:
                return false
            }
        }
    }

    /// How a layer uses the matte layer drawn just before it (`tt`).
    enum Matte: Int, Sendable {
        case alpha = 1, alphaInverted, luma, lumaInverted
    }

    var name: String
    var index: Int?
    var parent: Int?
    var kind: Kind
    var transform: Transform
    var inPoint: Double
    var outPoint: Double
    var startTime: Double
    /// Time stretch: a layer at 2 plays at half speed.
    var stretch: Double
    /// Time remapping of a precomposition, in seconds of its own time.
    var timeRemap: Animated?
    var masks: [Mask]
    var matte: Matte?
    /// This layer only serves as the matte of the next one and is not drawn itself.
    var isMatteSource: Bool
    var hidden: Bool
    /// How the layer's composited result is put onto what lies below it.
    var blendMode: BlendMode = .normal
    /// Effects drawn on the layer's own pixels, in order, before its masks, matte and opacity.
    var effects: [LayerEffect] = []
    /// Whether a Stroke effect strokes the layer's masks: they then mask the layer's own pixels where the first
    /// Stroke is drawn, not its strokes (docs/reference.md §8).
    var masksStroked: Bool { effects.contains(where: \.drawsOnTransparent) }
    /// Where the parent (the first layer whose `index` is `parent`) sits in the same list, found once when the
    /// file is read so that drawing a frame follows parents without a table or a search.
    var parentPosition: Int? = nil
}

/// A layer's or a group's transform, each part animated.
struct Transform: Sendable {
    var anchor: Animated
    /// The position, or nil when x and y are separated into `positionX` and `positionY`.
    var position: Animated
    var positionX: Animated?
    var positionY: Animated?
    var scale: Animated
    var rotation: Animated
    var opacity: Animated
    var skew: Animated
    var skewAxis: Animated

    static let identity = Transform(
        anchor: .constant([0, 0]), position: .constant([0, 0]), positionX: nil, positionY: nil,
        scale: .constant([100, 100]), rotation: .constant([0]), opacity: .constant([100]), skew: .constant([0]),
        skewAxis: .constant([0]))

    /// The matrix at `frame`: anchor, then scale, skew, rotation and position, as After Effects applies them.
    func matrix(at frame: Double) -> AffineTransform {
        var p = position.sample(at: frame)
        if let positionX, let positionY {
            p.count = 2
            p.values.x = positionX.scalar(at: frame)
            p.values.y = positionY.scalar(at: frame)
        }
        return Transform.matrix(anchor: anchor.sample(at: frame), position: p, scale: scale.sample(at: frame),
                                rotation: rotation.scalar(at: frame), skew: skew.scalar(at: frame),
                                skewAxis: skewAxis.scalar(at: frame))
    }

    /// The matrix of a transform's values (angles in degrees, scale in %).
    static func matrix(anchor a: AnimatedSample, position p: AnimatedSample, scale s: AnimatedSample,
                       rotation: Double, skew sk: Double, skewAxis: Double) -> AffineTransform {
        let r = rotation * .pi / 180, sa = skewAxis * .pi / 180
        var m = AffineTransform(translationX: -a.at(0), y: -a.at(1))
            .concatenating(AffineTransform(scaleX: s.at(0, 100) / 100, y: s.at(1, 100) / 100))
        if sk != 0 {
            // A shear along the axis at `sa`: rotate the axis onto x, shear, rotate back.
            let t = Swift.min(Swift.max(-sk, -85), 85) * .pi / 180
            m = m.concatenating(AffineTransform(rotationAngle: sa))
                .concatenating(AffineTransform(a: 1, b: 0, c: tan(t), d: 1, tx: 0, ty: 0))
                .concatenating(AffineTransform(rotationAngle: -sa))
        }
        return m.concatenating(AffineTransform(rotationAngle: r))
            .concatenating(AffineTransform(translationX: p.at(0), y: p.at(1)))
    }
}

/// A mask on a layer: a path combined with the masks before it.
struct Mask: Sendable {
    enum Mode: String, Sendable {
        case add = "a", subtract = "s", intersect = "i", none = "n"
    }

    var mode: Mode
    var path: AnimatedShape
    var opacity: Animated
    var inverted: Bool
}

/// One item of a shape layer's contents, in the file's order (the first is drawn on top).
indirect enum ShapeItem: Sendable {
    case group([ShapeItem], Transform)
    case rectangle(position: Animated, size: Animated, roundness: Animated, reversed: Bool)
    case ellipse(position: Animated, size: Animated, reversed: Bool)
    case path(AnimatedShape, reversed: Bool)
    case star(Star)
    case fill(Fill)
    case stroke(Stroke)
    case trim(Trim)
    /// Rounds the sharp corners of the paths above it in its group by a radius (docs/reference.md §8).
    case roundCorners(radius: Animated)
    /// Copies of the items above it in its group.
    case repeater(Repeater)
    /// A group's own transform, which the parser moves onto its group.
    case transform(Transform)
}

/// Copies of the items above a repeater in its group, each moved one more step of `transform` than the one
/// before, as lottie-web draws them (docs/reference.md §8).
struct Repeater: Sendable {
    var copies: Animated
    /// Steps of the transform the first copy already has (fractions interpolate a step).
    var offset: Animated
    /// Whether each copy lies above the next (After Effects' "Above"), the first copy on top; else below.
    var above: Bool
    /// One step: anchor, position, scale and rotation (the rest of a transform is not used).
    var transform: Transform
    /// The first and the last copy's opacity, in %; the copies between are interpolated.
    var startOpacity: Animated
    var endOpacity: Animated

    /// The most copies drawn of one repeater: past it a file costs more than any header needs.
    static let maxCopies = 1000

    /// How many copies there are at `frame` (the count rounded up, as lottie-web does).
    func count(at frame: Double) -> Int {
        let c = copies.scalar(at: frame).rounded(.up)
        return c.isFinite ? Int(Swift.min(Swift.max(c, 0), Double(Repeater.maxCopies))) : 0
    }

    /// The repeater's values at one frame, read once for all its copies.
    struct Copies {
        let count: Int
        let above: Bool
        let offset: Double, anchor: (x: Double, y: Double), position: (x: Double, y: Double)
        let scale: (x: Double, y: Double), rotation: Double, startOpacity: Double, endOpacity: Double

        /// The matrix and opacity of copy `index`, counted from the top one.
        func copy(_ index: Int) -> (matrix: AffineTransform, opacity: Double) {
            // Copies are placed top first: "Above" gives the top one the fewest steps, "below" the most.
            let steps = above ? index : count - 1 - index
            let n = offset + Double(steps)
            let sx = Repeater.scale(scale.x, offset: offset, steps: steps)
            let sy = Repeater.scale(scale.y, offset: offset, steps: steps)
            let matrix = AffineTransform(translationX: -anchor.x, y: -anchor.y)
                .concatenating(AffineTransform(rotationAngle: rotation * n * .pi / 180))
                .concatenating(AffineTransform(scaleX: sx, y: sy))
                .concatenating(AffineTransform(translationX: anchor.x + position.x * n, y: anchor.y + position.y * n))
            let share = count > 1 ? Double(index) / Double(count - 1) : 0
            return (matrix, unitClamped((startOpacity + (endOpacity - startOpacity) * share) / 100))
        }
    }

    /// The copies at `frame`.
    func copies(at frame: Double) -> Copies {
        let offset = self.offset.scalar(at: frame)
        let a = transform.anchor.sample(at: frame), p = transform.position.sample(at: frame)
        let s = transform.scale.sample(at: frame)
        return Copies(count: count(at: frame), above: above, offset: offset.isFinite ? offset : 0,
                      anchor: (a.at(0), a.at(1)), position: (p.at(0), p.at(1)),
                      scale: (s.at(0, 100) / 100, s.at(1, 100) / 100), rotation: transform.rotation.scalar(at: frame),
                      startOpacity: startOpacity.scalar(at: frame), endOpacity: endOpacity.scalar(at: frame))
    }

    /// The scale after the offset's steps and `steps` whole ones: a whole step multiplies by `s`, a fraction f
    /// of one by s + (1 − s)(1 − f), and steps back divide.
    static func scale(_ s: Double, offset: Double, steps: Int) -> Double {
        let whole = offset.rounded(.towardZero), fraction = abs(offset - whole)
        var f = pow(s, whole + Double(steps))
        if fraction > 0 {
            let part = s + (1 - s) * (1 - fraction)
            f = offset > 0 ? f * part : f / part
        }
        return f.isFinite ? f : 0
    }
}

struct Star: Sendable {
    var isPolygon: Bool
    var position: Animated
    var points: Animated
    var rotation: Animated
    var outerRadius: Animated
    var innerRadius: Animated
    var outerRoundness: Animated
    var innerRoundness: Animated
    var reversed: Bool
}

/// A linear or radial gradient: colour stops then optional opacity stops, in Bodymovin's flat layout.
struct Gradient: Sendable {
    var isRadial: Bool
    var start: Animated
    var end: Animated
    var colorStopCount: Int
    var stops: Animated
    var highlightLength: Animated
    var highlightAngle: Animated
}

enum Paint: Sendable {
    case color(Animated)
    case gradient(Gradient)
}

struct Fill: Sendable {
    var paint: Paint
    var opacity: Animated
    var rule: FillRule
}

struct Stroke: Sendable {
    var paint: Paint
    var opacity: Animated
    var width: Animated
    var cap: LineCap
    var join: LineJoin
    var miterLimit: Double
    /// Dash and gap lengths in turn, then the offset last (nil when there is none).
    var dashes: [Animated]
    var dashOffset: Animated?
}

struct Trim: Sendable {
    var start: Animated
    var end: Animated
    var offset: Animated
    /// Individually: the paths are trimmed as one, one after another; otherwise each path is trimmed on its own.
    var individually: Bool
}

extension [Double] {
    /// The element at `i`, or `fallback` when the array is shorter.
    @inline(__always) func at(_ i: Int, _ fallback: Double = 0) -> Double { i < count ? self[i] : fallback }
}

/// `v` within 0…1, NaN counting as 0: an opacity or a fraction, which a file's infinite values can make NaN
/// (∞ − ∞ between two keyframes) where a plain clamp would pass the NaN on to an integer conversion.
@inline(__always) func unitClamped(_ v: Double) -> Double { v.isNaN ? 0 : Swift.min(Swift.max(v, 0), 1) }

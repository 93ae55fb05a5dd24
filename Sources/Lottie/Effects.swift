#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import Raster
import Colors

/// An After Effects effect that changes a layer's pixels, with its parameters (keyframed, or given by
/// expressions) in the order the file lists them; docs/reference.md §8 gives each one's layout and formula.
enum LayerEffect: Sendable {
    /// Fill (`ty` 21): the layer's alpha filled with one colour.
    case fill(color: Animated, opacity: Animated)
    /// Tint (`ty` 20): each pixel's grey level from "map black to" to "map white to", by an amount in %.
    case tint(black: Animated, white: Animated, amount: Animated)
    /// Tritone (`ty` 23): the grey level through shadows, midtones and highlights, mixed back by "blend with
    /// original" in %.
    case tritone(highlights: Animated, midtones: Animated, shadows: Animated, blend: Animated)
    /// Drop Shadow (`ty` 25): the layer's alpha blurred, moved and coloured, under the layer.
    case dropShadow(color: Animated, opacity: Animated, direction: Animated, distance: Animated, softness: Animated)
    /// Gaussian Blur (`ty` 29): blurriness, and which dimensions (1 both, 2 horizontal, 3 vertical).
    case gaussianBlur(blurriness: Animated, dimensions: Animated)
    /// Stroke (`ty` 22): the layer's masks stroked with a round brush, over the layer, alone, or revealing it.
    case stroke(StrokeEffect)
    /// Pro Levels (`ty` 24): each channel through its levels curve, then red, green and blue through the
    /// composite one.
    case levels(LevelsEffect)

    /// The Bodymovin types drawn: tint, fill, stroke, tritone, Pro Levels, drop shadow, Gaussian blur.
    static let drawnTypes: Set<Int> = [20, 21, 22, 23, 24, 25, 29]

    /// After Effects' blurriness to a Gaussian's standard deviation, in the layer's units: lottie-web's
    /// `kBlurrinessToSigma` and ThorVG's `BLUR_TO_SIGMA` (docs/reference.md §8).
    static let blurrinessToSigma = 0.25
    /// Drop Shadow's softness to a standard deviation: lottie-web's `stdDeviation` of softness / 4.
    static let softnessToSigma = 0.25
    /// Drop Shadow's opacity is kept in 0…255 by the exporter (lottie-web divides it by 255).
    static let shadowOpacityScale = 255.0

    /// A standard deviation in pixels within what the blurs draw (a file's NaN or huge value blurs nothing or
    /// the most).
    static func sigma(_ v: Double) -> Double { v.isNaN ? 0 : Swift.min(Swift.max(v, 0), ShadowBlur.maximumSigma) }

    /// The effect of Bodymovin type `type` from its parameters' values in the file's order; nil for a type not
    /// drawn, or a list too short for it.
    init?(type: Int, parameters p: [Animated]) {
        func at(_ i: Int) -> Animated? { i < p.count ? p[i] : nil }
        switch type {
        case 21:
            guard let color = at(2), let opacity = at(6) else { return nil }
            self = .fill(color: color, opacity: opacity)
        case 20:
            guard let black = at(0), let white = at(1), let amount = at(2) else { return nil }
            self = .tint(black: black, white: white, amount: amount)
        case 23:
            guard let h = at(0), let m = at(1), let s = at(2) else { return nil }
            self = .tritone(highlights: h, midtones: m, shadows: s, blend: at(3) ?? .constant([0]))
        case 25:
            guard let c = at(0), let o = at(1), let d = at(2), let r = at(3), let s = at(4) else { return nil }
            self = .dropShadow(color: c, opacity: o, direction: d, distance: r, softness: s)
        case 29:
            guard let b = at(0) else { return nil }
            self = .gaussianBlur(blurriness: b, dimensions: at(1) ?? .constant([1]))
        case 22:
            guard let mask = at(0), let all = at(1), let color = at(3), let size = at(4), let opacity = at(6),
                  let start = at(7), let end = at(8) else { return nil }
            self = .stroke(StrokeEffect(mask: mask, allMasks: all, color: color, brushSize: size, opacity: opacity,
                                        start: start, end: end, spacing: at(9) ?? .constant([0]),
                                        paintStyle: at(10) ?? .constant([1])))
        case 24:
            // Five values a channel, after the channel menu, the histogram and the group's start: the composite
            // from 3, red from 10, green from 17, blue from 24, alpha from 31 (each group closed by an entry).
            func curve(_ i: Int) -> LevelsCurve? {
                guard let a = at(i), let b = at(i + 1), let c = at(i + 2), let d = at(i + 3), let e = at(i + 4)
                else { return nil }
                return LevelsCurve(inputBlack: a, inputWhite: b, gamma: c, outputBlack: d, outputWhite: e)
            }
            guard let composite = curve(3) else { return nil }
            self = .levels(LevelsEffect(composite: composite, red: curve(10) ?? .identity,
                                        green: curve(17) ?? .identity, blue: curve(24) ?? .identity,
                                        alpha: curve(31) ?? .identity))
        default:
            return nil
        }
    }

    /// Whether the effect can draw where the layer drew nothing: a Stroke paints its masks' outlines.
    var drawsOnTransparent: Bool { if case .stroke = self { true } else { false } }

    /// How far, in pixels, the effect can move what the layer drew, under a layer matrix of scale `scale`: a blur's
    /// spread, a shadow's distance and spread.
    func reach(at frame: Double, scale: Double) -> Int {
        func px(_ v: Double) -> Int { v.isFinite ? Int(Swift.min(abs(v) * scale, 4096).rounded(.up)) : 0 }
        switch self {
        case .gaussianBlur(let b, _):
            return ShadowBlur.spread(sigma: LayerEffect.sigma(b.scalar(at: frame) * LayerEffect.blurrinessToSigma * scale))
        case .dropShadow(_, _, _, let distance, let softness):
            return ShadowBlur.spread(sigma: LayerEffect.sigma(softness.scalar(at: frame) * LayerEffect.softnessToSigma * scale))
                + px(distance.scalar(at: frame)) + 1
        default:
            return 0
        }
    }
}

/// The parameters of After Effects' Stroke effect that draw (docs/reference.md §8): the mask stroked (1 the first)
/// unless all are, the brush's colour, size (its radius, in the layer's units) and opacity (0…1), the part of each
/// path drawn (start and end, in %), the spacing of the brush's dabs (in % of its diameter) and the paint style.
struct StrokeEffect: Sendable {
    var mask: Animated, allMasks: Animated, color: Animated, brushSize: Animated, opacity: Animated
    var start: Animated, end: Animated, spacing: Animated, paintStyle: Animated

    /// Where the stroke is painted: over the layer, on a transparent layer, or as the layer seen through it.
    enum PaintStyle: Int {
        case onOriginal = 1, onTransparent = 2, revealOriginal = 3
    }
}

/// One channel's curve of the Pro Levels effect, its five values keyframed (0…1, gamma a ratio).
struct LevelsCurve: Sendable {
    var inputBlack: Animated, inputWhite: Animated, gamma: Animated, outputBlack: Animated, outputWhite: Animated

    static let identity = LevelsCurve(inputBlack: .constant([0]), inputWhite: .constant([1]), gamma: .constant([1]),
                                      outputBlack: .constant([0]), outputWhite: .constant([1]))

    func at(_ frame: Double) -> Levels {
        Levels(inputBlack: inputBlack.scalar(at: frame), inputWhite: inputWhite.scalar(at: frame),
               gamma: gamma.scalar(at: frame), outputBlack: outputBlack.scalar(at: frame),
               outputWhite: outputWhite.scalar(at: frame))
    }
}

/// The Pro Levels effect's curves: the composite one for red, green and blue, and one for each channel.
struct LevelsEffect: Sendable {
    var composite: LevelsCurve, red: LevelsCurve, green: LevelsCurve, blue: LevelsCurve, alpha: LevelsCurve
}

/// The straight-alpha 0xRRGGBB of a Bodymovin colour (0…1 components).
func rgb(_ c: AnimatedSample) -> UInt32 {
    let color = LottieRenderer.color(c)
    func level(_ v: Double) -> UInt32 { UInt32((v * 255).rounded()) }
    return level(color.red) << 16 | level(color.green) << 8 | level(color.blue)
}

/// Component `shift` of two 0xRRGGBB colours mixed, `t` of the way from `a` to `b`.
@inline(__always) func mixed(_ a: UInt32, _ b: UInt32, _ t: Double, _ shift: UInt32) -> UInt32 {
    let x = Double((a >> shift) & 0xFF), y = Double((b >> shift) & 0xFF)
    return UInt32((x + (y - x) * t).rounded()) << shift
}

extension LayerEffect {
    /// Fills `ramp` (256 entries, by grey level) with the colour map of a Tint or Tritone at `frame`, and gives the
    /// share of it mixed over the pixels' own colours; nil for the other effects.
    func colorMap(at frame: Double, into ramp: UnsafeMutablePointer<UInt32>) -> Double? {
        switch self {
        case .tint(let black, let white, let amount):
            let b = rgb(black.sample(at: frame)), w = rgb(white.sample(at: frame))
            for i in 0..<256 {
                let t = Double(i) / 255
                ramp[i] = mixed(b, w, t, 16) | mixed(b, w, t, 8) | mixed(b, w, t, 0)
            }
            return amount.scalar(at: frame) / 100
        case .tritone(let highlights, let midtones, let shadows, let blend):
            let h = rgb(highlights.sample(at: frame)), m = rgb(midtones.sample(at: frame))
            let s = rgb(shadows.sample(at: frame))
            // A table of three values, as an SVG component transfer reads it: shadows to midtones over the
            // lower half of the grey levels, midtones to highlights over the upper half.
            for i in 0..<256 {
                let g = Double(i) / 255
                let (a, b, t) = g < 0.5 ? (s, m, g * 2) : (m, h, g * 2 - 1)
                ramp[i] = mixed(a, b, t, 16) | mixed(a, b, t, 8) | mixed(a, b, t, 0)
            }
            return 1 - blend.scalar(at: frame) / 100
        default:
            return nil
        }
    }
}

import Raster
import UserFiles

extension ImageDifference {
    /// The colour that marks a differing pixel: a strong red, which the greyed reference never contains.
    static let markColor: (red: Int, green: Int, blue: Int) = (255, 0, 0)

    /// A picture of where two images differ, readable at a glance: the reference greyed and faded, so that it only
    /// shows where things are, and every differing pixel painted in `markColor`, the stronger the larger its
    /// largest channel difference. Differences above `threshold` (visible mistakes) are marked at least 70 %
    /// strong, those at or below it (anti-aliasing that differs) at most 60 %, so the two kinds stand apart.
    /// The image is opaque and the size of the two; nil when their sizes differ.
    public static func image(of rendering: Canvas, against reference: Canvas,
                             threshold: Int = ImageDifference.defaultThreshold) -> Canvas? {
        guard rendering.width == reference.width, rendering.height == reference.height else { return nil }
        let result = Canvas(width: reference.width, height: reference.height)
        for i in 0..<reference.pixelCount {
            let p = rendering.pixels[i], q = reference.pixels[i]
            let grey = Pixel.fadedGrey(q)
            let strength = p == q ? 0 : markStrength(Pixel.largestChannelDifference(p, q), threshold: threshold)
            result.pixels[i] = mark(grey: grey, strength: strength)
        }
        return result
    }

    /// How strongly a pixel whose channels differ by at most `difference` is marked, from 0 (not at all) to 1.
    /// Grows with the difference, and jumps at the threshold so that visible mistakes stand out.
    static func markStrength(_ difference: Int, threshold: Int = ImageDifference.defaultThreshold) -> Double {
        guard difference > 0 else { return 0 }
        let limit = Swift.max(threshold, 1)
        if difference <= limit {
            return 0.25 + 0.35 * Double(difference) / Double(limit)
        }
        let span = Swift.max(255 - limit, 1)
        return Swift.min(1, 0.7 + 0.3 * Double(difference - limit) / Double(span))
    }

    /// An opaque pixel: the grey with `markColor` laid over it at `strength`.
    static func mark(grey: Int, strength: Double) -> UInt32 {
        func blend(_ colour: Int) -> UInt32 {
            UInt32((Double(grey) + (Double(colour) - Double(grey)) * strength).rounded())
        }
        let (r, g, b) = markColor
        return 0xFF00_0000 | blend(r) << 16 | blend(g) << 8 | blend(b)
    }
}

/// The bounds within which a rendering passes for its reference. The standard bounds are those the scene
/// reference tests hold every scene to.
public struct ImageTolerance: Equatable, Sendable {
    /// The largest mean channel difference allowed.
    public var maxMeanDifference: Double
    /// The largest share of pixels, in percent, allowed to differ by more than the difference's threshold.
    public var maxPercentOverThreshold: Double

    /// Mean ≤ 0.6 and ≤ 0.2 % of pixels off by more than 32: anti-aliasing may differ, shapes may not.
    public static let standard = ImageTolerance(maxMeanDifference: 0.6, maxPercentOverThreshold: 0.2)

    public init(maxMeanDifference: Double, maxPercentOverThreshold: Double) {
        self.maxMeanDifference = maxMeanDifference
        self.maxPercentOverThreshold = maxPercentOverThreshold
    }

    /// True when the difference is within both bounds.
    public func accepts(_ difference: ImageDifference) -> Bool {
        excesses(difference).isEmpty
    }

    /// Each figure over its bound, said with its bound, e.g. `mean |Δ| 3.125 (allowed: 0.6)`; empty when the
    /// difference is within the tolerance.
    public func excesses(_ difference: ImageDifference) -> [String] {
        var found: [String] = []
        if difference.meanAbsoluteChannelDifference > maxMeanDifference {
            found.append("mean |Δ| \(ImageDifference.format(difference.meanAbsoluteChannelDifference, digits: 3)) "
                + "(allowed: \(ImageTolerance.text(maxMeanDifference)))")
        }
        if difference.percentOverThreshold > maxPercentOverThreshold {
            found.append("\(ImageDifference.format(difference.percentOverThreshold, digits: 3)) % of pixels off by "
                + "more than \(difference.threshold) (allowed: \(ImageTolerance.text(maxPercentOverThreshold)) %)")
        }
        return found
    }

    /// A bound as given, without trailing zeros: 0.6 rather than 0.600.
    static func text(_ value: Double) -> String {
        var s = ImageDifference.format(value, digits: 6)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }
}

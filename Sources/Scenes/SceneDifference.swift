import Raster

/// How far two images of the same size are apart, channel by channel on their stored (premultiplied) 8-bit values:
/// the figures the scene reference tests judge a renderer by.
public struct ImageDifference: Equatable, Sendable {
    /// A channel difference above this counts a pixel as visibly wrong rather than anti-aliased differently.
    public static let defaultThreshold = 32

    /// Mean of |a − b| over every channel (alpha, red, green, blue) of every pixel.
    var meanAbsoluteChannelDifference: Double
    /// The largest difference of any channel of any pixel.
    var maxChannelDifference: Int
    /// How many pixels have some channel differing by more than `threshold`.
    var pixelsOverThreshold: Int
    public var threshold: Int
    var pixelCount: Int

    /// The share of pixels over the threshold, in percent.
    var percentOverThreshold: Double {
        pixelCount == 0 ? 0 : 100 * Double(pixelsOverThreshold) / Double(pixelCount)
    }

    /// Compares two canvases; nil when their sizes differ.
    public init?(_ a: Canvas, _ b: Canvas, threshold: Int = ImageDifference.defaultThreshold) {
        guard a.width == b.width, a.height == b.height else { return nil }
        var sum = 0, maxDiff = 0, over = 0
        for i in 0..<a.pixelCount {
            let p = a.pixels[i], q = b.pixels[i]
            if p == q { continue }
            var pixelMax = 0
            for shift in stride(from: 0, through: 24, by: 8) {
                let d = abs(Int((p >> UInt32(shift)) & 0xFF) - Int((q >> UInt32(shift)) & 0xFF))
                sum += d
                pixelMax = Swift.max(pixelMax, d)
            }
            maxDiff = Swift.max(maxDiff, pixelMax)
            if pixelMax > threshold { over += 1 }
        }
        pixelCount = a.pixelCount
        meanAbsoluteChannelDifference = Double(sum) / Double(4 * a.pixelCount)
        maxChannelDifference = maxDiff
        pixelsOverThreshold = over
        self.threshold = threshold
    }

    /// The figures on one line, e.g. `mean |Δ| 0.123, 0.045 % of pixels off by more than 32, max 255`.
    public var summary: String {
        "mean |Δ| \(ImageDifference.format(meanAbsoluteChannelDifference, digits: 3)), "
            + "\(ImageDifference.format(percentOverThreshold, digits: 3)) % of pixels off by more than \(threshold), "
            + "max \(maxChannelDifference)"
    }

    /// A number with a fixed count of decimals (Lab has no Foundation formatting).
    static func format(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled.isFinite, scaled < 1e18 else { return String(value) }
        let whole = Int(scaled) / Int(scale), fraction = Int(scaled) % Int(scale)
        let fractionText = String(fraction)
        let padded = String(repeating: "0", count: digits - fractionText.count) + fractionText
        return (value < 0 && scaled > 0 ? "-" : "") + String(whole) + (digits > 0 ? "." + padded : "")
    }
}

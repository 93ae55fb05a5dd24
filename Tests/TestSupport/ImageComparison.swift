import Raster
import Testing

/// How far a rendering may stray from its reference, pixel by pixel, on the stored (premultiplied) 8-bit channels.
///
/// Every pixel of the compared region may differ by up to `level` in each channel. A few, at most `share` of the
/// region's pixels, may differ by more, up to `limit`; none may differ by more than `limit`. Nothing is averaged:
/// a change of a few levels over one small shape fails however large the region around it.
public struct PixelTolerance: Hashable, Sendable, CustomStringConvertible {
    /// The channel difference every pixel may have.
    public var level: Int
    /// The channel difference no pixel may exceed.
    public var limit: Int
    /// The share of the region's pixels (0…1) that may differ by more than `level`, up to `limit`.
    public var share: Double

    public init(level: Int, limit: Int, share: Double) {
        self.level = Swift.max(level, 0)
        self.limit = Swift.max(limit, self.level)
        self.share = Swift.min(Swift.max(share, 0), 1)
    }

    /// Pixel for pixel the same.
    public static let exact = PixelTolerance(level: 0, limit: 0, share: 0)

    /// The effects' golden images: within 2 levels per channel, at most one pixel in 2000 up to 8 levels (edges
    /// anti-aliased a little differently by another machine's floating point), none over 8. Rendering is
    /// deterministic, so on one machine the difference is 0; a reference value moved by a few levels over a shape
    /// fails.
    public static let golden = PixelTolerance(level: 2, limit: 8, share: 0.0005)

    /// How many pixels of a region of `pixelCount` may differ by more than `level`.
    public func allowedPixels(of pixelCount: Int) -> Int {
        level == limit ? 0 : Int((share * Double(pixelCount)).rounded(.down))
    }

    /// E.g. `within 2 levels, at most 0.05 % of pixels up to 8`.
    public var description: String {
        if self == .exact { return "exact" }
        if level == limit { return "within \(level) levels" }
        return "within \(level) levels, at most \(share * 100) % of pixels up to \(limit)"
    }
}

/// The largest difference of one 8-bit channel between two stored pixels (Raster's, for the tests' reading).
@inline(__always)
public func largestChannelDifference(_ a: UInt32, _ b: UInt32) -> Int { Pixel.largestChannelDifference(a, b) }

/// A stored pixel written out, e.g. `ARGB(255, 153, 153, 153)`.
public func describePixel(_ p: UInt32) -> String {
    "ARGB(\(p >> 24), \((p >> 16) & 0xFF), \((p >> 8) & 0xFF), \(p & 0xFF))"
}

/// How a rendering compares with its reference inside one region: how many pixels differ and by how much, where.
public struct ImageComparison: Sendable {
    /// The pixel that differs most (the first one in row order among equals), with both values.
    public struct Worst: Hashable, Sendable {
        public var x: Int
        public var y: Int
        public var actual: UInt32
        public var expected: UInt32
        public var difference: Int

        public init(x: Int, y: Int, actual: UInt32, expected: UInt32, difference: Int) {
            self.x = x
            self.y = y
            self.actual = actual
            self.expected = expected
            self.difference = difference
        }
    }

    /// The compared pixels: the region asked for, clipped to the images.
    public let region: PixelRegion
    public let tolerance: PixelTolerance
    /// Pixels with any channel difference at all.
    public private(set) var differingPixels = 0
    /// Pixels with a channel difference above `tolerance.level`.
    public private(set) var pixelsOverLevel = 0
    /// Pixels with a channel difference above `tolerance.limit`.
    public private(set) var pixelsOverLimit = 0
    /// The largest channel difference in the region.
    public private(set) var largestDifference = 0
    public private(set) var worst: Worst?
    /// The smallest region holding every pixel over `tolerance.level`; empty when there is none.
    public private(set) var regionOverLevel = PixelRegion(x: 0, y: 0, width: 0, height: 0)

    /// Compares `actual` with `expected` inside `region` (all of them when nil); nil when their sizes differ.
    public init?(_ actual: Canvas, _ expected: Canvas, in region: PixelRegion? = nil,
                 tolerance: PixelTolerance = .exact) {
        guard actual.width == expected.width, actual.height == expected.height else { return nil }
        self.region = (region ?? PixelRegion(actual)).clipped(to: actual)
        self.tolerance = tolerance
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in self.region.y..<self.region.maxY {
            let row = y * actual.width
            for x in self.region.x..<self.region.maxX {
                let a = actual.pixels[row + x], e = expected.pixels[row + x]
                if a == e { continue }
                differingPixels += 1
                let d = largestChannelDifference(a, e)
                if d > largestDifference {
                    largestDifference = d
                    worst = Worst(x: x, y: y, actual: a, expected: e, difference: d)
                }
                guard d > tolerance.level else { continue }
                pixelsOverLevel += 1
                if d > tolerance.limit { pixelsOverLimit += 1 }
                x0 = Swift.min(x0, x)
                x1 = Swift.max(x1, x)
                y0 = Swift.min(y0, y)
                y1 = Swift.max(y1, y)
            }
        }
        if x1 >= 0 { regionOverLevel = PixelRegion(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1) }
    }

    /// How many pixels may differ by more than `tolerance.level` in this region.
    public var allowedPixelsOverLevel: Int { tolerance.allowedPixels(of: region.pixelCount) }

    /// True when the rendering is within the tolerance.
    public var passes: Bool { pixelsOverLimit == 0 && pixelsOverLevel <= allowedPixelsOverLevel }

    /// What was found, on one line: where, how much, how many pixels. E.g.
    /// `1204 of 120000 pixels in x 0..<750, y 0..<160 (750×160 px) off by more than 2 levels (allowed: 60), 0 by
    /// more than 8 (allowed: none), all within x 344..<404, y 12..<58 (60×46 px); largest difference 4 levels at
    /// (371, 30): ARGB(255, 94, 200, 200), expected ARGB(255, 90, 200, 200)`.
    public var summary: String {
        var text = "\(pixelsOverLevel) of \(region.pixelCount) pixels in \(region) off by more than "
            + "\(tolerance.level) levels"
        if tolerance.level == tolerance.limit {
            text += " (allowed: none)"
        } else {
            text += " (allowed: \(allowedPixelsOverLevel)), \(pixelsOverLimit) by more than \(tolerance.limit)"
                + " (allowed: none)"
        }
        if !regionOverLevel.isEmpty { text += ", all within \(regionOverLevel)" }
        if let worst {
            text += "; largest difference \(worst.difference) levels at (\(worst.x), \(worst.y)): "
                + "\(describePixel(worst.actual)), expected \(describePixel(worst.expected))"
        } else {
            text += "; no pixel differs"
        }
        return text
    }
}

/// A picture of where two images of the same size differ, readable at a glance: the expected image greyed and
/// faded so that it only shows where things are, darker outside the compared region; pixels within the tolerance's
/// level but not equal in blue, those over the level in orange, those over the limit in red, the stronger the
/// larger the difference. Opaque, the size of the images; nil when their sizes differ.
public func differencePicture(_ actual: Canvas, _ expected: Canvas, in region: PixelRegion? = nil,
                              tolerance: PixelTolerance = .exact) -> Canvas? {
    guard actual.width == expected.width, actual.height == expected.height else { return nil }
    let compared = (region ?? PixelRegion(actual)).clipped(to: actual)
    let picture = Canvas(width: actual.width, height: actual.height)
    for y in 0..<actual.height {
        for x in 0..<actual.width {
            let i = y * actual.width + x
            let a = actual.pixels[i], e = expected.pixels[i]
            var grey = Double(Pixel.fadedGrey(e))
            if !compared.contains(x: x, y: y) { grey *= 0.8 }
            let d = a == e ? 0 : largestChannelDifference(a, e)
            let mark: (r: Double, g: Double, b: Double, strength: Double)
            if d == 0 {
                mark = (0, 0, 0, 0)
            } else if d <= tolerance.level {
                mark = (0, 90, 255, 0.35)
            } else if d <= tolerance.limit {
                let over = Double(d - tolerance.level) / Double(Swift.max(tolerance.limit - tolerance.level, 1))
                mark = (255, 150, 0, 0.5 + 0.3 * over)
            } else {
                let over = Double(d - tolerance.limit) / Double(Swift.max(255 - tolerance.limit, 1))
                mark = (255, 0, 0, Swift.min(1, 0.85 + 0.15 * over))
            }
            func blend(_ c: Double) -> UInt32 { UInt32((grey + (c - grey) * mark.strength).rounded()) }
            picture.pixels[i] = 0xFF00_0000 | blend(mark.r) << 16 | blend(mark.g) << 8 | blend(mark.b)
        }
    }
    return picture
}


/// Expects `actual` to match `expected` inside `region` within `tolerance`, and returns whether it does.
///
/// On a mismatch it records one issue that says where, how much and how many pixels, and writes the actual image
/// and a difference picture (`differencePicture`) into a fresh temporary directory, both named in the message.
@discardableResult
public func expectImage(_ actual: Canvas, matches expected: Canvas, in region: PixelRegion? = nil,
                        tolerance: PixelTolerance = .exact, named name: String,
                        sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    let comparison = ImageComparison(actual, expected, in: region, tolerance: tolerance)
    if let comparison, comparison.passes { return true }
    let stem = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
    let directory = temporaryDirectory("image-\(stem)")
    var message: String
    if let comparison {
        message = "\(name) differs from its reference (\(tolerance)): \(comparison.summary)."
    } else {
        message = "\(name) is \(actual.width)×\(actual.height) px, "
            + "its reference \(expected.width)×\(expected.height) px."
    }
    let actualPath = directory + "/\(stem)-actual.png"
    do {
        try PNG.write(actual, to: actualPath)
        message += " Actual image: \(actualPath)"
    } catch {
        message += " The actual image could not be written: \(error)"
    }
    if let picture = differencePicture(actual, expected, in: region, tolerance: tolerance) {
        let picturePath = directory + "/\(stem)-difference.png"
        do {
            try PNG.write(picture, to: picturePath)
            message += "; difference (orange over \(tolerance.level) levels, red over \(tolerance.limit)): "
                + picturePath
        } catch {
            message += "; the difference picture could not be written: \(error)"
        }
    }
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    return false
}

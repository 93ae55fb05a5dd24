import Geometry
import Raster

/// A rectangle of whole pixels: columns `x..<x + width`, rows `y..<y + height`.
public struct PixelRegion: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = Swift.max(width, 0)
        self.height = Swift.max(height, 0)
    }

    /// Every pixel of `canvas`.
    public init(_ canvas: Canvas) {
        self.init(x: 0, y: 0, width: canvas.width, height: canvas.height)
    }

    /// The pixels that `rect` (in pixels) touches: its edges rounded outward, so that a pixel it covers in part is in.
    /// Edges within a millionth of a pixel of a whole number are taken as that number, so that arithmetic noise
    /// (100.00000000000001) does not add a row.
    public init(covering rect: Rect) {
        func snapped(_ v: Double) -> Double {
            let r = v.rounded()
            return abs(v - r) < 1e-6 ? r : v
        }
        guard !rect.isEmpty, rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else {
            self.init(x: 0, y: 0, width: 0, height: 0)
            return
        }
        let x0 = Int(snapped(rect.minX).rounded(.down)), y0 = Int(snapped(rect.minY).rounded(.down))
        let x1 = Int(snapped(rect.maxX).rounded(.up)), y1 = Int(snapped(rect.maxY).rounded(.up))
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }
    public var pixelCount: Int { width * height }

    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < maxX && py >= y && py < maxY
    }

    /// The pixels in both regions; empty when they do not meet.
    public func intersection(_ other: PixelRegion) -> PixelRegion {
        let x0 = Swift.max(x, other.x), y0 = Swift.max(y, other.y)
        let x1 = Swift.min(maxX, other.maxX), y1 = Swift.min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return PixelRegion(x: 0, y: 0, width: 0, height: 0) }
        return PixelRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest region holding both; an empty region adds nothing.
    public func union(_ other: PixelRegion) -> PixelRegion {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = Swift.min(x, other.x), y0 = Swift.min(y, other.y)
        return PixelRegion(x: x0, y: y0, width: Swift.max(maxX, other.maxX) - x0,
                           height: Swift.max(maxY, other.maxY) - y0)
    }

    /// The part of this region inside `canvas`.
    public func clipped(to canvas: Canvas) -> PixelRegion {
        intersection(PixelRegion(canvas))
    }

    /// E.g. `x 320..<430, y 0..<96 (110×96 px)`.
    public var description: String {
        isEmpty ? "an empty region" : "x \(x)..<\(maxX), y \(y)..<\(maxY) (\(width)×\(height) px)"
    }
}

extension Canvas {
    /// The smallest region holding every pixel that is not exactly `background` (a stored premultiplied pixel);
    /// empty when there is none.
    public func region(differingFrom background: UInt32) -> PixelRegion {
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<height {
            let row = pixels + y * width
            for x in 0..<width where row[x] != background {
                x0 = Swift.min(x0, x)
                x1 = Swift.max(x1, x)
                y0 = Swift.min(y0, y)
                y1 = Swift.max(y1, y)
            }
        }
        guard x1 >= 0 else { return PixelRegion(x: 0, y: 0, width: 0, height: 0) }
        return PixelRegion(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }
}

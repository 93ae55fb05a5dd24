import Geometry
import Colors
import RasterKernels

/// A box of whole pixels, [minX, maxX) × [minY, maxY): the unit of the region operations below.
public struct PixelBox: Hashable, Sendable, CustomStringConvertible {
    public var minX: Int, minY: Int, maxX: Int, maxY: Int

    public init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }

    /// The whole pixels that `rect` touches (rounded outwards), or an empty box when it is empty or not finite.
    /// Coordinates are limited to ±2³⁰ so that a huge rectangle cannot overflow later arithmetic.
    public init(covering rect: Rect) {
        let limit = Double(1 << 30)
        let x0 = rect.minX, y0 = rect.minY, x1 = rect.maxX, y1 = rect.maxY
        guard x0 < x1, y0 < y1 else { self = .empty; return }
        func clamp(_ v: Double) -> Int { Int(Swift.min(Swift.max(v, -limit), limit)) }
        self.init(minX: clamp(x0.rounded(.down)), minY: clamp(y0.rounded(.down)),
                  maxX: clamp(x1.rounded(.up)), maxY: clamp(y1.rounded(.up)))
    }

    public static let empty = PixelBox(minX: 0, minY: 0, maxX: 0, maxY: 0)

    public var width: Int { Swift.max(0, maxX - minX) }
    public var height: Int { Swift.max(0, maxY - minY) }
    public var isEmpty: Bool { maxX <= minX || maxY <= minY }
    public var rect: Rect { Rect(x: Double(minX), y: Double(minY), width: Double(width), height: Double(height)) }

    public var description: String { "[\(minX), \(minY)) – (\(maxX), \(maxY))" }

    /// The overlap of two boxes; empty when they do not overlap.
    public func intersection(_ o: PixelBox) -> PixelBox {
        let b = PixelBox(minX: Swift.max(minX, o.minX), minY: Swift.max(minY, o.minY),
                         maxX: Swift.min(maxX, o.maxX), maxY: Swift.min(maxY, o.maxY))
        return b.isEmpty ? .empty : b
    }

    /// The smallest box holding both; an empty box adds nothing.
    public func union(_ o: PixelBox) -> PixelBox {
        if isEmpty { return o }
        if o.isEmpty { return self }
        return PixelBox(minX: Swift.min(minX, o.minX), minY: Swift.min(minY, o.minY),
                        maxX: Swift.max(maxX, o.maxX), maxY: Swift.max(maxY, o.maxY))
    }

    /// The box grown by `d` pixels on every side.
    public func outset(by d: Int) -> PixelBox {
        isEmpty ? self : PixelBox(minX: minX - d, minY: minY - d, maxX: maxX + d, maxY: maxY + d)
    }

    public func offsetBy(dx: Int, dy: Int) -> PixelBox {
        PixelBox(minX: minX + dx, minY: minY + dy, maxX: maxX + dx, maxY: maxY + dy)
    }
}

extension Canvas {
    /// All of the canvas, as a pixel box.
    public var pixelBox: PixelBox { PixelBox(minX: 0, minY: 0, maxX: width, maxY: height) }

    /// Sets the pixels of `box` (cut to the canvas) to `color`, leaving the others alone.
    public func clear(_ box: PixelBox, to color: Color = .clear) {
        let b = box.intersection(pixelBox)
        guard !b.isEmpty else { return }
        let value = color.premultipliedPixel, n = b.width
        for y in b.minY..<b.maxY {
            (pixels + (y &* width &+ b.minX)).update(repeating: value, count: n)
        }
    }

    /// Draws the pixels of `source` inside `box` over the same pixels of this canvas (source-over), each scaled by
    /// `opacity` first: how a layer flattened offscreen is put down with its group opacity. Both canvases must
    /// have the same size; the box is cut to them.
    public func composite(_ source: Canvas, in box: PixelBox, opacity: Double = 1) {
        guard source.width == width, source.height == height else { return }
        let b = box.intersection(pixelBox)
        let o = opacity.isNaN ? 0 : Swift.min(Swift.max(opacity, 0), 1)
        let alpha = UInt32((o * 255).rounded())
        guard !b.isEmpty, alpha > 0 else { return }
        // Eight pixels at a time on the CPU's fill path, each as Pixel.scale and Pixel.sourceOver give it.
        let pipeline = FillPath.best.pipeline
        for y in b.minY..<b.maxY {
            pipeline.compositeRow(source.pixels + (y &* width &+ b.minX), onto: pixels + (y &* width &+ b.minX),
                                  count: b.width, alpha: alpha)
        }
    }

    /// Puts colours from `colors` (premultiplied), the one `entries[i]` names for each pixel, at the coverages in
    /// `coverage`, source-over `count` pixels of row `y` from column `x0`: a gradient's colours under its shape.
    /// The row must lie on the canvas and every entry within the table.
    public func shade(row y: Int, from x0: Int, count: Int, entries: UnsafePointer<Int32>,
                      colors: UnsafePointer<UInt32>, coverage: UnsafePointer<UInt8>) {
        precondition(y >= 0 && y < height && x0 >= 0 && count >= 0 && x0 + count <= width, "row outside the canvas")
        FillPath.best.pipeline.shadeRow(entries: entries, colors: colors, coverage: coverage,
                                        onto: pixels + (y &* width &+ x0), count: count)
    }

    /// Multiplies every pixel of `box` by its byte of `coverage` (one a pixel of the canvas, row after row; nil
    /// is none anywhere) times `opacity`: what is left is this canvas seen through a coverage mask's shape.
    public func multiply(byCoverage coverage: UnsafePointer<UInt8>?, opacity: Double = 1, in box: PixelBox) {
        let b = box.intersection(pixelBox)
        let o = opacity.isNaN ? 0 : Swift.min(Swift.max(opacity, 0), 1)
        guard !b.isEmpty else { return }
        let whole = o >= 1
        for y in b.minY..<b.maxY {
            let row = pixels + (y &* width &+ b.minX)
            guard let c = coverage.map({ $0 + (y &* width &+ b.minX) }), o > 0 else {
                row.update(repeating: 0, count: b.width)
                continue
            }
            for x in 0..<b.width {
                let a = whole ? UInt32(c[x]) : UInt32((Double(c[x]) * o).rounded())
                if a < 255 { row[x] = a == 0 ? 0 : Pixel.scale(row[x], by: a) }
            }
        }
    }

    /// Multiplies every pixel of `box` by the alpha of the same pixel of `mask` (destination-in): what is left is
    /// this canvas's content seen through the mask's shape. The canvases must have the same size.
    public func multiply(byAlphaOf mask: Canvas, in box: PixelBox) {
        guard mask.width == width, mask.height == height else { return }
        let b = box.intersection(pixelBox)
        guard !b.isEmpty else { return }
        let n = b.width
        for y in b.minY..<b.maxY {
            let m = mask.pixels + (y &* width &+ b.minX), d = pixels + (y &* width &+ b.minX)
            var i = 0
            while i < n {
                let a = m[i] >> 24
                if a != 255 { d[i] = a == 0 ? 0 : Pixel.scale(d[i], by: a) }
                i &+= 1
            }
        }
    }
}

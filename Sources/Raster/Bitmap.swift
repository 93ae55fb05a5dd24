import Colors
import Geometry
import RasterKernels

/// An immutable picture of premultiplied `0xAARRGGBB` pixels, row after row: a decoded image, as against the
/// `Canvas` that is drawn into. A value, so decoded frames can be shared between threads and effects.
public struct Bitmap: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt32]

    /// A bitmap of `width × height` pixels; nil when the sizes are not positive or `pixels` has another count.
    public init?(width: Int, height: Int, pixels: [UInt32]) {
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height).partialValue == pixels.count,
              !width.multipliedReportingOverflow(by: height).overflow else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A copy of what `canvas` holds now.
    public init(_ canvas: Canvas) {
        width = canvas.width
        height = canvas.height
        pixels = Array(UnsafeBufferPointer(start: canvas.pixels, count: canvas.pixelCount))
    }

    /// The premultiplied pixel at (x, y).
    public subscript(x: Int, y: Int) -> UInt32 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside the bitmap")
        return pixels[y * width + x]
    }

    /// The colour at (x, y), un-premultiplied.
    public func color(atX x: Int, y: Int) -> Color { Pixel.unpremultiply(self[x, y]) }

    public var size: Size { Size(Double(width), Double(height)) }
}

extension Canvas {
    /// Draws `image` through `transform` (the image's pixel coordinates to this canvas's) over what is there
    /// (source-over), each pixel scaled by `opacity`, touching only pixels inside `clip`.
    ///
    /// Each covered pixel's centre is mapped back into the image and the four nearest image pixels are mixed
    /// (bilinear filtering), the image's outermost pixels standing for those beyond its edges. The edges are then
    /// anti-aliased as a shape's are, by how far the pixel's centre lies inside them, in canvas pixels: a
    /// magnified image keeps sharp edges, as Core Animation and a browser's canvas draw one, and an unscaled image
    /// at whole-pixel offsets is copied exactly. Mixing premultiplied values keeps colours from bleeding out of
    /// transparent pixels. `alphaOnly` draws black with the image's alpha (a shadow's shape).
    public func draw(_ image: Bitmap, transform: AffineTransform, opacity: Double = 1, clip: PixelBox,
                     alphaOnly: Bool = false) {
        guard let inverse = transform.inverted else { return }
        let o = opacity.isNaN ? 0 : Swift.min(Swift.max(opacity, 0), 1)
        let alpha = UInt32((o * 255).rounded())
        guard alpha > 0 else { return }
        // The image's bounds on the canvas, without allocating: a steady frame allocates nothing.
        let w = image.width, h = image.height
        let c0 = transform.apply(Point(0, 0)), c1 = transform.apply(Point(Double(w), 0))
        let c2 = transform.apply(Point(0, Double(h))), c3 = transform.apply(Point(Double(w), Double(h)))
        let minX = Swift.min(c0.x, c1.x, c2.x, c3.x), maxX = Swift.max(c0.x, c1.x, c2.x, c3.x)
        let minY = Swift.min(c0.y, c1.y, c2.y, c3.y), maxY = Swift.max(c0.y, c1.y, c2.y, c3.y)
        let covered = Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        let box = PixelBox(covering: covered).outset(by: 1).intersection(clip).intersection(pixelBox)
        guard !box.isEmpty else { return }
        // An image unit along each of its axes, in canvas pixels over image units: how far inside an edge a pixel
        // centre lies, in canvas pixels, is the distance in the image over these.
        let uStep = (inverse.a * inverse.a + inverse.c * inverse.c).squareRoot()
        let vStep = (inverse.b * inverse.b + inverse.d * inverse.d).squareRoot()
        guard uStep > 0, vStep > 0 else { return }
        image.pixels.withUnsafeBufferPointer { src in
            // One texel, the nearest edge texel outside the image.
            @inline(__always) func texel(_ x: Int, _ y: Int) -> UInt32 {
                src[Swift.min(Swift.max(y, 0), h &- 1) &* w &+ Swift.min(Swift.max(x, 0), w &- 1)]
            }
            for y in box.minY..<box.maxY {
                let row = pixels + y &* width
                // The image position of the row's first pixel centre, then one step along the row per pixel:
                // an addition instead of a full transform for each pixel.
                let start = inverse.apply(Point(Double(box.minX) + 0.5, Double(y) + 0.5))
                var u = start.x - 0.5, v = start.y - 0.5
                for x in box.minX..<box.maxX {
                    defer { u += inverse.a; v += inverse.b }
                    // The centre's depth inside the nearer edge of each axis, in canvas pixels; half a pixel or
                    // more is covered whole.
                    let inU = Swift.min(u + 0.5, Double(w) - 0.5 - u) / uStep
                    let inV = Swift.min(v + 0.5, Double(h) - 0.5 - v) / vStep
                    guard inU > -0.5, inV > -0.5 else { continue }
                    let edge = inU < 0.5 || inV < 0.5
                        ? UInt32((Swift.min(inU + 0.5, 1) * Swift.min(inV + 0.5, 1) * 255).rounded()) : 255
                    let x0 = Canvas.floor(u), y0 = Canvas.floor(v)
                    // Weights in 1/256, rounded half up by truncation (they are never negative): exact for
                    // whole-pixel positions.
                    let wx = UInt32((u - Double(x0)) * 256 + 0.5), wy = UInt32((v - Double(y0)) * 256 + 0.5)
                    var s: UInt32
                    if x0 >= 0 && x0 &+ 1 < w && y0 >= 0 && y0 &+ 1 < h {
                        // Inside: the four texels without edge checks.
                        let i = y0 &* w &+ x0
                        s = Canvas.mix(Canvas.mix(src[i], src[i &+ 1], wx), Canvas.mix(src[i &+ w], src[i &+ w &+ 1], wx), wy)
                    } else {
                        s = Canvas.mix(Canvas.mix(texel(x0, y0), texel(x0 &+ 1, y0), wx),
                                       Canvas.mix(texel(x0, y0 &+ 1), texel(x0 &+ 1, y0 &+ 1), wx), wy)
                    }
                    if alphaOnly { s &= 0xFF00_0000 }
                    if edge != 255 { s = Pixel.scale(s, by: edge) }
                    if alpha != 255 { s = Pixel.scale(s, by: alpha) }
                    guard s != 0 else { continue }
                    row[x] = s >> 24 == 255 ? s : Pixel.sourceOver(s, row[x])
                }
            }
        }
    }

    /// `a` and `b` mixed channel by channel, `t`/256 of the way to `b` (t from 0 to 256), with the shortcuts a
    /// bitmap's pixels often take.
    @inline(__always)
    static func mix(_ a: UInt32, _ b: UInt32, _ t: UInt32) -> UInt32 {
        if t == 0 || a == b { return a }
        if t >= 256 { return b }
        return PixelRows.mix(a, b, weight: t)
    }

    /// The largest whole number at most `x` (finite, well inside `Int`'s range), by truncation: `rounded(.down)`
    /// is a call into the C library on the base x86-64 level, once per pixel here.
    @inline(__always)
    static func floor(_ x: Double) -> Int {
        let t = Int(x)
        return Double(t) > x ? t &- 1 : t
    }
}

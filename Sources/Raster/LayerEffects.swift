#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Colors

/// The pixel work of After Effects' layer effects as lottie-web draws them (docs/reference.md §8): colour maps
/// through a pixel's grey level (Tint, Tritone) or channel by channel (Pro Levels), a flat colour through the
/// layer's alpha (Fill), and a Gaussian blur of all four channels (Gaussian Blur; Drop Shadow blurs the alpha
/// alone, through `ShadowBlur`; Stroke is drawn by the rasterizer and seen through with `Canvas.multiply`). Each works
/// in place on the pixels of a box of a canvas; the blur keeps its buffers between calls, so a steady frame
/// allocates nothing.
public enum ColorEffects {
    /// The grey level (0…255) of a straight-alpha colour as Tint and Tritone take it: its luminance by the
    /// Rec. 709 weights on the sRGB components, as ThorVG takes it (lottie-web averages the components in linear
    /// light instead; docs/reference.md §8 says why this one is followed).
    @inline(__always)
    public static func grey(red r: UInt8, green g: UInt8, blue b: UInt8) -> UInt8 {
        let red: Float = 0.2126 * Float(r), green: Float = 0.7152 * Float(g), blue: Float = 0.0722 * Float(b)
        return UInt8(Swift.min(red + green + blue + 0.5, 255))
    }

    /// Replaces the colour of each pixel of `box` by `ramp[grey]` (straight-alpha 0xRRGGBB, indexed by the pixel's
    /// `grey` level), mixed with the pixel's own colour: `amount` of the ramp's, the rest its own. Alpha is kept.
    public static func mapGrey(_ canvas: Canvas, in box: PixelBox, ramp: UnsafePointer<UInt32>, amount: Double) {
        let b = box.intersection(canvas.pixelBox)
        let k = Float(amount.isNaN ? 0 : Swift.min(Swift.max(amount, 0), 1))
        guard !b.isEmpty, k > 0 else { return }
        for y in b.minY..<b.maxY {
            let row = canvas.pixels + (y &* canvas.width &+ b.minX)
            for x in 0..<b.width {
                let p = row[x], a = p >> 24
                guard a != 0 else { continue }
                let (r, g, bl) = straight(p)
                let m = ramp[Int(grey(red: r, green: g, blue: bl))]
                @inline(__always) func channel(_ own: UInt8, _ shift: UInt32) -> UInt32 {
                    let mapped = Float((m >> shift) & 0xFF), c = Float(own) + (mapped - Float(own)) * k
                    return UInt32(c * Float(a) / 255 + 0.5) << shift
                }
                row[x] = a << 24 | channel(r, 16) | channel(g, 8) | channel(bl, 0)
            }
        }
    }

    /// Each pixel of `box` becomes `color` at the pixel's alpha times the colour's own: After Effects' Fill effect.
    public static func fill(_ canvas: Canvas, in box: PixelBox, with color: Color) {
        let b = box.intersection(canvas.pixelBox)
        guard !b.isEmpty else { return }
        let solid = Color(red: color.red, green: color.green, blue: color.blue, alpha: 1).premultipliedPixel
        let o = Swift.min(Swift.max(color.alpha.isNaN ? 0 : color.alpha, 0), 1)
        for y in b.minY..<b.maxY {
            let row = canvas.pixels + (y &* canvas.width &+ b.minX)
            for x in 0..<b.width {
                let a = UInt32((Double(row[x] >> 24) * o).rounded())
                row[x] = a == 0 ? 0 : a == 255 ? solid : Pixel.scale(solid, by: a)
            }
        }
    }

    /// Fills `tables` (4 × 256 bytes: red, green, blue and alpha, each indexed by a straight level) with the Pro
    /// Levels map, as lottie-web's SVG filter computes it: each channel through its own curve, then red, green and
    /// blue through `composite`, that second curve read as a table of 256 entries with straight lines between them
    /// (an SVG component transfer's `table`), every result clamped to 0…1 and rounded.
    public static func levelTables(composite: Levels, red: Levels, green: Levels, blue: Levels, alpha: Levels,
                                   into tables: UnsafeMutablePointer<UInt8>) {
        @inline(__always) func byte(_ v: Double) -> UInt8 { UInt8((Levels.clamped(v) * 255).rounded()) }
        func fill(_ table: UnsafeMutablePointer<UInt8>, _ curve: Levels, thenComposite: Bool) {
            for level in 0..<256 {
                let v = curve.map(Double(level) / 255)
                table[level] = byte(thenComposite ? composite.tableValue(v) : v)
            }
        }
        fill(tables, red, thenComposite: true)
        fill(tables + 256, green, thenComposite: true)
        fill(tables + 512, blue, thenComposite: true)
        fill(tables + 768, alpha, thenComposite: false)
    }

    /// Each pixel of `box` through `tables` (as `levelTables` fills them): its straight colour and its alpha each
    /// replaced by their entries, then premultiplied again. A transparent pixel stays transparent.
    public static func mapChannels(_ canvas: Canvas, in box: PixelBox, tables: UnsafePointer<UInt8>) {
        let b = box.intersection(canvas.pixelBox)
        guard !b.isEmpty else { return }
        let red = tables, green = tables + 256, blue = tables + 512, alpha = tables + 768
        for y in b.minY..<b.maxY {
            let row = canvas.pixels + (y &* canvas.width &+ b.minX)
            for x in 0..<b.width {
                let p = row[x]
                guard p >> 24 != 0 else { continue }
                let (r, g, bl) = straight(p)
                let a = UInt32(alpha[Int(p >> 24)])
                let opaque = 0xFF00_0000 | UInt32(red[Int(r)]) << 16 | UInt32(green[Int(g)]) << 8 | UInt32(blue[Int(bl)])
                row[x] = a == 0 ? 0 : a == 255 ? opaque : Pixel.scale(opaque, by: a)
            }
        }
    }

    /// A premultiplied pixel's straight colour, each component rounded to 0…255.
    @inline(__always)
    static func straight(_ p: UInt32) -> (UInt8, UInt8, UInt8) {
        let a = p >> 24
        if a == 255 { return (UInt8((p >> 16) & 0xFF), UInt8((p >> 8) & 0xFF), UInt8(p & 0xFF)) }
        @inline(__always) func c(_ v: UInt32) -> UInt8 { UInt8(Swift.min(255, (v * 255 + a / 2) / a)) }
        return (c((p >> 16) & 0xFF), c((p >> 8) & 0xFF), c(p & 0xFF))
    }
}

/// One channel's levels curve, as After Effects' Levels effect and lottie-web's `SVGProLevelsFilter` take it
/// (values 0…1): below the input black a value becomes the output black, above the input white the output white,
/// and between them it runs from the one to the other along a power of 1 / gamma; an input black above the input
/// white turns the channel over (docs/reference.md §8).
public struct Levels: Sendable, Equatable {
    public var inputBlack: Double, inputWhite: Double, gamma: Double, outputBlack: Double, outputWhite: Double

    public init(inputBlack: Double, inputWhite: Double, gamma: Double, outputBlack: Double, outputWhite: Double) {
        self.inputBlack = inputBlack
        self.inputWhite = inputWhite
        self.gamma = gamma
        self.outputBlack = outputBlack
        self.outputWhite = outputWhite
    }

    /// The curve that changes nothing.
    public static let identity = Levels(inputBlack: 0, inputWhite: 1, gamma: 1, outputBlack: 0, outputWhite: 1)

    /// The curve's value at `v`, not clamped (a NaN from a file's values comes out as NaN).
    public func map(_ v: Double) -> Double {
        let low = Swift.min(inputBlack, inputWhite), high = Swift.max(inputBlack, inputWhite)
        let inputRange = inputWhite - inputBlack
        if v <= low { return inputRange < 0 ? outputWhite : outputBlack }
        if v >= high { return inputRange < 0 ? outputBlack : outputWhite }
        return outputBlack + (outputWhite - outputBlack) * pow((v - inputBlack) / inputRange, 1 / gamma)
    }

    /// The curve read as an SVG table of its values at the 256 levels k / 255, straight between them, at `v`
    /// (clamped to 0…1 first, as the output of the filter before it is).
    func tableValue(_ v: Double) -> Double {
        let x = Levels.clamped(v) * 255
        let k = Swift.min(Int(x), 254), t = x - Double(k)
        let a = map(Double(k) / 255), b = map(Double(k + 1) / 255)
        return a + (b - a) * t
    }

    /// `v` within 0…1; NaN is 0.
    static func clamped(_ v: Double) -> Double { v.isNaN ? 0 : Swift.min(Swift.max(v, 0), 1) }
}

/// A Gaussian blur of a canvas's premultiplied pixels, all four channels, in place: three box blurs each way whose
/// widths give the Gaussian's variance (`ShadowBlur.boxWidths`), running sums in `Float`, the box's edge pixels
/// repeated beyond it (an SVG blur's `duplicate` edge mode, and ThorVG's). The buffers are made for the largest
/// box seen and kept.
public final class LayerBlur {
    private var front = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private var back = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private var sums = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private var capacity = 1, sumCapacity = 1

    public init() {}

    deinit {
        front.deallocate()
        back.deallocate()
        sums.deallocate()
    }

    /// Blurs the pixels of `box` with standard deviations `sigmaX` and `sigmaY` (pixels; 0 leaves that direction
    /// alone). `box` should reach `ShadowBlur.spread` beyond what is drawn, so that nothing is blurred out of it;
    /// what reaches the box's edges (a layer cut by the canvas) is blurred as if it went on beyond them.
    public func blur(_ canvas: Canvas, in box: PixelBox, sigmaX: Double, sigmaY: Double) {
        let b = box.intersection(canvas.pixelBox)
        func clamped(_ s: Double) -> Double { s.isFinite ? Swift.min(Swift.max(s, 0), ShadowBlur.maximumSigma) : 0 }
        let wx = ShadowBlur.boxWidths(sigma: clamped(sigmaX)), wy = ShadowBlur.boxWidths(sigma: clamped(sigmaY))
        let w = b.width, h = b.height
        guard !b.isEmpty, wx != (1, 1, 1) || wy != (1, 1, 1) else { return }
        reserve(w * h * 4, sums: 4 * Swift.max(w, h))
        // Premultiplied channels in the order of the pixel's bytes from the top: alpha, red, green, blue.
        for y in 0..<h {
            let row = canvas.pixels + ((b.minY + y) &* canvas.width &+ b.minX), out = front + y * w * 4
            for x in 0..<w {
                let p = row[x]
                out[4 * x] = Float(p >> 24); out[4 * x + 1] = Float((p >> 16) & 0xFF)
                out[4 * x + 2] = Float((p >> 8) & 0xFF); out[4 * x + 3] = Float(p & 0xFF)
            }
        }
        var a = front, t = back
        // Down the columns (running sums of whole rows), then across after a transpose, then transposed back.
        passes(&a, &t, columns: w * 4, rows: h, widths: wy)
        transpose(a, into: t, width: w, height: h)
        swap(&a, &t)
        passes(&a, &t, columns: h * 4, rows: w, widths: wx)
        transpose(a, into: t, width: h, height: w)
        swap(&a, &t)
        for y in 0..<h {
            let row = canvas.pixels + ((b.minY + y) &* canvas.width &+ b.minX), src = a + y * w * 4
            for x in 0..<w {
                @inline(__always) func level(_ v: Float) -> UInt32 { UInt32(Swift.min(Swift.max(v + 0.5, 0), 255)) }
                let alpha = level(src[4 * x])
                // Rounding may leave a channel a level above its alpha; a premultiplied pixel never is.
                @inline(__always) func channel(_ v: Float) -> UInt32 { Swift.min(level(v), alpha) }
                row[x] = alpha << 24 | channel(src[4 * x + 1]) << 16 | channel(src[4 * x + 2]) << 8 | channel(src[4 * x + 3])
            }
        }
    }

    /// Three box blurs down the columns of `a` (`rows` rows of `columns` floats), ping-ponging with `t`; the
    /// result ends in `a`.
    private func passes(_ a: inout UnsafeMutablePointer<Float>, _ t: inout UnsafeMutablePointer<Float>,
                        columns: Int, rows: Int, widths: (Int, Int, Int)) {
        for pass in 0..<3 {
            let width = pass == 0 ? widths.0 : pass == 1 ? widths.1 : widths.2
            guard width > 1 else { continue }
            let r = (width - 1) / 2, scale = 1 / Float(width), last = rows - 1
            let acc = sums
            // The window starts centred on the first row, the rows before it being the first row again.
            acc.update(repeating: 0, count: columns)
            for j in -r...r {
                let row = a + Swift.min(Swift.max(j, 0), last) * columns
                for x in 0..<columns { acc[x] += row[x] }
            }
            for y in 0..<rows {
                let d = t + y * columns
                for x in 0..<columns { d[x] = Swift.max(acc[x] * scale, 0) }
                let add = a + Swift.min(y + r + 1, last) * columns, drop = a + Swift.max(y - r, 0) * columns
                for x in 0..<columns { acc[x] += add[x] - drop[x] }
            }
            swap(&a, &t)
        }
    }

    /// `src` (`height` rows of `width` four-float pixels) written column after column into `dst`, in tiles.
    private func transpose(_ src: UnsafeMutablePointer<Float>, into dst: UnsafeMutablePointer<Float>,
                           width w: Int, height h: Int) {
        let tile = 32
        var y0 = 0
        while y0 < h {
            let y1 = Swift.min(y0 + tile, h)
            var x0 = 0
            while x0 < w {
                let x1 = Swift.min(x0 + tile, w)
                for y in y0..<y1 {
                    for x in x0..<x1 {
                        let s = src + 4 * (y &* w &+ x), d = dst + 4 * (x &* h &+ y)
                        d[0] = s[0]; d[1] = s[1]; d[2] = s[2]; d[3] = s[3]
                    }
                }
                x0 = x1
            }
            y0 = y1
        }
    }

    private func reserve(_ count: Int, sums width: Int) {
        if count > capacity {
            front.deallocate(); back.deallocate()
            front = .allocate(capacity: count)
            back = .allocate(capacity: count)
            capacity = count
        }
        if width > sumCapacity {
            sums.deallocate()
            sums = .allocate(capacity: width)
            sumCapacity = width
        }
    }
}

import Colors
/// Soft shadows: the alpha of a shape drawn into a canvas, blurred by three box blurs that together approximate a
/// Gaussian, then painted in the shadow's colour onto another canvas.
///
/// Three successive box blurs of the right widths have the variance of the Gaussian and, by the central limit
/// theorem, nearly its shape; each box is a running sum, so the cost per pixel does not grow with the radius.
/// Only the alpha channel is blurred (a shadow has one colour), in `Float`, in buffers kept between calls: after
/// the first shadow of a given size, painting shadows allocates nothing.
public final class ShadowBlur {
    private var front: UnsafeMutablePointer<Float>
    private var back: UnsafeMutablePointer<Float>
    private var capacity = 0
    /// Column sums of the vertical pass, one per pixel of a row.
    private var columns: UnsafeMutablePointer<Float>
    private var columnCapacity = 0
    /// The last shape blurred, its alpha byte for byte (`shapeAlpha`) and which buffer holds its blur: while a
    /// shape stays the same from frame to frame (a header's disc at rest, whatever turns inside it), its blur is
    /// kept rather than made again.
    private var lastShape: (box: PixelBox, widths: (Int, Int, Int), blurInFront: Bool)?
    private var shapeAlpha: UnsafeMutablePointer<UInt8>
    /// How many paints found their shape unchanged and reused its blur.
    private(set) var reusedBlurs = 0

    public init() {
        front = .allocate(capacity: 1)
        back = .allocate(capacity: 1)
        columns = .allocate(capacity: 1)
        shapeAlpha = .allocate(capacity: 1)
    }

    deinit {
        front.deallocate()
        back.deallocate()
        columns.deallocate()
        shapeAlpha.deallocate()
    }

    /// Below this standard deviation, in pixels, a blur changes less than a pixel's anti-aliasing: it is skipped.
    static let minimumSigma = 0.25

    /// The odd widths of three box blurs whose variances add up to σ² (Kovesi's construction: `m` boxes of the
    /// largest odd width not above the ideal one, the others two wider). Each is 1 when σ is too small to blur.
    static func boxWidths(sigma: Double) -> (Int, Int, Int) {
        guard sigma.isFinite, sigma >= minimumSigma else { return (1, 1, 1) }
        let n = 3.0
        let ideal = (12 * sigma * sigma / n + 1).squareRoot()
        var lower = Int(ideal.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        lower = Swift.max(lower, 1)
        let wl = Double(lower)
        let m = Int(((12 * sigma * sigma - n * wl * wl - 4 * n * wl - 3 * n) / (-4 * wl - 4)).rounded())
        func width(_ i: Int) -> Int { i < m ? lower : lower + 2 }
        return (width(0), width(1), width(2))
    }

    /// How far, in whole pixels, the blur of standard deviation `sigma` spreads a pixel on each side.
    public static func spread(sigma: Double) -> Int {
        let (a, b, c) = boxWidths(sigma: sigma)
        return (a - 1) / 2 + (b - 1) / 2 + (c - 1) / 2
    }

    /// The largest standard deviation, in pixels, that is blurred: beyond it a shadow is all blur and the buffers
    /// would grow without bound.
    public static let maximumSigma = 256.0

    /// Paints `color` through the alpha of `mask`'s pixels in `box`, blurred with standard deviation `sigma`
    /// (pixels) and moved by (`dx`, `dy`) pixels, onto `target` inside `clip` (source-over), or `under` what
    /// `target` holds (destination-over: a layer's drop shadow, `target` being the layer's own canvas and `mask`).
    ///
    /// `box` should reach `spread(sigma:)` pixels beyond the shape, so that no blurred alpha falls outside it and
    /// the total alpha is kept; it may extend past the mask canvas, whose missing pixels count as transparent.
    public func paint(alphaOf mask: Canvas, in box: PixelBox, sigma: Double, color: Color, dx: Int, dy: Int,
                      into target: Canvas, clip: PixelBox, under: Bool = false) {
        let s = sigma.isFinite ? Swift.min(Swift.max(sigma, 0), ShadowBlur.maximumSigma) : 0
        guard color.alpha > 0, let shape = drawnBounds(of: mask, in: box) else { return }
        // Only the drawn pixels and the blur's reach around them: a caller's box is often generous (a turned
        // layer's corners), and zeros beyond the shape add nothing to the running sums.
        let box = shape.outset(by: ShadowBlur.spread(sigma: s)).intersection(box)
        let w = box.width, h = box.height
        let out = box.offsetBy(dx: dx, dy: dy).intersection(clip).intersection(target.pixelBox)
        guard !out.isEmpty else { return }
        reserve(w * h, columns: Swift.max(w, h))
        let widths = ShadowBlur.boxWidths(sigma: s)
        let changed = storeAlpha(of: mask, box: box)
        let a: UnsafeMutablePointer<Float>
        if let last = lastShape, last.box == box, last.widths == widths, !changed {
            reusedBlurs += 1
            a = last.blurInFront ? front : back
        } else {
            for i in 0..<w * h { front[i] = Float(shapeAlpha[i]) }
            // Columns first, then the transposed buffer's columns (the original rows): every pass runs along
            // contiguous memory and vectorises, where a running sum along a row is one long chain of dependent
            // adds.
            var x = front, y = back
            blurThreeTimes(&x, &y, width: w, height: h, widths: widths)
            transpose(x, into: y, width: w, height: h)
            swap(&x, &y)
            blurThreeTimes(&x, &y, width: h, height: w, widths: widths)
            a = x
            lastShape = (box, widths, x == front)
        }
        // The colour at full alpha; its own alpha scales the blurred coverage.
        let solid = Color(red: color.red, green: color.green, blue: color.blue, alpha: 1).premultipliedPixel
        let factor = Float(Swift.min(Swift.max(color.alpha, 0), 1))
        let n = out.width
        for y in out.minY..<out.maxY {
            // `a` is transposed: the alpha of box pixel (x, y) is at x·h + y.
            let src = a + ((out.minX - dx - box.minX) * h + (y - dy - box.minY))
            let dst = target.pixels + (y * target.width + out.minX)
            var i = 0
            while i < n {
                let v = src[i &* h] * factor
                if v >= 0.5 {
                    let alpha = UInt32(Swift.min(v + 0.5, 255))
                    let shadow = alpha == 255 ? solid : Pixel.scale(solid, by: alpha)
                    dst[i] = under ? Pixel.sourceOver(dst[i], shadow) : Pixel.sourceOver(shadow, dst[i])
                }
                i &+= 1
            }
        }
    }

    /// Three vertical box blurs of the given widths, ping-ponging between `a` and `b`; the result ends in `a`.
    private func blurThreeTimes(_ a: inout UnsafeMutablePointer<Float>, _ b: inout UnsafeMutablePointer<Float>,
                                width: Int, height: Int, widths: (Int, Int, Int)) {
        for pass in 0..<3 {
            let boxWidth = pass == 0 ? widths.0 : pass == 1 ? widths.1 : widths.2
            guard boxWidth > 1 else { continue }
            blurColumns(a, into: b, width: width, height: height, radius: (boxWidth - 1) / 2)
            swap(&a, &b)
        }
    }

    /// `src` (w × h, row after row) written column after column into `dst` (h × w), in tiles that stay in cache.
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
                    for x in x0..<x1 { dst[x &* h &+ y] = src[y &* w &+ x] }
                }
                x0 = x1
            }
            y0 = y1
        }
    }

    private func reserve(_ count: Int, columns width: Int) {
        if count > capacity {
            front.deallocate(); back.deallocate()
            shapeAlpha.deallocate()
            front = .allocate(capacity: count)
            back = .allocate(capacity: count)
            shapeAlpha = .allocate(capacity: count)
            capacity = count
            lastShape = nil
        }
        if width > columnCapacity {
            columns.deallocate()
            columns = .allocate(capacity: width)
            columnCapacity = width
        }
    }

    /// The smallest box holding every pixel of `mask` inside `box` whose alpha is not 0; nil when there is none.
    private func drawnBounds(of mask: Canvas, in box: PixelBox) -> PixelBox? {
        let inside = box.intersection(mask.pixelBox)
        guard !inside.isEmpty else { return nil }
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
        for y in inside.minY..<inside.maxY {
            let row = mask.pixels + y * mask.width
            var first = inside.minX
            while first < inside.maxX && row[first] >> 24 == 0 { first += 1 }
            guard first < inside.maxX else { continue }
            var last = inside.maxX - 1
            while row[last] >> 24 == 0 { last -= 1 }
            minX = Swift.min(minX, first); maxX = Swift.max(maxX, last + 1)
            if minY == Int.max { minY = y }
            maxY = y + 1
        }
        guard minY != Int.max else { return nil }
        return PixelBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }

    /// Copies the mask's alpha inside `box` into `shapeAlpha` (pixels outside the mask canvas are 0); whether any
    /// byte differs from what `shapeAlpha` held.
    private func storeAlpha(of mask: Canvas, box: PixelBox) -> Bool {
        let w = box.width
        let inside = box.intersection(mask.pixelBox)
        var changed: UInt8 = 0
        func store(_ alpha: UInt8, at p: UnsafeMutablePointer<UInt8>) {
            changed |= p.pointee ^ alpha
            p.pointee = alpha
        }
        for y in box.minY..<box.maxY {
            let row = shapeAlpha + (y - box.minY) * w
            guard !inside.isEmpty, y >= inside.minY, y < inside.maxY else {
                for i in 0..<w { store(0, at: row + i) }
                continue
            }
            let src = mask.pixels + (y * mask.width + inside.minX)
            let start = inside.minX - box.minX, end = inside.maxX - box.minX
            for i in 0..<start { store(0, at: row + i) }
            for i in start..<end { store(UInt8(truncatingIfNeeded: src[i - start] >> 24), at: row + i) }
            for i in end..<w { store(0, at: row + i) }
        }
        return changed != 0
    }

    /// Each column of `src` averaged over a window of 2·radius + 1 rows (zero beyond the ends), into `dst`; the
    /// running sums of all columns move down together, so every step is a pass along contiguous rows.
    private func blurColumns(_ src: UnsafeMutablePointer<Float>, into dst: UnsafeMutablePointer<Float>,
                             width w: Int, height h: Int, radius r: Int) {
        let scale = 1 / Float(2 * r + 1)
        let acc = columns
        acc.update(repeating: 0, count: w)
        for j in 0..<Swift.min(r, h - 1) + 1 {
            let row = src + j * w
            for x in 0..<w { acc[x] += row[x] }
        }
        for y in 0..<h {
            let d = dst + y * w
            for x in 0..<w { d[x] = Swift.max(acc[x] * scale, 0) }
            let add = y + r + 1, drop = y - r
            if add < h {
                let row = src + add * w
                for x in 0..<w { acc[x] += row[x] }
            }
            if drop >= 0 {
                let row = src + drop * w
                for x in 0..<w { acc[x] -= row[x] }
            }
        }
    }
}

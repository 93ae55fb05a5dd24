import Colors
import Geometry
@testable import Raster
import Testing
import TestSupport

/// The shadow blur against a plain one written for the test (three box blurs in `Double` over the whole canvas,
/// zero beyond it), and the blur it keeps from one paint to the next while the shape does not change.
@Suite("Shadow blur")
struct ShadowBlurTests {
    /// A transparent canvas with a few opaque and translucent rectangles inside a `width` × `height` area that
    /// lies `margin` pixels from each side, some at that area's very edges.
    func randomMask(_ rng: inout SeededRandom, width: Int, height: Int, margin: Int = 0) -> Canvas {
        let mask = Canvas(width: width + 2 * margin, height: height + 2 * margin)
        for _ in 0..<rng.int(in: 1...4) {
            let x = rng.int(in: 0...width - 1), y = rng.int(in: 0...height - 1)
            let w = rng.int(in: 1...width - x), h = rng.int(in: 1...height - y)
            let alpha = rng.bool() ? 1 : rng.double(in: 0.05...1)
            mask.fillPixels(Rect(x: Double(x + margin), y: Double(y + margin), width: Double(w), height: Double(h)),
                            pixel: Color(white: 0, alpha: alpha).premultipliedPixel, scale: 1)
        }
        return mask
    }

    func pixels(_ canvas: Canvas) -> [UInt32] { Array(UnsafeBufferPointer(start: canvas.pixels, count: canvas.pixelCount)) }

    /// The shadow's alpha at every pixel as the plain blur computes it: each box a window of the given width,
    /// columns then rows, rounded as the painter rounds.
    func plainShadowAlpha(_ mask: Canvas, sigma: Double, alpha: Double) -> [Int] {
        let w = mask.width, h = mask.height
        var values = (0..<w * h).map { Double(mask.pixels[$0] >> 24) }
        let widths = ShadowBlur.boxWidths(sigma: sigma)
        func blur(vertical: Bool, width box: Int) {
            guard box > 1 else { return }
            let r = (box - 1) / 2
            var out = [Double](repeating: 0, count: w * h)
            for y in 0..<h {
                for x in 0..<w {
                    var sum = 0.0
                    for k in -r...r {
                        let (sx, sy) = vertical ? (x, y + k) : (x + k, y)
                        if sx >= 0 && sx < w && sy >= 0 && sy < h { sum += values[sy * w + sx] }
                    }
                    out[y * w + x] = sum / Double(box)
                }
            }
            values = out
        }
        for vertical in [true, false] {
            blur(vertical: vertical, width: widths.0)
            blur(vertical: vertical, width: widths.1)
            blur(vertical: vertical, width: widths.2)
        }
        return values.map { v in
            let a = v * alpha
            return a >= 0.5 ? Int(min(a + 0.5, 255)) : 0
        }
    }

    @Test("Random shapes, sigmas and generous boxes: the shadow's alpha is the plain blur's within 1 of 255")
    func matchesPlainBlur() {
        var rng = SeededRandom(seed: 23)
        for _ in 0..<40 {
            let width = rng.int(in: 8...40), height = rng.int(in: 8...40)
            let sigma = rng.double(in: 0.3...4)
            let alpha = rng.bool() ? 1 : rng.double(in: 0.1...1)
            // The shapes keep a margin as wide as the blur's reach, so that nothing of the shadow is cut off.
            let shifted = randomMask(&rng, width: width, height: height, margin: ShadowBlur.spread(sigma: sigma) + 1)
            let target = Canvas(width: shifted.width, height: shifted.height)
            // The box the caller gives: the whole canvas and more, as a turned layer's bounds would be.
            let extra = rng.int(in: 0...20)
            let box = shifted.pixelBox.outset(by: extra)
            ShadowBlur().paint(alphaOf: shifted, in: box, sigma: sigma, color: Color(white: 0, alpha: alpha),
                               dx: 0, dy: 0, into: target, clip: target.pixelBox)
            let expected = plainShadowAlpha(shifted, sigma: sigma, alpha: alpha)
            var worst = 0
            for i in 0..<expected.count { worst = max(worst, abs(Int(target.pixels[i] >> 24) - expected[i])) }
            #expect(worst <= 1, "σ \(sigma), \(width)×\(height), alpha \(alpha)")
        }
    }

    @Test("An unchanged shape's blur is kept and paints the same pixels; one changed pixel makes a new blur")
    func keptWhileUnchanged() {
        var rng = SeededRandom(seed: 5)
        let mask = randomMask(&rng, width: 60, height: 50)
        let color = Color(red: 0.2, green: 0.1, blue: 0.6, alpha: 0.7)
        func paint(_ blur: ShadowBlur) -> Canvas {
            let target = Canvas(width: 60, height: 50, fill: .white)
            blur.paint(alphaOf: mask, in: mask.pixelBox, sigma: 3, color: color, dx: 2, dy: 3, into: target,
                       clip: target.pixelBox)
            return target
        }
        let blur = ShadowBlur()
        let first = paint(blur)
        let second = paint(blur)
        #expect(blur.reusedBlurs == 1)
        let kept = pixels(second) == pixels(first)
        #expect(kept)
        mask[30, 25] = mask[30, 25] == 0 ? Color.black.premultipliedPixel : 0
        let changed = paint(blur)
        #expect(blur.reusedBlurs == 1)
        let same = pixels(changed) == pixels(paint(ShadowBlur())), unchanged = pixels(changed) == pixels(first)
        #expect(same)
        #expect(!unchanged)
    }
}

import Colors
@testable import Raster
import Testing
import TestSupport

/// The translucent bar's backdrop blur, worked on cells of several pixels, against the full-resolution box blur it
/// replaced (kept here as `FullResolutionBlur`): the same strips, the same radius, the channels compared.
@Suite struct BackdropBlurTests {
    /// The blur before it went to cells: a box `2 × radius + 1` pixels wide, twice each way, on every pixel, edges
    /// clamped, each pass's mean truncated to whole levels (or rounded, with `rounds`).
    struct FullResolutionBlur {
        var rounds = false

        func blur(_ canvas: Canvas, rows: Int, radius: Int) {
            let w = canvas.width, h = Swift.min(rows, canvas.height)
            guard h > 1, radius > 0 else { return }
            var scratch = [UInt32](repeating: 0, count: w * h)
            let pixels = canvas.pixels
            scratch.withUnsafeMutableBufferPointer { tmp in
                let t = tmp.baseAddress!
                for _ in 0..<2 {
                    for y in 0..<h { pass(from: pixels + y * w, 1, to: t + y * w, 1, count: w, radius: radius) }
                    for x in 0..<w { pass(from: t + x, w, to: pixels + x, w, count: h, radius: radius) }
                }
            }
        }

        private func pass(from src: UnsafeMutablePointer<UInt32>, _ s: Int, to dst: UnsafeMutablePointer<UInt32>,
                          _ d: Int, count n: Int, radius r: Int) {
            var sums = [0, 0, 0, 0]
            func add(_ p: UInt32, _ k: Int) {
                for c in 0..<4 { sums[c] += k * Int((p >> UInt32(8 * c)) & 0xFF) }
            }
            for i in -r...r { add(src[Swift.min(Swift.max(i, 0), n - 1) * s], 1) }
            let width = 2 * r + 1, half = rounds ? width / 2 : 0
            for i in 0..<n {
                var out: UInt32 = 0
                for c in 0..<4 { out |= UInt32((sums[c] + half) / width) << UInt32(8 * c) }
                add(src[Swift.max(i - r, 0) * s], -1)
                add(src[Swift.min(i + r + 1, n - 1) * s], 1)
                dst[i * d] = out
            }
        }
    }

    /// A strip with something of every kind a list shows under a bar: flat backgrounds, opaque and translucent
    /// blocks of every size down to a pixel, thin lines like text strokes, and hard edges at the strip's own edges.
    static func variedStrip(width: Int, height: Int, seed: UInt64) -> Canvas {
        var random = SeededRandom(seed: seed)
        let canvas = Canvas(width: width, height: height, fill: Color(rgb: 242, 242, 247))
        for _ in 0..<(width * height / 1000) {
            let w = random.bool() ? random.int(in: 1...3) : random.int(in: 1...120)
            let h = random.bool() ? random.int(in: 1...3) : random.int(in: 1...60)
            let x0 = random.int(in: -w...(width - 1)), y0 = random.int(in: -h...(height - 1))
            let color = Color(rgb: random.int(in: 0...255), random.int(in: 0...255),
                              random.int(in: 0...255), alpha: random.bool() ? 1 : random.double(in: 0...1))
            for y in Swift.max(0, y0)..<Swift.min(height, y0 + h) {
                for x in Swift.max(0, x0)..<Swift.min(width, x0 + w) {
                    canvas[x, y] = color.premultipliedPixel
                }
            }
        }
        return canvas
    }

    /// The mean and the largest difference of any channel between two canvases.
    static func difference(_ a: Canvas, _ b: Canvas) -> (mean: Double, max: Int) {
        var total = 0, largest = 0
        for i in 0..<a.pixelCount {
            for c in 0..<4 {
                let d = abs(Int((a.pixels[i] >> UInt32(8 * c)) & 0xFF) - Int((b.pixels[i] >> UInt32(8 * c)) & 0xFF))
                total += d
                largest = Swift.max(largest, d)
            }
        }
        return (Double(total) / Double(4 * a.pixelCount), largest)
    }

    /// The bar strips of the phones: the Pro Max at 3× (62 + 44 pt, a 30 px radius), the lab's phone at 2× (64 pt,
    /// 20 px) and the Pixel at 2.625 (24 + 64 dp, 26 px), and one strip thinner than a cell.
    static let strips: [(width: Int, rows: Int, radius: Int)] = [(1320, 318, 30), (750, 128, 20), (1080, 231, 26),
                                                                  (400, 4, 30)]

    @Test("The blur on cells looks as the full-resolution one: within a mean of 2.5 and 16 levels of it, and of 1.0 and 14 once that one rounds",
          arguments: strips)
    func matchesFullResolution(strip: (width: Int, rows: Int, radius: Int)) {
        for seed in [1, 2, 3] as [UInt64] {
            let source = BackdropBlurTests.variedStrip(width: strip.width, height: strip.rows + 40, seed: seed)
            let ours = Canvas(width: source.width, height: source.height)
            ours.copy(from: source)
            BackdropBlur().blur(ours, rows: strip.rows, radius: strip.radius)
            // Rows below the strip are left alone.
            for x in 0..<source.width { #expect(ours[x, strip.rows] == source[x, strip.rows]) }
            for rounds in [false, true] {
                let theirs = Canvas(width: source.width, height: source.height)
                theirs.copy(from: source)
                FullResolutionBlur(rounds: rounds).blur(theirs, rows: strip.rows, radius: strip.radius)
                let (mean, largest) = BackdropBlurTests.difference(ours, theirs)
                // The full-resolution blur truncated each of its four passes' means, darkening by half a level a
                // pass on average: 2 levels all told, hence the wider mean against it. What is left is the cells'
                // own: their averaging and the interpolation between them blur by a few pixels more than the
                // box's 18-24 pixels of standard deviation, which moves a hard edge's ramp by a level or two, and
                // up to several more where a thin bright line sits right at the strip's edge and the edge's row is
                // repeated past it (worst measured: 16 and 14, on the Pixel's strip, whose cells are the coarsest
                // against its radius). Under the bar's tint (three quarters opaque) a quarter of each difference
                // shows on the screen: at most 4 levels.
                #expect(mean <= (rounds ? 1.0 : 2.5), "\(strip) seed \(seed) rounds \(rounds): mean \(mean)")
                #expect(largest <= (rounds ? 14 : 16), "\(strip) seed \(seed) rounds \(rounds): max \(largest)")
            }
        }
    }

    @Test("A flat strip stays exactly flat, and every blurred pixel is a premultiplied one (no channel above alpha)")
    func flatAndPremultiplied() {
        for color in [Color(rgb: 242, 242, 247), Color(rgb: 10, 132, 255, alpha: 0.37), .clear] {
            let canvas = Canvas(width: 333, height: 120, fill: color)
            BackdropBlur().blur(canvas, rows: 100, radius: 30)
            for i in 0..<canvas.pixelCount { #expect(canvas.pixels[i] == color.premultipliedPixel) }
        }
        let canvas = BackdropBlurTests.variedStrip(width: 500, height: 200, seed: 9)
        BackdropBlur().blur(canvas, rows: 200, radius: 30)
        for i in 0..<canvas.pixelCount {
            let p = canvas.pixels[i], alpha = p >> 24
            #expect((p >> 16) & 0xFF <= alpha && (p >> 8) & 0xFF <= alpha && p & 0xFF <= alpha)
        }
    }

    @Test("One blur serves strips of any size in turn, larger and smaller, as phones and bars change")
    func reusedAcrossSizes() {
        let blur = BackdropBlur()
        for (width, rows, radius) in [(750, 128, 20), (1320, 318, 30), (200, 50, 10), (1080, 231, 26), (7, 3, 30)] {
            let source = BackdropBlurTests.variedStrip(width: width, height: rows, seed: UInt64(width))
            let reused = Canvas(width: width, height: rows), fresh = Canvas(width: width, height: rows)
            reused.copy(from: source)
            fresh.copy(from: source)
            blur.blur(reused, rows: rows, radius: radius)
            BackdropBlur().blur(fresh, rows: rows, radius: radius)
            #expect(BackdropBlurTests.difference(reused, fresh).max == 0, "\(width)×\(rows)")
        }
    }

    @Test("The tint laid over the cells is the tint laid over the blurred pixels: within 2 levels, and transparent or opaque exactly")
    func tintOverCells() {
        let tints = [Color(rgb: 248, 248, 248, alpha: 0.75), Color(rgb: 18, 18, 18, alpha: 0.75),
                     Color(rgb: 10, 132, 255, alpha: 0.3), Color(rgb: 30, 200, 90), .clear]
        for (n, tint) in tints.enumerated() {
            let source = BackdropBlurTests.variedStrip(width: 600, height: 160, seed: UInt64(20 + n))
            let tinted = Canvas(width: 600, height: 160), plain = Canvas(width: 600, height: 160)
            tinted.copy(from: source)
            plain.copy(from: source)
            BackdropBlur().blur(tinted, rows: 150, radius: 30, tint: tint)
            BackdropBlur().blur(plain, rows: 150, radius: 30)
            let over = tint.premultipliedPixel
            for y in 0..<150 {
                for x in 0..<600 { plain[x, y] = Pixel.sourceOver(over, plain[x, y]) }
            }
            // The tint laid afterwards rounds three times more (the cells, the tint's own pixel and the blend): two
            // levels at most, far less on average; nothing when the tint hides or leaves the blur whole.
            let (mean, largest) = BackdropBlurTests.difference(tinted, plain)
            let exact = tint.alpha == 0 || tint.alpha == 1
            #expect(largest <= (exact ? 0 : 2) && mean <= 0.5, "\(tint): mean \(mean), max \(largest)")
        }
    }

    @Test("A strip blurred again, unchanged or changed by a pixel, a tint or a row, gives what a fresh blur gives")
    func keptResultIsTheBlursOwn() {
        var random = SeededRandom(seed: 61)
        let blur = BackdropBlur()
        let tints = [Color(rgb: 248, 248, 248, alpha: 0.75), Color(rgb: 18, 18, 18, alpha: 0.75)]
        var source = BackdropBlurTests.variedStrip(width: 300, height: 90, seed: 5)
        var rows = 80, tint = tints[0]
        var kinds: [Int: Int] = [:]
        for step in 0..<60 {
            // Mostly the same strip again (the kept pixels serve from the third blur of a run on), else one change.
            let kind = step < 3 ? 0 : random.int(in: 0...5)
            kinds[kind, default: 0] += 1
            switch kind {
            case 2:
                let x = random.int(in: 0...299), y = random.int(in: 0...(rows - 1))
                source[x, y] = source[x, y] == 0xFF00_0000 ? 0xFFFF_FFFF : 0xFF00_0000
            case 3: tint = tints[random.int(in: 0...1)]
            case 4: rows = random.int(in: 70...90)
            case 5: source = BackdropBlurTests.variedStrip(width: 300, height: 90, seed: UInt64(step))
            default: break
            }
            let again = Canvas(width: 300, height: 90), fresh = Canvas(width: 300, height: 90)
            again.copy(from: source)
            fresh.copy(from: source)
            blur.blur(again, rows: rows, radius: 30, tint: tint)
            BackdropBlur().blur(fresh, rows: rows, radius: 30, tint: tint)
            #expect(BackdropBlurTests.difference(again, fresh).max == 0, "step \(step), change \(kind)")
        }
        #expect(kinds[0, default: 0] + kinds[1, default: 0] >= 10)
    }
}

import Geometry
@testable import Raster
import Testing
import TestSupport
import Colors

/// A batch of fills drawn in bands on several threads gives the pixels of the same fills drawn one by one on one.
@Suite("Fills drawn in bands")
struct FillBandsTests {
    /// One random drawing call: a fill (either rule, maybe clipped to a fractional box), a stroke, straight edges or a
    /// clear, translucent or opaque.
    enum Call {
        case fill(Path, AffineTransform, Color, FillRule, Rect?)
        case stroke(Path, StrokeStyle, AffineTransform, Color, Rect?)
        case edges([(Point, Point)], Color, FillRule)
        case clear(Color)

        func draw(_ rasterizer: Rasterizer, into canvas: Canvas) {
            switch self {
            case .fill(let path, let transform, let color, let rule, let clip):
                rasterizer.fill(path, transform: transform, color: color, rule: rule, clip: clip, into: canvas)
            case .stroke(let path, let style, let transform, let color, let clip):
                rasterizer.stroke(path, style: style, transform: transform, tolerance: 0.1, color: color, clip: clip,
                                  into: canvas)
            case .edges(let edges, let color, let rule):
                rasterizer.fill(edges: edges, color: color, rule: rule, into: canvas)
            case .clear(let color):
                rasterizer.clear(canvas, to: color)
            }
        }
    }

    /// `contours` per path: up to a few hundred makes paths that cross many bands, each flattening the whole path
    /// again; a large path's contours are left open at random (fills close them).
    static func randomCalls(_ random: inout SeededRandom, width: Double, height: Double, count: Int,
                            contours: ClosedRange<Int> = 1...3) -> [Call] {
        func color() -> Color {
            Color(red: random.double(in: 0...1), green: random.double(in: 0...1), blue: random.double(in: 0...1),
                  alpha: random.bool() ? 1 : random.double(in: 0.05...1))
        }
        func clip() -> Rect? {
            random.int(in: 0...3) == 0 ? Rect(x: random.double(in: -10...width / 2), y: random.double(in: -10...height / 2),
                                              width: random.double(in: 1...width), height: random.double(in: 1...height))
                : nil
        }
        var calls: [Call] = []
        for _ in 0..<count {
            var path = Path()
            for _ in 0..<random.int(in: contours) {
                addRandomContour(to: &path, segments: random.int(in: 2...10), x: -30...(width + 30),
                                 y: -30...(height + 30), cubic: true, &random)
                if contours.upperBound <= 3 || random.bool() { path.close() }
            }
            let transform = random.bool() ? .identity
                : AffineTransform(a: random.double(in: 0.5...1.5), b: random.double(in: -0.3...0.3),
                                  c: random.double(in: -0.3...0.3), d: random.double(in: 0.5...1.5),
                                  tx: random.double(in: -20...20), ty: random.double(in: -20...20))
            switch random.int(in: 0...9) {
            case 0...4:
                calls.append(.fill(path, transform, color(), random.bool() ? .nonZero : .evenOdd, clip()))
            case 5...7:
                let style = StrokeStyle(lineWidth: random.double(in: 0.3...12),
                                        lineCap: [.butt, .round, .square][random.int(in: 0...2)],
                                        lineJoin: [.miter, .round, .bevel][random.int(in: 0...2)])
                calls.append(.stroke(path, style, transform, color(), clip()))
            case 8:
                var edges: [(Point, Point)] = []
                var first = Point(random.double(in: 0...width), random.double(in: 0...height)), last = first
                for _ in 0..<random.int(in: 2...8) {
                    let next = Point(random.double(in: -5...(width + 5)), random.double(in: -5...(height + 5)))
                    edges.append((last, next))
                    last = next
                }
                edges.append((last, first))
                first = last
                calls.append(.edges(edges, color(), random.bool() ? .nonZero : .evenOdd))
            default:
                calls.append(.clear(color()))
            }
        }
        return calls
    }

    /// The pixels of `calls` drawn one by one on one thread, over `noise`.
    static func drawnAlone(_ calls: [Call], width: Int, height: Int, noise seed: UInt64) -> [UInt32] {
        let canvas = Canvas(width: width, height: height)
        var background = SeededRandom(seed: seed)
        FillPathTests.noise(canvas, &background)
        let rasterizer = Rasterizer()
        for call in calls { call.draw(rasterizer, into: canvas) }
        return Array(UnsafeBufferPointer(start: canvas.pixels, count: width * height))
    }

    /// How many pixels differ from `expected` when `calls` are drawn over `noise` as one batch of `banded`, recorded with
    /// `pause` after each call.
    static func differingPixels(_ calls: [Call], banded rasterizer: Rasterizer, into canvas: Canvas, noise seed: UInt64,
                                expected: [UInt32], pause: Duration = .zero) -> Int {
        var background = SeededRandom(seed: seed)
        FillPathTests.noise(canvas, &background)
        if pause > .zero {
            // A batch drawn just before leaves the threads watching for the next, as batches drawn back to back do.
            let scratch = Canvas(width: 4, height: 4)
            rasterizer.beginBands()
            rasterizer.fill(Path.rect(Rect(x: 0, y: 0, width: 2, height: 2)), color: .black, into: scratch)
            rasterizer.drawBands()
        }
        rasterizer.beginBands()
        #expect(rasterizer.isRecordingBands)
        for call in calls {
            call.draw(rasterizer, into: canvas)
            // Busy, as a caller recording a long batch is.
            let until = ContinuousClock.now + pause
            while ContinuousClock.now < until {}
        }
        rasterizer.drawBands()
        return zip(UnsafeBufferPointer(start: canvas.pixels, count: canvas.width * canvas.height), expected)
            .filter { $0 != $1 }.count
    }

    @Test("Random fills, strokes, edges and clears, in bands of 1 to 256 rows on 2 to 6 threads: the pixels of one thread, byte for byte")
    func randomBatchesMatchOneThread() {
        var random = SeededRandom(seed: 0xBA4D_5EED)
        for n in 0..<40 {
            let width = random.int(in: 1...180), height = random.int(in: 1...300)
            let calls = Self.randomCalls(&random, width: Double(width), height: Double(height),
                                         count: random.int(in: 1...12))
            let seed = random.next()
            let expected = Self.drawnAlone(calls, width: width, height: height, noise: seed)
            let threads = random.int(in: 2...6), shift = random.int(in: 0...8)
            let rasterizer = Rasterizer(path: .best, threads: threads, bandShift: shift)
            let canvas = Canvas(width: width, height: height)
            // The same rasterizer draws the batch twice: what the first leaves behind must not reach the second.
            for round in 0..<2 {
                let differing = Self.differingPixels(calls, banded: rasterizer, into: canvas, noise: seed,
                                                     expected: expected)
                #expect(differing == 0, "case \(n), round \(round): \(width)×\(height), \(calls.count) calls, \(threads) threads, bands of \(1 << shift) rows: \(differing) pixels differ")
            }
        }
    }

    @Test("Paths of hundreds of contours, flattened again in every band they cross: the pixels of one thread, byte for byte")
    func largePathsMatchOneThread() {
        var random = SeededRandom(seed: 0x1A46_E0A7)
        for n in 0..<12 {
            let width = random.int(in: 40...200), height = random.int(in: 40...300)
            let calls = Self.randomCalls(&random, width: Double(width), height: Double(height),
                                         count: random.int(in: 1...4), contours: 60...400)
            let seed = random.next()
            let expected = Self.drawnAlone(calls, width: width, height: height, noise: seed)
            let threads = random.int(in: 2...5), shift = random.int(in: 2...7)
            let rasterizer = Rasterizer(path: .best, threads: threads, bandShift: shift)
            let differing = Self.differingPixels(calls, banded: rasterizer, into: Canvas(width: width, height: height),
                                                 noise: seed, expected: expected)
            #expect(differing == 0, "case \(n): \(width)×\(height), \(calls.count) calls, \(threads) threads, bands of \(1 << shift) rows: \(differing) pixels differ")
        }
    }

    @Test("Strokes outlined by a waiting thread while the batch is still recorded, more than it is offered: the pixels of one thread, byte for byte")
    func strokesMadeWhileRecording() {
        var random = SeededRandom(seed: 0xEA51_57C0)
        let width = 160, height = 240
        let rasterizer = Rasterizer(path: .best, threads: 3)
        let canvas = Canvas(width: width, height: height)
        var batches = 0
        // A thread takes strokes only while it watches for the next batch, which a busy machine (the tests run side by
        // side) may not let it do in time: batches of some 200 strokes, recorded over several milliseconds, until one
        // is taken early.
        while (rasterizer.strokesMadeEarly == 0 || batches < 3) && batches < 40 {
            var calls = Self.randomCalls(&random, width: Double(width), height: Double(height), count: 20)
            // The first batch more strokes than are offered while recording (256): the rest are shared out as usual.
            for _ in 0..<(batches == 0 ? 300 : random.int(in: 150...250)) {
                var path = Path()
                addRandomContour(to: &path, segments: random.int(in: 1...6), x: -20...Double(width + 20),
                                 y: -20...Double(height + 20), cubic: random.bool(), &random)
                let style = StrokeStyle(lineWidth: random.double(in: 0.2...6),
                                        lineCap: [.butt, .round, .square][random.int(in: 0...2)],
                                        lineJoin: [.miter, .round, .bevel][random.int(in: 0...2)])
                let color = Color(red: random.double(in: 0...1), green: 0.5, blue: 0.2,
                                  alpha: random.double(in: 0.1...1))
                calls.insert(.stroke(path, style, .identity, color, nil), at: random.int(in: 0...calls.count))
            }
            let seed = random.next()
            let expected = Self.drawnAlone(calls, width: width, height: height, noise: seed)
            let differing = Self.differingPixels(calls, banded: rasterizer, into: canvas, noise: seed,
                                                 expected: expected, pause: .microseconds(30))
            #expect(differing == 0, "batch \(batches), \(calls.count) calls: \(differing) pixels differ")
            batches += 1
        }
        #expect(rasterizer.strokesMadeEarly > 0, "no stroke was made early in \(batches) batches")
    }

    @Test("A batch with nothing in it, or on one thread, draws as it comes")
    func emptyAndSingleThreadedBatches() {
        let canvas = Canvas(width: 40, height: 40, fill: .white)
        let banded = Rasterizer(threads: 3)
        banded.beginBands()
        banded.drawBands()
        #expect(canvas[5, 5] == Color.white.premultipliedPixel)
        let single = Rasterizer(threads: 1)
        single.beginBands()
        #expect(!single.isRecordingBands)
        single.fill(Path.rect(Rect(x: 0, y: 0, width: 10, height: 10)), color: .black, into: canvas)
        #expect(canvas[5, 5] == Color.black.premultipliedPixel)
        single.drawBands()
    }

    @Test("Fills recorded in a batch wait until the batch is drawn or the canvas's pixels are read, in order")
    func batchIsDeferred() {
        let canvas = Canvas(width: 64, height: 200, fill: .white)
        let rasterizer = Rasterizer(threads: 2)
        rasterizer.beginBands()
        rasterizer.fill(Path.rect(Rect(x: 0, y: 0, width: 64, height: 200)), color: .black, into: canvas)
        #expect(canvas.hasPendingFills)
        #expect(canvas.storage[150 * 64 + 10] == Color.white.premultipliedPixel)
        // Reading draws what waits; the batch goes on recording.
        #expect(canvas[10, 150] == Color.black.premultipliedPixel)
        #expect(!canvas.hasPendingFills && rasterizer.isRecordingBands)
        // A fill of another rasterizer, drawn at once, comes after the ones recorded before it.
        rasterizer.fill(Path.rect(Rect(x: 0, y: 0, width: 64, height: 100)), color: .white, into: canvas)
        Rasterizer().fill(Path.rect(Rect(x: 0, y: 50, width: 64, height: 10)), color: .black, into: canvas)
        #expect(canvas[10, 55] == Color.black.premultipliedPixel)
        #expect(canvas[10, 20] == Color.white.premultipliedPixel)
        rasterizer.drawBands()
        #expect(!rasterizer.isRecordingBands && !canvas.hasPendingFills)
    }
}

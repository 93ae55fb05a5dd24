import Foundation
import Geometry
@testable import Raster
@testable import RasterKernels
import Testing
import TestSupport
import Colors

/// Adds to `path` a contour of `segments` random lines and curves (cubic, or quadratic) with points in `x` × `y`.
func addRandomContour(to path: inout Path, segments: Int, x: ClosedRange<Double>, y: ClosedRange<Double>, cubic: Bool,
                      _ random: inout SeededRandom) {
    func point() -> Point { Point(random.double(in: x), random.double(in: y)) }
    path.move(to: point())
    for _ in 0..<segments {
        let p = point()
        if random.bool() {
            path.line(to: p)
        } else if cubic {
            path.cubic(to: p, control1: point(), control2: point())
        } else {
            path.quad(to: p, control: point())
        }
    }
}

/// The fill paths (the same kernels compiled for SSE2, AVX2 and AVX-512) give the same pixels, and the vector
/// blend gives what the one-pixel blend gives.
@Suite("Fill paths")
struct FillPathTests {
    /// A canvas of random translucent pixels (premultiplied), so that every blend reads something different.
    static func noise(_ canvas: Canvas, _ random: inout SeededRandom) {
        for i in 0..<(canvas.width * canvas.height) {
            let a = UInt32(random.int(in: 0...255))
            let r = UInt32(random.int(in: 0...Int(a))), g = UInt32(random.int(in: 0...Int(a)))
            let b = UInt32(random.int(in: 0...Int(a)))
            canvas.pixels[i] = a << 24 | r << 16 | g << 8 | b
        }
    }

    @Test("Every fill path this CPU can run draws the same pixels as the portable one: random translucent paths, both rules, clips, over random pixels",
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"))
    func pathsAgree() {
        let paths = FillPath.available
        #expect(paths.first == .portable)
        print("fill paths on this CPU: \(paths.map(\.rawValue).joined(separator: ", ")); fills use \(FillPath.best)")
        let width = 203, height = 97
        var random = SeededRandom(seed: 0xF111_7A75)
        var drawn = 0
        for n in 0..<80 {
            var path = Path()
            for _ in 0..<random.int(in: 1...3) {
                addRandomContour(to: &path, segments: random.int(in: 2...12), x: -20...220, y: -20...115, cubic: true,
                                 &random)
                path.close()
            }
            let color = Color(red: random.double(in: 0...1), green: random.double(in: 0...1),
                              blue: random.double(in: 0...1), alpha: random.bool() ? 1 : random.double(in: 0...1))
            let rule: FillRule = random.bool() ? .nonZero : .evenOdd
            let clip = random.bool() ? Rect(x: random.double(in: 0...60), y: random.double(in: 0...30),
                                            width: random.double(in: 10...200), height: random.double(in: 10...90)) : nil
            let seed = random.next()
            var pictures: [[UInt32]] = []
            for fillPath in paths {
                let canvas = Canvas(width: width, height: height)
                var background = SeededRandom(seed: seed)
                Self.noise(canvas, &background)
                Rasterizer(path: fillPath).fill(path, color: color, rule: rule, clip: clip, into: canvas)
                pictures.append(Array(UnsafeBufferPointer(start: canvas.pixels, count: width * height)))
            }
            for (k, picture) in pictures.enumerated().dropFirst() {
                let differing = zip(picture, pictures[0]).filter { $0 != $1 }.count
                #expect(differing == 0, "case \(n): \(paths[k]) differs from portable in \(differing) pixels")
            }
            drawn += 1
        }
        #expect(drawn == 80)
    }

    @Test("An edge with a NaN coordinate adds nothing to either kind of cells: the kernels are built unchecked, so a NaN must never become a cell index")
    func edgesWithNaNAddNothing() {
        let nan = Double.nan
        let edges = [(Point(nan, 2), Point(5, 9)), (Point(3, 2), Point(nan, 9)), (Point(nan, 2), Point(nan, 9)),
                     (Point(3, nan), Point(5, 9)), (Point(-4, 2), Point(nan, 9)), (Point(30, 2), Point(nan, 9)),
                     (Point(3, 2.5), Point(nan, 2.7)), (Point(nan, 0.5), Point(40, 30))]
        var cells = CoverageCells()
        defer { cells.release() }
        cells.begin(area: ClipBox(minX: 0, minY: 0, maxX: 16, maxY: 16))
        for (a, b) in edges { cells.addEdge(from: a, to: b) }
        #expect(cells.isEmpty)
        var storage = [Int32](repeating: 0, count: 24 * 17)
        storage.withUnsafeMutableBufferPointer { buffer in
            var interior = InteriorCells(cells: buffer.baseAddress!, stride: 24, maxX: 16, maxY: 16)
            for (a, b) in edges { interior.addEdge(from: a, to: b) }
        }
        #expect(storage.allSatisfy { $0 == 0 })
    }

    @Test("Filling pixels (a canvas cleared) sets exactly the pixels asked for, at any count and alignment, on the portable path and on the widest")
    func fillSetsExactlyThePixelsAskedFor() {
        let buffer = UnsafeMutablePointer<UInt32>.allocate(capacity: 200)
        defer { buffer.deallocate() }
        for count in [0, 1, 7, 15, 16, 17, 31, 64, 100, 150] {
            for start in 0..<17 {
                buffer.initialize(repeating: 0xDEAD_BEEF, count: 200)
                PortableFill.fill(buffer + start, count: count, with: 0x8011_2233)
                for i in 0..<200 {
                    let inside = i >= start && i < start + count
                    #expect(buffer[i] == (inside ? 0x8011_2233 : 0xDEAD_BEEF), "count \(count), start \(start), pixel \(i)")
                }
            }
        }
        for (width, height) in [(1, 1), (3, 5), (17, 3), (750, 2)] {
            let canvas = Canvas(width: width, height: height)
            canvas.clear(to: Color(red: 1, green: 0, blue: 0, alpha: 0.5))
            let expected = Color(red: 1, green: 0, blue: 0, alpha: 0.5).premultipliedPixel
            #expect((0..<(width * height)).allSatisfy { canvas.pixels[$0] == expected }, "\(width)×\(height)")
        }
    }

    @Test("The vector blend of eight pixels is the one-pixel blend, lane for lane, at every coverage")
    func vectorBlendIsTheScalarBlend() {
        var random = SeededRandom(seed: 0xB1E2D)
        for _ in 0..<400 {
            let a = UInt32(random.int(in: 0...255))
            let color = a << 24 | UInt32(random.int(in: 0...Int(a))) << 16 | UInt32(random.int(in: 0...Int(a))) << 8
                | UInt32(random.int(in: 0...Int(a)))
            let blend = VectorBlend(color)
            for base in stride(from: 0, to: 256, by: 8) {
                let coverage = SIMD8<UInt32>((0..<8).map { UInt32(base + $0) })
                let under = SIMD8<UInt32>((0..<8).map { _ in UInt32(truncatingIfNeeded: random.next()) })
                let out = blend.blend(coverage, over: under)
                for i in 0..<8 {
                    let expected = Pixel.sourceOver(Pixel.scale(color, by: coverage[i]), under[i])
                    #expect(out[i] == expected, "colour \(String(color, radix: 16)), coverage \(coverage[i])")
                    #expect(Lanes.blend(Lanes.spread(color), coverage: coverage[i], over: under[i]) == expected)
                }
            }
        }
    }

    @Test("Dividing by 255 with a multiply-high rounds every product of two bytes to the nearest whole number, as the one-pixel path does")
    func divideBy255IsExact() {
        var products = [UInt16]()
        for a in 0...255 { for b in 0...255 { products.append(UInt16(a * b)) } }
        for start in stride(from: 0, to: products.count, by: 16) {
            var lanes = VectorBlend.Halves()
            for i in 0..<16 { lanes[i] = products[start + i] }
            let quotients = VectorBlend.divide255(lanes)
            for i in 0..<16 {
                let p = Int(lanes[i])
                // Nearest to p / 255 (no product of two bytes lies halfway), and the one-pixel path's form.
                #expect(Int(quotients[i]) == (2 * p + 255) / 510, "\(p)")
                #expect(Int(quotients[i]) == (p + 128 + (p + 128) >> 8) >> 8, "\(p)")
            }
        }
    }

    @Test("A path the CPU cannot run falls back to the widest it can; REFRESHLAB_FILL_PATH names one to compare")
    func fallBack() {
        for asked in FillPath.allCases {
            let path = Rasterizer(path: asked).path
            #expect(FillPath.available.contains(path))
            #expect(path <= asked)
            #expect(path == (FillPath.available.contains(asked) ? asked : FillPath.available.last { $0 < asked }))
        }
        #expect(FillPath.avx512.requiredFlags.contains("avx512bw"))
        #expect(FillPath.portable.requiredFlags.isEmpty)
    }
}

/// `Rasterizer.stroke` streams a stroke's outline into the cells; it must draw what filling the built outline draws.
@Suite("Strokes straight into the cells")
struct StrokeIntoCellsTests {
    @Test("Rasterizer.stroke draws exactly what filling path.stroked(…) draws: random open and closed paths, every cap and join, dashes, transforms that turn and squash, clips")
    func sameAsFillingTheOutline() {
        var random = SeededRandom(seed: 0x57_20CE)
        let width = 120, height = 90
        var differing = 0
        for n in 0..<150 {
            var path = Path()
            addRandomContour(to: &path, segments: random.int(in: 1...6), x: -10...130, y: -10...100, cubic: false,
                             &random)
            if random.bool() { path.close() }
            let style = StrokeStyle(lineWidth: random.double(in: 0.3...24),
                                    lineCap: LineCap.allCases[random.int(in: 0...LineCap.allCases.count - 1)],
                                    lineJoin: LineJoin.allCases[random.int(in: 0...LineJoin.allCases.count - 1)],
                                    miterLimit: random.double(in: 1...12),
                                    dashPattern: random.int(in: 0...3) == 0 ? [random.double(in: 1...9), random.double(in: 1...9)] : [],
                                    dashPhase: random.double(in: 0...5))
            let angle = random.double(in: -3...3)
            let transform = AffineTransform(a: cos(angle) * random.double(in: 0.3...1.6), b: sin(angle),
                                            c: -sin(angle) * random.double(in: 0.3...1.6), d: cos(angle),
                                            tx: random.double(in: -20...40), ty: random.double(in: -20...40))
            let clip = random.bool() ? Rect(x: random.double(in: 0...40), y: random.double(in: 0...30),
                                            width: random.double(in: 10...100), height: random.double(in: 10...80)) : nil
            let color = Color(red: 0.2, green: 0.5, blue: 0.9, alpha: random.bool() ? 1 : 0.6)
            let tolerance = 0.1
            let streamed = Canvas(width: width, height: height), built = Canvas(width: width, height: height)
            streamed.clear(to: .white)
            built.clear(to: .white)
            Rasterizer().stroke(path, style: style, transform: transform, tolerance: tolerance, color: color, clip: clip,
                                into: streamed)
            Rasterizer().fill(path.stroked(style, tolerance: tolerance), transform: transform, color: color, clip: clip,
                              into: built)
            let count = (0..<(width * height)).filter { streamed.pixels[$0] != built.pixels[$0] }.count
            #expect(count == 0, "case \(n): \(count) pixels differ; style \(style), transform \(transform)")
            differing += count
        }
        #expect(differing == 0)
    }
}

/// A straight segment's stroke draws the rows between its caps straight onto the pixels (`StraightStrip`): they must be
/// the pixels its outline's cells give, byte for byte.
@Suite("Straight strips")
struct StraightStripTests {
    @Test("A straight segment's stroke, its rows between the caps drawn as a strip, draws exactly what filling its outline draws: random hairlines and thick lines at every slant, butt, square and round caps, the canvas's and a clip's sides, narrow canvases, every fill path, bands on 1 to 3 threads")
    func sameAsTheCells() {
        var random = SeededRandom(seed: 0x57_41B5)
        var drawnAsStrips = 0
        let cases = 240
        for n in 0..<cases {
            let width = random.int(in: 0...5) == 0 ? random.int(in: 1...12) : random.int(in: 20...160)
            let height = random.int(in: 10...140)
            // Mostly steep and across the canvas, the strip's case, but every slant and length.
            let p0 = Point(random.double(in: -30...Double(width + 30)), random.double(in: -30...20))
            let angle = random.int(in: 0...3) == 0 ? random.double(in: -.pi ... .pi)
                : .pi / 2 + random.double(in: -0.9...0.9)
            let length = random.int(in: 0...4) == 0 ? random.double(in: 0.5...20) : Double(height + 30)
            var path = Path()
            path.move(to: p0)
            // Some upright, whose sides the edge loop adds as columns.
            let upright = random.int(in: 0...5) == 0
            path.line(to: Point(upright ? p0.x : p0.x + length * cos(angle), p0.y + length * (upright ? 1 : sin(angle))))
            let style = StrokeStyle(lineWidth: random.int(in: 0...2) == 0 ? random.double(in: 1...9)
                                        : random.double(in: 0.03...1.2),
                                    lineCap: [.butt, .square, .butt, .round][random.int(in: 0...3)])
            let transform: Geometry.AffineTransform = upright || random.bool() ? .identity
                : AffineTransform(a: random.double(in: 0.5...1.5), b: random.double(in: -0.3...0.3),
                                  c: random.double(in: -0.3...0.3), d: random.double(in: 0.5...1.5),
                                  tx: random.double(in: -5...5), ty: random.double(in: -5...5))
            let clip = random.int(in: 0...2) == 0 ? Rect(x: random.double(in: 0...20), y: random.double(in: 0...20),
                                                         width: random.double(in: 1...Double(width)),
                                                         height: random.double(in: 5...Double(height))) : nil
            let color = Color(red: random.double(in: 0...1), green: random.double(in: 0...1),
                              blue: random.double(in: 0...1), alpha: random.bool() ? 1 : random.double(in: 0.05...1))
            let seed = random.next()
            // The cells' pixels: the outline filled as a path.
            let expected = Canvas(width: width, height: height)
            var noise = SeededRandom(seed: seed)
            FillPathTests.noise(expected, &noise)
            Rasterizer().fill(path.stroked(style, tolerance: 0.1), transform: transform, color: color, clip: clip,
                              into: expected)
            if StraightStripTests.makesStrip(path, style: style, transform: transform, clip: clip, width: width,
                                             height: height) {
                drawnAsStrips += 1
            }
            for fillPath in FillPath.available {
                let threads = random.int(in: 1...3), shift = random.int(in: 0...6)
                let rasterizer = Rasterizer(path: fillPath, threads: threads, bandShift: shift)
                let canvas = Canvas(width: width, height: height)
                var noise = SeededRandom(seed: seed)
                FillPathTests.noise(canvas, &noise)
                rasterizer.beginBands()
                rasterizer.stroke(path, style: style, transform: transform, tolerance: 0.1, color: color, clip: clip,
                                  into: canvas)
                rasterizer.drawBands()
                let differing = (0..<(width * height)).filter { canvas.pixels[$0] != expected.pixels[$0] }.count
                #expect(differing == 0, "case \(n) (\(fillPath), \(threads) threads, bands of \(1 << shift) rows): \(differing) pixels differ; \(width)×\(height), \(path), \(style), clip \(String(describing: clip))")
            }
        }
        // Most cases must have gone through the strip, or the test compares the cells with themselves.
        #expect(drawnAsStrips >= cases / 5, "only \(drawnAsStrips) of \(cases) strokes were drawn as strips")
    }

    /// Whether the stroke's outline, on one thread, has rows drawn as a strip.
    static func makesStrip(_ path: Path, style: StrokeStyle, transform: Geometry.AffineTransform, clip: Rect?, width: Int,
                           height: Int) -> Bool {
        let edges = EdgeList()
        var outline = edges
        Stroker().stroke(path, style: style, tolerance: 0.1, transform: transform, into: &outline)
        guard let box = Rasterizer.clipBox(canvas: Canvas(width: width, height: height), clip: clip),
              let area = Rasterizer.strokeArea(outline: edges.ends, box: box) else { return false }
        var cells = CoverageCells()
        defer { cells.release() }
        cells.begin(area: area)
        return StraightStrip(edges.ends, cells: cells, PortableFill.self) != nil
    }
}

import Foundation
import Geometry
import Testing
import TestSupport
@testable import Raster
import Colors

/// Coverage is exact area: pixel-aligned shapes give whole pixels, half pixels give 50 %, curves their area.
@Suite struct CoverageTests {
    @Test func pixelAlignedRectangleCoversWholePixelsOnly() {
        let canvas = Canvas(width: 20, height: 16)
        Rasterizer().fill(.rect(Rect(x: 3, y: 2, width: 7, height: 5)), color: Color(rgb: 255, 0, 0), into: canvas)
        for y in 0..<16 {
            for x in 0..<20 {
                let inside = (3..<10).contains(x) && (2..<7).contains(y)
                #expect(canvas[x, y] == (inside ? 0xFFFF_0000 : 0), "pixel (\(x), \(y))")
            }
        }
    }

    @Test func halfPixelEdgesGiveHalfCoverage() {
        let canvas = Canvas(width: 12, height: 8)
        // Left side at x = 2.5 and top side at y = 1.5: those pixels are half covered, 0.5 · 255 rounds to 128;
        // the corner pixel is a quarter covered, 63.75 rounds to 64.
        Rasterizer().fill(.rect(Rect(x: 2.5, y: 1.5, width: 5.5, height: 3.5)), color: .black, into: canvas)
        #expect(canvas[2, 1] >> 24 == 64)
        #expect(canvas[2, 3] >> 24 == 128)
        #expect(canvas[5, 1] >> 24 == 128)
        #expect(canvas[5, 3] >> 24 == 255)
        #expect(canvas[7, 4] >> 24 == 255)
        #expect(canvas[8, 3] >> 24 == 0)
        #expect(canvas[5, 5] >> 24 == 0)
    }

    @Test func diagonalEdgeHalvesThePixelsItCrosses() {
        // The hypotenuse x + y = 10 runs corner to corner through pixels (i, 9 − i), cutting each in half.
        let canvas = Canvas(width: 12, height: 12)
        Rasterizer().fill(polygon([Point(0, 0), Point(10, 0), Point(0, 10)]), color: .white, into: canvas)
        for y in 0..<12 {
            for x in 0..<12 {
                let expected: UInt32 = x + y <= 8 ? 255 : (x + y == 9 ? 128 : 0)
                #expect(canvas[x, y] >> 24 == expected, "pixel (\(x), \(y))")
            }
        }
    }

    @Test(arguments: [12.75, 25.5, 40.0])
    func circleCoverageSumsToItsArea(radius: Double) {
        let canvas = Canvas(width: 101, height: 101)
        let rasterizer = Rasterizer()
        // A fine tolerance, so that only the four-cubic circle (radial error ≤ 0.027 %) and 8-bit rounding remain.
        rasterizer.tolerance = 0.001
        let disc = Path.ellipse(in: Rect(x: 50.3 - radius, y: 50.6 - radius, width: 2 * radius, height: 2 * radius))
        rasterizer.fill(disc, color: .white, into: canvas)
        let expected = Double.pi * radius * radius
        #expect(abs(coveredArea(canvas) - expected) / expected < 0.001)
    }

    @Test func convexPolygonsMatchExactAreaPerPixel() {
        var rng = SeededRandom(seed: 0x5EED_0001)
        CoverageTests.expectExactAreas(rounds: 40, on: Canvas(width: 32, height: 32)) { _ in
            (randomConvexPolygon(&rng, center: Point(rng.double(in: 5...27), rng.double(in: 5...27)),
                                 radius: rng.double(in: 1...14), count: rng.int(in: 3...12)), .nonZero)
        }
    }

    /// An area at most six pixels wide is composited a group of eight a row without marks, and cell by cell where
    /// that group would reach past the canvas row: thin slanted quadrilaterals at every place across the canvas, the
    /// last eight columns included, cover each pixel by its exact area.
    @Test func narrowShapesMatchExactAreaAtEveryColumn() {
        var rng = SeededRandom(seed: 0x5EED_0004)
        CoverageTests.expectExactAreas(rounds: 60, on: Canvas(width: 24, height: 12)) { round in
            let x = Double(round % 30) * 0.8 + rng.double(in: 0...0.5), lean = rng.double(in: -1.5...1.5)
            let thickness = rng.double(in: 0.1...2.5), top = rng.double(in: 0...3), bottom = rng.double(in: 9...12)
            return ([Point(x, top), Point(x + thickness, top), Point(x + thickness + lean, bottom),
                     Point(x + lean, bottom)], .nonZero)
        }
    }

    /// The compositor reads a row's marks one 64-bit word per 512 cells, with a loop of its own for areas of one word
    /// and of two: fills of every width from one word to four, with either rule, cover each pixel by its exact area.
    @Test func wideConvexPolygonsMatchExactAreaPerPixel() {
        var rng = SeededRandom(seed: 0x5EED_0003)
        let width = 1700.0, height = 10.0
        // Half widths whose areas take one, two, three and four words of marks a row.
        let halfWidths: [ClosedRange<Double>] = [5...245, 262...495, 520...745, 772...840]
        CoverageTests.expectExactAreas(rounds: 32, on: Canvas(width: Int(width), height: Int(height))) { round in
            let rx = rng.double(in: halfWidths[round % 4]), ry = rng.double(in: 1...4.5)
            let center = Point(rng.double(in: rx...(width - rx)), rng.double(in: ry...(height - ry)))
            let points = randomConvexPolygon(&rng, center: .zero, radius: 1, count: rng.int(in: 4...9))
                .map { Point(center.x + rx * $0.x, center.y + ry * $0.y) }
            return (points, round % 8 < 4 ? .nonZero : .evenOdd)
        }
    }

    /// Fills the polygon and rule that `make` gives for each round, white on a clear `canvas`, and expects every
    /// pixel within half a level of its exact area: rounding to 8 bits is worth half a level, and the fixed-point
    /// cells add far less than a hundredth.
    static func expectExactAreas(rounds: Int, on canvas: Canvas, _ make: (Int) -> ([Point], FillRule)) {
        let rasterizer = Rasterizer()
        for round in 0..<rounds {
            canvas.clear(to: .clear)
            let (points, rule) = make(round)
            rasterizer.fill(polygon(points), color: .white, rule: rule, into: canvas)
            let worst = worstAreaDifference(canvas, points)
            let place = "round \(round), \(rule), at (\(worst.x), \(worst.y))"
            #expect(worst.levels <= 0.51, "\(place): off by \(worst.levels) levels")
        }
    }
}

/// Fill rules on shapes whose windings are known by hand.
@Suite struct FillRuleTests {
    /// A five-pointed star drawn in one stroke: its inner pentagon has winding 2.
    static func pentagram(radius r: Double, center c: Point) -> Path {
        polygon((0..<5).map { k in
            let a = -Double.pi / 2 + Double(k) * 4 * Double.pi / 5
            return Point(c.x + r * cos(a), c.y + r * sin(a))
        })
    }

    @Test func evenOddEmptiesTheStarsCentreAndNonZeroFillsIt() {
        let r = 40.0
        let star = FillRuleTests.pentagram(radius: r, center: Point(50, 50))
        let nonZero = Canvas(width: 100, height: 100), evenOdd = Canvas(width: 100, height: 100)
        let rasterizer = Rasterizer()
        rasterizer.fill(star, color: .white, rule: .nonZero, into: nonZero)
        rasterizer.fill(star, color: .white, rule: .evenOdd, into: evenOdd)
        #expect(nonZero[50, 50] >> 24 == 255)
        #expect(evenOdd[50, 50] >> 24 == 0)
        // Just below the top point the arm is about 4 px wide: both rules fill it.
        #expect(nonZero[49, 16] >> 24 == 255)
        #expect(evenOdd[49, 16] >> 24 == 255)
        // The difference is the inner pentagon: circumradius r·cos 72°/cos 36°, area (5/2)·ri²·sin 72°.
        let ri = r * cos(2 * Double.pi / 5) / cos(Double.pi / 5)
        let pentagon = 2.5 * ri * ri * sin(2 * Double.pi / 5)
        let difference = coveredArea(nonZero) - coveredArea(evenOdd)
        #expect(abs(difference - pentagon) / pentagon < 0.005)
    }

    @Test func nestedContoursOfTheSameDirection() {
        var path = Path.rect(Rect(x: 0, y: 0, width: 10, height: 10))
        path.addRect(Rect(x: 3, y: 3, width: 4, height: 4))
        let nonZero = Canvas(width: 10, height: 10), evenOdd = Canvas(width: 10, height: 10)
        Rasterizer().fill(path, color: .black, rule: .nonZero, into: nonZero)
        Rasterizer().fill(path, color: .black, rule: .evenOdd, into: evenOdd)
        #expect(nonZero[5, 5] == 0xFF00_0000 && nonZero[1, 1] == 0xFF00_0000)
        #expect(evenOdd[5, 5] == 0 && evenOdd[1, 1] == 0xFF00_0000)
    }

    @Test func rawValuesAreTheSVGNames() {
        #expect(FillRule(rawValue: "nonzero") == .nonZero)
        #expect(FillRule(rawValue: "evenodd") == .evenOdd)
        #expect(FillRule(rawValue: "winding") == nil)
    }
}

/// Clipping to the canvas and to a rectangle, fractional or not, and drawing nothing outside them.
@Suite struct ClipTests {
    @Test func fractionalClipGivesPartialCoverageAtItsSides() {
        let canvas = Canvas(width: 10, height: 10)
        let clip = Rect(x: 2.25, y: 3.5, width: 4.5, height: 2)
        Rasterizer().fill(.rect(Rect(x: -5, y: -5, width: 30, height: 30)), color: .white, clip: clip, into: canvas)
        // Columns 2 and 6 are 3/4 inside, rows 3 and 5 half: 0.375 · 255 → 96, 0.75 · 255 → 191, 0.5 · 255 → 128.
        let expected: [[UInt32]] = [
            [96, 128, 128, 128, 96],
            [191, 255, 255, 255, 191],
            [96, 128, 128, 128, 96],
        ]
        for y in 0..<10 {
            for x in 0..<10 {
                let want = (3...5).contains(y) && (2...6).contains(x) ? expected[y - 3][x - 2] : 0
                #expect(canvas[x, y] >> 24 == want, "pixel (\(x), \(y))")
            }
        }
    }

    @Test func clippedPolygonsMatchExactAreaOfTheIntersection() {
        var rng = SeededRandom(seed: 0x5EED_0002)
        let rasterizer = Rasterizer()
        let canvas = Canvas(width: 24, height: 24)
        for round in 0..<30 {
            canvas.clear(to: .clear)
            let points = randomConvexPolygon(&rng, center: Point(rng.double(in: 4...20), rng.double(in: 4...20)),
                                             radius: rng.double(in: 2...12), count: rng.int(in: 3...9))
            let clip = Rect(x: rng.double(in: -2...10), y: rng.double(in: -2...10),
                            width: rng.double(in: 0.3...14), height: rng.double(in: 0.3...14))
            rasterizer.fill(polygon(points), color: .white, clip: clip, into: canvas)
            let worst = worstAreaDifference(canvas, clipped(points, to: clip))
            #expect(worst.levels <= 0.51, "round \(round): off by \(worst.levels) levels at (\(worst.x), \(worst.y))")
        }
    }

    @Test func canvasEdgesClipExactly() {
        // The same polygon drawn into a large canvas and, shifted, into a small window of it: the pixels agree.
        var rng = SeededRandom(seed: 0x5EED_0003)
        let rasterizer = Rasterizer()
        let big = Canvas(width: 64, height: 64), small = Canvas(width: 24, height: 20)
        for _ in 0..<30 {
            big.clear(to: .clear)
            small.clear(to: .clear)
            let points = (0..<rng.int(in: 3...10)).map { _ in Point(rng.double(in: 0...64), rng.double(in: 0...64)) }
            let rule: FillRule = rng.int(in: 0...1) == 0 ? .nonZero : .evenOdd
            let dx = rng.int(in: 0...40), dy = rng.int(in: 0...44)
            rasterizer.fill(polygon(points), color: .white, rule: rule, into: big)
            rasterizer.fill(polygon(points), transform: AffineTransform(translationX: Double(-dx), y: Double(-dy)),
                            color: .white, rule: rule, into: small)
            var worst = 0
            for y in 0..<20 {
                for x in 0..<24 {
                    worst = max(worst, abs(Int(small[x, y] >> 24) - Int(big[x + dx, y + dy] >> 24)))
                }
            }
            #expect(worst <= 1)
        }
    }

    @Test func steepEdgesAcrossASideKeepTheirWindingInEveryRow() {
        // Tall thin quadrilaterals whose left edge crosses the left side of the canvas or of a clip box, or whose
        // right edge crosses the right side, at slopes from nearly vertical to a few pixels a row. The part beyond
        // the side is pushed onto it, so every column wholly inside has the coverage it has in a wider canvas; a
        // piece of the edge lost where it is split (one cut off a hair short of the side by rounding is not
        // vertical, which happens most on the canvas's sides, 0 relative to the fill's area) leaves rows wrong.
        var rng = SeededRandom(seed: 0x5EED_0007)
        let rasterizer = Rasterizer()
        let near = Canvas(width: 32, height: 40), far = Canvas(width: 64, height: 40)
        let shift = AffineTransform(translationX: 16, y: 0)
        let leans: [Double] = [1e-12, 1e-9, 1e-6, 1e-3, 0.1, 1, 5]
        for round in 0..<400 {
            near.clear(to: .clear)
            far.clear(to: .clear)
            let right = rng.int(in: 0...1) == 1, onCanvas = rng.int(in: 0...1) == 1
            let side = onCanvas ? (right ? 32 : 0) : rng.double(in: 10...20)
            let top = rng.double(in: 0...5), bottom = rng.double(in: 30...40)
            let lean = leans[rng.int(in: 0...(leans.count - 1))]
            // The crossing edge runs from one side of `side` to the other; the opposite edge lies well inside.
            let a = side - rng.double(in: 0...1) * lean, b = side + rng.double(in: 0...1) * lean
            let (upper, lower) = rng.int(in: 0...1) == 0 ? (a, b) : (b, a)
            let inner = right ? side - rng.double(in: 3...6) : side + rng.double(in: 3...6)
            let quad = polygon([Point(upper, top), Point(lower, bottom), Point(inner, bottom), Point(inner, top)])
            let clip = right ? Rect(x: 0, y: 0, width: side, height: 40) : Rect(x: side, y: 0, width: 32 - side,
                                                                               height: 40)
            rasterizer.fill(quad, color: .white, clip: clip, into: near)
            rasterizer.fill(quad, transform: shift, color: .white, into: far)
            let columns = right ? 0..<Int(side) : Int(side.rounded(.up))..<32
            var worst = 0
            for y in 0..<40 {
                for x in columns { worst = max(worst, abs(Int(near[x, y] >> 24) - Int(far[x + 16, y] >> 24))) }
            }
            #expect(worst <= 1, "round \(round): side \(side), lean \(lean), right \(right): off by \(worst) levels")
        }
    }

    @Test func randomPathsNeverTouchPixelsOutsideTheClip() {
        var rng = SeededRandom(seed: 0x5EED_0004)
        let rasterizer = Rasterizer()
        let canvas = Canvas(width: 48, height: 40)
        // A guard colour that no fill below can produce by accident (a valid premultiplied pixel).
        let guardPixel: UInt32 = 0x8040_2010
        let scales: [Double] = [1, 60, 1e4, 1e6, 1e9]
        for round in 0..<300 {
            canvas.pixels.update(repeating: guardPixel, count: canvas.pixelCount)
            let clip = Rect(x: rng.double(in: -5...30), y: rng.double(in: -5...25),
                            width: rng.double(in: 0...30), height: rng.double(in: 0...30))
            let spread = scales[rng.int(in: 0...(scales.count - 1))]
            var path = Path()
            func point() -> Point {
                Point(24 + rng.double(in: -1...1) * spread, 20 + rng.double(in: -1...1) * spread)
            }
            for _ in 0..<rng.int(in: 1...4) {
                path.move(to: point())
                for _ in 0..<rng.int(in: 1...12) {
                    switch rng.int(in: 0...2) {
                    case 0: path.line(to: point())
                    case 1: path.quad(to: point(), control: point())
                    default: path.cubic(to: point(), control1: point(), control2: point())
                    }
                }
                if rng.int(in: 0...1) == 0 { path.close() }
            }
            let color = Color(red: rng.double(in: 0...1), green: rng.double(in: 0...1), blue: rng.double(in: 0...1),
                              alpha: rng.double(in: 0...1))
            let rule: FillRule = rng.int(in: 0...1) == 0 ? .nonZero : .evenOdd
            rasterizer.fill(path, color: color, rule: rule, clip: clip, into: canvas)

            let x0 = Int(clip.minX.rounded(.down)), x1 = Int(clip.maxX.rounded(.up))
            let y0 = Int(clip.minY.rounded(.down)), y1 = Int(clip.maxY.rounded(.up))
            var outside = 0, malformed = 0
            for y in 0..<40 {
                for x in 0..<48 {
                    let p = canvas[x, y]
                    if !((x0..<x1).contains(x) && (y0..<y1).contains(y)) && p != guardPixel { outside += 1 }
                    let a = p >> 24
                    if (p >> 16) & 0xFF > a || (p >> 8) & 0xFF > a || p & 0xFF > a { malformed += 1 }
                }
            }
            #expect(outside == 0, "round \(round): \(outside) pixels changed outside the clip")
            #expect(malformed == 0, "round \(round): \(malformed) pixels are not valid premultiplied colours")
        }
    }
}

/// Geometry at any coordinates: huge values work, broken values are skipped.
@Suite struct RobustnessTests {
    @Test func hugeRectangleCoversTheCanvasRows() {
        let canvas = Canvas(width: 16, height: 8)
        let huge = Rect(x: -1e6, y: -1e6, width: 2e6, height: 1e6 + 4.5)
        Rasterizer().fill(.rect(huge), color: .white, into: canvas)
        for y in 0..<8 {
            for x in 0..<16 {
                #expect(canvas[x, y] >> 24 == (y < 4 ? 255 : y == 4 ? 128 : 0), "pixel (\(x), \(y))")
            }
        }
    }

    @Test func hugeTriangleCutsTheCanvasAlongItsDiagonal() {
        // The triangle covers y < x near the canvas; its hypotenuse runs through the pixels' corners.
        let canvas = Canvas(width: 12, height: 12)
        let triangle = polygon([Point(-1e6, -1e6), Point(1e6, 1e6), Point(1e6, -1e6)])
        Rasterizer().fill(triangle, color: .white, into: canvas)
        for y in 0..<12 {
            for x in 0..<12 {
                #expect(canvas[x, y] >> 24 == (y < x ? 255 : y == x ? 128 : 0), "pixel (\(x), \(y))")
            }
        }
    }

    @Test func geometryFarOutsideDrawsNothing() {
        let canvas = Canvas(width: 8, height: 8)
        Rasterizer().fill(.ellipse(in: Rect(x: 1e7, y: -1e7, width: 50, height: 50)), color: .white, into: canvas)
        #expect(alphas(canvas).allSatisfy { $0 == 0 })
    }

    @Test func nonFiniteItemsAreSkippedAndLeaveTheRasterizerClean() {
        let canvas = Canvas(width: 16, height: 16)
        let rasterizer = Rasterizer()
        var broken = Path.rect(Rect(x: 2, y: 2, width: 8, height: 8))
        broken.line(to: Point(.nan, 4))
        var infinite = Path.rect(Rect(x: 2, y: 2, width: 8, height: 8))
        infinite.line(to: Point(3, .infinity))
        let square = Path.rect(Rect(x: 2, y: 2, width: 8, height: 8))
        rasterizer.fill(broken, color: .white, into: canvas)
        rasterizer.fill(infinite, color: .white, into: canvas)
        rasterizer.fill(square, transform: AffineTransform(a: .infinity, b: 0, c: 0, d: 1, tx: 0, ty: 0),
                        color: .white, into: canvas)
        rasterizer.fill(square, transform: AffineTransform(translationX: .nan, y: 0), color: .white, into: canvas)
        rasterizer.fill(square, color: .white, clip: Rect(x: .nan, y: 0, width: 10, height: 10), into: canvas)
        rasterizer.fill(square, color: Color(red: 1, green: 1, blue: 1, alpha: .nan), into: canvas)
        rasterizer.fill(square, color: .white, into: canvas)
        rasterizer.tolerance = .nan
        rasterizer.fill(.ellipse(in: Rect(x: 1, y: 1, width: 3, height: 3)), color: .white, into: canvas)

        // Only the last two fills drew; a fresh rasterizer gives the same pixels.
        let fresh = Canvas(width: 16, height: 16)
        Rasterizer().fill(square, color: .white, into: fresh)
        Rasterizer().fill(.ellipse(in: Rect(x: 1, y: 1, width: 3, height: 3)), color: .white, into: fresh)
        #expect(alphas(canvas) == alphas(fresh))
    }
}

/// Source-over compositing of solid colours, and the rasterizer's reuse across fills and canvases.
@Suite struct CompositingTests {
    @Test func translucentBlackOverWhite() {
        let canvas = Canvas(width: 4, height: 4, fill: .white)
        Rasterizer().fill(.rect(Rect(x: 0, y: 0, width: 2, height: 4)), color: Color(white: 0, alpha: 0.5),
                          into: canvas)
        // Alpha 0.5 is the byte 128; white keeps 255 · 127 / 255 = 127 per channel.
        #expect(canvas[0, 0] == 0xFF7F_7F7F)
        #expect(canvas[3, 0] == 0xFFFF_FFFF)
    }

    @Test func halfCoveredTranslucentRedOverBlue() {
        let canvas = Canvas(width: 4, height: 1, fill: Color(rgb: 0, 0, 255))
        Rasterizer().fill(.rect(Rect(x: 0.5, y: 0, width: 3, height: 1)), color: Color(rgb: 255, 0, 0, alpha: 0.6),
                          into: canvas)
        // Source 0.6 → premultiplied 0x99990000; at half coverage it scales to 0x4D4D0000 (153 · 128/255 ≈ 77).
        // Over opaque blue: blue keeps 255 · (255 − 77)/255 = 178, red adds 77, alpha 77 + 178 = 255.
        #expect(canvas[0, 0] == 0xFF4D_00B2)
        #expect(canvas[1, 0] == Pixel.sourceOver(0x9999_0000, 0xFF00_00FF))
    }

    @Test func oneRasterizerServesCanvasesOfEverySize() {
        let rasterizer = Rasterizer()
        let disc = Path.ellipse(in: Rect(x: 1.5, y: 2.25, width: 9, height: 7))
        var results: [[Int]] = []
        for size in [(12, 12), (300, 200), (12, 12), (13, 40), (12, 12)] {
            let canvas = Canvas(width: size.0, height: size.1)
            rasterizer.fill(disc, color: .white, into: canvas)
            if size == (12, 12) { results.append(alphas(canvas)) }
        }
        #expect(results.count == 3 && results.allSatisfy { $0 == results[0] })
    }

    @Test func preFlattenedEdgesFillLikeThePath() {
        let points = [Point(2.3, 1.1), Point(13.7, 4.2), Point(9.1, 12.8), Point(1.4, 9.9)]
        let edges = points.indices.map { (points[$0], points[($0 + 1) % points.count]) }
        let a = Canvas(width: 16, height: 16), b = Canvas(width: 16, height: 16)
        Rasterizer().fill(polygon(points), color: .white, into: a)
        Rasterizer().fill(edges: edges, color: .white, into: b)
        #expect(alphas(a) == alphas(b))
    }
}

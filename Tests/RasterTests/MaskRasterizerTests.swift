import Geometry
import Testing
import TestSupport
@testable import Raster

/// The coverage-only fill against the full one: a mask must hold exactly the alpha that `Rasterizer.fill` gives
/// in opaque white on a transparent canvas of the mask's size, whether the path lies inside the box (the fast
/// path that glyphs take) or crosses its sides (the clipped path).
@Suite struct MaskRasterizerTests {
    /// A random closed path of lines, quadratic and cubic curves with points in `range`, in two contours.
    static func randomPath(_ g: inout SeededRandom, in range: ClosedRange<Double>) -> Path {
        var p = Path()
        func point() -> Point { Point(g.double(in: range), g.double(in: range)) }
        for _ in 0..<2 {
            p.move(to: point())
            for _ in 0..<g.int(in: 2...6) {
                switch g.int(in: 0...2) {
                case 0: p.line(to: point())
                case 1: p.quad(to: point(), control: point())
                default: p.cubic(to: point(), control1: point(), control2: point())
                }
            }
            p.close()
        }
        return p
    }

    /// The mask's bytes next to the reference fill's alpha, pixel by pixel.
    static func compare(_ path: Path, transform: AffineTransform, rule: FillRule, width: Int, height: Int,
                        with mask: MaskRasterizer) -> (mismatches: Int, ink: Int) {
        let canvas = Canvas(width: width, height: height, fill: .clear)
        Rasterizer().fill(path, transform: transform, color: .white, rule: rule, into: canvas)
        guard let bytes = mask.fill(path, transform: transform, rule: rule, width: width, height: height)
        else { return (width * height, 0) }
        var mismatches = 0, ink = 0
        for i in 0..<(width * height) {
            let expected = Int(canvas.pixels[i] >> 24)
            if Int(bytes[i]) != expected { mismatches += 1 }
            ink += expected
        }
        return (mismatches, ink)
    }

    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func pathsInsideTheBoxMatchTheFullFillExactly(rule: FillRule) {
        var g = SeededRandom(seed: 5)
        let mask = MaskRasterizer()
        var ink = 0
        for _ in 0..<60 {
            let w = g.int(in: 3...48), h = g.int(in: 3...48)
            // Control points inside the box keep the whole path inside it.
            let path = MaskRasterizerTests.randomPath(&g, in: 0...1)
            let t = AffineTransform(a: Double(w), b: 0, c: 0, d: Double(h), tx: 0, ty: 0)
            let r = MaskRasterizerTests.compare(path, transform: t, rule: rule, width: w, height: h, with: mask)
            #expect(r.mismatches == 0)
            ink += r.ink
        }
        #expect(ink > 0)
    }

    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func pathsCrossingTheBoxAreClippedAsTheFullFillClipsThem(rule: FillRule) {
        var g = SeededRandom(seed: 11)
        let mask = MaskRasterizer()
        var ink = 0
        for _ in 0..<60 {
            let w = g.int(in: 3...40), h = g.int(in: 3...40)
            let path = MaskRasterizerTests.randomPath(&g, in: -0.5...1.5)
            let t = AffineTransform(a: Double(w), b: 0, c: 0, d: Double(h), tx: 0.3, ty: -0.2)
            let r = MaskRasterizerTests.compare(path, transform: t, rule: rule, width: w, height: h, with: mask)
            #expect(r.mismatches == 0)
            ink += r.ink
        }
        #expect(ink > 0)
    }

    /// A window gives, inside it, the bytes of the whole fill, for paths inside the box and across its sides, and
    /// leaves the rasterizer as clean as a whole fill does: the next fill matches a fresh rasterizer's.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func aWindowHoldsTheWholeFillsBytes(rule: FillRule) throws {
        var g = SeededRandom(seed: 31)
        let windowed = MaskRasterizer()
        var ink = 0
        for n in 0..<120 {
            let w = g.int(in: 3...40), h = g.int(in: 3...40)
            // Half the paths inside the box, half across its sides; small ones in a large box too.
            let inside = n % 2 == 0
            let path = MaskRasterizerTests.randomPath(&g, in: inside ? 0...1 : -0.5...1.5)
            let s = g.double(in: 0.1...1)
            let t = AffineTransform(a: Double(w) * s, b: 0, c: 0, d: Double(h) * s,
                                    tx: inside ? Double(w) * (1 - s) / 2 : 0.3, ty: inside ? 0 : -0.2)
            let x0 = g.int(in: -2...w), y0 = g.int(in: -2...h)
            let window = PixelBox(minX: x0, minY: y0, maxX: x0 + g.int(in: 0...w), maxY: y0 + g.int(in: 0...h))
            let reference = MaskRasterizer()
            let whole = reference.fill(path, transform: t, rule: rule, width: w, height: h)
            let part = windowed.fill(path, transform: t, rule: rule, width: w, height: h, window: window)
            #expect((whole == nil) == (part == nil))
            guard let whole, let part else { continue }
            let cut = window.intersection(PixelBox(minX: 0, minY: 0, maxX: w, maxY: h))
            for y in cut.minY..<max(cut.minY, cut.maxY) {
                for x in cut.minX..<cut.maxX {
                    #expect(part[y * w + x] == whole[y * w + x], "path \(n), pixel (\(x), \(y))")
                    ink += Int(whole[y * w + x])
                }
            }
            // Whatever the window left in the cells, the next whole fill does not see it.
            let next = MaskRasterizerTests.randomPath(&g, in: -0.2...1.2)
            let other = MaskRasterizer()
            let fresh = try #require(other.fill(next, transform: t, rule: rule, width: w, height: h))
            let reused = try #require(windowed.fill(next, transform: t, rule: rule, width: w, height: h))
            #expect(Array(UnsafeBufferPointer(start: reused, count: w * h))
                    == Array(UnsafeBufferPointer(start: fresh, count: w * h)), "after path \(n)")
            withExtendedLifetime((reference, other)) {}
        }
        #expect(ink > 0)
    }

    @Test func aSmallMaskAfterALargeOneIsCleanAndFull() throws {
        let mask = MaskRasterizer()
        _ = mask.fill(.rect(Rect(x: 0, y: 0, width: 60, height: 60)), width: 60, height: 60)
        let small = try #require(mask.fill(.rect(Rect(x: 1, y: 1, width: 2, height: 1)), width: 4, height: 3))
        #expect(Array(UnsafeBufferPointer(start: small, count: 12)) == [0, 0, 0, 0, 0, 255, 255, 0, 0, 0, 0, 0])
    }

    @Test func brokenInputDrawsNothing() {
        let mask = MaskRasterizer()
        let nan = Path.rect(Rect(x: 0, y: 0, width: Double.nan, height: 2))
        #expect(mask.fill(nan, width: 4, height: 4) == nil)
        #expect(mask.fill(Path(), width: 4, height: 4) == nil)
        #expect(mask.fill(.rect(Rect(x: 0, y: 0, width: 2, height: 2)), width: 0, height: 4) == nil)
        let huge = AffineTransform(a: 1e300, b: 0, c: 0, d: 1e300, tx: 0, ty: 0)
        #expect(mask.fill(.rect(Rect(x: 0, y: 0, width: 2, height: 2)), transform: huge, width: 4, height: 4) == nil)
    }
}

/// The integer glyph rasterizer against the general fill: the same exact-area model, its points rounded to
/// 1/256 px, so every pixel agrees within a few levels and the ink within a fraction of a percent.
@Suite struct GlyphMaskRasterizerTests {
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func pathsInsideTheBoxAgreeWithTheGeneralFill(rule: FillRule) throws {
        var g = SeededRandom(seed: 23)
        let general = MaskRasterizer(), fixed = GlyphMaskRasterizer()
        general.tolerance = 1.0 / 64
        fixed.tolerance = 1.0 / 64
        var inkGeneral = 0, inkFixed = 0, worst = 0
        for _ in 0..<60 {
            let w = g.int(in: 3...48), h = g.int(in: 3...48)
            let path = MaskRasterizerTests.randomPath(&g, in: 0...1)
            // Unequal scales are not the glyph case: map the unit square onto the box by a uniform scale.
            let s = Double(min(w, h)), dx = g.double(in: 0...Double(w) - s), dy = g.double(in: 0...Double(h) - s)
            let t = AffineTransform(a: s, b: 0, c: 0, d: s, tx: dx, ty: dy)
            let a = try #require(general.fill(path, transform: t, rule: rule, width: w, height: h))
            let expected = Array(UnsafeBufferPointer(start: a, count: w * h))
            let b = try #require(fixed.fill(path, scale: s, dx: dx, dy: dy, rule: rule, width: w, height: h))
            for i in 0..<(w * h) {
                worst = max(worst, abs(Int(b[i]) - Int(expected[i])))
                inkGeneral += Int(expected[i])
                inkFixed += Int(b[i])
            }
        }
        #expect(inkGeneral > 0)
        #expect(worst <= 4)
        #expect(abs(Double(inkFixed - inkGeneral)) <= 0.002 * Double(inkGeneral))
    }

    @Test func edgesOnTheFixedGridGiveExactCoverage() throws {
        let fixed = GlyphMaskRasterizer()
        // x from 0.25 to 2.5, y from 0.5 to 2: quarter-pixel columns and half rows, all exact in 1/256 px.
        let bytes = try #require(fixed.fill(.rect(Rect(x: 0.25, y: 0.5, width: 2.25, height: 1.5)), scale: 1,
                                            dx: 0, dy: 0, width: 3, height: 2))
        #expect(Array(UnsafeBufferPointer(start: bytes, count: 6)) == [96, 128, 64, 192, 255, 128])
    }

    @Test func aSlantedEdgeCoversTheExactTriangle() throws {
        let fixed = GlyphMaskRasterizer()
        // A right triangle over a 4 × 1 box: the hypotenuse crosses four pixels within one row.
        var p = Path()
        p.move(to: Point(0, 0)); p.line(to: Point(4, 1)); p.line(to: Point(0, 1)); p.close()
        let bytes = try #require(fixed.fill(p, scale: 1, dx: 0, dy: 0, width: 4, height: 1))
        // Pixel k keeps 1 − (2k + 1)/8 of its area below the line: 256 levels a pixel, truncated.
        #expect(Array(UnsafeBufferPointer(start: bytes, count: 4)) == [224, 160, 96, 32])
    }

    @Test func evenOddLeavesTheInnerSquareEmpty() throws {
        let fixed = GlyphMaskRasterizer()
        var p = Path.rect(Rect(x: 0, y: 0, width: 4, height: 4))
        for e in Path.rect(Rect(x: 1, y: 1, width: 2, height: 2)).elements { p.append(e) }
        let even = try #require(fixed.fill(p, scale: 1, dx: 0, dy: 0, rule: .evenOdd, width: 4, height: 4))
        #expect(even[5] == 0 && even[0] == 255)
        let nonZero = try #require(fixed.fill(p, scale: 1, dx: 0, dy: 0, rule: .nonZero, width: 4, height: 4))
        #expect(nonZero[5] == 255 && nonZero[0] == 255)
    }

    @Test func aSmallMaskAfterALargeOneIsCleanAndFull() throws {
        let fixed = GlyphMaskRasterizer()
        // Larger than the room a new rasterizer starts with: the buffers grow, and the big mask is full.
        let side = GlyphMaskRasterizer.initialSide + 72
        let big = try #require(fixed.fill(.rect(Rect(x: 0, y: 0, width: Double(side), height: 60)), scale: 1,
                                          dx: 0, dy: 0, width: side, height: 60))
        #expect(UnsafeBufferPointer(start: big, count: side * 60).allSatisfy { $0 == 255 })
        let small = try #require(fixed.fill(.rect(Rect(x: 1, y: 1, width: 2, height: 1)), scale: 1, dx: 0, dy: 0,
                                            width: 4, height: 3))
        #expect(Array(UnsafeBufferPointer(start: small, count: 12)) == [0, 0, 0, 0, 0, 255, 255, 0, 0, 0, 0, 0])
    }

    @Test func brokenInputDrawsNothingOrStaysInTheBox() throws {
        let fixed = GlyphMaskRasterizer()
        #expect(fixed.fill(Path(), scale: 1, dx: 0, dy: 0, width: 4, height: 4) == nil)
        #expect(fixed.fill(.rect(Rect(x: 0, y: 0, width: 2, height: 2)), scale: .nan, dx: 0, dy: 0,
                           width: 4, height: 4) == nil)
        #expect(fixed.fill(.rect(Rect(x: 0, y: 0, width: 2, height: 2)), scale: 1, dx: 0, dy: 0,
                           width: 0, height: 4) == nil)
        // A path far outside the box is clamped onto its sides: whatever it draws, it draws inside the box.
        let far = try #require(fixed.fill(.rect(Rect(x: -1e6, y: -5, width: 3e6, height: 1e7)), scale: 1,
                                          dx: 0, dy: 0, width: 4, height: 4))
        #expect(Array(UnsafeBufferPointer(start: far, count: 16)).allSatisfy { $0 == 255 })
    }
}

import Geometry
import Testing
@testable import Raster

/// The coverage-only fill against the full one: a mask must hold exactly the alpha that `Rasterizer.fill` gives
/// in opaque white on a transparent canvas of the mask's size, whether the path lies inside the box (the fast
/// path that glyphs take) or crosses its sides (the clipped path).
@Suite struct MaskRasterizerTests {
    /// A random closed path of lines, quadratic and cubic curves with points in `range`, in two contours.
    static func randomPath(_ g: inout SeededGenerator, in range: ClosedRange<Double>) -> Path {
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
                        bounds: Rect?, with mask: MaskRasterizer) -> (mismatches: Int, ink: Int) {
        let canvas = Canvas(width: width, height: height, fill: .clear)
        Rasterizer().fill(path, transform: transform, color: .white, rule: rule, into: canvas)
        guard let bytes = mask.fill(path, transform: transform, rule: rule, width: width, height: height,
                                    bounds: bounds) else { return (width * height, 0) }
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
        var g = SeededGenerator(seed: 5)
        let mask = MaskRasterizer()
        var ink = 0
        for _ in 0..<60 {
            let w = g.int(in: 3...48), h = g.int(in: 3...48)
            // Control points inside the box keep the whole path inside it.
            let path = MaskRasterizerTests.randomPath(&g, in: 0...1)
            let t = AffineTransform(a: Double(w), b: 0, c: 0, d: Double(h), tx: 0, ty: 0)
            let r = MaskRasterizerTests.compare(path, transform: t, rule: rule, width: w, height: h,
                                                bounds: path.controlPointBounds, with: mask)
            #expect(r.mismatches == 0)
            ink += r.ink
        }
        #expect(ink > 0)
    }

    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func pathsCrossingTheBoxAreClippedAsTheFullFillClipsThem(rule: FillRule) {
        var g = SeededGenerator(seed: 11)
        let mask = MaskRasterizer()
        var ink = 0
        for _ in 0..<60 {
            let w = g.int(in: 3...40), h = g.int(in: 3...40)
            let path = MaskRasterizerTests.randomPath(&g, in: -0.5...1.5)
            let t = AffineTransform(a: Double(w), b: 0, c: 0, d: Double(h), tx: 0.3, ty: -0.2)
            let r = MaskRasterizerTests.compare(path, transform: t, rule: rule, width: w, height: h, bounds: nil,
                                                with: mask)
            #expect(r.mismatches == 0)
            ink += r.ink
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

#if canImport(Glibc)
import Glibc
#endif
import Geometry
@testable import Layers
import Motion
@testable import Raster
import Testing
import TestSupport
import Colors

@Suite("Shape layers")
struct ShapeLayerTests {
    /// A circle of radius 12 centred in a 40×40 layer, stroked 4 wide in black with no fill.
    func ring(end: Double) -> ShapeLayer {
        let shape = ShapeLayer(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        shape.path = Path.ellipse(in: Rect(x: 8, y: 8, width: 24, height: 24))
        shape.fillColor = nil
        shape.strokeColor = .black
        shape.lineWidth = 4
        shape.strokeEnd = end
        return shape
    }

    @Test("strokeEnd 0.5 draws half the circle: the lower half (the path runs clockwise from 3 o'clock)")
    func halfCircle() {
        let full = draw(ring(end: 1), background: .clear)
        let half = draw(ring(end: 0.5), background: .clear)
        // A ring of radius r and width w covers 2πrw; half of it πrw ≈ 150.8 px.
        let halfArea = Double.pi * 12 * 4
        #expect(abs(alphaSum(full) - 2 * halfArea) < 0.01 * 2 * halfArea)
        #expect(abs(alphaSum(half) - halfArea) < 0.01 * halfArea)
        // All of it below the centre line (butt caps end exactly on it).
        #expect(alphaSum(half, rows: 0..<20) < 0.5)
        #expect(abs(alphaSum(half, rows: 20..<40) - alphaSum(full, rows: 20..<40)) < 0.5)
    }

    @Test("strokeStart 0.25 and strokeEnd 0.75 draw the left half: trimming goes by length from 3 o'clock")
    func trimFractions() {
        let shape = ring(end: 0.75)
        shape.strokeStart = 0.25
        let canvas = draw(shape, background: .clear)
        // From 6 o'clock clockwise to 12 o'clock: the left half.
        var left = 0.0, right = 0.0
        for y in 0..<40 {
            for x in 0..<40 {
                let a = Double(canvas[x, y] >> 24) / 255
                if x < 20 { left += a } else { right += a }
            }
        }
        #expect(right < 0.5)
        #expect(abs(left - Double.pi * 12 * 4) < 0.01 * Double.pi * 12 * 4)
    }

    @Test("Fill and stroke of one shape at opacity 0.5 are flattened: the stroke does not show the fill through")
    func shapeGroupOpacity() {
        let shape = ShapeLayer(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        shape.path = Path.rect(Rect(x: 10, y: 10, width: 20, height: 20))
        shape.fillColor = red
        shape.strokeColor = red
        shape.lineWidth = 4
        shape.opacity = 0.5
        let renderer = LayerRenderer()
        let canvas = draw(shape, renderer: renderer)
        #expect(canvas[10, 20] == RenderingTests.halfRedOverWhite)   // fill and stroke
        #expect(canvas[8, 20] == RenderingTests.halfRedOverWhite)    // stroke only
        #expect(canvas[20, 20] == RenderingTests.halfRedOverWhite)   // fill only
        #expect(renderer.statistics.offscreenPasses == 1)
    }

    @Test("The stroke outline is built once while its inputs stay the same, and again when one changes")
    func strokeCache() {
        let shape = ring(end: 0.6)
        let renderer = LayerRenderer()
        let canvas = Canvas(width: 40, height: 40)
        for _ in 0..<4 { shape.render(into: canvas, at: 0, renderer: renderer) }
        #expect(shape.strokeBuildCount == 1)
        shape.strokeEnd = 0.7
        shape.render(into: canvas, at: 0, renderer: renderer)
        shape.render(into: canvas, at: 0, renderer: renderer)
        #expect(shape.strokeBuildCount == 2)
        // A small change of scale keeps the tolerance, so the cache holds.
        shape.render(into: canvas, at: 0, scale: 1.1, renderer: renderer)
        #expect(shape.strokeBuildCount == 2)
    }

    @Test("An animated strokeEnd draws the part of the ring for the time it is rendered at")
    func animatedStrokeEnd() {
        let shape = ring(end: 1)
        let grow = BasicAnimation<Double>(keyPath: "strokeEnd", from: 0, to: 1)
        grow.duration = 1
        shape.add(grow, forKey: "grow")
        #expect(shape.shapePresentation(at: 0.5).strokeEnd == 0.5)
        let half = draw(shape, at: 0.5, background: .clear)
        #expect(abs(alphaSum(half) - Double.pi * 12 * 4) < 0.02 * Double.pi * 12 * 4)
        // After the animation the model value, 1, shows.
        let after = draw(shape, at: 2, background: .clear)
        #expect(abs(alphaSum(after) - 2 * Double.pi * 12 * 4) < 0.01 * 2 * Double.pi * 12 * 4)
    }
}

@Suite("Shadows")
struct ShadowTests {
    /// A layer with no content whose shadow is a 10×10 square at (15, 15), black, fully opaque, not offset.
    func shadowSquare(radius: Double) -> Layer {
        let layer = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        layer.shadowPath = Path.rect(Rect(x: 15, y: 15, width: 10, height: 10))
        layer.shadowOpacity = 1
        layer.shadowRadius = radius
        layer.shadowOffset = .zero
        return layer
    }

    /// How many pixels have any alpha.
    func extent(_ c: Canvas) -> Int {
        var n = 0
        for y in 0..<c.height { for x in 0..<c.width where c[x, y] >> 24 != 0 { n += 1 } }
        return n
    }

    @Test("The blur spreads further with the radius and keeps the total alpha of the shape")
    func spreadAndTotal() {
        let sharp = draw(shadowSquare(radius: 0), background: .clear)
        let soft = draw(shadowSquare(radius: 2), background: .clear)
        let softer = draw(shadowSquare(radius: 4), background: .clear)
        #expect(abs(alphaSum(sharp) - 100) < 0.01)
        // Rounding each pixel to 8 bits loses at most half a level per pixel.
        #expect(abs(alphaSum(soft) - 100) < 1.5)
        #expect(abs(alphaSum(softer) - 100) < 2.5)
        #expect(extent(sharp) == 100)
        #expect(extent(soft) > extent(sharp))
        #expect(extent(softer) > extent(soft))
        // The centre is 5 px from the edges: σ = 2 barely reaches it (three boxes spread 4 px), σ = 4 dims it.
        #expect(soft[20, 20] >> 24 > softer[20, 20] >> 24)
        #expect(softer[20, 20] >> 24 < 255)
        #expect(soft[15, 15] >> 24 < sharp[15, 15] >> 24)
    }

    @Test("The blurred profile across a straight edge is close to the Gaussian's: half at the edge, ~16 % one σ out")
    func gaussianProfile() {
        let sigma = 3.0
        let layer = Layer(frame: Rect(x: 0, y: 0, width: 80, height: 80))
        layer.shadowPath = Path.rect(Rect(x: 40, y: -100, width: 200, height: 300))
        layer.shadowOpacity = 1
        layer.shadowRadius = sigma
        layer.shadowOffset = .zero
        let canvas = draw(layer, size: 80, background: .clear)
        // Pixel centres at 39.5 − k: the Gaussian CDF at −(k + 0.5)/σ.
        func cdf(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }
        for k in 0..<8 {
            let got = Double(canvas[39 - k, 40] >> 24) / 255
            let want = cdf(-(Double(k) + 0.5) / sigma)
            #expect(abs(got - want) < 0.03, "pixel \(39 - k): \(got) vs \(want)")
        }
    }

    @Test("Three boxes have the Gaussian's variance to within a box width's rounding")
    func boxVariance() {
        var rng = SeededRandom(seed: 6)
        for _ in 0..<200 {
            let sigma = rng.double(in: 0.5...40)
            let (a, b, c) = ShadowBlur.boxWidths(sigma: sigma)
            #expect(a % 2 == 1 && b % 2 == 1 && c % 2 == 1)
            let variance: Double = [a, b, c].reduce(0.0) { (sum: Double, w: Int) -> Double in sum + (Double(w * w) - 1) / 12 }
            // Moving one box between the two widths changes the variance by (w + 1)/3.
            #expect(abs(variance - sigma * sigma) <= (Double(c) + 1) / 3)
        }
    }

    @Test("The shadow sits under the layer, moved by the offset in points times the scale")
    func offsetAndOrder() {
        let layer = Layer.filled(Rect(x: 5, y: 5, width: 10, height: 10), red)
        layer.shadowOpacity = 1
        layer.shadowRadius = 0
        layer.shadowOffset = Size(5, 5)
        let canvas = draw(layer, scale: 2)
        #expect(canvas[15, 15] == red.premultipliedPixel)         // the layer covers its shadow
        #expect(canvas[35, 35] == Color.black.premultipliedPixel) // the shadow shows beyond it
        #expect(canvas[12, 35] == Color.white.premultipliedPixel)
    }

    @Test("Without a shadow path the shadow takes the shape of the content, sublayers included")
    func contentShadow() {
        let layer = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        layer.addSublayer(Layer.filled(Rect(x: 5, y: 5, width: 10, height: 10), red))
        layer.shadowOpacity = 0.5
        layer.shadowRadius = 0
        layer.shadowOffset = Size(20, 20)
        let canvas = draw(layer, background: .clear)
        #expect(canvas[30, 30] >> 24 == 128)
        #expect(canvas[30, 30] & 0xFFFFFF == 0)
        #expect(canvas[20, 30] == 0)
        #expect(abs(alphaSum(canvas, rows: 25..<35) - 50) < 0.5)
    }
}

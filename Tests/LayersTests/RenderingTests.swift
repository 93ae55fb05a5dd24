import Geometry
@testable import Layers
import Raster
import Testing
import TestSupport
import Colors

@Suite("Rendering")
struct RenderingTests {
    /// Red at 50 % over white, with the renderer's rounding: the opacity becomes 128/255.
    static let halfRedOverWhite = Pixel.sourceOver(Pixel.scale(red.premultipliedPixel, by: 128),
                                                   Color.white.premultipliedPixel)

    @Test("Group opacity: two overlapping opaque sublayers under a 0.5 parent give one uniform 50 % colour")
    func groupOpacity() {
        let parent = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        parent.opacity = 0.5
        parent.addSublayer(Layer.filled(Rect(x: 5, y: 5, width: 20, height: 20), red))
        parent.addSublayer(Layer.filled(Rect(x: 15, y: 15, width: 20, height: 20), red))
        let renderer = LayerRenderer()
        let canvas = draw(parent, renderer: renderer)
        #expect(canvas[10, 10] == RenderingTests.halfRedOverWhite)   // first only
        #expect(canvas[20, 20] == RenderingTests.halfRedOverWhite)   // overlap
        #expect(canvas[30, 30] == RenderingTests.halfRedOverWhite)   // second only
        #expect(canvas[2, 38] == Color.white.premultipliedPixel)
        #expect(renderer.statistics.offscreenPasses == 1)

        // Without the group, each child at 50 % darkens the overlap: the check above is not vacuous.
        parent.opacity = 1
        for child in parent.sublayers { child.opacity = 0.5 }
        let separate = draw(parent, renderer: LayerRenderer())
        #expect(separate[10, 10] == RenderingTests.halfRedOverWhite)
        #expect(separate[20, 20] != RenderingTests.halfRedOverWhite)
    }

    @Test("Opacity multiplies down the tree; one thing under a translucent parent needs no offscreen pass")
    func opacityMultiplies() {
        let parent = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        parent.opacity = 0.5
        let middle = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        middle.opacity = 0.5
        parent.addSublayer(middle)
        middle.addSublayer(Layer.filled(Rect(x: 0, y: 0, width: 40, height: 40), .black))
        let renderer = LayerRenderer()
        let canvas = draw(parent, renderer: renderer)
        // 25 % black over white: 255·0.75 ≈ 191.
        let c = canvas.color(atX: 20, y: 20)
        #expect(abs(c.red * 255 - 191.25) <= 1)
        #expect(renderer.statistics.offscreenPasses == 0)
        #expect(renderer.offscreenCanvasCount == 0)
    }

    @Test("Offscreen canvases are made once and reused frame after frame")
    func offscreenReuse() {
        let parent = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        parent.opacity = 0.5
        parent.addSublayer(Layer.filled(Rect(x: 5, y: 5, width: 20, height: 20), red))
        parent.addSublayer(Layer.filled(Rect(x: 15, y: 15, width: 20, height: 20), blue))
        let renderer = LayerRenderer()
        let canvas = Canvas(width: 40, height: 40, fill: .white)
        for _ in 0..<5 { parent.render(into: canvas, at: 0, renderer: renderer) }
        #expect(renderer.offscreenCanvasCount == 1)
    }

    @Test("masksToBounds cuts sublayers to the bounds, not the layer's own background")
    func masksToBounds() {
        let parent = Layer(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        parent.masksToBounds = true
        parent.addSublayer(Layer.filled(Rect(x: -10, y: -10, width: 40, height: 40), red))
        let canvas = draw(parent)
        #expect(canvas[10, 10] == red.premultipliedPixel)
        #expect(canvas[29, 29] == red.premultipliedPixel)
        #expect(canvas[9, 20] == Color.white.premultipliedPixel)
        #expect(canvas[30, 20] == Color.white.premultipliedPixel)
        #expect(canvas[20, 9] == Color.white.premultipliedPixel)
        #expect(abs(alphaSum(canvas) - 1600) < 1e-9)
        var redCount = 0
        for y in 0..<40 { for x in 0..<40 where canvas[x, y] == red.premultipliedPixel { redCount += 1 } }
        #expect(redCount == 400)
    }

    @Test("Turned and rounded masks cut sublayers to the bounds' shape, as the background would fill it")
    func turnedAndRoundedMasks() {
        func tree(masked: Bool) -> Layer {
            let parent = Layer(frame: Rect(x: 8, y: 10, width: 24, height: 18))
            parent.transform = AffineTransform(rotationAngle: 0.5)
            parent.cornerRadius = 6
            if masked {
                parent.masksToBounds = true
                parent.addSublayer(Layer.filled(Rect(x: -20, y: -20, width: 80, height: 80), red))
            } else {
                parent.backgroundColor = red
            }
            return parent
        }
        let renderer = LayerRenderer()
        let masked = draw(tree(masked: true), renderer: renderer)
        #expect(renderer.statistics.offscreenPasses == 1)
        let filled = draw(tree(masked: false))
        var worst = 0
        for y in 0..<40 { for x in 0..<40 { worst = max(worst, largestChannelDifference(masked[x, y], filled[x, y])) } }
        // The mask's coverage and the fill's coverage are the same rasterization; compositing rounds twice.
        #expect(worst <= 2)
    }

    @Test("A rounded layer without masksToBounds lets its sublayers out")
    func noMaskNoClip() {
        let parent = Layer(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        parent.addSublayer(Layer.filled(Rect(x: -10, y: -10, width: 40, height: 40), red))
        let canvas = draw(parent)
        #expect(canvas[0, 0] == red.premultipliedPixel)
        #expect(canvas[39, 39] == red.premultipliedPixel)
    }

    @Test("A border is drawn inside the bounds, above the sublayers")
    func border() {
        let layer = Layer(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        layer.borderWidth = 2
        layer.borderColor = blue
        layer.addSublayer(Layer.filled(Rect(x: 0, y: 0, width: 20, height: 20), red))
        let canvas = draw(layer)
        #expect(canvas[10, 20] == blue.premultipliedPixel)
        #expect(canvas[11, 20] == blue.premultipliedPixel)
        #expect(canvas[12, 20] == red.premultipliedPixel)
        #expect(canvas[29, 29] == blue.premultipliedPixel)
        #expect(canvas[9, 20] == Color.white.premultipliedPixel)
    }
}

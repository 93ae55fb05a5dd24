import Geometry
import Layers
import Raster
import Testing
import Colors

@Suite("Layer")
struct LayerTests {
    /// Draws `root` at scale 1 into a 40×40 white canvas.
    func render(_ root: Layer) -> Canvas {
        let canvas = Canvas(width: 40, height: 40, fill: .white)
        root.render(into: canvas, at: 0, renderer: LayerRenderer(rasterizer: Rasterizer()))
        return canvas
    }

    @Test("A background fills exactly its frame")
    func backgroundFillsFrame() {
        let layer = Layer(frame: Rect(x: 10, y: 5, width: 20, height: 10))
        layer.backgroundColor = .black
        let canvas = render(layer)
        for y in 0..<40 {
            for x in 0..<40 {
                let inside = x >= 10 && x < 30 && y >= 5 && y < 15
                #expect(canvas[x, y] == (inside ? Color.black : Color.white).premultipliedPixel)
            }
        }
    }

    @Test("Sublayers sit in their parent's coordinates and draw over it; hidden layers draw nothing")
    func sublayers() {
        let parent = Layer(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        parent.backgroundColor = Color(rgb: 255, 0, 0)
        let child = Layer(frame: Rect(x: 5, y: 5, width: 4, height: 4))
        child.backgroundColor = Color(rgb: 0, 0, 255)
        parent.addSublayer(child)
        let hidden = Layer(frame: Rect(x: 0, y: 0, width: 20, height: 20))
        hidden.backgroundColor = .black
        hidden.isHidden = true
        parent.addSublayer(hidden)
        let canvas = render(parent)
        #expect(canvas[16, 16] == Color(rgb: 0, 0, 255).premultipliedPixel)
        #expect(canvas[14, 14] == Color(rgb: 255, 0, 0).premultipliedPixel)
        #expect(canvas[5, 5] == Color.white.premultipliedPixel)
        #expect(parent.sublayers.count == 2)
        child.removeFromSuperlayer()
        #expect(parent.sublayers.count == 1)
        #expect(child.superlayer == nil)
    }

    @Test("Rounded corners leave the corner pixel uncovered and the middle of each edge covered")
    func cornerRadius() {
        let layer = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        layer.backgroundColor = .black
        layer.cornerRadius = 10
        let canvas = render(layer)
        #expect(canvas[0, 0] == Color.white.premultipliedPixel)
        #expect(canvas[39, 39] == Color.white.premultipliedPixel)
        #expect(canvas[20, 0] == Color.black.premultipliedPixel)
        #expect(canvas[0, 20] == Color.black.premultipliedPixel)
    }
}

import Geometry
@testable import Layers
import Raster
import Testing
import Colors

@Suite("Layer geometry")
struct LayerGeometryTests {
    @Test("A frame gives bounds at the origin and the anchor point's position; the anchor moves the frame")
    func frameArithmetic() {
        let layer = Layer(frame: Rect(x: 10, y: 20, width: 100, height: 50))
        #expect(layer.bounds == Rect(x: 0, y: 0, width: 100, height: 50))
        #expect(layer.position == Point(60, 45))
        // Moving the anchor keeps the position: the frame moves so that (0, 0) of the bounds sits there.
        layer.anchorPoint = Point(0, 0)
        #expect(layer.frame == Rect(x: 60, y: 45, width: 100, height: 50))
        // Setting the frame with anchor (0, 1) puts the position at the frame's bottom left corner.
        layer.anchorPoint = Point(0, 1)
        layer.frame = Rect(x: 5, y: 5, width: 10, height: 20)
        #expect(layer.position == Point(5, 25))
        #expect(layer.bounds.size == Size(10, 20))
        // The bounds' origin does not move the frame.
        layer.bounds.origin = Point(100, 100)
        #expect(layer.frame == Rect(x: 5, y: 5, width: 10, height: 20))
    }

    @Test("A scale transform grows the frame about the anchor point")
    func scaledFrame() {
        let layer = Layer(frame: Rect(x: 10, y: 20, width: 100, height: 50))
        layer.transform = AffineTransform(scaleX: 2, y: 2)
        // Centre (60, 45) stays; the size doubles.
        #expect(layer.frame == Rect(x: -40, y: -5, width: 200, height: 100))
        layer.anchorPoint = Point(0, 0)
        // Now the frame grows from the position (60, 45).
        #expect(layer.frame == Rect(x: 60, y: 45, width: 200, height: 100))
    }

    @Test("Points convert between layers through positions, anchors and bounds origins")
    func convert() throws {
        let root = Layer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let a = Layer(frame: Rect(x: 10, y: 20, width: 30, height: 30))
        a.bounds.origin = Point(5, 5)
        root.addSublayer(a)
        let b = Layer(frame: Rect(x: 1, y: 2, width: 4, height: 4))
        a.addSublayer(b)
        // b's (0, 0) is a's (1, 2), which is 4, 3 pt from a's bounds origin at (10, 20) in root.
        let p = try #require(b.convert(Point(0, 0), to: root))
        #expect(abs(p.x - 6) < 1e-12 && abs(p.y - 17) < 1e-12)
        let back = try #require(root.convert(p, to: b))
        #expect(abs(back.x) < 1e-12 && abs(back.y) < 1e-12)
        #expect(b.convert(.zero, to: Layer()) == nil)
    }

    @Test("A 90° rotation turns the layer about its anchor: its top left corner lands at a known pixel")
    func rotationAboutAnchor() {
        // 20×10 layer centred at (20, 15); turned a quarter clockwise it covers x 15…25, y 5…25.
        let layer = Layer.filled(Rect(x: 10, y: 10, width: 20, height: 10), red)
        layer.transform = AffineTransform(rotationAngle: Double.pi / 2)
        // A 2×2 marker at the layer's top left corner (0, 0): (−10, −5) from the anchor turns to (5, −10),
        // so it lands at (25, 5), covering x 23…25, y 5…7.
        layer.addSublayer(Layer.filled(Rect(x: 0, y: 0, width: 2, height: 2), blue))
        let canvas = draw(layer)
        #expect(canvas[23, 5] == blue.premultipliedPixel)
        #expect(canvas[24, 6] == blue.premultipliedPixel)
        #expect(canvas[22, 5] == red.premultipliedPixel)
        #expect(canvas[16, 24] == red.premultipliedPixel)
        #expect(canvas[14, 15] == Color.white.premultipliedPixel)
        #expect(canvas[26, 15] == Color.white.premultipliedPixel)
        #expect(canvas[20, 4] == Color.white.premultipliedPixel)
        #expect(canvas[20, 25] == Color.white.premultipliedPixel)
    }

    @Test("The bounds' origin scrolls the sublayers and not the background")
    func boundsOriginScrolls() {
        let parent = Layer.filled(Rect(x: 0, y: 0, width: 40, height: 40), blue)
        let child = Layer.filled(Rect(x: 10, y: 20, width: 10, height: 10), red)
        parent.addSublayer(child)
        parent.bounds.origin = Point(0, 20)
        let canvas = draw(parent)
        // The child's frame starts at y 20 in the parent's bounds, whose top is now y 20: it draws at the top.
        #expect(canvas[15, 0] == red.premultipliedPixel)
        #expect(canvas[15, 9] == red.premultipliedPixel)
        #expect(canvas[15, 25] == blue.premultipliedPixel)
        #expect(canvas[0, 39] == blue.premultipliedPixel)
    }

    @Test("Scale 2 draws each point as 2×2 pixels")
    func canvasScale() {
        let layer = Layer.filled(Rect(x: 5, y: 5, width: 5, height: 5), red)
        let canvas = draw(layer, scale: 2)
        #expect(canvas[10, 10] == red.premultipliedPixel)
        #expect(canvas[19, 19] == red.premultipliedPixel)
        #expect(canvas[20, 20] == Color.white.premultipliedPixel)
        #expect(canvas[9, 9] == Color.white.premultipliedPixel)
    }

    @Test("Hidden layers and layers of opacity 0 draw nothing, sublayers included")
    func hiddenDrawsNothing() {
        let parent = Layer.filled(Rect(x: 0, y: 0, width: 40, height: 40), red)
        parent.addSublayer(Layer.filled(Rect(x: 5, y: 5, width: 10, height: 10), blue))
        parent.shadowOpacity = 1
        parent.isHidden = true
        let renderer = LayerRenderer()
        let hidden = draw(parent, renderer: renderer)
        #expect(alphaSum(hidden) == 1600)
        #expect((0..<40).allSatisfy { hidden[$0, $0] == Color.white.premultipliedPixel })
        #expect(renderer.statistics.layersDrawn == 0)
        parent.isHidden = false
        parent.opacity = 0
        let transparent = draw(parent, renderer: renderer)
        #expect((0..<40).allSatisfy { transparent[$0, $0] == Color.white.premultipliedPixel })
        #expect(renderer.statistics.layersDrawn == 0)
    }

    @Test("Broken geometry (NaN or infinite) draws nothing and does not stop the rest of the tree")
    func brokenGeometry() {
        let root = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        let broken = Layer.filled(Rect(x: 0, y: 0, width: 10, height: 10), red)
        broken.position = Point(.nan, 3)
        let huge = Layer.filled(Rect(x: 0, y: 0, width: 10, height: 10), red)
        huge.transform = AffineTransform(scaleX: .infinity, y: 1)
        let fine = Layer.filled(Rect(x: 20, y: 20, width: 10, height: 10), blue)
        root.addSublayer(broken)
        root.addSublayer(huge)
        root.addSublayer(fine)
        let canvas = draw(root)
        #expect(canvas[25, 25] == blue.premultipliedPixel)
        #expect(canvas[5, 5] == Color.white.premultipliedPixel)
        let nothing = draw(fine, at: .nan)
        #expect(nothing[25, 25] == Color.white.premultipliedPixel)
    }

    @Test("Sublayer order: insert at, above and below; a layer cannot become its own ancestor")
    func sublayerOrder() {
        let root = Layer(), a = Layer(), b = Layer(), c = Layer(), d = Layer()
        root.addSublayer(a)
        root.addSublayer(b)
        root.insertSublayer(c, above: a)
        root.insertSublayer(d, below: a)
        #expect(root.sublayers.map { ObjectIdentifier($0) } == [d, a, c, b].map { ObjectIdentifier($0) })
        a.addSublayer(root)
        #expect(root.superlayer == nil)
        #expect(a.sublayers.isEmpty)
        b.addSublayer(c)
        #expect(root.sublayers.count == 3)
        #expect(c.superlayer === b)
        #expect(c.root === root)
    }
}

import Geometry
@testable import Layers
import Motion
import Raster
import Testing

@Suite("Text layers")
struct TextLayerTests {
    /// A 14 pt black line in a 200×30 layer at (10, 10), drawn at scale 2.
    func label(_ text: String) -> TextLayer {
        let layer = TextLayer(frame: Rect(x: 10, y: 10, width: 200, height: 30))
        layer.string = text
        layer.fontSize = 14
        layer.foregroundColor = .black
        return layer
    }

    /// The box of pixels with any alpha, or nil.
    func inkBox(_ c: Canvas) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var box: (Int, Int, Int, Int)?
        for y in 0..<c.height {
            for x in 0..<c.width where c[x, y] >> 24 != 0 {
                box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
            }
        }
        return box.map { (minX: $0.0, minY: $0.1, maxX: $0.2, maxY: $0.3) }
    }

    @Test("Text is drawn from the top left of the bounds, inside the layer's frame")
    func topLeft() throws {
        let renderer = LayerRenderer()
        let canvas = draw(label("Pull down to refresh"), size: 460, scale: 2, background: .clear, renderer: renderer)
        try #require(renderer.fontError == nil)
        let ink = try #require(inkBox(canvas))
        // Starts at the left edge (20 px), within a glyph's side bearing, and below the top (20 px).
        #expect(ink.minX >= 20 && ink.minX <= 24)
        #expect(ink.minY >= 20 && ink.minY <= 30)
        // 14 pt text: caps about 10 pt tall, so the ink ends within the line's 17 pt.
        #expect(ink.maxY < 20 + 2 * 17)
        #expect(ink.maxX < 20 + 400)
        #expect(alphaSum(canvas) > 200)
    }

    @Test("Bold text layers draw with the bold face: the same line is wider and inks more")
    func bold() throws {
        let renderer = LayerRenderer()
        let regular = draw(label("Pull down to refresh"), size: 460, scale: 2, background: .clear, renderer: renderer)
        let layer = label("Pull down to refresh")
        layer.fontWeight = .bold
        let bold = draw(layer, size: 460, scale: 2, background: .clear, renderer: renderer)
        try #require(renderer.fontError == nil)
        let a = try #require(inkBox(regular)), b = try #require(inkBox(bold))
        #expect(b.maxX - b.minX > a.maxX - a.minX)
        // Bold stems are thicker: at least a fifth more ink.
        #expect(alphaSum(bold) > 1.2 * alphaSum(regular))
        #expect(renderer.boldTextRenderer != nil && renderer.boldTextRenderer !== renderer.textRenderer)
    }

    @Test("Centred text is centred: equal margins left and right within a pixel or two")
    func centred() throws {
        let layer = label("Loading...")
        layer.alignmentMode = .center
        let renderer = LayerRenderer()
        let canvas = draw(layer, size: 460, scale: 2, background: .clear, renderer: renderer)
        try #require(renderer.fontError == nil)
        let ink = try #require(inkBox(canvas))
        let left = ink.minX - 20, right = 420 - 1 - ink.maxX
        #expect(abs(left - right) <= 4)
    }

    @Test("Turned text is filled from the outlines and covers about as much as upright text")
    func turnedText() throws {
        let upright = label("Release to refresh")
        let turned = label("Release to refresh")
        turned.transform = AffineTransform(rotationAngle: 0.3)
        // Away from the canvas's top, which the turned line's left end would cross.
        upright.position.y += 60
        turned.position.y += 60
        let renderer = LayerRenderer()
        let a = draw(upright, size: 460, scale: 2, background: .clear, renderer: renderer)
        try #require(renderer.fontError == nil)
        let b = draw(turned, size: 460, scale: 2, background: .clear, renderer: renderer)
        let ia = alphaSum(a), ib = alphaSum(b)
        #expect(ib > 0)
        // Hinting and sub-pixel placement differ between the two ways; the inked area agrees within 10 %.
        #expect(abs(ia - ib) < 0.1 * ia)
    }

    @Test("An animated foreground colour and font size are presentation values")
    func animatedText() {
        let layer = label("A")
        let grow = Motion.BasicAnimation<Double>(keyPath: "fontSize", from: 10, to: 20)
        grow.duration = 1
        layer.add(grow)
        #expect(layer.textPresentation(at: 0.5).fontSize == 15)
        #expect(layer.textPresentation(at: 2).fontSize == 14)
    }
}

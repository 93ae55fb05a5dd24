import Geometry
import Layers
import Raster
import Colors

/// Draws `root` at `time` into a new canvas of `size` pixels filled with `background`.
func draw(_ root: Layer, size: Int = 40, scale: Double = 1, at time: Double = 0, background: Color = .white,
          renderer: LayerRenderer = LayerRenderer()) -> Canvas {
    let canvas = Canvas(width: size, height: size, fill: background)
    root.render(into: canvas, at: time, scale: scale, renderer: renderer)
    return canvas
}

/// The sum of alpha over the pixels of `canvas` in rows `rows`, in pixels of full coverage.
func alphaSum(_ canvas: Canvas, rows: Range<Int>? = nil) -> Double {
    var sum = 0.0
    for y in rows ?? 0..<canvas.height {
        for x in 0..<canvas.width { sum += Double(canvas[x, y] >> 24) / 255 }
    }
    return sum
}

extension Layer {
    /// A layer of `frame` with a background colour.
    static func filled(_ frame: Rect, _ color: Color) -> Layer {
        let layer = Layer(frame: frame)
        layer.backgroundColor = color
        return layer
    }
}

let red = Color(rgb: 255, 0, 0)
let blue = Color(rgb: 0, 0, 255)

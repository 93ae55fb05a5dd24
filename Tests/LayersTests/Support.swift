import Geometry
import Layers
import Raster

/// SplitMix64: a small seeded generator, so that every run draws the same "random" cases.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func double(in range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }
}

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

/// The largest difference of one 8-bit channel between two pixels.
func channelDifference(_ a: UInt32, _ b: UInt32) -> Int {
    var d = 0
    for shift in stride(from: 0, through: 24, by: 8) {
        d = max(d, abs(Int((a >> UInt32(shift)) & 0xFF) - Int((b >> UInt32(shift)) & 0xFF)))
    }
    return d
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

import Colors
import Export
import Geometry
import Layers
import Lottie
import Raster
import Testing
import TestSupport
import UserFiles

/// A Bodymovin document of random frames draws, at every frame, what the frame's shapes draw: paths of lines,
/// quadratic and cubic curves whose vertices move on straight lines for a while (so that keyframes are left out),
/// or that move, turn and scale whole (written as one path and a transform), jump, change their number (held
/// keyframes), change colour and come and go.
@Suite struct BodymovinTests {
    /// A random path of `count` vertices near `centre`: lines, quadratic and cubic curves, closed or not.
    private func path(_ vertices: [Point], curves: Int) -> Path {
        var path = Path()
        path.move(to: vertices[0])
        for (i, p) in vertices.enumerated().dropFirst() {
            let previous = vertices[i - 1], middle = (previous + p) * 0.5
            switch (i + curves) % 3 {
            case 0: path.line(to: p)
            case 1: path.quad(to: p, control: middle + Point(6, -4))
            default: path.cubic(to: p, control1: middle + Point(-5, 3), control2: middle + Point(4, 5))
            }
        }
        path.close()
        return path
    }

    @Test func everyFrameDrawsItsShapes() throws {
        var random = SeededRandom(seed: 36)
        let size = Size(120, 80)
        for run in 0..<24 {
            let frameCount = random.int(in: 2...40)
            var slots: [(vertices: [Point], velocity: [Point], color: Color, rule: FillRule, curves: Int, turn: Double?,
                         placed: AffineTransform)] = []
            for _ in 0..<random.int(in: 1...3) {
                let n = random.int(in: 3...6)
                slots.append(((0..<n).map { _ in Point(random.double(in: 10...110), random.double(in: 10...70)) },
                              (0..<n).map { _ in Point(random.double(in: -1...1), random.double(in: -1...1)) },
                              Color(red: random.double(in: 0...1), green: random.double(in: 0...1),
                                    blue: random.double(in: 0...1), alpha: random.double(in: 0.3...1)),
                              random.bool() ? .nonZero : .evenOdd, random.int(in: 0...2),
                              random.bool() ? random.double(in: -0.3...0.3) : nil, .identity))
            }
            var frames: [[LayerRecording.Shape]] = []
            for _ in 0..<frameCount {
                var shapes: [LayerRecording.Shape] = []
                for i in slots.indices {
                    switch random.int(in: 0...9) {
                    case 0:
                        // Another number of vertices: a held keyframe.
                        let n = random.int(in: 3...6)
                        slots[i].vertices = (0..<n).map { _ in Point(random.double(in: 10...110), random.double(in: 10...70)) }
                        slots[i].velocity = (0..<n).map { _ in Point(random.double(in: -1...1), random.double(in: -1...1)) }
                    case 1:
                        slots[i].vertices = slots[i].vertices.map { $0 + Point(random.double(in: -3...3), random.double(in: -3...3)) }
                    case 2:
                        slots[i].color = slots[i].color.withAlphaMultiplied(by: 0.8)
                    default:
                        if let turn = slots[i].turn {
                            // Whole: turned about its first vertex, scaled a little, moved by the first velocity.
                            let pivot = slots[i].placed.apply(slots[i].vertices[0]), step = slots[i].velocity[0]
                            slots[i].placed = slots[i].placed
                                .concatenating(AffineTransform(translationX: -pivot.x, y: -pivot.y))
                                .concatenating(AffineTransform(rotationAngle: turn))
                                .concatenating(AffineTransform(scaleX: 1.01, y: 1.01))
                                .concatenating(AffineTransform(translationX: pivot.x + step.x, y: pivot.y + step.y))
                        } else {
                            slots[i].vertices = zip(slots[i].vertices, slots[i].velocity).map { $0 + $1 }
                        }
                    }
                    shapes.append(LayerRecording.Shape(path: path(slots[i].vertices, curves: slots[i].curves)
                                                           .applying(slots[i].placed),
                                                       color: slots[i].color, rule: slots[i].rule))
                }
                // Now and then the last path is not drawn.
                if shapes.count > 1 && random.int(in: 0...7) == 0 { shapes.removeLast() }
                frames.append(shapes)
            }
            let document = Bodymovin(size: size, frameRate: 60, frames: frames, markers: [], name: "run \(run)")
            let animation = try LottieAnimation(json: JSONNode(root: JSONReader.parseTape(Array(document.json.utf8))))
            let rasterizer = Rasterizer()
            for (f, shapes) in frames.enumerated() {
                let expected = Canvas(width: Int(size.width), height: Int(size.height))
                for shape in shapes {
                    _ = rasterizer.fill(shape.path, color: shape.color, rule: shape.rule, into: expected)
                }
                let drawn = Canvas(width: expected.width, height: expected.height)
                try LottieRenderer().render(animation, frame: Double(f), into: drawn, transform: .identity)
                var worst = 0, total = 0
                for y in 0..<expected.height {
                    for x in 0..<expected.width {
                        let p = expected[x, y], q = drawn[x, y]
                        for shift in stride(from: 0, through: 24, by: 8) {
                            let d = abs(Int((p >> UInt32(shift)) & 0xFF) - Int((q >> UInt32(shift)) & 0xFF))
                            worst = max(worst, d)
                            total += d
                        }
                    }
                }
                let mean = Double(total) / Double(expected.width * expected.height * 4)
                #expect(mean < 0.5 && worst <= 24, "run \(run), frame \(f) of \(frameCount): mean \(mean), worst \(worst)")
            }
        }
    }
}

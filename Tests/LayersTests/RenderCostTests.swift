import Geometry
@testable import Layers
import Motion
import Raster
import Testing
import Colors

/// The cost of drawing a refresh header's layers at scale 2: a white disc with a soft shadow and a turning,
/// growing arc (the ring effect), and a translucent group of four dots. Debug builds only check that a repeated
/// frame re-strokes nothing; release builds also time the frames against the effects' budget.
@Suite("Render cost")
struct RenderCostTests {
    /// The budget for drawing one header effect, per frame: 0.3 ms.
    static let budget = 0.3e-3

    /// The ring header: a 40×40 disc with a shadow and an arc whose end grows and whose layer turns.
    func ringHeader() -> (root: Layer, arc: ShapeLayer) {
        let root = Layer(frame: Rect(x: 0, y: 0, width: 375, height: 64))
        let disc = Layer(frame: Rect(x: 167.5, y: 12, width: 40, height: 40))
        disc.backgroundColor = .white
        disc.cornerRadius = 20
        disc.shadowOpacity = 0.15
        root.addSublayer(disc)
        let arc = ShapeLayer(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        var path = Path()
        path.addArc(center: Point(10, 10), radius: 10, startAngle: -Double.pi / 2, endAngle: 3 * Double.pi / 2,
                    clockwise: true)
        arc.path = path
        arc.fillColor = nil
        arc.strokeColor = Color(rgb: 255, 149, 0)
        arc.lineWidth = 3
        arc.lineCap = .round
        disc.addSublayer(arc)
        let spin = BasicAnimation<Double>(keyPath: "transform.rotation.z", from: 0, to: 2 * Double.pi)
        spin.duration = 1
        spin.repeatCount = .infinity
        arc.add(spin, forKey: "spin")
        return (root, arc)
    }

    /// Four dots joined by a line, in a 35×35 header at 60 % opacity (flattened offscreen).
    func dotsHeader() -> Layer {
        let root = Layer(frame: Rect(x: 170, y: 10, width: 35, height: 35))
        root.opacity = 0.6
        let centres = [Point(17.5, 5), Point(5, 17.5), Point(17.5, 30), Point(30, 17.5)]
        let line = ShapeLayer(frame: root.bounds)
        var path = Path()
        path.move(to: centres[0])
        for c in centres.dropFirst() { path.line(to: c) }
        path.close()
        line.path = path
        line.fillColor = nil
        line.strokeColor = Color(rgb: 90, 200, 200)
        line.lineWidth = 10
        line.lineCap = .round
        line.lineJoin = .round
        line.strokeEnd = 0.6
        root.addSublayer(line)
        for c in centres {
            let dot = ShapeLayer(frame: Rect(x: c.x - 5, y: c.y - 5, width: 10, height: 10))
            dot.path = Path.ellipse(in: Rect(x: 0, y: 0, width: 10, height: 10))
            dot.fillColor = Color(rgb: 250, 85, 78)
            root.addSublayer(dot)
        }
        let turn = BasicAnimation<Double>(keyPath: "transform.rotation.z", from: 0, to: 2 * Double.pi)
        turn.duration = 1
        turn.repeatCount = .infinity
        root.add(turn, forKey: "turn")
        return root
    }

    /// Seconds per frame at 60 Hz after a warm-up, the arc's end moving when `growing`: the median of `batches`
    /// batches of 40 frames, so that the other tests running beside this one on a shared machine do not decide it.
    func time(_ root: Layer, arc: ShapeLayer?, growing: Bool, batches: Int) -> Double {
        let canvas = Canvas(width: 750, height: 160, fill: .white)
        let renderer = LayerRenderer()
        for i in 0..<10 { root.render(into: canvas, at: Double(i) / 60, scale: 2, renderer: renderer) }
        let frames = 40
        var perFrame: [Double] = []
        for batch in 0..<batches {
            let start = MonotonicClock.seconds()
            for i in batch * frames..<(batch + 1) * frames {
                if growing, let arc { arc.strokeEnd = 0.2 + 0.6 * Double(i % 60) / 60 }
                root.render(into: canvas, at: Double(i) / 60, scale: 2, renderer: renderer)
            }
            perFrame.append((MonotonicClock.seconds() - start) / Double(frames))
        }
        return perFrame.sorted()[batches / 2]
    }

    @Test("A repeated frame re-strokes nothing and makes no new offscreen canvas")
    func steadyFrame() {
        let (root, arc) = ringHeader()
        let canvas = Canvas(width: 750, height: 160, fill: .white)
        let renderer = LayerRenderer()
        for i in 0..<30 { root.render(into: canvas, at: Double(i) / 60, scale: 2, renderer: renderer) }
        // The turn changes the transform, not the path in the layer's coordinates: stroked once.
        #expect(arc.strokeBuildCount == 1)
        #expect(renderer.statistics.shadows == 1)
        let dots = dotsHeader()
        for i in 0..<30 { dots.render(into: canvas, at: Double(i) / 60, scale: 2, renderer: renderer) }
        #expect(renderer.statistics.offscreenPasses == 1)
        #expect(renderer.offscreenCanvasCount == 1)
    }

    #if !DEBUG
    @Test("Release: each header draws well inside 0.3 ms a frame at scale 2")
    func releaseTiming() {
        // Noise only ever adds time, and this shared machine is at times half as fast for seconds on end: the
        // headers are timed up to five times, and one measurement within the budget shows the code can keep it.
        var attempts: [(steady: Double, growing: Double, dots: Double)] = []
        for _ in 0..<5 {
            let (ring, arc) = ringHeader()
            let steady = time(ring, arc: arc, growing: false, batches: 15)
            let growing = time(ring, arc: arc, growing: true, batches: 15)
            let dots = time(dotsHeader(), arc: nil, growing: false, batches: 15)
            print("median ring steady \(steady * 1e6) µs, ring growing \(growing * 1e6) µs, dots \(dots * 1e6) µs per frame")
            attempts.append((steady, growing, dots))
            if max(steady, growing, dots) < RenderCostTests.budget { break }
        }
        let best = attempts.min { max($0.steady, $0.growing, $0.dots) < max($1.steady, $1.growing, $1.dots) }!
        #expect(best.steady < RenderCostTests.budget)
        #expect(best.growing < RenderCostTests.budget)
        #expect(best.dots < RenderCostTests.budget)
    }
    #endif
}

import Geometry
import Layers
@testable import Motion
import Raster
import Testing
import TestSupport
import Colors

@Suite("Layer animations")
struct LayerAnimationTests {
    @Test("A linear opacity animation 0 → 1 over 1 s shows 0.5 at t = 0.5 and the model value after it")
    func opacityMidway() {
        let clock = SimulatedClock()
        let layer = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        layer.animator = Animator(clock: clock)
        layer.backgroundColor = .black
        clock.advance(by: 2)
        let fade = BasicAnimation<Double>(keyPath: "opacity", from: 0, to: 1)
        fade.duration = 1
        layer.add(fade, forKey: "fade")
        #expect(layer.presentation(at: 2.5).opacity == 0.5)
        #expect(layer.presentation(at: 2.25).opacity == 0.25)
        #expect(layer.presentation(at: 1).opacity == 1)      // before: the model value
        #expect(layer.presentation(at: 3.5).opacity == 1)    // after: the model value
        #expect(layer.opacity == 1)
        // The canvas shows the presentation value: 50 % black over white.
        let canvas = draw(layer, at: 2.5)
        #expect(abs(canvas.color(atX: 20, y: 20).red * 255 - 127.5) <= 1)
        #expect(layer.animationKeys == ["fade"])
        layer.removeAnimation(forKey: "fade")
        #expect(layer.presentation(at: 2.5).opacity == 1)
    }

    @Test("Parts of values: position.y, transform.rotation.z, transform.scale, bounds.size.width")
    func keyPathParts() {
        let layer = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        layer.transform = AffineTransform(translationX: 3, y: 0)
        let y = BasicAnimation<Double>(keyPath: "position.y", from: 0, to: 100)
        y.duration = 1
        let turn = BasicAnimation<Double>(keyPath: "transform.rotation.z", from: 0, to: Double.pi)
        turn.duration = 1
        let grow = BasicAnimation<Double>(keyPath: "transform.scale", from: 1, to: 3)
        grow.duration = 1
        let widen = BasicAnimation<Double>(keyPath: "bounds.size.width", by: 10)
        widen.duration = 1
        for (i, a) in [y, turn, grow, widen].enumerated() { layer.add(a, forKey: "\(i)") }
        let p = layer.presentation(at: 0.5)
        #expect(p.position == Point(5, 50))
        #expect(p.bounds.size == Size(15, 10))
        let d = DecomposedTransform(p.transform)
        #expect(abs(d.rotation - Double.pi / 2) < 1e-12)
        #expect(abs(d.scaleX - 2) < 1e-12 && abs(d.scaleY - 2) < 1e-12)
        // The model's translation is kept while the rotation and scale are animated.
        #expect(abs(d.translation.x - 3) < 1e-12)
    }

    @Test("Additive and keyframe animations on a shape's path-independent values and colours")
    func additiveAndKeyframes() {
        let layer = ShapeLayer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let bob = KeyframeAnimation<Double>(keyPath: "position.x", values: [0, 5, 0, 5, 0])
        bob.duration = 1
        bob.isAdditive = true
        layer.add(bob, forKey: "bob")
        let tint = BasicAnimation<Color>(keyPath: "fillColor", from: .black, to: .white)
        tint.duration = 1
        layer.add(tint, forKey: "tint")
        #expect(layer.presentation(at: 0.25).position == Point(10, 5))
        #expect(layer.presentation(at: 0.125).position == Point(7.5, 5))
        #expect(layer.shapePresentation(at: 0.5).fillColor == Color(white: 0.5))
    }

    @Test("Pause and resume (QA1673) keep the presentation value continuous, wherever they happen")
    func pauseResumeContinuity() {
        var rng = SeededRandom(seed: 1673)
        for _ in 0..<50 {
            let clock = SimulatedClock()
            let layer = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
            layer.animator = Animator(clock: clock)
            let move = BasicAnimation<Double>(keyPath: "position.x", from: 0, to: 100)
            move.duration = 1
            layer.add(move, forKey: "move")
            let pauseAt = rng.double(in: 0...0.9), resumeAt = pauseAt + rng.double(in: 0...5)
            let before = layer.presentation(at: pauseAt).position.x
            layer.pause(atParentTime: pauseAt)
            #expect(abs(layer.presentation(at: pauseAt).position.x - before) < 1e-9)
            // Frozen while paused.
            #expect(abs(layer.presentation(at: (pauseAt + resumeAt) / 2).position.x - before) < 1e-9)
            layer.resume(atParentTime: resumeAt)
            #expect(abs(layer.presentation(at: resumeAt).position.x - before) < 1e-9)
            // And runs on from there at normal speed.
            let later = layer.presentation(at: resumeAt + 0.05).position.x
            #expect(abs(later - min(100, before + 5)) < 1e-9 || before + 5 > 100)
        }
    }

    @Test("Pausing before any animation is added freezes animations added later at their start")
    func pausedLayerAddsFrozen() {
        let clock = SimulatedClock(start: 10)
        let layer = Layer()
        layer.animator = Animator(clock: clock)
        layer.pause(atParentTime: clock.now)
        let fade = BasicAnimation<Double>(keyPath: "opacity", from: 0, to: 1)
        fade.duration = 1
        layer.add(fade)
        clock.advance(by: 3)
        #expect(layer.presentation(at: clock.now).opacity == 0)
        layer.resume(atParentTime: clock.now)
        #expect(abs(layer.presentation(at: clock.now + 0.5).opacity - 0.5) < 1e-9)
    }

    @Test("The animator ends animations on time, calls completions and drops them from the layer")
    func completion() {
        let clock = SimulatedClock()
        let animator = Animator(clock: clock)
        let root = Layer()
        root.animator = animator
        let child = Layer()
        root.addSublayer(child)
        var finished: Bool?
        let fade = BasicAnimation<Double>(keyPath: "opacity", from: 0, to: 1)
        fade.duration = 0.5
        fade.completion = { finished = $0 }
        child.add(fade, forKey: "fade")   // runs on the root's animator
        clock.advance(by: 0.25)
        animator.update()
        #expect(finished == nil)
        clock.advance(by: 0.5)
        animator.update()
        #expect(finished == true)
        #expect(child.animationKeys.isEmpty)
    }

    @Test("A path animation between paths of the same structure moves every point")
    func pathAnimation() {
        let layer = ShapeLayer()
        let a = Path.rect(Rect(x: 0, y: 0, width: 10, height: 10))
        let b = Path.rect(Rect(x: 10, y: 0, width: 20, height: 10))
        layer.path = a
        let morph = BasicAnimation<Path>(keyPath: "path", to: b)
        morph.duration = 1
        layer.add(morph)
        #expect(layer.shapePresentation(at: 0.5).path == Path.rect(Rect(x: 5, y: 0, width: 15, height: 10)))
        #expect(layer.shapePresentation(at: 2).path == a)
    }

    @Test("Rendering at any time draws that time's presentation: a moving layer is where it should be")
    func renderAtTime() {
        let layer = Layer.filled(Rect(x: 0, y: 0, width: 10, height: 10), red)
        let move = BasicAnimation<Point>(keyPath: "position", from: Point(5, 5), to: Point(35, 35))
        move.duration = 1
        layer.add(move)
        let renderer = LayerRenderer()
        for (t, inside, outside) in [(0.0, (2, 2), (20, 20)), (0.5, (20, 20), (2, 2)), (1 - 1e-9, (37, 37), (20, 20))] {
            let canvas = draw(layer, at: t, renderer: renderer)
            #expect(canvas[inside.0, inside.1] == red.premultipliedPixel, "t = \(t)")
            #expect(canvas[outside.0, outside.1] == Color.white.premultipliedPixel, "t = \(t)")
        }
    }
}

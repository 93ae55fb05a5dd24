import Geometry
@testable import Lab
import Layers
@testable import Lottie
import Motion
import Raster
@testable import Refresh
import Scrolling
import Testing
@testable import UserFiles
import TestSupport

/// The lottie header: the pull scrubs a segment, refreshing loops one, the end plays one; segments come from the
/// file's markers or from frame numbers; the command-line renderer and the header registration.
@Suite(.serialized) struct HeaderTests {
    let size = Size(375, 60)

    func pull(_ progress: Double, at time: Double) -> RefreshPull {
        RefreshPull(distance: progress * 60, progress: progress, isDragging: true, time: time, headerSize: size)
    }

    @Test func markersNameTheSegments() throws {
        // dots: "pull" is 0…30 and "refresh" 30…60, at 30 frames a second.
        let effect = LottieEffect(animation: try parse(Fixtures.dots))
        effect.update(pull: pull(0.5, at: 0))
        #expect(effect.frame(at: 0) == 15)
        effect.update(pull: pull(2, at: 0))
        #expect(effect.frame(at: 0) == 30)  // past the trigger the scrub stays at the segment's end
        effect.transition(from: .armed, to: .refreshing, at: 1)
        #expect(effect.frame(at: 1) == 30)
        #expect(abs(effect.frame(at: 1.5) - 45) < 1e-9)
        #expect(abs(effect.frame(at: 2.5) - 45) < 1e-9)  // looped: 45 frames after 30 is 15 into the next turn
        effect.transition(from: .refreshing, to: .finishing(.success), at: 3)
        effect.update(pull: pull(0.2, at: 3))
        #expect(effect.frame(at: 3) == 6)  // no end segment: the pull segment follows the pull back
    }

    /// The header at half opacity draws its frame at half alpha, the frame flattened first: where two shapes of it
    /// overlap, one does not show through the other.
    @Test func theHeaderFadesAsAGroup() throws {
        let file = try #require(ResourceLocator.path(LottieFile.defaultAnimation))
        let effect = LottieEffect(animation: try LottieFile.load(path: file))
        effect.layer.frame = Rect(origin: .zero, size: size)
        effect.update(pull: pull(0.8, at: 0))
        func draw(opacity: Double) -> Canvas {
            effect.layer.opacity = opacity
            let canvas = Canvas(width: 375, height: 60)
            effect.layer.render(into: canvas, at: 0, renderer: LayerRenderer())
            return canvas
        }
        let whole = draw(opacity: 1), half = draw(opacity: 0.5)
        var drawn = 0, worst = 0
        for y in 0..<60 {
            for x in 0..<375 where whole[x, y] >> 24 > 0 {
                drawn += 1
                worst = max(worst, abs(Int(half[x, y] >> 24) - Int((Double(whole[x, y] >> 24) * 0.5).rounded())))
            }
        }
        #expect(drawn > 100 && worst <= 1, "\(drawn) pixels drawn, alpha off by up to \(worst)")
    }

    @Test func frameNumbersAndAnEndSegment() throws {
        let style = LottieEffect.Style(pull: .frames(10, 20), refresh: .frames(20, 22), end: .marker("end"),
                                      animationSize: Size(40, 40), offset: Point(0, 5))
        let file = try #require(ResourceLocator.path(LottieFile.defaultAnimation))
        let effect = LottieEffect(animation: try LottieFile.load(path: file), style: style)
        effect.update(pull: pull(0.5, at: 0))
        #expect(effect.frame(at: 0) == 15)
        #expect(effect.layer.sublayers.first?.frame == Rect(x: 167.5, y: 15, width: 40, height: 40))
        effect.transition(from: .armed, to: .refreshing, at: 0)
        #expect(abs(effect.frame(at: 0.1) - 21) < 1e-9)
        effect.transition(from: .refreshing, to: .finishing(.success), at: 1)
        #expect(effect.frame(at: 1.2) == 66)      // "end" starts at 60; 0.2 s is 6 frames
        #expect(effect.frame(at: 9) == (75.0).nextDown)  // and stops at its end, still drawn
        // A marker the file lacks falls back to the default.
        let missing = LottieEffect(animation: try parse(Fixtures.dots), style: LottieEffect.Style(pull: .marker("nope")))
        #expect(missing.segments.pull == (0, 30))
    }

    @Test("The end segment plays whole with the header in view; only then does the header collapse")
    func theEndIsSeen() throws {
        let file = try #require(ResourceLocator.path(LottieFile.defaultAnimation))
        let effect = LottieEffect(animation: try LottieFile.load(path: file))
        let end = try #require(effect.segments.end)
        #expect(effect.endDuration > 0.1)
        let scrollView = ScrollView(boundsSize: Size(375, 600), contentSize: Size(375, 2000))
        let control = RefreshControl(effect: effect)
        control.attach(to: scrollView)
        var time = 0.0
        func frames(until t: Double) {
            while time + 1e-9 < t {
                time += 1.0 / 60
                scrollView.step(to: time)
                control.step(to: time)
            }
        }
        control.beginRefreshing(at: 0)
        frames(until: 1)
        let inset = control.metrics.refreshingInset
        #expect(control.addedInset == inset && scrollView.contentOffset.y == -inset)
        control.endRefreshing(at: time)
        let ended = time
        // Every frame of the end segment is drawn with the whole header in view.
        while time < ended + effect.endDuration - 1e-9 {
            frames(until: time + 1.0 / 60)
            #expect(control.addedInset == inset && scrollView.contentOffset.y == -inset, "at \(time - ended) s")
        }
        #expect(abs(effect.frame(at: time) - end.end) < 1e-9, "the end segment's last frame is shown")
        // And it stays drawn while the header collapses: the file's out point is the segment's end, where its
        // layers would already be gone.
        frames(until: time + 1.0 / 60)
        effect.update(pull: control.pull)
        let canvas = Canvas(width: 375, height: 60)
        LayerRenderer().render(effect.layer, into: canvas, at: time, transform: .identity)
        #expect((0..<canvas.pixelCount).contains { canvas.pixels[$0] >> 24 > 0 }, "the last frame draws something")
        // Then the header collapses over MJRefresh's 0.4 s.
        frames(until: time + RefreshMetrics.classicRemoveDuration + 0.05)
        #expect(control.state == .idle && control.addedInset == 0)
    }

    @Test func theHeaderDrawsTheAnimationWhereItSits() throws {
        let effect = LottieEffect(animation: try parse(Fixtures.dots))
        effect.update(pull: pull(1, at: 0))
        let canvas = Canvas(width: 375, height: 60)
        LayerRenderer().render(effect.layer, into: canvas, at: 0, transform: .identity)
        // The 100×100 file fitted into 375×60: 0.6 per unit, centred; the middle dot at (187.5, 30), 7.2 wide.
        #expect(canvas[187, 30] >> 24 == 255)
        #expect(canvas[187, 10] >> 24 == 0 && canvas[150, 30] >> 24 == 0)
    }

    @Test func theCommandLineRendererFitsTheFrame() throws {
        let animation = try parse(Fixtures.shapes)
        let canvas = try LottieFile.render(animation, frame: 0, width: 300, height: 100)
        #expect(canvas.width == 300 && canvas.height == 100)
        #expect(canvas[0, 0] == 0)                  // transparent where nothing is drawn
        #expect(canvas[100, 0] == 0 && canvas[110, 20] >> 24 == 255)  // the red square from x 100 (fitted 1:1)
        #expect(throws: LabError.self) { try LottieFile.render(animation, frame: 0, width: 100_000, height: 1) }
        #expect(throws: LabError.self) { try LottieFile.render(animation, frame: .nan) }
    }

    @Test func theLabGivesTheHeaderItsFileOrTheDefault() throws {
        let simulation = Simulation(clock: SimulatedClock())
        #expect(simulation.selectEffect(named: "lottie"))
        let effect = try #require(simulation.refreshControl.effect as? LottieEffect)
        #expect(effect.animation?.markers.map(\.name) == ["pull", "refresh", "end"])  // the default, with no file
        #expect(throws: LabError.self) { try simulation.loadAnimation(path: "/nonexistent/anim.json", for: "lottie") }
        #expect(effect.animation != nil)  // the one shown before stays
        #expect(throws: LabError.self) { try simulation.loadAnimation(path: nil, for: "ring") }
        #expect(Simulation.animationEffectNames.starts(with: ["gif", "lottie"]))
    }
}

import Geometry
@testable import Layers
import Motion
import Raster
@testable import Refresh
import Testing
import Colors
import TestSupport

/// Records the sticky effect's phases and the rig's time when each began.
final class StickyRecorder {
    var phases: [StickyEffect.Phase] = []
    var times: [Double] = []

    init(_ effect: StickyEffect, rig: Rig) {
        effect.phaseDidChange = { [weak self, weak rig] phase in
            guard let self, let rig else { return }
            phases.append(phase)
            times.append(rig.time)
        }
    }

    /// When `phase` last began.
    func time(of phase: StickyEffect.Phase) -> Double? {
        guard let i = phases.lastIndex(of: phase) else { return nil }
        return times[i]
    }
}

/// The pulls that make the finger travel in steps of about 10 pt up to `distance`.
func pullSteps(to distance: Double) -> [Double] {
    Array(stride(from: 10.0, to: distance, by: 10)) + [distance]
}

@Suite("Sticky effect: blob geometry")
struct StickyGeometryTests {
    // docs/reference.md §1, Sticky: s = 1 − 0.6·(H − 44)/44; top radius R·s about (15, 15); bottom radius R·s² about
    // (15, H − 14 − R·s²); controls at x = 15 ∓ R·s², y halfway between the centres. With R = 15:
    //   H = 44: s = 1,   R·s = 15,   R·s² = 15,   bottom y = 30 − 15 = 15,     middle y = 15
    //   H = 66: s = 0.7, R·s = 10.5, R·s² = 7.35, bottom y = 52 − 7.35 = 44.65, middle y = 15 + 29.65/2 = 29.825
    //   H = 88: s = 0.4, R·s = 6,    R·s² = 2.4,  bottom y = 74 − 2.4 = 71.6,   middle y = 15 + 56.6/2 = 43.3
    @Test("Radii, centres and control points at H = 44, 66 and 88",
          arguments: [(44.0, 1.0, 15.0, 15.0, 15.0, 15.0), (66, 0.7, 10.5, 7.35, 44.65, 29.825),
                      (88, 0.4, 6, 2.4, 71.6, 43.3)])
    func geometry(height: Double, scale: Double, top: Double, bottom: Double, bottomY: Double, middleY: Double) {
        let g = StickyEffect.BlobGeometry(height: height)
        #expect(abs(g.scale - scale) < 1e-12)
        #expect(abs(g.topRadius - top) < 1e-12)
        #expect(g.topCenter == Point(15, 15))
        #expect(abs(g.bottomRadius - bottom) < 1e-12)
        #expect(g.bottomCenter.x == 15 && abs(g.bottomCenter.y - bottomY) < 1e-12)
        #expect(abs(g.leftControl.x - (15 - bottom)) < 1e-12 && abs(g.leftControl.y - middleY) < 1e-12)
        #expect(abs(g.rightControl.x - (15 + bottom)) < 1e-12 && abs(g.rightControl.y - middleY) < 1e-12)
        #expect(g.boxHeight == height - 14)
    }

    @Test("The outline: two quadratic curves with those controls, ending on the bottom circle and on the top one")
    func outline() {
        let g = StickyEffect.BlobGeometry(height: 66)
        let quads = g.path.elements.compactMap { e -> (Point, Point)? in
            if case .quad(let c, let p) = e { return (c, p) }
            return nil
        }
        #expect(quads.count == 2)
        guard quads.count == 2 else { return }
        // Down the right side to (15 + 7.35, 44.65), up the left side to (15 − 10.5, 15).
        #expect(quads[0].0 == g.rightControl)
        #expect(abs(quads[0].1.x - 22.35) < 1e-12 && abs(quads[0].1.y - 44.65) < 1e-12)
        #expect(quads[1].0 == g.leftControl)
        #expect(abs(quads[1].1.x - 4.5) < 1e-12 && quads[1].1.y == 15)
        // The outline spans the top circle's top (15 − 10.5) to the bottom circle's bottom (44.65 + 7.35 = 52).
        let box = g.path.controlPointBounds
        #expect(abs(box.minY - 4.5) < 1e-9 && abs(box.maxY - 52) < 1e-9)
    }

    @Test("Heights outside 44…88 give the blob at the nearest end")
    func clamped() {
        #expect(StickyEffect.BlobGeometry(height: 10) == StickyEffect.BlobGeometry(height: 44))
        #expect(StickyEffect.BlobGeometry(height: 120) == StickyEffect.BlobGeometry(height: 88))
    }

    @Test("At a pull of 66 the layers show that blob, the icon at s = 0.7, the view's top at the gap's top")
    func layersFollowThePull() {
        let effect = StickyEffect()
        let rig = Rig(effect: effect)
        rig.touchDown()
        for p in pullSteps(to: 66) { rig.pull(to: p) }
        #expect(effect.phase == .showStickyEffect)
        let g = StickyEffect.BlobGeometry(height: rig.control.distance)
        #expect(effect.blobShape.path == g.path)
        #expect(abs(effect.blob.bounds.height - 52) < 1e-6)
        #expect(abs(effect.icon.transform.a - 0.7) < 1e-6 && abs(effect.icon.transform.d - 0.7) < 1e-6)
        // The header container sits at −44; the view's top is at the gap's top, −66: 22 above the container.
        #expect(abs(effect.layer.frame.minY + 22) < 1e-6)
        // Centred: (375 − 157)/2 = 109, the blob 63 further: its middle at 109 + 63 + 15 = 187.
        #expect(effect.refreshView.frame.minX == 109)
        #expect(effect.refreshView.frame.minX + effect.blob.frame.midX == 187 && abs(effect.blob.frame.minY - 7) < 1e-9)
    }

    @Test("Short of 44 the view rests at the bottom of the header with the round blob")
    func restsBelow44() {
        let effect = StickyEffect()
        let rig = Rig(effect: effect)
        rig.touchDown()
        rig.pull(to: 30)
        #expect(effect.phase == .normal)
        #expect(effect.layer.frame.minY == 0)
        #expect(effect.blob.bounds.height == 30)
        #expect(effect.blobShape.path == StickyEffect.BlobGeometry(height: 44).path)
    }
}

@Suite("Sticky effect: scripted pulls")
struct StickyStateTests {
    @Test("Short of the threshold: normal → original, nothing fires")
    func shortPull() {
        let effect = StickyEffect()
        let rig = Rig(effect: effect)
        let rec = StickyRecorder(effect, rig: rig)
        rig.touchDown()
        for p in pullSteps(to: 60) { rig.pull(to: p) }
        rig.release()
        rig.run(seconds: 1.5)
        #expect(rig.states == [.pulling, .idle])
        #expect(rec.phases == [.normal, .showStickyEffect, .normal, .original])
        #expect(rig.actions == 0 && rig.cues == 0)
        #expect(rig.scrollView.contentInset.top == 0)
    }

    @Test("Past 88 it fires with the finger down; the result shows 1 s, the inset collapses over 0.5 s")
    func fullPull() {
        let effect = StickyEffect()
        let rig = Rig(effect: effect)
        let rec = StickyRecorder(effect, rig: rig)
        rig.touchDown()
        for p in pullSteps(to: 90) { rig.pull(to: p) }
        // Fired at the threshold, no armed state in between, the finger still down.
        #expect(rig.states == [.pulling, .refreshing])
        #expect(rec.phases == [.normal, .showStickyEffect, .refreshing])
        #expect(rig.scrollView.isDragging)
        #expect(rig.actions == 1 && rig.cues == 1)
        #expect(rig.control.addedInset == 44)
        rig.release()
        rig.run(seconds: 1)
        #expect(abs(rig.scrollView.contentOffset.y + 44) < 0.5)
        rig.control.endRefreshing(result: .success)
        let end = rig.time
        #expect(effect.phase == .succeeded)
        #expect(effect.resultRow.string == "Refresh succeeded")
        // The row fades in over 0.5 s, waits 0.5 s: the inset is whole until 1 s after the end.
        rig.run(seconds: 0.95)
        #expect(rig.control.addedInset == 44)
        rig.run(seconds: 0.25)
        #expect(rig.control.addedInset > 0 && rig.control.addedInset < 44)
        rig.run(seconds: 0.35)
        #expect(rig.states == [.pulling, .refreshing, .finishing(.success), .idle])
        #expect(rec.phases == [.normal, .showStickyEffect, .refreshing, .succeeded, .original])
        // Back to original 1.5 s after the end, give or take the frame that ran it.
        if let back = rec.time(of: .original) { #expect(abs(back - end - 1.5) <= Rig.frame) }
        #expect(rig.scrollView.contentInset.top == 0)
        #expect(effect.resultRow.isHidden && effect.spinner.isHidden)
        #expect(effect.blob.opacity == 1 && effect.blob.bounds.height == 30)
    }

    @Test("Ending while the finger still holds the content past 88 shows the result and does not fire again")
    func endWhileDragging() {
        let effect = StickyEffect()
        let rig = Rig(effect: effect)
        let rec = StickyRecorder(effect, rig: rig)
        rig.touchDown()
        for p in pullSteps(to: 100) { rig.pull(to: p) }
        #expect(rig.states == [.pulling, .refreshing])
        rig.control.endRefreshing(result: .failure)
        #expect(effect.phase == .failed)
        #expect(effect.resultRow.string == "Refresh failed")
        for _ in 0..<100 { rig.move(toFingerY: rig.fingerY) }
        #expect(rig.actions == 1)
        #expect(rig.states.filter { $0 == .refreshing }.count == 1)
        // Finished and back to rest under the finger: idle, then pulling again, but never armed or refreshing.
        #expect(Array(rig.states.prefix(4)) == [.pulling, .refreshing, .finishing(.failure), .idle])
        #expect(rig.states.dropFirst(4).allSatisfy { $0 == .pulling || $0 == .idle })
        #expect(Array(rec.phases.prefix(5)) == [.normal, .showStickyEffect, .refreshing, .failed, .original])
        rig.release()
        rig.run(seconds: 1)
        #expect(rig.actions == 1)
        #expect(rig.control.state == .idle && effect.phase == .original)
    }

    @Test("Begin from code twice: one refresh, the inset 44 once")
    func beginTwice() {
        let effect = StickyEffect()
        let rig = Rig(effect: effect)
        let rec = StickyRecorder(effect, rig: rig)
        rig.run()
        rig.control.beginRefreshing()
        rig.control.beginRefreshing()
        rig.run(seconds: 0.5)
        #expect(rig.states == [.refreshing])
        #expect(rec.phases == [.refreshing])
        #expect(rig.actions == 1)
        #expect(rig.control.addedInset == 44)
        #expect(rig.scrollView.contentInset.top == 44)
        #expect(abs(rig.scrollView.contentOffset.y + 44) < 0.5)
        #expect(!effect.spinner.isHidden)
    }

    @Test("End twice: one result, one collapse")
    func endTwice() {
        let effect = StickyEffect()
        let rig = Rig(effect: effect)
        let rec = StickyRecorder(effect, rig: rig)
        rig.run()
        rig.control.beginRefreshing()
        rig.run(seconds: 0.5)
        rig.control.endRefreshing(result: .success)
        rig.run(seconds: 0.3)
        rig.control.endRefreshing(result: .failure)
        rig.run(seconds: 2)
        #expect(rig.states == [.refreshing, .finishing(.success), .idle])
        #expect(rec.phases == [.refreshing, .succeeded, .original])
        #expect(rig.control.addedInset == 0)
    }

    @Test("The result row reads the control's strings in its language")
    func chineseResult() {
        let effect = StickyEffect()
        let rig = Rig(effect: effect)
        rig.control.language = .chinese
        rig.run()
        rig.control.beginRefreshing()
        rig.run(seconds: 0.5)
        rig.control.endRefreshing(result: .success)
        #expect(effect.resultRow.string == "刷新成功")
        rig.run(seconds: 2)
        rig.control.beginRefreshing()
        rig.run()
        rig.control.endRefreshing(result: .failure)
        #expect(effect.resultRow.string == "刷新失败")
    }
}

@Suite("Sticky effect: timelines")
struct StickyTimelineTests {
    /// A rig pulled past 88 with the finger down, and the time the refresh began.
    func fired() -> (StickyEffect, Rig, Double) {
        let effect = StickyEffect()
        let rig = Rig(effect: effect)
        let rec = StickyRecorder(effect, rig: rig)
        rig.touchDown()
        for p in pullSteps(to: 90) { rig.pull(to: p) }
        #expect(rec.phases.last == .refreshing)
        return (effect, rig, rec.time(of: .refreshing) ?? .nan)
    }

    @Test("The blob fades and collapses over 0.15 s (ease in-out: half way at 0.075 s)")
    func blobFades() {
        let (effect, _, t0) = fired()
        let height = StickyEffect.BlobGeometry(height: 90).boxHeight
        #expect(height == 74)
        let start = effect.blob.presentation(at: t0)
        #expect(abs(start.opacity - 1) < 1e-9 && abs(start.bounds.height - 74) < 1e-9)
        // easeInEaseOut is symmetric about (0.5, 0.5).
        let middle = effect.blob.presentation(at: t0 + 0.075)
        #expect(abs(middle.opacity - 0.5) < 1e-6 && abs(middle.bounds.height - 37) < 1e-4)
        let end = effect.blob.presentation(at: t0 + 0.15)
        #expect(end.opacity == 0 && end.bounds.height == 0)
    }

    @Test("The spinner is hidden for 0.2 s, then turns a spoke (30°) per twelfth of a second")
    func spinnerStartsLater() {
        let (effect, _, t0) = fired()
        #expect(!effect.spinner.isHidden)
        #expect(effect.spinner.presentation(at: t0 + 0.1).opacity == 0)
        #expect(effect.spinner.presentation(at: t0 + 0.25).opacity == 1)
        func angle(_ t: Double) -> Double { DecomposedTransform(effect.spinner.presentation(at: t).transform).rotation }
        #expect(abs(angle(t0 + 0.21)) < 1e-9)
        // 0.2 + 3.5/12 s: three whole steps, 90°.
        #expect(abs(angle(t0 + 0.2 + 3.5 / 12) - Double.pi / 2) < 1e-9)
        // Six and a half steps: 180°.
        #expect(abs(abs(angle(t0 + 0.2 + 6.5 / 12)) - Double.pi) < 1e-9)
    }

    @Test("The result row fades in over 0.5 s (half way at 0.25 s) and the spinner stops")
    func resultFadesIn() {
        let (effect, rig, _) = fired()
        rig.release()
        rig.run(seconds: 1)
        rig.control.endRefreshing(result: .success)
        let end = rig.time
        #expect(effect.spinner.isHidden)
        #expect(!effect.resultRow.isHidden)
        #expect(effect.resultRow.presentation(at: end).opacity == 0)
        #expect(abs(effect.resultRow.presentation(at: end + 0.25).opacity - 0.5) < 1e-6)
        #expect(effect.resultRow.presentation(at: end + 0.5).opacity == 1)
        #expect(effect.resultRow.fontSize == 14)
        #expect(effect.resultRow.foregroundColor == Color(white: 0.54))
    }
}

@Suite("Sticky effect: pictures")
struct StickyGoldenTests {
    @Test("Pulled 30, 66 and 86 pt with the finger down", arguments: [30.0, 66, 86])
    func pulled(distance: Double) {
        let rig = Rig(effect: StickyEffect())
        rig.touchDown()
        for p in pullSteps(to: distance) { rig.pull(to: p) }
        Golden.expect(rig.snapshot(), named: "sticky-pull-\(Int(distance))")
    }

    @Test("Refreshing: the blob half faded at 0.075 s, the spinner at 0.5 s")
    func refreshing() {
        let rig = Rig(effect: StickyEffect())
        rig.touchDown()
        for p in pullSteps(to: 90) { rig.pull(to: p) }
        let t0 = rig.time
        rig.time = t0 + 0.075
        Golden.expect(rig.snapshot(), named: "sticky-fading")
        rig.time = t0
        rig.release()
        rig.run(seconds: 1)
        Golden.expect(rig.snapshot(), named: "sticky-spinner")
    }

    @Test("The result rows, English and Chinese, after their fade")
    func results() {
        for (language, result, name) in [(RefreshLanguage.english, RefreshResult.success, "sticky-succeeded"),
                                         (.chinese, .failure, "sticky-failed-zh")] {
            let rig = Rig(effect: StickyEffect())
            rig.control.language = language
            rig.run()
            rig.control.beginRefreshing()
            rig.run(seconds: 1)
            rig.control.endRefreshing(result: result)
            rig.run(seconds: 0.6)
            Golden.expect(rig.snapshot(), named: name)
        }
    }
}

/// Draws `effect` as the control would, `frames` times, and returns the seconds per frame of update plus drawing.
/// `prepare(i)` returns the pull and the time of frame i.
///
/// The figure is the median of batches of 40 frames, and, after a warm-up, the smallest of three passes over the
/// same frames: noise only ever adds time, and this shared machine at times runs half as fast for seconds on end.
/// Without a warm-up the first frames' own cost is what is timed, once.
func effectFrameCost(_ effect: any RefreshEffect, frames: Int, warmUp: Int = 10,
                     renderer: LayerRenderer = LayerRenderer(),
                     prepare: (Int) -> (pull: Double, time: Double)) -> Double {
    let scale = 2.0
    let height = effect.metrics.headerHeight
    let container = Layer(frame: Rect(x: 0, y: -height, width: Rig.viewport.width, height: height))
    container.addSublayer(effect.layer)
    let canvas = Canvas(width: Int(Rig.viewport.width * scale), height: Int(160 * scale), fill: .white)
    func frame(_ i: Int) {
        let (pull, time) = prepare(i)
        effect.update(pull: RefreshPull(distance: pull, progress: pull / effect.metrics.triggerDistance,
                                        isDragging: true, time: time, headerSize: Size(Rig.viewport.width, height)))
        // The content's top sits `pull` below the viewport's top.
        let transform = AffineTransform(translationX: 0, y: pull).concatenating(AffineTransform(scaleX: scale, y: scale))
        container.render(into: canvas, at: time, transform: transform, renderer: renderer)
    }
    for i in 0..<warmUp { frame(i) }
    let batch = Swift.min(40, frames)
    var best = Double.infinity
    for _ in 0..<(warmUp > 0 ? 3 : 1) {
        var perFrame: [Double] = []
        var first = 0
        while first < frames {
            let last = Swift.min(first + batch, frames)
            let start = MonotonicClock.seconds()
            for i in first..<last { frame(i) }
            perFrame.append((MonotonicClock.seconds() - start) / Double(last - first))
            first = last
        }
        best = Swift.min(best, perFrame.sorted()[perFrame.count / 2])
    }
    return best
}

/// The budget for drawing one header effect, per frame (the project's rule): 0.3 ms.
let effectFrameBudget = 0.3e-3

@Suite("Sticky effect: cost")
struct StickyCostTests {
    @Test("A still frame rebuilds no outline and re-strokes nothing")
    func steadyFrame() {
        let effect = StickyEffect()
        var arcs: [ShapeLayer] = []
        for case let shape as ShapeLayer in effect.icon.sublayers { arcs.append(shape) }
        _ = effectFrameCost(effect, frames: 1) { _ in (66, 0) }
        let path = effect.blobShape.path
        let builds = arcs.map(\.strokeBuildCount)
        _ = effectFrameCost(effect, frames: 30) { i in (66, Double(i) / 60) }
        #expect(effect.blobShape.path == path)
        #expect(arcs.map(\.strokeBuildCount) == builds)
    }

    #if !DEBUG
    @Test("Release: stretching, spinning and the result row each draw inside 0.3 ms a frame at scale 2")
    func releaseTiming() {
        let effect = StickyEffect()
        // A control gives the result row its text; the effect's layer is then drawn in a container of its own.
        let control = RefreshControl(effect: effect)
        // The pull sweeps 44 → 88 and back: a new outline every frame.
        let stretching = effectFrameCost(effect, frames: 600) { i in
            let f = Double(i % 88) / 44
            return (44 + 44 * (f <= 1 ? f : 2 - f), Double(i) / 60)
        }
        effect.transition(from: .pulling, to: .refreshing, at: 100)
        let spinning = effectFrameCost(effect, frames: 600) { i in (44, 100.3 + Double(i) / 60) }
        effect.transition(from: .refreshing, to: .finishing(.success), at: 200)
        // Fonts load and glyphs are cached once, on the first frame that shows the row; then the half second of
        // the fade (drawn offscreen and put down with its opacity) is timed.
        let renderer = LayerRenderer()
        let result = effectFrameCost(effect, frames: 600, renderer: renderer) { i in (44, 201 + Double(i) / 60) }
        let fading = effectFrameCost(effect, frames: 30, renderer: renderer) { i in (44, 200 + Double(i % 30) / 60) }
        #expect(effect.resultRow.string == control.strings.succeeded)
        print("sticky: stretching \(stretching * 1e6) µs, spinner \(spinning * 1e6) µs, result fading in \(fading * 1e6) µs, result \(result * 1e6) µs per frame")
        #expect(stretching < effectFrameBudget)
        #expect(spinning < effectFrameBudget)
        #expect(fading < effectFrameBudget)
        #expect(result < effectFrameBudget)
    }
    #endif
}

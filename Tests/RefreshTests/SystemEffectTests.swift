import Colors
import Geometry
import Motion
@testable import Layers
@testable import Refresh
import Styles
import Testing
import TestSupport

/// The system header, UIRefreshControl (docs/reference.md §1, System): height 60, refreshing once the pull reaches
/// 100 with the finger still down, eight ticks revealed one at a time clockwise from the top, fading in over the
/// first 35 % of the pull, turning one tick (45°) every 1/8 s, shrinking with the inset as a refresh ends.
private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

@Suite("System effect")
struct SystemEffectTests {
    @Test("Ticks revealed by the pull: tick i once 8 × progress is past i",
          arguments: [(0.0, 0), (0.01, 1), (0.125, 1), (0.126, 2), (0.3, 3), (0.5, 4), (0.51, 5), (0.875, 7),
                      (0.99, 8), (1.0, 8), (1.7, 8)])
    func revealedTicks(progress: Double, ticks: Int) {
        #expect(SystemEffect.revealedTicks(progress: progress) == ticks)
    }

    @Test("Pulled 30 of 100: three ticks (8 × 0.3 = 2.4) clockwise from the top at 147/255, faded in to easeInEaseOut(0.3 / 0.35); at 50 four, fully in; centred in the gap, then 16 pt under its top")
    func revealDuringThePull() {
        let rig = Rig(effect: SystemEffect())
        let effect = rig.control.effect as! SystemEffect
        rig.touchDown()
        rig.pull(to: 30)
        #expect(rig.control.state == .pulling)
        #expect(effect.revealedTicks == 3)
        #expect(close(effect.spinnerOpacity, TimingFunction.easeInEaseOut.value(at: 0.3 / 0.35)))
        // Shown: the top tick and the two clockwise of it, spokes 0, 7 and 6 (spoke k sits k ticks anticlockwise).
        let shown = effect.spinner.sublayers.map { !$0.isHidden }
        #expect(shown == [true, false, false, false, false, false, true, true])
        let tick = effect.spinner.sublayers[0] as! ShapeLayer
        #expect(close(tick.fillColor!.alpha, 147.0 / 255, 1e-6))
        // Centred in the 30 pt gap: its top is 60 − 30 = 30 down the 60 pt header, the centre 15 below that.
        #expect(close(effect.spinner.position.y, 45) && close(effect.spinner.position.x, 375.0 / 2))
        rig.pull(to: 50)
        #expect(effect.revealedTicks == 4 && effect.spinnerOpacity == 1)
        // Still centred: the gap's top at 60 − 50 = 10, half the gap (25) is less than 16 pt margin + 14 pt radius.
        #expect(close(effect.spinner.position.y, 35))
        rig.pull(to: 80)
        // Past 60 pt it holds 30 pt under the gap's top, at 60 − 80 = −20: above the header's own frame.
        #expect(effect.revealedTicks == 7 && close(effect.spinner.position.y, 10))
        #expect(rig.cues == 0 && rig.actions == 0)
    }

    @Test("At 100 pt it refreshes with the finger down: one cue, one action, no armed state; released, 60 pt in view; ticks turn one every 1/8 s; ended, the indicator shrinks with the inset, then idle")
    func refreshDuringTheDragAndEnd() {
        let rig = Rig(effect: SystemEffect(), topInset: 64)
        let effect = rig.control.effect as! SystemEffect
        rig.touchDown()
        rig.pull(to: 60)
        rig.pull(to: 99)
        #expect(rig.control.state == .pulling && effect.revealedTicks == 8)
        rig.pull(to: 101)
        let start = rig.time
        #expect(rig.states == [.pulling, .refreshing])
        #expect(rig.actions == 1 && rig.cues == 1 && rig.control.state == .refreshing)
        // Held still past the trigger: nothing more fires.
        for _ in 0..<30 { rig.move(toFingerY: rig.fingerY) }
        #expect(rig.actions == 1 && rig.cues == 1)
        rig.lift()
        rig.run(seconds: 1)
        #expect(rig.control.addedInset == 60 && rig.scrollView.contentInset.top == 64 + 60)
        #expect(close(-rig.scrollView.contentOffset.y, 64 + 60, 0.01))
        #expect(effect.revealedTicks == nil && effect.spinnerOpacity == 1)
        // Turning: 8 ticks a second.
        let elapsed = rig.time - start
        #expect(effect.spinnerStep == Int((elapsed * 8).rounded(.down)) % 8)
        #expect(effect.spinnerScale == 1)
        rig.control.endRefreshing()
        rig.run(Int((0.15 / Rig.frame).rounded()))
        #expect(rig.control.state == .finishing(.success))
        let halfway = rig.control.addedInset
        #expect(halfway > 0 && halfway < 60)
        #expect(close(effect.spinnerScale, rig.control.distance / 60))
        #expect(effect.spinnerScale > 0 && effect.spinnerScale < 1)
        rig.run(seconds: 0.3)
        #expect(rig.states == [.pulling, .refreshing, .finishing(.success), .idle])
        #expect(rig.scrollView.contentInset.top == 64 && rig.control.addedInset == 0)
        #expect(effect.revealedTicks == 0 && effect.spinner.isHidden)
        #expect(rig.cues == 1 && rig.actions == 1)
    }

    @Test("Pull, release short, pull again past the trigger: one cue per arming, never two for one pull")
    func oneCuePerArming() {
        let rig = Rig(effect: SystemEffect())
        rig.touchDown()
        rig.pull(to: 80)
        rig.release()
        rig.run(seconds: 1)
        #expect(rig.cues == 0 && rig.control.state == .idle)
        rig.touchDown()
        rig.pull(to: 120)
        rig.pull(to: 90)
        rig.pull(to: 130)
        #expect(rig.cues == 1 && rig.actions == 1)
        rig.release()
        rig.run(seconds: 0.5)
        rig.control.endRefreshing()
        rig.run(seconds: 1)
        rig.touchDown()
        rig.pull(to: 120)
        #expect(rig.cues == 2 && rig.actions == 2)
    }

    @Test("A title (attributedTitle) sits 6 pt below the indicator, in the control's language, and makes the control taller by the gap and its line: 60 + 6 + 13 × 1.25")
    func title() {
        var style = SystemEffect.Style()
        style.title = LocalizedText(english: "Last synced 10:32", chinese: "上次同步 10:32")
        let rig = Rig(effect: SystemEffect(style: style))
        let effect = rig.control.effect as! SystemEffect
        #expect(close(rig.control.metrics.headerHeight, 82.25) && close(rig.control.metrics.refreshingInset, 82.25))
        rig.control.beginRefreshing()
        rig.run(seconds: 1)
        #expect(effect.titleLabel.string == "Last synced 10:32" && !effect.titleLabel.isHidden)
        // The gap is the whole 82.25 pt header: the indicator's centre 16 + 14 under its top, the title 14 + 6 below.
        #expect(close(effect.spinner.position.y, 30))
        #expect(close(effect.titleLabel.frame.minY, 50))
        rig.control.language = .chinese
        rig.run()
        #expect(effect.titleLabel.string == "上次同步 10:32")
        // Without one, nothing shows and the control keeps its 60 pt.
        let plain = SystemEffect()
        #expect(plain.metrics.headerHeight == 60 && plain.metrics.triggerDistance == 100)
        plain.update(pull: RefreshPull(distance: 60, progress: 0.6, isDragging: true, time: 0, headerSize: Size(375, 60)))
        #expect(plain.titleLabel.isHidden)
    }

    @Test("The tint colours the ticks; a new tint or size makes the indicator again, keeping the refresh under way")
    func tint() {
        let rig = Rig(effect: SystemEffect())
        let effect = rig.control.effect as! SystemEffect
        rig.control.beginRefreshing()
        rig.run(seconds: 0.5)
        var style = effect.style
        style.tintColor = Color(rgb: 255, 59, 48)
        style.spinnerSide = 40
        effect.style = style
        rig.run()
        #expect(rig.control.state == .refreshing)
        let leader = effect.spinner.sublayers[0] as! ShapeLayer
        #expect(leader.fillColor?.red == 1 && close(leader.fillColor!.alpha, 147.0 / 255, 1e-6))
        #expect(effect.spinner.bounds.width == 40)
    }

    @Test("Golden: pulled 45 pt (four ticks), and refreshing with a title")
    func goldens() {
        let rig = Rig(effect: SystemEffect())
        rig.touchDown()
        rig.pull(to: 45)
        rig.run()
        Golden.expect(rig.snapshot(height: 100), named: "system-pull-45")
        var style = SystemEffect.Style()
        style.title = LocalizedText(english: "Updated just now", chinese: "刚刚更新")
        let titled = Rig(effect: SystemEffect(style: style))
        titled.control.beginRefreshing()
        titled.run(seconds: 1.1)
        Golden.expect(titled.snapshot(height: 100), named: "system-refreshing-title")
    }
}

@Suite("System effect: cost")
struct SystemCostTests {
    @Test("Steady frames, pulled or turning, re-stroke nothing")
    func steadyFrame() {
        let effect = SystemEffect()
        _ = effectFrameCost(effect, frames: 1) { _ in (40, 0) }
        let tick = effect.spinner.sublayers[0] as! ShapeLayer
        let builds = tick.strokeBuildCount
        effect.transition(from: .pulling, to: .refreshing, at: 1)
        _ = effectFrameCost(effect, frames: 30) { i in (60, 1 + Double(i) / 60) }
        #expect(tick.strokeBuildCount == builds)
    }
}

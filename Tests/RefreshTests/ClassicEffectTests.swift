#if canImport(Glibc)
import Glibc
#endif
import Geometry
@testable import Layers
@testable import Refresh
import Testing
import Text
import TestSupport

/// The classic header (docs/reference.md §1, Classic): header 54, armed past 54 while dragging, inset 54 in over 0.25 s
/// and out over 0.4 s, the arrow flipping to 0.000001 − π (through the right) in 0.18 s, MJRefresh's texts in English
/// and Chinese in bold 14 pt.
private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

private func pull(_ distance: Double, at time: Double, dragging: Bool = true) -> RefreshPull {
    RefreshPull(distance: distance, progress: distance / 54, isDragging: dragging, time: time,
                headerSize: Size(375, 54))
}

@Suite("Classic effect")
struct ClassicEffectTests {
    // MARK: The arrow

    @Test("The arrow flips to −180° + 0.000001 over 0.18 s after arming: 0 at 0 s, about −90° at 0.09 s, the end at 0.18 s")
    func arrowFlip() {
        let effect = ClassicEffect()
        effect.transition(from: .idle, to: .pulling, at: 0.5)
        effect.update(pull: pull(40, at: 0.9))
        #expect(effect.arrowAngle == 0)
        effect.transition(from: .pulling, to: .armed, at: 1.0)
        effect.update(pull: pull(55, at: 1.0))
        #expect(effect.arrowAngle == 0)
        // Ease in, ease out is symmetric about its middle: half the turn at half the time.
        let end = 0.000001 - Double.pi
        effect.update(pull: pull(58, at: 1.09))
        #expect(close(effect.arrowAngle, end / 2, 1e-6))
        effect.update(pull: pull(60, at: 1.18))
        #expect(close(effect.arrowAngle, end))
        effect.update(pull: pull(60, at: 1.5))
        #expect(close(effect.arrowAngle, end))
        // The layer is turned by the same angle: its transform maps +x to (cos θ, sin θ) = (−1, −0.000001).
        #expect(close(effect.arrow.transform.a, -1, 1e-9) && close(effect.arrow.transform.b, -0.000001, 1e-9))
    }

    @Test("Half way through the flip the arrow's tip points right: 18.5 pt right of its centre, level with it")
    func arrowTipThroughTheRight() {
        let effect = ClassicEffect()
        effect.update(pull: pull(40, at: 0.9))
        let centre = effect.arrow.position
        // The tip of the 15 × 40 arrow is at (7.5, 38.5) in its bounds, 18.5 pt below the centre (7.5, 20).
        let tip = Point(7.5, 38.5)
        func tipInHeader() -> Point { effect.arrow.transformToSuperlayer.apply(tip) }
        #expect(close(tipInHeader().x, centre.x, 1e-9) && close(tipInHeader().y, centre.y + 18.5, 1e-9))
        effect.transition(from: .pulling, to: .armed, at: 1.0)
        // At 0.09 s the turn is (0.000001 − π)/2: a quarter turn anticlockwise on the screen (y down) takes the
        // tip (0, 18.5) from the centre to (18.5·sin(π/2), 18.5·cos(π/2)) = (18.5, 0).
        effect.update(pull: pull(58, at: 1.09))
        #expect(close(tipInHeader().x, centre.x + 18.5, 1e-4) && close(tipInHeader().y, centre.y, 1e-4))
        // Disarmed from the top, it comes back the same way: half way back, the tip is on the right again.
        effect.update(pull: pull(58, at: 1.3))
        effect.transition(from: .armed, to: .pulling, at: 1.3)
        effect.update(pull: pull(50, at: 1.39))
        #expect(close(tipInHeader().x, centre.x + 18.5, 1e-4) && close(tipInHeader().y, centre.y, 1e-4))

        // In pixels: half way through the flip, the arrowhead's barbs (their ends 12.5 pt along the shaft and 6 pt
        // either side of it) are right of the centre; left of it there is only the shaft's end, on the centre line.
        let rig = Rig(effect: ClassicEffect())
        let arrowEffect = rig.control.effect as! ClassicEffect
        rig.touchDown()
        rig.pull(to: 70)
        rig.run(Int((0.09 / Rig.frame).rounded()) - 1)
        let canvas = rig.snapshot(height: 70).canvas
        let grey = ClassicEffect.arrowColor
        func isArrowInk(_ x: Int, _ y: Int) -> Bool {
            let c = canvas[x, y]
            let r = Int((c >> 16) & 0xFF), g = Int((c >> 8) & 0xFF), b = Int(c & 0xFF)
            // The arrow's grey (150) over white, at any coverage: a neutral grey between it and white.
            return r < 250 && r >= Int(grey.red * 255) - 2 && r == g && g == b
        }
        let a = arrowEffect.arrow.position
        let cx = Int(a.x * 2), cy = Int((a.y - 54 - rig.scrollView.contentOffset.y) * 2)
        var right = 0, left = 0
        // Rows 2 … 6 pt above and below the centre line, clear of the 1.5 pt shaft.
        for y in Array((cy - 12)...(cy - 4)) + Array((cy + 4)...(cy + 12)) {
            for x in (cx + 20)...(cx + 40) where isArrowInk(x, y) { right += 1 }
            for x in (cx - 40)...(cx - 20) where isArrowInk(x, y) { left += 1 }
        }
        #expect(right > 20 && left == 0, "arrow ink right \(right), left \(left)")
    }

    @Test("Disarming turns the arrow back over 0.18 s, from where it was")
    func arrowBack() {
        let effect = ClassicEffect()
        effect.transition(from: .pulling, to: .armed, at: 0)
        effect.transition(from: .armed, to: .pulling, at: 0.09)   // half way over: about −π/2
        #expect(close(effect.arrowAngle(at: 0.09), -Double.pi / 2, 1e-6))
        #expect(close(effect.arrowAngle(at: 0.18), -Double.pi / 4, 1e-6))
        #expect(effect.arrowAngle(at: 0.27) == 0)
    }

    @Test("Refreshing hides the arrow and shows the indicator, turning one spoke (30°) every 1/12 s")
    func spinner() {
        let effect = ClassicEffect()
        effect.transition(from: .armed, to: .refreshing, at: 2)
        effect.update(pull: pull(54, at: 2.0, dragging: false))
        #expect(effect.arrow.isHidden && !effect.spinner.isHidden)
        #expect(effect.spinnerStep == 0)
        effect.update(pull: pull(54, at: 2.25, dragging: false))
        #expect(effect.spinnerStep == 3)
        #expect(close(effect.spinner.transform.a, cos(Double.pi / 2), 1e-9))
        effect.update(pull: pull(54, at: 3.5 + 1e-6, dragging: false))
        #expect(effect.spinnerStep == 6)
        // Ending fades the indicator with the inset (0.4 s): half way at 0.2 s; back to idle the arrow is down again.
        effect.transition(from: .refreshing, to: .finishing(.success), at: 4)
        effect.update(pull: pull(30, at: 4.2, dragging: false))
        #expect(close(effect.spinnerAlpha, 0.5))
        effect.transition(from: .finishing(.success), to: .idle, at: 4.4)
        effect.update(pull: pull(0, at: 4.4, dragging: false))
        #expect(!effect.arrow.isHidden && effect.spinner.isHidden && effect.arrowAngle == 0)
    }

    // MARK: Texts

    @Test("The texts per state, in English and Chinese, with the last-updated line from the control")
    func texts() {
        let rig = Rig(effect: ClassicEffect())
        let effect = rig.control.effect as! ClassicEffect
        rig.run()
        #expect(effect.stateLabel.string == "Pull down to refresh")
        #expect(effect.lastUpdatedLabel.string == "Last updated: No record")
        rig.touchDown()
        rig.pull(to: 30)
        #expect(effect.stateLabel.string == "Pull down to refresh")
        rig.pull(to: 70)
        #expect(rig.control.state == .armed)
        #expect(effect.stateLabel.string == "Release to refresh")
        rig.release()
        #expect(effect.stateLabel.string == "Loading...")
        rig.run(seconds: 0.5)
        rig.control.endRefreshing()
        // Finishing, the state line reads as idle again (MJRefresh's header is back in Idle): no result text.
        rig.run(3)
        #expect(rig.control.state == .finishing(.success))
        #expect(effect.stateLabel.string == "Pull down to refresh")
        rig.run(seconds: 1)
        #expect(rig.control.state == .idle)
        // The rig's clock says 2024-05-17 10:32, the day of the refresh.
        #expect(effect.stateLabel.string == "Pull down to refresh")
        #expect(effect.lastUpdatedLabel.string == "Last updated: Today 10:32")

        rig.control.language = .chinese
        rig.run()
        #expect(effect.stateLabel.string == "下拉可以刷新")
        #expect(effect.lastUpdatedLabel.string == "最后更新：今天 10:32")
        rig.touchDown()
        rig.pull(to: 70)
        #expect(effect.stateLabel.string == "松开立即刷新")
        rig.release()
        #expect(effect.stateLabel.string == "正在刷新数据中...")
        rig.run(seconds: 0.5)
        rig.control.endRefreshing(result: .failure)
        rig.run()
        #expect(effect.stateLabel.string == "下拉可以刷新")
    }

    @Test("Both lines in bold 14 pt (MJRefreshLabelFont); the arrow 25 pt left of the wider line in bold",
          arguments: RefreshLanguage.allCases)
    func boldLines(language: RefreshLanguage) throws {
        let rig = Rig(effect: ClassicEffect())
        let effect = rig.control.effect as! ClassicEffect
        rig.control.language = language
        rig.run()
        #expect(effect.stateLabel.fontWeight == .bold && effect.lastUpdatedLabel.fontWeight == .bold)
        #expect(effect.stateLabel.fontSize == 14 && effect.lastUpdatedLabel.fontSize == 14)
        let bold = try FontSet.standard(weight: .bold)
        let wider = max(TextLine(effect.stateLabel.string, fonts: bold, size: 14).width,
                        TextLine(effect.lastUpdatedLabel.string, fonts: bold, size: 14).width)
        #expect(close(effect.arrow.position.x, 375.0 / 2 - wider / 2 - 25, 1e-9))
    }

    @Test("The arrow and the indicator sit 25 pt left of the wider line, centred on the header's height")
    func layout() {
        let effect = ClassicEffect()
        effect.update(pull: pull(0, at: 0, dragging: false))
        #expect(close(effect.arrow.position.y, 27) && close(effect.spinner.position.y, 27))
        #expect(effect.arrow.position == effect.spinner.position)
        let leftOfCentre: Double = 375.0 / 2 - 25
        #expect(effect.arrow.position.x < leftOfCentre)
        #expect(close(effect.stateLabel.frame.height, 27) && close(effect.lastUpdatedLabel.frame.minY, 27))
    }

    // MARK: Scripted pulls

    @Test("Short of 54 pt: pulling → idle, nothing fires")
    func shortPull() {
        let rig = Rig(effect: ClassicEffect())
        rig.touchDown()
        rig.pull(to: 40)
        rig.release()
        rig.run(seconds: 1)
        #expect(rig.states == [.pulling, .idle] && rig.actions == 0)
    }

    @Test("Past 54 pt and released: the inset grows by 54 over 0.25 s, and goes back over 0.4 s when ended")
    func pullReleaseEnd() {
        let rig = Rig(effect: ClassicEffect(), topInset: 64)
        rig.touchDown()
        rig.pull(to: 30)
        rig.pull(to: 60)
        #expect(rig.states == [.pulling, .armed])
        rig.release()
        #expect(rig.states.last == .refreshing && rig.actions == 1)
        rig.run(seconds: 0.3)
        #expect(rig.scrollView.contentInset.top == 64 + 54)
        rig.control.endRefreshing()
        rig.run(seconds: 0.2)
        #expect(rig.control.addedInset > 0 && rig.control.addedInset < 54)
        rig.run(seconds: 0.25)
        #expect(rig.states == [.pulling, .armed, .refreshing, .finishing(.success), .idle])
        #expect(rig.scrollView.contentInset.top == 64)
    }

    @Test("Begin from code twice, end twice: one refresh, the inset added once and removed once")
    func beginTwiceEndTwice() {
        let rig = Rig(effect: ClassicEffect())
        rig.control.beginRefreshing()
        rig.control.beginRefreshing()
        rig.run(seconds: 0.5)
        #expect(rig.actions == 1 && rig.control.addedInset == 54)
        rig.control.endRefreshing()
        rig.control.endRefreshing()
        rig.run(seconds: 0.6)
        #expect(rig.states == [.refreshing, .finishing(.success), .idle])
        #expect(rig.scrollView.contentInset.top == 0)
    }

    // MARK: Pictures

    @Test("Goldens: pulled, armed (arrow turned), refreshing; and armed in Chinese")
    func goldens() {
        let rig = Rig(effect: ClassicEffect())
        rig.touchDown()
        rig.pull(to: 50)
        rig.run()
        Golden.expect(rig.snapshot(height: 80), named: "classic-pulled")
        rig.pull(to: 70)
        rig.run(seconds: 0.3)
        Golden.expect(rig.snapshot(height: 80), named: "classic-armed")
        rig.release()
        rig.run(seconds: 1)
        Golden.expect(rig.snapshot(height: 80), named: "classic-refreshing")
        rig.control.endRefreshing()
        rig.run(seconds: 1)
        rig.control.language = .chinese
        rig.touchDown()
        rig.pull(to: 70)
        rig.run(seconds: 0.3)
        Golden.expect(rig.snapshot(height: 80), named: "classic-armed-chinese")
    }
}

@Suite("Classic effect: cost")
struct ClassicCostTests {
    @Test("Frames re-stroke nothing: the arrow turns and the indicator steps by transforms")
    func steadyFrame() {
        let effect = ClassicEffect()
        _ = effectFrameCost(effect, frames: 1) { _ in (40, 0) }
        let builds = effect.arrow.strokeBuildCount
        effect.transition(from: .pulling, to: .armed, at: 1)
        _ = effectFrameCost(effect, frames: 30) { i in (60, 1 + Double(i) / 60) }
        #expect(effect.arrow.strokeBuildCount == builds)
        #expect(effect.arrowAngle == 0.000001 - Double.pi)
    }

    #if !DEBUG
    @Test("Release: the arrow flipping and the indicator spinning each draw inside 0.3 ms a frame at scale 2")
    func releaseTiming() {
        let effect = ClassicEffect()
        effect.transition(from: .idle, to: .pulling, at: 0)
        let flipping = effectFrameCost(effect, frames: 600) { i in
            // Arm and disarm every 0.4 s: the arrow is always turning.
            if i % 24 == 0 { effect.transition(from: .pulling, to: .armed, at: Double(i) / 60) }
            if i % 24 == 12 { effect.transition(from: .armed, to: .pulling, at: Double(i) / 60) }
            return (54, Double(i) / 60)
        }
        effect.transition(from: .pulling, to: .refreshing, at: 100)
        let spinning = effectFrameCost(effect, frames: 600) { i in (54, 100 + Double(i) / 60) }
        print("classic: arrow flipping \(flipping * 1e6) µs, indicator \(spinning * 1e6) µs per frame")
        #expect(flipping < effectFrameBudget)
        #expect(spinning < effectFrameBudget)
    }
    #endif
}

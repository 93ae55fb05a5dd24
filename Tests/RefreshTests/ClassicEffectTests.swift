#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Refresh
import Testing

/// The classic header (REFERENCE §1, Classic): header 54, armed past 54 while dragging, inset 54 in over 0.25 s and
/// out over 0.4 s, the arrow flipping 180° in 0.18 s, MJRefresh's texts in English and Chinese.
private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

private func pull(_ distance: Double, at time: Double, dragging: Bool = true) -> RefreshPull {
    RefreshPull(distance: distance, progress: distance / 54, isDragging: dragging, time: time,
                headerSize: Size(375, 54))
}

@Suite("Classic effect")
struct ClassicEffectTests {
    // MARK: The arrow

    @Test("The arrow flips to 180° over 0.18 s after arming: 0 at 0 s, 90° at 0.09 s, 180° at 0.18 s")
    func arrowFlip() {
        let effect = ClassicEffect()
        effect.transition(from: .idle, to: .pulling, at: 0.5)
        effect.update(pull: pull(40, at: 0.9))
        #expect(effect.arrowAngle == 0)
        effect.transition(from: .pulling, to: .armed, at: 1.0)
        effect.update(pull: pull(55, at: 1.0))
        #expect(effect.arrowAngle == 0)
        // Ease in, ease out is symmetric about its middle: half the turn at half the time.
        effect.update(pull: pull(58, at: 1.09))
        #expect(close(effect.arrowAngle, Double.pi / 2, 1e-6))
        effect.update(pull: pull(60, at: 1.18))
        #expect(close(effect.arrowAngle, Double.pi))
        effect.update(pull: pull(60, at: 1.5))
        #expect(close(effect.arrowAngle, Double.pi))
        // The layer is turned by the same angle: its transform maps +x to (cos θ, sin θ).
        #expect(close(effect.arrow.transform.a, -1, 1e-9) && close(effect.arrow.transform.b, 0, 1e-9))
    }

    @Test("Disarming turns the arrow back over 0.18 s, from where it was")
    func arrowBack() {
        let effect = ClassicEffect()
        effect.transition(from: .pulling, to: .armed, at: 0)
        effect.transition(from: .armed, to: .pulling, at: 0.09)   // half way up: π/2
        #expect(close(effect.arrowAngle(at: 0.09), Double.pi / 2, 1e-6))
        #expect(close(effect.arrowAngle(at: 0.18), Double.pi / 4, 1e-6))
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
    }

    @Test("The arrow and the indicator sit 25 pt left of the wider line, centred on the header's height")
    func layout() {
        let effect = ClassicEffect()
        effect.update(pull: pull(0, at: 0, dragging: false))
        #expect(close(effect.arrow.position.y, 27) && close(effect.spinner.position.y, 27))
        #expect(effect.arrow.position == effect.spinner.position)
        #expect(effect.arrow.position.x < 375.0 / 2 - 25)
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
        #expect(effect.arrowAngle == Double.pi)
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

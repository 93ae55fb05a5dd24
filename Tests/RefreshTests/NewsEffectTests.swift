import Geometry
import Layers
import Motion
import Raster
@testable import Refresh
import Scrolling
import Testing
import Text
import Colors
import TestSupport

/// The header's size in the rig: the viewport's width by the news header's 70 pt.
private let newsHeader = Size(375, 70)

/// A rig with the news effect; the effect is returned too, to look at its layers.
private func newsRig(topInset: Double = 0) -> (Rig, NewsEffect) {
    let effect = NewsEffect()
    return (Rig(effect: effect, topInset: topInset), effect)
}

/// A pull for the effect, as the controller gives it, at `time` with the finger `down` or not.
private func pull(_ distance: Double, at time: Double, down: Bool = false) -> RefreshPull {
    RefreshPull(distance: distance, progress: distance / 70, isDragging: down, time: time, headerSize: newsHeader)
}

/// The banner's scale at `time`, from its presentation transform.
private func scale(_ effect: NewsEffect, at time: Double) -> Double {
    effect.banner.presentation(at: time).transform.a
}

@Suite("News effect: states")
struct NewsStateTests {
    @Test("Metrics: threshold 70, never below 45; inset 70; collapse to 32 over 0.2 s, hold 1.5 s, to 0 over 0.2 s")
    func metrics() {
        let m = NewsEffect().metrics
        #expect(m.headerHeight == 70 && m.triggerDistance == 70 && m.refreshingInset == 70)
        #expect(m.minimumTriggerDistance == 45 && m.trigger == .onRelease)
        #expect(m.finishing == [RefreshInsetStage(inset: 32, duration: 0.2),
                                RefreshInsetStage(delay: 1.5, inset: 0, duration: 0.2)])
        let (rig, _) = newsRig()
        rig.control.triggerDistance = 20
        #expect(rig.control.triggerDistance == 45)
    }

    @Test("A pull short of 70 goes pulling → idle, says 下拉刷新, and fires nothing")
    func shortPull() {
        let (rig, effect) = newsRig()
        rig.control.language = .chinese
        rig.touchDown()
        rig.pull(to: 50)
        #expect(effect.label.string == "下拉刷新")
        rig.release()
        rig.run(seconds: 1)
        #expect(rig.states == [.pulling, .idle])
        #expect(rig.actions == 0 && rig.cues == 0)
        #expect(rig.control.addedInset == 0)
    }

    @Test("Past 70: armed (释放刷新 / Release to refresh), one cue; release refreshes (加载中) with the inset at 70")
    func fullPull() {
        let (rig, effect) = newsRig()
        rig.touchDown()
        for p in [30.0, 60, 75, 90] { rig.pull(to: p) }
        #expect(rig.states == [.pulling, .armed])
        #expect(effect.label.string == "Release to refresh")
        rig.control.language = .chinese
        rig.run()
        #expect(effect.label.string == "释放刷新")
        rig.release()
        #expect(rig.states == [.pulling, .armed, .refreshing])
        #expect(effect.label.string == "加载中")
        #expect(rig.actions == 1 && rig.cues == 1)
        rig.run(seconds: 1)
        #expect(rig.control.addedInset == 70)
        #expect(abs(rig.scrollView.contentOffset.y + 70) < 0.5)
    }

    @Test("Finish: 加载完成 while the inset drops to 32 in 0.2 s; then the banner with the message; inset back; banner fades in 0.25 s")
    func finishTimeline() {
        let (rig, effect) = newsRig(topInset: 64)
        rig.control.language = .chinese
        rig.control.beginRefreshing()
        rig.run(seconds: 1)
        rig.control.endRefreshing(result: .message("为你推荐12条新内容"))
        let end = rig.time
        #expect(effect.label.string == "加载完成")
        #expect(effect.banner.isHidden && !effect.topView.isHidden)
        rig.run(6)
        #expect(rig.control.addedInset > 32 && rig.control.addedInset < 70)
        rig.run(7)
        #expect(rig.control.addedInset == 32)
        #expect(!effect.banner.isHidden && effect.topView.isHidden)
        #expect(effect.bannerLabel.string == "为你推荐12条新内容")
        #expect(effect.bannerStartTime == end + 0.2)
        rig.run(seconds: 1.4)
        #expect(rig.control.addedInset == 32)
        rig.run(seconds: 0.35)
        #expect(rig.states == [.refreshing, .finishing(.message("为你推荐12条新内容")), .idle])
        #expect(rig.scrollView.contentInset.top == 64)
        // Idle at end + 0.2 + 1.5 + 0.2 = end + 1.9: the banner fades out until end + 2.15, the top view is back.
        #expect(!effect.banner.isHidden && !effect.topView.isHidden)
        #expect(effect.label.string == "下拉刷新")
        let idle = end + 1.9
        #expect(abs(effect.banner.presentation(at: idle + 0.125).opacity - 0.5) < 1e-9)
        rig.run(seconds: 0.3)
        #expect(effect.banner.isHidden)
    }

    @Test("End while dragging: the offset is left under the finger, the banner comes paused and any release resumes it")
    func endWhileDragging() {
        let (rig, effect) = newsRig()
        rig.touchDown()
        rig.pull(to: 40)
        rig.pull(to: 80)
        rig.release()
        rig.run(seconds: 1)
        rig.touchDown()
        rig.move(toFingerY: rig.fingerY + 20)
        let held = rig.scrollView.contentOffset.y
        rig.control.endRefreshing(result: .message("12 new items"))
        #expect(rig.scrollView.contentOffset.y == held)
        for _ in 0..<15 { rig.move(toFingerY: rig.fingerY) }
        #expect(abs(rig.scrollView.contentOffset.y - held) < 1e-6)
        #expect(!effect.banner.isHidden && effect.isBannerPaused)
        #expect(effect.banner.speed == 0)
        rig.release()
        #expect(!effect.isBannerPaused && effect.banner.speed == 1)
        rig.run(seconds: 3)
        #expect(rig.states == [.pulling, .armed, .refreshing, .finishing(.message("12 new items")), .idle])
        #expect(effect.banner.isHidden && rig.actions == 1)
    }

    @Test("A finger held 3 s holds the 1.5 s wait with the banner; after the release the wait, the collapse and the fade run")
    func holdPausedUnderFinger() {
        let (rig, effect) = newsRig()
        rig.control.beginRefreshing()
        rig.run(seconds: 1)
        rig.touchDown()
        rig.control.endRefreshing(result: .message("12 new items"))
        let end = rig.time
        // The first stage runs under the finger (0.2 s to 32 pt); the banner comes at end + 0.2, paused at once, its
        // fade-in at its start (opacity 0); from then on nothing moves until the finger lifts.
        var heldOpacity: Double?
        for _ in 0..<180 {
            rig.move(toFingerY: rig.fingerY)
            guard rig.time > end + 0.25 else { continue }
            #expect(rig.control.addedInset == 32 && rig.control.state == .finishing(.message("12 new items")))
            #expect(effect.isBannerPaused && !effect.banner.isHidden)
            let opacity = effect.banner.presentation(at: rig.time).opacity
            if heldOpacity == nil { heldOpacity = opacity }
            #expect(opacity == heldOpacity)
        }
        // Paused in the frame it came, at most 1/60 s into the 0.25 s ease-in: x ≤ 1/15, where y(t) = 3(1 − t)t² + t³
        // with t ≈ 0.053 gives about 0.008.
        #expect(heldOpacity.map { $0 < 0.01 } == true)
        rig.scrollView.touchEnded(at: Point(Rig.fingerX, rig.fingerY), time: rig.time)
        let released = rig.time
        // After the release: the fade-in's 0.25 s, the whole 1.5 s wait (less the part of a frame it ran before the
        // pause took hold), the 0.2 s collapse to idle, then the banner's 0.25 s fade-out.
        var opaqueAt: Double?, collapseAt: Double?, idleAt: Double?, hiddenAt: Double?
        while rig.time < released + 3 {
            rig.run()
            if opaqueAt == nil && effect.banner.presentation(at: rig.time).opacity == 1 { opaqueAt = rig.time }
            if collapseAt == nil && rig.control.addedInset < 32 { collapseAt = rig.time }
            if idleAt == nil && rig.control.state == .idle { idleAt = rig.time }
            if hiddenAt == nil && effect.banner.isHidden { hiddenAt = rig.time }
        }
        func within(_ time: Double?, after start: Double) -> Bool {
            guard let time else { return false }
            return time > start - 1e-9 && time <= start + 2 * Rig.frame + 1e-9
        }
        #expect(within(opaqueAt, after: released + 0.25), "opaque at \(opaqueAt.map { $0 - released } ?? -1)")
        #expect(within(collapseAt, after: released + 1.5), "collapse at \(collapseAt.map { $0 - released } ?? -1)")
        #expect(within(idleAt, after: released + 1.7), "idle at \(idleAt.map { $0 - released } ?? -1)")
        #expect(within(hiddenAt, after: released + 1.95), "hidden at \(hiddenAt.map { $0 - released } ?? -1)")
        #expect(rig.scrollView.contentInset.top == 0)
    }

    @Test("Begin from code twice: one refresh, the inset added once")
    func beginTwice() {
        let (rig, effect) = newsRig(topInset: 64)
        rig.control.beginRefreshing()
        rig.control.beginRefreshing()
        rig.run(seconds: 1)
        rig.control.beginRefreshing()
        #expect(rig.actions == 1)
        #expect(rig.states == [.refreshing])
        #expect(rig.scrollView.contentInset.top == 64 + 70)
        #expect(abs(rig.scrollView.contentOffset.y + 134) < 0.5)
        #expect(effect.label.string == "Loading")
    }

    @Test("End twice: the second end changes nothing; the result is the first one's")
    func endTwice() {
        let (rig, effect) = newsRig()
        rig.control.beginRefreshing()
        rig.run(seconds: 1)
        rig.control.endRefreshing(result: .message("3 new items"))
        rig.run(3)
        rig.control.endRefreshing(result: .failure)
        rig.run(seconds: 0.5)
        #expect(effect.bannerLabel.string == "3 new items")
        rig.run(seconds: 2)
        rig.control.endRefreshing()
        #expect(rig.states == [.refreshing, .finishing(.message("3 new items")), .idle])
        #expect(rig.scrollView.contentInset.top == 0)
    }

    @Test("A plain success shows Done on the banner, a failure the failure text")
    func bannerWithoutMessage() {
        let effect = NewsEffect()
        effect.transition(from: .refreshing, to: .finishing(.success), at: 1)
        effect.update(pull: pull(0, at: 1.25))
        #expect(effect.bannerLabel.string == "Done" && effect.label.string == "Done")
        // The texts are in the pull's language.
        var chinese = pull(0, at: 5)
        chinese.language = .chinese
        effect.transition(from: .idle, to: .finishing(.failure), pull: chinese)
        #expect(effect.bannerLabel.string == "刷新失败" && effect.label.string == "刷新失败")
    }
}

@Suite("News effect: geometry")
struct NewsGeometryTests {
    @Test("Top view 150 tall ending at the content's top; image 48×48 and label in its last 70 pt; banner 32 tall")
    func layout() {
        let effect = NewsEffect()
        effect.update(pull: pull(30, at: 0))
        #expect(effect.layer.frame == Rect(x: 0, y: 0, width: 375, height: 70))
        // 70 − 150 = −80 in the header's container.
        #expect(effect.topView.frame == Rect(x: 0, y: -80, width: 375, height: 150))
        #expect(effect.topView.backgroundColor == Color(rgb: 235, 235, 235))
        // The image 48×48, (70 − 48)/2 = 11 below 80; the label 8 pt right of it, as tall as the visible 70 pt.
        #expect(effect.image.frame.minY == 91 && effect.image.frame.size == Size(48, 48))
        #expect(effect.label.frame.minX == effect.image.frame.maxX + 8)
        #expect(effect.label.frame.minY == 80 && effect.label.frame.height == 70)
        #expect(effect.label.fontSize == 14 && effect.label.foregroundColor == Color(rgb: 102, 102, 102))
        #expect(effect.banner.frame == Rect(x: 0, y: 38, width: 375, height: 32))
        #expect(effect.banner.backgroundColor == Color(rgb: 220, 232, 244))
        #expect(effect.bannerLabel.foregroundColor == Color(rgb: 69, 141, 243))
    }

    @Test("The image and the label are centred as one group, in every state's text and in both languages",
          arguments: RefreshLanguage.allCases)
    func groupCentred(language: RefreshLanguage) throws {
        let fonts = try FontSet.standard()
        let (rig, effect) = newsRig()
        rig.control.language = language
        func expectCentred(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(effect.label.string == text, sourceLocation: sourceLocation)
            // The group: the 48 pt image, the 8 pt gap, the text as wide as the font sets it.
            let textWidth = TextLine(text, fonts: fonts, size: 14).width
            let left = effect.image.frame.minX, right = effect.label.frame.minX + textWidth
            #expect(right - left == 48 + 8 + textWidth, sourceLocation: sourceLocation)
            #expect(abs((left + right) / 2 - 375.0 / 2) <= 0.5, "\(text): centre \((left + right) / 2)",
                    sourceLocation: sourceLocation)
            // The text is drawn in that place: its ink (pixels darker than the grey 235 of the top view and the white
            // under it), right of the image, lies within [label's left, left + width] (across, the header, its top
            // view and the content all start at x = 0, so frames are screen points).
            let canvas = rig.snapshot(height: 70).canvas
            var inkLeft = Int.max, inkRight = Int.min
            for y in 0..<canvas.height {
                for x in Int(effect.image.frame.maxX * 2 + 1)..<canvas.width where (canvas[x, y] >> 8) & 0xFF < 230 {
                    inkLeft = min(inkLeft, x)
                    inkRight = max(inkRight, x + 1)
                }
            }
            let labelLeft = effect.label.frame.minX
            #expect(Double(inkLeft) / 2 >= labelLeft - 0.5 && Double(inkRight) / 2 <= labelLeft + textWidth + 0.5,
                    "\(text): ink \(Double(inkLeft) / 2) … \(Double(inkRight) / 2)", sourceLocation: sourceLocation)
        }
        let strings = NewsEffect.newsStrings(language)
        rig.touchDown()
        rig.pull(to: 69)
        expectCentred(strings.pullDown)
        rig.pull(to: 90)
        expectCentred(strings.release)
        rig.release()
        rig.run(seconds: 0.6)
        expectCentred(strings.refreshing)
        rig.control.endRefreshing()
        rig.run()
        expectCentred(strings.succeeded)
    }

    @Test("Pulled, the page shows floor(4·p/70) + 1 lines, at most 4", arguments: [
        (10.0, 0), (17.5, 1), (30, 1), (40, 2), (55, 3), (69, 3), (120, 3),
    ])
    func pageFollowsPull(distance: Double, frame: Int) {
        let effect = NewsEffect()
        effect.update(pull: pull(distance, at: 0, down: true))
        #expect(effect.image.path == effect.frames[frame])
    }

    @Test("The container sits 70 pt above; finishing moves the content with the inset, or leaves it scrolled away",
          arguments: [0.0, 64])
    func finishOffset(topInset: Double) {
        let (rig, _) = newsRig(topInset: topInset)
        rig.control.beginRefreshing()
        rig.run(seconds: 1)
        #expect(rig.control.headerLayer.frame == Rect(x: 0, y: -70, width: 375, height: 70))
        // At rest showing the header: the content follows the inset down to the banner's 32 pt, then to the top.
        rig.control.endRefreshing(result: .message("1 new item"))
        rig.run(seconds: NewsEffect.collapseDuration + 0.05)
        #expect(rig.scrollView.contentOffset.y == -(topInset + NewsEffect.bannerHeight))
        rig.run(seconds: NewsEffect.bannerHoldDuration + NewsEffect.collapseDuration + 0.1)
        #expect(rig.scrollView.contentOffset.y == -topInset && rig.control.state == .idle)
        // The list scrolled away while refreshing keeps its place: nothing jumps under the reader's eyes.
        rig.control.beginRefreshing()
        rig.run(seconds: 1)
        rig.scrollView.setContentOffset(Point(0, 200))
        rig.control.endRefreshing(result: .message("1 new item"))
        rig.run(seconds: 3)
        #expect(rig.scrollView.contentOffset.y == 200)
    }
}

@Suite("News effect: animation timelines")
struct NewsTimelineTests {
    /// Ends a refresh at t = 1 and shows the banner at 1 + 0.2 = 1.2 (both in [1, 2), so sums below are exact).
    func bannerShown() -> NewsEffect {
        let effect = NewsEffect()
        effect.transition(from: .idle, to: .refreshing, at: 0.5)
        effect.transition(from: .refreshing, to: .finishing(.message("3 new items")), at: 1)
        effect.update(pull: pull(32, at: 1.1))
        #expect(effect.banner.isHidden)
        effect.update(pull: pull(32, at: 1.2))
        #expect(!effect.banner.isHidden)
        return effect
    }

    @Test("Bounce: scale 1 → 1.1 at 0.25 s → exactly 1 at 0.5 s; opacity 0 → 1 over the first 0.25 s, ease-in")
    func bounce() {
        let effect = bannerShown()
        let start = effect.bannerStartTime!
        #expect(start == 1.2)
        #expect(scale(effect, at: start) == 1)
        #expect(effect.banner.presentation(at: start).opacity == 0)
        // Ease-in (0.42, 0)(1, 1) at x = 0.5: t ≈ 0.374253 solves x(t) = 0.5, y(t) ≈ 0.315357.
        #expect(abs(scale(effect, at: start + 0.125) - 1.0315357) < 1e-6)
        #expect(abs(effect.banner.presentation(at: start + 0.125).opacity - 0.315357) < 1e-6)
        #expect(abs(scale(effect, at: start + 0.25) - 1.1) < 1e-12)
        #expect(effect.banner.presentation(at: start + 0.25).opacity == 1)
        // Second half: 1.1 back towards 1 along the same curve.
        #expect(abs(scale(effect, at: start + 0.375) - (1.1 - 0.1 * 0.315357)) < 1e-6)
        #expect(scale(effect, at: start + 0.5) == 1)
        #expect(scale(effect, at: start + 0.75) == 1)
    }

    @Test("A finger freezes the bounce where it is (QA1673) and a release continues it from there")
    func pauseAndResume() {
        let effect = bannerShown()
        // Finger down 0.125 s into the bounce, held for a second.
        effect.update(pull: pull(32, at: 1.325, down: true))
        #expect(effect.isBannerPaused && effect.banner.speed == 0)
        #expect(abs(effect.banner.timeOffset - 1.325) < 1e-12)
        for t in [1.5, 2.0, 2.325] {
            #expect(abs(scale(effect, at: t) - 1.0315357) < 1e-6)
        }
        effect.update(pull: pull(32, at: 2.325, down: false))
        #expect(!effect.isBannerPaused && effect.banner.speed == 1)
        // 0.125 s after the release the bounce is 0.25 s in: the top, 1.1; 0.375 s after, it is over.
        #expect(abs(scale(effect, at: 2.45) - 1.1) < 1e-9)
        #expect(scale(effect, at: 2.75) == 1)
    }

    @Test("Refreshing: the page cycles through its four frames every 0.6 s (0.15 s each) from the start")
    func imageCycle() {
        let effect = NewsEffect()
        effect.transition(from: .armed, to: .refreshing, at: 2)
        for (t, k) in [(2.05, 0), (2.2, 1), (2.4, 2), (2.5, 3), (2.65, 0), (3.3, 0), (3.4, 1)] {
            #expect(effect.image.shapePresentation(at: t).path == effect.frames[k], "at \(t)")
        }
        effect.transition(from: .refreshing, to: .finishing(.success), at: 3)
        #expect(effect.image.shapePresentation(at: 3.05).path == effect.frames[3])
    }
}

@Suite("News effect: goldens")
struct NewsGoldenTests {
    @Test("Pulled 45, armed at 90, refreshing, finishing (加载完成), banner mid-bounce and settled")
    func goldens() {
        let (rig, _) = newsRig()
        rig.touchDown()
        rig.pull(to: 45)
        Golden.expect(rig.snapshot(), named: "news-pull-45")
        rig.pull(to: 90)
        Golden.expect(rig.snapshot(), named: "news-armed-90")
        rig.release()
        rig.run(seconds: 1)
        Golden.expect(rig.snapshot(), named: "news-refreshing")
        rig.control.language = .chinese
        rig.control.endRefreshing(result: .message("为你推荐12条新内容"))
        rig.run(6)
        Golden.expect(rig.snapshot(), named: "news-finishing-zh")
        rig.run(16)
        Golden.expect(rig.snapshot(), named: "news-banner-bounce")
        rig.run(seconds: 0.5)
        Golden.expect(rig.snapshot(), named: "news-banner")
    }
}

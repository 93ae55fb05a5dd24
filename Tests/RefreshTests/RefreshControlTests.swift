#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Styles
@testable import Refresh
import Motion
import Scrolling
import Testing

/// The classic metrics: header and trigger 54, inset 54 in over 0.25 s, out over 0.4 s (docs/reference.md §1, Classic).
let classic = RefreshMetrics()
/// The sticky header's: fires at 88 with the finger down, inset 44 at once, result 0.5 s + wait 0.5 s, collapse 0.5 s.
let sticky = RefreshMetrics(headerHeight: 44, triggerDistance: 88, trigger: .atThreshold, insertDuration: 0,
                            finishing: [RefreshInsetStage(delay: 1.0, duration: 0.5)])
/// The news header's two-stage collapse: to 32 over 0.2 s, banner 1.5 s, to 0 over 0.2 s.
let news = RefreshMetrics(headerHeight: 70, triggerDistance: 70, minimumTriggerDistance: 45, refreshingInset: 70,
                          finishing: [RefreshInsetStage(inset: 32, duration: 0.2),
                                      RefreshInsetStage(delay: 1.5, inset: 0, duration: 0.2)],
                          hasResultRow: true)

@Suite("RefreshControl: scripted pulls")
struct ScriptedPullTests {
    @Test("A pull short of the threshold goes pulling → idle and fires nothing", arguments: [0.0, 64])
    func shortPull(topInset: Double) {
        let rig = Rig(topInset: topInset)
        rig.touchDown()
        rig.pull(to: 30)
        #expect(abs(rig.control.distance - 30) < 1e-6)
        #expect(abs(rig.control.pull.progress - 30.0 / 54) < 1e-6)
        rig.release()
        rig.run(seconds: 1)
        #expect(rig.states == [.pulling, .idle])
        #expect(rig.actions == 0 && rig.cues == 0)
        #expect(rig.scrollView.contentInset.top == topInset)
        #expect(abs(rig.scrollView.contentOffset.y + topInset) < 0.5)
    }

    @Test("Past the threshold: armed, one cue; release refreshes once; the inset is added on top of the bar's; end collapses it",
          arguments: [0.0, 64])
    func fullPull(topInset: Double) {
        let rig = Rig(topInset: topInset)
        rig.touchDown()
        for p in [20.0, 40, 60, 80] { rig.pull(to: p) }
        #expect(rig.states == [.pulling, .armed])
        #expect(rig.cues == 1)
        #expect(rig.control.pull.progress > 1)
        rig.release()
        #expect(rig.states == [.pulling, .armed, .refreshing])
        #expect(rig.actions == 1)
        rig.run(seconds: 1)
        #expect(rig.control.addedInset == 54)
        #expect(rig.scrollView.contentInset.top == topInset + 54)
        #expect(abs(rig.scrollView.contentOffset.y + topInset + 54) < 0.5)
        rig.control.endRefreshing(result: .success)
        #expect(rig.states.last == .finishing(.success))
        rig.run(seconds: 0.2)
        #expect(rig.control.addedInset > 0 && rig.control.addedInset < 54)
        rig.run(seconds: 0.25)
        #expect(rig.states == [.pulling, .armed, .refreshing, .finishing(.success), .idle])
        #expect(rig.scrollView.contentInset.top == topInset)
        rig.run(seconds: 1)
        #expect(abs(rig.scrollView.contentOffset.y + topInset) < 0.5)
        #expect(rig.actions == 1 && rig.cues == 1)
    }

    @Test("Moving back 1 pt keeps the control armed; falling well below disarms; each crossing gives one cue")
    func hysteresis() {
        let rig = Rig()
        rig.touchDown()
        rig.pull(to: 30)
        rig.pull(to: 55)
        rig.pull(to: 54)
        rig.pull(to: 53.5)
        #expect(rig.control.state == .armed)
        #expect(rig.cues == 1)
        rig.pull(to: 51.5)
        #expect(rig.control.state == .pulling)
        rig.pull(to: 53.5)
        #expect(rig.control.state == .pulling)
        rig.pull(to: 54.5)
        #expect(rig.control.state == .armed)
        #expect(rig.cues == 2)
        #expect(rig.states == [.pulling, .armed, .pulling, .armed])
    }

    @Test("Armed, then back to the top before release: no refresh")
    func disarmBeforeRelease() {
        let rig = Rig()
        rig.touchDown()
        rig.pull(to: 30)
        rig.pull(to: 70)
        rig.pull(to: 20)
        rig.release()
        rig.run(seconds: 1)
        #expect(rig.states == [.pulling, .armed, .pulling, .idle])
        #expect(rig.actions == 0)
    }

    @Test("The trigger distance is adjustable, never below the effect's minimum")
    func adjustableTrigger() {
        let rig = Rig()
        rig.control.triggerDistance = 80
        rig.touchDown()
        rig.pull(to: 70)
        #expect(rig.control.state == .pulling)
        rig.pull(to: 81)
        #expect(rig.control.state == .armed)
        let newsRig = Rig(effect: RecordingEffect(metrics: news))
        newsRig.control.triggerDistance = 30
        #expect(newsRig.control.triggerDistance == 45)
    }

    @Test("Sticky: fires at the threshold with the finger down; the inset arrives with no jump; result 1 s, collapse 0.5 s")
    func stickyAtThreshold() {
        let rig = Rig(effect: RecordingEffect(metrics: sticky))
        rig.touchDown()
        for p in [30.0, 60, 87] { rig.pull(to: p) }
        #expect(rig.states == [.pulling])
        rig.pull(to: 90)
        #expect(rig.states == [.pulling, .refreshing])
        #expect(rig.actions == 1 && rig.cues == 1)
        let before = rig.scrollView.contentOffset.y
        rig.move(toFingerY: rig.fingerY)
        #expect(rig.control.addedInset == 44)
        #expect(abs(rig.scrollView.contentOffset.y - before) < 1e-9)
        // Pulling further while refreshing changes nothing.
        rig.move(toFingerY: rig.fingerY + 40)
        rig.release()
        rig.run(seconds: 1.5)
        #expect(abs(rig.scrollView.contentOffset.y + 44) < 0.5)
        rig.control.endRefreshing(result: .failure)
        rig.run(seconds: 0.95)
        #expect(rig.control.addedInset == 44)
        rig.run(seconds: 0.3)
        #expect(rig.control.addedInset > 0 && rig.control.addedInset < 44)
        rig.run(seconds: 0.3)
        #expect(rig.control.addedInset == 0)
        #expect(rig.states == [.pulling, .refreshing, .finishing(.failure), .idle])
    }

    @Test("News: the inset drops to 32 over 0.2 s, stays 1.5 s, then to 0 over 0.2 s")
    func newsTwoStages() {
        let rig = Rig(effect: RecordingEffect(metrics: news), topInset: 64)
        rig.control.beginRefreshing()
        rig.run(seconds: 1)
        #expect(rig.scrollView.contentInset.top == 64 + 70)
        rig.control.endRefreshing(result: .message("12 new items"))
        rig.run(seconds: 0.25)
        #expect(rig.control.addedInset == 32)
        rig.run(seconds: 1.4)
        #expect(rig.control.addedInset == 32)
        #expect(rig.control.title == "12 new items")
        rig.run(seconds: 0.15)
        #expect(rig.control.addedInset > 0 && rig.control.addedInset < 32)
        rig.run(seconds: 0.15)
        #expect(rig.scrollView.contentInset.top == 64)
        #expect(rig.states == [.refreshing, .finishing(.message("12 new items")), .idle])
    }

    @Test("End while the finger is down: the content stays under the finger while the inset collapses, and no re-arm until lift")
    func endWhileDragging() {
        let rig = Rig()
        rig.touchDown()
        rig.pull(to: 30)
        rig.pull(to: 70)
        rig.release()
        rig.run(seconds: 1)
        rig.touchDown()
        rig.move(toFingerY: rig.fingerY + 30)
        let held = rig.scrollView.contentOffset.y
        #expect(held < -54)
        rig.control.endRefreshing()
        var offsets: [Double] = []
        for _ in 0..<40 {
            rig.move(toFingerY: rig.fingerY)
            offsets.append(rig.scrollView.contentOffset.y)
        }
        #expect(offsets.allSatisfy { abs($0 - held) < 1e-6 })
        #expect(rig.control.addedInset == 0)
        // Still held past the threshold: shown as a pull, but it does not arm until the finger lifts.
        #expect(rig.control.state == .pulling)
        #expect(rig.control.distance > 54)
        rig.release()
        rig.run(seconds: 1)
        #expect(rig.actions == 1 && rig.cues == 1)
        #expect(rig.states == [.pulling, .armed, .refreshing, .finishing(.success), .idle, .pulling, .idle])
    }

    @Test("End while the inset is still coming in (begun from code): it turns back from where it is, with no jump")
    func endDuringInsert() {
        let rig = Rig()
        rig.control.beginRefreshing()
        rig.run(6)
        let partial = rig.control.addedInset
        #expect(partial > 0 && partial < 54)
        rig.control.endRefreshing()
        var previous = partial
        for _ in 0..<30 {
            rig.run()
            #expect(rig.control.addedInset <= previous)
            #expect(previous - rig.control.addedInset < 10)
            previous = rig.control.addedInset
        }
        #expect(rig.control.addedInset == 0)
        #expect(rig.control.state == .idle)
    }
}

@Suite("RefreshControl: from code")
struct FromCodeTests {
    @Test("Begin twice: one refresh, one action, the header scrolled into view, the inset added once")
    func beginTwice() {
        let rig = Rig(topInset: 64)
        rig.control.beginRefreshing()
        rig.control.beginRefreshing()
        rig.run(seconds: 0.1)
        rig.control.beginRefreshing()
        rig.run(seconds: 1)
        #expect(rig.states == [.refreshing])
        #expect(rig.actions == 1)
        #expect(rig.scrollView.contentInset.top == 64 + 54)
        #expect(abs(rig.scrollView.contentOffset.y + 64 + 54) < 1e-6)
        #expect(rig.cues == 0)
    }

    @Test("End twice: one finishing, and the inset goes back to the bar's exactly")
    func endTwice() {
        let rig = Rig(topInset: 64)
        rig.control.beginRefreshing()
        rig.run(seconds: 1)
        rig.control.endRefreshing()
        rig.control.endRefreshing(result: .failure)
        rig.run(seconds: 1)
        rig.control.endRefreshing()
        #expect(rig.states == [.refreshing, .finishing(.success), .idle])
        #expect(rig.scrollView.contentInset.top == 64)
    }

    @Test("Begin, end, begin again during the collapse: the inset is never more than one header")
    func beginDuringFinishing() {
        let rig = Rig()
        var largest = 0.0
        for _ in 0..<3 {
            rig.control.beginRefreshing()
            rig.run(seconds: 0.1)
            largest = max(largest, rig.scrollView.contentInset.top)
            rig.control.endRefreshing()
            rig.run(seconds: 0.1)
            largest = max(largest, rig.scrollView.contentInset.top)
        }
        rig.run(seconds: 1)
        largest = max(largest, rig.scrollView.contentInset.top)
        #expect(largest <= 54)
        #expect(rig.actions == 3)
        #expect(rig.states == [.refreshing, .finishing(.success), .refreshing, .finishing(.success),
                               .refreshing, .finishing(.success), .idle])
        #expect(rig.scrollView.contentInset.top == 0)
    }

    @Test("Begin with the list scrolled far down brings the header into view")
    func beginScrolledDown() {
        let rig = Rig(topInset: 64)
        rig.scrollView.setContentOffset(Point(0, 800))
        rig.control.beginRefreshing()
        rig.run(seconds: 1)
        #expect(abs(rig.scrollView.contentOffset.y + 64 + 54) < 1e-6)
    }

    @Test("Begin while not on screen waits in willRefresh, then refreshes once when shown")
    func willRefresh() {
        let rig = Rig()
        rig.control.isOnScreen = false
        rig.control.beginRefreshing()
        rig.control.beginRefreshing()
        rig.run(seconds: 0.5)
        #expect(rig.states == [.willRefresh])
        #expect(rig.actions == 0 && rig.control.addedInset == 0)
        rig.control.isOnScreen = true
        rig.run(seconds: 1)
        #expect(rig.states == [.willRefresh, .refreshing])
        #expect(rig.actions == 1 && rig.control.addedInset == 54)
    }

    @Test("Begin before attaching waits, and refreshes on attach")
    func beginBeforeAttach() {
        let rig = Rig(attach: false)
        rig.control.beginRefreshing()
        #expect(rig.control.state == .willRefresh)
        rig.control.attach(to: rig.scrollView)
        #expect(rig.control.state == .refreshing)
        #expect(rig.actions == 1)
    }

    @Test("End cancels a waiting begin")
    func endCancelsWait() {
        let rig = Rig()
        rig.control.isOnScreen = false
        rig.control.beginRefreshing()
        rig.control.endRefreshing()
        rig.control.isOnScreen = true
        rig.run(seconds: 1)
        #expect(rig.states == [.willRefresh, .idle])
        #expect(rig.actions == 0)
    }

    @Test("An inset the app changes during a refresh is kept when the refresh ends")
    func foreignInsetKept() {
        let rig = Rig(topInset: 64)
        rig.control.beginRefreshing()
        rig.run(seconds: 1)
        var inset = rig.scrollView.contentInset
        inset.top += 20
        rig.scrollView.contentInset = inset
        rig.control.endRefreshing()
        rig.run(seconds: 1)
        #expect(rig.scrollView.contentInset.top == 84)
    }
}

@Suite("RefreshControl: effect, texts, last updated")
struct EffectAndTextTests {
    @Test("The effect hears each state change once, and a pull per frame with the header's size")
    func effectProtocol() {
        let effect = RecordingEffect()
        let rig = Rig(effect: effect)
        #expect(effect.control === rig.control)
        rig.touchDown()
        rig.pull(to: 27)
        #expect(effect.lastPull?.progress == rig.control.pull.progress)
        #expect(effect.lastPull?.isDragging == true)
        #expect(effect.lastPull?.headerSize == Size(375, 54))
        #expect(rig.control.headerLayer.frame == Rect(x: 0, y: -54, width: 375, height: 54))
        rig.pull(to: 60)
        rig.release()
        #expect(effect.transitions.map(\.to) == [.pulling, .armed, .refreshing])
        #expect(effect.transitions.map(\.from) == [.idle, .pulling, .armed])
        let frames = effect.pullCount
        rig.run(10)
        #expect(effect.pullCount == frames + 10)
    }

    @Test("Titles follow the state, in English and Chinese; finishing reads as idle without a result row")
    func titles() {
        let rig = Rig()
        #expect(rig.control.title == "Pull down to refresh")
        rig.control.language = .chinese
        #expect(rig.control.title == "下拉可以刷新")
        rig.touchDown()
        rig.pull(to: 60)
        #expect(rig.control.title == "松开立即刷新")
        rig.control.language = .english
        #expect(rig.control.title == "Release to refresh")
        rig.release()
        #expect(rig.control.title == "Loading...")
        rig.control.language = .chinese
        #expect(rig.control.title == "正在刷新数据中...")
        rig.control.endRefreshing()
        // The rig's effect has the classic metrics: no result row, so the title is the idle one again.
        #expect(rig.control.title == "下拉可以刷新")
        let sticky = Rig(effect: RecordingEffect(metrics: RefreshMetrics(hasResultRow: true)))
        sticky.control.beginRefreshing()
        sticky.control.endRefreshing(result: .failure)
        #expect(sticky.control.title == "Refresh failed")
    }

    @Test("News texts: 下拉刷新 / 释放刷新 / 加载中 / 加载完成")
    func newsTexts() {
        let s = NewsEffect.newsStrings(.chinese)
        #expect([RefreshState.pulling, .armed, .refreshing, .finishing(.success)].map(s.headerTitle(for:))
            == ["下拉刷新", "释放刷新", "加载中", "加载完成"])
        #expect(RefreshStrings.standard(.chinese).headerTitle(for: .finishing(.failure)) == "刷新失败")
        #expect(RefreshStrings.standard(.english).footerTitle(for: .noMoreData, automatic: true) == "No more data")
        #expect(RefreshStrings.standard(.chinese).footerTitle(for: .noMoreData, automatic: false) == "已经全部加载完毕")
    }

    @Test("Last updated: no record, then today's time after a refresh, per key, not after a failure")
    func lastUpdated() {
        let store = LastUpdatedStore()
        let rig = Rig()
        rig.control.lastUpdatedStore = store
        rig.control.lastUpdatedKey = "inbox"
        #expect(rig.control.lastUpdatedText == "Last updated: No record")
        rig.control.beginRefreshing()
        rig.control.endRefreshing(result: .failure)
        #expect(rig.control.lastUpdated == nil)
        rig.run(seconds: 1)
        rig.control.beginRefreshing()
        rig.control.endRefreshing()
        #expect(rig.control.lastUpdatedText == "Last updated: Today 10:32")
        rig.control.language = .chinese
        #expect(rig.control.lastUpdatedText == "最后更新：今天 10:32")
        rig.control.lastUpdatedKey = "outbox"
        #expect(rig.control.lastUpdatedText == "最后更新：无记录")
        rig.control.lastUpdatedKey = "inbox"
        rig.control.dateSource = { RefreshDate(year: 2024, month: 5, day: 18, hour: 9, minute: 0) }
        #expect(rig.control.lastUpdatedText == "最后更新：05-17 10:32")
        rig.control.dateSource = { RefreshDate(year: 2025, month: 1, day: 2, hour: 9, minute: 5) }
        #expect(rig.control.lastUpdatedText == "最后更新：2024-05-17 10:32")
    }

    @Test("Registry: a registered effect is made by name; built-in names come first")
    func registry() {
        RefreshEffects.register(name: "test-recording",
                                title: LocalizedText(english: "recording header", chinese: "记录头部")) {
            RecordingEffect(metrics: sticky)
        }
        #expect(RefreshEffects.names.first == RefreshEffects.builtIn.first?.name)
        #expect(RefreshEffects.names.contains("test-recording"))
        #expect(RefreshEffects.make("test-recording")?.metrics == sticky)
        #expect(RefreshEffects.make("no-such-effect") == nil)
    }

    @Test("Changing the effect mid-refresh ends the refresh: the old effect hears idle, the new one starts idle, the inset goes with the content")
    func swapEffect() {
        let first = RecordingEffect()
        let rig = Rig(effect: first)
        rig.control.beginRefreshing()
        rig.run(seconds: 1)
        #expect(rig.control.addedInset == 54)
        let next = RecordingEffect(metrics: sticky)
        rig.control.setEffect(next)
        #expect(first.transitions.map(\.to) == [.refreshing, .idle])
        #expect(next.transitions.isEmpty)
        #expect(rig.control.state == .idle && rig.control.triggerDistance == 88)
        // The old inset is taken back over 0.4 s with the content along: halfway, the content sits at the edge.
        rig.run(seconds: 0.2)
        #expect(rig.control.addedInset > 0 && rig.control.addedInset < 54)
        #expect(abs(rig.scrollView.contentOffset.y + rig.control.addedInset) < 1e-9)
        rig.run(seconds: 0.25)
        #expect(rig.control.addedInset == 0 && rig.scrollView.contentInset.top == 0 && rig.scrollView.contentOffset.y == 0)
        rig.run(seconds: 1)
        #expect(rig.control.state == .idle && next.transitions.isEmpty)
        // A new refresh is the new effect's own: its inset, 44.
        rig.control.beginRefreshing()
        rig.run(seconds: 1)
        #expect(next.transitions.map(\.to) == [.refreshing] && rig.control.addedInset == 44)
    }

    @Test("Reset with the finger past the threshold: idle at once, pulling again under the finger, no refresh on lift")
    func resetUnderFinger() {
        let rig = Rig()
        rig.touchDown()
        rig.pull(to: 40)
        rig.pull(to: 70)
        #expect(rig.control.state == .armed)
        rig.control.reset()
        #expect(rig.control.state == .idle)
        rig.pull(to: 75)
        #expect(rig.control.state == .pulling)
        rig.release()
        rig.run(seconds: 1)
        #expect(rig.control.state == .idle && rig.actions == 0 && rig.cues == 1)
    }
}

@Suite("RefreshControl: every registered effect")
struct EveryEffectTests {
    @Test("Short pull, full pull, release, end: the state sequence follows the effect's trigger",
          arguments: RefreshEffects.builtIn.map(\.name))
    func sequences(name: String) throws {
        let effect = try #require(RefreshEffects.make(name))
        let m = effect.metrics
        let rig = Rig(effect: effect, topInset: 64)
        rig.touchDown()
        rig.pull(to: m.triggerDistance * 0.5)
        rig.release()
        rig.run(seconds: 1)
        #expect(rig.states == [.pulling, .idle])
        rig.touchDown()
        rig.pull(to: m.triggerDistance * 0.5)
        rig.pull(to: m.triggerDistance + 5)
        rig.release()
        let armed: [RefreshState] = m.trigger == .onRelease ? [.pulling, .armed, .refreshing] : [.pulling, .refreshing]
        #expect(Array(rig.states.dropFirst(2)) == armed)
        rig.run(seconds: 2)
        // The refreshing header is held in view: by an inset, or floating over content that stays at its top.
        if m.placement.floating != nil {
            #expect(rig.scrollView.contentInset.top == 64 && rig.control.distance == m.refreshingInset)
            #expect(rig.scrollView.contentOffset.y == -64)
        } else {
            #expect(rig.scrollView.contentInset.top == 64 + m.refreshingInset)
        }
        rig.control.endRefreshing()
        rig.control.endRefreshing()
        rig.run(seconds: 5)
        #expect(Array(rig.states.suffix(2)) == [.finishing(.success), .idle])
        #expect(rig.scrollView.contentInset.top == 64)
        #expect(rig.actions == 1 && rig.cues == 1)
    }
}

/// A floating header as the ring's: 64 pt, to its refreshing place over 0.2 s on Android's decelerate curve, held
/// there for a 0.3 s finish.
let floating = RefreshMetrics(headerHeight: 64, triggerDistance: 64, refreshingInset: 64, insertDuration: 0.2,
                              insertTiming: .decelerate(factor: 2),
                              finishing: [RefreshInsetStage(inset: 64, duration: 0.3)],
                              placement: .floatsOverContent(FloatingPlacement()))

/// Android's DecelerateInterpolator(2) at `t` seconds of a 0.2 s animation.
private func decelerate(_ t: Double) -> Double {
    let u = min(max(t / 0.2, 0), 1)
    return 1 - pow(1 - u, 4)
}

@Suite("RefreshControl: a header floating over the content")
struct FloatingPlacementTests {
    @Test("The pull moves the header by half the finger's travel; the content and the inset stay",
          arguments: [0.0, 64])
    func pullMovesTheHeader(topInset: Double) {
        let rig = Rig(effect: RecordingEffect(metrics: floating), topInset: topInset)
        #expect(rig.scrollView.holdsContentAtTop)
        rig.touchDown()
        for travel in stride(from: 10.0, through: 100, by: 10) {
            rig.move(toFingerY: Rig.fingerStart + travel)
            #expect(rig.control.distance == travel / 2)
            #expect(rig.scrollView.contentOffset.y == -topInset && rig.scrollView.contentInset.top == topInset)
            // The header's container hangs `distance` below the list's resting top (under an inset), less its height.
            #expect(rig.control.headerLayer.frame.minY == travel / 2 - 64)
        }
        #expect(rig.states == [.pulling])
        #expect(rig.control.addedInset == 0)
    }

    @Test("Released short, the header goes back out of sight over 200 ms, decelerating; nothing fires")
    func shortReleaseGoesBack() {
        let rig = Rig(effect: RecordingEffect(metrics: floating))
        rig.touchDown()
        rig.move(toFingerY: Rig.fingerStart + 100)
        let released = rig.lift()
        #expect(rig.control.state == .idle)
        for _ in 0..<14 {
            rig.run()
            #expect(abs(rig.control.distance - 50 * (1 - decelerate(rig.time - released))) < 1e-9)
            #expect(rig.scrollView.contentOffset.y == 0)
        }
        #expect(rig.control.distance == 0 && rig.actions == 0 && rig.states == [.pulling, .idle])
    }

    @Test("Released past the trigger, the header comes to its refreshing place over 200 ms and stays until the end")
    func longReleaseRefreshes() {
        let rig = Rig(effect: RecordingEffect(metrics: floating))
        rig.touchDown()
        rig.move(toFingerY: Rig.fingerStart + 180)
        #expect(rig.control.state == .armed && rig.control.distance == 90)
        let released = rig.lift()
        #expect(rig.control.state == .refreshing && rig.actions == 1)
        for _ in 0..<14 {
            rig.run()
            #expect(abs(rig.control.distance - (90 - 26 * decelerate(rig.time - released))) < 1e-9)
        }
        rig.run(seconds: 1)
        #expect(rig.control.distance == 64 && rig.scrollView.contentOffset.y == 0 && rig.control.addedInset == 0)
        // Scrolling the list while it refreshes leaves the header where it is on the screen.
        rig.touchDown()
        rig.move(toFingerY: Rig.fingerStart - 120)
        #expect(rig.scrollView.contentOffset.y == 120 && rig.control.distance == 64)
        #expect(rig.control.headerLayer.frame.minY == 120)
        rig.release()
        // The finish keeps the header in place; then it is back at its start.
        rig.control.endRefreshing()
        rig.run(seconds: 0.25)
        #expect(rig.control.distance == 64)
        rig.run(seconds: 0.1)
        #expect(rig.control.state == .idle && rig.control.distance == 0)
    }

    @Test("A finger catching a header on its way back takes it from where it is, with no jump")
    func catchingTheReturn() {
        let rig = Rig(effect: RecordingEffect(metrics: floating))
        rig.touchDown()
        rig.move(toFingerY: Rig.fingerStart + 100)
        rig.lift()
        rig.run(2)
        let caught = rig.control.distance
        #expect(caught > 0 && caught < 50)
        rig.touchDown()
        var last = caught
        for i in 1...20 {
            rig.move(toFingerY: Rig.fingerStart + 8 * Double(i))
            let d = rig.control.distance
            // Never more than the animation's or the finger's step (4 pt) from the last frame.
            #expect(abs(d - last) <= max(4, 0.5 * caught), "frame \(i)")
            last = d
        }
        #expect(rig.control.distance == 80)
    }

    @Test("Beginning from code brings the header down over 200 ms; switching to a pushing effect lets go of the top")
    func fromCodeAndSwitch() {
        let rig = Rig(effect: RecordingEffect(metrics: floating))
        rig.run()
        let start = rig.time
        rig.control.beginRefreshing(at: start)
        rig.run(6)
        #expect(abs(rig.control.distance - 64 * decelerate(rig.time - start)) < 1e-9)
        rig.run(seconds: 0.5)
        #expect(rig.control.distance == 64 && rig.scrollView.contentOffset.y == 0)
        rig.control.setEffect(RecordingEffect())
        #expect(rig.control.state == .idle && rig.control.distance == 0)
        #expect(!rig.scrollView.holdsContentAtTop)
        rig.touchDown()
        rig.pull(to: 30)
        #expect(abs(rig.scrollView.contentOffset.y + 30) < 1e-6)
    }
}

@Suite("The effect's name")
struct EffectNameTests {
    @Test("The name changes with the effect: the old effect's return to idle on a switch is told under its own name")
    func nameFollowsTheEffect() {
        let rig = Rig(effect: RefreshEffects.make("classic")!)
        rig.control.setEffect(RefreshEffects.make("sticky")!, named: "sticky")
        #expect(rig.control.effectName == "sticky")
        var told: [(RefreshState, String)] = []
        rig.control.stateDidChange = { [unowned rig] _, new in told.append((new, rig.control.effectName)) }
        rig.control.beginRefreshing(at: 0)
        rig.run(3)
        rig.control.setEffect(RefreshEffects.make("ring")!, named: "ring")
        #expect(told.map(\.0) == [.refreshing, .idle] && told.map(\.1) == ["sticky", "sticky"])
        #expect(rig.control.effectName == "ring")
    }
}


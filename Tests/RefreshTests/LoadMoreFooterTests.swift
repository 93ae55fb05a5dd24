import Geometry
@testable import Refresh
@testable import Scrolling
import Testing

/// A 600 pt viewport over a list, with a footer, driven by a scripted finger at 60 frames a second.
final class FooterRig {
    let scrollView: ScrollView
    let footer: LoadMoreFooter
    var time = 0.0
    var fingerY = 500.0
    var states: [RefreshState] = []
    var actions = 0

    init(mode: LoadMoreFooter.Mode, contentHeight: Double = 2000, bottomInset: Double = 0) {
        scrollView = ScrollView(boundsSize: Size(375, 600), contentSize: Size(375, contentHeight),
                                contentInset: EdgeInsets(bottom: bottomInset))
        footer = LoadMoreFooter(mode: mode)
        footer.stateDidChange = { [unowned self] _, new in states.append(new) }
        footer.action = { [unowned self] in actions += 1 }
        footer.attach(to: scrollView)
        run()
    }

    func run(_ count: Int = 1) {
        for _ in 0..<count {
            time += 1.0 / 60
            scrollView.step(to: time)
            footer.step(to: time)
        }
    }

    func touchDown() {
        fingerY = 500
        scrollView.touchBegan(at: Point(187, fingerY), time: time)
    }

    /// Moves the finger up by `travel` points from where it touched down, in one frame.
    func drag(up travel: Double) {
        time += 1.0 / 60
        fingerY = 500 - travel
        scrollView.touchMoved(to: Point(187, fingerY), time: time)
        scrollView.step(to: time)
        footer.step(to: time)
    }

    func release() {
        for _ in 0..<8 { drag(up: 500 - fingerY) }
        scrollView.touchEnded(at: Point(187, fingerY), time: time)
        run()
    }
}

@Suite("LoadMoreFooter")
struct LoadMoreFooterTests {
    @Test("Automatic footer at 100 %: not while only part of it shows; once when all of it does; once per touch")
    func automaticFullPercent() {
        let rig = FooterRig(mode: .automatic(triggerPercent: 1))
        #expect(rig.footer.addedInset == 44)
        #expect(rig.scrollView.contentInset.bottom == 44)
        // The end of the content 100 pt below the screen's bottom.
        rig.scrollView.setContentOffset(Point(0, 2000 - 600 - 100))
        rig.touchDown()
        rig.drag(up: 80)
        #expect(abs(rig.footer.revealedDistance + 20) < 1e-9)
        rig.drag(up: 130)
        #expect(abs(rig.footer.revealedDistance - 30) < 1e-9)
        #expect(rig.actions == 0)
        rig.drag(up: 144)
        #expect(rig.states == [.refreshing])
        #expect(rig.actions == 1)
        rig.footer.endRefreshing()
        rig.drag(up: 150)
        #expect(rig.actions == 1)
        rig.release()
        rig.run(60)
        rig.touchDown()
        rig.drag(up: 5)
        #expect(rig.actions == 2)
        #expect(rig.states == [.refreshing, .idle, .refreshing])
    }

    @Test("Automatic footer at 50 % fires when half of it shows; at −100 % a full footer early")
    func otherPercents() {
        let half = FooterRig(mode: .automatic(triggerPercent: 0.5))
        half.scrollView.setContentOffset(Point(0, 2000 - 600 - 100))
        half.touchDown()
        half.drag(up: 121)
        #expect(half.actions == 0)
        half.drag(up: 122)
        #expect(half.actions == 1)
        let early = FooterRig(mode: .automatic(triggerPercent: -1))
        early.scrollView.setContentOffset(Point(0, 2000 - 600 - 100))
        early.touchDown()
        early.drag(up: 55)
        #expect(early.actions == 0)
        early.drag(up: 57)
        #expect(early.actions == 1)
    }

    @Test("No more data: says so, never fires, and reset makes it load again")
    func noMoreData() {
        let rig = FooterRig(mode: .automatic(triggerPercent: 1))
        rig.footer.endRefreshingWithNoMoreData()
        #expect(rig.footer.title == "No more data")
        rig.footer.language = .chinese
        #expect(rig.footer.title == "已经全部加载完毕")
        rig.scrollView.setContentOffset(Point(0, 2000 - 600))
        rig.touchDown()
        rig.drag(up: 100)
        #expect(rig.actions == 0)
        rig.release()
        rig.footer.resetNoMoreData()
        #expect(rig.footer.state == .idle)
        rig.touchDown()
        rig.drag(up: 10)
        #expect(rig.actions == 1)
        #expect(rig.states == [.noMoreData, .idle, .refreshing])
    }

    @Test("Content shorter than the screen: hidden, no inset, never fires, even with no more data", arguments: [0.0, 49])
    func shortContent(bottomInset: Double) {
        let rig = FooterRig(mode: .automatic(triggerPercent: 1), contentHeight: 300, bottomInset: bottomInset)
        rig.scrollView.alwaysBounceVertical = true
        rig.footer.endRefreshingWithNoMoreData()
        rig.run()
        #expect(rig.footer.isHidden)
        #expect(rig.footer.layer.isHidden)
        #expect(rig.footer.addedInset == 0)
        #expect(rig.scrollView.contentInset.bottom == bottomInset)
        rig.footer.resetNoMoreData()
        rig.touchDown()
        rig.drag(up: 200)
        rig.release()
        #expect(rig.actions == 0)
        // More rows arrive: the footer shows and takes its inset.
        rig.scrollView.contentSize = Size(375, 1200)
        rig.run()
        #expect(!rig.footer.isHidden)
        #expect(rig.scrollView.contentInset.bottom == bottomInset + 44)
    }

    @Test("Back footer: pulled past its height it arms; release loads once; end takes the inset back over 0.4 s")
    func backFooter() {
        let rig = FooterRig(mode: .back, bottomInset: 49)
        #expect(rig.footer.addedInset == 0)
        rig.scrollView.setContentOffset(Point(0, 2000 + 49 - 600))
        rig.touchDown()
        let travel = { (over: Double) in RubberBand.travel(forOffset: over, dimension: 600) }
        rig.drag(up: travel(20))
        #expect(rig.footer.state == .pulling)
        rig.drag(up: travel(50))
        #expect(rig.footer.state == .armed)
        rig.drag(up: travel(43))
        #expect(rig.footer.state == .armed)
        rig.release()
        #expect(rig.states == [.pulling, .armed, .refreshing])
        #expect(rig.actions == 1)
        rig.run(30)
        #expect(rig.scrollView.contentInset.bottom == 49 + 44)
        rig.footer.endRefreshing()
        rig.run(12)
        #expect(rig.footer.addedInset > 0 && rig.footer.addedInset < 44)
        rig.run(15)
        #expect(rig.scrollView.contentInset.bottom == 49)
        #expect(rig.states == [.pulling, .armed, .refreshing, .idle])
        #expect(rig.footer.title == "Pull up to load more")
    }
}

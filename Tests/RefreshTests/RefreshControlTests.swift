import Geometry
import Refresh
import Scrolling
import Testing

@Suite("RefreshControl")
struct RefreshControlTests {
    @Test("A pull short of the threshold goes back to idle on release and fires nothing")
    func shortPull() {
        let control = RefreshControl(threshold: 54)
        var fired = 0
        control.action = { fired += 1 }
        control.update(pullDistance: 27, isDragging: true)
        #expect(control.state == .pulling(progress: 0.5))
        control.update(pullDistance: 27, isDragging: false)
        #expect(control.state == .idle)
        #expect(fired == 0)
    }

    @Test("Past the threshold it arms; release refreshes and fires the action once; end returns to idle")
    func fullPull() {
        let control = RefreshControl(threshold: 54)
        var fired = 0
        control.action = { fired += 1 }
        var states: [RefreshState] = []
        for pull in [10.0, 40, 54, 70] {
            control.update(pullDistance: pull, isDragging: true)
            states.append(control.state)
        }
        #expect(states == [.pulling(progress: 10.0 / 54), .pulling(progress: 40.0 / 54), .armed, .armed])
        control.update(pullDistance: 70, isDragging: false)
        control.update(pullDistance: 60, isDragging: false)
        #expect(control.state == .refreshing)
        #expect(fired == 1)
        control.endRefreshing()
        #expect(control.state == .idle)
        control.endRefreshing()
        #expect(control.state == .idle)
    }

    @Test("Moving back under the threshold before release disarms")
    func disarm() {
        let control = RefreshControl(threshold: 54)
        control.update(pullDistance: 60, isDragging: true)
        control.update(pullDistance: 30, isDragging: true)
        control.update(pullDistance: 30, isDragging: false)
        #expect(control.state == .idle)
    }

    @Test("The pull distance is how far the content sits below its top")
    func pullDistance() {
        let scrollView = ScrollView(boundsSize: Size(375, 600), contentSize: Size(375, 2000))
        #expect(RefreshControl.pullDistance(of: scrollView) == 0)
        scrollView.setContentOffset(Point(0, 300))
        #expect(RefreshControl.pullDistance(of: scrollView) == 0)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Geometry
@testable import Refresh
@testable import Scrolling
import Testing

/// On Android the refresh control takes a pull past the top before the list's edge effect does (nested scrolling,
/// docs/reference.md §5): every header is revealed by a pull, not a stretch; a floating one leaves the list at its
/// top, one that pushes the content has the layout move it; a push back is the header's first; the edges stretch
/// where no header takes the pull.
@Suite("Android: the header takes the pull before the edge effect")
struct AndroidPullTests {
    /// Every built-in header.
    static let effects = ["sticky", "dots", "ring", "news", "classic", "gif", "lottie", "system", "swipe-refresh",
                          "material3"]

    func rig(_ name: String) throws -> Rig {
        Rig(effect: try #require(RefreshEffects.make(name), "\(name)"), platform: .android)
    }

    /// The list's top: the offset at which the content rests.
    func top(_ rig: Rig) -> Double { -rig.scrollView.adjustedContentInset.top }

    /// How much of the header shows: a floating header's distance, or the content's drop below its own top.
    func shown(_ rig: Rig) -> Double {
        rig.control.metrics.placement.floating != nil ? rig.control.distance
            : -rig.scrollView.contentOffset.y - rig.baseTop
    }

    @Test("A pull reveals every header, not a stretch: a floating one over the list at its top, a pushing one with the content", arguments: effects)
    func pullRevealsTheHeader(_ name: String) throws {
        let rig = try rig(name)
        let metrics = rig.control.metrics
        let pull = (metrics.triggerDistance * 0.6).rounded()
        rig.run()
        rig.touchDown()
        rig.pull(to: pull)
        #expect(rig.scrollView.edgeEffect(.top).distance == 0, "\(name): the top stretched")
        #expect(abs(rig.control.distance - pull) < 0.01, "\(name): distance \(rig.control.distance) for \(pull)")
        #expect(rig.control.state == .pulling)
        if metrics.placement.floating != nil {
            #expect(rig.scrollView.contentOffset.y == top(rig), "\(name): the list left its top")
        } else {
            #expect(abs(rig.scrollView.contentOffset.y - (top(rig) - pull)) < 0.01, "\(name): the content did not move")
        }
    }

    @Test("Released past the trigger it refreshes with the whole header in view; released short it returns, the list at its top", arguments: effects)
    func releasePastAndShort(_ name: String) throws {
        let past = try rig(name)
        let metrics = past.control.metrics
        past.run()
        past.touchDown()
        past.pull(to: metrics.triggerDistance + 4)
        #expect(past.scrollView.edgeEffect(.top).distance == 0)
        past.release()
        #expect(past.control.state == .refreshing, "\(name)")
        #expect(past.actions == 1)
        past.run(seconds: metrics.insertDuration + 0.7)
        #expect(past.control.state == .refreshing)
        #expect(abs(shown(past) - metrics.refreshingInset) < 0.01, "\(name): \(shown(past)) shown")
        #expect(past.scrollView.edgeEffect(.top).distance == 0)

        let short = try rig(name)
        short.run()
        short.touchDown()
        short.pull(to: (metrics.triggerDistance * 0.5).rounded())
        short.release()
        short.run(seconds: 1)
        #expect(short.control.state == .idle, "\(name)")
        #expect(short.actions == 0)
        #expect(abs(short.scrollView.contentOffset.y - top(short)) < 0.01, "\(name): not back at the top")
        #expect(short.control.distance == 0 && short.scrollView.edgeEffect(.top).distance == 0)
        #expect(!short.scrollView.isAnimating)
    }

    @Test("Going back up, the header gives its pull back before the list scrolls (pre-scroll)", arguments: effects)
    func pushBackIsTheHeadersFirst(_ name: String) throws {
        let rig = try rig(name)
        rig.run()
        rig.touchDown()
        let pull = (rig.control.metrics.triggerDistance * 0.8).rounded()
        rig.pull(to: pull)
        let held = rig.fingerY
        // Halfway back: the header still shows, less of it, and the list has not scrolled into its rows.
        let travel = held - Rig.fingerStart - rig.scrollView.physics.androidTouchSlop
        rig.move(toFingerY: held - travel / 2)
        #expect(rig.control.distance > 0.5 && rig.control.distance < pull - 0.5, "\(name): \(rig.control.distance)")
        #expect(rig.scrollView.contentOffset.y <= top(rig) + 1e-9, "\(name): the list scrolled first")
        // Past the whole travel: the header is gone and the rest scrolls the list, point for point.
        rig.move(toFingerY: held - travel - 120)
        #expect(rig.control.distance == 0, "\(name)")
        #expect(abs(rig.scrollView.contentOffset.y - (top(rig) + 120)) < 0.01, "\(name): \(rig.scrollView.contentOffset.y)")
        #expect(rig.scrollView.edgeEffect(.top).distance == 0)
    }

    @Test("Refreshing with the list at its top, a pull stretches the top and leaves the header where it is",
          arguments: effects)
    func refreshingTopStretches(_ name: String) throws {
        let rig = try rig(name)
        let metrics = rig.control.metrics
        rig.run()
        rig.control.beginRefreshing(at: rig.time)
        rig.run(seconds: metrics.insertDuration + 0.5)
        let offset = rig.scrollView.contentOffset.y, distance = rig.control.distance
        rig.touchDown()
        rig.move(toFingerY: Rig.fingerStart + 100)
        rig.move(toFingerY: Rig.fingerStart + 160)
        #expect(rig.scrollView.edgeEffect(.top).distance > 0, "\(name): no stretch")
        #expect(rig.scrollView.contentOffset.y == offset, "\(name): the content moved")
        #expect(rig.control.distance == distance, "\(name): the header moved")
        rig.release()
        rig.run(seconds: 1)
        #expect(rig.scrollView.edgeEffect(.top).distance == 0)
        #expect(rig.control.state == .refreshing)
    }

    @Test("The offset never passes the bottom edge: a drag there stretches it, a fling into it is absorbed into a stretch", arguments: ["classic", "swipe-refresh", "material3"])
    func bottomEdge(_ name: String) throws {
        let rig = try rig(name)
        rig.run()
        let bottom = rig.scrollView.maxOffset(.vertical)
        rig.scrollView.setContentOffset(Point(0, bottom - 400))
        rig.run()
        // A fast flick upwards: the fling reaches the bottom, stops there and the edge takes its velocity.
        rig.touchDown()
        for k in 1...4 { rig.move(toFingerY: Rig.fingerStart - 40 * Double(k)) }
        rig.scrollView.touchEnded(at: Point(Rig.fingerX, rig.fingerY), time: rig.time)
        var stretched = false
        for _ in 0..<120 {
            rig.run()
            #expect(rig.scrollView.contentOffset.y <= bottom + 1e-9)
            if rig.scrollView.edgeEffect(.bottom).stretch > 0 { stretched = true }
        }
        #expect(stretched, "\(name): the fling was not absorbed")
        #expect(rig.scrollView.contentOffset.y == bottom)
        #expect(rig.scrollView.edgeEffect(.bottom).distance == 0, "the stretch receded")
        // A drag past the bottom stretches it, the content stays at the edge.
        rig.touchDown()
        rig.move(toFingerY: Rig.fingerStart - 150)
        #expect(rig.scrollView.contentOffset.y == bottom)
        #expect(rig.scrollView.edgeEffect(.bottom).distance > 0)
        #expect(rig.control.state == .idle)
    }

    @Test("Material 3: a downward fling past the threshold starts the refresh as it starts and is consumed (onPreFling); short of it, it is consumed too")
    func material3ConsumesTheFling() throws {
        for pastThreshold in [true, false] {
            let rig = try rig("material3")
            let trigger = rig.control.metrics.triggerDistance
            rig.run()
            rig.touchDown()
            rig.pull(to: pastThreshold ? trigger : trigger * 0.5 - 18)
            for _ in 0..<8 { rig.move(toFingerY: rig.fingerY) }
            // A flick down: 12 pt a frame (720 pt/s) over three frames, the finger lifting with it.
            for _ in 0..<3 { rig.move(toFingerY: rig.fingerY + 12) }
            #expect(rig.scrollView.panTracker.velocity.y > 500, "the finger flicks down")
            rig.scrollView.touchEnded(at: Point(Rig.fingerX, rig.fingerY), time: rig.time)
            #expect(rig.control.state == (pastThreshold ? .refreshing : .idle), "past: \(pastThreshold)")
            #expect(rig.scrollView.velocity.y == 0, "the list took the fling")
            #expect(!rig.scrollView.isDecelerating)
            for _ in 0..<30 {
                rig.run()
                #expect(rig.scrollView.contentOffset.y == top(rig))
                #expect(rig.scrollView.edgeEffect(.top).distance == 0, "the fling reached the edge effect")
            }
            #expect(rig.actions == (pastThreshold ? 1 : 0))
        }
    }

    @Test("Without a header the top stretches; iOS keeps the rubber band")
    func noHeaderStretches() throws {
        let android = Rig(effect: RecordingEffect(), attach: false, platform: .android)
        android.touchDown()
        android.move(toFingerY: Rig.fingerStart + 120)
        #expect(android.scrollView.edgeEffect(.top).distance > 0)
        #expect(android.scrollView.contentOffset.y == 0)
        let ios = try #require(RefreshEffects.make("classic"))
        let rig = Rig(effect: ios)
        rig.touchDown()
        rig.pull(to: 30)
        #expect(abs(rig.scrollView.contentOffset.y + 30) < 1e-6)
        #expect(rig.scrollView.topPullLayout == nil)
    }

    @Test("The layout's damped drag: half the travel at first, never past 2.5 headers, and its inverse")
    func dampedDrag() {
        let layout = TopPullLayout(headerHeight: 60)
        #expect(layout.maxDistance == 150)
        let h = 600.0
        // Half the travel while the curve lies above it, then the curve: M·(1 − 100^(−x/H)), x half the travel.
        #expect(layout.distance(forTravel: 2, height: h) == 1)
        #expect(abs(layout.distance(forTravel: 300, height: h) - 150 * (1 - pow(100, -150 / h))) < 1e-12)
        #expect(layout.distance(forTravel: 10_000, height: h) <= 150)
        for travel in stride(from: 0.0, through: 900, by: 7.5) {
            let d = layout.distance(forTravel: travel, height: h)
            #expect(d <= travel * 0.5 + 1e-12)
            #expect(abs(layout.travel(forDistance: d, height: h) - travel) < 1e-6, "\(travel)")
        }
        // Along Android's viscous-fluid curve: from 0 to 1, faster at first than at the end.
        #expect(ViscousReturnSimulation.value(at: 0) == 0 && abs(ViscousReturnSimulation.value(at: 1) - 1) < 1e-12)
        #expect(ViscousReturnSimulation.value(at: 0.5) > 0.5)
    }
}

import Geometry
@testable import Refresh
import Scrolling
import Testing

/// The checks the audit runs, fed what no style can produce: a footer whose inset a header writes over (MJRefresh's
/// header saving and restoring the whole inset), and changes of state the machine never takes.
@Suite struct RefreshInvariantsTests {
    /// A list with the classic header and a footer loading on tap, refreshing; `meddle` runs once, a second in.
    private func refreshWithFooter(meddle: (ScrollView, EdgeInsets) -> Void) -> [RefreshInvariants.Failure] {
        let rig = Rig(effect: RefreshEffects.make("classic")!)
        let footer = LoadMoreFooter(mode: .back)
        footer.attach(to: rig.scrollView)
        let invariants = RefreshInvariants(scrollView: rig.scrollView, control: rig.control, footer: footer)
        // What a header that saves the whole inset when it begins would restore when it ends.
        let saved = rig.scrollView.contentInset
        rig.control.beginRefreshing()
        footer.beginRefreshing()
        for frame in 0..<180 {
            rig.run()
            footer.step(to: rig.time)
            if frame == 60 { meddle(rig.scrollView, saved) }
            invariants.check(time: rig.time, fingerMove: 0)
        }
        return invariants.failures
    }

    @Test func aHeaderThatRestoresTheWholeInsetFightsTheFooter() {
        #expect(refreshWithFooter { _, _ in }.isEmpty)
        let failures = refreshWithFooter { scrollView, saved in
            var inset = scrollView.contentInset
            inset.bottom = saved.bottom
            scrollView.contentInset = inset
        }
        let first = failures.first
        #expect(first?.invariant == .insetsFight && first!.detail.contains("plus the footer's"), "\(failures)")
        #expect(first.map { abs($0.time - 61.0 / 60) < 1e-9 } == true)
    }

    /// Every pair of states against the machine's rules as worked out from docs/audit.md: each change the checks
    /// refuse is noted under `transitions`, and none other.
    @Test func transitionsOutsideTheMachineAreNoted() {
        let states: [RefreshState] = [.idle, .pulling, .armed, .willRefresh, .refreshing, .finishing(.success),
                                      .noMoreData]
        let allowed: Set<String> = [
            "idle→idle", "pulling→idle", "armed→idle", "willRefresh→idle", "refreshing→idle", "finishing→idle",
            "noMoreData→idle",
            "idle→pulling", "pulling→pulling", "armed→pulling", "idle→armed", "pulling→armed", "armed→armed",
            "idle→willRefresh", "pulling→willRefresh", "armed→willRefresh", "willRefresh→willRefresh",
            "noMoreData→willRefresh",
            "idle→refreshing", "pulling→refreshing", "armed→refreshing", "willRefresh→refreshing",
            "refreshing→finishing",
        ]
        func name(_ s: RefreshState) -> String {
            if case .finishing = s { return "finishing" }
            return "\(s)"
        }
        let rig = Rig(effect: RefreshEffects.make("classic")!)
        for old in states {
            for new in states {
                let invariants = RefreshInvariants(scrollView: rig.scrollView, control: rig.control)
                invariants.checkTransition(from: old, to: new)
                let refused = invariants.failures.map(\.invariant) == [.transitions]
                #expect(refused == !allowed.contains(name(old) + "→" + name(new)), "\(old) → \(new)")
            }
        }
    }
}

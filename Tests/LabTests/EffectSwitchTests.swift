import Geometry
@testable import Lab
import Motion
import Refresh
import Testing

/// Where a refresh can be when the keyboard switches effects.
enum SwitchMoment: String, CaseIterable, CustomTestStringConvertible {
    case pulling, armed, refreshing, finishing
    var testDescription: String { rawValue }
}

@Suite("Switching effects")
struct EffectSwitchTests {
    @Test("A switch at any moment leaves the new header idle with no added inset; Space then begins a refresh",
          arguments: SwitchMoment.allCases, [("news", 4), ("classic", 2)])
    func switchLeavesIdle(moment: SwitchMoment, effects: (from: String, toKey: Int)) {
        let (simulation, clock) = effectSimulation(showing: effects.from)
        let control = simulation.refreshControl
        var actions = 0
        control.action = { actions += 1 }
        let trigger = control.triggerDistance
        switch moment {
        case .pulling:
            holdFinger(simulation, clock, pulledBy: trigger / 2)
            #expect(control.state == .pulling)
        case .armed:
            holdFinger(simulation, clock, pulledBy: trigger + 10)
            #expect(control.state == .armed)
        case .refreshing:
            control.beginRefreshing()
            advance(simulation, clock, frames: 30)
            #expect(control.state == .refreshing)
        case .finishing:
            control.beginRefreshing()
            advance(simulation, clock, frames: 30)
            control.endRefreshing(result: simulation.autoEndResult)
            advance(simulation, clock, frames: 20)
            #expect(control.state.isBusy && control.state != .refreshing)
        }
        let before = actions
        let name = RefreshEffects.names[effects.toKey - 1]
        #expect(simulation.perform(.selectEffect(index: effects.toKey - 1)) == "\(effects.toKey) · \(name)")
        #expect(control.state == .idle)
        // The finger, if any, lifts; the old inset goes (with the content, no jump); nothing starts by itself.
        if simulation.finger != nil { simulation.handle(.touchUp(simulation.finger!)) }
        var last = simulation.scrollView.contentOffset.y, lastSpeed = abs(simulation.scrollView.velocity.y)
        for _ in 0..<90 {
            advance(simulation, clock, frames: 1)
            let y = simulation.scrollView.contentOffset.y, speed = abs(simulation.scrollView.velocity.y)
            // No more than the running motion makes in a frame (a fling, a bounce, the inset's animation).
            let allowed = 1.5 * (speed + lastSpeed) / 60 + 2
            #expect(abs(y - last) <= allowed, "the list jumped \(abs(y - last)) pt (allowed \(allowed))")
            last = y
            lastSpeed = speed
        }
        #expect(control.addedInset == 0 && simulation.scrollView.contentInset.top == 0)
        #expect(control.state == .idle && actions == before)
        #expect(!control.isAnimating)
        #expect(simulation.perform(.beginRefresh) == "Refreshing from code")
        #expect(control.state == .refreshing && actions == before + 1)
        advance(simulation, clock, frames: 60)
        #expect(control.addedInset == control.metrics.refreshingInset)
    }

    @Test("A refresh dropped by a switch is logged back to idle under the old header's name, the next one under the new")
    func droppedRefreshKeepsTheOldName() throws {
        let (simulation, clock) = effectSimulation(showing: "news")
        let log = try EventLog(simulation: simulation)
        #expect(simulation.perform(.beginRefresh) == "Refreshing from code")
        advance(simulation, clock, frames: 10)
        #expect(simulation.selectEffect(named: "classic"))
        let dropped = try #require(log.headerChanges.last)
        #expect(dropped.to == .idle && dropped.effect == "news")
        #expect(simulation.effectName == "classic" && simulation.primaryPhone.description.effect == "classic")
        #expect(simulation.perform(.beginRefresh) == "Refreshing from code")
        #expect(log.headerChanges.last?.effect == "classic")
    }
}

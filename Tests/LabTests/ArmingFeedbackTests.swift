import Geometry
@testable import Refresh
@testable import Lab
import Motion
import Scrolling
import Testing

/// Lifts the finger held by `holdFinger` where it is, with no fling, and lets the list settle.
private func lift(_ simulation: Simulation, _ clock: SimulatedClock, settle frames: Int = 90) {
    if let finger = simulation.finger { simulation.handle(.touchUp(finger)) }
    advance(simulation, clock, frames: frames)
}

@Suite("Arming feedback: a haptic and an announcement, once per arming")
struct ArmingFeedbackTests {
    @Test("Every header: a pull past its trigger logs one haptic and one announcement, after the change that armed it; a short pull logs none; released, pulled again, one more pair",
          arguments: ["sticky", "dots", "ring", "news", "classic", "gif", "lottie", "system", "swipe-refresh", "material3"])
    func oncePerArming(_ name: String) throws {
        let (simulation, clock) = effectSimulation(showing: name)
        let log = try EventLog(simulation: simulation)
        let control = simulation.refreshControl
        let trigger = control.triggerDistance
        holdFinger(simulation, clock, pulledBy: trigger * 0.6)
        lift(simulation, clock)
        #expect(log.feedback.isEmpty && simulation.armingCount == 0, "\(name): a short pull")

        holdFinger(simulation, clock, pulledBy: trigger + 12)
        // Held there for half a second: still one arming.
        advance(simulation, clock, frames: 30)
        #expect(simulation.armingCount == 1, "\(name)")
        #expect(log.feedback.map(\.kind) == [.haptic("medium"), .announcement("Refreshing")], "\(name)")
        let arming = try #require(log.headerChanges.first { $0.to == .armed || $0.to == .refreshing })
        #expect(log.feedback.allSatisfy { $0.frame == arming.frame && $0.effect == name }, "\(name)")
        lift(simulation, clock)
        control.endRefreshing()
        advance(simulation, clock, frames: 120)
        #expect(control.state == .idle, "\(name)")

        holdFinger(simulation, clock, pulledBy: trigger + 12)
        advance(simulation, clock, frames: 10)
        #expect(simulation.armingCount == 2 && log.feedback.count == 4, "\(name)")
        lift(simulation, clock)
    }

    @Test("A refresh begun from code is not a pull arming: no haptic, no announcement")
    func codeGivesNoCue() throws {
        let (simulation, clock) = effectSimulation(showing: "system")
        let log = try EventLog(simulation: simulation)
        simulation.refreshControl.beginRefreshing()
        advance(simulation, clock, frames: 30)
        #expect(simulation.refreshControl.state == .refreshing && log.feedback.isEmpty)
    }

    @Test("The lines: {\"haptic\":\"medium\"} and {\"announcement\":\"Refreshing\"} with frame, time and effect; the announcement in the screen's language")
    func lines() throws {
        let haptic = FeedbackEvent(frame: 31, time: 0.5166666, effect: "system", kind: .haptic("medium"))
        #expect(haptic.jsonLine == #"{"frame":31,"time":0.516667,"effect":"system","haptic":"medium"}"#)
        let said = FeedbackEvent(frame: 31, time: 0.5166666, effect: "system", kind: .announcement("Refreshing"))
        #expect(said.jsonLine == #"{"frame":31,"time":0.516667,"effect":"system","announcement":"Refreshing"}"#)
        #expect(ArmingFeedback.announcement(in: .chinese) == "正在刷新")
    }

    @Test("The mark shows on the phone for 0.8 s after an arming, and a still window wakes when it goes")
    func mark() {
        let (simulation, clock) = effectSimulation(showing: "classic")
        holdFinger(simulation, clock, pulledBy: 80)
        #expect(simulation.refreshControl.state == .armed)
        let now = clock.now
        #expect(simulation.showsArmingMark(at: now))
        // The finger holds still: nothing moves, and the loop is to wake when the mark goes.
        advance(simulation, clock, frames: 10)
        if case .still(let until) = simulation.activity {
            #expect(until <= clock.now + ArmingFeedback.markDuration)
        }
        advance(simulation, clock, frames: 60)
        #expect(!simulation.showsArmingMark(at: clock.now))
    }
}

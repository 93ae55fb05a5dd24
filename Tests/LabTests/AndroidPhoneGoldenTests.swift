@testable import Lab
import Motion
import Raster
@testable import Refresh
@testable import Scrolling
import Testing
import TestSupport

/// Golden frames of the whole Pixel 8 with Android's physics: the swipe-refresh and material3 scripts on Android,
/// pulled past the trigger with the finger down, and refreshing. The list stays at its top under the indicator and
/// the top does not stretch: the header took the pull (`PhoneGoldens`).
@Suite("Android: golden frames of the Pixel 8")
struct AndroidPhoneGoldenTests {
    /// The frames drawn (120 a second on the Pixel): 60, the end of the 0.5 s pull with the finger still down; 150,
    /// 0.65 s after the release, refreshing.
    static let frames = [60, 150]

    @Test("The phone gives the list its platform's physics: Android's at the Pixel's density, iOS's at 2 px a point; Y switches them")
    func physicsFollowThePhone() {
        let simulation = Simulation(phone: Phone(model: .iPhone16), clock: SimulatedClock())
        #expect(simulation.scrollView.platformPhysics is IOSPhysics && simulation.scrollView.displayScale == 2)
        simulation.setPlatform(.android)
        #expect(simulation.scrollView.platformPhysics is AndroidPhysics && simulation.scrollView.displayScale == 2.625)
        simulation.setPlatform(.ios)
        #expect(simulation.scrollView.platformPhysics is IOSPhysics && simulation.scrollView.displayScale == 2)
        // Drawn at another scale, the Pixel keeps its own density for its physics.
        let drawn = Simulation(phone: Phone(model: .pixel8, scale: 2), clock: SimulatedClock())
        #expect(drawn.scrollView.platformPhysics is AndroidPhysics && drawn.scrollView.displayScale == 2.625)
    }

    @Test("The Pixel 8 pulled past the trigger and refreshing, whole, against its golden frames",
          arguments: ["swipe-refresh", "material3"])
    func goldenFrames(_ name: String) throws {
        var script = try resourceScript(name)
        script.platform = .android
        let replay = try ScriptReplay(script: script)
        let simulation = replay.simulation
        #expect(simulation.scrollView.platformPhysics is AndroidPhysics)
        #expect(simulation.scrollView.displayScale == 2.625)
        var drawn = 0
        while replay.frame <= Self.frames.max()!, replay.advance() {
            let frame = replay.frame - 1
            // The header takes the whole pull: the list never leaves its top and the top never stretches.
            #expect(simulation.scrollView.contentOffset.y == -simulation.scrollView.adjustedContentInset.top,
                    "\(name) frame \(frame)")
            #expect(simulation.scrollView.edgeEffect(.top).distance == 0, "\(name) frame \(frame)")
            guard Self.frames.contains(frame) else { continue }
            #expect(simulation.refreshControl.state == (frame == 60 ? .armed : .refreshing), "\(name) frame \(frame)")
            simulation.render()
            PhoneGoldens.expect(simulation.canvas, named: "android-\(name)-\(frame)")
            drawn += 1
        }
        #expect(drawn == Self.frames.count)
    }
}

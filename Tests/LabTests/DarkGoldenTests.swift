import Geometry
@testable import Lab
import Raster
@testable import Refresh
import Scrolling
import Testing
import TestSupport

/// Golden images of every built-in header in dark appearance, on the default phone at scale 2 (`PhoneGoldens`),
/// each the top of the phone: the bar, the header and the first rows. `DarkAppearanceTests` checks the colours
/// worked out by hand; these catch every other change of a dark frame (a shape, a place, a layer drawn twice).
@Suite("Dark goldens: every header pulled and refreshing in dark appearance")
struct DarkGoldenTests {
    /// The pixel rows compared: the bar (64 pt) and 140 pt of list below it, at scale 2.
    static let rows = 408

    /// The top `rows` rows of `canvas`.
    static func top(of canvas: Canvas) -> Canvas {
        let top = Canvas(width: canvas.width, height: rows)
        top.pixels.update(from: canvas.pixels, count: top.pixelCount)
        return top
    }

    /// Compares the top of `simulation`'s frame with the golden `name`.png, or writes it when updating.
    static func expectGolden(_ simulation: Simulation, _ name: String,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        simulation.render()
        PhoneGoldens.expect(top(of: simulation.canvas), named: name, sourceLocation: sourceLocation)
    }

    @Test("Pulled 60 pt and refreshing half a second after the release, in dark",
          .enabled(if: standardFontsInstalled, "the standard fonts are installed"),
          arguments: RefreshEffects.builtIn.map(\.name))
    func header(_ effect: String) {
        let (simulation, clock) = effectSimulation(showing: effect)
        simulation.appearance = .dark
        holdFinger(simulation, clock, pulledBy: 60)
        DarkGoldenTests.expectGolden(simulation, "dark-\(effect)-pulled")
        // On to 130 pt, past every header's trigger, and let go there.
        let travel = -RubberBand.travel(forOffset: -130, dimension: simulation.scrollView.boundsSize.height)
        let finger = Point(187.5, 200 + travel)
        simulation.handle(.touchMove(finger))
        advance(simulation, clock, frames: 3)
        simulation.handle(.touchUp(finger))
        advance(simulation, clock, frames: 30)
        #expect(simulation.refreshControl.state == .refreshing)
        DarkGoldenTests.expectGolden(simulation, "dark-\(effect)-refreshing")
    }
}

import Geometry
@testable import Lab
import Motion
import Raster
import Refresh
import Scrolling
import Testing
@testable import Recording

/// A simulation showing `effect`, with no automatic end, on a simulated clock.
func effectSimulation(showing effect: String) -> (Simulation, SimulatedClock) {
    let clock = SimulatedClock()
    let simulation = Simulation(clock: clock)
    simulation.autoEndsRefreshing = false
    #expect(simulation.selectEffect(named: effect))
    return (simulation, clock)
}

/// Advances `frames` frames of the simulated clock.
func advance(_ simulation: Simulation, _ clock: SimulatedClock, frames: Int = 1) {
    for _ in 0..<frames {
        clock.advance(by: 1 / simulatedFrameRate)
        simulation.step()
    }
}

/// Puts a finger down and drags until the content sits `distance` points below its top, holding it there.
func holdFinger(_ simulation: Simulation, _ clock: SimulatedClock, pulledBy distance: Double) {
    let start = Point(187.5, 200)
    let travel = -RubberBand.travel(forOffset: -distance, dimension: simulation.scrollView.boundsSize.height)
    simulation.handle(.touchDown(start))
    clock.advance(by: 1 / simulatedFrameRate)
    simulation.handle(.touchMove(Point(start.x, start.y + travel)))
    simulation.step()
    advance(simulation, clock, frames: 3)
}

/// The canvas as rendered now, and as rendered with the header left out: the header's own pixels are where
/// the two differ.
private func withAndWithoutHeader(_ simulation: Simulation) -> (with: Canvas, without: Canvas) {
    simulation.render()
    let with = Canvas(width: simulation.canvas.width, height: simulation.canvas.height)
    with.copy(from: simulation.canvas)
    simulation.refreshControl.headerLayer.isHidden = true
    simulation.render()
    simulation.refreshControl.headerLayer.isHidden = false
    return (with, simulation.canvas)
}

/// How many pixels differ between `a` and `b` in the rows of pixels `rows`.
private func differences(_ a: Canvas, _ b: Canvas, rows: Range<Int>) -> Int {
    var count = 0
    for y in rows.clamped(to: 0..<a.height) {
        for x in 0..<a.width where a[x, y] != b[x, y] { count += 1 }
    }
    return count
}

@Suite("Header drawing in the simulated phone")
struct HeaderDrawingTests {
    /// The navigation bar's height in pixels at the phone's scale.
    static let barBottom = Int(Phone().navigationBarHeight * Phone().scale)

    @Test("Four dots draw behind the rows: pulled less than 35 pt, the first row's pixels are untouched",
          arguments: [20.0, 30])
    func dotsBehindRows(pull: Double) {
        let (simulation, clock) = effectSimulation(showing: "dots")
        holdFinger(simulation, clock, pulledBy: pull)
        #expect(abs(simulation.refreshControl.distance - pull) < 0.01)
        let (with, without) = withAndWithoutHeader(simulation)
        let s = Phone().scale
        // The content's top is `pull` below the bar; the first row is 72 pt tall from there.
        let rowTop = HeaderDrawingTests.barBottom + Int(pull * s)
        let rowBottom = rowTop + Int(DemoList.rowHeight * s)
        // The header shows in the gap above the row...
        #expect(differences(with, without, rows: HeaderDrawingTests.barBottom..<rowTop) > 0)
        // ...and nothing of it over the row, although at 20 pt the line's round end reaches 2.5 pt below the
        // content's top (the left dot's centre at 17.5 − 20) and at 30 pt 5 pt (the bottom dot's at 30 − 30).
        #expect(differences(with, without, rows: rowTop..<rowBottom) == 0)
    }

    @Test("At rest the ring draws nothing anywhere: not over the first row's top, not under the navigation bar")
    func ringAtRest() {
        let (simulation, clock) = effectSimulation(showing: "ring")
        advance(simulation, clock, frames: 2)
        let height = simulation.canvas.height
        var (with, without) = withAndWithoutHeader(simulation)
        #expect(differences(with, without, rows: 0..<height) == 0)
        // A refresh and its end: once the list is back at its top, nothing again.
        simulation.refreshControl.beginRefreshing()
        advance(simulation, clock, frames: 60)
        (with, without) = withAndWithoutHeader(simulation)
        #expect(differences(with, without, rows: 0..<height) > 0)
        simulation.refreshControl.endRefreshing()
        advance(simulation, clock, frames: 60)
        #expect(simulation.refreshControl.state == .idle && simulation.refreshControl.distance == 0)
        (with, without) = withAndWithoutHeader(simulation)
        #expect(differences(with, without, rows: 0..<height) == 0)
    }
}

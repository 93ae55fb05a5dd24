#if canImport(Glibc)
import Glibc
#endif
import Geometry
@testable import Lab
import Motion
import Raster
@testable import Refresh
import Testing
import TestSupport
import Colors
@testable import UserFiles
@testable import Recording

@Suite("Headless run")
struct HeadlessTests {
    @Test("Writes one phone-sized PNG per frame, named in order")
    func writesFrames() throws {
        let dir = temporaryDirectory("frames")
        let written = try HeadlessRun(frames: 5, outputDirectory: dir + "/nested/out").run()
        #expect(written == (0..<5).map { dir + "/nested/out/frame-000\($0).png" })
        let last = try PNG.read(from: written[4])
        #expect(last.width == 750 && last.height == 1334)
    }

    @Test("The list follows the finger: after dragging up by five rows, row 5 is at the top")
    func listFollowsDrag() throws {
        let dir = temporaryDirectory("drag")
        let drag = DemoDrag(start: Point(187.5, 560), distance: 5 * DemoList.rowHeight)
        let written = try HeadlessRun(frames: 3, outputDirectory: dir, drag: drag).run()
        let first = try PNG.read(from: written[0]), last = try PNG.read(from: written[2])
        // The first row's avatar, in pixels: margin + radius across, navigation bar + half a row down, 16 pt above
        // the centre so the initials do not cover it.
        let x = Int((DemoList.margin + DemoList.avatarDiameter / 2) * 2)
        let y = Int((Phone().navigationBarHeight + DemoList.rowHeight / 2 - 16) * 2)
        let palette = [Color(rgb: 255, 59, 48), Color(rgb: 175, 82, 222)]
        #expect(first[x, y] == palette[0].premultipliedPixel)
        #expect(last[x, y] == palette[1].premultipliedPixel)
    }

    @Test("Two runs give the same pixels: the simulated clock makes runs exact")
    func deterministic() throws {
        let a = try HeadlessRun(frames: 4, outputDirectory: temporaryDirectory("a")).run()
        let b = try HeadlessRun(frames: 4, outputDirectory: temporaryDirectory("b")).run()
        for (pa, pb) in zip(a, b) {
            let ca = try PNG.read(from: pa), cb = try PNG.read(from: pb)
            #expect((0..<ca.pixelCount).allSatisfy { ca.pixels[$0] == cb.pixels[$0] })
        }
    }

    @Test("An output path that is a file gives an error naming it")
    func outputIsAFile() throws {
        let dir = temporaryDirectory("file")
        let file = try HeadlessRun(frames: 1, outputDirectory: dir).run()[0]
        let error = #expect(throws: LabError.self) { try HeadlessRun(frames: 1, outputDirectory: file).run() }
        #expect(error?.description.contains(file) == true)
    }

    /// Pulls the list down by 300 pt of finger travel over half a second, from the top.
    func pullDown(_ simulation: Simulation, _ clock: SimulatedClock) {
        simulation.handle(.touchDown(Point(187.5, 200)))
        for i in 1...30 {
            clock.advance(by: 1 / simulatedFrameRate)
            simulation.handle(.touchMove(Point(187.5, 200 + Double(i) * 10)))
            simulation.step()
        }
    }

    func run(_ simulation: Simulation, _ clock: SimulatedClock, frames: Int) {
        for _ in 0..<frames {
            clock.advance(by: 1 / simulatedFrameRate)
            simulation.step()
        }
    }

    @Test("A pull down past the header's height and a release start one refresh; ending it brings the list back",
          arguments: RefreshEffects.names)
    func pullToRefresh(effect: String) {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.autoEndsRefreshing = false
        #expect(simulation.selectEffect(named: effect))
        var fired = 0
        simulation.refreshControl.action = { fired += 1 }
        pullDown(simulation, clock)
        // Armed, or already refreshing for an effect that fires at its threshold with the finger down.
        let expected: RefreshState = simulation.refreshControl.metrics.trigger == .onRelease ? .armed : .refreshing
        #expect(simulation.refreshControl.state == expected)
        simulation.handle(.touchUp(Point(187.5, 500)))
        run(simulation, clock, frames: 60)
        #expect(simulation.refreshControl.state == .refreshing)
        #expect(fired == 1)
        simulation.refreshControl.endRefreshing()
        // Every effect's finishing timeline is over within 3 s (news: 0.2 + 1.5 + 0.2 s).
        run(simulation, clock, frames: 180)
        #expect(simulation.refreshControl.state == .idle)
        #expect(simulation.scrollView.contentInset.top == 0)
    }

    @Test("Auto end: a refresh ends by itself 1.5 s after it starts; the news header gets a banner message")
    func autoEnd() {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        #expect(simulation.autoEndsRefreshing)
        #expect(simulation.selectEffect(named: "news"))
        #expect(simulation.effectName == "news")
        var states: [RefreshState] = []
        simulation.refreshControl.stateDidChange = { _, new in states.append(new) }
        pullDown(simulation, clock)
        simulation.handle(.touchUp(Point(187.5, 500)))
        run(simulation, clock, frames: 1)
        #expect(simulation.refreshControl.state == .refreshing)
        // 1.5 s = 90 frames after the refresh started (a frame's rounding either way).
        run(simulation, clock, frames: 88)
        #expect(simulation.refreshControl.state == .refreshing)
        run(simulation, clock, frames: 3)
        #expect(simulation.refreshControl.state == .finishing(.message("12 new items")))
        simulation.render()
        run(simulation, clock, frames: 180)
        #expect(states.suffix(3) == [.refreshing, .finishing(.message("12 new items")), .idle])
    }

    @Test("Effects are chosen by name; an unknown name changes nothing; the default is sticky, else the first")
    func selectEffect() {
        let simulation = Simulation(clock: SimulatedClock())
        let names = RefreshEffects.names
        #expect(simulation.effectName == (names.contains("sticky") ? "sticky" : names.first))
        #expect(simulation.selectEffect(named: "news"))
        #expect(simulation.refreshControl.effect is NewsEffect)
        #expect(!simulation.selectEffect(named: "no such effect"))
        #expect(simulation.effectName == "news" && simulation.refreshControl.effect is NewsEffect)
    }

    @Test("The header is drawn at the step's time with its presentation values: the news banner in the frame")
    func headerDrawn() {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.selectEffect(named: "news")
        simulation.refreshControl.beginRefreshing()
        run(simulation, clock, frames: 60)
        simulation.refreshControl.endRefreshing(result: .message("3 new items"))
        // 0.2 s collapse, then the bounce's first 0.25 s: by 0.6 s the banner is opaque and 32 pt tall.
        run(simulation, clock, frames: 36)
        simulation.render()
        // The banner fills the 32 pt above the content's top, just under the navigation bar (64 pt).
        let x = 20, y = Int((64 + 16) * 2)
        #expect(simulation.canvas[x, y] == Color(rgb: 220, 232, 244).premultipliedPixel)
    }

    @Test("Zero frames is refused")
    func zeroFrames() {
        #expect(throws: LabError.self) { try HeadlessRun(frames: 0, outputDirectory: temporaryDirectory("zero")).run() }
    }
}

@Suite("Window size")
struct WindowSizeTests {
    @Test("Each scale opens its own size where the display has room, and fits the display otherwise")
    func sizes() {
        let big = (w: 2560, h: 2300)
        #expect(Phone(scale: 1).windowSize(display: big) == (375, 667))
        #expect(Phone(scale: 2).windowSize(display: big) == (750, 1334))
        // 1125 × 2001 fits under 90 % of 2300 px (2070).
        #expect(Phone(scale: 3).windowSize(display: big) == (1125, 2001))
        // On a 1280 × 1024 display scales 2 and 3 both fit 90 % of its height, 921.6 px, keeping the proportions.
        let small = (w: 1280, h: 1024)
        let two = Phone(scale: 2).windowSize(display: small), three = Phone(scale: 3).windowSize(display: small)
        #expect(two.h == 922 && three.h == 922 && two.w == 518 && three.w == 518)
        #expect(Phone(scale: 1).windowSize(display: small) == (375, 667))
        // A display of 1920 × 1200: scale 3 (2001 px) is fitted to 1080 px.
        #expect(Phone(scale: 3).windowSize(display: (1920, 1200)).h == 1080)
    }
}

/// Runs the simulation on a simulated clock and writes each frame as a PNG: `frame-0000.png`, `frame-0001.png`, …
/// The gesture-script replay of a `DemoDrag`, as `refreshlab --headless --frame-count N --frames DIR` runs it.
struct HeadlessRun {
    var frames: Int
    var outputDirectory: String
    var phone: Phone
    var drag: DemoDrag

    init(frames: Int, outputDirectory: String, phone: Phone = Phone(), drag: DemoDrag = DemoDrag()) {
        self.frames = frames
        self.outputDirectory = outputDirectory
        self.phone = phone
        self.drag = drag
    }

    /// Renders and writes every frame; returns the paths written.
    @discardableResult
    func run() throws -> [String] {
        guard frames > 0 else { throw LabError("--frames must be at least 1, not \(frames)") }
        let run = try ScriptRun(script: drag.script(frames: frames),
                                outputs: ScriptRunOutputs(framesDirectory: outputDirectory), phone: phone)
        return (0..<(try run.run())).map { PNGSequence.path(of: $0, in: outputDirectory) }
    }
}

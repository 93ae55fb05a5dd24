#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Lab
import Motion
import Raster
import Refresh
import Testing

/// A fresh, empty directory for one test's output.
func temporaryDirectory(_ name: String) -> String {
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array("\(base)/refreshlab-\(name)-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    return String(cString: made!)
}

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
        // The first row's avatar centre, in pixels: margin + radius across, navigation bar + half a row down.
        let x = Int((DemoList.margin + DemoList.avatarDiameter / 2) * 2)
        let y = Int((Phone().navigationBarHeight + DemoList.rowHeight / 2) * 2)
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

    @Test("A pull down past the header's height and a release start one refresh; ending it brings the list back")
    func pullToRefresh() {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        var fired = 0
        simulation.refreshControl.action = { fired += 1 }
        simulation.handle(.touchDown(Point(187.5, 200)))
        for i in 1...30 {
            clock.advance(by: 1 / simulatedFrameRate)
            simulation.handle(.touchMove(Point(187.5, 200 + Double(i) * 10)))
            simulation.step()
        }
        #expect(simulation.refreshControl.state == .armed)
        simulation.handle(.touchUp(Point(187.5, 500)))
        for _ in 0..<60 {
            clock.advance(by: 1 / simulatedFrameRate)
            simulation.step()
        }
        #expect(simulation.refreshControl.state == .refreshing)
        #expect(fired == 1)
        simulation.refreshControl.endRefreshing()
        for _ in 0..<60 {
            clock.advance(by: 1 / simulatedFrameRate)
            simulation.step()
        }
        #expect(simulation.refreshControl.state == .idle)
        #expect(simulation.scrollView.contentInset.top == 0)
    }

    @Test("Zero frames is refused")
    func zeroFrames() {
        #expect(throws: LabError.self) { try HeadlessRun(frames: 0, outputDirectory: temporaryDirectory("zero")).run() }
    }
}

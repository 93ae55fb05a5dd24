import Geometry
@testable import Lab
import Lottie
import Motion
import Raster
import Colors
import Scrolling
import Styles
import UserFiles
@testable import Refresh
import Testing
import TestSupport

/// The second floor in the simulator: the `second-floor` script, the picture behind the list, the key, the touches
/// the open floor takes, and its golden frames on an iPhone and on the Pixel.
@Suite("The second floor in the simulator")
struct SecondFloorLabTests {
    /// The folder of the floor fixtures.
    static let fixtures: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/Tests/Fixtures"
    }()

    func frames(_ simulation: Simulation, _ clock: SimulatedClock, _ n: Int) {
        for _ in 0..<n {
            clock.advance(by: 1.0 / 60)
            simulation.step()
        }
    }

    @Test("The second-floor script: a pull to the refresh and back, past the floor, open, then closed from the bottom strip; golden frames revealed and open",
          arguments: [Platform.ios, .android])
    func script(_ platform: Platform) throws {
        var script = try resourceScript("second-floor")
        script.platform = platform
        let replay = try ScriptReplay(script: script)
        let simulation = replay.simulation
        #expect(simulation.refreshControl.hasSecondFloor)
        var states: [RefreshState] = []
        simulation.primaryPhone.observeChanges(header: { _, new in states.append(new) })
        let name = platform == .ios ? "floor-iphone" : "floor-pixel"
        var openedAt: Int?, drawnOpen = false, revealed: Canvas?
        let rate = simulation.phone.refreshRate
        while replay.advance() {
            let state = simulation.refreshControl.state
            // The last frame the finger holds the floor armed: the floor shows above the header.
            if state == .releaseToFloor {
                simulation.render()
                let copy = Canvas(width: simulation.canvas.width, height: simulation.canvas.height)
                copy.copy(from: simulation.canvas)
                revealed = copy
            }
            if state == .floor, openedAt == nil { openedAt = replay.frame }
            if let opened = openedAt, !drawnOpen, replay.frame == opened + Int(rate / 2) {
                simulation.render()
                PhoneGoldens.expect(simulation.canvas, named: name + "-open")
                drawnOpen = true
            }
        }
        let last = try #require(revealed)
        PhoneGoldens.expect(last, named: name + "-revealed")
        #expect(drawnOpen)
        let opening: [RefreshState] = [.releaseToFloor, .floorOpening, .floor]
        #expect(states.starts(with: [.pulling, .armed]))
        let armed = try #require(states.firstIndex(of: .releaseToFloor))
        #expect(Array(states[armed..<(armed + 3)]) == opening)
        // The close by a pull up from the strip is the lab's phone's: on the Pixel, taller, the touch falls above
        // its strip and the floor stays open.
        #expect(states.last == (platform == .ios ? .idle : .floor))
        if platform == .ios { #expect(states.suffix(2) == [.floorClosing, .idle]) }
        #expect(simulation.status.contains("second floor"))
    }

    @Test("U opens and closes the floor from code, giving a phone without one RefreshLab's own; a floating header refuses")
    func key() {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.selectEffect(named: "classic")
        #expect(Command(keyName: "u") == .toggleSecondFloor)
        #expect(simulation.perform(.toggleSecondFloor) == "Opening the second floor (U closes it)")
        #expect(simulation.primaryPhone.description.floor == .drawn)
        #expect(simulation.refreshControl.state == .floorOpening)
        #expect(simulation.status.hasSuffix("second floor: floorOpening"))
        frames(simulation, clock, 70)
        #expect(simulation.refreshControl.state == .floor)
        // Space begins no refresh under the open floor.
        simulation.perform(.beginRefresh)
        #expect(simulation.refreshControl.state == .floor)
        #expect(simulation.perform(.toggleSecondFloor) == "Closing the second floor")
        frames(simulation, clock, 70)
        #expect(simulation.refreshControl.state == .idle && simulation.refreshControl.addedInset == 0)
        #expect(simulation.status.hasSuffix("| second floor"))
        // The ring floats over the list: no floor, said so.
        #expect(simulation.perform(.selectEffect(index: 2)) == "3 · ring: floats, no second floor")
        #expect(simulation.perform(.toggleSecondFloor).hasPrefix("No second floor: the ring header floats over the list"))
        #expect(simulation.refreshControl.state == .idle)
    }

    @Test("Under a large title the band stays whole while the floor opens, is open and closes: the floor's inset is not a pull")
    func largeTitle() {
        let clock = SimulatedClock()
        let simulation = Simulation(phone: Phone(model: .iPhone16, bar: .large), clock: clock)
        simulation.selectEffect(named: "classic")
        let whole = simulation.navigationBarBottom
        simulation.perform(.toggleSecondFloor)
        for _ in 0..<2 {
            for _ in 0..<70 {
                frames(simulation, clock, 1)
                #expect(abs(simulation.navigationBarBottom - whole) < 0.5, "\(simulation.refreshControl.state)")
            }
            simulation.perform(.toggleSecondFloor)
        }
    }

    @Test("Open, the floor takes a touch only in the bottom sixth of the list; opening, none")
    func touches() {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.selectEffect(named: "classic")
        simulation.perform(.toggleSecondFloor)
        let list = simulation.phone.listFrame
        simulation.handle(.touchDown(Point(100, list.maxY - 10)))
        #expect(simulation.finger == nil, "opening: no touch")
        frames(simulation, clock, 70)
        let stripTop = list.maxY - list.height / 6
        simulation.handle(.touchDown(Point(100, stripTop - 1)))
        #expect(simulation.finger == nil)
        simulation.handle(.touchDown(Point(100, stripTop + 1)))
        #expect(simulation.finger != nil)
        simulation.handle(.touchUp(Point(100, stripTop + 1)))
        // The wheel does not move the open floor's list either.
        let offset = simulation.scrollView.contentOffset
        simulation.handle(.wheel(Point(0, 200)))
        frames(simulation, clock, 2)
        #expect(simulation.scrollView.contentOffset == offset)
    }

    @Test("A picture floor covers the screen, middle kept, and shows only where the list has slid away")
    func pictureCoversTheScreen() throws {
        // 16 × 16 into 750 × 1334: scaled 83.375 to the height, its sides cut by 292 px each.
        let cover = FloorPicture.covering(Size(16, 16), Size(750, 1334))
        #expect(abs(cover.a - 83.375) < 1e-12 && abs(cover.d - 83.375) < 1e-12)
        #expect(abs(cover.tx + 292) < 1e-9 && cover.ty == 0)
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.selectEffect(named: "classic")
        try simulation.setFloor(.file(Self.fixtures + "/images/quadrants.png"))
        simulation.perform(.toggleSecondFloor)
        frames(simulation, clock, 70)
        simulation.render()
        let canvas = simulation.canvas, s = simulation.phone.scale
        // The quadrants' top half, red on the left and green on the right, below the bar; the bar drawn over it.
        let y = Int((simulation.navigationBarBottom + 40) * s)
        #expect(canvas[100, y] == Color(rgb: 255, 0, 0).premultipliedPixel)
        #expect(canvas[canvas.width - 100, y] == Color(rgb: 0, 255, 0).premultipliedPixel)
        #expect(canvas[100, 5] != Color(rgb: 255, 0, 0).premultipliedPixel)
        // At rest the list covers it all: no red or green anywhere under the bar.
        simulation.perform(.toggleSecondFloor)
        frames(simulation, clock, 70)
        simulation.render()
        #expect(canvas[100, y] != Color(rgb: 255, 0, 0).premultipliedPixel)
    }

    @Test("A floor file changed on disk is read again with the animations, and a broken one keeps the floor shown")
    func reload() throws {
        let folder = temporaryDirectory("floor-reload")
        defer { _ = removeDirectory(folder) }
        let path = folder + "/floor.png"
        let quadrants = try UserFile.read(Self.fixtures + "/images/quadrants.png", kind: "picture", limit: 1 << 20)
        #expect(writeBytes(path, quadrants))
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.selectEffect(named: "classic")
        try simulation.setFloor(.file(path))
        #expect(simulation.animationPaths == [path])
        simulation.perform(.toggleSecondFloor)
        frames(simulation, clock, 70)
        let y = Int((simulation.navigationBarBottom + 40) * simulation.phone.scale)
        simulation.render()
        #expect(simulation.canvas[100, y] == Color(rgb: 255, 0, 0).premultipliedPixel)
        let gradient = try UserFile.read(Self.fixtures + "/images/gradient.png", kind: "picture", limit: 1 << 20)
        #expect(writeBytes(path, gradient))
        #expect(simulation.reloadAnimations().map(\.error) == [nil])
        simulation.render()
        #expect(simulation.canvas[100, y] != Color(rgb: 255, 0, 0).premultipliedPixel)
        #expect(writeTextFile(path, "not a picture"))
        let results = simulation.reloadAnimations()
        #expect(results.count == 1 && results[0].error?.contains(path) == true)
        #expect(simulation.primaryPhone.floorPicture != nil && simulation.refreshControl.state == .floor)
    }

    @Test("A Lottie floor's reveal marker is scrubbed by the pull from the refresh to the floor, and plays on from its end once open")
    func lottieReveal() throws {
        let animation = try LottieFile.load(path: Self.fixtures + "/floor/reveal.json")
        // The marker spans frames 0–30 of a 60-frame file at 30 fps.
        #expect(FloorPicture.frame(of: animation, at: .revealing(0), time: 9) == 0)
        #expect(FloorPicture.frame(of: animation, at: .revealing(0.5), time: 9) == 15)
        #expect(FloorPicture.frame(of: animation, at: .revealing(7), time: 9) == 30)
        // Open 0.5 s: 15 frames past the marker's end; 1.5 s: 45 frames, looping the 30 after it.
        #expect(FloorPicture.frame(of: animation, at: .open(0.5), time: 9) == 45)
        #expect(abs(FloorPicture.frame(of: animation, at: .open(1.5), time: 9) - 45) < 1e-9)
        // Drawn: the page's opacity follows the pull, transparent at the refresh threshold, opaque at the floor's.
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.selectEffect(named: "classic")
        try simulation.setFloor(.file(Self.fixtures + "/floor/reveal.json"))
        let control = simulation.refreshControl
        func blueAt(pull ratio: Double) -> UInt32 {
            simulation.scrollView.setContentOffset(Point(0, -simulation.scrollView.adjustedContentInset.top
                                                              - ratio * control.triggerDistance))
            simulation.step()
            simulation.render()
            let y = Int((simulation.navigationBarBottom + 4) * simulation.phone.scale)
            return simulation.canvas[20, y] & 0xFF
        }
        let atRefresh = blueAt(pull: 1.0), halfway = blueAt(pull: 1.45), atFloor = blueAt(pull: 1.9)
        #expect(atRefresh < halfway && halfway < atFloor && atFloor == 255, "\(atRefresh) \(halfway) \(atFloor)")
    }

    @Test("A floor file that cannot be read is one error naming it; --floor with a floating header is refused")
    func badFloors() {
        let simulation = Simulation(clock: SimulatedClock())
        #expect(throws: LabError.self) { try simulation.setFloor(.file("/nonexistent/floor.png")) }
        do {
            try simulation.setFloor(.file(Self.fixtures + "/scenes/README.md"))
            Issue.record("a text file read as a floor")
        } catch {
            #expect("\(error)".contains("not a PNG, JPEG, WebP or GIF picture, nor a Lottie file"), "\(error)")
        }
        #expect(simulation.primaryPhone.description.floor == nil)
        #expect(Simulation.floorRefusal(effect: "classic") == nil)
        let refusal = Simulation.floorRefusal(effect: "swipe-refresh") ?? ""
        #expect(refusal.contains("floats over the list") && refusal.contains("classic") && !refusal.contains("ring"))
    }

    @Test("The floor's style section tunes the floor: a floor rate of 1.5 arms it sooner; T lists its rows")
    func style() throws {
        let simulation = Simulation(clock: SimulatedClock())
        simulation.selectEffect(named: "classic")
        try simulation.setFloor(.drawn)
        #expect(simulation.tuningRows.contains { $0.section == "floor" && $0.key == "floorRate" })
        let book = try StyleBook(catalog: StyleFiles.catalog,
                                 files: [("style.json", Array(#"{"floor": {"floorRate": 1.5}}"#.utf8))])
        simulation.styles = book
        #expect(simulation.refreshControl.secondFloor?.floorRate == 1.5)
        try simulation.setFloor(nil)
        #expect(simulation.refreshControl.secondFloor == nil)
        #expect(!simulation.tuningRows.contains { $0.section == "floor" })
    }
}

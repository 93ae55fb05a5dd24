import Colors
import Geometry
@testable import Lab
@testable import UserFiles
import Motion
import Raster
@testable import Refresh
@testable import Scrolling
import Testing
import TestSupport

/// The platform as a choice (option, script, key), the Pixel 8 against docs/reference.md §5, its chrome's pixels
/// in light and dark, and what the trace and the events say on Android.
@Suite struct AndroidPlatformTests {
    // MARK: Choosing the platform

    @Test("--platform and a script's \"platform\": Android shows the Pixel 8, iOS the lab's phone; the option wins")
    func choice() throws {
        #expect(PhoneChoice(platform: .android).phone().model == .pixel8)
        #expect(PhoneChoice(platform: .ios).phone().model == nil)
        #expect(PhoneChoice().phone().platform == .ios)
        let android = try GestureScript(json: #"{"platform": "android", "steps": []}"#)
        #expect(android.platform == .android && PhoneChoice().phone(for: android).model == .pixel8)
        // The option wins over the script's platform, and a device named with the platform is its own.
        #expect(PhoneChoice(platform: .ios).phone(for: android).model == nil)
        let pro = try GestureScript(json: #"{"device": "iphone-16-pro", "steps": []}"#)
        #expect(PhoneChoice(platform: .android).phone(for: pro).model == .pixel8)
        #expect(PhoneChoice(platform: .ios).phone(for: pro).model == .iPhone16Pro)
        // A device alone chooses its platform; an explicit device wins over the script's.
        let pixel = try GestureScript(json: #"{"device": "pixel-8", "steps": []}"#)
        #expect(PhoneChoice().phone(for: pixel).platform == .android)
        #expect(PhoneChoice(model: .iPhone16).phone(for: pixel).model == .iPhone16)
        // A script without "platform" is iOS's, as before.
        #expect(try GestureScript(json: #"{"steps": []}"#).platform == nil)
    }

    @Test("A bad platform, or a device of the other platform, is one message naming the value and the choices")
    func badNames() throws {
        #expect(throws: LabError("unknown platform 'windows'; choose one of ios, android")) {
            try Platform.named("windows")
        }
        #expect(throws: LabError("device 'iphone-16' is an ios phone, not an android one; choose the platform ios, "
                                 + "or one of pixel-8")) { try PhoneModel.named("iphone-16", on: .android) }
        #expect(throws: LabError("unknown device 'pixel-9'; choose one of iphone-se, iphone-16, iphone-16-pro, "
                                 + "iphone-16-pro-max (ios) or pixel-8 (android)")) {
            try PhoneModel.named(anyPlatform: "pixel-9")
        }
        let wrong = #expect(throws: ScriptError.self) {
            try GestureScript(json: #"{"platform": "android", "device": "iphone-16", "steps": []}"#)
        }
        #expect(wrong?.description.contains("device 'iphone-16' is an ios phone, not an android one") == true)
        let bad = #expect(throws: ScriptError.self) { try GestureScript(json: "{\"platform\": \"web\", \"steps\": []}") }
        #expect(bad?.description.contains("unknown platform 'web'; choose one of ios, android") == true)
        #expect(bad?.line == 1 && bad?.column == 14)
        // The platform key changes the frame's size, which a run keeps.
        #expect(throws: ScriptError.self) { try GestureScript(json: #"{"steps": [{"key": "Y"}]}"#) }
    }

    @Test("The bad --platform of the command line names the value and the choices, and runs nothing")
    func badPlatformOption() throws {
        let dir = temporaryDirectory("bad-platform")
        let outcome = try runRefreshlab(["run", "--script", "fling", "--platform", "windows"], in: dir)
        #expect(outcome.status != 0)
        #expect(outcome.errors.contains("--platform: unknown platform 'windows'; choose one of ios, android"),
                "\(outcome.errors)")
        let mixed = try runRefreshlab(["run", "--script", "fling", "--platform", "android", "--device", "iphone-16"],
                                      in: dir)
        #expect(mixed.status != 0)
        #expect(mixed.errors.contains("--device: device 'iphone-16' is an ios phone, not an android one"),
                "\(mixed.errors)")
    }

    @Test("Y switches the platform: the list stays scrolled as far, the header idle, the title says android")
    func key() throws {
        #expect(Command(keyName: "Y") == .togglePlatform && Command(keyName: "y") == .togglePlatform)
        #expect(Command.keyBindings.filter { $0.keys == "Y" }.count == 1)
        let clock = SimulatedClock()
        let simulation = Simulation(phone: Phone(model: .iPhone16), clock: clock)
        let scrollView = simulation.scrollView
        func fromTop() -> Double { scrollView.contentOffset.y + scrollView.adjustedContentInset.top }
        scrollView.setContentOffset(Point(0, 300 - scrollView.adjustedContentInset.top))
        simulation.step()
        simulation.perform(.togglePlatform)
        #expect(simulation.phone.model == .pixel8 && simulation.phone.platform == .android)
        #expect(abs(fromTop() - 300) < 1e-9, "\(fromTop())")
        #expect(simulation.status == "sticky | English | android | auto end")
        // Back to iOS: the iPhone shown before, the list where it was.
        simulation.perform(.togglePlatform)
        #expect(simulation.phone.model == .iPhone16 && abs(fromTop() - 300) < 1e-9)
        #expect(simulation.status == "sticky | English | auto end")
        // A refresh under way ends: the header is idle on the other platform.
        simulation.perform(.beginRefresh)
        for _ in 0..<30 {
            clock.advance(by: 1 / 60)
            simulation.step()
        }
        #expect(simulation.refreshControl.state == .refreshing)
        simulation.perform(.togglePlatform)
        #expect(simulation.refreshControl.state == .idle)
        #expect(simulation.phone.platform == .android)
    }

    // MARK: The Pixel 8

    @Test("The Pixel 8: 1080 × 2400 px at 2.625, 120 Hz, a 24 dp status bar, the 64 dp app bar, 24 dp at the bottom")
    func geometry() throws {
        let model = try PhoneModel.named("pixel-8", on: .android)
        #expect(model == .pixel8 && model.platform == .android && PhoneModel.catalog.contains(model))
        let phone = Phone(model: model)
        #expect(phone.pixelWidth == 1080 && phone.pixelHeight == 2400 && phone.scale == 2.625)
        #expect(phone.refreshRate == 120)
        #expect(abs(phone.screenSize.width - 411.43) < 0.01 && abs(phone.screenSize.height - 914.29) < 0.01)
        #expect(model.safeArea == EdgeInsets(top: 24, bottom: 24))
        #expect(phone.listFrame.minY == 24 + 64)
        let simulation = Simulation(phone: phone, clock: SimulatedClock())
        #expect(simulation.navigationBarHeight == 64)
        #expect(simulation.scrollView.adjustedContentInset.bottom == simulation.scrollView.contentInset.bottom + 24)
        // Every header pulls, refreshes and ends on it under every bar, as on the iPhones.
        for bar in BarStyle.allCases {
            for effect in RefreshEffects.names {
                try PhoneTests.pullRefreshEnd(phone: Phone(model: model, bar: bar), effect: effect)
            }
        }
    }

    @Test("The Pixel's chrome, light and dark: the app bar in surface down to 88 dp, its title in onSurface, the punch-hole, the gesture handle",
          arguments: [Appearance.light, .dark])
    func chrome(appearance: Appearance) {
        let simulation = Simulation(phone: Phone(model: .pixel8), clock: SimulatedClock())
        simulation.appearance = appearance
        simulation.step()
        simulation.render()
        let canvas = simulation.canvas
        let w = simulation.phone.screenSize.width, h = simulation.phone.screenSize.height
        func pixel(_ x: Double, _ y: Double) -> UInt32 { canvas[Int(x * 2.625), Int(y * 2.625)] }
        func red(_ x: Double, _ y: Double) -> UInt32 { (pixel(x, y) >> 16) & 0xFF }
        let surface: UInt32 = appearance == .light ? 0xFFFE_F7FF : 0xFF14_1218
        // The status bar (24 dp) and the app bar (64 dp) are one surface, from the top to 88 dp; then the list.
        for y in [1.0, 12, 23.5, 24.5, 60, 87.5] { #expect(pixel(150, y) == surface, "y \(y)") }
        #expect(pixel(150, 88.5) != surface)
        // The camera's punch-hole, centred 12 dp down.
        #expect(pixel(w / 2, 12) == 0xFF00_0000)
        // The title, "Inbox" at the left in onSurface: dark on light, light on dark; the time at the left too.
        let title = (Int(16 * 2.625)..<Int(120 * 2.625)).contains { x in
            let r = (canvas[x, Int(56 * 2.625)] >> 16) & 0xFF
            return appearance == .light ? r < 80 : r > 180
        }
        #expect(title, "the app bar's title is not drawn")
        let time = (Int(16 * 2.625)..<Int(70 * 2.625)).contains { x in
            let r = (canvas[x, Int(12 * 2.625)] >> 16) & 0xFF
            return appearance == .light ? r < 80 : r > 180
        }
        #expect(time, "the status bar's time is not drawn at the left")
        // The gesture handle, 108 × 4 dp centred in the bottom 24 dp: dark on light, light on dark along its whole
        // length (a row's text under it has gaps), and not 4 dp above its middle.
        func isHandle(_ x: Double, _ y: Double) -> Bool { appearance == .light ? red(x, y) < 100 : red(x, y) > 150 }
        let span = stride(from: w / 2 - 50, through: w / 2 + 50, by: 1 / 2.625)
        #expect(span.allSatisfy { isHandle($0, h - 12) }, "the gesture handle is not drawn")
        #expect(!span.allSatisfy { isHandle($0, h - 16) }, "the gesture handle is taller than 4 dp")
    }

    // MARK: What the trace and the events say

    /// Replays `script` on `phone`, writing the trace and the events without drawing (as the frame loop writes
    /// them), and returns the trace's lines and the events.
    func replay(_ name: String, phone: Phone) throws -> (trace: [String], events: [String]) {
        let dir = temporaryDirectory("android-" + name)
        let run = try ScriptReplay(script: try resourceScript(name), phone: phone)
        let trace = try TraceWriter(path: dir + "/t.jsonl")
        let events = try EventLog(simulation: run.simulation, path: dir + "/e.jsonl")
        var frame = 0
        while true {
            events.frame = frame
            guard run.advance() else { break }
            try trace.record(frame: frame, time: run.clock.now, simulation: run.simulation)
            frame += 1
        }
        try trace.close()
        try events.close()
        return (try readLines(dir + "/t.jsonl"), try readLines(dir + "/e.jsonl"))
    }

    @Test("On Android the trace's first line names the platform and the Pixel, every line its stretch, and the motions Android's names")
    func trace() throws {
        let classic = try replay("classic", phone: PhoneChoice(platform: .android).phone())
        let first = try fields(classic.trace[0])
        #expect(first["platform"] == .string("android") && first["device"] == .string("pixel-8"))
        #expect(first["scale"] == .number(2.625) && first["fps"] == .number(120))
        #expect(classic.trace[0].contains(#""device":"pixel-8","platform":"android","screen":[411.429,914.286],"#))
        #expect(classic.trace.dropFirst().allSatisfy { !$0.contains("platform") })
        var motions = Set<String>()
        for line in classic.trace {
            let f = try fields(line)
            #expect(f["stretch"] == .number(0), "\(line)")
            if case .string(let motion) = f["motion"] { motions.insert(motion) }
        }
        let fling = try replay("fling", phone: PhoneChoice(platform: .android).phone())
        for line in fling.trace { if case .string(let m) = try fields(line)["motion"] { motions.insert(m) } }
        #expect(motions.isSuperset(of: ["fling", "spring-back"]), "\(motions)")
        #expect(motions.isDisjoint(with: ["momentum", "spring"]), "\(motions)")
        // Every event says the platform.
        #expect(!classic.events.isEmpty)
        #expect(classic.events.allSatisfy { $0.contains(#""effect":"classic","platform":"android","#) })
    }

    @Test("On iOS the trace and the events are as they were: no platform, no stretch, iOS's motion names")
    func iosUnchanged() throws {
        let classic = try replay("classic", phone: PhoneChoice().phone())
        #expect(classic.trace.allSatisfy { !$0.contains("platform") && !$0.contains("stretch") })
        #expect(classic.trace[0].contains(#""device":"default","screen":[375.000,667.000],"scale":2,"fps":60,"#))
        #expect(classic.trace.contains { $0.contains(#""motion":"spring""#) })
        #expect(classic.events.allSatisfy { !$0.contains("platform") })
        #expect(classic.events.first == #"{"frame":1,"time":0.016667,"effect":"classic","control":"header","from":"idle","to":"pulling"}"#)
    }

    @Test("The trace names a stretched edge: stretch with nothing else moving, Android's names for the rest")
    func motionNames() {
        #expect(Platform.android.motionName(.none, stretch: 0.02) == "stretch")
        #expect(Platform.android.motionName(.none, stretch: 0) == "none")
        #expect(Platform.android.motionName(.momentum, stretch: 0) == "fling")
        #expect(Platform.android.motionName(.spring, stretch: 0.01) == "spring-back")
        #expect(Platform.android.motionName(.animation, stretch: 0) == "animation")
        for motion in [ScrollMotion.none, .momentum, .spring, .animation] {
            #expect(Platform.ios.motionName(motion, stretch: 0.5) == motion.rawValue)
        }
    }
}

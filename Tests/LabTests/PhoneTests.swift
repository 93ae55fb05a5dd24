import Geometry
@testable import Lab
@testable import UserFiles
import Motion
import Raster
@testable import Refresh
@testable import Scrolling
import Testing
import TestSupport

/// The phones and their bars: each model's geometry against docs/reference.md §6, the large title's band frame by
/// frame, every header through a pull, a refresh and its end under every bar on every phone, and the 120 Hz clock.
@Suite struct PhoneTests {
    // MARK: Geometry

    @Test("Each model has the screen, scale, rate and safe area of docs/reference.md §6; the pixels follow")
    func models() throws {
        let expected: [(String, Double, Double, Double, Double, Double, Double, Int, Int)] = [
            ("iphone-se", 375, 667, 2, 60, 20, 0, 750, 1334),
            ("iphone-16", 393, 852, 3, 60, 59, 34, 1179, 2556),
            ("iphone-16-pro", 402, 874, 3, 120, 62, 34, 1206, 2622),
            ("iphone-16-pro-max", 440, 956, 3, 120, 62, 34, 1320, 2868),
        ]
        #expect(PhoneModel.all.map(\.id) == expected.map(\.0))
        for (id, w, h, scale, rate, top, bottom, pw, ph) in expected {
            let model = try PhoneModel.named(id)
            let phone = Phone(model: model)
            #expect(phone.screenSize == Size(w, h) && phone.scale == scale && phone.refreshRate == rate, "\(id)")
            #expect(model.safeArea == EdgeInsets(top: top, bottom: bottom), "\(id)")
            #expect(phone.pixelWidth == pw && phone.pixelHeight == ph, "\(id)")
            #expect(model.hasHomeIndicator == (bottom > 0), "\(id)")
        }
    }

    @Test("The default phone is today's: 375×667 at 2, the list below the 64 pt bar, no safe area")
    func defaultPhone() {
        let phone = Phone()
        #expect(phone.model == nil && phone.deviceName == "default" && phone.bar == .standard)
        #expect(phone.pixelWidth == 750 && phone.pixelHeight == 1334 && phone.refreshRate == 60)
        #expect(phone.listFrame == Rect(x: 0, y: 64, width: 375, height: 603))
        #expect(phone.listSafeArea == .zero)
        let simulation = Simulation(phone: phone, clock: SimulatedClock())
        let scrollView = simulation.scrollView
        #expect(scrollView.safeAreaInsets == .zero && scrollView.adjustedContentInset == scrollView.contentInset)
        #expect(simulation.navigationBarHeight == 44)
    }

    @Test("Each bar places the list and its safe area: adjusted inset = content inset + safe area",
          arguments: PhoneModel.all)
    func bars(model: PhoneModel) {
        let s = model.statusBarHeight, b = model.bottomSafeArea, h = model.screenSize.height
        // (bar, the list's top, the safe area's top over the list, the bar's height)
        let cases: [(BarStyle, Double, Double, Double)] = [
            (.standard, s + 44, 0, 44), (.large, s + 44, 52, 96), (.translucent, 0, s + 44, 44), (.none, 0, s, 0),
        ]
        for (bar, listTop, safeTop, barHeight) in cases {
            let simulation = Simulation(phone: Phone(model: model, bar: bar), clock: SimulatedClock())
            let scrollView = simulation.scrollView
            #expect(simulation.phone.listFrame == Rect(x: 0, y: listTop, width: model.screenSize.width,
                                                       height: h - listTop), "\(model.id) \(bar)")
            #expect(scrollView.safeAreaInsets == EdgeInsets(top: safeTop, bottom: b), "\(model.id) \(bar)")
            #expect(scrollView.adjustedContentInset.top == scrollView.contentInset.top + safeTop, "\(model.id) \(bar)")
            #expect(scrollView.adjustedContentInset.bottom == scrollView.contentInset.bottom + b, "\(model.id) \(bar)")
            // At rest the content's top sits at the bar's bottom (the status bar's without a bar).
            #expect(scrollView.contentOffset.y == -safeTop, "\(model.id) \(bar)")
            #expect(simulation.navigationBarHeight == barHeight, "\(model.id) \(bar)")
            #expect(listTop + safeTop == s + barHeight, "\(model.id) \(bar)")
        }
    }

    @Test("An unknown device or bar is one message naming the value and the choices")
    func unknownNames() throws {
        #expect(throws: LabError("unknown device 'iphone-17'; choose one of iphone-se, iphone-16, iphone-16-pro, "
                                 + "iphone-16-pro-max")) { try PhoneModel.named("iphone-17") }
        #expect(throws: LabError("unknown bar 'tall'; choose one of standard, large, translucent, none")) {
            try BarStyle.named("tall")
        }
        let error = #expect(throws: ScriptError.self) {
            try GestureScript(json: #"{"device": "pixel", "steps": []}"#)
        }
        #expect(error?.description.contains("unknown device 'pixel'; choose one of iphone-se") == true)
        #expect(error?.line == 1)
        let script = try GestureScript(json: #"{"device": "iphone-16-pro", "bar": "large", "steps": []}"#)
        #expect(script.device == .iPhone16Pro && script.bar == .large)
        // The command line wins over the script, part by part.
        let phone = PhoneChoice(bar: BarStyle.none).phone(for: script)
        #expect(phone.model == .iPhone16Pro && phone.bar == BarStyle.none && phone.scale == 3)
        #expect(throws: ScriptError.self) { try GestureScript(json: #"{"steps": [{"key": "I"}]}"#) }
    }

    // MARK: The large title

    @Test("The large title's band, worked out by hand: collapses point for point, stretches past the header's inset")
    func largeTitleBand() {
        // (pull past the top, the header's refreshing inset, the band)
        let cases: [(Double, Double, Double)] = [
            (0, 60, 52), (-10, 60, 42), (-52, 60, 0), (-80, 60, 0), (30, 60, 52), (60, 60, 52), (75, 60, 67),
            (100, 44, 108), (0.5, 0, 52.5),
        ]
        for (pull, inset, band) in cases {
            #expect(SimulatedPhone.largeTitleBand(pull: pull, headerInset: inset) == band, "pull \(pull), inset \(inset)")
        }
    }

    @Test("Frame by frame on the iPhone 16 Pro: a drag up of 2 pt a frame collapses the band 2 pt a frame")
    func largeTitleFrames() {
        let clock = SimulatedClock()
        let simulation = Simulation(phone: Phone(model: .iPhone16Pro, bar: .large), clock: clock)
        simulation.step()
        #expect(simulation.navigationBarBottom == 62 + 96)
        // The finger goes down at y 500 and moves up 2 pt a frame: the list follows it 1:1, 2 pt a frame.
        simulation.handle(.touchDown(Point(200, 500)))
        var heights: [Double] = []
        for k in 1...30 {
            clock.advance(by: 1 / 120)
            simulation.handle(.touchMove(Point(200, 500 - 2 * Double(k))))
            simulation.step()
            heights.append(simulation.navigationBarHeight)
        }
        // The band shrinks with the list: the bar's height is 96 less the distance scrolled, down to 44.
        let scrolled = simulation.scrollView.contentOffset.y + simulation.scrollView.adjustedContentInset.top
        #expect(abs(heights.last! - Swift.max(44, 96 - scrolled)) < 1e-9)
        for (a, b) in zip(heights, heights.dropFirst()) { #expect(b <= a && a - b <= 2 + 1e-9) }
        #expect(heights.last == 44)
    }

    // MARK: Every header under every bar on every phone

    static let phones: [Phone?] = [nil] + PhoneModel.all.map { Phone(model: $0) }

    @Test("Every header, bar and phone: a pull, a refresh and its end keep the invariants; the header is whole below the bar while it refreshes and the bar never jumps",
          arguments: BarStyle.allCases)
    func everyHeaderBarAndPhone(bar: BarStyle) throws {
        for base in PhoneTests.phones {
            for effect in RefreshEffects.names {
                var phone = base ?? Phone()
                phone.bar = bar
                try PhoneTests.pullRefreshEnd(phone: phone, effect: effect)
            }
        }
    }

    /// Pulls the list 220 pt down in half a second, lets go, and lets the refresh end by itself, checking every frame.
    static func pullRefreshEnd(phone: Phone, effect: String) throws {
        let clock = SimulatedClock()
        let simulation = Simulation(phone: phone, clock: clock)
        #expect(simulation.selectEffect(named: effect))
        let control = simulation.refreshControl, scrollView = simulation.scrollView
        let invariants = RefreshInvariants(scrollView: scrollView, control: control)
        let name = "\(phone.deviceName) \(phone.bar) \(effect)"
        invariants.context = { name }
        let dt = 1 / phone.refreshRate
        let x = phone.screenSize.width / 2, startY = phone.listFrame.minY + 120
        var sawRefresh = false, lastBar = simulation.navigationBarBottom, lastOffset = scrollView.contentOffset.y
        var lastFinger = startY, settledFrames = 0
        let pullFrames = Int(0.5 / dt), total = Int(4.5 / dt)
        simulation.handle(.touchDown(Point(x, startY)))
        for frame in 1...total {
            clock.advance(by: dt)
            var fingerMove = 0.0
            if frame <= pullFrames {
                let y = startY + 220 * Double(frame) / Double(pullFrames)
                fingerMove = y - lastFinger
                lastFinger = y
                simulation.handle(.touchMove(Point(x, y)))
            } else if frame == pullFrames + 1 {
                simulation.handle(.touchUp(Point(x, lastFinger)))
            }
            simulation.step()
            invariants.check(time: clock.now, fingerMove: fingerMove, frameDuration: dt)
            // The bar moves with the content, never more: nothing jumps when its height changes.
            let barMove = abs(simulation.navigationBarBottom - lastBar)
            let contentMove = abs(scrollView.contentOffset.y - lastOffset)
            if barMove > contentMove + 1e-9 {
                invariants.note("the bar moved \(barMove) pt while the content moved \(contentMove)")
            }
            lastBar = simulation.navigationBarBottom
            lastOffset = scrollView.contentOffset.y
            if control.state == .refreshing { sawRefresh = true }
            // Settled in its refresh, a pushed header is whole between the bar and the content.
            if control.state == .refreshing && scrollView.runningMotion == .none && !scrollView.isTracking
                && control.metrics.placement.floating == nil {
                settledFrames += 1
                let contentTop = phone.listFrame.minY - scrollView.contentOffset.y
                let shown = contentTop - simulation.navigationBarBottom
                if shown < control.metrics.refreshingInset - 0.5 {
                    invariants.note("the header is \(control.metrics.refreshingInset - shown) pt under the bar")
                }
            }
        }
        #expect(sawRefresh, "\(name): no refresh")
        #expect(settledFrames > 0 || control.metrics.placement.floating != nil, "\(name): never settled")
        #expect(control.state == .idle, "\(name): still \(control.state)")
        #expect(invariants.problems.isEmpty, "\(invariants.problems)")
    }

    // MARK: Drawing

    @Test("The 16 Pro's frame is its pixels: black corners and island, the status bar's time, the home indicator",
          arguments: BarStyle.allCases)
    func chromeDrawn(bar: BarStyle) {
        let simulation = Simulation(phone: Phone(model: .iPhone16Pro, bar: bar), clock: SimulatedClock())
        simulation.step()
        simulation.render()
        let canvas = simulation.canvas
        #expect(canvas.width == 1206 && canvas.height == 2622)
        func isBlack(_ x: Double, _ y: Double) -> Bool { canvas[Int(x * 3), Int(y * 3)] == 0xFF00_0000 }
        // The corners (62 pt radius) are black; a point 20 pt in along the diagonal lies outside the arc.
        #expect(isBlack(1, 1) && isBlack(400.5, 1) && isBlack(1, 873) && isBlack(400.5, 873))
        #expect(!isBlack(201, 300))
        // The island: 126 × 37.33 pt centred, 11 pt down.
        #expect(isBlack(201, 29) && isBlack(201 - 55, 29) && !isBlack(201, 52))
        // The time, dark, somewhere in the left ear's middle line; the home indicator 8 pt above the bottom.
        let dark = (0..<Int(138 * 3)).contains { x in
            let p = canvas[x, Int(30 * 3)]
            return (p >> 16) & 0xFF < 100 && p >> 24 == 0xFF
        }
        #expect(dark, "the status bar's time is not drawn")
        let indicator = canvas[603, Int((874 - 8 - 2.5) * 3)]
        #expect((indicator >> 16) & 0xFF < 100, "the home indicator is not drawn")
    }

    // MARK: 120 Hz

    @Test("At 120 Hz a script's clock steps 1/120 s and its trajectory stays within 0.1 pt of the 60 Hz one")
    func trajectory120() throws {
        let script = try resourceScript("fling")
        func offsets(_ phone: Phone) throws -> [Double: Double] {
            let replay = try ScriptReplay(script: script, phone: phone)
            #expect(replay.timeline.frameRate == phone.refreshRate)
            var byTime: [Double: Double] = [:]
            repeat {
                let t = (replay.clock.now * 60).rounded() / 60
                if abs(replay.clock.now - t) < 1e-9 { byTime[t] = replay.simulation.scrollView.contentOffset.y }
            } while replay.advance()
            return byTime
        }
        // The same screen at both rates: the lab's phone, and the same phone ticking at 120 Hz would need a model;
        // the 16 Pro (120 Hz) against a 16 Pro whose clock runs at 60 (the iPhone 16's rate, the same list size).
        let pro = try offsets(Phone(model: .iPhone16Pro))
        let sixty = try offsets(Phone(model: PhoneModel(copying: .iPhone16Pro, refreshRate: 60)))
        #expect(pro.count > 100)
        var worst = 0.0
        for (t, y) in sixty { if let z = pro[t] { worst = Swift.max(worst, abs(y - z)) } }
        print("120 Hz against 60 Hz: at most \(worst) pt apart over \(sixty.count) frames")
        #expect(worst <= 0.1, "the 120 Hz run is \(worst) pt from the 60 Hz one")
    }
}

extension PhoneModel {
    /// The same phone at another refresh rate: for comparing the clocks on one screen.
    init(copying m: PhoneModel, refreshRate: Double) {
        self.init(id: m.id, name: m.name, screenSize: m.screenSize, scale: m.scale, refreshRate: refreshRate,
                  cornerRadius: m.cornerRadius, statusBarHeight: m.statusBarHeight, bottomSafeArea: m.bottomSafeArea,
                  cutout: m.cutout)
    }
}

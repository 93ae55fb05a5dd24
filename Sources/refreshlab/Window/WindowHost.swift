import CSDL2
import Geometry
import Lab
import Motion
import Raster

#if canImport(Glibc)
import Glibc
#endif
import UserFiles
import Recording

/// The SDL window: the frame loop's input (SDL events turned into touches, the wheel and keys) and its display (a
/// streaming texture presented with vsync, or paced by the host where vsync does not hold; a second one for the
/// side area when the window is wide enough for one). The only code that knows SDL; everything else about a frame
/// is `FrameLoop`'s.
final class WindowHost: FrameInput, FrameDisplay {
    private let simulation: Simulation
    private var window: OpaquePointer?
    private var renderer: OpaquePointer?
    /// One texture per phone shown, left to right, made as phones appear.
    private var phoneTextures: [PhoneTexture] = []
    /// The side area's texture and its size in pixels, made when the window first has room beside the phone.
    private var sideTexture: OpaquePointer?
    private var sideTextureSize = (width: 0, height: 0)
    /// Where the phones and the side area are drawn in the renderer's output pixels; remade when the window is
    /// resized or a phone changes.
    private var layout = Layout(phones: [SDL_Rect()], side: nil, perPoint: 1)
    /// Seconds per frame: the display's refresh rate, or the phone's where that is lower (a 60 Hz phone on a
    /// 120 Hz display), or the display's where the phone's is higher than the display allows.
    private(set) var frameBudget = 1.0 / 60
    /// The display's refresh rate, in frames per second; nil when SDL does not know it.
    private var displayRate: Double?
    /// The usable part of the display, in pixels: the window is fitted into it.
    private var usable = SDL_Rect(x: 0, y: 0, w: 1280, h: 800)
    /// The phones' pixel sizes and fastest refresh rate the window and its pacing were last fitted to (the second
    /// phone's size 0 × 0 without one): another phone, or a second one, fits the window again.
    private var fittedFor = (0, 0, 0, 0, 0.0)
    /// Whether vsync holds for the renderer (else the host paces frames itself).
    private var vsync = false
    /// True when presenting does not wait for vsync and the host must pace frames itself.
    private var needsFrameLimiter = false
    private var fastPresents = 0
    /// When the next frame is due while the host paces frames itself (monotonic seconds).
    private var nextPresent = 0.0
    private var lastPresent = 0.0
    /// What the finger went down on (a phone or the side area) while it is down: its moves are read there.
    private var touching: Area?
    /// The base clock's time when SDL's millisecond tick counter was 0: turns event timestamps into clock time,
    /// so that finger velocities come from when the mouse moved, not from when the frame handled it.
    private var ticksOrigin = 0.0
    /// An SDL event type of our own, pushed from the signal watcher's thread to wake a loop asleep in the queue.
    private var wakeEventType: UInt32 = 0
    /// Pushes that event, from any thread: a signal or a saved style file wakes the loop at once.
    private(set) var wake: @Sendable () -> Void = {}
    /// Where the mouse was last seen over the window, in points of the screen of the phone it was over: the wheel
    /// acts there.
    private var pointer: (point: Point, phone: Int)?

    init(simulation: Simulation) {
        self.simulation = simulation
    }

    deinit {
        phoneTextures.removeAll()
        if let sideTexture { SDL_DestroyTexture(sideTexture) }
        if let renderer { SDL_DestroyRenderer(renderer) }
        if let window { SDL_DestroyWindow(window) }
        SDL_Quit()
    }

    private static func sdlError(_ what: String) -> LabError {
        LabError("\(what): \(String(cString: SDL_GetError())); run with --headless to render without a window")
    }

    /// Opens the window: the phone's pixels at their scale, fitted into the display when they do not fit.
    func open() throws {
        // A display that is absent, refuses us or does not answer within 3 s is one clear error, not a hang.
        try DisplayProbe.initVideo()

        var bounds = SDL_Rect()
        if SDL_GetDisplayUsableBounds(0, &bounds) == 0 { usable = bounds }
        let fit = fittedWindowSize()
        var mode = SDL_DisplayMode()
        if SDL_GetCurrentDisplayMode(0, &mode) == 0, mode.refresh_rate > 0 { displayRate = Double(mode.refresh_rate) }

        let centered = Int32(bitPattern: SDL_WINDOWPOS_CENTERED_MASK)
        window = SDL_CreateWindow("RefreshLab", centered, centered, Int32(fit.w), Int32(fit.h),
                                  SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue)
        guard window != nil else { throw WindowHost.sdlError("cannot open a window") }
        _ = SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear")
        renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue | SDL_RENDERER_PRESENTVSYNC.rawValue)
            ?? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue)
        guard renderer != nil else { throw WindowHost.sdlError("cannot create a renderer") }
        var info = SDL_RendererInfo()
        vsync = SDL_GetRendererInfo(renderer, &info) == 0 && (info.flags & SDL_RENDERER_PRESENTVSYNC.rawValue) != 0
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? ""
        if driver == "dummy" || driver == "offscreen" { vsync = false }
        fitPhones(resizing: false)
        ticksOrigin = simulation.clock.base.now - Double(SDL_GetTicks()) / 1000

        // A termination signal or a saved style file wakes a loop asleep in the event queue at once.
        wakeEventType = SDL_RegisterEvents(1)
        if wakeEventType != UInt32.max {
            let type = wakeEventType
            wake = {
                var event = SDL_Event()
                event.type = type
                _ = SDL_PushEvent(&event)
            }
            Termination.addRequestHandler(wake)
        }
    }

    /// The window's size for the phones shown, fitted to the display.
    private func fittedWindowSize() -> (w: Int, h: Int) {
        Phone.windowSize(sideBySide: simulation.phones.map(\.device), gap: Simulation.comparedGap,
                         display: (Int(usable.w), Int(usable.h)))
    }

    /// The phones' pixel sizes and fastest refresh rate, as `fittedFor` keeps them.
    private var phonesShape: (Int, Int, Int, Int, Double) {
        let phones = simulation.phones
        let first = phones[0].device, second = phones.count > 1 ? phones[1].device : nil
        return (first.pixelWidth, first.pixelHeight, second?.pixelWidth ?? 0, second?.pixelHeight ?? 0,
                Swift.max(first.refreshRate, second?.refreshRate ?? 0))
    }

    /// Paces frames at the fastest phone's refresh rate where the display allows it; with `resizing`, phones of
    /// other sizes (another device, a second phone) also resize the window to them (scaled to fit the display).
    private func fitPhones(resizing: Bool) {
        let shape = phonesShape
        if resizing && (shape.0, shape.1, shape.2, shape.3) != (fittedFor.0, fittedFor.1, fittedFor.2, fittedFor.3) {
            let fit = fittedWindowSize()
            SDL_SetWindowSize(window, Int32(fit.w), Int32(fit.h))
            // Widened for a second phone past the display's edge: moved back in.
            var x: Int32 = 0, y: Int32 = 0
            SDL_GetWindowPosition(window, &x, &y)
            let maxX = usable.x + usable.w - Int32(fit.w)
            if x > maxX { SDL_SetWindowPosition(window, Swift.max(usable.x, maxX), y) }
        }
        fittedFor = shape
        // A ProMotion phone presents at 120 Hz on a display that refreshes that fast; a 60 Hz phone at 60 Hz on any.
        // A display that does not say its rate (Xvfb's says 0) presents at its own pace with vsync, taken as 60 Hz
        // (Xvfb's with Mesa holds swaps to that); without vsync only the frame limiter holds the phone's rate.
        let phoneRate = shape.4
        let display = displayRate ?? (vsync ? 60 : phoneRate)
        let rate = Swift.min(display, phoneRate)
        frameBudget = 1 / rate
        needsFrameLimiter = !vsync || display > rate
        simulation.clock.frameDuration = frameBudget
        updateLayout()
    }

    // MARK: FrameInput

    var now: Double { MonotonicClock.seconds() }
    var presentsEveryFrame: Bool { false }

    func nextFrame(for simulation: Simulation, idleUntil: Double?) -> FrameInputResult {
        var event = SDL_Event()
        var changed = false
        var waited = false
        var running = true
        if let deadline = idleUntil {
            // Nothing moves: sleep in the event queue until input arrives or the next scheduled change.
            let got: Int32
            if deadline.isInfinite {
                got = SDL_WaitEvent(&event)
            } else {
                let wait = max(0, deadline - simulation.clock.base.now)
                got = SDL_WaitEventTimeout(&event, Int32(min((wait * 1000).rounded(.up), 3_600_000)))
            }
            waited = true
            if got != 0 { running = handle(event, changed: &changed) }
        }
        while running && SDL_PollEvent(&event) != 0 {
            running = handle(event, changed: &changed)
        }
        return running ? .frame(changed: changed, waited: waited) : .end
    }

    /// Applies one SDL event; returns false when the window closed.
    private func handle(_ event: SDL_Event, changed: inout Bool) -> Bool {
        let time = ticksOrigin + Double(event.common.timestamp) / 1000
        simulation.shiftIsDown = (UInt32(SDL_GetModState().rawValue) & UInt32(KMOD_SHIFT.rawValue)) != 0
        if event.type == SDL_MOUSEMOTION.rawValue, let over = place(event.motion.x, event.motion.y) {
            pointer = (over.point, over.phone)
        }
        switch event.type {
        case SDL_QUIT.rawValue:
            return false
        case wakeEventType:
            changed = true
        case SDL_KEYDOWN.rawValue:
            guard let plain = SDL_GetKeyName(event.key.keysym.sym).map({ String(cString: $0) }) else { break }
            let shifted = (UInt32(event.key.keysym.mod) & UInt32(KMOD_SHIFT.rawValue)) != 0
            guard let command = Command(keyName: shifted ? Command.shiftPrefix + plain : plain) else { break }
            // A held key repeats only the frame step and the tuning panel's arrows; every other key acts once per
            // press.
            if event.key.repeat != 0 && !WindowHost.repeats(command) { break }
            simulation.perform(command)
            changed = true
        case SDL_MOUSEBUTTONDOWN.rawValue where event.button.button == UInt8(SDL_BUTTON_LEFT):
            // Between two phones the finger touches neither.
            guard let down = place(event.button.x, event.button.y) else { break }
            touching = down.area
            simulation.handle(.touchDown(down.point), at: time, onPhone: down.phone)
            changed = true
        case SDL_MOUSEMOTION.rawValue where touching != nil:
            guard let area = touching else { break }
            simulation.handle(.touchMove(point(event.motion.x, event.motion.y, in: area)), at: time,
                              onPhone: phoneIndex(of: area))
            changed = true
        case SDL_MOUSEBUTTONUP.rawValue where event.button.button == UInt8(SDL_BUTTON_LEFT) && touching != nil:
            guard let area = touching else { break }
            touching = nil
            simulation.handle(.touchUp(point(event.button.x, event.button.y, in: area)), at: time,
                              onPhone: phoneIndex(of: area))
            changed = true
        case SDL_MOUSEWHEEL.rawValue where touching == nil:
            // SDL counts notches, y positive away from the user: that shows the content above, so the offset falls.
            let flip: Float = event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -1 : 1
            let notches = Point(Double(event.wheel.preciseX * flip), Double(event.wheel.preciseY * flip))
            let notch = Simulation.wheelNotch
            simulation.handle(.wheel(Point(notches.x * notch, -notches.y * notch), at: pointer?.point), at: time,
                              onPhone: pointer?.phone ?? 0)
            changed = true
        case SDL_WINDOWEVENT.rawValue:
            updateLayout()
            changed = true
        default:
            break
        }
        return true
    }

    /// Whether holding the key of `command` repeats it.
    static func repeats(_ command: Command) -> Bool {
        switch command {
        case .stepFrame, .tuningSelect, .tuningNudge: return true
        default: return false
        }
    }

    // MARK: Layout

    /// The phones and the side area in the renderer's output pixels.
    struct Layout {
        /// Each phone's rectangle, left to right.
        var phones: [SDL_Rect]
        var side: SDL_Rect?
        /// Output pixels per point of the phones' screens: two phones are shown at the same size in points.
        var perPoint: Double
    }

    /// What the mouse is over: a phone (by index) or the side area.
    enum Area: Equatable {
        case phone(Int)
        case side
    }

    /// Lays the phones out in the window, side by side and tops aligned, a gap apart: as tall as the window with
    /// the side area beside them when the window is wide enough for one (`Simulation.sideMinimumWidth`), else as
    /// large as fits, centred. Tells the simulation how much room there is beside the phones.
    private func updateLayout() {
        var ow: Int32 = 0, oh: Int32 = 0
        guard SDL_GetRendererOutputSize(renderer, &ow, &oh) == 0, ow > 0, oh > 0 else { return }
        let phones = simulation.phones.map(\.device)
        let gap = Simulation.comparedGap
        let width = phones.map(\.screenSize.width).reduce(0, +) + gap * Double(phones.count - 1)
        let height = phones.map(\.screenSize.height).max() ?? 1
        let tall = Double(oh) / height
        simulation.sideRoom = Swift.max(0, Double(ow) / tall - width)
        let hasSide = simulation.sideAreaWidth > 0
        let perPoint = hasSide ? tall : Swift.min(Double(ow) / width, tall)
        var x = hasSide ? 0 : (Double(ow) - width * perPoint) / 2
        let y = hasSide ? 0 : (Double(oh) - height * perPoint) / 2
        var rects: [SDL_Rect] = []
        for phone in phones {
            rects.append(SDL_Rect(x: Int32(x.rounded()), y: Int32(y.rounded()),
                                  w: Int32((phone.screenSize.width * perPoint).rounded()),
                                  h: Int32((phone.screenSize.height * perPoint).rounded())))
            x += (phone.screenSize.width + gap) * perPoint
        }
        let selectedHeight = Int32((simulation.phone.screenSize.height * perPoint).rounded())
        let side = hasSide ? SDL_Rect(x: Int32((x - gap * perPoint).rounded()), y: 0, w: 0, h: selectedHeight) : nil
        layout = Layout(phones: rects, side: side, perPoint: perPoint)
    }

    /// The mouse position in window coordinates in the renderer's output pixels (above 1 per coordinate on a
    /// high-density display).
    private func outputPixel(_ x: Int32, _ y: Int32) -> (x: Double, y: Double) {
        var ww: Int32 = 0, wh: Int32 = 0, ow: Int32 = 0, oh: Int32 = 0
        SDL_GetWindowSize(window, &ww, &wh)
        SDL_GetRendererOutputSize(renderer, &ow, &oh)
        let density = ww > 0 ? Double(ow) / Double(ww) : 1
        return (Double(x) * density, Double(y) * density)
    }

    /// What a mouse position is over and where, in points of that phone's screen (the side area's in the selected
    /// phone's, beyond its right edge); nil between two phones. With one phone, every position is the phone's (beyond
    /// its right edge: the side area).
    private func place(_ x: Int32, _ y: Int32) -> (area: Area, point: Point, phone: Int)? {
        let (px, _) = outputPixel(x, y)
        let rects = layout.phones
        var area = Area.phone(0)
        if rects.count > 1 {
            if let side = layout.side, px >= Double(side.x) {
                area = .side
            } else if let index = rects.firstIndex(where: { px >= Double($0.x) && px < Double($0.x + $0.w) }) {
                area = .phone(index)
            } else if px >= Double(rects[rects.count - 1].x) {
                area = .phone(rects.count - 1)
            } else if px >= Double(rects[0].x + rects[0].w) {
                return nil
            }
        }
        return (area, point(x, y, in: area), phoneIndex(of: area))
    }

    /// The phone an area's input goes to: the side area's is the selected phone's tuning panel.
    private func phoneIndex(of area: Area) -> Int {
        if case .phone(let index) = area { return index }
        return simulation.selectedIndex
    }

    /// A mouse position in window coordinates as a point of the screen of the phone `area` is (the side area: of
    /// the selected phone, beyond its right edge).
    private func point(_ x: Int32, _ y: Int32, in area: Area) -> Point {
        let (px, py) = outputPixel(x, y)
        let perPoint = layout.perPoint
        switch area {
        case .side:
            let side = layout.side ?? SDL_Rect()
            return Point(simulation.phone.screenSize.width + (px - Double(side.x)) / perPoint,
                         (py - Double(side.y)) / perPoint)
        case .phone(let index):
            let rect = layout.phones[Swift.min(index, layout.phones.count - 1)]
            return Point((px - Double(rect.x)) / perPoint, (py - Double(rect.y)) / perPoint)
        }
    }

    // MARK: FrameDisplay

    func upload(_ canvas: Canvas, second: Canvas?, side: Canvas?) {
        // A phone changed (the device key, a second phone): the window resized to the phones, the pacing to the
        // fastest.
        let shape = phonesShape
        if shape != fittedFor { fitPhones(resizing: true) }
        let count = second == nil ? 1 : 2
        while phoneTextures.count < count { phoneTextures.append(PhoneTexture(renderer: renderer)) }
        if phoneTextures.count > count { phoneTextures.removeLast(phoneTextures.count - count) }
        let phones = simulation.phones
        do {
            // A phone beside another of a higher refresh rate keeps its last frame between its own.
            try phoneTextures[0].upload(canvas, zoom: layout.perPoint / phones[0].device.scale,
                                        isUnchanged: !phones[0].isPresentedThisFrame)
            if let second, phones.count > 1 {
                try phoneTextures[1].upload(second, zoom: layout.perPoint / phones[1].device.scale,
                                            isUnchanged: !phones[1].isPresentedThisFrame)
            }
        } catch {
            simulation.perform(.quit)
        }
        guard let side else { return }
        // Made again for a side area of another size: another phone may give one as wide and less tall, whose
        // pixels a texture of the old height would read past.
        if sideTexture == nil || sideTextureSize != (side.width, side.height) {
            if let sideTexture { SDL_DestroyTexture(sideTexture) }
            sideTexture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888.rawValue,
                                            Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), Int32(side.width), Int32(side.height))
            sideTextureSize = sideTexture == nil ? (0, 0) : (side.width, side.height)
        }
        SDL_UpdateTexture(sideTexture, nil, side.pixels, Int32(side.width * 4))
    }

    /// The outline of the selected phone while two are shown: the system's blue, this many output pixels wide,
    /// along its edges (the phones may fill the window's height, leaving no room around them).
    static let selectionColor = (r: UInt8(0), g: UInt8(122), b: UInt8(255))
    static let selectionWidth: Int32 = 3

    func present() {
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        for (texture, rect) in zip(phoneTextures, layout.phones) { texture.draw(in: rect) }
        if phoneTextures.count > 1, layout.phones.indices.contains(simulation.selectedIndex) {
            let rect = layout.phones[simulation.selectedIndex], w = WindowHost.selectionWidth
            let color = WindowHost.selectionColor
            SDL_SetRenderDrawColor(renderer, color.r, color.g, color.b, 255)
            func fill(_ x: Int32, _ y: Int32, _ width: Int32, _ height: Int32) {
                var band = SDL_Rect(x: x, y: y, w: width, h: height)
                SDL_RenderFillRect(renderer, &band)
            }
            fill(rect.x, rect.y, rect.w, w)
            fill(rect.x, rect.y + rect.h - w, rect.w, w)
            fill(rect.x, rect.y + w, w, rect.h - 2 * w)
            fill(rect.x + rect.w - w, rect.y + w, w, rect.h - 2 * w)
        }
        if var side = layout.side, let sideTexture, simulation.sideCanvas != nil {
            side.w = Int32((Double(sideTextureSize.width) * layout.perPoint / simulation.phone.scale).rounded())
            SDL_RenderCopy(renderer, sideTexture, nil, &side)
        }
        SDL_RenderPresent(renderer)
        let end = MonotonicClock.seconds()
        // Presents following each other faster than the display refreshes did not wait for vsync: pace ourselves.
        if !needsFrameLimiter {
            fastPresents = end - lastPresent < 0.7 * frameBudget ? fastPresents + 1 : 0
            if fastPresents > 30 { needsFrameLimiter = true }
        }
        lastPresent = end
        guard needsFrameLimiter else { return }
        // Frames on a fixed grid of the budget, so that their rate is the display's; a late frame restarts it.
        nextPresent += frameBudget
        if nextPresent < end || nextPresent > end + frameBudget { nextPresent = end }
        sleepUntil(nextPresent)
    }

    func showStatus(_ status: String) {
        SDL_SetWindowTitle(window, "RefreshLab - " + status)
    }

    private func sleepUntil(_ deadline: Double) {
        var ts = timespec(tv_sec: Int(deadline), tv_nsec: Int((deadline - deadline.rounded(.down)) * 1e9))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}

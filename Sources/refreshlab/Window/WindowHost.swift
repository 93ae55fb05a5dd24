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
    private var texture: OpaquePointer?
    /// The side area's texture and its size in pixels, made when the window first has room beside the phone.
    private var sideTexture: OpaquePointer?
    private var sideTextureSize = (width: 0, height: 0)
    /// Where the phone and the side area are drawn in the renderer's output pixels, and how many output pixels a
    /// canvas pixel takes (`zoom`); remade when the window is resized.
    private var layout = Layout(phone: SDL_Rect(), side: nil, zoom: 1)
    /// Seconds per frame: the display's refresh rate, or the phone's where that is lower (a 60 Hz phone on a
    /// 120 Hz display), or the display's where the phone's is higher than the display allows.
    private(set) var frameBudget = 1.0 / 60
    /// The display's refresh rate, in frames per second; nil when SDL does not know it.
    private var displayRate: Double?
    /// The usable part of the display, in pixels: the window is fitted into it.
    private var usable = SDL_Rect(x: 0, y: 0, w: 1280, h: 800)
    /// The half-size copy of the phone's canvas and its texture, made when the phone is shown at half its pixels
    /// or fewer, and whether the last upload used them.
    private var halfCanvas: Canvas?
    private var halfTexture: OpaquePointer?
    private var usesHalf = false
    /// Whether the half-size texture was just made: its first upload sends every row, later ones the rows changed.
    private var halfTextureIsNew = false
    /// The canvas size the texture was made for: a phone of another size makes a new texture and window size.
    private var textureSize = (w: 0, h: 0)
    /// The refresh rate of the phone the pacing was set for.
    private var fittedRate = 0.0
    /// Whether vsync holds for the renderer (else the host paces frames itself).
    private var vsync = false
    /// True when presenting does not wait for vsync and the host must pace frames itself.
    private var needsFrameLimiter = false
    private var fastPresents = 0
    /// When the next frame is due while the host paces frames itself (monotonic seconds).
    private var nextPresent = 0.0
    private var lastPresent = 0.0
    private var isTouching = false
    /// The base clock's time when SDL's millisecond tick counter was 0: turns event timestamps into clock time,
    /// so that finger velocities come from when the mouse moved, not from when the frame handled it.
    private var ticksOrigin = 0.0
    /// An SDL event type of our own, pushed from the signal watcher's thread to wake a loop asleep in the queue.
    private var wakeEventType: UInt32 = 0
    /// Pushes that event, from any thread: a signal or a saved style file wakes the loop at once.
    private(set) var wake: @Sendable () -> Void = {}
    /// Where the mouse was last seen over the window, in points of the screen: the wheel acts there.
    private var pointer: Point?

    init(simulation: Simulation) {
        self.simulation = simulation
    }

    deinit {
        if let texture { SDL_DestroyTexture(texture) }
        if let sideTexture { SDL_DestroyTexture(sideTexture) }
        if let halfTexture { SDL_DestroyTexture(halfTexture) }
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
        let phone = simulation.phone

        var bounds = SDL_Rect()
        if SDL_GetDisplayUsableBounds(0, &bounds) == 0 { usable = bounds }
        let fit = phone.windowSize(display: (Int(usable.w), Int(usable.h)))
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
        try fitPhone(resizing: false)
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

    /// Makes the texture for the phone's canvas and paces frames at its refresh rate where the display allows it;
    /// with `resizing`, a phone of another size also resizes the window to it (scaled to fit the display).
    private func fitPhone(resizing: Bool) throws {
        let phone = simulation.phone
        let size = (w: phone.pixelWidth, h: phone.pixelHeight)
        if size != textureSize {
            if let texture { SDL_DestroyTexture(texture) }
            texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888.rawValue,
                                        Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), Int32(size.w), Int32(size.h))
            guard texture != nil else { throw WindowHost.sdlError("cannot create the canvas texture") }
            textureSize = size
            if resizing {
                let fit = phone.windowSize(display: (Int(usable.w), Int(usable.h)))
                SDL_SetWindowSize(window, Int32(fit.w), Int32(fit.h))
            }
        }
        // A ProMotion phone presents at 120 Hz on a display that refreshes that fast; a 60 Hz phone at 60 Hz on any.
        // A display that does not say its rate (Xvfb's says 0) presents at its own pace with vsync, taken as 60 Hz
        // (Xvfb's with Mesa holds swaps to that); without vsync only the frame limiter holds the phone's rate.
        fittedRate = phone.refreshRate
        let display = displayRate ?? (vsync ? 60 : phone.refreshRate)
        let rate = Swift.min(display, phone.refreshRate)
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
        if event.type == SDL_MOUSEMOTION.rawValue { pointer = point(event.motion.x, event.motion.y) }
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
            isTouching = true
            simulation.handle(.touchDown(point(event.button.x, event.button.y)), at: time)
            changed = true
        case SDL_MOUSEMOTION.rawValue where isTouching:
            simulation.handle(.touchMove(point(event.motion.x, event.motion.y)), at: time)
            changed = true
        case SDL_MOUSEBUTTONUP.rawValue where event.button.button == UInt8(SDL_BUTTON_LEFT) && isTouching:
            isTouching = false
            simulation.handle(.touchUp(point(event.button.x, event.button.y)), at: time)
            changed = true
        case SDL_MOUSEWHEEL.rawValue where !isTouching:
            // SDL counts notches, y positive away from the user: that shows the content above, so the offset falls.
            let flip: Float = event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -1 : 1
            let notches = Point(Double(event.wheel.preciseX * flip), Double(event.wheel.preciseY * flip))
            let notch = Simulation.wheelNotch
            simulation.handle(.wheel(Point(notches.x * notch, -notches.y * notch), at: pointer), at: time)
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

    /// The phone and the side area in the renderer's output pixels.
    struct Layout {
        var phone: SDL_Rect
        var side: SDL_Rect?
        var zoom: Double
    }

    /// Lays the phone out in the window: as tall as the window with the side area beside it when the window is
    /// wide enough for one (`Simulation.sideMinimumWidth`), else as large as fits, centred. Tells the simulation
    /// how much room there is beside the phone.
    private func updateLayout() {
        var ow: Int32 = 0, oh: Int32 = 0
        guard SDL_GetRendererOutputSize(renderer, &ow, &oh) == 0, ow > 0, oh > 0 else { return }
        let phone = simulation.phone
        let cw = Double(phone.pixelWidth), ch = Double(phone.pixelHeight)
        let tall = Double(oh) / ch
        let room = (Double(ow) - cw * tall) / tall / phone.scale
        simulation.sideRoom = Swift.max(0, room)
        if simulation.sideAreaWidth > 0 {
            let phoneRect = SDL_Rect(x: 0, y: 0, w: Int32((cw * tall).rounded()), h: oh)
            layout = Layout(phone: phoneRect, side: SDL_Rect(x: phoneRect.w, y: 0, w: 0, h: oh), zoom: tall)
        } else {
            let zoom = Swift.min(Double(ow) / cw, tall)
            let w = Int32((cw * zoom).rounded()), h = Int32((ch * zoom).rounded())
            layout = Layout(phone: SDL_Rect(x: (ow - w) / 2, y: (oh - h) / 2, w: w, h: h), side: nil, zoom: zoom)
        }
    }

    /// A mouse position in window coordinates as a point of the phone's screen (beyond its right edge: the side
    /// area).
    private func point(_ x: Int32, _ y: Int32) -> Point {
        var ww: Int32 = 0, wh: Int32 = 0, ow: Int32 = 0, oh: Int32 = 0
        SDL_GetWindowSize(window, &ww, &wh)
        SDL_GetRendererOutputSize(renderer, &ow, &oh)
        // Output pixels per window coordinate: above 1 on a high-density display.
        let density = ww > 0 ? Double(ow) / Double(ww) : 1
        let perPoint = layout.zoom * simulation.phone.scale
        return Point((Double(x) * density - Double(layout.phone.x)) / perPoint,
                     (Double(y) * density - Double(layout.phone.y)) / perPoint)
    }

    // MARK: FrameDisplay

    func upload(_ canvas: Canvas, side: Canvas?) {
        // The phone changed (the device key): a texture of its size, the window resized to it.
        if (canvas.width, canvas.height) != textureSize || simulation.phone.refreshRate != fittedRate {
            do { try fitPhone(resizing: true) } catch { simulation.perform(.quit) }
        }
        uploadPhone(canvas)
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

    /// Sends the phone's canvas to its texture; shown at half its pixels or fewer (a 3× phone fitted to the
    /// display), a half-size copy averaged by `Canvas.halve` instead, a quarter of the bytes, and of it only the rows
    /// that changed since the last frame (a header refreshing over a list that stands sends its own band).
    private func uploadPhone(_ canvas: Canvas) {
        usesHalf = layout.zoom <= 0.5 && canvas.width >= 2 && canvas.height >= 2 && makeHalf(of: canvas)
        guard usesHalf, let halfCanvas else {
            SDL_UpdateTexture(texture, nil, canvas.pixels, Int32(canvas.width * 4))
            return
        }
        let changed = canvas.halve(into: halfCanvas)
        let rows = halfTextureIsNew ? 0..<halfCanvas.height : changed
        halfTextureIsNew = false
        guard !rows.isEmpty else { return }
        var band = SDL_Rect(x: 0, y: Int32(rows.lowerBound), w: Int32(halfCanvas.width), h: Int32(rows.count))
        SDL_UpdateTexture(halfTexture, &band, halfCanvas.pixels + rows.lowerBound * halfCanvas.width,
                          Int32(halfCanvas.width * 4))
    }

    /// Makes the half-size copy and its texture for `canvas`'s size when they are not made yet; false when the
    /// texture cannot be made.
    private func makeHalf(of canvas: Canvas) -> Bool {
        if halfCanvas?.width != canvas.width / 2 || halfCanvas?.height != canvas.height / 2 {
            if let halfTexture { SDL_DestroyTexture(halfTexture) }
            halfCanvas = Canvas(width: canvas.width / 2, height: canvas.height / 2)
            halfTexture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888.rawValue,
                                            Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                            Int32(canvas.width / 2), Int32(canvas.height / 2))
            halfTextureIsNew = true
        }
        return halfCanvas != nil && halfTexture != nil
    }

    func present() {
        SDL_RenderClear(renderer)
        var phone = layout.phone
        SDL_RenderCopy(renderer, usesHalf ? halfTexture : texture, nil, &phone)
        if var side = layout.side, let sideTexture, simulation.sideCanvas != nil {
            side.w = Int32((Double(sideTextureSize.width) * layout.zoom).rounded())
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

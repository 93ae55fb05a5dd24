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
/// streaming texture presented with vsync, or paced by the host where vsync does not hold). The only code that
/// knows SDL; everything else about a frame is `FrameLoop`'s.
final class WindowHost: FrameInput, FrameDisplay {
    private let simulation: Simulation
    private var window: OpaquePointer?
    private var renderer: OpaquePointer?
    private var texture: OpaquePointer?
    /// Seconds per frame, from the display's refresh rate.
    private(set) var frameBudget = 1.0 / 60
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
        let canvasSize = (w: phone.pixelWidth, h: phone.pixelHeight)

        var usable = SDL_Rect()
        if SDL_GetDisplayUsableBounds(0, &usable) != 0 { usable = SDL_Rect(x: 0, y: 0, w: 1280, h: 800) }
        let fit = phone.windowSize(display: (Int(usable.w), Int(usable.h)))
        var mode = SDL_DisplayMode()
        if SDL_GetCurrentDisplayMode(0, &mode) == 0, mode.refresh_rate > 0 {
            frameBudget = 1 / Double(mode.refresh_rate)
        }
        simulation.clock.frameDuration = frameBudget

        let centered = Int32(bitPattern: SDL_WINDOWPOS_CENTERED_MASK)
        window = SDL_CreateWindow("RefreshLab", centered, centered, Int32(fit.w), Int32(fit.h),
                                  SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue)
        guard window != nil else { throw WindowHost.sdlError("cannot open a window") }
        _ = SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear")
        renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue | SDL_RENDERER_PRESENTVSYNC.rawValue)
            ?? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue)
        guard renderer != nil else { throw WindowHost.sdlError("cannot create a renderer") }
        // The canvas keeps its aspect ratio in a resized window; mouse positions arrive in canvas pixels.
        SDL_RenderSetLogicalSize(renderer, Int32(canvasSize.w), Int32(canvasSize.h))
        texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888.rawValue,
                                    Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), Int32(canvasSize.w), Int32(canvasSize.h))
        guard texture != nil else { throw WindowHost.sdlError("cannot create the canvas texture") }

        var info = SDL_RendererInfo()
        let vsync = SDL_GetRendererInfo(renderer, &info) == 0 && (info.flags & SDL_RENDERER_PRESENTVSYNC.rawValue) != 0
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? ""
        needsFrameLimiter = !vsync || driver == "dummy" || driver == "offscreen"
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
        let scale = simulation.phone.scale
        let time = ticksOrigin + Double(event.common.timestamp) / 1000
        simulation.shiftIsDown = (UInt32(SDL_GetModState().rawValue) & UInt32(KMOD_SHIFT.rawValue)) != 0
        if event.type == SDL_MOUSEMOTION.rawValue {
            pointer = Point(Double(event.motion.x) / scale, Double(event.motion.y) / scale)
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
            isTouching = true
            simulation.handle(.touchDown(Point(Double(event.button.x) / scale, Double(event.button.y) / scale)), at: time)
            changed = true
        case SDL_MOUSEMOTION.rawValue where isTouching:
            simulation.handle(.touchMove(Point(Double(event.motion.x) / scale, Double(event.motion.y) / scale)), at: time)
            changed = true
        case SDL_MOUSEBUTTONUP.rawValue where event.button.button == UInt8(SDL_BUTTON_LEFT) && isTouching:
            isTouching = false
            simulation.handle(.touchUp(Point(Double(event.button.x) / scale, Double(event.button.y) / scale)), at: time)
            changed = true
        case SDL_MOUSEWHEEL.rawValue where !isTouching:
            // SDL counts notches, y positive away from the user: that shows the content above, so the offset falls.
            let flip: Float = event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -1 : 1
            let notches = Point(Double(event.wheel.preciseX * flip), Double(event.wheel.preciseY * flip))
            let notch = Simulation.wheelNotch
            simulation.handle(.wheel(Point(notches.x * notch, -notches.y * notch), at: pointer), at: time)
            changed = true
        case SDL_WINDOWEVENT.rawValue:
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

    // MARK: FrameDisplay

    func upload(_ canvas: Canvas) {
        SDL_UpdateTexture(texture, nil, canvas.pixels, Int32(canvas.width * 4))
    }

    func present() {
        SDL_RenderClear(renderer)
        SDL_RenderCopy(renderer, texture, nil, nil)
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

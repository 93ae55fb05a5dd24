import CSDL2
import Geometry
import Lab
import Motion

#if canImport(Glibc)
import Glibc
#endif

/// The SDL window: turns SDL events into the simulation's input, and shows its canvas through a streaming
/// texture presented with vsync. The only code that knows SDL.
final class WindowHost {
    private let simulation: Simulation
    private var window: OpaquePointer?
    private var renderer: OpaquePointer?
    private var texture: OpaquePointer?
    /// Seconds per frame, from the display's refresh rate.
    private var frameBudget = 1.0 / 60
    /// True when presenting does not wait for vsync and the loop must pace itself.
    private var needsFrameLimiter = false
    private var isTouching = false
    /// The simulation clock's time when SDL's millisecond tick counter was 0: turns event timestamps into clock time,
    /// so that finger velocities come from when the mouse moved, not from when the frame handled it.
    private var ticksOrigin = 0.0
    /// Points of content one wheel notch scrolls: about three 13–14 pt lines, as desktop systems scroll three lines
    /// per notch (an assumption of this simulator; iOS has no wheel).
    static let wheelNotch = 40.0

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

    private func open() throws {
        SDL_SetMainReady()
        guard SDL_Init(SDL_INIT_VIDEO) == 0 else { throw WindowHost.sdlError("cannot start SDL video") }
        let phone = simulation.phone
        let canvasSize = (w: phone.pixelWidth, h: phone.pixelHeight)

        // Fit the phone into 90 % of the usable display area, never larger than its pixels.
        var usable = SDL_Rect()
        if SDL_GetDisplayUsableBounds(0, &usable) != 0 { usable = SDL_Rect(x: 0, y: 0, w: 1280, h: 800) }
        let fit = min(1, 0.9 * Double(usable.w) / Double(canvasSize.w), 0.9 * Double(usable.h) / Double(canvasSize.h))
        let windowW = Int32((Double(canvasSize.w) * fit).rounded()), windowH = Int32((Double(canvasSize.h) * fit).rounded())
        var mode = SDL_DisplayMode()
        if SDL_GetCurrentDisplayMode(0, &mode) == 0, mode.refresh_rate > 0 {
            frameBudget = 1 / Double(mode.refresh_rate)
        }

        let centered = Int32(bitPattern: SDL_WINDOWPOS_CENTERED_MASK)
        window = SDL_CreateWindow("RefreshLab", centered, centered, windowW, windowH,
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
        ticksOrigin = simulation.clock.now - Double(SDL_GetTicks()) / 1000
    }

    /// Runs until the window closes or Esc or Q is pressed.
    func run() throws {
        try open()
        var event = SDL_Event()
        var running = true
        var needsDisplay = true
        var fastPresents = 0
        while running {
            let frameStart = MonotonicClock.seconds()
            // Sleep in the event queue while nothing changes, so an idle window costs no CPU.
            if !needsDisplay && SDL_WaitEventTimeout(&event, 100) != 0 {
                running = handle(event, needsDisplay: &needsDisplay)
            }
            while running && SDL_PollEvent(&event) != 0 {
                running = handle(event, needsDisplay: &needsDisplay)
            }
            guard running else { break }
            simulation.step()
            if simulation.isAnimating { needsDisplay = true }
            guard needsDisplay else { continue }
            needsDisplay = false
            simulation.render()
            let canvas = simulation.canvas
            SDL_UpdateTexture(texture, nil, canvas.pixels, Int32(canvas.width * 4))
            SDL_RenderClear(renderer)
            SDL_RenderCopy(renderer, texture, nil, nil)
            SDL_RenderPresent(renderer)

            // A present that returns far inside the budget did not wait for vsync: pace frames ourselves.
            let elapsed = MonotonicClock.seconds() - frameStart
            if !needsFrameLimiter {
                fastPresents = elapsed < frameBudget / 2 ? fastPresents + 1 : 0
                if fastPresents > 30 { needsFrameLimiter = true }
            }
            if needsFrameLimiter && elapsed < frameBudget {
                usleep(UInt32((frameBudget - elapsed) * 1e6))
            }
        }
    }

    /// Applies one SDL event; returns false when the program should quit.
    private func handle(_ event: SDL_Event, needsDisplay: inout Bool) -> Bool {
        let scale = simulation.phone.scale
        let time = ticksOrigin + Double(event.common.timestamp) / 1000
        switch event.type {
        case SDL_QUIT.rawValue:
            return false
        case SDL_KEYDOWN.rawValue:
            let key = event.key.keysym.sym
            if key == Int32(SDLK_ESCAPE.rawValue) || key == Int32(SDLK_q.rawValue) { return false }
        case SDL_MOUSEBUTTONDOWN.rawValue where event.button.button == UInt8(SDL_BUTTON_LEFT):
            isTouching = true
            simulation.handle(.touchDown(Point(Double(event.button.x) / scale, Double(event.button.y) / scale)), at: time)
            needsDisplay = true
        case SDL_MOUSEMOTION.rawValue where isTouching:
            simulation.handle(.touchMove(Point(Double(event.motion.x) / scale, Double(event.motion.y) / scale)), at: time)
            needsDisplay = true
        case SDL_MOUSEBUTTONUP.rawValue where event.button.button == UInt8(SDL_BUTTON_LEFT) && isTouching:
            isTouching = false
            simulation.handle(.touchUp(Point(Double(event.button.x) / scale, Double(event.button.y) / scale)), at: time)
            needsDisplay = true
        case SDL_MOUSEWHEEL.rawValue where !isTouching:
            // SDL counts notches, y positive away from the user: that shows the content above, so the offset falls.
            let flip: Float = event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -1 : 1
            let notches = Point(Double(event.wheel.preciseX * flip), Double(event.wheel.preciseY * flip))
            simulation.handle(.wheel(Point(notches.x * WindowHost.wheelNotch, -notches.y * WindowHost.wheelNotch)), at: time)
            needsDisplay = true
        case SDL_WINDOWEVENT.rawValue:
            needsDisplay = true
        default:
            break
        }
        return true
    }
}

import CSDL2
import Geometry
import Lab
import Motion
import Raster

#if canImport(Glibc)
import Glibc
#endif

/// The SDL window: turns SDL events into the simulation's input and keys into its commands, times every frame's
/// phases, and shows the canvas through a streaming texture presented with vsync. The only code that knows SDL.
///
/// A frame in which nothing changed is not drawn: with nothing moving the loop sleeps in SDL's event queue. While
/// timings are recorded every frame is drawn, so that the recorded intervals are the display's.
final class WindowHost {
    private let simulation: Simulation
    private let eventsPath: String?
    private var window: OpaquePointer?
    private var renderer: OpaquePointer?
    private var texture: OpaquePointer?
    /// Seconds per frame, from the display's refresh rate.
    private var frameBudget = 1.0 / 60
    /// The display's refresh rate in Hz, 0 when SDL does not know it.
    private var refreshRate: Int32 = 0
    /// True when presenting does not wait for vsync and the loop must pace itself.
    private var needsFrameLimiter = false
    private var isTouching = false
    /// The base clock's time when SDL's millisecond tick counter was 0: turns event timestamps into clock time,
    /// so that finger velocities come from when the mouse moved, not from when the frame handled it.
    private var ticksOrigin = 0.0
    private var recorder = FrameRecorder()
    private let hud = HUD()
    private var events: EventLog?
    private var frameIndex = 0
    /// Points of content one wheel notch scrolls: about three 13–14 pt lines, as desktop systems scroll three lines
    /// per notch (an assumption of this simulator; iOS has no wheel).
    static let wheelNotch = 40.0
    /// How long the loop sleeps in the event queue at most while nothing moves, in milliseconds: the latency of
    /// noticing a termination signal.
    static let idleWait: Int32 = 100

    init(simulation: Simulation, eventsPath: String? = nil) {
        self.simulation = simulation
        self.eventsPath = eventsPath
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
            refreshRate = mode.refresh_rate
            frameBudget = 1 / Double(mode.refresh_rate)
        }
        simulation.clock.frameDuration = frameBudget

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
        ticksOrigin = simulation.clock.base.now - Double(SDL_GetTicks()) / 1000
        recorder = FrameRecorder(budget: frameBudget)
    }

    /// Runs until the window closes, Esc or Q is pressed, or SIGINT or SIGTERM arrives; a recording under way and
    /// the events file are saved whole in every case.
    func run() throws {
        FrameRecorder.flushOnTermination()
        if let eventsPath { events = try EventLog(simulation: simulation, path: eventsPath) }
        try open()
        var event = SDL_Event()
        var running = true
        var needsDisplay = true
        var fastPresents = 0
        while running && !FrameRecorder.terminationRequested {
            let frameStart = MonotonicClock.seconds()
            events?.frame = frameIndex
            let inputStart = recorder.phaseNow()
            // Sleep in the event queue while nothing changes, so an idle window costs no CPU.
            if !needsDisplay && !recorder.isRecording && SDL_WaitEventTimeout(&event, WindowHost.idleWait) != 0 {
                running = handle(event, needsDisplay: &needsDisplay)
            }
            while running && SDL_PollEvent(&event) != 0 {
                running = handle(event, needsDisplay: &needsDisplay)
            }
            if running { running = carryOutHostRequests(&needsDisplay) }
            guard running else { break }
            let inputTime = recorder.phaseNow() - inputStart

            let updateStart = recorder.phaseNow()
            simulation.step()
            if simulation.isAnimating || recorder.isRecording { needsDisplay = true }
            guard needsDisplay else { continue }
            needsDisplay = false
            recorder.beginFrame(at: frameStart)
            recorder.add(inputTime, to: .input)
            recorder.add(recorder.phaseNow() - updateStart, to: .update)

            simulation.render()
            if simulation.showsFrameGraph {
                hud.draw(recorder: recorder, state: simulation.refreshControl.state,
                         pullDistance: simulation.refreshControl.pull.distance, screen: simulation.phone.screenSize,
                         scale: simulation.phone.scale, text: simulation.renderer.loadTextRenderer(),
                         into: simulation.canvas)
            }
            recorder.endPhase(.draw)
            let canvas = simulation.canvas
            SDL_UpdateTexture(texture, nil, canvas.pixels, Int32(canvas.width * 4))
            recorder.endPhase(.upload)
            SDL_RenderClear(renderer)
            SDL_RenderCopy(renderer, texture, nil, nil)
            SDL_RenderPresent(renderer)
            recorder.endPhase(.present)
            recorder.endFrame(state: simulation.refreshControl.state, effect: simulation.effectName)
            frameIndex += 1

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
        try finish()
    }

    /// Saves what is under way: the recording (announced on standard output) and the events file.
    private func finish() throws {
        var failure: Error?
        do {
            if let summary = try recorder.stopRecording() {
                print("saved \(summary.frameCount) frames of timings")
            }
        } catch {
            failure = error
        }
        do { try events?.close() } catch { failure = failure ?? error }
        if let failure { throw failure }
    }

    // MARK: Commands only the host can carry out

    /// Screenshots, recordings and quitting asked for by keys; returns false to quit.
    private func carryOutHostRequests(_ needsDisplay: inout Bool) -> Bool {
        let requests = simulation.takeHostRequests()
        guard !requests.isEmpty else { return true }
        needsDisplay = true
        if requests.contains(.quit) { return false }
        if requests.contains(.screenshot) {
            let path = "refreshlab-" + WindowHost.timestamp() + ".png"
            do {
                try PNG.write(simulation.canvas, to: path)
                simulation.showToast("Saved screenshot " + path)
                print("saved screenshot \(path)")
            } catch {
                simulation.showToast("Screenshot failed: cannot write " + path)
                printError("cannot write the screenshot '\(path)': \(error); check that the current folder is writable")
            }
        }
        if requests.contains(.toggleRecording) { toggleRecording() }
        return true
    }

    private func toggleRecording() {
        if recorder.isRecording {
            do {
                let summary = try recorder.stopRecording()
                let frames = summary?.frameCount ?? 0
                simulation.showToast("Saved \(frames) frames of timings")
                print("saved \(frames) frames of timings")
            } catch {
                simulation.showToast("Could not save the timings (see the terminal)")
                printError("\(error)")
            }
            return
        }
        let base = "refreshlab-timings-" + WindowHost.timestamp()
        do {
            try recorder.startRecording(csvPath: base + ".csv", jsonPath: base + ".json")
            simulation.showToast("Recording to " + base + ".csv (R stops)")
            print("recording timings to \(base).csv and \(base).json")
        } catch {
            simulation.showToast("Cannot record: the current folder is not writable")
            printError("\(error)")
        }
    }

    /// The local date and time as `2025-03-14-094105`, for file names that sort by time.
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let n = strftime(&buffer, buffer.count, "%Y-%m-%d-%H%M%S", &parts)
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func printError(_ message: String) {
        let line = Array(("refreshlab: " + message + "\n").utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    // MARK: Events

    /// Applies one SDL event; returns false when the program should quit.
    private func handle(_ event: SDL_Event, needsDisplay: inout Bool) -> Bool {
        let scale = simulation.phone.scale
        let time = ticksOrigin + Double(event.common.timestamp) / 1000
        switch event.type {
        case SDL_QUIT.rawValue:
            return false
        case SDL_KEYDOWN.rawValue:
            guard let name = SDL_GetKeyName(event.key.keysym.sym).map({ String(cString: $0) }),
                  let command = Command(keyName: name) else { break }
            // A held key repeats only the frame step; every other key acts once per press.
            if event.key.repeat != 0 && command != .stepFrame { break }
            simulation.perform(command)
            needsDisplay = true
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

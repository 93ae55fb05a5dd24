import CSDL2
import Lab

#if canImport(Glibc)
import Glibc
#endif
import UserFiles

/// Starts SDL's video for the window and makes sure it reached a display a person can see.
///
/// Left to itself SDL fails in two quiet ways: a display that accepts the connection but never answers blocks
/// `SDL_Init` for ever, and a display that is not there makes SDL fall back to its off-screen driver, so the
/// simulator runs with no window until killed. Both end here with one line naming the display and `--headless`.
enum DisplayProbe {
    /// SDL's video drivers that show nothing on a screen; accepted only when chosen with SDL_VIDEODRIVER.
    static let invisibleDrivers: Set<String> = ["offscreen", "dummy"]

    /// What to do instead of opening a window.
    static let headlessAdvice = "run 'refreshlab --headless' to render frames without a window"

    static let noDisplayMessage = "no display is set (DISPLAY and WAYLAND_DISPLAY are empty), so there is no "
        + "screen for the window; \(headlessAdvice)"

    /// Initialises SDL's video subsystem (in place of `SDL_SetMainReady(); SDL_Init(SDL_INIT_VIDEO)`), and throws
    /// a one-line error naming the display when no display is set, SDL cannot start, or SDL started only an
    /// invisible driver the user did not ask for; SDL's video is shut down again before it throws.
    ///
    /// If `SDL_Init` has not returned after `timeout` seconds the process ends with status 1 after one line on
    /// standard error: the call cannot be interrupted (it waits inside the display's client library for the
    /// server's reply), so a watchdog thread writes the line and calls `_exit`. A timeout of 0 or less waits
    /// for ever.
    static func initVideo(timeout: Double = 3) throws {
        let display = DisplayName.fromEnvironment()
        let chosenDriver = environment("SDL_VIDEODRIVER")
        if display == nil && chosenDriver == nil { throw LabError(noDisplayMessage) }
        SDL_SetMainReady()
        let watchdog = Watchdog(seconds: timeout, message: "refreshlab: cannot open "
            + (display?.phrase ?? "the display") + " (it accepted the connection but did not answer within "
            + "\(seconds(timeout)) s); check the server there, or \(headlessAdvice)")
        let started = SDL_Init(SDL_INIT_VIDEO) == 0
        watchdog?.cancel()

        guard started else {
            let why = String(cString: SDL_GetError())
            if let chosenDriver {
                throw LabError("cannot start SDL's video driver '\(chosenDriver)' (chosen by SDL_VIDEODRIVER): "
                    + "\(why); \(headlessAdvice)")
            }
            throw LabError("cannot open \(display?.phrase ?? "the display") (SDL: \(why)); start one, or "
                + headlessAdvice)
        }
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? ""
        if chosenDriver == nil && invisibleDrivers.contains(driver) {
            SDL_QuitSubSystem(SDL_INIT_VIDEO)
            guard let display else { throw LabError(noDisplayMessage) }
            throw LabError("cannot open \(display.phrase) (\(display.nobodyAnswers)); start one, or "
                + headlessAdvice)
        }
    }

    /// An environment variable's value; nil when it is unset or empty.
    static func environment(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return String(cString: value)
    }

    /// Seconds as a person writes them: 3, not 3.0.
    static func seconds(_ value: Double) -> String { JSONText.number(value) }
}

/// The display SDL is told to use: the X display in DISPLAY, the Wayland one in WAYLAND_DISPLAY, or both.
struct DisplayName {
    var x11: String?
    var wayland: String?

    /// Nil when neither variable names a display.
    static func fromEnvironment() -> DisplayName? {
        let name = DisplayName(x11: DisplayProbe.environment("DISPLAY"),
                               wayland: DisplayProbe.environment("WAYLAND_DISPLAY"))
        return name.x11 == nil && name.wayland == nil ? nil : name
    }

    /// E.g. `the display ':42'`, `the Wayland display 'wayland-0'`.
    var phrase: String {
        switch (x11, wayland) {
        case let (x?, w?): return "the display '\(x)' or the Wayland display '\(w)'"
        case let (x?, nil): return "the display '\(x)'"
        case let (nil, w?): return "the Wayland display '\(w)'"
        case (nil, nil): return "the display"
        }
    }

    /// Why SDL fell back to an invisible driver.
    var nobodyAnswers: String {
        switch (x11, wayland) {
        case (_?, _?): return "neither an X server nor a Wayland compositor answers there"
        case (_?, nil): return "no X server answers there"
        default: return "no Wayland compositor answers there"
        }
    }
}

/// Ends the process with one line on standard error unless cancelled within its time. It runs on a thread of its
/// own, waiting on a pipe: cancelling closes the pipe's write end, which wakes the thread to end quietly.
private final class Watchdog {
    private let writeEnd: Int32

    /// Nil, and nothing watched, when the time is not positive or the thread cannot be started.
    init?(seconds: Double, message: String) {
        guard seconds > 0, seconds.isFinite else { return nil }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        writeEnd = ends[1]
        let context = WatchdogContext(readEnd: ends[0], milliseconds: Int32(min(seconds * 1000, 1e9).rounded()),
                                      line: Array((message + "\n").utf8))
        var thread = pthread_t()
        let pointer = Unmanaged.passRetained(context).toOpaque()
        guard pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<WatchdogContext>.fromOpaque(raw).takeRetainedValue().watch()
            return nil
        }, pointer) == 0 else {
            Unmanaged<WatchdogContext>.fromOpaque(pointer).release()
            close(ends[0])
            close(ends[1])
            return nil
        }
        pthread_detach(thread)
    }

    /// The watched call returned in time.
    func cancel() { close(writeEnd) }
}

/// What the watchdog thread needs, handed over whole when it starts.
private final class WatchdogContext {
    let readEnd: Int32
    let milliseconds: Int32
    let line: [UInt8]

    init(readEnd: Int32, milliseconds: Int32, line: [UInt8]) {
        self.readEnd = readEnd
        self.milliseconds = milliseconds
        self.line = line
    }

    /// Waits for the pipe to close; on timeout writes the line and ends the process at once. `_exit`, not `exit`:
    /// the main thread is stuck inside SDL holding its locks, and exit handlers (SDL's among them) could block on
    /// them or touch the half-made connection.
    func watch() {
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        while true {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let elapsed = Int(now.tv_sec - start.tv_sec) * 1000 + Int(now.tv_nsec - start.tv_nsec) / 1_000_000
            let remaining = Int32(max(0, Int(milliseconds) - elapsed))
            var watched = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watched, 1, remaining)
            if ready > 0 { break }
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { break }  // The pipe cannot be watched: let the call take its time.
            line.withUnsafeBytes { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
            _exit(1)
        }
        close(readEnd)
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// What happens when the X server goes away under an open window (it stopped, or the ssh connection carrying it
/// dropped): Xlib calls its fatal-error handler, whose default prints Xlib's own message and exits at once,
/// leaving recordings as temporaries. Installed here, the handler runs `finish` (the frame loop's outputs,
/// the video with the frames it has), prints one line naming the display and exits with status 1.
///
/// Xlib is reached through the library SDL already loaded, found by name: RefreshLab does not link it itself, and
/// under a Wayland compositor there is nothing to install.
enum LostDisplay {
    /// Installs `finish` as the X server's fatal-error handler; does nothing when Xlib is not loaded.
    static func install(display: String, finish: @escaping () -> Void) {
        guard let xlib = dlopen("libX11.so.6", RTLD_NOW | RTLD_NOLOAD),
              let symbol = dlsym(xlib, "XSetIOErrorHandler") else { return }
        typealias FatalErrorHandler = @convention(c) (OpaquePointer?) -> Int32
        typealias SetFatalErrorHandler = @convention(c) (FatalErrorHandler?) -> FatalErrorHandler?
        lostDisplayName = display
        lostDisplayFinish = finish
        let setHandler = unsafeBitCast(symbol, to: SetFatalErrorHandler.self)
        _ = setHandler { _ in LostDisplay.end() }
    }

    /// Finishes the outputs once (Xlib may report again while they finish), then ends the process.
    private static func end() -> Never {
        if let finish = lostDisplayFinish {
            lostDisplayFinish = nil
            finish()
        }
        let line = "refreshlab: lost the display '\(lostDisplayName)' (its X server closed the connection); "
            + "the recordings under way were saved with what they had\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        exit(1)
    }
}

// Set once on the main thread before the handler can run; read by the handler on the thread that called Xlib.
private nonisolated(unsafe) var lostDisplayName = ""
private nonisolated(unsafe) var lostDisplayFinish: (() -> Void)?

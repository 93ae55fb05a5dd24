#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster
import Synchronization

/// Where a run's frames go, one canvas at a time.
public protocol FrameSink: AnyObject {
    /// Takes frame `index` (from 0) as it is in `canvas` now.
    func write(_ canvas: Canvas, frame index: Int) throws
    /// Finishes the output; nothing more may be written.
    func finish() throws
}

/// Writes frames as a PNG sequence, `frame-0000.png`, `frame-0001.png`, … in a directory created if missing.
/// It needs nothing but the program itself, so it always works.
public final class PNGSequence: FrameSink {
    public let directory: String

    public init(directory: String) throws {
        self.directory = directory
        try makeDirectory(directory)
    }

    /// The path of frame `index`'s PNG (four digits at least).
    public func path(of index: Int) -> String { PNGSequence.path(of: index, in: directory) }

    /// The path of frame `index`'s PNG in `directory`.
    public static func path(of index: Int, in directory: String) -> String {
        let digits = String(index)
        return directory + "/frame-" + String(repeating: "0", count: Swift.max(0, 4 - digits.count)) + digits + ".png"
    }

    public func write(_ canvas: Canvas, frame index: Int) throws {
        do {
            try PNG.write(canvas, to: path(of: index))
        } catch {
            throw LabError("\(error); check that the disk has room and '\(directory)' is writable")
        }
    }

    public func finish() throws {}
}

/// Records frames into a GIF or an MP4 by piping raw pixels into ffmpeg, an optional external program.
///
/// The canvas's pixels (premultiplied `0xAARRGGBB`, opaque in a phone frame, so BGRA bytes in memory) go to
/// ffmpeg's standard input unchanged. An MP4 keeps every frame at the run's rate, in H.264 and yuv420p so that every
/// player opens it. A GIF can only say how long a frame lasts in whole hundredths of a second, and players stretch
/// one hundredth to ten, so 60 fps cannot play right: a GIF is recorded at 50 fps (every frame two hundredths), with
/// a palette made from its own frames.
public final class FFmpegCapture: FrameSink {
    public enum Format: String, Sendable {
        case gif, mp4
    }

    public let output: String
    public let format: Format
    private let process: FFmpegProcess

    /// The formats a capture can be, by the output's extension; nil for any other.
    public static func format(of output: String) -> Format? {
        guard let dot = output.lastIndex(of: "."), !output[dot...].contains("/") else { return nil }
        return Format(rawValue: output[output.index(after: dot)...].lowercased())
    }

    /// The first executable file named `name` in the `:`-separated directories of `searchPath`.
    public static func findExecutable(_ name: String, searchPath: String?) -> String? {
        guard let searchPath else { return nil }
        for directory in searchPath.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = directory + "/" + name
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    /// The `PATH` of this process.
    public static var processSearchPath: String? { getenv("PATH").map { String(cString: $0) } }

    /// The frame rate of a GIF made from frames at `frameRate`: the fastest whose frames last whole hundredths of
    /// a second, at least two (players slow down shorter ones), and no faster than the frames come.
    public static func gifFrameRate(for frameRate: Double) -> Double {
        100 / Swift.max(2, (100 / frameRate).rounded(.up))
    }

    /// Starts ffmpeg writing `output` from frames of `width × height` pixels that come at `frameRate`.
    ///
    /// `gifScale` sizes a GIF against the frames (never larger): a run passes one pixel per point, since a GIF at
    /// the phone's full pixels is several times bigger for little gain. An MP4 always keeps every pixel.
    ///
    /// - Throws: `LabError` when the output's extension is neither `.gif` nor `.mp4`, when ffmpeg is not on the
    ///   search path (saying how to install it, and that `--frames DIR` works without it), or when it cannot start.
    public init(output: String, width: Int, height: Int, frameRate: Double = simulatedFrameRate,
                gifScale: Double = 1, searchPath: String? = FFmpegCapture.processSearchPath) throws {
        guard let format = FFmpegCapture.format(of: output) else {
            throw LabError("--capture '\(output)': the capture is a .gif or an .mp4 file; "
                + "for a PNG sequence use --frames DIR")
        }
        let ffmpeg = try FFmpegProcess.locate(searchPath: searchPath, for: "--capture '\(output)'",
                                              otherwise: ", or write PNG frames with --frames DIR, which needs nothing else")
        // The capture's folder is made as --frames makes its own, so both outputs behave alike.
        if let slash = output.lastIndex(of: "/"), slash != output.startIndex {
            try makeDirectory(String(output[..<slash]))
        }
        self.output = output
        self.format = format
        var arguments = FFmpegProcess.rawInput(ffmpeg: ffmpeg, width: width, height: height, frameRate: frameRate)
        switch format {
        case .gif:
            arguments += ["-vf", FFmpegCapture.gifFilter(width: width, height: height, frameRate: frameRate,
                                                         scale: gifScale),
                          "-loop", "0"]
        case .mp4:
            arguments += FFmpegProcess.h264(width: width, height: height)
        }
        arguments.append(output)
        process = try FFmpegProcess(arguments: arguments, frameBytes: width * height * 4)
    }

    /// The GIF's filter graph: drop frames to the GIF's rate, shrink, then one palette for the whole clip.
    ///
    /// The palette counts only the pixels that change (`stats_mode=diff`), so the moving parts get the colours;
    /// each frame is quantized only where it changed (`diff_mode=rectangle`), so still parts stay still and the
    /// encoder leaves them out. 64 colours (six-bit codes) cover the list's greys, text and avatars and make scrolling
    /// frames a third smaller than 256. The ordered (Bayer) dither is the same in every frame, so it does not
    /// shimmer, and it is faint at scale 5.
    static func gifFilter(width: Int, height: Int, frameRate: Double, scale: Double) -> String {
        var filter = "fps=" + String(gifFrameRate(for: frameRate)) + ","
        let scale = Swift.min(1, scale)
        if scale < 1 {
            let w = Swift.max(1, Int((Double(width) * scale).rounded()))
            let h = Swift.max(1, Int((Double(height) * scale).rounded()))
            filter += "scale=\(w):\(h):flags=area,"
        }
        return filter + "split[a][b];[a]palettegen=max_colors=64:stats_mode=diff[p];"
            + "[b][p]paletteuse=dither=bayer:bayer_scale=5:diff_mode=rectangle"
    }

    public func write(_ canvas: Canvas, frame index: Int) throws {
        if !process.write(canvas.pixels, count: canvas.pixelCount) {
            throw LabError("ffmpeg stopped taking frames at frame \(index) while writing '\(output)'; "
                + "its message above says why")
        }
    }

    /// Closes ffmpeg's input and waits for it to finish the file.
    public func finish() throws {
        try process.finish(writing: output)
    }
}

/// A running ffmpeg reading raw frames on its standard input: what captures and recordings share.
final class FFmpegProcess {
    /// The write end of ffmpeg's standard input; -1 once closed.
    private var input: Int32
    private let child: pid_t
    private static let spawning = Mutex(())

    /// The path of ffmpeg on `searchPath`.
    ///
    /// - Throws: `LabError` saying that `what` needs ffmpeg and how to install it, then `otherwise`.
    static func locate(searchPath: String?, for what: String, otherwise: String = "") throws -> String {
        guard let ffmpeg = FFmpegCapture.findExecutable("ffmpeg", searchPath: searchPath) else {
            throw LabError("\(what) needs ffmpeg, which is not installed (not found on PATH); "
                + "install it (on Debian: apt-get install ffmpeg)" + otherwise)
        }
        return ffmpeg
    }

    /// ffmpeg's arguments up to its input: raw BGRA frames of `width × height` at `frameRate` on standard input.
    static func rawInput(ffmpeg: String, width: Int, height: Int, frameRate: Double) -> [String] {
        [ffmpeg, "-hide_banner", "-loglevel", "error", "-y",
         "-f", "rawvideo", "-pix_fmt", "bgra", "-s", "\(width)x\(height)", "-framerate", String(frameRate), "-i", "-"]
    }

    /// H.264 in yuv420p, which every player opens. yuv420p needs an even size, so an odd last column or row is
    /// cropped.
    static func h264(width: Int, height: Int, extra: [String] = []) -> [String] {
        var arguments: [String] = []
        if width % 2 != 0 || height % 2 != 0 {
            arguments += ["-vf", "crop=\(width / 2 * 2):\(height / 2 * 2):0:0"]
        }
        return arguments + ["-c:v", "libx264"] + extra + ["-pix_fmt", "yuv420p", "-movflags", "+faststart"]
    }

    /// Starts ffmpeg with `arguments` (the first is its path), its standard input a pipe from this process, made
    /// large enough for a frame of `frameBytes` where the system allows.
    init(arguments: [String], frameBytes: Int) throws {
        // A finished or failed ffmpeg must not kill the program with SIGPIPE: writes then fail and say so instead.
        signal(SIGPIPE, SIG_IGN)
        var fds: [Int32] = [0, 0]
        var pid: pid_t = 0
        let status: Int32 = try FFmpegProcess.spawning.withLock { _ in
            // Both ends close on exec, so another ffmpeg started later does not hold this input open and keep this
            // one from seeing its end; the child's standard input is a copy without the flag. The lock keeps another
            // ffmpeg from starting between the pipe and the flags.
            guard pipe(&fds) == 0 else {
                throw LabError("cannot start ffmpeg: \(String(cString: strerror(errno)))")
            }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
            var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
            argv.append(nil)
            defer { for pointer in argv { free(pointer) } }
            return posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        }
        close(fds[0])
        FFmpegProcess.enlarge(pipe: fds[1], toHold: frameBytes)
        guard status == 0 else {
            close(fds[1])
            throw LabError("cannot start ffmpeg ('\(arguments[0])'): \(String(cString: strerror(status)))")
        }
        child = pid
        input = fds[1]
    }

    /// Grows the pipe `fd` towards `bytes`, as far as `/proc/sys/fs/pipe-max-size` lets (1 MiB by default), where
    /// the system has that (Linux). ffmpeg then takes a frame in a few large reads rather than many of the default
    /// 64 KiB, which at 750×1334 cut its CPU time by about a fifth and let it work off a backlog a third sooner.
    /// On failure the pipe keeps its size.
    private static func enlarge(pipe fd: Int32, toHold bytes: Int) {
        #if os(Linux)
        let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ in <linux/fcntl.h>, which Glibc does not bring into Swift
        guard let text = try? readFileBytes("/proc/sys/fs/pipe-max-size"),
              let limit = Int(String(decoding: text, as: UTF8.self).filter { !$0.isWhitespace }) else { return }
        let size = Swift.min(bytes, limit)
        if size > 64 * 1024 { _ = fcntl(fd, setPipeSize, Int32(size)) }
        #endif
    }

    /// Sends `count` pixels; false when ffmpeg no longer reads (it exited) or the input is closed.
    func write(_ pixels: UnsafePointer<UInt32>, count: Int) -> Bool {
        guard input >= 0 else { return false }
        var bytes = UnsafeRawPointer(pixels)
        var left = count * 4
        while left > 0 {
            let n = Glibc.write(input, bytes, left)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            bytes += n
            left -= n
        }
        return true
    }

    /// Closes ffmpeg's input and waits for it to finish `output`.
    ///
    /// - Throws: `LabError` when ffmpeg failed; its own message is already on standard error.
    func finish(writing output: String) throws {
        guard input >= 0 else { return }
        close(input)
        input = -1
        let status = waitForExit()
        let exited = (status & 0x7F) == 0
        let code = (status >> 8) & 0xFF
        guard exited && code == 0 else {
            throw LabError("ffmpeg could not write '\(output)' (exit status \(code)); its message above says why")
        }
    }

    private func waitForExit() -> Int32 {
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    deinit {
        if input >= 0 {
            close(input)
            _ = waitForExit()
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster

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
/// ffmpeg's standard input unchanged; ffmpeg encodes at 60 frames per second. A GIF gets a palette made from its
/// own frames (two passes inside ffmpeg), an MP4 H.264 in yuv420p so that every player opens it.
public final class FFmpegCapture: FrameSink {
    public enum Format: String, Sendable {
        case gif, mp4
    }

    public let output: String
    public let format: Format
    private var pipe: UnsafeMutablePointer<FILE>?
    private var child: pid_t = 0

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

    /// Starts ffmpeg writing `output` from frames of `width × height` pixels.
    ///
    /// - Throws: `LabError` when the output's extension is neither `.gif` nor `.mp4`, when ffmpeg is not on the
    ///   search path (saying how to install it, and that `--frames DIR` works without it), or when it cannot start.
    public init(output: String, width: Int, height: Int, frameRate: Double = simulatedFrameRate,
                searchPath: String? = FFmpegCapture.processSearchPath) throws {
        guard let format = FFmpegCapture.format(of: output) else {
            throw LabError("--capture '\(output)': the capture is a .gif or an .mp4 file; "
                + "for a PNG sequence use --frames DIR")
        }
        guard let ffmpeg = FFmpegCapture.findExecutable("ffmpeg", searchPath: searchPath) else {
            throw LabError("--capture '\(output)' needs ffmpeg, which is not installed (not found on PATH); "
                + "install it (on Debian: apt-get install ffmpeg), or write PNG frames with --frames DIR, "
                + "which needs nothing else")
        }
        // The capture's folder is made as --frames makes its own, so both outputs behave alike.
        if let slash = output.lastIndex(of: "/"), slash != output.startIndex {
            try makeDirectory(String(output[..<slash]))
        }
        self.output = output
        self.format = format
        var arguments = [ffmpeg, "-hide_banner", "-loglevel", "error", "-y",
                         "-f", "rawvideo", "-pix_fmt", "bgra", "-s", "\(width)x\(height)",
                         "-framerate", String(frameRate), "-i", "-"]
        switch format {
        case .gif:
            arguments += ["-vf", "split[a][b];[a]palettegen[p];[b][p]paletteuse", "-loop", "0"]
        case .mp4:
            arguments += ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]
        }
        arguments.append(output)
        try start(arguments)
    }

    private func start(_ arguments: [String]) throws {
        // A finished or failed ffmpeg must not kill the run with SIGPIPE: writes then fail and say so instead.
        signal(SIGPIPE, SIG_IGN)
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else {
            throw LabError("cannot start ffmpeg: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addclose(&actions, fds[1])
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        close(fds[0])
        guard status == 0 else {
            close(fds[1])
            throw LabError("cannot start ffmpeg ('\(arguments[0])'): \(String(cString: strerror(status)))")
        }
        child = pid
        pipe = fdopen(fds[1], "w")
    }

    public func write(_ canvas: Canvas, frame index: Int) throws {
        guard let pipe else { return }
        let count = canvas.pixelCount
        if fwrite(canvas.pixels, 4, count, pipe) != count {
            throw LabError("ffmpeg stopped taking frames at frame \(index) while writing '\(output)'; "
                + "its message above says why")
        }
    }

    /// Closes ffmpeg's input and waits for it to finish the file.
    public func finish() throws {
        guard let handle = pipe else { return }
        pipe = nil
        fclose(handle)
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        let exited = (status & 0x7F) == 0
        let code = (status >> 8) & 0xFF
        guard exited && code == 0 else {
            throw LabError("ffmpeg could not write '\(output)' (exit status \(code)); its message above says why")
        }
    }

    deinit {
        if let handle = pipe {
            fclose(handle)
            var status: Int32 = 0
            waitpid(child, &status, 0)
        }
    }
}

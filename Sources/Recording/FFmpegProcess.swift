#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Motion
import Raster
import Synchronization
import UserFiles

/// A running ffmpeg reading raw frames on its standard input and writing one output, whole or not at all: what
/// captures and recordings share.
///
/// - ffmpeg writes the output's temporary (see `OutputFile`; a device is written in place), and the output is
///   renamed into place only when ffmpeg exited with status 0, said nothing (it runs at `-loglevel error` with
///   `-xerror`, so that a failure to write the file's end is an error, not a message followed by status 0), and
///   the file holds the frames expected: counted by ffprobe where it is installed and the output is a file, else
///   by ffmpeg's own progress report. Otherwise the temporary is removed and the error says why, in ffmpeg's
///   words where it gave some.
/// - ffmpeg runs in a process group of its own, so that a terminal's Ctrl-C reaches only this program, which then
///   finishes ffmpeg by closing its input and waits for it. On a second signal (see
///   `Termination.install`) every ffmpeg still running is stopped and its temporary removed.
final class FFmpegProcess {
    let output: OutputFile
    /// Frames sent whole so far.
    private(set) var framesSent = 0
    /// The write end of ffmpeg's standard input; -1 once closed.
    private var input: Int32
    private let child: pid_t
    /// What ffmpeg writes on its standard error, and its progress report (`-progress pipe:3`).
    private let messages: UnsafeMutablePointer<FILE>
    private let progress: UnsafeMutablePointer<FILE>
    /// The frames the output should hold for a number of frames sent (fewer in a GIF, at its own rate).
    private let outputFrames: (Int) -> Int
    private let searchPath: String?
    /// True once ffmpeg has been waited for.
    private var ended = false
    /// Why the output is not written, once that is known.
    private var failure: LabError?
    /// True once ffmpeg was stopped for taking no bytes for `stallLimit`.
    private var stalled = false

    /// How long ffmpeg may leave a frame unread before it is taken for hung and stopped: far longer than any
    /// encoder's pause (a GIF's palette pass reads all its input first), short enough that a run does not hang.
    nonisolated(unsafe) static var stallLimit = 10.0

    private static let spawning = Mutex(())
    /// Every ffmpeg running, with its output and the temporary it writes (nil in place): what a second signal
    /// stops and removes.
    private static let running = Mutex<[(pid: pid_t, path: String, temporary: String?)]>([])
    /// Registers `stopAll` with the termination watcher, once.
    private static let stopsOnSecondSignal: Void = Termination.addStopper { FFmpegProcess.stopAll() }

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

    /// ffmpeg's arguments up to its input: raw BGRA frames of `width × height` at `frameRate` on standard input,
    /// errors only (and every error fatal), progress to descriptor 3.
    static func rawInput(ffmpeg: String, width: Int, height: Int, frameRate: Double) -> [String] {
        [ffmpeg, "-hide_banner", "-nostdin", "-loglevel", "error", "-xerror", "-progress", "pipe:3", "-y",
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

    /// Starts ffmpeg with `arguments` (the first is its path; they end with the output's format, `-f NAME`)
    /// writing `output`, its standard input a pipe from this process, made large enough for a frame of
    /// `frameBytes` where the system allows. `searchPath` is where ffprobe is looked for.
    ///
    /// - Throws: `LabError` when the output cannot be written or ffmpeg cannot start.
    init(arguments: [String], output path: String, frameBytes: Int, searchPath: String?,
         outputFrames: @escaping (Int) -> Int = { $0 }) throws {
        // A finished or failed ffmpeg must not kill the program with SIGPIPE: writes then fail and say so instead.
        signal(SIGPIPE, SIG_IGN)
        _ = FFmpegProcess.stopsOnSecondSignal
        do {
            output = try OutputFile(path: path, open: false)
        } catch {
            throw LabError("\(error); choose a folder you can write to")
        }
        // The temporary is made now, before ffmpeg opens it (after its first frame): a name chosen for being free
        // (`OutputFolder.newPath`, which looks for the temporary too) is then taken at once, and a second
        // recording begun in the same second gets another.
        if !output.isInPlace {
            let made = FileName.withBytes(output.writingPath) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
            guard made >= 0 else {
                throw LabError("cannot write '\(output.writingPath)': \(String(cString: strerror(errno))); "
                    + "choose a folder you can write to")
            }
            close(made)
        }
        guard let messages = FFmpegProcess.temporaryFile(), let progress = FFmpegProcess.temporaryFile() else {
            throw LabError("cannot start ffmpeg: no temporary file for its messages: "
                + String(cString: strerror(errno)))
        }
        self.messages = messages
        self.progress = progress
        self.outputFrames = outputFrames
        self.searchPath = searchPath
        var fds: [Int32] = [-1, -1]
        let writingPath = output.writingPath
        let spawned: Result<pid_t, LabError> = FFmpegProcess.spawning.withLock { _ in
            // Every descriptor made here closes on exec, so another ffmpeg started later does not hold this one's
            // input open and keep it from seeing its end; the child gets copies without the flag. The lock keeps
            // another ffmpeg from starting between the pipe and its flags.
            guard pipe(&fds) == 0 else {
                return .failure(LabError("cannot start ffmpeg: \(String(cString: strerror(errno)))"))
            }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            return Result {
                try FFmpegProcess.spawn(arguments + [writingPath],
                                        descriptors: [fds[0], 1, fileno(messages), fileno(progress)])
            }.mapError { $0 as? LabError ?? LabError("\($0)") }
        }
        close(fds[0])
        let pid: pid_t
        switch spawned {
        case .success(let started):
            pid = started
        case .failure(let error):
            close(fds[1])
            fclose(messages)
            fclose(progress)
            throw error
        }
        FFmpegProcess.enlarge(pipe: fds[1], toHold: frameBytes)
        // Writes that would wait return at once, so that `write` can give up on an ffmpeg that stopped reading.
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        child = pid
        input = fds[1]
        FFmpegProcess.running.withLock {
            $0.append((pid, path, output.isInPlace ? nil : writingPath))
        }
    }

    /// A temporary file, already removed from its folder, that closes on exec (a child gets it as a copy).
    private static func temporaryFile() -> UnsafeMutablePointer<FILE>? {
        guard let file = tmpfile() else { return nil }
        _ = fcntl(fileno(file), F_SETFD, FD_CLOEXEC)
        return file
    }

    /// Starts `arguments` (the first is the program's path) in a process group of its own, with `descriptors[i]`
    /// as its descriptor `i`; returns its pid.
    ///
    /// - Throws: `LabError` when it cannot start.
    static func spawn(_ arguments: [String], descriptors: [Int32]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, fd) in descriptors.enumerated() where fd != target {
            posix_spawn_file_actions_adddup2(&actions, fd, Int32(target))
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard status == 0 else {
            throw LabError("cannot start '\(arguments[0])': \(String(cString: strerror(status)))")
        }
        return pid
    }

    /// Grows the pipe `fd` towards `bytes`, as far as `/proc/sys/fs/pipe-max-size` lets (1 MiB by default), where
    /// the system has that (Linux). ffmpeg then takes a frame in a few large reads rather than many of the default
    /// 64 KiB, which at 750×1334 cut its CPU time by about a fifth and let it work off a backlog a third sooner.
    /// On failure the pipe keeps its size.
    private static func enlarge(pipe fd: Int32, toHold bytes: Int) {
        #if os(Linux)
        let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ in <linux/fcntl.h>, which Glibc does not bring into Swift
        guard let text = try? UserFile.read("/proc/sys/fs/pipe-max-size", kind: "pipe size", limit: 64),
              let limit = Int(String(decoding: text, as: UTF8.self).filter { !$0.isWhitespace }) else { return }
        let size = Swift.min(bytes, limit)
        if size > 64 * 1024 { _ = fcntl(fd, setPipeSize, Int32(size)) }
        #endif
    }

    /// Sends a frame of `count` pixels; false when ffmpeg no longer reads (it exited, or took nothing for
    /// `stallLimit` and was stopped) or the input is closed.
    func write(_ pixels: UnsafePointer<UInt32>, count: Int) -> Bool {
        guard input >= 0 else { return false }
        var bytes = UnsafeRawPointer(pixels)
        var left = count * 4
        while left > 0 {
            let n = Glibc.write(input, bytes, left)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN && waitUntilReading() { continue }
                return false
            }
            bytes += n
            left -= n
        }
        framesSent += 1
        return true
    }

    /// Waits until ffmpeg can take more bytes; after `stallLimit` without, stops it (its whole process group) and
    /// returns false.
    private func waitUntilReading() -> Bool {
        var descriptor = pollfd(fd: input, events: Int16(POLLOUT), revents: 0)
        let deadline = MonotonicClock.seconds() + FFmpegProcess.stallLimit
        while true {
            let left = deadline - MonotonicClock.seconds()
            if left <= 0 { break }
            let ready = poll(&descriptor, 1, Int32((left * 1000).rounded(.up)))
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return false }
        }
        stalled = true
        kill(-child, SIGKILL)
        return false
    }

    /// Closes ffmpeg's input, waits for it to finish the output, checks it and renames it into place.
    ///
    /// - Throws: `LabError` saying why the output is not written (it is then removed).
    func finish() throws {
        if !ended {
            if let problem = end() {
                failure = LabError("'\(output.path)' is not written: \(problem)" + removal)
            } else {
                do { try output.commit() } catch { failure = LabError("\(error); choose a folder you can write to") }
            }
        }
        if let failure { throw failure }
    }

    /// The error for ffmpeg taking no more frames while `what`: ffmpeg is waited for, its output removed, and
    /// `finish` throws the same.
    func stoppedTakingFrames(while what: String) -> LabError {
        if !ended {
            let problem = end()
            output.abandon()
            failure = LabError("ffmpeg stopped taking frames after \(framesSent) frames while \(what): "
                + (problem ?? "it gave no reason") + removal)
        }
        return failure ?? LabError("ffmpeg stopped taking frames while \(what)")
    }

    /// Closes ffmpeg's input, waits for it and removes its output, whatever it holds.
    func discard() {
        if !ended { _ = end() }
        output.abandon()
    }

    /// What becomes of the output after a failure.
    private var removal: String {
        output.isInPlace ? "; it was written in place and is incomplete" : "; the partial file is removed"
    }

    /// Closes ffmpeg's input and waits for it; returns why the output is not whole (having removed it), or nil.
    private func end() -> String? {
        ended = true
        close(input)
        input = -1
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        // Killed by a second signal's watcher, which removes the output, says so and exits the process.
        if status & 0x7F == SIGKILL { Termination.waitIfStoppingAtOnce() }
        let child = child
        FFmpegProcess.running.withLock { $0.removeAll { $0.pid == child } }
        defer {
            fclose(messages)
            fclose(progress)
        }
        let problem = check(status: status)
        if problem != nil { output.abandon() }
        return problem
    }

    /// Why an ffmpeg that ended with `status` did not write its output whole, or nil.
    private func check(status: Int32) -> String? {
        let said = FFmpegProcess.lastLines(FFmpegProcess.text(of: messages))
        if stalled {
            return "ffmpeg read nothing for \(JSONText.number(FFmpegProcess.stallLimit)) s and was stopped"
                + (said.isEmpty ? " (it said nothing)" : "; it said: " + said)
        }
        if status & 0x7F != 0 {
            return "ffmpeg was ended by signal \(status & 0x7F)" + (said.isEmpty ? "" : ": " + said)
        }
        let code = (status >> 8) & 0xFF
        if code != 0 { return "ffmpeg failed (exit status \(code))" + (said.isEmpty ? "" : ": " + said) }
        if !said.isEmpty { return "ffmpeg reported an error: " + said }
        let expected = outputFrames(framesSent)
        if expected == 0 { return "no frame came before it ended" }
        if !output.isInPlace, let ffprobe = FFmpegCapture.findExecutable("ffprobe", searchPath: searchPath) {
            switch FFmpegProcess.countFrames(in: output.writingPath, ffprobe: ffprobe) {
            case .failure(let error): return "ffprobe cannot read what ffmpeg wrote: \(error.description)"
            case .success(let count) where count != expected:
                return "it holds \(count) frames of the \(expected) sent, by ffprobe's count"
            case .success: return nil
            }
        }
        let reported = FFmpegProcess.text(of: progress).split(separator: "\n").last { $0.hasPrefix("frame=") }
        let count = reported.flatMap { Int($0.dropFirst(6).filter { !$0.isWhitespace }) }
        return count == expected ? nil : "ffmpeg reports \(count ?? 0) frames written of the \(expected) sent"
    }

    /// The number of video packets (one per frame) in the file at `path`, by ffprobe.
    private static func countFrames(in path: String, ffprobe: String) -> Result<Int, LabError> {
        guard let out = temporaryFile(), let err = temporaryFile() else {
            return .failure(LabError("no temporary file: \(String(cString: strerror(errno)))"))
        }
        defer {
            fclose(out)
            fclose(err)
        }
        let nothing = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(nothing) }
        let pid: pid_t
        do {
            pid = try spawning.withLock { _ in
                try spawn([ffprobe, "-v", "error", "-count_packets", "-select_streams", "v:0",
                           "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", path],
                          descriptors: [nothing, fileno(out), fileno(err)])
            }
        } catch {
            return .failure(error as? LabError ?? LabError("\(error)"))
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let said = lastLines(text(of: err))
        guard status == 0, said.isEmpty, let count = Int(text(of: out).filter { !$0.isWhitespace }) else {
            return .failure(LabError(said.isEmpty ? "it found no video stream" : said))
        }
        return .success(count)
    }

    /// The whole of a temporary file another process wrote.
    private static func text(of file: UnsafeMutablePointer<FILE>) -> String {
        rewind(file)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The last few lines of a program's messages, on one line.
    private static func lastLines(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).suffix(3).joined(separator: "; ")
    }

    /// Stops every ffmpeg still running (its whole process group) and removes what it wrote: a second signal's
    /// way out.
    private static func stopAll() {
        for (pid, path, temporary) in running.withLock({ $0 }) {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            if let temporary { FileName.withBytes(temporary) { _ = unlink($0) } }
            FileLines.standardError("stopped ffmpeg before it finished '\(path)'"
                + (temporary == nil ? "" : "; the partial file is removed"))
        }
    }

    /// A process let go without `finish` is finished as it stands (checked, and renamed or removed).
    deinit {
        try? finish()
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster
import Synchronization
import UserFiles

/// Where a run's frames go, one canvas at a time.
public protocol FrameSink: AnyObject {
    /// Takes frame `index` (from 0) as it is in `canvas` now.
    func write(_ canvas: Canvas, frame index: Int) throws
    /// Finishes the output; nothing more may be written.
    func finish() throws
}

/// Writes frames as a PNG sequence, `frame-0000.png`, `frame-0001.png`, … in a directory created if missing.
/// It needs nothing but the program itself, so it always works.
///
/// The files are encoded on worker threads while the run goes on, and written in order (see `PNGWriterPool`: at
/// most the workers plus two frames wait in memory); a failure is reported by a later `write` or by `finish`.
public final class PNGSequence: FrameSink {
    public let directory: String
    private let writers: PNGWriterPool
    private var finished = false

    /// Makes the folder when missing. A folder holding frames of an earlier run is refused, so that a run never
    /// leaves another's later frames beside its own, unless `replacing`: then exactly those files (named as
    /// `isFrameName` says) are removed first, and nothing else in the folder is touched.
    ///
    /// - Throws: `LabError` naming the folder and what to do.
    /// `workers` encode the frames: one per processor (at most four) when not given.
    public init(directory: String, replacing: Bool = false, workers: Int? = nil) throws {
        self.directory = directory
        try makeDirectory(directory)
        let earlier = try PNGSequence.earlierFrames(in: directory)
        if !earlier.isEmpty && !replacing {
            throw LabError("--frames: '\(directory)' already holds \(earlier.count) frame"
                + (earlier.count == 1 ? "" : "s") + " of an earlier run (\(earlier[0]) …); add --replace-frames to "
                + "remove them first, or choose another folder")
        }
        for name in earlier where FileName.withBytes(directory + "/" + name, { unlink($0) }) != 0 {
            throw LabError("--frames: cannot remove the earlier frame '\(directory)/\(name)': "
                + String(cString: strerror(errno)))
        }
        // The workers start once the folder is known to be usable.
        writers = PNGWriterPool(workers: workers)
    }

    /// True for the names a sequence writes: `frame-` and four digits or more, then `.png`, or that with `.tmp`
    /// (a frame being written).
    public static func isFrameName(_ name: String) -> Bool {
        var rest = Substring(name)
        if rest.hasSuffix(".tmp") { rest = rest.dropLast(4) }
        guard rest.hasPrefix("frame-"), rest.hasSuffix(".png") else { return false }
        let digits = rest.dropFirst(6).dropLast(4)
        return digits.count >= 4 && digits.allSatisfy { $0 >= "0" && $0 <= "9" }
    }

    /// The frames of an earlier run in `directory` (regular files only), sorted.
    static func earlierFrames(in directory: String) throws -> [String] {
        guard let entries = folderEntries(directory) else {
            throw LabError("--frames: cannot read the folder '\(directory)': \(String(cString: strerror(errno)))")
        }
        return entries.filter { name in
            var info = stat()
            return isFrameName(name) && FileName.withBytes(directory + "/" + name, { lstat($0, &info) }) == 0
                && info.st_mode & S_IFMT == S_IFREG
        }.sorted()
    }

    /// The path of frame `index`'s PNG (four digits at least).
    public func path(of index: Int) -> String { PNGSequence.path(of: index, in: directory) }

    /// The path of frame `index`'s PNG in `directory`.
    public static func path(of index: Int, in directory: String) -> String {
        let digits = String(index)
        return directory + "/frame-" + String(repeating: "0", count: Swift.max(0, 4 - digits.count)) + digits + ".png"
    }

    /// Copies the frame for a worker to write; waits while `pendingFrameLimit` frames wait already.
    ///
    /// - Throws: `LabError` naming the file of an earlier frame that could not be written.
    public func write(_ canvas: Canvas, frame index: Int) throws {
        do {
            try writers.add(canvas, path: path(of: index))
        } catch {
            throw explained(error)
        }
    }

    /// Waits until every frame is written.
    ///
    /// - Throws: `LabError` naming the file that could not be written, unless `write` said it already.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        do {
            try writers.finish()
        } catch {
            throw explained(error)
        }
    }

    private func explained(_ error: any Error) -> LabError {
        LabError("\(error); check that the disk has room and '\(directory)' is writable")
    }

    /// A sequence let go without `finish` writes its frames all the same.
    deinit {
        try? finish()
    }
}

/// Records frames into a GIF or an MP4 by piping raw pixels into ffmpeg, an optional external program.
///
/// The canvas's pixels (premultiplied `0xAARRGGBB`, opaque in a phone frame, so BGRA bytes in memory) go to
/// ffmpeg's standard input unchanged. An MP4 keeps every frame at the run's rate, in H.264 and yuv420p so that every
/// player opens it. A GIF can only say how long a frame lasts in whole hundredths of a second, and players stretch
/// one hundredth to ten, so 60 fps cannot play right: a GIF is recorded at 50 fps (every frame two hundredths), with
/// a palette made from its own frames.
///
/// ffmpeg takes a frame only as fast as it encodes, so `write` copies the frame into a ring of `ringCapacity`
/// buffers, allocated once, and returns; a writer thread of the capture's own sends them to ffmpeg in order while the
/// run draws the next. Every frame is kept: when the ring is full, `write` waits for a slot. A failure is reported by a
/// later `write` or by `finish`.
///
/// The file appears only whole and checked, or not at all (see `FFmpegProcess`).
public final class FFmpegCapture: FrameSink {
    public enum Format: String, Sendable {
        case gif, mp4
    }

    /// Frames that may wait in memory: the one the writer sends, the newest (waiting for the next, as a recording's
    /// does), and one more; 12 MB at 750×1334, 45 MB at the 16 Pro Max's pixels.
    static let ringCapacity = 3

    public let output: String
    public let format: Format
    private let writer: VideoWriter
    private let thread: pthread_t
    /// Frames queued so far; each is one frame of the output's input.
    private var queued = 0
    private var finished = false

    /// The formats a capture can be, by the output's extension; nil for any other.
    public static func format(of output: String) -> Format? {
        guard let dot = output.lastIndex(of: "."), !output[dot...].contains("/") else { return nil }
        return Format(rawValue: output[output.index(after: dot)...].lowercased())
    }

    /// The first executable file named `name` in the `:`-separated directories of `searchPath`.
    static func findExecutable(_ name: String, searchPath: String?) -> String? {
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
    static func gifFrameRate(for frameRate: Double) -> Double {
        100 / Swift.max(2, (100 / frameRate).rounded(.up))
    }

    /// Starts ffmpeg writing `output` from frames of `width × height` pixels that come at `frameRate`.
    ///
    /// `gifScale` sizes a GIF against the frames (never larger): a run passes one pixel per point, since a GIF at
    /// the phone's full pixels is several times bigger for little gain. An MP4 always keeps every pixel.
    ///
    /// - Throws: `LabError` when the output's extension is neither `.gif` nor `.mp4`, when ffmpeg is not on the
    ///   search path (saying how to install it, and that `--frames DIR` works without it), when the output cannot
    ///   be written, or when ffmpeg cannot start.
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
        let outputFrames: (Int) -> Int = format == .mp4 ? { $0 }
            : { FFmpegCapture.gifFrameCount(sent: $0, frameRate: frameRate) }
        let process = try FFmpegProcess(arguments: arguments + ["-f", format.rawValue], output: output,
                                        frameBytes: width * height * 4, searchPath: searchPath,
                                        outputFrames: outputFrames)
        writer = VideoWriter(process: process, pixelCount: width * height, capacity: FFmpegCapture.ringCapacity,
                             output: output, activity: "writing '\(output)'", nothingSent: nil)
        do {
            thread = try writer.startThread()
        } catch {
            process.discard()
            throw error
        }
    }

    /// The frames a GIF holds when `sent` frames came at `frameRate`: ffmpeg's `fps` filter keeps the frame
    /// nearest each of the GIF's own times, halves rounded up, and at least one.
    static func gifFrameCount(sent: Int, frameRate: Double) -> Int {
        let frames = (Double(sent) * gifFrameRate(for: frameRate) / frameRate).rounded(.toNearestOrAwayFromZero)
        return sent == 0 ? 0 : Swift.max(1, Int(frames))
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

    /// Copies the frame for the writer thread, waiting while the ring is full.
    ///
    /// - Throws: `LabError` when ffmpeg stopped taking frames, in its words where it gave some, or when the frame is
    ///   not of the capture's size.
    public func write(_ canvas: Canvas, frame index: Int) throws {
        precondition(!finished, "a frame written to a finished capture")
        guard canvas.pixelCount == writer.pixelCount else {
            throw LabError("a \(canvas.width)×\(canvas.height) frame cannot go into '\(output)', whose frames "
                + "are of another size")
        }
        guard !writer.hasFailed, let slot = writer.waitForFreeSlot() else {
            throw writer.process.stoppedTakingFrames(while: writer.activity)
        }
        writer.slot(slot).update(from: canvas.pixels, count: canvas.pixelCount)
        writer.append(slot, at: queued)
        queued += 1
    }

    /// Lets the writer thread send what waits, then has ffmpeg finish the file and checks it.
    ///
    /// - Throws: `LabError` saying why the file is not written (it is then removed).
    public func finish() throws {
        if !finished {
            finished = true
            writer.end(at: queued)
            pthread_join(thread, nil)
        }
        if let failure = writer.outcome { throw failure }
    }

    /// A capture let go without `finish` is finished as it stands (checked, and renamed or removed).
    deinit {
        try? finish()
    }
}

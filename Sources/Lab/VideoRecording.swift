#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster

/// Records the window as an MP4 at a constant 60 fps in real time, as the iOS Simulator's Record Screen does.
///
/// The window presents frames when it likes: at the display's rate while something moves, none while nothing does.
/// The video keeps real time all the same: a frame presented at `t` is shown from video frame
/// `round((t − start) · 60)` on, where `start` is the first frame's time, and every video frame until the next one
/// repeats it. Of frames that land on the same video frame, the last is kept. The newest frame waits in a copy
/// (allocated once) until the next one says how long it lasts, so writing allocates nothing and never encodes a
/// frame twice over.
///
/// A gap is written when the frame after it comes, and a repeated frame costs about as much to encode as a new one,
/// so a host that sleeps while idle pays for the gap when it wakes (waking at the display rate while recording
/// spreads the cost). One gap is at most `maximumGap` video frames (10 minutes): a longer idle stretch is cut to
/// that, and everything after it comes that much earlier in the video, so a window left alone for hours does not
/// write hours of still frames at once.
public final class VideoRecording {
    /// The video's frame rate.
    public static let frameRate = 60.0
    /// The most video frames one gap between frames (or before `finish`) may take: 10 minutes.
    public static let maximumGap = 10 * 60 * 60

    public let output: String
    public let width: Int
    public let height: Int
    private let process: FFmpegProcess
    /// The newest frame, not yet written: it is shown from video frame `pendingIndex` until the next frame's.
    private let pending: UnsafeMutablePointer<UInt32>
    private var pendingIndex = 0
    /// The time of video frame 0; nil until the first frame.
    private var start: Double?
    private var finished = false
    /// `maximumGap`, smaller in tests.
    var gapLimit = VideoRecording.maximumGap

    /// The number of video frames written to ffmpeg so far (the pending frame is not among them).
    public private(set) var framesWritten = 0

    /// Starts ffmpeg recording `output` (H.264 in an MP4, whatever the name's extension) from frames of
    /// `width × height` pixels.
    ///
    /// - Throws: `LabError` when ffmpeg is not on the search path (saying what to install), the output's folder
    ///   cannot be made, or ffmpeg cannot start.
    public init(output: String, width: Int, height: Int,
                searchPath: String? = FFmpegCapture.processSearchPath) throws {
        precondition(width > 0 && height > 0, "a recording needs a positive size, not \(width)×\(height)")
        let ffmpeg = try FFmpegProcess.locate(searchPath: searchPath, for: "recording a video")
        if let slash = output.lastIndex(of: "/"), slash != output.startIndex {
            try makeDirectory(String(output[..<slash]))
        }
        self.output = output
        self.width = width
        self.height = height
        // A fast preset keeps encoding up with 60 fps at the phone's full pixels on two cores.
        process = try FFmpegProcess(
            arguments: FFmpegProcess.rawInput(ffmpeg: ffmpeg, width: width, height: height,
                                              frameRate: VideoRecording.frameRate)
                + FFmpegProcess.h264(width: width, height: height, extra: ["-preset", "veryfast", "-crf", "20"])
                + ["-f", "mp4", output])
        pending = .allocate(capacity: width * height)
        pending.initialize(repeating: 0, count: width * height)
    }

    deinit { pending.deallocate() }

    /// The video frame a frame presented at `time` starts at.
    private func index(at time: Double) -> Int {
        guard let start else { return 0 }
        // Clamped so that a wild time cannot overflow; any gap that long is cut anyway.
        let frames = ((time - start) * VideoRecording.frameRate).rounded()
        if frames.isNaN { return pendingIndex }
        return Int(Swift.min(Swift.max(frames, -1e12), 1e12))
    }

    /// Takes the frame in `canvas`, presented at `time` (seconds on any monotonic clock); the first call starts
    /// the video.
    ///
    /// Writes the previous frame for as many video frames as it lasted, which blocks while ffmpeg catches up.
    ///
    /// - Throws: `LabError` when ffmpeg stopped taking frames.
    public func write(_ canvas: Canvas, at time: Double) throws {
        precondition(canvas.width == width && canvas.height == height,
                     "a \(canvas.width)×\(canvas.height) frame in a \(width)×\(height) recording")
        guard !finished else { return }
        if start == nil {
            start = time
        } else {
            let index = index(at: time)
            if index > pendingIndex {
                try flush(until: index)
            }
        }
        pending.update(from: canvas.pixels, count: width * height)
    }

    /// Writes the pending frame from its index until video frame `end` (excluded), at most `maximumGap` frames,
    /// and makes `end` the next frame's index. A cut gap moves the start on by what was cut.
    private func flush(until end: Int) throws {
        var count = end - pendingIndex
        if count > gapLimit {
            start! += Double(count - gapLimit) / VideoRecording.frameRate
            count = gapLimit
        }
        for _ in 0..<count {
            guard process.write(pending, count: width * height) else {
                throw LabError("ffmpeg stopped taking frames after \(framesWritten) frames while recording "
                    + "'\(output)'; its message above says why")
            }
            framesWritten += 1
        }
        pendingIndex = framesWritten
    }

    /// Ends the video at `time`: the last frame lasts until then (at least one video frame), and ffmpeg finishes
    /// the file. Nothing more may be written.
    ///
    /// - Throws: `LabError` when no frame was written (the empty file is removed) or ffmpeg failed.
    public func finish(at time: Double) throws {
        guard !finished else { return }
        finished = true
        guard start != nil else {
            try? process.finish(writing: output)
            unlink(output)
            throw LabError("nothing was recorded to '\(output)': no frame came before the recording stopped")
        }
        do {
            try flush(until: Swift.max(index(at: time), pendingIndex + 1))
        } catch {
            try? process.finish(writing: output)
            throw error
        }
        try process.finish(writing: output)
    }
}

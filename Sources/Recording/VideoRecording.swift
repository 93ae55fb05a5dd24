#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster
import UserFiles

/// Records the window as an MP4 at a constant 60 fps in real time, as the iOS Simulator's Record Screen does.
///
/// The window presents frames when it likes: at the display's rate while something moves, none while nothing does.
/// The video keeps real time all the same: a frame presented at `t` is shown from video frame
/// `round((t − start) · 60)` on, where `start` is the first frame's time, and every video frame until the next one
/// repeats it. Of frames that land on the same video frame, the last is kept.
///
/// Handing a frame to ffmpeg blocks while it encodes, on a small machine for longer than a frame lasts, so `write`
/// only copies the frame into a small ring of buffers allocated once and returns; a writer thread of the
/// recording's own sends the frames to ffmpeg in order, each as many times as the video frames it lasts. When
/// ffmpeg falls so far behind that the ring is full, `write` drops the new frame rather than wait (the window must
/// not stutter): the video then repeats the frame before it where the dropped one would have been, and
/// `droppedFrames` counts it. A gap costs about as much to encode as new frames, so frames that come while the
/// writer works off a long one may be dropped: the window presents every refresh while recording, leaving no gaps.
///
/// One gap is at most `maximumGap` video frames (10 minutes): a longer idle stretch is cut to that, and everything
/// after it comes that much earlier in the video, so a window left alone for hours does not write hours of still
/// frames.
public final class VideoRecording {
    /// The video's frame rate.
    public static let frameRate = 60.0
    /// The most video frames one gap between frames (or before `finish`) may take: 10 minutes.
    static let maximumGap = 10 * 60 * 60
    /// Frames the ring holds: the newest (waiting for the next to say how long it lasts), the one being written,
    /// and two more to ride out a slow stretch of ffmpeg's (about 33 ms at 60 fps); 16 MB at the phone's pixels.
    static let ringCapacity = 4

    public let output: String
    public let width: Int
    public let height: Int
    private let writer: VideoWriter
    private var thread = pthread_t()
    private var threadRunning = false

    // The caller's side; only `write` and `finish` touch these.
    /// The time of video frame 0; nil until the first frame.
    private var start: Double?
    /// The newest frame's video frame index and slot in the ring.
    private var newestIndex = 0
    private var newestSlot = 0
    private var finished = false
    /// `maximumGap`, smaller in tests.
    var gapLimit = VideoRecording.maximumGap

    /// Frames `write` dropped because the ring was full (ffmpeg was behind).
    public private(set) var droppedFrames = 0

    /// The number of video frames written to ffmpeg so far.
    public var framesWritten: Int { writer.framesWritten }

    /// Starts ffmpeg recording `output` (H.264 in an MP4, whatever the name's extension) from frames of
    /// `width × height` pixels, and the thread that feeds it.
    ///
    /// - Throws: `LabError` when ffmpeg is not on the search path (saying what to install), the output's folder
    ///   cannot be made or written, or ffmpeg or the thread cannot start.
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
        // The fastest preset: the window competes with ffmpeg for the cores, and ultrafast takes about a third less
        // CPU than veryfast at the phone's full pixels, for files about four times larger (some 200 KB a second).
        let process = try FFmpegProcess(
            arguments: FFmpegProcess.rawInput(ffmpeg: ffmpeg, width: width, height: height,
                                              frameRate: VideoRecording.frameRate)
                + FFmpegProcess.h264(width: width, height: height, extra: ["-preset", "ultrafast", "-crf", "20"])
                + ["-f", "mp4"],
            output: output, frameBytes: width * height * 4, searchPath: searchPath)
        writer = VideoWriter(process: process, pixelCount: width * height, capacity: VideoRecording.ringCapacity,
                             output: output, activity: "recording '\(output)'",
                             nothingSent: "nothing was recorded to '\(output)': "
                                + "no frame came before the recording stopped")
        thread = try writer.startThread()
        threadRunning = true
    }

    /// A recording dropped without `end` or `finish` stops its thread; ffmpeg finishes the file with the frames
    /// written so far, checked as `finish` checks it. One dropped after `end` is waited for.
    deinit {
        if threadRunning {
            if !finished { writer.abandon() }
            pthread_join(thread, nil)
        }
    }

    /// The video frame a frame presented at `time` starts at.
    private func index(at time: Double) -> Int {
        guard let start else { return 0 }
        // Clamped so that a wild time cannot overflow; any gap that long is cut anyway.
        let frames = ((time - start) * VideoRecording.frameRate).rounded()
        if frames.isNaN { return newestIndex }
        return Int(Swift.min(Swift.max(frames, -1e12), 1e12))
    }

    /// Takes the frame in `canvas`, presented at `time` (seconds on any monotonic clock); the first call starts
    /// the video. Copies the frame and returns at once; the frame is dropped when the ring is full.
    ///
    /// - Throws: `LabError` when ffmpeg stopped taking frames, in its words where it gave some, or when the frame
    ///   is not of the video's size (a video's frames all have one size: the caller starts a new one for another).
    public func write(_ canvas: Canvas, at time: Double) throws {
        guard !finished else { return }
        guard canvas.width == width && canvas.height == height else {
            throw LabError("a \(canvas.width)×\(canvas.height) frame cannot go into the \(width)×\(height) video "
                + "'\(output)'; the video stops there")
        }
        try checkWriter()
        guard start != nil else {
            start = time
            try queue(canvas, at: 0)
            return
        }
        var index = index(at: time)
        guard index > newestIndex else {
            // Same video frame (or a time before it): the newest frame is replaced where it waits.
            writer.slot(newestSlot).update(from: canvas.pixels, count: canvas.pixelCount)
            return
        }
        let cut = Swift.max(0, index - newestIndex - gapLimit)
        index -= cut
        if try queue(canvas, at: index) {
            start! += Double(cut) / VideoRecording.frameRate
        }
    }

    /// Copies `canvas` into a free slot and queues it at video frame `index`; false when the ring is full.
    @discardableResult
    private func queue(_ canvas: Canvas, at index: Int) throws -> Bool {
        guard let slot = writer.freeSlot() else {
            droppedFrames += 1
            return false
        }
        writer.slot(slot).update(from: canvas.pixels, count: canvas.pixelCount)
        writer.append(slot, at: index)
        newestIndex = index
        newestSlot = slot
        return true
    }

    /// Throws why ffmpeg stopped taking frames, once the writer found that it did.
    private func checkWriter() throws {
        if writer.hasFailed { throw writer.process.stoppedTakingFrames(while: writer.activity) }
    }

    /// Waits until the writer thread has written every frame but the newest (tests use it to keep the ring from
    /// filling).
    func waitUntilWritten() { writer.waitUntilWritten() }

    /// Ends the video at `time` and returns at once: the last frame lasts until then (at least one video frame, at
    /// most a gap's limit), and the writer thread writes what the ring holds and has ffmpeg finish the file. On a
    /// machine where ffmpeg encodes slower than real time that takes as long as ffmpeg is behind, so the window
    /// goes on meanwhile; `isFinished` says when it is done and `finish` gives the outcome. Nothing more may be
    /// written.
    public func end(at time: Double) {
        guard !finished else { return }
        finished = true
        let end = Swift.min(Swift.max(index(at: time), newestIndex + 1), newestIndex + gapLimit)
        writer.end(at: end)
    }

    /// True once an ended video's file is finished (or has failed): `finish` then returns at once.
    public var isFinished: Bool { finished && writer.isComplete }

    /// Ends the video at `time` (see `end(at:)`; a video already ended keeps its end) and waits until ffmpeg has
    /// finished the file.
    ///
    /// - Throws: `LabError` when no frame was written or ffmpeg failed; the file is then removed.
    public func finish(at time: Double) throws {
        end(at: time)
        if threadRunning {
            pthread_join(thread, nil)
            threadRunning = false
        }
        if let failure = writer.outcome { throw failure }
    }
}

/// The ring of frames on their way to ffmpeg and the writer thread's loop, shared by a recording or a capture (on the
/// caller's thread) and its writer thread.
///
/// The frames queued are the `count` slots from `head` on (modulo the capacity), oldest first, their video frame
/// indices increasing. The rest are free. Under `lock`:
/// - The writer reads only the oldest slot, and only once a newer frame is queued or `endIndex` is set, which says
///   how many video frames it lasts; it frees the slot (moving `head` on) when it has written them.
/// - The caller fills free slots, and the newest one while nothing newer is queued and `endIndex` is not set: never
///   the slot the writer reads. It fills them outside the lock and queues them under it, so the writer sees the
///   pixels whole.
/// - Once the first frame is queued, `count` stays at least 1 until `endIndex` is set: the newest frame waits for
///   the next.
final class VideoWriter {
    let process: FFmpegProcess
    let pixelCount: Int
    let capacity: Int
    /// The video's path, as its messages name it.
    let output: String
    /// What the writer does, as its messages say it: "recording 'PATH'".
    let activity: String
    /// Why the file is not written when no frame came; nil to let ffmpeg's own check say it.
    private let nothingSent: String?
    /// `capacity` frames of `pixelCount` pixels, one after another; allocated once.
    private let pixels: UnsafeMutablePointer<UInt32>
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    /// Broadcast when a frame is queued or written, the end is set, the recording is abandoned or the writer fails.
    private let changed: UnsafeMutablePointer<pthread_cond_t>

    // Guarded by `lock`.
    private var indices: [Int]
    private var head = 0
    private var count = 0
    /// The video frame the last frame lasts until, set by `finish`.
    private var endIndex: Int?
    private var abandoned = false
    /// Set when ffmpeg stopped taking frames; the writer has then ended.
    private var failed = false
    private var written = 0
    /// Set once the file is finished after the end, with why it is not written (nil when it is).
    private var completed: LabError?? = .none

    init(process: FFmpegProcess, pixelCount: Int, capacity: Int, output: String, activity: String,
         nothingSent: String?) {
        self.process = process
        self.pixelCount = pixelCount
        self.capacity = capacity
        self.output = output
        self.activity = activity
        self.nothingSent = nothingSent
        pixels = .allocate(capacity: pixelCount * capacity)
        pixels.initialize(repeating: 0, count: pixelCount * capacity)
        indices = Array(repeating: 0, count: capacity)
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        changed = .allocate(capacity: 1)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pixels.deallocate()
        pthread_cond_destroy(changed)
        changed.deallocate()
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// The pixels of slot `slot`.
    func slot(_ slot: Int) -> UnsafeMutablePointer<UInt32> { pixels + slot * pixelCount }

    /// Video frames written to ffmpeg so far.
    var framesWritten: Int {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return written
    }

    /// True once ffmpeg stopped taking frames (the writer has then ended).
    var hasFailed: Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return failed
    }

    /// True once the file is finished after the end (or failed).
    var isComplete: Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return completed != nil
    }

    /// Why the finished file is not written; nil when it is, or before it is finished.
    var outcome: LabError? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return completed ?? nil
    }

    /// The slot after the newest, which stays free until the caller queues it; nil when the ring is full.
    func freeSlot() -> Int? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return count < capacity ? (head + count) % capacity : nil
    }

    /// The slot after the newest, waiting while the ring is full; nil once the writer failed.
    func waitForFreeSlot() -> Int? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        while count == capacity && !failed {
            pthread_cond_wait(changed, lock)
        }
        return failed ? nil : (head + count) % capacity
    }

    /// Starts the thread that writes the frames (`run`, then `complete`); the caller joins it.
    ///
    /// - Throws: `LabError` when the thread cannot start.
    func startThread() throws -> pthread_t {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        guard pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            let writer = Unmanaged<VideoWriter>.fromOpaque(raw).takeRetainedValue()
            writer.run()
            writer.complete()
            return nil
        }, context) == 0 else {
            Unmanaged<VideoWriter>.fromOpaque(context).release()
            throw LabError("cannot start the thread that writes '\(output)'")
        }
        return thread
    }

    /// Queues `slot` (the one `freeSlot` gave, now filled) at video frame `index`.
    func append(_ slot: Int, at index: Int) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        precondition(slot == (head + count) % capacity && count < capacity, "slot \(slot) is not the free one")
        indices[slot] = index
        count += 1
        pthread_cond_broadcast(changed)
    }

    /// Waits until every frame but the newest is written, or the writer failed.
    func waitUntilWritten() {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        while count > 1 && !failed {
            pthread_cond_wait(changed, lock)
        }
    }

    /// Lets the writer write the last frame until video frame `index` and end.
    func end(at index: Int) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        endIndex = index
        pthread_cond_broadcast(changed)
    }

    /// Makes the writer end after the video frame it is writing.
    func abandon() {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        abandoned = true
        pthread_cond_broadcast(changed)
    }

    /// The writer thread's last part, after `run`: waits for the end (a writer that failed waits too, so that only
    /// the caller touches ffmpeg until then), then has ffmpeg finish the file and keeps the outcome. An abandoned
    /// recording is left to ffmpeg as it stands.
    func complete() {
        pthread_mutex_lock(lock)
        while endIndex == nil && !abandoned { pthread_cond_wait(changed, lock) }
        let ended = !abandoned, failed = self.failed, written = self.written
        pthread_mutex_unlock(lock)
        guard ended else { return }
        var failure: LabError?
        if written == 0 && !failed, let nothingSent {
            process.discard()
            failure = LabError(nothingSent)
        } else if failed {
            failure = process.stoppedTakingFrames(while: activity)
        } else {
            do { try process.finish() } catch { failure = error as? LabError ?? LabError("\(error)") }
        }
        pthread_mutex_lock(lock)
        completed = .some(failure)
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
    }

    /// The writer thread: writes the oldest frame for every video frame until the next one's (or the end), frees
    /// it, and so on, until the end, a failure, or the recording is abandoned.
    func run() {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        while true {
            while count < 2 && endIndex == nil && !abandoned {
                pthread_cond_wait(changed, lock)
            }
            guard count > 0, !abandoned else { return }
            let from = indices[head]
            let until = count > 1 ? indices[(head + 1) % capacity] : Swift.max(endIndex!, from + 1)
            let frame = slot(head)
            for _ in from..<until {
                pthread_mutex_unlock(lock)
                let sent = process.write(frame, count: pixelCount)
                pthread_mutex_lock(lock)
                guard sent else {
                    failed = true
                    pthread_cond_broadcast(changed)
                    return
                }
                written += 1
                if abandoned { return }
            }
            head = (head + 1) % capacity
            count -= 1
            pthread_cond_broadcast(changed)
        }
    }
}

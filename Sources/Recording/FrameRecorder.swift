#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster
import UserFiles

/// The phases of a frame, in the order a frame runs them (docs/architecture.md, "One frame").
public enum FramePhase: Int, CaseIterable, Sendable {
    /// Events turned into touches and commands.
    case input
    /// Physics, the refresh control and the layers' animations stepped to the frame's time.
    case update
    /// The list, header, footer and overlays drawn into the canvas.
    case draw
    /// The canvas copied into the window's texture.
    case upload
    /// The texture presented (with vsync, mostly waiting: little CPU).
    case present
    /// Files a run writes from the frame (PNG frames, a capture, a screenshot, the trace): outside the frame's
    /// budget, since the phone does not write files.
    case output

    /// The phases a frame's budget covers: all but `output`.
    public static let budgeted: [FramePhase] = [.input, .update, .draw, .upload, .present]

    public var name: String {
        switch self {
        case .input: "input"
        case .update: "update"
        case .draw: "draw"
        case .upload: "upload"
        case .present: "present"
        case .output: "output"
        }
    }
}

/// One frame's timing: when it began on the frame clock, the interval since the previous frame, and the CPU time
/// of each phase, all in seconds.
public struct FrameSample: Equatable, Sendable {
    /// The frame's number since the recorder was made, from 0.
    public var index = 0
    /// The frame clock's time at `beginFrame(at:)`: the monotonic clock in the window, the simulated clock headless.
    public var time = 0.0
    /// Seconds since the previous frame began (the budget for the first frame, which has none before it).
    public var interval = 0.0
    /// True when the frame came after a stretch in which nothing moved and no frame was due: its interval is idle
    /// time, not frames dropped (Android's JankStats counts only frames in motion).
    public var followsIdle = false
    public var input = 0.0
    public var update = 0.0
    public var draw = 0.0
    public var upload = 0.0
    public var present = 0.0
    public var output = 0.0
    /// The refresh control's state at the end of the frame, as a code of `FrameRecorder.stateNames`.
    public var stateCode: UInt8 = 0
    /// The header effect, as an index into the recorder's effect names.
    var effectCode: UInt16 = 0

    public init() {}

    public subscript(phase: FramePhase) -> Double {
        get {
            switch phase {
            case .input: input
            case .update: update
            case .draw: draw
            case .upload: upload
            case .present: present
            case .output: output
            }
        }
        set {
            switch phase {
            case .input: input = newValue
            case .update: update = newValue
            case .draw: draw = newValue
            case .upload: upload = newValue
            case .present: present = newValue
            case .output: output = newValue
            }
        }
    }

    /// The frame's work within its budget: the CPU time of every phase but `output`.
    public var cpuTime: Double { input + update + draw + upload + present }

    /// Frames the display showed again before this one: none after an idle stretch, else
    /// `round(interval / budget) − 1`.
    public func droppedFrames(budget: Double) -> Int {
        followsIdle ? 0 : TimingSummary.droppedFrames(interval: interval, budget: budget)
    }
}

/// Times every frame by phase, keeps the recent frames for the HUD and, while recording, writes a CSV row per
/// frame and a JSON summary at the end.
///
/// ```swift
/// let recorder = FrameRecorder(budget: 1 / 60)
/// recorder.beginFrame(at: clock.now)
/// handleEvents();           recorder.endPhase(.input)
/// simulation.step();        recorder.endPhase(.update)
/// simulation.render();      recorder.endPhase(.draw)
/// upload();                 recorder.endPhase(.upload)
/// present();                recorder.endPhase(.present)
/// recorder.endFrame(state: simulation.refreshControl.state, effect: simulation.effectName)
/// ```
///
/// Phase times are the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`) by default: what the frame's own work cost,
/// not the time it spent waiting for vsync or preempted by other processes; the interval, from the caller's frame
/// clock, shows when frames came late. Headless runs pass the simulated clock's time, so their intervals are exactly
/// one budget while their phase times are real.
///
/// Nothing here allocates in the steady state, and memory stays flat however long a recording runs: the recent
/// frames live in a ring allocated once, rows are formatted into a byte buffer allocated once and written to the
/// temporary CSV every `flushInterval` frames (so a crash loses at most that many rows, and they are in `FILE.tmp`),
/// and the values the summary needs (each frame's interval and CPU time) go to an unnamed temporary file at the same
/// pace, read back only to make the summary.
public final class FrameRecorder: @unchecked Sendable {
    /// What measures the phases.
    public enum PhaseClock: Sendable {
        /// `CLOCK_THREAD_CPUTIME_ID`: CPU time of the calling thread.
        case threadCPU
        /// `CLOCK_MONOTONIC`: wall time, waits included.
        case monotonic
    }

    /// Names of the states in CSV files, indexed by `FrameSample.stateCode`: the recorder's owner gives them (the
    /// recorder knows nothing of what it times); a code without a name is written as its number.
    public var stateNames: [String] = [] {
        didSet { stateBytes = stateNames.map { Array($0.utf8) } }
    }
    private var stateBytes: [[UInt8]] = []

    /// Rows are written to the temporary CSV every this many frames (one second at 60 Hz).
    static let flushInterval = 60

    /// Seconds per frame: 1 / the display's refresh rate.
    public var budget: Double
    let phaseClock: PhaseClock
    /// How many recent frames the ring keeps.
    public let historyCapacity: Int
    /// Frames ended so far.
    public private(set) var frameCount = 0

    private let history: UnsafeMutableBufferPointer<FrameSample>
    private let scratch: UnsafeMutableBufferPointer<Double>
    private var current = FrameSample()
    private var phaseMark = 0.0
    private var previousFrameTime: Double?
    private var effectNames: [String] = []
    private var effectBytes: [[UInt8]] = []
    private var lastEffect = -1

    // Recording; guarded by `lock`, as the termination watcher may finish a recording from its own thread.
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private var csvFile: OutputFile?
    private var jsonFile: OutputFile?
    private var rows = ByteBuffer(capacity: 0)
    /// The summary's values not yet in `spill`: per frame its interval (NaN after an idle stretch) and CPU time.
    private var pendingValues: [Double] = []
    /// The summary's values of the recording so far, as pairs of Doubles; nil when no temporary file could be made,
    /// and then they stay in `pendingValues`.
    private var spill: UnsafeMutablePointer<FILE>?
    private var recordedCount = 0
    private var recordedIdleGaps = 0
    private var framesSinceFlush = 0
    private var recordingError: LabError?

    public init(budget: Double = 1 / simulatedFrameRate, historyCapacity: Int = 240,
                phaseClock: PhaseClock = .threadCPU) {
        self.budget = budget > 0 && budget.isFinite ? budget : 1 / simulatedFrameRate
        self.phaseClock = phaseClock
        self.historyCapacity = Swift.max(historyCapacity, 1)
        history = .allocate(capacity: self.historyCapacity)
        history.initialize(repeating: FrameSample())
        scratch = .allocate(capacity: self.historyCapacity)
        scratch.initialize(repeating: 0)
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
    }

    deinit {
        abandonRecording()
        history.deallocate()
        scratch.deallocate()
        rows.deallocate()
        if let spill { fclose(spill) }
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    // MARK: Timing a frame

    /// The phase clock's reading, in seconds.
    @inline(__always)
    public func phaseNow() -> Double {
        FrameRecorder.seconds(on: phaseClock == .threadCPU ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC)
    }

    /// The CPU time the calling thread has used, in seconds: what a frame's own work costs, however the machine
    /// shares its cores.
    @inline(__always)
    public static func threadSeconds() -> Double { seconds(on: CLOCK_THREAD_CPUTIME_ID) }

    @inline(__always)
    private static func seconds(on clock: clockid_t) -> Double {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Starts a frame at `time` on the frame clock (seconds); its interval is the time since the previous frame.
    /// `followsIdle` says that nothing moved and no frame was due since the previous frame (the loop slept).
    public func beginFrame(at time: Double, followsIdle: Bool = false) {
        current = FrameSample()
        current.index = frameCount
        current.time = time
        current.followsIdle = followsIdle
        if let previous = previousFrameTime {
            current.interval = Swift.max(time - previous, 0)
        } else {
            current.interval = budget
        }
        previousFrameTime = time
        phaseMark = phaseNow()
    }

    /// Ends `phase`: it gets the CPU time since the frame began or the previous phase ended (added to, when a
    /// phase is ended twice in a frame).
    public func endPhase(_ phase: FramePhase) {
        let now = phaseNow()
        current[phase] += Swift.max(now - phaseMark, 0)
        phaseMark = now
    }

    /// Adds `seconds` to a phase measured elsewhere.
    public func add(_ seconds: Double, to phase: FramePhase) {
        current[phase] += Swift.max(seconds, 0)
    }

    /// Ends the frame: it joins the recent frames and, while recording, the recording.
    public func endFrame(stateCode: UInt8, effect: String) {
        current.stateCode = stateCode
        current.effectCode = UInt16(truncatingIfNeeded: effectCode(effect))
        history[frameCount % historyCapacity] = current
        frameCount += 1
        if csvFile != nil { record(current) }
    }

    private func effectCode(_ name: String) -> Int {
        if lastEffect >= 0 && effectNames[lastEffect] == name { return lastEffect }
        if let i = effectNames.firstIndex(of: name) {
            lastEffect = i
        } else {
            effectNames.append(name)
            effectBytes.append(Array(name.utf8))
            lastEffect = effectNames.count - 1
        }
        return lastEffect
    }

    /// The name of an effect code of a sample.
    public func effectName(_ code: UInt16) -> String {
        Int(code) < effectNames.count ? effectNames[Int(code)] : ""
    }

    // MARK: Recent frames (for the HUD)

    /// How many recent frames the ring holds.
    public var recentCount: Int { Swift.min(frameCount, historyCapacity) }

    /// A recent frame: 0 is the last one ended, 1 the one before, …; `back` must be below `recentCount`.
    public func recent(_ back: Int) -> FrameSample {
        precondition(back >= 0 && back < recentCount, "no such recent frame")
        return history[(frameCount - 1 - back) % historyCapacity]
    }

    /// The last frame ended, if any.
    public var lastFrame: FrameSample? { frameCount > 0 ? recent(0) : nil }

    /// Frames per second presented in motion over the last second, seen from a frame beginning at `time` on the
    /// frame clock: the recent frames that began within that second, back to the first one after the last idle
    /// stretch, over the time from the earliest of them to `time`. Nil when there is none.
    public func framesPerSecond(at time: Double) -> Double? {
        var n = 0
        var earliest = time
        while n < recentCount {
            let sample = recent(n)
            guard time - sample.time <= 1 else { break }
            n += 1
            earliest = sample.time
            if sample.followsIdle { break }
        }
        guard n > 0, time > earliest else { return nil }
        return Double(n) / (time - earliest)
    }

    /// Mean CPU time of the recent frames, in seconds.
    public var recentMeanCPUTime: Double {
        guard recentCount > 0 else { return 0 }
        var total = 0.0
        for i in 0..<recentCount { total += recent(i).cpuTime }
        return total / Double(recentCount)
    }

    /// Nearest-rank percentile `p` of the recent frames' CPU time, in seconds, sorted in a buffer made once by
    /// insertion (the standard library's sort takes a temporary buffer: an allocation every frame the HUD shows;
    /// the ring's few hundred values, nearly in order from frame to frame, sort quickly this way).
    public func recentCPUTime(percentile p: Double) -> Double {
        let n = recentCount
        for i in 0..<n {
            let value = recent(i).cpuTime
            var j = i
            while j > 0 && scratch[j - 1] > value {
                scratch[j] = scratch[j - 1]
                j -= 1
            }
            scratch[j] = value
        }
        return TimingSummary.nearestRank(scratch, count: n, p)
    }

    // MARK: Recording

    public var isRecording: Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return csvFile != nil
    }

    /// Starts writing frames to `csvPath` (a row per frame from the next one) and, when stopped, the summary to
    /// `jsonPath`. Both files appear only when the recording stops, together and whole, or neither does (each is
    /// written to `PATH.tmp` and both are renamed once both are written; see `OutputFile`). Throws a message
    /// naming the path when either cannot be written; a recording under way is first stopped and saved.
    public func startRecording(csvPath: String, jsonPath: String) throws {
        if isRecording { try stopRecording() }
        let csv: OutputFile, json: OutputFile
        do {
            csv = try OutputFile(path: csvPath)
            do { json = try OutputFile(path: jsonPath) } catch { csv.abandon(); throw error }
        } catch {
            throw LabError("\(error); choose a directory you can write to")
        }
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if rows.storage.count == 0 { rows = ByteBuffer(capacity: 64 * 1024) }
        rows.removeAll()
        rows.append(string: TimingFiles.header + "\n")
        pendingValues.removeAll(keepingCapacity: true)
        pendingValues.reserveCapacity(2 * FrameRecorder.flushInterval)
        if let spill {
            rewind(spill)
            _ = ftruncate(fileno(spill), 0)
        } else {
            spill = tmpfile()
        }
        recordedCount = 0
        recordedIdleGaps = 0
        framesSinceFlush = 0
        recordingError = nil
        csvFile = csv
        jsonFile = json
        FrameRecorder.register(self)
    }

    private func record(_ frame: FrameSample) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard let csv = csvFile else { return }
        var sample = frame
        // A recording's intervals start at its first frame: the time before it was not recorded.
        if recordedCount == 0 {
            sample.interval = budget
            sample.followsIdle = false
        }
        TimingFiles.appendRow(sample, state: stateLabel(sample.stateCode),
                              effect: effectBytes[Int(sample.effectCode)], budget: budget, to: &rows)
        if sample.followsIdle { recordedIdleGaps += 1 }
        pendingValues.append(sample.followsIdle ? .nan : sample.interval)
        pendingValues.append(sample.cpuTime)
        recordedCount += 1
        framesSinceFlush += 1
        if framesSinceFlush >= FrameRecorder.flushInterval {
            framesSinceFlush = 0
            writePendingRows(to: csv)
        }
    }

    private func stateLabel(_ code: UInt8) -> [UInt8] {
        Int(code) < stateBytes.count ? stateBytes[Int(code)] : Array(String(code).utf8)
    }

    /// Frames recorded so far in the recording under way (0 when not recording).
    var recordedFrameCount: Int {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return csvFile == nil ? 0 : recordedCount
    }

    /// Writes the rows formatted so far to the temporary CSV, and the summary's values to theirs. Called with the
    /// lock held.
    private func writePendingRows(to csv: OutputFile) {
        spillPendingValues()
        guard rows.count > 0 else { return }
        do {
            try csv.write(rows)
        } catch {
            // Kept in memory and retried at the next flush; reported when the recording stops.
            if recordingError == nil { recordingError = FrameRecorder.notSaved(error) }
            return
        }
        rows.removeAll()
    }

    /// Moves the summary's pending values to the temporary file (kept in memory when there is none, or when it
    /// cannot take them: a full disk is reported when the recording stops). Called with the lock held.
    private func spillPendingValues() {
        guard let spill, !pendingValues.isEmpty else { return }
        let written = pendingValues.withUnsafeBufferPointer { fwrite($0.baseAddress, 8, $0.count, spill) }
        guard written == pendingValues.count else {
            if recordingError == nil { recordingError = FrameRecorder.notSaved(LabError("the disk is full")) }
            return
        }
        pendingValues.removeAll(keepingCapacity: true)
    }

    /// The summary of the frames recorded so far, from the values in the temporary file and those pending. Called
    /// with the lock held.
    private func recordedSummary() -> TimingSummary {
        var intervals: [Double] = [], cpuTimes: [Double] = []
        intervals.reserveCapacity(recordedCount)
        cpuTimes.reserveCapacity(recordedCount)
        func add(_ pairs: UnsafeBufferPointer<Double>) {
            for i in stride(from: 0, to: pairs.count - 1, by: 2) {
                if !pairs[i].isNaN { intervals.append(pairs[i]) }
                cpuTimes.append(pairs[i + 1])
            }
        }
        if let spill, fflush(spill) == 0 {
            rewind(spill)
            var chunk = [Double](repeating: 0, count: 2 * 4096)
            while true {
                let read = chunk.withUnsafeMutableBufferPointer { fread($0.baseAddress, 8, $0.count, spill) }
                guard read > 0 else { break }
                chunk.withUnsafeBufferPointer { add(UnsafeBufferPointer(rebasing: $0[0..<read])) }
            }
            fseek(spill, 0, SEEK_END)
        }
        pendingValues.withUnsafeBufferPointer { add($0) }
        return TimingSummary(budget: budget, intervals: intervals, cpuTimes: cpuTimes, idleGaps: recordedIdleGaps)
    }

    /// A failure to write a recording's files, saying that neither was saved.
    private static func notSaved(_ error: any Error) -> LabError {
        LabError("the timings were not saved: \(error); check that the disk has room")
    }

    /// Writes the rows formatted so far to the temporary CSV (`CSV.tmp`) without ending the recording.
    func flush() {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if let csv = csvFile { writePendingRows(to: csv) }
    }

    /// The summary of the recording under way.
    var currentSummary: TimingSummary {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return recordedSummary()
    }

    /// Ends the recording: writes the last rows and the summary, and renames both files into place once both are
    /// written. Returns the summary, or nil when nothing was being recorded. Throws a message naming the file
    /// that could not be written; then neither file is saved and both temporaries are removed.
    @discardableResult
    public func stopRecording() throws -> TimingSummary? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try finishRecording()
    }

    /// With the lock held.
    private func finishRecording() throws -> TimingSummary? {
        guard let csv = csvFile, let json = jsonFile else { return nil }
        csvFile = nil
        jsonFile = nil
        FrameRecorder.unregister(self)
        let summary = recordedSummary()
        defer { releaseRecording() }
        do {
            if let error = recordingError { throw error }
            try csv.write(rows)
            // The summary's buffer is the caller's to free, like every ByteBuffer.
            var text = TimingFiles.json(summary)
            defer { text.deallocate() }
            try json.write(text)
            try OutputFile.commit([csv, json])
        } catch {
            csv.abandon()
            json.abandon()
            throw error as? LabError ?? FrameRecorder.notSaved(error)
        }
        return summary
    }

    /// Drops a recording under way without writing its files.
    func abandonRecording() {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        csvFile?.abandon()
        jsonFile?.abandon()
        if csvFile != nil { FrameRecorder.unregister(self) }
        csvFile = nil
        jsonFile = nil
        releaseRecording()
    }

    /// Empties what a recording kept in memory, and the summary's temporary file. Called with the lock held.
    private func releaseRecording() {
        rows.removeAll()
        pendingValues.removeAll(keepingCapacity: true)
        if let spill {
            rewind(spill)
            _ = ftruncate(fileno(spill), 0)
        }
        recordedCount = 0
    }
}

// MARK: Recordings saved when the process is stopped at once

extension FrameRecorder {
    /// Saves every recording under way; returns how many were saved. `Termination` calls it before it exits the
    /// process on a second signal.
    @discardableResult
    static func finishAllRecordings() -> Int {
        var saved = 0
        for recorder in activeRecorders.snapshot() {
            do {
                if try recorder.stopRecording() != nil { saved += 1 }
            } catch {
                Termination.writeToStandardError("refreshlab: \(error)\n")
            }
        }
        return saved
    }

    private static func register(_ recorder: FrameRecorder) {
        _ = savesOnSecondSignal
        activeRecorders.insert(recorder)
    }

    private static func unregister(_ recorder: FrameRecorder) {
        activeRecorders.remove(recorder)
    }

    private static let savesOnSecondSignal: Void = Termination.addSaver { FrameRecorder.finishAllRecordings() }
}

/// The recordings under way, which a second signal saves before the process exits.
private let activeRecorders = LockedObjects<FrameRecorder>()

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Export
import Raster
import Synchronization
import Recording
import UserFiles

/// Where a frame loop's input comes from: the window's events, or a gesture script on the simulated clock.
public protocol FrameInput: AnyObject {
    /// The frame clock's time now, in seconds: the monotonic clock in the window, the simulated clock headless.
    var now: Double { get }
    /// True when every tick of the frame clock is a frame to present: a headless run writes every simulated frame,
    /// so it never sleeps.
    var presentsEveryFrame: Bool { get }
    /// Gathers the next frame's input and applies it to `simulation` (touches and the wheel through `handle`,
    /// keys through `perform`). With `idleUntil`, nothing moves and nothing is due before that base-clock time
    /// (`.infinity`: no change is scheduled): the source may sleep until input arrives or that time.
    func nextFrame(for simulation: Simulation, idleUntil: Double?) -> FrameInputResult
}

/// What a frame's input did.
public enum FrameInputResult: Equatable, Sendable {
    /// The input for a frame: `changed` when some of it may have changed what is shown (a touch, a key, the
    /// window exposed), `waited` when the source slept before it came.
    case frame(changed: Bool, waited: Bool)
    /// The input is over: the window closed, or the script ended.
    case end
}

/// Where the frame is shown: the window's texture, uploaded and presented. Pacing (vsync, or its own where vsync
/// does not hold) is the display's.
public protocol FrameDisplay: AnyObject {
    /// Copies the phone's canvas (and the second phone's beside it while two are compared) and the side area's
    /// when there is one into what the display shows.
    func upload(_ canvas: Canvas, second: Canvas?, side: Canvas?)
    /// Shows the frame; returns at the display's next refresh.
    func present()
    /// Shows what is on: the effect, the language, the toggles, the recordings.
    func showStatus(_ status: String)
}

/// The one frame loop of the simulator, in the window and headless alike: input in, then update, draw, outputs,
/// upload and present, each phase timed into `recorder` (docs/architecture.md, "One frame").
///
/// A frame is presented whenever something moves or is scheduled to (momentum, springs, layer animations, a toast,
/// a refresh under way), or input changed something; otherwise the loop asks its input to sleep until the next
/// scheduled change, so an idle window costs nothing (but while a video is recorded, which takes every refresh).
/// Outputs (PNG frames, a capture, a screenshot, a video) get
/// the phone only, drawn before the overlays, unless `Simulation.includesOverlaysInOutputs` is on.
public final class FrameLoop {
    public let simulation: Simulation
    public let input: any FrameInput
    public let display: (any FrameDisplay)?
    /// Times every presented frame; the HUD draws its recent frames; `--timings` and R record them.
    public let recorder: FrameRecorder
    /// State changes, as JSON lines.
    public var events: EventLog?
    /// Read files again when they are saved: the window's style files (`--style`, the user's folder) and the
    /// header's animation (`--animation`).
    public var reloaders: [any FileReloader] = []
    /// A JSON line per presented frame.
    public var trace: TraceWriter?
    /// Outputs that take every presented frame: PNG files, a capture.
    var sinks: [any FrameSink] = []
    /// Puts two compared phones side by side for the outputs.
    private let sideBySide = SideBySide()
    /// Where screenshots (C), timing recordings (R) and videos (V) go; without one those keys only say so.
    public var files: OutputFolder?
    /// Frames presented so far.
    public private(set) var frameIndex = 0
    /// True once a signal (`Termination.endingSignals`) stopped the loop.
    private(set) var wasInterrupted = false
    /// Lines for standard output: every file written, with its full path (flushed at once, so that a script
    /// reading the output sees each line as it happens).
    public var report: (String) -> Void = { line in
        print(line)
        fflush(nil)
    }
    /// Called with the number of frames presented after each frame (a headless run's progress line).
    public var afterFrame: ((Int) -> Void)?
    /// Lines for standard error: failures to write a file.
    var reportError: (String) -> Void = { FileLines.standardError($0) }

    /// The frame duration the recorder's budget was last set from.
    private var budgetDuration: Double
    private var lastActivity = Simulation.Activity.moving
    private var sleptSinceLastFrame = false
    private var firstFrameTime: Double?
    private var pendingScreenshot = false
    private var video: VideoRecording?
    /// Videos ended (V, a phone of another size) whose files ffmpeg is still finishing, oldest first: each is said
    /// when done, and the end of the loop waits for them.
    private var endingVideos: [VideoRecording] = []
    /// How often a loop with nothing else to do looks whether an ended video is finished, in seconds (chosen here:
    /// its toast comes within a tenth of a second, for a turn that costs next to nothing).
    static let endingVideoPoll = 0.1
    private var timingsPath = ""
    /// The status the display last showed, and the recordings it said were under way.
    private var shownStatus: Status?
    private var shownRecordings = (false, false)
    private var quitRequested = false
    /// How many of the renderer's font messages this loop has looked at.
    private var fontMessagesSeen = 0

    public init(simulation: Simulation, input: any FrameInput, display: (any FrameDisplay)? = nil,
                recorder: FrameRecorder = FrameRecorder()) {
        self.simulation = simulation
        self.input = input
        self.display = display
        self.recorder = recorder
        budgetDuration = simulation.clock.frameDuration
    }

    /// Runs frames until the input ends, a quit key, or a signal; then finishes every output (a
    /// recording under way is saved whole). Returns the number of frames presented.
    @discardableResult
    public func run() throws -> Int {
        do {
            while try runFrame() {}
        } catch {
            // What was made so far is kept: close everything, then report the first failure.
            try? finish()
            throw error
        }
        try finish()
        return frameIndex
    }

    /// Runs one turn of the loop: input, update, and a frame presented when one is due. Returns false when the
    /// loop is over.
    public func runFrame() throws -> Bool {
        if Termination.isRequested {
            wasInterrupted = true
            return false
        }
        guard !quitRequested else { return false }
        // State changes during input and update belong to the frame about to be presented.
        events?.frame = frameIndex
        // Nothing moves: the input may sleep until the next scheduled change. Never headless, where every tick is
        // a frame, nor while a video takes a frame every refresh, as a screen recording does.
        var idleUntil: Double?
        if !input.presentsEveryFrame && video == nil, case .still(let until) = lastActivity { idleUntil = until }
        if let until = idleUntil, !endingVideos.isEmpty {
            idleUntil = Swift.min(until, simulation.clock.base.now + FrameLoop.endingVideoPoll)
        }
        let inputStart = recorder.phaseNow()
        let result = input.nextFrame(for: simulation, idleUntil: idleUntil)
        guard case .frame(let inputChanged, let waited) = result else { return false }
        if waited { sleptSinceLastFrame = true }
        let frameTime = input.now
        // A style or animation file saved: it applies here, on the loop's thread, before the frame's update.
        var restyled = false
        for reloader in reloaders where reloader.applyPending(to: simulation) { restyled = true }
        let changed = carryOutRequests() || sayFinishedVideos() || inputChanged || restyled
        let inputTime = recorder.phaseNow() - inputStart

        let updateStart = recorder.phaseNow()
        let before = lastActivity
        simulation.step()
        let activity = simulation.activity
        lastActivity = activity
        let updateTime = recorder.phaseNow() - updateStart
        let scheduledChangeDue = if case .still(let until) = before { simulation.clock.base.now >= until } else { false }
        let due = input.presentsEveryFrame || changed || before == .moving || activity == .moving || scheduledChangeDue
            || video != nil
        guard due else { return !quitRequested }

        // Another phone, another refresh rate: the HUD's budget follows the frame's duration (8.33 ms at 120 Hz).
        if simulation.clock.frameDuration != budgetDuration {
            budgetDuration = simulation.clock.frameDuration
            recorder.budget = budgetDuration
        }
        recorder.beginFrame(at: frameTime, followsIdle: sleptSinceLastFrame)
        recorder.add(inputTime, to: .input)
        recorder.add(updateTime, to: .update)
        simulation.renderFrame(at: frameTime, followsIdle: sleptSinceLastFrame,
                               everyPhone: changed || activity != .moving || outputsArePending)
        sleptSinceLastFrame = false
        if simulation.renderer.fontMessages.count > fontMessagesSeen { sayFontMessages() }
        recorder.endPhase(.draw)
        let time = frameTime - (firstFrameTime ?? frameTime)
        if firstFrameTime == nil { firstFrameTime = frameTime }
        try trace?.record(frame: frameIndex, time: time, simulation: simulation)
        let overlaysInOutputs = simulation.includesOverlaysInOutputs
        if !overlaysInOutputs { try writeOutputs(at: frameTime) }
        recorder.endPhase(.output)
        simulation.renderOverlays(frames: HUD.Frames(recorder: recorder, time: frameTime,
                                                     isMoving: activity == .moving || changed))
        recorder.endPhase(.draw)
        if overlaysInOutputs { try writeOutputs(at: frameTime) }
        recorder.endPhase(.output)
        if let display {
            let phones = simulation.phones
            display.upload(phones[0].canvas, second: phones.count > 1 ? phones[1].canvas : nil,
                           side: simulation.sideCanvas)
            recorder.endPhase(.upload)
            display.present()
            recorder.endPhase(.present)
            showStatus(on: display)
        }
        recorder.endFrame(state: simulation.refreshControl.state, effect: simulation.effectName)
        frameIndex += 1
        afterFrame?(frameIndex)
        return !quitRequested
    }

    /// Whether this frame goes to an output: the sinks, a screenshot asked for, a video under way.
    private var outputsArePending: Bool { !sinks.isEmpty || pendingScreenshot || video != nil }

    /// What outputs get: the phone's canvas, or both phones side by side while two are compared.
    private var outputCanvas: Canvas {
        let phones = simulation.phones
        return phones.count == 1 ? phones[0].canvas : sideBySide.compose(phones[0].canvas, phones[1].canvas)
    }

    /// Writes the frame to every output: the sinks, a screenshot asked for, the video under way.
    private func writeOutputs(at time: Double) throws {
        guard outputsArePending else { return }
        let canvas = outputCanvas
        for sink in sinks { try sink.write(canvas, frame: frameIndex) }
        if pendingScreenshot {
            pendingScreenshot = false
            saveScreenshot(canvas)
        }
        if let recording = video, canvas.width != recording.width || canvas.height != recording.height {
            startVideoForNewPhone(canvas, at: time)
        }
        if let video {
            do {
                try video.write(canvas, at: time)
            } catch {
                self.video = nil
                // Finishing says why in ffmpeg's words where the write could not.
                var reason = error
                do { try video.finish(at: time) } catch { reason = error }
                failed("Video stopped: see the terminal", "\(reason)")
            }
        }
    }

    /// The font messages said in this process: a missing font is said once on standard error, however many
    /// loops and renderers meet it.
    private static let fontMessagesSaid = Mutex<Set<String>>([])

    /// Says the renderer's font messages not said yet.
    private func sayFontMessages() {
        let messages = simulation.renderer.fontMessages
        for message in messages.dropFirst(fontMessagesSeen)
        where FrameLoop.fontMessagesSaid.withLock({ $0.insert(message).inserted }) {
            reportError(message)
        }
        fontMessagesSeen = messages.count
    }

    // MARK: What keys ask of the loop

    /// Screenshots, recordings and quitting asked for by keys; returns true when something changed on screen.
    private func carryOutRequests() -> Bool {
        let requests = simulation.takeHostRequests()
        guard !requests.isEmpty else { return false }
        if requests.contains(.quit) { quitRequested = true }
        if requests.contains(.screenshot) {
            if files == nil { simulation.showToast("Screenshots are for the window: use --frames DIR") }
            else { pendingScreenshot = true }
        }
        if requests.contains(.toggleRecording) { toggleTimings() }
        if requests.contains(.toggleVideoRecording) { toggleVideo() }
        if requests.contains(.exportHeader) { exportHeader() }
        return true
    }

    private func saveScreenshot(_ canvas: Canvas) {
        guard let files else { return }
        let path = files.newPath(prefix: "refreshlab-", suffix: ".png")
        do {
            try PNG.write(canvas, to: path)
            saved("Screenshot saved", path)
        } catch {
            failed("Screenshot failed: see the terminal",
                   "cannot write the screenshot '\(path)': \(error); check that the folder is writable and has room")
        }
    }

    /// Writes the selected phone's header as a Lottie file into the output folder (E), as
    /// `refreshlab export lottie` does, and beside it its settings as code in each language of its library, where
    /// it is a platform's own header (`refreshlab export code`).
    private func exportHeader() {
        guard let files else {
            simulation.showToast("Headers are exported with refreshlab export lottie here")
            return
        }
        let description = simulation.selectedPhone.description
        let languages = HeaderCode.languages(of: description.effect)
        // No header's library is written in two languages of one extension (Kotlin and Compose).
        func codePath(_ json: String, _ language: CodeLanguage) -> String {
            String(json.dropLast(".json".count)) + "." + language.fileExtension
        }
        let path = files.newPath(prefix: "refreshlab-\(description.effect)-", suffix: ".json") { json in
            [json] + languages.map { codePath(json, $0) }
        }
        do {
            let written = try HeaderExport.write(description, to: path)
            for language in languages {
                let code = Array(try HeaderCode.text(for: description, in: language).utf8)
                try code.withUnsafeBytes { try OutputFile.write($0, to: codePath(path, language)) }
                report("saved \(codePath(path, language))")
            }
            let code = languages.isEmpty ? "" : " and its code (" + languages.map(\.rawValue).joined(separator: ", ") + ")"
            saved("Header exported (\(written.frames) frames, \(written.bytes / 1024) KB)" + code, path)
        } catch {
            failed("Cannot export this header: see the terminal", "\(error)")
        }
    }

    private func toggleTimings() {
        if recorder.isRecording {
            do {
                let summary = try recorder.stopRecording()
                saved("Timings saved (\(summary?.frameCount ?? 0) frames)", timingsPath)
            } catch {
                failed("Could not save the timings: see the terminal", "\(error)")
            }
            return
        }
        guard let files else {
            simulation.showToast("Timings are recorded with --timings FILE here")
            return
        }
        let csv = files.newPath(prefix: "refreshlab-timings-", suffix: ".csv") {
            [$0, TimingFiles.summaryPath(forCSV: $0)]
        }
        do {
            try recorder.startRecording(csvPath: csv, jsonPath: TimingFiles.summaryPath(forCSV: csv))
            timingsPath = csv
            simulation.showToast("Recording timings (R stops)")
            report("recording timings to \(csv)")
        } catch {
            failed("Cannot record timings: see the terminal", "\(error)")
        }
    }

    private func toggleVideo() {
        if let ended = endVideo(at: input.now) {
            simulation.showToast("Saving the video", detail: ended)
            return
        }
        guard files != nil else {
            simulation.showToast("Videos are recorded with --capture FILE here")
            return
        }
        if startVideo(of: outputCanvas) != nil { simulation.showToast("Recording video (V stops)") }
    }

    /// A phone of another pixel size while a video records (I, Y): a video's frames all have one size, so the
    /// video so far ends at this frame and the new phone records to a new file from it on; the toast names both,
    /// and the first is said saved when ffmpeg has finished it.
    private func startVideoForNewPhone(_ canvas: Canvas, at time: Double) {
        guard let ended = endVideo(at: time), let next = startVideo(of: canvas, why: " (the phone's new size)") else {
            return
        }
        simulation.showToast("New phone size: a new video",
                             detail: FileName.split(ended).name + " ends, " + FileName.split(next).name + " begins")
    }

    /// Starts a video of the canvas's size into a new file of the output folder, said on standard output with
    /// `why`; returns its path, or nil when it cannot start (said in a toast and on standard error).
    private func startVideo(of canvas: Canvas, why: String = "") -> String? {
        guard let files else { return nil }
        let path = files.newPath(prefix: "refreshlab-", suffix: ".mp4")
        do {
            video = try VideoRecording(output: path, width: canvas.width, height: canvas.height)
            report("recording video to \(path)" + why)
            return path
        } catch {
            failed("Cannot record video: see the terminal", "\(error)")
            return nil
        }
    }

    /// Ends the video under way at `time` without waiting for ffmpeg to finish its file (see `sayFinishedVideos`);
    /// returns its path, or nil when no video records.
    private func endVideo(at time: Double) -> String? {
        guard let video else { return nil }
        self.video = nil
        video.end(at: time)
        endingVideos.append(video)
        return video.output
    }

    /// Says each ended video whose file ffmpeg has finished: saved, in a toast and on standard output, or why not.
    /// Returns true when it said one.
    private func sayFinishedVideos() -> Bool {
        guard endingVideos.contains(where: \.isFinished) else { return false }
        var ending: [VideoRecording] = []
        for video in endingVideos {
            guard video.isFinished else {
                ending.append(video)
                continue
            }
            do {
                try finishVideo(video)
                simulation.showToast("Video saved", detail: video.output)
            } catch {
                failed("Could not save the video: see the terminal", "\(error)")
            }
        }
        endingVideos = ending
        return true
    }

    /// Waits until ffmpeg has finished `video`'s file, and says it saved on standard output.
    ///
    /// - Throws: `LabError` when the file could not be written (it is then removed).
    private func finishVideo(_ video: VideoRecording) throws {
        try video.finish(at: input.now)
        report("saved \(video.output)")
        reportVideoFrames(video)
    }

    /// How many frames a finished video holds, and how many presented frames it dropped because ffmpeg was
    /// behind (each shows as a repeat of the frame before).
    private func reportVideoFrames(_ video: VideoRecording) {
        report("video: \(video.framesWritten) frames at \(Int(VideoRecording.frameRate)) fps, "
            + "\(video.droppedFrames) presented frames dropped")
    }

    private func saved(_ toast: String, _ path: String) {
        simulation.showToast(toast, detail: path)
        report("saved \(path)")
    }

    private func failed(_ toast: String, _ message: String) {
        simulation.showToast(toast)
        reportError(message)
    }

    // MARK: Status and the end

    /// What is on, for the window's title: the simulation's status and the recordings under way.
    var statusLine: String { status.title }

    /// Everything the title says: the simulation's toggles and the recordings under way.
    private var status: Status {
        var status = simulation.statusFlags
        status.recordingTimings = recorder.isRecording
        status.recordingVideo = video != nil
        return status
    }

    /// Shows the status when what it says may have changed (the simulation says so, or a recording started or
    /// stopped): its line is made only then, so that a frame in motion allocates nothing.
    private func showStatus(on display: any FrameDisplay) {
        let recordings = (recorder.isRecording, video != nil)
        let changed = simulation.takeStatusChange()
        guard changed || recordings != shownRecordings else { return }
        shownRecordings = recordings
        let status = self.status
        guard status != shownStatus else { return }
        shownStatus = status
        display.showStatus(status.title)
    }

    /// Finishes every output: the sinks, the video and the timings under way (announced), the trace and the
    /// events. Reports the first failure after trying them all.
    public func finish() throws {
        // Values tuned in the last moments before the end are saved, never lost.
        simulation.saveTuning()
        var failure: (any Error)?
        for sink in sinks {
            do { try sink.finish() } catch { failure = failure ?? error }
        }
        sinks.removeAll()
        _ = endVideo(at: input.now)
        for video in endingVideos {
            do { try finishVideo(video) } catch { failure = failure ?? error }
        }
        endingVideos.removeAll()
        if files != nil, recorder.isRecording {
            do {
                try recorder.stopRecording()
                report("saved \(timingsPath)")
            } catch { failure = failure ?? error }
        }
        do { try trace?.close() } catch { failure = failure ?? error }
        do { try events?.close() } catch { failure = failure ?? error }
        if let failure { throw failure }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Scrolling
import Raster
import Refresh
import Styles
import UserFiles

/// One change of the header's or the footer's state, at a frame of the simulation.
public struct StateChange: Equatable, Sendable {
    /// Which control changed: the refresh header or the load-more footer.
    public enum Control: String, Sendable {
        case header
        case footer
    }

    /// The frame during which the change happened (from 0).
    public var frame: Int
    /// Seconds since the log started, on the simulation's clock.
    public var time: Double
    /// The header's effect at the time of the change.
    public var effect: String
    public var control: Control
    public var from: RefreshState
    public var to: RefreshState
    /// The platform the phone ran at the time of the change.
    public var platform: Platform

    public init(frame: Int, time: Double, effect: String, control: Control, from: RefreshState, to: RefreshState,
                platform: Platform = .ios) {
        self.platform = platform
        self.frame = frame
        self.time = time
        self.effect = effect
        self.control = control
        self.from = from
        self.to = to
    }

    /// The change as one line of JSON, without the newline:
    /// `{"frame":31,"time":0.516667,"effect":"sticky","control":"header","from":"pulling","to":"armed"}`.
    ///
    /// States are named as `RefreshState.description` names them (`finishing(success)`, `finishing(3 new items)`).
    /// On Android `"platform":"android"` follows the effect (`EventLog.linePrefix`).
    public var jsonLine: String {
        var line = EventLog.linePrefix(frame: frame, time: time, effect: effect, platform: platform)
        line += ",\"control\":\"" + control.rawValue + "\""
        line += ",\"from\":" + JSONLineBuffer.quoted(from.description)
        line += ",\"to\":" + JSONLineBuffer.quoted(to.description) + "}"
        return line
    }
}

/// What the phone does for the user when a pull arms the header (`ArmingFeedback`), at a frame of the simulation.
public struct FeedbackEvent: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// An impact haptic of this style ("medium").
        case haptic(String)
        /// What VoiceOver says ("Refreshing").
        case announcement(String)
    }

    public var frame: Int
    public var time: Double
    public var effect: String
    public var kind: Kind
    /// The platform the phone ran at the time of the arming.
    public var platform = Platform.ios

    /// The event as one line of JSON, without the newline:
    /// `{"frame":31,"time":0.516667,"effect":"system","haptic":"medium"}` or
    /// `{"frame":31,"time":0.516667,"effect":"system","announcement":"Refreshing"}`.
    public var jsonLine: String {
        let (key, value) = switch kind {
        case .haptic(let style): ("haptic", style)
        case .announcement(let text): ("announcement", text)
        }
        return EventLog.linePrefix(frame: frame, time: time, effect: effect, platform: platform)
            + ",\"" + key + "\":" + JSONLineBuffer.quoted(value) + "}"
    }
}

/// Records every state change of a simulation's header and footer, and the haptic and the announcement of every
/// arming (`ArmingFeedback`: after the change that armed the header, in that order), with the frame and time each
/// happened at, and optionally writes each one as a JSON line to a file as it happens (flushed at once, so that a
/// run that is killed keeps every line written so far).
///
/// The host sets `frame` at the start of each frame. The log hears of the changes through the phone's
/// `observeChanges`, after any observer that asked before it, so it can sit beside others.
///
/// In memory it keeps the recent changes and feedback only, from `retainedChanges` to twice as many of each, so
/// that a run of any length (an hour of random use makes thousands) holds it in constant memory; the file has
/// every one.
public final class EventLog {
    /// The recent changes, oldest first; `droppedCount` older ones are only in the file.
    public private(set) var changes: [StateChange] = []
    /// How many of the oldest changes were let go from `changes`.
    public private(set) var droppedCount = 0
    /// The recent haptics and announcements, oldest first.
    public private(set) var feedback: [FeedbackEvent] = []
    /// How many changes `changes` keeps at least once it is trimmed.
    static let retainedChanges = 1024
    /// The frame being run; the host advances it.
    public var frame = 0
    /// Where the lines go, or nil to keep them in memory only.
    public let path: String?
    /// The frame of the first arming (the pull first crossing the trigger), kept however many changes are let go.
    public private(set) var firstArmingFrame: Int?

    private unowned let simulation: Simulation
    private let startTime: Double
    private var file: UnsafeMutablePointer<FILE>?
    /// The compared phone the lines are of (`a` or `b`), nil for a single phone's run.
    private let phoneLabel: String?
    /// False for a log that shares another's file, which that one closes.
    private let ownsFile: Bool

    /// Starts logging `simulation`'s state changes, and writing them to `path` when given; each line names `phone`
    /// when given (a comparison's, whose two phones share one file).
    ///
    /// - Throws: `LabError` naming `path` when it cannot be created.
    public init(simulation: Simulation, path: String? = nil, phone: String? = nil) throws {
        self.simulation = simulation
        self.path = path
        startTime = simulation.clock.now
        phoneLabel = phone
        ownsFile = true
        if let path {
            guard let handle = FileName.withBytes(path, { fopen($0, "w") }) else {
                throw LabError("cannot write the events file '\(path)': \(String(cString: strerror(errno))); "
                    + "check that its folder exists and is writable")
            }
            file = handle
        }
        observe()
    }

    /// Logs `simulation`'s changes into `other`'s file (which must stay open while this log writes), each line
    /// naming `phone`.
    init(simulation: Simulation, sharingFileOf other: EventLog, phone: String) {
        self.simulation = simulation
        path = other.path
        startTime = simulation.clock.now
        phoneLabel = phone
        ownsFile = false
        file = other.file
        observe()
    }

    private func observe() {
        simulation.primaryPhone.observeChanges(
            header: { [weak self] old, new in self?.record(.header, from: old, to: new) },
            footer: { [weak self] old, new in self?.record(.footer, from: old, to: new) },
            arming: { [weak self] in self?.recordFeedback() })
    }

    deinit {
        if let file, ownsFile { fclose(file) }
    }

    /// The header's changes only, in order.
    public var headerChanges: [StateChange] { changes.filter { $0.control == .header } }

    /// `{"frame":N,"time":T,"effect":"NAME"`: how every line starts, without its closing brace; on Android,
    /// `,"platform":"android"` after the effect (iOS's lines are as they always were).
    static func linePrefix(frame: Int, time: Double, effect: String, platform: Platform) -> String {
        var digits = JSONLineBuffer(capacity: 32)
        digits.append(time, decimals: 6)
        let prefix = "{\"frame\":" + String(frame) + ",\"time\":" + digits.string + ",\"effect\":" + JSONLineBuffer.quoted(effect)
        return platform == .ios ? prefix : prefix + ",\"platform\":" + JSONLineBuffer.quoted(platform.rawValue)
    }

    private func record(_ control: StateChange.Control, from old: RefreshState, to new: RefreshState) {
        let phone = simulation.primaryPhone
        let change = StateChange(frame: frame, time: simulation.clock.now - startTime, effect: phone.effectName,
                                 control: control, from: old, to: new, platform: phone.device.platform)
        if changes.count == 2 * EventLog.retainedChanges {
            changes.removeFirst(EventLog.retainedChanges)
            droppedCount += EventLog.retainedChanges
        }
        changes.append(change)
        write(change.jsonLine)
    }

    /// The haptic, then the announcement, of an arming.
    private func recordFeedback() {
        let phone = simulation.primaryPhone
        let time = simulation.clock.now - startTime, effect = phone.effectName
        if firstArmingFrame == nil { firstArmingFrame = frame }
        if feedback.count >= 2 * EventLog.retainedChanges { feedback.removeFirst(EventLog.retainedChanges) }
        for kind in [FeedbackEvent.Kind.haptic(ArmingFeedback.haptic),
                     .announcement(ArmingFeedback.announcement(
                        in: phone.language, floor: phone.refreshControl.state == .releaseToFloor))] {
            let event = FeedbackEvent(frame: frame, time: time, effect: effect, kind: kind, platform: phone.device.platform)
            feedback.append(event)
            write(event.jsonLine)
        }
    }

    private func write(_ line: String) {
        guard let file else { return }
        let line = phoneLabel.map { "{\"phone\":" + JSONLineBuffer.quoted($0) + "," + line.dropFirst() } ?? line
        _ = (line + "\n").withCString { fputs($0, file) }
        fflush(file)
    }

    /// Flushes and closes the file; later changes are kept in memory only.
    public func close() throws {
        guard let handle = file else { return }
        file = nil
        guard ownsFile else { return }
        let failed = ferror(handle) != 0
        if fclose(handle) != 0 || failed, let path {
            throw LabError("could not finish writing the events file '\(path)'; check that the disk has room")
        }
    }
}


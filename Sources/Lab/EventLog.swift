#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster
import Refresh
import Styles

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

    public init(frame: Int, time: Double, effect: String, control: Control, from: RefreshState, to: RefreshState) {
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
    public var jsonLine: String {
        var line = "{\"frame\":" + String(frame) + ",\"time\":"
        var digits = JSONLineBuffer(capacity: 32)
        digits.append(time, decimals: 6)
        line += digits.string
        line += ",\"effect\":" + JSONLineBuffer.quoted(effect)
        line += ",\"control\":\"" + control.rawValue + "\""
        line += ",\"from\":" + JSONLineBuffer.quoted(from.description)
        line += ",\"to\":" + JSONLineBuffer.quoted(to.description) + "}"
        return line
    }
}

/// Records every state change of a simulation's header and footer, with the frame and time it happened at, and
/// optionally writes each one as a JSON line to a file as it happens (flushed at once, so that a run that is
/// killed keeps every line written so far).
///
/// The host sets `frame` at the start of each frame. The log chains itself before any `stateDidChange` handler
/// already installed, so it can sit beside other observers.
///
/// In memory it keeps the recent changes only, from `retainedChanges` to twice as many, so that a run of any
/// length (an hour of random use makes thousands) holds it in constant memory; the file has every one.
public final class EventLog {
    /// The recent changes, oldest first; `droppedCount` older ones are only in the file.
    public private(set) var changes: [StateChange] = []
    /// How many of the oldest changes were let go from `changes`.
    public private(set) var droppedCount = 0
    /// How many changes `changes` keeps at least once it is trimmed.
    public static let retainedChanges = 1024
    /// The frame being run; the host advances it.
    public var frame = 0
    /// Where the lines go, or nil to keep them in memory only.
    public let path: String?

    private unowned let simulation: Simulation
    private let startTime: Double
    private var file: UnsafeMutablePointer<FILE>?

    /// Starts logging `simulation`'s state changes, and writing them to `path` when given.
    ///
    /// - Throws: `LabError` naming `path` when it cannot be created.
    public init(simulation: Simulation, path: String? = nil) throws {
        self.simulation = simulation
        self.path = path
        startTime = simulation.clock.now
        if let path {
            guard let handle = FileName.withBytes(path, { fopen($0, "w") }) else {
                throw LabError("cannot write the events file '\(path)': \(String(cString: strerror(errno))); "
                    + "check that its folder exists and is writable")
            }
            file = handle
        }
        let headerHandler = simulation.refreshControl.stateDidChange
        simulation.refreshControl.stateDidChange = { [weak self] old, new in
            self?.record(.header, from: old, to: new)
            headerHandler?(old, new)
        }
        let footerHandler = simulation.footer.stateDidChange
        simulation.footer.stateDidChange = { [weak self] old, new in
            self?.record(.footer, from: old, to: new)
            footerHandler?(old, new)
        }
    }

    deinit {
        if let file { fclose(file) }
    }

    /// The header's changes only, in order.
    public var headerChanges: [StateChange] { changes.filter { $0.control == .header } }

    private func record(_ control: StateChange.Control, from old: RefreshState, to new: RefreshState) {
        let change = StateChange(frame: frame, time: simulation.clock.now - startTime, effect: simulation.effectName,
                                 control: control, from: old, to: new)
        if changes.count == 2 * EventLog.retainedChanges {
            changes.removeFirst(EventLog.retainedChanges)
            droppedCount += EventLog.retainedChanges
        }
        changes.append(change)
        guard let file else { return }
        let line = change.jsonLine + "\n"
        _ = line.withCString { fputs($0, file) }
        fflush(file)
    }

    /// Flushes and closes the file; later changes are kept in memory only.
    public func close() throws {
        guard let handle = file else { return }
        file = nil
        let failed = ferror(handle) != 0
        if fclose(handle) != 0 || failed, let path {
            throw LabError("could not finish writing the events file '\(path)'; check that the disk has room")
        }
    }
}

/// A byte buffer for building JSON lines without allocating per value: numbers are formatted into it digit by digit.
///
/// Made once with room for the longest line; `reset()` empties it for the next line.
public struct JSONLineBuffer {
    public private(set) var bytes: [UInt8]
    public private(set) var count = 0

    public init(capacity: Int) {
        bytes = [UInt8](repeating: 0, count: Swift.max(capacity, 64))
    }

    public mutating func reset() { count = 0 }

    /// The text so far (this allocates; for tests and occasional lines).
    public var string: String { String(decoding: bytes[0..<count], as: UTF8.self) }

    @inline(__always)
    mutating func append(byte: UInt8) {
        if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: bytes.count)) }
        bytes[count] = byte
        count += 1
    }

    /// Appends ASCII text given as a static string (field names and punctuation).
    public mutating func append(_ text: StaticString) {
        let start = text.utf8Start
        for i in 0..<text.utf8CodeUnitCount { append(byte: start[i]) }
    }

    /// Appends the UTF-8 bytes of `text` as they are (the caller knows it needs no escaping).
    public mutating func append(raw text: String) {
        var text = text
        text.withUTF8 { for b in $0 { append(byte: b) } }
    }

    /// Appends an integer in decimal.
    public mutating func append(_ value: Int) {
        if value < 0 { append(byte: UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var place: UInt = 1
        while magnitude / place >= 10 { place *= 10 }
        while place > 0 {
            append(byte: UInt8(ascii: "0") + UInt8((magnitude / place) % 10))
            place /= 10
        }
    }

    /// Appends a number with exactly `decimals` digits after the point, rounded half away from zero
    /// (`-0.0004` with 3 decimals is `0.000`, never `-0.000`). Non-finite values become `null`, as JSON has no
    /// infinities.
    public mutating func append(_ value: Double, decimals: Int) {
        guard value.isFinite, value.magnitude < 9e15 else {
            append("null")
            return
        }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value.magnitude * scale).rounded()
        var units = Int(scaled)
        if value < 0 && units != 0 { append(byte: UInt8(ascii: "-")) }
        var divisor = 1
        for _ in 0..<decimals { divisor *= 10 }
        append(units / divisor)
        guard decimals > 0 else { return }
        append(byte: UInt8(ascii: "."))
        units %= divisor
        var place = divisor / 10
        while place > 0 {
            append(byte: UInt8(ascii: "0") + UInt8(units / place))
            units %= place
            place /= 10
        }
    }

    /// `text` as a JSON string literal, quotes and escapes included.
    public static func quoted(_ text: String) -> String { JSONText.string(text) }

    /// Writes the line so far and a newline to `file`.
    public mutating func writeLine(to file: UnsafeMutablePointer<FILE>) -> Bool {
        append(byte: UInt8(ascii: "\n"))
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, count, file) }
        return written == count
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

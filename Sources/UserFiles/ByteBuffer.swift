#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A growable byte buffer allocated once, into which rows are formatted without making strings: numbers are
/// written digit by digit (fixed point), names are copied from byte tables made once.
public struct ByteBuffer {
    public private(set) var storage: UnsafeMutableBufferPointer<UInt8>
    public private(set) var count = 0

    public init(capacity: Int) {
        storage = .allocate(capacity: Swift.max(capacity, 64))
    }

    /// Frees the storage; the buffer must not be used afterwards.
    public mutating func deallocate() {
        storage.deallocate()
        storage = UnsafeMutableBufferPointer(start: nil, count: 0)
        count = 0
    }

    public mutating func removeAll() { count = 0 }

    /// Makes room for `extra` more bytes; grows (rarely: the buffer is flushed long before) by doubling.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        guard count + extra > storage.count else { return }
        let grown = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: Swift.max(storage.count * 2, count + extra))
        if count > 0 { grown.baseAddress!.update(from: storage.baseAddress!, count: count) }
        storage.deallocate()
        storage = grown
    }

    @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    public mutating func append(_ bytes: [UInt8]) {
        reserve(bytes.count)
        for b in bytes {
            storage[count] = b
            count += 1
        }
    }

    public mutating func append(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        reserve(n)
        let p = text.utf8Start
        for i in 0..<n { storage[count + i] = p[i] }
        count += n
    }

    /// A string (for names and messages outside the frame loop).
    public mutating func append(string: String) {
        append(Array(string.utf8))
    }

    /// A whole number in decimal.
    public mutating func append(int value: Int) {
        reserve(21)
        var v = value
        if v < 0 {
            storage[count] = UInt8(ascii: "-")
            count += 1
            v = v == Int.min ? Int.max : -v
        }
        var digits = 1
        var t = v
        while t >= 10 { t /= 10; digits += 1 }
        var i = count + digits - 1
        repeat {
            storage[i] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
            i -= 1
        } while v > 0
        count += digits
    }

    /// `value` with exactly `decimals` digits after the point, rounded half away from zero; a value that is not
    /// finite or too large for fixed point is written as 0.
    public mutating func append(fixed value: Double, decimals: Int) {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        guard value.isFinite, abs(value) * scale < 9e17 else {
            append(int: 0)
            if decimals > 0 { append(UInt8(ascii: ".")); for _ in 0..<decimals { append(UInt8(ascii: "0")) } }
            return
        }
        var scaled = Int((abs(value) * scale).rounded())
        if value < 0 && scaled > 0 { append(UInt8(ascii: "-")) }
        var divisor = 1
        for _ in 0..<decimals { divisor *= 10 }
        append(int: scaled / divisor)
        guard decimals > 0 else { return }
        append(UInt8(ascii: "."))
        scaled %= divisor
        reserve(decimals)
        var i = count + decimals - 1
        for _ in 0..<decimals {
            storage[i] = UInt8(ascii: "0") + UInt8(scaled % 10)
            scaled /= 10
            i -= 1
        }
        count += decimals
    }

    /// The bytes so far as a string (tests and small files).
    public var string: String {
        String(decoding: UnsafeBufferPointer(rebasing: storage[0..<count]), as: UTF8.self)
    }
}


extension OutputFile {
    /// Appends the bytes formatted in `buffer`.
    public func write(_ buffer: ByteBuffer) throws {
        try write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer.storage)[0..<buffer.count]))
    }
}

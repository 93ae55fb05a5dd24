/// A fuzzer's bytes read as the values a harness needs. Reads past the end give zeros, so every input decodes to
/// something and the fuzzer can grow an input a byte at a time.
struct FuzzInput {
    let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
    }

    var isAtEnd: Bool { position >= bytes.count }

    /// The whole input as an array, for parsers that take one.
    var array: [UInt8] { Array(bytes) }

    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// One of `count` choices.
    mutating func choice(_ count: Int) -> Int { Int(byte()) % count }

    /// A number: mostly a small one, on a grid the canvas can show, and sometimes any bit pattern (NaN, infinity,
    /// 1e300, subnormals), so that both the drawing and the guards against extreme values are exercised.
    mutating func number() -> Double {
        let kind = byte()
        var raw: UInt64 = 0
        let width = kind & 0xE0 == 0xE0 ? 8 : 2
        for _ in 0..<width { raw = raw << 8 | UInt64(byte()) }
        if width == 8 { return Double(bitPattern: raw) }
        let small = Double(Int16(truncatingIfNeeded: raw))
        switch kind & 3 {
        case 0: return small / 256
        case 1: return small / 16
        case 2: return small
        default: return small * 1e3
        }
    }
}

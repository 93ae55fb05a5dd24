/// A JSON document as the Lottie parser reads it: each value with the byte offset where it starts in the file.
///
/// Lottie reads no files and has no JSON reader of its own; the caller that read the file builds this tree from its
/// reader's output (Lab does, from its scene reader), so that a semantic error can still point at a line and column.
public struct LottieJSON: Sendable {
    /// Not `indirect`: arrays already give the recursion its indirection, and a boxed case would cost an
    /// allocation for every number of a file.
    public enum Value: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([LottieJSON])
        /// Fields in file order.
        case object([(key: String, value: LottieJSON)])
    }

    public var value: Value
    /// Byte offset of the value's first byte in the file.
    public var offset: Int

    public init(_ value: Value, offset: Int = 0) {
        self.value = value
        self.offset = offset
    }

    subscript(key: String) -> LottieJSON? {
        guard case .object(let fields) = value else { return nil }
        return fields.first { $0.key == key }?.value
    }

    var number: Double? {
        switch value {
        case .number(let n): return n
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }

    var string: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    var array: [LottieJSON]? {
        if case .array(let a) = value { return a }
        return nil
    }

    var isObject: Bool {
        if case .object = value { return true }
        return false
    }

    /// The numbers of an array, or of a single number as one element; nil when anything else is there.
    var numbers: [Double]? {
        if let n = number { return [n] }
        guard let a = array else { return nil }
        var out: [Double] = []
        out.reserveCapacity(a.count)
        for e in a {
            guard let n = e.number else { return nil }
            out.append(n)
        }
        return out
    }
}

/// A small JSON reader for scene files, gesture scripts and style files.
///
/// The lab stays free of Foundation, and a reader of our own can say exactly where a file is broken (line, column and
/// byte offset) and keep each object's fields in file order, which the scene loader uses to name the field at fault.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Fields in the order the file gives them; a repeated key is a syntax error, so lookups are unambiguous.
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// What the value is, as an error message says it ("a string", "an array", …).
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A parsed value with the byte offset where it starts and, inside it, where each key and element starts.
public struct LocatedJSON {
    /// One field of an object: its key, where the key's opening quote is, and its value.
    public struct Field {
        public let key: String
        public let keyOffset: Int
        public let value: LocatedJSON
    }

    public let value: JSONValue
    /// Byte offset of the value's first byte.
    public let offset: Int
    /// An object's fields in file order; empty for anything else.
    public let fields: [Field]
    /// An array's elements; empty for anything else.
    public let elements: [LocatedJSON]
}

/// Where and why a JSON text could not be read.
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    /// Byte offset of the fault from the start of the text.
    public var offset: Int
    /// 1-based line and column (in bytes) of the fault.
    public var line: Int
    public var column: Int
    public var reason: String

    public init(offset: Int, line: Int, column: Int, reason: String) {
        self.offset = offset
        self.line = line
        self.column = column
        self.reason = reason
    }

    public var description: String { "line \(line), column \(column) (offset \(offset)): \(reason)" }
}

/// A recursive-descent JSON parser over UTF-8 bytes (RFC 8259).
public struct JSONReader {
    /// Nesting deeper than this is refused, so a hostile file cannot exhaust the stack.
    static let maxDepth = 512

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    /// When not nil, the byte offset of every value's first byte, in document order (a value before its children);
    /// gesture scripts use it to put a line and column on a field whose value is wrong.
    private var valueOffsets: [Int]?
    /// When not nil, the byte offset of every object key, in document order.
    private var keyOffsets: [Int]?
    /// The elements and fields of the arrays and objects being read, innermost last: each container is collected
    /// here and copied out once when it closes, so that it costs one allocation of exactly its size instead of a
    /// buffer regrown as it fills (a large animation file has hundreds of thousands of small arrays).
    private var elementStack: [JSONValue] = []
    private var fieldStack: [(key: String, value: JSONValue)] = []
    /// The keys of the objects being read into a tape, innermost last, to refuse a repeated one.
    private var keyStack: [String] = []

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses a whole document: one value, with only white space around it.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        try read(bytes, recording: false).value
    }

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Parses a whole document as `parse(_:)` does, and also returns the byte offset where each value starts, in
    /// document order: the root first, then each object's values and each array's elements depth first.
    public static func parseWithOffsets(_ bytes: [UInt8]) throws(JSONSyntaxError) -> (value: JSONValue, offsets: [Int]) {
        let read = try read(bytes, recording: true)
        return (read.value, read.valueOffsets)
    }

    /// Parses a whole document into a tree that keeps where every value and every object key starts, so that a
    /// reader can name the line and column of a key it does not know as well as of a value it refuses.
    public static func parseLocated(_ bytes: [UInt8]) throws(JSONSyntaxError) -> LocatedJSON {
        let read = try read(bytes, recording: true)
        var nextValue = 0, nextKey = 0
        func locate(_ value: JSONValue) -> LocatedJSON {
            let offset = read.valueOffsets[nextValue]
            nextValue += 1
            switch value {
            case .object(let fields):
                let located = fields.map { field -> LocatedJSON.Field in
                    let keyOffset = read.keyOffsets[nextKey]
                    nextKey += 1
                    return LocatedJSON.Field(key: field.key, keyOffset: keyOffset, value: locate(field.value))
                }
                return LocatedJSON(value: value, offset: offset, fields: located, elements: [])
            case .array(let items):
                return LocatedJSON(value: value, offset: offset, fields: [], elements: items.map(locate))
            default:
                return LocatedJSON(value: value, offset: offset, fields: [], elements: [])
            }
        }
        return locate(read.value)
    }

    private static func read(_ bytes: [UInt8], recording: Bool) throws(JSONSyntaxError)
        -> (value: JSONValue, valueOffsets: [Int], keyOffsets: [Int]) {
        var reader = JSONReader(bytes)
        if recording {
            reader.valueOffsets = []
            reader.valueOffsets?.reserveCapacity(bytes.count / 8)
            reader.keyOffsets = []
        }
        // A UTF-8 byte-order mark is tolerated, as many editors write one.
        reader.index = UserFile.byteOrderMarkLength(bytes)
        reader.skipSpace()
        let value = try reader.parseValue()
        reader.skipSpace()
        guard reader.index == bytes.count else { throw reader.error("unexpected text after the end of the document") }
        return (value, reader.valueOffsets ?? [], reader.keyOffsets ?? [])
    }

    /// Reads a whole document into a `JSONTape`, with the same checks and the same errors (text, line and column)
    /// as `parse(_:)`.
    public static func parseTape(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONTape {
        var reader = JSONReader(bytes)
        var tape = JSONTape()
        tape.reserve(forBytes: bytes.count)
        reader.index = UserFile.byteOrderMarkLength(bytes)
        reader.skipSpace()
        try reader.tapeValue(into: &tape, key: -1)
        reader.skipSpace()
        guard reader.index == bytes.count else { throw reader.error("unexpected text after the end of the document") }
        return tape
    }

    // The tape's readers follow parseValue, parseObject and parseArray step by step, with the same messages.

    private mutating func tapeValue(into tape: inout JSONTape, key: Int) throws(JSONSyntaxError) {
        guard index < bytes.count else { throw error("expected a value but found the end of the file") }
        let offset = index
        switch bytes[index] {
        case UInt8(ascii: "{"): try tapeObject(into: &tape, key: key)
        case UInt8(ascii: "["): try tapeArray(into: &tape, key: key)
        case UInt8(ascii: "\""):
            let text = try parseString()
            tape.strings.append(text)
            tape.append(.string, offset: offset, link: tape.strings.count - 1, key: key)
        case UInt8(ascii: "t"): try expectWord("true"); tape.append(.true, offset: offset, key: key)
        case UInt8(ascii: "f"): try expectWord("false"); tape.append(.false, offset: offset, key: key)
        case UInt8(ascii: "n"): try expectWord("null"); tape.append(.null, offset: offset, key: key)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let n = try parseNumber()
            tape.append(.number, offset: offset, number: n, key: key)
        default: throw error("expected a value but found \(found)")
        }
    }

    private mutating func tapeObject(into tape: inout JSONTape, key: Int) throws(JSONSyntaxError) {
        let node = tape.kinds.count
        tape.append(.object, offset: index, key: key)
        defer { tape.links[node] = tape.kinds.count }
        guard try open(closing: UInt8(ascii: "}")) else { return }
        let base = keyStack.count
        repeat {
            let name = try fieldName(unlike: keyStack[base...])
            keyStack.append(name)
            tape.strings.append(name)
            try tapeValue(into: &tape, key: tape.strings.count - 1)
        } while try next(closing: UInt8(ascii: "}"))
        keyStack.removeSubrange(base...)
    }

    private mutating func tapeArray(into tape: inout JSONTape, key: Int) throws(JSONSyntaxError) {
        let node = tape.kinds.count
        tape.append(.array, offset: index, key: key)
        defer { tape.links[node] = tape.kinds.count }
        guard try open(closing: UInt8(ascii: "]")) else { return }
        repeat {
            skipSpace()
            try tapeValue(into: &tape, key: -1)
        } while try next(closing: UInt8(ascii: "]"))
    }

    /// The 1-based line and column (in bytes) of a byte offset in `bytes`.
    public static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let at = Swift.max(0, Swift.min(offset, bytes.count))
        var line = 1, lineStart = 0
        for i in 0..<at where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        return (line, at - lineStart + 1)
    }

    private func error(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
        let at = Swift.min(offset ?? index, bytes.count)
        var line = 1, lineStart = 0
        for i in 0..<at where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        return JSONSyntaxError(offset: at, line: line, column: at - lineStart + 1, reason: reason)
    }

    /// The byte under the cursor, described for an error message.
    private var found: String {
        guard index < bytes.count else { return "the end of the file" }
        let b = bytes[index]
        if b >= 0x20 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x" + String(b, radix: 16)
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("expected a value but found the end of the file") }
        valueOffsets?.append(index)
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("expected a value but found \(found)")
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONSyntaxError) {
        let start = index
        for b in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
            guard index < bytes.count, bytes[index] == b else {
                index = start
                throw error("expected a value but found \(found)")
            }
            index += 1
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= JSONReader.maxDepth else { throw error("nesting deeper than \(JSONReader.maxDepth) levels") }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        guard try open(closing: UInt8(ascii: "}")) else { return .object([]) }
        let base = fieldStack.count
        repeat {
            skipSpace()
            keyOffsets?.append(index)
            let key = try fieldName(unlike: fieldStack[base...].lazy.map(\.key))
            fieldStack.append((key, try parseValue()))
        } while try next(closing: UInt8(ascii: "}"))
        let fields = Array(fieldStack[base...])
        fieldStack.removeSubrange(base...)
        return .object(fields)
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        guard try open(closing: UInt8(ascii: "]")) else { return .array([]) }
        let base = elementStack.count
        repeat {
            skipSpace()
            elementStack.append(try parseValue())
        } while try next(closing: UInt8(ascii: "]"))
        let values = Array(elementStack[base...])
        elementStack.removeSubrange(base...)
        return .array(values)
    }

    /// Steps into the object or array whose opening bracket is at `index`; false when `closing` follows at once
    /// (an empty one, already stepped out of), true when its members follow.
    private mutating func open(closing: UInt8) throws(JSONSyntaxError) -> Bool {
        try enter()
        index += 1
        skipSpace()
        guard index < bytes.count && bytes[index] == closing else { return true }
        index += 1
        depth -= 1
        return false
    }

    /// After a member: true when a comma says another follows, false when `closing` ends the object or array
    /// (stepping out of it); anything else is an error that names both.
    private mutating func next(closing: UInt8) throws(JSONSyntaxError) -> Bool {
        skipSpace()
        // The message is made only when needed: this runs between every two values of a file.
        func expected() -> String { "expected ',' or '\(Character(Unicode.Scalar(closing)))' but found" }
        guard index < bytes.count else { throw error("\(expected()) the end of the file") }
        if bytes[index] == UInt8(ascii: ",") { index += 1; return true }
        guard bytes[index] == closing else { throw error("\(expected()) \(found)") }
        index += 1
        depth -= 1
        return false
    }

    /// A field's name and its colon, with the space around them; a name already in `earlier` (the object's fields
    /// so far) is an error at the name.
    private mutating func fieldName<Names: Sequence<String>>(unlike earlier: Names) throws(JSONSyntaxError) -> String {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw error("expected a field name in double quotes but found \(found)")
        }
        let offset = index
        let name = try parseString()
        if earlier.contains(name) { throw error("field \"\(name)\" appears twice in one object", at: offset) }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw error("expected ':' after \"\(name)\" but found \(found)")
        }
        index += 1
        skipSpace()
        return name
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        // The common string, without escapes or control characters, is decoded in one piece; anything else is read
        // again from its start by the general loop below, which also reports what is wrong.
        var end = index
        while end < bytes.count {
            let b = bytes[end]
            if b == UInt8(ascii: "\"") {
                let text = String(decoding: bytes[index..<end], as: UTF8.self)
                index = end + 1
                return text
            }
            if b < 0x20 || b == UInt8(ascii: "\\") { break }
            end += 1
        }
        // The string's UTF-8, decoded once at its end: plain runs are copied as they are, escapes written as UTF-8
        // (appending to a String piece by piece copied it again and again, its time growing with the square of its
        // length). An escape's bytes never continue a broken sequence before them, so the decoding repairs what
        // it repairs in the file's own bytes alike.
        var utf8: [UInt8] = []
        utf8.reserveCapacity(end - index + 16)
        var runStart = index
        func flush(_ reader: JSONReader, to end: Int, into out: inout [UInt8]) {
            if end > runStart { out.append(contentsOf: reader.bytes[runStart..<end]) }
        }
        func put(_ scalar: Unicode.Scalar, into out: inout [UInt8]) {
            if let encoded = UTF8.encode(scalar) { out.append(contentsOf: encoded) }
        }
        while true {
            guard index < bytes.count else { throw error("a string is not closed before the end of the file", at: start) }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                flush(self, to: index, into: &utf8)
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            }
            if b < 0x20 { throw error("a control character (byte 0x\(String(b, radix: 16))) inside a string; escape it") }
            if b != UInt8(ascii: "\\") { index += 1; continue }
            flush(self, to: index, into: &utf8)
            index += 1
            guard index < bytes.count else { throw error("a string is not closed before the end of the file", at: start) }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): put("\"", into: &utf8)
            case UInt8(ascii: "\\"): put("\\", into: &utf8)
            case UInt8(ascii: "/"): put("/", into: &utf8)
            case UInt8(ascii: "b"): put("\u{08}", into: &utf8)
            case UInt8(ascii: "f"): put("\u{0C}", into: &utf8)
            case UInt8(ascii: "n"): put("\n", into: &utf8)
            case UInt8(ascii: "r"): put("\r", into: &utf8)
            case UInt8(ascii: "t"): put("\t", into: &utf8)
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800..<0xDC00).contains(code),
                   index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("an unpaired UTF-16 surrogate escape") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("an unpaired UTF-16 surrogate escape") }
                put(scalar, into: &utf8)
            default:
                index -= 1
                throw error("unknown escape '\\\(found.dropFirst().dropLast())' in a string")
            }
            runStart = index
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = JSONReader.hexValue(bytes[index]) else {
                throw error("expected 4 hexadecimal digits after '\\u' but found \(found)")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private static func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// Exact powers of ten as Doubles: 10^22 is the largest that a Double holds exactly.
    private static let exactPowersOfTen: [Double] = (0...22).map { e in
        var p = 1.0
        for _ in 0..<e { p *= 10 }
        return p
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") }
        // The digits are gathered while the grammar is checked: most numbers in a file have few of them, and then
        // the value is one exact integer scaled by one exact power of ten, which IEEE division or multiplication
        // rounds correctly (Clinger's fast path), with no text made for Double's parser.
        var mantissa: UInt64 = 0, digits = 0, scale = 0
        @inline(__always) func digit(_ b: UInt8) {
            if mantissa == 0 && b == UInt8(ascii: "0") { return }  // leading zeros add no significant digit
            mantissa = mantissa &* 10 &+ UInt64(b &- UInt8(ascii: "0"))
            digits += 1
        }
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard isDigit(index) else { throw error("expected a digit but found \(found)") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { throw error("a number may not start with 0 followed by more digits") }
        } else {
            while isDigit(index) { digit(bytes[index]); index += 1 }
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { throw error("expected a digit after '.' but found \(found)") }
            while isDigit(index) { digit(bytes[index]); scale -= 1; index += 1 }
        }
        var exponentTooLong = false
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            var sign = 1, exponent = 0
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                if bytes[index] == UInt8(ascii: "-") { sign = -1 }
                index += 1
            }
            guard isDigit(index) else { throw error("expected a digit in the exponent but found \(found)") }
            while isDigit(index) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")) } else { exponentTooLong = true }
                index += 1
            }
            scale += sign * exponent
        }
        if !exponentTooLong, digits <= 15, mantissa < (1 << 53) {
            let m = Double(mantissa)
            var value: Double?
            if mantissa == 0 { value = 0 } else if scale >= 0, scale <= 22 { value = m * JSONReader.exactPowersOfTen[scale] } else if scale < 0, scale >= -22 { value = m / JSONReader.exactPowersOfTen[-scale] }
            if let value { return negative ? -value : value }
        }
        // The grammar above admits only what Double's own parser accepts, so this cannot fail on valid text.
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text) else { throw error("'\(text)' is not a number", at: start) }
        return value
    }
}

/// A JSON document read into flat arrays, one entry per value in document order (a value before its children):
/// the form a reader that builds its own model reads fastest. Where `JSONValue` costs an allocation per array,
/// object and long string and a tree to free, the tape is a handful of arrays however large the file.
public struct JSONTape: Sendable {
    /// The kinds of value, by the codes `kinds` holds.
    public enum Kind: UInt8, Sendable {
        case null = 0, `false`, `true`, number, string, array, object
    }

    /// Each value's kind, as a `Kind` code.
    public var kinds: [UInt8] = []
    /// Byte offset of each value's first byte.
    public var offsets: [Int] = []
    /// A number's value (0 for anything else).
    public var numbers: [Double] = []
    /// For a string, its index in `strings`; for an array or object, the index of the value after its last
    /// descendant (its next sibling's, or the end of its parent's); -1 otherwise.
    var links: [Int] = []
    /// For an object's field, the index of its key in `strings`; -1 for the root and array elements.
    public var keys: [Int] = []
    /// The strings and keys, in document order.
    public var strings: [String] = []

    /// The index of the value after value `i` and its descendants.
    @inline(__always) public func next(after i: Int) -> Int {
        let k = kinds[i]
        return k == Kind.array.rawValue || k == Kind.object.rawValue ? links[i] : i + 1
    }

    mutating func reserve(forBytes n: Int) {
        let values = n / 6 + 16
        kinds.reserveCapacity(values)
        offsets.reserveCapacity(values)
        numbers.reserveCapacity(values)
        links.reserveCapacity(values)
        keys.reserveCapacity(values)
        strings.reserveCapacity(n / 24 + 16)
    }

    mutating func append(_ kind: Kind, offset: Int, number: Double = 0, link: Int = -1, key: Int) {
        kinds.append(kind.rawValue)
        offsets.append(offset)
        numbers.append(number)
        links.append(link)
        keys.append(key)
    }
}

extension JSONValue {
    /// How many values this one is made of, itself included: its size in the document-order list of offsets.
    public var nodeCount: Int {
        switch self {
        case .array(let items): return 1 + items.reduce(0) { $0 + $1.nodeCount }
        case .object(let fields): return 1 + fields.reduce(0) { $0 + $1.value.nodeCount }
        default: return 1
        }
    }
}

/// A JSON document as the Lottie parser reads it: each value with the byte offset where it starts in the file.
///
/// Lottie reads no files and has no JSON reader of its own; the caller that read the file hands over its reader's
/// values in flat arrays (Lab does, from its scene reader's tape), so that a semantic error can still point at a
/// line and column. A `LottieJSON` is one value of that document: the document and an index into it. Reading a
/// megabyte of animation therefore makes no tree of its own: a field is found by stepping over its siblings, and
/// only the model the parser builds is allocated.
public struct LottieJSON: Sendable {
    /// The kinds of value, as the `kinds` codes of `init(kinds:offsets:numbers:links:keys:strings:)` give them.
    public enum Kind: UInt8, Sendable {
        case null = 0, `false`, `true`, number, string, array, object
    }

    final class Document: Sendable {
        let kinds: [UInt8], offsets: [Int], numbers: [Double], links: [Int], keys: [Int], strings: [String]

        init(kinds: [UInt8], offsets: [Int], numbers: [Double], links: [Int], keys: [Int], strings: [String]) {
            self.kinds = kinds
            self.offsets = offsets
            self.numbers = numbers
            self.links = links
            self.keys = keys
            self.strings = strings
        }

        @inline(__always) func kind(_ i: Int) -> Kind { Kind(rawValue: kinds[i]) ?? .null }

        /// The value after value `i` and everything inside it.
        @inline(__always) func next(after i: Int) -> Int {
            let k = kinds[i]
            return k == Kind.array.rawValue || k == Kind.object.rawValue ? links[i] : i + 1
        }
    }

    let document: Document
    let node: Int

    /// A document whose root is its first value. Each array has one entry per value, in document order (a value
    /// before its children): its kind (a `Kind` code), the byte offset where it starts, a number's value, a link
    /// (for a string its index in `strings`, for an array or object the index of the value after its last
    /// descendant) and, for an object's field, the index of its key in `strings` (-1 otherwise).
    public init(kinds: [UInt8], offsets: [Int], numbers: [Double], links: [Int], keys: [Int], strings: [String]) {
        let n = kinds.count
        precondition(offsets.count == n && numbers.count == n && links.count == n && keys.count == n && n > 0,
                     "a Lottie JSON document needs one entry per value in every array, and at least one value")
        document = Document(kinds: kinds, offsets: offsets, numbers: numbers, links: links, keys: keys,
                            strings: strings)
        node = 0
    }

    init(_ document: Document, _ node: Int) {
        self.document = document
        self.node = node
    }

    public var kind: Kind { document.kind(node) }

    /// Byte offset of the value's first byte in the file.
    public var offset: Int { document.offsets[node] }

    subscript(key: String) -> LottieJSON? {
        guard kind == .object else { return nil }
        let d = document, end = d.links[node]
        var c = node + 1
        while c < end {
            let k = d.keys[c]
            if k >= 0 && k < d.strings.count && d.strings[k] == key { return LottieJSON(d, c) }
            c = d.next(after: c)
        }
        return nil
    }

    var number: Double? {
        switch kind {
        case .number: return document.numbers[node]
        case .true: return 1
        case .false: return 0
        default: return nil
        }
    }

    var string: String? {
        guard kind == .string else { return nil }
        let i = document.links[node]
        return i >= 0 && i < document.strings.count ? document.strings[i] : nil
    }

    var array: Elements? { kind == .array ? Elements(document: document, start: node + 1, end: document.links[node]) : nil }

    var isObject: Bool { kind == .object }

    /// The elements of field `key` when it is an array; none otherwise.
    func elements(_ key: String) -> Elements {
        self[key]?.array ?? Elements(document: document, start: 0, end: 0)
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

    /// An array's elements, in order.
    struct Elements: Collection {
        let document: Document
        let start: Int, end: Int

        var startIndex: Int { start }
        var endIndex: Int { end }
        func index(after i: Int) -> Int { document.next(after: i) }
        subscript(i: Int) -> LottieJSON { LottieJSON(document, i) }
    }
}

/// One value of a `JSONTape`, with its place in the file: the way a reader that builds its own model (the Lottie
/// parser) walks a document without a tree. A field is found by stepping over its siblings, and only the model
/// the reader builds is allocated; an error can still point at the value's line and column through `offset`.
public struct JSONNode: Sendable {
    /// The kinds of value.
    public typealias Kind = JSONTape.Kind

    /// The tape, shared by every node of one document.
    final class Document: Sendable {
        let tape: JSONTape

        init(_ tape: JSONTape) { self.tape = tape }

        @inline(__always) func kind(_ i: Int) -> Kind { Kind(rawValue: tape.kinds[i]) ?? .null }
    }

    let document: Document
    let node: Int

    /// The root of a document read by `JSONReader.parseTape`.
    public init(root tape: JSONTape) {
        precondition(!tape.kinds.isEmpty, "a JSON document has at least one value")
        document = Document(tape)
        node = 0
    }

    init(_ document: Document, _ node: Int) {
        self.document = document
        self.node = node
    }

    public var kind: Kind { document.kind(node) }

    /// Byte offset of the value's first byte in the file.
    public var offset: Int { document.tape.offsets[node] }

    /// Field `key` of an object; nil when absent or when this is not an object.
    public subscript(key: String) -> JSONNode? {
        guard kind == .object else { return nil }
        let t = document.tape, end = t.links[node]
        var c = node + 1
        while c < end {
            let k = t.keys[c]
            if k >= 0 && k < t.strings.count && t.strings[k] == key { return JSONNode(document, c) }
            c = t.next(after: c)
        }
        return nil
    }

    /// A number's value (true and false read as 1 and 0, as Bodymovin's flags are); nil for anything else.
    public var number: Double? {
        switch kind {
        case .number: return document.tape.numbers[node]
        case .true: return 1
        case .false: return 0
        default: return nil
        }
    }

    public var string: String? {
        guard kind == .string else { return nil }
        let i = document.tape.links[node]
        return i >= 0 && i < document.tape.strings.count ? document.tape.strings[i] : nil
    }

    public var array: Elements? {
        kind == .array ? Elements(document: document, start: node + 1, end: document.tape.links[node]) : nil
    }

    public var isObject: Bool { kind == .object }

    /// The elements of field `key` when it is an array; none otherwise.
    public func elements(_ key: String) -> Elements {
        self[key]?.array ?? Elements(document: document, start: 0, end: 0)
    }

    /// The numbers of an array, or of a single number as one element; nil when anything else is there.
    public var numbers: [Double]? {
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
    public struct Elements: Collection, Sendable {
        let document: Document
        let start: Int, end: Int

        public var startIndex: Int { start }
        public var endIndex: Int { end }
        public func index(after i: Int) -> Int { document.tape.next(after: i) }
        public subscript(i: Int) -> JSONNode { JSONNode(document, i) }
    }
}

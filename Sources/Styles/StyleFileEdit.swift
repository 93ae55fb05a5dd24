import UserFiles
/// Changing one value of a style file while keeping everything else the user wrote, and changing one value of a
/// book in memory: what live tuning does on every nudge.
public enum StyleFileEdit {
    /// The text of the style file `bytes` (none: a new file) with `value` set under `section`.`key`: the other
    /// sections and keys stay, in their order, and a new section or key comes last. The result is pretty JSON
    /// (two-space indents, short arrays on one line), so saving twice gives the same bytes.
    ///
    /// - Throws: `JSONSyntaxError` when `bytes` is not JSON, or not an object of objects where it must be; such a
    ///   file is the user's to fix, never overwritten.
    public static func setting(_ value: JSONValue, section: String, key: String,
                               in bytes: [UInt8]?) throws(JSONSyntaxError) -> String {
        try editing(section: section, in: bytes) { fields in
            if let i = fields.firstIndex(where: { $0.key == key }) {
                fields[i].value = value
            } else {
                fields.append((key, value))
            }
        }
    }

    /// The text of the style file `bytes` without `section`.`key` (and without the section once it is empty), so
    /// that the key's default applies again; everything else stays as `setting` keeps it.
    ///
    /// - Throws: `JSONSyntaxError` as `setting` does.
    public static func removing(section: String, key: String, in bytes: [UInt8]?) throws(JSONSyntaxError) -> String {
        try editing(section: section, in: bytes) { fields in fields.removeAll { $0.key == key } }
    }

    /// The file's text with `section`'s members changed by `change`; a section left empty is dropped.
    private static func editing(section: String, in bytes: [UInt8]?,
                                _ change: (inout [(key: String, value: JSONValue)]) -> Void) throws(JSONSyntaxError) -> String {
        var root: [(key: String, value: JSONValue)] = []
        if let bytes, bytes.contains(where: { !isSpace($0) }) {
            guard case .object(let fields) = try JSONReader.parse(bytes) else {
                throw JSONSyntaxError(offset: 0, line: 1, column: 1, reason: "a style file is a JSON object")
            }
            root = fields
        }
        var sectionFields: [(key: String, value: JSONValue)] = []
        let index = root.firstIndex { $0.key == section }
        if let index {
            guard case .object(let fields) = root[index].value else {
                throw JSONSyntaxError(offset: 0, line: 1, column: 1, reason: "\"\(section)\" is not an object")
            }
            sectionFields = fields
        }
        change(&sectionFields)
        switch (index, sectionFields.isEmpty) {
        case (let index?, false): root[index].value = .object(sectionFields)
        case (let index?, true): root.remove(at: index)
        case (nil, false): root.append((section, .object(sectionFields)))
        case (nil, true): break
        }
        return JSONText.pretty(.object(root)) + "\n"
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}

extension JSONText {
    /// `value` as indented JSON: objects one member a line, arrays of plain values on one line.
    public static func pretty(_ value: JSONValue, indent: String = "") -> String {
        let inner = indent + "  "
        switch value {
        case .object(let fields):
            guard !fields.isEmpty else { return "{}" }
            let members = fields.map { inner + string($0.key) + ": " + pretty($0.value, indent: inner) }
            return "{\n" + members.joined(separator: ",\n") + "\n" + indent + "}"
        case .array(let items) where items.contains(where: { if case .object = $0 { true } else if case .array = $0 { true } else { false } }):
            return "[\n" + items.map { inner + pretty($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        default:
            return self.value(value)
        }
    }
}

extension StyleBook {
    /// Sets `section`.`key` to `value` (checked against `type`'s field), coming from `source`: a value tuned live,
    /// as if its file had been read again. Returns why the value was refused (nothing changes then), or nil.
    public mutating func set<S: StyleValue>(_ value: JSONValue, for key: String, in section: String, of type: S.Type,
                                            source: StyleSource) -> String? {
        guard let field = S.fields.first(where: { $0.key == key }) else { return "unknown key \"\(key)\" in \"\(section)\"" }
        var scratch = S()
        if let why = field.apply(value, to: &scratch) { return why }
        var entries = sections[section] ?? []
        let entry = Entry(key: key, value: value, source: source)
        if let i = entries.firstIndex(where: { $0.key == key }) { entries[i] = entry } else { entries.append(entry) }
        sections[section] = entries
        return nil
    }

    /// Removes the override of `section`.`key`: the style's default applies again.
    public mutating func remove(_ key: String, in section: String) {
        sections[section]?.removeAll { $0.key == key }
    }

    /// Whether `other` gives every section the same overrides (whatever their sources and order): a file read again
    /// after it was saved with the values already shown changes nothing one can see.
    public func hasSameValues(as other: StyleBook) -> Bool {
        let names = Set(sections.keys).union(other.sections.keys)
        return names.allSatisfy { name in
            let mine = entries(for: name), theirs = other.entries(for: name)
            return mine.count == theirs.count
                && mine.allSatisfy { entry in theirs.contains { $0.key == entry.key && $0.value == entry.value } }
        }
    }
}

extension StyleKind {
    /// The names of the timing curves a style file may give (`"easeInEaseOut"`, …), in a fixed order.
    public static var timingCurveNames: [String] { TimingNames.all.map(\.name) }
}

extension StyleBook {
    /// Takes the places `other` gives for the values of `file` that both books hold alike: after a file was
    /// rewritten, its values are where they now stand, line by line.
    public mutating func takeSources(of file: String, from other: StyleBook) {
        for (name, theirs) in other.sections {
            guard var mine = sections[name] else { continue }
            for (i, entry) in mine.enumerated() where entry.source.file == file {
                if let match = theirs.first(where: { $0.key == entry.key && $0.value == entry.value && $0.source.file == file }) {
                    mine[i] = Entry(key: entry.key, value: entry.value, source: match.source)
                }
            }
            sections[name] = mine
        }
    }
}

import Colors
import UserFiles
/// Where a value came from: a style file, its line and column.
public struct StyleSource: Hashable, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line)" }
}

/// A style file's fault.
public typealias StyleError = FileError

/// The sections a style file may have: one per effect, and the physics. A type-erased `StyleValue` per name.
public struct StyleCatalog: Sendable {
    public struct Section: Sendable {
        public let name: String
        public let type: any StyleValue.Type
    }

    public let sections: [Section]

    public init(_ sections: [(name: String, type: any StyleValue.Type)]) {
        self.sections = sections.map { Section(name: $0.name, type: $0.type) }
    }

    public func section(named name: String) -> Section? { sections.first { $0.name == name } }
}

/// The user's style files merged in order, each value checked against the catalog and kept with its source.
///
/// A later file overrides an earlier one key by key; a style is always built from the defaults plus these
/// overrides, so removing a key from a file brings its default back on the next load.
public struct StyleBook: Sendable {
    /// The top-level key the `styles` command writes the sources under; a reader ignores it, so that listing can be
    /// saved and edited as a style file.
    static let sourcesKey = "sources"

    public struct Entry: Sendable {
        public let key: String
        public let value: JSONValue
        public let source: StyleSource
    }

    /// The files read, in order.
    public private(set) var files: [String] = []
    /// Per section, the overriding values in the order first given (a later file replaces a value in place).
    var sections: [String: [Entry]] = [:]
    public let catalog: StyleCatalog

    /// No files: every style at its defaults.
    public init(catalog: StyleCatalog) {
        self.catalog = catalog
    }

    /// Reads `files` (name and content) in order; the first fault in any file is thrown and nothing is kept.
    public init(catalog: StyleCatalog, files: [(name: String, bytes: [UInt8])]) throws(StyleError) {
        self.catalog = catalog
        for file in files { try add(file.name, bytes: file.bytes) }
    }

    /// Merges one more file over those read so far; on a fault the book is unchanged.
    public mutating func add(_ file: String, bytes: [UInt8]) throws(StyleError) {
        let read = try StyleBook.read(file, bytes: bytes, catalog: catalog)
        files.append(file)
        for (section, entries) in read {
            var merged = sections[section] ?? []
            for entry in entries {
                if let i = merged.firstIndex(where: { $0.key == entry.key }) { merged[i] = entry } else { merged.append(entry) }
            }
            sections[section] = merged
        }
    }

    /// The overrides given for `section`, in order.
    public func entries(for section: String) -> [Entry] { sections[section] ?? [] }

    /// The effective style of `section` as shown in `appearance`: the defaults (dark ones in dark) with every
    /// override applied, the variant of `appearance` of a value given per appearance.
    public func style<S: StyleValue>(_ type: S.Type, for section: String, appearance: Appearance = .light) -> S {
        var style = S()
        if appearance == .dark { for field in S.fields { field.applyDarkDefault(to: &style) } }
        for entry in entries(for: section) {
            // Every entry was checked when its file was read, so a refusal here cannot happen; it is skipped.
            if let field = S.fields.first(where: { $0.key == entry.key }) {
                _ = field.apply(entry.value, to: &style, appearance: appearance)
            }
        }
        return style
    }

    /// Checks one file against the catalog: every section known, every key known, every value of its kind and range.
    static func read(_ file: String, bytes: [UInt8], catalog: StyleCatalog) throws(StyleError) -> [(String, [Entry])] {
        let root: LocatedJSON
        do {
            root = try JSONReader.parseLocated(bytes)
        } catch {
            throw StyleError(file: file, line: error.line, column: error.column, reason: "not valid JSON: \(error.reason)")
        }
        let text = StyleFileText(file: file, bytes: bytes)
        let fault = text.fault
        let names = catalog.sections.map(\.name)
        guard case .object = root.value else {
            throw fault(root.offset, "a style file is a JSON object whose keys are "
                + "\(names.map { "\"\($0)\"" }.joined(separator: ", ")), not \(root.value.kindDescription)")
        }
        var result: [(String, [Entry])] = []
        for section in root.fields where section.key != sourcesKey {
            guard let known = catalog.section(named: section.key) else {
                throw fault(section.keyOffset, "unknown section \"\(section.key)\"" + suggestion(for: section.key, among: names)
                    + " (the sections are \(names.joined(separator: ", ")))")
            }
            guard case .object = section.value.value else {
                throw fault(section.value.offset, "\"\(section.key)\" must be an object of parameter → value, not "
                    + section.value.value.kindDescription)
            }
            result.append((section.key, try entries(section.value, in: known, text: text)))
        }
        return result
    }

    private static func entries(_ object: LocatedJSON, in section: StyleCatalog.Section,
                                text: StyleFileText) throws(StyleError) -> [Entry] {
        let fault = text.fault
        func check<S: StyleValue>(_ type: S.Type) throws(StyleError) -> [Entry] {
            var scratch = S()
            var entries: [Entry] = []
            let keys = S.fields.map(\.key)
            for item in object.fields {
                guard let field = S.fields.first(where: { $0.key == item.key }) else {
                    throw fault(item.keyOffset, "unknown key \"\(item.key)\" in \"\(section.name)\""
                        + suggestion(for: item.key, among: keys))
                }
                let name = "\"\(section.name)\".\"\(item.key)\""
                if field.kind.variesByAppearance, case .object = item.value.value {
                    try checkVariants(item.value, of: field, named: name, text: text)
                } else if let why = field.apply(item.value.value, to: &scratch) {
                    throw fault(item.value.offset, "\(name): \(why)")
                }
                entries.append(Entry(key: item.key, value: item.value.value, source: text.place(item.value.offset)))
            }
            return entries
        }
        return try check(section.type)
    }

    /// Checks a value given per appearance, `{"light": …, "dark": …}`: the fault names the variant at fault where
    /// it is (an unknown appearance at its key, a wrong value at the value), or the object when one is missing.
    private static func checkVariants<S>(_ object: LocatedJSON, of field: StyleField<S>, named name: String,
                                         text: StyleFileText) throws(StyleError) where S: StyleValue {
        var scratch = S()
        for variant in object.fields {
            guard StyleCoding.appearanceKeys.contains(variant.key) else {
                throw text.fault(variant.keyOffset, "\(name): unknown appearance \"\(variant.key)\" (a value per "
                    + "appearance has \"light\" and \"dark\")" + suggestion(for: variant.key, among: StyleCoding.appearanceKeys))
            }
            if let why = field.apply(variant.value.value, to: &scratch) {
                throw text.fault(variant.value.offset, "\(name).\"\(variant.key)\": \(why)")
            }
        }
        if let why = field.apply(object.value, to: &scratch) { throw text.fault(object.offset, "\(name): \(why)") }
    }

    /// "; did you mean "X"?" for the known name nearest to `name`, when it is near enough to be a slip.
    static func suggestion(for name: String, among known: [String]) -> String {
        let scored = known.map { (name: $0, distance: editDistance(name.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.distance < $1.distance }),
              best.distance <= Swift.max(2, best.name.count / 3) else { return "" }
        return "; did you mean \"\(best.name)\"?"
    }

    /// Levenshtein distance over characters, with one row of memory.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var diagonal = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let above = row[j]
                row[j] = Swift.min(above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
                diagonal = above
            }
        }
        return row[b.count]
    }
}

/// A style file's name and bytes, to turn byte offsets into places and errors.
struct StyleFileText {
    let file: String
    let bytes: [UInt8]

    func place(_ offset: Int) -> StyleSource {
        let (line, column) = JSONReader.lineAndColumn(of: offset, in: bytes)
        return StyleSource(file: file, line: line, column: column)
    }

    func fault(_ offset: Int, _ message: String) -> StyleError {
        let at = place(offset)
        return StyleError(file: file, line: at.line, column: at.column, reason: message)
    }
}

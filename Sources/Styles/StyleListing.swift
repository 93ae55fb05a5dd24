import UserFiles
/// Styles written out as JSON: the effective values with their sources (a valid style file), and the schema.
extension StyleBook {
    /// The effective style of each of `sections` (all when empty), as a style file: a section per name with every
    /// parameter's value, then under `sources` where each came from ("default" or file:line). Saved and edited, it
    /// reads back as a style file; the reader skips `sources`.
    public func listing(_ names: [String] = []) -> String {
        let chosen = names.isEmpty ? catalog.sections : names.compactMap { catalog.section(named: $0) }
        var values: [String] = [], sources: [String] = []
        for section in chosen {
            func list<S: StyleValue>(_ type: S.Type) {
                let style = self.style(S.self, for: section.name)
                let dark = self.style(S.self, for: section.name, appearance: .dark)
                let given = entries(for: section.name)
                var valueLines: [String] = [], sourceLines: [String] = []
                for field in S.fields {
                    // A colour that differs in dark is listed per appearance, so that the listing reads back whole.
                    let light = field.read(style), shade = field.read(dark)
                    let value: JSONValue = light == shade ? light : .object([("light", light), ("dark", shade)])
                    valueLines.append("    \(JSONText.string(field.key)): \(JSONText.value(value))")
                    let source = given.first { $0.key == field.key }.map { "\($0.source)" } ?? "default"
                    sourceLines.append("    \(JSONText.string(field.key)): \(JSONText.string(source))")
                }
                values.append("  \(JSONText.string(section.name)): {\n" + valueLines.joined(separator: ",\n") + "\n  }")
                sources.append("    \(JSONText.string(section.name)): {\n"
                    + sourceLines.map { "  " + $0 }.joined(separator: ",\n") + "\n    }")
            }
            list(section.type)
        }
        let sourceBlock = "  \(JSONText.string(StyleBook.sourcesKey)): {\n" + sources.joined(separator: ",\n") + "\n  }"
        return "{\n" + (values + [sourceBlock]).joined(separator: ",\n") + "\n}\n"
    }
}

extension StyleValue {
    /// Every parameter with its default, kind, unit, range and meaning, one per line: the text of
    /// `Resources/effects/NAME.json` and `Resources/physics.json`.
    public static func schemaDocument(name: String, about: String) -> String {
        let defaults = Self()
        let lines = fields.map { field -> String in
            var parts = ["\"key\": \(JSONText.string(field.key))", "\"kind\": \"\(field.kind.rawValue)\"",
                         "\"default\": \(JSONText.value(field.read(defaults)))"]
            if let dark = field.darkDefault { parts.append("\"dark\": \(JSONText.value(dark))") }
            if !field.unit.isEmpty { parts.append("\"unit\": \(JSONText.string(field.unit))") }
            if let range = field.range {
                parts.append("\"range\": [\(JSONText.number(range.lowerBound)), \(JSONText.number(range.upperBound))]")
            }
            parts.append("\"meaning\": \(JSONText.string(field.meaning))")
            return "    {" + parts.joined(separator: ", ") + "}"
        }
        return "{\n  \"name\": \(JSONText.string(name)),\n  \"about\": \(JSONText.string(about)),\n"
            + "  \"parameters\": [\n" + lines.joined(separator: ",\n") + "\n  ]\n}\n"
    }
}

extension JSONText {
    static func value(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let v): return JSONText.number(v)
        case .string(let s): return string(s)
        case .array(let items): return "[" + items.map(self.value).joined(separator: ", ") + "]"
        case .object(let fields):
            return "{" + fields.map { string($0.key) + ": " + self.value($0.value) }.joined(separator: ", ") + "}"
        }
    }
}

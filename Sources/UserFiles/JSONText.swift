/// Compact JSON text for strings and numbers; Styles adds its values.
public enum JSONText {
    /// A number as JSON, and a person, writes it: 10000, not 10000.0; a fraction, or a whole number too large for
    /// an integer, as Swift writes it.
    public static func number(_ value: Double) -> String {
        value == value.rounded() && Swift.abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// `s` as a JSON string literal, quotes and escapes included; also a JavaScript one (U+2028 and U+2029, which end
    /// a line in JavaScript source, are escaped).
    public static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

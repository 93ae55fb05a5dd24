import UserFiles

/// A number given on the command line, checked against its documented range before anything uses it.
///
/// Options take their value as text (and accept text that starts with '-'), so that `--scale -1` is reported as a
/// negative scale rather than as a missing value, and a count too large for an `Int` as too large rather than as
/// a crash. Every message names the option, the value as given, and the range to give instead:
///
/// ```
/// --scale: '-1' is negative; give 1, 2 or 3
/// --budget-ms: 'nan' is not a finite number; give a number from 0.1 to 10000
/// ```
enum OptionNumber {
    /// A whole number in `range`; `allowed` says what to give, e.g. "1, 2 or 3".
    static func integer(_ text: String, option: String, in range: ClosedRange<Int>,
                               allowed: String? = nil) throws -> Int {
        let give = "give " + (allowed ?? "a whole number from \(range.lowerBound) to \(range.upperBound)")
        guard let value = Int(text) else {
            // Digits only, but too many for an Int: a count far past any range.
            let digits = text.drop { $0 == "-" || $0 == "+" }
            if !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) {
                throw LabError("\(option): '\(text)' is " + (text.hasPrefix("-") ? "negative" : "too large") + "; \(give)")
            }
            if let real = Double(text) { try checkFinite(real, text, option, give) }
            throw LabError("\(option): '\(text)' is not a whole number; \(give)")
        }
        if value < 0 && range.lowerBound >= 0 { throw LabError("\(option): '\(text)' is negative; \(give)") }
        guard range.contains(value) else {
            throw LabError("\(option): '\(text)' is " + (value < range.lowerBound ? "too small" : "too large")
                + "; \(give)")
        }
        return value
    }

    /// A finite number in `range`; `allowed` says what to give.
    static func real(_ text: String, option: String, in range: ClosedRange<Double>,
                            allowed: String? = nil) throws -> Double {
        let give = "give " + (allowed ?? "a number from \(JSONText.number(range.lowerBound)) to \(JSONText.number(range.upperBound))")
        guard let value = Double(text) else { throw LabError("\(option): '\(text)' is not a number; \(give)") }
        try checkFinite(value, text, option, give)
        if value < 0 && range.lowerBound >= 0 { throw LabError("\(option): '\(text)' is negative; \(give)") }
        guard range.contains(value) else {
            throw LabError("\(option): '\(text)' is " + (value < range.lowerBound ? "too small" : "too large")
                + "; \(give)")
        }
        return value
    }

    private static func checkFinite(_ value: Double, _ text: String, _ option: String, _ give: String) throws {
        guard value.isFinite else { throw LabError("\(option): '\(text)' is not a finite number; \(give)") }
    }
}

import Geometry
import Motion
import Colors
import UserFiles

/// A set of parameters with defaults (an effect's look, the scroll physics) that style files may override.
///
/// `init()` gives the defaults, today's sourced constants; `fields` describes every parameter, in the order a
/// style listing shows them, so that files can be checked and documented from the code alone.
public protocol StyleValue: Equatable, Sendable {
    init()
    static var fields: [StyleField<Self>] { get }
}

/// How a parameter is written in a style file.
public enum StyleKind: String, Sendable {
    /// A JSON number, within the field's range.
    case number
    /// A JSON number without a fraction, within the field's range.
    case integer
    /// "#RRGGBB" or "#RRGGBBAA".
    case color
    /// A list of colours.
    case colors
    /// A curve: a name ("easeInEaseOut"), [x1, y1, x2, y2] or "decelerate(F)".
    case timing
    /// [width, height] in points, each within the field's range.
    case size
    /// {"en": "…", "zh": "…"}: either language or both.
    case text
    /// A span of an animation: a marker's name ("pull"), [from, to] in the file's frame numbers, or null for the
    /// field's default.
    case segment

    /// Whether a style file may give the value once per appearance, `{"light": …, "dark": …}`: colours may.
    public var variesByAppearance: Bool { self == .color || self == .colors }

    /// What a value of this kind looks like, for error messages.
    var expectation: String {
        switch self {
        case .number: return "a number"
        case .integer: return "a whole number"
        case .color: return "a colour \"#RRGGBB\" or \"#RRGGBBAA\""
        case .colors: return "a list of colours such as [\"#FF9500\", \"#4285F4\"]"
        case .timing:
            return "a timing curve: a name (\(TimingNames.all.map(\.name).joined(separator: ", "))), "
                + "[x1, y1, x2, y2] or \"decelerate(F)\""
        case .size: return "[width, height]"
        case .text: return "a text {\"en\": \"…\", \"zh\": \"…\"}"
        case .segment: return "a marker's name such as \"pull\", [from, to] frame numbers, or null"
        }
    }
}

/// One parameter of a style: its key, unit, meaning and range, and how to read and write it on the style value.
public struct StyleField<Root> {
    public let key: String
    public let kind: StyleKind
    /// "pt", "s", "pt/s", "turn", …; empty for a plain ratio.
    public let unit: String
    public let meaning: String
    /// The values a number (or each number of a size) may take.
    public let range: ClosedRange<Double>?
    /// The value in `root`, as a style file writes it.
    public let read: (Root) -> JSONValue
    /// Sets the value from a style file into `root`, or says why it cannot (nothing is changed then).
    let write: (inout Root, JSONValue) -> String?
    /// The value's default in dark appearance, as a style file writes it; nil when it is the light one (a brand
    /// colour, a size). Only colours have one.
    public let darkDefault: JSONValue?

    init(key: String, kind: StyleKind, unit: String, meaning: String, range: ClosedRange<Double>?,
         darkDefault: JSONValue? = nil, read: @escaping (Root) -> JSONValue,
         write: @escaping (inout Root, JSONValue) -> String?) {
        self.key = key
        self.kind = kind
        self.unit = unit
        self.meaning = meaning
        self.range = range
        self.darkDefault = darkDefault
        self.read = read
        self.write = write
    }

    /// Sets `value` as shown in `appearance` on `root`: a colour given per appearance (`{"light": …, "dark": …}`)
    /// sets the variant of `appearance`, any other value is the same in both. Returns why it was refused (nothing
    /// changes then), or nil; a value per appearance is checked whole, both variants.
    public func apply(_ value: JSONValue, to root: inout Root, appearance: Appearance = .light) -> String? {
        guard kind.variesByAppearance, case .object = value else { return write(&root, value) }
        switch StyleCoding.variants(value) {
        case .failure(let why): return why.text
        case .success(let variants):
            var scratch = root
            for (name, variant) in [("light", variants.light), ("dark", variants.dark)] {
                if let why = write(&scratch, variant) { return "\"\(name)\": \(why)" }
            }
            return write(&root, appearance == .light ? variants.light : variants.dark)
        }
    }

    /// Sets the dark defaults on `root` (the light ones being `init()`'s).
    func applyDarkDefault(to root: inout Root) {
        if let darkDefault { _ = write(&root, darkDefault) }
    }

    /// A number in `unit`, within `range`.
    public static func number(_ key: String, _ path: WritableKeyPath<Root, Double>, _ unit: String,
                              _ range: ClosedRange<Double>, _ meaning: String) -> StyleField {
        StyleField(key: key, kind: .number, unit: unit, meaning: meaning, range: range,
                   read: { .number($0[keyPath: path]) },
                   write: { root, value in
                       switch StyleCoding.number(value, in: range) {
                       case .success(let v): root[keyPath: path] = v; return nil
                       case .failure(let why): return why.text
                       }
                   })
    }

    /// A whole number within `range`.
    public static func integer(_ key: String, _ path: WritableKeyPath<Root, Int>, _ unit: String,
                               _ range: ClosedRange<Int>, _ meaning: String) -> StyleField {
        let bounds = Double(range.lowerBound)...Double(range.upperBound)
        return StyleField(key: key, kind: .integer, unit: unit, meaning: meaning, range: bounds,
                          read: { .number(Double($0[keyPath: path])) },
                          write: { root, value in
                              switch StyleCoding.number(value, in: bounds) {
                              case .success(let v) where v == v.rounded(): root[keyPath: path] = Int(v); return nil
                              case .success: return "expected a whole number, not \(StyleCoding.show(value))"
                              case .failure(let why): return why.text
                              }
                          })
    }

    /// A colour; `dark` is its default in dark appearance when that differs from the light one.
    public static func color(_ key: String, _ path: WritableKeyPath<Root, Color>, dark: Color? = nil,
                             _ meaning: String) -> StyleField {
        StyleField(key: key, kind: .color, unit: "", meaning: meaning, range: nil,
                   darkDefault: dark.map { .string(StyleCoding.hex($0)) },
                   read: { .string(StyleCoding.hex($0[keyPath: path])) },
                   write: { root, value in
                       switch StyleCoding.color(value) {
                       case .success(let c): root[keyPath: path] = c; return nil
                       case .failure(let why): return why.text
                       }
                   })
    }

    /// A non-empty list of at most 64 colours.
    public static func colors(_ key: String, _ path: WritableKeyPath<Root, [Color]>, _ meaning: String) -> StyleField {
        StyleField(key: key, kind: .colors, unit: "", meaning: meaning, range: nil,
                   read: { .array($0[keyPath: path].map { .string(StyleCoding.hex($0)) }) },
                   write: { root, value in
                       guard case .array(let items) = value, (1...64).contains(items.count) else {
                           return "expected \(StyleKind.colors.expectation) (1 to 64 of them), not \(StyleCoding.show(value))"
                       }
                       var colors: [Color] = []
                       for item in items {
                           switch StyleCoding.color(item) {
                           case .success(let c): colors.append(c)
                           case .failure(let why): return why.text
                           }
                       }
                       root[keyPath: path] = colors
                       return nil
                   })
    }

    /// A timing curve.
    public static func timing(_ key: String, _ path: WritableKeyPath<Root, TimingFunction>,
                              _ meaning: String) -> StyleField {
        StyleField(key: key, kind: .timing, unit: "", meaning: meaning, range: nil,
                   read: { StyleCoding.timingJSON($0[keyPath: path]) },
                   write: { root, value in
                       switch StyleCoding.timing(value) {
                       case .success(let t): root[keyPath: path] = t; return nil
                       case .failure(let why): return why.text
                       }
                   })
    }

    /// A size in `unit`, each side within `range`.
    public static func size(_ key: String, _ path: WritableKeyPath<Root, Size>, _ unit: String,
                            _ range: ClosedRange<Double>, _ meaning: String) -> StyleField {
        StyleField(key: key, kind: .size, unit: unit, meaning: meaning, range: range,
                   read: { .array([.number($0[keyPath: path].width), .number($0[keyPath: path].height)]) },
                   write: { root, value in
                       guard case .array(let items) = value, items.count == 2 else {
                           return "expected \(StyleKind.size.expectation), not \(StyleCoding.show(value))"
                       }
                       var sides: [Double] = []
                       for item in items {
                           switch StyleCoding.number(item, in: range) {
                           case .success(let v): sides.append(v)
                           case .failure(let why): return why.text
                           }
                       }
                       root[keyPath: path] = Size(sides[0], sides[1])
                       return nil
                   })
    }
}

extension StyleField {
    /// A text in English and Chinese; a file may give one language and keep the other.
    public static func text(_ key: String, _ path: WritableKeyPath<Root, LocalizedText>, _ meaning: String) -> StyleField {
        StyleField(key: key, kind: .text, unit: "", meaning: meaning, range: nil,
                   read: { .object([("en", .string($0[keyPath: path].english)), ("zh", .string($0[keyPath: path].chinese))]) },
                   write: { root, value in
                       guard case .object(let fields) = value, !fields.isEmpty else {
                           return "expected \(StyleKind.text.expectation), not \(StyleCoding.show(value))"
                       }
                       var text = root[keyPath: path]
                       for field in fields {
                           guard case .string(let string) = field.value, string.utf8.count <= LocalizedText.maxLength else {
                               return "\"\(field.key)\" must be a string of at most \(LocalizedText.maxLength) bytes"
                           }
                           switch field.key {
                           case "en": text.english = string
                           case "zh": text.chinese = string
                           default: return "unknown language \"\(field.key)\"; a text has \"en\" and \"zh\""
                           }
                       }
                       root[keyPath: path] = text
                       return nil
                   })
    }
}

extension StyleField {
    /// A span of an animation's frames; null leaves it to the effect's default.
    public static func segment(_ key: String, _ path: WritableKeyPath<Root, FrameSegment?>,
                               _ meaning: String) -> StyleField {
        StyleField(key: key, kind: .segment, unit: "", meaning: meaning, range: nil,
                   read: { root in
                       switch root[keyPath: path] {
                       case nil: return .null
                       case .marker(let name): return .string(name)
                       case .frames(let from, let to): return .array([.number(from), .number(to)])
                       }
                   },
                   write: { root, value in
                       switch value {
                       case .null:
                           root[keyPath: path] = nil
                       case .string(let name) where !name.isEmpty && name.utf8.count <= LocalizedText.maxLength:
                           root[keyPath: path] = .marker(name)
                       case .array(let items) where items.count == 2:
                           var frames: [Double] = []
                           for item in items {
                               switch StyleCoding.number(item, in: FrameSegment.frameRange) {
                               case .success(let v): frames.append(v)
                               case .failure(let why): return why.text
                               }
                           }
                           root[keyPath: path] = .frames(frames[0], frames[1])
                       default:
                           return "expected \(StyleKind.segment.expectation), not \(StyleCoding.show(value))"
                       }
                       return nil
                   })
    }
}

/// A span of an animation's frames, named by one of the file's markers or given by frame numbers.
public enum FrameSegment: Equatable, Sendable {
    case marker(String)
    case frames(Double, Double)

    /// The frame numbers a style file may give: far beyond any animation's, short of losing precision.
    static let frameRange = -1e6...1e6
}

/// A text shown in the header, in the lab's two languages.
public struct LocalizedText: Equatable, Sendable {
    /// The longest text a style file may give, in UTF-8 bytes: a header's line, not a document.
    static let maxLength = 200

    public var english: String
    public var chinese: String

    public init(english: String, chinese: String) {
        self.english = english
        self.chinese = chinese
    }
}

/// Why a value was refused, as one sentence for an error message.
struct StyleRefusal: Error {
    let text: String
}

/// The named timing curves a style file may use.
enum TimingNames {
    static let all: [(name: String, curve: TimingFunction)] = [
        ("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut), ("easeInEaseOut", .easeInEaseOut),
        ("default", .default), ("fastOutSlowIn", .fastOutSlowIn),
    ]
}

/// Reading and writing the value kinds of style files.
enum StyleCoding {
    /// A short rendering of a value for a message: the value itself when short, else its kind.
    static func show(_ value: JSONValue) -> String {
        switch value {
        case .number(let v): return JSONText.number(v)
        case .string(let s) where s.count <= 40: return "\"\(s)\""
        case .bool(let b): return b ? "true" : "false"
        default: return value.kindDescription
        }
    }

    static func number(_ value: JSONValue, in range: ClosedRange<Double>) -> Result<Double, StyleRefusal> {
        guard case .number(let v) = value else {
            return .failure(StyleRefusal(text: "expected a number, not \(show(value))"))
        }
        guard range.contains(v) else {
            return .failure(StyleRefusal(text: "\(JSONText.number(v)) is out of range: it must be from \(JSONText.number(range.lowerBound)) to \(JSONText.number(range.upperBound))"))
        }
        return .success(v)
    }

    static func hex(_ c: Color) -> String {
        let text = c.description
        // Opaque colours are written without their alpha, as most people write them.
        return text.hasSuffix("FF") ? String(text.dropLast(2)) : text
    }

    static func color(_ value: JSONValue) -> Result<Color, StyleRefusal> {
        let refusal = StyleRefusal(text: "expected \(StyleKind.color.expectation), not \(show(value))")
        guard case .string(let text) = value, text.first == "#" else { return .failure(refusal) }
        let digits = text.dropFirst()
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit),
              let color = Color(hex: text) else { return .failure(refusal) }
        return .success(color)
    }

    /// The appearances a value may be given for, in the order a file writes them.
    static let appearanceKeys = Appearance.allCases.map(\.rawValue)

    /// The two variants of a value given per appearance: an object with exactly "light" and "dark".
    static func variants(_ value: JSONValue) -> Result<(light: JSONValue, dark: JSONValue), StyleRefusal> {
        guard case .object(let fields) = value else {
            return .failure(StyleRefusal(text: "expected {\"light\": …, \"dark\": …}, not \(show(value))"))
        }
        for field in fields where !appearanceKeys.contains(field.key) {
            return .failure(StyleRefusal(text: "unknown appearance \"\(field.key)\"; a value per appearance has "
                + "\"light\" and \"dark\""))
        }
        var found: [JSONValue] = []
        for key in appearanceKeys {
            guard let variant = fields.first(where: { $0.key == key }) else {
                return .failure(StyleRefusal(text: "\"\(key)\" is missing: a value per appearance gives both "
                    + "\"light\" and \"dark\""))
            }
            found.append(variant.value)
        }
        return .success((found[0], found[1]))
    }

    static func timingJSON(_ t: TimingFunction) -> JSONValue {
        if let factor = t.decelerateFactor { return .string("decelerate(\(JSONText.number(factor)))") }
        if let named = TimingNames.all.first(where: { $0.curve == t }) { return .string(named.name) }
        return .array([.number(t.x1), .number(t.y1), .number(t.x2), .number(t.y2)])
    }

    static func timing(_ value: JSONValue) -> Result<TimingFunction, StyleRefusal> {
        let refusal = StyleRefusal(text: "expected \(StyleKind.timing.expectation), not \(show(value))")
        switch value {
        case .string(let text):
            if let named = TimingNames.all.first(where: { $0.name == text }) { return .success(named.curve) }
            if text.hasPrefix("decelerate(") && text.hasSuffix(")") {
                let inner = text.dropFirst("decelerate(".count).dropLast()
                guard let factor = Double(inner), factor > 0 && factor <= 100 else {
                    return .failure(StyleRefusal(text: "the factor of \"\(text)\" must be a number above 0, up to 100"))
                }
                return .success(.decelerate(factor: factor))
            }
            return .failure(refusal)
        case .array(let items) where items.count == 4:
            var v: [Double] = []
            for (i, item) in items.enumerated() {
                // x stays in 0…1 so time never runs backwards; y may overshoot, within reason.
                let range: ClosedRange<Double> = i % 2 == 0 ? 0...1 : -10...10
                switch number(item, in: range) {
                case .success(let n): v.append(n)
                case .failure(let why): return .failure(why)
                }
            }
            return .success(TimingFunction(controlPoints: v[0], v[1], v[2], v[3]))
        default:
            return .failure(refusal)
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Scrolling
import Colors
import Geometry
import Motion
import Refresh
import Styles
import UserFiles

/// A gesture script that cannot be used: names the file, the line and column of the fault, and what to do.
public typealias ScriptError = FileError

/// A finger's (and the keyboard's) part in a headless run, read from a JSON file.
///
/// ```json
/// {
///   "name": "pull past the threshold and let go",
///   "effect": "classic",
///   "autoEnd": true,
///   "steps": [
///     {"down": [187.5, 150]},
///     {"move": [187.5, 330], "duration": 0.5, "easing": "easeOut"},
///     "up",
///     {"wait": 2.5}
///   ]
/// }
/// ```
///
/// Steps run one after another on the simulated clock, one frame every 1/60 s. Points are screen points (the
/// phone is 375×667 with a 64 pt navigation bar). The steps:
/// - `{"down": [x, y]}` puts the finger down; `"up"` (or `{"up": [x, y]}`) lifts it;
/// - `{"move": [x, y], "duration": s, "easing": "linear" | "easeIn" | "easeOut" | "easeInEaseOut"}` moves the
///   finger in a straight line, one sample each frame (without a duration, in one jump);
/// - `{"wait": s}` lets time run;
/// - `{"wheel": [dx, dy], "duration": s}` scrolls as a wheel or trackpad (positive dy scrolls the content up);
/// - `{"key": "Space"}` presses a key, named as the simulator's keys are (`1`…`5`, `Tab`, `Space`, `Return`, …);
/// - `"beginRefresh"` begins a refresh from code; `"endRefresh"` or `{"endRefresh": "success" | "failure" |
///   {"message": "3 new items"}}` ends it.
///
/// Coordinates are from -100000 to 100000 points, durations from 0 to 3600 s, and the whole script may last at
/// most an hour of simulated time unless a run's `--max-duration` allows more.
///
/// The top level may also name the header's `effect` (a run's `--effect` wins over it), set `autoEnd` (refreshes
/// ending by themselves after 1.5 s; on when not given), and choose the phone's `device` (`iphone-se`,
/// `iphone-16`, `iphone-16-pro`, `iphone-16-pro-max`, `pixel-8`) and navigation `bar` (`standard`, `large`, `translucent`,
/// `none`); its `appearance`, `"light"` (when not given) or `"dark"`; its `platform`, `"ios"` (when not given) or
/// `"android"` (whose default phone is the Pixel 8, `pixel-8`; a device named with a platform is one of its
/// phones); `--platform`, `--device`, `--bar` and `--appearance` win over them. The simulated clock then ticks at
/// the device's refresh rate.
public struct GestureScript: Equatable, Sendable {
    public enum Easing: String, CaseIterable, Sendable {
        case linear, easeIn, easeOut, easeInEaseOut

        public var timingFunction: TimingFunction {
            switch self {
            case .linear: .linear
            case .easeIn: .easeIn
            case .easeOut: .easeOut
            case .easeInEaseOut: .easeInEaseOut
            }
        }
    }

    public enum Step: Equatable, Sendable {
        case down(Point)
        case move(to: Point, duration: Double, easing: Easing)
        /// Lifts the finger where it is, or after a jump to the point.
        case up(Point?)
        case wait(Double)
        case wheel(Point, duration: Double)
        /// A key by its name, and what it does.
        case key(String, Command)
        case beginRefresh
        case endRefresh(RefreshResult)
    }

    /// The longest duration a step may have, in seconds: an hour, far past any gesture, short enough that a typo
    /// cannot ask for billions of frames.
    public static let maxDuration = 3600.0
    /// The longest a whole run may last on the simulated clock unless `--max-duration` raises it: one hour, so
    /// that a script of many long steps is refused at once instead of running for days.
    public static let defaultMaxDuration = 3600.0
    /// The largest coordinate a point or a wheel's delta may have, in points: far off the 375×667 screen, small
    /// enough that the scroll view's arithmetic keeps its precision.
    static let maxCoordinate = 100_000.0

    public var name: String?
    public var effect: String?
    var autoEnd: Bool?
    /// The phone model and the bar the script asks for, if it names them.
    public var device: PhoneModel?
    public var bar: BarStyle?
    public var appearance: Appearance?
    /// The platform the script asks for, if it names one (iOS when not given).
    public var platform: Platform?
    /// The second floor the script gives the header ("floor": "drawn" or a file), unless `--floor` names one.
    public var floor: FloorSource?
    public var steps: [Step]

    public init(name: String? = nil, effect: String? = nil, autoEnd: Bool? = nil, appearance: Appearance? = nil,
                steps: [Step]) {
        self.name = name
        self.effect = effect
        self.autoEnd = autoEnd
        self.appearance = appearance
        self.steps = steps
    }

    /// The script as a file reads it (`GestureScript(json:)` reads it back the same): its name, `autoEnd` when set,
    /// and its steps, one a line. The phone, header and appearance are left to the command that replays it.
    public var json: String {
        func point(_ p: Point) -> String { "[" + JSONText.number(p.x) + ", " + JSONText.number(p.y) + "]" }
        let steps = steps.map { step -> String in
            switch step {
            case .down(let p): return "{\"down\": " + point(p) + "}"
            case .move(let to, let duration, let easing):
                return "{\"move\": " + point(to) + ", \"duration\": " + JSONText.number(duration)
                    + ", \"easing\": \"" + easing.rawValue + "\"}"
            case .up(let p): return p.map { "{\"up\": " + point($0) + "}" } ?? "\"up\""
            case .wait(let seconds): return "{\"wait\": " + JSONText.number(seconds) + "}"
            case .wheel(let delta, let duration):
                return "{\"wheel\": " + point(delta) + ", \"duration\": " + JSONText.number(duration) + "}"
            case .key(let name, _): return "{\"key\": " + JSONText.string(name) + "}"
            case .beginRefresh: return "\"beginRefresh\""
            case .endRefresh(.success): return "{\"endRefresh\": \"success\"}"
            case .endRefresh(.failure): return "{\"endRefresh\": \"failure\"}"
            case .endRefresh(.message(let text)): return "{\"endRefresh\": {\"message\": " + JSONText.string(text) + "}}"
            }
        }
        var fields: [String] = []
        if let name { fields.append("  \"name\": " + JSONText.string(name)) }
        if let autoEnd { fields.append("  \"autoEnd\": \(autoEnd)") }
        fields.append("  \"steps\": [\n    " + steps.joined(separator: ",\n    ") + "\n  ]")
        return "{\n" + fields.joined(separator: ",\n") + "\n}\n"
    }

    /// Reads a script file.
    public static func load(path: String) throws(ScriptError) -> GestureScript {
        let bytes = try readFile(path)
        return try GestureScript(json: bytes, file: path)
    }

    /// Parses and checks a script's text; `file` names it in errors.
    public init(json text: String, file: String = "script.json") throws(ScriptError) {
        try self.init(json: Array(text.utf8), file: file)
    }

    public init(json bytes: [UInt8], file: String) throws(ScriptError) {
        let parsed: (value: JSONValue, offsets: [Int])
        do {
            parsed = try JSONReader.parseWithOffsets(bytes)
        } catch {
            throw ScriptError(file: file, line: error.line, column: error.column, reason: "not valid JSON: \(error.reason)")
        }
        var reader = ScriptReader(file: file, bytes: bytes, offsets: parsed.offsets)
        self = try reader.readScript(parsed.value)
    }

    /// The largest script read: a long scripted session is a few hundred kilobytes.
    static let maxFileSize = 16 << 20

    static func readFile(_ path: String) throws(ScriptError) -> [UInt8] {
        try UserFile.read(path, kind: "gesture script", limit: maxFileSize,
                          missingAdvice: "check the path, or name a script of Resources/gestures (such as 'sticky')")
    }
}

/// Checks a script's JSON and builds the steps; every error points at the value at fault.
struct ScriptReader {
    let file: String
    let bytes: [UInt8]
    /// Where each value starts, in document order (see `JSONReader.parseWithOffsets`).
    let offsets: [Int]

    static let topFields = ["name", "effect", "autoEnd", "platform", "device", "bar", "appearance", "floor", "steps"]

    /// The error for the value at pre-order position `node` (0 is the root).
    func error(at node: Int, _ reason: String) -> ScriptError {
        let offset = node < offsets.count ? offsets[node] : bytes.count
        let (line, column) = JSONReader.lineAndColumn(of: offset, in: bytes)
        return ScriptError(file: file, line: line, column: column, reason: reason)
    }

    mutating func readScript(_ root: JSONValue) throws(ScriptError) -> GestureScript {
        guard case .object(let fields) = root else {
            throw error(at: 0, "a gesture script is a JSON object with \"steps\", not \(root.kindDescription)")
        }
        var script = GestureScript(steps: [])
        var node = 1
        var sawSteps = false
        // The device is looked up once the platform, which may follow it, is known.
        var device: (name: String, node: Int)?
        for field in fields {
            switch field.key {
            case "name":
                script.name = try string(field.value, node, "\"name\"")
            case "effect":
                let name = try string(field.value, node, "\"effect\"")
                guard RefreshEffects.names.contains(name) else {
                    throw error(at: node, "unknown effect \"\(name)\"; expected one of "
                        + RefreshEffects.names.map { "\"\($0)\"" }.joined(separator: ", "))
                }
                script.effect = name
            case "platform":
                let name = try string(field.value, node, "\"platform\"")
                do { script.platform = try Platform.named(name) } catch { throw self.error(at: node, error.description) }
            case "device":
                device = (try string(field.value, node, "\"device\""), node)
            case "bar":
                let name = try string(field.value, node, "\"bar\"")
                do { script.bar = try BarStyle.named(name) } catch { throw self.error(at: node, error.description) }
            case "autoEnd":
                guard case .bool(let on) = field.value else {
                    throw error(at: node, "\"autoEnd\" must be true or false, not \(field.value.kindDescription)")
                }
                script.autoEnd = on
            case "appearance":
                guard case .string(let name) = field.value, let appearance = Appearance(rawValue: name) else {
                    throw error(at: node, "\"appearance\" is \"light\" or \"dark\", not "
                        + ScriptReader.show(field.value))
                }
                script.appearance = appearance
            case "floor":
                script.floor = FloorSource(option: try string(field.value, node, "\"floor\""))
            case "steps":
                script.steps = try readSteps(field.value, node)
                sawSteps = true
            default:
                throw error(at: node, "unknown field \"\(field.key)\"; expected one of "
                    + ScriptReader.topFields.map { "\"\($0)\"" }.joined(separator: ", "))
            }
            node += field.value.nodeCount
        }
        guard sawSteps else { throw error(at: 0, "the script has no \"steps\"; add \"steps\": [ … ]") }
        if let (name, node) = device {
            do throws(LabError) {
                if let platform = script.platform {
                    script.device = try PhoneModel.named(name, on: platform)
                } else {
                    script.device = try PhoneModel.named(anyPlatform: name)
                }
            } catch {
                throw self.error(at: node, error.description)
            }
        }
        return script
    }

    func readSteps(_ value: JSONValue, _ node: Int) throws(ScriptError) -> [GestureScript.Step] {
        guard case .array(let items) = value else {
            throw error(at: node, "\"steps\" must be an array of steps, not \(value.kindDescription)")
        }
        var steps: [GestureScript.Step] = []
        var child = node + 1
        var fingerDown = false
        for (index, item) in items.enumerated() {
            let step = try readStep(item, child, index: index)
            switch step {
            case .down:
                guard !fingerDown else { throw error(at: child, "step \(index + 1): the finger is already down; "
                    + "lift it with \"up\" first") }
                fingerDown = true
            case .move:
                guard fingerDown else { throw error(at: child, "step \(index + 1): \"move\" needs the finger down; "
                    + "put it down with {\"down\": [x, y]} first") }
            case .up:
                guard fingerDown else { throw error(at: child, "step \(index + 1): \"up\" but the finger is not "
                    + "down; put it down with {\"down\": [x, y]} first") }
                fingerDown = false
            default:
                break
            }
            steps.append(step)
            child += item.nodeCount
        }
        return steps
    }

    static let stepNames = ["down", "move", "up", "wait", "wheel", "key", "beginRefresh", "endRefresh"]

    func readStep(_ item: JSONValue, _ node: Int, index: Int) throws(ScriptError) -> GestureScript.Step {
        let label = "step \(index + 1)"
        if case .string(let word) = item {
            switch word {
            case "up": return .up(nil)
            case "beginRefresh": return .beginRefresh
            case "endRefresh": return .endRefresh(.success)
            default:
                throw error(at: node, "\(label): \"\(word)\" is not a step on its own; a bare step is \"up\", "
                    + "\"beginRefresh\" or \"endRefresh\", others are objects such as {\"wait\": 1}")
            }
        }
        guard case .object(let fields) = item, let first = fields.first else {
            throw error(at: node, "\(label): expected a step object such as {\"wait\": 1}, found "
                + "\(item.kindDescription == "an object" ? "an empty object" : item.kindDescription)")
        }
        guard ScriptReader.stepNames.contains(first.key) else {
            throw error(at: node, "\(label): unknown step \"\(first.key)\"; expected one of "
                + ScriptReader.stepNames.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        // Where each field's value starts, and which extra fields the step allows.
        var nodes: [String: Int] = [:]
        var n = node + 1
        for field in fields {
            nodes[field.key] = n
            n += field.value.nodeCount
        }
        let allowed: [String]
        switch first.key {
        case "move": allowed = ["duration", "easing"]
        case "wheel": allowed = ["duration"]
        default: allowed = []
        }
        for field in fields.dropFirst() where !allowed.contains(field.key) {
            throw error(at: nodes[field.key]!, "\(label): \"\(first.key)\" does not take \"\(field.key)\""
                + (allowed.isEmpty ? "" : "; it takes " + allowed.map { "\"\($0)\"" }.joined(separator: ", ")))
        }
        let valueNode = node + 1
        func field(_ key: String) -> (JSONValue, Int)? {
            fields.first { $0.key == key }.map { ($0.value, nodes[key]!) }
        }
        func duration() throws(ScriptError) -> Double {
            guard let (value, at) = field("duration") else { return 0 }
            return try seconds(value, at, "\(label): \"duration\"")
        }
        switch first.key {
        case "down":
            return .down(try point(first.value, valueNode, "\(label): \"down\""))
        case "move":
            let to = try point(first.value, valueNode, "\(label): \"move\"")
            var easing = GestureScript.Easing.linear
            if let (value, at) = field("easing") {
                let names = GestureScript.Easing.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                guard case .string(let name) = value, let known = GestureScript.Easing(rawValue: name) else {
                    throw error(at: at, "\(label): unknown easing \(ScriptReader.show(value)); expected one of \(names)")
                }
                easing = known
            }
            return .move(to: to, duration: try duration(), easing: easing)
        case "up":
            return .up(try point(first.value, valueNode, "\(label): \"up\""))
        case "wait":
            return .wait(try seconds(first.value, valueNode, "\(label): \"wait\""))
        case "wheel":
            return .wheel(try point(first.value, valueNode, "\(label): \"wheel\""), duration: try duration())
        case "key":
            guard case .string(let name) = first.value else {
                throw error(at: valueNode, "\(label): \"key\" takes a key's name such as \"Space\", "
                    + "not \(first.value.kindDescription)")
            }
            guard let command = Command(keyName: name) else {
                throw error(at: valueNode, "\(label): no key is named \"\(name)\"; the keys are "
                    + Command.keyBindings.map { $0.keys }.joined(separator: " "))
            }
            // A run's frames keep one size: the phone is chosen once, at the top.
            guard command != .nextDevice && command != .togglePlatform else {
                throw error(at: valueNode, "\(label): the \(command == .nextDevice ? "device" : "platform") key "
                    + "changes the frame's size, which a run keeps; choose the phone with \"platform\" or "
                    + "\"device\" at the top of the script")
            }
            return .key(name, command)
        case "beginRefresh":
            return .beginRefresh
        default:
            return .endRefresh(try result(first.value, valueNode, label))
        }
    }

    func result(_ value: JSONValue, _ node: Int, _ label: String) throws(ScriptError) -> RefreshResult {
        switch value {
        case .string("success"): return .success
        case .string("failure"): return .failure
        case .object(let fields) where fields.count == 1 && fields[0].key == "message":
            guard case .string(let text) = fields[0].value else {
                throw error(at: node + 1, "\(label): the message must be a string")
            }
            return .message(text)
        default:
            throw error(at: node, "\(label): \"endRefresh\" takes \"success\", \"failure\" or "
                + "{\"message\": \"…\"}, not \(ScriptReader.show(value))")
        }
    }

    func point(_ value: JSONValue, _ node: Int, _ what: String) throws(ScriptError) -> Point {
        guard case .array(let items) = value, items.count == 2,
              case .number(let x) = items[0], case .number(let y) = items[1] else {
            throw error(at: node, "\(what) takes a point as [x, y] in screen points, not \(ScriptReader.show(value))")
        }
        let limit = GestureScript.maxCoordinate
        guard Swift.abs(x) <= limit && Swift.abs(y) <= limit else {
            throw error(at: node, "\(what): [\(x), \(y)] is out of range; coordinates are from -\(Int(limit)) to "
                + "\(Int(limit)) points")
        }
        return Point(x, y)
    }

    func seconds(_ value: JSONValue, _ node: Int, _ what: String) throws(ScriptError) -> Double {
        guard case .number(let s) = value else {
            throw error(at: node, "\(what) is a time in seconds, not \(value.kindDescription)")
        }
        guard s >= 0 && s <= GestureScript.maxDuration else {
            throw error(at: node, "\(what) must be between 0 and \(Int(GestureScript.maxDuration)) seconds, not \(s)")
        }
        return s
    }

    func string(_ value: JSONValue, _ node: Int, _ what: String) throws(ScriptError) -> String {
        guard case .string(let text) = value else {
            throw error(at: node, "\(what) must be a string, not \(value.kindDescription)")
        }
        return text
    }

    /// A short description of a value for an error: the value itself when it is short.
    static func show(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return "\"\(s)\""
        case .number(let n): return n == n.rounded() && n.magnitude < 1e15 ? String(Int(n)) : String(n)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        default: return value.kindDescription
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import Raster
import Colors
import UserFiles

/// A scene file that cannot be used: names the file, the item and field at fault, and what was expected.
public struct SceneError: Error, CustomStringConvertible, Equatable {
    /// The file as the user named it.
    public var file: String
    /// The index of the item at fault in `items` (from 0, as `items[12]`), or nil for the file or its top level.
    public var item: Int?
    /// The field at fault, or nil when the fault is not in one field.
    public var field: String?
    var reason: String

    public init(file: String, item: Int? = nil, field: String? = nil, reason: String) {
        self.file = file
        self.item = item
        self.field = field
        self.reason = reason
    }

    public var description: String {
        var text = file + ": "
        if let item { text += "item \(item): " }
        if let field { text += "field \"\(field)\": " }
        return text + reason
    }
}

extension Scene {
    /// The largest canvas side a scene may ask for, in pixels: far above any phone screen, small enough that a
    /// mistyped size cannot ask for gigabytes.
    static let maxSide = 16384
    /// The largest canvas a scene may ask for, in pixels (256 MB of 32-bit pixels).
    static let maxPixels = 1 << 26

    /// Reads and checks a scene file.
    ///
    /// - Throws: `SceneError` naming the file (and the item and field) at fault; the scene is never half-loaded.
    public static func load(path: String) throws(SceneError) -> Scene {
        let bytes = try readFile(path)
        return try Scene(json: bytes, file: path)
    }

    /// Parses a scene from the text of a scene file; `file` names it in errors.
    public init(json text: String, file: String = "scene.json") throws(SceneError) {
        try self.init(json: Array(text.utf8), file: file)
    }

    /// Parses a scene from the bytes of a scene file; `file` names it in errors.
    public init(json bytes: [UInt8], file: String) throws(SceneError) {
        let root: JSONValue
        do {
            root = try JSONReader.parse(bytes)
        } catch {
            throw SceneError(file: file, reason: "not valid JSON: \(error)")
        }
        var reader = SceneFieldReader(file: file, item: nil)
        self = try reader.readScene(root)
    }

    /// The whole content of a file, or an error saying why it cannot be read.
    static func readFile(_ path: String) throws(SceneError) -> [UInt8] {
        do {
            return try UserFile.read(path, kind: "scene file", limit: maxFileSize)
        } catch {
            throw SceneError(file: path, reason: error.reason)
        }
    }

    /// The largest scene file read: the stress scene, the largest drawn here, is under 100 KB.
    static let maxFileSize = 16 << 20
}

/// Checks the fields of a scene's JSON, one object at a time, and builds the scene.
struct SceneFieldReader {
    let file: String
    var item: Int?

    /// The fields a scene's top level may have.
    static let sceneFields: Set<String> = ["name", "width", "height", "background", "items"]
    /// The fields an item may have.
    static let itemFields: Set<String> = ["path", "fill", "fillRule", "stroke", "lineWidth", "lineCap", "lineJoin",
                                          "miterLimit", "transform", "opacity"]

    func error(_ field: String?, _ reason: String) -> SceneError {
        SceneError(file: file, item: item, field: field, reason: reason)
    }

    /// A value as an error message quotes it: short, on one line.
    static func quote(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return String(b)
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .string(let s): return "\"" + (s.count > 24 ? String(s.prefix(24)) + "…" : s) + "\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    func fields(of value: JSONValue, allowed: Set<String>, what: String) throws(SceneError) -> [String: JSONValue] {
        guard case .object(let pairs) = value else {
            throw error(nil, "expected \(what) as a JSON object, found \(value.kindDescription)")
        }
        var out: [String: JSONValue] = [:]
        for (key, v) in pairs {
            guard allowed.contains(key) else {
                throw error(key, "unknown field; expected one of " + allowed.sorted().joined(separator: ", "))
            }
            out[key] = v
        }
        return out
    }

    func number(_ v: JSONValue, _ field: String) throws(SceneError) -> Double {
        guard case .number(let n) = v else { throw error(field, "expected a number, found \(v.kindDescription)") }
        guard n.isFinite else { throw error(field, "expected a finite number") }
        return n
    }

    func string(_ v: JSONValue, _ field: String) throws(SceneError) -> String {
        guard case .string(let s) = v else { throw error(field, "expected a string, found \(v.kindDescription)") }
        return s
    }

    func color(_ v: JSONValue, _ field: String) throws(SceneError) -> Color {
        let text = try string(v, field)
        guard text.first == "#", let c = Color(hex: text) else {
            throw error(field, "expected a colour as \"#RRGGBB\" or \"#RRGGBBAA\", found \(SceneFieldReader.quote(v))")
        }
        return c
    }

    func choice<T: RawRepresentable>(_ v: JSONValue, _ field: String, _ type: T.Type, _ names: [String])
        throws(SceneError) -> T where T.RawValue == String {
        let text = try string(v, field)
        guard let value = T(rawValue: text) else {
            throw error(field, "expected one of " + names.map { "\"\($0)\"" }.joined(separator: ", ")
                + ", found \(SceneFieldReader.quote(v))")
        }
        return value
    }

    func size(_ fields: [String: JSONValue], _ field: String) throws(SceneError) -> Int {
        guard let v = fields[field] else { throw error(field, "missing; give the canvas size in pixels") }
        let n = try number(v, field)
        guard n == n.rounded(), n >= 1, n <= Double(Scene.maxSide) else {
            throw error(field, "expected a whole number of pixels from 1 to \(Scene.maxSide), found \(SceneFieldReader.quote(v))")
        }
        return Int(n)
    }

    mutating func readScene(_ root: JSONValue) throws(SceneError) -> Scene {
        let top = try fields(of: root, allowed: SceneFieldReader.sceneFields, what: "the scene")
        let width = try size(top, "width"), height = try size(top, "height")
        guard width * height <= Scene.maxPixels else {
            throw error("height", "a \(width)×\(height) canvas is larger than \(Scene.maxPixels) pixels; make it smaller")
        }
        let name = try top["name"].map { v throws(SceneError) in try string(v, "name") }
            ?? SceneFieldReader.baseName(file)
        let background = try top["background"].map { v throws(SceneError) in try color(v, "background") } ?? .clear
        guard let itemsValue = top["items"] else { throw error("items", "missing; give an array of items (it may be empty)") }
        guard case .array(let values) = itemsValue else {
            throw error("items", "expected an array of items, found \(itemsValue.kindDescription)")
        }
        var items: [SceneItem] = []
        items.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            item = index
            items.append(try readItem(value))
        }
        item = nil
        return Scene(name: name, width: width, height: height, background: background, items: items)
    }

    func readItem(_ value: JSONValue) throws(SceneError) -> SceneItem {
        let f = try fields(of: value, allowed: SceneFieldReader.itemFields, what: "an item")
        guard let pathValue = f["path"] else { throw error("path", "missing; give the item's SVG path data") }
        let data = try string(pathValue, "path")
        let path: Path
        do {
            path = try Path(svgPathData: data)
        } catch {
            let found = error.token.isEmpty ? "the end of the data" : "\"\(error.token)\""
            throw self.error("path", "bad SVG path data at offset \(error.offset): expected \(error.expected) "
                + "but found \(found); fix the path string there")
        }

        var result = SceneItem(path: path)
        if let v = f["fill"] { result.fill = try color(v, "fill") }
        if let v = f["fillRule"] {
            result.fillRule = try choice(v, "fillRule", FillRule.self, FillRule.allCases.map(\.rawValue))
        }
        if let v = f["stroke"] { result.stroke = try color(v, "stroke") }
        if let v = f["lineWidth"] {
            let w = try number(v, "lineWidth")
            guard w >= 0 else { throw error("lineWidth", "expected a width of 0 or more, found \(SceneFieldReader.quote(v))") }
            result.strokeStyle.lineWidth = w
        }
        if let v = f["lineCap"] {
            result.strokeStyle.lineCap = try choice(v, "lineCap", LineCap.self, ["butt", "round", "square"])
        }
        if let v = f["lineJoin"] {
            result.strokeStyle.lineJoin = try choice(v, "lineJoin", LineJoin.self, ["miter", "round", "bevel"])
        }
        if let v = f["miterLimit"] {
            let m = try number(v, "miterLimit")
            // SVG's rule: a miter limit below 1 is an error.
            guard m >= 1 else { throw error("miterLimit", "expected a limit of 1 or more, found \(SceneFieldReader.quote(v))") }
            result.strokeStyle.miterLimit = m
        }
        if let v = f["transform"] {
            let expected = "expected an array of 6 numbers [a, b, c, d, tx, ty]"
            guard case .array(let values) = v else { throw error("transform", "\(expected), found \(v.kindDescription)") }
            guard values.count == 6 else { throw error("transform", "\(expected), found \(values.count) values") }
            var m = [Double](repeating: 0, count: 6)
            for (i, element) in values.enumerated() {
                guard case .number(let n) = element, n.isFinite else {
                    throw error("transform", "\(expected), found \(SceneFieldReader.quote(element)) at index \(i)")
                }
                m[i] = n
            }
            result.transform = AffineTransform(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5])
        }
        if let v = f["opacity"] {
            let o = try number(v, "opacity")
            guard o >= 0, o <= 1 else { throw error("opacity", "expected a number from 0 to 1, found \(SceneFieldReader.quote(v))") }
            result.opacity = o
        }
        return result
    }

    /// The file's name without folders and without its `.json` extension: the scene's name when it has none.
    static func baseName(_ path: String) -> String {
        let last = path.split(separator: "/").last.map(String.init) ?? path
        return last.hasSuffix(".json") ? String(last.dropLast(5)) : last
    }
}

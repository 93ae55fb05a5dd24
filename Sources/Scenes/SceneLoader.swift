#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import Raster
import Colors
import UserFiles

/// A scene file that cannot be used: names the file, the line and column of the fault (and the item and field
/// there), and what was expected.
public typealias SceneError = FileError

extension Scene {
    /// The largest canvas side a scene may ask for, in pixels: far above any phone screen, small enough that a
    /// mistyped size cannot ask for gigabytes.
    static let maxSide = 16384
    /// The largest canvas a scene may ask for, in pixels (256 MB of 32-bit pixels).
    static let maxPixels = 1 << 26

    /// Reads and checks a scene file.
    ///
    /// - Throws: `SceneError` naming the file, line and column (and the item and field) at fault; the scene is
    ///   never half-loaded.
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
        let root: LocatedJSON
        do {
            root = try JSONReader.parseLocated(bytes)
        } catch {
            throw SceneError(file: file, line: error.line, column: error.column, reason: "not valid JSON: \(error.reason)")
        }
        var reader = SceneFieldReader(file: file, bytes: bytes, item: nil)
        self = try reader.readScene(root)
    }

    /// The whole content of a file, or an error saying why it cannot be read.
    static func readFile(_ path: String) throws(SceneError) -> [UInt8] {
        try UserFile.read(path, kind: "scene file", limit: maxFileSize)
    }

    /// The largest scene file read: the stress scene, the largest drawn here, is under 100 KB.
    static let maxFileSize = 16 << 20
}

/// Checks the fields of a scene's JSON, one object at a time, and builds the scene. Every fault is placed at its
/// line and column: a value refused at the value, an unknown field at its key, a missing one at its object.
struct SceneFieldReader {
    let file: String
    let bytes: [UInt8]
    var item: Int?

    /// The fields a scene's top level may have.
    static let sceneFields: Set<String> = ["name", "width", "height", "background", "items"]
    /// The fields an item may have.
    static let itemFields: Set<String> = ["path", "fill", "fillRule", "stroke", "lineWidth", "lineCap", "lineJoin",
                                          "miterLimit", "transform", "opacity"]

    /// The fault at byte `offset`, said with the item and the field it is in.
    func error(_ field: String?, at offset: Int, _ reason: String) -> SceneError {
        let (line, column) = JSONReader.lineAndColumn(of: offset, in: bytes)
        var place = ""
        if let item { place += "item \(item): " }
        if let field { place += "field \"\(field)\": " }
        return SceneError(file: file, line: line, column: column, reason: place + reason)
    }

    /// The fault in a field's value, placed at the value.
    func error(_ field: String, _ value: LocatedJSON, _ reason: String) -> SceneError {
        error(field, at: value.offset, reason)
    }

    /// A value as an error message quotes it: short, on one line.
    static func quote(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return String(b)
        case .number(let n): return JSONText.number(n)
        case .string(let s): return "\"" + (s.count > 24 ? String(s.prefix(24)) + "…" : s) + "\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    func fields(of value: LocatedJSON, allowed: Set<String>, what: String) throws(SceneError) -> [String: LocatedJSON] {
        guard case .object = value.value else {
            throw error(nil, at: value.offset, "expected \(what) as a JSON object, found \(value.value.kindDescription)")
        }
        var out: [String: LocatedJSON] = [:]
        for field in value.fields {
            guard allowed.contains(field.key) else {
                throw error(field.key, at: field.keyOffset,
                            "unknown field; expected one of " + allowed.sorted().joined(separator: ", "))
            }
            out[field.key] = field.value
        }
        return out
    }

    func number(_ v: LocatedJSON, _ field: String) throws(SceneError) -> Double {
        guard case .number(let n) = v.value else {
            throw error(field, v, "expected a number, found \(v.value.kindDescription)")
        }
        guard n.isFinite else { throw error(field, v, "expected a finite number") }
        return n
    }

    func string(_ v: LocatedJSON, _ field: String) throws(SceneError) -> String {
        guard case .string(let s) = v.value else {
            throw error(field, v, "expected a string, found \(v.value.kindDescription)")
        }
        return s
    }

    func color(_ v: LocatedJSON, _ field: String) throws(SceneError) -> Color {
        let text = try string(v, field)
        guard text.first == "#", let c = Color(hex: text) else {
            throw error(field, v, "expected a colour as \"#RRGGBB\" or \"#RRGGBBAA\", found \(SceneFieldReader.quote(v.value))")
        }
        return c
    }

    func choice<T: RawRepresentable>(_ v: LocatedJSON, _ field: String, _ type: T.Type, _ names: [String])
        throws(SceneError) -> T where T.RawValue == String {
        let text = try string(v, field)
        guard let value = T(rawValue: text) else {
            throw error(field, v, "expected one of " + names.map { "\"\($0)\"" }.joined(separator: ", ")
                + ", found \(SceneFieldReader.quote(v.value))")
        }
        return value
    }

    func size(_ fields: [String: LocatedJSON], in object: LocatedJSON, _ field: String) throws(SceneError) -> Int {
        guard let v = fields[field] else {
            throw error(field, at: object.offset, "missing; give the canvas size in pixels")
        }
        let n = try number(v, field)
        guard n == n.rounded(), n >= 1, n <= Double(Scene.maxSide) else {
            throw error(field, v, "expected a whole number of pixels from 1 to \(Scene.maxSide), found \(SceneFieldReader.quote(v.value))")
        }
        return Int(n)
    }

    mutating func readScene(_ root: LocatedJSON) throws(SceneError) -> Scene {
        let top = try fields(of: root, allowed: SceneFieldReader.sceneFields, what: "the scene")
        let width = try size(top, in: root, "width"), height = try size(top, in: root, "height")
        guard width * height <= Scene.maxPixels else {
            throw error("height", top["height"] ?? root,
                        "a \(width)×\(height) canvas is larger than \(Scene.maxPixels) pixels; make it smaller")
        }
        let name = try top["name"].map { v throws(SceneError) in try string(v, "name") }
            ?? SceneFieldReader.baseName(file)
        let background = try top["background"].map { v throws(SceneError) in try color(v, "background") } ?? .clear
        guard let itemsValue = top["items"] else {
            throw error("items", at: root.offset, "missing; give an array of items (it may be empty)")
        }
        guard case .array = itemsValue.value else {
            throw error("items", itemsValue, "expected an array of items, found \(itemsValue.value.kindDescription)")
        }
        var items: [SceneItem] = []
        items.reserveCapacity(itemsValue.elements.count)
        for (index, value) in itemsValue.elements.enumerated() {
            item = index
            items.append(try readItem(value))
        }
        item = nil
        return Scene(name: name, width: width, height: height, background: background, items: items)
    }

    func readItem(_ value: LocatedJSON) throws(SceneError) -> SceneItem {
        let f = try fields(of: value, allowed: SceneFieldReader.itemFields, what: "an item")
        guard let pathValue = f["path"] else {
            throw error("path", at: value.offset, "missing; give the item's SVG path data")
        }
        let data = try string(pathValue, "path")
        let path: Path
        do {
            path = try Path(svgPathData: data)
        } catch {
            let found = error.token.isEmpty ? "the end of the data" : "\"\(error.token)\""
            throw self.error("path", pathValue, "bad SVG path data at offset \(error.offset): expected \(error.expected) "
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
            guard w >= 0 else { throw error("lineWidth", v, "expected a width of 0 or more, found \(SceneFieldReader.quote(v.value))") }
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
            guard m >= 1 else { throw error("miterLimit", v, "expected a limit of 1 or more, found \(SceneFieldReader.quote(v.value))") }
            result.strokeStyle.miterLimit = m
        }
        if let v = f["transform"] {
            let expected = "expected an array of 6 numbers [a, b, c, d, tx, ty]"
            guard case .array = v.value else { throw error("transform", v, "\(expected), found \(v.value.kindDescription)") }
            guard v.elements.count == 6 else { throw error("transform", v, "\(expected), found \(v.elements.count) values") }
            var m = [Double](repeating: 0, count: 6)
            for (i, element) in v.elements.enumerated() {
                guard case .number(let n) = element.value, n.isFinite else {
                    throw error("transform", element,
                                "\(expected), found \(SceneFieldReader.quote(element.value)) at index \(i)")
                }
                m[i] = n
            }
            result.transform = AffineTransform(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5])
        }
        if let v = f["opacity"] {
            let o = try number(v, "opacity")
            guard o >= 0, o <= 1 else { throw error("opacity", v, "expected a number from 0 to 1, found \(SceneFieldReader.quote(v.value))") }
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

import Geometry
import Motion
import Raster
import Colors
import UserFiles

/// Why a Bodymovin document could not be read: the JSON value at fault (its byte offset) and what was wrong.
public struct LottieError: Error, Sendable, CustomStringConvertible {
    public var offset: Int
    public var reason: String

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { reason }
}

extension LottieAnimation {
    /// Largest composition side accepted, in its own units: a hostile size cannot ask for a huge canvas.
    public static let maxSide = 16384.0
    /// Largest frame number accepted; any real file is far below it, and times stay exact in a Double.
    static let maxFrame = 1e7

    /// Reads a Bodymovin document. What is not supported is skipped and named in `warning`; what is malformed
    /// (a missing or mistyped required field, a nonsensical size or frame rate) throws, naming the value at fault.
    public init(json root: JSONNode) throws(LottieError) {
        var parser = LottieParser()
        self = try parser.animation(root)
    }
}

/// Builds the model from the tree, collecting unsupported features by name with the layers that use them.
struct LottieParser {
    /// `v` as an integer when it is one a Double holds exactly (finite, within ±2⁵³), else nil: an index, an id or
    /// a code that a file gives as a number, which `Int(_:)` would trap on when huge.
    static func wholeNumber(_ v: Double) -> Int? {
        v.isFinite && Swift.abs(v) <= 9_007_199_254_740_992 ? Int(v) : nil
    }

    /// Features not drawn, in the order first met, each with the layers concerned.
    private var unsupported: [(feature: String, layers: [String])] = []
    var layerName = ""
    /// Where each composition's layers are in the file (by the asset's id, nil the main one), in the model's
    /// order: a budget passed at a layer is reported at its place.
    private var layerOffsets: [String?: [Int]] = [:]
    /// The file's expressions and the properties they read, filled as layers are read.
    private var expressions = ExpressionEngine(frameRate: 30)
    /// The expression controls of the layer being read, and its transform's properties there.
    private var layerEffects: [ExpressionEngine.Effect] = []
    private var layerTransform: [Int] = []
    /// The effects that draw of the layer being read, in the file's order.
    private var drawnEffects: [LayerEffect] = []
    /// The shape layer's contents as expressions see them, while they are read: the groups open, outermost first.
    private var contentStack: [ExpressionEngine.ContentNode] = []
    private var layerContent: ExpressionEngine.ContentNode?
    /// The file's fonts and glyphs, for its text layers, how many letters their documents hold so far, and those
    /// letters times their layer's animators.
    var fonts = TextFonts()
    var textLetters = 0
    var textSelections = 0

    mutating func skip(_ feature: String) {
        if let i = unsupported.firstIndex(where: { $0.feature == feature }) {
            if !unsupported[i].layers.contains(layerName) { unsupported[i].layers.append(layerName) }
        } else {
            unsupported.append((feature, [layerName]))
        }
    }

    func fail(_ node: JSONNode, _ reason: String) -> LottieError {
        LottieError(offset: node.offset, reason: reason)
    }

    func number(_ node: JSONNode, _ key: String, default value: Double? = nil,
                        in range: ClosedRange<Double>) throws(LottieError) -> Double {
        guard let field = node[key] else {
            if let value { return value }
            throw fail(node, "missing '\(key)'")
        }
        guard let n = field.number else { throw fail(field, "'\(key)' should be a number") }
        guard range.contains(n) else { throw fail(field, "'\(key)' is \(n), outside \(range.lowerBound)…\(range.upperBound)") }
        return n
    }

    /// A layer's time stretch: 0.001 to 1000 either way (a negative one plays a precomposition backwards).
    private func stretch(_ node: JSONNode) throws(LottieError) -> Double {
        let sr = try number(node, "sr", default: 1, in: -1000...1000)
        guard abs(sr) >= 0.001 else {
            throw fail(node["sr"] ?? node, "'sr' is \(sr): a time stretch is 0.001…1000, or −1000…−0.001 to play backwards")
        }
        return sr
    }

    mutating func animation(_ root: JSONNode) throws(LottieError) -> LottieAnimation {
        guard root.isObject else { throw fail(root, "a Lottie file is a JSON object") }
        let frame = -LottieAnimation.maxFrame...LottieAnimation.maxFrame
        let w = try number(root, "w", in: 1...LottieAnimation.maxSide)
        let h = try number(root, "h", in: 1...LottieAnimation.maxSide)
        let fr = try number(root, "fr", in: 1...1000)
        let ip = try number(root, "ip", in: frame)
        let op = try number(root, "op", in: frame)
        guard op > ip, let layersNode = root["layers"] else {
            throw fail(root, op > ip ? "missing 'layers'" : "'op' (\(op)) should be after 'ip' (\(ip))")
        }
        expressions = ExpressionEngine(frameRate: fr, width: w, height: h)
        try readFonts(root)
        var precomps: [String: [LottieLayer]] = [:], images: [String: LottieImage] = [:]
        if let assets = root["assets"] {
            guard let list = assets.array else { throw fail(assets, "'assets' should be an array") }
            for asset in list {
                guard let idNode = asset["id"] else { throw fail(asset, "an asset needs an 'id'") }
                guard let id = idNode.string ?? idNode.number.flatMap(LottieParser.wholeNumber).map({ String($0) })
                else { throw fail(idNode, "an asset's 'id' should be a string or a whole number") }
                if let layers = asset["layers"] {
                    precomps[id] = try self.layers(layers, composition: id)
                } else if asset["p"] != nil {
                    images[id] = try image(asset, id: id)
                } else {
                    layerName = "asset " + id
                    skip("assets with neither layers nor a picture")
                }
            }
        }
        let layers = try self.layers(layersNode, composition: nil)
        let bound = LottieWorkBound(layers, precomps: precomps)
        if let excess = bound.excess {
            let offset = layerOffsets[excess.composition].flatMap {
                excess.position < $0.count ? $0[excess.position] : nil
            } ?? root.offset
            let place = excess.composition.map { "precomposition '\($0)'" } ?? "the main composition"
            throw LottieError(offset: offset, reason: "layer '\(excess.name)' of \(place) brings one frame past "
                + "\(LottieRenderer.maxLayerDraws) layer draws, each precomposition counted as often as it is shown; "
                + "show fewer copies or nest them less deep")
        }
        if root["ddd"]?.number == 1 { layerName = "composition"; skip("3D") }
        var markers: [LottieMarker] = []
        for m in root.elements("markers") {
            guard let tm = m["tm"]?.number, tm.isFinite else { continue }
            markers.append(LottieMarker(name: m["cm"]?.string ?? "", start: tm,
                                        duration: Swift.max(0, m["dr"]?.number ?? 0)))
        }
        var warnings: [String] = fontWarnings()
        if !unsupported.isEmpty {
            warnings.append("not supported, skipped: " + unsupported.map { entry in
                entry.feature + " (" + entry.layers.map { "'\($0)'" }.joined(separator: ", ") + ")"
            }.joined(separator: "; "))
        }
        warnings += expressions.compile()
        return LottieAnimation(width: w, height: h, frameRate: fr, inPoint: ip, outPoint: op, layers: layers,
                               precomps: precomps, images: images, markers: markers,
                               warning: warnings.isEmpty ? nil : warnings.joined(separator: "; "),
                               offscreenChain: bound.offscreenChain,
                               expressions: expressions.hasExpressions ? expressions : nil)
    }

    /// An image asset: a base64 data URI in `p`, or a file named by `u` (a folder, relative to the animation's)
    /// and `p`, which must stay inside the animation's folder.
    private func image(_ asset: JSONNode, id: String) throws(LottieError) -> LottieImage {
        let side = 0...LottieAnimation.maxSide
        let w = try number(asset, "w", default: 0, in: side), h = try number(asset, "h", default: 0, in: side)
        guard let pNode = asset["p"], let p = pNode.string, !p.isEmpty else {
            throw fail(asset, "image asset '\(id)' should name its picture in 'p'")
        }
        let source: LottieImage.Source
        if p.utf8.count > 5, p.prefix(5).lowercased() == "data:" {
            guard let bytes = DataURI.bytes(p) else {
                throw fail(pNode, "image asset '\(id)': its data URI is not valid base64 ('data:image/…;base64,…')")
            }
            source = .embedded(bytes)
        } else {
            let folder = asset["u"]?.string ?? ""
            guard !(folder + p).contains("://") else {
                throw fail(pNode, "image asset '\(id)': '\(folder + p)' is on the network; put the picture beside "
                    + "the animation or embed it")
            }
            // Judged as written here, so that the file is refused wherever it is read; links are judged when
            // the picture is opened (`LottieImage.outsideAdvice`).
            if let refusal = FolderPath.refusalAsWritten(folder + p) {
                throw fail(pNode, "image asset '\(id)' (\(folder + p)): \(refusal); \(LottieImage.outsideAdvice)")
            }
            source = .file(folder + p)
        }
        return LottieImage(width: w, height: h, source: source, offset: asset.offset)
    }

    mutating func layers(_ node: JSONNode, composition: String?) throws(LottieError) -> [LottieLayer] {
        guard let list = node.array else { throw fail(node, "'layers' should be an array") }
        var out: [LottieLayer] = [], offsets: [Int] = []
        for item in list {
            if let layer = try layer(item) {
                out.append(layer)
                offsets.append(item.offset)
                expressions.addLayer(expressionLayer(layer), composition: composition)
            } else {
                expressions.discardLayer()
            }
        }
        layerOffsets[composition] = offsets
        if out.contains(where: { $0.parent != nil }) {
            var positions: [Int: Int] = [:]
            for (i, layer) in out.enumerated() { if let n = layer.index, positions[n] == nil { positions[n] = i } }
            for i in out.indices { out[i].parentPosition = out[i].parent.flatMap { positions[$0] } }
        }
        return out
    }

    private mutating func layer(_ node: JSONNode) throws(LottieError) -> LottieLayer? {
        guard node.isObject else { throw fail(node, "a layer should be an object") }
        layerName = node["nm"]?.string
            ?? "layer \(node["ind"]?.number.flatMap(LottieParser.wholeNumber).map { String($0) } ?? "?")"
        let frame = -LottieAnimation.maxFrame...LottieAnimation.maxFrame
        let ty = try number(node, "ty", in: 0...100)
        if node["ddd"]?.number == 1 { skip("3D") }
        if let sy = node["sy"]?.array, !sy.isEmpty { skip("layer styles") }
        let kind: LottieLayer.Kind
        switch ty {
        case 0:
            guard let id = node["refId"]?.string else { throw fail(node, "a precomposition layer needs a 'refId'") }
            kind = .precomp(id: id, width: try number(node, "w", default: 0, in: 0...LottieAnimation.maxSide),
                            height: try number(node, "h", default: 0, in: 0...LottieAnimation.maxSide))
        case 1:
            let color = node["sc"]?.string.flatMap { Color(hex: $0) } ?? .black
            kind = .solid(color, width: try number(node, "sw", default: 0, in: 0...LottieAnimation.maxSide),
                          height: try number(node, "sh", default: 0, in: 0...LottieAnimation.maxSide))
        case 3: kind = .null
        case 4:
            guard let shapes = node["shapes"] else { throw fail(node, "a shape layer needs 'shapes'") }
            contentStack = [ExpressionEngine.ContentNode(name: "Contents", matchName: "ADBE Root Vectors Group",
                                                         index: 2)]
            kind = .shape(try items(shapes))
            layerContent = contentStack.removeLast()
        case 2:
            guard let id = node["refId"]?.string else { throw fail(node, "an image layer needs a 'refId'") }
            kind = .image(id: id)
        case 5:
            guard let t = node["t"] else { throw fail(node, "a text layer needs its text 't'") }
            kind = .text(try text(t))
        case 13: skip("cameras"); return nil
        default: skip("layers of type \(Int(ty))"); return nil
        }
        guard let ks = node["ks"] else { throw fail(node, "a layer needs its transform 'ks'") }
        let firstReadable = expressions.properties.count
        let transform = try self.transform(ks, ofLayer: true)
        layerTransform = Array(firstReadable..<expressions.properties.count)
        layerEffects = try effects(node)
        var masks: [Mask] = []
        if node["hasMask"]?.number == 1 || node["masksProperties"] != nil {
            for m in node.elements("masksProperties") {
                let code = m["mode"]?.string ?? "a"
                let mode = Mask.Mode(rawValue: code) ?? .add
                if Mask.Mode(rawValue: code) == nil {
                    let names = ["f": "difference", "l": "lighten", "da": "darken"]
                    skip("masks of mode '\(code)'\(names[code].map { " (\($0))" } ?? ""), drawn as add")
                }
                guard let pt = m["pt"] else { throw fail(m, "a mask needs its path 'pt'") }
                masks.append(Mask(mode: mode, path: try shape(pt), opacity: try animated(m["o"], [100], "Mask Opacity"),
                                  inverted: m["inv"]?.number == 1))
            }
        }
        var remap: Animated?
        if let tm = node["tm"] { remap = try animated(tm, [0], "Time Remap") }
        var blendMode = LottieLayer.BlendMode.normal
        if let bm = node["bm"]?.number, bm.isFinite, bm != 0 {
            if let mode = LottieLayer.BlendMode(rawValue: Int(Swift.min(Swift.max(bm, -1), 100))), mode.isSupported {
                blendMode = mode
            } else {
                skip("blend modes other than multiply, screen, overlay, darken, lighten, hard light, difference and exclusion")
            }
        }
        return LottieLayer(
            name: layerName, index: node["ind"]?.number.map { Int(Swift.min(Swift.max($0, -1e9), 1e9)) },
            parent: node["parent"]?.number.map { Int(Swift.min(Swift.max($0, -1e9), 1e9)) },
            kind: kind, transform: transform,
            inPoint: try number(node, "ip", default: -LottieAnimation.maxFrame, in: frame),
            outPoint: try number(node, "op", default: LottieAnimation.maxFrame, in: frame),
            startTime: try number(node, "st", default: 0, in: frame),
            stretch: try stretch(node), timeRemap: remap, masks: masks,
            matte: node["tt"]?.number.flatMap(LottieParser.wholeNumber).flatMap { LottieLayer.Matte(rawValue: $0) },
            isMatteSource: node["td"]?.number == 1, hidden: node["hd"]?.number == 1, blendMode: blendMode,
            effects: drawnEffects)
    }

    /// The layer's expression controls (sliders, angles, colours, points, checkboxes…) and effects, each parameter
    /// readable by expressions; the effects that draw (`LayerEffect`) go to `drawnEffects`, the others are named
    /// in the warning. An effect draws only when enabled (`en` 1), as ThorVG reads it (docs/reference.md §8).
    private mutating func effects(_ node: JSONNode) throws(LottieError) -> [ExpressionEngine.Effect] {
        var out: [ExpressionEngine.Effect] = []
        drawnEffects = []
        for effect in node.elements("ef") {
            let matchName = effect["mn"]?.string ?? ""
            // Expression controls, and pseudo effects (controls grouped by a script), draw nothing.
            let isControl = (matchName.hasPrefix("ADBE ") && matchName.hasSuffix(" Control")) || matchName.hasPrefix("Pseudo/")
            let type = effect["ty"]?.number.flatMap(LottieParser.wholeNumber) ?? -1
            guard isControl || LayerEffect.drawnTypes.contains(type) else {
                skip("effects other than Fill, Tint, Tritone, Stroke, Pro Levels, Drop Shadow, Gaussian Blur and expression "
                     + "controls")
                continue
            }
            var parameters: [Int] = [], values: [Animated] = []
            for parameter in effect.elements("ef") {
                guard let v = parameter["v"], v.isObject else {
                    values.append(.constant([parameter["v"]?.number ?? 0]))
                    continue
                }
                values.append(try animated(v, [0], parameter["nm"]?.string ?? "", readable: true))
                let id = expressions.properties.count - 1
                expressions.identify(id, index: parameter["ix"]?.number.flatMap(LottieParser.wholeNumber),
                                     matchName: parameter["mn"]?.string,
                                     controlType: parameter["ty"]?.number.flatMap(LottieParser.wholeNumber))
                parameters.append(id)
            }
            if !isControl, effect["en"]?.number == 1 {
                if let drawn = LayerEffect(type: type, parameters: values) { drawnEffects.append(drawn) } else {
                    skip("effects missing parameters")
                }
            }
            out.append(ExpressionEngine.Effect(name: effect["nm"]?.string ?? "", matchName: matchName,
                                               index: effect["ix"]?.number.flatMap(LottieParser.wholeNumber),
                                               parameters: parameters))
        }
        return out
    }

    /// What expressions know of a layer just read: its names, times, size, transform and controls.
    private mutating func expressionLayer(_ layer: LottieLayer) -> ExpressionEngine.Layer {
        var width = 0.0, height = 0.0
        switch layer.kind {
        case .solid(_, let w, let h), .precomp(_, let w, let h): (width, height) = (w, h)
        default: break
        }
        defer { layerEffects = []; layerTransform = []; layerContent = nil }
        return ExpressionEngine.Layer(name: layer.name, index: layer.index, parent: layer.parent,
                                      inPoint: layer.inPoint, outPoint: layer.outPoint, startTime: layer.startTime,
                                      width: width, height: height, transform: layerTransform, effects: layerEffects,
                                      content: layerContent)
    }

    private mutating func items(_ node: JSONNode) throws(LottieError) -> [ShapeItem] {
        guard let list = node.array else { throw fail(node, "shapes should be an array") }
        var out: [ShapeItem] = []
        for item in list {
            if item["hd"]?.number == 1 { continue }
            contentStack.append(ExpressionEngine.ContentNode(
                name: item["nm"]?.string ?? "", matchName: item["mn"]?.string ?? "",
                index: item["ix"]?.number.flatMap(LottieParser.wholeNumber)))
            let shape = try shapeItem(item)
            let node = contentStack.removeLast()
            if let shape {
                out.append(shape)
                if !contentStack.isEmpty { contentStack[contentStack.count - 1].children.append(node) }
            }
        }
        return out
    }

    private mutating func shapeItem(_ node: JSONNode) throws(LottieError) -> ShapeItem? {
        guard let ty = node["ty"]?.string else { throw fail(node, "a shape item needs its type 'ty'") }
        let reversed = node["d"]?.number == 3
        switch ty {
        case "gr":
            var contents: [ShapeItem] = []
            if let it = node["it"] { contents = try items(it) }
            var transform = Transform.identity
            if let i = contents.lastIndex(where: { if case .transform = $0 { return true }; return false }),
               case .transform(let t) = contents[i] {
                transform = t
                contents.remove(at: i)
            }
            return .group(contents, transform)
        case "tr": return .transform(try self.transform(node))
        case "rc":
            return .rectangle(position: try animated(node["p"], [0, 0], "Position"),
                              size: try animated(node["s"], [0, 0], "Size"),
                              roundness: try animated(node["r"], [0], "Roundness"), reversed: reversed)
        case "el":
            return .ellipse(position: try animated(node["p"], [0, 0], "Position"), size: try animated(node["s"], [0, 0], "Size"),
                            reversed: reversed)
        case "sh":
            guard let ks = node["ks"] else { throw fail(node, "a path needs its shape 'ks'") }
            return .path(try shape(ks), reversed: reversed)
        case "sr":
            return .star(Star(isPolygon: node["sy"]?.number == 2, position: try animated(node["p"], [0, 0], "Position"),
                              points: try animated(node["pt"], [5], "Points"),
                              rotation: try animated(node["r"], [0], "Rotation"),
                              outerRadius: try animated(node["or"], [0], "Outer Radius"),
                              innerRadius: try animated(node["ir"], [0], "Inner Radius"),
                              outerRoundness: try animated(node["os"], [0], "Outer Roundness"),
                              innerRoundness: try animated(node["is"], [0], "Inner Roundness"), reversed: reversed))
        case "fl", "gf":
            return .fill(Fill(paint: try paint(node, gradient: ty == "gf"), opacity: try animated(node["o"], [100], "Opacity"),
                              rule: node["r"]?.number == 2 ? .evenOdd : .nonZero))
        case "st", "gs":
            var dashes: [Animated] = [], offset: Animated?
            for d in node.elements("d") {
                let v = try animated(d["v"], [0], d["n"]?.string == "o" ? "Offset" : "Dash")
                if d["n"]?.string == "o" { offset = v } else { dashes.append(v) }
            }
            let cap: LineCap = node["lc"]?.number == 2 ? .round : node["lc"]?.number == 3 ? .square : .butt
            let join: LineJoin = node["lj"]?.number == 2 ? .round : node["lj"]?.number == 3 ? .bevel : .miter
            return .stroke(Stroke(paint: try paint(node, gradient: ty == "gs"), opacity: try animated(node["o"], [100], "Opacity"),
                                  width: try animated(node["w"], [1], "Stroke Width"), cap: cap, join: join,
                                  miterLimit: Swift.min(Swift.max(node["ml"]?.number ?? 4, 1), 100),
                                  dashes: dashes, dashOffset: offset))
        case "tm":
            return .trim(Trim(start: try animated(node["s"], [0], "Start"), end: try animated(node["e"], [100], "End"),
                              offset: try animated(node["o"], [0], "Offset"), individually: node["m"]?.number == 2))
        case "rd":
            return .roundCorners(radius: try animated(node["r"], [0], "Radius"))
        case "rp":
            let tr = node["tr"]
            var step = Transform.identity
            if let tr { step = try transform(tr) }
            return .repeater(Repeater(copies: try animated(node["c"], [1], "Copies"), offset: try animated(node["o"], [0], "Offset"),
                                      above: node["m"]?.number != 2, transform: step,
                                      startOpacity: try animated(tr?["so"], [100], "Start Opacity"),
                                      endOpacity: try animated(tr?["eo"], [100], "End Opacity")))
        default:
            let names = ["mm": "merge paths", "tw": "twist",
                         "pb": "pucker and bloat", "zz": "zig zag", "op": "offset paths"]
            skip(names[ty] ?? "shape items of type '\(ty)'")
            return nil
        }
    }

    private mutating func paint(_ node: JSONNode, gradient: Bool) throws(LottieError) -> Paint {
        guard gradient else { return .color(try animated(node["c"], [0, 0, 0, 1], "Color")) }
        guard let g = node["g"] else { throw fail(node, "a gradient needs its stops 'g'") }
        let count = Int(try number(g, "p", in: 0...1000))
        return .gradient(Gradient(isRadial: node["t"]?.number == 2,
                                  start: try animated(node["s"], [0, 0], "Start Point"),
                                  end: try animated(node["e"], [0, 0], "End Point"), colorStopCount: count,
                                  stops: try animated(g["k"], [], "Colors"),
                                  highlightLength: try animated(node["h"], [0], "Highlight Length"),
                                  highlightAngle: try animated(node["a"], [0], "Highlight Angle")))
    }

    /// A transform; a layer's registers each part with the expressions, which read them by name.
    private mutating func transform(_ node: JSONNode, ofLayer: Bool = false) throws(LottieError) -> Transform {
        var t = Transform.identity
        t.anchor = try animated(node["a"], [0, 0], "Anchor Point", readable: ofLayer)
        if let p = node["p"], p["s"]?.number == 1 {
            t.positionX = try animated(p["x"], [0], "X Position", readable: ofLayer)
            t.positionY = try animated(p["y"], [0], "Y Position", readable: ofLayer)
        } else {
            t.position = try animated(node["p"], [0, 0], "Position", readable: ofLayer)
        }
        t.scale = try animated(node["s"], [100, 100], "Scale", readable: ofLayer)
        t.rotation = try animated(node["r"] ?? node["rz"], [0], "Rotation", readable: ofLayer)
        t.opacity = try animated(node["o"], [100], "Opacity", readable: ofLayer)
        t.skew = try animated(node["sk"], [0], "Skew", readable: ofLayer)
        t.skewAxis = try animated(node["sa"], [0], "Skew Axis", readable: ofLayer)
        if node["rx"] != nil || node["ry"] != nil || node["or"] != nil { skip("3D") }
        return t
    }

    /// A keyframed number or vector (`{"a": 0|1, "k": …}`); `fallback` when the file leaves it out. `name` is
    /// After Effects' name for it, by which expressions and their warnings know it. A property with an expression
    /// (`x`) is bound to it; a `readable` one (a layer's transform, an expression control) is registered even
    /// without one, for other expressions to read.
    mutating func animated(_ node: JSONNode?, _ fallback: [Double], _ name: String = "",
                                   readable: Bool = false) throws(LottieError) -> Animated {
        var value = try keyframed(node, fallback)
        let source = node?["x"]?.string
        guard source != nil || readable || !contentStack.isEmpty else { return value }
        let index = node?["ix"]?.number.flatMap(LottieParser.wholeNumber)
        let id = expressions.register(value, name: name, index: index, matchName: node?["mn"]?.string,
                                      source: source)
        if !contentStack.isEmpty { contentStack[contentStack.count - 1].properties.append(id) }
        if source != nil { value.expression = ExpressionBinding(engine: expressions, property: id) }
        return value
    }

    private mutating func keyframed(_ node: JSONNode?, _ fallback: [Double]) throws(LottieError) -> Animated {
        guard let node else { return .constant(fallback) }
        if node.number != nil || node.array != nil, let n = node.numbers { return .constant(n) }  // a bare value
        guard let k = node["k"] else { throw fail(node, "an animated property needs its value 'k'") }
        if let n = k.numbers { return .constant(n) }
        guard let list = k.array, !list.isEmpty else { throw fail(k, "'k' should be a number, an array or keyframes") }
        var keyframes: [Keyframe<[Double]>] = []
        for item in list {
            guard item.isObject else { throw fail(item, "a keyframe should be an object") }
            let t = try number(item, "t", in: -LottieAnimation.maxFrame...LottieAnimation.maxFrame)
            let s = try item["s"].map { v throws(LottieError) -> [Double] in
                guard let n = v.numbers else { throw fail(v, "a keyframe's 's' should be numbers") }
                return n
            }
            // Older files leave out the last keyframe's value: it is where the previous segment ended.
            guard let value = s ?? keyframes.last?.endValue ?? keyframes.last?.value else {
                throw fail(item, "a keyframe needs its value 's'")
            }
            let tangent = { (key: String) -> Point? in
                guard let v = item[key]?.numbers, v.count >= 2, v[0].isFinite, v[1].isFinite else { return nil }
                return Point(v[0], v[1])
            }
            keyframes.append(Keyframe(time: t, value: value, endValue: item["e"]?.numbers,
                                      hold: item["h"]?.number == 1, easing: easing(item),
                                      outTangent: tangent("to"), inTangent: tangent("ti")))
        }
        keyframes.sort { $0.time < $1.time }
        return Animated(keyframes: keyframes)
    }

    /// The keyframe's Bézier easing, one curve per dimension when `o` and `i` give arrays.
    private func easing(_ item: JSONNode) -> [TimingFunction] {
        guard let o = item["o"], let i = item["i"], let ox = o["x"]?.numbers, let oy = o["y"]?.numbers,
              let ix = i["x"]?.numbers, let iy = i["y"]?.numbers, !ox.isEmpty, !oy.isEmpty, !ix.isEmpty, !iy.isEmpty
        else { return [] }
        let n = Swift.min(Swift.max(ox.count, oy.count, ix.count, iy.count), 16)
        return (0..<n).map { d in
            TimingFunction(controlPoints: ox[Swift.min(d, ox.count - 1)], oy[Swift.min(d, oy.count - 1)],
                           ix[Swift.min(d, ix.count - 1)], iy[Swift.min(d, iy.count - 1)])
        }
    }

    /// A path property: a shape, or keyframes whose values are one-element arrays of shapes.
    private mutating func shape(_ node: JSONNode) throws(LottieError) -> AnimatedShape {
        var shape = try keyframedShape(node)
        let source = node["x"]?.string
        guard source != nil || !contentStack.isEmpty else { return shape }
        let id = expressions.registerPath(shape, name: "Path", index: node["ix"]?.number.flatMap(LottieParser.wholeNumber),
                                          source: source)
        if !contentStack.isEmpty { contentStack[contentStack.count - 1].properties.append(id) }
        if source != nil { shape.expression = ExpressionBinding(engine: expressions, property: id) }
        return shape
    }

    private func keyframedShape(_ node: JSONNode) throws(LottieError) -> AnimatedShape {
        guard let k = node["k"] else { throw fail(node, "a path property needs its value 'k'") }
        if k.isObject, k["v"] != nil {
            return AnimatedShape(keyframes: [Keyframe(time: 0, value: try bezier(k), endValue: nil, hold: true,
                                                      easing: [], outTangent: nil, inTangent: nil)])
        }
        guard let list = k.array, !list.isEmpty else { throw fail(k, "a path's 'k' should be a shape or keyframes") }
        var keyframes: [Keyframe<BezierShape>] = []
        for item in list {
            let t = try number(item, "t", in: -LottieAnimation.maxFrame...LottieAnimation.maxFrame)
            func first(_ key: String) throws(LottieError) -> BezierShape? {
                guard let v = item[key] else { return nil }
                if let a = v.array, let s = a.first { return try bezier(s) }
                return try bezier(v)
            }
            guard let value = try first("s") ?? keyframes.last?.endValue ?? keyframes.last?.value else {
                throw fail(item, "a keyframe needs its value 's'")
            }
            keyframes.append(Keyframe(time: t, value: value, endValue: try first("e"), hold: item["h"]?.number == 1,
                                      easing: easing(item), outTangent: nil, inTangent: nil))
        }
        keyframes.sort { $0.time < $1.time }
        return AnimatedShape(keyframes: keyframes)
    }

    func bezier(_ node: JSONNode) throws(LottieError) -> BezierShape {
        func points(_ key: String) throws(LottieError) -> [Point] {
            guard let list = node[key]?.array else { throw fail(node, "a shape needs '\(key)', an array of points") }
            var out: [Point] = []
            out.reserveCapacity(list.count)
            for p in list {
                guard let n = p.numbers, n.count >= 2 else { throw fail(p, "a point should be two numbers") }
                out.append(Point(n[0], n[1]))
            }
            return out
        }
        let v = try points("v")
        let i = node["i"] == nil ? [Point](repeating: .zero, count: v.count) : try points("i")
        let o = node["o"] == nil ? [Point](repeating: .zero, count: v.count) : try points("o")
        guard i.count == v.count, o.count == v.count else {
            throw fail(node, "a shape's 'v', 'i' and 'o' should have as many points each")
        }
        return BezierShape(vertices: v, inTangents: i, outTangents: o, closed: node["c"]?.number == 1)
    }
}

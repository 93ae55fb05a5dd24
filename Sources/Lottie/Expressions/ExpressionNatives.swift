#if canImport(Glibc)
import Glibc
#endif
import CDuktape
import Geometry
import Motion
import UserFiles

/// What the heap asks the engine: property values at a frame, keyframes, points between a layer's space and its
/// composition's, and the descriptions of the compositions, layers and properties the library makes its objects
/// from, when an expression first reads them. Each native is a C function the library alone holds (the `N` of
/// `ExpressionLibrary.source`).
extension ExpressionEngine {
    func pushKeyframed(_ ctx: OpaquePointer, _ id: Int, at frame: Double) {
        properties[id].keyframes.value(at: frame, into: &scratch)
        push(ctx, scratch[...])
    }

    func pushValue(_ ctx: OpaquePointer, _ id: Int, at frame: Double) {
        let count = evaluate(id, at: frame)
        if properties[id].path != nil {
            if count < 2 || !readPath(count) { properties[id].path?.sample(at: frame, into: &scratchShape) }
            return pushShape(ctx, scratchShape)
        }
        guard count > 0, let result else { return pushKeyframed(ctx, id, at: frame) }
        push(ctx, UnsafeBufferPointer(start: result, count: count))
    }

    func push<C: Collection>(_ ctx: OpaquePointer, _ values: C) where C.Element == Double {
        if values.count == 1, let v = values.first {
            duk_push_number(ctx, v)
            return
        }
        let array = duk_push_array(ctx)
        for (i, v) in values.enumerated() {
            duk_push_number(ctx, v)
            duk_put_prop_index(ctx, array, duk_uarridx_t(i))
        }
    }

    func pushPath(_ ctx: OpaquePointer, _ id: Int, at frame: Double) {
        properties[id].path?.sample(at: frame, into: &scratchShape)
        pushShape(ctx, scratchShape)
    }

    /// A shape as the library's path data: `{v, i, o, c}`.
    private func pushShape(_ ctx: OpaquePointer, _ shape: BezierShape) {
        let object = duk_push_object(ctx)
        pushPoints(ctx, shape.vertices)
        duk_put_prop_string(ctx, object, "v")
        pushPoints(ctx, shape.inTangents)
        duk_put_prop_string(ctx, object, "i")
        pushPoints(ctx, shape.outTangents)
        duk_put_prop_string(ctx, object, "o")
        duk_push_boolean(ctx, shape.closed ? 1 : 0)
        duk_put_prop_string(ctx, object, "c")
    }

    /// An array of `[x, y]` arrays.
    private func pushPoints(_ ctx: OpaquePointer, _ points: [Point]) {
        let array = duk_push_array(ctx)
        for (i, p) in points.enumerated() {
            let pair = duk_push_array(ctx)
            duk_push_number(ctx, p.x)
            duk_put_prop_index(ctx, pair, 0)
            duk_push_number(ctx, p.y)
            duk_put_prop_index(ctx, pair, 1)
            duk_put_prop_index(ctx, array, duk_uarridx_t(i))
        }
    }

    /// Whether `id` names a property.
    func isProperty(_ id: Int) -> Bool { id >= 0 && id < properties.count }

    /// How many keyframes the property has; none for a constant.
    func keyCount(_ id: Int) -> Int {
        guard isProperty(id) else { return 0 }
        if let path = properties[id].path { return path.keyframes.count > 1 ? path.keyframes.count : 0 }
        return keyframes(id)?.count ?? 0
    }

    /// The time of keyframe `i`, in frames.
    func keyTime(_ id: Int, _ i: Int) -> Double? {
        guard i >= 0, i < keyCount(id) else { return nil }
        if let path = properties[id].path { return path.keyframes[i].time }
        return properties[id].keyframes.keyframes[i].time
    }

    func isPath(_ id: Int) -> Bool { isProperty(id) && properties[id].path != nil }

    func keyframes(_ id: Int) -> [Keyframe<[Double]>]? {
        guard isProperty(id) else { return nil }
        let k = properties[id].keyframes.keyframes
        return k.count == 1 && k[0].hold && k[0].easing.isEmpty ? [] : k
    }

    static func from(_ ctx: OpaquePointer?) -> ExpressionEngine {
        var functions = duk_memory_functions()
        duk_get_memory_functions(ctx, &functions)
        return Unmanaged<ExpressionEngine>.fromOpaque(functions.udata!).takeUnretainedValue()
    }

    // MARK: The model, described when first read

    /// The composition numbered `number` (its place in the order compositions were read): `{name, width,
    /// height, layers}`.
    func compositionJSON(_ number: Int) -> String? {
        guard compositionOrder.indices.contains(number) else { return nil }
        let key = compositionOrder[number]
        let main = key == nil
        return "{\"name\":\(JSONText.string(key ?? "")),\"width\":\(jsNumber(main ? width : 0)),"
            + "\"height\":\(jsNumber(main ? height : 0)),\"layers\":\(compositions[key]?.count ?? 0)}"
    }

    /// The layers of composition `number`.
    func layers(_ number: Int) -> [Layer]? {
        compositionOrder.indices.contains(number) ? compositions[compositionOrder[number]] : nil
    }

    /// Where `thisComp.layer(x)` finds its layer: the first whose name is the string `name` or whose index is
    /// `index`, else the `index`-th; -1 when there is none.
    func findLayer(_ number: Int, name: String?, index: Double?) -> Int {
        guard let layers = layers(number) else { return -1 }
        if let name, let at = layers.firstIndex(where: { $0.name == name }) { return at }
        if let index {
            if let at = layers.firstIndex(where: { $0.index.map(Double.init) == index }) { return at }
            if index >= 1, index <= Double(layers.count), index == index.rounded() { return Int(index) - 1 }
        }
        return -1
    }

    /// The layer at `position` of composition `number`: its names, times, size, parent's place, transform and
    /// effects by property id, and whether it has contents.
    func layerJSON(_ number: Int, _ position: Int) -> String? {
        guard let layers = layers(number), layers.indices.contains(position) else { return nil }
        let l = layers[position]
        let effects = l.effects.map { e in
            "{\"name\":\(JSONText.string(e.name)),\"matchName\":\(JSONText.string(e.matchName)),"
                + "\"index\":\(e.index.map { String($0) } ?? "null"),\"params\":[\(e.parameters.map(String.init).joined(separator: ","))]}"
        }.joined(separator: ",")
        let parent = parentPosition(of: l, in: layers).map(String.init) ?? "null"
        return "{\"name\":\(JSONText.string(l.name)),\"index\":\(l.index.map { String($0) } ?? "null"),"
            + "\"parent\":\(parent),\"inPoint\":\(jsNumber(l.inPoint)),\"outPoint\":\(jsNumber(l.outPoint)),"
            + "\"startTime\":\(jsNumber(l.startTime)),\"width\":\(jsNumber(l.width)),\"height\":\(jsNumber(l.height)),"
            + "\"transform\":[\(l.transform.map(String.init).joined(separator: ","))],\"effects\":[\(effects)],"
            + "\"hasContent\":\(l.content != nil)}"
    }

    /// The contents of the layer at `position`, as a tree of groups with their properties' ids; "null" for a
    /// layer without shapes.
    func contentJSON(_ number: Int, _ position: Int) -> String? {
        guard let layers = layers(number), layers.indices.contains(position) else { return nil }
        return layers[position].content.map(nodeJSON) ?? "null"
    }

    private func nodeJSON(_ node: ContentNode) -> String {
        "{\"name\":\(JSONText.string(node.name)),\"matchName\":\(JSONText.string(node.matchName)),"
            + "\"index\":\(node.index.map { String($0) } ?? "null"),"
            + "\"props\":[\(node.properties.map(String.init).joined(separator: ","))],"
            + "\"children\":[\(node.children.map(nodeJSON).joined(separator: ","))]}"
    }

    /// Property `id`: its names, kind, and the composition and place of its layer.
    func propertyJSON(_ id: Int) -> String? {
        guard isProperty(id) else { return nil }
        let p = properties[id]
        return "{\"id\":\(id),\"name\":\(JSONText.string(p.name)),\"index\":\(p.index.map { String($0) } ?? "null"),"
            + "\"matchName\":\(JSONText.string(p.matchName ?? "")),\"isPath\":\(p.path != nil),"
            + "\"type\":\(p.controlType ?? -1),\"comp\":\(compositionNumber(p.composition)),\"layer\":\(p.layer)}"
    }

    /// The composition's number, its place in the order compositions were read.
    func compositionNumber(_ key: String?) -> Int { compositionOrder.firstIndex(of: key) ?? 0 }

    /// The model's memory, counted apart from the expressions' values: a section the library marks starts.
    func modelBegin() {
        guard let arena else { return }
        modelDepth += 1
        guard modelDepth == 1 else { return }
        modelMark = arena.reserved
        modelSavedLimit = arena.limit
        arena.allow(Swift.max(0, ExpressionEngine.modelLimit - modelBytes))
    }

    /// The section ends: what it took is the model's, and the values keep the room they had.
    func modelEnd() {
        guard let arena, modelDepth > 0 else { return }
        modelDepth -= 1
        guard modelDepth == 0 else { return }
        let taken = Swift.max(0, arena.reserved - modelMark)
        modelBytes += taken
        arena.setLimit(modelSavedLimit + taken)
    }

    /// Code made at run time, guarded (`ExpressionWrapper.runTimeCode`).
    func runTimeCode(_ source: String, mode: Int) -> Result<String, ExpressionGuard.Refusal> {
        Result { () throws(ExpressionGuard.Refusal) in
            try ExpressionWrapper.runTimeCode(source, mode: mode, globals: globalNames)
        }
    }

    var isInTime: Bool { budget.isInTime }
}

/// A finite number as JavaScript writes it; a non-finite one as 0.
func jsNumber(_ v: Double) -> String { v.isFinite ? "\(v)" : "0" }

// MARK: The heap's memory and natives, as C functions

// The heap's allocations reach the arena without retaining it: Duktape allocates often, and the engine holds both.
let expressionAlloc: duk_alloc_function = { udata, size in
    Unmanaged<ExpressionEngine>.fromOpaque(udata!)._withUnsafeGuaranteedRef { $0.arena?.allocate(Int(size)) }
}
let expressionRealloc: duk_realloc_function = { udata, pointer, size in
    Unmanaged<ExpressionEngine>.fromOpaque(udata!)._withUnsafeGuaranteedRef { $0.arena?.reallocate(pointer, Int(size)) }
}
let expressionFree: duk_free_function = { udata, pointer in
    Unmanaged<ExpressionEngine>.fromOpaque(udata!)._withUnsafeGuaranteedRef { $0.arena?.free(pointer) }
}
/// Reached only by an error outside any protected call, which the engine never makes.
let expressionFatal: duk_fatal_function = { _, message in
    fatalError("Duktape: \(message.map { String(cString: $0) } ?? "fatal error")")
}

/// Whether the evaluation under way is still in time: the bootstrap's `__tick` asks.
let expressionInTime: duk_c_function = { ctx in
    duk_push_boolean(ctx, ExpressionEngine.from(ctx).isInTime ? 1 : 0)
    return 1
}

/// Pushes `text` as a string, or undefined when there is none.
private func pushText(_ ctx: OpaquePointer?, _ text: String?) -> duk_ret_t {
    guard var text else { return 0 }
    text.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) { _ = duk_push_lstring(ctx, $0.baseAddress, duk_size_t($0.count)) }
    }
    return 1
}

/// The functions the library calls (`ExpressionLibrary`'s `N`), with their argument counts.
let expressionNatives: [(String, duk_c_function, Int)] = [
    ("raw", { ctx in
        let engine = ExpressionEngine.from(ctx)
        let id = Int(duk_to_int(ctx, 0))
        guard let ctx, engine.keyframes(id) != nil else { return 0 }
        engine.pushKeyframed(ctx, id, at: duk_to_number(ctx, 1))
        return 1
    }, 2),
    ("value", { ctx in
        let engine = ExpressionEngine.from(ctx)
        let id = Int(duk_to_int(ctx, 0))
        guard let ctx, engine.keyframes(id) != nil || engine.isPath(id) else { return 0 }
        engine.pushValue(ctx, id, at: duk_to_number(ctx, 1))
        return 1
    }, 2),
    ("rawPath", { ctx in
        let engine = ExpressionEngine.from(ctx)
        let id = Int(duk_to_int(ctx, 0))
        guard let ctx, engine.isPath(id) else { return 0 }
        engine.pushPath(ctx, id, at: duk_to_number(ctx, 1))
        return 1
    }, 2),
    ("keyCount", { ctx in
        duk_push_int(ctx, duk_int_t(ExpressionEngine.from(ctx).keyCount(Int(duk_to_int(ctx, 0)))))
        return 1
    }, 1),
    ("keyTime", { ctx in
        guard let time = ExpressionEngine.from(ctx).keyTime(Int(duk_to_int(ctx, 0)), Int(duk_to_int(ctx, 1)))
        else { return 0 }
        duk_push_number(ctx, time)
        return 1
    }, 2),
    // (composition's number, layer, frame, x, y, inverse): a point from the layer's space to its composition's, or
    // back.
    ("layerPoint", { ctx in
        let engine = ExpressionEngine.from(ctx)
        guard let ctx, let m = engine.layerMatrix(composition: Int(duk_to_int(ctx, 0)), position: Int(duk_to_int(ctx, 1)),
                                                  at: duk_to_number(ctx, 2)) else { return 0 }
        let p = Point(duk_to_number(ctx, 3), duk_to_number(ctx, 4))
        let q = duk_to_boolean(ctx, 5) != 0 ? (m.inverted?.apply(p) ?? p) : m.apply(p)
        engine.push(ctx, [q.x, q.y])
        return 1
    }, 6),
    ("keyValue", { ctx in
        let engine = ExpressionEngine.from(ctx)
        guard let ctx, let k = engine.keyframes(Int(duk_to_int(ctx, 0))) else { return 0 }
        let i = Int(duk_to_int(ctx, 1))
        guard k.indices.contains(i) else { return 0 }
        engine.push(ctx, k[i].value)
        return 1
    }, 2),
    ("bezier", { ctx in
        let curve = TimingFunction(controlPoints: duk_to_number(ctx, 0), duk_to_number(ctx, 1), duk_to_number(ctx, 2),
                                   duk_to_number(ctx, 3))
        duk_push_number(ctx, curve.value(at: duk_to_number(ctx, 4)))
        return 1
    }, 5),
    ("composition", { ctx in pushText(ctx, ExpressionEngine.from(ctx).compositionJSON(Int(duk_to_int(ctx, 0)))) }, 1),
    ("layer", { ctx in
        pushText(ctx, ExpressionEngine.from(ctx).layerJSON(Int(duk_to_int(ctx, 0)), Int(duk_to_int(ctx, 1))))
    }, 2),
    ("content", { ctx in
        pushText(ctx, ExpressionEngine.from(ctx).contentJSON(Int(duk_to_int(ctx, 0)), Int(duk_to_int(ctx, 1))))
    }, 2),
    ("property", { ctx in pushText(ctx, ExpressionEngine.from(ctx).propertyJSON(Int(duk_to_int(ctx, 0)))) }, 1),
    // (composition's number, x): the place of `thisComp.layer(x)`, by name or index, or -1.
    ("findLayer", { ctx in
        let name = duk_is_string(ctx, 1) != 0 ? duk_get_string(ctx, 1).map { String(cString: $0) } : nil
        let index = duk_is_number(ctx, 1) != 0 ? duk_get_number(ctx, 1) : nil
        duk_push_int(ctx, duk_int_t(ExpressionEngine.from(ctx).findLayer(Int(duk_to_int(ctx, 0)), name: name, index: index)))
        return 1
    }, 2),
    ("modelBegin", { ctx in ExpressionEngine.from(ctx).modelBegin(); return 0 }, 0),
    ("modelEnd", { ctx in ExpressionEngine.from(ctx).modelEnd(); return 0 }, 0),
    // (source, mode): [guarded code], or [null, why it is refused] (ExpressionWrapper.runTimeCode).
    ("guard", { ctx in
        let source = duk_get_string(ctx, 0).map { String(cString: $0) } ?? ""
        let outcome = ExpressionEngine.from(ctx).runTimeCode(source, mode: Int(duk_to_int(ctx, 1)))
        let array = duk_push_array(ctx)
        switch outcome {
        case .success(let code):
            _ = pushText(ctx, code)
        case .failure(let refusal):
            duk_push_null(ctx)
            duk_put_prop_index(ctx, array, 0)
            _ = pushText(ctx, refusal.reason)
            duk_put_prop_index(ctx, array, 1)
            return 1
        }
        duk_put_prop_index(ctx, array, 0)
        return 1
    }, 2),
]

#if canImport(Glibc)
import Glibc
#endif
import CDuktape
import Geometry
import Motion
import UserFiles

/// A property's value given by an After Effects expression: the file's engine and the property's place in it.
struct ExpressionBinding: Sendable {
    let engine: ExpressionEngine
    let property: Int
}

/// The expressions of one file, run by Duktape: the properties they read (every layer's transform and expression
/// controls, and each property that carries an expression), the layers that hold them, and one JavaScript heap in
/// which each expression is compiled once when the file is read (`compile`) and then called at every frame it is
/// drawn.
///
/// An expression that throws, or runs past `timeBudget`, gives its keyframed value instead, with one warning
/// naming the layer, the property and the error (`takeWarnings`); one that ran out of time is not run again. The
/// heap lives in `memoryLimit` bytes reserved up front (`ExpressionArena`), so a frame allocates nothing from the
/// system and an expression that allocates without end fails alone. Drawing is single-threaded per file; a lock
/// keeps two renderers of one file from entering the heap at once.
final class ExpressionEngine: @unchecked Sendable {
    static let memoryLimit = 16 << 20
    /// The time one frame's evaluation of one expression (with those it reads) may take, in seconds.
    static let timeBudget = 0.05

    struct Property {
        var keyframes: Animated
        /// A path property's shapes (its `keyframes` are then empty).
        var path: AnimatedShape?
        var name: String
        var index: Int?
        var matchName: String?
        /// An expression control parameter's kind (`ty`: 0 slider … 10 layer).
        var controlType: Int?
        var source: String?
        /// The layer holding it: its composition (nil the main one) and its place in that composition's layers.
        var composition: String?
        var layer = -1
        /// Where its compiled evaluator sits in the heap's `__ev` array.
        var slot: Int?
    }

    struct Layer {
        var name: String
        var index: Int?
        var parent: Int?
        var inPoint: Double, outPoint: Double, startTime: Double
        var width: Double, height: Double
        var transform: [Int] = []
        var effects: [Effect] = []
        var content: ContentNode?
    }

    /// A shape layer's group or item, with its properties, as `content(…)` finds it.
    struct ContentNode {
        var name: String
        var matchName: String
        var index: Int?
        var properties: [Int] = []
        var children: [ContentNode] = []
    }

    struct Effect {
        var name: String
        var matchName: String
        var index: Int?
        var parameters: [Int]
    }

    let frameRate: Double
    private(set) var properties: [Property] = []
    private var compositions: [String?: [Layer]] = [:]
    private var compositionOrder: [String?] = []
    /// Properties registered while the layer being read is not yet placed.
    private var pending: [Int] = []

    // The heap, once compiled.
    private var context: OpaquePointer?
    /// The heap's memory, reserved when the first expression is compiled.
    fileprivate var arena: ExpressionArena?
    private var result: UnsafeMutablePointer<Double>?
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    fileprivate var deadline = timespec()
    private var depth = 0
    private var running: Set<Int> = []
    private var disabled: Set<Int> = []
    private var reported: Set<Int> = []
    private var warnings: [String] = []
    private var scratch: [Double] = []
    /// Each property's last value, by the frame it was worked out for: a frame reads a property many times
    /// (its layer's children, other expressions), and an expression gives the same value for the same frame.
    private var cache: [CachedValue] = []

    private struct CachedValue {
        var frame = Double.nan
        var count = 0
        var values: [Double] = []
    }
    private var scratchShape = BezierShape(vertices: [], inTangents: [], outTangents: [], closed: false)

    init(frameRate: Double) {
        self.frameRate = frameRate
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        scratch.reserveCapacity(1024)
    }

    deinit {
        if let context { duk_destroy_heap(context) }
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    var hasExpressions: Bool { properties.contains { $0.source != nil } }

    // MARK: Registration, while the file is read

    /// Adds a property the expressions can read (with its own expression, if it has one); its id.
    func register(_ keyframes: Animated, name: String, index: Int?, matchName: String? = nil,
                  source: String?) -> Int {
        properties.append(Property(keyframes: keyframes, name: name, index: index, matchName: matchName,
                                   source: source))
        pending.append(properties.count - 1)
        return properties.count - 1
    }

    /// Adds a path property (with its expression, if it has one); its id.
    func registerPath(_ shape: AnimatedShape, name: String, index: Int?, source: String?) -> Int {
        properties.append(Property(keyframes: Animated(keyframes: []), path: shape, name: name, index: index,
                                   matchName: "ADBE Vector Shape", source: source))
        pending.append(properties.count - 1)
        return properties.count - 1
    }

    /// Gives a registered property the index and internal name its file gives it elsewhere than on its value.
    func identify(_ id: Int, index: Int?, matchName: String?, controlType: Int?) {
        properties[id].index = index
        properties[id].matchName = matchName
        properties[id].controlType = controlType
    }

    /// Places the layer just read, with the properties registered since the previous one, in `composition`.
    func addLayer(_ layer: Layer, composition: String?) {
        if compositions[composition] == nil { compositionOrder.append(composition) }
        let position = compositions[composition, default: []].count
        compositions[composition, default: []].append(layer)
        for id in pending {
            properties[id].composition = composition
            properties[id].layer = position
        }
        pending.removeAll()
    }

    /// Forgets the properties registered for a layer that is not drawn.
    func discardLayer() {
        for id in pending { properties[id].source = nil }
        pending.removeAll()
    }

    // MARK: Compiling

    /// Makes the heap and compiles every expression; the warnings of those that cannot run (each then draws its
    /// keyframes).
    func compile() -> [String] {
        guard hasExpressions, context == nil else { return [] }
        let udata = Unmanaged.passUnretained(self).toOpaque()
        arena = ExpressionArena(capacity: ExpressionEngine.memoryLimit)
        guard let ctx = duk_create_heap(expressionAlloc, expressionRealloc, expressionFree, udata, expressionFatal) else {
            return ["expressions not run: their JavaScript heap could not be made"]
        }
        context = ctx
        for (name, function, arguments) in expressionNatives {
            duk_push_c_function(ctx, function, duk_idx_t(arguments))
            duk_put_global_string(ctx, name)
        }
        var failures: [String] = []
        let setup = run("""
            var __fr = \(jsNumber(frameRate));
            var __result = new Float64Array(\(ExpressionEngine.resultCapacity));
            \(ExpressionLibrary.source)
            var __ev = [];
            var __comps = __defineCompositions(\(compositionsJSON()));
            function __propertyFor(id, name, index, comp, position, isPath) {
              if (__properties[id]) { return __properties[id]; }
              var layer = __comps[comp].__layers[position];
              var p = new __Property(id, name, index, layer, __group('Contents', 2, layer, []));
              p.isPath = isPath;
              __properties[id] = p;
              return p;
            }
            """, name: "library")
        if let error = setup {
            duk_destroy_heap(ctx)
            context = nil
            return ["expressions not run: \(error)"]
        }
        duk_get_global_string(ctx, "__result")
        var size: duk_size_t = 0
        result = duk_get_buffer_data(ctx, -1, &size)?.assumingMemoryBound(to: Double.self)
        duk_pop(ctx)
        cache = Array(repeating: CachedValue(), count: properties.count)
        var slots = 0
        for id in properties.indices {
            guard let source = properties[id].source else { continue }
            let p = properties[id]
            let code: String
            do {
                code = try ExpressionGuard.instrument(source)
            } catch {
                failures.append(label(id) + ": " + error.reason)
                continue
            }
            let key = JSONText.string(p.composition ?? "")
            let wrapper = "__ev[\(slots)] = (" + ExpressionEngine.wrapper(code)
                + ")(__propertyFor(\(id), \(JSONText.string(p.name)), \(p.index.map { String($0) } ?? "null"), \(key), "
                + "\(p.layer), \(p.path != nil)));"
            if let error = run(wrapper, name: "expression") {
                failures.append(label(id) + ": " + error)
                continue
            }
            properties[id].slot = slots
            slots += 1
        }
        return failures
    }

    /// The function that evaluates one expression at a frame, with After Effects' names in its scope. The
    /// expression starts on the wrapper's first line, so an error's line number is the expression's own.
    static func wrapper(_ code: String) -> String {
        let layerNames = ["index", "name", "inPoint", "outPoint", "startTime", "hasParent", "parent", "width",
                          "height", "transform", "effect", "content", "toComp", "fromComp", "toWorld", "fromWorld"]
        // fromCompToSurface is fromComp for a layer without 3D (lottie-web's alias).
        let propertyNames = ["loopOut", "loopIn", "loopOutDuration", "loopInDuration", "valueAtTime",
                             "velocityAtTime", "speedAtTime", "key", "nearestKey"]
        var prefix = "function(__p){var thisProperty=__p,thisLayer=__p.layer,thisComp=thisLayer.comp,"
            + "numKeys=__p.numKeys,time=0,value,velocity,speed,position,rotation,scale,anchorPoint,opacity;"
        for n in layerNames { prefix += "var \(n)=thisLayer.\(n);" }
        for n in propertyNames { prefix += "var \(n)=function(a,b){return __p.\(n)(a,b)};" }
        prefix += "var loop_out=loopOut,loop_in=loopIn,fromCompToSurface=fromComp;"
            + "var comp=function(){throw new ReferenceError('comp(): other compositions are not read by expressions')};"
            + "var wiggle=function(f,a,o,m,t){return __p.wiggle(f,a,o,m,t===undefined?time:t)};"
            + "var seedRandom=function(s,tl){__p.__seed=Math.floor(+s)||0;__p.__timeless=!!tl;__p.__reseed(__now)};"
            + "var random=function(a,b){return __random(__p,a,b,false)};"
            + "var gaussRandom=function(a,b){return __random(__p,a,b,true)};"
            + "var posterizeTime=function(f){time=f>0?Math.floor(time*f)/f:0;value=__p.raw(time*__fr)};"
            + "var __run=function(){var $bm_rt;"
        // The names that read other properties are set only when the expression uses them: reading the layer's
        // whole transform for every expression would run each of its expressions as well.
        let used = ExpressionGuard.names(in: code)
        var reads = ""
        for n in ["position", "rotation", "scale", "anchorPoint", "opacity"] where used.contains(n) {
            reads += "\(n)=thisLayer.transform.\(n);"
        }
        if used.contains("velocity") || used.contains("speed") {
            reads += "velocity=__p.velocityAtTime(time);speed=length(velocity);"
        }
        let suffix = "\n;return $bm_rt};"
            + "return function(__f){var __saved=__now;__now=__f;try{time=__f/__fr;value=__p.raw(__f);__p.__reseed(__f);"
            + reads + "return __out(__run(),__p.isPath)}finally{__now=__saved}}}"
        return prefix + code + suffix
    }

    /// Evaluates `source` in the heap; nil, or the error's message.
    private func run(_ source: String, name: String) -> String? {
        guard let ctx = context else { return "no heap" }
        var source = source
        let status = source.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { cduk_peval(ctx, $0.baseAddress, duk_size_t($0.count), name) }
        }
        if status != 0 {
            let message = String(cString: cduk_safe_to_string(ctx, -1))
            duk_pop(ctx)
            return message
        }
        duk_pop(ctx)
        return nil
    }

    // MARK: Evaluating

    /// The property's value at `frame` (in its composition's frames): its expression's, or its keyframes' when
    /// the expression cannot give one.
    func sample(_ id: Int, at frame: Double) -> AnimatedSample {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return sampleInside(id, at: frame)
    }

    /// The property's value at `frame` into `out`, as `sample` gives it, for values of any length.
    func value(_ id: Int, at frame: Double, into out: inout [Double]) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        let count = evaluate(id, at: frame)
        guard count > 0, let result else { return properties[id].keyframes.value(at: frame, into: &out) }
        out.removeAll(keepingCapacity: true)
        for i in 0..<count { out.append(result[i]) }
    }

    /// The path property's shape at `frame`, handed to `body`: its expression's, or its keyframes' when the
    /// expression cannot give one. The shape is the engine's own, reused from call to call.
    func path(_ id: Int, at frame: Double, _ body: (BezierShape) -> Void) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        let count = evaluate(id, at: frame)
        if count < 2 || !readPath(count) {
            properties[id].path?.sample(at: frame, into: &scratchShape)
        }
        body(scratchShape)
    }

    /// Reads a path left in `result` (closed, vertex count, then each vertex and its two tangents) into
    /// `scratchShape`; false when the numbers do not make one.
    private func readPath(_ count: Int) -> Bool {
        guard let result, result[1] >= 0, result[1] <= Double((count - 2) / 6), count == 2 + 6 * Int(result[1])
        else { return false }
        scratchShape.removeAll()
        scratchShape.closed = result[0] != 0
        for k in 0..<Int(result[1]) {
            let r = result + 2 + 6 * k
            scratchShape.append(Point(r[0], r[1]), in: Point(r[2], r[3]), out: Point(r[4], r[5]))
        }
        return true
    }

    /// The property's value at `frame`, as `sample` gives it, for a caller already holding the lock.
    private func sampleInside(_ id: Int, at frame: Double) -> AnimatedSample {
        let count = evaluate(id, at: frame)
        guard count > 0, let result else { return properties[id].keyframes.sample(at: frame) }
        var out = AnimatedSample()
        out.count = Swift.min(count, 4)
        for i in 0..<out.count { out.values[i] = result[i] }
        return out
    }

    /// Most parents followed up from a layer, as the renderer follows them.
    private static let maxParentDepth = 64

    /// The matrix from the layer's own space to its composition's at `frame`, through its parents.
    fileprivate func layerMatrix(composition number: Int, position: Int, at frame: Double) -> AffineTransform? {
        guard compositionOrder.indices.contains(number), let layers = compositions[compositionOrder[number]],
              layers.indices.contains(position) else { return nil }
        var m = AffineTransform.identity
        var current: Int? = position, steps = 0
        while let i = current, steps < ExpressionEngine.maxParentDepth {
            let layer = layers[i]
            var anchor = AnimatedSample(), position = AnimatedSample(), scale = AnimatedSample()
            var rotation = 0.0, skew = 0.0, skewAxis = 0.0
            scale.count = 2
            scale.values = SIMD4(100, 100, 0, 0)
            for id in layer.transform {
                let v = sampleInside(id, at: frame)
                switch properties[id].name {
                case "Anchor Point": anchor = v
                case "Position": position = v
                case "X Position": position.values.x = v.at(0); position.count = 2
                case "Y Position": position.values.y = v.at(0); position.count = 2
                case "Scale": scale = v
                case "Rotation": rotation = v.at(0)
                case "Skew": skew = v.at(0)
                case "Skew Axis": skewAxis = v.at(0)
                default: break
                }
            }
            m = m.concatenating(Transform.matrix(anchor: anchor, position: position, scale: scale, rotation: rotation,
                                                 skew: skew, skewAxis: skewAxis))
            current = layer.parent.flatMap { ind in layers.firstIndex { $0.index == ind } }
            steps += 1
        }
        return m
    }

    /// Runs the property's expression at `frame`: the count of numbers it left in `result`, or 0 when it has
    /// none, is already being evaluated (an expression reading itself, directly or through others), or failed.
    fileprivate func evaluate(_ id: Int, at frame: Double) -> Int {
        guard let ctx = context, let slot = properties[id].slot, !disabled.contains(id), !running.contains(id),
              frame.isFinite, let result else { return 0 }
        if cache[id].frame == frame {
            for i in 0..<cache[id].count { result[i] = cache[id].values[i] }
            return cache[id].count
        }
        if depth == 0 {
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            let nanoseconds = Int(ExpressionEngine.timeBudget * 1e9) + deadline.tv_nsec
            deadline.tv_sec += nanoseconds / 1_000_000_000
            deadline.tv_nsec = nanoseconds % 1_000_000_000
        }
        running.insert(id)
        depth += 1
        defer {
            depth -= 1
            running.remove(id)
        }
        duk_get_global_string(ctx, "__ev")
        duk_get_prop_index(ctx, -1, duk_uarridx_t(slot))
        duk_remove(ctx, -2)
        duk_push_number(ctx, frame)
        if duk_pcall(ctx, 1) != 0 {
            let message = String(cString: cduk_safe_to_string(ctx, -1))
            duk_pop(ctx)
            fail(id, message)
            return 0
        }
        let count = Swift.min(Int(duk_get_int(ctx, -1)), ExpressionEngine.resultCapacity)
        duk_pop(ctx)
        cache[id].frame = frame
        cache[id].count = count
        cache[id].values.removeAll(keepingCapacity: true)
        cache[id].values.append(contentsOf: UnsafeBufferPointer(start: result, count: count))
        return count
    }

    /// How many numbers an expression's result may hold (the heap's `__result`).
    static let resultCapacity = 8192

    private func fail(_ id: Int, _ message: String) {
        let outOfTime = message.contains("ran past its time budget")
        // Duktape says its heap is full as "alloc failed", or, when even the error could not be made, as a
        // DoubleError: either way the expression would fill the heap again on every frame.
        let outOfMemory = message.contains("alloc failed") || message.hasPrefix("DoubleError")
        if outOfTime || outOfMemory { disabled.insert(id) }
        guard !reported.contains(id) else { return }
        reported.insert(id)
        let why = outOfTime ? message + " (more than \(Int(ExpressionEngine.timeBudget * 1000)) ms; not run again)"
            : outOfMemory ? "ran out of the file's \(ExpressionEngine.memoryLimit >> 20) MB of JavaScript memory (not run again)"
            : message
        warnings.append(label(id) + ": " + why + "; drawn with its keyframes")
    }

    /// The warnings of expressions that failed since the last call, each once.
    func takeWarnings() -> [String] {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard !warnings.isEmpty else { return [] }
        defer { warnings.removeAll() }
        return warnings
    }

    /// Bytes of the heap's memory handed out so far: steady once frames repeat.
    var reservedBytes: Int {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return arena?.reserved ?? 0
    }

    /// "expression of layer 'L', property 'P'".
    private func label(_ id: Int) -> String {
        let p = properties[id]
        let layer = compositions[p.composition].flatMap { p.layer >= 0 && p.layer < $0.count ? $0[p.layer].name : nil }
        return "expression of layer '\(layer ?? "?")', \(p.name)"
    }

    // MARK: Natives

    fileprivate func pushKeyframed(_ ctx: OpaquePointer, _ id: Int, at frame: Double) {
        properties[id].keyframes.value(at: frame, into: &scratch)
        push(ctx, scratch[...])
    }

    fileprivate func pushValue(_ ctx: OpaquePointer, _ id: Int, at frame: Double) {
        let count = evaluate(id, at: frame)
        if properties[id].path != nil {
            if count < 2 || !readPath(count) { properties[id].path?.sample(at: frame, into: &scratchShape) }
            return pushShape(ctx, scratchShape)
        }
        guard count > 0, let result else { return pushKeyframed(ctx, id, at: frame) }
        push(ctx, UnsafeBufferPointer(start: result, count: count))
    }

    fileprivate func push<C: Collection>(_ ctx: OpaquePointer, _ values: C) where C.Element == Double {
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

    fileprivate func pushPath(_ ctx: OpaquePointer, _ id: Int, at frame: Double) {
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

    /// How many keyframes the property has; none for a constant.
    fileprivate func keyCount(_ id: Int) -> Int {
        guard id >= 0, id < properties.count else { return 0 }
        if let path = properties[id].path { return path.keyframes.count > 1 ? path.keyframes.count : 0 }
        return keyframes(id)?.count ?? 0
    }

    /// The time of keyframe `i`, in frames.
    fileprivate func keyTime(_ id: Int, _ i: Int) -> Double? {
        guard i >= 0, i < keyCount(id) else { return nil }
        if let path = properties[id].path { return path.keyframes[i].time }
        return properties[id].keyframes.keyframes[i].time
    }

    fileprivate func isPath(_ id: Int) -> Bool { id >= 0 && id < properties.count && properties[id].path != nil }

    fileprivate func keyframes(_ id: Int) -> [Keyframe<[Double]>]? {
        guard id >= 0, id < properties.count else { return nil }
        let k = properties[id].keyframes.keyframes
        return k.count == 1 && k[0].hold && k[0].easing.isEmpty ? [] : k
    }

    fileprivate static func from(_ ctx: OpaquePointer?) -> ExpressionEngine {
        var functions = duk_memory_functions()
        duk_get_memory_functions(ctx, &functions)
        return Unmanaged<ExpressionEngine>.fromOpaque(functions.udata).takeUnretainedValue()
    }

    fileprivate var isInTime: Bool {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec < deadline.tv_sec || (now.tv_sec == deadline.tv_sec && now.tv_nsec < deadline.tv_nsec)
    }

    // MARK: The layers, for the heap

    private func compositionsJSON() -> String {
        var parts: [String] = []
        for key in compositionOrder {
            let layers = compositions[key] ?? []
            let list = layers.map { l -> String in
                let transform = l.transform.map { id -> String in
                    let p = properties[id]
                    return "\(JSONText.string(ExpressionEngine.transformKeys[p.name] ?? p.name)):{\"id\":\(id),\"name\":\(JSONText.string(p.name)),\"index\":\(p.index.map { String($0) } ?? "null")}"
                }.joined(separator: ",")
                let effects = l.effects.map { e -> String in
                    let params = e.parameters.map { id -> String in
                        let p = properties[id]
                        return "{\"id\":\(id),\"name\":\(JSONText.string(p.name)),\"matchName\":\(JSONText.string(p.matchName ?? "")),"
                            + "\"index\":\(p.index.map { String($0) } ?? "null"),\"type\":\(p.controlType ?? -1)}"
                    }.joined(separator: ",")
                    return "{\"name\":\(JSONText.string(e.name)),\"matchName\":\(JSONText.string(e.matchName)),\"index\":\(e.index.map { String($0) } ?? "null"),\"params\":[\(params)]}"
                }.joined(separator: ",")
                let content = l.content.map(contentJSON) ?? "null"
                return "{\"name\":\(JSONText.string(l.name)),\"index\":\(l.index.map { String($0) } ?? "null"),\"content\":\(content),"
                    + "\"parent\":\(l.parent.map { String($0) } ?? "null"),\"inPoint\":\(jsNumber(l.inPoint)),"
                    + "\"outPoint\":\(jsNumber(l.outPoint)),\"startTime\":\(jsNumber(l.startTime)),"
                    + "\"width\":\(jsNumber(l.width)),\"height\":\(jsNumber(l.height)),"
                    + "\"transform\":{\(transform)},\"effects\":[\(effects)]}"
            }
            parts.append("\(JSONText.string(key ?? "")):{\"name\":\(JSONText.string(key ?? "")),\"number\":\(parts.count),"
                + "\"width\":0,\"height\":0,\"layers\":[\(list.joined(separator: ","))]}")
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    private func contentJSON(_ node: ContentNode) -> String {
        let members = node.properties.map { id -> String in
            let p = properties[id]
            return "{\"id\":\(id),\"name\":\(JSONText.string(p.name)),\"matchName\":\(JSONText.string(p.matchName ?? "")),"
                + "\"index\":\(p.index.map { String($0) } ?? "null"),\"isPath\":\(p.path != nil)}"
        }.joined(separator: ",")
        return "{\"name\":\(JSONText.string(node.name)),\"matchName\":\(JSONText.string(node.matchName)),"
            + "\"index\":\(node.index.map { String($0) } ?? "null"),\"props\":[\(members)],"
            + "\"children\":[\(node.children.map(contentJSON).joined(separator: ","))]}"
    }

    /// The transform's property names as `thisLayer.transform` spells them.
    static let transformKeys = ["Anchor Point": "anchorPoint", "Position": "position", "X Position": "xPosition",
                                "Y Position": "yPosition", "Scale": "scale", "Rotation": "rotation",
                                "Opacity": "opacity", "Skew": "skew", "Skew Axis": "skewAxis"]
}

/// A finite number as JavaScript writes it; a non-finite one as 0.
func jsNumber(_ v: Double) -> String { v.isFinite ? "\(v)" : "0" }

// MARK: The heap's memory and natives, as C functions

private let expressionAlloc: duk_alloc_function = { udata, size in
    Unmanaged<ExpressionEngine>.fromOpaque(udata!).takeUnretainedValue().arena?.allocate(Int(size))
}
private let expressionRealloc: duk_realloc_function = { udata, pointer, size in
    Unmanaged<ExpressionEngine>.fromOpaque(udata!).takeUnretainedValue().arena?.reallocate(pointer, Int(size))
}
private let expressionFree: duk_free_function = { udata, pointer in
    Unmanaged<ExpressionEngine>.fromOpaque(udata!).takeUnretainedValue().arena?.free(pointer)
}
/// Reached only by an error outside any protected call, which the engine never makes.
private let expressionFatal: duk_fatal_function = { _, message in
    fatalError("Duktape: \(message.map { String(cString: $0) } ?? "fatal error")")
}

/// The functions the library calls (`ExpressionLibrary`), with their argument counts.
private let expressionNatives: [(String, duk_c_function, Int)] = [
    ("__raw", { ctx in
        let engine = ExpressionEngine.from(ctx)
        let id = Int(duk_to_int(ctx, 0))
        guard let ctx, engine.keyframes(id) != nil else { return 0 }
        engine.pushKeyframed(ctx, id, at: duk_to_number(ctx, 1))
        return 1
    }, 2),
    ("__value", { ctx in
        let engine = ExpressionEngine.from(ctx)
        let id = Int(duk_to_int(ctx, 0))
        guard let ctx, engine.keyframes(id) != nil || engine.isPath(id) else { return 0 }
        engine.pushValue(ctx, id, at: duk_to_number(ctx, 1))
        return 1
    }, 2),
    ("__rawPath", { ctx in
        let engine = ExpressionEngine.from(ctx)
        let id = Int(duk_to_int(ctx, 0))
        guard let ctx, engine.isPath(id) else { return 0 }
        engine.pushPath(ctx, id, at: duk_to_number(ctx, 1))
        return 1
    }, 2),
    ("__keyCount", { ctx in
        duk_push_int(ctx, duk_int_t(ExpressionEngine.from(ctx).keyCount(Int(duk_to_int(ctx, 0)))))
        return 1
    }, 1),
    ("__keyTime", { ctx in
        guard let time = ExpressionEngine.from(ctx).keyTime(Int(duk_to_int(ctx, 0)), Int(duk_to_int(ctx, 1)))
        else { return 0 }
        duk_push_number(ctx, time)
        return 1
    }, 2),
    // (composition's number, layer, frame, x, y, inverse): a point from the layer's space to its composition's, or
    // back.
    ("__layerPoint", { ctx in
        let engine = ExpressionEngine.from(ctx)
        guard let ctx, let m = engine.layerMatrix(composition: Int(duk_to_int(ctx, 0)), position: Int(duk_to_int(ctx, 1)),
                                                  at: duk_to_number(ctx, 2)) else { return 0 }
        let p = Point(duk_to_number(ctx, 3), duk_to_number(ctx, 4))
        let q = duk_to_boolean(ctx, 5) != 0 ? (m.inverted?.apply(p) ?? p) : m.apply(p)
        engine.push(ctx, [q.x, q.y])
        return 1
    }, 6),
    ("__keyValue", { ctx in
        let engine = ExpressionEngine.from(ctx)
        guard let ctx, let k = engine.keyframes(Int(duk_to_int(ctx, 0))) else { return 0 }
        let i = Int(duk_to_int(ctx, 1))
        guard k.indices.contains(i) else { return 0 }
        engine.push(ctx, k[i].value)
        return 1
    }, 2),
    ("__inTime", { ctx in
        duk_push_boolean(ctx, ExpressionEngine.from(ctx).isInTime ? 1 : 0)
        return 1
    }, 0),
    ("__bezier", { ctx in
        let curve = TimingFunction(controlPoints: duk_to_number(ctx, 0), duk_to_number(ctx, 1), duk_to_number(ctx, 2),
                                   duk_to_number(ctx, 3))
        duk_push_number(ctx, curve.value(at: duk_to_number(ctx, 4)))
        return 1
    }, 5),
]

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
/// drawn. What an expression can and cannot do is in docs/reference.md §8 ("What an expression cannot do").
///
/// An expression that throws gives its keyframed value instead, with one warning naming the layer, the property
/// and the error (`takeWarnings`). Time is budgeted (`ExpressionBudget`): an expression past its own budget (with
/// the evaluations it asked for) is not run again; between `beginFrame` and `endFrame`, once the frame's budget
/// is spent, the frame's other expressions draw their keyframes. The heap lives in memory reserved up front
/// (`ExpressionArena`), so a frame allocates nothing from the system; the library, the compiled expressions and
/// the layers they read take from `modelLimit`, and the expressions' own values have `memoryLimit` on top of
/// that, however large the file. Drawing is single-threaded per file; a lock keeps two renderers of one file
/// from entering the heap at once.
final class ExpressionEngine: @unchecked Sendable {
    /// The memory an expression's values may take, on top of the model.
    static let memoryLimit = 16 << 20
    /// The memory the library, the compiled expressions and the layers they read may take.
    static let modelLimit = 96 << 20
    /// The most expressions a file may have compiled; those past it draw their keyframes.
    static let maxExpressions = 10_000
    /// The most bytes of source a file's expressions may have together.
    static let maxTotalSource = 16 << 20
    /// The expressions' clock at frame 0, in milliseconds since 1970: 10:00 UTC on 1 January 2026, the simulated
    /// clock's start in a replay.
    static let clockStart = 1_767_261_600_000.0

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
        /// Where its compiled wrapper sits in the heap's stash.
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
    /// The main composition's size, as `thisComp.width` and `height` read it.
    let width: Double, height: Double
    private(set) var properties: [Property] = []
    var compositions: [String?: [Layer]] = [:]
    var compositionOrder: [String?] = []
    /// Properties registered while the layer being read is not yet placed.
    private var pending: [Int] = []

    // The heap, once compiled.
    private var context: OpaquePointer?
    /// The heap's memory, reserved when the first expression is compiled.
    var arena: ExpressionArena?
    var result: UnsafeMutablePointer<Double>?
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    /// Names on the heap's global object, which an expression's own assignments leave alone.
    var globalNames: Set<String> = []
    var budget = ExpressionBudget()
    /// The properties being evaluated, outermost first.
    private var running: [Int] = []
    private var disabled: Set<Int> = []
    private var reported: Set<Int> = []
    private var reportedCycles: Set<[Int]> = []
    private var heapFullSaid = false
    private var warnings: [String] = []
    var scratch: [Double] = []
    /// The model's share of the heap: bytes it took in sections the library marks (`modelBegin`, `modelEnd`).
    var modelBytes = 0
    var modelDepth = 0
    var modelMark = 0, modelSavedLimit = 0
    /// Each property's last value, by the frame it was worked out for: a frame reads a property many times
    /// (its layer's children, other expressions), and an expression gives the same value for the same frame.
    private var cache: [CachedValue] = []

    private struct CachedValue {
        var frame = Double.nan
        var count = 0
        var values: [Double] = []
    }
    var scratchShape = BezierShape(vertices: [], inTangents: [], outTangents: [], closed: false)

    init(frameRate: Double, width: Double = 0, height: Double = 0) {
        self.frameRate = frameRate
        self.width = width
        self.height = height
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
        guard let arena = ExpressionArena(capacity: ExpressionEngine.modelLimit + ExpressionEngine.memoryLimit,
                                          limit: ExpressionEngine.modelLimit) else {
            return ["expressions not run: the memory for their JavaScript heap could not be reserved"]
        }
        self.arena = arena
        let udata = Unmanaged.passUnretained(self).toOpaque()
        guard let ctx = duk_create_heap(expressionAlloc, expressionRealloc, expressionFree, udata, expressionFatal) else {
            return ["expressions not run: their JavaScript heap could not be made"]
        }
        context = ctx
        budget.startSetUp()
        if let error = setUp(ctx) {
            duk_destroy_heap(ctx)
            context = nil
            return ["expressions not run: " + (isOutOfMemory(error) ? outOfModelMemory : error)]
        }
        cache = Array(repeating: CachedValue(), count: properties.count)
        var failures: [String] = []
        var slots = 0, sourceBytes = 0, skipped = 0
        for id in properties.indices {
            guard let source = properties[id].source else { continue }
            sourceBytes += source.utf8.count
            guard slots < ExpressionEngine.maxExpressions, sourceBytes <= ExpressionEngine.maxTotalSource,
                  skipped == 0 else {
                skipped += 1
                continue
            }
            let wrapper: String
            do {
                wrapper = try ExpressionWrapper.source(source, isPath: properties[id].path != nil, globals: globalNames)
            } catch {
                failures.append(label(id) + ": " + error.reason)
                continue
            }
            if let error = makeEvaluator(ctx, wrapper: wrapper, id: id, slot: slots) {
                if isOutOfMemory(error) {
                    failures.append(label(id) + ": not compiled: " + outOfModelMemory)
                    skipped += 1
                    continue
                }
                failures.append(label(id) + ": " + error)
                continue
            }
            properties[id].slot = slots
            slots += 1
        }
        if skipped > 0 {
            failures.append("\(skipped) more expression\(skipped == 1 ? "" : "s") not compiled (a file may have "
                + "\(ExpressionEngine.maxExpressions) expressions of \(ExpressionEngine.maxTotalSource >> 20) MB of "
                + "source in all, in \(ExpressionEngine.modelLimit >> 20) MB of JavaScript memory); drawn with "
                + "their keyframes")
        }
        duk_gc(ctx, 0)
        modelBytes = arena.reserved
        arena.allow(ExpressionEngine.memoryLimit)
        return failures
    }

    private var outOfModelMemory: String {
        "the file's expressions and the layers they read filled the \(ExpressionEngine.modelLimit >> 20) MB of "
            + "JavaScript memory they may take"
    }

    private func isOutOfMemory(_ message: String) -> Bool {
        message.contains("alloc failed") || message.hasPrefix("DoubleError")
    }

    /// Runs the bootstrap and the library, and keeps the kernel and the array of evaluators in the stash, where no
    /// expression can reach them; nil, or the error.
    private func setUp(_ ctx: OpaquePointer) -> String? {
        duk_push_global_stash(ctx)
        defer { duk_set_top(ctx, 0) }
        if let error = run(ExpressionLibrary.bootstrap, name: "bootstrap", keep: true) { return error }
        duk_push_global_object(ctx)
        duk_push_c_function(ctx, expressionInTime, 0)
        if duk_pcall(ctx, 2) != 0 { return popError(ctx) }
        // The stack: stash, charge.
        let library: String
        do {
            library = try ExpressionGuard.guarded(ExpressionLibrary.source, functionBodies: false).code
        } catch {
            return "the library: " + error.reason
        }
        if let error = run(library, name: "library", keep: true) { return error }
        duk_push_object(ctx)
        for (name, function, arguments) in expressionNatives {
            duk_push_c_function(ctx, function, duk_idx_t(arguments))
            duk_put_prop_string(ctx, -2, name)
        }
        duk_push_global_object(ctx)
        duk_dup(ctx, -4)  // charge
        for number in [frameRate, ExpressionEngine.clockStart, Double(ExpressionEngine.resultCapacity)] {
            duk_push_number(ctx, number)
        }
        if duk_pcall(ctx, 6) != 0 { return popError(ctx) }
        // The stack: stash, charge, kernel.
        duk_get_prop_string(ctx, -1, "result")
        var size: duk_size_t = 0
        result = duk_get_buffer_data(ctx, -1, &size)?.assumingMemoryBound(to: Double.self)
        duk_pop(ctx)
        guard result != nil, Int(size) >= ExpressionEngine.resultCapacity * 8 else { return "the library gave no result buffer" }
        duk_push_string(ctx, "globals")
        if duk_pcall_prop(ctx, -2, 0) != 0 { return popError(ctx) }
        globalNames = Set(String(cString: cduk_safe_to_string(ctx, -1)).split(separator: " ").map(String.init))
        duk_pop(ctx)
        duk_put_prop_string(ctx, 0, "kernel")
        duk_push_array(ctx)
        duk_put_prop_string(ctx, 0, "evaluators")
        return nil
    }

    /// Evaluates `source` in the heap, leaving its value on the stack when `keep` is set; nil, or the error's
    /// message (nothing left on the stack).
    private func run(_ source: String, name: String, keep: Bool = false) -> String? {
        guard let ctx = context else { return "no heap" }
        var source = source
        let status = source.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { cduk_peval(ctx, $0.baseAddress, duk_size_t($0.count), name) }
        }
        if status != 0 { return popError(ctx) }
        if !keep { duk_pop(ctx) }
        return nil
    }

    /// The error on top of the stack, as text, popped.
    private func popError(_ ctx: OpaquePointer) -> String {
        let message = String(cString: cduk_safe_to_string(ctx, -1))
        duk_pop(ctx)
        return message
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

    /// A frame begins: from here to `endFrame`, the file's expressions together have `budget.perFrame`.
    func beginFrame() {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        budget.beginFrame()
    }

    /// The frame is drawn: a frame whose budget ran out is said once, naming the expressions that drew their
    /// keyframes.
    func endFrame() {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard let skipped = budget.endFrame() else { return }
        var names: [String] = []
        for id in skipped where !names.contains(layerName(of: id)) { names.append(layerName(of: id)) }
        let layers = names.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (names.count > 5 ? ", …" : "")
        warnings.append("expressions ran past the frame's \(Int(budget.perFrame * 1000)) ms: "
            + "\(skipped.count) drew their keyframes (layers \(layers)); such frames depend on the machine's speed "
            + "(said once)")
    }

    /// Reads a path left in `result` (closed, vertex count, then each vertex and its two tangents) into
    /// `scratchShape`; false when the numbers do not make one.
    func readPath(_ count: Int) -> Bool {
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
    func layerMatrix(composition number: Int, position: Int, at frame: Double) -> AffineTransform? {
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
            current = parentPosition(of: layer, in: layers)
            steps += 1
        }
        return m
    }

    /// Runs the property's expression at `frame`: the count of numbers it left in `result`, or 0 when it has
    /// none, is being evaluated already (its own, or a cycle of expressions reading each other, said once), failed, or when
    /// the frame's budget is spent.
    func evaluate(_ id: Int, at frame: Double) -> Int {
        guard let ctx = context, let slot = properties[id].slot, !disabled.contains(id), frame.isFinite, let result
        else { return 0 }
        if let first = running.firstIndex(of: id) {
            // An expression reading its own property reads its keyframed value, as After Effects gives it.
            if first < running.count - 1 { noteCycle(Array(running[first...])) }
            return 0
        }
        if cache[id].frame == frame {
            for i in 0..<cache[id].count { result[i] = cache[id].values[i] }
            return cache[id].count
        }
        let outermost = running.isEmpty
        if outermost, !budget.start(id) { return 0 }
        running.append(id)
        defer { running.removeLast() }
        pushEvaluator(ctx, slot: slot)
        duk_push_number(ctx, frame)
        if duk_pcall(ctx, 1) != 0 {
            let message = popError(ctx)
            if message.contains(ExpressionBudget.message) {
                // Nested, it is charged to the expression that asked for it, which is out of time too.
                guard outermost else { return 0 }
                if budget.frameRanOut { budget.skip(id) } else { fail(id, message) }
                return 0
            }
            fail(id, message)
            return 0
        }
        let count = Swift.min(Int(duk_get_int(ctx, -1)), ExpressionEngine.resultCapacity)
        duk_pop(ctx)
        if outermost, !budget.isInTime {
            // An evaluation it asked for ran out of time: its result is not the expression's.
            if budget.frameRanOut { budget.skip(id) } else { fail(id, ExpressionBudget.message) }
            return 0
        }
        cache[id].frame = frame
        cache[id].count = count
        cache[id].values.removeAll(keepingCapacity: true)
        cache[id].values.append(contentsOf: UnsafeBufferPointer(start: result, count: count))
        return count
    }

    /// Compiles the expression's wrapper and has the kernel make its evaluator, kept in the stash's
    /// `evaluators` at `slot`; nil, or the error.
    private func makeEvaluator(_ ctx: OpaquePointer, wrapper: String, id: Int, slot: Int) -> String? {
        duk_push_global_stash(ctx)
        defer { duk_pop(ctx) }
        duk_get_prop_string(ctx, -1, "kernel")
        duk_push_string(ctx, "make")
        if let error = run(wrapper, name: "expression", keep: true) {
            duk_pop_2(ctx)
            return error
        }
        duk_push_int(ctx, duk_int_t(id))
        if duk_pcall_prop(ctx, -4, 2) != 0 {
            let error = popError(ctx)
            duk_pop(ctx)
            return error
        }
        // The stack: stash, kernel, evaluator.
        duk_get_prop_string(ctx, -3, "evaluators")
        duk_swap_top(ctx, -2)
        duk_put_prop_index(ctx, -2, duk_uarridx_t(slot))
        duk_pop_2(ctx)
        return nil
    }

    /// Pushes the expression's evaluator.
    private func pushEvaluator(_ ctx: OpaquePointer, slot: Int) {
        duk_push_global_stash(ctx)
        duk_get_prop_string(ctx, -1, "evaluators")
        duk_get_prop_index(ctx, -1, duk_uarridx_t(slot))
        duk_remove(ctx, -2)
        duk_remove(ctx, -2)
    }

    /// How many numbers an expression's result may hold (the kernel's `result`).
    static let resultCapacity = 8192

    private func fail(_ id: Int, _ message: String) {
        let outOfTime = message.contains(ExpressionBudget.message)
        // Duktape says its heap is full as "alloc failed", or, when even the error could not be made, as a
        // DoubleError: either way the expression would fill the heap again on every frame.
        let outOfMemory = isOutOfMemory(message)
        if outOfTime || outOfMemory { disabled.insert(id) }
        guard !reported.contains(id) else { return }
        reported.insert(id)
        if outOfMemory {
            guard !heapFullSaid else { return }
            heapFullSaid = true
            warnings.append(label(id) + ": filled the \(ExpressionEngine.memoryLimit >> 20) MB of JavaScript memory "
                + "the file's expressions have for their values; it, and any that fill it after it, drawn with "
                + "their keyframes and not run again")
            return
        }
        let why = outOfTime
            ? "ran past its time budget (\(Int(budget.perExpression * 1000)) ms with what it read; not run again)"
            : message
        warnings.append(label(id) + ": " + why + "; drawn with its keyframes")
    }

    /// A cycle of expressions reading each other (outermost first), said once: where one reads another of the
    /// cycle under way, it reads that one's keyframed value.
    private func noteCycle(_ ids: [Int]) {
        let key = ids.sorted()
        guard reportedCycles.insert(key).inserted else { return }
        let names = ids.map { "'\(layerName(of: $0))' (\(properties[$0].name))" }
        warnings.append("expressions read each other in a cycle: " + names.joined(separator: " → ") + " → "
            + names[0] + "; each reads the keyframed value of the one under way")
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

    /// The name of the layer holding the property.
    private func layerName(of id: Int) -> String {
        let p = properties[id]
        return compositions[p.composition].flatMap { p.layer >= 0 && p.layer < $0.count ? $0[p.layer].name : nil } ?? "?"
    }

    /// "expression of layer 'L', property 'P'".
    private func label(_ id: Int) -> String {
        "expression of layer '\(layerName(of: id))', \(properties[id].name)"
    }

    /// Where the layer's parent is in its composition: the first layer with its index, as the renderer finds it.
    func parentPosition(of layer: Layer, in layers: [Layer]) -> Int? {
        layer.parent.flatMap { ind in layers.firstIndex { $0.index == ind } }
    }
}

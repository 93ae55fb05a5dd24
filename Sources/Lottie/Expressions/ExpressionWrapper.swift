/// The function an expression is compiled into: After Effects' names in scope around the expression's code, made
/// once per expression by the kernel (`make`), and the evaluator it returns, called at every frame. Only the names
/// the code uses are set, so that an expression reading `time` costs no layer.
///
/// ```
/// (function (__k, __p) {            // the kernel and the property, out of the code's reach
///   var time = 0, value, thisLayer = __p.layer, loopOut = function (a, b) { … }, …;
///   var __run = function () { var __k, __p, __run, x; var $bm_rt;
///   CODE
///   ; return $bm_rt };
///   return function (__f) { __k.enter(__p.id, __f); try { time = …; value = …; return __k.out(__run(), isPath) }
///                           finally { __k.leave() } };
/// })
/// ```
///
/// Inside `__run` the kernel and the property are shadowed, and every name the code assigns without declaring it
/// (`x` above) is declared, so that it stays the expression's own instead of becoming a global every expression
/// of the file would share. The code starts on the wrapper's first line, so an error's line number is its own.
enum ExpressionWrapper {
    /// Names set once, when the evaluator is made, and what each is.
    private static let fixed: [(name: String, value: String)] = [
        ("thisProperty", "__p"), ("thisLayer", "__p.layer"), ("thisComp", "__k.comp(__p.__comp)"),
        ("numKeys", "__p.numKeys"),
    ] + ["index", "name", "inPoint", "outPoint", "startTime", "hasParent", "parent", "width", "height", "transform",
         "effect", "content"].map { ($0, "__p.layer.\($0)") }
        + ["toComp", "fromComp", "toWorld", "fromWorld"].map { ($0, "function(p,t){return __p.layer.\($0)(p,t)}") } + [
        ("fromCompToSurface", "function(p,t){return __p.layer.fromComp(p,t)}"),
    ] + ["loopOut", "loopIn", "loopOutDuration", "loopInDuration", "valueAtTime", "velocityAtTime", "speedAtTime",
         "key", "nearestKey"].map { ($0, "function(a,b){return __p.\($0)(a,b)}") } + [
        ("loop_out", "function(a,b){return __p.loopOut(a,b)}"), ("loop_in", "function(a,b){return __p.loopIn(a,b)}"),
        ("comp", "function(){throw new ReferenceError('comp(): other compositions are not read by expressions')}"),
        ("wiggle", "function(f,a,o,m,t){return __p.wiggle(f,a,o,m,t===undefined?time:t)}"),
        ("seedRandom", "function(s,tl){__k.seedRandom(s,tl)}"),
        ("random", "function(a,b){return __k.random(a,b,false)}"),
        ("gaussRandom", "function(a,b){return __k.random(a,b,true)}"),
        ("posterizeTime", "function(f){time=f>0?Math.floor(time*f)/f:0;value=__p.raw(time*__k.fr)}"),
    ]

    /// Names read again at each evaluation: the layer's transform, the property's velocity.
    private static let perEvaluation: [(name: String, value: String)] = [
        ("position", "__p.layer.transform.position"), ("rotation", "__p.layer.transform.rotation"),
        ("scale", "__p.layer.transform.scale"), ("anchorPoint", "__p.layer.transform.anchorPoint"),
        ("opacity", "__p.layer.transform.opacity"),
    ]

    /// Every name the wrapper sets around the code.
    static let names: Set<String> = Set(fixed.map(\.name) + perEvaluation.map(\.name)
                                        + ["time", "value", "velocity", "speed", "$bm_rt", "__k", "__p", "__run"])

    /// The wrapper of `code`, guarded; `globals` are the heap's global names, which its assignments leave alone.
    static func source(_ code: String, isPath: Bool, globals: Set<String>) throws(ExpressionGuard.Refusal) -> String {
        let guarded = try ExpressionGuard.guarded(code)
        let used = guarded.names
        var prefix = "(function(__k,__p){var time=0,value,velocity,speed"
        for (name, value) in fixed where used.contains(name) { prefix += ",\(name)=\(value)" }
        for (name, _) in perEvaluation where used.contains(name) { prefix += ",\(name)" }
        prefix += ";var __run=function(){var __k,__p,__run"
        for name in guarded.assigned where !names.contains(name) && !globals.contains(name) && name != "arguments" {
            prefix += ",\(name)"
        }
        prefix += ";var $bm_rt;"
        var reads = "time=__f/__k.fr;"
        if used.contains("value") || used.contains("posterizeTime") { reads += "value=__p.raw(__f);" }
        for (name, value) in perEvaluation where used.contains(name) { reads += "\(name)=\(value);" }
        if used.contains("velocity") || used.contains("speed") {
            reads += "velocity=__p.velocityAtTime(time);speed=length(velocity);"
        }
        return prefix + guarded.code + "\n;return $bm_rt};return function(__f){__k.enter(__p.id,__f);try{" + reads
            + "return __k.out(__run(),\(isPath))}finally{__k.leave()}}})"
    }

    /// Code made at run time by `eval` (`mode` 0: strict, its undeclared assignments declared, so that nothing it
    /// does reaches the global object) or as a `Function`'s body (1), guarded; `mode` 2 checks a `Function`'s
    /// parameter list, which may hold names and commas only.
    static func runTimeCode(_ source: String, mode: Int, globals: Set<String>) throws(ExpressionGuard.Refusal) -> String {
        if mode == 2 {
            guard ExpressionGuard.isParameterList(source) else {
                throw ExpressionGuard.Refusal(reason: "a Function's parameters should be names separated by commas")
            }
            return source
        }
        let guarded = try ExpressionGuard.guarded(source)
        let declared = guarded.assigned.filter { !globals.contains($0) && $0 != "arguments" }
        let declarations = declared.isEmpty ? "" : "var " + declared.joined(separator: ",") + ";"
        return (mode == 0 ? "'use strict';" : "") + declarations + guarded.code
    }
}

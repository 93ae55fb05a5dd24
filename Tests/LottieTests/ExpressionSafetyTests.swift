import Testing
import Foundation
import Geometry
import Raster
import TestSupport
import UserFiles
@testable import Lottie

/// What an expression cannot do (docs/reference.md §8): freeze the frame (however its loop is written or made),
/// change what another expression reads, give different values in two runs, or take the file's memory; and a file
/// of many layers and expressions read and drawn in bounded time.
@Suite struct ExpressionSafetyTests {
    /// A file of null layers "L1" … "Ln" (index i), each at (10·i, 0) with a rotation keyframed 0 → 30 over frames
    /// 0 → 30 and carrying `expressions[i - 1]` (nil: none).
    static func file(_ expressions: [String?], frameRate: Int = 30) -> String {
        let ramp = #"{"a":1,"k":[{"t":0,"s":[0],"i":{"x":[1],"y":[1]},"o":{"x":[0],"y":[0]}},{"t":30,"s":[30]}]"#
        let layers = expressions.enumerated().map { i, x -> String in
            let rotation = ramp + (x.map { ",\"x\":" + JSONText.string("var $bm_rt;\n" + $0) } ?? "") + "}"
            return #"{"ty":3,"nm":"L\#(i + 1)","ind":\#(i + 1),"ip":0,"op":300,"st":0,"#
                + #""ks":{"p":{"a":0,"k":[\#(10 * (i + 1)),0,0]},"r":\#(rotation)}}"#
        }
        return #"{"fr":\#(frameRate),"ip":0,"op":300,"w":100,"h":100,"layers":[\#(layers.joined(separator: ","))]}"#
    }

    static func rotation(_ animation: LottieAnimation, layer: Int, at frame: Double) -> Double {
        animation.layers[layer].transform.rotation.scalar(at: frame)
    }

    /// The rotation of a one-layer file under `expression` at `frame`, and the warnings it gave.
    static func evaluate(_ expression: String, at frame: Double = 5) throws -> (Double, [String]) {
        let animation = try parse(file([expression]))
        let value = rotation(animation, layer: 0, at: frame)
        return (value, (animation.warning.map { [$0] } ?? []) + animation.takeExpressionWarnings())
    }

    // MARK: Freezing

    /// Code made at run time runs, and under the same guard.
    @Test func codeMadeAtRunTimeRuns() throws {
        #expect(try Self.evaluate("$bm_rt = eval('1 + 2');").0 == 3)
        #expect(try Self.evaluate("$bm_rt = new Function('a', 'b', 'return a * b')(6, 7);").0 == 42)
        #expect(try Self.evaluate("$bm_rt = Function('a, b', 'var s = 0; for (var i = a; i < b; i++) { s += i; } return s;')(0, 5);").0 == 10)
        // What eval declares stays inside it (strict, indirect code); a function's undeclared names are its own.
        #expect(try Self.evaluate("$bm_rt = eval('var q = 5; q * 2') + (typeof q === 'undefined' ? 1 : 0);").0 == 11)
        #expect(try Self.evaluate("var f = new Function('n = 3; return n'); $bm_rt = f() + (typeof n === 'undefined' ? 1 : 0);").0 == 4)
        #expect(try Self.evaluate("$bm_rt = (function () {}).constructor('return 9')();").0 == 9)
    }

    /// Every way to loop for ever is stopped within the budget, the keyframes drawn instead with one warning;
    /// the same evaluation costs nothing on the next frame.
    @Test(arguments: [
        "eval('while (true) {}');",
        "new Function('for (;;) {}')();",
        "Function('a', 'while (a) {}')(1);",
        "(function () {}).constructor('do {} while (1)')();",
        "eval(\"eval('for (var i = 0; i >= 0; i++) {}')\");",
        "var o = { m() { for (;;) {} } }; o.m();",
        "var o = { get x() { while (1) {} } }; o.x;",
        "for (;;) { try { for (;;) {} } catch (e) {} }",
        "function f() { try { f(); } catch (e) { f(); } } f();",
        "[1, 2].forEach(function () { while (1) {} });",
        "JSON.parse('[1]', function () { for (;;) {} });",
        "var a = []; for (var i = 0; i < 1000; i++) a.push(i); a.sort(function () { while (1) {} });",
        "String({ toString: function () { while (1) {} } });",
        "Array.prototype.indexOf.call({ length: 4e9 }, 1);",
        "var a = []; a.length = 4e9; a.lastIndexOf(1);",
        "Array.prototype.forEach.call({ length: 4e9 }, Math.abs);",
        "var s = {}; s[Symbol.isConcatSpreadable] = true; s.length = 4e9; [].concat(s);",
        "var a = []; a.length = 65536; while (true) { a.reverse(); }",
        "Array.prototype.reverse.call({ length: 4e9 });",
        "var s = 'x'; while (true) { s = s + s; }",
        "var x = 'a' /* while (1) */; for (;;) {}",
        "// comment\u{2028}while (true) {}",
        "var t = 1;\u{00A0}while (t) {}",
    ])
    func runawayCodeIsStopped(source: String) throws {
        let animation = try parse(Self.file([source + " $bm_rt = 1;"]))
        let start = ContinuousClock.now
        #expect(Self.rotation(animation, layer: 0, at: 5) == 5)
        #expect(ContinuousClock.now - start < .seconds(2), "\(ContinuousClock.now - start)")
        let warnings = (animation.warning.map { [$0] } ?? []) + animation.takeExpressionWarnings()
        #expect(warnings.count == 1, "\(warnings)")
        let again = ContinuousClock.now
        #expect(Self.rotation(animation, layer: 0, at: 6) == 6)
        #expect(ContinuousClock.now - again < .seconds(0.2))
    }

    /// Code made at run time that could hide a loop from the guard is refused as it is made.
    @Test(arguments: [
        ("Function('a) { while (1) {} } (function (', '');", "parameters"),
        ("Function('a /*', '*/ while (1) {}');", "parameters"),
        ("eval('var __tick = 0;');", "__tick"),
        ("eval('with ({}) {}');", "'with'"),
        ("eval('if (1) /(a+)+$/.test(\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\")');", "regular expressions"),
        ("'aaaaaaaaaaaaaaaaaaaaaaaaaaaaa!'.match('(a+)+$');", "regular expressions"),
    ])
    func hidingPlacesAreRefused(source: String, message: String) throws {
        let (value, warnings) = try Self.evaluate(source + " $bm_rt = 1;")
        #expect(value == 5)
        #expect(warnings.count == 1 && warnings[0].contains(message), "\(warnings)")
    }

    /// Between the renderer's frames, all the frame's evaluations share one budget: past it, the rest draw their
    /// keyframes with one warning, and run again on the next frame.
    @Test func aFrameHasABudget() throws {
        let spin = "var k = 0; while (k >= 0) { k += 1; } $bm_rt = 0;"
        let animation = try parse(Self.file(Array(repeating: spin, count: 40)))
        let engine = try #require(animation.expressions)
        // Each expression alone could run 2 s; the frame stops them all at 0.2 s.
        engine.budget.perExpression = 2
        engine.budget.perFrame = 0.2
        let canvas = Canvas(width: 20, height: 20)
        let start = ContinuousClock.now
        try LottieRenderer().render(animation, frame: 3, into: canvas)
        let took = ContinuousClock.now - start
        #expect(took > .seconds(0.15) && took < .seconds(1.5), "\(took)")
        let warnings = animation.takeExpressionWarnings()
        #expect(warnings.count == 1 && warnings[0].contains("frame's 200 ms"), "\(warnings)")
        // Nothing was disabled: each is tried again, and the next frame is as long.
        let second = ContinuousClock.now
        try LottieRenderer().render(animation, frame: 4, into: canvas)
        #expect(ContinuousClock.now - second > .seconds(0.15))
        #expect(animation.takeExpressionWarnings().isEmpty)
        // Outside a frame only each expression's own budget holds.
        engine.budget.perExpression = 0.05
        #expect(Self.rotation(animation, layer: 0, at: 7) == 7)
        #expect(animation.takeExpressionWarnings().first?.contains("ran past its time budget") == true)
    }

    /// An expression that spends its budget reading another layer is the one stopped: the one it read keeps
    /// running its own expression.
    @Test func aNestedEvaluationIsChargedToTheOneThatAsked() throws {
        let reader = "var s = 0; for (var t = 0; ; t += 0.001) { s += thisComp.layer('L2').transform.rotation.valueAtTime(t); } $bm_rt = s;"
        // L2's own expression takes most of the time, so that the budget runs out inside it.
        let animation = try parse(Self.file([reader, "var s = 0; for (var i = 0; i < 20000; i++) { s += i; } $bm_rt = 99;"]))
        #expect(Self.rotation(animation, layer: 0, at: 5) == 5)
        let warnings = animation.takeExpressionWarnings()
        #expect(warnings.count == 1 && warnings[0].contains("layer 'L1'") && warnings[0].contains("time budget"),
                "\(warnings)")
        #expect(Self.rotation(animation, layer: 1, at: 5) == 99)
        #expect(Self.rotation(animation, layer: 1, at: 6) == 99)
        #expect(animation.takeExpressionWarnings().isEmpty)
    }

    // MARK: Leaking

    /// What one expression does to built-ins, globals, the layers it reads and their properties reaches no other:
    /// the reader gives the same values whether the meddler runs before it or not.
    @Test func expressionsCannotChangeWhatOthersRead() throws {
        let meddler = """
            Math.sin = function () { return 0.5; }; Object.prototype.q = 1; Array.prototype.push = null;
            this.counter = 7; counter2 = 8; eval('shared = 9'); linear = function () { return 0; };
            try { Object.defineProperty(Object.prototype, 'q', { value: 2 }); } catch (e) {}
            try { thisComp.layer('L3').transform.rotation.valueAtTime = function () { return -1; }; } catch (e) {}
            try { thisComp.layer('L3').foo = 3; } catch (e) {}
            try { Object.getPrototypeOf(thisComp.layer('L3').transform.rotation).valueAtTime = function () { return -1; }; } catch (e) {}
            try { Duktape.errCreate = function () { return 0; }; } catch (e) {}
            $bm_rt = 1;
            """
        let reader = """
            var a = []; a.push(2);
            $bm_rt = Math.sin(Math.PI / 2) * 1000 + ({}).q === undefined ? 0 : 1;
            $bm_rt = Math.sin(Math.PI / 2) * 1000 + (({}).q === undefined ? 0 : 100) + a.length * 10
              + (typeof counter === 'undefined' ? 0 : 1) + (typeof counter2 === 'undefined' ? 0 : 2)
              + (typeof shared === 'undefined' ? 0 : 4) + linear(0.5, 0, 1, 0, 1000) / 1000 * 0
              + thisComp.layer('L3').transform.rotation.valueAtTime(1) / 30 * 10000
              + (thisComp.layer('L3').foo === undefined ? 0 : 8);
            """
        let clean = try parse(Self.file([nil, reader, "$bm_rt = 30;"]))
        let meddled = try parse(Self.file([meddler, reader, "$bm_rt = 30;"]))
        for frame in [0.0, 5, 12] {
            #expect(Self.rotation(meddled, layer: 0, at: frame) == 1)
            let expected = Self.rotation(clean, layer: 1, at: frame)
            #expect(expected == 11010)
            #expect(Self.rotation(meddled, layer: 1, at: frame) == expected)
        }
        #expect(meddled.takeExpressionWarnings().isEmpty)
    }

    /// Freezing the built-ins leaves what an expression does to its own objects as it was.
    @Test func ownObjectsStayChangeable() throws {
        #expect(try Self.evaluate("var o = {}; o.toString = function () { return 'x7'; }; $bm_rt = String(o) === 'x7' ? 1 : 0;").0 == 1)
        #expect(try Self.evaluate("var e = new Error('m'); e.name = 'Mine'; e.message = 'n'; $bm_rt = String(e) === 'Mine: n' ? 1 : 0;").0 == 1)
        #expect(try Self.evaluate("function P() {} P.prototype.valueOf = function () { return 4; }; $bm_rt = new P() * 2;").0 == 8)
        #expect(try Self.evaluate("x = 4; x += 1; x++; $bm_rt = x;").0 == 6)
        #expect(try Self.evaluate("for (k in { a: 1 }) {} $bm_rt = k === 'a' ? 1 : 0;").0 == 1)
        #expect(try Self.evaluate("var a = [3, 1, 2]; a.sort(); var b = [3, 1, 2].sort(function (x, y) { return y - x; }); $bm_rt = a.join('') + b.join('');").0 == 123321)
        #expect(try Self.evaluate("$bm_rt = [1, 2].concat([3], 4, [[5]]).length + [].concat.call({ 0: 1, length: 1 }).length * 10;").0 == 15)
    }

    // MARK: Drifting

    /// Math.random and Date give the same values for the same frame in every run, and move with the frame.
    @Test func clockAndRandomAreTheSameInEveryRun() throws {
        let source = "$bm_rt = Math.random() * 1000 + Math.random();"
        let first = try parse(Self.file([source])), second = try parse(Self.file([source]))
        var values: Set<Double> = []
        for frame in [0.0, 1, 2, 17] {
            let a = Self.rotation(first, layer: 0, at: frame), b = Self.rotation(second, layer: 0, at: frame)
            #expect(a == b)
            #expect(a >= 0 && a < 1001)
            values.insert(a)
        }
        #expect(values.count == 4)
        // 10:00 UTC on 1 January 2026 at frame 0, on the frame's time after it, whatever the machine's zone.
        #expect(try Self.evaluate("$bm_rt = Date.now() - 1767261600000;", at: 15).0 == 500)
        #expect(try Self.evaluate("$bm_rt = new Date().getHours() * 100 + new Date().getMinutes();", at: 0).0 == 1000)
        #expect(try Self.evaluate("$bm_rt = new Date(2026, 5, 1, 12).getHours() + new Date().getTimezoneOffset();").0 == 12)
        #expect(try Self.evaluate("$bm_rt = typeof performance + typeof Duktape === 'undefinedundefined' ? 1 : 0;").0 == 1)
    }

    /// Two layers reading each other: one warning naming both; each reads the other's keyframes there.
    @Test func aCycleIsNamedOnce() throws {
        let animation = try parse(Self.file([
            "$bm_rt = thisComp.layer('L2').transform.rotation + 1;",
            "$bm_rt = thisComp.layer('L1').transform.rotation + 100;",
        ]))
        // L1 at frame 6: L2's expression reads L1's keyframes (6), gives 106; L1 gives 107.
        #expect(Self.rotation(animation, layer: 0, at: 6) == 107)
        let warnings = animation.takeExpressionWarnings()
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains("'L1' (Rotation)") == true && warnings.first?.contains("'L2' (Rotation)") == true)
        #expect(Self.rotation(animation, layer: 0, at: 7) == 108)
        #expect(animation.takeExpressionWarnings().isEmpty)
    }

    // MARK: Scale

    /// A thousand layers with an expression each, and a thousand expressions on forty layers, are read and drawn:
    /// the layers expressions read are made when first read, and their memory is not the values'.
    @Test(arguments: [1000, 40])
    func manyExpressionsAreReadAndDrawn(layers: Int) throws {
        let perLayer = 1000 / layers
        let expressions = (0..<layers).map { i -> String? in
            (0..<perLayer).map { k in "var v\(k) = thisComp.layer(\(i + 1)).transform.position[0] + \(k);" }
                .joined(separator: "\n") + "\n$bm_rt = v0 + time;"
        }
        let start = ContinuousClock.now
        let animation = try parse(Self.file(expressions))
        #expect(animation.warning == nil)
        #expect(ContinuousClock.now - start < .seconds(10))
        for i in [0, layers / 2, layers - 1] {
            #expect(Self.rotation(animation, layer: i, at: 15) == Double(10 * (i + 1)) + 0.5)
        }
        #expect(animation.takeExpressionWarnings().isEmpty)
        // The layers read take memory of the model's (some 14 MB for a thousand), and the values still have their
        // 16 MB: an array of 300,000 numbers fits (16 bytes each in Duktape, which while it grows the array holds
        // the old elements and the new, some 10 MB).
        let big = try parse(Self.file(expressions.dropLast() + ["var a = []; for (var i = 0; i < 300000; i++) { a[i] = i; } $bm_rt = a.length;"]))
        let engine = try #require(big.expressions)
        engine.budget.perExpression = 30
        for i in 0..<layers - 1 { _ = Self.rotation(big, layer: i, at: 1) }
        #expect(engine.modelBytes > (layers == 1000 ? 8 << 20 : 0))
        #expect(Self.rotation(big, layer: layers - 1, at: 1) == 300_000)
        #expect(big.takeExpressionWarnings().isEmpty)
    }

    /// A heap that fills is said once, naming the memory and the first layer; the others fall back quietly.
    @Test func aFullHeapIsSaidOnce() throws {
        let hog = "var a = []; while (true) { a.push([1, 2, 3, 4, 5, 6, 7, 8]); }"
        let animation = try parse(Self.file([hog, hog, hog, "$bm_rt = 3;"]))
        animation.expressions?.budget.perExpression = 30
        for layer in 0..<3 { #expect(Self.rotation(animation, layer: layer, at: 4) == 4) }
        #expect(Self.rotation(animation, layer: 3, at: 4) == 3)
        let warnings = animation.takeExpressionWarnings()
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains("16 MB") == true && warnings.first?.contains("layer 'L1'") == true, "\(warnings)")
    }

    /// Sources past the size limit are refused with it; the guard's work grows with the source's length.
    @Test func largeSourcesAreReadInLinearTimeOrRefused() throws {
        let (_, warnings) = try Self.evaluate(String(repeating: "x = 1;\n", count: 200_000) + "$bm_rt = 1;")
        #expect(warnings.first?.contains("more than the 1048576 an expression may have") == true, "\(warnings)")
        func seconds(_ count: Int) throws -> Double {
            let source = String(repeating: "function f(a) { for (var i = 0; i < a; i++) { while (a) {} } }\n", count: count)
            return try fastestSeconds { _ = try ExpressionGuard.guarded(source) }
        }
        let small = try seconds(1000), large = try seconds(8000)
        #expect(large / small < 16, "8× the source took \(large / small)× the time")
    }

    // MARK: The guard, over generated programs

    /// Programs generated from loops, functions, methods, getters, callbacks and code made at run time, nested and
    /// hidden among strings, comments and unusual spaces: each one is stopped within the budget.
    @Test func generatedRunawayProgramsAreStopped() throws {
        var random = SeededRandom(seed: 34)
        let count = longTestsEnabled ? 400 : 60
        var sources: [String] = []
        for _ in 0..<count { sources.append(Self.runaway(depth: 3, &random)) }
        let animation = try parse(Self.file(sources.map { $0 + "\n$bm_rt = 1;" }))
        for (i, source) in sources.enumerated() {
            let start = ContinuousClock.now
            let value = Self.rotation(animation, layer: i, at: 5)
            let took = ContinuousClock.now - start
            #expect(value == 5 && took < .seconds(1.5), "\(source): \(value) in \(took)")
        }
    }

    /// A statement that never ends, built from `depth` nested wrappers.
    static func runaway(depth: Int, _ random: inout SeededRandom) -> String {
        let loops = ["while (true) {}", "for (;;) {}", "do {} while (1);", "for (var i = 0; i >= 0; i++) {}",
                     "var r = function () { return r(); }; r();", "l: for (;;) { continue l; }",
                     "Array.prototype.indexOf.call({ length: 4e9 }, 1);"]
        var body = loops[random.int(in: 0...loops.count - 1)]
        for _ in 0..<depth {
            let quoted = JSONText.string(body)
            let wrappers = [
                "function g() { \(body) } g();",
                "var o = { m() { \(body) } }; o.m();",
                "var o = { get x() { \(body) } }; o.x;",
                "eval(\(quoted));",
                "Function(\(quoted))();",
                "[0].forEach(function () { \(body) });",
                "try { \(body) } catch (e) { \(body) }",
                "if (1) { /* } while (0) { */ \(body) }",
                "var s = 'while (1) {}'; // for (;;) {}\n\(body)",
                "var z = 1;\u{2028}\(body)",
                "\u{00A0}\(body)",
                "[2, 1].sort(function () { \(body) });",
            ]
            body = wrappers[random.int(in: 0...wrappers.count - 1)]
        }
        return body
    }
}

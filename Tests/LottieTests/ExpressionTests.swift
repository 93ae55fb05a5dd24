import Testing
import Glibc
import Geometry
import UserFiles
@testable import Lottie

/// After Effects expressions run by Duktape: the helpers against values worked out by hand from After Effects'
/// definitions (docs/reference.md §8), reading other layers and controls, and every way an expression can fail.
@Suite struct ExpressionTests {
    /// Linear keyframes 0 → 10 at frames 0 → 10, then 10 → 30 at frame 20 (30 fps).
    static let ramp = """
        {"a":1,"k":[{"t":0,"s":[0],"i":{"x":[1],"y":[1]},"o":{"x":[0],"y":[0]}},\
        {"t":10,"s":[10],"i":{"x":[1],"y":[1]},"o":{"x":[0],"y":[0]}},{"t":20,"s":[30]}]}
        """

    /// A file whose layer "Subject" (index 2) has `property` (its rotation, unless another key is given) with
    /// `expression`; layer "Controls" (index 1) sits at (40, 60) with a slider "Gain" of 7.
    static func file(_ expression: String, property: String = "r", value: String = ramp) -> String {
        let x = JSONText.string("var $bm_rt;\n" + expression)
        let body = value.hasPrefix("{\"a\"") ? String(value.dropLast()) + ",\"ix\":10,\"x\":\(x)}" : value
        return """
            {"fr":30,"ip":0,"op":300,"w":100,"h":100,"layers":[
            {"ty":3,"nm":"Controls","ind":1,"ip":0,"op":300,"st":0,"ks":{"p":{"a":0,"k":[40,60,0],"ix":2}},
             "ef":[{"ty":5,"nm":"Gain","mn":"ADBE Slider Control","ix":1,"ef":[{"ty":0,"nm":"Slider",
             "mn":"ADBE Slider Control-0001","ix":1,"v":{"a":0,"k":7,"ix":1}}]}]},
            {"ty":4,"nm":"Subject","ind":2,"parent":1,"ip":0,"op":300,"st":0,"ks":{"\(property)":\(body)},"shapes":[]}]}
            """
    }

    static func subject(_ animation: LottieAnimation) -> Transform { animation.layers[1].transform }

    /// The rotation's value at `frame` under `expression`.
    static func rotation(_ expression: String, at frame: Double, value: String = ramp) throws -> Double {
        subject(try parse(file(expression, value: value))).rotation.scalar(at: frame)
    }

    @Test func returnsTheValueItSets() throws {
        #expect(try Self.rotation("$bm_rt = 42;", at: 5) == 42)
        #expect(try Self.rotation("$bm_rt = value;", at: 5) == 5)
        #expect(try Self.rotation("$bm_rt = $bm_mul(time, 30);", at: 12) == 12)
        #expect(abs(try Self.rotation("$bm_rt = $bm_sum(value, [1, 2])[1] + Math.PI;", at: 0) - (2 + .pi)) < 1e-12)
    }

    /// loopOut after the last keyframe (frame 20), over the whole span 0…20 unless a count is given.
    @Test(arguments: [
        ("cycle", 25.0, 5.0),          // 5 frames into the cycle again
        ("Cycle", 45.0, 5.0),          // the case of the type does not matter; two cycles on
        ("pingpong", 25.0, 20.0),      // going back: 5 frames before the end, the value at 15
        ("pingpong", 45.0, 5.0),       // forwards again on the third pass
        ("offset", 25.0, 35.0),        // value at 5 (5) plus the span's change (30)
        ("offset", 45.0, 65.0),        // two changes on
        ("continue", 25.0, 40.0),      // the last segment's speed, 2 a frame, for 5 frames
    ])
    func loopOut(type: String, frame: Double, expected: Double) throws {
        #expect(abs(try Self.rotation("$bm_rt = loopOut('\(type)');", at: frame) - expected) < 1e-6)
    }

    @Test func loopOutWithAKeyframeCountRepeatsTheLastSegmentsOnly() throws {
        // loopOut('cycle', 1) repeats frames 10…20 (10 → 30): frame 25 is frame 15's value, 20.
        #expect(abs(try Self.rotation("$bm_rt = loopOut('cycle', 1);", at: 25) - 20) < 1e-9)
        // Before the last keyframe the value is the keyframes' own.
        #expect(abs(try Self.rotation("$bm_rt = loopOut('cycle', 1);", at: 15) - 20) < 1e-9)
        // loopOutDuration('cycle', 1/3 s) is the last 10 frames too.
        #expect(abs(try Self.rotation("$bm_rt = loopOutDuration('cycle', 1/3);", at: 25) - 20) < 1e-9)
    }

    @Test(arguments: [
        ("cycle", -5.0, 20.0),         // 5 frames before the start is 5 before the end: value at 15
        ("pingpong", -5.0, 5.0),       // mirrored: value at 5
        ("offset", -5.0, -10.0),       // value at 15 (20) minus the span's change (30)
        ("continue", -5.0, -5.0),      // the first segment's speed, 1 a frame, backwards
    ])
    func loopIn(type: String, frame: Double, expected: Double) throws {
        #expect(abs(try Self.rotation("$bm_rt = loopIn('\(type)');", at: frame) - expected) < 1e-6)
    }

    @Test func interpolationHelpers() throws {
        #expect(try Self.rotation("$bm_rt = clamp(value, 3, 8);", at: 1) == 3)
        #expect(try Self.rotation("$bm_rt = clamp(value, 8, 3);", at: 9) == 8)
        #expect(try Self.rotation("$bm_rt = linear(time, 0, 1, 100, 200);", at: 15) == 150)
        #expect(try Self.rotation("$bm_rt = linear(time, 0, 1, 100, 200);", at: 45) == 200)
        #expect(try Self.rotation("$bm_rt = linear(0.25, 10, 20);", at: 0) == 12.5)
        // ease's curve (0.33, 0, 0.667, 1) is nearly symmetric: half way in, about half way out.
        let half = try Self.rotation("$bm_rt = ease(time, 0, 1, 0, 100);", at: 15)
        #expect(abs(half - 50) < 1.5)
        #expect(try Self.rotation("$bm_rt = easeIn(time, 0, 1, 0, 100);", at: 15) < half)
        #expect(try Self.rotation("$bm_rt = easeOut(time, 0, 1, 0, 100);", at: 15) > half)
        #expect(try Self.rotation("$bm_rt = length([3, 4]);", at: 0) == 5)
        #expect(try Self.rotation("$bm_rt = radiansToDegrees(Math.PI);", at: 0) == 180)
        #expect(try Self.rotation("$bm_rt = timeToFrames(2);", at: 0) == 60)
        #expect(try Self.rotation("$bm_rt = valueAtTime(0.5);", at: 0) == 20)
        #expect(abs(try Self.rotation("$bm_rt = velocityAtTime(0.5);", at: 0) - 60) < 1e-6)  // 2 a frame, 30 fps
        #expect(try Self.rotation("$bm_rt = numKeys * 100 + key(2).value + key(3).time;", at: 0) == 310 + 20.0 / 30)
        #expect(try Self.rotation("$bm_rt = nearestKey(0.4).index;", at: 0) == 2)
    }

    @Test func readsOtherLayersControlsAndItsOwnPlace() throws {
        #expect(try Self.rotation("$bm_rt = thisComp.layer('Controls').transform.position[1];", at: 0) == 60)
        #expect(try Self.rotation("$bm_rt = thisComp.layer(1).transform.position[0];", at: 0) == 40)
        #expect(try Self.rotation("$bm_rt = thisComp.layer('Controls').effect('Gain')('Slider');", at: 0) == 7)
        #expect(try Self.rotation("$bm_rt = $bm_mul(thisComp.layer('Controls').effect('Gain')(1), 2);", at: 0) == 14)
        #expect(try Self.rotation("$bm_rt = parent.effect('Gain')('ADBE Slider Control-0001').value;", at: 0) == 7)
        #expect(try Self.rotation("$bm_rt = thisProperty.propertyIndex + index;", at: 0) == 12)
        #expect(try Self.rotation("$bm_rt = thisProperty.propertyGroup(1).name == 'Transform' ? 1 : 0;", at: 0) == 1)
        #expect(try Self.rotation("$bm_rt = thisComp.numLayers + thisComp.frameDuration * 30;", at: 0) == 3)
        #expect(try Self.rotation("$bm_rt = thisComp.layer('Controls').transform.position.valueAtTime(1)[0];", at: 0) == 40)
    }

    /// A name that ends a line in JavaScript source (U+2028) is written into the compiled code escaped.
    @Test func namesThatEndLinesInJavaScriptCompile() throws {
        let source = Self.file("$bm_rt = thisComp.layer('Controls').effect('Gain')(1);")
            .replacing(#""nm":"Slider","#, with: #""nm":"Line\u2028Break","#)
            .replacing(#""v":{"a":0,"k":7,"ix":1}"#, with: #""v":{"a":0,"k":7,"ix":1,"x":"$bm_rt = 3;"}"#)
        let animation = try parse(source)
        #expect(animation.warning == nil, "\(animation.warning ?? "")")
        #expect(Self.subject(animation).rotation.scalar(at: 0) == 3)
        #expect(animation.takeExpressionWarnings().isEmpty)
    }

    @Test func vectorResults() throws {
        let t = Self.subject(try parse(Self.file("$bm_rt = $bm_sum(thisComp.layer('Controls').transform.position, [5, 5]);",
                                                 property: "p", value: #"{"a":0,"k":[0,0,0]}"#)))
        let p = t.position.sample(at: 3)
        #expect(p.count == 3 && p.values.x == 45 && p.values.y == 65)
    }

    /// wiggle(f, a): the same frames on every run, within ±a of the value, smooth, and moving about f times a
    /// second.
    @Test func wiggleIsSeededBoundedAndSmooth() throws {
        let source = Self.file("$bm_rt = wiggle(3, 20);", value: #"{"a":0,"k":50}"#)
        let a = Self.subject(try parse(source)).rotation, b = Self.subject(try parse(source)).rotation
        var previous = a.scalar(at: 0), turns = 0, lastStep = 0.0
        for i in 0...900 {
            let frame = Double(i) / 10
            let v = a.scalar(at: frame)
            #expect(v == b.scalar(at: frame))
            #expect(abs(v - 50) <= 20)
            #expect(abs(v - previous) < 2)  // a tenth of a frame moves it little
            let step = v - previous
            if i > 1, step * lastStep < 0 { turns += 1 }
            if step != 0 { lastStep = step }
            previous = v
        }
        // 3 s at 3 changes a second: the direction turns a few times a second, not every frame.
        #expect(turns >= 3 && turns <= 20)
        #expect(a.scalar(at: 10) != a.scalar(at: 40))
    }

    @Test func randomIsSeededPerFrame() throws {
        let r = Self.subject(try parse(Self.file("$bm_rt = random(10, 20);", value: #"{"a":0,"k":0}"#))).rotation
        let values = (0..<50).map { r.scalar(at: Double($0)) }
        #expect(values.allSatisfy { $0 >= 10 && $0 < 20 })
        #expect(Set(values).count > 40)
        #expect(values == (0..<50).map { r.scalar(at: Double($0)) })
        let timeless = Self.subject(try parse(Self.file("seedRandom(5, true); $bm_rt = random();",
                                                        value: #"{"a":0,"k":0}"#))).rotation
        #expect(timeless.scalar(at: 1) == timeless.scalar(at: 7))
    }

    // MARK: Shapes, paths and spaces

    /// Layers: "Controls" (1, a null at (40, 60) with a slider "Gain" of 7, a layer control "Target" naming layer
    /// 3 and a pseudo effect "Trace" whose "Progress" is 25), "Subject" (2, a shape layer whose rotation or path
    /// carries `expression`) and "Wire" (3, child of Controls at (100, 100), scale 200 %, with "Group 1" holding the
    /// open path "Path 1" from (0, 0) to (100, 0) and a transform moved by (10, 20)).
    static func shapes(_ expression: String, onPath: Bool = false) -> String {
        let x = JSONText.string("var $bm_rt;\n" + expression)
        let line = #"{"v":[[0,0],[100,0]],"i":[[0,0],[0,0]],"o":[[0,0],[0,0]],"c":false}"#
        let subjectPath = onPath ? #"{"a":0,"k":\#(line),"ix":2,"x":\#(x)}"# : #"{"a":0,"k":\#(line)}"#
        let rotation = onPath ? #"{"a":0,"k":0}"# : #"{"a":0,"k":0,"ix":10,"x":\#(x)}"#
        return """
            {"fr":30,"ip":0,"op":300,"w":100,"h":100,"layers":[
            {"ty":3,"nm":"Controls","ind":1,"ip":0,"op":300,"st":0,"ks":{"p":{"a":0,"k":[40,60,0]}},"ef":[
             {"ty":5,"nm":"Gain","mn":"ADBE Slider Control","ix":1,"ef":[{"ty":0,"nm":"Slider",
              "mn":"ADBE Slider Control-0001","ix":1,"v":{"a":0,"k":7}}]},
             {"ty":5,"nm":"Target","mn":"ADBE Layer Control","ix":2,"ef":[{"ty":10,"nm":"Layer",
              "mn":"ADBE Layer Control-0001","ix":1,"v":{"a":0,"k":3}}]},
             {"ty":5,"nm":"Trace","mn":"Pseudo/Trace","ix":3,"ef":[{"ty":0,"nm":"Progress",
              "mn":"Pseudo/Trace-0001","ix":1,"v":{"a":0,"k":25}}]}]},
            {"ty":4,"nm":"Subject","ind":2,"ip":0,"op":300,"st":0,"ks":{"r":\(rotation)},
             "shapes":[{"ty":"sh","nm":"Path 1","ks":\(subjectPath)}]},
            {"ty":4,"nm":"Wire","ind":3,"parent":1,"ip":0,"op":300,"st":0,
             "ks":{"p":{"a":0,"k":[100,100,0]},"s":{"a":0,"k":[200,200,100]}},
             "shapes":[{"ty":"gr","nm":"Group 1","mn":"ADBE Vector Group","ix":1,"it":[
              {"ty":"sh","nm":"Path 1","mn":"ADBE Vector Shape - Group","ix":1,"ks":{"a":0,"k":\(line),"ix":2}},
              {"ty":"tr","nm":"Transform","p":{"a":0,"k":[10,20]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},
               "r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}]}
            """
    }

    static func shapeRotation(_ expression: String) throws -> Double {
        subject(try parse(shapes(expression))).rotation.scalar(at: 0)
    }

    @Test func readsShapeContentsByNameInternalNameAndIndex() throws {
        #expect(try Self.shapeRotation("$bm_rt = thisComp.layer('Wire').content('Group 1').content('Path 1').path.points()[1][0];") == 100)
        #expect(try Self.shapeRotation("$bm_rt = thisComp.layer('Wire')('ADBE Root Vectors Group')(1)('ADBE Vectors Group')(1)('ADBE Vector Shape').points()[1][0];") == 100)
        #expect(try Self.shapeRotation("$bm_rt = thisComp.layer('Wire').content('Group 1').transform.position[1];") == 20)
        #expect(try Self.shapeRotation("$bm_rt = thisComp.layer('Wire').content('Group 1').content('Path 1').path.isClosed() ? 1 : 2;") == 2)
    }

    /// Along the 100-long straight path: a quarter of the way is x = 25, the tangent points along +x, the normal
    /// along −y (After Effects' normal turns the tangent a quarter turn).
    @Test func pointsAlongAPath() throws {
        let path = "thisComp.layer('Wire').content('Group 1').content('Path 1').path"
        #expect(abs(try Self.shapeRotation("$bm_rt = \(path).pointOnPath(0.25)[0];") - 25) < 1e-9)
        #expect(abs(try Self.shapeRotation("$bm_rt = \(path).pointOnPath(1)[0];") - 100) < 1e-9)
        #expect(abs(try Self.shapeRotation("var t = \(path).tangentOnPath(0.5); $bm_rt = radiansToDegrees(Math.atan2(t[1], t[0]));")) < 1e-9)
        #expect(abs(try Self.shapeRotation("$bm_rt = \(path).normalOnPath(0.5)[1];") + 1) < 1e-9)
    }

    /// Wire's point (5, 0): scaled by 2 and moved to (100, 100) in Controls' space, then moved by (40, 60).
    @Test func mapsPointsBetweenALayerAndItsComposition() throws {
        #expect(try Self.shapeRotation("$bm_rt = thisComp.layer('Wire').toComp([5, 0])[0];") == 150)
        #expect(try Self.shapeRotation("$bm_rt = thisComp.layer('Wire').toComp([5, 0])[1];") == 160)
        #expect(abs(try Self.shapeRotation("$bm_rt = thisComp.layer('Wire').fromComp([150, 160])[0];") - 5) < 1e-9)
        #expect(try Self.shapeRotation("$bm_rt = thisComp.layer('Wire').toWorld(thisComp.layer('Wire').anchorPoint)[0];") == 140)
        // The layer's own, called by their bare names or taken apart: Subject turns by its rotation's keyframed
        // value (0) there, since the rotation reading itself reads its keyframes, without a warning.
        let animation = try parse(Self.shapes("var f = thisLayer.fromComp; $bm_rt = toComp([5, 0])[0] + f([7, 0])[0] * 10;"))
        #expect(Self.subject(animation).rotation.scalar(at: 0) == 75)
        #expect(animation.takeExpressionWarnings().isEmpty)
    }

    @Test func layerControlsAnswerAsTheirLayerAndPseudoEffectsAreRead() throws {
        #expect(try Self.shapeRotation("$bm_rt = thisComp.layer('Controls').effect('Target')('Layer').index;") == 3)
        #expect(try Self.shapeRotation("$bm_rt = thisComp.layer('Controls').effect('Target')(1).content('Group 1').transform.position[0];") == 10)
        #expect(try Self.shapeRotation("$bm_rt = thisComp.layer('Controls').effect('Pseudo/Trace')('Pseudo/Trace-0001');") == 25)
    }

    @Test func pathExpressionsGiveShapes() throws {
        let made = try parse(Self.shapes("$bm_rt = createPath([[0, 0], [thisComp.layer(1).effect('Gain')(1), 5]], [], [], false);",
                                         onPath: true))
        guard case .shape(let items) = made.layers[1].kind, case .path(let path, _) = items[0] else {
            Issue.record("no path")
            return
        }
        let shape = try #require(path.value(at: 0))
        #expect(shape.vertices == [Point(0, 0), Point(7, 5)] && !shape.closed)
        // Its own points, moved: thisProperty reads the keyframed path.
        let moved = try parse(Self.shapes("var p = thisProperty.points(); p[1] = [p[1][0], 30]; $bm_rt = createPath(p, thisProperty.inTangents(), thisProperty.outTangents(), thisProperty.isClosed());",
                                          onPath: true))
        guard case .shape(let movedItems) = moved.layers[1].kind, case .path(let movedPath, _) = movedItems[0] else { return }
        #expect(movedPath.value(at: 0)?.vertices == [Point(0, 0), Point(100, 30)])
        // A number where a path is wanted falls back to the keyframes, with a warning.
        let wrong = try parse(Self.shapes("$bm_rt = 3;", onPath: true))
        guard case .shape(let wrongItems) = wrong.layers[1].kind, case .path(let wrongPath, _) = wrongItems[0] else { return }
        #expect(wrongPath.value(at: 0)?.vertices == [Point(0, 0), Point(100, 0)])
        #expect(wrong.takeExpressionWarnings().first?.contains("should give a path") == true)
    }

    // MARK: Failures

    /// An expression that cannot give a value gives the keyframes' one, with one warning naming the layer and
    /// the property.
    @Test(arguments: [
        ("throw new Error('broken');", "broken"),
        ("$bm_rt = undefinedName + 1;", "undefinedName"),
        ("var x = 1;", "sets no value"),
        ("$bm_rt = 'abc';", "not a number"),
        ("$bm_rt = thisComp.layer('Nobody').transform.position;", "no such layer"),
        // A tail call: Duktape runs it in constant stack, so the time budget stops it.
        ("function f(n) { return f(n + 1); } $bm_rt = f(0);", "ran past its time budget"),
    ])
    func failingExpressionsFallBack(source: String, message: String) throws {
        let animation = try parse(Self.file(source))
        let r = Self.subject(animation).rotation
        #expect(r.scalar(at: 5) == 5)
        #expect(r.scalar(at: 15) == 20)
        let warnings = animation.takeExpressionWarnings()
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("layer 'Subject', Rotation") == true)
        #expect(warnings.first?.contains(message) == true, "\(warnings)")
        #expect(animation.takeExpressionWarnings().isEmpty)
    }

    @Test(arguments: [
        "while (true) {}",
        "for (;;) { var a = 1; }",
        "do { } while (1);",
        "function spin() { for (var i = 0; i >= 0; i++) {} } spin();",
        "var a = []; while (true) { a.push([1, 2, 3, 4, 5, 6, 7, 8]); }",
        "var s = 'x'; while (true) { s = s + s; }",
    ])
    func runawayExpressionsAreStopped(source: String) throws {
        let animation = try parse(Self.file(source + " $bm_rt = 1;"))
        let clock = ContinuousClock()
        let start = clock.now
        #expect(Self.subject(animation).rotation.scalar(at: 5) == 5)
        #expect(clock.now - start < .seconds(2))
        let warnings = animation.takeExpressionWarnings()
        #expect(warnings.count == 1, "\(warnings)")
        // Out of time or out of memory (which Duktape may say as a DoubleError, when even the error could not be
        // made), it is stopped for good, and the warning says so.
        #expect(warnings.first?.contains("not run again") == true, "\(warnings)")
        // Once out of time or memory it is not run again: the next frame costs nothing. Counted in this
        // thread's processor time, which other tests running beside it on a busy machine do not lengthen.
        let again = Self.threadSeconds()
        #expect(Self.subject(animation).rotation.scalar(at: 6) == 6)
        #expect(Self.threadSeconds() - again < 0.01)
    }

    /// Processor seconds this thread has run.
    static func threadSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    @Test(arguments: [
        ("$bm_rt = (;", "SyntaxError"),
        ("$bm_rt = 'a'.replace(/a/g, 'b');", "regular expressions"),
        ("$bm_rt = `1`;", "template literals"),
        ("var __tick = function () { return true; }; while (true) {}", "__tick"),
        ("with ({}) { while (true) {} }", "'with'"),
        ("var \\u005f_tick = 1;", "escapes"),
        ("if (1) /(a+)+b/.test('aaaa');", "regular expressions"),
    ])
    func expressionsThatCannotCompileAreNamedWhenTheFileIsRead(source: String, message: String) throws {
        let animation = try parse(Self.file(source))
        #expect(animation.warning?.contains("layer 'Subject', Rotation") == true)
        #expect(animation.warning?.contains(message) == true, "\(animation.warning ?? "")")
        #expect(Self.subject(animation).rotation.scalar(at: 5) == 5)
    }

    @Test func budgetChecksLeaveStringsAndCommentsAlone() throws {
        let code = try ExpressionGuard.instrument("var s = 'while (x)'; // for (;;)\nwhile (a < 3) { a++ } /* function f() {} */")
        #expect(code == "var s = 'while (x)'; // for (;;)\nwhile (__tick()&&(a < 3)) { a++ } /* function f() {} */")
        #expect(try ExpressionGuard.instrument("for (var k in o) {}") == "for (var k in o) {}")
        #expect(try ExpressionGuard.instrument("for (i = 0; i < n; i++) {}") == "for (i = 0;__tick()&&( i < n); i++) {}")
        #expect(try ExpressionGuard.instrument("var f = function (a) { return a / 2 / 3; };")
            == "var f = function (a) {__tick(); return a / 2 / 3; };")
    }

    /// The heap's memory stops growing once frames repeat: a playing animation allocates nothing new.
    @Test func evaluationReachesASteadyHeap() throws {
        let animation = try parse(Self.file("$bm_rt = $bm_sum(wiggle(2, 5), thisComp.layer(1).transform.position[0]);"))
        let r = Self.subject(animation).rotation
        for frame in 0..<200 { _ = r.scalar(at: Double(frame)) }
        let reserved = animation.expressions!.reservedBytes
        for frame in 0..<2000 { _ = r.scalar(at: Double(frame % 200)) }
        #expect(animation.expressions!.reservedBytes == reserved)
    }
}


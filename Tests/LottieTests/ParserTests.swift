@testable import Lab
@testable import Lottie
import Testing
import TestSupport

/// Broken and hostile files give one message with the file and the place, never a crash; what is not supported is
/// named once, with its layers.
@Suite struct ParserTests {
    func error(_ json: String) -> LottieFileError? {
        do {
            _ = try LottieFile.parse(Array(json.utf8), file: "bad.json")
            return nil
        } catch {
            return error
        }
    }

    @Test func brokenJSONNamesTheFileLineAndColumn() throws {
        let e = try #require(error("{\"w\": 100,\n \"h\": }"))
        #expect(e.description.hasPrefix("bad.json:2:7: not valid JSON"), "\(e)")
    }

    @Test func aWrongTypeNamesTheValueAndWhereItIs() throws {
        let doc = "{\"w\": 100, \"h\": 100, \"fr\": 30, \"ip\": 0, \"op\": 10,\n \"layers\": 7}"
        let e = try #require(error(doc))
        #expect(e.description == "bad.json:2:12: 'layers' should be an array", "\(e)")
        let layer = "{\"w\": 100, \"h\": 100, \"fr\": 30, \"ip\": 0, \"op\": 10, \"layers\": [{\"ty\": 4, \"ks\": {},\n"
            + " \"shapes\": [{\"ty\": \"sh\", \"ks\": {\"a\": 0, \"k\": {\"v\": [[0, 0]], \"i\": [], \"o\": [[0, 0]]}}}]}]}"
        let e2 = try #require(error(layer))
        #expect(e2.description.contains("bad.json:2:") && e2.description.contains("as many points"), "\(e2)")
    }

    @Test func nonsenseSizesAndFrameRatesAreRefused() throws {
        for (field, value) in [("w", "0"), ("h", "1e300"), ("fr", "-5"), ("op", "1e300")] {
            var fields = ["\"w\": 100", "\"h\": 100", "\"fr\": 30", "\"ip\": 0", "\"op\": 10", "\"layers\": []"]
            fields = fields.map { $0.hasPrefix("\"\(field)\"") ? "\"\(field)\": \(value)" : $0 }
            let e = try #require(error("{" + fields.joined(separator: ", ") + "}"))
            #expect(e.description.contains("'\(field)'"), "\(e)")
        }
        #expect(error("[]")?.description == "bad.json:1:1: a Lottie file is a JSON object")
        #expect(error(String(repeating: "[", count: 5000))?.description.contains("not valid JSON") == true)
    }

    @Test func unsupportedFeaturesAreNamedOnceWithTheirLayers() throws {
        let json = Lot.composition(layers: [
            ["ddd": 0, "ind": 1, "ty": 5, "nm": "Title", "ks": Lot.transform(), "ip": 0, "op": 60, "st": 0,
             "t": ["d": ["k": [["s": ["s": 10, "f": "Nowhere", "t": "a", "fc": [1, 0, 0]], "t": 0]], "x": "$bm_rt = 'b'"],
                   "p": ["m": 0], "m": ["g": 1, "a": Lot.value([0, 0])], "a": []]],
            Lot.shapeLayer("Blurred", [Lot.group([Lot.rect([50, 50], [20, 20]), Lot.fill(Fixtures.red)])], ind: 2,
                           extra: [("ef", [["ty": 5, "nm": "ramp", "mn": "ADBE Ramp"]])]),
            Lot.shapeLayer("Scripted", [Lot.group([
                ["ty": "sh", "ks": ["a": 0, "k": ["v": [[0, 0], [10, 0], [10, 10]], "i": [[0, 0], [0, 0], [0, 0]],
                                                  "o": [[0, 0], [0, 0], [0, 0]], "c": 1], "x": "$bm_rt = value"]],
                Lot.fill(Fixtures.red)])], ind: 3),
            Lot.shapeLayer("Deep", [["ty": "mm", "mm": 1]], ind: 4, extra: [("ddd", 1)]),
            ["ddd": 0, "ind": 5, "ty": 6, "nm": "Sound", "ks": Lot.transform(), "ip": 0, "op": 60, "st": 0],
        ], assets: [["id": "sound", "w": 10, "h": 10]])
        let animation = try parse(json)
        let warning = try #require(animation.warning)
        #expect(warning == "font 'Nowhere' is not installed: drawn with 'DejaVu Sans' ('Title'); "
                + "not supported, skipped: assets with neither layers nor a picture ('asset sound'); "
                + "text on a path, drawn on a line ('Title'); source text expressions ('Title'); "
                + "effects other than Fill, Tint, Tritone, Stroke, Pro Levels, Drop Shadow, Gaussian Blur and expression "
                + "controls ('Blurred'); "
                + "3D ('Deep'); merge paths ('Deep'); layers of type 6 ('Sound')")
        // What is supported still draws: the text and the three shape layers, not the sound.
        #expect(animation.layers.count == 4)
        _ = ours(animation, frame: 10)
    }

    @Test func maskModesDrawnAsAddAndLayerStylesAreNamed() throws {
        let mask: J = ["mode": "f", "pt": ["a": 0, "k": ["v": [[0, 0], [10, 0], [10, 10]], "i": [[0, 0], [0, 0], [0, 0]],
                                                         "o": [[0, 0], [0, 0], [0, 0]], "c": 1]], "o": Lot.value(100)]
        let json = Lot.composition(layers: [
            Lot.shapeLayer("Masked", [Lot.group([Lot.rect([50, 50], [20, 20]), Lot.fill(Fixtures.red)])], ind: 1,
                           extra: [("hasMask", 1), ("masksProperties", [mask])]),
            Lot.shapeLayer("Styled", [Lot.group([Lot.rect([50, 50], [20, 20]), Lot.fill(Fixtures.red)])], ind: 2,
                           extra: [("sy", [["ty": 0, "nm": "Stroke"]])]),
        ])
        #expect(try parse(json).warning == "not supported, skipped: masks of mode 'f' (difference), drawn as add "
                + "('Masked'); layer styles ('Styled')")
    }

    @Test func hostileNumbersCostBoundedWork() throws {
        // A star of a billion points, a keyframe at a huge time, frames far outside the file, a precomposition
        // that contains itself, a parent chain that loops, NaN-like extremes in a path.
        let json = Lot.composition(
            layers: [
                Lot.shapeLayer("star", [Lot.group([Lot.star([50, 50], points: 1e9, outer: 1e12, inner: -5),
                                                   Lot.fill(Fixtures.red),
                                                   Lot.stroke(Fixtures.blue, w: 1e200, dashes: [1e-300, 1e-300, 0])])],
                               ind: 1, extra: [("parent", 2)]),
                Lot.shapeLayer("loop", [Lot.group([Lot.path([[0, 0], [1e300, -1e300], [5, 5]]),
                                                   Lot.fill(Fixtures.blue)])], ind: 2, extra: [("parent", 1)]),
                ["ddd": 0, "ind": 3, "ty": 0, "nm": "self", "refId": "self", "ks": Lot.transform(), "ip": 0,
                 "op": 60, "st": 0, "w": 100, "h": 100],
            ],
            assets: [["id": "self", "layers": [
                ["ddd": 0, "ind": 1, "ty": 0, "nm": "again", "refId": "self", "ks": Lot.transform(), "ip": -1e7,
                 "op": 1e7, "st": 0, "sr": 0.001],
            ]]])
        let animation = try parse(json)
        let clock = ContinuousClock()
        let started = clock.now
        for frame in [-1e7, 0, 30, 1e7, .infinity, .nan] {
            let canvas = ours(animation, frame: frame, width: 50, height: 50)
            #expect(canvas.width == 50 && canvas.height == 50)
        }
        // Each of the six frames is bounded work: a billion-point star, a self-containing precomposition and a
        // parent loop would otherwise take minutes or never end. A debug build draws all six in well under a second.
        #expect(clock.now - started < .seconds(10))
    }

    @Test func hugeIndicesIdsAndCodesAreNotTrapsButNamesAndSkips() throws {
        // Found by the lottie fuzz target: a layer whose "ind" had 60 digits and no name trapped on Int(_:).
        let huge = 8.9e59
        let json = Lot.composition(
            layers: [
                Lot.shapeLayer("shape", [Lot.group([Lot.rect([50, 50], [20, 20]), Lot.fill(Fixtures.red)])], ind: 1,
                               extra: [("nm", 5), ("ind", .number(huge)), ("tt", .number(-huge)), ("parent", .number(huge))]),
                ["ddd": 0, "ind": 2, "ty": 0, "refId": "7", "ks": Lot.transform(), "ip": 0, "op": 60, "st": 0,
                 "w": 100, "h": 100],
            ],
            assets: [["id": 7, "layers": []]])
        let animation = try parse(json)
        #expect(animation.layers.count == 2)
        #expect(animation.layers[0].name == "layer ?")
        _ = ours(animation, frame: 10)
        // An asset's id that no integer can hold is refused, by name and place.
        let e = try #require(error(Lot.composition(layers: [], assets: [["id": .number(huge), "layers": []]])))
        #expect(e.description.contains("bad.json:1:") && e.description.contains("'id' should be a string or a whole number"),
                "\(e)")
    }

    @Test func manyLayersInALongParentChainDrawInLinearTime() throws {
        // 5 000 nulls, each the parent of the next: parents are found by index, and followed 64 deep at most.
        let layers: [J] = (1...5_000).map { n in
            ["ty": 3, "ind": .number(Double(n)), "parent": .number(Double(n + 1)), "ks": Lot.transform(p: [0.001, 0]),
             "ip": 0, "op": 60]
        }
        let animation = try parse(Lot.composition(layers: layers))
        // Timed in this thread's processor time, which other work sharing the cores does not lengthen.
        let start = ExpressionTests.threadSeconds()
        _ = ours(animation, frame: 1, width: 10, height: 10)
        #expect(ExpressionTests.threadSeconds() - start < 5 * timeLimitScale)
    }
}

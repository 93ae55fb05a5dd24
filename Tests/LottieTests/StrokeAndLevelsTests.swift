@testable import Lab
@testable import Lottie
import Raster
import Testing
import TestSupport
import UserFiles

/// The Stroke and Pro Levels effects (docs/reference.md §8) on pixels worked out by hand, and layer effects on
/// image and text layers.
extension LayerEffectTests {
    /// An open mask path (mode none unless `mode` says otherwise) through straight segments.
    static func mask(_ points: [[Double]], closed: Bool = false, mode: String = "n") -> J {
        let zero: [J] = points.map { _ in [0, 0] }
        let vertices: [J] = points.map { p in .array(p.map { .number($0) }) }
        return ["inv": .bool(false), "mode": .string(mode),
                "pt": Lot.value(["i": .array(zero), "o": .array(zero), "v": .array(vertices), "c": .bool(closed)]),
                "o": Lot.value(100), "x": Lot.value(0), "nm": "mask"]
    }

    /// A 100 × 100 composition holding a solid `colour` layer over all of it, with `masks` and `effects`.
    static func solid(_ colour: String, masks: [J], effects: [J]) -> String {
        Lot.composition(layers: [["ddd": 0, "ind": 1, "ty": 1, "nm": "solid", "sr": 1, "ks": Lot.transform(),
                                  "ao": 0, "hasMask": .bool(true), "masksProperties": .array(masks),
                                  "sw": 100, "sh": 100, "sc": .string(colour), "ip": 0, "op": 60, "st": 0, "bm": 0,
                                  "ef": .array(effects)]])
    }

    /// A Stroke effect with After Effects' eleven parameters: path (1 the first mask), all masks, stroke
    /// sequentially, colour, brush size, hardness, opacity (0…1), start and end (%), spacing (%), paint style.
    static func stroke(path: J = 1, all: J = 0, color: J = [0, 0, 1, 1], size: J = 5, opacity: J = 1, start: J = 0,
                       end: J = 100, spacing: J = 0, style: J = 1) -> J {
        effect(22, "ADBE Stroke", [path, all, 0, color, size, 0.75, opacity, start, end, spacing, style])
    }

    /// The line the stroke tests follow: across the middle of the composition, from x 20 to x 80.
    static var line: J { mask([[20, 50], [80, 50]]) }

    // The solid's colour is (200, 100, 50).

    @Test func strokeOnTheOriginalPaintsTheMaskPathOverTheLayer() throws {
        // Brush size 5 is the radius: the line covers rows 45…55 and reaches 5 beyond its ends in round caps.
        let json = LayerEffectTests.solid("#c86432", masks: [LayerEffectTests.line],
                                          effects: [LayerEffectTests.stroke()])
        for (x, y) in [(50, 50), (50, 46), (50, 53), (16, 50), (83, 50)] {
            let p = try LayerEffectTests.pixel(json, x: x, y: y)
            #expect(p.r == 0 && p.g == 0 && p.b == 255 && p.a == 255, "(\(x), \(y)): \(p)")
        }
        for (x, y) in [(50, 43), (50, 56), (13, 50), (86, 50), (5, 5)] {
            let p = try LayerEffectTests.pixel(json, x: x, y: y)
            #expect(p.r == 200 && p.g == 100 && p.b == 50 && p.a == 255, "(\(x), \(y)): \(p)")
        }
        // At opacity 0.5 the blue lies half over the solid: (100, 50, 152.5).
        let half = try LayerEffectTests.pixel(LayerEffectTests.solid("#c86432", masks: [LayerEffectTests.line],
                                                                     effects: [LayerEffectTests.stroke(opacity: 0.5)]))
        #expect(abs(half.r - 100) <= 1 && abs(half.g - 50) <= 1 && abs(half.b - 153) <= 1 && half.a == 255, "\(half)")
    }

    @Test func strokeOnTransparentLeavesOnlyTheStroke() throws {
        let json = LayerEffectTests.solid("#c86432", masks: [LayerEffectTests.line],
                                          effects: [LayerEffectTests.stroke(opacity: 0.5, style: 2)])
        let p = try LayerEffectTests.pixel(json)
        #expect(p.r == 0 && p.g == 0 && p.b == 255 && abs(p.a - 128) <= 1, "\(p)")
        #expect(try LayerEffectTests.pixel(json, x: 50, y: 43).a == 0)
        #expect(try LayerEffectTests.pixel(json, x: 5, y: 5).a == 0)
    }

    @Test func strokeRevealingTheOriginalShowsTheLayerThroughTheStroke() throws {
        // The colour does not matter; the layer shows where the stroke is, at the stroke's opacity.
        let json = LayerEffectTests.solid("#c86432", masks: [LayerEffectTests.line],
                                          effects: [LayerEffectTests.stroke(opacity: 0.5, style: 3)])
        let p = try LayerEffectTests.pixel(json)
        #expect(abs(p.r - 200) <= 1 && abs(p.g - 100) <= 1 && abs(p.b - 50) <= 1 && abs(p.a - 128) <= 1, "\(p)")
        #expect(try LayerEffectTests.pixel(json, x: 50, y: 43).a == 0)
        #expect(try LayerEffectTests.pixel(json, x: 16, y: 50).a > 0 && LayerEffectTests.pixel(json, x: 13, y: 50).a == 0)
    }

    @Test func strokeStartAndEndCutTheMaskPath() throws {
        // End 50 %: the line from x 20 to 50, its cap reaching 55.
        let first = LayerEffectTests.solid("#c86432", masks: [LayerEffectTests.line],
                                           effects: [LayerEffectTests.stroke(end: 50, style: 2)])
        #expect(try LayerEffectTests.pixel(first, x: 30, y: 50).a == 255)
        #expect(try LayerEffectTests.pixel(first, x: 52, y: 50).a == 255)
        #expect(try LayerEffectTests.pixel(first, x: 57, y: 50).a == 0)
        // Start 75 %, end 25 %: the middle half, x 35…65, whichever way round.
        let middle = LayerEffectTests.solid("#c86432", masks: [LayerEffectTests.line],
                                            effects: [LayerEffectTests.stroke(start: 75, end: 25, style: 2)])
        #expect(try LayerEffectTests.pixel(middle, x: 50, y: 50).a == 255)
        #expect(try LayerEffectTests.pixel(middle, x: 28, y: 50).a == 0 && LayerEffectTests.pixel(middle, x: 72, y: 50).a == 0)
    }

    @Test func strokeSpacingDabsTheBrushAlongThePath() throws {
        // Brush size 2, spacing 400 %: dashes of 1 unit 16 apart (4 × the diameter), one unit into the pattern, so
        // the first starts 16 along: at x 36…37, 53…54, 70…71, each widened by the brush's radius of 2.
        let json = LayerEffectTests.solid("#c86432", masks: [LayerEffectTests.line],
                                          effects: [LayerEffectTests.stroke(size: 2, spacing: 400, style: 2)])
        for x in [36, 53, 54, 70] { #expect(try LayerEffectTests.pixel(json, x: x, y: 50).a == 255, "x \(x)") }
        for x in [22, 30, 45, 62, 79] { #expect(try LayerEffectTests.pixel(json, x: x, y: 50).a == 0, "x \(x)") }
    }

    @Test func strokeFollowsTheMaskItPicksOrAllOfThem() throws {
        let masks = [LayerEffectTests.mask([[20, 30], [80, 30]]), LayerEffectTests.mask([[20, 70], [80, 70]])]
        let second = LayerEffectTests.solid("#c86432", masks: masks,
                                            effects: [LayerEffectTests.stroke(path: 2, style: 2)])
        #expect(try LayerEffectTests.pixel(second, x: 50, y: 70).a == 255)
        #expect(try LayerEffectTests.pixel(second, x: 50, y: 30).a == 0)
        let all = LayerEffectTests.solid("#c86432", masks: masks,
                                         effects: [LayerEffectTests.stroke(path: 2, all: 1, style: 2)])
        #expect(try LayerEffectTests.pixel(all, x: 50, y: 70).a == 255 && LayerEffectTests.pixel(all, x: 50, y: 30).a == 255)
        // A mask that is not there strokes nothing.
        let none = LayerEffectTests.solid("#c86432", masks: masks,
                                          effects: [LayerEffectTests.stroke(path: 3, style: 2)])
        #expect(try LayerEffectTests.pixel(none, x: 50, y: 70).a == 0 && LayerEffectTests.pixel(none, x: 50, y: 30).a == 0)
    }

    @Test func masksTheStrokeFollowsClipTheLayerButNotTheStroke() throws {
        // An added square mask 30…70: the solid shows inside it, the stroke along its edge on both sides of it.
        let square = LayerEffectTests.mask([[30, 30], [70, 30], [70, 70], [30, 70]], closed: true, mode: "a")
        let json = LayerEffectTests.solid("#c86432", masks: [square], effects: [LayerEffectTests.stroke()])
        let inside = try LayerEffectTests.pixel(json, x: 50, y: 50)
        #expect(inside.r == 200 && inside.g == 100 && inside.b == 50 && inside.a == 255, "\(inside)")
        for (x, y) in [(27, 50), (32, 50), (50, 27), (72, 72)] {
            let p = try LayerEffectTests.pixel(json, x: x, y: y)
            #expect(p.b == 255 && p.r == 0 && p.a == 255, "(\(x), \(y)): \(p)")
        }
        #expect(try LayerEffectTests.pixel(json, x: 10, y: 50).a == 0 && LayerEffectTests.pixel(json, x: 50, y: 90).a == 0)
    }

    @Test func aRealStrokeDrawsItsMasksOutlinesUnclipped() throws {
        // lottie-android's streetby_test_loading.json: an empty shape layer whose 24 masks (difference, drawn as
        // add) a Stroke in (0, 153, 190), brush size 2, strokes, paint style on the original. Before frame 62 every
        // mask holds its first key, so each of its vertices, moved by the layer's position (160, 160), lies under
        // the stroke; clipped by the masks, the stroke would keep only its inner half there. ThorVG 1.0.4 draws
        // nothing of this file (it reveals the layer's own pixels through the stroke, and there are none).
        let data = try readAll(LayerEffectTests.folder + "/files/stroke-streetby.json")
        let canvas = ours(try parse(String(decoding: data, as: UTF8.self)), frame: 60, width: 320, height: 320)
        guard case .object(let root) = try JSONReader.parse(data),
              case .array(let layers)? = root.first(where: { $0.key == "layers" })?.value,
              case .object(let layer)? = layers.first,
              case .array(let masks)? = layer.first(where: { $0.key == "masksProperties" })?.value
        else { Issue.record("the file has no masks"); return }
        func field(_ v: JSONValue?, _ key: String) -> JSONValue? {
            guard case .object(let o)? = v else { return nil }
            return o.first { $0.key == key }?.value
        }
        var alphas: [Int] = []
        for mask in masks {
            guard case .array(let keys)? = field(field(mask, "pt"), "k"), case .array(let first)? = field(keys.first, "s"),
                  case .array(let vertices)? = field(first.first, "v") else { continue }
            for case .array(let v) in vertices {
                guard case .number(let x) = v[0], case .number(let y) = v[1] else { continue }
                let p = canvas[Int(x + 160), Int(y + 160)], a = Int(p >> 24)
                alphas.append(a)
                if a >= 128 {
                    let r = (Int((p >> 16) & 0xFF) * 255 + a / 2) / a, g = (Int((p >> 8) & 0xFF) * 255 + a / 2) / a
                    let b = (Int(p & 0xFF) * 255 + a / 2) / a
                    #expect(r <= 3 && abs(g - 153) <= 3 && abs(b - 190) <= 3, "(\(x), \(y)): \(r) \(g) \(b)")
                }
            }
        }
        #expect(alphas.count == 287)
        let mean = Double(alphas.reduce(0, +)) / Double(max(alphas.count, 1))
        #expect(mean >= 245 && (alphas.min() ?? 0) >= 192, "mean \(mean), least \(alphas.min() ?? 0)")
    }

    // MARK: Pro Levels

    /// A Pro Levels effect laid out as Bodymovin exports it: channel menu, histogram (no value), then for RGB,
    /// red, green, blue and alpha a group's start, five values and its end; the clip switches last.
    static func levels(rgb: [J] = [0, 1, 1, 0, 1], red: [J] = [0, 1, 1, 0, 1], green: [J] = [0, 1, 1, 0, 1],
                       blue: [J] = [0, 1, 1, 0, 1], alpha: [J] = [0, 1, 1, 0, 1]) -> J {
        var parameters: [J] = [["ty": 7, "nm": "Channel:", "mn": "ADBE Pro Levels2-0001", "ix": 1, "v": Lot.value(1)], [:]]
        func add(_ v: J) {
            let ix = parameters.count + 1
            parameters.append(["ty": 0, "nm": .string("p\(ix)"), "mn": .string("ADBE Pro Levels2-\(ix)"),
                               "ix": .number(Double(ix)), "v": Lot.value(v)])
        }
        func group() {
            let ix = parameters.count + 1
            parameters.append(["ty": 6, "nm": "group", "mn": .string("ADBE Pro Levels2-\(ix)"), "ix": .number(Double(ix)),
                               "v": 0])
        }
        for values in [rgb, red, green, blue, alpha] {
            group()
            values.forEach(add)
            group()
        }
        add(1)
        add(1)
        return ["ty": 24, "nm": "Levels (Individual Controls)", "mn": "ADBE Pro Levels2", "ix": 1, "en": 1,
                "ef": .array(parameters)]
    }

    @Test func levelsCurveMatchesValuesWorkedOutByHand() {
        let curve = Levels(inputBlack: 0.2, inputWhite: 0.8, gamma: 2, outputBlack: 0.1, outputWhite: 0.9)
        // 0.1 + 0.8 × √((0.5 − 0.2) / 0.6) = 0.1 + 0.8 × 0.70711 = 0.66569; below and above the input range the
        // output black and white.
        #expect(abs(curve.map(0.5) - 0.66569) < 1e-5)
        #expect(curve.map(0.1) == 0.1 && curve.map(0.95) == 0.9)
        // Input black above input white turns the channel over: 1 − v between them here.
        let inverted = Levels(inputBlack: 1, inputWhite: 0, gamma: 1, outputBlack: 0, outputWhite: 1)
        #expect(abs(inverted.map(0.3) - 0.7) < 1e-12)
        let narrow = Levels(inputBlack: 0.8, inputWhite: 0.2, gamma: 1, outputBlack: 0, outputWhite: 1)
        #expect(narrow.map(0.1) == 1 && narrow.map(0.9) == 0 && abs(narrow.map(0.5) - 0.5) < 1e-12)
    }

    @Test func proLevelsMapsEachChannelThenTheComposite() throws {
        func pixel(_ effect: J) throws -> (r: Int, g: Int, b: Int, a: Int) {
            try LayerEffectTests.pixel(LayerEffectTests.solid("#c86432", effects: [effect]))
        }
        // Composite gamma 2: √(200/255) = 0.88561 → 226, √(100/255) → 160, √(50/255) → 113.
        let gamma = try pixel(LayerEffectTests.levels(rgb: [0, 1, 2, 0, 1]))
        #expect(gamma.r == 226 && gamma.g == 160 && gamma.b == 113 && gamma.a == 255, "\(gamma)")
        // Composite input 0.2…0.8: (200/255 − 0.2) / 0.6 → 248, 100 → 82, 50 (below 0.2) → 0.
        let input = try pixel(LayerEffectTests.levels(rgb: [0.2, 0.8, 1, 0, 1]))
        #expect(input.r == 248 && input.g == 82 && input.b == 0, "\(input)")
        // Red's output 0.4…1: 102 + 0.6 × 200 = 222; the other channels kept.
        let red = try pixel(LayerEffectTests.levels(red: [0, 1, 1, 0.4, 1]))
        #expect(red.r == 222 && red.g == 100 && red.b == 50, "\(red)")
        // Red's own curve first, then the composite: red halved (100/255), then its square root → 160. The other
        // order would give √(200/255) / 2 → 113.
        let order = try pixel(LayerEffectTests.levels(rgb: [0, 1, 2, 0, 1], red: [0, 1, 1, 0, 0.5]))
        #expect(order.r == 160 && order.g == 160 && order.b == 113, "\(order)")
        // Input black 1 and white 0 invert: 255 − v.
        let inverted = try pixel(LayerEffectTests.levels(rgb: [1, 0, 1, 0, 1]))
        #expect(inverted.r == 55 && inverted.g == 155 && inverted.b == 205, "\(inverted)")
        // Alpha's output white 0.5 halves the alpha; the colour stays.
        let alpha = try pixel(LayerEffectTests.levels(alpha: [0, 1, 1, 0, 0.5]))
        #expect(alpha.a == 128 && abs(alpha.r - 200) <= 1 && abs(alpha.g - 100) <= 1 && abs(alpha.b - 50) <= 1, "\(alpha)")
    }

    @Test func strokeAndLevelsParametersFollowTheirExpressions() throws {
        // Each expression gives another value than its `k`: drawn alike with that value written out, it drove the
        // parameter.
        func scripted(_ k: Double, _ value: Double) -> J { ["a": 0, "k": .number(k), "x": .string("$bm_rt = \(value);")] }
        func canvas(_ effects: [J]) throws -> Canvas {
            ours(try parse(LayerEffectTests.solid("#c86432", masks: [LayerEffectTests.line], effects: effects)),
                 frame: 0, width: 100, height: 100)
        }
        // (driven by expressions, their values written out, the values of `k`)
        let cases: [(J, J, J)] = [
            (LayerEffectTests.stroke(size: scripted(9, 3), end: scripted(100, 40), style: scripted(1, 2)),
             LayerEffectTests.stroke(size: 3, end: 40, style: 2), LayerEffectTests.stroke(size: 9)),
            (LayerEffectTests.levels(rgb: [0, scripted(1, 0.7), scripted(1, 1.8), 0, 1]),
             LayerEffectTests.levels(rgb: [0, 0.7, 1.8, 0, 1]), LayerEffectTests.levels()),
        ]
        func differing(_ a: Canvas, _ b: Canvas) -> Int {
            var n = 0
            for i in 0..<a.pixelCount where a.pixels[i] != b.pixels[i] { n += 1 }
            return n
        }
        for (driven, written, keyed) in cases {
            let a = try canvas([driven])
            #expect(differing(a, try canvas([written])) == 0)
            #expect(differing(a, try canvas([keyed])) > 1000)
        }
    }

    @Test func everyStrokeAndLevelsNumberReplacedByAnInfiniteOrHugeOneDrawsOrIsRefused() {
        // A solid with a Stroke and a Pro Levels, every number of their parameters (after the first "ef") replaced
        // in turn: keyframed between the hostile value and the next, so that frames in between see NaN too.
        let keyed = Lot.animated([Lot.Key(t: 0, s: [1]), Lot.Key(t: 60, s: [2])])
        let json = Array(LayerEffectTests.solid("#c86432", masks: [LayerEffectTests.line], effects: [
            LayerEffectTests.stroke(path: keyed, size: keyed, opacity: 0.5, end: keyed, spacing: keyed, style: keyed),
            LayerEffectTests.levels(rgb: [keyed, 1, keyed, 0, 1], alpha: [0, keyed, 1, 0, 1]),
        ]).utf8)
        let effects = json.firstRange(of: Array("\"ef\"".utf8))?.lowerBound ?? 0
        let places = BudgetTests.numberPlaces(json).filter { $0.lowerBound > effects }
        #expect(places.count > 100)
        for place in places {
            for value in BudgetTests.hostileNumbers {
                #expect(BudgetTests.survives(json, replacing: place, with: value),
                        "\(String(decoding: json[place], as: UTF8.self)) → \(value)")
            }
        }
    }

    // MARK: Image and text layers

    @Test func effectsDrawOnImageLayers() throws {
        // The 16 × 16 quadrants picture in its 40 × 40 box at (10, 20): a blue Fill takes every pixel of it; a red
        // Drop Shadow 10 down (180°), not softened, shows in the 10 rows under it and nowhere else.
        let picture = ImageAssetTests.embedded("quadrants.png", mime: "png")
        let fill = LayerEffectTests.effect(21, "ADBE Fill", [0, 0, [0, 0, 1, 1], 0, 0, 0, 1])
        let filled = ours(try parse(ImageAssetTests.composition(picture, layerExtra: [("ef", [fill])])), frame: 0,
                          width: 100, height: 100)
        for (x, y) in [(15, 25), (45, 25), (15, 55), (45, 55)] { #expect(filled[x, y] == 0xFF00_00FF, "(\(x), \(y))") }
        #expect(filled[5, 40] == 0 && filled[30, 65] == 0)
        let shadow = LayerEffectTests.effect(25, "ADBE Drop Shadow", [[1, 0, 0, 1], 255, 180, 10, 0])
        let plain = ours(try parse(ImageAssetTests.composition(picture)), frame: 0, width: 100, height: 100)
        let shaded = ours(try parse(ImageAssetTests.composition(picture, layerExtra: [("ef", [shadow])])), frame: 0,
                          width: 100, height: 100)
        for (x, y) in [(15, 25), (45, 25), (15, 55), (45, 55)] { #expect(shaded[x, y] == plain[x, y], "(\(x), \(y))") }
        for (x, y) in [(12, 62), (30, 65), (48, 69)] { #expect(shaded[x, y] == 0xFFFF_0000, "(\(x), \(y))") }
        #expect(shaded[30, 72] == 0 && shaded[5, 40] == 0)
    }

    @Test func effectsDrawOnTextLayers() throws {
        // The box glyph 'a' at size 20 stands at x 10…20, y 36…50 in red. A blue Fill recolours it; a green Drop
        // Shadow 10 down lies under it, showing at y 50…60.
        func render(_ effects: [J]) throws -> Canvas {
            let layer = TextLayerTests.layer([(0, TextLayerTests.document("a"))]).with("ef", .array(effects))
            return ours(try parse(TextLayerTests.file([layer])), frame: 0, width: 100, height: 100)
        }
        let filled = try render([LayerEffectTests.effect(21, "ADBE Fill", [0, 0, [0, 0, 1, 1], 0, 0, 0, 1])])
        #expect(filled[15, 43] == 0xFF00_00FF && filled[12, 38] == 0xFF00_00FF && filled[25, 43] == 0)
        let shaded = try render([LayerEffectTests.effect(25, "ADBE Drop Shadow", [[0, 1, 0, 1], 255, 180, 10, 0])])
        #expect(shaded[15, 43] == 0xFFFF_0000, "\(String(shaded[15, 43], radix: 16))")
        #expect(shaded[15, 55] == 0xFF00_FF00 && shaded[15, 51] == 0xFF00_FF00, "\(String(shaded[15, 55], radix: 16))")
        #expect(shaded[15, 62] == 0 && shaded[25, 55] == 0)
    }
}

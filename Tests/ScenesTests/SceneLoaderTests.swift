import Geometry
import Raster
import Testing
import TestSupport
import Colors
@testable import Scenes

extension SeededRandom {
    /// A number in `range` with at most three decimals, so that its text form is exact to compare.
    mutating func number(_ range: ClosedRange<Double>) -> Double {
        let steps = Int((range.upperBound - range.lowerBound) * 1000)
        return range.lowerBound + Double(int(in: 0...steps)) / 1000
    }
}

@Suite struct SceneLoaderTests {
    /// A scene with every field of the format, and the values it must give.
    @Test func readsEveryField() throws {
        let scene = try Scene(json: """
            {"name": "demo", "width": 40, "height": 30, "background": "#102030",
             "items": [
               {"path": "M1 2 L3 4 Q5 6 7 8 C9 10 11 12 13 14 Z", "fill": "#FF000080", "fillRule": "evenodd",
                "stroke": "#00FF00", "lineWidth": 2.5, "lineCap": "round", "lineJoin": "bevel", "miterLimit": 4,
                "transform": [2, 0, 0, 3, 10, -5], "opacity": 0.25},
               {"path": "M0 0 H10"}
             ]}
            """)
        #expect(scene.name == "demo")
        #expect(scene.width == 40 && scene.height == 30)
        #expect(scene.background == Color(rgb: 0x10, 0x20, 0x30))
        #expect(scene.items.count == 2)
        let a = scene.items[0]
        let elements: [Path.Element] = [.move(Point(1, 2)), .line(Point(3, 4)), .quad(Point(5, 6), Point(7, 8)),
                                        .cubic(Point(9, 10), Point(11, 12), Point(13, 14)), .close]
        #expect(a.path.elements == elements)
        #expect(a.fill == Color(rgb: 255, 0, 0, alpha: 128.0 / 255))
        #expect(a.fillRule == .evenOdd)
        #expect(a.stroke == Color(rgb: 0, 255, 0))
        #expect(a.strokeStyle.lineWidth == 2.5)
        #expect(a.strokeStyle.lineCap == .round)
        #expect(a.strokeStyle.lineJoin == .bevel)
        #expect(a.strokeStyle.miterLimit == 4)
        #expect(a.transform == AffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 10, ty: -5))
        #expect(a.opacity == 0.25)
        #expect(a.effectiveFill?.alpha == 128.0 / 255 * 0.25)
        #expect(a.effectiveStroke?.alpha == 0.25)
        // √|det| = √6: the outline must be 0.1 px accurate after the transform scales it.
        #expect(abs(a.strokeTolerance - 0.1 / 6.0.squareRoot()) < 1e-15)

        // The format's defaults: no fill, no stroke, non-zero, SVG's stroke defaults, identity, opaque.
        let b = scene.items[1]
        #expect(b.fill == nil && b.stroke == nil)
        #expect(b.effectiveFill == nil && b.effectiveStroke == nil)
        #expect(b.fillRule == .nonZero)
        #expect(b.strokeStyle.lineWidth == 1)
        #expect(b.strokeStyle.lineCap == .butt)
        #expect(b.strokeStyle.lineJoin == .miter)
        #expect(b.strokeStyle.miterLimit == 10)
        #expect(b.transform == .identity)
        #expect(b.opacity == 1)
        #expect(b.strokeTolerance == 0.1)
    }

    @Test func nameAndBackgroundDefaults() throws {
        let scene = try Scene(json: #"{"width": 1, "height": 2, "items": []}"#, file: "some/dir/sunset.json")
        #expect(scene.name == "sunset")
        #expect(scene.background == .clear)
        #expect(scene.items.isEmpty)
    }

    /// Each broken file gives the one message that names the file, the line and column, the item, the field and what
    /// was expected.
    @Test(arguments: [
        (#"{"width": 10, "height": 10, "items": [{"path": "M0 0 L1 1", "lineWidth": "3"}]}"#,
         #"scene.json:1:74: item 0: field "lineWidth": expected a number, found a string"#),
        (#"{"width": 10, "height": 10, "items": [{"path": "M0 0", "fill": "red"}]}"#,
         ##"scene.json:1:64: item 0: field "fill": expected a colour as "#RRGGBB" or "#RRGGBBAA", found "red""##),
        (#"{"width": 10, "height": 10, "items": [{"path": "M0 0", "fillRule": "winding"}]}"#,
         #"scene.json:1:68: item 0: field "fillRule": expected one of "nonzero", "evenodd", found "winding""#),
        (#"{"width": 10, "height": 10, "items": [{"path": "M0 0", "lineCap": "flat"}]}"#,
         #"scene.json:1:67: item 0: field "lineCap": expected one of "butt", "round", "square", found "flat""#),
        (#"{"width": 10, "height": 10, "items": [{"path": "M0 0", "lineJoin": 2}]}"#,
         #"scene.json:1:68: item 0: field "lineJoin": expected a string, found a number"#),
        (#"{"width": 10, "height": 10, "items": [{"path": "M0 0", "miterLimit": 0.5}]}"#,
         #"scene.json:1:70: item 0: field "miterLimit": expected a limit of 1 or more, found 0.5"#),
        (#"{"width": 10, "height": 10, "items": [{"path": "M0 0", "lineWidth": -1}]}"#,
         #"scene.json:1:69: item 0: field "lineWidth": expected a width of 0 or more, found -1"#),
        (#"{"width": 10, "height": 10, "items": [{"path": "M0 0", "transform": [1, 0, 0, 1]}]}"#,
         #"scene.json:1:69: item 0: field "transform": expected an array of 6 numbers [a, b, c, d, tx, ty], found 4 values"#),
        (#"{"width": 10, "height": 10, "items": [{"path": "M0 0", "transform": [1, 0, "0", 1, 0, 0]}]}"#,
         #"scene.json:1:76: item 0: field "transform": expected an array of 6 numbers [a, b, c, d, tx, ty], found "0" at index 2"#),
        (#"{"width": 10, "height": 10, "items": [{"path": "M0 0", "opacity": 1.5}]}"#,
         #"scene.json:1:67: item 0: field "opacity": expected a number from 0 to 1, found 1.5"#),
        (##"{"width": 10, "height": 10, "items": [{"fill": "#000000"}]}"##,
         #"scene.json:1:39: item 0: field "path": missing; give the item's SVG path data"#),
        (#"{"width": 10, "height": 10, "items": [{"path": "M0 0", "strokeWidth": 2}]}"#,
         #"scene.json:1:56: item 0: field "strokeWidth": unknown field; expected one of fill, fillRule, lineCap, lineJoin, lineWidth, miterLimit, opacity, path, stroke, transform"#),
        (#"{"width": 10, "height": 10, "items": [7]}"#,
         #"scene.json:1:39: item 0: expected an item as a JSON object, found a number"#),
        (#"{"height": 10, "items": []}"#,
         #"scene.json:1:1: field "width": missing; give the canvas size in pixels"#),
        (#"{"width": 10.5, "height": 10, "items": []}"#,
         #"scene.json:1:11: field "width": expected a whole number of pixels from 1 to 16384, found 10.5"#),
        (#"{"width": 10, "height": 0, "items": []}"#,
         #"scene.json:1:25: field "height": expected a whole number of pixels from 1 to 16384, found 0"#),
        (#"{"width": 10, "height": 10, "items": {}}"#,
         #"scene.json:1:38: field "items": expected an array of items, found an object"#),
        (#"{"width": 10, "height": 10}"#,
         #"scene.json:1:1: field "items": missing; give an array of items (it may be empty)"#),
        (#"[1, 2]"#,
         #"scene.json:1:1: expected the scene as a JSON object, found an array"#),
        ("{\"width\": 10,\n \"height\": 10 \"items\": []}",
         #"scene.json:2:15: not valid JSON: expected ',' or '}' but found '"'"#),
        (#"{"width": 10, "height": 10, "items": [], "width": 3}"#,
         #"scene.json:1:42: not valid JSON: field "width" appears twice in one object"#),
    ])
    func badFieldsAreNamed(_ json: String, _ message: String) {
        #expect(throws: SceneError.self) { try Scene(json: json) }
        do {
            _ = try Scene(json: json)
        } catch {
            #expect(error.description == message)
        }
    }

    /// The error names the item by its index, counted from 0 as in `items[12]`.
    @Test func errorNamesTheItemIndex() {
        let good = ##"{"path": "M0 0 L5 5", "stroke": "#000000"}"##
        let items = Array(repeating: good, count: 12) + [#"{"path": "M0 0", "lineWidth": true}"#]
        let json = #"{"width": 8, "height": 8, "items": ["# + items.joined(separator: ",") + "]}"
        do {
            _ = try Scene(json: json, file: "many.json")
            Issue.record("a boolean line width was accepted")
        } catch {
            #expect(error.description == #"many.json:1:\#(json.utf8.count - 6): item 12: field "lineWidth": expected a number, found a boolean"#)
        }
    }

    /// A bad path string names the item, the parser's offset and the token found there.
    @Test func badPathDataNamesOffsetAndToken() {
        let json = #"{"width": 8, "height": 8, "items": [{"path": "M0 0"}, {"path": "M0 0 L1 X 3"}]}"#
        do {
            _ = try Scene(json: json)
            Issue.record("a bad path was accepted")
        } catch {
            #expect(error.description.hasPrefix(#"scene.json:1:64: item 1: field "path": bad SVG path data at offset 8: "#),
                    "\(error)")
            #expect(error.description.contains(#"found "X""#), "\(error)")
        }
    }

    @Test func missingFileSaysSo() {
        let path = SceneFixtures.directory + "/no-such-scene.json"
        do {
            _ = try Scene.load(path: path)
            Issue.record("a missing file was loaded")
        } catch {
            #expect(error.description == path + ": no such scene file; check the path")
        }
    }

    @Test func aFolderIsNotAScene() {
        do {
            _ = try Scene.load(path: SceneFixtures.directory)
            Issue.record("a folder was loaded as a scene")
        } catch {
            #expect(error.description.hasPrefix(SceneFixtures.directory + ": "))
        }
    }

    /// Every fixture loads, with the number of items its file holds.
    @Test func fixturesLoad() throws {
        let expectedCounts = ["curves": 300, "dots": 100, "frame": 74, "list": 80, "polys": 400, "ring": 90,
                              "sticky": 72, "stress": 365, "strokes": 250, "text": 14]
        for (name, count) in expectedCounts {
            let scene = try Scene.load(path: SceneFixtures.scenePath(name))
            #expect(scene.name == name)
            #expect(scene.width == 750 && scene.height == 1334)
            #expect(scene.background == .white)
            #expect(scene.items.count == count, "\(name)")
        }
    }

    /// Random scenes written out as JSON read back to the same values.
    @Test func randomScenesRoundTrip() throws {
        var random = SeededRandom(seed: 0x5CE7E)
        let caps = ["butt", "round", "square"], joins = ["miter", "round", "bevel"]
        func hex(_ r: inout SeededRandom, alpha: Bool) -> (String, Color) {
            let c = (0..<(alpha ? 4 : 3)).map { _ in r.int(in: 0...255) }
            let text = "#" + c.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            return (text, Color(rgb: c[0], c[1], c[2], alpha: alpha ? Double(c[3]) / 255 : 1))
        }
        for _ in 0..<50 {
            let width = random.int(in: 1...2000), height = random.int(in: 1...2000)
            var itemTexts: [String] = []
            var expected: [(Point, Point, Color?, Bool, Color?, Double, String, String, Double, [Double], Double)] = []
            for _ in 0..<random.int(in: 0...8) {
                let p0 = Point(random.number(-500...500), random.number(-500...500))
                let p1 = Point(random.number(-500...500), random.number(-500...500))
                var fields = [#""path": "M\#(p0.x) \#(p0.y) L\#(p1.x) \#(p1.y)""#]
                var fill: Color?, stroke: Color?
                if random.bool() {
                    let (text, c) = hex(&random, alpha: random.bool())
                    fields.append(#""fill": "\#(text)""#)
                    fill = c
                }
                let evenOdd = random.bool()
                fields.append(#""fillRule": "\#(evenOdd ? "evenodd" : "nonzero")""#)
                if random.bool() {
                    let (text, c) = hex(&random, alpha: true)
                    fields.append(#""stroke": "\#(text)""#)
                    stroke = c
                }
                let lineWidth = random.number(0...40)
                let cap = caps[random.int(in: 0...2)], join = joins[random.int(in: 0...2)]
                let miter = random.number(1...20)
                let m = (0..<6).map { _ in random.number(-10...10) }
                let opacity = random.number(0...1)
                fields += [#""lineWidth": \#(lineWidth)"#, #""lineCap": "\#(cap)""#, #""lineJoin": "\#(join)""#,
                           #""miterLimit": \#(miter)"#, #""opacity": \#(opacity)"#,
                           #""transform": [\#(m.map { String($0) }.joined(separator: ", "))]"#]
                // The file's field order does not matter.
                if random.bool() { fields.reverse() }
                itemTexts.append("{" + fields.joined(separator: ", ") + "}")
                expected.append((p0, p1, fill, evenOdd, stroke, lineWidth, cap, join, miter, m, opacity))
            }
            let json = #"{"width": \#(width), "height": \#(height), "items": [\#(itemTexts.joined(separator: ",\n"))]}"#
            let scene = try Scene(json: json, file: "random.json")
            #expect(scene.width == width && scene.height == height)
            try #require(scene.items.count == expected.count)
            for (item, e) in zip(scene.items, expected) {
                #expect(item.path.elements == [.move(e.0), .line(e.1)])
                #expect(item.fill == e.2)
                #expect(item.fillRule == (e.3 ? .evenOdd : .nonZero))
                #expect(item.stroke == e.4)
                #expect(item.strokeStyle.lineWidth == e.5)
                #expect(item.strokeStyle.lineCap.rawValue == e.6)
                #expect(item.strokeStyle.lineJoin.rawValue == e.7)
                #expect(item.strokeStyle.miterLimit == e.8)
                #expect(item.transform == AffineTransform(a: e.9[0], b: e.9[1], c: e.9[2], d: e.9[3], tx: e.9[4], ty: e.9[5]))
                #expect(item.opacity == e.10)
            }
        }
    }

    /// Truncating a valid file anywhere gives an error, never a crash or a half-read scene.
    @Test func truncatedFilesFailCleanly() throws {
        let json = ##"{"name": "t", "width": 4, "height": 4, "background": "#FFFFFF", "items": [{"path": "M0 0 L4 4", "stroke": "#000000", "transform": [1, 0, 0, 1, 0.5, 0.5]}]}"##
        let bytes = Array(json.utf8)
        _ = try Scene(json: bytes, file: "t.json")
        for cut in 0..<bytes.count {
            #expect(throws: SceneError.self, "cut at \(cut)") { try Scene(json: Array(bytes[0..<cut]), file: "t.json") }
        }
    }
}

/// What a scene draws, checked on pixels worked out by hand.
@Suite struct SceneRenderTests {
    /// A pixel-aligned square covers whole pixels, so their values follow from 8-bit source-over alone.
    @Test func opacityMultipliesTheFillAlpha() throws {
        let scene = try Scene(json: """
            {"width": 8, "height": 8, "background": "#FFFFFF",
             "items": [{"path": "M2 2 H6 V6 H2 Z", "fill": "#FF0000", "opacity": 0.5}]}
            """)
        let canvas = scene.makeCanvas()
        scene.render(into: canvas, rasterizer: Rasterizer())
        // Source red at alpha 0.5 → premultiplied (128, 128, 0, 0); over white: 128 + 255·127/255 = 255 alpha and
        // red, 0 + 127 = 127 green and blue.
        #expect(canvas[3, 3] == 0xFFFF_7F7F)
        #expect(canvas[2, 5] == 0xFFFF_7F7F)
        #expect(canvas[1, 3] == 0xFFFF_FFFF)
        #expect(canvas[6, 3] == 0xFFFF_FFFF)
    }

    /// The transform moves and scales the path: a unit square scaled by 2 and moved by (1, 3).
    @Test func transformAppliesToThePath() throws {
        let scene = try Scene(json: """
            {"width": 8, "height": 8, "background": "#000000",
             "items": [{"path": "M0 0 H1 V1 H0 Z", "fill": "#FFFFFF", "transform": [2, 0, 0, 2, 1, 3]}]}
            """)
        let canvas = scene.makeCanvas()
        scene.render(into: canvas, rasterizer: Rasterizer())
        for y in 0..<8 {
            for x in 0..<8 {
                let inside = (1...2).contains(x) && (3...4).contains(y)
                #expect(canvas[x, y] == (inside ? 0xFFFF_FFFF : 0xFF00_0000), "pixel (\(x), \(y))")
            }
        }
    }

    /// The stroke is drawn after the fill, and is made in the item's coordinates: a 1-unit butt line scaled by 2
    /// covers 2 pixels across.
    @Test func strokeOverFillInItemCoordinates() throws {
        let scene = try Scene(json: """
            {"width": 12, "height": 12, "background": "#FFFFFF",
             "items": [{"path": "M1 1 H5 V5 H1 Z", "fill": "#0000FF", "stroke": "#00FF00", "lineWidth": 1,
                        "lineJoin": "miter", "transform": [2, 0, 0, 2, 0, 0]}]}
            """)
        let canvas = scene.makeCanvas()
        scene.render(into: canvas, rasterizer: Rasterizer())
        // The square is 2…10 px; its 2 px stroke is centred on the edge: 1…3 px on the left, 9…11 px on the right.
        #expect(canvas[1, 6] == 0xFF00_FF00)
        #expect(canvas[2, 6] == 0xFF00_FF00)
        #expect(canvas[3, 6] == 0xFF00_00FF)
        #expect(canvas[8, 6] == 0xFF00_00FF)
        #expect(canvas[9, 6] == 0xFF00_FF00)
        #expect(canvas[10, 6] == 0xFF00_FF00)
        #expect(canvas[11, 6] == 0xFFFF_FFFF)
        #expect(canvas[0, 6] == 0xFFFF_FFFF)
        // Miter joins fill the corner squarely.
        #expect(canvas[1, 1] == 0xFF00_FF00)
    }

    @Test func backgroundReplacesWhatTheCanvasHeld() throws {
        let scene = try Scene(json: ##"{"width": 3, "height": 3, "background": "#11223344", "items": []}"##)
        let canvas = Canvas(width: 3, height: 3, fill: .white)
        scene.render(into: canvas, rasterizer: Rasterizer())
        #expect(canvas[1, 1] == Color(hex: "#11223344")!.premultipliedPixel)
    }
}

/// The timing protocol and its report.
@Suite struct SceneTimingTests {
    @Test func figuresFromSamples() {
        let odd = SceneTiming(samples: [50, 10, 30])
        #expect(odd.medianNanoseconds == 30)
        #expect(odd.meanNanoseconds == 30)
        #expect(odd.minNanoseconds == 10)
        let even = SceneTiming(samples: [40, 10, 20, 100])
        #expect(even.medianNanoseconds == 30)
        #expect(even.meanNanoseconds == 42.5)
        #expect(even.minNanoseconds == 10)
    }

    @Test func jsonLine() {
        let timing = SceneTiming(samples: [1_000, 3_001, 2_000])
        #expect(timing.jsonLine(scene: "a \"b\"", width: 750, height: 1334)
            == #"{"scene": "a \"b\"", "width": 750, "height": 1334, "iterations": 3, "median_ns": 2000, "mean_ns": 2000, "min_ns": 1000}"#)
    }

    @Test func warmUpThenTimedRenders() {
        var calls = 0
        let timing = SceneTiming.measure(iterations: 7, warmUp: 0) { calls += 1 }
        #expect(calls == SceneTiming.warmUpRenders + 7)
        #expect(timing.samples.count == 7)
    }

    /// Renders of a millisecond go on untimed for the whole warm-up, not just three.
    @Test func warmUpLastsItsTime() {
        var calls = 0
        let start = ContinuousClock.now
        let timing = SceneTiming.measure(iterations: 2, warmUp: 30_000_000) {
            calls += 1
            let end = ContinuousClock.now + .milliseconds(1)
            while ContinuousClock.now < end {}
        }
        #expect(ContinuousClock.now - start >= .milliseconds(30))
        #expect(calls > 2 + SceneTiming.warmUpRenders && calls <= 2 + 31)
        #expect(timing.samples.count == 2)
    }
}

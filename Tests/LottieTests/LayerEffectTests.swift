@testable import Lab
@testable import Lottie
import Raster
import Testing
import TestSupport
import UserFiles

/// After Effects' layer effects (docs/reference.md §8): each formula on a pixel worked out by hand, and real files
/// that use them against ThorVG's frames.
@Suite struct LayerEffectTests {
    /// `Tests/Fixtures/lottie-effects`: the files, ThorVG's frames and the manifest naming where each file is from.
    static let folder: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/Tests/Fixtures/lottie-effects"
    }()

    /// A 100 × 100 composition holding one solid `colour` layer of `w` × `h` at the origin, with `effects`.
    static func solid(_ colour: String, w: Double = 100, h: Double = 100, effects: [J]) -> String {
        Lot.composition(layers: [["ddd": 0, "ind": 1, "ty": 1, "nm": "solid", "sr": 1, "ks": Lot.transform(),
                                  "ao": 0, "sw": .number(w), "sh": .number(h), "sc": .string(colour), "ip": 0,
                                  "op": 60, "st": 0, "bm": 0, "ef": .array(effects)]])
    }

    /// An effect of type `ty` whose parameters have the values `values`, in order.
    static func effect(_ ty: Int, _ name: String, _ values: [J]) -> J {
        var parameters: [J] = []
        for (i, v) in values.enumerated() {
            parameters.append(["ty": 0, "nm": .string("p\(i)"), "mn": .string("\(name)-\(i + 1)"),
                               "ix": .number(Double(i + 1)), "v": Lot.value(v)])
        }
        return ["ty": .number(Double(ty)), "nm": .string(name), "mn": .string(name), "ix": 1, "en": 1,
                "ef": .array(parameters)]
    }

    /// An opaque colour from 0…255 components, as a file gives it (0…1).
    static func rgb(_ r: Double, _ g: Double, _ b: Double) -> J { [.number(r / 255), .number(g / 255), .number(b / 255), 1] }

    /// The straight colour and alpha of pixel (x, y) of frame 0, drawn at 100 × 100.
    static func pixel(_ json: String, x: Int = 50, y: Int = 50) throws -> (r: Int, g: Int, b: Int, a: Int) {
        let canvas = ours(try parse(json), frame: 0, width: 100, height: 100)
        let p = canvas[x, y], a = Int(p >> 24)
        func c(_ shift: UInt32) -> Int { a == 0 ? 0 : (Int((p >> shift) & 0xFF) * 255 + a / 2) / a }
        return (c(16), c(8), c(0), a)
    }

    // The solid's colour (200, 100, 50) has the grey level round(0.2126·200 + 0.7152·100 + 0.0722·50) = 118.

    @Test func tintMapsTheGreyLevelBetweenItsTwoColours() throws {
        // Black (20, 40, 60) to white (220, 240, 100) at 118/255: (112.5, 132.5, 78.5) → (113, 133, 79).
        let black = LayerEffectTests.rgb(20, 40, 60), white = LayerEffectTests.rgb(220, 240, 100)
        let full = try LayerEffectTests.pixel(LayerEffectTests.solid("#c86432", effects: [
            LayerEffectTests.effect(20, "ADBE Tint", [black, white, 100])]))
        #expect(full.r == 113 && full.g == 133 && full.b == 79 && full.a == 255, "\(full)")
        // At 50 %, halfway from the solid's own colour: (156.5, 116.5, 64.5) → (157, 117, 65), within a level.
        let half = try LayerEffectTests.pixel(LayerEffectTests.solid("#c86432", effects: [
            LayerEffectTests.effect(20, "ADBE Tint", [black, white, 50])]))
        #expect(abs(half.r - 157) <= 1 && abs(half.g - 117) <= 1 && abs(half.b - 65) <= 1, "\(half)")
    }

    @Test func tritoneMapsDarkGreysBetweenShadowsAndMidtones() throws {
        // 118/255 lies in the lower half: 2 × 118/255 = 0.9255 of the way from black to (100, 200, 40).
        let effect = LayerEffectTests.effect(23, "ADBE Tritone", [LayerEffectTests.rgb(255, 255, 255),
                                                                 LayerEffectTests.rgb(100, 200, 40),
                                                                 LayerEffectTests.rgb(0, 0, 0), 0])
        let p = try LayerEffectTests.pixel(LayerEffectTests.solid("#c86432", effects: [effect]))
        #expect(p.r == 93 && p.g == 185 && p.b == 37 && p.a == 255, "\(p)")
        // A light grey (230 → 230/255) is 2 × 230/255 − 1 = 0.804 of the way from the midtones to white.
        let light = try LayerEffectTests.pixel(LayerEffectTests.solid("#e6e6e6", effects: [effect]))
        #expect(light.r == 225 && light.g == 244 && light.b == 213, "\(light)")
    }

    @Test func fillPaintsOneColourThroughTheLayersAlphaAtItsOpacity() throws {
        // Parameters: mask, all masks, colour, invert, two feathers, opacity (0…1).
        let p = try LayerEffectTests.pixel(LayerEffectTests.solid("#c86432", effects: [
            LayerEffectTests.effect(21, "ADBE Fill", [0, 0, [0.2, 0.4, 0.6, 1], 0, 0, 0, 0.5])]))
        #expect(p.a == 128 && abs(p.r - 51) <= 1 && abs(p.g - 102) <= 1 && abs(p.b - 153) <= 1, "\(p)")
        // Disabled (`en` 0), or written without `en` as older exports are, it draws nothing, as ThorVG reads it.
        for enabled: J? in [0, nil] {
            var effect = LayerEffectTests.effect(21, "ADBE Fill", [0, 0, [0.2, 0.4, 0.6, 1], 0, 0, 0, 0.5])
            if case .object(let fields) = effect { effect = .object(fields.filter { $0.0 != "en" }) }
            if let enabled { effect = effect.with("en", enabled) }
            let plain = try LayerEffectTests.pixel(LayerEffectTests.solid("#c86432", effects: [effect]))
            #expect(plain.r == 200 && plain.g == 100 && plain.b == 50 && plain.a == 255, "\(plain)")
        }
    }

    @Test func dropShadowLiesUnderTheLayerMovedAlongItsDirection() throws {
        // A white 40 × 40 square at the origin, its shadow blue, fully opaque (255), 10 units to the right (90°),
        // not softened: the 10 columns right of the square are blue, the square stays white, below it nothing.
        let json = LayerEffectTests.solid("#ffffff", w: 40, h: 40, effects: [
            LayerEffectTests.effect(25, "ADBE Drop Shadow", [[0, 0, 1, 1], 255, 90, 10, 0])])
        let inside = try LayerEffectTests.pixel(json, x: 20, y: 20)
        #expect(inside.r == 255 && inside.g == 255 && inside.b == 255 && inside.a == 255, "\(inside)")
        for x in [41, 45, 49] {
            let shadow = try LayerEffectTests.pixel(json, x: x, y: 20)
            #expect(shadow.r == 0 && shadow.g == 0 && shadow.b == 255 && shadow.a == 255, "x \(x): \(shadow)")
        }
        #expect(try LayerEffectTests.pixel(json, x: 52, y: 20).a == 0)
        #expect(try LayerEffectTests.pixel(json, x: 20, y: 45).a == 0)
        // At 180° the shadow falls below, at half opacity (128 of 255).
        let down = LayerEffectTests.solid("#ffffff", w: 40, h: 40, effects: [
            LayerEffectTests.effect(25, "ADBE Drop Shadow", [[0, 0, 1, 1], 128, 180, 10, 0])])
        #expect(try LayerEffectTests.pixel(down, x: 20, y: 45).a == 128)
        #expect(try LayerEffectTests.pixel(down, x: 45, y: 20).a == 0)
    }

    @Test func gaussianBlurSoftensAStepEdgeAsAGaussianWouldAndRepeatsTheCanvasEdge() throws {
        // The left half red, blurred horizontally (dimensions 2) by blurriness 20: σ = 0.25 × 20 = 5 px. Across
        // the step at x = 50 the alpha follows 255 · Φ((50 − x − ½) / 5); the box approximation is within 3 levels.
        let json = LayerEffectTests.solid("#ff0000", w: 50, effects: [
            LayerEffectTests.effect(29, "ADBE Gaussian Blur 2", [20, 2, 0])])
        for (x, expected) in [(44, 220.3), (49, 137.6), (54, 46.9), (59, 7.3)] {
            let a = try LayerEffectTests.pixel(json, x: x, y: 50).a
            #expect(abs(Double(a) - expected) <= 3, "x \(x): alpha \(a), expected \(expected)")
        }
        // Vertically nothing moves, and the layer's edge at the canvas's edge is not faded.
        #expect(try LayerEffectTests.pixel(json, x: 20, y: 0).a == 255)
        #expect(try LayerEffectTests.pixel(json, x: 0, y: 50).a == 255)
    }

    @Test func effectParametersFollowTheirExpressions() throws {
        // Every expression gives a value other than its parameter's own `k`; the baked file has those values as
        // constants. Drawn alike, the expressions drove the effects.
        let expressions = try parse(String(decoding: try readAll(LayerEffectTests.folder + "/files/made-expressions.json"),
                                           as: UTF8.self))
        let baked = try parse(String(decoding: try readAll(LayerEffectTests.folder + "/files/made-expressions-baked.json"),
                                     as: UTF8.self))
        for frame in [0.0, 30] {
            let a = ours(expressions, frame: frame, width: 320, height: 200)
            let b = ours(baked, frame: frame, width: 320, height: 200)
            var differing = 0
            for i in 0..<a.pixelCount where a.pixels[i] != b.pixels[i] { differing += 1 }
            #expect(differing == 0, "frame \(frame): \(differing) pixels differ")
        }
        #expect(expressions.takeExpressionWarnings().isEmpty)
    }

    @Test func realFilesAgreeWithThorVGFrameByFrame() throws {
        let manifest = try JSONReader.parse(try readAll(LayerEffectTests.folder + "/manifest.json"))
        guard case .object(let root) = manifest, case .array(let files)? = root.first(where: { $0.key == "files" })?.value
        else { Issue.record("manifest.json has no files"); return }
        func field(_ o: [(key: String, value: JSONValue)], _ key: String) -> JSONValue? {
            o.first { $0.key == key }?.value
        }
        var checked = 0
        for case .object(let entry) in files {
            guard case .string(let name)? = field(entry, "name"), case .string(let file)? = field(entry, "file"),
                  case .array(let size)? = field(entry, "size"), case .number(let w)? = size.first,
                  case .number(let h)? = size.last, case .array(let frames)? = field(entry, "frames")
            else { Issue.record("a manifest entry is incomplete"); continue }
            let animation = try parse(String(decoding: try readAll(LayerEffectTests.folder + "/" + file), as: UTF8.self),
                                      file: file)
            for case .object(let f) in frames {
                guard case .number(let n)? = field(f, "frame"), case .string(let ref)? = field(f, "thorvg") else { continue }
                let reference = try PNG.read(from: LayerEffectTests.folder + "/" + ref)
                let canvas = ours(animation, frame: n, width: Int(w), height: Int(h))
                let d = LayerEffectTests.difference(canvas, reference)
                #expect(d.mean <= 2.0 && d.percentOver <= 2.0,
                        "\(name) frame \(Int(n)): mean \(d.mean), \(d.percentOver) % of pixels off by more than 32")
                checked += 1
            }
        }
        #expect(checked >= 60)
    }

    /// Ours over white and over black against a reference laid out as [over white | over black]: the mean
    /// channel difference and the % of pixels off by more than 32 in a channel, each the worse of the two.
    static func difference(_ ours: Canvas, _ reference: Canvas) -> (mean: Double, percentOver: Double) {
        var worstMean = 0.0, worstPercent = 0.0
        for (background, offset) in [(255, 0), (0, ours.width)] {
            var total = 0, over = 0
            for y in 0..<ours.height {
                // Row pointers and the three channels written out: the test runs unoptimised, and the largest
                // reference has 2.6 million pixels.
                let row = ours.pixels + y * ours.width, refRow = reference.pixels + y * reference.width + offset
                for x in 0..<ours.width {
                    let p = row[x], r = refRow[x], under = background * (255 - Int(p >> 24)) / 255
                    let dr = abs(Int((p >> 16) & 0xFF) + under - Int((r >> 16) & 0xFF))
                    let dg = abs(Int((p >> 8) & 0xFF) + under - Int((r >> 8) & 0xFF))
                    let db = abs(Int(p & 0xFF) + under - Int(r & 0xFF))
                    total += dr + dg + db
                    if dr > 32 || dg > 32 || db > 32 { over += 1 }
                }
            }
            let n = Double(ours.width * ours.height)
            worstMean = max(worstMean, Double(total) / (3 * n))
            worstPercent = max(worstPercent, Double(over) * 100 / n)
        }
        return (worstMean, worstPercent)
    }
}

@testable import Lab
@testable import Lottie
import Geometry
import Layers
import Motion
import Raster
import Refresh
import Testing
import TestSupport
import UserFiles

/// Numbers no integer holds, and the work of one frame: a hostile file gets one message, never a trap, a hang or a
/// process out of memory.
@Suite struct BudgetTests {
    /// Frames `first`, the middle one and `last` drawn at `size`² px: nil when all were drawn, else the error.
    static func draw(_ animation: LottieAnimation, size: Int = 24) -> LottieRenderError? {
        let canvas = Canvas(width: size, height: size), renderer = LottieRenderer()
        let fit = LottieRenderer.fitting(animation.size, into: canvas.bounds)
        for frame in [animation.inPoint, (animation.inPoint + animation.outPoint) / 2, animation.outPoint - 1] {
            do {
                try renderer.render(animation, frame: frame, into: canvas, transform: fit)
            } catch {
                return error
            }
        }
        return nil
    }

    // MARK: Numbers out of range

    /// The places of the numbers in a JSON text (outside strings), as ranges of its characters.
    static func numberPlaces(_ json: [UInt8]) -> [Range<Int>] {
        var places: [Range<Int>] = [], i = 0, inString = false
        while i < json.count {
            let c = json[i]
            if inString {
                if c == UInt8(ascii: "\\") { i += 1 } else if c == UInt8(ascii: "\"") { inString = false }
                i += 1
                continue
            }
            if c == UInt8(ascii: "\"") {
                inString = true
                i += 1
            } else if c == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) {
                let start = i
                while i < json.count, "-+.eE0123456789".utf8.contains(json[i]) { i += 1 }
                places.append(start..<i)
            } else {
                i += 1
            }
        }
        return places
    }

    /// Infinite once parsed (1e309), and finite but past any integer a frame could use.
    static let hostileNumbers = ["1e309", "-1e309", "1e300", "-1e300", "9.3e18", "-9.3e18"]

    /// A star whose point count is keyframed from the placeholder to 5: between them the count is ∞ − ∞, NaN.
    static let keyframedStar = Lot.composition(op: 10, layers: [
        Lot.shapeLayer("star", [Lot.group([
            Lot.star([50, 50], points: Lot.animated([Lot.Key(t: 0, s: 424242), Lot.Key(t: 10, s: 5)]), outer: 40,
                     inner: 20),
            Lot.fill(Fixtures.red),
        ])], op: 10),
    ])

    /// The test files with the number at `place` replaced by `value`: parsed, then three frames drawn; true when it
    /// was drawn or refused with a message.
    static func survives(_ json: [UInt8], replacing place: Range<Int>, with value: String) -> Bool {
        var bytes = json
        bytes.replaceSubrange(place, with: Array(value.utf8))
        let animation: LottieAnimation
        do {
            animation = try LottieFile.parse(bytes, file: "hostile.json")
        } catch {
            return error.description.hasPrefix("hostile.json:") && error.description.count > "hostile.json:1:1: ".count
        }
        if let error = draw(animation) { return !error.layer.isEmpty && !error.reason.isEmpty }
        return true
    }

    static var sweepSources: [(name: String, json: [UInt8])] {
        (Fixtures.compared + [("mattes", Fixtures.mattes), ("keyframed star", keyframedStar),
                              ("keyframed opacities", keyframedOpacities)])
            .map { ($0.name, Array($0.json.utf8)) }
    }

    @Test func aStarKeyframedToInfinityDrawsWithoutTrapping() throws {
        for value in BudgetTests.hostileNumbers {
            let json = BudgetTests.keyframedStar.replacing("424242", with: value)
            let animation = try parse(json)
            let canvas = Canvas(width: 32, height: 32), renderer = LottieRenderer()
            for frame in 0...10 { try renderer.render(animation, frame: Double(frame), into: canvas) }
        }
    }

    /// Opacities keyframed from the placeholder to 50 on a layer, its mask, its matte and its blend: NaN between.
    static let keyframedOpacities: String = {
        let fade = Lot.animated([Lot.Key(t: 0, s: 424242), Lot.Key(t: 10, s: 50)])
        let square: J = ["i": [[0, 0], [0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0], [0, 0]],
                         "v": [[10, 10], [90, 10], [90, 90], [10, 90]], "c": .bool(true)]
        let mask: J = ["inv": .bool(false), "mode": "a", "pt": Lot.value(square), "o": fade, "nm": "mask"]
        return Lot.composition(op: 10, layers: [
            Lot.shapeLayer("matte", [Lot.group([Lot.ellipse([50, 50], [60, 60]), Lot.fill([1, 1, 1, 1])])],
                           ks: Lot.transform(animated: ["o": fade]), ind: 1, op: 10, extra: [("td", 1)]),
            ["ddd": 0, "ind": 2, "ty": 1, "nm": "faded", "sr": 1, "ks": Lot.transform(animated: ["o": fade]),
             "ao": 0, "hasMask": .bool(true), "masksProperties": [mask], "sw": 100, "sh": 100, "sc": "#3366e6",
             "ip": 0, "op": 10, "st": 0, "bm": 1, "tt": 1],
        ])
    }()

    @Test func opacitiesKeyframedToInfinityDrawWithoutTrapping() throws {
        for value in BudgetTests.hostileNumbers {
            let animation = try parse(BudgetTests.keyframedOpacities.replacing("424242", with: value))
            let canvas = Canvas(width: 32, height: 32), renderer = LottieRenderer()
            for frame in 0...10 { try renderer.render(animation, frame: Double(frame), into: canvas) }
        }
    }

    /// Two hundred numbers of the test files, drawn with a fixed seed, each replaced in turn by an infinite or a
    /// huge value. The exhaustive sweep over every number is a long test.
    @Test func anyNumberReplacedByAnInfiniteOrHugeOneDrawsOrIsRefused() {
        var random = SeededRandom(seed: 23)
        let sources = BudgetTests.sweepSources
        for _ in 0..<200 {
            let source = sources[random.int(in: 0...sources.count - 1)]
            let places = BudgetTests.numberPlaces(source.json)
            let place = places[random.int(in: 0...places.count - 1)]
            let value = BudgetTests.hostileNumbers[random.int(in: 0...BudgetTests.hostileNumbers.count - 1)]
            #expect(BudgetTests.survives(source.json, replacing: place, with: value),
                    "\(source.name): \(String(decoding: source.json[place], as: UTF8.self)) → \(value)")
        }
    }

    @Test(.enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"))
    func everyNumberReplacedByAnInfiniteOrHugeOneDrawsOrIsRefused() {
        for source in BudgetTests.sweepSources {
            for place in BudgetTests.numberPlaces(source.json) {
                for value in BudgetTests.hostileNumbers {
                    #expect(BudgetTests.survives(source.json, replacing: place, with: value),
                            "\(source.name): \(String(decoding: source.json[place], as: UTF8.self)) → \(value)")
                }
            }
        }
    }

    @Test func theSweepFindsTheNumbersOfAFile() {
        let places = BudgetTests.numberPlaces(Array("{\"a\": [1, -2.5e3], \"b\": \"7\", \"c\": 0}".utf8))
        #expect(places == [7..<8, 10..<16, 34..<35])
    }

    // MARK: Layers drawn in one frame

    /// A main composition showing `copies` precompositions, each showing `copies` of the next, `levels` deep, the
    /// last holding a square; with `bounds`, every precomposition is clipped to 100×100 (one offscreen canvas).
    static func fanOut(copies: Int, levels: Int, bounds: Bool = false) -> String {
        func showing(_ level: Int) -> [J] {
            (0..<copies).map { n in
                var layer: J = ["ddd": 0, "ind": .number(Double(n + 1)), "ty": 0,
                                "nm": .string("level \(level) copy \(n + 1)"), "refId": .string("c\(level)"),
                                "sr": 1, "ks": Lot.transform(p: [.number(Double(n)), 0]), "ao": 0, "ip": 0,
                                "op": 60, "st": 0, "bm": 0]
                if bounds { layer = layer.with("w", 100).with("h", 100) }
                return layer
            }
        }
        var assets: [J] = []
        for level in 1...levels {
            let layers = level == levels
                ? [Lot.shapeLayer("square", [Lot.group([Lot.rect([50, 50], [40, 40]), Lot.fill(Fixtures.red)])])]
                : showing(level + 1)
            assets.append(["id": .string("c\(level)"), "layers": .array(layers)])
        }
        return Lot.composition(layers: showing(1), assets: assets)
    }

    @Test func threeCopiesSixteenDeepAreRefusedAtOnceNamingALayer() throws {
        let start = ContinuousClock.now
        let e = try #require(throws: LottieFileError.self) { _ = try parse(BudgetTests.fanOut(copies: 3, levels: 16)) }
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(e.description.hasPrefix("test.json:1:"), "\(e)")
        #expect(e.description.contains("layer 'level ") && e.description.contains("10000 layer draws"), "\(e)")
    }

    @Test func twoCopiesFiveDeepAreDrawn() throws {
        let animation = try parse(BudgetTests.fanOut(copies: 2, levels: 5))
        #expect(BudgetTests.draw(animation) == nil)
        // Through the canvas, which keeps its pixels alive while they are read.
        let canvas = ours(animation, frame: 0, width: 50, height: 50)
        #expect(canvas[25, 25] != 0)
    }

    /// A file the reader let through (a model changed after it was read, a budget lowered) is stopped while it is
    /// drawn, naming the layer at which the count passed.
    @Test func aFramePastItsLayerDrawsStopsNamingTheLayer() throws {
        let animation = try parse(BudgetTests.fanOut(copies: 2, levels: 5))
        let renderer = LottieRenderer()
        renderer.layerDrawBudget = 20
        let e = try #require(throws: LottieRenderError.self) {
            try renderer.render(animation, frame: 0, into: Canvas(width: 20, height: 20))
        }
        #expect(e.layer.hasPrefix("level ") || e.layer == "square", "\(e)")
        #expect(e.reason.contains("more than 20 layers"), "\(e)")
        // The next frame within the budget is drawn whole.
        renderer.layerDrawBudget = LottieRenderer.maxLayerDraws
        try renderer.render(animation, frame: 0, into: Canvas(width: 20, height: 20))
    }

    // MARK: Offscreen memory in one frame

    /// Sixteen precompositions nested, each clipped to its bounds: within every limit of the reader, but sixteen
    /// canvases of the frame's size alive at once.
    @Test func nestedBoundsPastTheMemoryBudgetAreRefusedBeforeDrawing() throws {
        let animation = try parse(BudgetTests.fanOut(copies: 1, levels: 16, bounds: true))
        #expect(animation.offscreenChain.count == 16)
        // 4096² px is 64 MB a canvas: eight fit in the budget, the ninth is the layer named.
        let start = ContinuousClock.now
        let e = try #require(throws: LabError.self) {
            try LottieFile.render(animation, frame: 0, width: 4096, height: 4096)
        }
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(e.description.contains("layer 'level 9 copy 1'") && e.description.contains("16 offscreen canvases")
                && e.description.contains("512 MB"), "\(e)")
        // Small, the same file is drawn.
        #expect(BudgetTests.draw(animation, size: 64) == nil)
    }

    /// Past the check made when the file was read, the canvases are counted as they are taken.
    @Test func aFramePastItsOffscreenBytesStopsNamingTheLayer() throws {
        var animation = try parse(BudgetTests.fanOut(copies: 1, levels: 16, bounds: true))
        animation.offscreenChain = []
        let renderer = LottieRenderer()
        renderer.offscreenByteBudget = 5 * 64 * 64 * 4
        let e = try #require(throws: LottieRenderError.self) {
            try renderer.render(animation, frame: 0, into: Canvas(width: 64, height: 64))
        }
        #expect(e.layer == "level 6 copy 1" && e.reason.contains("6 offscreen canvases"), "\(e)")
    }

    @Test func aFramePastTheBudgetNamesTheFrameAndTheLayer() throws {
        let animation = try parse(BudgetTests.fanOut(copies: 1, levels: 16, bounds: true))
        let e = try #require(throws: LabError.self) {
            try LottieFile.render(animation, frame: 0, width: 8192, height: 8192)
        }
        #expect(e.description.hasPrefix("frame 0: layer 'level 3 copy 1': "), "\(e)")
    }

    /// The header cannot throw from drawing: it keeps the error for the lab to show, and clears it once a frame is
    /// drawn whole again.
    @Test func theHeaderKeepsWhyItsFrameWasCutShort() throws {
        let fine = try parse(BudgetTests.fanOut(copies: 3, levels: 7))
        var doubled = fine
        doubled.layers += doubled.layers  // 10,932 draws, past the budget only after the reader's check
        let effect = LottieEffect(animation: doubled)
        effect.update(pull: RefreshPull(distance: 60, progress: 1, isDragging: true, time: 0,
                                        headerSize: Size(375, 60)))
        let canvas = Canvas(width: 375, height: 60)
        LayerRenderer().render(effect.layer, into: canvas, at: 0, transform: .identity)
        let e = try #require(effect.renderError)
        #expect(e.layer.hasPrefix("level ") || e.layer == "square", "\(e)")
        #expect(e.reason.contains("more than 10000 layers"), "\(e)")
        effect.animation = fine
        LayerRenderer().render(effect.layer, into: canvas, at: 0, transform: .identity)
        #expect(effect.renderError == nil)
    }

    @Test("Repeaters of repeaters are bounded: a million copies asked for are 1000 a repeater and 100,000 paths a layer, gathered in bounded time")
    func repeatedRepeatersAreBounded() throws {
        let items: [ShapeItem] = [
            .rectangle(position: .constant([5, 5]), size: .constant([10, 10]), roundness: .constant([0]), reversed: false),
            .repeater(Repeater(copies: .constant([1e6]), offset: .constant([0]), above: true,
                               transform: .identity, startOpacity: .constant([100]), endOpacity: .constant([100]))),
            .repeater(Repeater(copies: .constant([1e6]), offset: .constant([0]), above: true,
                               transform: .identity, startOpacity: .constant([100]), endOpacity: .constant([100]))),
        ]
        #expect(Repeater(copies: .constant([1e6]), offset: .constant([0]), above: true, transform: .identity,
                         startOpacity: .constant([100]), endOpacity: .constant([100])).count(at: 0) == Repeater.maxCopies)
        var scene = ShapeScene()
        let start = ExpressionTests.threadSeconds()
        scene.collect(items, frame: 0, matrix: .identity, opacity: 1)
        #expect(scene.count <= ShapeScene.maxShapes && scene.count >= ShapeScene.maxShapes - Repeater.maxCopies)
        // About 1.4 s of this thread's processor time in a debug build (the wall clock is longer while other tests
        // or builds share the cores): the limit catches a hang or a cost that grows with the copies asked for.
        #expect(ExpressionTests.threadSeconds() - start < 5 * timeLimitScale)
    }
}

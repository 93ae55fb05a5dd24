#if canImport(Glibc)
import Glibc
#endif
import Geometry
@testable import Lottie
import Raster
import Testing
import TestSupport

/// A layer drawn offscreen (masks, mattes, opacity, a precomposition's bounds) is worked only where it can show.
/// Partly or wholly outside the canvas, its pixels are the ones worked out by hand or by the whole-canvas steps;
/// and a renderer that reuses its canvases from frame to frame draws what a new one draws.
@Suite struct GroupRegionTests {
    typealias K = Lot.Key

    // Made on each use: LeakSanitizer cannot follow the tagged pointers a static of this enum would keep.
    static var backdrop: J {
        ["ddd": 0, "ind": 9, "ty": 1, "nm": "backdrop", "sr": 1, "ks": Lot.transform(), "ao": 0,
         "sw": 100, "sh": 100, "sc": "#3366e6", "ip": 0, "op": 60, "st": 0, "bm": 0]
    }

    /// A mask of straight sides through `v`.
    static func mask(_ mode: String, _ v: [Point], o: Double = 100, inverted: Bool = false) -> J {
        let zero = [J](repeating: [0, 0], count: v.count)
        let points = v.map { J.array([.number($0.x), .number($0.y)]) }
        return ["inv": .bool(inverted), "mode": .string(mode),
                "pt": Lot.value(["i": .array(zero), "o": .array(zero), "v": .array(points), "c": .bool(true)]),
                "o": Lot.value(.number(o)), "x": Lot.value(0), "nm": "mask"]
    }

    static func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [Point] {
        [Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1)]
    }

    /// A square of side `side` around `c`, turned by `degrees`.
    static func turned(_ c: Point, _ side: Double, _ degrees: Double) -> [Point] {
        let a = degrees * .pi / 180, h = side / 2
        return [Point(-h, -h), Point(h, -h), Point(h, h), Point(-h, h)].map {
            Point(c.x + $0.x * cos(a) - $0.y * sin(a), c.y + $0.x * sin(a) + $0.y * cos(a))
        }
    }

    /// A white square from −100 to 200 (past every side of the canvas) with `masks`, over the blue backdrop.
    static func masked(_ masks: [J], opacity: Double = 100) -> String {
        var layer = Lot.shapeLayer("white", [Lot.group([Lot.rect([50, 50], [300, 300]), Lot.fill([1, 1, 1, 1])])],
                                   ks: Lot.transform(o: .number(opacity)))
        if !masks.isEmpty { layer = layer.with("hasMask", .bool(true)).with("masksProperties", .array(masks)) }
        return Lot.composition(layers: [layer, backdrop])
    }

    func render(_ json: String, frame: Double = 0) throws -> Canvas {
        ours(try parse(json), frame: frame, width: 100, height: 100)
    }

    /// Every pixel: `inside` where `shows` holds, the backdrop elsewhere.
    func expectPixels(_ c: Canvas, inside: UInt32, where shows: (Int, Int) -> Bool,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let blue = try render(Lot.composition(layers: [GroupRegionTests.backdrop]))[0, 0]
        var wrong = 0
        for y in 0..<c.height {
            for x in 0..<c.width where c[x, y] != (shows(x, y) ? inside : blue) { wrong += 1 }
        }
        #expect(wrong == 0, "\(wrong) pixels differ", sourceLocation: sourceLocation)
    }

    @Test func aMaskPartlyOffTheCanvasKeepsExactlyItsPixels() throws {
        // Whole-pixel sides: coverage is all or nothing.
        let left = GroupRegionTests.mask("a", GroupRegionTests.box(-30, 20, 40, 130))
        let c = try render(GroupRegionTests.masked([left]))
        try expectPixels(c, inside: 0xFFFF_FFFF) { x, y in x < 40 && y >= 20 }
        // At half opacity the group is put down scaled, over the backdrop.
        let corner = GroupRegionTests.mask("a", GroupRegionTests.box(60, -10, 130, 50))
        let half = try render(GroupRegionTests.masked([corner], opacity: 50))
        let blue = half[0, 99]
        try expectPixels(half, inside: Pixel.sourceOver(Pixel.scale(0xFFFF_FFFF, by: 128), blue)) { x, y in
            x >= 60 && y < 50
        }
    }

    @Test func aLayerWhoseMasksLieOffTheCanvasChangesNothing() throws {
        let off = GroupRegionTests.box(150, 150, 200, 220)
        let away = GroupRegionTests.masked([GroupRegionTests.mask("a", off)])
        try expectPixels(try render(away), inside: 0) { _, _ in false }
        // Intersected with a mask off the canvas, an added one on it leaves nothing either.
        let cut = [GroupRegionTests.mask("a", GroupRegionTests.box(10, 10, 90, 90)), GroupRegionTests.mask("i", off)]
        try expectPixels(try render(GroupRegionTests.masked(cut)), inside: 0) { _, _ in false }
        // Inverted, a mask off the canvas keeps all of it.
        let inverted = GroupRegionTests.masked([GroupRegionTests.mask("a", off, inverted: true)])
        try expectPixels(try render(inverted), inside: 0xFFFF_FFFF) { _, _ in true }
    }

    /// A red square over the canvas through a matte of `tt` that covers `matte`.
    static func matted(_ tt: Int, _ matte: (Double, Double, Double, Double)) -> String {
        let w = matte.2 - matte.0, h = matte.3 - matte.1
        return Lot.composition(layers: [
            Lot.shapeLayer("matte", [Lot.group([Lot.rect([.number(matte.0 + w / 2), .number(matte.1 + h / 2)],
                                                         [.number(w), .number(h)]),
                                                Lot.fill([1, 1, 1, 1])])], ind: 1, extra: [("td", 1)]),
            Lot.shapeLayer("red", [Lot.group([Lot.rect([50, 50], [140, 140]), Lot.fill([1, 0, 0, 1])])], ind: 2,
                           extra: [("tt", .number(Double(tt)))]),
            backdrop,
        ])
    }

    @Test func aMattePartlyOrWhollyOffTheCanvas() throws {
        let red: UInt32 = 0xFFFF_0000
        try expectPixels(try render(GroupRegionTests.matted(1, (60, -20, 160, 70))), inside: red) { x, y in
            x >= 60 && y < 70
        }
        try expectPixels(try render(GroupRegionTests.matted(2, (60, -20, 160, 70))), inside: red) { x, y in
            !(x >= 60 && y < 70)
        }
        // Luma: white lets everything through.
        try expectPixels(try render(GroupRegionTests.matted(3, (-50, 30, 20, 200))), inside: red) { x, y in
            x < 20 && y >= 30
        }
        let off = (120.0, 120.0, 180.0, 180.0)
        try expectPixels(try render(GroupRegionTests.matted(1, off)), inside: red) { _, _ in false }
        try expectPixels(try render(GroupRegionTests.matted(2, off)), inside: red) { _, _ in true }
    }

    @Test func aPrecompositionsBoundsPartlyOffTheCanvas() throws {
        func placed(at p: J) -> String {
            let precomp: J = ["ddd": 0, "ind": 1, "ty": 0, "nm": "precomp", "refId": "inner", "sr": 1,
                              "ks": Lot.transform(p: p), "ao": 0, "w": 100, "h": 100, "ip": 0, "op": 60, "st": 0,
                              "bm": 0]
            let inner = Lot.shapeLayer("red", [Lot.group([Lot.rect([0, 0], [400, 400]), Lot.fill([1, 0, 0, 1])])])
            return Lot.composition(layers: [precomp, GroupRegionTests.backdrop],
                                   assets: [["id": "inner", "layers": [inner]]])
        }
        // Its 100 × 100 bounds placed at (50, 50): only the canvas's bottom-right quarter shows its contents.
        try expectPixels(try render(placed(at: [50, 50])), inside: 0xFFFF_0000) { x, y in x >= 50 && y >= 50 }
        // Moved wholly off the canvas, it shows nothing.
        try expectPixels(try render(placed(at: [150, 50])), inside: 0) { _, _ in false }
    }

    /// Turned masks of every mode, partly off the canvas, under a turned square at 80 %: the pixels are those of
    /// the whole-canvas steps, worked here from the unmasked layer, each mask's whole coverage and the
    /// combination the renderer documents.
    @Test func turnedMasksOfEveryModeGiveTheWholeCanvasPixels() throws {
        let masks = [GroupRegionTests.mask("a", GroupRegionTests.turned(Point(20, 40), 90, 30)),
                     GroupRegionTests.mask("a", GroupRegionTests.turned(Point(90, 90), 40, 10), o: 60, inverted: true),
                     GroupRegionTests.mask("s", GroupRegionTests.turned(Point(30, 30), 25, 45), o: 70),
                     GroupRegionTests.mask("i", GroupRegionTests.turned(Point(40, 60), 110, -20))]
        func layer(_ masks: [J], opacity: Double) -> J {
            var l = Lot.shapeLayer("star", [Lot.group([Lot.star([45, 50], points: 5, outer: 80, inner: 35, r: 12),
                                                       Lot.fill([0.9, 0.6, 0.1, 1])])],
                                   ks: Lot.transform(o: .number(opacity)))
            if !masks.isEmpty { l = l.with("hasMask", .bool(true)).with("masksProperties", .array(masks)) }
            return l
        }
        let animation = try parse(Lot.composition(layers: [layer(masks, opacity: 80), GroupRegionTests.backdrop]))
        let ours = try render(Lot.composition(layers: [layer(masks, opacity: 80), GroupRegionTests.backdrop]))

        let content = try render(Lot.composition(layers: [layer([], opacity: 100)]))
        let expected = try render(Lot.composition(layers: [GroupRegionTests.backdrop]))
        let n = 100 * 100
        let list = animation.layers[0].masks
        var acc = [Float](repeating: list[0].mode == .subtract ? 1 : 0, count: n)
        for mask in list {
            var path = Path()
            mask.path.append(at: 0, to: &path, reversed: false, transform: .identity)
            let filler = MaskRasterizer()
            let bytes = try #require(filler.fill(path, width: 100, height: 100))
            let o = Float(min(max(mask.opacity.scalar(at: 0) / 100, 0), 1))
            for i in 0..<n {
                var m = Float(bytes[i]) / 255
                if mask.inverted { m = 1 - m }
                m *= o
                switch mask.mode {
                case .add: acc[i] = acc[i] + m - acc[i] * m
                case .subtract: acc[i] *= 1 - m
                case .intersect: acc[i] *= m
                case .none: break
                }
            }
        }
        for i in 0..<n {
            let a = UInt32((acc[i] * 255).rounded())
            if a < 255 { content.pixels[i] = a == 0 ? 0 : Pixel.scale(content.pixels[i], by: a) }
        }
        expected.composite(content, in: expected.pixelBox, opacity: 0.8)
        var wrong = 0, shown = 0
        for i in 0..<n {
            if ours.pixels[i] != expected.pixels[i] { wrong += 1 }
            if content.pixels[i] != 0 { shown += 1 }
        }
        #expect(wrong == 0)
        #expect(shown > 1000 && shown < n - 1000, "\(shown) pixels masked in")
    }

    /// Masked, matted and half-transparent layers that move, and a precomposition's bounds: one renderer drawing the
    /// frames in any order, reusing its canvases, draws each as a new renderer does.
    @Test func reusedCanvasesLeaveNothingBehind() throws {
        let moving = Lot.animated([K(t: 0, s: [-40, 10]), K(t: 59, s: [90, 70])])
        let masked = Lot.shapeLayer("masked", [Lot.group([Lot.rect([50, 50], [300, 300]), Lot.fill([1, 1, 1, 1])])],
                                    ks: Lot.transform(animated: ["p": moving]), ind: 1)
            .with("hasMask", .bool(true))
            .with("masksProperties", [GroupRegionTests.mask("a", GroupRegionTests.turned(Point(0, 0), 50, 20))])
        let inner = Lot.shapeLayer("faded", [Lot.group([Lot.ellipse([0, 0], [60, 40]), Lot.fill([0, 0.8, 0.3, 1])])],
                                   ks: Lot.transform(o: 60, animated: ["p": Lot.animated([K(t: 0, s: [100, 0]),
                                                                                           K(t: 59, s: [0, 100])])]))
        let precomp: J = ["ddd": 0, "ind": 2, "ty": 0, "nm": "precomp", "refId": "inner", "sr": 1,
                          "ks": Lot.transform(p: [20, 20], r: 15), "ao": 0, "w": 70, "h": 70, "ip": 0, "op": 60,
                          "st": 0, "bm": 0]
        let json = Lot.composition(layers: [
            masked, precomp,
            Lot.shapeLayer("matte", [Lot.group([Lot.ellipse([0, 0], [50, 50]), Lot.fill([1, 1, 1, 1])])],
                           ks: Lot.transform(animated: ["p": Lot.animated([K(t: 0, s: [110, 50]),
                                                                           K(t: 59, s: [-20, 60])])]),
                           ind: 3, extra: [("td", 1)]),
            Lot.shapeLayer("red", [Lot.group([Lot.rect([50, 50], [100, 100]), Lot.fill([1, 0, 0, 1])])], ind: 4,
                           extra: [("tt", 1)]),
            GroupRegionTests.backdrop,
        ], assets: [["id": "inner", "layers": [inner]]])
        let animation = try parse(json)
        let renderer = LottieRenderer()
        for (n, frame) in [0.0, 40, 12, 59, 25, 3, 50].enumerated() {
            // A size between changes the canvases kept; the same size again reuses them.
            let side = n == 4 ? 64 : 100
            let canvas = Canvas(width: side, height: side)
            let fit = LottieRenderer.fitting(animation.size, into: canvas.bounds)
            try renderer.render(animation, frame: frame, into: canvas, transform: fit)
            let fresh = Canvas(width: side, height: side)
            try LottieRenderer().render(animation, frame: frame, into: fresh, transform: fit)
            let same = (0..<(side * side)).allSatisfy { canvas.pixels[$0] == fresh.pixels[$0] }
            #expect(same, "frame \(frame)")
        }
    }

    /// The renderer's rounding without the library call is `rounded()` exactly: at, just below and just above
    /// every half, and on random values.
    @Test func roundingWithoutTheLibraryIsRounded() {
        var values: [Float] = [0, 0.5, 1, 254.5, 255]
        for k in 0..<256 {
            let half = Float(k) + 0.5
            values += [half, half.nextDown, half.nextUp, Float(k), Float(k).nextUp]
        }
        var g = SeededRandom(seed: 3)
        for _ in 0..<10_000 { values.append(Float(g.double(in: 0...255))) }
        for v in values { #expect(LottieRenderer.rounded(v) == UInt32(v.rounded()), "\(v)") }
    }
}

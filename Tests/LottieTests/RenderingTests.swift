#if canImport(Glibc)
import Glibc
#endif
import Geometry
@testable import Lab
@testable import Lottie
import Motion
import Raster
import Testing

/// What rlottie does not show as lottie-web does, checked against values worked out by hand, at one pixel per unit.
@Suite struct RenderingTests {
    typealias K = Lot.Key

    func render(_ layers: [J], assets: [J] = [], frame: Double = 0) throws -> Canvas {
        ours(try parse(Lot.composition(layers: layers, assets: assets)), frame: frame, width: 100, height: 100)
    }

    func alpha(_ c: Canvas, _ x: Int, _ y: Int) -> Int { Int(c[x, y] >> 24) }

    @Test func nothingIsDrawnOutsideTheComposition() throws {
        // A square from −50 to 150 in a 100 × 100 composition, fitted into 200 × 100 px: the composition takes
        // x 50…150, and only that is drawn, as lottie-web clips its root to the composition's rectangle.
        let json = Lot.composition(layers: [Lot.shapeLayer("big", [Lot.group([Lot.rect([50, 50], [200, 200]),
                                                                                Lot.fill(Fixtures.red)])])])
        let c = ours(try parse(json), frame: 0, width: 200, height: 100)
        #expect(alpha(c, 49, 50) == 0 && alpha(c, 50, 50) == 255 && alpha(c, 149, 50) == 255 && alpha(c, 150, 50) == 0)
    }

    @Test func skewLeansAlongItsAxis() throws {
        // Skew 45° on axis 0: x' = x − y, so the square's bottom edge moves 20 left of its top.
        let layer = Lot.shapeLayer("skewed", [Lot.group([Lot.rect([10, 10], [20, 20]), Lot.fill(Fixtures.red)])],
                                   ks: Lot.transform(p: [40, 40]).with("sk", Lot.value(45)).with("sa", Lot.value(0)))
        let c = try render([layer])
        #expect(alpha(c, 41, 41) == 255 && alpha(c, 57, 41) == 255)  // near the top: x 39…59
        #expect(alpha(c, 24, 58) == 255 && alpha(c, 45, 58) == 0)    // near the bottom: x 22…42
    }

    @Test func easingPerDimensionAndHoldKeyframes() throws {
        var key = Keyframe<[Double]>(time: 0, value: [0, 0], endValue: nil, hold: false,
                                     easing: [.linear, TimingFunction(controlPoints: 1, 0, 1, 0)],
                                     outTangent: nil, inTangent: nil)
        var end = key
        end.time = 10
        end.value = [100, 100]
        let eased = Animated(keyframes: [key, end])
        let v = eased.value(at: 5)
        #expect(v[0] == 50)
        #expect(v[1] < 10)  // its own curve, slow at first, not the first dimension's
        key.hold = true
        #expect(Animated(keyframes: [key, end]).value(at: 9.9) == [0, 0])
        #expect(Animated(keyframes: [key, end]).value(at: 10) == [100, 100])
    }

    @Test func positionFollowsSpatialTangentsByLength() throws {
        // From (0, 0) to (100, 0) with tangents (0, −50) and (0, −50): a symmetric arch whose middle by length
        // is the curve's middle, (50, −37.5).
        let a = Keyframe<[Double]>(time: 0, value: [0, 0], endValue: nil, hold: false, easing: [.linear],
                                   outTangent: Point(0, -50), inTangent: Point(0, -50))
        let b = Keyframe<[Double]>(time: 10, value: [100, 0], endValue: nil, hold: false, easing: [],
                                   outTangent: nil, inTangent: nil)
        let mid = Animated(keyframes: [a, b]).value(at: 5)
        #expect(abs(mid[0] - 50) < 0.01 && abs(mid[1] + 37.5) < 0.01, "\(mid)")
        // A quarter of the way by time is a quarter of the way by length, which is not a quarter of the parameter.
        let quarter = Animated(keyframes: [a, b]).value(at: 2.5)
        #expect(quarter[1] < -20 && quarter[0] < 20, "\(quarter)")
    }

    @Test func starsTurnClockwiseFromStraightUp() throws {
        // A polygon of 3 points, radius 30, turned 90°: its first point is on the right, at (80, 50).
        let layer = Lot.shapeLayer("tri", [Lot.group([Lot.star([50, 50], points: 3, outer: 30, inner: 0, r: 90,
                                                               polygon: true), Lot.fill(Fixtures.red)])])
        let c = try render([layer])
        // The other two points are at (35, 24) and (35, 76): the left side is the line x = 35.
        #expect(alpha(c, 77, 50) == 255 && alpha(c, 50, 22) == 0 && alpha(c, 37, 50) == 255 && alpha(c, 33, 50) == 0)
    }

    /// A polystar as lottie-web builds it, written out here from its rule: points at `radii` in turn from straight
    /// up, clockwise, each with tangents across its radius of length roundness × 2πr / (4 × points).
    func expectedStar(points: Int, radii: [Double], roundness: [Double]) -> Path {
        let n = points * radii.count
        var vertices: [Point] = [], across: [Point] = []
        for i in 0..<n {
            let a = -Double.pi / 2 + 2 * Double.pi * Double(i) / Double(n)
            let r = radii[i % radii.count]
            let k = roundness[i % radii.count] * 2 * Double.pi * r / Double(4 * points)
            vertices.append(Point(50 + r * cos(a), 50 + r * sin(a)))
            across.append(Point(-sin(a), cos(a)) * k)  // clockwise, across the radius
        }
        var path = Path()
        path.move(to: vertices[0])
        for i in 0..<n {
            let j = (i + 1) % n
            path.cubic(to: vertices[j], control1: vertices[i] + across[i], control2: vertices[j] - across[j])
        }
        path.close()
        return path
    }

    func coverage(_ c: Canvas) -> Double {
        var sum = 0.0
        for y in 0..<c.height { for x in 0..<c.width { sum += Double(c[x, y] >> 24) / 255 } }
        return sum
    }

    @Test func polygonAndStarRoundnessAsLottieWeb() throws {
        func draw(_ star: J) throws -> Canvas {
            try render([Lot.shapeLayer("star", [Lot.group([star, Lot.fill([0, 0, 0, 1])])])])
        }
        func reference(_ path: Path) -> Canvas {
            let c = Canvas(width: 100, height: 100)
            Rasterizer().fill(path, color: .black, into: c)
            return c
        }
        func worst(_ a: Canvas, _ b: Canvas) -> Int {
            var m = 0
            for y in 0..<100 { for x in 0..<100 { m = max(m, abs(Int(a[x, y] >> 24) - Int(b[x, y] >> 24))) } }
            return m
        }
        // A square polygon of radius 40 round (50, 50): at 100 % roundness each point's tangents are 2π·40 / 16
        // = 5π long, the top point (50, 10) leaving toward (50 + 5π, 10).
        let polygon = Lot.star([50, 50], points: 4, outer: 40, inner: 0, polygon: true)
        let sharp = try draw(polygon)
        let round = try draw(polygon.with("os", Lot.value(100)))
        #expect(abs(coverage(sharp) - 3200) < 4, "a diamond of half-diagonal 40")
        #expect(worst(round, reference(expectedStar(points: 4, radii: [40], roundness: [1]))) <= 2)
        // Rounder than the diamond, short of the circle.
        #expect(coverage(round) > 3600 && coverage(round) < Double.pi * 1600)

        // A five-pointed star, radii 40 and 20, outer roundness 30 % and inner 100 %.
        let star = Lot.star([50, 50], points: 5, outer: 40, inner: 20).with("os", Lot.value(30))
            .with("is", Lot.value(100))
        #expect(worst(try draw(star), reference(expectedStar(points: 5, radii: [40, 20], roundness: [0.3, 1]))) <= 2)
    }

    @Test func blendModesOnTheLayersComposite() throws {
        // A solid (0.5, 0.5, 1) over a solid (0.8, 0.6, 0.4), each channel worked out by hand (W3C formulas over
        // an opaque backdrop: the result is B(backdrop, source), mixed with the backdrop by the layer's opacity).
        func solid(_ color: String, bm: Int, o: Double = 100, width: Double = 100) -> J {
            ["ddd": 0, "ty": 1, "nm": "solid", "ks": Lot.transform(o: .number(o)), "sw": .number(width), "sh": 100,
             "sc": .string(color), "ip": 0, "op": 60, "st": 0, "bm": .number(Double(bm))]
        }
        func pixel(_ bm: Int, o: Double = 100) throws -> [Int] {
            let c = try render([solid("#8080ff", bm: bm, o: o), solid("#cc9966", bm: 0)])
            let p = c[50, 50]
            return [Int(p >> 16) & 0xFF, Int(p >> 8) & 0xFF, Int(p) & 0xFF, Int(p >> 24)]
        }
        func near(_ a: [Int], _ b: [Int]) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) <= 1 } }
        // #8080ff is (128, 128, 255), #cc9966 (204, 153, 102).
        #expect(near(try pixel(1), [102, 77, 102, 255]), "multiply")           // 204·128/255, 153·128/255, 102
        #expect(near(try pixel(2), [230, 204, 255, 255]), "screen")            // b + s − b·s
        #expect(near(try pixel(3), [204, 153, 204, 255]), "overlay")           // b > ½: screen(2b − 1, s); b ≤ ½: 2bs
        #expect(near(try pixel(4), [128, 128, 102, 255]), "darken")
        #expect(near(try pixel(5), [204, 153, 255, 255]), "lighten")
        #expect(near(try pixel(10), [76, 25, 153, 255]), "difference")
        #expect(near(try pixel(1, o: 50), [153, 115, 102, 255]), "multiply at 50 % opacity")
        // Over nothing, a blended layer is itself.
        let alone = try render([solid("#8080ff", bm: 1)])
        #expect(alone[50, 50] & 0xFFFFFF == 0x8080FF && alone[50, 50] >> 24 == 255)
        // An unsupported mode is drawn as normal and named.
        let animation = try parse(Lot.composition(layers: [solid("#8080ff", bm: 7), solid("#cc9966", bm: 0)]))
        #expect(animation.warning?.contains("blend modes other than") == true)
    }

    @Test func radialHighlightMovesTheFocus() throws {
        // Black at the focus to white on the circle: centre (50, 50), radius 40 toward (90, 50). A highlight of 50 %
        // at 0° puts the focus at (70, 50). Solving |q − t·d| = 40t (q and d from the focus, d = (−20, 0)) at the
        // centre of pixel (50, 50), q = (−19.5, 0.5): t = (390 − √(390² + 1200 · 380.5)) / −1200 = 0.325, grey 83;
        // at pixel (70, 50), q = (0.5, 0.5): t = 0.030, grey 8. Without a highlight the centre is nearly black
        // (t = 0.018) and the centre of (70, 50), 20.51 from the centre, is t = 0.513, grey 131.
        func grey(h: Double, a: Double, _ x: Int, _ y: Int) throws -> Int {
            let fill = Lot.gradient(fill: true, radial: true, start: [50, 50], end: [90, 50],
                                    colors: [0, 0, 0, 0, 1, 1, 1, 1]).with("h", Lot.value(.number(h)))
                .with("a", Lot.value(.number(a)))
            let c = try render([Lot.shapeLayer("g", [Lot.group([Lot.rect([50, 50], [100, 100]), fill])])])
            return Int(c[x, y] & 0xFF)
        }
        #expect(abs(try grey(h: 50, a: 0, 50, 50) - 83) <= 2)
        #expect(abs(try grey(h: 50, a: 0, 70, 50) - 8) <= 2)
        #expect(try grey(h: 0, a: 0, 50, 50) <= 6)
        #expect(abs(try grey(h: 0, a: 0, 70, 50) - 131) <= 2)
        // Turned 90°, the focus is below the centre, at (50, 70).
        #expect(abs(try grey(h: 50, a: 90, 50, 70) - 8) <= 2)
    }

    @Test func maskOpacityInversionAndIntersection() throws {
        func mask(_ mode: String, _ r: (Double, Double, Double, Double), o: Double = 100, inv: Bool = false) -> J {
            let v: [J] = [[.number(r.0), .number(r.1)], [.number(r.2), .number(r.1)], [.number(r.2), .number(r.3)],
                          [.number(r.0), .number(r.3)]]
            let zero = [J](repeating: [0, 0], count: 4)
            return ["inv": .bool(inv), "mode": .string(mode), "o": Lot.value(.number(o)),
                    "pt": Lot.value(["i": .array(zero), "o": .array(zero), "v": .array(v), "c": .bool(true)])]
        }
        let solid: J = ["ddd": 0, "ind": 1, "ty": 1, "nm": "solid", "ks": Lot.transform(), "sw": 100, "sh": 100,
                        "sc": "#ffffff", "ip": 0, "op": 60, "st": 0, "hasMask": .bool(true),
                        "masksProperties": [mask("a", (0, 0, 50, 100), o: 50), mask("a", (0, 0, 100, 50), inv: true),
                                            mask("i", (0, 0, 100, 90))]]
        let c = try render([solid])
        #expect(abs(alpha(c, 25, 25) - 128) <= 1)  // only the half-opaque mask
        #expect(alpha(c, 75, 25) == 0)              // no mask
        #expect(alpha(c, 75, 75) == 255)            // the inverted mask: outside the top half
        #expect(alpha(c, 25, 95) == 0)              // cut by the intersection
    }

    func matte(_ tt: Int, matteColor: J) throws -> Canvas {
        try render([
            Lot.shapeLayer("matte", [Lot.group([Lot.rect([25, 50], [50, 100]), Lot.fill(matteColor)])], ind: 1,
                           extra: [("td", 1)]),
            Lot.shapeLayer("content", [Lot.group([Lot.rect([50, 50], [100, 100]), Lot.fill(Fixtures.blue)])], ind: 2,
                           extra: [("tt", .number(Double(tt)))]),
        ])
    }

    @Test func alphaAndLumaMattes() throws {
        let alpha = try matte(1, matteColor: [0, 0, 0, 1])
        #expect(self.alpha(alpha, 20, 50) == 255 && self.alpha(alpha, 80, 50) == 0)
        let inverted = try matte(2, matteColor: [0, 0, 0, 1])
        #expect(self.alpha(inverted, 20, 50) == 0 && self.alpha(inverted, 80, 50) == 255)
        // Luma: black lets nothing through, mid grey about half, white everything; outside the matte is black.
        #expect(self.alpha(try matte(3, matteColor: [0, 0, 0, 1]), 20, 50) == 0)
        #expect(abs(self.alpha(try matte(3, matteColor: [0.5, 0.5, 0.5, 1]), 20, 50) - 128) <= 1)
        let white = try matte(3, matteColor: [1, 1, 1, 1])
        #expect(self.alpha(white, 20, 50) == 255 && self.alpha(white, 80, 50) == 0)
        #expect(self.alpha(try matte(4, matteColor: [1, 1, 1, 1]), 80, 50) == 255)
    }

    @Test func layerOpacityFadesTheLayerAsAWhole() throws {
        // Two opaque overlapping squares in a layer at 50 %: the overlap is 50 % too, not 75 %.
        let layer = Lot.shapeLayer("faded", [Lot.group([Lot.rect([40, 50], [40, 40]), Lot.fill(Fixtures.red)]),
                                             Lot.group([Lot.rect([60, 50], [40, 40]), Lot.fill(Fixtures.blue)])],
                                   ks: Lot.transform(o: 50))
        let c = try render([layer])
        #expect(abs(alpha(c, 50, 50) - 128) <= 1 && abs(alpha(c, 25, 50) - 128) <= 1)
    }

    @Test func gradientOpacityStopsBetweenColourStops() throws {
        // Opaque red to opaque blue, with opacity stops 0 → 1 at 0 and 1 at 0.5: clear at the left, opaque from
        // the middle on.
        let layer = Lot.shapeLayer("g", [Lot.group([Lot.rect([50, 50], [100, 100]),
                                                    Lot.gradient(fill: true, radial: false, start: [0, 0], end: [100, 0],
                                                                 colors: [0, 1, 0, 0, 1, 0, 0, 1],
                                                                 alphas: [0, 0, 0.5, 1])])])
        let c = try render([layer])
        #expect(alpha(c, 0, 50) <= 3 && abs(alpha(c, 25, 50) - 128) <= 4 && alpha(c, 75, 50) == 255)
    }

    @Test func trimsWrapPastTheEnd() throws {
        // 0…50 % offset by 270°: 75…100 % and 0…25 % of a 100-long line, its two ends.
        let layer = Lot.shapeLayer("t", [Lot.group([Lot.path([[0, 50], [100, 50]], closed: false),
                                                    Lot.stroke(Fixtures.red, w: 10, cap: 1),
                                                    Lot.trim(s: 0, e: 50, o: 270)])])
        let c = try render([layer])
        #expect(alpha(c, 10, 50) == 255 && alpha(c, 90, 50) == 255 && alpha(c, 50, 50) == 0)
    }

    /// The square (0, 0) → (100, 0) → (100, 100) → (0, 100), 400 long, trimmed 37.5…87.5 % and offset by 90°:
    /// 250…450, i.e. from (50, 100) round through (0, 100) and (0, 0) to (50, 0). lottie-web carries the part past
    /// the end on as one contour, so the fill is the left half; filled as two pieces it would be the triangle
    /// (50, 100), (0, 100), (0, 0) and a line.
    @Test func aTrimWrappingRoundAClosedPathFillsOneContour() throws {
        let layer = Lot.shapeLayer("t", [Lot.group([Lot.path([[0, 0], [100, 0], [100, 100], [0, 100]]),
                                                    Lot.fill(Fixtures.red),
                                                    Lot.trim(s: 37.5, e: 87.5, o: 90)])])
        let c = try render([layer])
        #expect(alpha(c, 10, 5) == 255 && alpha(c, 40, 20) == 255 && alpha(c, 25, 90) == 255)
        #expect(alpha(c, 60, 50) == 0 && alpha(c, 90, 10) == 0)
    }

    @Test("An offset taking both ends of a trim past the end wraps both: 60…80 % by 270° is 35…55 %, and equal ends draw nothing")
    func trimsWrapBothEnds() throws {
        func line(s: Double, e: Double, o: Double) throws -> Canvas {
            try render([Lot.shapeLayer("t", [Lot.group([Lot.path([[0, 50], [100, 50]], closed: false),
                                                        Lot.stroke(Fixtures.red, w: 10, cap: 0),
                                                        Lot.trim(s: .number(s), e: .number(e), o: .number(o))])])])
        }
        let c = try line(s: 60, e: 80, o: 270)
        #expect(alpha(c, 34, 50) == 0 && alpha(c, 36, 50) == 255 && alpha(c, 54, 50) == 255 && alpha(c, 56, 50) == 0)
        #expect(alpha(c, 5, 50) == 0 && alpha(c, 70, 50) == 0)
        // Equal ends: nothing, wherever the offset puts them (80 % by 270°: 105 %, i.e. 5 %).
        for o in [0.0, 90, 270, -99] {
            let empty = try line(s: 80, e: 80, o: o)
            #expect((0..<100).allSatisfy { alpha(empty, $0, 50) == 0 }, "offset \(o)")
        }
    }

    @Test func layersShowFromTheirInPointUntilBeforeTheirOutPoint() throws {
        let layer = Lot.shapeLayer("brief", [Lot.group([Lot.rect([50, 50], [100, 100]), Lot.fill(Fixtures.red)])],
                                   ip: 10, op: 20)
        #expect(alpha(try render([layer], frame: 9.9), 50, 50) == 0)
        #expect(alpha(try render([layer], frame: 10), 50, 50) == 255)
        #expect(alpha(try render([layer], frame: 20), 50, 50) == 0)
    }

    @Test func timeRemapChoosesThePrecompositionsFrame() throws {
        // The inner square moves from x 0 to 100 over frames 0…30; a remap to 0.5 s (frame 15) holds it at 50.
        let inner = Lot.shapeLayer("mover", [Lot.group([Lot.rect([0, 50], [10, 10]), Lot.fill(Fixtures.red)])],
                                   ks: Lot.transform(animated: ["p": Lot.animated([K(t: 0, s: [0, 0], ease: (0, 0, 1, 1)),
                                                                                   K(t: 30, s: [100, 0])])]))
        let layer: J = ["ddd": 0, "ind": 1, "ty": 0, "nm": "remapped", "refId": "inner", "ks": Lot.transform(),
                        "w": 100, "h": 100, "ip": 0, "op": 60, "st": 0, "tm": Lot.value(0.5)]
        let c = try render([layer], assets: [["id": "inner", "layers": [inner]]], frame: 40)
        #expect(alpha(c, 50, 50) == 255 && alpha(c, 20, 50) == 0)
    }

    // MARK: Time, as lottie-web keeps it

    /// A 10×10 square whose left edge moves linearly from x 0 at `from` to x 90 at `to` (the layer's own
    /// keyframes), in a layer starting at `st` stretched by `sr`.
    func mover(from: Double, to: Double, st: Double = 0, sr: Double = 1, ip: Double = -1000, op: Double = 1000) -> J {
        Lot.shapeLayer("mover", [Lot.group([Lot.rect([5, 50], [10, 10]), Lot.fill(Fixtures.red)])],
                       ks: Lot.transform(animated: ["p": Lot.animated([K(t: from, s: [0, 0], ease: (0, 0, 1, 1)),
                                                                       K(t: to, s: [90, 0])])]),
                       ip: ip, op: op, st: st, extra: [("sr", .number(sr))])
    }

    /// The x of the square's left edge in `c` (the first column with ink on its middle row).
    func leftEdge(_ c: Canvas) -> Int? { (0..<c.width).first { alpha(c, $0, 50) > 127 } }

    @Test("A layer's keyframes are read at the time of its composition: start time and stretch move neither them nor the frame")
    func layerKeyframesInCompositionTime() throws {
        // Keyframes at 20 and 40; at frame 30 the square is halfway (x 45), whatever st and sr (lottie-web compares
        // the frame minus st with each keyframe's time minus st, and divides by sr only inside a precomposition).
        for (st, sr) in [(0.0, 1.0), (20, 1), (-15, 1), (7, 2), (20, 0.5), (10, -1)] {
            let c = try render([mover(from: 20, to: 40, st: st, sr: sr)], frame: 30)
            #expect(leftEdge(c) == 45, "st \(st), sr \(sr)")
        }
    }

    @Test("A precomposition shows its contents at (frame − st) / sr, backwards for a negative stretch, and its own transform at the frame")
    func precompositionTime() throws {
        let inner = mover(from: 0, to: 10)
        func precomp(st: Double, sr: Double, extra: [(String, J)] = []) -> J {
            var layer: J = ["ddd": 0, "ind": 1, "ty": 0, "nm": "pre", "refId": "inner", "sr": .number(sr),
                            "ks": Lot.transform(), "w": 100, "h": 100, "ip": -1000, "op": 1000, "st": .number(st)]
            for (k, v) in extra { layer = layer.with(k, v) }
            return layer
        }
        // Frame 20 of the outer composition: (20 − 10) / 2 = 5 inside, halfway: x 45.
        let assets: [J] = [["id": "inner", "layers": [inner]]]
        #expect(leftEdge(try render([precomp(st: 10, sr: 2)], assets: assets, frame: 20)) == 45)
        // A negative stretch plays backwards: (4 − 12) / −1 = 8 inside: x 72.
        #expect(leftEdge(try render([precomp(st: 12, sr: -1)], assets: assets, frame: 4)) == 72)
        // The precomposition layer's own keyframes are in the outer time: moved 10 right from frame 20 to 30. At
        // frame 26 it is 6 right, and inside it is (26 − 10) / 2 = 8: x 72 + 6.
        let moving = precomp(st: 10, sr: 2, extra: [("ks", Lot.transform(animated: ["p": Lot.animated([
            K(t: 20, s: [0, 0], ease: (0, 0, 1, 1)), K(t: 30, s: [10, 0])])]))])
        #expect(leftEdge(try render([moving], assets: assets, frame: 26)) == 78)
    }

    @Test("A time remap is read at the time of the composition holding the layer")
    func timeRemapInCompositionTime() throws {
        // The remap runs from 0 s at frame 10 to 1 s at frame 40 (30 fps); at frame 13 it is 0.1 s: inner frame 3,
        // x 27, whatever the layer's start time.
        let inner = mover(from: 0, to: 10)
        for st in [0.0, 10, 25] {
            let layer: J = ["ddd": 0, "ind": 1, "ty": 0, "nm": "remapped", "refId": "inner", "ks": Lot.transform(),
                            "w": 100, "h": 100, "ip": -1000, "op": 1000, "st": .number(st),
                            "tm": Lot.animated([K(t: 10, s: [0], ease: (0, 0, 1, 1)), K(t: 40, s: [1])])]
            let c = try render([layer], assets: [["id": "inner", "layers": [inner]]], frame: 13)
            #expect(leftEdge(c) == 27, "st \(st)")
        }
    }

    // MARK: Rounded corners, as lottie-web draws them

    @Test("Rounded corners cut a rectangle's corners on lottie-web's curve, whose middle is 5.86 in from each side")
    func roundedRectangle() throws {
        // A 60×60 square at 20…80 rounded by 20: the top-left curve runs from (20, 40) to (40, 20) with controls
        // (20, 28.96) and (28.96, 20); its middle, (20 + 3·20 + 3·28.96 + 40) / 8 = 25.86 on both axes.
        func square(_ extra: [J]) throws -> Canvas {
            try render([Lot.shapeLayer("r", [Lot.group([Lot.rect([50, 50], [60, 60])] + extra + [Lot.fill(Fixtures.red)])])])
        }
        let sharp = try square([]), round = try square([Lot.roundCorners(20)])
        #expect(alpha(sharp, 23, 23) == 255 && alpha(round, 23, 23) == 0)
        #expect(alpha(round, 27, 27) == 255 && alpha(round, 50, 21) == 255 && alpha(round, 21, 50) == 255)
        #expect(alpha(round, 76, 76) == 0 && alpha(round, 76, 23) == 0 && alpha(round, 23, 76) == 0)
        // The pixel the curve's middle crosses is partly covered.
        #expect((1...254).contains(alpha(round, 25, 25)))
    }

    @Test("Rounded corners round the paths above them, those of inner groups too, and leave curves as they are")
    func roundedCornersReach() throws {
        // Two 30×30 squares, the left one above the modifier and the right one below it.
        let split = try render([Lot.shapeLayer("r", [Lot.group([
            Lot.rect([25, 50], [30, 30]), Lot.roundCorners(10), Lot.rect([75, 50], [30, 30]), Lot.fill(Fixtures.red)])])])
        #expect(alpha(split, 10, 35) == 0 && alpha(split, 60, 35) == 255)
        // A modifier of the outer group rounds the inner group's square.
        let nested = try render([Lot.shapeLayer("r", [Lot.group([
            Lot.group([Lot.rect([50, 50], [30, 30]), Lot.fill(Fixtures.red)]), Lot.roundCorners(10)])])])
        #expect(alpha(nested, 35, 35) == 0 && alpha(nested, 50, 36) == 255)
        // An ellipse has no sharp corner; a path's corners are rounded like a rectangle's.
        let ellipse = [Lot.ellipse([50, 50], [60, 40]), Lot.fill(Fixtures.red)]
        let plain = try render([Lot.shapeLayer("e", [Lot.group(ellipse)])])
        let modified = try render([Lot.shapeLayer("e", [Lot.group(ellipse + [Lot.roundCorners(10)])])])
        #expect((0..<100).allSatisfy { y in (0..<100).allSatisfy { x in plain[x, y] == modified[x, y] } })
        let triangle = try render([Lot.shapeLayer("t", [Lot.group([
            Lot.path([[20, 20], [80, 20], [20, 80]]), Lot.roundCorners(10), Lot.fill(Fixtures.red)])])])
        #expect(alpha(triangle, 20, 20) == 0 && alpha(triangle, 25, 25) == 255)
    }

    // MARK: Repeaters, as lottie-web draws them

    /// A 10×10 red square at x 0…10, y 45…55, repeated by `repeater`, with the fill after the repeater.
    func repeated(_ repeater: J, fillFirst: Bool = false) throws -> Canvas {
        let square = Lot.rect([5, 50], [10, 10])
        let items: [J] = fillFirst ? [square, Lot.fill(Fixtures.red), repeater] : [square, repeater, Lot.fill(Fixtures.red)]
        return try render([Lot.shapeLayer("r", [Lot.group(items)])])
    }

    @Test("A repeater's copies step by its transform from the offset on, rounded up in number, whichever side the fill is")
    func repeaterSteps() throws {
        // Four copies 20 apart: squares at 0, 20, 40 and 60; nothing at 80.
        for fillFirst in [false, true] {
            let c = try repeated(Lot.repeater(c: 4, p: [20, 0]), fillFirst: fillFirst)
            #expect([5, 25, 45, 65].allSatisfy { alpha(c, $0, 50) == 255 } && alpha(c, 85, 50) == 0 && alpha(c, 15, 50) == 0)
        }
        // An offset of one step moves them all: 20 … 80.
        let offset = try repeated(Lot.repeater(c: 4, o: 1, p: [20, 0]))
        #expect(alpha(offset, 5, 50) == 0 && [25, 45, 65, 85].allSatisfy { alpha(offset, $0, 50) == 255 })
        // 2.2 copies are 3 (lottie-web rounds the count up).
        let partial = try repeated(Lot.repeater(c: 2.2, p: [20, 0]))
        #expect(alpha(partial, 45, 50) == 255 && alpha(partial, 65, 50) == 0)
        // Half a step of offset: half the move, and a scale halfway to the step's: 0.5 + 0.5 × 0.5 = 0.75 of the
        // square about the anchor (5, 50), then 10 to the right: x 11.25 … 18.75, its edge pixels three quarters in.
        let half = try repeated(Lot.repeater(c: 1, o: 0.5, a: [5, 50], p: [20, 0], s: [50, 50]))
        #expect(alpha(half, 12, 50) == 255 && alpha(half, 17, 50) == 255 && alpha(half, 10, 50) == 0 && alpha(half, 19, 50) == 0)
        #expect(abs(alpha(half, 11, 50) - 191) <= 2 && abs(alpha(half, 18, 50) - 191) <= 2)
    }

    @Test("A repeater turns and scales each copy one more step about its anchor")
    func repeaterTurnsAndScales() throws {
        // Four copies turned 90° each about (50, 50): the square at the left edge's middle comes round to the top,
        // the right and the bottom (clockwise, as a layer turns).
        let square = Lot.rect([5, 50], [10, 10])
        let turned = try render([Lot.shapeLayer("r", [Lot.group([square, Lot.repeater(c: 2, a: [50, 50], r: 90),
                                                                 Lot.fill(Fixtures.red)])])])
        #expect(alpha(turned, 5, 50) == 255 && alpha(turned, 50, 5) == 255 && alpha(turned, 95, 50) == 0)
        // Scale 50 % a step about (5, 50): copy 1 is 5 wide, copy 2 is 2.5 wide, both centred on the first.
        let scaled = try render([Lot.shapeLayer("r", [Lot.group([Lot.rect([5, 50], [10, 10]),
                                                                 Lot.repeater(c: 3, a: [5, 50], s: [50, 50], so: 100, eo: 100),
                                                                 Lot.fill(Fixtures.red)])])])
        #expect(alpha(scaled, 1, 50) == 255 && alpha(scaled, 5, 50) == 255)
    }

    @Test("A repeater's opacity runs from the start to the end opacity; Above puts the first copy on top, Below the last")
    func repeaterOpacityAndOrder() throws {
        // Three copies apart: opacities 100, 60 and 20 %.
        let faded = try repeated(Lot.repeater(c: 3, p: [20, 0], so: 100, eo: 20), fillFirst: true)
        #expect(alpha(faded, 5, 50) == 255 && abs(alpha(faded, 25, 50) - 153) <= 1 && abs(alpha(faded, 45, 50) - 51) <= 1)
        // Two copies overlapping by half, the first opaque and the second at 50 %. Above: the opaque one (0…10) on
        // top, the half one shows at 10…15. Below: the copy with one step (5…15) is the first and opaque, on top;
        // the one without a step (0…10) is the half one, seen at 0…5.
        let above = try repeated(Lot.repeater(c: 2, p: [5, 0], so: 100, eo: 50), fillFirst: true)
        #expect(alpha(above, 2, 50) == 255 && alpha(above, 7, 50) == 255 && abs(alpha(above, 12, 50) - 128) <= 1)
        let below = try repeated(Lot.repeater(c: 2, above: false, p: [5, 0], so: 100, eo: 50), fillFirst: true)
        #expect(abs(alpha(below, 2, 50) - 128) <= 1 && alpha(below, 7, 50) == 255 && alpha(below, 12, 50) == 255)
    }
}

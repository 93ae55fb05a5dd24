import Geometry
@testable import Raster
import Testing
import TestSupport

/// Every production fill path against `ReferenceRasterizer` (exact winding integral per pixel, in `Double`) on
/// random paths: polygons and curves, self-intersecting, both fill rules, clip boxes, sub-pixel and huge
/// coordinates. Both sides fill the same flattened edges, so only scan conversion is compared.
///
/// Tolerance: the reference's coverage rounded to the nearest 1/255 against the production byte, at most 1 apart.
/// Production sums areas in 1/65536 of a pixel: each edge adds, per scanline, deltas that telescope to its
/// rounded height, so a pixel's sum is off by at most 1/2 unit per edge crossing its row at or left of it; with
/// fewer than 257 such crossings that is under half of 1/255, and together with the final rounding the byte can
/// land one step from the reference's, never two. The measured largest difference is printed by `measured`.
@Suite("Rasterizers against the reference rasterizer")
struct ReferenceComparisonTests {
    static let width = 48, height = 40
    /// Random cases per kind of path.
    static let cases = 60
    /// Largest allowed difference per pixel, in 1/255 (see the suite's comment).
    static let tolerance = 1

    enum Kind: CaseIterable { case polygon, curves, tiny, huge, multiple }

    /// A random path of `kind` for a 48×40 canvas.
    static func randomPath(_ kind: Kind, _ random: inout SeededRandom) -> Path {
        var path = Path()
        func point(_ spread: Double) -> Point {
            Point(random.double(in: -spread...(Double(width) + spread)), random.double(in: -spread...(Double(height) + spread)))
        }
        switch kind {
        case .polygon:
            // Random vertices: self-intersecting more often than not, partly off the canvas.
            path.move(to: point(8))
            for _ in 0..<random.int(in: 2...30) { path.line(to: point(8)) }
            path.close()
        case .curves:
            path.move(to: point(6))
            for _ in 0..<random.int(in: 1...8) {
                switch random.int(in: 0...2) {
                case 0: path.line(to: point(6))
                case 1: path.quad(to: point(6), control: point(20))
                default: path.cubic(to: point(6), control1: point(20), control2: point(20))
                }
            }
            path.close()
        case .tiny:
            // Slivers and specks: every vertex within a box of 0.001…1.5 px somewhere on the canvas.
            let c = point(0), size = random.double(in: 0.001...1.5)
            path.move(to: Point(c.x + random.double(in: 0...size), c.y + random.double(in: 0...size)))
            for _ in 0..<random.int(in: 2...6) {
                path.line(to: Point(c.x + random.double(in: 0...size), c.y + random.double(in: 0...size)))
            }
            path.close()
        case .huge:
            // Vertices out to ±1e5 among ones on the canvas: long edges that cross it at shallow angles.
            path.move(to: point(4))
            for _ in 0..<random.int(in: 2...8) {
                path.line(to: random.bool() ? point(4) : Point(random.double(in: -1e5...1e5), random.double(in: -1e5...1e5)))
            }
            if random.bool() { path.quad(to: point(4), control: Point(random.double(in: -1e5...1e5), random.double(in: -1e3...1e3))) }
            path.close()
        case .multiple:
            // Several contours, some inside others, in both orientations: holes for one rule, not the other.
            for _ in 0..<random.int(in: 2...5) {
                let c = point(0), r = random.double(in: 1...20)
                if random.bool() {
                    path.addEllipse(in: Rect(x: c.x - r, y: c.y - r, width: 2 * r, height: r * random.double(in: 0.5...2)))
                } else {
                    path.move(to: point(4))
                    for _ in 0..<random.int(in: 2...6) { path.line(to: point(4)) }
                    path.close()
                }
            }
        }
        return path
    }

    /// A clip box half of the time: fractional, anywhere, possibly partly off the canvas.
    /// No clip, a fractional one, or one on whole pixels inside the canvas (where the fill drops the edges past
    /// its right side and must still leave the pixels there alone).
    static func randomClip(_ random: inout SeededRandom) -> Rect? {
        switch random.int(in: 0...2) {
        case 0:
            return nil
        case 1:
            let x = random.double(in: -5...Double(width)), y = random.double(in: -5...Double(height))
            return Rect(x: x, y: y, width: random.double(in: 0.3...40), height: random.double(in: 0.3...40))
        default:
            let x = Double(random.int(in: 0...width - 2)), y = Double(random.int(in: 0...height - 2))
            return Rect(x: x, y: y, width: Double(random.int(in: 1...width - 1 - Int(x))),
                        height: Double(random.int(in: 1...height - 1 - Int(y))))
        }
    }

    /// A transform a quarter of the time: rotation, scale and a fractional shift.
    static func randomTransform(_ random: inout SeededRandom) -> AffineTransform {
        guard random.int(in: 0...3) == 0 else { return .identity }
        let angle = random.double(in: -3.2...3.2), s = random.double(in: 0.3...2)
        let r = AffineTransform(rotationAngle: angle)
        return AffineTransform(a: r.a * s, b: r.b * s, c: r.c * s, d: r.d * s,
                               tx: random.double(in: -10...30), ty: random.double(in: -10...30))
    }

    /// Largest difference and differing pixels of `bytes` against the reference `expected`.
    static func difference(_ bytes: (Int) -> Int, _ expected: [UInt8]) -> (max: Int, count: Int, at: Int) {
        var worst = 0, count = 0, at = -1
        for i in expected.indices {
            let d = abs(bytes(i) - Int(expected[i]))
            if d > 0 { count += 1 }
            if d > worst { worst = d; at = i }
        }
        return (worst, count, at)
    }

    @Test("Rasterizer.fill matches the reference within 1/255 on random paths, both rules, with and without clips, on every fill path this CPU can run",
          arguments: Kind.allCases, FillPath.available)
    func rasterizerFill(kind: Kind, path fillPath: FillPath) {
        var random = SeededRandom(seed: 0x5EED_0000 + UInt64(Kind.allCases.firstIndex(of: kind)!))
        let rasterizer = Rasterizer(path: fillPath)
        #expect(rasterizer.path == fillPath)
        let canvas = Canvas(width: Self.width, height: Self.height)
        var worst = 0
        for n in 0..<Self.cases {
            let path = Self.randomPath(kind, &random)
            let transform = Self.randomTransform(&random)
            let clip = Self.randomClip(&random)
            for rule in FillRule.allCases {
                canvas.clear(to: .clear)
                rasterizer.fill(path, transform: transform, color: .white, rule: rule, clip: clip, into: canvas)
                let expected = ReferenceRasterizer.alpha(ReferenceRasterizer.coverage(
                    path, transform: transform, tolerance: rasterizer.tolerance, rule: rule, clip: clip,
                    width: Self.width, height: Self.height))
                let d = Self.difference({ Int(canvas.pixels[$0] >> 24) }, expected)
                worst = max(worst, d.max)
                #expect(d.max <= Self.tolerance,
                        "\(kind) case \(n), \(rule), clip \(String(describing: clip)): \(d.count) pixels differ, by up to \(d.max) at (\(d.at % Self.width), \(d.at / Self.width)); path \(path.elements)")
            }
        }
        print("Rasterizer.fill (\(fillPath)), \(kind): largest difference from the reference \(worst)/255")
    }

    @Test("MaskRasterizer.fill matches the reference within 1/255, inside its box and clipped to it",
          arguments: Kind.allCases)
    func maskFill(kind: Kind) throws {
        var random = SeededRandom(seed: 0x3A5C_0000 + UInt64(Kind.allCases.firstIndex(of: kind)!))
        let masks = MaskRasterizer()
        var worst = 0
        for n in 0..<Self.cases {
            let path = Self.randomPath(kind, &random)
            let transform = Self.randomTransform(&random)
            for rule in FillRule.allCases {
                let expected = ReferenceRasterizer.alpha(ReferenceRasterizer.coverage(
                    path, transform: transform, tolerance: masks.tolerance, rule: rule,
                    width: Self.width, height: Self.height))
                guard let bytes = masks.fill(path, transform: transform, rule: rule,
                                             width: Self.width, height: Self.height) else {
                    // Nothing drawn: only right when the path touches no pixel.
                    #expect(expected.allSatisfy { $0 == 0 }, "\(kind) case \(n), \(rule): the mask drew nothing")
                    continue
                }
                let d = Self.difference({ Int(bytes[$0]) }, expected)
                worst = max(worst, d.max)
                #expect(d.max <= Self.tolerance,
                        "\(kind) case \(n), \(rule): \(d.count) pixels differ, by up to \(d.max) at (\(d.at % Self.width), \(d.at / Self.width)); path \(path.elements)")
            }
        }
        print("MaskRasterizer.fill, \(kind): largest difference from the reference \(worst)/255")
    }

    @Test("The reference itself: a half-pixel-shifted rectangle, a self-overlapping square under both rules")
    func referenceBasics() {
        // A 2×1 rectangle from (0.5, 0.25): half of pixel (0, 0) wide, 3/4 high.
        let rect = ReferenceRasterizer.coverage(.rect(Rect(x: 0.5, y: 0.25, width: 2, height: 1)), rule: .nonZero,
                                                width: 4, height: 2)
        #expect(rect == [0.375, 0.75, 0.375, 0, 0.125, 0.25, 0.125, 0])
        // The same square twice, same direction: winding 2, inside for non-zero, outside for even-odd.
        var twice = Path.rect(Rect(x: 0, y: 0, width: 2, height: 2))
        twice.addRect(Rect(x: 0, y: 0, width: 2, height: 2))
        #expect(ReferenceRasterizer.coverage(twice, rule: .nonZero, width: 2, height: 2) == [1, 1, 1, 1])
        #expect(ReferenceRasterizer.coverage(twice, rule: .evenOdd, width: 2, height: 2) == [0, 0, 0, 0])
        // A fractional clip: a full pixel clipped to its right 0.3 × bottom 0.5.
        let clipped = ReferenceRasterizer.coverage(.rect(Rect(x: 0, y: 0, width: 1, height: 1)), rule: .nonZero,
                                                   clip: Rect(x: 0.7, y: 0.5, width: 5, height: 5), width: 1, height: 1)
        #expect(abs(clipped[0] - 0.15) < 1e-12)
    }
}

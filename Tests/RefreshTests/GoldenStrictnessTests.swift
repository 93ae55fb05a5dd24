import Geometry
import Layers
import Raster
@testable import Refresh
import Testing
import TestSupport
import Colors

/// The goldens catch a wrong reference value: the effects drawn with one value moved a little (docs/reference.md §1)
/// fail the golden comparison, which the same drawing with the reference values passes. A run that writes the goldens
/// compares nothing, so these wait for the next run.
@Suite("Goldens: a moved reference value fails", .disabled(if: Golden.isUpdating, "the goldens are being written"))
struct GoldenStrictnessTests {
    /// The sticky effect pulled 66 pt, as the golden sticky-pull-66 shows it, its blob filled with `blobColor`.
    func sticky(blobColor: Color) -> Snapshot {
        let effect = StickyEffect()
        effect.blobShape.fillColor = blobColor
        let rig = Rig(effect: effect)
        rig.touchDown()
        for p in pullSteps(to: 66) { rig.pull(to: p) }
        return rig.snapshot()
    }

    /// The four dots pulled 60 pt, as the golden dots-pull-60 shows them, with `recolour` applied to the effect.
    func dots(_ recolour: (DotsEffect) -> Void = { _ in }) -> Snapshot {
        let effect = DotsEffect()
        recolour(effect)
        let rig = Rig(effect: effect)
        rig.touchDown()
        for p in stride(from: 5.0, to: 60, by: 5) { rig.pull(to: p) }
        rig.pull(to: 60)
        return rig.snapshot()
    }

    @Test("The sticky blob with its reference alpha, 0.6, passes")
    func stickyReference() throws {
        #expect(StickyEffect.blobColor == Color(white: 1.0 / 3.0, alpha: 0.6))
        let comparison = try #require(try Golden.compare(sticky(blobColor: StickyEffect.blobColor),
                                                         named: "sticky-pull-66"))
        #expect(comparison.passes, "\(comparison.summary)")
    }

    @Test("The sticky blob's alpha moved by 0.05 fails", arguments: [0.55, 0.65])
    func stickyAlphaMoved(alpha: Double) throws {
        let snapshot = sticky(blobColor: Color(white: 1.0 / 3.0, alpha: alpha))
        let comparison = try #require(try Golden.compare(snapshot, named: "sticky-pull-66"))
        #expect(!comparison.passes, "\(comparison.summary)")
        // The blob's flat inside moves by 0.05 × (255 − 85) ≈ 8.5 levels: thousands of pixels over 2.
        #expect(comparison.pixelsOverLevel > 10 * comparison.allowedPixelsOverLevel)
        #expect((8...9).contains(comparison.largestDifference))
        // The former whole-canvas mean let it through.
        #expect(try passesWholeCanvasMean(snapshot.canvas, named: "sticky-pull-66"))
    }

    @Test("The four dots with their reference colours pass")
    func dotsReference() throws {
        let comparison = try #require(try Golden.compare(dots(), named: "dots-pull-60"))
        #expect(comparison.passes, "\(comparison.summary)")
    }

    /// Each dot with its reference colour (docs/reference.md §1, Four dots), red moved by 4 levels towards the middle.
    static let movedDots: [(name: String, pick: @Sendable (DotsEffect) -> ShapeLayer, moved: Color)] = [
        ("top (90, 200, 200)", { $0.topDot }, Color(rgb: 94, 200, 200)),
        ("left (250, 85, 78)", { $0.leftDot }, Color(rgb: 246, 85, 78)),
        ("bottom (92, 201, 105)", { $0.bottomDot }, Color(rgb: 96, 201, 105)),
        ("right (253, 175, 75)", { $0.rightDot }, Color(rgb: 249, 175, 75)),
    ]

    @Test("A dot's colour moved by 4 levels fails", arguments: 0..<4)
    func dotColourMoved(index: Int) throws {
        let (name, pick, moved) = GoldenStrictnessTests.movedDots[index]
        let snapshot = dots { pick($0).fillColor = moved }
        let comparison = try #require(try Golden.compare(snapshot, named: "dots-pull-60"))
        #expect(!comparison.passes, "the \(name) dot: \(comparison.summary)")
        #expect(comparison.largestDifference == 4, "the \(name) dot")
        #expect(try passesWholeCanvasMean(snapshot.canvas, named: "dots-pull-60"), "the \(name) dot")
    }

    /// The comparison the goldens had before: the mean channel difference over the whole canvas at most 0.1, and
    /// at most 0.1 % of pixels off by more than 16.
    func passesWholeCanvasMean(_ canvas: Canvas, named name: String) throws -> Bool {
        let golden = try PNG.read(from: Golden.path(name))
        var total = 0, outliers = 0
        for i in 0..<canvas.pixelCount {
            let a = canvas.pixels[i], b = golden.pixels[i]
            for shift in stride(from: 0, to: 32, by: 8) {
                total += abs(Int((a >> UInt32(shift)) & 0xFF) - Int((b >> UInt32(shift)) & 0xFF))
            }
            if largestChannelDifference(a, b) > 16 { outliers += 1 }
        }
        let mean = Double(total) / Double(canvas.pixelCount * 4)
        return mean <= 0.1 && Double(outliers) / Double(canvas.pixelCount) <= 0.001
    }
}

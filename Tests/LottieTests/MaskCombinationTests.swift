import Geometry
@testable import Lottie
import Raster
import Testing
import TestSupport

/// How a layer's masks start and combine (docs/reference.md §8): the first mask that counts (not of mode none)
/// decides the start, nothing for an added one, the whole layer for a subtracted or intersected one; so a first
/// intersected mask keeps what lies inside it, as an added one does. `23-la-spacehub` has two layers masked by
/// two intersected masks each, which rlottie, ThorVG and lottie-web draw.
///
/// Every mask here has whole-pixel sides, so its coverage is all or nothing and the pixels are known by hand: the
/// white square of `GroupRegionTests.masked` where the masks keep it, the blue backdrop elsewhere.
@Suite struct MaskCombinationTests {
    typealias G = GroupRegionTests

    func render(_ masks: [J], opacity: Double = 100) throws -> Canvas {
        ours(try parse(G.masked(masks, opacity: opacity)), frame: 0, width: 100, height: 100)
    }

    /// How many pixels are not `inside` where `shows` holds and the backdrop elsewhere.
    func wrongPixels(_ c: Canvas, inside: UInt32, where shows: (Int, Int) -> Bool) throws -> Int {
        let blue = ours(try parse(Lot.composition(layers: [G.backdrop])), frame: 0, width: 100, height: 100)[0, 0]
        var wrong = 0
        for y in 0..<c.height {
            for x in 0..<c.width where c[x, y] != (shows(x, y) ? inside : blue) { wrong += 1 }
        }
        return wrong
    }

    static let white: UInt32 = 0xFFFF_FFFF

    @Test func aFirstIntersectedMaskKeepsWhatLiesInsideIt() throws {
        let square = G.box(20, 30, 70, 60)
        let inside = { (x: Int, y: Int) in x >= 20 && x < 70 && y >= 30 && y < 60 }
        #expect(try wrongPixels(try render([G.mask("i", square)]), inside: MaskCombinationTests.white,
                                where: inside) == 0)
        // The same pixels as the mask added.
        #expect(try wrongPixels(try render([G.mask("a", square)]), inside: MaskCombinationTests.white,
                                where: inside) == 0)
        // At half its opacity it keeps half the layer there: white scaled by 128 of 255, over the backdrop.
        let half = try render([G.mask("i", square, o: 50)])
        let blue = half[0, 0]
        #expect(try wrongPixels(half, inside: Pixel.sourceOver(Pixel.scale(MaskCombinationTests.white, by: 128), blue),
                                where: inside) == 0)
    }

    /// Two intersected masks, as on `23-la-spacehub`'s layers R11 and R9: only their overlap shows.
    @Test func twoIntersectedMasksKeepTheirOverlap() throws {
        let c = try render([G.mask("i", G.box(10, 10, 60, 60)), G.mask("i", G.box(40, 30, 90, 80))])
        #expect(try wrongPixels(c, inside: MaskCombinationTests.white) { x, y in
            x >= 40 && x < 60 && y >= 30 && y < 60
        } == 0)
        // Overlapping nothing, they keep nothing.
        let apart = try render([G.mask("i", G.box(10, 10, 40, 40)), G.mask("i", G.box(50, 50, 90, 90))])
        #expect(try wrongPixels(apart, inside: MaskCombinationTests.white) { _, _ in false } == 0)
    }

    /// A mask of mode none neither starts nor changes the combination: the first mask after it decides the start.
    @Test func aMaskOfModeNoneDoesNotCount() throws {
        let everything = G.box(-10, -10, 110, 110)
        let added = try render([G.mask("n", everything), G.mask("a", G.box(20, 20, 50, 50))])
        #expect(try wrongPixels(added, inside: MaskCombinationTests.white) { x, y in
            x >= 20 && x < 50 && y >= 20 && y < 50
        } == 0)
        let intersected = try render([G.mask("n", everything), G.mask("i", G.box(20, 20, 50, 50)),
                                      G.mask("i", G.box(30, 10, 80, 40))])
        #expect(try wrongPixels(intersected, inside: MaskCombinationTests.white) { x, y in
            x >= 30 && x < 50 && y >= 20 && y < 40
        } == 0)
        // With no mask that counts, the layer is whole.
        let none = try render([G.mask("n", G.box(20, 20, 50, 50))])
        #expect(try wrongPixels(none, inside: MaskCombinationTests.white) { _, _ in true } == 0)
    }
}

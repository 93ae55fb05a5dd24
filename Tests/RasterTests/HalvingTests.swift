import Testing
import TestSupport
@testable import Raster

/// `Canvas.halve` against each 2×2 block's mean worked out channel by channel, rounded half up.
@Suite struct HalvingTests {
    @Test("Each half-size pixel is its block's rounded mean in every channel; an odd last row and column are left out")
    func blockMeans() {
        var g = SeededRandom(seed: 7)
        for (w, h) in [(2, 2), (7, 5), (64, 3), (33, 40)] {
            let canvas = Canvas(width: w, height: h)
            for y in 0..<h { for x in 0..<w { canvas[x, y] = PixelRowsTests.pixel(&g) } }
            let half = Canvas(width: w / 2, height: h / 2)
            canvas.halve(into: half)
            for y in 0..<h / 2 {
                for x in 0..<w / 2 {
                    let block = [canvas[2 * x, 2 * y], canvas[2 * x + 1, 2 * y], canvas[2 * x, 2 * y + 1],
                                 canvas[2 * x + 1, 2 * y + 1]]
                    var expected: UInt32 = 0
                    for shift: UInt32 in [0, 8, 16, 24] {
                        let sum = block.reduce(0) { $0 + ($1 >> shift & 0xFF) }
                        expected |= ((sum + 2) / 4) << shift
                    }
                    #expect(half[x, y] == expected, "\(w)×\(h) at (\(x), \(y))")
                }
            }
        }
    }

    @Test("By hand: (255, 0, 1, 2) and three transparent pixels give (64, 0, 0, 1); a flat block stays as it is")
    func byHand() {
        let canvas = Canvas(width: 4, height: 2)
        canvas[0, 0] = 0xFF00_0102
        canvas[2, 0] = 0x8040_2010; canvas[3, 0] = 0x8040_2010; canvas[2, 1] = 0x8040_2010; canvas[3, 1] = 0x8040_2010
        let half = Canvas(width: 2, height: 1)
        canvas.halve(into: half)
        // 255 / 4 = 63.75 → 64; 1 / 4 = 0.25 → 0; 2 / 4 = 0.5 → 1 (half up).
        #expect(half[0, 0] == 0x4000_0001)
        #expect(half[1, 0] == 0x8040_2010)
    }

    @Test("The rows said to have changed are exactly those of the half whose pixels changed, from first to last")
    func changedRows() {
        var g = SeededRandom(seed: 11)
        let canvas = Canvas(width: 40, height: 60), half = Canvas(width: 20, height: 30)
        for y in 0..<60 { for x in 0..<40 { canvas[x, y] = PixelRowsTests.pixel(&g) } }
        #expect(!canvas.halve(into: half).isEmpty)
        #expect(canvas.halve(into: half).isEmpty, "the same canvas again changes nothing")
        for step in 0..<200 {
            let before = Canvas(width: 20, height: 30)
            before.copy(from: half)
            // A few pixels changed, at random rows (or none): some changes vanish in a block's mean.
            for _ in 0..<g.int(in: 0...3) {
                canvas[g.int(in: 0...39), g.int(in: 0...59)] = PixelRowsTests.pixel(&g)
            }
            let rows = canvas.halve(into: half)
            let differing = (0..<30).filter { y in (0..<20).contains { x in half[x, y] != before[x, y] } }
            let expected = differing.isEmpty ? 0..<0 : differing.first!..<(differing.last! + 1)
            #expect(rows == expected, "step \(step)")
        }
    }
}

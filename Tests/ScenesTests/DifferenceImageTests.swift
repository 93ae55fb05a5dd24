import Raster
import Testing
import Colors
@testable import UserFiles
@testable import Scenes

/// The picture of where two images differ, and the bounds a rendering is judged by.
@Suite("Difference image and tolerance")
struct DifferenceImageTests {
    /// The grey a black reference pixel fades to: a third of the way from white.
    static let fadedBlack: UInt32 = 0xFFAA_AAAA

    @Test("one differing pixel is marked in full red, the rest is the reference in faded grey")
    func oneKnownPixel() throws {
        let reference = Canvas(width: 4, height: 3, fill: .black)
        let rendering = Canvas(width: 4, height: 3, fill: .black)
        rendering[2, 1] = Color.white.premultipliedPixel
        let picture = try #require(ImageDifference.image(of: rendering, against: reference))
        #expect(picture.width == 4 && picture.height == 3)
        for y in 0..<3 {
            for x in 0..<4 {
                let expected = (x, y) == (2, 1) ? 0xFFFF_0000 : DifferenceImageTests.fadedBlack
                #expect(picture[x, y] == expected, "pixel (\(x), \(y))")
            }
        }
    }

    @Test("a small difference is marked more faintly than a large one, and still shows")
    func markGrowsWithTheDifference() throws {
        let reference = Canvas(width: 2, height: 1, fill: .black)
        let rendering = Canvas(width: 2, height: 1, fill: .black)
        rendering[0, 0] = Color(rgb: 8, 8, 8).premultipliedPixel
        rendering[1, 0] = Color(rgb: 100, 100, 100).premultipliedPixel
        let picture = try #require(ImageDifference.image(of: rendering, against: reference))
        let faint = channels(picture[0, 0]), strong = channels(picture[1, 0])
        // Both redder than the grey, the larger difference more so.
        #expect(faint.r > faint.g && strong.r > strong.g)
        #expect(strong.r - strong.g > faint.r - faint.g)
        #expect(ImageDifference.markStrength(0) == 0)
        let strengths = [1, 16, 32, 33, 100, 255].map { ImageDifference.markStrength($0) }
        #expect(strengths == strengths.sorted() && Set(strengths).count == strengths.count)
        // Anti-aliasing differences stay at most 60 % strong, visible mistakes at least 70 %.
        #expect(ImageDifference.markStrength(32) <= 0.6 && ImageDifference.markStrength(33) >= 0.7)
        #expect(ImageDifference.markStrength(255) == 1)
    }

    @Test("the reference is greyed: neutral, light, and transparent parts white")
    func greyedReference() throws {
        let reference = Canvas(width: 3, height: 1)
        reference[0, 0] = Color(rgb: 0, 120, 255).premultipliedPixel
        reference[1, 0] = Color(rgb: 30, 30, 30).premultipliedPixel
        let picture = try #require(ImageDifference.image(of: reference, against: reference))
        for x in 0..<2 {
            let c = channels(picture[x, 0])
            #expect(c.r == c.g && c.g == c.b && c.r >= 170 && c.a == 255, "pixel \(x)")
        }
        #expect(picture[2, 0] == 0xFFFF_FFFF)
        // The darker original stays the darker grey.
        #expect(channels(picture[1, 0]).r < channels(picture[0, 0]).r)
    }

    @Test func sizesMustMatch() {
        #expect(ImageDifference.image(of: Canvas(width: 2, height: 2), against: Canvas(width: 3, height: 2)) == nil)
    }

    @Test("the standard tolerance is the scene reference tests' bounds")
    func standardTolerance() {
        #expect(ImageTolerance.standard.maxMeanDifference == SceneReferenceTests.maxMeanDifference)
        #expect(ImageTolerance.standard.maxPercentOverThreshold == SceneReferenceTests.maxPercentOverThreshold)
    }

    @Test("figures over their bounds are named with the bounds")
    func excesses() throws {
        let a = Canvas(width: 2, height: 2, fill: .white), b = Canvas(width: 2, height: 2, fill: .white)
        b[1, 1] = Color.black.premultipliedPixel
        let difference = try #require(ImageDifference(a, b))
        #expect(ImageTolerance.standard.excesses(difference) == [
            "mean |Δ| 47.813 (allowed: 0.6)",
            "25.000 % of pixels off by more than 32 (allowed: 0.2 %)",
        ])
        #expect(!ImageTolerance.standard.accepts(difference))
        #expect(ImageTolerance(maxMeanDifference: 50, maxPercentOverThreshold: 25).accepts(difference))
        let same = try #require(ImageDifference(a, a))
        #expect(ImageTolerance(maxMeanDifference: 0, maxPercentOverThreshold: 0).accepts(same))
    }
}

/// A stored pixel's four channels.
private func channels(_ p: UInt32) -> (a: Int, r: Int, g: Int, b: Int) {
    (Int(p >> 24), Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF))
}

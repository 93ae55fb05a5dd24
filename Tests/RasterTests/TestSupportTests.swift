#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import Raster
import Testing
import TestSupport
import Colors

/// The shared test support: the image comparison every image test uses, its regions, the seeded generator and the
/// temporary files. Canvases are the rasterizer's, so these tests live with it.
@Suite("Test support: image comparison")
struct ImageComparisonTests {
    /// A 100 × 100 white canvas.
    func white() -> Canvas { Canvas(width: 100, height: 100, fill: .white) }

    /// `canvas` with `count` pixels of row 50, from column 10 on, darkened by `levels` in red.
    func darkened(_ canvas: Canvas, count: Int, by levels: UInt32) -> Canvas {
        let copy = Canvas(width: canvas.width, height: canvas.height)
        copy.copy(from: canvas)
        for x in 10..<(10 + count) { copy.pixels[50 * copy.width + x] -= levels << 16 }
        return copy
    }

    @Test("Equal images pass exactly; one level off fails exactly")
    func exact() throws {
        let same = try #require(ImageComparison(white(), white()))
        #expect(same.passes && same.differingPixels == 0 && same.worst == nil)
        let off = try #require(ImageComparison(darkened(white(), count: 1, by: 1), white()))
        #expect(!off.passes && off.pixelsOverLevel == 1 && off.largestDifference == 1)
    }

    @Test("Golden tolerance: anything within 2 levels; over 2 only for one pixel in 2000; nothing over 8")
    func golden() throws {
        let reference = white()
        // 10 000 pixels: 5 may differ by more than 2.
        #expect(PixelTolerance.golden.allowedPixels(of: 10_000) == 5)
        func passes(count: Int, levels: UInt32) throws -> Bool {
            try #require(ImageComparison(darkened(reference, count: count, by: levels), reference,
                                         tolerance: .golden)).passes
        }
        #expect(try passes(count: 80, levels: 2))
        #expect(try passes(count: 5, levels: 8))
        #expect(try !passes(count: 6, levels: 3))
        #expect(try !passes(count: 1, levels: 9))
    }

    @Test("Only the region counts; the summary says where, how much and how many")
    func regionAndSummary() throws {
        let actual = darkened(white(), count: 4, by: 9)
        let outside = try #require(ImageComparison(actual, white(), in: PixelRegion(x: 0, y: 0, width: 100, height: 50)))
        #expect(outside.passes && outside.region == PixelRegion(x: 0, y: 0, width: 100, height: 50))
        let inside = try #require(ImageComparison(actual, white(), in: PixelRegion(x: 0, y: 40, width: 100, height: 60),
                                                  tolerance: .golden))
        #expect(!inside.passes)
        #expect(inside.regionOverLevel == PixelRegion(x: 10, y: 50, width: 4, height: 1))
        #expect(inside.worst == ImageComparison.Worst(x: 10, y: 50, actual: 0xFFF6_FFFF, expected: 0xFFFF_FFFF,
                                                      difference: 9))
        #expect(inside.summary == "4 of 6000 pixels in x 0..<100, y 40..<100 (100×60 px) off by more than 2 levels "
            + "(allowed: 3), 4 by more than 8 (allowed: none), all within x 10..<14, y 50..<51 (4×1 px); largest "
            + "difference 9 levels at (10, 50): ARGB(255, 246, 255, 255), expected ARGB(255, 255, 255, 255)")
        #expect(ImageComparison(actual, Canvas(width: 100, height: 99)) == nil)
    }

    @Test("A mismatch is recorded with the actual image and a difference picture written where it says")
    func expectImageWritesFiles() {
        let actual = darkened(white(), count: 3, by: 40)
        let actualPixels = Array(UnsafeBufferPointer(start: actual.pixels, count: actual.pixelCount))
        withKnownIssue {
            expectImage(actual, matches: white(), tolerance: .golden, named: "three dark pixels")
        } matching: { issue in
            let message = issue.comments.map(\.rawValue).joined()
            let paths = message.split(separator: " ").map { String($0.filter { $0 != ";" }) }.filter { $0.hasSuffix(".png") }
            guard message.hasPrefix("three dark pixels differs from its reference"),
                  message.contains("3 of 10000 pixels"), message.contains("largest difference 40 levels at (10, 50)"),
                  paths.count == 2, paths[0].hasSuffix("three-dark-pixels-actual.png"),
                  paths[1].hasSuffix("three-dark-pixels-difference.png"),
                  let written = try? PNG.read(from: paths[0]), let picture = try? PNG.read(from: paths[1])
            else { return false }
            let sameAsActual = actualPixels.indices.allSatisfy { written.pixels[$0] == actualPixels[$0] }
            removeDirectory(String(paths[0][..<paths[0].lastIndex(of: "/")!]))
            // Marked pixels are red over 8 levels; equal white pixels a light grey.
            let marked = picture[10, 50], plain = picture[0, 0]
            return sameAsActual && marked >> 16 & 0xFF == 255 && marked & 0xFF < 60 && plain == 0xFFFF_FFFF
        }
        #expect(expectImage(white(), matches: white(), named: "white"))
    }

    @Test("The difference picture marks within the level in blue, over it in orange, over the limit in red")
    func differencePictureColours() throws {
        let actual = white()
        actual.pixels[0] -= 1 << 16
        actual.pixels[1] -= 5 << 16
        actual.pixels[2] -= 20 << 16
        let picture = try #require(differencePicture(actual, white(), in: PixelRegion(x: 0, y: 0, width: 50, height: 1),
                                                     tolerance: .golden))
        let (blue, orange, red) = (picture.pixels[0], picture.pixels[1], picture.pixels[2])
        #expect(blue & 0xFF > blue >> 16 & 0xFF)
        #expect(orange >> 16 & 0xFF == 255 && orange >> 8 & 0xFF > orange & 0xFF)
        #expect(red >> 16 & 0xFF == 255 && red >> 8 & 0xFF < 40)
        // Outside the region, white shows darker than inside.
        #expect(picture.pixels[60] & 0xFF < picture.pixels[10] & 0xFF)
    }
}

@Suite("Test support: regions, random numbers, files")
struct TestSupportTests {
    @Test("A rectangle covers the pixels it touches; arithmetic noise adds no row")
    func covering() {
        #expect(PixelRegion(covering: Rect(x: 10.2, y: -0.5, width: 9.6, height: 3)) ==
            PixelRegion(x: 10, y: -1, width: 10, height: 4))
        #expect(PixelRegion(covering: Rect(x: 0, y: 72.00000000000001, width: 750, height: 127.99999999999997)) ==
            PixelRegion(x: 0, y: 72, width: 750, height: 128))
        #expect(PixelRegion(covering: .zero).isEmpty)
        let canvas = Canvas(width: 20, height: 10)
        #expect(PixelRegion(x: -5, y: 8, width: 10, height: 10).clipped(to: canvas) ==
            PixelRegion(x: 0, y: 8, width: 5, height: 2))
        #expect(PixelRegion(x: 1, y: 1, width: 2, height: 2).union(PixelRegion(x: 5, y: 0, width: 1, height: 1)) ==
            PixelRegion(x: 1, y: 0, width: 5, height: 3))
    }

    @Test("The region drawn over a background")
    func drawnRegion() {
        let canvas = Canvas(width: 20, height: 10, fill: .white)
        #expect(canvas.region(differingFrom: Color.white.premultipliedPixel).isEmpty)
        canvas.pixels[3 * 20 + 4] = Color.black.premultipliedPixel
        canvas.pixels[7 * 20 + 15] = Color.black.premultipliedPixel
        #expect(canvas.region(differingFrom: Color.white.premultipliedPixel) ==
            PixelRegion(x: 4, y: 3, width: 12, height: 5))
    }

    @Test("SplitMix64 gives its published sequence and repeats it for a seed")
    func splitMix() {
        var a = SeededRandom(seed: 0)
        #expect([a.next(), a.next(), a.next()] == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
        var b = SeededRandom(seed: 7), c = SeededRandom(seed: 7)
        #expect((0..<50).map { _ in b.double(in: -1...1) } == (0..<50).map { _ in c.double(in: -1...1) })
        #expect((0..<200).allSatisfy { _ in (3...9).contains(b.int(in: 3...9)) })
    }

    @Test("Temporary directories are fresh and empty; text files round-trip; removal takes the files")
    func files() {
        let first = temporaryDirectory("support"), second = temporaryDirectory("support")
        #expect(first != second && fileExists(first) && fileExists(second))
        #expect(first.contains("/refreshlab-support-"))
        #expect(readTextFile(first + "/none") == nil)
        #expect(writeTextFile(first + "/a.txt", "line\nnext é\n"))
        #expect(readTextFile(first + "/a.txt") == "line\nnext é\n")
        #expect(removeDirectory(first) && removeDirectory(second))
        #expect(!fileExists(first) && !writeTextFile(first + "/a.txt", "gone"))
    }
}

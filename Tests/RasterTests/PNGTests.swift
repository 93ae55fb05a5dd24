import Testing
import TestSupport
@testable import Raster
import Colors

/// PNG writing and reading through libpng: pixels survive a round trip, bad files give one clear error.
@Suite struct PNGTests {
    /// A path named `name` in a fresh temporary directory, which the caller removes with `removeDirectory`.
    static func temporaryPath(_ name: String) -> (directory: String, path: String) {
        let directory = temporaryDirectory("png")
        return (directory, directory + "/" + name)
    }

    @Test func opaqueAndTransparentPixelsRoundTripExactly() throws {
        var rng = SeededRandom(seed: 0x5EED_0101)
        let canvas = Canvas(width: 37, height: 23)
        for i in 0..<canvas.pixelCount {
            // Every fourth pixel fully transparent, the rest opaque with random channels.
            canvas.pixels[i] = i % 4 == 0 ? 0 : 0xFF00_0000 | UInt32(truncatingIfNeeded: rng.next()) & 0x00FF_FFFF
        }
        let (directory, path) = PNGTests.temporaryPath("opaque.png")
        defer { removeDirectory(directory) }
        try PNG.write(canvas, to: path)
        let back = try PNG.read(from: path)
        #expect(back.width == 37 && back.height == 23)
        #expect((0..<canvas.pixelCount).allSatisfy { back.pixels[$0] == canvas.pixels[$0] })
    }

    @Test func translucentPixelsRoundTripWithinOneLevel() throws {
        var rng = SeededRandom(seed: 0x5EED_0102)
        let canvas = Canvas(width: 16, height: 16)
        for i in 0..<canvas.pixelCount {
            let color = Color(red: rng.double(in: 0...1), green: rng.double(in: 0...1), blue: rng.double(in: 0...1),
                              alpha: rng.double(in: 0.05...1))
            canvas.pixels[i] = color.premultipliedPixel
        }
        let (directory, path) = PNGTests.temporaryPath("translucent.png")
        defer { removeDirectory(directory) }
        try PNG.write(canvas, to: path)
        let back = try PNG.read(from: path)
        // PNG stores straight alpha: un-premultiplying and premultiplying again rounds twice, so a channel may move
        // by one level; alpha is stored as is.
        #expect((0..<canvas.pixelCount).allSatisfy { back.pixels[$0] >> 24 == canvas.pixels[$0] >> 24 })
        let withinOneLevel = PixelTolerance(level: 1, limit: 1, share: 0)
        let comparison = try #require(ImageComparison(back, canvas, tolerance: withinOneLevel))
        #expect(comparison.passes, "\(comparison.summary)")
    }

    @Test func readingAMissingFileNamesIt() {
        let (directory, path) = PNGTests.temporaryPath("missing.png")
        defer { removeDirectory(directory) }
        #expect {
            _ = try PNG.read(from: path)
        } throws: { error in
            "\(error)" == "\(path): no such PNG file; check the path"
        }
    }

    @Test func readingAFileThatIsNotAPNGNamesIt() throws {
        let (directory, path) = PNGTests.temporaryPath("text.png")
        defer { removeDirectory(directory) }
        try #require(writeTextFile(path, "this is not an image\n"))
        #expect {
            _ = try PNG.read(from: path)
        } throws: { error in
            "\(error)".contains(path)
        }
    }

    @Test func writingIntoAMissingFolderNamesIt() {
        let (directory, folder) = PNGTests.temporaryPath("no-such-folder")
        defer { removeDirectory(directory) }
        let path = folder + "/out.png"
        #expect {
            try PNG.write(Canvas(width: 2, height: 2), to: path)
        } throws: { error in
            "\(error)".contains(path) && "\(error)".hasPrefix("cannot write PNG")
        }
    }
}

import CPNG
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

    /// The pixels libpng's simplified writer stores for a canvas given as straight RGBA, rounded to nearest: how
    /// PNGs were written before `PNGEncoder` chose its own compression.
    static func simplifiedWriterPixels(_ canvas: Canvas) throws -> [UInt8] {
        var rgba = [UInt8](repeating: 0, count: canvas.pixelCount * 4)
        for i in 0..<canvas.pixelCount {
            let p = canvas.pixels[i], a = p >> 24
            var channels = [(p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF]
            if a != 0 && a != 255 { channels = channels.map { Swift.min(($0 * 255 + a / 2) / a, 255) } }
            for (k, c) in channels.enumerated() { rgba[i * 4 + k] = UInt8(c) }
            rgba[i * 4 + 3] = UInt8(a)
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(canvas.width)
        image.height = UInt32(canvas.height)
        image.format = CPNG_FORMAT_RGBA
        defer { png_image_free(&image) }
        var size = png_alloc_size_t(0)
        try #require(png_image_write_to_memory(&image, nil, &size, 0, rgba, 0, nil) != 0)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        try #require(png_image_write_to_memory(&image, &bytes, &size, 0, rgba, 0, nil) != 0)
        return try decodedRGBA(Array(bytes.prefix(Int(size))))
    }

    /// A PNG's pixels as straight 8-bit RGBA, as libpng reads them.
    static func decodedRGBA(_ png: [UInt8]) throws -> [UInt8] {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        try #require(png_image_begin_read_from_memory(&image, png, png.count) != 0)
        image.format = CPNG_FORMAT_RGBA
        var rgba = [UInt8](repeating: 0, count: Int(image.width * image.height) * 4)
        try #require(png_image_finish_read(&image, nil, &rgba, 0, nil) != 0)
        return rgba
    }

    @Test("the encoder's PNGs hold exactly the pixels libpng's simplified writer stored, at every compression",
          arguments: [PNGEncoder.Compression.fast, .libpngDefault])
    func sameAsSimplifiedWriter(compression: PNGEncoder.Compression) throws {
        var rng = SeededRandom(seed: 0x5EED_0103)
        let canvas = Canvas(width: 61, height: 47)
        for i in 0..<canvas.pixelCount {
            // Opaque, clear and translucent pixels, with runs of one colour as a phone's frame has.
            let alpha = [0.0, 1, 1, rng.double(in: 0.01...0.99)][i / 7 % 4]
            let color = Color(red: rng.double(in: 0...1), green: rng.double(in: 0...1), blue: rng.double(in: 0...1),
                              alpha: alpha)
            canvas.pixels[i] = i % 5 == 0 ? canvas.pixels[Swift.max(0, i - 1)] : color.premultipliedPixel
        }
        let encoded = try PNGEncoder(compression: compression).encodedBytes(canvas.pixels, width: canvas.width,
                                                                            height: canvas.height)
        let same = try PNGTests.decodedRGBA(encoded) == PNGTests.simplifiedWriterPixels(canvas)
        #expect(same)
    }
}

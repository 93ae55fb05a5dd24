import Foundation
import Testing
@testable import Raster

/// PNG writing and reading through libpng: pixels survive a round trip, bad files give one clear error.
@Suite struct PNGTests {
    /// A fresh path in the system's temporary directory (`TMPDIR`), removed by the caller.
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("raster-tests-\(UInt32.random(in: 0...UInt32.max))-\(name)").path
    }

    @Test func opaqueAndTransparentPixelsRoundTripExactly() throws {
        var rng = SeededGenerator(seed: 0x5EED_0101)
        let canvas = Canvas(width: 37, height: 23)
        for i in 0..<canvas.pixelCount {
            // Every fourth pixel fully transparent, the rest opaque with random channels.
            canvas.pixels[i] = i % 4 == 0 ? 0 : 0xFF00_0000 | UInt32(truncatingIfNeeded: rng.next()) & 0x00FF_FFFF
        }
        let path = PNGTests.temporaryPath("opaque.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PNG.write(canvas, to: path)
        let back = try PNG.read(from: path)
        #expect(back.width == 37 && back.height == 23)
        #expect((0..<canvas.pixelCount).allSatisfy { back.pixels[$0] == canvas.pixels[$0] })
    }

    @Test func translucentPixelsRoundTripWithinOneLevel() throws {
        var rng = SeededGenerator(seed: 0x5EED_0102)
        let canvas = Canvas(width: 16, height: 16)
        for i in 0..<canvas.pixelCount {
            let color = Color(red: rng.double(in: 0...1), green: rng.double(in: 0...1), blue: rng.double(in: 0...1),
                              alpha: rng.double(in: 0.05...1))
            canvas.pixels[i] = color.premultipliedPixel
        }
        let path = PNGTests.temporaryPath("translucent.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PNG.write(canvas, to: path)
        let back = try PNG.read(from: path)
        // PNG stores straight alpha: un-premultiplying and premultiplying again rounds twice, so a channel may move
        // by one level; alpha is stored as is.
        var worst = 0
        for i in 0..<canvas.pixelCount {
            let a = canvas.pixels[i], b = back.pixels[i]
            #expect(a >> 24 == b >> 24)
            for shift: UInt32 in [0, 8, 16] {
                worst = max(worst, abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)))
            }
        }
        #expect(worst <= 1)
    }

    @Test func readingAMissingFileNamesIt() {
        let path = PNGTests.temporaryPath("missing.png")
        #expect {
            _ = try PNG.read(from: path)
        } throws: { error in
            "\(error)".contains(path) && "\(error)".hasPrefix("cannot read PNG")
        }
    }

    @Test func readingAFileThatIsNotAPNGNamesIt() throws {
        let path = PNGTests.temporaryPath("text.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("this is not an image\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try PNG.read(from: path)
        } throws: { error in
            "\(error)".contains(path)
        }
    }

    @Test func writingIntoAMissingFolderNamesIt() {
        let path = PNGTests.temporaryPath("no-such-folder") + "/out.png"
        #expect {
            try PNG.write(Canvas(width: 2, height: 2), to: path)
        } throws: { error in
            "\(error)".contains(path) && "\(error)".hasPrefix("cannot write PNG")
        }
    }
}

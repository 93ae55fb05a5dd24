import Geometry
import Testing
import TestSupport
@testable import Raster

/// Opaque premultiplied pixels of the test palettes.
private let red: UInt32 = 0xFFFF_0000, green: UInt32 = 0xFF00_FF00, blue: UInt32 = 0xFF00_00FF
private let white: UInt32 = 0xFFFF_FFFF

@Suite("GIF decoding")
struct GIFDecodingTests {
    /// Global palette: 0 red, 1 green, 2 blue, 3 white.
    static let palette: [UInt32] = [0xFF0000, 0x00FF00, 0x0000FF, 0xFFFFFF]

    static func decode(_ bytes: [UInt8]) throws -> GIFAnimation {
        try GIF.decode(bytes, name: "test.gif")
    }

    @Test("Frames are the screen after each one: a sub-rectangle with a local palette and transparency over the first")
    func framesComposite() throws {
        let first = GIFWriter.Frame(width: 3, height: 2, indices: [0, 1, 2, 3, 0, 1])
        // A 2×1 frame at (1, 1): its index 0 is transparent, index 1 is yellow in its own table.
        let second = GIFWriter.Frame(left: 1, top: 1, width: 2, height: 1, indices: [0, 1], transparentIndex: 0,
                                     localPalette: [0x000000, 0xFFFF00])
        let gif = try Self.decode(GIFWriter.encode(width: 3, height: 2, palette: Self.palette, frames: [first, second]))
        #expect(gif.width == 3 && gif.height == 2 && gif.frames.count == 2)
        #expect(gif.frames[0].pixels == [red, green, blue, white, red, green])
        #expect(gif.frames[1].pixels == [red, green, blue, white, red, 0xFFFF_FF00])
    }

    @Test("Disposal: keep, clear to transparent, restore the previous screen")
    func disposal() throws {
        let base = GIFWriter.Frame(width: 2, height: 2, indices: [0, 0, 0, 0], disposal: 1)
        // Blue in the top-left pixel, then cleared to transparent after it shows.
        let cleared = GIFWriter.Frame(width: 1, height: 1, indices: [2], disposal: 2)
        // Green in the bottom-right pixel, then the screen goes back to what it was before it.
        let restored = GIFWriter.Frame(left: 1, top: 1, width: 1, height: 1, indices: [1], disposal: 3)
        let last = GIFWriter.Frame(left: 1, top: 0, width: 1, height: 1, indices: [3])
        let gif = try Self.decode(GIFWriter.encode(width: 2, height: 2, palette: Self.palette,
                                                   frames: [base, cleared, restored, last]))
        #expect(gif.frames.map(\.pixels) == [
            [red, red, red, red],
            [blue, red, red, red],
            [0, red, red, green],
            [0, white, red, red],
        ])
    }

    @Test("A GIF of 1000 frames is read; one more is refused, naming the cap, before its frame is decoded")
    func frameCap() throws {
        let frame = GIFWriter.Frame(width: 1, height: 1, indices: [0])
        let full = try Self.decode(GIFWriter.encode(width: 1, height: 1, palette: Self.palette,
                                                    frames: Array(repeating: frame, count: GIF.maxFrames)))
        #expect(full.frames.count == GIF.maxFrames)
        let over = GIFWriter.encode(width: 1, height: 1, palette: Self.palette,
                                    frames: Array(repeating: frame, count: GIF.maxFrames + 1))
        let error = try #require(throws: GIFError.self) { try Self.decode(over) }
        #expect(error.description == "cannot read GIF 'test.gif': it has more than the 1000 frames allowed; use fewer")
        // A caller's smaller cap (what an animation's earlier states left) holds as well.
        #expect(throws: GIFError.self) {
            try GIF.decode(GIFWriter.encode(width: 1, height: 1, palette: Self.palette, frames: [frame, frame]),
                           name: "two.gif", maxFrames: 1)
        }
    }

    @Test("An interlaced frame's rows land in their places")
    func interlaced() throws {
        let rows = 11
        let frame = GIFWriter.Frame(width: 1, height: rows, indices: (0..<rows).map { UInt8($0 % 4) }, interlaced: true)
        let gif = try Self.decode(GIFWriter.encode(width: 1, height: rows, palette: Self.palette, frames: [frame]))
        let expected = (0..<rows).map { [red, green, blue, white][$0 % 4] }
        #expect(gif.frames[0].pixels == expected)
    }

    @Test("Delays: hundredths of a second, 0 and 1 shown as 0.1 s as browsers do")
    func delays() throws {
        let frames = [0, 1, 2, 5, 25].map { GIFWriter.Frame(width: 1, height: 1, indices: [0], delay: $0) }
        let gif = try Self.decode(GIFWriter.encode(width: 1, height: 1, palette: Self.palette, frames: frames))
        #expect(gif.delays == [0.1, 0.1, 0.02, 0.05, 0.25])
    }

    @Test("A large noisy frame survives LZW's code growth and table resets; a missing trailer is accepted")
    func largeFrame() throws {
        var random = SeededRandom(seed: 13)
        let size = 120
        let indices = (0..<(size * size)).map { _ in UInt8(random.next() % 4) }
        let bytes = GIFWriter.encode(width: size, height: size, palette: Self.palette,
                                     frames: [GIFWriter.Frame(width: size, height: size, indices: indices)],
                                     trailer: false)
        let gif = try Self.decode(bytes)
        #expect(gif.frames[0].pixels == indices.map { [red, green, blue, white][Int($0)] })
    }

    @Test("A file on disk is read; a folder, a missing file and a device are refused with their names")
    func files() throws {
        let dir = temporaryDirectory("gif-files")
        let path = dir + "/one.gif"
        let bytes = GIFWriter.encode(width: 1, height: 1, palette: Self.palette,
                                     frames: [GIFWriter.Frame(width: 1, height: 1, indices: [2])])
        #expect(writeBytes(path, bytes))
        #expect(try GIF.read(from: path).frames[0].pixels == [blue])
        let refusals = [(dir, "a folder"), (dir + "/missing.gif", "no such GIF"), ("/dev/zero", "not a regular file")]
        for (bad, why) in refusals {
            #expect(throws: GIFError.self) { try GIF.read(from: bad) }
            do { _ = try GIF.read(from: bad) } catch { #expect("\(error)".hasPrefix(bad + ": " + why), "\(error)") }
        }
    }
}

@Suite("GIF decoding: broken files")
struct BrokenGIFTests {
    static let frame = GIFWriter.Frame(width: 8, height: 8, indices: Array(repeating: 1, count: 64))
    static let good = GIFWriter.encode(width: 8, height: 8, palette: GIFDecodingTests.palette, frames: [frame, frame])

    func message(_ bytes: [UInt8]) -> String? {
        do {
            _ = try GIF.decode(bytes, name: "broken.gif")
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("Truncated inside a frame: an error naming the file and the frame")
    func truncated() throws {
        let cut = Array(Self.good.prefix(Self.good.count - 12))
        let text = try #require(message(cut))
        #expect(text.contains("'broken.gif'") && text.contains("truncated"), "\(text)")
        // Cut inside the global colour table, before any frame.
        #expect(message(Array(Self.good.prefix(20)))?.contains("truncated") == true)
    }

    @Test("No frames, not a GIF, no colour table")
    func empty() throws {
        let none = GIFWriter.encode(width: 8, height: 8, palette: GIFDecodingTests.palette, frames: [])
        #expect(message(none)?.contains("has no frames") == true)
        #expect(message(Array("hello, world".utf8))?.contains("not a GIF") == true)
        let noTable = GIFWriter.encode(width: 8, height: 8, palette: nil, frames: [Self.frame])
        #expect(message(noTable)?.contains("no colour table") == true)
    }

    @Test("A huge declared screen or frame is refused before anything is allocated for it")
    func huge() throws {
        let screen = GIFWriter.encode(width: 65535, height: 65535, palette: GIFDecodingTests.palette, frames: [Self.frame])
        #expect(message(screen)?.contains("more than the") == true)
        let frame = GIFWriter.Frame(width: 1, height: 1, indices: [0])
        var big = GIFWriter.encode(width: 8, height: 8, palette: GIFDecodingTests.palette, frames: [frame])
        // The frame's descriptor claims 65535 × 65535 pixels (its width and height words).
        let descriptor = try #require(big.firstIndex(of: 0x2C))
        for i in 5...8 { big[descriptor + i] = 0xFF }
        #expect(message(big)?.contains("frame 1 declares 65535×65535") == true)
        // Many frames whose screens together pass the limit.
        let many = GIFWriter.encode(width: 8, height: 8, palette: GIFDecodingTests.palette,
                                    frames: Array(repeating: frame, count: 5))
        #expect(throws: GIFError.self) { try GIF.decode(many, name: "many.gif", maxPixels: 4 * 64) }
    }

    @Test("Every prefix and 2000 random corruptions decode or fail with a message, never crash")
    func corruptions() {
        for n in 0..<Self.good.count { _ = message(Array(Self.good.prefix(n))) }
        var random = SeededRandom(seed: 7)
        for _ in 0..<2000 {
            var bytes = Self.good
            for _ in 0..<(1 + Int(random.next() % 4)) {
                bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            if let text = message(bytes) { #expect(text.hasPrefix("cannot read GIF 'broken.gif': ")) }
        }
    }
}

@Suite("Bitmap drawing")
struct BitmapDrawingTests {
    static let image = Bitmap(width: 2, height: 2, pixels: [red, green, blue, 0x8080_8080])!

    @Test("Unscaled at a whole-pixel offset, the pixels are copied exactly (source-over the canvas)")
    func exactCopy() {
        let canvas = Canvas(width: 4, height: 4, fill: .white)
        canvas.draw(Self.image, transform: AffineTransform(translationX: 1, y: 2), clip: canvas.pixelBox)
        #expect(canvas[1, 2] == red && canvas[2, 2] == green && canvas[1, 3] == blue)
        #expect(canvas[2, 3] == Pixel.sourceOver(0x8080_8080, white))
        #expect(canvas[0, 0] == white && canvas[3, 1] == white)
    }

    @Test("Scaled up, pixels between two texels mix them; the edges stay sharp, anti-aliased by a pixel; the clip holds")
    func bilinear() {
        let canvas = Canvas(width: 8, height: 8)
        // Two equal rows, so that rows between them mix nothing.
        let strip = Bitmap(width: 2, height: 2, pixels: [red, blue, red, blue])!
        canvas.draw(strip, transform: AffineTransform(scaleX: 4, y: 4), clip: canvas.pixelBox)
        // Texel centres at x = 2 and 6: pixels between them mix; pixels outside them take the edge texel, whole.
        #expect(canvas[2, 4] == Canvas.mix(red, blue, 32) && canvas[5, 4] == Canvas.mix(red, blue, 224))
        #expect(canvas[0, 4] == red && canvas[1, 4] == red && canvas[7, 4] == blue && canvas[4, 0] == canvas[4, 4])
        // Moved half a pixel right, the edge crosses pixel 0 in its middle: half covered.
        let moved = Canvas(width: 8, height: 8)
        moved.draw(strip, transform: AffineTransform(scaleX: 4, y: 4).concatenating(AffineTransform(translationX: 0.5, y: 0)),
                   clip: moved.pixelBox)
        #expect(moved[0, 4] == Pixel.scale(red, by: 128) && moved[1, 4] == red)
        let clipped = Canvas(width: 8, height: 8)
        clipped.draw(strip, transform: AffineTransform(scaleX: 4, y: 4),
                     clip: PixelBox(minX: 0, minY: 0, maxX: 4, maxY: 8))
        #expect(clipped[5, 4] == 0 && clipped[3, 4] != 0)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPNG
import UserFiles

/// A PNG file could not be written or read; the message names the file and the cause.
public struct PNGError: Error, CustomStringConvertible, Equatable {
    public let description: String

    /// The file at `path` could not be written, for `reason`.
    public init(writing path: String, reason: String) {
        description = "cannot write PNG '\(path)': \(reason)"
    }

    init(description: String) {
        self.description = description
    }
}

/// PNG encoding and decoding through libpng.
public enum PNG {
    /// Writes the canvas as an 8-bit RGBA PNG (straight alpha, as PNG requires), whole or not at all (see
    /// `OutputFile`): a failed write leaves what was at `path` before, and a device is written, never removed.
    public static func write(_ canvas: Canvas, to path: String) throws {
        try PNGEncoder().write(canvas.pixels, width: canvas.width, height: canvas.height, to: path)
    }

    /// The canvas as the bytes of an 8-bit RGBA PNG file, for a page that embeds the picture.
    public static func encode(_ canvas: Canvas) throws -> [UInt8] {
        do {
            return try PNGEncoder().encodedBytes(canvas.pixels, width: canvas.width, height: canvas.height)
        } catch let error as PNGEncoder.Failure {
            throw PNGError(description: "cannot encode a PNG: " + error.reason)
        }
    }

    /// The most pixels a PNG read may have (256 MB decoded): its declared size is checked before any pixel is
    /// decoded, so a small file that claims a huge image is refused instead of exhausting memory.
    public static let maxPixels = 1 << 26

    /// The largest PNG file read, 64 MB: several times a full-screen reference of the largest phone.
    static let maxFileBytes = 64 << 20

    /// Reads a PNG of any colour type into a new canvas (premultiplying its alpha). Anything but a regular file of
    /// at most `maxFileBytes` is refused before it is decoded (see `UserFile.read`), and so is a PNG declaring
    /// more than `maxPixels` pixels.
    public static func read(from path: String, maxPixels: Int = PNG.maxPixels) throws -> Canvas {
        let bytes: [UInt8]
        do {
            bytes = try UserFile.read(path, kind: "PNG file", limit: maxFileBytes)
        } catch {
            throw PNGError(description: error.description)
        }
        return try bytes.withUnsafeBytes { try decode($0, name: path, maxPixels: maxPixels) }
    }

    /// Decodes a PNG held in memory; `name` is what error messages call it.
    public static func decode(_ bytes: UnsafeRawBufferPointer, name path: String,
                              maxPixels: Int = PNG.maxPixels) throws -> Canvas {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
            let why = message(of: image)
            png_image_free(&image)
            throw PNGError(description: "cannot read PNG '\(path)': \(why)")
        }
        image.format = CPNG_FORMAT_RGBA
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0 else {
            png_image_free(&image)
            throw PNGError(description: "cannot read PNG '\(path)': it has no pixels")
        }
        guard width.multipliedReportingOverflow(by: height).partialValue <= maxPixels, width <= maxPixels,
              height <= maxPixels else {
            png_image_free(&image)
            throw PNGError(description: "cannot read PNG '\(path)': it declares \(width)×\(height) pixels, more than "
                + "the \(maxPixels) allowed; use a smaller image")
        }
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let ok = rgba.withUnsafeMutableBytes { bytes in
            png_image_finish_read(&image, nil, bytes.baseAddress, Int32(width * 4), nil)
        }
        guard ok != 0 else {
            let why = message(of: image)
            png_image_free(&image)
            throw PNGError(description: "cannot read PNG '\(path)': \(why)")
        }
        let canvas = Canvas(width: width, height: height)
        premultiply(rgba, into: canvas.pixels, count: width * height)
        return canvas
    }

    /// `count` pixels of straight-alpha RGBA bytes written as premultiplied `0xAARRGGBB`, rounded to nearest.
    static func premultiply(_ rgba: [UInt8], into pixels: UnsafeMutablePointer<UInt32>, count: Int) {
        for i in 0..<count {
            let a = UInt32(rgba[i * 4 + 3])
            let r = (UInt32(rgba[i * 4]) * a + 127) / 255
            let g = (UInt32(rgba[i * 4 + 1]) * a + 127) / 255
            let b = (UInt32(rgba[i * 4 + 2]) * a + 127) / 255
            pixels[i] = a << 24 | r << 16 | g << 8 | b
        }
    }

    private static func message(of image: png_image) -> String {
        var m = image.message
        return withUnsafeBytes(of: &m) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return bytes.isEmpty ? "unknown libpng error" : String(decoding: bytes, as: UTF8.self)
        }
    }
}

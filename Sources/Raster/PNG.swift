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
}

/// PNG encoding and decoding through libpng.
public enum PNG {
    /// Writes the canvas as an 8-bit RGBA PNG (straight alpha, as PNG requires), whole or not at all (see
    /// `OutputFile`): a failed write leaves what was at `path` before, and a device is written, never removed.
    public static func write(_ canvas: Canvas, to path: String) throws {
        let rgba = straightRGBA(canvas)
        var image = rgbaImage(canvas)
        defer { png_image_free(&image) }
        do {
            // Through a stream of our own: libpng's own file writer removes whatever is at the path on failure.
            let file = try OutputFile(path: path)
            let ok = rgba.withUnsafeBytes { bytes in
                png_image_write_to_stdio(&image, file.stream, 0, bytes.baseAddress, Int32(canvas.width * 4), nil)
            }
            guard ok != 0 else {
                let reason = ferror(file.stream) != 0 ? String(cString: strerror(errno)) : message(of: image)
                file.abandon()
                throw OutputFileError(path: path, reason: reason)
            }
            try file.commit()
        } catch let error as OutputFileError {
            throw PNGError(description: "cannot write PNG '\(path)': \(error.reason)")
        }
    }

    /// The canvas as the bytes of an 8-bit RGBA PNG file, for a page that embeds the picture.
    public static func encode(_ canvas: Canvas) throws -> [UInt8] {
        let rgba = straightRGBA(canvas)
        var image = rgbaImage(canvas)
        defer { png_image_free(&image) }
        // Once for the size, once to write.
        var size = png_alloc_size_t(0)
        let stride = Int32(canvas.width * 4)
        guard rgba.withUnsafeBytes({ png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, stride, nil) }) != 0
        else { throw PNGError(description: "cannot encode a PNG: " + message(of: image)) }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let ok = bytes.withUnsafeMutableBytes { out in
            rgba.withUnsafeBytes { png_image_write_to_memory(&image, out.baseAddress, &size, 0, $0.baseAddress, stride, nil) }
        }
        guard ok != 0 else { throw PNGError(description: "cannot encode a PNG: " + message(of: image)) }
        return Array(bytes.prefix(Int(size)))
    }

    /// libpng's description of an 8-bit RGBA image of the canvas's size.
    private static func rgbaImage(_ canvas: Canvas) -> png_image {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(canvas.width)
        image.height = UInt32(canvas.height)
        image.format = CPNG_FORMAT_RGBA
        return image
    }

    /// The canvas's premultiplied pixels as straight 8-bit RGBA, as PNG stores them.
    private static func straightRGBA(_ canvas: Canvas) -> [UInt8] {
        var rgba = [UInt8](repeating: 0, count: canvas.pixelCount * 4)
        for i in 0..<canvas.pixelCount {
            let p = canvas.pixels[i]
            let a = p >> 24
            var r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
            if a != 0 && a != 255 {
                r = (r * 255 + a / 2) / a
                g = (g * 255 + a / 2) / a
                b = (b * 255 + a / 2) / a
            }
            rgba[i * 4] = UInt8(min(r, 255))
            rgba[i * 4 + 1] = UInt8(min(g, 255))
            rgba[i * 4 + 2] = UInt8(min(b, 255))
            rgba[i * 4 + 3] = UInt8(a)
        }
        return rgba
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

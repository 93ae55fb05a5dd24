import CJPEG
import CWebP

/// Why an image held in memory could not be decoded.
public struct ImageError: Error, CustomStringConvertible, Equatable {
    public let description: String

    public init(_ description: String) { self.description = description }
}

/// Decodes PNG (libpng), JPEG (libjpeg-turbo) and WebP (libwebp) images held in memory, told apart by their first
/// bytes rather than by a name or a MIME type, which exporters get wrong.
public enum ImageDecoder {
    public enum Format: String, Sendable {
        case png = "PNG", jpeg = "JPEG", webp = "WebP"
    }

    /// The format `bytes` start like, if any of the three.
    public static func format(of bytes: UnsafeRawBufferPointer) -> Format? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && prefix.indices.allSatisfy { bytes[offset + $0] == prefix[$0] }
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        return nil
    }

    /// The image in `bytes`, premultiplied; `name` is what messages call it. An image of more than `maxPixels`
    /// pixels is refused before its pixels are decoded.
    public static func decode(_ bytes: UnsafeRawBufferPointer, name: String, maxPixels: Int) throws(ImageError)
        -> Bitmap {
        switch format(of: bytes) {
        case .png:
            do {
                return Bitmap(try PNG.decode(bytes, name: name, maxPixels: maxPixels))
            } catch {
                throw ImageError("\(error)")
            }
        case .jpeg: return try decodeJPEG(bytes, name: name, maxPixels: maxPixels)
        case .webp: return try decodeWebP(bytes, name: name, maxPixels: maxPixels)
        case nil:
            throw ImageError("cannot read image '\(name)': it is not a PNG, JPEG or WebP image")
        }
    }

    /// A C string held in `chars`, up to its terminating zero.
    private static func text(_ chars: [CChar]) -> String {
        String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func checkSize(_ width: Int, _ height: Int, _ format: Format, name: String, maxPixels: Int)
        throws(ImageError) {
        guard width > 0, height > 0 else {
            throw ImageError("cannot read \(format.rawValue) '\(name)': it has no pixels")
        }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, count <= maxPixels else {
            throw ImageError("cannot read \(format.rawValue) '\(name)': it declares \(width)×\(height) pixels, more "
                + "than the \(maxPixels) allowed; use a smaller image")
        }
    }

    private static func decodeJPEG(_ bytes: UnsafeRawBufferPointer, name: String, maxPixels: Int) throws(ImageError)
        -> Bitmap {
        let data = bytes.bindMemory(to: UInt8.self)
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        guard cjpeg_read(data.baseAddress, UInt(data.count), &width, &height, nil, &message, message.count) == 0 else {
            throw ImageError("cannot read JPEG '\(name)': \(text(message))")
        }
        let w = Int(width), h = Int(height)
        try checkSize(w, h, .jpeg, name: name, maxPixels: maxPixels)
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        let failed = rgb.withUnsafeMutableBufferPointer { out in
            cjpeg_read(data.baseAddress, UInt(data.count), &width, &height, out.baseAddress, &message, message.count)
        }
        guard failed == 0 else { throw ImageError("cannot read JPEG '\(name)': \(text(message))") }
        var pixels = [UInt32](repeating: 0, count: w * h)
        for i in 0..<(w * h) {
            pixels[i] = 0xFF00_0000 | UInt32(rgb[i * 3]) << 16 | UInt32(rgb[i * 3 + 1]) << 8 | UInt32(rgb[i * 3 + 2])
        }
        guard let bitmap = Bitmap(width: w, height: h, pixels: pixels) else {
            throw ImageError("cannot read JPEG '\(name)': it has no pixels")
        }
        return bitmap
    }

    private static func decodeWebP(_ bytes: UnsafeRawBufferPointer, name: String, maxPixels: Int) throws(ImageError)
        -> Bitmap {
        let data = bytes.bindMemory(to: UInt8.self)
        var width: Int32 = 0, height: Int32 = 0
        guard WebPGetInfo(data.baseAddress, data.count, &width, &height) != 0 else {
            throw ImageError("cannot read WebP '\(name)': its header is broken")
        }
        let w = Int(width), h = Int(height)
        try checkSize(w, h, .webp, name: name, maxPixels: maxPixels)
        var rgba = [UInt8](repeating: 0, count: w * h * 4)
        let done = rgba.withUnsafeMutableBufferPointer { out in
            WebPDecodeRGBAInto(data.baseAddress, data.count, out.baseAddress, out.count, width * 4)
        }
        guard done != nil else { throw ImageError("cannot read WebP '\(name)': its image data is broken") }
        let canvas = Canvas(width: w, height: h)
        PNG.premultiply(rgba, into: canvas.pixels, count: w * h)
        return Bitmap(canvas)
    }
}

import Geometry
import Raster

/// An image asset: the size it is drawn at, in the composition's units, and where its pixels come from.
public struct LottieImage: Sendable {
    enum Source: Sendable {
        /// The encoded image, from a base64 data URI in the file itself.
        case embedded([UInt8])
        /// A file beside the animation: the asset's folder (`u`) and name (`p`) joined.
        case file(String)
    }

    var width: Double
    var height: Double
    var source: Source
    /// Where the asset is in the file (a byte offset), for messages.
    var offset: Int
    /// The decoded pixels, premultiplied; nil until `LottieAnimation.decodeImages` has read them, and then for an
    /// image file beside the animation when no folder was given.
    var bitmap: Bitmap?

    /// The most pixels one image may have: 4096 × 4096, far more than a header shows.
    static let maxPixels = 4096 * 4096
    /// The most pixels all of a file's images may have together, 128 MB once decoded.
    static let maxTotalPixels = 32 << 20
    /// The largest image file read beside an animation.
    public static let maxFileBytes = 64 << 20
    /// What to do with a picture whose path leads outside the animation's folder: a file may read nothing else.
    public static let outsideAdvice = "put the picture in the animation's folder (or a folder inside it) and name "
        + "it from there"

    /// Where the image lies in its layer: over the asset's `width × height` box at the origin, scaled to cover it
    /// and centred, as lottie-web places a picture whose own size differs from the asset's (`xMidYMid slice`).
    func placement(of bitmap: Bitmap) -> AffineTransform {
        let w = width > 0 ? width : Double(bitmap.width), h = height > 0 ? height : Double(bitmap.height)
        let s = Swift.max(w / Double(bitmap.width), h / Double(bitmap.height))
        return AffineTransform(scaleX: s, y: s).concatenating(
            AffineTransform(translationX: (w - Double(bitmap.width) * s) / 2, y: (h - Double(bitmap.height) * s) / 2))
    }

    /// The box the image shows in, in its layer: the asset's size, or the picture's own when the asset gives none.
    func box(of bitmap: Bitmap) -> Rect {
        Rect(x: 0, y: 0, width: width > 0 ? width : Double(bitmap.width),
             height: height > 0 ? height : Double(bitmap.height))
    }
}

extension LottieAnimation {
    /// Decodes every image asset: embedded ones from the file, others through `read`, given the asset's path
    /// (nil reads none of them). Each image is held to `LottieImage.maxPixels` and all of them together to
    /// `LottieImage.maxTotalPixels`; a fault names the asset, at its place in the file.
    public mutating func decodeImages(read: ((String) throws -> [UInt8])?) throws(LottieError) {
        var total = 0
        for id in images.keys.sorted() {
            guard var image = images[id] else { continue }
            let bytes: [UInt8]
            let name: String
            switch image.source {
            case .embedded(let data):
                bytes = data
                name = "image asset '\(id)'"
            case .file(let path):
                guard let read else { continue }
                name = "image asset '\(id)' (\(path))"
                do {
                    bytes = try read(path)
                } catch {
                    throw LottieError(offset: image.offset, reason: "\(name): \(error)")
                }
            }
            let left = Swift.min(LottieImage.maxPixels, LottieImage.maxTotalPixels - total)
            do {
                image.bitmap = try bytes.withUnsafeBytes { raw throws(ImageError) in
                    try ImageDecoder.decode(raw, name: name, maxPixels: left)
                }
            } catch {
                let budget = left < LottieImage.maxPixels
                    ? " (the file's images may have \(LottieImage.maxTotalPixels) pixels in all)" : ""
                throw LottieError(offset: image.offset, reason: "\(error)" + budget)
            }
            total += image.bitmap.map { $0.width * $0.height } ?? 0
            images[id] = image
        }
    }
}

/// Data URIs (RFC 2397) as Bodymovin embeds images: `data:image/png;base64,…`.
enum DataURI {
    /// The bytes a base64 data URI holds, or nil when `text` is not one (or its base64 is broken).
    static func bytes(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count > 5, String(decoding: utf8[0..<5], as: UTF8.self).lowercased() == "data:",
              let comma = utf8.firstIndex(of: UInt8(ascii: ",")) else { return nil }
        let header = String(decoding: utf8[5..<comma], as: UTF8.self).lowercased()
        guard header.hasSuffix(";base64") else { return nil }
        return base64(utf8[(comma + 1)...])
    }

    /// Standard base64 (RFC 4648 §4), padding optional, whitespace and line breaks skipped; nil on any other
    /// character or a dangling sixth of a byte.
    static func base64(_ chars: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        var buffer: UInt32 = 0, bits = 0, padding = 0
        for c in chars {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "/"): v = 63
            case UInt8(ascii: "="): padding += 1; continue
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): continue
            default: return nil
            }
            guard padding == 0 else { return nil }
            buffer = buffer << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        // Leftover bits are the padding of the last group: fewer than a byte, and zero in a proper encoding.
        return bits < 6 ? out : nil
    }
}

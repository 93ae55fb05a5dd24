#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPNG
import UserFiles

/// Encodes premultiplied pixels as 8-bit RGBA PNGs (straight alpha, marked sRGB), keeping its buffers from one image
/// to the next: a worker encoding a stream of frames of one size allocates nothing of its own after the first.
///
/// Not for several threads at once: each worker has its own.
public final class PNGEncoder {
    /// How hard zlib works and which row filters libpng tries.
    public struct Compression: Sendable, Equatable {
        /// zlib's level, 0 (store) to 9.
        public var level: Int32
        /// libpng's set of row filters (`PNG_FILTER_NONE`, …, `PNG_ALL_FILTERS`).
        public var filters: Int32

        /// No row filter at zlib level 3: a phone frame's flat colours and repeated rows compress better unfiltered,
        /// so the files are smaller than with libpng's defaults (every filter tried on every row, level 6) and
        /// take a fifth of the time (docs/guide.md, "Frames written fast", has the figures).
        public static let fast = Compression(level: 3, filters: Int32(PNG_FILTER_NONE))
        /// libpng's own choice, as its simplified writer makes: for comparison.
        public static let libpngDefault = Compression(level: 6, filters: CPNG_ALL_FILTERS)
    }

    /// Why an image could not be encoded, in libpng's words.
    public struct Failure: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    public let compression: Compression
    private var bytes = cpng_bytes(data: nil, count: 0, capacity: 0)
    /// The pixels with their alpha undone, for an image that has translucent ones (opaque and clear pixels are the
    /// same either way).
    private var straight: UnsafeMutablePointer<UInt32>?
    private var straightCapacity = 0

    public init(compression: Compression = .fast) {
        self.compression = compression
    }

    deinit {
        free(bytes.data)
        straight?.deallocate()
    }

    /// The bytes of `encode`, copied: a caller without an encoder of its own keeps them after the encoder is gone.
    ///
    /// - Throws: `Failure` with libpng's reason.
    public func encodedBytes(_ pixels: UnsafePointer<UInt32>, width: Int, height: Int) throws -> [UInt8] {
        Array(try encode(pixels, width: width, height: height))
    }

    /// Encodes `width × height` premultiplied `0xAARRGGBB` pixels; the bytes are the encoder's, valid while it lives
    /// and until the next call (`encodedBytes` copies them).
    ///
    /// - Throws: `Failure` with libpng's reason.
    public func encode(_ pixels: UnsafePointer<UInt32>, width: Int, height: Int) throws -> UnsafeRawBufferPointer {
        let count = width * height
        let source = PNGEncoder.hasTranslucentPixels(pixels, count: count) ? unpremultiplied(pixels, count: count) : pixels
        // In memory a pixel is B, G, R, A on the little-endian machines this runs on; libpng puts R first.
        let failure: String? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { message in
            message[0] = 0
            guard cpng_encode_bgra(source, UInt32(width), UInt32(height), width * 4, compression.level,
                                   compression.filters, &bytes, message.baseAddress, message.count) != 0 else { return nil }
            return message[0] == 0 ? "unknown libpng error" : String(cString: message.baseAddress!)
        }
        if let failure { throw Failure(reason: failure) }
        return UnsafeRawBufferPointer(start: bytes.data, count: bytes.count)
    }

    /// Encodes the pixels and writes them to `path` whole or not at all (see `OutputFile`).
    ///
    /// - Throws: `PNGError` naming the file and the cause.
    public func write(_ pixels: UnsafePointer<UInt32>, width: Int, height: Int, to path: String) throws {
        let encoded: UnsafeRawBufferPointer
        do {
            encoded = try encode(pixels, width: width, height: height)
        } catch let error as Failure {
            throw PNGError(writing: path, reason: error.reason)
        }
        try PNGEncoder.write(encoded, to: path)
    }

    /// Writes the bytes `encode` made to `path` whole or not at all (see `OutputFile`).
    ///
    /// - Throws: `PNGError` naming the file and the cause.
    public static func write(_ encoded: UnsafeRawBufferPointer, to path: String) throws {
        do {
            try OutputFile.write(encoded, to: path)
        } catch let error as OutputFileError {
            throw PNGError(writing: path, reason: error.reason)
        }
    }

    /// True when some pixel is neither opaque nor clear: only those change when alpha is undone.
    static func hasTranslucentPixels(_ pixels: UnsafePointer<UInt32>, count: Int) -> Bool {
        for i in 0..<count {
            let alpha = pixels[i] >> 24
            if alpha != 0 && alpha != 255 { return true }
        }
        return false
    }

    /// The pixels with straight alpha, as PNG stores them, each channel rounded to nearest.
    private func unpremultiplied(_ pixels: UnsafePointer<UInt32>, count: Int) -> UnsafePointer<UInt32> {
        if straightCapacity < count {
            straight?.deallocate()
            straight = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
            straightCapacity = count
        }
        let out = straight!
        for i in 0..<count {
            let p = pixels[i]
            let a = p >> 24
            guard a != 0 && a != 255 else {
                out[i] = p
                continue
            }
            let r = Swift.min((((p >> 16) & 0xFF) * 255 + a / 2) / a, 255)
            let g = Swift.min((((p >> 8) & 0xFF) * 255 + a / 2) / a, 255)
            let b = Swift.min(((p & 0xFF) * 255 + a / 2) / a, 255)
            out[i] = a << 24 | r << 16 | g << 8 | b
        }
        return UnsafePointer(out)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CGIF
import UserFiles

/// A GIF file could not be read; the message names the file and the cause.
public struct GIFError: Error, CustomStringConvertible, Equatable {
    public let description: String
}

/// The frames of an animated GIF as they are shown: each one the whole logical screen after that frame was
/// drawn over what the earlier ones left, with how long it stays.
public struct GIFAnimation: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var frames: [Bitmap]
    /// How long each frame shows, in seconds.
    public var delays: [Double]
}

/// GIF decoding through giflib, record by record, so that every size is checked before memory is given to it.
///
/// What the decoder follows: each frame's colour table (its local one, else the global one); the graphic control
/// extension's transparent index, delay and disposal (left in place, cleared to transparent, or restored to what
/// was there before the frame); interlaced frames; frames reaching past the logical screen (cut to it). The
/// screen starts transparent and "restore to background" clears to transparent, as web browsers do rather than
/// painting the background colour. A colour index past the end of its table leaves the pixel as it was.
public enum GIF {
    /// The most pixels a decode may make, summed over its frames (256 MB decoded), as `PNG.maxPixels`.
    public static let maxPixels = PNG.maxPixels
    /// The largest file read, 64 MB: far beyond any header animation.
    static let maxFileBytes = 64 << 20
    /// A delay of 0 or 1 hundredth of a second shows 0.1 s, as web browsers do: such files were made for
    /// players that ignored the delay.
    static let shortDelayReplacement = 0.1

    /// The most frames a decode may make: 1000 is over 16 s at 60 fps, far beyond a header animation, and keeps a
    /// file of millions of one-pixel frames from taking seconds and a gigabyte in frame records.
    public static let maxFrames = 1000

    /// Reads and decodes the GIF at `path`; anything but a regular file of at most `maxFileBytes` is refused.
    public static func read(from path: String, maxPixels: Int = GIF.maxPixels,
                            maxFrames: Int = GIF.maxFrames) throws -> GIFAnimation {
        let bytes: [UInt8]
        do {
            bytes = try UserFile.read(path, kind: "GIF", limit: maxFileBytes)
        } catch {
            throw GIFError(description: error.description)
        }
        return try decode(bytes, name: path, maxPixels: maxPixels, maxFrames: maxFrames)
    }

    /// Decodes a GIF held in memory; `name` is what error messages call it.
    public static func decode(_ bytes: [UInt8], name: String, maxPixels: Int = GIF.maxPixels,
                              maxFrames: Int = GIF.maxFrames) throws -> GIFAnimation {
        do {
            return try bytes.withUnsafeBufferPointer { buffer in
                var source = MemorySource(bytes: buffer, offset: 0)
                return try withUnsafeMutablePointer(to: &source) { pointer in
                    try Decoder(source: pointer, maxPixels: maxPixels, maxFrames: maxFrames).decode()
                }
            }
        } catch let error as GIFError {
            throw GIFError(description: "cannot read GIF '\(name)': \(error.description)")
        }
    }

    /// The bytes giflib reads from, through `UserData`.
    struct MemorySource {
        var bytes: UnsafeBufferPointer<UInt8>
        var offset: Int
    }

    /// giflib's input function: copies up to `count` bytes, fewer at the end (which giflib reports as a read error).
    static let readBytes: InputFunc = { file, destination, count in
        guard let file, let destination, count > 0,
              let source = file.pointee.UserData?.assumingMemoryBound(to: MemorySource.self) else { return 0 }
        let n = Swift.min(Int(count), source.pointee.bytes.count - source.pointee.offset)
        guard n > 0, let base = source.pointee.bytes.baseAddress else { return 0 }
        destination.update(from: base + source.pointee.offset, count: n)
        source.pointee.offset += n
        return Int32(n)
    }

    /// One decode: the screen as the frames so far left it, and the graphic control that applies to the next frame.
    struct Decoder {
        let source: UnsafeMutablePointer<MemorySource>
        let maxPixels: Int
        let maxFrames: Int

        /// What a graphic control extension says of the frame after it.
        struct Control {
            var disposal = 0
            var delay = 0
            var transparentIndex: Int?
        }

        func decode() throws -> GIFAnimation {
            var status: Int32 = 0
            guard let file = DGifOpen(source, GIF.readBytes, &status) else {
                throw GIFError(description: status == D_GIF_ERR_NOT_GIF_FILE ? "it is not a GIF file"
                                   : reason(status) + " in its header")
            }
            defer { DGifCloseFile(file, &status) }
            let width = Int(file.pointee.SWidth), height = Int(file.pointee.SHeight)
            guard width > 0, height > 0 else {
                throw GIFError(description: "it declares an empty screen of \(width)×\(height) pixels")
            }
            guard width * height <= maxPixels else {
                throw GIFError(description: "it declares a screen of \(width)×\(height) pixels, more than the "
                    + "\(maxPixels) allowed; use a smaller animation")
            }
            var screen = [UInt32](repeating: 0, count: width * height)
            var frames: [Bitmap] = []
            var delays: [Double] = []
            var control = Control()
            var palette = [UInt32](repeating: 0, count: 256)
            var line: [UInt8] = []
            while true {
                var record = UNDEFINED_RECORD_TYPE
                guard DGifGetRecordType(file, &record) == GIF_OK else {
                    // A file that stops between two frames only lacks its trailer: keep what it has.
                    if !frames.isEmpty && source.pointee.offset >= source.pointee.bytes.count { break }
                    throw GIFError(description: reason(file.pointee.Error) + " after \(frames.count) frames")
                }
                switch record {
                case IMAGE_DESC_RECORD_TYPE:
                    guard DGifGetImageDesc(file) == GIF_OK else {
                        throw GIFError(description: reason(file.pointee.Error) + " in frame \(frames.count + 1)")
                    }
                    let number = frames.count + 1
                    guard number <= maxFrames else {
                        throw GIFError(description: "it has more than the \(maxFrames) frames allowed; use fewer")
                    }
                    let desc = file.pointee.Image
                    let left = Int(desc.Left), top = Int(desc.Top)
                    let frameWidth = Int(desc.Width), frameHeight = Int(desc.Height)
                    guard frameWidth >= 0, frameHeight >= 0, frameWidth * frameHeight <= maxPixels else {
                        throw GIFError(description: "frame \(number) declares \(frameWidth)×\(frameHeight) pixels, "
                            + "more than the \(maxPixels) allowed")
                    }
                    guard (frames.count + 1) * width * height <= maxPixels else {
                        throw GIFError(description: "its \(number) frames of \(width)×\(height) pixels are more "
                            + "than the \(maxPixels) pixels allowed; use fewer or smaller frames")
                    }
                    guard let map = desc.ColorMap ?? file.pointee.SColorMap else {
                        throw GIFError(description: "frame \(number) has no colour table")
                    }
                    fillPalette(&palette, from: map.pointee, transparent: control.transparentIndex)
                    let saved = control.disposal == Int(DISPOSE_PREVIOUS) ? screen : nil
                    if frameWidth == 0 || frameHeight == 0 {
                        try skipImageData(file, frame: number)
                    } else {
                        if line.count < frameWidth { line = [UInt8](repeating: 0, count: frameWidth) }
                        for row in GIF.rowOrder(height: frameHeight, interlaced: desc.Interlace) {
                            guard DGifGetLine(file, &line, Int32(frameWidth)) == GIF_OK else {
                                throw GIFError(description: reason(file.pointee.Error) + " in frame \(number)")
                            }
                            let y = top + row
                            guard y >= 0, y < height else { continue }
                            for x in 0..<frameWidth {
                                let sx = left + x
                                guard sx < width else { break }
                                let colour = palette[Int(line[x])]
                                if colour != 0 { screen[y * width + sx] = colour }
                            }
                        }
                    }
                    frames.append(Bitmap(width: width, height: height, pixels: screen)!)
                    delays.append(control.delay <= 1 ? GIF.shortDelayReplacement : Double(control.delay) / 100)
                    if control.disposal == Int(DISPOSE_BACKGROUND) {
                        // The frame's rectangle, cut to the screen, goes back to transparent.
                        let x0 = Swift.max(left, 0), x1 = Swift.min(left + frameWidth, width)
                        let y0 = Swift.max(top, 0), y1 = Swift.min(top + frameHeight, height)
                        if x0 < x1 && y0 < y1 {
                            for y in y0..<y1 { for x in x0..<x1 { screen[y * width + x] = 0 } }
                        }
                    } else if let saved {
                        screen = saved
                    }
                    control = Control()
                case EXTENSION_RECORD_TYPE:
                    var code: Int32 = 0
                    var block: UnsafeMutablePointer<GifByteType>?
                    guard DGifGetExtension(file, &code, &block) == GIF_OK else {
                        throw GIFError(description: reason(file.pointee.Error) + " in an extension after frame \(frames.count)")
                    }
                    if code == CGIF_GRAPHICS_EXT, let b = block, b[0] >= 4 {
                        control.disposal = Int((b[1] >> 2) & 7)
                        control.transparentIndex = b[1] & 1 != 0 ? Int(b[4]) : nil
                        control.delay = Int(b[2]) | Int(b[3]) << 8
                    }
                    while block != nil {
                        guard DGifGetExtensionNext(file, &block) == GIF_OK else {
                            throw GIFError(description: reason(file.pointee.Error) + " in an extension after frame \(frames.count)")
                        }
                    }
                case TERMINATE_RECORD_TYPE:
                    guard !frames.isEmpty else { throw GIFError(description: "it has no frames") }
                    return GIFAnimation(width: width, height: height, frames: frames, delays: delays)
                default:
                    throw GIFError(description: "it has a record of unknown type after frame \(frames.count)")
                }
            }
            return GIFAnimation(width: width, height: height, frames: frames, delays: delays)
        }

        /// A frame's colours as premultiplied pixels; the transparent index and the indices past the table are 0,
        /// which leaves the screen's pixel as it was.
        private func fillPalette(_ palette: inout [UInt32], from map: ColorMapObject, transparent: Int?) {
            let count = Swift.min(Swift.max(Int(map.ColorCount), 0), 256)
            for i in 0..<256 {
                guard i < count, let colours = map.Colors else { palette[i] = 0; continue }
                let c = colours[i]
                palette[i] = 0xFF00_0000 | UInt32(c.Red) << 16 | UInt32(c.Green) << 8 | UInt32(c.Blue)
            }
            if let transparent, transparent < 256 { palette[transparent] = 0 }
        }

        /// Reads past the image data of a frame with no pixels.
        private func skipImageData(_ file: UnsafeMutablePointer<GifFileType>, frame: Int) throws {
            var size: Int32 = 0
            var block: UnsafeMutablePointer<GifByteType>?
            guard DGifGetCode(file, &size, &block) == GIF_OK else {
                throw GIFError(description: reason(file.pointee.Error) + " in frame \(frame)")
            }
            while block != nil {
                guard DGifGetCodeNext(file, &block) == GIF_OK else {
                    throw GIFError(description: reason(file.pointee.Error) + " in frame \(frame)")
                }
            }
        }

        /// giflib's error in words; running out of bytes is said as such, whichever part giflib was reading.
        private func reason(_ code: Int32) -> String {
            if code == D_GIF_ERR_READ_FAILED || source.pointee.offset >= source.pointee.bytes.count {
                return "it ends early (truncated)"
            }
            guard let text = GifErrorString(code) else { return "giflib error \(code)" }
            return "giflib: " + String(cString: text).lowercased()
        }
    }

    /// The order an image's rows arrive in: top to bottom, or for an interlaced image every 8th row from 0, every
    /// 8th from 4, every 4th from 2, then every 2nd from 1.
    static func rowOrder(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<height) }
        var rows: [Int] = []
        rows.reserveCapacity(height)
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
            rows += stride(from: start, to: height, by: step)
        }
        return rows
    }
}

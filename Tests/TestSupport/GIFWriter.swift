/// A small GIF89a encoder, written independently of the decoder under test, so that tests can make GIFs with
/// exactly the features they check: per-frame rectangles, local colour tables, transparency, disposal, delays,
/// interlacing.
public enum GIFWriter {
    /// One frame: colour indices for its rectangle, row after row, and its graphic control.
    public struct Frame: Sendable {
        public var left: Int, top: Int, width: Int, height: Int
        public var indices: [UInt8]
        /// In hundredths of a second.
        public var delay: Int
        /// 0 unspecified, 1 keep, 2 clear to background, 3 restore the previous screen.
        public var disposal: Int
        public var transparentIndex: Int?
        /// Colours as 0xRRGGBB; nil uses the global table.
        public var localPalette: [UInt32]?
        public var interlaced: Bool

        public init(left: Int = 0, top: Int = 0, width: Int, height: Int, indices: [UInt8], delay: Int = 10,
                    disposal: Int = 1, transparentIndex: Int? = nil, localPalette: [UInt32]? = nil,
                    interlaced: Bool = false) {
            precondition(indices.count == width * height, "a frame needs width × height indices")
            self.left = left; self.top = top; self.width = width; self.height = height
            self.indices = indices
            self.delay = delay
            self.disposal = disposal
            self.transparentIndex = transparentIndex
            self.localPalette = localPalette
            self.interlaced = interlaced
        }
    }

    /// The bytes of a GIF with a `width × height` screen, a global palette (0xRRGGBB each, nil for none) and the
    /// frames; `trailer: false` leaves out the final byte, as some encoders do.
    public static func encode(width: Int, height: Int, palette: [UInt32]?, frames: [Frame],
                              trailer: Bool = true) -> [UInt8] {
        var out = Array("GIF89a".utf8)
        word(width, &out)
        word(height, &out)
        if let palette {
            out += [0x80 | UInt8(tableBits(palette.count) - 1), 0, 0]
            table(palette, &out)
        } else {
            out += [0, 0, 0]
        }
        // NETSCAPE2.0: loop forever.
        out += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for frame in frames {
            let packed = UInt8(frame.disposal & 7) << 2 | (frame.transparentIndex == nil ? 0 : 1)
            out += [0x21, 0xF9, 4, packed, UInt8(frame.delay & 0xFF), UInt8(frame.delay >> 8),
                    UInt8(frame.transparentIndex ?? 0), 0]
            out.append(0x2C)
            word(frame.left, &out); word(frame.top, &out); word(frame.width, &out); word(frame.height, &out)
            var flags: UInt8 = frame.interlaced ? 0x40 : 0
            if let local = frame.localPalette { flags |= 0x80 | UInt8(tableBits(local.count) - 1) }
            out.append(flags)
            if let local = frame.localPalette { table(local, &out) }
            var rows: [Int] = Array(0..<frame.height)
            if frame.interlaced {
                rows = [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { stride(from: $0.0, to: frame.height, by: $0.1) }
            }
            let ordered = rows.flatMap { frame.indices[($0 * frame.width)..<(($0 + 1) * frame.width)] }
            out.append(8)
            let data = lzw(ordered, minimumCodeSize: 8)
            var i = 0
            while i < data.count {
                let n = Swift.min(255, data.count - i)
                out.append(UInt8(n))
                out += data[i..<(i + n)]
                i += n
            }
            out.append(0)
        }
        if trailer { out.append(0x3B) }
        return out
    }

    /// LZW as GIF uses it: variable-width codes from `minimumCodeSize + 1` bits up to 12, packed least
    /// significant bit first, with a clear code when the table is full.
    public static func lzw(_ indices: [UInt8], minimumCodeSize m: Int) -> [UInt8] {
        let clear = 1 << m, end = clear + 1
        var out: [UInt8] = []
        var bitBuffer = 0, bitCount = 0
        var width = m + 1
        func emit(_ code: Int) {
            bitBuffer |= code << bitCount
            bitCount += width
            while bitCount >= 8 {
                out.append(UInt8(bitBuffer & 0xFF))
                bitBuffer >>= 8
                bitCount -= 8
            }
        }
        var table: [Int: Int] = [:]
        var next = end + 1
        emit(clear)
        guard var prefix = indices.first.map(Int.init) else {
            emit(end)
            if bitCount > 0 { out.append(UInt8(bitBuffer & 0xFF)) }
            return out
        }
        for k in indices.dropFirst() {
            let key = prefix << 8 | Int(k)
            if let code = table[key] {
                prefix = code
                continue
            }
            emit(prefix)
            if next < 4096 {
                table[key] = next
                next += 1
                // The decoder reads the next code one bit wider once the code just added needs it.
                if next - 1 == 1 << width && width < 12 { width += 1 }
            } else {
                emit(clear)
                table.removeAll(keepingCapacity: true)
                width = m + 1
                next = end + 1
            }
            prefix = Int(k)
        }
        emit(prefix)
        emit(end)
        if bitCount > 0 { out.append(UInt8(bitBuffer & 0xFF)) }
        return out
    }

    static func word(_ v: Int, _ out: inout [UInt8]) { out += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }

    /// Bits of a colour table holding `count` colours: 2 to 256 entries, a power of two.
    static func tableBits(_ count: Int) -> Int {
        var bits = 1
        while (1 << bits) < count && bits < 8 { bits += 1 }
        return bits
    }

    static func table(_ colours: [UInt32], _ out: inout [UInt8]) {
        let n = 1 << tableBits(colours.count)
        for i in 0..<n {
            let c = i < colours.count ? colours[i] : 0
            out += [UInt8((c >> 16) & 0xFF), UInt8((c >> 8) & 0xFF), UInt8(c & 0xFF)]
        }
    }
}

/// Coverage masks of glyphs kept across frames, keyed by font, glyph, pixel size and sub-pixel x position, and
/// bounded in memory: when a new mask would pass the byte or entry limit, the least recently used ones go.
///
/// Everything but the mask bytes is allocated once, at init: the entries live in fixed arrays linked into a
/// recency list by index, and the lookup table is open addressing with linear probing over a power-of-two
/// table at most half full, with a multiplicative hash of one packed 64-bit key. A hit is a few loads and
/// two list splices, so drawing from a warm cache allocates nothing and hashes nothing expensive.
public final class GlyphCache {
    /// Sub-pixel x positions a glyph is rendered at, as a power of two: 2 bits, pens snapped to quarter pixels.
    public static let subpixelBits = 2
    /// Sub-pixel x positions a glyph is rendered at: 4.
    public static let subpixelPositions = 1 << subpixelBits
    /// Largest pixel size per em a glyph is rendered at; beyond it glyphs draw nothing (a mask of a bigger
    /// glyph would be megabytes, and no screen text needs one).
    static let maxPixelSize = 2048.0
    /// Default bound on the bytes of cached masks: about 10 000 glyphs of 24×28 px.
    public static let defaultByteLimit = 8 << 20
    /// Default bound on the number of cached masks.
    public static let defaultEntryLimit = 8192

    let byteLimit: Int
    let entryLimit: Int
    /// Bytes held by cached masks.
    private(set) var byteCount = 0
    /// Masks held.
    public private(set) var count = 0
    /// Lookups answered from the cache, lookups that rendered, and masks evicted, since init.
    private(set) var hits = 0, misses = 0, evictions = 0

    private let rasterizer = GlyphRasterizer()
    private let tableMask: Int
    private let tableShift: UInt64
    /// Entry index per table position, −1 when free.
    private let table: UnsafeMutablePointer<Int32>
    private let keys: UnsafeMutablePointer<UInt64>
    private let masks: UnsafeMutablePointer<GlyphMask>
    /// Bytes of each entry's block (runs and coverage).
    private let sizes: UnsafeMutablePointer<Int>
    /// Where masks are encoded as runs before their block is allocated at the right size.
    private var runScratch: UnsafeMutablePointer<UInt16> = .allocate(capacity: 1)
    private var runScratchCapacity = 1
    /// Recency list: `newer`/`older` neighbours of each entry, −1 at the ends.
    private let newer: UnsafeMutablePointer<Int32>
    private let older: UnsafeMutablePointer<Int32>
    private var newest: Int32 = -1, oldest: Int32 = -1
    /// Entries never used yet are `count…`; freed ones are reused through this stack.
    private let freeList: UnsafeMutablePointer<Int32>
    private var freeCount = 0
    private var used = 0

    public init(byteLimit: Int = GlyphCache.defaultByteLimit, entryLimit: Int = GlyphCache.defaultEntryLimit) {
        self.byteLimit = Swift.max(byteLimit, 0)
        self.entryLimit = Swift.max(entryLimit, 1)
        var size = 2
        while size < 2 * self.entryLimit { size <<= 1 }
        tableMask = size - 1
        tableShift = UInt64(64 - size.trailingZeroBitCount)
        table = .allocate(capacity: size)
        table.initialize(repeating: -1, count: size)
        keys = .allocate(capacity: self.entryLimit)
        masks = .allocate(capacity: self.entryLimit)
        masks.initialize(repeating: .empty, count: self.entryLimit)
        sizes = .allocate(capacity: self.entryLimit)
        newer = .allocate(capacity: self.entryLimit)
        older = .allocate(capacity: self.entryLimit)
        freeList = .allocate(capacity: self.entryLimit)
    }

    deinit {
        var e = newest
        while e >= 0 {
            masks[Int(e)].runs?.deallocate()
            e = older[Int(e)]
        }
        table.deallocate(); keys.deallocate(); masks.deallocate(); sizes.deallocate(); runScratch.deallocate()
        newer.deallocate(); older.deallocate(); freeList.deallocate()
    }

    /// The packed key: 32 bits of size in 1/64 px, 8 of font, 8 of sub-pixel position, 16 of glyph
    /// (TrueType and CFF glyph indices are 16-bit).
    @inline(__always)
    static func key(font: Int, glyph: UInt32, size64: Int, subpixel: Int) -> UInt64 {
        UInt64(truncatingIfNeeded: size64) << 32 | UInt64(font & 0xFF) << 24 | UInt64(subpixel & 0xFF) << 16
            | UInt64(glyph & 0xFFFF)
    }

    @inline(__always)
    private func home(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> tableShift)
    }

    /// The mask of `glyph` of `fonts[font]` at `pixelSize` per em with the pen `subpixel` quarters of a pixel
    /// right of a whole pixel, rendered on first use. Its bytes stay valid until a later lookup evicts it.
    public func mask(fonts: FontSet, font: Int, glyph: UInt32, pixelSize: Double, subpixel: Int) -> GlyphMask {
        guard pixelSize > 0, pixelSize <= GlyphCache.maxPixelSize else { return .empty }
        return mask(fonts: fonts, font: font, glyph: glyph, size64: Int((pixelSize * 64).rounded()), subpixel: subpixel)
    }

    /// The same lookup with the size already in 1/64 px, as a renderer computes it once per line.
    @inline(__always)
    func mask(fonts: FontSet, font: Int, glyph: UInt32, size64: Int, subpixel: Int) -> GlyphMask {
        let k = GlyphCache.key(font: font, glyph: glyph, size64: size64, subpixel: subpixel)
        var p = home(k)
        while true {
            let e = table[p]
            if e < 0 { break }
            if keys[Int(e)] == k {
                hits &+= 1
                touch(e)
                return masks[Int(e)]
            }
            p = (p &+ 1) & tableMask
        }
        misses &+= 1
        let f = fonts.font(at: font)
        let outline = f.outline(glyph: glyph)
        let offset = Double(subpixel) / Double(GlyphCache.subpixelPositions)
        let rendered = rasterizer.render(outline, scale: Double(size64) / 64 / f.unitsPerEm, offsetX: offset)
        return insert(k, rendered)
    }

    /// Drops every mask.
    public func removeAll() {
        while oldest >= 0 { evict(oldest) }
    }

    private func insert(_ k: UInt64, _ m: GlyphMask) -> GlyphMask {
        let bytes = m.width * m.height
        var runCount = 0
        if m.coverage != nil && bytes > 0 {
            let capacity = GlyphMask.runCapacity(width: m.width, height: m.height)
            if capacity > runScratchCapacity {
                runScratch.deallocate()
                runScratchCapacity = capacity
                runScratch = .allocate(capacity: capacity)
            }
            runCount = GlyphMask.writeRuns(m.coverage!, width: m.width, height: m.height, into: runScratch)
        }
        // One block per mask: the runs (UInt16, first, for alignment), then the coverage bytes.
        let blockBytes = runCount * 2 + bytes
        while count > 0 && (count >= entryLimit || byteCount + blockBytes > byteLimit) { evict(oldest) }
        var copy = GlyphMask.empty
        if let src = m.coverage, bytes > 0 {
            let block = UnsafeMutableRawPointer.allocate(byteCount: blockBytes, alignment: 2)
            let runs = block.bindMemory(to: UInt16.self, capacity: runCount)
            runs.update(from: runScratch, count: runCount)
            let dst = (block + runCount * 2).bindMemory(to: UInt8.self, capacity: bytes)
            dst.update(from: src, count: bytes)
            copy = GlyphMask(left: m.left, top: m.top, width: m.width, height: m.height, coverage: UnsafePointer(dst),
                             runs: UnsafePointer(runs))
        }
        let e: Int32
        if freeCount > 0 {
            freeCount -= 1
            e = freeList[freeCount]
        } else {
            e = Int32(used)
            used += 1
        }
        keys[Int(e)] = k
        masks[Int(e)] = copy
        var p = home(k)
        while table[p] >= 0 { p = (p &+ 1) & tableMask }
        table[p] = e
        newer[Int(e)] = -1
        older[Int(e)] = newest
        if newest >= 0 { newer[Int(newest)] = e }
        newest = e
        if oldest < 0 { oldest = e }
        count += 1
        byteCount += blockBytes
        sizes[Int(e)] = blockBytes
        return copy
    }

    /// Moves entry `e` to the newest end of the recency list.
    @inline(__always)
    private func touch(_ e: Int32) {
        guard e != newest else { return }
        unlink(e)
        newer[Int(e)] = -1
        older[Int(e)] = newest
        if newest >= 0 { newer[Int(newest)] = e }
        newest = e
        if oldest < 0 { oldest = e }
    }

    @inline(__always)
    private func unlink(_ e: Int32) {
        let n = newer[Int(e)], o = older[Int(e)]
        if n >= 0 { older[Int(n)] = o } else { newest = o }
        if o >= 0 { newer[Int(o)] = n } else { oldest = n }
    }

    private func evict(_ e: Int32) {
        unlink(e)
        let m = masks[Int(e)]
        byteCount -= sizes[Int(e)]
        m.runs?.deallocate()
        masks[Int(e)] = .empty
        // Remove from the table and shift later entries of the same probe run back, so no lookup stops early.
        var i = home(keys[Int(e)])
        while table[i] != e { i = (i &+ 1) & tableMask }
        table[i] = -1
        var j = i
        while true {
            j = (j &+ 1) & tableMask
            let f = table[j]
            if f < 0 { break }
            let h = home(keys[Int(f)])
            // Entry f may move into the hole at i when its home does not lie cyclically in (i, j].
            let stays = i <= j ? (h > i && h <= j) : (h > i || h <= j)
            if !stays {
                table[i] = f
                table[j] = -1
                i = j
            }
        }
        freeList[freeCount] = e
        freeCount += 1
        count -= 1
        evictions += 1
    }
}

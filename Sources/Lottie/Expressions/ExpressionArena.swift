#if canImport(Glibc)
import Glibc
#endif

/// The memory of a file's JavaScript heap, counted against `limit`. Blocks up to `largest` bytes come from one
/// range of addresses reserved when the heap is made (pages are taken from the system only as they are first
/// written), in sizes of four steps between powers of two (a block wastes at most a fifth of itself), with a free
/// list per size: a playing animation's frames, which allocate and free small values, make no system allocation.
/// Larger blocks (a long array's elements, a long string) come from the system and go back to it when freed, so
/// that an array growing step by step does not leave every smaller size behind in the lists.
///
/// The engine sets `limit` in steps: while the file is read, the library, the compiled expressions and the layers
/// they describe may take `ExpressionEngine.modelLimit`; once compiled, the expressions get
/// `ExpressionEngine.memoryLimit` more for their own values, so that however large the file, its expressions have
/// the same room to run, and one that allocates without end meets the limit and fails with Duktape's
/// out-of-memory error instead of taking the machine's memory.
final class ExpressionArena {
    /// Bytes before each block: its size class (or −1 for a block from the system) and its size, keeping the
    /// block 16-byte aligned.
    private static let header = 16
    /// The largest block served from the range, header included.
    private static let largest = 64 << 10
    /// Four classes for each power of two up to `largest`.
    private static let classCount = 4 * 17

    /// The reserved range's size: the most its blocks can take.
    let capacity: Int
    /// The most bytes handed out, from the range and the system together.
    private(set) var limit: Int
    private let base: UnsafeMutableRawPointer
    /// Bytes handed out from the range (freed blocks stay counted: they wait in their lists).
    private var used = 0
    /// Bytes of the blocks from the system now held.
    private var large = 0
    private let freeLists: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    /// An arena of `capacity` bytes of addresses, `limit` bytes usable at first; nil when the system will not
    /// reserve the range.
    init?(capacity: Int, limit: Int) {
        guard let range = mmap(nil, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
              range != MAP_FAILED else { return nil }
        self.capacity = capacity
        self.limit = limit
        base = range
        freeLists = .allocate(capacity: ExpressionArena.classCount)
        freeLists.initialize(repeating: nil, count: ExpressionArena.classCount)
    }

    deinit {
        munmap(base, capacity)
        freeLists.deallocate()
    }

    /// Lets `extra` bytes more than those held now be handed out.
    func allow(_ extra: Int) {
        setLimit(reserved + extra)
    }

    func setLimit(_ bytes: Int) {
        limit = bytes
    }

    /// The size class holding `total` bytes (header included): 4e + m − 1 for a block of 2ᵉ + m·2ᵉ⁻² bytes.
    private static func sizeClass(_ total: Int) -> Int {
        let total = Swift.max(total, 32)
        let e = Int.bitWidth - 1 - (total - 1).leadingZeroBitCount
        let step = 1 << (e - 2)
        return 4 * e + (total - (1 << e) + step - 1) / step - 1
    }

    /// A class's block size, a multiple of 16 so that every block stays aligned.
    private static func blockBytes(_ k: Int) -> Int {
        let e = k / 4, m = k % 4 + 1
        return ((1 << e) + m << (e - 2) + 15) & ~15
    }

    /// `size` bytes, or nil when the limit is reached.
    func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
        guard size >= 0, size < limit else { return nil }
        let total = size + ExpressionArena.header
        if total > ExpressionArena.largest {
            guard reserved + total <= limit, let block = malloc(total) else { return nil }
            large += total
            block.storeBytes(of: -1, as: Int.self)
            block.storeBytes(of: total, toByteOffset: 8, as: Int.self)
            return block + ExpressionArena.header
        }
        let k = ExpressionArena.sizeClass(total)
        let block: UnsafeMutableRawPointer
        if let free = freeLists[k] {
            freeLists[k] = free.load(as: UnsafeMutableRawPointer?.self)
            block = free
        } else {
            let bytes = ExpressionArena.blockBytes(k)
            guard reserved + bytes <= limit, used + bytes <= capacity else { return nil }
            block = base + used
            used += bytes
        }
        block.storeBytes(of: k, as: Int.self)
        return block + ExpressionArena.header
    }

    func free(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        let block = pointer - ExpressionArena.header
        let k = block.load(as: Int.self)
        if k < 0 {
            large -= block.load(fromByteOffset: 8, as: Int.self)
            Glibc.free(block)
            return
        }
        block.storeBytes(of: freeLists[k], as: UnsafeMutableRawPointer?.self)
        freeLists[k] = block
    }

    /// `pointer`'s block grown or shrunk to `size` bytes, moved only when its size class changes (a block from
    /// the system is resized by the system).
    func reallocate(_ pointer: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
        guard let pointer else { return allocate(size) }
        guard size > 0 else { free(pointer); return nil }
        let block = pointer - ExpressionArena.header
        let k = block.load(as: Int.self), total = size + ExpressionArena.header
        if k < 0 {
            let old = block.load(fromByteOffset: 8, as: Int.self)
            if total > ExpressionArena.largest {
                guard reserved - old + total <= limit, let moved = realloc(block, total) else { return nil }
                large += total - old
                moved.storeBytes(of: total, toByteOffset: 8, as: Int.self)
                return moved + ExpressionArena.header
            }
        } else if total <= ExpressionArena.largest, ExpressionArena.sizeClass(total) == k {
            return pointer
        }
        let held = k < 0 ? block.load(fromByteOffset: 8, as: Int.self) : ExpressionArena.blockBytes(k)
        guard let moved = allocate(size) else { return nil }
        moved.copyMemory(from: pointer, byteCount: Swift.min(size, held - ExpressionArena.header))
        free(pointer)
        return moved
    }

    /// Bytes held: handed out from the range so far (freed blocks there stay counted, waiting in their lists), and
    /// the blocks from the system now held.
    var reserved: Int { used + large }
}

/// The memory of a file's JavaScript heap: one block reserved when the heap is made, handed out in power-of-two
/// sizes with a free list per size. Duktape allocates as it evaluates; served from here, a playing animation's
/// frames make no system allocation, and an expression that allocates without end meets `capacity` and fails with
/// Duktape's out-of-memory error instead of taking the machine's memory.
final class ExpressionArena {
    /// Bytes before each block: its size class, keeping the block 16-byte aligned.
    private static let header = 16
    private static let smallestClass = 5  // 32 bytes
    private static let classCount = 48

    let capacity: Int
    private let base: UnsafeMutableRawPointer
    private var used = 0
    private let freeLists: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    init(capacity: Int) {
        self.capacity = capacity
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        freeLists = .allocate(capacity: ExpressionArena.classCount)
        freeLists.initialize(repeating: nil, count: ExpressionArena.classCount)
    }

    deinit {
        base.deallocate()
        freeLists.deallocate()
    }

    /// The size class holding `size` bytes and the header: log2 of the block's size.
    private static func sizeClass(_ size: Int) -> Int {
        let total = Swift.max(size + header, 1 << smallestClass)
        return Int.bitWidth - (total - 1).leadingZeroBitCount
    }

    /// `size` bytes, or nil when the arena is full (or the size past any class).
    func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
        guard size >= 0, size < capacity else { return nil }
        let k = ExpressionArena.sizeClass(size)
        let block: UnsafeMutableRawPointer
        if let free = freeLists[k] {
            freeLists[k] = free.load(as: UnsafeMutableRawPointer?.self)
            block = free
        } else {
            let bytes = 1 << k
            guard used + bytes <= capacity else { return nil }
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
        block.storeBytes(of: freeLists[k], as: UnsafeMutableRawPointer?.self)
        freeLists[k] = block
    }

    /// `pointer`'s block grown or shrunk to `size` bytes, moved only when its size class changes.
    func reallocate(_ pointer: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
        guard let pointer else { return allocate(size) }
        guard size > 0 else { free(pointer); return nil }
        let k = (pointer - ExpressionArena.header).load(as: Int.self)
        if ExpressionArena.sizeClass(size) == k { return pointer }
        guard let moved = allocate(size) else { return nil }
        moved.copyMemory(from: pointer, byteCount: Swift.min(size, (1 << k) - ExpressionArena.header))
        free(pointer)
        return moved
    }

    /// Bytes handed out from the block so far (freed blocks stay counted: they wait in their lists).
    var reserved: Int { used }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster
import UserFiles

/// Writes PNG files on worker threads while the caller goes on making the next frames: encoding a phone's frame
/// takes longer than drawing it, so one thread would keep the run waiting.
///
/// - In order: each file is written (through its temporary, renamed into place, see `OutputFile`) only after the
///   one added before it, so a folder always holds the first frames of a run and never a later one without an
///   earlier.
/// - Bounded: a frame waits as a copy in one of `capacity` buffers, made once at the frame's size and reused;
///   `add` waits while every buffer is taken.
/// - A frame the same as the one before (a list at rest) is neither copied nor encoded again: its file gets the
///   bytes of the one before.
/// - After a failure nothing more is written; the first failure is thrown once, by `add` or `finish`.
/// - `finish` writes every frame added, then ends the workers. On a second signal (see `Termination`) the file
///   being written is finished and nothing more is begun, so the watcher leaves no file half-written.
final class PNGWriterPool: @unchecked Sendable {
    /// A frame's copy, and what becomes of it.
    private final class Slot {
        var pixels: UnsafeMutablePointer<UInt32>?
        var pixelCapacity = 0
        var width = 0
        var height = 0
        var path = ""
        /// Its place in the order files are written.
        var turn = 0
        /// True when the frame is the same as the one added before: `pixels` are not its own, and its file gets
        /// the bytes written last.
        var repeatsPrevious = false

        deinit { pixels?.deallocate() }

        /// Copies `canvas`, growing the buffer only for a larger frame than it held.
        func copy(_ canvas: Canvas) {
            let count = canvas.pixelCount
            if pixelCapacity < count {
                pixels?.deallocate()
                pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
                pixelCapacity = count
            }
            pixels!.update(from: canvas.pixels, count: count)
            width = canvas.width
            height = canvas.height
        }

        /// True when the pixels are `canvas`'s.
        func holds(_ canvas: Canvas) -> Bool {
            guard let pixels, width == canvas.width, height == canvas.height else { return false }
            return memcmp(pixels, canvas.pixels, canvas.pixelCount * 4) == 0
        }
    }

    /// The workers: one per processor, at most four (more would only hold more frames in memory).
    let workerCount: Int
    /// How many frames may wait or be encoded at once: one per worker, and two more so that the caller need not
    /// wait for a worker to take the next. Memory is this many copies of a frame (4 on two processors, 6 at most).
    let capacity: Int

    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Signalled whenever a slot is queued, freed or written, or the pool closes or stops.
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // The state below is read and written under `lock`.
    private var idle: [Slot] = []
    /// Frames added and not yet taken by a worker, oldest first.
    private var queue: [Slot] = []
    /// The turn the next added frame gets, and the turn whose file is written next.
    private var nextTurn = 0
    private var writtenTurns = 0
    private var failure: (any Error)?
    private var failureThrown = false
    /// Set by `finish`: workers end once the queue is empty.
    private var closing = false
    /// Set by a second signal: no file is begun any more.
    private var stopped = false
    /// True while a worker writes a file (from its temporary to the rename).
    private var writingFile = false
    private var threads: [pthread_t] = []
    /// The slot holding the last frame copied: only `add` reads it and writes into slots, so its pixels stay.
    private var lastCopied: Slot?
    /// The bytes of the last file written, for a frame that repeats it: touched only by the worker whose turn it is.
    private var lastWritten: [UInt8] = []

    /// Every pool with workers, for a second signal to stop.
    private static let running = LockedObjects<PNGWriterPool>()
    /// Registers `stopAll` with the termination watcher, once.
    private static let stopsOnSecondSignal: Void = Termination.addStopper { PNGWriterPool.stopAll() }

    /// Starts the workers: `workers` of them, or one per processor (at most four).
    init(workers: Int? = nil) {
        workerCount = Swift.max(1, workers ?? Swift.min(4, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        capacity = workerCount + 2
        pthread_mutex_init(lock, nil)
        pthread_cond_init(changed, nil)
        idle = (0..<capacity).map { _ in Slot() }
        queue.reserveCapacity(capacity)
        _ = PNGWriterPool.stopsOnSecondSignal
        PNGWriterPool.running.insert(self)
        for _ in 0..<workerCount {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(self).toOpaque()
            let started = pthread_create(&thread, nil, { context in
                Unmanaged<PNGWriterPool>.fromOpaque(context!).takeRetainedValue().work()
                return nil
            }, context)
            if started == 0 {
                threads.append(thread)
            } else {
                Unmanaged<PNGWriterPool>.fromOpaque(context).release()
            }
        }
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(lock)
        changed.deallocate()
        lock.deallocate()
    }

    /// Copies `canvas` to be written to `path` after every frame added before it; waits while `capacity` frames
    /// are waiting already.
    ///
    /// - Throws: the first failure of an earlier frame (`PNGError` naming its file), once; after it, frames are
    ///   dropped.
    func add(_ canvas: Canvas, path: String) throws {
        pthread_mutex_lock(lock)
        while idle.isEmpty && failure == nil { pthread_cond_wait(changed, lock) }
        if failure != nil {
            // Nothing more is written after a failure: it is thrown once, and later frames are dropped.
            let error = takeFailure()
            pthread_mutex_unlock(lock)
            if let error { throw error }
            return
        }
        precondition(!closing, "a PNG written after the pool finished")
        let slot = idle.removeLast()
        pthread_mutex_unlock(lock)
        // Compared and copied outside the lock: the workers go on meanwhile, and the slot is no one else's.
        slot.repeatsPrevious = lastCopied?.holds(canvas) ?? false
        if !slot.repeatsPrevious {
            slot.copy(canvas)
            lastCopied = slot
        }
        slot.path = path
        pthread_mutex_lock(lock)
        slot.turn = nextTurn
        nextTurn += 1
        queue.append(slot)
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
        // Without a thread (the system would start none) the caller writes its frames itself.
        if threads.isEmpty { work(untilIdle: true) }
    }

    /// Waits until every frame added is written (or a failure or a second signal ends the writing), then ends the
    /// workers.
    ///
    /// - Throws: the first failure (`PNGError` naming its file), unless `add` threw it already.
    func finish() throws {
        pthread_mutex_lock(lock)
        closing = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
        for thread in threads { pthread_join(thread, nil) }
        threads.removeAll()
        PNGWriterPool.running.remove(self)
        pthread_mutex_lock(lock)
        let error = takeFailure()
        pthread_mutex_unlock(lock)
        if let error { throw error }
    }

    /// The failure not yet thrown, marked thrown. Under `lock`.
    private func takeFailure() -> (any Error)? {
        guard let failure, !failureThrown else { return nil }
        failureThrown = true
        return failure
    }

    /// A worker's life: take the oldest frame, encode it, wait for its turn, write it; until the pool closes, or
    /// `untilIdle` until the queue is empty.
    private func work(untilIdle: Bool = false) {
        let encoder = PNGEncoder()
        pthread_mutex_lock(lock)
        while true {
            while queue.isEmpty && !closing && !untilIdle { pthread_cond_wait(changed, lock) }
            guard !queue.isEmpty else { break }
            let slot = queue.removeFirst()
            let skip = failure != nil || stopped
            pthread_mutex_unlock(lock)
            // Encoded at once, alongside the other workers; written in turn.
            var encoded: Result<UnsafeRawBufferPointer, PNGError>?
            if !skip && !slot.repeatsPrevious {
                do {
                    encoded = .success(try encoder.encode(slot.pixels!, width: slot.width, height: slot.height))
                } catch {
                    encoded = .failure(PNGError(writing: slot.path, reason: "\(error)"))
                }
            }
            pthread_mutex_lock(lock)
            while writtenTurns != slot.turn { pthread_cond_wait(changed, lock) }
            if !skip, failure == nil && !stopped {
                writingFile = true
                pthread_mutex_unlock(lock)
                let written = Result {
                    if let encoded {
                        let bytes = try encoded.get()
                        lastWritten.removeAll(keepingCapacity: true)
                        lastWritten.append(contentsOf: bytes)
                    }
                    try lastWritten.withUnsafeBytes { try PNGEncoder.write($0, to: slot.path) }
                }
                pthread_mutex_lock(lock)
                writingFile = false
                if case .failure(let error) = written { failure = error }
            }
            writtenTurns += 1
            idle.append(slot)
            pthread_cond_broadcast(changed)
        }
        pthread_mutex_unlock(lock)
    }

    /// A second signal's part: every pool finishes the file it is writing and begins no other, so that the watcher,
    /// removing the temporaries next, finds none being written. A file whose write does not end within a second
    /// (a stalled disk) is left to the watcher.
    private static func stopAll() {
        for pool in running.snapshot() { pool.stop(within: 1) }
    }

    private func stop(within seconds: Double) {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        deadline.tv_sec += Int(seconds)
        pthread_mutex_lock(lock)
        stopped = true
        while writingFile && pthread_cond_timedwait(changed, lock, &deadline) == 0 {}
        pthread_mutex_unlock(lock)
    }
}

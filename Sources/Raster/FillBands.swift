#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import RasterKernels
import Synchronization

/// A batch of fills, recorded as they come and then drawn on several threads at once, in horizontal bands of rows.
///
/// Recording only keeps each fill's path and colour. Drawing has two parts, each shared among the threads:
/// 1. **Strokes.** Each thread takes the next stroke not yet taken and makes its outline, once for every band, in a
///    list of edges of its own.
/// 2. **Bands.** Once every outline is made, each thread takes the next band not yet taken and draws it, fill after
///    fill in the recorded order, each into cells limited to the band's rows: a path it flattens itself, passing over
///    the curves that lie wholly outside the band unflattened; an outline or a list of edges it reads, dropping the
///    edges outside the band before any arithmetic. It composites each fill once.
///
/// No edge is sorted into bands beforehand: writing every edge to a band's bin and reading it back cost more than
/// flattening a path again for each band it crosses (measured on the scenes, in docs/guide.md).
///
/// Work goes to whichever thread asks first, so a thread that the system runs late only does less of it.
///
/// Every band's pixels are exactly those of the fills drawn whole on one thread: the edges are the ones the fill
/// would make (a path is flattened a curve at a time, the same arithmetic on every thread), the cells begin on the
/// fill's whole area as they do unbanded, and edges are limited to the band by skipping rows
/// (`CoverageCells.limitRows`), not by clipping them, so each row's piece of an edge comes from the same arithmetic.
/// Bands share no row, so threads never write the same pixel.
///
/// Nothing is allocated once the buffers have grown to a batch's needs (the list of fills is kept with its capacity),
/// and the threads are made once, with the object.
final class FillBands {
    /// Rows per band, as a power of two: 128 by default. Smaller bands share the work more evenly between threads;
    /// larger ones flatten less of a path again in each band it crosses. (Measured on the scenes on two threads: 128
    /// rows were faster than 64 on 16 of 20 scenes, 32 up to 25 % slower, 256 up to 38 % slower on text.)
    static let defaultBandShift = 7
    let bandShift: Int

    /// The threads that draw, the caller's included.
    let threadCount: Int
    /// The most threads a batch is drawn on.
    static let maxThreads = 64

    /// What a recorded fill draws.
    enum Shape {
        /// A path mapped through a transform and flattened within a tolerance, in pixels.
        case path(Path, AffineTransform, tolerance: Double)
        /// A path stroked in its own units within `tolerance` and mapped; the area is the outline's bounds in the box.
        case stroke(Path, StrokeStyle, AffineTransform, tolerance: Double, box: ClipBox)
        /// Straight edges in pixels, as pairs of ends.
        case edges([Point])
        /// The whole canvas set to the colour.
        case clear
    }

    /// One recorded fill.
    struct Command {
        var shape: Shape
        /// Held until the batch is drawn; its pixels are reached through `storage`, which does not wait for the batch.
        var canvas: Canvas
        /// The area the fill's cells begin on, as drawn whole (a stroke's is found when it is stroked).
        var area: ClipBox
        var color: UInt32
        var evenOdd: Bool

        var pixels: UnsafeMutablePointer<UInt32> { canvas.storage }
        var canvasWidth: Int { canvas.width }
        var canvasHeight: Int { canvas.height }
    }

    /// Where a stroke's outline is: `points` (pairs of ends) in thread `thread`'s outlines.
    private struct Outline {
        var thread = 0
        var points = 0..<0
    }

    /// What one thread keeps from one batch to the next: its cells, its stroker, and the outlines it made.
    private final class Worker {
        var cells = CoverageCells()
        let stroker = Stroker()
        var outlines = EdgeList()

        deinit { cells.release() }
    }

    private var commands: [Command] = []
    /// The strokes among the commands, in the recorded order.
    private var strokes = Buffer<Int>()
    /// Each command's area: as recorded, or a stroke's once its outline is made. Written by the thread that strokes
    /// the command, read by every thread after the strokes.
    private var areas = Buffer<ClipBox>()
    /// Each stroke's outline (the other commands' places are unused).
    private var outlines = Buffer<Outline>()
    /// Bands the batch's canvases need.
    private var bandCount = 0
    /// The pipeline the threads add and composite with: the recording rasterizer's.
    private let pipeline: any FillPipeline.Type
    private let workers: [Worker]

    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let started = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Under `lock`: a new `generation` while `open` lets the threads join a batch; `quitting` ends them.
    private var generation = 0
    private var open = false
    private var quitting = false
    /// `generation` as threads may read it without the lock, to notice a batch while they spin.
    private let announced = Atomic<Int>(0)
    /// The work of a batch is handed out a piece at a time, to whichever thread asks first, so that a thread the
    /// system runs late (or not at all) delays nothing: the next stroke to make, the strokes made, the next band to
    /// draw and the bands drawn.
    private let nextStroke = Atomic<Int>(0)
    private let stroked = Atomic<Int>(0)
    private let nextBand = Atomic<Int>(0)
    private let drawn = Atomic<Int>(0)
    /// Threads inside a batch; the batch's buffers are emptied only when none is.
    private let inside = Atomic<Int>(0)
    private var threads: [pthread_t] = []

    /// How long a thread that has finished its part of a batch watches for the next before it sleeps: long enough to
    /// catch batches drawn back to back, which then need no wake-up from the system.
    private static let spinNanoseconds: UInt64 = 200_000

    init(threadCount: Int, pipeline: any FillPipeline.Type, bandShift: Int = FillBands.defaultBandShift) {
        precondition((2...FillBands.maxThreads).contains(threadCount), "banded fills need 2 to 64 threads")
        precondition((0...12).contains(bandShift), "bands of 1 to 4096 rows")
        self.threadCount = threadCount
        self.bandShift = bandShift
        self.pipeline = pipeline
        workers = (0..<threadCount).map { _ in Worker() }
        pthread_mutex_init(lock, nil)
        pthread_cond_init(started, nil)
        for k in 1..<threadCount {
            let context = Unmanaged.passRetained(ThreadContext(bands: self, index: k)).toOpaque()
            var thread = pthread_t()
            let result = pthread_create(&thread, nil, { raw in
                let context = Unmanaged<ThreadContext>.fromOpaque(raw!).takeRetainedValue()
                context.bands.work(as: context.index)
                return nil
            }, context)
            precondition(result == 0, "cannot start a drawing thread (error \(result))")
            threads.append(thread)
        }
    }

    deinit {
        pthread_mutex_lock(lock)
        quitting = true
        pthread_cond_broadcast(started)
        pthread_mutex_unlock(lock)
        for thread in threads { pthread_join(thread, nil) }
        areas.release()
        strokes.release()
        outlines.release()
        pthread_cond_destroy(started)
        pthread_mutex_destroy(lock)
        lock.deallocate()
        started.deallocate()
    }

    /// What a thread is started with; it holds the bands unretained, as the bands end the thread first.
    private final class ThreadContext {
        unowned(unsafe) let bands: FillBands
        let index: Int
        init(bands: FillBands, index: Int) { self.bands = bands; self.index = index }
    }

    /// Records a fill, to be drawn by the next `draw`, or before then when its canvas's pixels are read.
    func record(_ command: Command) {
        let canvas = command.canvas
        // Fills another batch holds for the canvas come first.
        if canvas.hasPendingFills && canvas.pendingFills !== self { canvas.drawPendingFills() }
        canvas.pendingFills = self
        canvas.hasPendingFills = true
        // A stroke's area is set when it is stroked.
        if case .stroke = command.shape { strokes.append(commands.count) }
        areas.append(command.area)
        outlines.append(Outline())
        commands.append(command)
        bandCount = Swift.max(bandCount, ((command.canvasHeight - 1) >> bandShift) + 1)
    }

    // MARK: Drawing

    /// Draws everything recorded, on every thread that joins in time, and empties the record.
    func draw() {
        guard !commands.isEmpty else { return }
        nextStroke.store(0, ordering: .relaxed)
        stroked.store(0, ordering: .relaxed)
        nextBand.store(0, ordering: .relaxed)
        drawn.store(0, ordering: .relaxed)
        pthread_mutex_lock(lock)
        generation += 1
        open = true
        announced.store(generation, ordering: .releasing)
        pthread_cond_broadcast(started)
        pthread_mutex_unlock(lock)
        drawBatch(as: 0)
        FillBands.wait { drawn.load(ordering: .acquiring) == bandCount }
        pthread_mutex_lock(lock)
        open = false
        pthread_mutex_unlock(lock)
        FillBands.wait { inside.load(ordering: .acquiring) == 0 }
        for command in commands {
            command.canvas.hasPendingFills = false
            command.canvas.pendingFills = nil
        }
        commands.removeAll(keepingCapacity: true)
        strokes.count = 0
        areas.count = 0
        outlines.count = 0
        bandCount = 0
        for worker in workers { worker.outlines.removeAll() }
    }

    /// A worker thread's life: it joins each batch that `draw` opens, until the object ends.
    private func work(as index: Int) {
        var seen = 0
        while true {
            // Watch for a while before sleeping.
            let spinUntil = FillBands.nanoseconds() + FillBands.spinNanoseconds
            while announced.load(ordering: .relaxed) == seen && FillBands.nanoseconds() < spinUntil {}
            pthread_mutex_lock(lock)
            while !(open && generation != seen) && !quitting { pthread_cond_wait(started, lock) }
            if quitting {
                pthread_mutex_unlock(lock)
                return
            }
            seen = generation
            inside.add(1, ordering: .relaxed)
            pthread_mutex_unlock(lock)
            drawBatch(as: index)
            inside.subtract(1, ordering: .releasing)
        }
    }

    /// One thread's part of a batch: strokes to make while any are left; then, once all are made, bands to draw
    /// while any are left.
    private func drawBatch(as thread: Int) {
        let worker = workers[thread]
        let count = strokes.count
        while true {
            let i = nextStroke.add(1, ordering: .relaxed).newValue - 1
            guard i < count else { break }
            stroke(strokes.items[i], thread: thread)
            stroked.add(1, ordering: .releasing)
        }
        FillBands.wait { stroked.load(ordering: .acquiring) == count }
        while true {
            let b = nextBand.add(1, ordering: .relaxed).newValue - 1
            guard b < bandCount else { break }
            drawBand(b, cells: &worker.cells)
            drawn.add(1, ordering: .releasing)
        }
    }

    /// Waits, spinning, until `done`: what it waits for is other threads' work already under way, a fraction of a
    /// millisecond.
    private static func wait(until done: () -> Bool) {
        var spins = 0
        while !done() {
            spins += 1
            if spins > 1000 { sched_yield() }
        }
    }

    /// The monotonic clock, in nanoseconds.
    private static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    // MARK: Strokes

    /// Makes stroke `index`'s outline in `thread`'s outlines, and finds its area.
    private func stroke(_ index: Int, thread: Int) {
        guard case .stroke(let path, let style, let transform, let tolerance, let box) = commands[index].shape else {
            preconditionFailure("only strokes are made before the bands")
        }
        let worker = workers[thread]
        let start = worker.outlines.points.count
        worker.stroker.stroke(path, style: style, tolerance: tolerance, transform: transform, into: &worker.outlines)
        let points = start..<worker.outlines.points.count
        let area = worker.outlines.points.withUnsafeBufferPointer {
            Rasterizer.strokeArea(outline: UnsafeBufferPointer(rebasing: $0[points]), box: box)
        }
        // An outline outside the box draws nothing: an empty area, which no band draws.
        areas.items[index] = area ?? ClipBox(minX: 0, minY: 0, maxX: 0, maxY: 0)
        outlines.items[index] = Outline(thread: thread, points: points)
    }

    // MARK: Bands

    /// Draws band `index`: the recorded fills in order, each limited to the band's rows.
    private func drawBand(_ index: Int, cells: inout CoverageCells) {
        let rows = (index << bandShift)..<((index + 1) << bandShift)
        let top = Double(rows.lowerBound), bottom = Double(rows.upperBound)
        for c in 0..<commands.count {
            let area = areas.items[c]
            // A fill none of whose rows is in the band.
            guard area.maxY > top, area.minY < bottom else { continue }
            let command = commands[c]
            if case .clear = command.shape {
                let height = Swift.min(rows.upperBound, command.canvasHeight) - rows.lowerBound
                pipeline.fill(command.pixels + rows.lowerBound * command.canvasWidth,
                              count: height * command.canvasWidth, with: command.color)
                continue
            }
            cells.begin(area: area)
            cells.limitRows(to: rows)
            switch command.shape {
            case .path(let path, let transform, let tolerance):
                pipeline.flatten(path, transform: transform, tolerance: tolerance, into: &cells)
            case .stroke:
                let outline = outlines.items[c]
                workers[outline.thread].outlines.points.withUnsafeBufferPointer {
                    pipeline.addEdges(UnsafeBufferPointer(rebasing: $0[outline.points]), into: &cells)
                }
            case .edges(let ends):
                ends.withUnsafeBufferPointer { pipeline.addEdges($0, into: &cells) }
            case .clear:
                break  // drawn above
            }
            pipeline.composite(cells: &cells, color: command.color, evenOdd: command.evenOdd,
                               into: command.pixels, canvasWidth: command.canvasWidth)
        }
    }
}

/// A growable buffer of plain values: memory that threads may read with no reference counting, grown by doubling
/// and kept when emptied.
struct Buffer<Element> {
    private(set) var items: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// Set to 0 to empty the buffer; only plain values are held, so nothing needs deinitialising.
    var count = 0

    init() {
        capacity = 16
        items = .allocate(capacity: capacity)
    }

    @inline(__always)
    mutating func append(_ item: Element) {
        if count == capacity { grow() }
        (items + count).initialize(to: item)
        count += 1
    }

    /// Doubles the capacity; kept out of `append`, which is inlined.
    @inline(never)
    private mutating func grow() {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: items, count: count)
        items.deallocate()
        items = grown
        capacity *= 2
    }

    /// Frees the memory; the owner calls it once.
    func release() { items.deallocate() }
}

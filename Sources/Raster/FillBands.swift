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
/// 1. **Binning.** Each thread takes the next piece of work not yet taken, a fill or a part of a large path's contours
///    (`Piece`), flattens it (or strokes it), and puts each edge in the bands whose rows it crosses, in bins of its
///    own.
/// 2. **Bands.** Once every fill is binned, each thread takes the next band not yet taken and draws it: fill after
///    fill in the recorded order, merged from every thread's bins, it adds the fill's edges in that band (from every
///    thread that binned a part of it) to cells of its own and composites them once.
///
/// Work goes to whichever thread asks first, so a thread that the system runs late only does less of it.
///
/// Every band's pixels are exactly those of the fills drawn whole on one thread: the edges are the ones the fill
/// would make (a path is flattened a curve at a time, the same arithmetic on every thread), the cells begin on the
/// fill's whole area as they do unbanded, and edges are limited to the band by skipping rows
/// (`CoverageCells.limitRows`), not by clipping them, so each row's piece of an edge comes from the same arithmetic.
/// Cells add coverage in whole numbers, so the order in which a fill's parts are added does not matter.
/// Bands share no row, so threads never write the same pixel.
///
/// Nothing is allocated once the buffers have grown to a batch's needs (the list of fills is kept with its capacity),
/// and the threads are made once, with the object.
final class FillBands {
    /// Rows per band, as a power of two: 64 by default. Smaller bands share the work more evenly between threads;
    /// larger ones repeat less of the work for edges that cross bands. (Measured on the scenes on two threads: 32
    /// rows cost the polygon scenes up to a third more than 64 or 128; 64 and 128 were alike.)
    static let defaultBandShift = 6
    let bandShift: Int

    /// The threads that draw, the caller's included.
    let threadCount: Int
    /// The most threads a batch is drawn on: a band merges one list of fills from each.
    static let maxThreads = 64
    /// A path of more elements than twice this is binned in parts of about this many (whole contours each), so
    /// that one large path (a paragraph of text) does not leave the other threads waiting.
    static let elementsPerPiece = 256

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

    /// A piece of binning work: part `part` of the `parts` a fill's path is binned in (0 of 1 for most).
    private struct Piece {
        var command: Int
        var part: Int
        var parts: Int
    }

    /// A fill's edges in one band: `count` points (pairs of ends) from `start` in the band's edge buffer.
    private struct Segment {
        var command: Int
        var start: Int
        var count: Int
    }

    /// One band's edges from one thread's binning, and the fills they belong to, in order.
    private struct Bin {
        var edges = Buffer<Point>()
        var segments = Buffer<Segment>()

        @inline(__always)
        mutating func add(_ p0: Point, _ p1: Point, command: Int) {
            if segments.count == 0 || segments.last.command != command {
                segments.append(Segment(command: command, start: edges.count, count: 0))
            }
            edges.append(p0)
            edges.append(p1)
            segments.items[segments.count - 1].count += 2
        }

        func release() {
            edges.release()
            segments.release()
        }
    }

    /// What one thread keeps from one batch to the next: its cells, its stroker, and its bins, one per band.
    private final class Worker {
        var cells = CoverageCells()
        let stroker = Stroker()
        var outline = EdgeList()
        var bins = Buffer<Bin>()

        deinit {
            cells.release()
            for b in 0..<bins.count { bins.items[b].release() }
            bins.release()
        }
    }

    private var commands: [Command] = []
    /// The binning's pieces, in the recorded order of their fills.
    private var pieces = Buffer<Piece>()
    /// Each command's area once binned: a stroke's is known only then. Written by the thread that bins the command,
    /// read by every thread after the binning.
    private var areas = Buffer<ClipBox>()
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
    /// system runs late (or not at all) delays nothing: the next piece to bin, the pieces binned, the next band to
    /// draw and the bands drawn.
    private let nextPiece = Atomic<Int>(0)
    private let binned = Atomic<Int>(0)
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
        pieces.release()
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
        var parts = 1
        if case .path(let path, _, _) = command.shape, path.elements.count > 2 * FillBands.elementsPerPiece {
            parts = (path.elements.count + FillBands.elementsPerPiece - 1) / FillBands.elementsPerPiece
        }
        for part in 0..<parts { pieces.append(Piece(command: commands.count, part: part, parts: parts)) }
        commands.append(command)
        bandCount = Swift.max(bandCount, ((command.canvasHeight - 1) >> bandShift) + 1)
    }

    // MARK: Drawing

    /// Draws everything recorded, on every thread that joins in time, and empties the record.
    func draw() {
        guard !commands.isEmpty else { return }
        while areas.count < commands.count { areas.append(ClipBox(minX: 0, minY: 0, maxX: 0, maxY: 0)) }
        for worker in workers {
            while worker.bins.count < bandCount { worker.bins.append(Bin()) }
        }
        nextPiece.store(0, ordering: .relaxed)
        binned.store(0, ordering: .relaxed)
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
        pieces.count = 0
        bandCount = 0
        for worker in workers {
            for b in 0..<worker.bins.count {
                worker.bins.items[b].edges.count = 0
                worker.bins.items[b].segments.count = 0
            }
        }
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

    /// One thread's part of a batch: pieces to bin while any are left; then, once all are binned, bands to draw
    /// while any are left.
    private func drawBatch(as thread: Int) {
        let worker = workers[thread]
        let count = pieces.count
        while true {
            let i = nextPiece.add(1, ordering: .relaxed).newValue - 1
            guard i < count else { break }
            bin(pieces.items[i], worker: worker)
            binned.add(1, ordering: .releasing)
        }
        FillBands.wait { binned.load(ordering: .acquiring) == count }
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

    // MARK: Binning

    /// Makes a piece's edges and puts them in `worker`'s bins.
    private func bin(_ piece: Piece, worker: Worker) {
        let index = piece.command
        let command = commands[index]
        switch command.shape {
        case .clear:
            areas.items[index] = command.area
            for b in 0...((command.canvasHeight - 1) >> bandShift) {
                worker.bins.items[b].segments.append(Segment(command: index, start: 0, count: 0))
            }
        case .path(let path, let transform, let tolerance):
            if piece.part == 0 { areas.items[index] = command.area }
            var sink = BinSink(bins: worker.bins.items, command: index, area: command.area, shift: bandShift)
            let size = FillBands.elementsPerPiece
            let first = piece.part == 0 ? 0 : path.contourStart(atOrAfter: piece.part * size)
            let end = piece.part == piece.parts - 1 ? path.elements.count
                : path.contourStart(atOrAfter: (piece.part + 1) * size)
            path.flattenForFill(contours: first..<end, transform: transform, tolerance: tolerance, into: &sink)
        case .edges(let ends):
            areas.items[index] = command.area
            ends.withUnsafeBufferPointer { bin(ends: $0, command: index, area: command.area, worker: worker) }
        case .stroke(let path, let style, let transform, let tolerance, let box):
            worker.outline.removeAll()
            worker.stroker.stroke(path, style: style, tolerance: tolerance, transform: transform, into: &worker.outline)
            let area = worker.outline.points.withUnsafeBufferPointer { Rasterizer.strokeArea(outline: $0, box: box) }
            // An outline outside the box draws nothing: an empty area, and no edges.
            areas.items[index] = area ?? ClipBox(minX: 0, minY: 0, maxX: 0, maxY: 0)
            guard let area else { return }
            worker.outline.points.withUnsafeBufferPointer {
                bin(ends: $0, command: index, area: area, worker: worker)
            }
        }
    }

    private func bin(ends: UnsafeBufferPointer<Point>, command: Int, area: ClipBox, worker: Worker) {
        var sink = BinSink(bins: worker.bins.items, command: command, area: area, shift: bandShift)
        var i = 1
        while i < ends.count {
            sink.addEdge(from: ends[i - 1], to: ends[i])
            i += 2
        }
    }

    /// Puts each edge in the bins of the bands holding the rows it crosses inside the fill's area.
    private struct BinSink: EdgeSink {
        /// One thread's bins, which do not move during the binning.
        let bins: UnsafeMutablePointer<Bin>
        let command: Int
        let area: ClipBox
        let shift: Int

        @inline(__always)
        mutating func addEdge(from p0: Point, to p1: Point) {
            let top = Swift.min(p0.y, p1.y), bottom = Swift.max(p0.y, p1.y)
            // A horizontal edge adds nothing, nor does one above or below the area; a NaN fails the first test.
            guard top < bottom, bottom > area.minY, top < area.maxY else { return }
            let firstRow = Int(Swift.max(top, area.minY))
            let lastRow = CoverageCells.lastIndex(Swift.min(bottom, area.maxY))
            guard firstRow <= lastRow else { return }
            let first = firstRow >> shift, last = lastRow >> shift
            bins[first].add(p0, p1, command: command)
            guard last > first else { return }
            for b in (first + 1)...last { bins[b].add(p0, p1, command: command) }
        }

        /// Curves wholly above or below the area are not flattened: nothing they would add is drawn. (The cells drop
        /// what lies right of the area, as they do for a fill drawn whole.)
        func addsNothing(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
            maxY <= area.minY || minY >= area.maxY
        }
    }

    // MARK: Bands

    /// Draws band `index`: every thread's segments in it, in the order the fills were recorded.
    private func drawBand(_ index: Int, cells: inout CoverageCells) {
        let rows = (index << bandShift)..<((index + 1) << bandShift)
        // Where each thread's segments in this band have been read to. A thread bins fills in increasing order, so
        // each list is in order, and the next fill is the least of their heads. (One place for each of up to
        // `maxThreads` threads; nothing is allocated.)
        var next = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &next) { raw in
            let read = raw.bindMemory(to: Int.self)
            while true {
                var least = Int.max
                for t in 0..<threadCount {
                    let bin = workers[t].bins.items[index]
                    if read[t] < bin.segments.count { least = Swift.min(least, bin.segments.items[read[t]].command) }
                }
                guard least < Int.max else { return }
                let command = commands[least]
                let clears = if case .clear = command.shape { true } else { false }
                if clears {
                    let height = Swift.min(rows.upperBound, command.canvasHeight) - rows.lowerBound
                    pipeline.fill(command.pixels + rows.lowerBound * command.canvasWidth,
                                  count: height * command.canvasWidth, with: command.color)
                } else {
                    cells.begin(area: areas.items[least])
                    cells.limitRows(to: rows)
                }
                // Every thread that binned a part of the fill has one segment of it here (a thread bins pieces in
                // the recorded order, so its parts of one fill make one run in its bins).
                for t in 0..<threadCount {
                    let bin = workers[t].bins.items[index]
                    guard read[t] < bin.segments.count, bin.segments.items[read[t]].command == least else { continue }
                    let segment = bin.segments.items[read[t]]
                    read[t] += 1
                    if clears { continue }
                    pipeline.addEdges(UnsafeBufferPointer(start: bin.edges.items + segment.start, count: segment.count),
                                      into: &cells)
                }
                if clears { continue }
                pipeline.composite(cells: &cells, color: command.color, evenOdd: command.evenOdd,
                                   into: command.pixels, canvasWidth: command.canvasWidth)
            }
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

    var last: Element { items[count - 1] }

    @inline(__always)
    mutating func append(_ item: Element) {
        if count == capacity { grow() }
        (items + count).initialize(to: item)
        count += 1
    }

    /// Doubles the capacity; kept out of `append`, which is inlined where edges are binned.
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

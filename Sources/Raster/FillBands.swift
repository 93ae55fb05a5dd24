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
///    list of edges of its own. A thread still watching for the batch already takes the strokes recorded so far, while
///    the caller records the rest (`EarlyStroke`).
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
    private enum Kind: UInt8 {
        /// A path (`paths`) mapped through the transform and flattened within the tolerance, in pixels.
        case path
        /// A path (`paths`) stroked with its style (`styles`) in its own units within the tolerance, then mapped;
        /// its area is the outline's bounds within the area recorded.
        case stroke
        /// Straight edges in pixels (`edgeLists`), as pairs of ends.
        case edges
        /// The whole canvas set to the colour.
        case clear
    }

    /// One recorded fill: plain values only, so that every thread reads it with no reference counting. What holds
    /// references (paths, styles, edges, canvases) is kept beside the commands, until the batch is drawn.
    private struct Command {
        var kind: Kind
        var evenOdd: Bool
        var color: UInt32
        /// Where the fill's path is in `paths`, or its edges in `edgeLists`.
        var item: Int
        var transform: AffineTransform
        var tolerance: Double
        /// The canvas's pixels (its `storage`, which does not wait for the batch), kept alive by `canvases`.
        var pixels: UnsafeMutablePointer<UInt32>
        var canvasWidth: Int
        var canvasHeight: Int
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

    private var commands = Buffer<Command>()
    /// The paths of the path and stroke commands, the edges of the edge commands.
    private var paths = Buffer<Path>()
    private var edgeLists = Buffer<[Point]>()
    /// The strokes among the commands, in the recorded order, and their styles.
    private var strokes = Buffer<Int>()
    private var styles = Buffer<StrokeStyle>()
    /// The canvases the commands draw into, held until they are drawn (the same canvas recorded again in a row is
    /// held once).
    private var canvases = Buffer<Canvas>()
    /// Each command's area: as recorded (a stroke's clip box), or a stroke's once its outline is made. Written by the
    /// thread that strokes the command, read by every thread after the strokes.
    private var areas = Buffer<ClipBox>()
    /// Each stroke's outline (the other commands' places are unused).
    private var outlines = Buffer<Outline>()
    /// Where each thread's outlines begin, set as it makes each one: its list is not changed after its last one until
    /// the batch ends, so the bands read it through this pointer, with no reference counting.
    private var outlineStarts = Buffer<UnsafePointer<Point>?>()
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

    /// A stroke offered, as it is recorded, to a thread that is watching for the batch, so that outlines are made while
    /// the caller still records (stress's strokes take about as long to outline as the rest of its batch to record):
    /// what making its outline needs, copied here because the batch's buffers move as they grow.
    private struct EarlyStroke {
        var path: Path
        var style: StrokeStyle
        var transform: AffineTransform
        var tolerance: Double
        var box: ClipBox
    }
    /// The first `earlyCapacity` strokes of the batch being recorded, in the recorded order, and what the thread that
    /// took each made of it (its area and outline). Slots never move: a thread reads one while the caller writes the
    /// next.
    private static let earlyCapacity = 256
    private let early = UnsafeMutablePointer<EarlyStroke?>.allocate(capacity: FillBands.earlyCapacity)
    private let earlyMade = UnsafeMutablePointer<(area: ClipBox, outline: Outline)>.allocate(
        capacity: FillBands.earlyCapacity)
    /// The strokes offered (high 32 bits) and taken (low 32 bits), in one word, so that a thread takes a stroke only if
    /// it is offered in the batch being recorded; negative (`closed`) once `draw` begins, when no more are taken.
    private let earlyWork = Atomic<Int>(0)
    private static let closed = -1
    /// The strokes taken and made.
    private let earlyDone = Atomic<Int>(0)
    /// Strokes made while their batch was recorded, over the object's life (for tests).
    private(set) var strokesMadeEarly = 0

    init(threadCount: Int, pipeline: any FillPipeline.Type, bandShift: Int = FillBands.defaultBandShift) {
        precondition((2...FillBands.maxThreads).contains(threadCount), "banded fills need 2 to 64 threads")
        precondition((0...12).contains(bandShift), "bands of 1 to 4096 rows")
        self.threadCount = threadCount
        self.bandShift = bandShift
        self.pipeline = pipeline
        workers = (0..<threadCount).map { _ in Worker() }
        early.initialize(repeating: nil, count: FillBands.earlyCapacity)
        for _ in 0..<threadCount { outlineStarts.append(nil) }
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
        _ = closeEarlyStrokes()
        pthread_mutex_lock(lock)
        quitting = true
        pthread_cond_broadcast(started)
        pthread_mutex_unlock(lock)
        for thread in threads { pthread_join(thread, nil) }
        commands.release(); paths.release(); edgeLists.release(); strokes.release(); styles.release()
        canvases.release(); areas.release(); outlines.release(); outlineStarts.release()
        pthread_cond_destroy(started)
        pthread_mutex_destroy(lock)
        lock.deallocate()
        started.deallocate()
        early.deinitialize(count: FillBands.earlyCapacity)
        early.deallocate()
        earlyMade.deallocate()
    }

    /// What a thread is started with; it holds the bands unretained, as the bands end the thread first.
    private final class ThreadContext {
        unowned(unsafe) let bands: FillBands
        let index: Int
        init(bands: FillBands, index: Int) { self.bands = bands; self.index = index }
    }

    // MARK: Recording
    // Each fill is recorded to be drawn by the next `draw`, or before then when its canvas's pixels are read.

    /// Records `path` mapped through `transform` and flattened within `tolerance`, its cells beginning on `area`.
    func recordFill(_ path: Path, transform: AffineTransform, tolerance: Double, area: ClipBox, color: UInt32,
                    evenOdd: Bool, into canvas: Canvas) {
        record(.path, item: paths.count, transform: transform, tolerance: tolerance, area: area, color: color,
               evenOdd: evenOdd, into: canvas)
        paths.append(path)
    }

    /// Records `path` stroked with `style` within `tolerance` (in the path's units) and mapped through `transform`,
    /// drawn within `box`.
    func recordStroke(_ path: Path, style: StrokeStyle, transform: AffineTransform, tolerance: Double, box: ClipBox,
                      color: UInt32, into canvas: Canvas) {
        let offered = strokes.count
        strokes.append(commands.count)
        styles.append(style)
        record(.stroke, item: paths.count, transform: transform, tolerance: tolerance, area: box, color: color,
               evenOdd: false, into: canvas)
        paths.append(path)
        if offered < FillBands.earlyCapacity {
            early[offered] = EarlyStroke(path: path, style: style, transform: transform, tolerance: tolerance, box: box)
            earlyWork.add(1 << 32, ordering: .releasing)
        }
    }

    /// Records straight edges in pixels, pairs of ends, within `area`.
    func recordEdges(_ ends: [Point], area: ClipBox, color: UInt32, evenOdd: Bool, into canvas: Canvas) {
        record(.edges, item: edgeLists.count, transform: .identity, tolerance: 0, area: area, color: color,
               evenOdd: evenOdd, into: canvas)
        edgeLists.append(ends)
    }

    /// Records every pixel of `canvas` set to `color`.
    func recordClear(_ color: UInt32, into canvas: Canvas) {
        record(.clear, item: 0, transform: .identity, tolerance: 0, area: Rasterizer.clipBox(canvas: canvas, clip: nil)!,
               color: color, evenOdd: false, into: canvas)
    }

    private func record(_ kind: Kind, item: Int, transform: AffineTransform, tolerance: Double, area: ClipBox,
                        color: UInt32, evenOdd: Bool, into canvas: Canvas) {
        if canvases.count == 0 || canvases.items[canvases.count - 1] !== canvas {
            // Fills another batch holds for the canvas come first.
            if canvas.hasPendingFills && canvas.pendingFills !== self { canvas.drawPendingFills() }
            canvas.pendingFills = self
            canvas.hasPendingFills = true
            canvases.append(canvas)
            bandCount = Swift.max(bandCount, ((canvas.height - 1) >> bandShift) + 1)
        }
        areas.append(area)
        outlines.append(Outline())
        commands.append(Command(kind: kind, evenOdd: evenOdd, color: color, item: item, transform: transform,
                                tolerance: tolerance, pixels: canvas.storage, canvasWidth: canvas.width,
                                canvasHeight: canvas.height))
    }

    // MARK: Drawing

    /// Draws everything recorded, on every thread that joins in time, and empties the record.
    func draw() {
        guard commands.count > 0 else { return }
        // The strokes taken while recording are made; the rest are shared out as usual.
        let taken = closeEarlyStrokes()
        strokesMadeEarly += taken
        for i in 0..<taken {
            let index = strokes.items[i]
            areas.items[index] = earlyMade[i].area
            outlines.items[index] = earlyMade[i].outline
        }
        nextStroke.store(taken, ordering: .relaxed)
        stroked.store(taken, ordering: .relaxed)
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
        // The paths offered are let go with the rest of the batch.
        for i in 0..<Swift.min(strokes.count, FillBands.earlyCapacity) { early[i] = nil }
        for i in 0..<canvases.count {
            canvases.items[i].hasPendingFills = false
            canvases.items[i].pendingFills = nil
        }
        commands.removeAll(); paths.removeAll(); edgeLists.removeAll(); strokes.removeAll(); styles.removeAll()
        canvases.removeAll(); areas.removeAll(); outlines.removeAll()
        bandCount = 0
        for worker in workers { worker.outlines.removeAll() }
        // Strokes recorded from now on are for the next batch.
        earlyDone.store(0, ordering: .relaxed)
        earlyWork.store(0, ordering: .releasing)
    }

    /// Stops threads taking the strokes offered while recording, waits for those taken to be made, and returns how many
    /// were: the first that many strokes of the batch.
    private func closeEarlyStrokes() -> Int {
        let work = earlyWork.exchange(FillBands.closed, ordering: .acquiringAndReleasing)
        guard work >= 0 else { return 0 }
        let taken = work & 0xFFFF_FFFF
        FillBands.wait { earlyDone.load(ordering: .acquiring) == taken }
        return taken
    }

    /// Makes the strokes offered while the batch is recorded, one at a time while any is left; true if it made any.
    private func takeEarlyStrokes(as thread: Int) -> Bool {
        var made = false
        while true {
            let work = earlyWork.load(ordering: .acquiring)
            let taken = work & 0xFFFF_FFFF
            guard work >= 0, taken < work >> 32 else { return made }
            guard earlyWork.compareExchange(expected: work, desired: work + 1, ordering: .acquiringAndReleasing)
                .exchanged else { continue }
            let stroke = early[taken]!
            earlyMade[taken] = outline(stroke.path, style: stroke.style, tolerance: stroke.tolerance,
                                       transform: stroke.transform, box: stroke.box, thread: thread)
            earlyDone.add(1, ordering: .releasing)
            made = true
        }
    }

    /// A worker thread's life: it joins each batch that `draw` opens, until the object ends.
    private func work(as index: Int) {
        var seen = 0
        while true {
            // Watch for a while before sleeping.
            var spinUntil = FillBands.nanoseconds() + FillBands.spinNanoseconds
            while announced.load(ordering: .relaxed) == seen && FillBands.nanoseconds() < spinUntil {
                if takeEarlyStrokes(as: index) { spinUntil = FillBands.nanoseconds() + FillBands.spinNanoseconds }
            }
            pthread_mutex_lock(lock)
            while generation == seen && !quitting { pthread_cond_wait(started, lock) }
            if quitting {
                pthread_mutex_unlock(lock)
                return
            }
            seen = generation
            // A batch drawn before this thread woke is missed; it watches for the next, which often follows at once.
            guard open else {
                pthread_mutex_unlock(lock)
                continue
            }
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
            stroke(i, thread: thread)
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

    /// Makes the outline of the batch's `stroke`th stroke in `thread`'s outlines, and finds its area.
    private func stroke(_ stroke: Int, thread: Int) {
        let index = strokes.items[stroke]
        let command = commands.items[index]
        let made = outline(paths.items[command.item], style: styles.items[stroke], tolerance: command.tolerance,
                           transform: command.transform, box: areas.items[index], thread: thread)
        areas.items[index] = made.area
        outlines.items[index] = made.outline
    }

    /// Makes a stroke's outline in `thread`'s outlines, and finds its area within `box`.
    private func outline(_ path: Path, style: StrokeStyle, tolerance: Double, transform: AffineTransform, box: ClipBox,
                         thread: Int) -> (area: ClipBox, outline: Outline) {
        let worker = workers[thread]
        let start = worker.outlines.count
        worker.stroker.stroke(path, style: style, tolerance: tolerance, transform: transform, into: &worker.outlines)
        let points = start..<worker.outlines.count
        // Published before the stroke is counted: the last one a thread counts is the one the bands read.
        outlineStarts.items[thread] = worker.outlines.ends.baseAddress
        let area = Rasterizer.strokeArea(outline: UnsafeBufferPointer(rebasing: worker.outlines.ends[points]),
                                         box: box)
        // An outline outside the box draws nothing: an empty area, which no band draws.
        return (area ?? ClipBox(minX: 0, minY: 0, maxX: 0, maxY: 0), Outline(thread: thread, points: points))
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
            let command = commands.items[c]
            if command.kind == .clear {
                let height = Swift.min(rows.upperBound, command.canvasHeight) - rows.lowerBound
                pipeline.fill(command.pixels + rows.lowerBound * command.canvasWidth,
                              count: height * command.canvasWidth, with: command.color)
                continue
            }
            cells.begin(area: area)
            cells.limitRows(to: rows)
            switch command.kind {
            case .path:
                pipeline.flatten(paths.items[command.item], transform: command.transform, tolerance: command.tolerance,
                                 into: &cells)
            case .stroke:
                let outline = outlines.items[c]
                let start = outlineStarts.items[outline.thread]! + outline.points.lowerBound
                pipeline.fillOutline(UnsafeBufferPointer(start: start, count: outline.points.count), into: &cells,
                                     color: command.color, into: command.pixels, canvasWidth: command.canvasWidth)
                continue
            case .edges:
                edgeLists.items[command.item].withUnsafeBufferPointer { pipeline.addEdges($0, into: &cells) }
            case .clear:
                break  // drawn above
            }
            pipeline.composite(cells: &cells, color: command.color, evenOdd: command.evenOdd,
                               into: command.pixels, canvasWidth: command.canvasWidth)
        }
    }
}

/// A growable buffer: memory that threads may read with no reference counting (nor exclusivity checks), grown by
/// doubling and kept when emptied.
struct Buffer<Element> {
    private(set) var items: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

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

    /// Empties the buffer, keeping its memory.
    mutating func removeAll() {
        items.deinitialize(count: count)
        count = 0
    }

    /// Frees the memory; the owner calls it once.
    mutating func release() {
        removeAll()
        items.deallocate()
    }
}

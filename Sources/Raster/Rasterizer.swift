#if canImport(Glibc)
import Glibc
#endif
import Geometry
import RasterKernels
import Colors

/// How overlapping contours decide what is inside, as SVG's `fill-rule`.
public enum FillRule: String, Sendable, CaseIterable {
    case nonZero = "nonzero"
    case evenOdd = "evenodd"
}

/// Fills paths into a canvas with anti-aliasing by exact area coverage.
///
/// The pipeline has three stages, one file each:
/// 1. `Path.flattenForFill` (Geometry) turns curves into straight edges in pixel space, gathered in batches.
/// 2. `CoverageCells` clips each edge to the clip box and adds, per scanline, the signed area it covers to
///    the cells it touches (the cover/area method of FreeType's and font-rs's rasterizers), and marks
///    the groups of eight cells it touched in a bit set. Untouched cells stay zero, so the work is proportional to
///    the outline's length, not to the shape's area.
/// 3. `SpanCompositor` walks each touched row: between marked cells the coverage is constant and is
///    drawn as a span (a plain fill when opaque); marked cells are summed, blended and reset to zero eight at a
///    time, as vectors.
///
/// Stages 2 and 3 live in `RasterKernels`, compiled once per instruction set (SSE2, AVX2, AVX-512); `FillPath`
/// picks the widest the CPU has, once. A stroke (`stroke`) streams its outline's edges into stage 2 directly.
///
/// Clipping happens on the edges, in floating point, before any cell is touched: parts left or right of
/// the clip box become vertical edges on its sides (or are dropped, past a right side on a whole pixel, where
/// nothing they add is drawn). Coverage at a fractional clip edge is therefore the exact area inside the clip, and
/// geometry far outside the canvas costs no more than geometry inside it.
///
/// Between `beginBands` and `drawBands` a rasterizer made with several threads records its fills instead, and
/// `FillBands` then draws them on every thread, a band of rows each, with the same pixels.
///
/// The cell and bit buffers cover the fill's area (its bounds within the clip), are allocated on the first fill,
/// grow only when a larger area arrives, and are all zero again when a fill returns: steady-state drawing
/// allocates nothing.
public final class Rasterizer {
    /// Flattening tolerance in pixels: curves stay within this distance of their line segments.
    /// 0.1 px matches cairo's default, so our curves and the reference renderings agree.
    public static let defaultTolerance = 0.1

    /// Largest coordinate magnitude, in pixels after the transform, that an item may reach. Beyond it the
    /// differences between points lose their sub-pixel bits in a Double, and products of two coordinates
    /// could overflow; such an item is skipped like one with NaN or infinity.
    public static let maxCoordinate = 1e15

    public var tolerance = Rasterizer.defaultTolerance

    /// The instruction set this rasterizer's fills run with.
    public let path: FillPath
    private let pipeline: any FillPipeline.Type

    private var cells = CoverageCells()
    /// For `stroke`: their buffers are kept from one stroke to the next.
    private let stroker = Stroker()
    private var strokeEdges = EdgeList()

    /// The threads a batch of fills is drawn on (`beginBands`), the caller's included; 1 draws every fill at once,
    /// on the caller's thread.
    public let threadCount: Int
    private let bands: FillBands?
    /// True between `beginBands` and `drawBands`: fills, strokes and clears are recorded, not yet drawn.
    public private(set) var isRecordingBands = false

    /// A rasterizer on `path`, or on the widest narrower one when the CPU cannot run it; by default the widest
    /// the CPU can (see `FillPath.best`). With `threads` above 1, batches of fills are drawn in bands of rows on that
    /// many threads (at most 64), made now and kept for the rasterizer's life.
    public convenience init(path: FillPath = .best, threads: Int = 1) {
        self.init(path: path, threads: threads, bandShift: FillBands.defaultBandShift)
    }

    /// A rasterizer whose batches are drawn in bands of 2^`bandShift` rows, for tests that try other splits.
    init(path: FillPath, threads: Int, bandShift: Int) {
        self.path = path.runnable
        pipeline = self.path.pipeline
        threadCount = Swift.min(Swift.max(1, threads), FillBands.maxThreads)
        bands = threadCount > 1 ? FillBands(threadCount: threadCount, pipeline: pipeline, bandShift: bandShift) : nil
    }

    /// The most threads a rasterizer draws on.
    public static var maxThreads: Int { FillBands.maxThreads }

    /// The processors this process may run on: the default thread count of the commands that draw.
    public static var processorCount: Int {
        #if canImport(Glibc)
        return Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #else
        return 1
        #endif
    }

    /// Begins a batch: until `drawBands`, fills, strokes and `clear` are recorded, then drawn together on every
    /// thread with the same pixels as drawn one by one. Reading a canvas's pixels meanwhile draws what is recorded
    /// so far first (see `Canvas.pixels`). With one thread the batch is drawn as it comes, and this does nothing.
    public func beginBands() {
        isRecordingBands = bands != nil
    }

    /// Strokes whose outlines threads made while their batch was still being recorded (for tests).
    var strokesMadeEarly: Int { bands?.strokesMadeEarly ?? 0 }

    /// Draws the batch begun by `beginBands`, and returns when every thread is done.
    public func drawBands() {
        guard isRecordingBands, let bands else { return }
        isRecordingBands = false
        bands.draw()
    }

    /// Sets every pixel of `canvas` to `color`: at once, or in each band of a batch.
    public func clear(_ canvas: Canvas, to color: Color) {
        if isRecordingBands, let bands {
            bands.recordClear(color.premultipliedPixel, into: canvas)
        } else {
            canvas.clear(to: color)
        }
    }

    deinit {
        // A canvas may still wait for this batch's fills: they are drawn, so that none is lost and no canvas is left
        // pointing at the batch.
        bands?.draw()
        cells.release()
    }

    /// Fills `path`, mapped through `transform` into pixel coordinates, with `color` (source-over), inside `clip`
    /// (pixel coordinates; a fractional clip gives partial coverage along its sides).
    ///
    /// A path with a NaN or infinite coordinate, or one beyond `maxCoordinate`, is skipped: nothing is drawn.
    /// Returns the pixels the fill may have changed (empty when none), for a caller that keeps track of them.
    @discardableResult
    public func fill(_ path: Path, transform: AffineTransform = .identity, color: Color,
                     rule: FillRule = .nonZero, clip: Rect? = nil, into canvas: Canvas) -> PixelBox {
        guard color.alpha > 0, !path.isEmpty else { return .empty }
        guard let box = Rasterizer.clipBox(canvas: canvas, clip: clip) else { return .empty }
        guard let bounds = Rasterizer.mappedBounds(path, transform),
              bounds.maxX > box.minX, bounds.minX < box.maxX, bounds.maxY > box.minY, bounds.minY < box.maxY
        else { return .empty }
        let tol = tolerance > 0 && tolerance.isFinite ? tolerance : Rasterizer.defaultTolerance

        // The path lies inside its control points' bounds, so those bounds clip nothing and give the cell buffer
        // its size; a flattened point that rounding puts a hair outside is moved onto the side, harmlessly.
        let area = ClipBox(minX: Swift.max(box.minX, bounds.minX), minY: Swift.max(box.minY, bounds.minY),
                           maxX: Swift.min(box.maxX, bounds.maxX), maxY: Swift.min(box.maxY, bounds.maxY))
        if isRecordingBands, let bands {
            bands.recordFill(path, transform: transform, tolerance: tol, area: area, color: color.premultipliedPixel,
                             evenOdd: rule == .evenOdd, into: canvas)
        } else {
            cells.begin(area: area)
            pipeline.flatten(path, transform: transform, tolerance: tol, into: &cells)
            pipeline.composite(cells: &cells, color: color.premultipliedPixel, evenOdd: rule == .evenOdd,
                               into: canvas.pixels, canvasWidth: canvas.width)
        }
        return PixelBox(covering: Rect(x: area.minX, y: area.minY, width: area.maxX - area.minX,
                                       height: area.maxY - area.minY))
    }

    /// Strokes `path` with `style` and fills the outline with `color` (non-zero), as filling
    /// `path.stroked(style, tolerance:)` through `transform` would, but with the outline's edges going straight into
    /// the cells: no outline path is built and nothing is allocated. The stroke is made in the path's own units
    /// (`tolerance` is in them too), then mapped through `transform`. Skipped, like a fill, when the path or its
    /// stroke lies beyond `maxCoordinate` or is not finite.
    public func stroke(_ path: Path, style: StrokeStyle, transform: AffineTransform = .identity, tolerance: Double,
                       color: Color, clip: Rect? = nil, into canvas: Canvas) {
        guard color.alpha > 0, style.lineWidth > 0, !path.isEmpty else { return }
        guard let box = Rasterizer.clipBox(canvas: canvas, clip: clip) else { return }
        // The outline reaches half the width from the path, or a miter's length at a join (a square cap's corner
        // is within both), grown in the path's units and then mapped.
        let reach = style.lineWidth / 2 * Swift.max(style.miterLimit, 2.squareRoot())
        guard Rasterizer.canDraw(path, transform: transform, margin: reach),
              let mapped = Rasterizer.mappedBounds(path, transform) else { return }
        let t = transform
        let grow = (x: reach * (abs(t.a) + abs(t.c)), y: reach * (abs(t.b) + abs(t.d)))
        let bounds = ClipBox(minX: mapped.minX - grow.x, minY: mapped.minY - grow.y,
                             maxX: mapped.maxX + grow.x, maxY: mapped.maxY + grow.y)
        guard bounds.maxX > box.minX, bounds.minX < box.maxX, bounds.maxY > box.minY, bounds.minY < box.maxY
        else { return }
        if isRecordingBands, let bands {
            bands.recordStroke(path, style: style, transform: transform, tolerance: tolerance, box: box,
                               color: color.premultipliedPixel, into: canvas)
            return
        }
        strokeEdges.removeAll()
        stroker.stroke(path, style: style, tolerance: tolerance, transform: transform, into: &strokeEdges)
        let ends = strokeEdges.ends
        guard let area = Rasterizer.strokeArea(outline: ends, box: box) else { return }
        cells.begin(area: area)
        pipeline.fillOutline(ends, into: &cells, color: color.premultipliedPixel, into: canvas.pixels,
                             canvasWidth: canvas.width)
    }

    /// Fills straight edges that are already in pixel coordinates (for example a stroke's outline), each
    /// pair `(from, to)` one edge; the contours must be closed. Same rules as `fill(_:…)`.
    public func fill(edges: [(Point, Point)], color: Color, rule: FillRule = .nonZero, clip: Rect? = nil,
                     into canvas: Canvas) {
        guard color.alpha > 0, !edges.isEmpty else { return }
        guard let box = Rasterizer.clipBox(canvas: canvas, clip: clip) else { return }
        for (a, b) in edges {
            guard a.isFinite, b.isFinite, abs(a.x) <= Rasterizer.maxCoordinate, abs(a.y) <= Rasterizer.maxCoordinate,
                  abs(b.x) <= Rasterizer.maxCoordinate, abs(b.y) <= Rasterizer.maxCoordinate else { return }
        }
        if isRecordingBands, let bands {
            bands.recordEdges(edges.flatMap { [$0.0, $0.1] }, area: box, color: color.premultipliedPixel,
                              evenOdd: rule == .evenOdd, into: canvas)
            return
        }
        cells.begin(area: box)
        for (a, b) in edges { cells.addEdge(from: a, to: b) }
        pipeline.composite(cells: &cells, color: color.premultipliedPixel, evenOdd: rule == .evenOdd,
                           into: canvas.pixels, canvasWidth: canvas.width)
    }

    /// Whether `path`, grown by `margin` of its own units on every side and mapped through `transform`, has
    /// finite bounds within `maxCoordinate`, as `fill` requires. A stroke is checked before it is made, so that a
    /// transform that throws it far past any canvas (or to infinity) costs nothing.
    public static func canDraw(_ path: Path, transform t: AffineTransform, margin: Double = 0) -> Bool {
        guard let box = mappedBounds(path, t) else { return false }
        let grow = (x: margin * (abs(t.a) + abs(t.c)), y: margin * (abs(t.b) + abs(t.d)))
        let limit = maxCoordinate
        return grow.x.isFinite && grow.y.isFinite && box.minX - grow.x >= -limit && box.maxX + grow.x <= limit
            && box.minY - grow.y >= -limit && box.maxY + grow.y <= limit
    }

    /// The area a stroke's cells begin on: its outline's own bounds within `box`, or nil when they miss it. (The
    /// reach a stroke is checked with allows for the longest miter, ten half widths by default, and a hairline's area
    /// would be that much wider than the line.)
    static func strokeArea(outline ends: UnsafeBufferPointer<Point>, box: ClipBox) -> ClipBox? {
        guard let outline = Rasterizer.bounds(of: ends),
              outline.maxX > box.minX, outline.minX < box.maxX, outline.maxY > box.minY, outline.minY < box.maxY
        else { return nil }
        return ClipBox(minX: Swift.max(box.minX, outline.minX), minY: Swift.max(box.minY, outline.minY),
                       maxX: Swift.min(box.maxX, outline.maxX), maxY: Swift.min(box.maxY, outline.maxY))
    }

    /// The canvas bounds, intersected with `clip`; nil when nothing is left or the clip is not a number.
    static func clipBox(canvas: Canvas, clip: Rect?) -> ClipBox? {
        var box = ClipBox(minX: 0, minY: 0, maxX: Double(canvas.width), maxY: Double(canvas.height))
        if let clip {
            // Written so that a NaN on either side leaves the box empty and it is rejected below.
            let x0 = clip.minX, y0 = clip.minY, x1 = clip.maxX, y1 = clip.maxY
            guard x0 < x1, y0 < y1 else { return nil }
            if x0 > box.minX { box.minX = x0 }
            if y0 > box.minY { box.minY = y0 }
            if x1 < box.maxX { box.maxX = x1 }
            if y1 < box.maxY { box.maxY = y1 }
        }
        guard box.minX < box.maxX, box.minY < box.maxY else { return nil }
        return box
    }

    /// The bounds of `points`; nil when there are none or the bounds are not finite. (A NaN after the first point
    /// is passed over here; the cells drop the edges that hold it.)
    static func bounds(of points: UnsafeBufferPointer<Point>) -> ClipBox? {
        guard let first = points.first else { return nil }
        var minX = first.x, minY = first.y, maxX = first.x, maxY = first.y
        // Comparisons, which compile to one min or max instruction each (Swift.min tests for NaN and branches).
        for p in points {
            minX = p.x < minX ? p.x : minX
            maxX = p.x > maxX ? p.x : maxX
            minY = p.y < minY ? p.y : minY
            maxY = p.y > maxY ? p.y : maxY
        }
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return nil }
        return ClipBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }

    /// The bounds of the path's control points mapped through `t`; nil when a point or the result is not
    /// finite or lies beyond `maxCoordinate`.
    static func mappedBounds(_ path: Path, _ t: AffineTransform) -> ClipBox? {
        let bounds = path.controlBounds
        guard bounds.allFinite, bounds.minX <= bounds.maxX else { return nil }
        let minX = bounds.minX, minY = bounds.minY, maxX = bounds.maxX, maxY = bounds.maxY
        let xs = (t.a * minX, t.a * maxX), ys = (t.b * minX, t.b * maxX)
        let xs2 = (t.c * minY, t.c * maxY), ys2 = (t.d * minY, t.d * maxY)
        let box = ClipBox(minX: Swift.min(xs.0, xs.1) + Swift.min(xs2.0, xs2.1) + t.tx,
                          minY: Swift.min(ys.0, ys.1) + Swift.min(ys2.0, ys2.1) + t.ty,
                          maxX: Swift.max(xs.0, xs.1) + Swift.max(xs2.0, xs2.1) + t.tx,
                          maxY: Swift.max(ys.0, ys.1) + Swift.max(ys2.0, ys2.1) + t.ty)
        let limit = Rasterizer.maxCoordinate
        guard box.minX >= -limit, box.minY >= -limit, box.maxX <= limit, box.maxY <= limit else { return nil }
        return box
    }
}

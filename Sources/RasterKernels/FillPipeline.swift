import Geometry

/// The part of a fill that wider vectors speed up: flattening the path into cells, then compositing them.
///
/// Swift compiles a module for one instruction set, so the same code is compiled three times: here for the base
/// x86-64 level (SSE2), and, inlined from here, in `RasterKernelsAVX2` and `RasterKernelsAVX512` for those levels
/// (each requirement is a function of its own, small enough for the inliner to take everything in). `Raster` picks
/// one at start-up from what the CPU reports; all three give the same pixels, because the arithmetic is integer or
/// the same double operations in the same order (Swift forms no fused multiply-add on its own).
public protocol FillPipeline {
    /// Flattens `path`, mapped through `transform`, into `cells` (begun on the fill's area).
    static func flatten(_ path: Path, transform: AffineTransform, tolerance: Double, into cells: inout CoverageCells)
    /// Adds straight edges, given as pairs of points in `ends`, into `cells` (begun on the fill's area).
    static func addEdges(_ ends: UnsafeBufferPointer<Point>, into cells: inout CoverageCells)
    /// Adds a stroke's outline, given as pairs of points in `ends`, into `cells` (begun on its area) and composites
    /// `color` at its coverage (non-zero) as `addEdges` and `composite` would; a straight segment's rows between its
    /// caps go straight onto the pixels (`StraightStrip`).
    static func fillOutline(_ ends: UnsafeBufferPointer<Point>, into cells: inout CoverageCells, color: UInt32,
                            into pixels: UnsafeMutablePointer<UInt32>, canvasWidth: Int)
    /// Composites `color` (premultiplied) at the cells' coverage onto `pixels`, a canvas `canvasWidth` pixels wide,
    /// leaving the cells clear.
    static func composite(cells: inout CoverageCells, color: UInt32, evenOdd: Bool,
                          into pixels: UnsafeMutablePointer<UInt32>, canvasWidth: Int)
    /// Sets `count` pixels from `pixels` on to `value` (a canvas cleared before each frame).
    static func fill(_ pixels: UnsafeMutablePointer<UInt32>, count: Int, with value: UInt32)
    /// Writes the gradient's table entries of `count` pixels of row `y` from column `x0`.
    static func gradientEntries(_ gradient: GradientGeometry, y: Int, from x0: Int, count: Int,
                                into out: UnsafeMutablePointer<Int32>)
    /// Puts `count` pixels of `source`, scaled by `alpha` (1…255), source-over those at `dst`.
    static func compositeRow(_ source: UnsafePointer<UInt32>, onto dst: UnsafeMutablePointer<UInt32>, count: Int,
                             alpha: UInt32)
    /// Puts the colours `colors[entries[i]]` at coverages `coverage[i]` source-over the `count` pixels at `dst`.
    static func shadeRow(entries: UnsafePointer<Int32>, colors: UnsafePointer<UInt32>, coverage: UnsafePointer<UInt8>,
                         onto dst: UnsafeMutablePointer<UInt32>, count: Int)
    /// Writes `count` pixels, each `a[i]` and `b[i]` mixed with `b` weighing `weight` 256ths (`PixelRows.mix`).
    static func mixRows(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, weight: UInt32,
                        into out: UnsafeMutablePointer<UInt32>, count: Int)
    /// Writes `count` pixels, each between two neighbouring `cells`: `cells[left[i]]` and the next, the next
    /// weighing `weights[i]` 256ths (`PixelRows.mix`).
    static func mixColumns(_ cells: UnsafePointer<UInt32>, left: UnsafePointer<Int32>, weights: UnsafePointer<UInt32>,
                           into out: UnsafeMutablePointer<UInt32>, count: Int)
    /// Adds `count` pixels of `row`, channel by channel, to sums kept in 16-bit halves: blue and red in `blueRed`,
    /// green and alpha in `greenAlpha`.
    static func addHalves(of row: UnsafePointer<UInt32>, blueRed: UnsafeMutablePointer<UInt32>,
                          greenAlpha: UnsafeMutablePointer<UInt32>, count: Int)
}

extension FillPipeline {
    /// The body of `flatten`, for each pipeline to inline.
    @inlinable @inline(__always)
    public static func flattenKernel(_ path: Path, transform: AffineTransform, tolerance: Double,
                                     into cells: inout CoverageCells) {
        var sink = BatchedCells<Self>(cells: cells)
        path.flattenForFill(transform: transform, tolerance: tolerance, into: &sink)
        sink.addPending()
        cells = sink.cells
    }

    /// The body of `addEdges`, for each pipeline to inline.
    @inlinable @inline(__always)
    public static func addEdgesKernel(_ ends: UnsafeBufferPointer<Point>, into cells: inout CoverageCells) {
        if cells.isNarrow {
            addEdgesKernel(ends, into: &cells, UnmarkedCells.self)
        } else {
            addEdgesKernel(ends, into: &cells, MarkedCells.self)
        }
    }

    /// The edge loop, compiled for one kind of marking (`CoverageCells.isNarrow` chooses, once per batch).
    @inlinable @inline(__always)
    static func addEdgesKernel<Marks: CellMarking>(_ ends: UnsafeBufferPointer<Point>, into cells: inout CoverageCells,
                                                   _ marks: Marks.Type) {
        var sink = PipelineCells<Self, Marks>(cells: cells)
        var i = 1
        while i < ends.count {
            sink.addEdge(from: ends[i &- 1], to: ends[i])
            i &+= 2
        }
        cells = sink.cells
    }

    /// The body of `fill(_:count:with:)`, for each pipeline to inline: stores as wide as the instruction set has,
    /// after the pixels up to the first 64-byte boundary.
    @inlinable @inline(__always)
    public static func fillKernel(_ pixels: UnsafeMutablePointer<UInt32>, count: Int, with value: UInt32) {
        var i = 0
        let head = Swift.min(count, ((64 &- Int(bitPattern: pixels) & 63) & 63) >> 2)
        while i < head { pixels[i] = value; i &+= 1 }
        let wide = SIMD16<UInt32>(repeating: value)
        let bytes = UnsafeMutableRawPointer(pixels)
        while i &+ 16 <= count {
            bytes.storeBytes(of: wide, toByteOffset: i &* 4, as: SIMD16<UInt32>.self)
            i &+= 16
        }
        while i < count { pixels[i] = value; i &+= 1 }
    }

    /// The body of `composite`, for each pipeline to inline.
    @inlinable @inline(__always)
    public static func compositeKernel(cells: inout CoverageCells, color: UInt32, evenOdd: Bool,
                                       into pixels: UnsafeMutablePointer<UInt32>, canvasWidth: Int) {
        SpanCompositor.composite(cells: &cells, color: color, evenOdd: evenOdd, into: pixels, canvasWidth: canvasWidth,
                                 Self.self)
    }
}

/// `CoverageCells` as one pipeline's edge sink.
///
/// A generic function that the optimizer specialises but does not inline is emitted in each module that uses it,
/// under one name, and the linker keeps a single copy: without the pipeline's type in that name, the portable
/// path could end up running the AVX-512 copy of `flattenForFill`. Every generic the kernels use therefore has
/// the pipeline among its type parameters.
public struct PipelineCells<Pipeline: FillPipeline, Marks: CellMarking>: EdgeSink {
    public var cells: CoverageCells

    @inlinable
    public init(cells: CoverageCells) { self.cells = cells }

    @inlinable @inline(__always)
    public mutating func addEdge(from p0: Point, to p1: Point) {
        cells.addEdge(from: p0, to: p1, Pipeline.self, Marks.self)
    }

    @inlinable @inline(__always)
    public func addsNothing(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
        cells.addsNothing(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }
}

/// `CoverageCells` as the sink of a path's flattening, which gathers the edges into a batch and adds each batch with
/// the pipeline's `addEdges`. The flattening loop then only stores an edge's ends, where adding the edge in place
/// inlined the whole edge code at each of its three places that make edges, and that loop kept the curve's state in
/// registers across the calls for edges that run across pixels; the batch loop holds one copy, with little to keep.
/// (Measured on the scenes: curves −9 to −16 %, polygons −7 to −9 %.)
public struct BatchedCells<Pipeline: FillPipeline>: EdgeSink {
    public var cells: CoverageCells
    /// Edges waiting in `cells.pendingEdges`; `addPending` adds the rest when the flattening is done.
    @usableFromInline var pending = 0

    @inlinable
    public init(cells: CoverageCells) { self.cells = cells }

    @inlinable @inline(__always)
    public mutating func addEdge(from p0: Point, to p1: Point) {
        let ends = cells.pendingEdges + 2 &* pending
        ends[0] = p0
        ends[1] = p1
        pending &+= 1
        if pending == CoverageCells.pendingCapacity { addPending() }
    }

    /// Adds the edges waiting, and empties the batch.
    @inlinable
    public mutating func addPending() {
        Pipeline.addEdges(UnsafeBufferPointer(start: cells.pendingEdges, count: 2 &* pending), into: &cells)
        pending = 0
    }

    @inlinable @inline(__always)
    public func addsNothing(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
        cells.addsNothing(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }
}

/// The pipeline for any x86-64 CPU (SSE2), and for other architectures.
public enum PortableFill: FillPipeline {
    public static func flatten(_ path: Path, transform: AffineTransform, tolerance: Double,
                               into cells: inout CoverageCells) {
        flattenKernel(path, transform: transform, tolerance: tolerance, into: &cells)
    }

    public static func addEdges(_ ends: UnsafeBufferPointer<Point>, into cells: inout CoverageCells) {
        addEdgesKernel(ends, into: &cells)
    }

    public static func fillOutline(_ ends: UnsafeBufferPointer<Point>, into cells: inout CoverageCells, color: UInt32,
                                   into pixels: UnsafeMutablePointer<UInt32>, canvasWidth: Int) {
        fillOutlineKernel(ends, into: &cells, color: color, into: pixels, canvasWidth: canvasWidth)
    }

    public static func composite(cells: inout CoverageCells, color: UInt32, evenOdd: Bool,
                                 into pixels: UnsafeMutablePointer<UInt32>, canvasWidth: Int) {
        compositeKernel(cells: &cells, color: color, evenOdd: evenOdd, into: pixels, canvasWidth: canvasWidth)
    }

    public static func fill(_ pixels: UnsafeMutablePointer<UInt32>, count: Int, with value: UInt32) {
        fillKernel(pixels, count: count, with: value)
    }

    public static func gradientEntries(_ gradient: GradientGeometry, y: Int, from x0: Int, count: Int,
                                       into out: UnsafeMutablePointer<Int32>) {
        gradient.entriesKernel(y: y, from: x0, count: count, into: out)
    }

    public static func compositeRow(_ source: UnsafePointer<UInt32>, onto dst: UnsafeMutablePointer<UInt32>,
                                    count: Int, alpha: UInt32) {
        PixelRows.compositeKernel(source, onto: dst, count: count, alpha: alpha)
    }

    public static func shadeRow(entries: UnsafePointer<Int32>, colors: UnsafePointer<UInt32>,
                                coverage: UnsafePointer<UInt8>, onto dst: UnsafeMutablePointer<UInt32>, count: Int) {
        PixelRows.shadeKernel(entries: entries, colors: colors, coverage: coverage, onto: dst, count: count)
    }

    public static func mixRows(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, weight: UInt32,
                               into out: UnsafeMutablePointer<UInt32>, count: Int) {
        PixelRows.mixKernel(a, b, weight: weight, into: out, count: count)
    }

    public static func addHalves(of row: UnsafePointer<UInt32>, blueRed: UnsafeMutablePointer<UInt32>,
                                 greenAlpha: UnsafeMutablePointer<UInt32>, count: Int) {
        PixelRows.addHalvesKernel(of: row, blueRed: blueRed, greenAlpha: greenAlpha, count: count)
    }

    public static func mixColumns(_ cells: UnsafePointer<UInt32>, left: UnsafePointer<Int32>,
                                  weights: UnsafePointer<UInt32>, into out: UnsafeMutablePointer<UInt32>, count: Int) {
        PixelRows.mixColumnsKernel(cells, left: left, weights: weights, into: out, count: count)
    }
}

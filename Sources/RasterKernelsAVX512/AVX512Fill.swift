import Geometry
import RasterKernels

/// `PortableFill`'s code compiled for Skylake-AVX512's instruction set (AVX-512 F, BW, DQ, VL on top of AVX2): the package
/// builds this module with `-target-cpu skylake-avx512`, and `Raster` calls it only on a CPU that has those features.
public enum AVX512Fill: FillPipeline {
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

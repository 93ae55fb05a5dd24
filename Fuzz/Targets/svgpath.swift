import Geometry
import Raster

/// SVG path data on any bytes, then the path it accepted measured, stroked and filled into a small canvas.
nonisolated(unsafe) let rasterizer = Rasterizer()
nonisolated(unsafe) let canvas = Canvas(width: 32, height: 32)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    guard let path = try? Path(svgPathData: String(decoding: input.bytes, as: UTF8.self)) else { return 0 }
    _ = path.controlPointBounds
    rasterizer.fill(path, color: .black, into: canvas)
    if Rasterizer.canDraw(path, transform: .identity, margin: 2) {
        rasterizer.fill(path.stroked(StrokeStyle(lineWidth: 2, lineJoin: .round)), color: .black, into: canvas)
    }
    return 0
}

import Lab
import Raster
import Scenes

/// The scene reader on any bytes, then the scene it accepted drawn into a canvas of at most 128×128 pixels (the
/// items are clipped to it), so that whatever it accepts can be drawn.
nonisolated(unsafe) let rasterizer = Rasterizer()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    guard let scene = try? Scene(json: input.array, file: "fuzz.json") else { return 0 }
    let canvas = Canvas(width: min(scene.width, 128), height: min(scene.height, 128))
    scene.render(into: canvas, rasterizer: rasterizer)
    return 0
}

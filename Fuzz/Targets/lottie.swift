import Lab
import Lottie
import Raster

/// The Lottie reader on any bytes, then three frames of the animation it accepted (its first, its middle, and one
/// past its end) drawn into a canvas of at most 64×64 px, its expressions run (and their warnings taken).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    guard let animation = try? LottieFile.parse(input.array, file: "fuzz.json") else { return 0 }
    let canvas = Canvas(width: 64, height: 64)
    let fit = LottieRenderer.fitting(animation.size, into: canvas.bounds)
    let renderer = LottieRenderer()
    for frame in [animation.inPoint, (animation.inPoint + animation.outPoint) / 2, animation.outPoint + 1] {
        // A frame past a budget of work is an error, which is an answer here.
        try? renderer.render(animation, frame: frame, into: canvas, transform: fit)
    }
    _ = animation.takeExpressionWarnings()
    return 0
}

import CRLottie
@testable import Lab
import Lottie
import Raster
import Testing

/// rlottie, through its C API: the reference our renderer is compared with.
final class RLottie {
    private let handle: OpaquePointer

    init?(json: String) {
        guard let h = json.withCString({ lottie_animation_from_data($0, "refreshlab-test-\(json.hashValue)", "") })
        else { return nil }
        handle = h
    }

    deinit { lottie_animation_destroy(handle) }

    var frameCount: Int { lottie_animation_get_totalframe(handle) }

    /// Frame `frame` at `width × height`; rlottie writes premultiplied BGRA, which is our pixel layout on a
    /// little-endian machine.
    func render(frame: Int, width: Int, height: Int) -> Canvas {
        let canvas = Canvas(width: width, height: height)
        lottie_animation_render(handle, frame, canvas.pixels, width, height, width * 4)
        return canvas
    }
}

/// Parses a document the tests wrote, failing the test with the parser's message.
func parse(_ json: String, file: String = "test.json") throws -> LottieAnimation {
    try LottieFile.parse(Array(json.utf8), file: file)
}

/// Our rendering of frame `frame` at `width × height`.
func ours(_ animation: LottieAnimation, frame: Double, width: Int = 200, height: Int = 200) -> Canvas {
    let canvas = Canvas(width: width, height: height)
    do {
        try LottieRenderer().render(animation, frame: frame, into: canvas,
                                    transform: LottieRenderer.fitting(animation.size, into: canvas.bounds))
    } catch {
        Issue.record("frame \(frame): \(error)")
    }
    return canvas
}

/// How far two renderings are apart inside the box around everything either draws (the region that matters), or
/// over the whole canvas (`overWhole`: an exported header's box): the mean difference per channel (0–255) and the
/// share of pixels, in percent, off by more than 32 in a channel.
struct Difference: CustomStringConvertible {
    var mean: Double
    var percentOver: Double
    var pixels: Int

    init(_ a: Canvas, _ b: Canvas, overWhole: Bool = false) {
        var minX = a.width, minY = a.height, maxX = -1, maxY = -1
        if overWhole {
            (minX, minY, maxX, maxY) = (0, 0, a.width - 1, a.height - 1)
        } else {
            for y in 0..<a.height {
                for x in 0..<a.width where a[x, y] >> 24 != 0 || b[x, y] >> 24 != 0 {
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
        }
        guard maxX >= minX else { mean = 0; percentOver = 0; pixels = 0; return }
        var sum = 0, over = 0
        for y in minY...maxY {
            for x in minX...maxX {
                let p = a[x, y], q = b[x, y]
                var worst = 0
                for shift in stride(from: 0, through: 24, by: 8) {
                    let d = abs(Int((p >> UInt32(shift)) & 0xFF) - Int((q >> UInt32(shift)) & 0xFF))
                    sum += d
                    worst = max(worst, d)
                }
                if worst > 32 { over += 1 }
            }
        }
        pixels = (maxX - minX + 1) * (maxY - minY + 1)
        mean = Double(sum) / Double(pixels * 4)
        percentOver = 100 * Double(over) / Double(pixels)
    }

    var description: String {
        "mean \((mean * 1000).rounded() / 1000), \((percentOver * 1000).rounded() / 1000) % over 32 of \(pixels) px"
    }
}

import Foundation
import Geometry
import Lottie
import Raster
import Testing
import TestSupport

/// A Lottie frame drawn on several threads (its fills one batch in bands of rows) is the frame of one thread, byte
/// for byte: the layer-effect files (real designers' files among them: blurs, shadows, strokes, images, expressions)
/// and the rendering fixtures (shapes, strokes, gradients, masks, mattes, layers, images, text), across each
/// animation, at two sizes.
@Suite("Lottie frames drawn on several threads")
struct BandedLottieTests {
    static func files() throws -> [(name: String, animation: LottieAnimation)] {
        let folder = LayerEffectTests.folder + "/files"
        var found: [(String, LottieAnimation)] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where name.hasSuffix(".json") {
            found.append((name, try parse(String(decoding: try readAll(folder + "/" + name), as: UTF8.self),
                                          file: folder + "/" + name)))
        }
        for (name, json) in Fixtures.compared + [("mattes", Fixtures.mattes)] {
            found.append((name, try parse(json)))
        }
        return found
    }

    @Test("Every frame drawn on 2 and 3 threads equals the frame drawn on one")
    func framesMatchOneThread() throws {
        let alone = LottieRenderer(), two = LottieRenderer(threads: 2), three = LottieRenderer(threads: 3)
        var compared = 0
        for (name, animation) in try Self.files() {
            for (width, height) in [(160, 120), (333, 517)] {
                let fit = LottieRenderer.fitting(animation.size, into: Rect(x: 0, y: 0, width: Double(width),
                                                                             height: Double(height)))
                let span = animation.outPoint - animation.inPoint
                for step in 0..<5 {
                    let frame = animation.inPoint + span * Double(step) / 5
                    var pictures: [[UInt32]] = []
                    for renderer in [alone, two, three] {
                        let canvas = Canvas(width: width, height: height)
                        try renderer.render(animation, frame: frame, into: canvas, transform: fit)
                        pictures.append(Array(UnsafeBufferPointer(start: canvas.pixels, count: canvas.pixelCount)))
                    }
                    for (k, picture) in pictures.enumerated().dropFirst() {
                        let differing = zip(picture, pictures[0]).filter { $0 != $1 }.count
                        #expect(differing == 0,
                                "\(name) at \(width)×\(height), frame \(frame), \(k + 1) threads: \(differing) pixels differ")
                    }
                    compared += 1
                }
            }
        }
        #expect(compared >= 200)
    }
}

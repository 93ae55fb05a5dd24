import Raster
import Testing
import TestSupport
@testable import Scenes

/// Every fixture scene drawn on several threads, in bands of rows, gives the pixels of one thread byte for byte.
@Suite struct BandedSceneTests {
    @Test(arguments: SceneFixtures.names)
    func threadsDrawTheSamePixels(_ name: String) throws {
        let scene = try Scene.load(path: SceneFixtures.scenePath(name))
        let alone = scene.makeCanvas()
        scene.render(into: alone, rasterizer: Rasterizer(threads: 1))
        let expected = Array(UnsafeBufferPointer(start: alone.pixels, count: alone.pixelCount))
        for threads in [2, 3, 8] {
            let canvas = scene.makeCanvas()
            let rasterizer = Rasterizer(threads: threads)
            // Twice with the same rasterizer: the second batch reuses the first one's buffers.
            for round in 0..<2 {
                scene.render(into: canvas, rasterizer: rasterizer)
                let differing = zip(UnsafeBufferPointer(start: canvas.pixels, count: canvas.pixelCount), expected)
                    .filter { $0 != $1 }.count
                #expect(differing == 0, "\(name) on \(threads) threads, round \(round): \(differing) pixels differ")
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
@testable import Lab
import Lottie
import Raster
import Testing

/// Frame after frame of the default header animation and of the dots fixture at 100×100 points and scale 2, ours
/// and rlottie's, timed in the same run. It prints the medians and checks only that drawing is bounded (under 50 ms
/// a frame even in a debug build); the speed targets are for release builds, and the figures the README gives come
/// from `Benchmarks` (`LottieBenchmarks`).
@Suite struct SpeedTests {
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    static func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }

    @Test(arguments: ["refresh (resources)", "dots"])
    func framesAreDrawnInBoundedTime(_ name: String) throws {
        let bytes: [UInt8]
        if name == "dots" {
            bytes = Array(Fixtures.dots.utf8)
        } else {
            bytes = try readAll(try #require(ResourceLocator.path(LottieFile.defaultAnimation)))
        }
        let animation = try LottieFile.parse(bytes, file: name)
        let reference = try #require(RLottie(json: String(decoding: bytes, as: UTF8.self)))
        let canvas = Canvas(width: 200, height: 200), renderer = LottieRenderer()
        let fit = LottieRenderer.fitting(animation.size, into: canvas.bounds)
        var mine: [Double] = [], theirs: [Double] = []
        for frame in Int(animation.inPoint)..<Int(animation.outPoint) {
            canvas.clear(to: .clear)
            let t0 = SpeedTests.now()
            try renderer.render(animation, frame: Double(frame), into: canvas, transform: fit)
            let t1 = SpeedTests.now()
            _ = reference.render(frame: frame, width: 200, height: 200)
            let t2 = SpeedTests.now()
            mine.append(t1 - t0)
            theirs.append(t2 - t1)
        }
        let t0 = SpeedTests.now()
        _ = try LottieFile.parse(bytes, file: name)
        let parse = SpeedTests.now() - t0
        print("lottie speed, \(name): ours \(SpeedTests.median(mine) * 1e3) ms, rlottie \(SpeedTests.median(theirs) * 1e3) ms "
              + "median per 200×200 frame; parsing \(bytes.count) bytes \(parse * 1e3) ms")
        #expect(SpeedTests.median(mine) < 0.05)
    }
}

import Colors
import Lab
import Raster
import Testing
import TestSupport

/// A phone's frames drawn on several threads (its fills in bands of rows) are those of one thread, byte for byte:
/// gesture scripts replayed on the lab's phone, on the Pixel 8 in the dark and on the iPhone 16 Pro Max under a
/// large translucent bar, every frame compared.
@Suite("Phone frames drawn on several threads")
struct BandedPhoneFrameTests {
    /// Each frame's pixels, hashed (FNV-1a over the 32-bit pixels), for a replay of `name` on `threads` threads.
    static func frameHashes(_ name: String, phone: Phone?, appearance: Appearance?, threads: Int) throws -> [UInt64] {
        let run = try ScriptRun(script: resourceScript(name), phone: phone)
        run.simulation.drawingThreads = threads
        if let appearance { run.simulation.appearance = appearance }
        var hashes: [UInt64] = []
        run.loop.afterFrame = { _ in
            let canvas = run.simulation.canvas
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            let pixels = canvas.pixels
            for i in 0..<canvas.pixelCount {
                hash = (hash ^ UInt64(pixels[i])) &* 0x0000_0100_0000_01B3
            }
            hashes.append(hash)
        }
        _ = try run.run()
        return hashes
    }

    static func compare(_ name: String, phone: Phone? = nil, appearance: Appearance? = nil, threads: [Int]) throws {
        let alone = try frameHashes(name, phone: phone, appearance: appearance, threads: 1)
        #expect(alone.count > 100, "\(name): \(alone.count) frames")
        for count in threads {
            let banded = try frameHashes(name, phone: phone, appearance: appearance, threads: count)
            #expect(banded.count == alone.count)
            let differing = zip(banded, alone).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
            #expect(differing.isEmpty, "\(name) on \(count) threads: frames \(differing.prefix(10)) differ")
        }
    }

    @Test("The lab's phone: the sticky script on 2 threads")
    func labPhone() throws {
        try Self.compare("sticky", threads: [2])
    }

    @Test("The lab's phone on 2 and 3 threads, the Pixel 8 in the dark and the iPhone 16 Pro Max under a large bar: every script",
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"),
          arguments: ["classic", "dots", "fling", "gif", "lottie", "material3", "news", "ring", "second-floor", "sticky",
                      "swipe-refresh", "system"])
    func everyScript(_ name: String) throws {
        try Self.compare(name, threads: [2, 3])
        try Self.compare(name, phone: Phone(model: .pixel8), appearance: .dark, threads: [2])
        try Self.compare(name, phone: Phone(model: .iPhone16ProMax, bar: .large), threads: [2])
    }
}

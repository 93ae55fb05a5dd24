import Colors
import Lab
import Raster
import Testing
import TestSupport

/// A phone's frames drawn on several threads (its fills in bands of rows) are those of one thread, byte for byte,
/// every frame of a gesture script compared. (CI's `.ci/threads-test` does the same with the release build for every
/// script, and on the Pixel 8 and the iPhone 16 Pro Max: a debug build draws too slowly for many here.)
@Suite("Phone frames drawn on several threads")
struct BandedPhoneFrameTests {
    /// Each frame's pixels, hashed, for a replay of `name` on `threads` threads.
    static func frameHashes(_ name: String, phone: Phone?, appearance: Appearance?, threads: Int) throws -> [Int] {
        let run = try ScriptRun(script: resourceScript(name), phone: phone)
        run.simulation.drawingThreads = threads
        if let appearance { run.simulation.appearance = appearance }
        var hashes: [Int] = []
        // The simulation, not the run: the run holds the loop, which holds this closure.
        let simulation = run.simulation
        run.loop.afterFrame = { _ in
            let canvas = simulation.canvas
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(start: canvas.pixels, count: canvas.pixelCount * 4))
            hashes.append(hasher.finalize())
        }
        defer { run.loop.afterFrame = nil }
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
}

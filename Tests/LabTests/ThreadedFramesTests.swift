#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import Motion
import Colors
import Raster
import Testing
import TestSupport
@testable import Lab
@testable import Recording
import UserFiles

/// Keeps a copy of every frame a run writes.
private final class KeptFrames: FrameSink {
    private(set) var frames: [Canvas] = []

    func write(_ canvas: Canvas, frame index: Int) throws {
        #expect(index == frames.count)
        let copy = Canvas(width: canvas.width, height: canvas.height)
        copy.copy(from: canvas)
        frames.append(copy)
    }

    func finish() throws {}
}

/// `--frames` encodes on worker threads: the files are those one thread would write, in order, and a failure is one
/// error naming its file.
@Suite("Frames written on worker threads")
struct ThreadedFramesTests {
    /// A rest, a pull and a release: frames that repeat the one before, and frames that move.
    static let script = GestureScript(steps: [
        .wait(0.1), .down(Point(187.5, 150)), .move(to: Point(187.5, 330), duration: 0.15, easing: .linear), .up(nil),
    ])

    @Test("each frame's file is what one thread encoding that frame writes, byte for byte, and decodes to its pixels")
    func sameAsOneThread() throws {
        let dir = temporaryDirectory("threaded-frames") + "/f"
        let run = try ScriptRun(script: ThreadedFramesTests.script, outputs: ScriptRunOutputs(framesDirectory: dir))
        let kept = KeptFrames()
        run.loop.sinks.append(kept)
        let count = try run.run()
        #expect(count == kept.frames.count && count > 10)
        let repeats = (1..<count).filter { i in
            memcmp(kept.frames[i].pixels, kept.frames[i - 1].pixels, kept.frames[i].pixelCount * 4) == 0
        }
        #expect(!repeats.isEmpty, "the script should start at rest, with frames that repeat the one before")
        let encoder = PNGEncoder()
        for (index, frame) in kept.frames.enumerated() {
            let path = PNGSequence.path(of: index, in: dir)
            let written = try UserFile.read(path, kind: "PNG file", limit: 1 << 26)
            let alone = try encoder.encodedBytes(frame.pixels, width: frame.width, height: frame.height)
            // Compared first: the expectation would otherwise diff two arrays of a hundred thousand bytes.
            let same = written == alone
            #expect(same, "\(path) differs from one thread's encoding of its frame")
            let decoded = try PNG.read(from: path)
            #expect(decoded.width == frame.width && decoded.height == frame.height)
            #expect(memcmp(decoded.pixels, frame.pixels, frame.pixelCount * 4) == 0, "\(path)'s pixels differ")
        }
        #expect(try listDirectory(dir).sorted() == (0..<count).map { String(PNGSequence.path(of: $0, in: "").dropFirst()) })
    }

    @Test("a later frame's file never appears before an earlier one's, though it is encoded sooner")
    func inOrder() throws {
        let dir = temporaryDirectory("threaded-order")
        let pool = PNGWriterPool(workers: 3)
        #expect(pool.capacity == 5)
        // Frame 0 is noise, slow to compress; frames 1 to 3 are flat, each of its own colour, and quick.
        let size = 1200
        var random = SeededRandom(seed: 39)
        let noise = Canvas(width: size, height: size)
        for i in 0..<noise.pixelCount { noise.pixels[i] = 0xFF00_0000 | UInt32(truncatingIfNeeded: random.next()) & 0xFF_FFFF }
        let paths = (0..<4).map { PNGSequence.path(of: $0, in: dir) }
        try pool.add(noise, path: paths[0])
        for index in 1..<4 {
            try pool.add(Canvas(width: size, height: size, fill: Color(white: Double(index) / 4)), path: paths[index])
        }
        // Fewer frames than buffers, so adding never waited: watch the folder while the workers write.
        var seen = 0
        let deadline = MonotonicClock.seconds() + 30 * timeLimitScale
        while seen < 4 && MonotonicClock.seconds() < deadline {
            let present = paths.map(fileExists)
            seen = present.prefix { $0 }.count
            #expect(!present.dropFirst(seen).contains(true), "written out of order: \(present)")
            if present.dropFirst(seen).contains(true) { break }
            usleep(200)
        }
        try pool.finish()
        #expect(paths.allSatisfy(fileExists))
    }

    @Test("a frame that cannot be written is one error naming its file: the frames before it stay, none after it is written")
    func failureNamesTheFile() throws {
        let dir = temporaryDirectory("threaded-full") + "/f"
        let sequence = try PNGSequence(directory: dir, workers: 2)
        // Frame 3 leads to a full device: written in place, its write fails.
        try #require(symlink("/dev/full", PNGSequence.path(of: 3, in: dir)) == 0)
        var errors: [String] = []
        for index in 0..<12 {
            let canvas = Canvas(width: 64, height: 48, fill: Color(white: Double(index) / 12))
            do { try sequence.write(canvas, frame: index) } catch { errors.append("\(error)") }
        }
        do { try sequence.finish() } catch { errors.append("\(error)") }
        #expect(errors.count == 1, "\(errors)")
        let message = errors.first ?? ""
        #expect(message.contains("cannot write PNG '\(dir)/frame-0003.png'") && message.contains("No space left"),
                "\(message)")
        #expect(message.contains("check that the disk has room and '\(dir)' is writable"))
        for index in 0..<3 { #expect((try? PNG.read(from: PNGSequence.path(of: index, in: dir))) != nil) }
        let left = try listDirectory(dir).sorted()
        #expect(left == ["frame-0000.png", "frame-0001.png", "frame-0002.png", "frame-0003.png"], "\(left)")
    }

    @Test("a frames folder that cannot be written is one error naming the first frame's file")
    func unwritableFolder() throws {
        let dir = temporaryDirectory("threaded-unwritable") + "/f"
        let sequence = try PNGSequence(directory: dir, workers: 2)
        // A file where the folder was: every write fails (permissions would not stop a test run as root).
        try #require(rmdir(dir) == 0 && writeTextFile(dir, "not a folder\n"))
        var errors: [String] = []
        for index in 0..<8 {
            do { try sequence.write(Canvas(width: 16, height: 16, fill: .white), frame: index) } catch { errors.append("\(error)") }
        }
        do { try sequence.finish() } catch { errors.append("\(error)") }
        #expect(errors == ["cannot write PNG '\(dir)/frame-0000.png': Not a directory; check that the disk has room "
            + "and '\(dir)' is writable"])
    }

    @Test("a run whose frame cannot be written ends with status 1 and one line naming that frame",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"))
    func failedRun() throws {
        let dir = temporaryDirectory("threaded-failed-run")
        let frames = dir + "/f"
        try #require(mkdir(frames, 0o755) == 0)
        try #require(symlink("/dev/full", frames + "/frame-0002.png") == 0)
        let outcome = try runRefreshlab(["run", "--script", "sticky", "--frames", frames], in: dir)
        #expect(outcome.status == 1, "\(outcome.errors)")
        #expect(outcome.errors.split(separator: "\n").count == 1, "\(outcome.errors)")
        #expect(outcome.errors.contains("cannot write PNG '\(frames)/frame-0002.png': No space left on device"),
                "\(outcome.errors)")
        #expect(try listDirectory(frames).sorted() == ["frame-0000.png", "frame-0001.png", "frame-0002.png"])
    }
}

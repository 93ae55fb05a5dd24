#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Motion
@testable import Raster
import Testing
import TestSupport
@testable import Lab
@testable import Recording
@testable import Scenes
@testable import UserFiles

/// Every reader of a user's file, given what is not a file of its kind: a pipe with no writer, an endless device, a
/// folder, and a file one byte over its limit. Each is one error naming the path, at once: never a hang, never a
/// crash, never memory taken for what the file claims.
@Suite("Every reader bounded")
struct ReaderBoundsTests {
    /// A reader: the arguments that make `refreshlab` read `path` as it, and its size limit.
    struct Reader: Sendable, CustomStringConvertible {
        let description: String
        let limit: Int
        let arguments: @Sendable (_ path: String, _ dir: String) -> [String]
        /// True when a folder is a valid input (an animation folder): then it is refused for what it lacks.
        var takesFolders = false
    }

    static let readers: [Reader] = [
        Reader(description: "lottie FILE", limit: LottieFile.maxBytes) { ["lottie", $0, "--out", $1 + "/o.png"] },
        Reader(description: "run --script", limit: GestureScript.maxFileSize) { path, _ in ["run", "--script", path] },
        Reader(description: "--style", limit: StyleFiles.maxFileSize) { path, _ in
            ["run", "--script", "sticky", "--style", path]
        },
        Reader(description: "scene FILE", limit: Scene.maxFileSize) { ["scene", $0, "--out", $1 + "/o.png"] },
        Reader(description: "scene --reference", limit: PNG.maxFileBytes) {
            ["scene", $1 + "/card.json", "--reference", $0]
        },
        Reader(description: "report CSV", limit: TimingFiles.maxFileSize) { ["report", $0, "--out", $1 + "/o.png"] },
        Reader(description: "--animation GIF", limit: GIF.maxFileBytes, arguments: { path, _ in
            ["run", "--script", "gif", "--effect", "gif", "--animation", path]
        }, takesFolders: true),
        Reader(description: "--animation Lottie", limit: LottieFile.maxBytes) { path, _ in
            ["run", "--script", "lottie", "--effect", "lottie", "--animation", path]
        },
    ]

    /// The bad inputs: their name and how to make one in `dir`.
    static let inputs: [(name: String, make: @Sendable (String, Int) -> String)] = [
        ("a pipe with no writer", { dir, _ in
            let path = dir + "/pipe"
            mkfifo(path, 0o644)
            return path
        }),
        ("/dev/zero", { _, _ in "/dev/zero" }),
        ("a folder", { dir, _ in
            let path = dir + "/folder"
            mkdir(path, 0o755)
            return path
        }),
        ("a file one byte over the limit", { dir, limit in
            // Sparse: it takes no disk, but reads as `limit + 1` zero bytes.
            let path = dir + "/large"
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            ftruncate(fd, off_t(limit + 1))
            close(fd)
            return path
        }),
    ]

    @Test("each reader refuses a pipe, /dev/zero, a folder and a file over its limit with one error naming it",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"),
          arguments: ReaderBoundsTests.readers)
    func refused(reader: Reader) throws {
        for input in ReaderBoundsTests.inputs {
            let dir = temporaryDirectory("reader-bounds")
            try #require(writeTextFile(dir + "/card.json", SceneReferenceCommandTests.scene))
            let path = input.make(dir, reader.limit)
            let started = MonotonicClock.seconds()
            let outcome = try runRefreshlab(reader.arguments(path, dir), in: dir, timeout: 20,
                                            memoryLimit: 1 << 30)
            let seconds = MonotonicClock.seconds() - started
            let what = "\(reader) given \(input.name)"
            #expect(outcome.status == 1, "\(what): status \(outcome.status)\n\(outcome.errors)")
            #expect(seconds < 5 * timeLimitScale, "\(what): took \(seconds) s")
            let lines = outcome.errors.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
            #expect(lines.count == 1 && lines[0].contains(path), "\(what): \(outcome.errors)")
            let expected: [String]
            switch input.name {
            case "a pipe with no writer", "/dev/zero": expected = ["not a regular file (a pipe or a device)"]
            case "a folder": expected = reader.takesFolders ? ["has no PNG files"] : ["a folder, not a"]
            default: expected = ["larger than \(UserFile.describe(bytes: reader.limit))"]
            }
            #expect(expected.allSatisfy { outcome.errors.contains($0) }, "\(what): \(outcome.errors)")
        }
    }

    @Test("an animation's states share one budget of frames: two GIFs of 600 frames each are refused, naming it")
    func statesShareFrames() throws {
        let dir = temporaryDirectory("animation-budget")
        let frame = GIFWriter.Frame(width: 1, height: 1, indices: [0])
        let gif = GIFWriter.encode(width: 1, height: 1, palette: [0xFF0000, 0x00FF00],
                                   frames: Array(repeating: frame, count: 600))
        try #require(writeBytes(dir + "/idle.gif", gif))
        #expect(try AnimationFiles.load(dir)[.idle].images.count == 600)
        try #require(writeBytes(dir + "/pulling.gif", gif))
        let error = try #require(throws: LabError.self) { try AnimationFiles.load(dir) }
        #expect(error.description.contains("pulling.gif") && error.description.contains("more than the 400 frames")
                && error.description.contains("the animation's states count together"), "\(error)")
    }

    @Test("a 60 MB Lottie file is parsed and drawn in memory proportional to its size: under 12 bytes a byte",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"),
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"),
          .enabled(if: !runsUnderAddressSanitizer, "memory is measured without AddressSanitizer (its shadow memory)"),
          .enabled(if: access("/usr/bin/time", X_OK) == 0, "GNU time measures the peak (scripts/setup.sh installs it)"))
    func largeLottie() throws {
        let dir = temporaryDirectory("lottie-60mb")
        // Shape layers of ten 40-point paths each, as an exported vector drawing: numbers are most of the bytes,
        // and the layers (about 2,000) stay within the budget of layer draws a frame.
        var random = SeededRandom(seed: 60)
        var layers: [String] = []
        var size = 0
        let zeros = Array(repeating: "[0,0]", count: 40).joined(separator: ",")
        while size < 60_000_000 {
            let paths = (0..<10).map { _ in
                let points = (0..<40).map { _ in
                    "[\(Double.random(in: 0...200, using: &random)),\(Double.random(in: 0...200, using: &random))]"
                }
                return #"{"ty":"sh","ks":{"a":0,"k":{"c":true,"v":[\#(points.joined(separator: ","))],"#
                    + #""i":[\#(zeros)],"o":[\#(zeros)]}}}"#
            }
            let layer = #"{"ty":4,"ind":\#(layers.count),"ip":0,"op":60,"st":0,"ks":{},"shapes":["#
                + paths.joined(separator: ",") + #",{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]}"#
            layers.append(layer)
            size += layer.utf8.count + 1
        }
        #expect(layers.count < 10_000, "within the budget of layer draws a frame (LottieRenderer.maxLayerDraws)")
        let text = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":200,"h":200,"layers":["#
            + layers.joined(separator: ",") + "]}"
        try #require(writeTextFile(dir + "/big.json", text))
        // The peak is measured by `time`, a small process that starts `refreshlab` itself: the kernel carries a
        // parent's peak into its child's when the child is started (`wait4`'s maximum here was the test runner's own
        // peak whenever that was higher, 709 MB in a full run against the child's 500).
        let pid = try spawnRefreshlab(["lottie", dir + "/big.json", "--out", dir + "/big.png"], in: dir,
                                      wrapper: ["/usr/bin/time", "--format=%M", "--output=" + dir + "/peak"])
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect(status == 0, "\(readTextFile(dir + "/stderr") ?? "")")
        let kilobytes = try #require(readTextFile(dir + "/peak").flatMap {
            Int($0.split(separator: "\n").last.map(String.init) ?? "")
        })
        let peak = kilobytes * 1024
        #expect(peak < 12 * text.utf8.count, "peak \(peak >> 20) MB for \(text.utf8.count >> 20) MB")
        print("a \(text.utf8.count >> 20) MB Lottie file took \(peak >> 20) MB at its peak")
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster
import Geometry

/// A failure of a headless run, with a message that names the file and what to do.
public struct LabError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The simulator's frame rate when it runs on a simulated clock: one frame is exactly 1/60 s.
public let simulatedFrameRate = 60.0

/// A finger that drags the list up and lets go, spread over a number of frames: what a headless run without a
/// script shows.
public struct DemoDrag: Sendable {
    public var start: Point
    public var distance: Double

    public init(start: Point = Point(187.5, 560), distance: Double = 360) {
        self.start = start
        self.distance = distance
    }

    /// The drag as a gesture script spread over `frames` frames: down on the first, an even move up to the last,
    /// and up there.
    public func script(frames: Int) -> GestureScript {
        let end = Point(start.x, start.y - distance)
        return GestureScript(name: "drag", steps: [
            .down(start),
            .move(to: end, duration: Double(Swift.max(frames - 1, 0)) / simulatedFrameRate, easing: .linear),
            .up(nil),
        ])
    }
}

/// Runs the simulation on a simulated clock and writes each frame as a PNG: `frame-0000.png`, `frame-0001.png`, …
/// It is the gesture-script replay of a `DemoDrag`, the contract of `refreshlab --headless --frames N --out DIR`.
public struct HeadlessRun {
    public var frames: Int
    public var outputDirectory: String
    public var phone: Phone
    public var drag: DemoDrag

    public init(frames: Int, outputDirectory: String, phone: Phone = Phone(), drag: DemoDrag = DemoDrag()) {
        self.frames = frames
        self.outputDirectory = outputDirectory
        self.phone = phone
        self.drag = drag
    }

    /// Renders and writes every frame; returns the paths written.
    @discardableResult
    public func run() throws -> [String] {
        guard frames > 0 else { throw LabError("--frames must be at least 1, not \(frames)") }
        let run = try ScriptRun(script: drag.script(frames: frames),
                                outputs: ScriptRunOutputs(framesDirectory: outputDirectory), phone: phone)
        return (0..<(try run.run())).map { PNGSequence.path(of: $0, in: outputDirectory) }
    }
}

/// Creates `path` and its missing parents, as `mkdir -p`.
func makeDirectory(_ path: String) throws {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for part in path.split(separator: "/") {
        prefix += part
        if FileName.withBytes(prefix, { mkdir($0, 0o755) }) != 0 && errno != EEXIST {
            throw LabError("cannot create directory '\(prefix)': \(String(cString: strerror(errno)))")
        }
        prefix += "/"
    }
    var info = stat()
    guard FileName.withBytes(path, { stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
        throw LabError("'\(path)' exists and is not a directory; choose another folder")
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import Motion
import Raster

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

    /// The events for frame `index` of `count`: down on the first, a move on each, up on the last.
    public func events(frame index: Int, of count: Int) -> [InputEvent] {
        let progress = count > 1 ? Double(index) / Double(count - 1) : 1
        let p = Point(start.x, start.y - distance * progress)
        var events: [InputEvent] = []
        if index == 0 { events.append(.touchDown(start)) }
        events.append(.touchMove(p))
        if index == count - 1 { events.append(.touchUp(p)) }
        return events
    }
}

/// Runs the simulation on a simulated clock and writes each frame as a PNG: `frame-0000.png`, `frame-0001.png`, …
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

    /// The path of frame `index`'s PNG.
    public func framePath(_ index: Int) -> String {
        let digits = String(index)
        return outputDirectory + "/frame-" + String(repeating: "0", count: Swift.max(0, 4 - digits.count)) + digits + ".png"
    }

    /// Renders and writes every frame; returns the paths written.
    @discardableResult
    public func run() throws -> [String] {
        guard frames > 0 else { throw LabError("--frames must be at least 1, not \(frames)") }
        try makeDirectory(outputDirectory)
        let clock = SimulatedClock()
        let simulation = Simulation(phone: phone, clock: clock)
        var written: [String] = []
        for index in 0..<frames {
            if index > 0 { clock.advance(by: 1 / simulatedFrameRate) }
            for event in drag.events(frame: index, of: frames) { simulation.handle(event) }
            simulation.step()
            simulation.render()
            let path = framePath(index)
            do {
                try PNG.write(simulation.canvas, to: path)
            } catch {
                throw LabError("\(error); check that the disk has room and '\(outputDirectory)' is writable")
            }
            written.append(path)
        }
        return written
    }
}

/// Creates `path` and its missing parents, as `mkdir -p`.
func makeDirectory(_ path: String) throws {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for part in path.split(separator: "/") {
        prefix += part
        if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
            throw LabError("cannot create directory '\(prefix)': \(String(cString: strerror(errno)))")
        }
        prefix += "/"
    }
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
        throw LabError("'\(path)' exists and is not a directory; choose another --out")
    }
}

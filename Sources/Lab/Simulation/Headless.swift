#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster
import Geometry
import UserFiles
import Recording

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
    public func script(frames: Int, frameRate: Double = simulatedFrameRate) -> GestureScript {
        let end = Point(start.x, start.y - distance)
        return GestureScript(name: "drag", steps: [
            .down(start),
            .move(to: end, duration: Double(Swift.max(frames - 1, 0)) / frameRate, easing: .linear),
            .up(nil),
        ])
    }
}

import Geometry
import Raster
import Colors

/// The pictures of the gif header's default animation, `Resources/animations/refresh/`: drawn here with
/// RefreshLab's own rasterizer, so the project ships no art it did not make. A test checks the shipped PNGs
/// against this drawing; `REFRESHLAB_UPDATE_DEFAULT_ANIMATION=1` makes that test write them again.
public enum DefaultAnimationArt {
    /// Each frame's size in pixels: 50 pt at the phone's scale of 2.
    public static let size = 100
    /// UIKit's system blue.
    static let blue = Color(rgb: 0, 122, 255)
    static let centre = Point(50, 50)
    static let radius = 34.0
    static let lineWidth = 8.0

    /// The frames of each state's folder (`idle`, `pulling`, `refreshing`), in order.
    public static func frames() -> [(state: String, frames: [Canvas])] {
        // Idle: the ring drawn clockwise from the top as the pull grows, 16 steps to a full ring.
        let idle = (1...16).map { step in
            ring(from: 0, to: Double(step) / 16 * 2 * .pi)
        }
        // Pulling past the trigger: the full ring with a dot in its middle that swells and shrinks.
        let pulling = (0..<8).map { step in
            let canvas = ring(from: 0, to: 2 * .pi)
            let r = 8 + 6 * (1 - Swift.abs(Double(step) / 4 - 1))
            var dot = Path()
            dot.addCircle(center: centre, radius: r)
            Rasterizer().fill(dot, color: blue, into: canvas)
            return canvas
        }
        // Refreshing: a three-quarter ring turning by 30° a frame.
        let refreshing = (0..<12).map { step in
            let start = Double(step) * .pi / 6
            return ring(from: start, to: start + 1.5 * .pi)
        }
        return [("idle", idle), ("pulling", pulling), ("refreshing", refreshing)]
    }

    /// A ring's arc from `start` to `end`, radians clockwise from the top, with round caps.
    static func ring(from start: Double, to end: Double) -> Canvas {
        let canvas = Canvas(width: size, height: size)
        var arc = Path()
        arc.addArc(center: centre, radius: radius, startAngle: start - .pi / 2, endAngle: end - .pi / 2,
                   clockwise: true)
        let style = StrokeStyle(lineWidth: lineWidth, lineCap: .round)
        Rasterizer().fill(Stroker().stroke(arc, style: style, tolerance: 0.05), color: blue, into: canvas)
        return canvas
    }
}

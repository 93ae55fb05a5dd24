import Raster

/// Two frames in one canvas, the first on the left and the second on the right, each at its own pixel size, a gap
/// apart, tops aligned; what neither covers stays transparent (alpha 0), so that two phones of different sizes are
/// shown as they are, not stretched to match.
public final class SideBySide {
    /// Pixels between the two frames.
    public static let gap = 16

    /// The canvas of the last composition, kept and reused while the two sizes stay the same.
    public private(set) var canvas: Canvas?

    public init() {}

    /// The composite's size for frames of these sizes: both widths and the gap, by the taller height.
    public static func size(left: (width: Int, height: Int), right: (width: Int, height: Int)) -> (width: Int, height: Int) {
        (left.width + gap + right.width, Swift.max(left.height, right.height))
    }

    /// Copies `left` and `right` into the composite and returns it.
    public func compose(_ left: Canvas, _ right: Canvas) -> Canvas {
        let size = SideBySide.size(left: (left.width, left.height), right: (right.width, right.height))
        let target: Canvas
        if let canvas, canvas.width == size.width, canvas.height == size.height {
            // The two frames cover the same pixels as last time, so the padding is still transparent.
            target = canvas
        } else {
            target = Canvas(width: size.width, height: size.height)
            canvas = target
        }
        copy(left, into: target, atX: 0)
        copy(right, into: target, atX: left.width + SideBySide.gap)
        return target
    }

    private func copy(_ frame: Canvas, into target: Canvas, atX x: Int) {
        for y in 0..<frame.height {
            (target.pixels + y * target.width + x).update(from: frame.pixels + y * frame.width, count: frame.width)
        }
    }
}

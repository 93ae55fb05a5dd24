import Geometry

/// The simulated device: an iPhone 8 class screen, drawn at `scale` pixels per point.
public struct Phone: Sendable, Equatable {
    /// The screen in points (iPhone 6/7/8: 375×667).
    var screenSize = Size(375, 667)
    /// Pixels per point (2 on those phones).
    public var scale = 2.0
    /// Status bar (20) plus navigation bar (44), the top chrome of a `UINavigationController` in portrait.
    var navigationBarHeight = 64.0

    public init(scale: Double = 2) {
        self.scale = scale
    }

    /// The canvas size in pixels.
    public var pixelWidth: Int { Int((screenSize.width * scale).rounded()) }
    public var pixelHeight: Int { Int((screenSize.height * scale).rounded()) }

    /// The part of the screen the list scrolls in, below the navigation bar.
    var listFrame: Rect {
        Rect(x: 0, y: navigationBarHeight, width: screenSize.width, height: screenSize.height - navigationBarHeight)
    }

    /// The part of the display a window may take at most.
    static let displayShare = 0.9

    /// The window's size in pixels on a display with `display` usable pixels: the canvas's own size (so scale 3
    /// opens a larger window than 2) where the display has room, else scaled down to fit `displayShare` of it,
    /// keeping the proportions.
    public func windowSize(display: (w: Int, h: Int)) -> (w: Int, h: Int) {
        let f = Swift.min(1, Phone.displayShare * Double(display.w) / Double(pixelWidth),
                          Phone.displayShare * Double(display.h) / Double(pixelHeight))
        return (Int((Double(pixelWidth) * f).rounded()), Int((Double(pixelHeight) * f).rounded()))
    }
}

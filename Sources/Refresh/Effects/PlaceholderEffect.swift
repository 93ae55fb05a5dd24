import Geometry
import Layers
import Raster

/// A plain header until the real effects are there: a dot that grows with the pull, turns blue when armed and
/// becomes a bar while refreshing. It uses MJRefresh's numbers (the `RefreshMetrics` defaults).
public final class PlaceholderEffect: RefreshEffect {
    public let metrics = RefreshMetrics()
    public let layer = Layer()
    private let dot = Layer()
    /// The dot's diameter at the threshold, in points; not from REFERENCE, a size that reads well at 54 pt.
    static let dotDiameter = 20.0
    static let idleColor = Color(rgb: 142, 142, 147)
    static let armedColor = Color(rgb: 0, 122, 255)
    private var state = RefreshState.idle

    public init() {
        dot.backgroundColor = PlaceholderEffect.idleColor
        layer.addSublayer(dot)
    }

    public func update(pull: RefreshPull) {
        layer.frame = Rect(origin: .zero, size: pull.headerSize)
        let centre = Point(pull.headerSize.width / 2, pull.headerSize.height / 2)
        let d: Double
        let width: Double
        switch state {
        case .refreshing, .finishing:
            d = PlaceholderEffect.dotDiameter / 2
            // A bar that breathes once a second, so a running refresh is visible without animations.
            let phase = pull.time - pull.time.rounded(.down)
            width = d + 3 * d * (phase < 0.5 ? phase * 2 : (1 - phase) * 2)
        default:
            d = PlaceholderEffect.dotDiameter * Swift.min(Swift.max(pull.progress, 0), 1)
            width = d
        }
        dot.frame = Rect(x: centre.x - width / 2, y: centre.y - d / 2, width: width, height: d)
        dot.cornerRadius = d / 2
    }

    public func transition(from old: RefreshState, to new: RefreshState, at time: Double) {
        state = new
        dot.backgroundColor = new == .idle || new == .pulling ? PlaceholderEffect.idleColor : PlaceholderEffect.armedColor
    }
}

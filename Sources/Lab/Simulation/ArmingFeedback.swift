import Geometry
import Raster
import Refresh
import Colors

/// What a user feels and hears the moment a pull arms the header (`RefreshControl.cue`): a medium impact haptic
/// and VoiceOver saying that the list refreshes (docs/reference.md §6, a cue at the threshold). The lab cannot
/// vibrate or speak: the window shows a mark on the phone for a moment and a line in the HUD, and `--events` logs
/// both (`EventLog`), once per arming.
public enum ArmingFeedback {
    /// The impact's style: medium (docs/reference.md §6).
    public static let haptic = "medium"
    /// What VoiceOver says, in the screen's language (docs/reference.md §6; the wording is an estimate); for an
    /// arming of the second floor, the floor's name (chosen here).
    public static func announcement(in language: RefreshLanguage, floor: Bool = false) -> String {
        if floor { return language == .chinese ? "二楼" : "Second floor" }
        return language == .chinese ? "正在刷新" : "Refreshing"
    }
    /// How long the mark stays on the phone after an arming, in seconds of the base clock (chosen here: long
    /// enough to be seen, short enough that two armings a second apart show twice).
    static let markDuration = 0.8
    /// The mark: a disc of this radius, its centre this far from the list's top-right corner, in points (chosen
    /// here: clear of every header's drawing, which is centred).
    static let markRadius = 9.0
    static let markInset = 14.0
    /// Its ring: the radius and the line's width, in points (chosen here).
    static let markRingRadius = 4.5
    static let markRingWidth = 1.5
    static let markColor = Color(rgb: 0, 122, 255, alpha: 0.9)
}

/// The mark an arming leaves on the phone: a blue disc with a white ring, as a ripple of the haptic, at the list's
/// top-right corner. Its paths are made once per place; drawing allocates nothing.
final class ArmingMark {
    private var placedIn: Rect?
    private var disc = Path()
    private var ring = Path()

    func draw(listFrame: Rect, scale: Double, rasterizer: Rasterizer, into canvas: Canvas) {
        if placedIn != listFrame {
            placedIn = listFrame
            let centre = Point(listFrame.maxX - ArmingFeedback.markInset, listFrame.minY + ArmingFeedback.markInset)
            disc = Path()
            disc.addEllipse(in: Rect(x: centre.x - ArmingFeedback.markRadius, y: centre.y - ArmingFeedback.markRadius,
                                     width: 2 * ArmingFeedback.markRadius, height: 2 * ArmingFeedback.markRadius))
            let outer = ArmingFeedback.markRingRadius + ArmingFeedback.markRingWidth / 2
            let inner = ArmingFeedback.markRingRadius - ArmingFeedback.markRingWidth / 2
            ring = Path()
            ring.addEllipse(in: Rect(x: centre.x - outer, y: centre.y - outer, width: 2 * outer, height: 2 * outer))
            ring.addEllipse(in: Rect(x: centre.x - inner, y: centre.y - inner, width: 2 * inner, height: 2 * inner))
        }
        let toPixels = AffineTransform(scaleX: scale, y: scale)
        rasterizer.fill(disc, transform: toPixels, color: ArmingFeedback.markColor, into: canvas)
        rasterizer.fill(ring, transform: toPixels, color: .white, rule: .evenOdd, into: canvas)
    }
}

import Scrolling
import Styles

/// The second floor's rules, as SmartRefreshLayout's `TwoLevelHeader` and its kernel follow them (docs/reference.md
/// §10): what a pull arms, which touch can drag the open floor and whether letting it go leaves it open, and how its
/// slides and the inner header's fades run. They hold no state: the control that opens a floor keeps it.
public enum SecondFloor {
    /// The floor's settings, a `floor` style section's keys, with SmartRefreshLayout's defaults.
    public struct Style: StyleValue {
        /// The farthest pull, in header heights (`srlMaxRate`).
        public var maxRate = 2.5
        /// The pull that arms the floor, in header heights (`srlFloorRate`).
        public var floorRate = 1.9
        /// Under this pull, a pull falling from the floor's arms nothing (`srlRefreshRate`).
        public var refreshRate = 1.0
        /// How long the floor takes to slide open or closed, in seconds; the inner header fades over half of it
        /// (`srlFloorDuration`).
        public var floorDuration = 1.0
        /// The strip at the bottom of the list, as a share of its height, where a touch can drag the open floor
        /// (`srlBottomPullUpToCloseRate`).
        public var closeStrip = 1.0 / 6

        public init() {}

        public static var fields: [StyleField<Style>] {
            [
                .number("maxRate", \.maxRate, "", 1...10, "the farthest pull, in header heights"),
                .number("floorRate", \.floorRate, "", 1...10, "the pull that arms the floor, in header heights"),
                .number("refreshRate", \.refreshRate, "", 0.1...10,
                        "under this pull, a pull falling from the floor's arms nothing, in header heights"),
                .number("floorDuration", \.floorDuration, "s", 0.05...10,
                        "the floor's slide open or closed; the inner header fades over half of it"),
                .number("closeStrip", \.closeStrip, "", 0.01...1,
                        "the share of the list's height, at its bottom, where a touch can drag the open floor"),
            ]
        }
    }

    /// What a pull has armed: letting go then does nothing, refreshes, or opens the floor.
    public enum Armed: Equatable, Sendable {
        case nothing
        case refresh
        case floor
    }

    /// What a pull has armed after the finger moved it from `previous` to `ratio` header heights, `armed` before the
    /// move. The kernel first arms a refresh past one header height (strictly) and nothing under it, keeping an armed
    /// floor; the header then arms the floor when the pull crosses `floorRate` upwards, and from `floorRate` or more
    /// gives nothing under `refreshRate` and a refresh under `floorRate`.
    public static func armed(after previous: Double, to ratio: Double, was armed: Armed, style: Style = Style())
        -> Armed {
        var now: Armed = ratio > 1 ? (armed == .floor ? .floor : .refresh) : .nothing
        if previous < style.floorRate && ratio >= style.floorRate {
            now = .floor
        } else if previous >= style.floorRate && ratio < style.refreshRate {
            now = .nothing
        } else if previous >= style.floorRate && ratio < style.floorRate {
            now = .refresh
        }
        return now
    }

    /// Whether a touch going down `y` points below the list's top, on a list `height` points tall, can drag the
    /// open floor: only one in the strip at its bottom can.
    public static func canDrag(touchY y: Double, height: Double, style: Style = Style()) -> Bool {
        y >= height * (1 - style.closeStrip)
    }

    /// The speed past which a floor let go closes whatever its distance, in pixels a second, upwards:
    /// SmartRefreshLayout's −1000, in the screen's pixels (not dp).
    public static let closingSpeed = 1000.0

    /// Whether the open floor, let go with the content `down` points below its top on a list `height` points tall
    /// while the finger moved at `velocity` pixels a second (negative upwards), stays open: it does when the finger
    /// was slower than `closingSpeed` upwards and the content is more than half the height down, both strictly.
    public static func staysOpen(down: Double, height: Double, velocity: Double) -> Bool {
        velocity > -closingSpeed && down > height / 2
    }

    /// How far along a slide of the floor is `elapsed` seconds in: Android's viscous-fluid curve over the floor's
    /// duration, 0 at its start, 1 at its end.
    public static func slideProgress(elapsed: Double, style: Style = Style()) -> Double {
        TopPullLayout.viscousFluid(at: elapsed / style.floorDuration)
    }

    /// The inner header's opacity `elapsed` seconds into its fade out (the floor opening) or back in (closing):
    /// Android's default curve for a view's animation, accelerate-decelerate, over half the floor's duration.
    public static func innerHeaderOpacity(elapsed: Double, fadingOut: Bool, style: Style = Style()) -> Double {
        let progress = AndroidCurves.accelerateDecelerate(elapsed / (style.floorDuration / 2))
        return fadingOut ? 1 - progress : progress
    }
}

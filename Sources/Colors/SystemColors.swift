/// The phone's appearance, as iOS's `UIUserInterfaceStyle`: light (the default) or dark.
public enum Appearance: String, CaseIterable, Sendable {
    case light, dark

    /// The other appearance: what the appearance key switches to.
    public var toggled: Appearance { self == .light ? .dark : .light }
}

/// A colour for each appearance, as one of UIKit's dynamic colours.
public struct DynamicColor: Hashable, Sendable {
    public var light: Color
    public var dark: Color

    @inlinable
    public init(light: Color, dark: Color) {
        self.light = light
        self.dark = dark
    }

    /// The colour shown in `appearance`.
    @inlinable
    public func resolved(_ appearance: Appearance) -> Color { appearance == .light ? light : dark }
}

/// UIKit's system colours in both appearances: the one table of them, every value from docs/reference.md §6 (its
/// "Dark mode" table gives each one's source; the navigation bar's are estimates, marked there).
public enum SystemColor {
    /// The list's rows, and the screen behind a plain list.
    public static let systemBackground = DynamicColor(light: .white, dark: .black)
    /// The page behind the rows (the simulator's screen) and panels over the main background.
    public static let secondarySystemBackground = DynamicColor(light: Color(rgb: 242, 242, 247),
                                                               dark: Color(rgb: 28, 28, 30))
    /// A surface raised over the secondary background: the floating ring's disc in dark.
    public static let tertiarySystemBackground = DynamicColor(light: .white, dark: Color(rgb: 44, 44, 46))
    /// Primary text.
    public static let label = DynamicColor(light: .black, dark: .white)
    /// Secondary text: subtitles, times, the headers' state lines in dark.
    public static let secondaryLabel = DynamicColor(light: Color(rgb: 60, 60, 67, alpha: 0.6),
                                                    dark: Color(rgb: 235, 235, 245, alpha: 0.6))
    /// A hairline that lets what is behind it show.
    public static let separator = DynamicColor(light: Color(rgb: 60, 60, 67, alpha: 0.29),
                                               dark: Color(rgb: 84, 84, 88, alpha: 0.6))
    /// An opaque hairline: the list's row separators.
    public static let opaqueSeparator = DynamicColor(light: Color(rgb: 198, 198, 200), dark: Color(rgb: 56, 56, 58))
    /// The neutral grey, the same in both appearances.
    public static let systemGray = DynamicColor(light: Color(rgb: 142, 142, 147), dark: Color(rgb: 142, 142, 147))

    public static let systemRed = DynamicColor(light: Color(rgb: 255, 59, 48), dark: Color(rgb: 255, 69, 58))
    public static let systemOrange = DynamicColor(light: Color(rgb: 255, 149, 0), dark: Color(rgb: 255, 159, 10))
    public static let systemGreen = DynamicColor(light: Color(rgb: 52, 199, 89), dark: Color(rgb: 48, 209, 88))
    public static let systemBlue = DynamicColor(light: Color(rgb: 0, 122, 255), dark: Color(rgb: 10, 132, 255))
    public static let systemIndigo = DynamicColor(light: Color(rgb: 88, 86, 214), dark: Color(rgb: 94, 92, 230))
    public static let systemPurple = DynamicColor(light: Color(rgb: 175, 82, 222), dark: Color(rgb: 191, 90, 242))
    public static let systemTeal = DynamicColor(light: Color(rgb: 90, 200, 250), dark: Color(rgb: 100, 210, 255))
    public static let systemPink = DynamicColor(light: Color(rgb: 255, 45, 85), dark: Color(rgb: 255, 55, 95))

    /// The navigation bar's background (an estimate: UIKit blurs with a material rather than filling a colour).
    public static let navigationBar = DynamicColor(light: Color(rgb: 248, 248, 248, alpha: 0.94),
                                                   dark: Color(rgb: 18, 18, 18, alpha: 0.94))
    /// The hairline under the navigation bar (an estimate, as the bar's).
    public static let navigationBarHairline = DynamicColor(light: Color(rgb: 0, 0, 0, alpha: 0.3),
                                                           dark: Color(rgb: 84, 84, 88, alpha: 0.6))
    /// The navigation bar's title (the label colour at the simulator's 0.8 opacity).
    public static let navigationTitle = DynamicColor(light: Color(rgb: 0, 0, 0, alpha: 0.8),
                                                     dark: Color(rgb: 255, 255, 255, alpha: 0.8))
}

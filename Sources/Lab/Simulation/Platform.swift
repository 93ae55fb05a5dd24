import Colors
import Scrolling
import UserFiles

/// The system the simulated phone runs (Scrolling's `Platform`, which chooses how the list scrolls): its phones
/// and its chrome here (docs/reference.md §5). A phone model belongs to one platform, so the phone shown says which
/// one is on (`Phone.platform`); the lab's own phone is iOS's.
extension Platform {
    /// The platform `--platform` or a script's `"platform"` names.
    ///
    /// - Throws: `LabError` naming the value and the choices.
    public static func named(_ name: String) throws(LabError) -> Platform {
        guard let platform = Platform(rawValue: name) else {
            throw LabError("unknown platform '\(name)'; choose one of "
                + allCases.map(\.rawValue).joined(separator: ", "))
        }
        return platform
    }

    /// The phone shown when the platform is chosen without a device: iOS keeps the lab's own phone (nil), Android
    /// shows the Pixel 8.
    public var defaultModel: PhoneModel? { self == .android ? .pixel8 : nil }

    /// The platform's phone models, in the order the device key (I) steps through them (iOS's after the lab's own).
    public var models: [PhoneModel] { self == .android ? PhoneModel.androidModels : PhoneModel.all }

    /// The other platform: what the platform key (Y) switches to.
    var toggled: Platform { self == .ios ? .android : .ios }

    /// How the trace names a motion on this platform: iOS's own names; on Android, momentum is the `fling`
    /// (OverScroller), the bounce back to an edge the `spring-back`, and an edge stretched with nothing else
    /// moving the content `stretch` (EdgeEffect's stretch receding).
    func motionName(_ motion: ScrollMotion, stretch: Double) -> String {
        guard self == .android else { return motion.rawValue }
        switch motion {
        case .momentum: return "fling"
        case .spring: return "spring-back"
        case .animation: return motion.rawValue
        case .none: return stretch != 0 ? "stretch" : motion.rawValue
        }
    }
}

/// Material 3's baseline colour scheme, the roles the Android chrome uses (docs/reference.md §5): the top app
/// bar's container is `surface`, its title `onSurface`.
enum MaterialColor {
    /// `surface`: Neutral98 (#FEF7FF) in light, Neutral6 (#141218) in dark.
    static let surface = DynamicColor(light: Color(rgb: 0xFE, 0xF7, 0xFF), dark: Color(rgb: 0x14, 0x12, 0x18))
    /// `onSurface`: Neutral10 (#1D1B20) in light, Neutral90 (#E6E0E9) in dark.
    static let onSurface = DynamicColor(light: Color(rgb: 0x1D, 0x1B, 0x20), dark: Color(rgb: 0xE6, 0xE0, 0xE9))
}

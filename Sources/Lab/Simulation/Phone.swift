import Scrolling
import Geometry
import UserFiles

/// One phone model's figures: the one table the simulator, `refreshlab devices`, the trace and the tests read
/// (docs/reference.md §6 gives each figure's source; those marked estimates there are estimates here).
public struct PhoneModel: Sendable, Equatable {
    /// What sits at the top or bottom of the screen besides the list.
    public enum Cutout: Sendable, Equatable {
        /// A home button below the screen: nothing of it is on the screen's pixels.
        case homeButton
        /// The Dynamic Island: a black pill of this size, centred, this far below the screen's top edge.
        case dynamicIsland(size: Size, top: Double)
        /// A camera's punch-hole: a black circle of this diameter, centred across the screen, its centre this far
        /// below the screen's top edge.
        case punchHole(diameter: Double, centreY: Double)
    }

    /// The name `--device` and a script's `"device"` take.
    public let id: String
    public let name: String
    /// The screen in points, portrait.
    public let screenSize: Size
    /// Pixels per point.
    public let scale: Double
    /// Frames per second the screen shows at most (120 on ProMotion screens).
    public let refreshRate: Double
    /// The screen's corner radius in points (0: square corners).
    public let cornerRadius: Double
    /// The status bar's height: the top safe area in portrait.
    public let statusBarHeight: Double
    /// The bottom safe area in portrait: the home indicator's strip, or Android's gesture navigation bar (0 with a
    /// home button).
    public let bottomSafeArea: Double
    public let cutout: Cutout
    /// The system the phone runs.
    public var platform = Platform.ios

    /// The safe area in portrait, `UIEdgeInsets` order.
    public var safeArea: EdgeInsets { EdgeInsets(top: statusBarHeight, bottom: bottomSafeArea) }
    /// Whether the screen has a home indicator (every phone without a home button).
    public var hasHomeIndicator: Bool { cutout != .homeButton }

    /// The Dynamic Island of the iPhone 16 line: 126 × 37.33 pt, 11 pt below the top (docs/reference.md §6, an
    /// estimate carried over from the iPhone 14 Pro).
    static let island = Cutout.dynamicIsland(size: Size(126, 37.33), top: 11)

    public static let iPhoneSE = PhoneModel(
        id: "iphone-se", name: "iPhone SE (3rd generation)", screenSize: Size(375, 667), scale: 2, refreshRate: 60,
        cornerRadius: 0, statusBarHeight: 20, bottomSafeArea: 0, cutout: .homeButton)
    public static let iPhone16 = PhoneModel(
        id: "iphone-16", name: "iPhone 16", screenSize: Size(393, 852), scale: 3, refreshRate: 60,
        cornerRadius: 55, statusBarHeight: 59, bottomSafeArea: 34, cutout: island)
    public static let iPhone16Pro = PhoneModel(
        id: "iphone-16-pro", name: "iPhone 16 Pro", screenSize: Size(402, 874), scale: 3, refreshRate: 120,
        cornerRadius: 62, statusBarHeight: 62, bottomSafeArea: 34, cutout: island)
    public static let iPhone16ProMax = PhoneModel(
        id: "iphone-16-pro-max", name: "iPhone 16 Pro Max", screenSize: Size(440, 956), scale: 3, refreshRate: 120,
        cornerRadius: 62, statusBarHeight: 62, bottomSafeArea: 34, cutout: island)

    /// The Pixel 8 (docs/reference.md §5): its 1080 × 2400 pixels at 2.625 pixels per dp (420 dpi), 120 Hz;
    /// Android's 24 dp status bar over a centred punch-hole, the gesture navigation bar's 24 dp at the bottom.
    /// The corner radius and the punch-hole's size and place are estimates.
    public static let pixel8 = PhoneModel(
        id: "pixel-8", name: "Pixel 8", screenSize: Size(1080 / 2.625, 2400 / 2.625), scale: 2.625,
        refreshRate: 120, cornerRadius: 40, statusBarHeight: 24, bottomSafeArea: 24,
        cutout: .punchHole(diameter: 14, centreY: 12), platform: .android)

    /// Every iPhone: iOS's models, in the order the device key (I) steps through them after the lab's own phone.
    public static let all = [iPhoneSE, iPhone16, iPhone16Pro, iPhone16ProMax]
    /// Android's models, in the order the device key steps through them on Android.
    public static let androidModels = [pixel8]
    /// Every model of every platform: what `refreshlab devices` lists.
    public static var catalog: [PhoneModel] { Platform.allCases.flatMap(\.models) }

    /// The model of `platform` that `--device` or a script's `"device"` names.
    ///
    /// - Throws: `LabError` naming the value and the platform's choices (and the platform of another's phone).
    public static func named(_ id: String, on platform: Platform = .ios) throws(LabError) -> PhoneModel {
        let choices = platform.models.map(\.id).joined(separator: ", ")
        if let model = platform.models.first(where: { $0.id == id }) { return model }
        if let other = catalog.first(where: { $0.id == id }) {
            throw LabError("device '\(id)' is an \(other.platform.rawValue) phone, not an \(platform.rawValue) one; "
                + "choose the platform \(other.platform.rawValue), or one of " + choices)
        }
        throw LabError("unknown device '\(id)'; choose one of " + choices)
    }

    /// The model `id` names on whichever platform has it, when no platform is chosen: the model then chooses it.
    ///
    /// - Throws: `LabError` naming the value and every platform's choices.
    public static func named(anyPlatform id: String) throws(LabError) -> PhoneModel {
        if let model = catalog.first(where: { $0.id == id }) { return model }
        throw LabError("unknown device '\(id)'; choose one of " + Platform.allCases.map { platform in
            platform.models.map(\.id).joined(separator: ", ") + " (\(platform.rawValue))"
        }.joined(separator: " or "))
    }
}

/// The navigation bar over the list (docs/reference.md §6).
public enum BarStyle: String, CaseIterable, Sendable {
    /// Opaque, 44 pt: the list begins below it (today's bar).
    case standard
    /// 96 pt: a 44 pt bar over a 52 pt title band that collapses as the list scrolls up and stretches as it is
    /// pulled down; the list begins below the collapsed bar and rests below the band.
    case large
    /// 44 pt, translucent: the list scrolls beneath it and shows through it, blurred.
    case translucent
    /// No bar: the list begins at the top of the screen and rests below the status bar.
    case none

    /// The bar's height without a large title's band, in points: UIKit's 44 (0 without a bar).
    static let barHeight = 44.0
    /// Material 3's top app bar (small), in dp: `md.comp.top-app-bar.small.container.height` (docs/reference.md §5).
    static let appBarHeight = 64.0
    /// A large title's band below the bar, in points: 96 − 44.
    static let largeTitleBand = 52.0

    /// The style `--bar` or a script's `"bar"` names.
    ///
    /// - Throws: `LabError` naming the value and the choices.
    public static func named(_ name: String) throws(LabError) -> BarStyle {
        guard let style = BarStyle(rawValue: name) else {
            throw LabError("unknown bar '\(name)'; choose one of " + allCases.map(\.rawValue).joined(separator: ", "))
        }
        return style
    }

    /// The next style, for the bar key (B).
    var next: BarStyle { BarStyle.allCases[(BarStyle.allCases.firstIndex(of: self)! + 1) % BarStyle.allCases.count] }
}

/// The simulated device: a phone model with a navigation bar, drawn at `scale` pixels per point.
///
/// Without a model it is the lab's own phone, as RefreshLab has always shown it: the iPhone SE's screen (an
/// iPhone 8 class 375×667 at 2×) with a plain 20 pt status strip under the bar, no status bar drawn.
public struct Phone: Sendable, Equatable {
    /// The phone model, or nil for the lab's own phone.
    public var model: PhoneModel?
    public var bar: BarStyle
    /// Pixels per point (the model's unless `--scale` says otherwise).
    public var scale: Double

    public init(scale: Double = 2) {
        self.init(model: nil, scale: scale)
    }

    public init(model: PhoneModel?, bar: BarStyle = .standard, scale: Double? = nil) {
        self.model = model
        self.bar = bar
        self.scale = scale ?? model?.scale ?? PhoneModel.iPhoneSE.scale
    }

    /// The figures of the screen: the model's, or for the lab's own phone the iPhone SE's.
    public var figures: PhoneModel { model ?? .iPhoneSE }
    /// The name the trace gives the phone: the model's `id`, or `default` for the lab's own phone.
    public var deviceName: String { model?.id ?? "default" }
    /// Whether the system's status bar (time, signal, Wi-Fi, battery) and the home indicator are drawn.
    var drawsSystemChrome: Bool { model != nil }
    /// The system the phone runs: its model's (the lab's own phone is iOS's).
    public var platform: Platform { figures.platform }

    /// The bar's height without a large title's band: UIKit's 44 pt navigation bar, or on Android Material 3's
    /// 64 dp top app bar (docs/reference.md §5).
    var barHeight: Double { platform == .android ? BarStyle.appBarHeight : BarStyle.barHeight }

    /// The screen in points.
    public var screenSize: Size { figures.screenSize }
    /// The screen's frames per second: the model's refresh rate.
    public var refreshRate: Double { figures.refreshRate }

    /// The canvas size in pixels.
    public var pixelWidth: Int { Int((screenSize.width * scale).rounded()) }
    public var pixelHeight: Int { Int((screenSize.height * scale).rounded()) }

    /// The status bar's height: the top of the safe area.
    var statusBarHeight: Double { figures.statusBarHeight }

    /// The navigation bar's bottom edge, in screen points, with its large title's band expanded (0 without a bar).
    var navigationBarHeight: Double {
        switch bar {
        case .standard, .translucent: statusBarHeight + barHeight
        case .large: statusBarHeight + barHeight + BarStyle.largeTitleBand
        case .none: 0
        }
    }

    /// The part of the screen the list scrolls in: below an opaque bar (the collapsed bar for a large title), the
    /// whole screen under a translucent bar or none.
    var listFrame: Rect {
        let top: Double
        switch bar {
        case .standard, .large: top = statusBarHeight + barHeight
        case .translucent, .none: top = 0
        }
        return Rect(x: 0, y: top, width: screenSize.width, height: screenSize.height - top)
    }

    /// The part of the list's frame the system's bars cover, as the scroll view's `safeAreaInsets`: the status bar
    /// and a translucent bar, or a large title's band, at the top; the home indicator's strip at the bottom.
    public var listSafeArea: EdgeInsets {
        let top: Double
        switch bar {
        case .standard: top = 0
        case .large: top = BarStyle.largeTitleBand
        case .translucent: top = statusBarHeight + barHeight
        case .none: top = statusBarHeight
        }
        return EdgeInsets(top: top, bottom: figures.bottomSafeArea)
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

    /// The window's size in pixels for `phones` side by side, `gap` points apart, tops aligned, each at the same
    /// size in points (so that a taller phone looks taller), at the largest scale among them; fitted to the display
    /// as one phone's is.
    public static func windowSize(sideBySide phones: [Phone], gap: Double, display: (w: Int, h: Int)) -> (w: Int, h: Int) {
        guard let first = phones.first, phones.count > 1 else { return phones.first?.windowSize(display: display) ?? (0, 0) }
        let scale = phones.map(\.scale).max() ?? first.scale
        let width = (phones.map(\.screenSize.width).reduce(0, +) + gap * Double(phones.count - 1)) * scale
        let height = (phones.map(\.screenSize.height).max() ?? 0) * scale
        let f = Swift.min(1, Phone.displayShare * Double(display.w) / width, Phone.displayShare * Double(display.h) / height)
        return (Int((width * f).rounded()), Int((height * f).rounded()))
    }
}

/// What the command line asks of the phone, each part optional (`--platform`, `--device`, `--bar`, `--scale`): a
/// script's `platform`, `device` and `bar` fill what it leaves open, then the defaults (the platform's default
/// phone, iOS's being the lab's own; the standard bar; the model's scale).
public struct PhoneChoice: Sendable, Equatable {
    public var model: PhoneModel?
    public var bar: BarStyle?
    public var scale: Double?
    /// The platform asked for; a model given with it is one of its phones (`PhoneModel.named(_:on:)`).
    public var platform: Platform?

    public init(model: PhoneModel? = nil, bar: BarStyle? = nil, scale: Double? = nil, platform: Platform? = nil) {
        self.model = model
        self.bar = bar
        self.scale = scale
        self.platform = platform
    }

    /// The phone for a run of `script` (or for the window, without one). The options win: a device named here is
    /// shown; else a platform named here shows the script's device when it is one of that platform's, else the
    /// platform's default phone; else the script's device, or its platform's default phone.
    public func phone(for script: GestureScript? = nil) -> Phone {
        let scriptModel = script?.device ?? script?.platform?.defaultModel
        let chosen: PhoneModel?
        if let model {
            chosen = model
        } else if let platform {
            chosen = scriptModel?.platform == platform ? scriptModel : platform.defaultModel
        } else {
            chosen = scriptModel
        }
        return Phone(model: chosen, bar: bar ?? script?.bar ?? .standard, scale: scale)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Colors
import Geometry
import Raster
import Text

/// What the system draws over a phone model's screen, built once per phone: the status bar (the time 9:41, signal,
/// Wi-Fi and battery), the Dynamic Island, the home indicator and the screen's rounded corners (docs/reference.md
/// §6); on an Android phone its status bar (the time at the left, Wi-Fi, signal and battery at the right), the
/// camera's punch-hole and the gesture navigation bar's handle (§5). A frame only fills the paths made here and
/// draws the time's line laid out once, so it allocates nothing.
final class PhoneChrome {
    /// The status bar's content colour: dark over a light bar, light over a dark one (`UIStatusBarStyle`).
    enum StatusBarStyle {
        case darkContent, lightContent

        var color: Color { self == .darkContent ? .black : .white }
    }

    /// The time the status bar shows, as Apple's own screenshots show it.
    static let time = "9:41"
    /// The time's size: 17 pt, as UIKit's status bar clock (**chosen here**: close to the screenshots).
    static let timeSize = 17.0
    /// The icons' size, in points (**chosen here**, measured off the screenshots: an estimate): signal bars 18 × 11,
    /// Wi-Fi 16 × 11, the battery 25 × 12 with a 1.5 pt nub.
    static let signalSize = Size(18, 11)
    static let wifiSize = Size(16, 11)
    static let batterySize = Size(25, 12)
    /// The gap between icons, in points (chosen here).
    static let iconGap = 5.0
    /// The home indicator: 134 × 5 pt, its bottom 8 pt above the screen's (docs/reference.md §6, an estimate).
    static let homeIndicatorSize = Size(134, 5)
    static let homeIndicatorBottom = 8.0
    /// The home indicator's colour: the status bar content's at 80 % (chosen here), black over a light list, white
    /// over a dark one. Android's gesture handle takes the same.
    static let homeIndicatorOpacity = 0.8

    /// Android's status bar (docs/reference.md §5; sizes chosen here by eye from Pixel screenshots, estimates):
    /// the time at 14 dp, 24 dp in from the left edge (clear of the screen's rounded corner); Wi-Fi 15 × 11,
    /// signal 12 × 12, a battery standing 7 × 13, with a 4 dp gap, 24 dp in from the right edge. The time reads
    /// 10:00, the simulated clock's start.
    static let androidTime = "10:00"
    static let androidTimeSize = 14.0
    static let androidEdgeInset = 24.0
    static let androidWifiSize = Size(15, 11)
    static let androidSignalSize = Size(12, 12)
    static let androidBatterySize = Size(7, 13)
    static let androidIconGap = 4.0
    /// The gesture navigation bar's handle: 108 × 4 dp, centred in the bar's 24 dp (docs/reference.md §5, an
    /// estimate).
    static let gestureHandleSize = Size(108, 4)

    let phone: Phone
    var style = StatusBarStyle.darkContent
    /// The icons (signal, Wi-Fi, battery's outline, fill and nub), the island, the indicator and the corners.
    private let icons: Path
    private let batteryOutline: Path
    private let island: Path?
    private let homeIndicator: Path?
    private let corners: Path?
    /// The time's line, laid out on the first frame that has a font, and where its box is.
    private var timeLine: TextLine?
    private let timeBox: Rect
    private let timeAlignment: TextAlignment
    private let time: String
    private let timeSize: Double

    init(phone: Phone) {
        self.phone = phone
        let model = phone.figures, w = phone.screenSize.width, h = phone.screenSize.height
        corners = model.cornerRadius > 0 ? PhoneChrome.corners(of: phone.screenSize, radius: model.cornerRadius) : nil
        if model.platform == .android {
            (icons, batteryOutline, island, homeIndicator, timeBox) = PhoneChrome.androidChrome(model, width: w, height: h)
            (timeAlignment, time, timeSize) = (.left, PhoneChrome.androidTime, PhoneChrome.androidTimeSize)
            return
        }
        (timeAlignment, time, timeSize) = (.center, PhoneChrome.time, PhoneChrome.timeSize)
        let barMid: Double
        var leftEar = Rect(x: 0, y: 0, width: w / 2, height: model.statusBarHeight)
        var rightEar = Rect(x: w / 2, y: 0, width: w / 2, height: model.statusBarHeight)
        if case .dynamicIsland(let size, let top) = model.cutout {
            let rect = Rect(x: (w - size.width) / 2, y: top, width: size.width, height: size.height)
            var pill = Path()
            pill.addRoundedRect(rect, cornerRadius: size.height / 2)
            island = pill
            // The time and the icons are centred in the ears beside the island, on its middle line.
            barMid = rect.midY
            leftEar = Rect(x: 0, y: 0, width: rect.minX, height: model.statusBarHeight)
            rightEar = Rect(x: rect.maxX, y: 0, width: w - rect.maxX, height: model.statusBarHeight)
            timeBox = Rect(x: leftEar.minX, y: rect.minY, width: leftEar.width, height: rect.height)
        } else {
            island = nil
            barMid = model.statusBarHeight / 2
            // A home-button phone: signal and Wi-Fi on the left, the time in the middle, the battery on the right.
            timeBox = Rect(x: 0, y: 0, width: w, height: model.statusBarHeight)
        }
        let s = PhoneChrome.signalSize, f = PhoneChrome.wifiSize, b = PhoneChrome.batterySize, gap = PhoneChrome.iconGap
        let signalX: Double, batteryX: Double
        if island != nil {
            let total = s.width + gap + f.width + gap + b.width
            signalX = rightEar.minX + (rightEar.width - total) / 2
            batteryX = signalX + s.width + gap + f.width + gap
        } else {
            signalX = 6
            batteryX = w - 6 - b.width - 2
        }
        let wifiX = signalX + s.width + gap
        var icons = Path()
        PhoneChrome.addSignal(to: &icons, in: Rect(x: signalX, y: barMid - s.height / 2, width: s.width, height: s.height))
        PhoneChrome.addWifi(to: &icons, in: Rect(x: wifiX, y: barMid - f.height / 2, width: f.width, height: f.height))
        let battery = Rect(x: batteryX, y: barMid - b.height / 2, width: b.width, height: b.height)
        var outline = Path()
        outline.addRoundedRect(battery, cornerRadius: 3.5)
        outline.addRoundedRect(battery.insetBy(dx: 1, dy: 1), cornerRadius: 2.5)
        batteryOutline = outline
        icons.addRoundedRect(battery.insetBy(dx: 2, dy: 2), cornerRadius: 1.5)
        icons.addRoundedRect(Rect(x: battery.maxX + 1, y: barMid - 2, width: 1.5, height: 4), cornerRadius: 0.75)
        self.icons = icons
        if model.hasHomeIndicator {
            let size = PhoneChrome.homeIndicatorSize
            var bar = Path()
            bar.addRoundedRect(Rect(x: (w - size.width) / 2, y: h - PhoneChrome.homeIndicatorBottom - size.height,
                                    width: size.width, height: size.height), cornerRadius: size.height / 2)
            homeIndicator = bar
        } else {
            homeIndicator = nil
        }
    }

    /// An Android phone's status bar icons (Wi-Fi, signal, the battery's fill) and the battery's outline, its
    /// punch-hole, its gesture handle, and the time's box at the left of the status bar.
    private static func androidChrome(_ model: PhoneModel, width w: Double, height h: Double)
        -> (icons: Path, batteryOutline: Path, hole: Path?, handle: Path?, timeBox: Rect) {
        let barMid = model.statusBarHeight / 2, inset = androidEdgeInset, gap = androidIconGap
        let b = androidBatterySize, s = androidSignalSize, f = androidWifiSize
        let battery = Rect(x: w - inset - b.width, y: barMid - b.height / 2, width: b.width, height: b.height)
        let signal = Rect(x: battery.minX - gap - s.width, y: barMid - s.height / 2, width: s.width, height: s.height)
        let wifi = Rect(x: signal.minX - gap - f.width, y: barMid - f.height / 2, width: f.width, height: f.height)
        var icons = Path()
        addWifi(to: &icons, in: wifi)
        // Android's signal: a right triangle filling towards the top right.
        icons.move(to: Point(signal.minX, signal.maxY))
        icons.line(to: Point(signal.maxX, signal.minY))
        icons.line(to: Point(signal.maxX, signal.maxY))
        icons.close()
        // The battery stands, its terminal on top; the fill leaves a 1.5 dp margin.
        let body = Rect(x: battery.minX, y: battery.minY + 1.5, width: b.width, height: b.height - 1.5)
        var outline = Path()
        outline.addRoundedRect(body, cornerRadius: 1.5)
        outline.addRoundedRect(body.insetBy(dx: 1, dy: 1), cornerRadius: 1)
        icons.addRoundedRect(body.insetBy(dx: 1.5, dy: 1.5), cornerRadius: 0.5)
        icons.addRoundedRect(Rect(x: battery.midX - 1.5, y: battery.minY, width: 3, height: 1.5), cornerRadius: 0.5)
        var hole: Path?
        if case .punchHole(let diameter, let centreY) = model.cutout {
            hole = Path.ellipse(in: Rect(x: (w - diameter) / 2, y: centreY - diameter / 2, width: diameter, height: diameter))
        }
        let size = gestureHandleSize
        var handle = Path()
        handle.addRoundedRect(Rect(x: (w - size.width) / 2, y: h - (model.bottomSafeArea + size.height) / 2,
                                   width: size.width, height: size.height), cornerRadius: size.height / 2)
        let timeBox = Rect(x: inset, y: 0, width: wifi.minX - inset, height: model.statusBarHeight)
        return (icons, outline, hole, handle, timeBox)
    }

    /// Four bars rising to the right, each 3 pt wide with a 2 pt gap.
    private static func addSignal(to path: inout Path, in r: Rect) {
        let barWidth = 3.0, step = (r.width - barWidth) / 3
        for i in 0..<4 {
            let height = r.height * Double(i + 1) / 4
            path.addRoundedRect(Rect(x: r.minX + Double(i) * step, y: r.maxY - height, width: barWidth, height: height),
                                cornerRadius: 1)
        }
    }

    /// Three bands and a dot, each a sector of a circle centred at the bottom middle.
    private static func addWifi(to path: inout Path, in r: Rect) {
        let centre = Point(r.midX, r.maxY)
        let outer = r.height, halfAngle = Double.pi / 4
        for band in 0..<3 {
            let r1 = outer * (1 - Double(band) / 3), r0 = r1 - outer / 3 + 1.2
            addSector(to: &path, centre: centre, inner: Swift.max(0, r0), outer: r1, halfAngle: halfAngle)
        }
    }

    /// A ring's sector pointing up, between two radii, as line segments (a handful is smooth at 3 pixels per point).
    private static func addSector(to path: inout Path, centre: Point, inner: Double, outer: Double, halfAngle: Double) {
        let steps = 8
        func at(_ radius: Double, _ k: Int) -> Point {
            let a = -Double.pi / 2 - halfAngle + 2 * halfAngle * Double(k) / Double(steps)
            return Point(centre.x + radius * cos(a), centre.y + radius * sin(a))
        }
        path.move(to: at(outer, 0))
        for k in 1...steps { path.line(to: at(outer, k)) }
        if inner > 0 {
            for k in stride(from: steps, through: 0, by: -1) { path.line(to: at(inner, k)) }
        } else {
            path.line(to: centre)
        }
        path.close()
    }

    /// What lies outside the screen's rounded corners: four shapes, each a corner's square less its quarter circle.
    static func corners(of size: Size, radius r: Double) -> Path {
        // A quarter circle as one cubic: the control points at 0.5523 of the radius.
        let k = 0.5523 * r
        var path = Path()
        let w = size.width, h = size.height
        // (corner, the two tangent points, their controls), clockwise from the top left.
        let shapes: [(Point, Point, Point, Point, Point)] = [
            (Point(0, 0), Point(0, r), Point(0, r - k), Point(r - k, 0), Point(r, 0)),
            (Point(w, 0), Point(w - r, 0), Point(w - r + k, 0), Point(w, r - k), Point(w, r)),
            (Point(w, h), Point(w, h - r), Point(w, h - r + k), Point(w - r + k, h), Point(w - r, h)),
            (Point(0, h), Point(r, h), Point(r - k, h), Point(0, h - r + k), Point(0, h - r)),
        ]
        for (corner, from, c1, c2, to) in shapes {
            path.move(to: corner)
            path.line(to: from)
            path.cubic(to: to, control1: c1, control2: c2)
            path.close()
        }
        return path
    }

    /// Draws the status bar's content, the island, the home indicator and the corners over the phone's pixels.
    func draw(into canvas: Canvas, rasterizer: Rasterizer, text: TextRenderer?) {
        let s = phone.scale
        let t = AffineTransform(scaleX: s, y: s)
        let content = style.color
        if phone.drawsSystemChrome {
            if timeLine == nil, let text { timeLine = text.layout(time, size: timeSize) }
            if let text, let line = timeLine {
                text.draw(line, at: line.origin(in: timeBox, alignment: timeAlignment), color: content, scale: s,
                          into: canvas)
            }
            rasterizer.fill(icons, transform: t, color: content, into: canvas)
            rasterizer.fill(batteryOutline, transform: t, color: content.withAlphaMultiplied(by: 0.4), rule: .evenOdd, into: canvas)
            if let homeIndicator {
                rasterizer.fill(homeIndicator, transform: t, color: content.withAlphaMultiplied(by: PhoneChrome.homeIndicatorOpacity),
                                into: canvas)
            }
        }
        if let island { rasterizer.fill(island, transform: t, color: .black, into: canvas) }
        if let corners { rasterizer.fill(corners, transform: t, color: .black, into: canvas) }
    }
}

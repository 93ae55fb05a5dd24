import Geometry
import Raster

/// The list the simulator scrolls: rows of an inbox, drawn as content placeholders (avatar and grey bars).
///
/// Every row's shapes are built once; drawing translates them, so a frame allocates nothing.
public final class DemoList {
    /// Height of one row, in points.
    public static let rowHeight = 72.0
    public static let avatarDiameter = 44.0
    public static let margin = 16.0

    public let rowCount: Int
    public let width: Double
    private let background: Path
    private let avatar: Path
    private let separator: Path
    private var titleBars: [Path] = []
    private var subtitleBars: [Path] = []
    private var avatarColors: [Color] = []

    static let rowBackground = Color.white
    static let titleColor = Color(rgb: 60, 60, 67, alpha: 0.85)
    static let subtitleColor = Color(rgb: 60, 60, 67, alpha: 0.35)
    static let separatorColor = Color(rgb: 198, 198, 200)
    /// The avatar colours, iOS system colours in turn.
    static let palette: [Color] = [
        Color(rgb: 255, 59, 48), Color(rgb: 255, 149, 0), Color(rgb: 52, 199, 89), Color(rgb: 0, 122, 255),
        Color(rgb: 88, 86, 214), Color(rgb: 175, 82, 222), Color(rgb: 90, 200, 250), Color(rgb: 255, 45, 85),
    ]

    public init(rowCount: Int = 100, width: Double = 375) {
        self.rowCount = rowCount
        self.width = width
        let m = DemoList.margin, d = DemoList.avatarDiameter, h = DemoList.rowHeight
        background = .rect(Rect(x: 0, y: 0, width: width, height: h))
        avatar = .ellipse(in: Rect(x: m, y: (h - d) / 2, width: d, height: d))
        let textX = m + d + 12
        separator = .rect(Rect(x: textX, y: h - 0.5, width: width - textX, height: 0.5))
        for i in 0..<rowCount {
            // Bar lengths vary from row to row, as real titles and previews do; the sequence is fixed.
            let titleWidth = 90 + Double((i * 37) % 110)
            let subtitleWidth = 140 + Double((i * 53) % 120)
            var title = Path(), subtitle = Path()
            title.addRoundedRect(Rect(x: textX, y: 18, width: titleWidth, height: 12), cornerRadius: 6)
            subtitle.addRoundedRect(Rect(x: textX, y: 42, width: subtitleWidth, height: 10), cornerRadius: 5)
            titleBars.append(title)
            subtitleBars.append(subtitle)
            avatarColors.append(DemoList.palette[i % DemoList.palette.count])
        }
    }

    public var contentHeight: Double { Double(rowCount) * DemoList.rowHeight }

    /// Draws the rows visible through `viewport` (a rectangle in content coordinates, in points).
    /// `transform` maps content points to canvas pixels; `clip` is the list's area on the canvas, in pixels.
    public func draw(viewport: Rect, transform: AffineTransform, clip: Rect, canvas: Canvas, rasterizer: Rasterizer) {
        let h = DemoList.rowHeight
        let first = Swift.max(0, Int((viewport.minY / h).rounded(.down)))
        let last = Swift.min(rowCount - 1, Int((viewport.maxY / h).rounded(.down)))
        guard first <= last else { return }
        for i in first...last {
            let t = AffineTransform(translationX: 0, y: Double(i) * h).concatenating(transform)
            rasterizer.fill(background, transform: t, color: DemoList.rowBackground, clip: clip, into: canvas)
            rasterizer.fill(avatar, transform: t, color: avatarColors[i], clip: clip, into: canvas)
            rasterizer.fill(titleBars[i], transform: t, color: DemoList.titleColor, clip: clip, into: canvas)
            rasterizer.fill(subtitleBars[i], transform: t, color: DemoList.subtitleColor, clip: clip, into: canvas)
            rasterizer.fill(separator, transform: t, color: DemoList.separatorColor, clip: clip, into: canvas)
        }
    }
}

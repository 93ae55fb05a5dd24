import Geometry
import Raster
import Refresh
import Text
import Colors

/// The list the simulator scrolls: an inbox of conversations, each row with an avatar (a coloured circle with
/// initials), a name, a preview of the last message, its time and, on some rows, a red badge of unread messages.
///
/// Only the rows visible through the viewport are drawn. The shapes are built once; each row's texts are laid out
/// the first time the row is seen in a language and kept, so a frame in the steady state allocates nothing.
public final class DemoList {
    /// Height of one row, in points.
    static let rowHeight = 72.0
    static let avatarDiameter = 44.0
    public static let margin = 16.0
    /// Font sizes, in points, as in a messaging app's inbox.
    static let titleSize = 16.0
    static let subtitleSize = 14.0
    static let timeSize = 12.0
    static let initialsSize = 16.0
    static let badgeSize = 12.0
    /// Height of the unread badge, in points (a pill as wide as its number needs, never narrower than a circle).
    static let badgeHeight = 20.0

    /// The rows loaded so far: a first page, then a page more for each load of the footer.
    private(set) var rowCount: Int
    /// The most rows the list can hold: after that the footer has no more data.
    public let capacity: Int
    public let width: Double
    /// The language the rows' texts are in: the screen's, shared with the header and the footer.
    var languageSetting = LanguageSetting()
    var language: RefreshLanguage { languageSetting.current }
    private let background: Path
    private let avatar: Path
    private let separator: Path
    private var avatarColors: [DynamicColor] = []
    /// Each row's texts, per language, laid out on first sight.
    private var english: [RowText?]
    private var chinese: [RowText?]

    /// The laid-out texts and badge of one row.
    struct RowText {
        var initials: TextLine
        var title: TextLine
        var subtitle: TextLine
        var time: TextLine
        var badge: (text: TextLine, pill: Path)?
    }

    /// The rows' colours: a plain table view's cells, as UIKit gives them (docs/reference.md §6).
    static let rowBackground = SystemColor.systemBackground
    static let titleColor = SystemColor.label
    /// The subtitle's and the time's.
    static let subtitleColor = SystemColor.secondaryLabel
    static let badgeColor = SystemColor.systemRed
    static let separatorColor = SystemColor.opaqueSeparator
    /// The avatar colours, iOS system colours in turn.
    static let palette: [DynamicColor] = [
        SystemColor.systemRed, SystemColor.systemOrange, SystemColor.systemGreen, SystemColor.systemBlue,
        SystemColor.systemIndigo, SystemColor.systemPurple, SystemColor.systemTeal, SystemColor.systemPink,
    ]

    /// How many rows the demo inbox shows at first, and how many each load adds, up to `capacity`. Not from
    /// docs/reference.md: a page of a mail app's inbox, so the footer is reached in a few flings.
    public static let firstPage = 60
    static let pageSize = 20

    /// A list of `rowCount` rows that can grow to `capacity` (storage for every row is made here, so a load
    /// allocates nothing while frames run).
    public init(rowCount: Int = 200, capacity: Int? = nil, width: Double = 375) {
        self.capacity = Swift.max(0, capacity ?? rowCount, rowCount)
        self.rowCount = Swift.min(Swift.max(0, rowCount), self.capacity)
        self.width = width
        let m = DemoList.margin, d = DemoList.avatarDiameter, h = DemoList.rowHeight
        background = .rect(Rect(x: 0, y: 0, width: width, height: h))
        avatar = .ellipse(in: Rect(x: m, y: (h - d) / 2, width: d, height: d))
        separator = .rect(Rect(x: DemoList.textX, y: h - 0.5, width: width - DemoList.textX, height: 0.5))
        english = Array(repeating: nil, count: self.capacity)
        chinese = Array(repeating: nil, count: self.capacity)
        for i in 0..<self.capacity {
            avatarColors.append(DemoList.palette[i % DemoList.palette.count])
        }
    }

    /// Adds up to `count` rows at the end; returns whether the list can still grow.
    @discardableResult
    func loadMore(_ count: Int = DemoList.pageSize) -> Bool {
        rowCount = Swift.min(capacity, rowCount + Swift.max(0, count))
        return rowCount < capacity
    }

    /// Back to the first `count` rows, as a refresh of the whole list reloads its first page.
    public func reload(rowCount count: Int = DemoList.firstPage) {
        rowCount = Swift.min(capacity, Swift.max(0, count))
    }

    /// Where the texts begin, right of the avatar.
    static let textX = margin + avatarDiameter + 12

    var contentHeight: Double { Double(rowCount) * DemoList.rowHeight }

    /// The rows whose area meets `viewport` (content coordinates, points).
    func visibleRows(in viewport: Rect) -> ClosedRange<Int>? {
        let h = DemoList.rowHeight
        guard rowCount > 0, viewport.minY.isFinite, viewport.maxY.isFinite else { return nil }
        let first = Swift.max(0, Int((viewport.minY / h).rounded(.down)))
        let last = Swift.min(rowCount - 1, Int((viewport.maxY / h).rounded(.up)) - 1)
        return first <= last ? first...last : nil
    }

    /// How many rows have their texts laid out in the current language (a row is laid out the first time it shows).
    var laidOutRowCount: Int {
        (language == .chinese ? chinese : english).reduce(0) { $0 + ($1 == nil ? 0 : 1) }
    }

    /// Whether each row's background is opaque in `appearance`: it then hides whatever lies under it.
    func isOpaque(in appearance: Appearance) -> Bool { DemoList.rowBackground.resolved(appearance).premultipliedPixel >> 24 == 255 }

    /// Calls `body` with the top and bottom (content coordinates, points) of each row `draw` fills through
    /// `viewport`, from the top down.
    func forEachRowSpan(in viewport: Rect, _ body: (Double, Double) -> Void) {
        guard let rows = visibleRows(in: viewport) else { return }
        let h = DemoList.rowHeight
        for i in rows { body(Double(i) * h, Double(i + 1) * h) }
    }

    /// Draws the rows visible through `viewport` (a rectangle in content coordinates, in points).
    /// `transform` maps content points to canvas pixels (a scale and a translation); `clip` is the list's area on the
    /// canvas, in pixels, and `appearance` the screen's (held by the simulation alone, so that a list made again
    /// for another phone cannot be left in another). Without `text` (no font could be loaded) the rows are drawn
    /// without their texts.
    public func draw(viewport: Rect, transform: AffineTransform, clip: Rect, canvas: Canvas, rasterizer: Rasterizer,
                     appearance: Appearance, text: TextRenderer? = nil) {
        guard let rows = visibleRows(in: viewport) else { return }
        let h = DemoList.rowHeight
        let scale = Swift.abs(transform.determinant).squareRoot()
        let a = appearance
        let rowBackground = DemoList.rowBackground.resolved(a), separatorColor = DemoList.separatorColor.resolved(a)
        let titleColor = DemoList.titleColor.resolved(a), secondaryColor = DemoList.subtitleColor.resolved(a)
        for i in rows {
            let t = AffineTransform(translationX: 0, y: Double(i) * h).concatenating(transform)
            rasterizer.fill(background, transform: t, color: rowBackground, clip: clip, into: canvas)
            rasterizer.fill(avatar, transform: t, color: avatarColors[i].resolved(a), clip: clip, into: canvas)
            rasterizer.fill(separator, transform: t, color: separatorColor, clip: clip, into: canvas)
            guard let text else { continue }
            let row = rowText(i, text)
            // The row's origin in canvas points: text is positioned in points, then scaled.
            let o = t.apply(.zero)
            let x0 = o.x / scale, y0 = o.y / scale
            let m = DemoList.margin, d = DemoList.avatarDiameter
            let avatarBox = Rect(x: x0 + m, y: y0 + (h - d) / 2, width: d, height: d)
            text.draw(row.initials, at: row.initials.origin(in: avatarBox, alignment: .center), color: .white,
                      scale: scale, clip: clip, into: canvas)
            text.draw(row.title, at: Point(x0 + DemoList.textX, y0 + 30), color: titleColor, scale: scale,
                      clip: clip, into: canvas)
            text.draw(row.time, at: Point(x0 + width - m - row.time.width, y0 + 29), color: secondaryColor,
                      scale: scale, clip: clip, into: canvas)
            text.draw(row.subtitle, at: Point(x0 + DemoList.textX, y0 + 53), color: secondaryColor,
                      scale: scale, clip: clip, into: canvas)
            if let badge = row.badge {
                rasterizer.fill(badge.pill, transform: t, color: DemoList.badgeColor.resolved(a), clip: clip, into: canvas)
                let box = badge.pill.controlPointBounds
                text.draw(badge.text, at: badge.text.origin(in: box.offsetBy(dx: x0, dy: y0), alignment: .center),
                          color: .white, scale: scale, clip: clip, into: canvas)
            }
        }
    }

    /// Row `i`'s texts in the current language, laid out now if this is the row's first showing.
    private func rowText(_ i: Int, _ text: TextRenderer) -> RowText {
        if language == .chinese {
            if let row = chinese[i] { return row }
            let row = layOut(i, content: DemoList.content(row: i, language: .chinese), text)
            chinese[i] = row
            return row
        }
        if let row = english[i] { return row }
        let row = layOut(i, content: DemoList.content(row: i, language: .english), text)
        english[i] = row
        return row
    }

    private func layOut(_ i: Int, content: RowContent, _ text: TextRenderer) -> RowText {
        let time = text.layout(content.time, size: DemoList.timeSize)
        let textWidth = width - DemoList.textX - DemoList.margin
        let title = text.layout(content.title, size: DemoList.titleSize, maxWidth: textWidth - time.width - 8)
        var badge: (TextLine, Path)?
        var subtitleWidth = textWidth
        if content.unread > 0 {
            let number = text.layout(content.unread > 99 ? "99+" : String(content.unread), size: DemoList.badgeSize)
            let bh = DemoList.badgeHeight
            let bw = Swift.max(bh, number.width + 12)
            var pill = Path()
            pill.addRoundedRect(Rect(x: width - DemoList.margin - bw, y: 40, width: bw, height: bh), cornerRadius: bh / 2)
            badge = (number, pill)
            subtitleWidth -= bw + 8
        }
        return RowText(initials: text.layout(content.initials, size: DemoList.initialsSize),
                       title: title,
                       subtitle: text.layout(content.subtitle, size: DemoList.subtitleSize, maxWidth: subtitleWidth),
                       time: time, badge: badge)
    }

    // MARK: Content

    /// What row `row` says, before layout.
    public struct RowContent: Equatable, Sendable {
        var initials: String
        public var title: String
        var subtitle: String
        public var time: String
        /// Unread messages; 0 shows no badge.
        var unread: Int

        public init(initials: String, title: String, subtitle: String, time: String, unread: Int) {
            self.initials = initials
            self.title = title
            self.subtitle = subtitle
            self.time = time
            self.unread = unread
        }
    }

    static let englishNames = [
        "Olivia Bennett", "Design Team", "Marcus Chen", "Priya Raman", "Lucas Moreau", "Grace Whitfield",
        "Weekend Hikers", "Daniel Okafor", "Sofia Lindqvist", "Mom", "Ethan Brooks", "Hannah Kowalski",
        "iOS Guild", "Noah Fischer", "Amelia Duarte", "Kenji Watanabe", "Book Club", "Isabel Navarro",
        "Tom Gallagher", "Release Train",
    ]
    static let chineseNames = [
        "王小明", "设计组", "陈志强", "李晓雯", "张伟", "刘芳", "周末徒步群", "赵磊", "孙丽娜", "妈妈",
        "黄子轩", "吴静", "iOS 技术群", "郑浩", "林雨桐", "何俊杰", "读书会", "杨帆", "徐晨", "发版小组",
    ]
    static let englishMessages = [
        "Sounds good, see you at 7!", "The new build is up on TestFlight, please give it a spin",
        "Can you send me the slides from this morning?", "Haha that's amazing", "Photo",
        "I pushed the fix for the refresh glitch", "Are we still on for Saturday?",
        "Thanks so much for your help yesterday", "Don't forget to call grandma", "Voice message (0:42)",
        "Let's move the review to Thursday", "The spinner looks much smoother now",
        "Who's bringing snacks?", "Meeting notes are in the shared folder", "Love it! Ship it",
        "Running 10 minutes late, sorry", "Did you see the new design specs?", "OK",
        "Chapter 7 for next week", "Can we release on Friday?",
    ]
    static let chineseMessages = [
        "好的，晚上七点见！", "新版本已经上传到 TestFlight，大家试一下", "能把上午的幻灯片发我一下吗？",
        "哈哈太好笑了", "[图片]", "下拉刷新的问题我已经修好了", "周六还去吗？", "昨天真是太感谢你了",
        "别忘了给奶奶打电话", "[语音] 0:42", "评审改到周四吧", "加载动画现在流畅多了", "谁带零食？",
        "会议纪要在共享文件夹里", "太棒了，发布吧！", "堵车了，晚到十分钟", "新的设计稿看了吗？", "好",
        "下周读第七章", "周五能发版吗？",
    ]
    static let englishWeekdays = ["Monday", "Sunday", "Saturday", "Friday", "Thursday", "Wednesday", "Tuesday"]
    static let chineseWeekdays = ["星期一", "星期日", "星期六", "星期五", "星期四", "星期三", "星期二"]

    /// The content of row `row`: a fixed sequence, newest first, so every run shows the same list.
    public static func content(row: Int, language: RefreshLanguage) -> RowContent {
        let chinese = language == .chinese
        let names = chinese ? chineseNames : englishNames
        let messages = chinese ? chineseMessages : englishMessages
        let name = names[row % names.count]
        let message = messages[(row * 7 + row / names.count) % messages.count]
        return RowContent(initials: initials(of: name, chinese: chinese), title: name, subtitle: message,
                          time: time(row: row, chinese: chinese), unread: unread(row: row))
    }

    /// Unread messages on row `row`: most of the first rows have some, fewer further down.
    static func unread(row: Int) -> Int {
        let r = (row * 37 + 11) % 23
        if row < 10 { return r % 3 == 0 ? 0 : r % 9 + 1 }
        return r == 0 ? 120 : (r < 4 ? r : 0)
    }

    /// The time of row `row`'s last message: today's clock times, then yesterday, weekdays, then dates.
    static func time(row: Int, chinese: Bool) -> String {
        if row < 12 {
            let minutes = 9 * 60 + 41 - row * 23
            let h = minutes / 60, m = minutes % 60
            return String(h) + ":" + (m < 10 ? "0" : "") + String(m)
        }
        if row < 20 { return chinese ? "昨天" : "Yesterday" }
        if row < 48 { return (chinese ? chineseWeekdays : englishWeekdays)[(row - 20) / 4 % 7] }
        let dayOffset = (row - 48) / 3
        let month = 3 - Swift.min(2, dayOffset / 28), day = 28 - dayOffset % 28
        return chinese ? String(month) + "月" + String(day) + "日" : String(month) + "/" + String(day) + "/25"
    }

    /// Up to two initials of a Latin name ("Olivia Bennett" → "OB"); the first character of a Chinese one.
    static func initials(of name: String, chinese: Bool) -> String {
        if chinese, let first = name.first { return String(first) }
        let words = name.split(separator: " ")
        return String(words.prefix(2).compactMap(\.first)).uppercased()
    }
}

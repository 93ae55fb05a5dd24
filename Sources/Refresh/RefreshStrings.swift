import Styles

/// The language of a control's texts.
public enum RefreshLanguage: String, Equatable, Sendable, CaseIterable {
    case english
    case chinese
}

/// The language a screen shows its texts in, held once and shared by every part that shows text (the header, the
/// footer, the list), as a screen has one locale: changing it here changes it for all of them.
public final class LanguageSetting {
    public var current: RefreshLanguage

    public init(_ current: RefreshLanguage = .english) { self.current = current }
}

extension LocalizedText {
    /// The text in `language`.
    public func text(in language: RefreshLanguage) -> String {
        switch language {
        case .english: english
        case .chinese: chinese
        }
    }
}

/// The texts a header shows, in both languages, as its style holds them: what a designer may rewrite without code.
struct HeaderTexts: Equatable, Sendable {
    /// One of the texts, as its style field names it.
    enum Line: String, CaseIterable, Sendable {
        case pullDown, release, refreshing, succeeded, failed, lastUpdated, today, noRecord

        var path: WritableKeyPath<HeaderTexts, LocalizedText> {
            switch self {
            case .pullDown: \.pullDown
            case .release: \.release
            case .refreshing: \.refreshing
            case .succeeded: \.succeeded
            case .failed: \.failed
            case .lastUpdated: \.lastUpdated
            case .today: \.today
            case .noRecord: \.noRecord
            }
        }

        var meaning: String {
            switch self {
            case .pullDown: "the text while pulling, short of the threshold"
            case .release: "the text past the threshold: letting go will refresh"
            case .refreshing: "the text while refreshing"
            case .succeeded: "the text when a refresh ends with success"
            case .failed: "the text when a refresh fails"
            case .lastUpdated: "the last-updated line's prefix, with its separator"
            case .today: "the word for an update made today"
            case .noRecord: "the last-updated line before any update"
            }
        }
    }

    var pullDown, release, refreshing, succeeded, failed, lastUpdated, today, noRecord: LocalizedText

    /// The texts of `make`'s strings in each language.
    init(_ make: (RefreshLanguage) -> RefreshStrings) {
        let en = make(.english), zh = make(.chinese)
        func both(_ path: KeyPath<RefreshStrings, String>) -> LocalizedText {
            LocalizedText(english: en[keyPath: path], chinese: zh[keyPath: path])
        }
        pullDown = both(\.pullDown)
        release = both(\.release)
        refreshing = both(\.refreshing)
        succeeded = both(\.succeeded)
        failed = both(\.failed)
        lastUpdated = both(\.lastUpdated)
        today = both(\.today)
        noRecord = both(\.noRecord)
    }

    /// `base` with the header's texts replaced by these, in `language`.
    func strings(_ language: RefreshLanguage, over base: RefreshStrings) -> RefreshStrings {
        var strings = base
        strings.pullDown = pullDown.text(in: language)
        strings.release = release.text(in: language)
        strings.refreshing = refreshing.text(in: language)
        strings.succeeded = succeeded.text(in: language)
        strings.failed = failed.text(in: language)
        strings.lastUpdated = lastUpdated.text(in: language)
        strings.today = today.text(in: language)
        strings.noRecord = noRecord.text(in: language)
        return strings
    }

    /// The style fields of `lines` of the texts at `path`, keyed by the line's name and "Text" ("pullDownText").
    static func fields<Root>(at path: WritableKeyPath<Root, HeaderTexts>,
                                    _ lines: [Line] = Line.allCases) -> [StyleField<Root>] {
        lines.map { line in .text(line.rawValue + "Text", path.appending(path: line.path), line.meaning) }
    }
}

/// Every text a header or footer shows, in one language (docs/reference.md §1, Classic). An effect with texts of its
/// own returns them from `RefreshEffect.strings(for:)`, usually MJRefresh's set with a few lines changed.
public struct RefreshStrings: Equatable, Sendable {
    /// Idle or pulling, short of the threshold.
    var pullDown: String
    /// Armed: letting go will refresh.
    public var release: String
    /// Refreshing.
    public var refreshing: String
    /// Finishing with success, failure, or after a refresh that had no result text of its own.
    var succeeded: String
    public var failed: String
    /// The prefix of the last-updated line, including its separator.
    var lastUpdated: String
    /// The word for a last update made today.
    public var today: String
    /// Shown after the prefix when there was never an update.
    var noRecord: String
    /// An automatic footer at rest.
    var footerIdleAuto: String
    /// A back footer at rest.
    var footerIdleBack: String
    /// A back footer pulled past its height.
    var footerRelease: String
    /// A footer loading.
    var footerLoading: String
    /// A footer with nothing more to load.
    public var noMoreData: String
    /// Pulled past the second floor's rate: letting go opens the floor; it stays while the floor opens, is open and
    /// closes (SmartRefreshLayout's classic header keeps its secondary text until the pull is over).
    public var releaseToFloor: String

    /// MJRefresh's texts (docs/reference.md §1, Classic), the sticky header's results, and the footers'.
    public static func standard(_ language: RefreshLanguage) -> RefreshStrings {
        switch language {
        case .english:
            RefreshStrings(pullDown: "Pull down to refresh", release: "Release to refresh", refreshing: "Loading...",
                           succeeded: "Refresh succeeded", failed: "Refresh failed",
                           lastUpdated: "Last updated: ", today: "Today", noRecord: "No record",
                           footerIdleAuto: "Tap or pull up to load more", footerIdleBack: "Pull up to load more",
                           footerRelease: "Release to load more", footerLoading: "Loading more...",
                           noMoreData: "No more data", releaseToFloor: "Release to enter the second floor")
        case .chinese:
            RefreshStrings(pullDown: "下拉可以刷新", release: "松开立即刷新", refreshing: "正在刷新数据中...",
                           succeeded: "刷新成功", failed: "刷新失败",
                           lastUpdated: "最后更新：", today: "今天", noRecord: "无记录",
                           footerIdleAuto: "点击或上拉加载更多", footerIdleBack: "上拉可以加载更多",
                           footerRelease: "松开立即加载更多", footerLoading: "正在加载更多的数据...",
                           noMoreData: "已经全部加载完毕", releaseToFloor: "释放进入二楼")
        }
    }

    public init(pullDown: String, release: String, refreshing: String, succeeded: String, failed: String,
                lastUpdated: String, today: String, noRecord: String, footerIdleAuto: String, footerIdleBack: String,
                footerRelease: String, footerLoading: String, noMoreData: String, releaseToFloor: String) {
        self.pullDown = pullDown
        self.release = release
        self.refreshing = refreshing
        self.succeeded = succeeded
        self.failed = failed
        self.lastUpdated = lastUpdated
        self.today = today
        self.noRecord = noRecord
        self.footerIdleAuto = footerIdleAuto
        self.footerIdleBack = footerIdleBack
        self.footerRelease = footerRelease
        self.footerLoading = footerLoading
        self.noMoreData = noMoreData
        self.releaseToFloor = releaseToFloor
    }

    /// The header's title in `state`.
    func headerTitle(for state: RefreshState) -> String {
        switch state {
        case .idle, .pulling: pullDown
        case .armed: release
        case .willRefresh, .refreshing: refreshing
        case .finishing(.success): succeeded
        case .finishing(.failure): failed
        case .finishing(.message(let text)): text
        case .noMoreData: noMoreData
        case .releaseToFloor, .floorOpening, .floor, .floorClosing: releaseToFloor
        }
    }

    /// The header's title in `state` for a header that shows how a refresh ended only when `showsResult`: without
    /// a result to show, finishing reads as idle again (MJRefresh's header is back in Idle when a refresh ends).
    func headerTitle(for state: RefreshState, showsResult: Bool) -> String {
        if case .finishing = state, !showsResult { return pullDown }
        return headerTitle(for: state)
    }

    /// The footer's title in `state`; `automatic` picks the automatic footer's idle text.
    func footerTitle(for state: RefreshState, automatic: Bool) -> String {
        switch state {
        case .idle, .pulling, .finishing, .releaseToFloor, .floorOpening, .floor, .floorClosing:
            automatic ? footerIdleAuto : footerIdleBack
        case .armed: footerRelease
        case .willRefresh, .refreshing: footerLoading
        case .noMoreData: noMoreData
        }
    }

    /// "Last updated: Today 10:32": today as the word and the time; another day of the same year as month-day and
    /// time; another year in full (MJRefresh's format).
    func lastUpdatedText(_ date: RefreshDate?, now: RefreshDate) -> String {
        guard let date else { return lastUpdated + noRecord }
        let time = date.twoDigits(date.hour) + ":" + date.twoDigits(date.minute)
        let day = date.twoDigits(date.month) + "-" + date.twoDigits(date.day)
        if date.year == now.year && date.month == now.month && date.day == now.day {
            return lastUpdated + today + " " + time
        }
        if date.year == now.year { return lastUpdated + day + " " + time }
        return lastUpdated + String(date.year) + "-" + day + " " + time
    }
}

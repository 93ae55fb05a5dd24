import Refresh
import Styles
import UserFiles

/// A language `refreshlab export code` writes in.
public enum CodeLanguage: String, CaseIterable, Sendable {
    case swift, kotlin, compose, xml, dart

    /// The extension of a file of it (Compose is Kotlin).
    public var fileExtension: String {
        switch self {
        case .swift: "swift"
        case .kotlin, .compose: "kt"
        case .xml: "xml"
        case .dart: "dart"
        }
    }
}

/// The settings of a platform's own header that a style sets, as code in that header's library (docs/export.md,
/// "The platforms' headers as code"; the APIs and versions in docs/reference.md §9): each value with a comment
/// naming where it comes from (the style file's line, or the default), and what the library has no setting for
/// listed, never dropped.
public enum HeaderCode {
    /// The languages `effect`'s library is written in; none for a header that is no platform's own.
    public static func languages(of effect: String) -> [CodeLanguage] {
        languages.first { $0.effect == effect }?.languages ?? []
    }

    /// The headers that are a platform's own, and the languages each is written in.
    public static let languages: [(effect: String, languages: [CodeLanguage])] = [
        ("system", [.swift, .dart]), ("classic", [.swift]), ("swipe-refresh", [.kotlin, .xml, .dart]),
        ("material3", [.compose]),
    ]

    /// The code for the header `description` shows, in `language`.
    ///
    /// - Throws: `LabError` for a header that is no platform's own, or a language its library is not written in.
    public static func text(for description: PhoneDescription, in language: CodeLanguage) throws -> String {
        let effect = description.effect
        guard let languages = HeaderCode.languages.first(where: { $0.effect == effect })?.languages else {
            throw LabError("--effect \(effect): code is written for the platforms' own headers: "
                + HeaderCode.languages.map(\.effect).joined(separator: ", "))
        }
        guard languages.contains(language) else {
            throw LabError("--as \(language.rawValue): the \(effect) header's library is written in "
                + languages.map(\.rawValue).joined(separator: " or "))
        }
        let values = try Values(description)
        switch (effect, language) {
        case ("system", .swift): return values.uiRefreshControl()
        case ("system", .dart): return values.cupertinoRefreshControl()
        case ("classic", _): return values.mjRefreshNormalHeader()
        case ("swipe-refresh", .kotlin): return values.swipeRefreshLayout()
        case ("swipe-refresh", .xml): return values.swipeRefreshResources()
        case ("swipe-refresh", _): return values.refreshIndicator()
        default: return values.pullToRefreshBox()
        }
    }

    /// The style's values of one header, with where each comes from.
    struct Values {
        let effect: String
        let fields: [(key: String, unit: String, value: JSONValue)]
        let sources: [String: StyleSource]
        let language: RefreshLanguage
        /// The phone's density (points or dp to pixels).
        let scale: Double
        let deviceName: String

        init(_ description: PhoneDescription) throws {
            effect = description.effect
            language = description.language
            scale = description.device.scale
            deviceName = description.device.model?.name ?? "the lab's phone"
            guard let styled = RefreshEffects.make(effect) as? any StyledEffect else {
                throw LabError("--effect \(effect): that header has no style")
            }
            let book = description.styles ?? StyleBook(catalog: StyleCatalog([]))
            let name = effect, appearance = description.appearance
            func read<E: StyledEffect>(_ effect: E) -> [(key: String, unit: String, value: JSONValue)] {
                let style = book.style(E.Style.self, for: name, appearance: appearance)
                return E.Style.fields.map { ($0.key, $0.unit, $0.read(style)) }
            }
            fields = read(styled)
            var sources: [String: StyleSource] = [:]
            for entry in book.entries(for: effect) where !entry.source.file.isEmpty { sources[entry.key] = entry.source }
            self.sources = sources
        }

        func value(_ key: String) -> JSONValue { fields.first { $0.key == key }?.value ?? .null }

        func number(_ key: String) -> Double {
            if case .number(let n) = value(key) { return n }
            return 0
        }

        /// A text in the phone's language.
        func text(_ key: String) -> String {
            guard case .object(let languages) = value(key) else { return "" }
            let wanted = language == .chinese ? "zh" : "en"
            if case .string(let s)? = languages.first(where: { $0.key == wanted })?.value { return s }
            return ""
        }

        /// `key`'s colour as red, green, blue and alpha, 0–255.
        func rgba(_ key: String) -> [Int] {
            guard case .string(let hex) = value(key) else { return [0, 0, 0, 255] }
            return HeaderCode.rgba(hex)
        }

        /// Where `key`'s value comes from: "`key` (FILE:LINE)" or "`key` (default)", with its value and unit.
        func note(_ key: String) -> String {
            var unit = fields.first { $0.key == key }?.unit ?? ""
            // Android's headers count in dp where the style says points (docs/reference.md §5).
            if unit == "pt" && (effect == "swipe-refresh" || effect == "material3") { unit = "dp" }
            func number(_ n: Double) -> String { JSONText.number((n * 10000).rounded() / 10000) }
            let shown: String
            switch value(key) {
            case .number(let n): shown = number(n) + (unit.isEmpty ? "" : " " + unit)
            case .string(let s): shown = s
            case .array(let items):
                shown = items.map { item -> String in
                    switch item {
                    case .string(let s): return s
                    case .number(let n): return number(n)
                    default: return "…"
                    }
                }.joined(separator: " ") + (unit.isEmpty ? "" : " " + unit)
            case .object: shown = "“" + text(key) + "”"
            default: shown = ""
            }
            let source = sources[key].map { FileName.split($0.file).name + ":" + String($0.line) } ?? "default"
            return "\(effect).\(key) = \(shown) (\(source))"
        }

        /// The keys of the style the library has no setting for, as a comment block.
        func unset(_ keys: [String], library: String, comment: String) -> String {
            guard !keys.isEmpty else { return "" }
            return comment + " \(library) has no setting for:\n" + keys.map { comment + "   " + note($0) }.joined(separator: "\n")
        }

        /// What every file starts with: what it is, from which header and phone.
        func heading(_ comment: String, library: String) -> String {
            "\(comment) RefreshLab's \(effect) header as \(library) takes it (\(deviceName), \(language == .chinese ? "Chinese" : "English"))."
        }

        // MARK: iOS

        func uiColor(_ key: String) -> String {
            let c = rgba(key).map { JSONText.number((Double($0) / 255 * 1000).rounded() / 1000) }
            return "UIColor(red: \(c[0]), green: \(c[1]), blue: \(c[2]), alpha: \(c[3]))"
        }

        func uiRefreshControl() -> String {
            var lines = [heading("//", library: "UIKit's UIRefreshControl"),
                         "let refreshControl = UIRefreshControl()",
                         "refreshControl.tintColor = \(uiColor("tintColor"))  // \(note("tintColor"))"]
            let title = text("title")
            if title.isEmpty {
                lines += ["// No attributedTitle: \(note("title")); a title would take", "//   \(note("titleFontSize"))",
                          "//   \(note("titleColor"))"]
            } else {
                lines += ["refreshControl.attributedTitle = NSAttributedString(",
                          "    string: \(JSONText.string(title)),  // \(note("title"))",
                          "    attributes: [.font: UIFont.systemFont(ofSize: \(JSONText.number(number("titleFontSize")))),  // \(note("titleFontSize"))",
                          "                 .foregroundColor: \(uiColor("titleColor"))])  // \(note("titleColor"))"]
            }
            lines.append("tableView.refreshControl = refreshControl")
            lines.append(unset(["headerHeight", "triggerDistance", "insertDuration", "removeDuration", "spinnerSide",
                                "spinnerTopMargin", "fadeInShare", "titleGap"], library: "UIRefreshControl", comment: "//"))
            return lines.joined(separator: "\n") + "\n"
        }

        func mjRefreshNormalHeader() -> String {
            let font = "UIFont.boldSystemFont(ofSize: \(JSONText.number(number("fontSize"))))"
            let lines = [heading("//", library: "MJRefresh 3.7's MJRefreshNormalHeader"),
                         "let header = MJRefreshNormalHeader { /* load, then header.endRefreshing() */ }",
                         "header.setTitle(\(JSONString(text("pullDownText"))), for: .idle)  // \(note("pullDownText"))",
                         "header.setTitle(\(JSONString(text("releaseText"))), for: .pulling)  // \(note("releaseText"))",
                         "header.setTitle(\(JSONString(text("refreshingText"))), for: .refreshing)  // \(note("refreshingText"))",
                         "header.stateLabel?.font = \(font)  // \(note("fontSize"))",
                         "header.stateLabel?.textColor = \(uiColor("textColor"))  // \(note("textColor"))",
                         "header.lastUpdatedTimeLabel?.font = \(font)",
                         "header.lastUpdatedTimeLabel?.textColor = \(uiColor("textColor"))",
                         "header.labelLeftInset = \(JSONText.number(number("labelLeftInset")))  // \(note("labelLeftInset"))",
                         "header.mj_h = \(JSONText.number(number("headerHeight")))  // \(note("headerHeight"))",
                         "tableView.mj_header = header",
                         "// The last-updated line's words go through header.lastUpdatedTimeText = { date in … }:",
                         "//   \(note("lastUpdatedText"))", "//   \(note("todayText"))", "//   \(note("noRecordText"))",
                         "// The arrow is an image (header.arrowView): draw it with these, or tint a template image:",
                         "//   \(note("arrowSize"))", "//   \(note("arrowColor"))", "//   \(note("arrowLineWidth"))",
                         "// MJRefreshFastAnimationDuration and MJRefreshSlowAnimationDuration are MJRefresh's constants:",
                         unset(["insertDuration", "removeDuration", "flipDuration"], library: "MJRefreshNormalHeader",
                               comment: "//")]
            return lines.joined(separator: "\n") + "\n"
        }

        // MARK: Android

        /// `0xAARRGGBB`, as Android's colour ints are written.
        func argb(_ key: String) -> String { HeaderCode.argb(rgba(key)) }

        func colorList(_ key: String) -> [[Int]] {
            guard case .array(let items) = value(key) else { return [] }
            return items.compactMap { if case .string(let hex) = $0 { return HeaderCode.rgba(hex) } else { return nil } }
        }

        func dp(_ key: String) -> String { JSONText.number(number(key)) }
        func px(_ key: String) -> String { String(Int((number(key) * scale).rounded())) }

        func swipeRefreshLayout() -> String {
            let colors = colorList("colors").map { HeaderCode.argb($0) + ".toInt()" }.joined(separator: ", ")
            let diameter = number("circleDiameter")
            let size = diameter == 56 ? "CircularProgressDrawable.LARGE" : "CircularProgressDrawable.DEFAULT"
            var lines = [heading("//", library: "androidx.swiperefreshlayout 1.1.0's SwipeRefreshLayout"),
                         "val density = resources.displayMetrics.density  // \(JSONText.number(scale)) here: 1 dp = \(JSONText.number(scale)) px",
                         "swipeRefreshLayout.setColorSchemeColors(\(colors))  // \(note("colors"))",
                         "swipeRefreshLayout.setProgressBackgroundColorSchemeColor(\(argb("discColor")).toInt())  // \(note("discColor"))",
                         "swipeRefreshLayout.setDistanceToTriggerSync((\(dp("triggerDistance")) * density).roundToInt())  // \(note("triggerDistance")), \(px("triggerDistance")) px",
                         "swipeRefreshLayout.setProgressViewEndTarget(false, (\(dp("spinnerOffsetEnd")) * density).roundToInt())  // \(note("spinnerOffsetEnd")), \(px("spinnerOffsetEnd")) px; the slingshot follows it",
                         "swipeRefreshLayout.setSize(\(size))  // \(note("circleDiameter"))"]
            if diameter != 40 && diameter != 56 { lines.append("// setSize takes 40 dp (DEFAULT) or 56 dp (LARGE) only: \(JSONText.number(diameter)) dp is not one") }
            lines.append(unset(["centerRadius", "strokeWidth", "arrowWidth", "arrowHeight", "dragRate", "moveDuration",
                                "moveTiming", "scaleDownDuration", "scaleUpDuration", "startingAlpha", "maxAlpha",
                                "alphaDuration", "cycleDuration", "shadowOpacity", "shadowRadius", "shadowOffset"],
                               library: "SwipeRefreshLayout", comment: "//"))
            return lines.joined(separator: "\n") + "\n"
        }

        func swipeRefreshResources() -> String {
            var lines = ["<?xml version=\"1.0\" encoding=\"utf-8\"?>",
                         "<!-- " + heading("", library: "androidx.swiperefreshlayout 1.1.0's SwipeRefreshLayout").trimmingLeadingSpace
                            + " SwipeRefreshLayout has no XML attributes for these: keep them as resources (res/values/refresh.xml)"
                            + " and set them in code (export code \(effect) as kotlin). -->",
                         "<resources>"]
            for (i, color) in colorList("colors").enumerated() {
                lines.append("    <color name=\"refresh_scheme_\(i + 1)\">\(HeaderCode.hash(color))</color>")
            }
            lines += ["    <!-- \(note("colors")) -->",
                      "    <color name=\"refresh_background\">\(HeaderCode.hash(rgba("discColor")))</color>  <!-- \(note("discColor")) -->",
                      "    <dimen name=\"refresh_trigger_distance\">\(dp("triggerDistance"))dp</dimen>  <!-- \(note("triggerDistance")) -->",
                      "    <dimen name=\"refresh_end_target\">\(dp("spinnerOffsetEnd"))dp</dimen>  <!-- \(note("spinnerOffsetEnd")) -->",
                      "</resources>"]
            return lines.joined(separator: "\n") + "\n"
        }

        func refreshIndicator() -> String {
            let first = colorList("colors").first ?? [0, 0, 0, 255]
            let lines = [heading("//", library: "Flutter's RefreshIndicator (material)"),
                         "RefreshIndicator(",
                         "  onRefresh: () async { /* load */ },",
                         "  color: Color(\(HeaderCode.argb(first))),  // the first of \(note("colors")): it takes one colour",
                         "  backgroundColor: Color(\(argb("discColor"))),  // \(note("discColor"))",
                         "  strokeWidth: \(dp("strokeWidth")),  // \(note("strokeWidth"))",
                         "  displacement: \(JSONText.number(number("spinnerOffsetEnd") - number("circleDiameter"))),  // where the circle's top settles: \(note("spinnerOffsetEnd")) less \(note("circleDiameter"))",
                         "  child: list,",
                         ")",
                         unset(["triggerDistance", "centerRadius", "arrowWidth", "arrowHeight", "dragRate", "moveDuration",
                                "moveTiming", "scaleDownDuration", "scaleUpDuration", "startingAlpha", "maxAlpha",
                                "alphaDuration", "cycleDuration", "shadowOpacity", "shadowRadius", "shadowOffset"],
                               library: "RefreshIndicator", comment: "//")]
            return lines.joined(separator: "\n") + "\n"
        }

        func cupertinoRefreshControl() -> String {
            let lines = [heading("//", library: "Flutter's CupertinoSliverRefreshControl"),
                         "CupertinoSliverRefreshControl(",
                         "  refreshTriggerPullDistance: \(dp("triggerDistance")),  // \(note("triggerDistance"))",
                         "  refreshIndicatorExtent: \(dp("headerHeight")),  // \(note("headerHeight"))",
                         "  onRefresh: () async { /* load */ },",
                         "),",
                         "// The spinner's colour goes through builder: (…) => CupertinoActivityIndicator(color: Color(\(argb("tintColor")))),",
                         "//   \(note("tintColor"))",
                         unset(["insertDuration", "removeDuration", "spinnerSide", "spinnerTopMargin", "fadeInShare", "title",
                                "titleFontSize", "titleColor", "titleGap"], library: "CupertinoSliverRefreshControl",
                               comment: "//")]
            return lines.joined(separator: "\n") + "\n"
        }

        func pullToRefreshBox() -> String {
            let lines = [heading("//", library: "Compose Material 3 (1.3)'s PullToRefreshBox"),
                         "val state = rememberPullToRefreshState()",
                         "PullToRefreshBox(",
                         "    isRefreshing = isRefreshing,",
                         "    onRefresh = { /* load */ },",
                         "    state = state,",
                         "    indicator = {",
                         "        PullToRefreshDefaults.Indicator(",
                         "            state = state,",
                         "            isRefreshing = isRefreshing,",
                         "            modifier = Modifier.align(Alignment.TopCenter),",
                         "            containerColor = Color(\(argb("containerColor"))),  // \(note("containerColor"))",
                         "            color = Color(\(argb("indicatorColor"))),  // \(note("indicatorColor"))",
                         "            threshold = \(dp("threshold")).dp,  // \(note("threshold"))",
                         "        )",
                         "    },",
                         ") { /* the list */ }",
                         unset(["containerSize", "strokeWidth", "arcRadius", "arrowWidth", "arrowHeight", "arrowTurnBack",
                                "minAlpha", "maxAlpha", "dragMultiplier", "positionStiffness", "spinCycle", "shadowOpacity",
                                "shadowRadius", "shadowOffset"], library: "PullToRefreshDefaults.Indicator", comment: "//")]
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// "#RRGGBB" or "#RRGGBBAA" as red, green, blue, alpha in 0–255.
    static func rgba(_ hex: String) -> [Int] {
        let digits = Array(hex.dropFirst())
        func byte(_ i: Int) -> Int { i + 1 < digits.count ? Int(String(digits[i...i + 1]), radix: 16) ?? 0 : 255 }
        return [byte(0), byte(2), byte(4), digits.count >= 8 ? byte(6) : 255]
    }

    static func argb(_ c: [Int]) -> String {
        "0x" + [c[3], c[0], c[1], c[2]].map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined()
    }

    static func hash(_ c: [Int]) -> String {
        "#" + [c[3], c[0], c[1], c[2]].map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined()
    }
}

/// A Swift string literal (the same escapes as JSON's).
private func JSONString(_ s: String) -> String { JSONText.string(s) }

private extension String {
    func leftPadded(to count: Int) -> String { String(repeating: "0", count: Swift.max(0, count - self.count)) + self }
    var trimmingLeadingSpace: String { String(drop { $0 == " " }) }
}

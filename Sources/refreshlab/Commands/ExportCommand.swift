import ArgumentParser
import Lab
import UserFiles

/// `refreshlab export`: a tuned header taken into an app.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Take a tuned header into an app: as a Lottie file every player draws alike, or the platform "
            + "header's settings as code.",
        subcommands: [ExportLottieCommand.self, ExportCodeCommand.self])
}

/// `refreshlab export lottie`: the header, drawn with its style, as a Bodymovin file with the markers `pull`,
/// `armed`, `refresh` and `end` (docs/export.md).
struct ExportLottieCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lottie",
        abstract: "Write the header as a Lottie (Bodymovin JSON) file with the markers pull, armed, refresh and end.",
        discussion: """
            A header that pushes the list (sticky, dots, news, classic, system) is drawn in its own box, the \
            phone's width by the header's height, in points: place it top-aligned above the list's content, as \
            MJRefresh and SmartRefreshLayout place their headers. One that floats (ring, swipe-refresh, \
            material3) is drawn in a box from the list's top down: place it over the list, its top at the list's \
            top. The marker pull runs from no pull (its first frame) to the trigger distance (its last), armed \
            (where the header animates arming) plays once when the pull arms it, refresh is one period of the \
            refreshing animation (loop it), end the end of a refresh with success. Text is written as outlines, \
            shadows as radial gradients, clips as masks, in the colours of the chosen appearance, at 60 frames \
            per second. gif and lottie play a file already and are refused.
            """)

    @OptionGroup var phone: PhoneOptions
    @OptionGroup var style: StyleOptions
    @OptionGroup var appearance: AppearanceOptions

    @Option(help: ArgumentHelp("Where to write the Lottie file.", valueName: "file.json"))
    var out: String

    func run() throws {
        var named = CommandFiles()
        style.declare(in: &named)
        phone.declare(in: &named)
        named.writes(out, as: "--out")
        try named.checkApart()
        let effect = try phone.checkedEffect() ?? Simulation.defaultEffectName
        let description = PhoneDescription(
            device: try phone.phone().phone(), effect: effect, appearance: try appearance.chosen() ?? .light,
            language: try appearance.chosenLanguage() ?? .english, styles: try style.load())
        let written = try HeaderExport.write(description, to: out)
        let unlooped = " (no period of the refreshing animation within \(Int(HeaderSamples.longestPeriod)) s: "
            + "refresh is \(Int(HeaderSamples.unloopedRefresh)) s)"
        print("saved \(out): \(written.frames) frames, \(written.bytes / 1024) KB" + (written.refreshLoops ? "" : unlooped))
    }
}

/// `refreshlab export code`: the settings the style sets on a platform's own header, in that header's library.
struct ExportCodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "code",
        abstract: "Print the settings the style sets on a platform's own header, as code in that header's library.",
        discussion: """
            system: UIRefreshControl (--as swift) or Flutter's CupertinoSliverRefreshControl (dart); classic: \
            MJRefresh's MJRefreshNormalHeader (swift); swipe-refresh: SwipeRefreshLayout (kotlin, or its values as \
            resources: xml) or Flutter's RefreshIndicator (dart); material3: Compose's PullToRefreshBox (compose). \
            Each value has a comment naming its style file and line (or the default); what the library has no \
            setting for is listed in comments.
            """)

    @OptionGroup var phone: PhoneOptions
    @OptionGroup var style: StyleOptions
    @OptionGroup var appearance: AppearanceOptions

    @Option(name: .customLong("as"), help: ArgumentHelp("swift, kotlin, compose, xml or dart.", valueName: "language"))
    var language: String

    func run() throws {
        guard let target = CodeLanguage(rawValue: language) else {
            throw LabError("--as \(language): not a language; use one of "
                + CodeLanguage.allCases.map(\.rawValue).joined(separator: ", "))
        }
        var named = CommandFiles()
        style.declare(in: &named)
        phone.declare(in: &named)
        try named.checkApart()
        let description = PhoneDescription(
            device: try phone.phone().phone(), effect: try phone.checkedEffect() ?? Simulation.defaultEffectName,
            appearance: try appearance.chosen() ?? .light, language: try appearance.chosenLanguage() ?? .english,
            styles: try style.load())
        print(try HeaderCode.text(for: description, in: target), terminator: "")
    }
}

import ArgumentParser
import Lab
import UserFiles

/// `refreshlab export`: a tuned header taken into an app.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Take a tuned header into an app: as a Lottie file every player draws alike.",
        subcommands: [ExportLottieCommand.self])
}

/// `refreshlab export lottie`: the header, drawn with its style, as a Bodymovin file with the markers `pull`,
/// `refresh` and `end` (docs/export.md).
struct ExportLottieCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lottie",
        abstract: "Write the header as a Lottie (Bodymovin JSON) file with the markers pull, refresh and end.",
        discussion: """
            The composition is the phone's width by the header's height, in points: place it top-aligned above \
            the list's content, as MJRefresh and SmartRefreshLayout place their headers. The marker pull runs \
            from no pull (its first frame) to the trigger distance (its last), refresh is one period of the \
            refreshing animation (loop it), end the end of a refresh with success. Every path is a filled shape, \
            text included, in the colours of the chosen appearance, at 60 frames per second. The headers that \
            push the list are exported (sticky, dots, news, classic, system, where they draw no shadow, clip or \
            image); the others are refused with the reason.
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
        print("saved \(out): \(written.frames) frames, \(written.bytes / 1024) KB"
            + (written.refreshLoops ? "" : " (no period of the refreshing animation within 6 s: refresh is 2 s)"))
    }
}

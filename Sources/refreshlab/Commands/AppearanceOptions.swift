import ArgumentParser
import Colors
import Refresh

/// `--appearance light|dark` and `--language english|chinese`: how the phone's screen reads at start, for the
/// window, `--headless`, `run` and `run --compare`'s second phone alike.
struct AppearanceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The phone's appearance: light (default) or dark; K switches it in the window. "
                               + "Over a gesture script's own \"appearance\".", valueName: "light|dark"))
    var appearance: String?

    @Option(help: ArgumentHelp("The language of the list, the header and the footer: english (default) or chinese; "
                               + "L switches it in the window.", valueName: "english|chinese"))
    var language: String?

    /// The appearance asked for, nil when none was.
    func chosen() throws -> Appearance? {
        guard let appearance else { return nil }
        guard let known = Appearance(rawValue: appearance) else {
            throw ValidationError("--appearance is light or dark, not '\(appearance)'")
        }
        return known
    }

    /// The language asked for, nil when none was.
    func chosenLanguage() throws -> RefreshLanguage? {
        guard let language else { return nil }
        guard let known = RefreshLanguage(rawValue: language) else {
            throw ValidationError("--language is english or chinese, not '\(language)'")
        }
        return known
    }

    func validate() throws {
        _ = try chosen()
        _ = try chosenLanguage()
    }
}

import ArgumentParser
import Colors

/// `--appearance light|dark`: the phone's appearance at start, for the window, `--headless` and `run` alike.
struct AppearanceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The phone's appearance: light (default) or dark; K switches it in the window. "
                               + "Over a gesture script's own \"appearance\".", valueName: "light|dark"))
    var appearance: String?

    /// The appearance asked for, nil when none was.
    func chosen() throws -> Appearance? {
        guard let appearance else { return nil }
        guard let known = Appearance(rawValue: appearance) else {
            throw ValidationError("--appearance is light or dark, not '\(appearance)'")
        }
        return known
    }

    func validate() throws { _ = try chosen() }
}

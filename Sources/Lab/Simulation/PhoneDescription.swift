import Colors
import Refresh
import Styles

/// Everything that says what one phone shows, as the keys, the command line and scripts choose it: a phone is
/// built from it (`SimulatedPhone`), and a change of any part rebuilds what depends on that part from the whole,
/// so that no part is copied into what is built and lost when that is made again.
public struct PhoneDescription {
    /// The device: its model (and with it the platform), bar and scale.
    public var device: Phone
    /// The header's effect, by the name `RefreshEffects` registers it under.
    public var effect: String
    public var appearance: Appearance
    /// The language of the list, the header, the footer and the bar's title.
    public var language: RefreshLanguage
    /// The user's style files, merged; nil without any (docs/reference.md's values).
    public var styles: StyleBook?
    /// The animation file each header that plays one shows, by effect name; a header not named plays its default.
    public var animationFiles: [String: String]
    /// The second floor behind the list (`--floor`), or nil for none.
    public var floor: FloorSource?

    public init(device: Phone = Phone(), effect: String = Simulation.defaultEffectName,
                appearance: Appearance = .light, language: RefreshLanguage = .english, styles: StyleBook? = nil,
                animationFiles: [String: String] = [:], floor: FloorSource? = nil) {
        self.device = device
        self.effect = effect
        self.appearance = appearance
        self.language = language
        self.styles = styles
        self.animationFiles = animationFiles
        self.floor = floor
    }
}

import Geometry
import Layers
import Raster
import Text
import Colors

/// MJRefreshStateHeader's two lines: the state's text and the last-updated time below it, in bold 14 pt grey,
/// centred. The classic and the image-sequence headers both show them and place their picture by the wider line
/// (`textWidth`, `pictureRightEdge`); their styles set the size, the colour and the picture's inset.
///
/// The texts are the control's (its language, `RefreshControl.strings`, `lastUpdatedText`), made again only when
/// the state, the language or the last-updated time changed. As MJRefresh's, hiding the last-updated line gives
/// the state line the whole height, and a hidden line counts for nothing in `textWidth`.
final class StateLabels {
    /// Font size of both lines, 14 pt; not in docs/reference.md: MJRefresh's MJRefreshLabelFont.
    static let fontSize = 14.0
    /// Weight of the state line: bold (MJRefresh's MJRefreshLabelFont, `[UIFont boldSystemFontOfSize:14]`).
    static let stateFontWeight = FontWeight.bold
    /// Weight of the last-updated line: bold too; not in docs/reference.md: MJRefreshStateHeader makes both labels with
    /// `[UILabel mj_label]`, whose font is MJRefreshLabelFont.
    static let lastUpdatedFontWeight = FontWeight.bold
    /// Colour of both lines; not in docs/reference.md: MJRefresh's MJRefreshLabelTextColor, RGB (90, 90, 90).
    static let textColor = Color(rgb: 90, 90, 90)
    /// Their colour in dark: MJRefresh has no dark variant, so the system's secondary label colour
    /// (docs/reference.md §1, "Dark variants").
    public static let darkTextColor = SystemColor.secondaryLabel.dark
    /// How far left of the text a picture is placed, 25 pt; not in docs/reference.md: MJRefresh's
    /// MJRefreshLabelLeftInset.
    static let labelLeftInset = 25.0

    let stateLabel = TextLayer()
    let lastUpdatedLabel = TextLayer()

    /// Font size of both lines, in points.
    var fontSize = StateLabels.fontSize {
        didSet {
            for label in [stateLabel, lastUpdatedLabel] { label.fontSize = fontSize }
            textsAreCurrent = false
        }
    }
    /// Colour of both lines.
    var textColor = StateLabels.textColor {
        didSet { for label in [stateLabel, lastUpdatedLabel] { label.foregroundColor = textColor } }
    }
    /// How far left of the wider line the picture ends (or is centred, for the classic arrow), in points.
    var labelLeftInset = StateLabels.labelLeftInset { didSet { layoutIsCurrent = false } }

    private weak var control: RefreshControl?
    private var state = RefreshState.idle
    private var textsAreCurrent = false
    private var layoutIsCurrent = false
    private var shownLanguage = RefreshLanguage.english
    private var shownDate: RefreshDate?
    private var laidOutSize = Size(-1, -1)
    /// The width of the wider visible line, in points, as last measured.
    private(set) var textWidth = 0.0

    /// Both lines, added to `layer`.
    init(in layer: Layer) {
        stateLabel.fontWeight = StateLabels.stateFontWeight
        lastUpdatedLabel.fontWeight = StateLabels.lastUpdatedFontWeight
        for label in [stateLabel, lastUpdatedLabel] {
            label.fontSize = StateLabels.fontSize
            label.foregroundColor = StateLabels.textColor
            label.alignmentMode = .center
            label.verticalAlignment = .center
            layer.addSublayer(label)
        }
    }

    /// Whether the lines show (MJRefreshStateHeader's `stateLabel.hidden` and `lastUpdatedTimeLabel.hidden`).
    var showsState = true { didSet { textsAreCurrent = false } }
    var showsLastUpdated = true { didSet { textsAreCurrent = false } }

    func didMove(to control: RefreshControl?) {
        self.control = control
        textsAreCurrent = false
    }

    func transition(to state: RefreshState) {
        self.state = state
        textsAreCurrent = false
    }

    /// Makes the texts again when they are stale and lays both lines out in a header of `size`; true when the
    /// layout changed, so that the caller places its picture again. `fallback` gives the effect's texts when it
    /// has no control.
    @discardableResult
    func update(size: Size, showsResult: Bool, fallback: (RefreshLanguage) -> RefreshStrings) -> Bool {
        let language = control?.language ?? .english
        let date = control?.lastUpdated
        if !textsAreCurrent || language != shownLanguage || date != shownDate {
            let strings = control?.strings ?? fallback(language)
            let title = strings.headerTitle(for: state, showsResult: showsResult)
            let updated = control?.lastUpdatedText ?? strings.lastUpdatedText(nil, now: RefreshDate.current())
            if stateLabel.string != title { stateLabel.string = title }
            if lastUpdatedLabel.string != updated { lastUpdatedLabel.string = updated }
            stateLabel.isHidden = !showsState
            lastUpdatedLabel.isHidden = !showsLastUpdated
            textWidth = Swift.max(
                showsState ? TextMeasure.width(of: title, size: fontSize, weight: StateLabels.stateFontWeight) : 0,
                showsLastUpdated ? TextMeasure.width(of: updated, size: fontSize,
                                                     weight: StateLabels.lastUpdatedFontWeight) : 0)
            shownLanguage = language
            shownDate = date
            textsAreCurrent = true
            layoutIsCurrent = false
        }
        guard !layoutIsCurrent || size != laidOutSize else { return false }
        // MJRefresh's normal header: the state line in the top half, the last-updated line in the bottom half.
        let half = size.height / 2
        stateLabel.frame = Rect(x: 0, y: 0, width: size.width, height: showsLastUpdated ? half : size.height)
        lastUpdatedLabel.frame = Rect(x: 0, y: showsState ? half : 0, width: size.width,
                                      height: showsState ? half : size.height)
        laidOutSize = size
        layoutIsCurrent = true
        return true
    }

    /// Whether any line shows.
    var isVisible: Bool { showsState || showsLastUpdated }

    /// The x `labelLeftInset` left of the wider line's left edge: MJRefresh's normal header centres its arrow there,
    /// its gif header ends its image there.
    func pictureRightEdge(headerWidth: Double) -> Double {
        headerWidth / 2 - textWidth / 2 - labelLeftInset
    }
}

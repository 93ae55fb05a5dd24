import Colors
import Geometry
import Layers
import Raster
import Styles

/// One state's pictures and how long each shows: what MJRefreshGifHeader's `setImages:duration:forState:` gives.
public struct ImageSequence: Equatable, Sendable {
    /// MJRefresh's `setImages:forState:` shows each image 0.1 s (docs/reference.md §1, MJRefreshGifHeader).
    static let defaultFrameDuration = 0.1
    /// How far before its computed end an image already gives way to the next: rounding of sums of delays.
    static let boundarySlack = 1e-9

    public let images: [Bitmap]
    /// How long each image shows while the sequence loops, in seconds; as many as `images`, each positive.
    public let delays: [Double]
    /// One loop, in seconds.
    public let duration: Double

    /// `images` spread evenly over `duration` (MJRefresh's `setImages:duration:forState:`); `count × 0.1 s` when
    /// nil. A duration that is not positive and finite is the default.
    public init(images: [Bitmap], duration: Double? = nil) {
        let n = Double(Swift.max(images.count, 1))
        var total = duration ?? n * ImageSequence.defaultFrameDuration
        if !(total.isFinite && total > 0) { total = n * ImageSequence.defaultFrameDuration }
        self.init(images: images, delays: Array(repeating: total / n, count: images.count))
    }

    /// Images with their own delays, as a GIF's frames; a delay that is not positive and finite shows 0.1 s.
    public init(images: [Bitmap], delays: [Double]) {
        self.images = images
        let fixed = images.indices.map { i -> Double in
            let d = i < delays.count ? delays[i] : ImageSequence.defaultFrameDuration
            return d.isFinite && d > 0 ? d : ImageSequence.defaultFrameDuration
        }
        self.delays = fixed
        duration = fixed.reduce(0, +)
    }

    public var isEmpty: Bool { images.isEmpty }

    /// The image for a pull of `percent` (the pull over the trigger distance): ⌊count × percent⌋ clamped to
    /// 0…count − 1 (docs/reference.md §1, MJRefreshGifHeader's `setPullingPercent:`).
    public func index(pullingPercent percent: Double) -> Int {
        let raw = Double(images.count) * percent
        guard raw >= 1 else { return 0 }  // NaN and negative pulls too
        return raw < Double(images.count) ? Int(raw) : images.count - 1
    }

    /// The image shown `elapsed` seconds into looping the sequence (UIImageView's `startAnimating`).
    public func index(looping elapsed: Double) -> Int {
        guard images.count > 1, duration > 0, elapsed.isFinite else { return 0 }
        var t = elapsed.truncatingRemainder(dividingBy: duration)
        if t < 0 { t += duration }
        // Against running ends, with a nanosecond's slack, so that sums of tenths that land a hair off (0.1 × 3)
        // still change image at the boundary.
        var end = 0.0
        for (i, delay) in delays.enumerated() {
            end += delay
            if t < end - ImageSequence.boundarySlack { return i }
        }
        return 0
    }
}

/// The states an image-sequence header has pictures for, as MJRefreshGifHeader's.
public enum GifHeaderState: String, CaseIterable, Sendable {
    /// Below the trigger (and while a refresh finishes): the image follows the pull.
    case idle
    /// Past the trigger with the finger down (MJRefresh's Pulling): the images loop.
    case pulling
    /// Refreshing: the images loop.
    case refreshing
}

/// An image-sequence header's pictures: a sequence per state. One sequence given for all states is used for each.
public struct GifHeaderImages: Equatable, Sendable {
    private var sequences: [GifHeaderState: ImageSequence]

    /// The same sequence for every state, as MJRefreshGifHeader's `setImages:` called for each.
    public init(_ sequence: ImageSequence) {
        sequences = [.idle: sequence, .pulling: sequence, .refreshing: sequence]
    }

    /// A sequence per state; a state without one (or with an empty one) shows idle's, or when idle has none the
    /// first of pulling's and refreshing's. Nil when every sequence is empty.
    public init?(_ given: [GifHeaderState: ImageSequence]) {
        let present = given.filter { !$0.value.isEmpty }
        guard let fallback = present[.idle] ?? present[.pulling] ?? present[.refreshing] else { return nil }
        sequences = [:]
        for state in GifHeaderState.allCases { sequences[state] = present[state] ?? fallback }
    }

    /// MJRefreshGifHeader's `setImages:duration:forState:`; empty images leave the state as it was.
    public mutating func setImages(_ images: [Bitmap], duration: Double? = nil, for state: GifHeaderState) {
        guard !images.isEmpty else { return }
        sequences[state] = ImageSequence(images: images, duration: duration)
    }

    public subscript(state: GifHeaderState) -> ImageSequence { sequences[state]! }
}

/// The image-sequence header, MJRefreshGifHeader: a picture per frame from a state's images, with the state and
/// last-updated lines (`StateLabels`, which may be hidden).
///
/// Below the trigger the image follows the pull, ⌊count × pull / trigger⌋ of idle's images; past the trigger with
/// the finger down pulling's images loop, and while refreshing refreshing's loop, each from the moment its state
/// began. A finishing refresh follows the pull again with idle's images, as MJRefresh's header is back in Idle.
/// The picture is fitted into the style's `imageSize` keeping its aspect, centred in the header when no line shows,
/// else ending `labelLeftInset` left of the wider line (MJRefreshGifHeader's right-aligned image view). Frames are
/// chosen from the frame's time in `update(pull:)`, so any frame can be drawn on its own.
public final class GifEffect: StyledEffect {
    /// The box the picture is fitted into, 50 × 50 pt: the tallest square that fits MJRefresh's 54 pt header with
    /// a 2 pt margin; not in docs/reference.md.
    static let defaultImageSize = Size(50, 50)

    public private(set) var metrics: RefreshMetrics
    public let layer = Layer()
    let imageLayer = ImageLayer()
    let labels: StateLabels
    /// The parameters in use; a change shows from the next frame and keeps the pull or refresh under way.
    public var style: Style {
        didSet {
            metrics = GifEffect.metrics(for: style)
            applyLabelStyle()
            layoutIsCurrent = false
        }
    }

    /// The pictures; nil shows the lines only. Setting them starts the current state's loop again.
    public var images: GifHeaderImages? {
        didSet {
            layoutIsCurrent = false
            loopStart = lastTime
        }
    }

    /// The state whose images show in the last frame, and which of them.
    private(set) var shownState = GifHeaderState.idle
    public private(set) var frameIndex = 0

    private var state = RefreshState.idle
    private var loopStart = 0.0
    private var lastTime = 0.0
    private var layoutIsCurrent = false
    private var shownImageSize = Size(0, 0)
    private var shownFrame: (state: GifHeaderState, index: Int)?

    public init(images: GifHeaderImages? = nil, style: Style = Style()) {
        self.images = images
        self.style = style
        metrics = GifEffect.metrics(for: style)
        labels = StateLabels(in: layer)
        layer.addSublayer(imageLayer)
        applyLabelStyle()
    }

    /// MJRefresh's header metrics with the style's height.
    static func metrics(for style: Style) -> RefreshMetrics {
        RefreshMetrics(headerHeight: style.headerHeight)
    }

    private func applyLabelStyle() {
        labels.fontSize = style.fontSize
        labels.textColor = style.textColor
        labels.labelLeftInset = style.labelLeftInset
    }

    /// The state whose images a header in `state` shows (MJRefresh's Idle, Pulling and Refreshing).
    static func imageState(for state: RefreshState) -> GifHeaderState {
        switch state {
        case .armed, .releaseToFloor: .pulling
        case .willRefresh, .refreshing: .refreshing
        case .idle, .pulling, .finishing, .noMoreData, .floorOpening, .floor, .floorClosing: .idle
        }
    }

    // MARK: RefreshEffect

    /// MJRefresh's texts, with the style's in their place.
    public func strings(for language: RefreshLanguage) -> RefreshStrings {
        style.texts.strings(language, over: RefreshStrings.standard(language))
    }

    public func didMove(to control: RefreshControl?) {
        labels.didMove(to: control)
    }

    public func transition(from old: RefreshState, to new: RefreshState, pull: RefreshPull) {
        let time = pull.time
        if GifEffect.imageState(for: new) != GifEffect.imageState(for: old) { loopStart = time }
        state = new
        labels.transition(to: new)
    }

    public func update(pull: RefreshPull) {
        lastTime = pull.time
        let size = pull.headerSize
        let relaid = labels.update(size: size, showsResult: metrics.hasResultRow, fallback: strings(for:))
        guard let images else {
            imageLayer.image = nil
            shownFrame = nil
            return
        }
        shownState = GifEffect.imageState(for: state)
        let sequence = images[shownState]
        frameIndex = shownState == .idle ? sequence.index(pullingPercent: pull.progress)
                                         : sequence.index(looping: pull.time - loopStart)
        let image = sequence.images[frameIndex]
        // Compared by place, not by pixels: a frame only swaps a reference.
        if shownFrame?.state != shownState || shownFrame?.index != frameIndex || !layoutIsCurrent {
            imageLayer.image = image
            shownFrame = (shownState, frameIndex)
        }
        if relaid || !layoutIsCurrent || image.size != shownImageSize { layout(size, image: image.size) }
    }

    // MARK: Layout

    /// The picture's frame: `imageSize` filled as far as the image's aspect allows, centred vertically, and
    /// horizontally centred or ending left of the text.
    private func layout(_ size: Size, image: Size) {
        layer.frame = Rect(origin: .zero, size: size)
        let fit = GifEffect.fitted(image, into: style.imageSize)
        let x = labels.isVisible ? labels.pictureRightEdge(headerWidth: size.width) - fit.width
                                 : (size.width - fit.width) / 2
        imageLayer.frame = Rect(x: x, y: (size.height - fit.height) / 2, width: fit.width, height: fit.height)
        shownImageSize = image
        layoutIsCurrent = true
    }

    /// `image` scaled, up or down, to the largest size of its aspect inside `box`.
    public static func fitted(_ image: Size, into box: Size) -> Size {
        guard image.width > 0, image.height > 0, box.width > 0, box.height > 0 else { return Size(0, 0) }
        let s = Swift.min(box.width / image.width, box.height / image.height)
        return Size(image.width * s, image.height * s)
    }
}

extension GifEffect {
    /// The image-sequence header's parameters: MJRefresh's header height and lines, and the picture's box.
    public struct Style: StyleValue {
        public var headerHeight = RefreshMetrics.classicHeaderHeight
        var imageSize = GifEffect.defaultImageSize
        public var fontSize = StateLabels.fontSize
        public var textColor = StateLabels.textColor
        var labelLeftInset = StateLabels.labelLeftInset

        /// The texts it shows, in both languages.
        var texts = HeaderTexts(RefreshStrings.standard)

        public init() {}

        public static var fields: [StyleField<Style>] {
            [
                .number("headerHeight", \.headerHeight, "pt", 10...500,
                        "the header's height: the pull that arms it (its trigger) and the refreshing inset"),
                .size("imageSize", \.imageSize, "pt", 1...500,
                      "the box [width, height] each picture is fitted into, keeping its proportions"),
                .number("fontSize", \.fontSize, "pt", 4...72, "font size of the state and last-updated lines"),
                .color("textColor", \.textColor, dark: StateLabels.darkTextColor, "colour of both lines"),
                .number("labelLeftInset", \.labelLeftInset, "pt", 0...300,
                        "gap between the picture's right edge and the wider line"),
            ]
                + HeaderTexts.fields(at: \.texts, [.pullDown, .release, .refreshing, .lastUpdated, .today, .noRecord])
        }
    }
}

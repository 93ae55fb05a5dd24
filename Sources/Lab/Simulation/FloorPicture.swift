import Colors
import Geometry
import Layers
import Lottie
import Raster
import Refresh
import Text
import UserFiles

/// What the second floor shows behind the list: RefreshLab's own page, or a designer's picture or animation.
public enum FloorSource: Equatable, Sendable {
    /// RefreshLab's own page (`FloorPicture.drawnPage`).
    case drawn
    /// A PNG, JPEG, WebP or GIF picture, or a Lottie file.
    case file(String)

    /// What `--floor VALUE` names: `drawn` is RefreshLab's own page, anything else a file.
    public init(option: String) {
        self = option == FloorSource.drawnName ? .drawn : .file(option)
    }

    /// The word `--floor` takes for RefreshLab's own page.
    public static let drawnName = "drawn"

    /// Reads the floor once, so that a file that cannot be read is said before anything runs.
    ///
    /// - Throws: `LabError` naming the file and what is wrong with it.
    public func check() throws { _ = try FloorPicture.load(self) }

    /// How messages name it.
    var name: String {
        switch self {
        case .drawn: FloorSource.drawnName
        case .file(let path): path
        }
    }
}

/// Where the second floor is in its life, as its picture plays it.
enum FloorMoment: Equatable {
    /// A pull reveals it: how far the pull has come from the refresh threshold to the floor's, 0…1.
    case revealing(Double)
    /// Opening, open or closing, this many seconds after it began to open.
    case open(Double)
}

/// The second floor's picture, read once from its source: drawn behind the list, scaled to cover the screen (its
/// middle kept), as the page waiting behind the list in Taobao's and SmartRefreshLayout's second floor.
final class FloorPicture {
    enum Content {
        case drawn
        case images(ImageSequence)
        case lottie(LottieAnimation)
    }

    let source: FloorSource
    let content: Content
    private let lottieRenderer = LottieRenderer()
    /// RefreshLab's own page, made for one screen size, language and appearance at a time.
    private var page: Layer?
    private var pageKey: (Size, RefreshLanguage)?
    /// The last frame the Lottie renderer could not draw whole, told once.
    private(set) var renderError: LottieRenderError?

    /// The largest floor file read: a full-screen picture or a Lottie page is well under this.
    static let maxFileBytes = 64 << 20

    init(source: FloorSource, content: Content) {
        self.source = source
        self.content = content
    }

    /// Reads `source`: a file is told apart by its first bytes (a GIF, a PNG, JPEG or WebP picture, else Lottie JSON).
    ///
    /// - Throws: `LabError` naming the file and what is wrong with it.
    static func load(_ source: FloorSource) throws -> FloorPicture {
        guard case .file(let path) = source else { return FloorPicture(source: source, content: .drawn) }
        let bytes: [UInt8]
        do {
            bytes = try UserFile.read(path, kind: "floor", limit: maxFileBytes)
        } catch {
            throw LabError(error.description + " (--floor takes a PNG, JPEG, WebP or GIF picture, a Lottie file, or "
                           + "'\(FloorSource.drawnName)')")
        }
        if bytes.starts(with: Array("GIF8".utf8)) {
            do {
                let gif = try GIF.decode(bytes, name: path)
                return FloorPicture(source: source, content: .images(ImageSequence(images: gif.frames, delays: gif.delays)))
            } catch {
                throw LabError("\(error)")
            }
        }
        let format = bytes.withUnsafeBytes { ImageDecoder.format(of: $0) }
        if format != nil {
            do {
                let image = try bytes.withUnsafeBytes { try ImageDecoder.decode($0, name: path, maxPixels: PNG.maxPixels) }
                return FloorPicture(source: source, content: .images(ImageSequence(images: [image])))
            } catch {
                throw LabError("\(error)")
            }
        }
        guard bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) == UInt8(ascii: "{") else {
            throw LabError("cannot read the floor '\(path)': it is not a PNG, JPEG, WebP or GIF picture, nor a Lottie "
                           + "file (JSON)")
        }
        do {
            let animation = try LottieFile.parse(bytes, file: path, folder: FileName.split(path).folder)
            return FloorPicture(source: source, content: .lottie(animation))
        } catch {
            throw LabError(error.description)
        }
    }

    /// The Lottie marker a floor animation may have: its frames are scrubbed by the pull, and the animation plays
    /// on from its end once the floor opens.
    static let revealMarker = "reveal"

    /// Draws the picture for a screen of `screen` points at `scale` pixels a point into `canvas`, only within
    /// `clip` (pixels): where the list has slid away.
    func render(into canvas: Canvas, screen: Size, scale: Double, moment: FloorMoment, time: Double,
                language: RefreshLanguage, clip: Rect, renderer: LayerRenderer) {
        let pixels = Size(screen.width * scale, screen.height * scale)
        switch content {
        case .drawn:
            let layer = drawnPage(size: screen, language: language)
            layer.render(into: canvas, at: time, transform: AffineTransform(scaleX: scale, y: scale), clip: clip,
                         renderer: renderer)
        case .images(let sequence):
            guard !sequence.isEmpty else { return }
            let image = sequence.images[sequence.index(looping: time)]
            let transform = FloorPicture.covering(Size(Double(image.width), Double(image.height)), pixels)
            canvas.draw(image, transform: transform, clip: PixelBox(covering: clip))
        case .lottie(let animation):
            let transform = FloorPicture.covering(animation.size, pixels)
            do {
                try lottieRenderer.render(animation, frame: FloorPicture.frame(of: animation, at: moment, time: time),
                                          into: canvas, transform: transform, clip: clip)
                renderError = nil
            } catch {
                renderError = error
            }
        }
    }

    /// The transform that scales a picture of `size` to cover `screen` (pixels), its middle on the screen's.
    static func covering(_ size: Size, _ screen: Size) -> AffineTransform {
        guard size.width > 0, size.height > 0 else { return .identity }
        let s = Swift.max(screen.width / size.width, screen.height / size.height)
        return AffineTransform(scaleX: s, y: s).concatenating(AffineTransform(
            translationX: (screen.width - size.width * s) / 2, y: (screen.height - size.height * s) / 2))
    }

    /// The frame of a Lottie floor at `moment`: with a `reveal` marker, the pull scrubs its frames and the open floor
    /// plays on from its end, looping what follows it (holding its last frame when nothing does); without one, the
    /// animation loops on the clock throughout.
    static func frame(of animation: LottieAnimation, at moment: FloorMoment, time: Double) -> Double {
        let rate = Swift.max(animation.frameRate, 1)
        let last = Swift.max(animation.outPoint - animation.inPoint, 0)
        guard let reveal = animation.marker(named: revealMarker) else {
            return animation.inPoint + (last > 0 ? (time * rate).truncatingRemainder(dividingBy: last) : 0)
        }
        let revealEnd = Swift.min(reveal.start + reveal.duration, animation.outPoint)
        switch moment {
        case .revealing(let progress):
            return reveal.start + Swift.min(Swift.max(progress, 0), 1) * (revealEnd - reveal.start)
        case .open(let elapsed):
            let rest = animation.outPoint - revealEnd
            guard rest > 0 else { return Swift.max(revealEnd - 1e-6, animation.inPoint) }
            return revealEnd + (Swift.max(elapsed, 0) * rate).truncatingRemainder(dividingBy: rest)
        }
    }

    // MARK: RefreshLab's own page

    /// Taobao's orange, the colour of the page behind the list.
    static let pageColor = Color(rgb: 255, 80, 0)
    /// The shelf's tiles: a promotion page's four entries.
    static let tileTitles: [(english: String, chinese: String, color: Color)] = [
        ("Events", "活动", Color(rgb: 255, 196, 0)), ("Deals", "特价", Color(rgb: 255, 120, 120)),
        ("Live", "直播", Color(rgb: 120, 200, 255)), ("New", "新品", Color(rgb: 140, 220, 150)),
    ]

    /// RefreshLab's own second floor for a screen of `size` points: an orange page with its title, the way back, and
    /// a shelf of four tiles; made again only when the size or the language changes.
    func drawnPage(size: Size, language: RefreshLanguage) -> Layer {
        if let page, let key = pageKey, key.0 == size, key.1 == language { return page }
        let chinese = language == .chinese
        let root = Layer(frame: Rect(origin: .zero, size: size))
        root.backgroundColor = FloorPicture.pageColor
        let title = TextLayer()
        title.frame = Rect(x: 24, y: size.height * 0.16, width: size.width - 48, height: 44)
        title.string = chinese ? "二楼" : "Second floor"
        title.fontSize = 34
        title.fontWeight = .bold
        title.foregroundColor = .white
        root.addSublayer(title)
        let hint = TextLayer()
        hint.frame = Rect(x: 24, y: size.height * 0.16 + 48, width: size.width - 48, height: 22)
        hint.string = chinese ? "从底部上拉返回" : "Pull up from the bottom to go back"
        hint.fontSize = 15
        hint.foregroundColor = Color(white: 1, alpha: 0.85)
        root.addSublayer(hint)
        let gap = 12.0, side = (size.width - 48 - gap) / 2
        for (index, tile) in FloorPicture.tileTitles.enumerated() {
            let card = Layer(frame: Rect(x: 24 + Double(index % 2) * (side + gap),
                                         y: size.height * 0.34 + Double(index / 2) * (side * 0.75 + gap),
                                         width: side, height: side * 0.75))
            card.backgroundColor = Color(white: 1, alpha: 0.95)
            card.cornerRadius = 14
            let swatch = Layer(frame: Rect(x: 12, y: 12, width: 36, height: 36))
            swatch.backgroundColor = tile.color
            swatch.cornerRadius = 10
            card.addSublayer(swatch)
            let label = TextLayer()
            label.frame = Rect(x: 12, y: side * 0.75 - 34, width: side - 24, height: 22)
            label.string = chinese ? tile.chinese : tile.english
            label.fontSize = 17
            label.fontWeight = .bold
            label.foregroundColor = Color(rgb: 40, 40, 40)
            card.addSublayer(label)
            root.addSublayer(card)
        }
        page = root
        pageKey = (size, language)
        return root
    }
}

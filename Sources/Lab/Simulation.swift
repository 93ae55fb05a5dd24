import Geometry
import Layers
import Motion
import Raster
import Refresh
import Scrolling

/// What the finger and the keyboard do, in screen points; the window and gesture scripts both produce these.
public enum InputEvent: Equatable, Sendable {
    case touchDown(Point)
    case touchMove(Point)
    case touchUp(Point)
    /// A mouse-wheel or trackpad scroll by this many points of content (positive y scrolls the content up).
    case wheel(Point)
}

/// The simulator without a window: the phone's screen, its scrolling list and what draws them.
///
/// The window feeds it events and shows its canvas; headless runs do the same from a script on a simulated clock.
public final class Simulation {
    public let phone: Phone
    public let clock: Clock
    public let scrollView: ScrollView
    public let refreshControl = RefreshControl()
    public let list: DemoList
    /// The frame the simulation draws into, `phone.pixelWidth × phone.pixelHeight`.
    public let canvas: Canvas

    private let rasterizer = Rasterizer()
    private let navigationBar: Layer
    static let background = Color(rgb: 242, 242, 247)
    static let barColor = Color(rgb: 248, 248, 248, alpha: 0.94)
    static let hairlineColor = Color(rgb: 0, 0, 0, alpha: 0.3)
    static let titleColor = Color(rgb: 0, 0, 0, alpha: 0.8)

    public init(phone: Phone = Phone(), clock: Clock = MonotonicClock()) {
        self.phone = phone
        self.clock = clock
        list = DemoList(width: phone.screenSize.width)
        scrollView = ScrollView(boundsSize: phone.listFrame.size,
                                contentSize: Size(phone.screenSize.width, list.contentHeight))
        canvas = Canvas(width: phone.pixelWidth, height: phone.pixelHeight, fill: Simulation.background)
        navigationBar = Simulation.makeNavigationBar(phone)
        refreshControl.attach(to: scrollView)
    }

    private static func makeNavigationBar(_ phone: Phone) -> Layer {
        let bar = Layer(frame: Rect(x: 0, y: 0, width: phone.screenSize.width, height: phone.navigationBarHeight))
        bar.backgroundColor = barColor
        let hairline = Layer(frame: Rect(x: 0, y: phone.navigationBarHeight - 0.5, width: phone.screenSize.width, height: 0.5))
        hairline.backgroundColor = hairlineColor
        bar.addSublayer(hairline)
        let title = Layer(frame: Rect(x: phone.screenSize.width / 2 - 40, y: 36, width: 80, height: 14))
        title.backgroundColor = titleColor
        title.cornerRadius = 7
        bar.addSublayer(title)
        return bar
    }

    /// Applies one input event that happened at `time` (the clock's now when nil); points are in screen coordinates.
    public func handle(_ event: InputEvent, at time: Double? = nil) {
        let t = time ?? clock.now
        switch event {
        case .touchDown(let p): scrollView.touchBegan(at: p, time: t)
        case .touchMove(let p): scrollView.touchMoved(to: p, time: t)
        case .touchUp(let p): scrollView.touchEnded(at: p, time: t)
        case .wheel(let delta): scrollView.scrollWheel(by: delta, time: t)
        }
    }

    /// Advances physics and animations to the clock's time; call once per frame, before `render()`.
    public func step() {
        let now = clock.now
        scrollView.step(to: now)
        refreshControl.step(to: now)
    }

    /// True while something moves without input (momentum, bounce, an inset animation): the window keeps drawing.
    public var isAnimating: Bool { scrollView.isAnimating || refreshControl.isAnimating }

    /// Draws the current state into `canvas`.
    public func render() {
        canvas.clear(to: Simulation.background)
        let s = phone.scale
        let listFrame = phone.listFrame
        let offset = scrollView.contentOffset
        let toPixels = AffineTransform(scaleX: s, y: s)
        let contentToPixels = AffineTransform(translationX: -offset.x + listFrame.minX, y: -offset.y + listFrame.minY)
            .concatenating(toPixels)
        let viewport = Rect(origin: offset, size: listFrame.size)
        let clip = Rect(x: listFrame.minX * s, y: listFrame.minY * s, width: listFrame.width * s, height: listFrame.height * s)
        list.draw(viewport: viewport, transform: contentToPixels, clip: clip, canvas: canvas, rasterizer: rasterizer)
        refreshControl.headerLayer.render(into: canvas, rasterizer: rasterizer, transform: contentToPixels)
        navigationBar.render(into: canvas, rasterizer: rasterizer, transform: toPixels)
    }
}

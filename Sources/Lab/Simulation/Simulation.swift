import Geometry
import Layers
import Lottie
import Motion
import Raster
import Refresh
import Scrolling
import Styles
import Text
import UserFiles
import Colors

/// What the finger and the keyboard do, in screen points; the window and gesture scripts both produce these.
public enum InputEvent: Equatable, Sendable {
    case touchDown(Point)
    case touchMove(Point)
    case touchUp(Point)
    /// A mouse-wheel or trackpad scroll by this many points of content (positive y scrolls the content up), with
    /// the pointer where it happened when known (a script's wheel has none: it scrolls the list).
    case wheel(Point, at: Point? = nil)
}

/// The simulator without a window: the phone's screen, its scrolling list and what draws them.
///
/// The window feeds it events and shows its canvas; headless runs do the same from a script on a simulated clock.
/// The header (one of `RefreshEffects`, chosen by name) and the load-more footer are layer trees whose animations
/// run on the simulation's clock; every frame draws their presentation values at the time of the frame's step.
public final class Simulation {
    /// The effect shown at start: the first of the keyboard's order (key 1).
    public static var defaultEffectName: String { RefreshEffects.names.first ?? "" }
    /// Every effect the header can show, in the keyboard's order.
    public static var effectNames: [String] { RefreshEffects.names }
    /// How long a refresh or a load runs before the simulator ends it by itself (when `autoEndsRefreshing`), in
    /// seconds: long enough to watch the refreshing animation, as a quick network answer would be.
    static let autoEndDelay = 1.5
    /// Points of content one wheel notch scrolls: about three 13–14 pt lines, as desktop systems scroll three
    /// lines per notch (an assumption of this simulator; iOS has no wheel). On the tuning panel a notch is one
    /// step of a value or one line.
    public static let wheelNotch = 40.0
    /// How many new items an automatic end reports on a header that tells them (`RefreshEffect.reportsNewItems`).
    static let newItemsPerRefresh = 12

    /// The phone shown: its model, bar and scale (`setPhone(_:)` changes it, and with it the canvas's size). Its
    /// model says the platform (`Phone.platform`; `setPlatform(_:)` switches it).
    public internal(set) var phone: Phone
    /// The model each platform showed when the platform key last switched away from it (none: its default).
    var lastModels: [Platform: PhoneModel] = [:]
    /// How far Android's overscroll stretches the list at its edge, as a fraction of the list's height
    /// (EdgeEffect's stretch, docs/reference.md §5): 0 while the edge is not stretched, and on iOS, whose list
    /// moves past the edge instead. The trace's `stretch`.
    public internal(set) var edgeStretch = 0.0
    /// The simulation's time: the base clock given at init, slowed, paused or stepped by the simulator's tools.
    public let clock: TimeControl
    public let scrollView: ScrollView
    let refreshControl = RefreshControl()
    /// The automatic load-more footer under the list's last row.
    public let footer = LoadMoreFooter()
    public internal(set) var list: DemoList
    /// The frame the simulation draws into, `phone.pixelWidth × phone.pixelHeight`: a new one when the phone's
    /// size changes.
    public internal(set) var canvas: Canvas
    /// Runs the header's and the footer's animations on `clock`.
    public let animator: Animator
    /// Draws every layer tree of the frame; it keeps its buffers from frame to frame.
    public let renderer = LayerRenderer()
    /// The name of the header's effect, as the control holds it with the effect.
    public var effectName: String { refreshControl.effectName }
    /// The user's style files, merged: the physics and every effect take their values from them, at once and on
    /// every change, without a reset (none by default: docs/reference.md's values).
    public var styles = StyleBook(catalog: StyleCatalog([])) {
        didSet {
            stylesRevision &+= 1
            applyStyles()
        }
    }
    /// Counts the changes of `styles`, so that what is made from them (the tuning panel's rows) is made again.
    private(set) var stylesRevision = 0
    /// The tuning panel (T): the current effect's and the physics' parameters, nudged with the arrows and saved to
    /// the user's style file.
    public let tuning = Tuning()
    /// Whether refreshes and loads end by themselves `autoEndDelay` after they start (the simulator's "auto end").
    public var autoEndsRefreshing = true
    /// The animations read for the headers that play files, by effect name (see `loadAnimation(path:for:)`).
    var headerAnimations: [String: HeaderAnimation] = [:]
    /// The Lottie header's last error of a frame (a budget of work passed), so that it is told once, not per frame.
    private var headerRenderError: LottieRenderError?
    /// The overlays' switches, flipped by their keys: the debug overlay (D), the frame-time graph (G), the help (H).
    var showsDebugOverlay = false
    public var showsFrameGraph = false
    var showsHelp = false
    /// Whether screenshots and recordings include the overlays (HUD, toast, help, debug): off, so that outputs
    /// show the phone as it is (O, or `--overlays`).
    public var includesOverlaysInOutputs = false
    /// The language of the list, the header and the footer (L): held once, shared by the three.
    let languageSetting = LanguageSetting()
    public var language: RefreshLanguage { languageSetting.current }
    /// Until when a second Esc quits (base clock): a first Esc with nothing open only says so, so that a key
    /// pressed to close something already closed does not end the session.
    var escapeQuitsUntil: Double?
    /// How long after a first Esc a second one quits, in seconds.
    static let escapeAgainWindow = 1.0
    /// How long the hint of the first start stays, in seconds.
    static let keysHintDuration = 4.0
    /// At the window's start: a toast naming the key that lists every key, for a few seconds.
    public func showKeysHint() {
        showToast(language == .chinese ? "H：所有按键" : "H: every key", lasting: Simulation.keysHintDuration)
    }
    /// What the keyboard asked of the host since it last looked (`takeHostRequests()`).
    public internal(set) var hostRequests: HostRequests = []
    /// The short message at the bottom of the screen saying what the last key did.
    public let toast = Toast()
    /// Every overlay's drawing: the HUD, the debug overlay, the tuning panel, the help and the toast.
    let overlays = Overlays()

    /// The standard bar (and a translucent one's hairline and title): a layer tree made for the phone.
    var navigationBar: Layer
    /// What the system draws over the phone's screen: the status bar, the island, the home indicator, the corners.
    var chrome: PhoneChrome
    /// The translucent bar's blur of the list beneath it, with its buffers.
    let backdrop = BackdropBlur()
    /// The large title, laid out once per language.
    var largeTitles: [RefreshLanguage: TextLine] = [:]
    /// The navigation bar's bottom edge now, in screen points: a large title's band collapses and stretches with
    /// the list (`updateNavigationBar()`); 0 without a bar.
    public internal(set) var navigationBarBottom: Double
    /// The bar's title, in the list's language.
    let navigationTitle = TextLayer()
    /// The time of the last step: the frame is drawn at it.
    private var frameTime: Double?
    /// Where the finger is on the screen while it is down, in points, and where it went down.
    public private(set) var finger: Point?
    private var touchStart: Point?
    /// When the running refresh and the running load started, for the automatic end.
    private var refreshStart: Double?
    private var loadStart: Double?
    /// The screen behind the list (docs/reference.md §6).
    static let background = SystemColor.secondarySystemBackground
    /// The navigation bar's hairline, under its title.
    let navigationHairline = Layer()
    /// The phone's appearance (K): the system colours of the list, bars and footer, and the header's style in its
    /// variant for it. Light by default.
    public var appearance = Appearance.light {
        didSet { if appearance != oldValue { applyAppearance() } }
    }

    public init(phone: Phone = Phone(), clock: Clock = MonotonicClock()) {
        self.phone = phone
        self.clock = TimeControl(base: clock)
        self.clock.frameDuration = 1 / phone.refreshRate
        animator = Animator(clock: self.clock)
        list = DemoList(rowCount: DemoList.firstPage, capacity: 200, width: phone.screenSize.width)
        scrollView = ScrollView(boundsSize: phone.listFrame.size,
                                contentSize: Size(phone.screenSize.width, list.contentHeight))
        scrollView.safeAreaInsets = phone.listSafeArea
        Simulation.givePhysics(of: phone, to: scrollView, replacing: nil)
        // The list starts at its top, below the safe area, as a scroll view laid out under bars does.
        scrollView.setContentOffset(Point(0, -scrollView.adjustedContentInset.top))
        canvas = Canvas(width: phone.pixelWidth, height: phone.pixelHeight, fill: Simulation.background.light)
        navigationBar = Simulation.makeNavigationBar(phone, title: navigationTitle, hairline: navigationHairline)
        chrome = PhoneChrome(phone: phone)
        navigationBarBottom = phone.navigationBarHeight
        navigationTitle.string = Simulation.titles[.english] ?? ""
        refreshControl.headerLayer.animator = animator
        footer.layer.animator = animator
        refreshControl.languageSetting = languageSetting
        footer.languageSetting = languageSetting
        list.languageSetting = languageSetting
        refreshControl.attach(to: scrollView)
        footer.attach(to: scrollView)
        selectEffect(named: Simulation.defaultEffectName)
        updateNavigationBar()
        refreshControl.cue = { [unowned self] in
            armingCount += 1
            lastArmingAt = self.clock.base.now
        }
    }

    /// How many times a pull has armed the header (`RefreshControl.cue`): each a haptic and an announcement.
    public private(set) var armingCount = 0
    /// When the last arming happened, on the base clock: its mark shows for `ArmingFeedback.markDuration`.
    private(set) var lastArmingAt: Double?

    /// Whether the last arming's mark shows at `time` (base clock).
    func showsArmingMark(at time: Double) -> Bool {
        guard let at = lastArmingAt else { return false }
        return time >= at && time < at + ArmingFeedback.markDuration
    }

    /// Shows the effect registered under `name` in the header; false (and no change) when there is none.
    @discardableResult
    public func selectEffect(named name: String) -> Bool {
        guard let effect = RefreshEffects.make(name) else { return false }
        applyStyle(to: effect, named: name)
        giveAnimation(to: effect, named: name)
        refreshControl.setEffect(effect, named: name)
        return true
    }

    /// The navigation bar's title in each language, as a mail app's inbox.
    static let titles: [RefreshLanguage: String] = [.english: "Inbox", .chinese: "收件箱"]
    /// The title's size: UIKit's navigation bar title is 17 pt.
    static let titleFontSize = 17.0

    static func makeNavigationBar(_ phone: Phone, title: TextLayer, hairline: Layer) -> Layer {
        let height = phone.figures.statusBarHeight + phone.barHeight, colors = barColors(phone)
        let bar = Layer(frame: Rect(x: 0, y: 0, width: phone.screenSize.width, height: height))
        // A translucent bar's blurred, tinted backdrop is drawn under the layer (`renderNavigationBar`).
        bar.backgroundColor = phone.bar == .translucent ? .clear : colors.bar.light
        hairline.frame = Rect(x: 0, y: height - 0.5, width: phone.screenSize.width, height: 0.5)
        hairline.backgroundColor = colors.hairline.light
        bar.addSublayer(hairline)
        if phone.platform == .android {
            // Material's top app bar: the title at the left, 16 dp in, centred in the bar's 64 dp.
            title.frame = Rect(x: appBarTitleInset, y: phone.figures.statusBarHeight,
                               width: phone.screenSize.width - 2 * appBarTitleInset, height: phone.barHeight)
            title.fontSize = appBarTitleSize
            title.alignmentMode = .left
        } else {
            // The title is centred in the 44 pt bar under the status bar.
            title.frame = Rect(x: 0, y: phone.figures.statusBarHeight, width: phone.screenSize.width,
                               height: phone.barHeight)
            title.fontSize = titleFontSize
            title.alignmentMode = .center
        }
        title.foregroundColor = colors.title.light
        title.verticalAlignment = .center
        bar.addSublayer(title)
        return bar
    }

    /// Material 3's top app bar title: the title-large style's 22 sp, 16 dp from the leading edge
    /// (docs/reference.md §5).
    static let appBarTitleSize = 22.0
    static let appBarTitleInset = 16.0

    /// The bar's colours on `phone`'s platform: iOS's bar, hairline and title (docs/reference.md §6); on Android
    /// Material 3's top app bar, `surface` under `onSurface`, with no hairline (§5).
    static func barColors(_ phone: Phone) -> (bar: DynamicColor, hairline: DynamicColor, title: DynamicColor) {
        guard phone.platform == .android else {
            return (SystemColor.navigationBar, SystemColor.navigationBarHairline, SystemColor.navigationTitle)
        }
        return (MaterialColor.surface, DynamicColor(light: .clear, dark: .clear), MaterialColor.onSurface)
    }

    /// The room the window has beside the phone, in points: from `sideMinimumWidth` on, the tuning panel and the
    /// HUD are drawn there (`sideCanvas`) rather than over the phone. The window sets it as it is resized.
    public var sideRoom = 0.0
    /// What the side area shows, drawn with the overlays; nil without a side area.
    public internal(set) var sideCanvas: Canvas?

    /// Whether Shift is held: a drag or the wheel on the tuning panel then moves ten steps at a time. The window
    /// sets it with every event.
    public var shiftIsDown = false

    /// Applies one input event that happened at `time` on the base clock (the clock given at init; its now when
    /// nil); points are in screen coordinates. Slow animations and pause bend the time the scroll view sees. While
    /// the help is shown, the list behind it gets nothing (the help is modal).
    public func handle(_ event: InputEvent, at time: Double? = nil) {
        guard !showsHelp, !handleOnTuningPanel(event) else { return }
        // Beside the phone, only the panel takes input.
        switch event {
        case .touchDown(let p), .wheel(_, at: let p?): if p.x >= phone.screenSize.width { return }
        default: break
        }
        let t = time.map { clock.time(atBase: $0) } ?? clock.now
        switch event {
        case .touchDown(let p):
            finger = p
            touchStart = p
            scrollView.touchBegan(at: p, time: t)
        case .touchMove(let p):
            guard finger != nil else { return }
            finger = p
            scrollView.touchMoved(to: p, time: t)
        case .touchUp(let p):
            guard finger != nil else { return }
            finger = nil
            scrollView.touchEnded(at: p, time: t)
            if let start = touchStart, (p - start).length < Simulation.tapSlop { tap(at: p) }
            touchStart = nil
        case .wheel(let delta, _):
            scrollView.scrollWheel(by: delta, time: t)
        }
    }

    /// How far a finger may move between down and up for a tap, in points. Not from docs/reference.md: about UIKit's
    /// tap recognizer's allowance.
    static let tapSlop = 10.0

    /// A tap at `point` on the screen: on the navigation bar it scrolls the list to its top (iOS's scrollsToTop);
    /// on the footer it loads more.
    private func tap(at point: Point) {
        if point.y < navigationBarBottom {
            let top = Point(scrollView.contentOffset.x, -scrollView.adjustedContentInset.top)
            if scrollView.contentOffset.y > top.y { scrollView.setContentOffset(top, animated: true) }
            return
        }
        let contentY = point.y - phone.listFrame.minY + scrollView.contentOffset.y
        if contentY >= scrollView.contentSize.height && contentY < scrollView.contentSize.height + footer.height {
            footer.beginRefreshing()
        }
    }

    /// Lifts a finger that is down without a fling (the help opened over it, say), as a cancelled touch.
    func cancelTouch() {
        guard finger != nil else { return }
        finger = nil
        touchStart = nil
        scrollView.touchCancelled(time: clock.now)
    }

    /// Advances physics and animations to the clock's time; call once per frame, before `render()`.
    public func step() {
        let now = clock.now
        frameTime = now
        scrollView.step(to: now)
        let top = scrollView.edgeEffect(.top).stretch
        edgeStretch = top != 0 ? top : scrollView.edgeEffect(.bottom).stretch
        endByThemselves(at: now)
        refreshControl.step(to: now)
        footer.step(to: now)
        animator.update(to: now)
        updateNavigationBar()
        if let due = tuning.saveDue, clock.base.now >= due { saveTuning() }
    }

    /// The simulator's automatic end: a refresh or a load that has run `autoEndDelay` ends. A refresh ends with
    /// `autoEndResult` and reloads the list's first page (the footer can load again); a load adds a page of rows,
    /// and once the list is full the footer has no more data.
    private func endByThemselves(at now: Double) {
        if refreshControl.state == .refreshing {
            let start = refreshStart ?? now
            refreshStart = start
            if autoEndsRefreshing && now - start >= Simulation.autoEndDelay {
                refreshControl.endRefreshing(result: autoEndResult, at: now)
                reloadFirstPage()
            }
        } else {
            refreshStart = nil
        }
        if footer.state == .refreshing {
            let start = loadStart ?? now
            loadStart = start
            if autoEndsRefreshing && now - start >= Simulation.autoEndDelay { finishLoad() }
        } else {
            loadStart = nil
        }
    }

    /// A refresh's new first page: the list back to its first rows, and the footer ready to load again.
    func reloadFirstPage() {
        footer.resetNoMoreData()
        guard list.rowCount != DemoList.firstPage else { return }
        list.reload()
        scrollView.contentSize = Size(phone.screenSize.width, list.contentHeight)
    }

    /// A load that came back: a page more of rows, or no more data once the list is full.
    func finishLoad() {
        let canGrow = list.loadMore()
        scrollView.contentSize = Size(phone.screenSize.width, list.contentHeight)
        if canGrow { footer.endRefreshing() } else { footer.endRefreshingWithNoMoreData() }
    }

    /// What an automatic end reports: the new items' message on a header that tells how many came, else success.
    var autoEndResult: RefreshResult {
        refreshControl.effect.reportsNewItems ? .message(newItemsMessage(in: refreshControl.language)) : .success
    }

    /// "12 new items" in `language`: what a refresh ended with a message (M) says.
    func newItemsMessage(in language: RefreshLanguage) -> String {
        let n = String(Simulation.newItemsPerRefresh)
        return language == .chinese ? "为你推荐" + n + "条新内容" : n + " new items"
    }

    /// What the simulation does until the next input: it keeps moving, or it stays still until a change scheduled
    /// at a time of the base clock (`.infinity` when none is).
    public enum Activity: Equatable, Sendable {
        /// Something moves without input (momentum, a bounce, an inset or layer animation, a toast fading, a
        /// refresh running): every frame differs from the last.
        case moving
        /// Nothing moves; the next change is due at this base-clock time (a toast starting to fade, say).
        case still(until: Double)
    }

    /// What moves now, and when the next change is due if nothing does. Paused, the simulation is still but for
    /// the toast, which lives on the base clock.
    var activity: Activity {
        let moving = scrollView.isAnimating || refreshControl.isAnimating || footer.state == .refreshing
            || animator.hasRunningAnimations
        if moving && !clock.isPaused { return .moving }
        let toastActivity = toast.activity(at: clock.base.now)
        guard case .still(var until) = toastActivity else { return toastActivity }
        // Tuned values waiting to be saved wake a still loop when their save is due, an arming's mark when it goes.
        if let due = tuning.saveDue { until = Swift.min(until, due) }
        if showsArmingMark(at: clock.base.now), let at = lastArmingAt {
            until = Swift.min(until, at + ArmingFeedback.markDuration)
        }
        return .still(until: until)
    }

    /// What the window's title says of the simulation (the frame loop adds its recordings).
    var statusFlags: Status {
        Status(effect: effectName, chinese: language == .chinese, android: phone.platform == .android,
               dark: appearance == .dark, autoEnd: autoEndsRefreshing,
               slow: clock.isSlow,
               paused: clock.isPaused, debug: showsDebugOverlay, frameGraph: showsFrameGraph, tuning: tuning.isOpen,
               help: showsHelp,
               noMoreData: footer.state == .noMoreData, overlaysInOutputs: includesOverlaysInOutputs)
    }

    /// The status as the title shows it, without the frame loop's recordings.
    public var status: String { statusFlags.title }

    /// Draws the phone into `canvas`: the list, header, footer and navigation bar (the header under the rows when
    /// its effect asks for it), their layers' presentation
    /// values at the time of the last step. Nothing of the simulator's own is drawn (see `renderOverlays()`), so
    /// that screenshots, frames and captures show the phone only.
    public func render() {
        let time = frameTime ?? clock.now
        let (contentToPixels, clip) = listTransform()
        let offset = scrollView.contentOffset
        let viewport = Rect(origin: offset, size: phone.listFrame.size)
        clearCanvas(rowsCovering: viewport, transform: contentToPixels, clip: clip)
        // A header that sits behind the content (four dots, inserted at index 0) is drawn first, so the rows'
        // opaque backgrounds cover it; the others are drawn over the rows.
        let headerBehind = refreshControl.metrics.drawsBehindContent
        if headerBehind { renderHeader(at: time, transform: contentToPixels, clip: clip) }
        list.draw(viewport: viewport, transform: contentToPixels, clip: clip, canvas: canvas,
                  rasterizer: renderer.rasterizer, appearance: appearance, text: renderer.loadTextRenderer())
        if !headerBehind { renderHeader(at: time, transform: contentToPixels, clip: clip) }
        footer.layer.render(into: canvas, at: time, transform: contentToPixels, clip: clip, renderer: renderer)
        renderNavigationBar(at: time)
        chrome.draw(into: canvas, rasterizer: renderer.rasterizer, text: renderer.loadTextRenderer())
    }

    /// Clears the canvas to the screen's background, but for the pixel rows that one list row's opaque background
    /// will cover whole, from edge to edge: those are written over whatever they held, so that clearing them first
    /// would only cost a pass over most of the screen, and the frame is the same pixel for pixel. Rows where two
    /// list rows meet (each covering part of a pixel) are cleared, as every other pixel is.
    private func clearCanvas(rowsCovering viewport: Rect, transform: AffineTransform, clip: Rect) {
        let background = Simulation.background.resolved(appearance)
        let width = canvas.width
        var cleared = 0
        // Only an upright scale and translation, and rows whose background is opaque and reaches both sides.
        let upright = transform.b == 0 && transform.c == 0 && transform.a > 0 && transform.d > 0
        let sides = (transform.apply(.zero).x, transform.apply(Point(list.width, 0)).x)
        if upright, list.isOpaque(in: appearance), clip.minX <= 0, clip.maxX >= Double(width), sides.0 <= 0,
           sides.1 >= Double(width) {
            list.forEachRowSpan(in: viewport) { top, bottom in
                // A margin of a hundredth of a pixel, so that rounding in the rasterizer never leaves a pixel row
                // counted here partly uncovered.
                let y0 = Swift.max(transform.apply(Point(0, top)).y, clip.minY) + Simulation.coverMargin
                let y1 = Swift.min(transform.apply(Point(0, bottom)).y, clip.maxY) - Simulation.coverMargin
                guard y0.isFinite, y1.isFinite else { return }
                let first = Swift.max(Int(y0.rounded(.up)), cleared), end = Swift.min(Int(y1.rounded(.down)), canvas.height)
                guard first < end else { return }
                canvas.clear(PixelBox(minX: 0, minY: cleared, maxX: width, maxY: first), to: background)
                cleared = end
            }
        }
        canvas.clear(PixelBox(minX: 0, minY: cleared, maxX: width, maxY: canvas.height), to: background)
    }

    /// How far inside a list row's edges, in pixels, a pixel row must lie to count as covered by it (chosen here).
    static let coverMargin = 0.01

    /// Shows the phone in `appearance`: the bar's, the list's and the footer's system colours, and the styles'
    /// variants for it (the tuning panel's rows with them). Allocates, as a change of style does; frames do not.
    private func applyAppearance() {
        colorBars()
        footer.appearance = appearance
        stylesRevision &+= 1
        applyStyles()
    }

    private func renderHeader(at time: Double, transform: AffineTransform, clip: Rect) {
        refreshControl.headerLayer.render(into: canvas, at: time, transform: transform, clip: clip, renderer: renderer)
        // Said as a file that cannot be read is: a toast and a line on standard error, once while it lasts.
        let lottie = refreshControl.effect as? LottieEffect
        let error = lottie?.renderError
        if error != headerRenderError {
            headerRenderError = error
            if let error {
                showToast("Animation frame not drawn whole", detail: error.description)
                FileLines.standardError("lottie header: \(error)")
            }
        }
        // An expression that failed draws its keyframes from then on; each is told once.
        for warning in lottie?.animation?.takeExpressionWarnings() ?? [] {
            showToast("Expression not run", detail: warning)
            FileLines.standardError("lottie header: \(warning)")
        }
    }

    /// Draws the simulator's overlays over the phone: the HUD of `frames` (when G shows it), the debug overlay, the
    /// tuning panel, the help and the toast.
    func renderOverlays(frames: HUD.Frames? = nil) {
        let (contentToPixels, clip) = listTransform()
        overlays.draw(self, time: frameTime ?? clock.now, contentToPixels: contentToPixels, listClip: clip,
                      frames: frames)
    }

    /// The transform from the list's content to canvas pixels, and the list's clip in pixels.
    private func listTransform() -> (AffineTransform, Rect) {
        let s = phone.scale
        let listFrame = phone.listFrame
        let offset = scrollView.contentOffset
        var contentToPixels = AffineTransform(translationX: -offset.x + listFrame.minX, y: -offset.y + listFrame.minY)
        // Android's stretch overscroll scales the list from the edge it is pulled at (docs/reference.md §5).
        let top = scrollView.edgeEffect(.top).stretch, bottom = scrollView.edgeEffect(.bottom).stretch
        if top != 0 || bottom != 0 {
            let edge = top != 0 ? listFrame.minY : listFrame.maxY
            contentToPixels = contentToPixels.concatenating(AffineTransform(translationX: 0, y: -edge))
                .concatenating(AffineTransform(scaleX: 1, y: 1 + (top != 0 ? top : bottom)))
                .concatenating(AffineTransform(translationX: 0, y: edge))
        }
        contentToPixels = contentToPixels.concatenating(AffineTransform(scaleX: s, y: s))
        let clip = Rect(x: listFrame.minX * s, y: listFrame.minY * s, width: listFrame.width * s, height: listFrame.height * s)
        return (contentToPixels, clip)
    }
}

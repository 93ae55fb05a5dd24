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

/// One simulated phone: its list in a scroll view, the refresh header and the load-more footer, the navigation bar
/// and the system's chrome, the animations on the lab's clock, and the canvas they are drawn into.
///
/// It knows nothing of the lab around it (keys, toasts, overlays, the tuning panel), so that a session can hold
/// more than one; what the lab must hear of, the phone says through callbacks.
public final class SimulatedPhone {
    /// What the phone shows. Only the setters (`setDevice(_:)`, `selectEffect(named:)`, `appearance`,
    /// `setLanguage(_:)`, `styles`, `loadAnimation(path:for:)`, and `describe(_:)` for every part) change it: each
    /// rebuilds what depends on the part it changes.
    public internal(set) var description: PhoneDescription
    /// The device shown: its model, bar and scale (`setDevice(_:)` changes it, and with it the canvas's size). Its
    /// model says the platform (`Phone.platform`; `setPlatform(_:)` switches it).
    public var device: Phone { description.device }
    /// The model each platform showed when the platform key last switched away from it (none: its default).
    var lastModels: [Platform: PhoneModel] = [:]
    /// How far Android's overscroll stretches the list at its edge, as a fraction of the list's height
    /// (EdgeEffect's stretch, docs/reference.md §5): 0 while the edge is not stretched, and on iOS, whose list
    /// moves past the edge instead. The trace's `stretch`.
    public internal(set) var edgeStretch = 0.0
    /// The lab's time, which the phone's physics and animations run on.
    public let clock: TimeControl
    public let scrollView: ScrollView
    let refreshControl = RefreshControl()
    /// The automatic load-more footer under the list's last row.
    public let footer = LoadMoreFooter()
    public internal(set) var list: DemoList
    /// The frame the phone draws into, `device.pixelWidth × device.pixelHeight`: a new one when the device's size
    /// changes.
    public internal(set) var canvas: Canvas
    /// Runs the header's and the footer's animations on `clock`.
    public let animator: Animator
    /// Draws every layer tree of the frame; it keeps its buffers from frame to frame.
    public let renderer = LayerRenderer()
    /// The name of the header's effect (`selectEffect(named:)` changes it).
    public var effectName: String { description.effect }
    /// The user's style files, merged: the physics and every effect take their values from them, at once and on
    /// every change, without a reset (none by default: docs/reference.md's values).
    var styles: StyleBook {
        get { description.styles ?? SimulatedPhone.noStyles }
        set {
            description.styles = newValue
            applyStyles()
        }
    }
    /// The styles without any file: every value the default.
    static let noStyles = StyleBook(catalog: StyleCatalog([]))
    /// Whether refreshes and loads end by themselves `Simulation.autoEndDelay` after they start.
    var autoEndsRefreshing = true
    /// The animations read for the headers that play files, by effect name: each from the file the description
    /// names for it, else the default (see `loadAnimation(path:for:)`).
    var headerAnimations: [String: HeaderAnimation] = [:]
    /// The second floor's picture, read from the description's floor; nil without a floor.
    private(set) var floorPicture: FloorPicture?
    /// The Lottie header's last error of a frame (a budget of work passed), so that it is told once, not per frame.
    private var headerRenderError: LottieRenderError?
    /// The floor's last error of a frame, told once.
    private var floorRenderError: LottieRenderError?
    /// Where the phone tells of a problem the user should see (a header's frame not drawn whole): a short text and
    /// its detail. The lab shows them in its toast.
    var reportProblem: (_ text: String, _ detail: String) -> Void = { _, _ in }
    /// The description's language, handed to the list, the header and the footer, which share this one holder.
    let languageSetting = LanguageSetting()
    public var language: RefreshLanguage { description.language }

    /// The standard bar (and a translucent one's hairline and title): a layer tree made for the device.
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
    /// The navigation bar's hairline, under its title.
    let navigationHairline = Layer()
    /// The frames this phone presented, for its own rate beside another phone.
    var presentations = Presentations()
    /// Whether the frame loop's last frame drew this phone (beside another phone of a lower refresh rate, not every
    /// frame does): the window sends only the canvases drawn.
    public internal(set) var isPresentedThisFrame = true
    /// The time of the last step: the frame is drawn at it.
    private(set) var frameTime: Double?
    /// Where the finger is on the screen while it is down, in points, and where it went down.
    public private(set) var finger: Point?
    private var touchStart: Point?
    /// When the running refresh and the running load started, for the automatic end.
    private var refreshStart: Double?
    private var loadStart: Double?
    /// The phone's appearance: the system colours of the list, bars and footer, and the header's style in its
    /// variant for it. Light by default.
    public var appearance: Appearance {
        get { description.appearance }
        set {
            guard newValue != description.appearance else { return }
            description.appearance = newValue
            applyAppearance()
        }
    }
    /// How many times a pull has armed the header (`RefreshControl.cue`): each a haptic and an announcement.
    public private(set) var armingCount = 0
    /// When the last arming happened, on the base clock: its mark shows for `ArmingFeedback.markDuration`.
    private(set) var lastArmingAt: Double?
    /// Who hears of the header's and the footer's state changes and of each arming as they happen, in the order
    /// they asked (`observeChanges`): the control and the footer have one callback each, which the phone keeps.
    private var headerStateObservers: [(RefreshState, RefreshState) -> Void] = []
    private var footerStateObservers: [(RefreshState, RefreshState) -> Void] = []
    private var armingObservers: [() -> Void] = []

    /// The screen behind the list (docs/reference.md §6).
    static let background = SystemColor.secondarySystemBackground

    /// Builds the phone `description` says, on `clock`.
    ///
    /// - Throws: `LabError` when an animation file it names cannot be read.
    convenience init(description: PhoneDescription, clock: TimeControl) throws {
        self.init(device: description.device, clock: clock)
        try describe(description)
    }

    /// Builds a phone of `device` with every other part of the description at its default.
    init(device: Phone, clock: TimeControl) {
        description = PhoneDescription(device: device)
        self.clock = clock
        clock.frameDuration = 1 / device.refreshRate
        animator = Animator(clock: clock)
        list = DemoList(rowCount: DemoList.firstPage, capacity: 200, width: device.screenSize.width)
        scrollView = ScrollView(boundsSize: device.listFrame.size,
                                contentSize: Size(device.screenSize.width, list.contentHeight))
        scrollView.safeAreaInsets = device.listSafeArea
        SimulatedPhone.givePhysics(of: device, to: scrollView, replacing: nil)
        // The list starts at its top, below the safe area, as a scroll view laid out under bars does.
        scrollView.setContentOffset(Point(0, -scrollView.adjustedContentInset.top))
        canvas = Canvas(width: device.pixelWidth, height: device.pixelHeight, fill: SimulatedPhone.background.light)
        navigationBar = SimulatedPhone.makeNavigationBar(device, title: navigationTitle, hairline: navigationHairline)
        chrome = PhoneChrome(phone: device)
        navigationBarBottom = device.navigationBarHeight
        navigationTitle.string = SimulatedPhone.titles[.english] ?? ""
        refreshControl.headerLayer.animator = animator
        footer.layer.animator = animator
        refreshControl.languageSetting = languageSetting
        footer.languageSetting = languageSetting
        list.languageSetting = languageSetting
        refreshControl.attach(to: scrollView)
        footer.attach(to: scrollView)
        selectEffect(named: description.effect)
        updateNavigationBar()
        refreshControl.stateDidChange = { [unowned self] old, new in
            for observer in headerStateObservers { observer(old, new) }
        }
        footer.stateDidChange = { [unowned self] old, new in
            for observer in footerStateObservers { observer(old, new) }
        }
        refreshControl.cue = { [unowned self] in
            for observer in armingObservers { observer() }
        }
        observeChanges(arming: { [unowned self] in
            armingCount += 1
            lastArmingAt = self.clock.base.now
        })
    }

    /// Calls `header` at each state change of the header, `footer` at each of the footer, and `arming` each time a
    /// pull arms the header, as they happen, after those who asked before.
    func observeChanges(header: ((RefreshState, RefreshState) -> Void)? = nil,
                        footer: ((RefreshState, RefreshState) -> Void)? = nil, arming: (() -> Void)? = nil) {
        if let header { headerStateObservers.append(header) }
        if let footer { footerStateObservers.append(footer) }
        if let arming { armingObservers.append(arming) }
    }

    /// Whether the last arming's mark shows at `time` (base clock).
    func showsArmingMark(at time: Double) -> Bool {
        guard let at = lastArmingAt else { return false }
        return time >= at && time < at + ArmingFeedback.markDuration
    }

    /// Shows the effect registered under `name` in the header, made new even when it is the one shown; false (and
    /// no change) when there is none.
    @discardableResult
    func selectEffect(named name: String) -> Bool {
        guard let effect = RefreshEffects.make(name) else { return false }
        applyStyle(to: effect, named: name)
        giveAnimation(to: effect, named: name)
        // Named after the switch: the old header's last change (back to idle) is told under the old name.
        refreshControl.setEffect(effect, named: name)
        description.effect = name
        return true
    }

    /// Shows what `new` describes: each part that differs from the description now is set as its own setter
    /// sets it (the device first, as a new device remakes the list and the bar that the others then colour).
    ///
    /// - Throws: `LabError` when an animation file `new` names cannot be read; the parts before it are shown.
    func describe(_ new: PhoneDescription) throws {
        setDevice(new.device)
        if new.language != language { setLanguage(new.language) }
        appearance = new.appearance
        if new.styles != nil || description.styles != nil { styles = new.styles ?? SimulatedPhone.noStyles }
        for effect in Set(description.animationFiles.keys).union(new.animationFiles.keys).sorted()
        where new.animationFiles[effect] != description.animationFiles[effect] {
            try loadAnimation(path: new.animationFiles[effect], for: effect)
        }
        if new.effect != effectName { selectEffect(named: new.effect) }
        if new.floor != description.floor { try setFloor(new.floor) }
    }

    /// Gives the header a second floor showing `source`, with the styles' `floor` section, or takes it away (nil).
    /// A header that floats over the list keeps the floor in its description but cannot open it
    /// (`RefreshControl.hasSecondFloor`).
    ///
    /// - Throws: `LabError` naming the file when it cannot be read; the phone keeps the floor it had.
    /// `reading`: the file is read again even when it is the one shown (it changed on disk).
    func setFloor(_ source: FloorSource?, reading: Bool = false) throws {
        floorPicture = try source.map { source in
            if let picture = floorPicture, picture.source == source, !reading { return picture }
            return try FloorPicture.load(source)
        }
        description.floor = source
        applyFloorStyle()
    }

    /// The navigation bar's title in each language, as a mail app's inbox.
    static let titles: [RefreshLanguage: String] = [.english: "Inbox", .chinese: "收件箱"]
    /// The title's size: UIKit's navigation bar title is 17 pt.
    static let titleFontSize = 17.0

    static func makeNavigationBar(_ device: Phone, title: TextLayer, hairline: Layer) -> Layer {
        let height = device.figures.statusBarHeight + device.barHeight, colors = barColors(device)
        let bar = Layer(frame: Rect(x: 0, y: 0, width: device.screenSize.width, height: height))
        // A translucent bar's blurred, tinted backdrop is drawn under the layer (`renderNavigationBar`).
        bar.backgroundColor = device.bar == .translucent ? .clear : colors.bar.light
        hairline.frame = Rect(x: 0, y: height - 0.5, width: device.screenSize.width, height: 0.5)
        hairline.backgroundColor = colors.hairline.light
        bar.addSublayer(hairline)
        if device.platform == .android {
            // Material's top app bar: the title at the left, 16 dp in, centred in the bar's 64 dp.
            title.frame = Rect(x: appBarTitleInset, y: device.figures.statusBarHeight,
                               width: device.screenSize.width - 2 * appBarTitleInset, height: device.barHeight)
            title.fontSize = appBarTitleSize
            title.alignmentMode = .left
        } else {
            // The title is centred in the 44 pt bar under the status bar.
            title.frame = Rect(x: 0, y: device.figures.statusBarHeight, width: device.screenSize.width,
                               height: device.barHeight)
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

    /// The bar's colours on `device`'s platform: iOS's bar, hairline and title (docs/reference.md §6); on Android
    /// Material 3's top app bar, `surface` under `onSurface`, with no hairline (§5).
    static func barColors(_ device: Phone) -> (bar: DynamicColor, hairline: DynamicColor, title: DynamicColor) {
        guard device.platform == .android else {
            return (SystemColor.navigationBar, SystemColor.navigationBarHairline, SystemColor.navigationTitle)
        }
        return (MaterialColor.surface, DynamicColor(light: .clear, dark: .clear), MaterialColor.onSurface)
    }

    /// Applies a touch or the wheel at `time` on the phone's clock; points are in screen coordinates.
    func handle(_ event: InputEvent, at time: Double) {
        switch event {
        case .touchDown(let p):
            // While the second floor holds the list, only a touch in its bottom strip reaches it.
            let listFrame = device.listFrame
            guard refreshControl.acceptsTouch(atListY: p.y - listFrame.minY, height: listFrame.height) else { return }
            finger = p
            touchStart = p
            scrollView.touchBegan(at: p, time: time)
        case .touchMove(let p):
            guard finger != nil else { return }
            finger = p
            scrollView.touchMoved(to: p, time: time)
        case .touchUp(let p):
            guard finger != nil else { return }
            finger = nil
            scrollView.touchEnded(at: p, time: time)
            if let start = touchStart, (p - start).length < SimulatedPhone.tapSlop { tap(at: p) }
            touchStart = nil
        case .wheel(let delta, _):
            guard !refreshControl.state.holdsFloor else { return }
            scrollView.scrollWheel(by: delta, time: time)
        }
    }

    /// How far a finger may move between down and up for a tap, in points. Not from docs/reference.md: about UIKit's
    /// tap recognizer's allowance.
    static let tapSlop = 10.0

    /// A tap at `point` on the screen: on the status bar or the navigation bar it scrolls the list to its top
    /// (iOS's scrollsToTop, which the status bar takes with no navigation bar too); on the footer it loads more.
    private func tap(at point: Point) {
        if point.y < Swift.max(navigationBarBottom, device.figures.statusBarHeight) {
            let top = Point(scrollView.contentOffset.x, -scrollView.adjustedContentInset.top)
            if scrollView.contentOffset.y > top.y { scrollView.setContentOffset(top, animated: true) }
            return
        }
        let contentY = point.y - device.listFrame.minY + scrollView.contentOffset.y
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

    /// Advances physics and animations to the clock's time; once per frame, before `render()`.
    func step() {
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
        scrollView.contentSize = Size(device.screenSize.width, list.contentHeight)
    }

    /// Shows the list as `other` shows it: as many rows, the footer out of data or not, and scrolled to the same
    /// place (where it rests, for a list in motion), so that a copy of a phone starts where it is.
    func showList(as other: SimulatedPhone) {
        list.reload(rowCount: other.list.rowCount)
        scrollView.contentSize = Size(device.screenSize.width, list.contentHeight)
        if other.footer.state == .noMoreData { footer.endRefreshingWithNoMoreData() }
        let top = -scrollView.adjustedContentInset.top
        let bottom = Swift.max(top, scrollView.contentSize.height - scrollView.boundsSize.height
            + scrollView.adjustedContentInset.bottom)
        scrollView.setContentOffset(Point(0, Swift.min(Swift.max(other.scrollView.contentOffset.y, top), bottom)))
    }

    /// A load that came back: a page more of rows, or no more data once the list is full.
    func finishLoad() {
        let canGrow = list.loadMore()
        scrollView.contentSize = Size(device.screenSize.width, list.contentHeight)
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

    /// Whether something on the phone moves without input: momentum, a bounce, an inset or layer animation, a
    /// load under way.
    var isMoving: Bool {
        scrollView.isAnimating || refreshControl.isAnimating || footer.state == .refreshing
            || animator.hasRunningAnimations
    }

    /// Switches the list, the header, the footer and the bar's title to `newLanguage`.
    func setLanguage(_ newLanguage: RefreshLanguage) {
        description.language = newLanguage
        languageSetting.current = newLanguage
        navigationTitle.string = SimulatedPhone.titles[newLanguage] ?? ""
    }

    /// Draws the phone into `canvas`: the list, header, footer and navigation bar (the header under the rows when
    /// its effect asks for it), their layers' presentation values at the time of the last step.
    ///
    /// The frame's fills are one batch, drawn on the renderer's threads (`Rasterizer.beginBands`); whatever reads
    /// the canvas's pixels in between (glyphs, images, blurs) first has the fills before it drawn.
    func render() {
        renderer.rasterizer.beginBands()
        defer { renderer.rasterizer.drawBands() }
        let time = frameTime ?? clock.now
        let (contentToPixels, clip) = listTransform()
        let offset = scrollView.contentOffset
        let viewport = Rect(origin: offset, size: device.listFrame.size)
        clearCanvas(rowsCovering: viewport, transform: contentToPixels, clip: clip)
        renderFloor(at: time)
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
        let background = SimulatedPhone.background.resolved(appearance)
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
                let y0 = Swift.max(transform.apply(Point(0, top)).y, clip.minY) + SimulatedPhone.coverMargin
                let y1 = Swift.min(transform.apply(Point(0, bottom)).y, clip.maxY) - SimulatedPhone.coverMargin
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
    /// variants for it. Allocates, as a change of style does; frames do not.
    private func applyAppearance() {
        colorBars()
        footer.appearance = appearance
        applyStyles()
    }

    /// Draws the second floor where the list has slid down from its top: between the list's top and the content's,
    /// under the header. Nothing while the list covers it.
    private func renderFloor(at time: Double) {
        guard let floorPicture, let floor = refreshControl.secondFloor, refreshControl.hasSecondFloor else { return }
        let listFrame = device.listFrame, s = device.scale
        let contentTop = Swift.min(listFrame.minY - scrollView.contentOffset.y, listFrame.maxY)
        guard contentTop > listFrame.minY else { return }
        let control = refreshControl
        let moment: FloorMoment
        if control.state.holdsFloor {
            moment = .open(time - control.floorOpenedAt)
        } else {
            let ratio = control.distance / control.triggerDistance
            moment = .revealing((ratio - floor.refreshRate) / Swift.max(floor.floorRate - floor.refreshRate, 1e-9))
        }
        let clip = Rect(x: listFrame.minX * s, y: listFrame.minY * s, width: listFrame.width * s,
                        height: (contentTop - listFrame.minY) * s)
        floorPicture.render(into: canvas, screen: device.screenSize, scale: s, moment: moment, time: time,
                            language: language, clip: clip, renderer: renderer)
        if let error = floorPicture.renderError, error != floorRenderError {
            reportProblem("Floor frame not drawn whole", error.description)
            FileLines.standardError("floor: \(error)")
        }
        floorRenderError = floorPicture.renderError
    }

    private func renderHeader(at time: Double, transform: AffineTransform, clip: Rect) {
        refreshControl.headerLayer.render(into: canvas, at: time, transform: transform, clip: clip, renderer: renderer)
        // Said as a file that cannot be read is: a toast and a line on standard error, once while it lasts.
        let lottie = refreshControl.effect as? LottieEffect
        let error = lottie?.renderError
        if error != headerRenderError {
            headerRenderError = error
            if let error {
                reportProblem("Animation frame not drawn whole", error.description)
                FileLines.standardError("lottie header: \(error)")
            }
        }
        // An expression that failed draws its keyframes from then on; each is told once.
        for warning in lottie?.animation?.takeExpressionWarnings() ?? [] {
            reportProblem("Expression not run", warning)
            FileLines.standardError("lottie header: \(warning)")
        }
    }

    /// The transform from the list's content to canvas pixels, and the list's clip in pixels.
    func listTransform() -> (AffineTransform, Rect) {
        let s = device.scale
        let listFrame = device.listFrame
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

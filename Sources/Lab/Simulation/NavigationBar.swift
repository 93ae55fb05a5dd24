import Scrolling
import Colors
import Geometry
import Raster
import Refresh
import Text

extension SimulatedPhone {
    /// The large title's size: UIKit's 34 pt large title (docs/reference.md §6).
    static let largeTitleSize = 34.0
    /// How far below the band's top the large title's baseline sits when the band is whole, in points (chosen here:
    /// the title sits low in its 52 pt band, as UIKit's does).
    static let largeTitleBaseline = 41.0
    /// The translucent bar's tint over the blurred list: the standard bar's colour, lighter (chosen here), in each
    /// appearance.
    static let translucentBarColor = DynamicColor(light: Color(rgb: 248, 248, 248, alpha: 0.75),
                                                  dark: Color(rgb: 18, 18, 18, alpha: 0.75))
    /// The blur's radius under a translucent bar, in points (chosen here: a soft frost at every scale).
    static let backdropBlurRadius = 10.0

    /// Shows another device (model, bar or scale): the canvas, the list's frame and width, the safe area and the bar
    /// are made for it; the scroll view keeps its offset from the content's resting place, the header its state.
    func setDevice(_ newDevice: Phone) {
        guard newDevice != device else { return }
        let old = device
        // The offset from the top's resting place: kept, so that a list scrolled down stays scrolled as far.
        let fromTop = scrollView.contentOffset.y + scrollView.adjustedContentInset.top
        description.device = newDevice
        clock.frameDuration = 1 / newDevice.refreshRate
        if newDevice.pixelWidth != old.pixelWidth || newDevice.pixelHeight != old.pixelHeight {
            canvas = Canvas(width: newDevice.pixelWidth, height: newDevice.pixelHeight,
                            fill: SimulatedPhone.background.resolved(appearance))
        }
        if newDevice.screenSize.width != old.screenSize.width {
            let rows = list.rowCount
            list = DemoList(rowCount: rows, capacity: list.capacity, width: newDevice.screenSize.width)
            list.languageSetting = languageSetting
        }
        navigationBar = SimulatedPhone.makeNavigationBar(newDevice, title: navigationTitle, hairline: navigationHairline)
        chrome = PhoneChrome(phone: newDevice)
        colorBars()
        largeTitles = [:]
        scrollView.boundsSize = newDevice.listFrame.size
        scrollView.contentSize = Size(newDevice.screenSize.width, list.contentHeight)
        scrollView.safeAreaInsets = newDevice.listSafeArea
        SimulatedPhone.givePhysics(of: newDevice, to: scrollView, replacing: old)
        if !scrollView.isAnimating && finger == nil {
            scrollView.setContentOffset(Point(scrollView.contentOffset.x, fromTop - scrollView.adjustedContentInset.top))
        }
        updateNavigationBar()
    }

    /// Gives the list the physics of `device`'s platform (iOS's, or Android's fling, slop and edge effects, with the
    /// refresh control taking a pull past the top first: `RefreshControl`), measured in that device's pixels, when
    /// the device it `replaces` (none: a new list) ran another platform. On Android the density is the model's (the
    /// Pixel's 2.625 px per dp, whatever `--scale` draws at); iOS keeps the scroll view's 2 px per point, so that its
    /// bounces settle as they always have.
    static func givePhysics(of device: Phone, to scrollView: ScrollView, replacing old: Phone?) {
        scrollView.displayScale = device.platform == .android ? device.figures.scale : ScrollView.iOSDisplayScale
        if device.platform != old?.platform { scrollView.usePhysics(of: device.platform) }
    }

    /// Shows `platform`'s phone: the model it showed last in this session, else its default (iOS's lab phone, the
    /// Pixel 8 on Android), under the same bar. The list stays scrolled as far from its top as it was; a pull, a
    /// bounce or a fling under way stops there (the other platform's physics would not carry it on), and the
    /// header returns to idle.
    func setPlatform(_ platform: Platform) {
        guard platform != device.platform else { return }
        lastModels[device.platform] = device.model
        cancelTouch()
        let fromTop = Swift.max(0, scrollView.contentOffset.y + scrollView.adjustedContentInset.top)
        if refreshControl.state != .idle { refreshControl.reset() }
        scrollView.setContentOffset(scrollView.contentOffset)
        setDevice(Phone(model: lastModels[platform] ?? platform.defaultModel, bar: device.bar))
        guard !scrollView.isAnimating else { return }
        let top = -scrollView.adjustedContentInset.top
        let bottom = scrollView.contentSize.height + scrollView.adjustedContentInset.bottom - scrollView.boundsSize.height
        scrollView.setContentOffset(Point(scrollView.contentOffset.x, Swift.min(top + fromTop, Swift.max(top, bottom))))
        updateNavigationBar()
    }

    /// Gives the bar, its hairline and title, and the status bar's content the colours of the appearance shown: a
    /// translucent bar's layer stays clear over its backdrop, and the status bar's content is dark on a light
    /// appearance, light on a dark one.
    func colorBars() {
        let colors = SimulatedPhone.barColors(device)
        navigationBar.backgroundColor = device.bar == .translucent ? .clear : colors.bar.resolved(appearance)
        navigationHairline.backgroundColor = colors.hairline.resolved(appearance)
        navigationTitle.foregroundColor = colors.title.resolved(appearance)
        chrome.style = appearance == .dark ? .lightContent : .darkContent
    }

    /// How far the list is pulled down past its resting top (negative: scrolled up), without the header's inset.
    var pullPastTop: Double {
        -(scrollView.contentOffset.y + scrollView.adjustedContentInset.top - refreshControl.addedInset)
    }

    /// The large title's band now, in points (docs/reference.md §6): whole (52) while the list rests at its top,
    /// shrinking point for point as the list scrolls up, to nothing 52 pt up; stretched point for point by a pull
    /// past the header's refreshing inset, so that the header stays whole below the bar. While the content sits
    /// between its top and that inset (a pull revealing the header, a refresh holding it) the band stays whole:
    /// a refresh that starts or ends moves the content inside that range, and the bar does not move.
    static func largeTitleBand(pull: Double, headerInset: Double) -> Double {
        let band = BarStyle.largeTitleBand
        if pull < 0 { return Swift.max(0, band + pull) }
        return band + Swift.max(0, pull - headerInset)
    }

    /// The navigation bar's height now, without the status bar, in points (the trace's `barHeight`).
    var navigationBarHeight: Double {
        device.bar == .none ? 0 : navigationBarBottom - device.figures.statusBarHeight
    }

    /// Works out the bar's bottom edge for this frame.
    func updateNavigationBar() {
        guard device.bar == .large else {
            navigationBarBottom = device.navigationBarHeight
            return
        }
        // The open second floor holds the list down by its inset as a refresh holds it by the header's: no pull, and
        // the band stays whole over the floor.
        let control = refreshControl
        let held = control.state.holdsFloor ? Swift.max(control.addedInset, control.metrics.refreshingInset)
            : control.metrics.refreshingInset
        let band = SimulatedPhone.largeTitleBand(pull: pullPastTop, headerInset: held)
        navigationBarBottom = device.figures.statusBarHeight + device.barHeight + band
    }

    /// Draws the bar of the phone's style over the list: the standard layer tree; a large title's bar down to its
    /// band's bottom with the title in the band; a translucent bar's blurred backdrop under the layer tree's
    /// hairline and title; nothing without a bar.
    func renderNavigationBar(at time: Double) {
        let s = device.scale
        let points = AffineTransform(scaleX: s, y: s)
        switch device.bar {
        case .standard:
            navigationBar.render(into: canvas, at: time, transform: points, renderer: renderer)
        case .translucent:
            let bottom = Int((navigationBarBottom * s).rounded())
            backdrop.blur(canvas, rows: bottom, radius: Int((SimulatedPhone.backdropBlurRadius * s).rounded()),
                          tint: SimulatedPhone.translucentBarColor.resolved(appearance))
            navigationBar.render(into: canvas, at: time, transform: points, renderer: renderer)
        case .large:
            let width = device.screenSize.width
            // Opaque, as the standard bar is: its colour over the screen's background, which the list and the
            // header under the band do not show through.
            let bar = Rect(x: 0, y: 0, width: width, height: navigationBarBottom)
            let colors = SimulatedPhone.barColors(device)
            fillScreenRect(bar, color: SimulatedPhone.background.resolved(appearance))
            fillScreenRect(bar, color: colors.bar.resolved(appearance))
            fillScreenRect(Rect(x: 0, y: navigationBarBottom - 0.5, width: width, height: 0.5),
                           color: colors.hairline.resolved(appearance))
            let bandTop = device.figures.statusBarHeight + device.barHeight
            let band = navigationBarBottom - bandTop
            guard let text = renderer.loadTextRenderer() else { return }
            if band < 1 {
                // Collapsed: the small title in the bar, as UIKit shows it once the large one has scrolled away.
                navigationBar.sublayers.last?.render(into: canvas, at: time, transform: points, renderer: renderer)
                return
            }
            let line = largeTitle(text)
            // The title rides on the band's bottom edge, clipped to the band as it collapses.
            let baseline = navigationBarBottom - BarStyle.largeTitleBand + SimulatedPhone.largeTitleBaseline
            let clip = Rect(x: 0, y: bandTop * s, width: width * s, height: band * s)
            text.draw(line, at: Point(DemoList.margin, baseline), color: colors.title.resolved(appearance), scale: s, clip: clip,
                      into: canvas)
        case .none:
            break
        }
    }

    /// The large title in the list's language, laid out on its first showing.
    private func largeTitle(_ text: TextRenderer) -> TextLine {
        if let line = largeTitles[language] { return line }
        let line = text.layout(SimulatedPhone.titles[language] ?? "", size: SimulatedPhone.largeTitleSize)
        largeTitles[language] = line
        return line
    }

    /// Fills a rectangle of the screen (points) with `color`, source-over, through the unit square scaled onto it,
    /// so that no path is made per frame.
    private func fillScreenRect(_ r: Rect, color: Color) {
        let s = device.scale
        let t = AffineTransform(scaleX: r.width * s, y: r.height * s)
            .concatenating(AffineTransform(translationX: r.minX * s, y: r.minY * s))
        renderer.rasterizer.fill(SimulatedPhone.unitSquare, transform: t, color: color, into: canvas)
    }

    static let unitSquare = Path.rect(Rect(x: 0, y: 0, width: 1, height: 1))
}

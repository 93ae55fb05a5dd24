import Scrolling
import Colors
import Geometry
import Raster
import Refresh
import Text

extension Simulation {
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

    /// Shows another phone (model, bar or scale): the canvas, the list's frame and width, the safe area and the bar
    /// are made for it; the scroll view keeps its offset from the content's resting place, the header its state.
    public func setPhone(_ newPhone: Phone) {
        guard newPhone != phone else { return }
        let old = phone
        // The offset from the top's resting place: kept, so that a list scrolled down stays scrolled as far.
        let fromTop = scrollView.contentOffset.y + scrollView.adjustedContentInset.top
        phone = newPhone
        clock.frameDuration = 1 / newPhone.refreshRate
        if newPhone.pixelWidth != old.pixelWidth || newPhone.pixelHeight != old.pixelHeight {
            canvas = Canvas(width: newPhone.pixelWidth, height: newPhone.pixelHeight,
                            fill: Simulation.background.resolved(appearance))
            sideCanvas = nil
        }
        if newPhone.screenSize.width != old.screenSize.width {
            let rows = list.rowCount
            list = DemoList(rowCount: rows, capacity: list.capacity, width: newPhone.screenSize.width)
            list.languageSetting = languageSetting
        }
        navigationBar = Simulation.makeNavigationBar(newPhone, title: navigationTitle, hairline: navigationHairline)
        chrome = PhoneChrome(phone: newPhone)
        colorBars()
        largeTitles = [:]
        scrollView.boundsSize = newPhone.listFrame.size
        scrollView.contentSize = Size(newPhone.screenSize.width, list.contentHeight)
        scrollView.safeAreaInsets = newPhone.listSafeArea
        Simulation.givePhysics(of: newPhone, to: scrollView)
        if !scrollView.isAnimating && finger == nil {
            scrollView.setContentOffset(Point(scrollView.contentOffset.x, fromTop - scrollView.adjustedContentInset.top))
        }
        updateNavigationBar()
    }

    /// Gives the list the physics of `phone`'s platform (iOS's, or Android's fling, slop and edge effects, with the
    /// refresh control taking a pull past the top first: `RefreshControl`), measured in that phone's pixels. On
    /// Android the density is the model's (the Pixel's 2.625 px per dp, whatever `--scale` draws at); iOS keeps the
    /// scroll view's 2 px per point, so that its bounces settle as they always have.
    static func givePhysics(of phone: Phone, to scrollView: ScrollView) {
        if scrollView.platform != phone.platform { scrollView.platform = phone.platform }
        scrollView.displayScale = phone.platform == .android ? phone.figures.scale : ScrollView.iOSDisplayScale
    }

    /// Shows `platform`'s phone: the model it showed last in this session, else its default (iOS's lab phone, the
    /// Pixel 8 on Android), under the same bar. The list stays scrolled as far from its top as it was; a pull, a
    /// bounce or a fling under way stops there (the other platform's physics would not carry it on), and the
    /// header returns to idle.
    public func setPlatform(_ platform: Platform) {
        guard platform != phone.platform else { return }
        lastModels[phone.platform] = phone.model
        cancelTouch()
        let fromTop = Swift.max(0, scrollView.contentOffset.y + scrollView.adjustedContentInset.top)
        if refreshControl.state != .idle { refreshControl.reset() }
        scrollView.setContentOffset(scrollView.contentOffset)
        setPhone(Phone(model: lastModels[platform] ?? platform.defaultModel, bar: phone.bar))
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
        let colors = Simulation.barColors(phone)
        navigationBar.backgroundColor = phone.bar == .translucent ? .clear : colors.bar.resolved(appearance)
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
    public var navigationBarHeight: Double {
        phone.bar == .none ? 0 : navigationBarBottom - phone.figures.statusBarHeight
    }

    /// Works out the bar's bottom edge for this frame.
    func updateNavigationBar() {
        guard phone.bar == .large else {
            navigationBarBottom = phone.navigationBarHeight
            return
        }
        let band = Simulation.largeTitleBand(pull: pullPastTop, headerInset: refreshControl.metrics.refreshingInset)
        navigationBarBottom = phone.figures.statusBarHeight + phone.barHeight + band
    }

    /// Draws the bar of the phone's style over the list: the standard layer tree; a large title's bar down to its
    /// band's bottom with the title in the band; a translucent bar's blurred backdrop under the layer tree's
    /// hairline and title; nothing without a bar.
    func renderNavigationBar(at time: Double) {
        let s = phone.scale
        let points = AffineTransform(scaleX: s, y: s)
        switch phone.bar {
        case .standard:
            navigationBar.render(into: canvas, at: time, transform: points, renderer: renderer)
        case .translucent:
            let bottom = Int((navigationBarBottom * s).rounded())
            backdrop.blur(canvas, rows: bottom, radius: Int((Simulation.backdropBlurRadius * s).rounded()))
            fillScreenRect(Rect(x: 0, y: 0, width: phone.screenSize.width, height: navigationBarBottom),
                           color: Simulation.translucentBarColor.resolved(appearance))
            navigationBar.render(into: canvas, at: time, transform: points, renderer: renderer)
        case .large:
            let width = phone.screenSize.width
            // Opaque, as the standard bar is: its colour over the screen's background, which the list and the
            // header under the band do not show through.
            let bar = Rect(x: 0, y: 0, width: width, height: navigationBarBottom)
            let colors = Simulation.barColors(phone)
            fillScreenRect(bar, color: Simulation.background.resolved(appearance))
            fillScreenRect(bar, color: colors.bar.resolved(appearance))
            fillScreenRect(Rect(x: 0, y: navigationBarBottom - 0.5, width: width, height: 0.5),
                           color: colors.hairline.resolved(appearance))
            let bandTop = phone.figures.statusBarHeight + phone.barHeight
            let band = navigationBarBottom - bandTop
            guard let text = renderer.loadTextRenderer() else { return }
            if band < 1 {
                // Collapsed: the small title in the bar, as UIKit shows it once the large one has scrolled away.
                navigationBar.sublayers.last?.render(into: canvas, at: time, transform: points, renderer: renderer)
                return
            }
            let line = largeTitle(text)
            // The title rides on the band's bottom edge, clipped to the band as it collapses.
            let baseline = navigationBarBottom - BarStyle.largeTitleBand + Simulation.largeTitleBaseline
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
        let line = text.layout(Simulation.titles[language] ?? "", size: Simulation.largeTitleSize)
        largeTitles[language] = line
        return line
    }

    /// Fills a rectangle of the screen (points) with `color`, source-over, through the unit square scaled onto it,
    /// so that no path is made per frame.
    private func fillScreenRect(_ r: Rect, color: Color) {
        let s = phone.scale
        let t = AffineTransform(scaleX: r.width * s, y: r.height * s)
            .concatenating(AffineTransform(translationX: r.minX * s, y: r.minY * s))
        renderer.rasterizer.fill(Simulation.unitSquare, transform: t, color: color, into: canvas)
    }

    static let unitSquare = Path.rect(Rect(x: 0, y: 0, width: 1, height: 1))
}

/// What shows through a translucent bar: the canvas's top rows blurred, on premultiplied channels, as a box
/// `2 × radius + 1` pixels wide run twice each way (close to a Gaussian). A blur that wide keeps nothing finer than
/// a fifth of its radius, so it is worked on a coarser grid: the rows are averaged in cells of `factor` × `factor`
/// pixels, the cells are blurred by a box of the same width in pixels (a whole number of cells and a fraction of one
/// at each end, with running sums: the same cost whatever the radius), and each pixel is put back between the four
/// cells around it. Past an edge the last row or column is repeated, as a box blur clamped at the edges reads it:
/// one more cell on each side holds it. The buffers are made for the largest strip seen and kept, so a frame
/// allocates nothing.
final class BackdropBlur {
    /// A cell: its premultiplied blue, green, red and alpha, in 0…255.
    typealias Cell = SIMD4<Float>

    /// The cells, one more on each side than the strip needs, and a second set for the passes to go back and forth.
    private var cells = Buffer<Cell>(), passed = Buffer<Cell>()
    /// The running sums of the cell rows' vertical pass, one per column of cells.
    private var sums = Buffer<Cell>()
    /// Down columns of the strip, the sum of `factor` rows' pixels: blue and red, green and alpha, in 16-bit lanes.
    private var blueRed = Buffer<UInt32>(), greenAlpha = Buffer<UInt32>()
    /// Every row of cells at the canvas's width, as pixels; each canvas row lies between two of them.
    private var wide = Buffer<UInt32>()
    /// For each pixel of a row: the cell at its left and how far its centre lies past that cell's.
    private var leftCell = Buffer<Int32>(), pastLeft = Buffer<Float>()

    /// The side of a cell, in pixels, for a blur of `radius` pixels (chosen here): a fifth of the radius, so that
    /// the blur spans about ten cells; at most 6 pixels, and 1 (the blur at the canvas's own pixels) for a radius
    /// under 10. The cells' own averaging and the interpolation between them blur by much less than the box.
    static func factor(radius: Int) -> Int { Swift.max(1, Swift.min(6, radius / 5)) }

    /// Blurs rows `0..<rows` of `canvas` with a box `2 × radius + 1` pixels wide, twice each way.
    func blur(_ canvas: Canvas, rows: Int, radius: Int) {
        let w = canvas.width, h = Swift.min(rows, canvas.height)
        guard h > 1, radius > 0 else { return }
        let f = BackdropBlur.factor(radius: radius)
        // The strip's cells and one more on each side.
        let cw = (w + f - 1) / f + 2, ch = (h + f - 1) / f + 2
        cells.reserve(cw * ch)
        passed.reserve(cw * ch)
        sums.reserve(cw)
        blueRed.reserve(w)
        greenAlpha.reserve(w)
        wide.reserve(w * ch)
        leftCell.reserve(w)
        pastLeft.reserve(w)
        average(canvas.pixels, width: w, height: h, factor: f, cellsWide: cw, cellsHigh: ch)
        // The box in cells: 2r + 1 whole ones and `part` of one more at each end, as wide as 2 × radius + 1 pixels.
        let boxWidth = Float(2 * radius + 1) / Float(f)
        let r = Int((boxWidth - 1) / 2)
        let part = (boxWidth - Float(2 * r + 1)) / 2
        for _ in 0..<2 {
            for j in 0..<ch {
                BackdropBlur.rowPass(cells.base + j * cw, into: passed.base + j * cw, count: cw, radius: r, part: part,
                                     width: boxWidth)
            }
            columnPass(cellsWide: cw, cellsHigh: ch, radius: r, part: part, width: boxWidth)
        }
        widen(width: w, factor: f, cellsWide: cw, cellsHigh: ch)
        spread(into: canvas.pixels, width: w, height: h, factor: f)
    }

    /// Each cell: the mean of its `factor` × `factor` pixels, rows and columns past the strip's edges read as the
    /// edge's own.
    private func average(_ pixels: UnsafeMutablePointer<UInt32>, width w: Int, height h: Int, factor f: Int,
                         cellsWide cw: Int, cellsHigh ch: Int) {
        let scale = 1 / Float(f * f)
        let blueRed = blueRed.base, greenAlpha = greenAlpha.base, cells = cells.base
        for j in 0..<ch {
            blueRed.update(repeating: 0, count: w)
            greenAlpha.update(repeating: 0, count: w)
            // At most 36 pixels of 255 a sum: each fits its 16-bit lane.
            for k in 0..<f {
                let row = pixels + Swift.min(Swift.max((j - 1) * f + k, 0), h - 1) * w
                for x in 0..<w {
                    let p = row[x]
                    blueRed[x] &+= p & 0x00FF_00FF
                    greenAlpha[x] &+= (p >> 8) & 0x00FF_00FF
                }
            }
            let out = cells + j * cw
            for i in 0..<cw {
                var br: UInt32 = 0, ga: UInt32 = 0
                for m in 0..<f {
                    let x = Swift.min(Swift.max((i - 1) * f + m, 0), w - 1)
                    br &+= blueRed[x]
                    ga &+= greenAlpha[x]
                }
                out[i] = Cell(Float(br & 0xFFFF), Float(ga & 0xFFFF), Float(br >> 16), Float(ga >> 16)) * scale
            }
        }
    }

    /// One box pass along a row of `count` cells, the ends clamped: a running sum of the whole cells, and `part` of
    /// the one past each end.
    private static func rowPass(_ src: UnsafeMutablePointer<Cell>, into dst: UnsafeMutablePointer<Cell>, count n: Int,
                                radius r: Int, part: Float, width: Float) {
        @inline(__always) func at(_ i: Int) -> Cell { src[Swift.min(Swift.max(i, 0), n - 1)] }
        let scale = 1 / width
        var sum = Cell.zero
        for k in -r...r { sum += at(k) }
        for i in 0..<n {
            let ends = at(i - r - 1) + at(i + r + 1)
            dst[i] = (sum + ends * part) * scale
            sum += at(i + r + 1) - at(i - r)
        }
    }

    /// One box pass down every column of cells at once, from `passed` back into `cells`, row after row.
    private func columnPass(cellsWide cw: Int, cellsHigh ch: Int, radius r: Int, part: Float, width: Float) {
        let src = passed.base, dst = cells.base, sums = sums.base
        @inline(__always) func row(_ j: Int) -> UnsafeMutablePointer<Cell> { src + Swift.min(Swift.max(j, 0), ch - 1) * cw }
        let scale = 1 / width
        sums.update(repeating: .zero, count: cw)
        for k in -r...r {
            let s = row(k)
            for c in 0..<cw { sums[c] += s[c] }
        }
        for j in 0..<ch {
            let above = row(j - r - 1), below = row(j + r + 1), leaving = row(j - r), out = dst + j * cw
            for c in 0..<cw {
                out[c] = (sums[c] + (above[c] + below[c]) * part) * scale
                sums[c] += below[c] - leaving[c]
            }
        }
    }

    /// Every row of cells at the canvas's width: each pixel between the two cells on either side of its centre,
    /// rounded to whole levels.
    private func widen(width w: Int, factor f: Int, cellsWide cw: Int, cellsHigh ch: Int) {
        let leftCell = leftCell.base, pastLeft = pastLeft.base, cells = cells.base, wide = wide.base
        for x in 0..<w {
            // The pixel's centre in cells, counting the extra one at the left: always between two cells.
            let u = (Float(x) + 0.5) / Float(f) + 0.5
            leftCell[x] = Int32(Int(u))
            pastLeft[x] = u - Float(Int(u))
        }
        // Adding 1.5 × 2²³ leaves a float's nearest whole number in the low bits of its mantissa.
        let rounding = Cell(repeating: 12_582_912)
        for j in 0..<ch {
            let line = cells + j * cw, row = wide + j * w
            for x in 0..<w {
                let i = Int(leftCell[x])
                let a = line[i], b = line[i + 1]
                let q = unsafeBitCast(a + (b - a) * pastLeft[x] + rounding, to: SIMD4<UInt32>.self) & 0xFF
                // A colour channel never above alpha, whatever the rounding did.
                let alpha = q.w
                row[x] = Swift.min(q.x, alpha) | Swift.min(q.y, alpha) << 8 | Swift.min(q.z, alpha) << 16 | alpha << 24
            }
        }
    }

    /// Each canvas row of the strip between the two widened rows on either side of its centre, channel by channel,
    /// in 256ths.
    private func spread(into pixels: UnsafeMutablePointer<UInt32>, width w: Int, height h: Int, factor f: Int) {
        let wide = wide.base
        for y in 0..<h {
            let v = (Float(y) + 0.5) / Float(f) + 0.5
            var j = Int(v)
            var t = UInt16(((v - Float(j)) * 256).rounded())
            if t == 256 { (j, t) = (j + 1, 0) }
            let out = UnsafeMutableRawPointer(pixels + y * w).assumingMemoryBound(to: UInt8.self)
            let a = UnsafeRawPointer(wide + j * w).assumingMemoryBound(to: UInt8.self)
            if t == 0 {
                out.update(from: a, count: 4 * w)
                continue
            }
            let b = UnsafeRawPointer(wide + (j + 1) * w).assumingMemoryBound(to: UInt8.self)
            let s = 256 - t
            for k in 0..<(4 * w) {
                out[k] = UInt8(truncatingIfNeeded: (UInt16(a[k]) &* s &+ UInt16(b[k]) &* t &+ 128) >> 8)
            }
        }
    }

    /// A buffer that grows to the largest size asked of it and is kept.
    private struct Buffer<Element> {
        private(set) var base = UnsafeMutablePointer<Element>.allocate(capacity: 1)
        private var capacity = 1

        mutating func reserve(_ count: Int) {
            guard count > capacity else { return }
            base.deallocate()
            base = .allocate(capacity: count)
            capacity = count
        }

        func release() { base.deallocate() }
    }

    deinit {
        cells.release()
        passed.release()
        sums.release()
        blueRed.release()
        greenAlpha.release()
        wide.release()
        leftCell.release()
        pastLeft.release()
    }
}

import Geometry
import Layers
import Raster
import Refresh
import Text
import Colors

/// The short message that says what the last key did, at the bottom of the screen.
///
/// It lives on the base clock (wall time in the window), so that it fades on time even while the simulation is
/// paused or slowed. Its text is laid out once when shown; drawing it allocates nothing.
public final class Toast {
    /// How long a toast stays unless told otherwise, in seconds, its last `fadeDuration` fading out.
    public static let duration = 1.6
    static let fadeDuration = 0.3
    static let fontSize = 14.0
    static let padding = Size(14, 8)
    /// Distance of the toast's bottom above the screen's bottom, in points.
    static let bottomMargin = 48.0
    /// Opaque, so that the list's text never shows through the message.
    static let background = Color(rgb: 30, 30, 32)

    /// The text shown (or last shown).
    public private(set) var text = ""
    /// When it was shown, on the base clock; nil before the first.
    private(set) var shownAt: Double?
    /// How long the one shown stays.
    private(set) var lasting = Toast.duration
    /// A second, smaller line: the full path of a file written, shortened in the middle when too long.
    public private(set) var detail: String?
    static let detailFontSize = 12.0
    private var line: TextLine?
    private var detailLine: TextLine?
    private var pill: Path?
    /// Where the toast was last drawn, in points; nil before it is.
    var frame: Rect? { pill?.controlPointBounds }
    /// The screen the pill was placed on (the tuning panel raises it above its sheet).
    private var laidOutFor: Size?

    public init() {}

    func show(_ text: String, detail: String? = nil, at time: Double, lasting: Double = Toast.duration) {
        self.text = text
        self.lasting = lasting
        self.detail = detail
        shownAt = time
        line = nil
        detailLine = nil
        pill = nil
    }

    /// Whether the toast is on screen at `time` (base clock).
    func isVisible(at time: Double) -> Bool {
        guard let shownAt, !text.isEmpty else { return false }
        return time >= shownAt && time < shownAt + lasting
    }

    /// A line of the toast: whole when it fits, else shortened in the middle, never cut at the end: of a path,
    /// the file's name (after the last `/`) is kept whole while the line has room for it.
    static func layout(_ text: String, size: Double = Toast.fontSize, maxWidth: Double,
                       renderer: TextRenderer) -> TextLine {
        let whole = renderer.layout(text, size: size)
        guard whole.width > maxWidth else { return whole }
        let characters = Array(text)
        let name = characters.lastIndex(of: "/").map { characters.count - $0 } ?? 0
        // The most characters kept for which the line fits: half from each end, or more from the end to keep the
        // name whole.
        var low = 0, high = characters.count
        var best = renderer.layout("…", size: size)
        while low < high {
            let keep = (low + high + 1) / 2
            let tailCount = Swift.min(keep, Swift.max(keep / 2, name))
            let head = characters.prefix(keep - tailCount), tail = characters.suffix(tailCount)
            let line = renderer.layout(String(head) + "…" + String(tail), size: size)
            if line.width <= maxWidth {
                best = line
                low = keep
            } else {
                high = keep - 1
            }
        }
        return best
    }

    /// Whether the toast changes at `time` (it is fading), or when it next will: when it starts to fade, or
    /// never (`.infinity`) once it is gone.
    func activity(at time: Double) -> Simulation.Activity {
        guard let shownAt, !text.isEmpty else { return .still(until: .infinity) }
        let fadeStart = shownAt + lasting - Toast.fadeDuration
        if time < shownAt { return .still(until: shownAt) }
        if time < fadeStart { return .still(until: fadeStart) }
        return time < shownAt + lasting ? .moving : .still(until: .infinity)
    }

    /// Its opacity at `time`: 1, then a linear fade over the last `fadeDuration`.
    public func opacity(at time: Double) -> Double {
        guard isVisible(at: time), let shownAt else { return 0 }
        let left = shownAt + lasting - time
        return Swift.min(1, left / Toast.fadeDuration)
    }

    func draw(screen: Size, scale: Double, time: Double, text renderer: TextRenderer?, rasterizer: Rasterizer,
              into canvas: Canvas) {
        let alpha = opacity(at: time)
        guard alpha > 0, let renderer else { return }
        let maxWidth = screen.width - 48
        if line == nil || laidOutFor != screen {
            laidOutFor = screen
            let laid = Toast.layout(text, maxWidth: maxWidth, renderer: renderer)
            let second = detail.map { Toast.layout($0, size: Toast.detailFontSize, maxWidth: maxWidth, renderer: renderer) }
            let w = Swift.max(laid.width, second?.width ?? 0) + 2 * Toast.padding.width
            let h = laid.lineHeight + (second?.lineHeight ?? 0) + 2 * Toast.padding.height
            var p = Path()
            p.addRoundedRect(Rect(x: (screen.width - w) / 2, y: screen.height - Toast.bottomMargin - h, width: w, height: h),
                             cornerRadius: Swift.min(h / 2, 18))
            line = laid
            detailLine = second
            pill = p
        }
        guard let line, let pill else { return }
        let box = pill.controlPointBounds
        rasterizer.fill(pill, transform: AffineTransform(scaleX: scale, y: scale),
                        color: Toast.background.withAlphaMultiplied(by: alpha), into: canvas)
        let white = Color.white.withAlphaMultiplied(by: alpha)
        guard let detailLine else {
            renderer.draw(line, at: line.origin(in: box, alignment: .center), color: white, scale: scale, into: canvas)
            return
        }
        let top = Rect(x: box.minX, y: box.minY + Toast.padding.height, width: box.width, height: line.lineHeight)
        let bottom = Rect(x: box.minX, y: top.maxY, width: box.width, height: detailLine.lineHeight)
        renderer.draw(line, at: line.origin(in: top, alignment: .center), color: white, scale: scale, into: canvas)
        renderer.draw(detailLine, at: detailLine.origin(in: bottom, alignment: .center),
                      color: Color(rgb: 210, 210, 215).withAlphaMultiplied(by: alpha), scale: scale, into: canvas)
    }
}

/// Every overlay drawn over the frame, in this order: the HUD (G), the debug overlay (D), the tuning panel (T), the
/// help (H or F1) and the toast.
final class Overlays {
    /// The help's sheet: opaque, so that no list text shows through its lines.
    static let helpBackground = Color(rgb: 18, 18, 20)
    static let helpKeyColor = Color(rgb: 255, 214, 10)
    static let helpFontSize = 13.0
    /// The help's row pitch when its rows fit the screen at it, in points; closer rows when they do not.
    static let helpPreferredRowHeight = 20.0
    /// What the help leaves free above and below its rows, in points.
    static let helpVerticalMargin = 20.0
    static let outlineColor = Color(rgb: 255, 0, 160)
    static let handleColor = Color(rgb: 0, 160, 255)
    static let triggerColor = Color(rgb: 255, 59, 48)
    static let insetColor = Color(rgb: 52, 199, 89)
    static let debugTextColor = Color(rgb: 255, 255, 255)
    /// The backing of the debug overlay's labels and legend: readable over any row, badge or header.
    static let debugLabelBackground = Color(rgb: 0, 0, 0, alpha: 0.88)
    static let debugFontSize = 10.0

    /// The help's lines (key, what it does) and title, laid out on first show in each language, and again after an
    /// effect is registered.
    private var help: (language: RefreshLanguage, effects: Int, title: TextLine, lines: [(key: TextLine, help: TextLine)])?
    /// The debug overlay's texts, laid out again only when what they say changes.
    private var stateText: (state: RefreshState, effect: String, line: TextLine)?
    private var triggerText: (distance: Double, line: TextLine)?
    private var insetText: (inset: Double, line: TextLine)?
    /// The legend's names of the outline and the control points.
    private var legendNames: (outline: TextLine, handle: TextLine)?
    private let stroker = Stroker()
    /// The tuning panel (T), under the help.
    let tuningPanel = TuningPanel()
    /// The frame times (G), under everything else.
    let hud = HUD()
    /// The mark of an arming's haptic, on the list's corner, under the HUD.
    let armingMark = ArmingMark()

    /// Draws the overlays `simulation` shows over `phone`, which they only read.
    func draw(_ simulation: Simulation, over phone: any PhoneView, time: Double, contentToPixels: AffineTransform,
              listClip: Rect, frames: HUD.Frames?) {
        let canvas = phone.canvas, scale = phone.device.scale
        let rasterizer = phone.renderer.rasterizer
        // The side area beside the phone, when the window has room: the HUD and the panel go there.
        let side = simulation.preparedSideCanvas()
        let sideSize = Size(simulation.sideAreaWidth, phone.device.screenSize.height)
        let marked = phone.showsArmingMark(at: simulation.clock.base.now)
        if marked {
            armingMark.draw(listFrame: phone.device.listFrame, scale: scale, rasterizer: rasterizer, into: canvas)
        }
        // The HUD under the other overlays: the help covers it, the toast stays readable.
        drawHUD(simulation, over: phone, frames: frames, into: side ?? canvas,
                screen: side == nil ? phone.device.screenSize : sideSize)
        let needsText = simulation.showsDebugOverlay || simulation.showsHelp || simulation.tuning.isOpen
            || simulation.toast.isVisible(at: simulation.clock.base.now)
        let text = needsText ? phone.renderer.loadTextRenderer() : nil
        if simulation.showsDebugOverlay {
            drawDebug(phone, time: time, contentToPixels: contentToPixels, clip: listClip, text: text)
        }
        if simulation.tuning.isOpen, let text {
            let bold = phone.renderer.loadTextRenderer(weight: .bold)
            if let side {
                tuningPanel.draw(simulation, over: phone, text: text, bold: bold,
                                 sheet: Rect(origin: .zero, size: sideSize), into: side)
            } else {
                tuningPanel.draw(simulation, over: phone, text: text, bold: bold, sheet: simulation.tuningSheet,
                                 into: canvas)
            }
        }
        if simulation.showsHelp, let text {
            drawHelp(phone.device, language: phone.language, text: text, rasterizer: rasterizer, into: canvas,
                     withTitle: !simulation.toast.isVisible(at: simulation.clock.base.now))
        }
        // Over the tuning panel, the toast sits just above its sheet, clear of the rows; over the help, in place of
        // its title, clear of its lines.
        var toastScreen = phone.device.screenSize
        if simulation.showsHelp, let text {
            let lines = helpLayout(language: phone.language, text: text).lines.count
            let (top, rowHeight) = Overlays.helpRows(lines: lines, screenHeight: toastScreen.height)
            // Its bottom a little above the tallest glyphs of the first line (drawn on the baseline at 2 rows).
            toastScreen.height = top + 2 * rowHeight - Overlays.helpFontSize - 2 + Toast.bottomMargin
        } else if simulation.tuning.isOpen && side == nil {
            toastScreen.height = TuningPanel.sheetFrame(screen: toastScreen).minY + Toast.bottomMargin - 8
        }
        simulation.toast.draw(screen: toastScreen, scale: scale, time: simulation.clock.base.now,
                              text: text, rasterizer: rasterizer, into: canvas)
    }

    /// What a phone not selected shows while two are compared: the mark of its arming's haptic, and its HUD.
    func drawReadouts(_ simulation: Simulation, over phone: any PhoneView, frames: HUD.Frames?) {
        if phone.showsArmingMark(at: simulation.clock.base.now) {
            armingMark.draw(listFrame: phone.device.listFrame, scale: phone.device.scale,
                            rasterizer: phone.renderer.rasterizer, into: phone.canvas)
        }
        drawHUD(simulation, over: phone, frames: frames, into: phone.canvas, screen: phone.device.screenSize)
    }

    /// The HUD of `phone` (its state, pull and armings, the frames of `frames`) when G shows it, in the bottom
    /// right of `screen` on `canvas`: the phone's own screen, or the side area.
    func drawHUD(_ simulation: Simulation, over phone: any PhoneView, frames: HUD.Frames?, into canvas: Canvas,
                 screen: Size) {
        guard simulation.showsFrameGraph, let frames else { return }
        let marked = phone.showsArmingMark(at: simulation.clock.base.now)
        // Beside another phone, each presents at its own rate.
        let rate = simulation.isComparing ? phone.framesPerSecond(at: frames.time) : nil
        hud.draw(recorder: frames.recorder, time: frames.time, isMoving: frames.isMoving,
                 state: phone.headerState, pullDistance: phone.pullDistance,
                 armings: HUD.Armings(count: phone.armingCount, isRecent: marked), phoneRate: rate,
                 screen: screen, scale: phone.device.scale, text: phone.renderer.loadTextRenderer(), into: canvas)
    }

    // MARK: Help

    /// The help's layout: every line whole, the keys in a column as wide as the widest key.
    /// `bindings` are the keys to list: every key the lab has unless a test asks for others.
    func helpLayout(language: RefreshLanguage, text: TextRenderer, bindings: [Command.KeyBinding]? = nil)
        -> (title: TextLine, lines: [(key: TextLine, help: TextLine)]) {
        let effects = RefreshEffects.revision
        if bindings == nil, let help, help.language == language, help.effects == effects {
            return (help.title, help.lines)
        }
        let chinese = language == .chinese
        let title = text.layout(chinese ? "按键（H、F1 或 Esc 关闭）" : "Keys (H, F1 or Esc closes this)", size: 15)
        // Keys that do the same share a line ("H, F1").
        var rows: [(keys: String, help: String)] = []
        for binding in bindings ?? Command.keyBindings {
            let help = chinese ? binding.chineseHelp : binding.help
            if let last = rows.last, last.help == help {
                rows[rows.count - 1].keys += ", " + binding.keys
            } else {
                rows.append((binding.keys, help))
            }
        }
        let lines = rows.map { row in
            (text.layout(row.keys, size: Overlays.helpFontSize), text.layout(row.help, size: Overlays.helpFontSize))
        }
        if bindings == nil { help = (language, effects, title, lines) }
        return (title, lines)
    }

    /// The help's left margin and the gap between the key column and the help column, in points.
    static let helpMargin = 24.0
    static let helpColumnGap = 14.0

    /// The pitch of the help's rows (its title, a blank row, then `lines` rows): 20 pt, or closer so that ten
    /// effects and every tool fit a 667 pt screen.
    static func helpRowHeight(lines: Int, screenHeight: Double) -> Double {
        Swift.min(helpPreferredRowHeight, (screenHeight - 2 * helpVerticalMargin) / Double(lines + 2))
    }

    /// Where the help's title row is and the pitch of its rows: the title, a blank row and `lines` rows, centred.
    static func helpRows(lines: Int, screenHeight: Double) -> (top: Double, rowHeight: Double) {
        let rowHeight = helpRowHeight(lines: lines, screenHeight: screenHeight)
        return (Swift.max(helpVerticalMargin, (screenHeight - Double(lines + 2) * rowHeight) / 2), rowHeight)
    }

    /// The help on its sheet; without its title while a toast takes the title's place.
    private func drawHelp(_ phone: Phone, language: RefreshLanguage, text: TextRenderer, rasterizer: Rasterizer,
                          into canvas: Canvas, withTitle: Bool) {
        let s = phone.scale
        let (title, lines) = helpLayout(language: language, text: text)
        rasterizer.fill(.rect(Rect(origin: .zero, size: phone.screenSize)), transform: AffineTransform(scaleX: s, y: s),
                        color: Overlays.helpBackground, into: canvas)
        let keyWidth = lines.map(\.key.width).max() ?? 0
        let (top, rowHeight) = Overlays.helpRows(lines: lines.count, screenHeight: phone.screenSize.height)
        if withTitle { text.draw(title, at: Point(Overlays.helpMargin, top), color: .white, scale: s, into: canvas) }
        for (i, row) in lines.enumerated() {
            let y = top + Double(i + 2) * rowHeight
            text.draw(row.key, at: Point(Overlays.helpMargin, y), color: Overlays.helpKeyColor, scale: s, into: canvas)
            text.draw(row.help, at: Point(Overlays.helpMargin + keyWidth + Overlays.helpColumnGap, y), color: .white,
                      scale: s, into: canvas)
        }
    }

    // MARK: Debug

    private func drawDebug(_ phone: any PhoneView, time: Double, contentToPixels: AffineTransform, clip: Rect,
                           text: TextRenderer?) {
        let canvas = phone.canvas, s = phone.device.scale
        let rasterizer = phone.renderer.rasterizer
        // The header's shapes: outlines, and the Bézier control points with their handles.
        walk(phone.headerLayer, parent: contentToPixels, time: time) { path, m in
            outline(path, transform: m, width: 1, color: Overlays.outlineColor, rasterizer: rasterizer, clip: clip,
                    canvas: canvas)
            handles(path, transform: m, rasterizer: rasterizer, clip: clip, canvas: canvas)
        }
        // Where the top of the content must come down to for the pull to arm, and the inset a refresh holds:
        // lines fixed on the screen, measured from the list's top plus the scroll view's own inset.
        let ownTop = phone.topInsetWithoutHeader
        let listTop = phone.device.listFrame.minY + ownTop
        let width = phone.device.screenSize.width
        horizontal(y: listTop + phone.triggerDistance, width: width, scale: s, color: Overlays.triggerColor,
                   rasterizer: rasterizer, canvas: canvas)
        horizontal(y: listTop + phone.refreshingInset, width: width, scale: s, color: Overlays.insetColor,
                   rasterizer: rasterizer, canvas: canvas)
        guard let text else { return }
        // Each line's label on a dark backing, so that no row, badge or header hides it: the trigger's at the right,
        // the inset's at the left (the two lines may lie close together).
        if triggerText?.distance != phone.triggerDistance {
            let d = phone.triggerDistance
            triggerText = (d, text.layout("trigger " + String(Int(d.rounded())) + " pt", size: Overlays.debugFontSize))
        }
        let inset = phone.refreshingInset
        if insetText?.inset != inset {
            insetText = (inset, text.layout("refreshing inset " + String(Int(inset.rounded())) + " pt",
                                            size: Overlays.debugFontSize))
        }
        if let triggerText {
            let line = triggerText.line
            label(line, at: Point(width - line.width - 8, listTop + phone.triggerDistance - 4),
                  color: Overlays.triggerColor, phone: phone, text: text)
        }
        if let insetText {
            label(insetText.line, at: Point(8, listTop + inset - 4), color: Overlays.insetColor, phone: phone,
                  text: text)
        }
        // The legend, at the bottom left (the HUD takes the bottom right): what the outlines and the dots are, and
        // the header's state.
        if stateText == nil || stateText?.state != phone.headerState || stateText?.effect != phone.effectName {
            stateText = (phone.headerState, phone.effectName,
                         text.layout(phone.effectName + " · " + phone.headerState.description,
                                     size: Overlays.debugFontSize))
        }
        if legendNames == nil {
            legendNames = (text.layout("shape outline", size: Overlays.debugFontSize),
                           text.layout("control point", size: Overlays.debugFontSize))
        }
        guard let stateText, let legendNames else { return }
        let rowHeight = 14.0, swatch = 10.0
        let legendWidth = Swift.max(stateText.line.width, swatch + 4 + Swift.max(legendNames.outline.width, legendNames.handle.width)) + 12
        let box = Rect(x: 6, y: phone.device.screenSize.height - 20 - 3 * rowHeight - 8, width: legendWidth,
                       height: 3 * rowHeight + 8)
        var backing = Path()
        backing.addRoundedRect(box, cornerRadius: 6)
        rasterizer.fill(backing, transform: AffineTransform(scaleX: s, y: s), color: Overlays.debugLabelBackground, into: canvas)
        let x = box.minX + 6
        var y = box.minY + 4
        for (name, color) in [(legendNames.outline, Overlays.outlineColor), (legendNames.handle, Overlays.handleColor)] {
            rasterizer.fill(.rect(Rect(x: x * s, y: (y + 2) * s, width: swatch * s, height: swatch * s)), color: color,
                            into: canvas)
            text.draw(name, at: Point(x + swatch + 4, y + rowHeight - 4), color: Overlays.debugTextColor, scale: s, into: canvas)
            y += rowHeight
        }
        text.draw(stateText.line, at: Point(x, y + rowHeight - 4), color: Overlays.debugTextColor, scale: s, into: canvas)
    }

    /// `line` with its baseline origin at `origin` (points), on the labels' dark backing.
    private func label(_ line: TextLine, at origin: Point, color: Color, phone: any PhoneView, text: TextRenderer) {
        let s = phone.device.scale
        var backing = Path()
        backing.addRoundedRect(Rect(x: origin.x - 4, y: origin.y - line.ascent - 2, width: line.width + 8,
                                    height: line.ascent + line.descent + 4), cornerRadius: 4)
        phone.renderer.rasterizer.fill(backing, transform: AffineTransform(scaleX: s, y: s),
                                            color: Overlays.debugLabelBackground, into: phone.canvas)
        text.draw(line, at: origin, color: color, scale: s, into: phone.canvas)
    }

    /// Calls `body` with every visible shape layer's path at `time` and the transform from its coordinates to pixels.
    private func walk(_ layer: Layer, parent: AffineTransform, time: Double, _ body: (Path, AffineTransform) -> Void) {
        guard !layer.isHidden else { return }
        let p = layer.presentation(at: time)
        let m = p.transformToSuperlayer.concatenating(parent)
        if let shape = layer as? ShapeLayer, let path = shape.shapePresentation(at: time).path, !path.isEmpty {
            body(path, m)
        }
        for sublayer in layer.sublayers { walk(sublayer, parent: m, time: time, body) }
    }

    private func outline(_ path: Path, transform m: AffineTransform, width pixels: Double, color: Color,
                         rasterizer: Rasterizer, clip: Rect, canvas: Canvas) {
        let pointsPerPixel = 1 / Swift.max(1e-6, Swift.abs(m.determinant).squareRoot())
        let style = StrokeStyle(lineWidth: pixels * pointsPerPixel, lineCap: .butt, lineJoin: .round, miterLimit: 4,
                                dashPattern: [], dashPhase: 0)
        let stroked = stroker.stroke(path, style: style, tolerance: 0.25 * pointsPerPixel)
        rasterizer.fill(stroked, transform: m, color: color, clip: clip, into: canvas)
    }

    /// Lines from each curve's end points to its control points, and a small square on every control point.
    private func handles(_ path: Path, transform m: AffineTransform, rasterizer: Rasterizer, clip: Rect, canvas: Canvas) {
        var handleLines = Path(), dots = Path()
        var current = Point.zero
        func dot(_ p: Point) {
            let q = m.apply(p)
            dots.addRect(Rect(x: q.x - 2, y: q.y - 2, width: 4, height: 4))
        }
        for element in path.elements {
            switch element {
            case .move(let p), .line(let p):
                current = p
            case .quad(let c, let p):
                handleLines.move(to: current); handleLines.line(to: c); handleLines.line(to: p)
                dot(c)
                current = p
            case .cubic(let c1, let c2, let p):
                handleLines.move(to: current); handleLines.line(to: c1)
                handleLines.move(to: p); handleLines.line(to: c2)
                dot(c1); dot(c2)
                current = p
            case .close:
                break
            }
        }
        if !handleLines.isEmpty {
            outline(handleLines, transform: m, width: 1, color: Overlays.handleColor.withAlphaMultiplied(by: 0.7), rasterizer: rasterizer,
                    clip: clip, canvas: canvas)
        }
        rasterizer.fill(dots, color: Overlays.handleColor, clip: clip, into: canvas)
    }

    private func horizontal(y: Double, width: Double, scale: Double, color: Color, rasterizer: Rasterizer,
                            canvas: Canvas) {
        let py = (y * scale).rounded()
        rasterizer.fill(.rect(Rect(x: 0, y: py - 1, width: width * scale, height: 2)), color: color.withAlphaMultiplied(by: 0.8),
                        into: canvas)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import Colors
import Motion

/// A text animator (one of `t.a`): properties that apply to the letters its range selector chooses, each by how
/// much the selector chooses it. Absent properties are nil.
struct TextAnimator: Sendable {
    var selector: TextSelector
    var position: Animated?
    var anchor: Animated?
    /// In %.
    var scale: Animated?
    /// In degrees, clockwise.
    var rotation: Animated?
    var skew: Animated?
    var skewAxis: Animated?
    /// In %: the letter's opacity where it is fully chosen.
    var opacity: Animated?
    var fillColor: Animated?
    /// Turns the fill's hue (degrees), adds to its saturation and brightness (%).
    var fillHue: Animated?
    var fillSaturation: Animated?
    var fillBrightness: Animated?
    var strokeColor: Animated?
    var strokeWidth: Animated?
    /// Added after each chosen letter, in the layer's units.
    var tracking: Animated?
}

/// A range selector (`s` of an animator): which letters an animator applies to and by how much, as After
/// Effects' Range Selector and lottie-web's `TextSelectorProperty` define it (docs/reference.md §8).
struct TextSelector: Sendable {
    /// Start, end and offset of the range, in % of what is counted (or in counted units with `inUnits`).
    var start: Animated
    var end: Animated
    var offset: Animated
    /// The range is given in counted units (`r` 2) rather than in % (`r` 1).
    var inUnits: Bool
    /// What is counted (`b`): 1 letters, 2 letters but spaces, 3 words, 4 lines.
    var basedOn: Int
    /// How the amount falls off across the range (`sh`): 1 square, 2 ramp up, 3 ramp down, 4 triangle,
    /// 5 round, 6 smooth.
    var shape: Int
    /// Ease high and ease low, in % (`xe`, `ne`), and smoothness (`sm`), in %.
    var easeHigh: Animated
    var easeLow: Animated
    var smoothness: Animated
    /// How much the whole selection applies, in % (`a`).
    var amount: Animated
    /// The order of what is counted is shuffled (`rn`).
    var randomized: Bool

    /// The range and its easing at one frame, worked out once for every letter.
    struct Range {
        var start: Double, end: Double, shape: Int, smoothness: Double, amount: Double
        var easing: TimingFunction?

        /// How much a unit at `place` is chosen, 0…1 times the amount.
        func amount(at place: Int) -> Double {
            let s = start, e = end, p = Double(place)
            var m = 0.0
            switch shape {
            case 2, 3:
                m = e == s ? (p >= e ? 1 : 0) : Swift.max(0, Swift.min(0.5 / (e - s) + (p - s) / (e - s), 1))
                if shape == 3 { m = e == s ? (p >= e ? 0 : 1) : 1 - m }
            case 4:
                if e != s {
                    m = Swift.max(0, Swift.min(0.5 / (e - s) + (p - s) / (e - s), 1))
                    m = m < 0.5 ? m * 2 : 1 - 2 * (m - 0.5)
                }
            case 5:
                if e != s {
                    let x = -(e - s) / 2 + Swift.min(Swift.max(0, p + 0.5 - s), e - s), a = (e - s) / 2
                    m = (Swift.max(0, 1 - x * x / (a * a))).squareRoot()
                }
            case 6:
                if e != s {
                    let q = Swift.min(Swift.max(0, p + 0.5 - s), e - s)
                    m = (1 + cos(.pi + .pi * 2 * q / (e - s))) / 2
                }
            default:
                // Square: whole units inside the range, a fraction of the units it cuts.
                if p >= s.rounded(.down) {
                    m = p - s < 0 ? Swift.max(0, Swift.min(Swift.min(e, 1) - (s - p), 1)) : Swift.max(0, Swift.min(e - p, 1))
                }
            }
            if let easing { m = easing.value(at: m) }
            if smoothness != 1 {
                // Smoothness keeps the middle of the ramp: below its lower end nothing, above it stretched to 0…1.
                let sm = smoothness == 0 ? 1e-8 : smoothness, threshold = 0.5 - sm * 0.5
                m = m < threshold ? 0 : Swift.min((m - threshold) / sm, 1)
            }
            let v = m * amount
            return v.isFinite ? v : 0
        }
    }

    /// The range at `frame` over `total` counted units.
    func range(at frame: Double, total: Int) -> Range {
        let divisor = inUnits ? 1 : 100 / Double(Swift.max(total, 1))
        let o = offset.scalar(at: frame) / divisor
        var s = start.scalar(at: frame) / divisor + o, e = end.scalar(at: frame) / divisor + o
        if s > e { swap(&s, &e) }
        let high = easeHigh.scalar(at: frame), low = easeLow.scalar(at: frame)
        var easing: TimingFunction?
        if high != 0 || low != 0 {
            // Ease low bends the start of the curve, ease high its end; negative values bend the other way.
            easing = TimingFunction(controlPoints: low > 0 ? low / 100 : 0, low > 0 ? 0 : -low / 100,
                                    high > 0 ? 1 - high / 100 : 1, high > 0 ? 1 : 1 + high / 100)
        }
        return Range(start: s, end: e, shape: shape, smoothness: smoothness.scalar(at: frame) / 100,
                     amount: amount.scalar(at: frame) / 100, easing: easing)
    }
}

/// A letter's place and looks at one frame: what `LottieText.letters` hands each letter that draws.
struct LetterStyle {
    /// From the letter's glyph (at the document's size, on its baseline) to the layer's space.
    var matrix = AffineTransform.identity
    var opacity = 1.0
    var fill: Color?
    var stroke: Color?
    var strokeWidth = 0.0
}

/// One animator's values at one frame, read once for every letter: its range and each property it has (nil the
/// ones it has not), so that the cost of a letter is arithmetic, never a keyframe search or an expression.
struct TextAnimatorFrame {
    var range: TextSelector.Range
    var anchor: Point?
    /// The scale's factors less one, in fractions (2 for 300 %), each multiplied by how much a letter is chosen.
    var scale: Point?
    /// Skew and its axis, in degrees.
    var skew: Double?
    var skewAxis = 0.0
    /// In radians, clockwise.
    var rotation: Double?
    /// In 0…1 where the letter is fully chosen.
    var opacity: Double?
    var strokeWidth: Double?
    var strokeColor: AnimatedSample?
    var fillColor: AnimatedSample?
    /// In turns, and in fractions.
    var fillHue: Double?
    var fillSaturation: Double?
    var fillBrightness: Double?
    var position: Point?
    var tracking: Double?

    init(_ animator: TextAnimator, at frame: Double, total: Int) {
        range = animator.selector.range(at: frame, total: total)
        anchor = animator.anchor.map { let v = $0.sample(at: frame); return Point(v.at(0), v.at(1)) }
        scale = animator.scale.map { let v = $0.sample(at: frame); return Point(v.at(0, 100) / 100 - 1, v.at(1, 100) / 100 - 1) }
        skew = animator.skew.map { $0.scalar(at: frame) }
        skewAxis = animator.skewAxis?.scalar(at: frame) ?? 0
        rotation = animator.rotation.map { $0.scalar(at: frame) * .pi / 180 }
        opacity = animator.opacity.map { $0.scalar(at: frame) / 100 }
        strokeWidth = animator.strokeWidth.map { $0.scalar(at: frame) }
        strokeColor = animator.strokeColor.map { $0.sample(at: frame) }
        fillColor = animator.fillColor.map { $0.sample(at: frame) }
        fillHue = animator.fillHue.map { $0.scalar(at: frame) / 360 }
        fillSaturation = animator.fillSaturation.map { $0.scalar(at: frame) / 100 }
        fillBrightness = animator.fillBrightness.map { $0.scalar(at: frame) / 100 }
        position = animator.position.map { let v = $0.sample(at: frame); return Point(v.at(0), v.at(1)) }
        tracking = animator.tracking.map { $0.scalar(at: frame) }
    }
}

/// The animators' values at one frame, kept by the renderer so that a frame allocates nothing once grown.
struct TextFrame {
    fileprivate var animators: [TextAnimatorFrame] = []
    /// How much each animator chooses the letter at hand.
    fileprivate var amounts: [Double] = []
    /// Each line's shift from animated tracking, for right and centred lines.
    fileprivate var lineShifts: [Double] = []
}

extension LottieText {
    /// Hands `body` each letter of `layout` that has something to draw, with its glyph and its matrix, opacity
    /// and colours at `frame`, as lottie-web's `TextAnimatorProperty.getMeasures` places letters (for text not
    /// on a path): the pen moves by each letter's advance and tracking, and each animator adds its position,
    /// anchor, scale, skew, rotation, opacity and colours in proportion to how much its selector chooses the
    /// letter. The animators' values are read once for the frame (`TextAnimatorFrame`).
    func letters(of layout: TextLayout, at frame: Double, scratch: inout TextFrame,
                 _ body: (Int, LetterStyle) -> Void) {
        let n = animators.count
        scratch.animators.removeAll(keepingCapacity: true)
        for (j, animator) in animators.enumerated() {
            scratch.animators.append(TextAnimatorFrame(animator, at: frame, total: layout.selectorTotals[j]))
        }
        let values = scratch.animators
        @inline(__always) func amount(_ letter: Int, _ j: Int) -> Double {
            values[j].range.amount(at: layout.selectorPlaces[letter * n + j])
        }
        scratch.amounts.removeAll(keepingCapacity: true)
        scratch.amounts.append(contentsOf: repeatElement(0, count: n))
        let align = alignment.sample(at: frame)
        let alignX = align.at(0), alignY = align.at(1)
        // lottie-web's cap height for alignment: 1.2 × 0.714 of the size.
        let capHeight = layout.size * 1.2 * 0.714
        let lines = (layout.letters.last?.line ?? 0) + 1
        scratch.lineShifts.removeAll(keepingCapacity: true)
        for _ in 0..<lines { scratch.lineShifts.append(0) }
        if layout.justification == 1 || layout.justification == 2, values.contains(where: { $0.tracking != nil }) {
            lineShiftsFromTracking(layout, values, amount: amount, into: &scratch.lineShifts)
        }
        let lineShifts = scratch.lineShifts

        var x = 0.0, y = 0.0, firstLine = true
        for (i, letter) in layout.letters.enumerated() {
            if letter.isLineBreak {
                x = 0
                y += layout.lineAdvance + (firstLine ? 1 : 0)
                firstLine = false
                continue
            }
            let middle = letter.groupWidth / 2 - letter.groupOffset
            let alignShift = Point(alignX * letter.groupWidth / 200, alignY * capHeight / 100)
            var m = AffineTransform(translationX: -middle - alignShift.x, y: -alignShift.y)
            var style = LetterStyle(fill: layout.fill, stroke: layout.stroke, strokeWidth: layout.strokeWidth)
            for j in 0..<n { scratch.amounts[j] = amount(i, j) }
            let amounts = scratch.amounts
            for j in 0..<n {
                guard let t = values[j].tracking, x != 0 || layout.justification != 0 else { continue }
                x += t * amounts[j]
            }
            // Moves and scales written out: the same as concatenating their matrices, at a fraction of the cost
            // in a loop run letters × animators times.
            for j in 0..<n {
                guard let v = values[j].anchor else { continue }
                let k = amounts[j]
                m.tx -= v.x * k
                m.ty -= v.y * k
            }
            for j in 0..<n {
                guard let v = values[j].scale else { continue }
                let sx = 1 + v.x * amounts[j], sy = 1 + v.y * amounts[j]
                m.a *= sx; m.c *= sx; m.tx *= sx
                m.b *= sy; m.d *= sy; m.ty *= sy
            }
            for j in 0..<n {
                let a = values[j], k = amounts[j]
                if let skew = a.skew {
                    let sk = Swift.min(Swift.max(skew * k, -85), 85) * .pi / 180
                    let axis = a.skewAxis * k * .pi / 180
                    m = m.concatenating(AffineTransform(rotationAngle: axis))
                        .concatenating(AffineTransform(a: 1, b: 0, c: tan(-sk), d: 1, tx: 0, ty: 0))
                        .concatenating(AffineTransform(rotationAngle: -axis))
                }
                if let r = a.rotation { m = m.concatenating(AffineTransform(rotationAngle: r * k)) }
                if let o = a.opacity { style.opacity += (o * k - style.opacity) * k }
                if let w = a.strokeWidth, style.stroke != nil { style.strokeWidth += w * k }
                if let c = a.strokeColor, let s = style.stroke { style.stroke = LottieText.mix(s, c, k) }
                guard let fill = style.fill else { continue }
                if let c = a.fillColor { style.fill = LottieText.mix(fill, c, k) }
                if let h = a.fillHue { style.fill = LottieText.adjust(style.fill!, hue: h * k) }
                if let s = a.fillSaturation { style.fill = LottieText.adjust(style.fill!, saturation: s * k) }
                if let b = a.fillBrightness { style.fill = LottieText.adjust(style.fill!, brightness: b * k) }
            }
            for j in 0..<n {
                guard let v = values[j].position else { continue }
                let k = amounts[j]
                m.tx += v.x * k
                m.ty += v.y * k
            }
            var dx = x, dy = y - layout.baselineShift
            if let ps = layout.boxPosition {
                dx += ps.x
                dy += ps.y + layout.ascent
            }
            let spare = layout.boxWidth - layout.lineWidths[Swift.min(letter.line, layout.lineWidths.count - 1)]
            switch layout.justification {
            case 1: dx += lineShifts[letter.line] + layout.justifyOffset + spare
            case 2: dx += lineShifts[letter.line] + layout.justifyOffset + spare / 2
            default: break
            }
            m = m.concatenating(AffineTransform(translationX: dx + middle + alignShift.x, y: dy + alignShift.y))
            x += letter.width + layout.trackingAdvance
            style.matrix = m
            style.strokeWidth = Swift.max(style.strokeWidth, 0)
            if letter.glyph >= 0 { body(letter.glyph, style) }
        }
    }

    /// How far animated tracking moves each right or centred line back, so that it stays right or centred:
    /// lottie-web's `animatorJustifyOffset`, its first-letter term included.
    private func lineShiftsFromTracking(_ layout: TextLayout, _ values: [TextAnimatorFrame],
                                        amount: (Int, Int) -> Double, into shifts: inout [Double]) {
        let factor = layout.justification == 2 ? -0.5 : -1
        var shift = 0.0, firstLetterShift = 0.0, newLine = true, line = 0
        func close() {
            if shift != 0 { shift += firstLetterShift }
            if line < shifts.count { shifts[line] = shift }
        }
        for (i, letter) in layout.letters.enumerated() {
            if letter.isLineBreak {
                close()
                line = letter.line
                shift = 0
                newLine = true
                continue
            }
            for (j, a) in values.enumerated() {
                guard let v = a.tracking else { continue }
                if newLine && layout.justification == 2 { firstLetterShift += v * factor }
                shift += v * amount(i, j) * factor
            }
            newLine = false
        }
        close()
    }

    /// `base` moved toward the colour `c` (0…1 components, or 0…255) by `k`.
    static func mix(_ base: Color, _ c: AnimatedSample, _ k: Double) -> Color {
        let target = LottieRenderer.color(c)
        return Color(red: base.red + (target.red - base.red) * k, green: base.green + (target.green - base.green) * k,
                     blue: base.blue + (target.blue - base.blue) * k, alpha: base.alpha)
    }

    /// `c` with its hue turned (in turns) and its saturation and brightness raised, in HSV, as lottie-web's
    /// `addHueToRGB`, `addSaturationToRGB` and `addBrightnessToRGB` do.
    static func adjust(_ c: Color, hue: Double = 0, saturation: Double = 0, brightness: Double = 0) -> Color {
        let r = c.red, g = c.green, b = c.blue
        let hi = Swift.max(r, g, b), lo = Swift.min(r, g, b), d = hi - lo
        var h = 0.0
        if d > 0 {
            if hi == r { h = (g - b + d * (g < b ? 6 : 0)) / (6 * d) } else if hi == g { h = (b - r + d * 2) / (6 * d) } else { h = (r - g + d * 4) / (6 * d) }
        }
        var s = hi == 0 ? 0 : d / hi, v = hi
        h += hue
        if h > 1 { h -= 1 } else if h < 0 { h += 1 }
        if saturation != 0 { s = Swift.min(Swift.max(s + saturation, 0), 1) }
        if brightness != 0 { v = Swift.min(Swift.max(v + brightness, 0), 1) }
        guard h.isFinite, s.isFinite, v.isFinite else { return c }
        let i = Int((h * 6).rounded(.down)), f = h * 6 - Double(i)
        let p = v * (1 - s), q = v * (1 - f * s), t = v * (1 - (1 - f) * s)
        let rgb: (Double, Double, Double)
        switch ((i % 6) + 6) % 6 {
        case 0: rgb = (v, t, p)
        case 1: rgb = (q, v, p)
        case 2: rgb = (p, v, t)
        case 3: rgb = (p, q, v)
        case 4: rgb = (t, p, v)
        default: rgb = (v, p, q)
        }
        return Color(red: rgb.0, green: rgb.1, blue: rgb.2, alpha: c.alpha)
    }
}

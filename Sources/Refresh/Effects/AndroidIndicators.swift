#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Colors
import Geometry
import Layers
import Motion

// What Android's two refresh indicators share (docs/reference.md §1, "Android's indicators"): Android's default
// animation curve, CircularProgressDrawable's colour blend, a critically damped Compose spring, and the layers of a
// disc floating over the list with an arc and an arrowhead in it.

enum AndroidCurves {
    /// `AccelerateDecelerateInterpolator`, what an Android `Animation` runs on when it is given no interpolator:
    /// cos((t + 1)π)/2 + 0.5 (docs/reference.md §1, swipe-refresh).
    static func accelerateDecelerate(_ t: Double) -> Double {
        let t = Swift.min(1, Swift.max(0, t))
        return cos((t + 1) * Double.pi) / 2 + 0.5
    }

    /// CircularProgressDrawable's colour blend (its `evaluateColorChange`, after `ArgbEvaluator`): each 8-bit channel
    /// moves by the fraction of the difference, truncated to a whole level.
    static func blend(_ from: Color, _ to: Color, _ fraction: Double) -> Color {
        func level(_ v: Double) -> Int { Int((Swift.min(1, Swift.max(0, v)) * 255).rounded()) }
        func mix(_ a: Double, _ b: Double) -> Double {
            let start = level(a), end = level(b)
            return Double(start + Int(fraction * Double(end - start))) / 255
        }
        return Color(red: mix(from.red, to.red), green: mix(from.green, to.green), blue: mix(from.blue, to.blue),
                     alpha: mix(from.alpha, to.alpha))
    }
}

/// One run of a Compose spring with damping ratio 1 (`spring()`'s default and the motion scheme's effects), from a
/// value and a velocity at `start` towards `target`; retargeting keeps the velocity, as an `Animatable` does.
struct ComposeSpring: Equatable {
    var stiffness: Double
    private(set) var motion: SpringMotion
    private(set) var start: Double

    init(value: Double, stiffness: Double) {
        self.stiffness = stiffness
        motion = SpringMotion(spring: ComposeSpring.spring(stiffness), from: value, to: value, initialVelocity: 0)
        start = -Double.infinity
    }

    static func spring(_ stiffness: Double) -> Spring {
        Spring(mass: 1, stiffness: stiffness, damping: 2 * stiffness.squareRoot())
    }

    var target: Double { motion.target }

    /// The value at `time`; a run ends on its target once within 0.01 of it (Compose's default visibility
    /// threshold for a Float).
    func value(at time: Double) -> Double {
        let t = time - start
        guard t.isFinite else { return motion.target }
        let x = motion.position(at: Swift.max(0, t))
        return abs(x - motion.target) < 0.01 ? motion.target : x
    }

    private func velocity(at time: Double) -> Double {
        let t = time - start
        guard t.isFinite, value(at: time) != motion.target else { return 0 }
        return motion.velocity(at: Swift.max(0, t))
    }

    /// Animates from the value at `time` towards `target`, keeping the velocity.
    mutating func animate(to target: Double, at time: Double) {
        guard target != motion.target || value(at: time) != target else { return }
        motion = SpringMotion(spring: ComposeSpring.spring(stiffness), from: value(at: time), to: target,
                              initialVelocity: velocity(at: time))
        start = time
    }

    /// Jumps to `value` at rest (`snapTo`).
    mutating func snap(to value: Double) {
        motion = SpringMotion(spring: ComposeSpring.spring(stiffness), from: value, to: value, initialVelocity: 0)
        start = -Double.infinity
    }
}

/// The layers of an Android indicator floating over the list: a clip whose top is the list's top (both
/// SwipeRefreshLayout's circle and Compose's indicator are drawn inside the list's bounds, so whatever is above its
/// top is cut off), the disc with its shadow, and in it indicator groups, each turned as a canvas with an arc and an
/// arrowhead.
final class FloatingDisc {
    /// Taller than any place the disc can reach below the list's top.
    static let clipHeight = 2000.0

    let clip = Layer()
    let disc = Layer()

    init(in root: Layer) {
        clip.masksToBounds = true
        root.addSublayer(clip)
        clip.addSublayer(disc)
    }

    /// Sizes the disc: `diameter` across, `color`, a shadow of the disc's circle alone (given as a path, the
    /// renderer fills one blurred circle instead of drawing the disc's contents twice).
    func layOut(diameter d: Double, color: Color, shadowOpacity: Double, shadowRadius: Double, shadowOffset: Size) {
        disc.bounds = Rect(x: 0, y: 0, width: d, height: d)
        disc.cornerRadius = d / 2
        disc.backgroundColor = color
        disc.shadowOpacity = shadowOpacity
        disc.shadowRadius = shadowRadius
        disc.shadowOffset = shadowOffset
        disc.shadowPath = Path.ellipse(in: disc.bounds)
    }

    /// Places the disc with its top `top` points below the list's top, scaled by `scale` about its centre, in a
    /// header of `size` whose own top the control puts `distance` − height below the list's top.
    func place(top: Double, scale: Double, distance: Double, size: Size) {
        clip.frame = Rect(x: 0, y: size.height - distance, width: size.width, height: FloatingDisc.clipHeight)
        let d = disc.bounds.width
        disc.position = Point(size.width / 2, top + d / 2)
        disc.transform = scale == 1 ? .identity : AffineTransform(scaleX: scale, y: scale)
    }

    /// A group to turn about the disc's centre, holding an arc and an arrowhead layer; `shape` sizes it.
    func addIndicator() -> (group: Layer, arc: ShapeLayer, arrow: ShapeLayer) {
        let group = Layer(), arc = ShapeLayer(), arrow = ShapeLayer()
        disc.addSublayer(group)
        group.addSublayer(arc)
        group.addSublayer(arrow)
        arc.fillColor = nil
        arrow.isHidden = true
        return (group, arc, arrow)
    }

    /// Sizes a group made by `addIndicator` for the disc's present size: its arc on a circle of `radius`, a whole
    /// turn clockwise from 3 o'clock, so that stroke ends are fractions of a turn from there.
    func shape(group: Layer, arc: ShapeLayer, arrow: ShapeLayer, radius: Double, lineWidth: Double, cap: LineCap) {
        let bounds = disc.bounds
        group.frame = bounds
        arc.frame = bounds
        arrow.frame = bounds
        let c = Point(bounds.width / 2, bounds.height / 2)
        var circle = Path()
        circle.addArc(center: c, radius: radius, startAngle: 0, endAngle: Double.pi, clockwise: true)
        circle.addArc(center: c, radius: radius, startAngle: Double.pi, endAngle: 2 * Double.pi, clockwise: true)
        arc.path = circle
        arc.lineWidth = lineWidth
        arc.lineCap = cap
    }

    /// CircularProgressDrawable's arrowhead for the arc's head at 3 o'clock, before the arrow layer's turn, in a disc
    /// `diameter` across: a triangle whose base, `width × scale` wide, is centred on the arc's `radius` half a
    /// `strokeWidth` clockwise of the head (where a round cap ends), its tip `height × scale` further on. The ring
    /// and SwipeRefreshLayout draw the same arrow.
    static func arrowhead(diameter: Double, radius: Double, strokeWidth: Double, width: Double, height: Double,
                          scale: Double) -> Path {
        let c = diameter / 2
        let w = width * scale, h = height * scale
        let x = c + radius, y = c + strokeWidth / 2
        var path = Path()
        path.move(to: Point(x - w / 2, y))
        path.line(to: Point(x + w / 2, y))
        path.line(to: Point(x, y + h))
        path.close()
        return path
    }

    /// Shows an arc starting `start` turns clockwise from 3 o'clock and sweeping `sweep` turns (none when it does
    /// not sweep), in `ink`.
    static func show(arc: ShapeLayer, in group: Layer, start: Double, sweep: Double, ink: Color) {
        group.transform = AffineTransform(rotationAngle: 2 * Double.pi * (start - start.rounded(.down)))
        arc.isHidden = !(sweep > 0)
        arc.strokeEnd = Swift.min(1, Swift.max(0, sweep))
        arc.strokeColor = ink
    }
}

/// An alpha on its way to a target over a fixed duration, on an easing curve: the ring's and SwipeRefreshLayout's
/// arc fade between their faint and full alpha this way, each turning back from wherever the fade has got to.
struct AlphaFade {
    private var from: Double, to: Double, start = -Double.infinity

    /// Steady at `value`.
    init(_ value: Double) {
        from = value
        to = value
    }

    /// The alpha at `time`, `curve` easing the fraction of `duration` gone.
    func value(at time: Double, duration: Double, curve: (Double) -> Double) -> Double {
        let f = (time - start) / duration
        guard f < 1 else { return to }
        return from + (to - from) * curve(Swift.max(0, f))
    }

    /// Starts towards `target` at `time` from `current` (the alpha shown then); nothing when already heading there.
    mutating func head(to target: Double, from current: Double, at time: Double) {
        guard target != to else { return }
        from = current
        to = target
        start = time
    }
}

import Geometry
import Layers
import Motion
import Raster
import Colors

/// How an activity indicator looks and turns. The defaults are UIActivityIndicatorView's gray style as the classic
/// header draws it; each header or footer passes its own, so one indicator serves all of them.
struct ActivityIndicatorStyle: Equatable, Sendable {
    /// The indicator's side, 20 pt. Not from docs/reference.md: UIActivityIndicatorView's gray style.
    var side = 20.0
    /// The spokes: 12, the indicator turning one spoke's angle at a time. Not from docs/reference.md:
    /// UIActivityIndicatorView.
    var spokeCount = 12
    /// A spoke's width, 2 pt, with round ends. Not from docs/reference.md: measured off UIActivityIndicatorView's gray
    /// style.
    var spokeWidth = 2.0
    /// Where a spoke starts and ends, in points from the centre: 4.5 and 9.5. Not from docs/reference.md: measured off
    /// UIActivityIndicatorView's gray style.
    var spokeInnerRadius = 4.5
    var spokeOuterRadius = 9.5
    /// The spokes' grey, RGB (128, 128, 128). Not from docs/reference.md: UIActivityIndicatorView's gray style.
    var color = Color(rgb: 128, 128, 128)
    /// The alpha of the spoke farthest behind the leading one, which is opaque; those between fade linearly.
    /// Not from docs/reference.md: by eye.
    var trailingAlpha = 0.2
    /// One turn, 1 s. Not from docs/reference.md: UIActivityIndicatorView's pace.
    var period = 1.0
    /// The alphas of the spokes from the leading one backwards, when the indicator has its own table (the system
    /// header's, docs/reference.md §1, System); nil fades linearly from 1 to `trailingAlpha`.
    var alphas: [Double]?

    init(side: Double = 20, spokeCount: Int = 12, spokeWidth: Double = 2, spokeInnerRadius: Double = 4.5,
                spokeOuterRadius: Double = 9.5, color: Color = Color(rgb: 128, 128, 128), trailingAlpha: Double = 0.2,
                period: Double = 1, alphas: [Double]? = nil) {
        self.side = side
        self.spokeCount = spokeCount
        self.spokeWidth = spokeWidth
        self.spokeInnerRadius = spokeInnerRadius
        self.spokeOuterRadius = spokeOuterRadius
        self.color = color
        self.trailingAlpha = trailingAlpha
        self.period = period
        self.alphas = alphas
    }

    /// The alpha of the spoke `k` steps behind the leading one.
    func alpha(behindLeader k: Int) -> Double {
        if let alphas, k < alphas.count { return alphas[k] }
        let share = Double(k) / Double(Swift.max(spokeCount - 1, 1))
        return 1 - (1 - trailingAlpha) * share
    }

    /// How many spokes' angles the indicator has turned `elapsed` seconds after it started, 0 ..< `spokeCount`.
    func step(after elapsed: Double) -> Int {
        let steps = Int((Swift.max(0, elapsed) / period * Double(spokeCount)).rounded(.down))
        return steps % spokeCount
    }

    /// The indicator's turn at `step`, clockwise on the screen, in radians.
    func angle(atStep step: Int) -> Double {
        2 * Double.pi * Double(step) / Double(spokeCount)
    }
}

/// The look of UIActivityIndicatorView: spokes round a centre, the one at the top opaque and those behind it
/// (anticlockwise) fainter, turning clockwise by whole spokes.
///
/// It turns in one of two ways: `startAnimating(at:)` adds a discrete keyframe animation, so that any frame can be
/// drawn at its own time without a call per frame; or a header that works out each frame from the time sets
/// `show(step:)` itself. Its bounds are `side` square; place it with `position` or `frame`.
final class ActivityIndicatorLayer: Layer {
    let style: ActivityIndicatorStyle
    /// How much of its alpha the indicator shows, 0…1 (a header fading it out with its inset); the spokes are
    /// recoloured only when this changes.
    var fade = 1.0 {
        didSet { if fade != oldValue { colourSpokes() } }
    }

    /// How many spokes show, clockwise from the top, while the indicator is revealed by a pull
    /// (`reveal(count:alpha:)`); nil while it turns.
    private(set) var revealedCount: Int?
    private var revealAlpha = 1.0

    private var spokes: [ShapeLayer] = []
    /// Made once: starting again only sets its begin time.
    private let spin: KeyframeAnimation<Double>

    init(style: ActivityIndicatorStyle = ActivityIndicatorStyle()) {
        self.style = style
        let n = style.spokeCount
        spin = KeyframeAnimation<Double>(keyPath: "transform.rotation.z", values: (0..<n).map(style.angle(atStep:)),
                                         calculationMode: .discrete)
        spin.duration = style.period
        spin.repeatCount = .infinity
        super.init(frame: Rect(x: 0, y: 0, width: style.side, height: style.side))
        let c = style.side / 2, w = style.spokeWidth
        var bar = Path()
        bar.addRoundedRect(Rect(x: c - w / 2, y: c - style.spokeOuterRadius, width: w,
                                height: style.spokeOuterRadius - style.spokeInnerRadius), cornerRadius: w / 2)
        for k in 0..<n {
            // The spoke k steps behind the leader sits k spokes' angles anticlockwise of it.
            let turn = AffineTransform(translationX: -c, y: -c)
                .concatenating(AffineTransform(rotationAngle: -style.angle(atStep: k)))
                .concatenating(AffineTransform(translationX: c, y: c))
            let spoke = ShapeLayer(frame: bounds)
            spoke.path = bar.applying(turn)
            addSublayer(spoke)
            spokes.append(spoke)
        }
        colourSpokes()
    }

    private func colourSpokes() {
        let n = spokes.count
        for (k, spoke) in spokes.enumerated() {
            if let revealed = revealedCount {
                // Spoke k sits k spokes' angles anticlockwise of the top: clockwise from the top it is the
                // (n − k) mod n-th, shown once that many spokes are revealed.
                let clockwise = (n - k) % n
                spoke.isHidden = clockwise >= revealed
                spoke.fillColor = style.color.withAlphaMultiplied(by: revealAlpha * fade)
            } else {
                spoke.isHidden = false
                spoke.fillColor = style.color.withAlphaMultiplied(by: style.alpha(behindLeader: k) * fade)
            }
        }
    }

    /// Shows the first `count` spokes clockwise from the top, all at `alpha`, still: the pull revealing the
    /// indicator one spoke at a time before it turns. The spokes are recoloured only when either changes.
    func reveal(count: Int, alpha: Double) {
        guard count != revealedCount || alpha != revealAlpha else { return }
        revealedCount = count
        revealAlpha = alpha
        transform = .identity
        colourSpokes()
    }

    /// Ends a reveal: every spoke shows, with the turning indicator's alphas.
    func endReveal() {
        guard revealedCount != nil else { return }
        revealedCount = nil
        colourSpokes()
    }

    /// Shows the indicator and turns it by one spoke at a time from `time`, a time of the parent's clock.
    func startAnimating(at time: Double) {
        spin.beginTime = localTime(atParentTime: time)
        add(spin, forKey: ActivityIndicatorLayer.spinKey)
        isHidden = false
    }

    /// Stops the turning and hides the indicator, as UIActivityIndicatorView's `hidesWhenStopped`.
    func stopAnimating() {
        removeAnimation(forKey: ActivityIndicatorLayer.spinKey)
        isHidden = true
    }

    /// Turns the indicator to `step` spokes past the start, without an animation, drawn at `scale` of its size
    /// about its centre (the system header shrinks it as a refresh ends).
    func show(step: Int, scale: Double = 1) {
        let turn = AffineTransform(rotationAngle: style.angle(atStep: step))
        transform = scale == 1 ? turn : turn.concatenating(AffineTransform(scaleX: scale, y: scale))
    }

    private static let spinKey = "spin"
}

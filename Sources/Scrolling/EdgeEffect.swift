#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What Android draws where a list meets its edge: the stretch of Android 12 and later, or the glow before it.
public enum EdgeEffectKind: String, Sendable, CaseIterable {
    case stretch
    case glow
}

/// An edge of the scrolling axis.
public enum ScrollEdge: Sendable {
    case top
    case bottom
}

/// The edge effect at one edge as the drawing layer needs it.
public struct EdgeEffectState: Equatable, Sendable {
    /// The pull, as a fraction of the view's height (0…1): EdgeEffect's `getDistance()`.
    public var distance = 0.0
    /// How much the content is stretched, as a fraction of its height, scaled from the edge: 1 + `stretch` is the
    /// scale. 0.016·d + 0.016·(1 − e^(−d·e/0.33)) (docs/reference.md §5); 0 for the glow.
    public var stretch = 0.0
    /// The glow's opacity (0…0.15) and its height as a fraction of its full height (0…1); 0 for the stretch.
    public var glowAlpha = 0.0
    public var glowScale = 0.0

    public static let none = EdgeEffectState()
}

/// Android's `EdgeEffect` at one edge (docs/reference.md §5): a stateful model stepped once a frame as the widget
/// steps it, since its spring restarts from the state of the last frame and ends linearly below a speed.
///
/// The stretch: a pull adds to the distance (at most 1); on release the distance returns as a spring of natural
/// frequency ω and damping ratio ζ, in pixels of the view's height, finishing at 200 px/s once within 8 px and
/// slower than that; a fling into the edge starts the spring at the distance it has with velocity × 13.
/// The glow: alpha and scale follow the pull, then ease to 0 (decelerate interpolator) over their times.
struct EdgeEffectModel {
    enum State { case idle, pull, absorb, recede, pullDecay }

    var kind = EdgeEffectKind.stretch
    private(set) var state = State.idle
    /// The pull as it accumulates (may go below 0 while the finger pushes back) and as shown (0…1).
    private var pullDistance = 0.0
    private(set) var distance = 0.0
    /// The stretch's spring velocity, px/s.
    private(set) var velocity = 0.0
    private var startTime = 0.0
    /// The glow's animation: its duration (s) and its start and end values.
    private var duration = 0.0
    private var glowAlpha = 0.0, glowScale = 0.0
    private var glowAlphaStart = 0.0, glowAlphaFinish = 0.0, glowScaleStart = 0.0, glowScaleFinish = 0.0

    // EdgeEffect's constants (docs/reference.md §5), other than the tunable spring and absorb factor.
    static let linearStretchIntensity = 0.016
    static let expStretchIntensity = 0.016
    static let scrollDistanceAffectedByExpStretch = 0.33
    static let linearVelocityTakeOver = 200.0
    static let linearDistanceTakeOver = 8.0
    static let velocityThreshold = 0.01
    static let valueThreshold = 0.001
    static let pullTime = 0.167
    static let pullDecayTime = 2.0
    static let recedeTime = 0.6
    static let maxAlpha = 0.15
    static let glowAlphaStart = 0.09
    static let pullDistanceAlphaGlowFactor = 0.8
    static let velocityGlowFactor = 6.0
    static let minAbsorbVelocity = 100
    static let maxAbsorbVelocity = 10000
    static let radiusFactor = 0.6

    init(kind: EdgeEffectKind = .stretch) { self.kind = kind }

    var isFinished: Bool { state == .idle }

    /// The stretch for a distance d: 0.016·d + 0.016·(1 − e^(−d·e/0.33)).
    static func stretch(forDistance d: Double) -> Double {
        let magnitude = abs(d)
        let value = linearStretchIntensity * magnitude
            + expStretchIntensity * (1 - exp(-magnitude * M_E / scrollDistanceAffectedByExpStretch))
        return d < 0 ? -value : value
    }

    /// The glow's full height for a view `width` × `height` px: the cap of a circle of radius 0.6·width/sin 30°
    /// seen from 30°, r·(1 − cos 30°), no taller than the view.
    static func glowBoundsHeight(width: Double, height: Double) -> Double {
        let r = width * radiusFactor / sin(Double.pi / 6)
        return min(height, (r - cos(Double.pi / 6) * r).rounded(.towardZero))
    }

    func snapshot() -> EdgeEffectState {
        switch kind {
        case .stretch:
            return EdgeEffectState(distance: distance, stretch: Self.stretch(forDistance: distance))
        case .glow:
            return EdgeEffectState(distance: distance, glowAlpha: glowAlpha, glowScale: min(glowScale, 1))
        }
    }

    /// `onPullDistance`: a pull of `delta` (fraction of the height, negative back towards the edge) at `time`;
    /// returns how much of it the effect took (a push back cannot take more than the distance shown).
    mutating func pull(_ delta: Double, at time: Double, glowHeight: Double) -> Double {
        let final = max(0, delta + distance)
        let taken = final - distance
        if taken == 0 && distance == 0 { return 0 }
        if state != .pull && state != .pullDecay && kind == .glow {
            pullDistance = distance
            state = .pull
        }
        onPull(taken, at: time, glowHeight: glowHeight)
        return taken
    }

    /// `onPull`: the stretch catches what it shows and adds `delta`, capped at 1; the glow grows.
    private mutating func onPull(_ delta: Double, at time: Double, glowHeight: Double) {
        if state == .pullDecay && time - startTime < duration && kind == .glow { return }
        if state != .pull {
            if kind == .stretch { pullDistance = distance } else { glowScale = max(0, glowScale) }
        }
        state = .pull
        startTime = time
        duration = Self.pullTime
        pullDistance += delta
        if kind == .stretch { pullDistance = min(1, pullDistance) }
        distance = max(0, pullDistance)
        velocity = 0
        if pullDistance == 0 {
            glowScale = 0; glowScaleStart = 0; glowAlpha = 0; glowAlphaStart = 0
        } else {
            glowAlpha = min(Self.maxAlpha, glowAlpha + abs(delta) * Self.pullDistanceAlphaGlowFactor)
            glowAlphaStart = glowAlpha
            glowScale = max(0, 1 - 1 / (abs(pullDistance) * glowHeight).squareRoot() - 0.3) / 0.7
            glowScaleStart = glowScale
        }
        glowAlphaFinish = glowAlpha
        glowScaleFinish = glowScale
        if kind == .stretch && distance == 0 { state = .idle }
    }

    /// `onRelease`: the finger lifts; the effect recedes.
    mutating func release(at time: Double) {
        pullDistance = 0
        guard state == .pull || state == .pullDecay else { return }
        state = .recede
        glowAlphaStart = glowAlpha; glowScaleStart = glowScale
        glowAlphaFinish = 0; glowScaleFinish = 0
        velocity = 0
        startTime = time
        duration = Self.recedeTime
    }

    /// `onAbsorb`: a fling meets the edge at `pixelVelocity` (px/s, its magnitude as OverScroller reports it).
    mutating func absorb(pixelVelocity: Double, at time: Double, factor: Double) {
        startTime = time
        switch kind {
        case .stretch:
            state = .recede
            velocity = Double(Int(pixelVelocity)) * factor
        case .glow:
            state = .absorb
            velocity = 0
            let v = min(max(Self.minAbsorbVelocity, abs(Int(pixelVelocity))), Self.maxAbsorbVelocity)
            duration = (0.15 + Double(v) * 0.02) / 1000
            glowAlphaStart = Self.glowAlphaStart
            glowScaleStart = max(glowScale, 0)
            // EdgeEffect divides the whole velocity by 100 as integers here.
            glowScaleFinish = min(0.025 + Double(v) * Double(v / 100) * 0.00015 / 2, 1)
            glowAlphaFinish = max(glowAlphaStart, min(Double(v) * Self.velocityGlowFactor * 0.00001, Self.maxAlpha))
        }
    }

    /// A finger touching the list catches a stretch where it is (`onPullDistance(0)`).
    mutating func catchStretch(at time: Double, glowHeight: Double) {
        guard kind == .stretch, !isFinished else { return }
        _ = pull(0, at: time, glowHeight: glowHeight)
    }

    /// Advances to `time`, as EdgeEffect's `draw` does each frame; `height` is the view's height in px.
    mutating func advance(to time: Double, height: Double, glowHeight: Double, spring: (frequency: Double, damping: Double)) {
        switch kind {
        case .stretch:
            if state == .recede { updateSpring(to: time, height: height, spring: spring) }
            if state == .recede && distance == 0 && velocity == 0 { state = .idle }
        case .glow:
            guard state != .idle else { return }
            updateGlow(to: time, glowHeight: glowHeight)
        }
    }

    private mutating func updateSpring(to time: Double, height: Double, spring: (frequency: Double, damping: Double)) {
        let dt = time - startTime
        guard dt >= 0.001, height > 0 else { return }
        startTime = time
        let sign = { (x: Double) -> Double in x > 0 ? 1 : x < 0 ? -1 : 0 }
        if abs(velocity) <= Self.linearVelocityTakeOver && abs(distance * height) < Self.linearDistanceTakeOver
            && sign(velocity) == -sign(distance) {
            velocity = sign(velocity) * Self.linearVelocityTakeOver
            let target = distance + velocity * dt / height
            if sign(target) != sign(distance) { distance = 0; velocity = 0 } else { distance = target }
            return
        }
        let w = spring.frequency, z = spring.damping
        let wd = w * (1 - z * z).squareRoot()
        let a = distance * height
        let b = (z * w * a + velocity) / wd
        let decay = exp(-z * w * dt)
        let x = decay * (a * cos(wd * dt) + b * sin(wd * dt))
        let v = x * -w * z + decay * (-wd * a * sin(wd * dt) + wd * b * cos(wd * dt))
        distance = x / height
        velocity = v
        if distance > 1 { distance = 1; velocity = 0 }
        let px = distance * height
        if px < 0 || (abs(velocity) < Self.velocityThreshold && px < Self.valueThreshold) { distance = 0; velocity = 0 }
    }

    private mutating func updateGlow(to time: Double, glowHeight: Double) {
        let t = duration > 0 ? min((time - startTime) / duration, 1) : 1
        let eased = 1 - (1 - t) * (1 - t)
        glowAlpha = glowAlphaStart + (glowAlphaFinish - glowAlphaStart) * eased
        glowScale = glowScaleStart + (glowScaleFinish - glowScaleStart) * eased
        if state != .pull { distance = distanceFromGlow(glowHeight: glowHeight) }
        guard t >= 1 - 0.001 else { return }
        switch state {
        case .absorb, .pull:
            // An absorbed glow recedes; a held one decays over 2 s.
            let holding = state == .pull
            state = holding ? .pullDecay : .recede
            startTime = time
            duration = holding ? Self.pullDecayTime : Self.recedeTime
            glowAlphaStart = glowAlpha; glowScaleStart = glowScale
            glowAlphaFinish = 0; glowScaleFinish = 0
        case .pullDecay:
            state = .recede
        case .recede:
            state = .idle
        case .idle:
            break
        }
    }

    /// EdgeEffect's estimate of the pull from the glow it shows.
    private func distanceFromGlow(glowHeight: Double) -> Double {
        if glowScale >= 1 { return 1 }
        if glowScale > 0 {
            let v = 1 / 0.7 / (glowScale - 1)
            return glowHeight > 0 ? v * v / glowHeight : 0
        }
        return glowAlpha / Self.pullDistanceAlphaGlowFactor
    }
}

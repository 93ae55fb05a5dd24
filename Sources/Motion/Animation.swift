import Geometry

/// An animation with Core Animation's timing, as `CAAnimation`: it knows its timeline and how to change the
/// value of the key paths it animates at a time; the object that holds it supplies the model values.
///
/// Animations are reference types so that they can be paused and resumed in place (QA1673); an `AnimationSet`
/// copies what it is given, as Core Animation does, so that one animation object can be added many times.
///
/// Stored properties skip Swift's dynamic exclusivity checks: they are plain values read many times a frame, never
/// passed `inout`, and the checks (a thread-local lookup each) cost more than evaluating the animation.
public class Animation: MediaTiming {
    @exclusivity(unchecked) public var beginTime = 0.0
    @exclusivity(unchecked) public var duration = 0.0
    @exclusivity(unchecked) public var speed = 1.0
    @exclusivity(unchecked) public var timeOffset = 0.0
    @exclusivity(unchecked) public var repeatCount = 0.0
    @exclusivity(unchecked) public var repeatDuration = 0.0
    @exclusivity(unchecked) public var autoreverses = false
    @exclusivity(unchecked) public var fillMode = FillMode.removed
    /// The curve applied to each simple run; nil means linear, as in Core Animation.
    @exclusivity(unchecked) public var timingFunction: TimingFunction?
    /// Whether the holder drops the animation when its active time ends (true, the default) or keeps it (for a fill).
    @exclusivity(unchecked) var isRemovedOnCompletion = true
    /// Called once: with true when the active time ends, with false when the animation is removed before that.
    @exclusivity(unchecked) public var completion: ((_ finished: Bool) -> Void)?

    public init() {}

    init(copying other: Animation) {
        beginTime = other.beginTime
        duration = other.duration
        speed = other.speed
        timeOffset = other.timeOffset
        repeatCount = other.repeatCount
        repeatDuration = other.repeatDuration
        autoreverses = other.autoreverses
        fillMode = other.fillMode
        timingFunction = other.timingFunction
        isRemovedOnCompletion = other.isRemovedOnCompletion
        completion = other.completion
    }

    /// An independent copy with the same settings and completion.
    public func copy() -> Animation { Animation(copying: self) }

    /// The fraction of the change shown at parent time `t` (the timing curve applied), or nil when the animation
    /// shows nothing then.
    public func fraction(atParentTime t: Double) -> Double? {
        guard case .active(let progress) = phase(atParentTime: t) else { return nil }
        guard let timing = timingFunction else { return progress }
        return timing.value(at: progress)
    }

    /// Whether the animation changes `keyPath`.
    public func animates(keyPath: String) -> Bool { false }

    /// Appends the key paths the animation changes.
    func collectKeyPaths(into list: inout [String]) {}

    /// Applies the animation's effect on `keyPath` at parent time `t` to `value`: the model value, or the value
    /// left by the animations added before this one. Does nothing for other key paths and other value types.
    public func apply<V: Animatable>(to value: inout V, keyPath: String, atParentTime t: Double) {}
}

/// An animation of one key path's value, as `CAPropertyAnimation`.
public class PropertyAnimation<Value: Animatable>: Animation {
    @exclusivity(unchecked) public var keyPath: String
    /// When true the animated value is added to the value below instead of replacing it.
    @exclusivity(unchecked) var isAdditive = false

    /// Which final class this is, so that the fast path can call it directly.
    enum Kind { case basic, keyframe, other }
    let kind: Kind

    public convenience init(keyPath: String) {
        self.init(keyPath: keyPath, kind: .other)
    }

    init(keyPath: String, kind: Kind) {
        self.keyPath = keyPath
        self.kind = kind
        super.init()
    }

    init(copying other: PropertyAnimation<Value>) {
        keyPath = other.keyPath
        isAdditive = other.isAdditive
        kind = other.kind
        super.init(copying: other)
    }

    /// `value(atParentTime:base:)` in place: false when the animation shows nothing. Called on the final classes
    /// with a concrete `Value`, it is compiled for that type.
    @inline(__always)
    final func evaluate(_ x: inout Value, atParentTime t: Double) -> Bool {
        guard let f = fraction(atParentTime: t), let v = value(atFraction: f, base: x) else { return false }
        x = isAdditive ? x.adding(v) : v
        return true
    }

    /// The value shown at parent time `t` over `base` (the model value or the animations below), or nil when the
    /// animation shows nothing then.
    @_specialize(exported: false, where Value == Double)
    @_specialize(exported: false, where Value == Point)
    public func value(atParentTime t: Double, base: Value) -> Value? {
        guard let f = fraction(atParentTime: t), let v = value(atFraction: f, base: base) else { return nil }
        return isAdditive ? base.adding(v) : v
    }

    /// The animated value at fraction `f` of the change, before it is added to `base` for an additive animation.
    func value(atFraction f: Double, base: Value) -> Value? { nil }

    public override func animates(keyPath: String) -> Bool { keyPath == self.keyPath }

    public override func apply<V: Animatable>(to value: inout V, keyPath: String, atParentTime t: Double) {
        // The type test first: comparing metadata is cheaper than comparing strings.
        guard V.self == Value.self, keyPath == self.keyPath else { return }
        // The types are equal, checked above, so the casts reinterpret a value as its own type; unlike a cast
        // through `Any` they box nothing. Doubles and points, most of what effects animate, take a path on the
        // concrete final classes: a generic class's methods called through its vtable are not specialised and look
        // up type metadata on every call, which cost more than the evaluation itself.
        if V.self == Double.self {
            var x = unsafeBitCast(value, to: Double.self)
            if evaluateConcrete(&x, atParentTime: t) { value = unsafeBitCast(x, to: V.self) }
        } else if V.self == Point.self {
            var p = unsafeBitCast(value, to: Point.self)
            if evaluateConcrete(&p, atParentTime: t) { value = unsafeBitCast(p, to: V.self) }
        } else {
            applyGeneric(to: &value, atParentTime: t)
        }
    }

    /// The path for other value types, kept out of `apply`: its `Value?` made `apply` fetch Optional's metadata
    /// on every call, even for doubles and points, which cost as much as evaluating the animation.
    @inline(never)
    private func applyGeneric<V: Animatable>(to value: inout V, atParentTime t: Double) {
        if let v = self.value(atParentTime: t, base: unsafeBitCast(value, to: Value.self)) {
            value = unsafeBitCast(v, to: V.self)
        }
    }

    /// The specialised evaluation for a concrete value type `T` equal to `Value` (the caller checked).
    @inline(__always)
    private func evaluateConcrete<T: Animatable>(_ value: inout T, atParentTime t: Double) -> Bool {
        switch kind {
        case .basic: return unsafeBitCast(self, to: BasicAnimation<T>.self).evaluate(&value, atParentTime: t)
        case .keyframe: return unsafeBitCast(self, to: KeyframeAnimation<T>.self).evaluate(&value, atParentTime: t)
        case .other:
            guard let v = unsafeBitCast(self, to: PropertyAnimation<T>.self).value(atParentTime: t, base: value) else { return false }
            value = v
            return true
        }
    }

    /// The key paths the animation changes, for a holder that indexes them.
    override func collectKeyPaths(into list: inout [String]) { list.append(keyPath) }
}

/// From one value to another, as `CABasicAnimation`, with its rules for a missing `from`, `to` or `by`:
/// from+to, from+by (to = from + by), by+to (from = to − by), from alone (to the base), to alone (from the base),
/// by alone (from the base to base + by); with none, the base shows.
public final class BasicAnimation<Value: Animatable>: PropertyAnimation<Value> {
    @exclusivity(unchecked) public var fromValue: Value?
    @exclusivity(unchecked) var toValue: Value?
    @exclusivity(unchecked) var byValue: Value?

    public init(keyPath: String, from: Value? = nil, to: Value? = nil, by: Value? = nil) {
        fromValue = from
        toValue = to
        byValue = by
        super.init(keyPath: keyPath, kind: .basic)
    }

    init(copying other: BasicAnimation<Value>) {
        fromValue = other.fromValue
        toValue = other.toValue
        byValue = other.byValue
        super.init(copying: other)
    }

    public override func copy() -> Animation { BasicAnimation(copying: self) }

    @_specialize(exported: false, where Value == Double)
    @_specialize(exported: false, where Value == Point)
    override func value(atFraction f: Double, base: Value) -> Value? {
        // Nested optionals rather than a switch over a tuple of them: generic code would build the tuple's type
        // metadata at run time on every frame.
        let start: Value, end: Value
        if let from = fromValue {
            start = from
            if let to = toValue { end = to } else if let by = byValue { end = from.adding(by) } else { end = base }
        } else if let to = toValue {
            end = to
            if let by = byValue { start = to.subtracting(by) } else { start = base }
        } else if let by = byValue {
            start = base
            end = base.adding(by)
        } else {
            return base
        }
        return start.interpolated(to: end, fraction: f)
    }
}

/// How a keyframe animation moves between its values, as `CAAnimationCalculationMode`.
public enum CalculationMode: Sendable, Hashable {
    /// Interpolates between neighbouring values.
    case linear
    /// Jumps from value to value: value i shows from keyTimes[i] until the next key time.
    case discrete
}

/// Through a list of values, as `CAKeyframeAnimation`.
///
/// `keyTimes` are fractions of the duration, increasing from 0 to 1, one per value (in discrete mode one more is
/// allowed, the end). A missing or invalid list spaces the values evenly, as Core Animation does;
/// `validationError` says what is wrong with it. `timingFunctions` gives one curve per segment between values.
public final class KeyframeAnimation<Value: Animatable>: PropertyAnimation<Value> {
    @exclusivity(unchecked) public var values: [Value] { didSet { keyTimesAreUsable = validationError == nil } }
    @exclusivity(unchecked) public var keyTimes: [Double]? { didSet { keyTimesAreUsable = validationError == nil } }
    @exclusivity(unchecked) public var timingFunctions: [TimingFunction]?
    @exclusivity(unchecked) public var calculationMode: CalculationMode { didSet { keyTimesAreUsable = validationError == nil } }
    /// `validationError == nil`, kept up to date so that a frame builds no error text.
    @exclusivity(unchecked) private var keyTimesAreUsable = true

    public init(keyPath: String, values: [Value], keyTimes: [Double]? = nil,
                timingFunctions: [TimingFunction]? = nil, calculationMode: CalculationMode = .linear) {
        self.values = values
        self.keyTimes = keyTimes
        self.timingFunctions = timingFunctions
        self.calculationMode = calculationMode
        super.init(keyPath: keyPath, kind: .keyframe)
        keyTimesAreUsable = validationError == nil
    }

    init(copying other: KeyframeAnimation<Value>) {
        values = other.values
        keyTimes = other.keyTimes
        timingFunctions = other.timingFunctions
        calculationMode = other.calculationMode
        super.init(copying: other)
        keyTimesAreUsable = other.keyTimesAreUsable
    }

    public override func copy() -> Animation { KeyframeAnimation(copying: self) }

    /// What is wrong with `keyTimes`, naming the entry at fault, or nil when they are usable.
    var validationError: String? {
        guard let times = keyTimes else { return nil }
        let allowed = calculationMode == .discrete ? [values.count, values.count + 1] : [values.count]
        guard allowed.contains(times.count) else {
            return "keyframe animation '\(keyPath)': \(times.count) keyTimes for \(values.count) values; give one per value"
        }
        for (i, time) in times.enumerated() {
            guard time.isFinite, time >= 0, time <= 1 else {
                return "keyframe animation '\(keyPath)': keyTimes[\(i)] = \(time) is outside 0…1"
            }
            if i > 0 && time < times[i - 1] {
                return "keyframe animation '\(keyPath)': keyTimes[\(i)] = \(time) is less than keyTimes[\(i - 1)]; make them increase"
            }
        }
        return nil
    }

    /// Key time i: the given one when the list is valid, else evenly spaced (i/(n−1), or i/n in discrete mode).
    @inline(__always) private func keyTime(_ i: Int, valid: Bool) -> Double {
        if valid, let times = keyTimes { return times[i] }
        let n = values.count
        return calculationMode == .discrete ? Double(i) / Double(n) : Double(i) / Double(Swift.max(n - 1, 1))
    }

    @_specialize(exported: false, where Value == Double)
    override func value(atFraction f: Double, base: Value) -> Value? {
        let n = values.count
        guard n > 0 else { return nil }
        guard n > 1 else { return values[0] }
        let valid = keyTimes != nil && keyTimesAreUsable
        switch calculationMode {
        case .discrete:
            var index = 0
            for i in 1..<n where keyTime(i, valid: valid) <= f { index = i }
            return values[index]
        case .linear:
            if f <= keyTime(0, valid: valid) { return values[0] }
            for i in 0..<(n - 1) {
                let t0 = keyTime(i, valid: valid), t1 = keyTime(i + 1, valid: valid)
                guard f < t1 || i == n - 2 else { continue }
                if f >= t1 { return values[n - 1] }
                var local = t1 > t0 ? (f - t0) / (t1 - t0) : 1
                if let curves = timingFunctions, i < curves.count { local = curves[i].value(at: local) }
                return values[i].interpolated(to: values[i + 1], fraction: local)
            }
            return values[n - 1]
        }
    }
}

/// Animations that run together on one timeline, as `CAAnimationGroup`: the children's parent time is the group's
/// local time, so the group's begin time, speed, repeats and timing curve move them all, and the group's duration
/// cuts them off.
public final class AnimationGroup: Animation {
    @exclusivity(unchecked) public var animations: [Animation]

    public init(animations: [Animation] = []) {
        self.animations = animations
        super.init()
    }

    init(copying other: AnimationGroup) {
        animations = other.animations.map { $0.copy() }
        super.init(copying: other)
    }

    public override func copy() -> Animation { AnimationGroup(copying: self) }

    public override func animates(keyPath: String) -> Bool {
        animations.contains { $0.animates(keyPath: keyPath) }
    }

    override func collectKeyPaths(into list: inout [String]) {
        for child in animations { child.collectKeyPaths(into: &list) }
    }

    public override func apply<V: Animatable>(to value: inout V, keyPath: String, atParentTime t: Double) {
        guard let f = fraction(atParentTime: t) else { return }
        let local = f * simpleDuration
        // Without a retain and release per child, as in `AnimationSet.value(forKeyPath:model:atTime:)`.
        animations.withUnsafeBufferPointer { children in
            for i in children.indices {
                Unmanaged.passUnretained(children[i])._withUnsafeGuaranteedRef {
                    $0.apply(to: &value, keyPath: keyPath, atParentTime: local)
                }
            }
        }
    }
}

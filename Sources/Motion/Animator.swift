import Geometry

/// Runs animations against one clock: ends them on time, calls their completions, and groups the animations
/// added inside `animate(duration:timing:changes:completion:)` into transactions.
///
/// Each animated object (a layer) owns an `AnimationSet` made from the animator; the animator only keeps weak
/// references to the sets, so an object that goes away takes its animations with it.
public final class Animator {
    public let clock: Clock

    private struct WeakSet {
        weak var set: AnimationSet?
    }
    @exclusivity(unchecked) private var sets: [WeakSet] = []
    /// The innermost open transaction.
    private(set) var currentTransaction: Transaction?

    public init(clock: Clock) {
        self.clock = clock
    }

    func register(_ set: AnimationSet) {
        sets.append(WeakSet(set: set))
    }

    /// The duration that animations added now without one take: the innermost transaction's, else nil.
    var currentDuration: Double? { currentTransaction?.duration }

    /// Runs `changes`, giving every animation added in it (to any set of this animator) `duration` and `timing`
    /// unless it has its own, and calls `completion` once, when all of them have ended or been removed, or at once
    /// when none was added. Transactions nest: an outer one also waits for the inner ones' animations.
    func animate(duration: Double = defaultAnimationDuration, timing: TimingFunction = .default,
                        changes: () -> Void, completion: (() -> Void)? = nil) {
        let transaction = Transaction(duration: duration, timing: timing, parent: currentTransaction, completion: completion)
        currentTransaction = transaction
        changes()
        currentTransaction = transaction.parent
        transaction.commit()
    }

    /// Ends the animations whose active time is over at the clock's time and calls their completions; call once per
    /// frame.
    public func update() {
        update(to: clock.now)
    }

    /// As `update()`, at an explicit time on the clock.
    public func update(to time: Double) {
        var live = 0
        // Sets added by completions during the loop are kept and run on the next update.
        var i = 0
        while i < sets.count {
            if let set = sets[i].set {
                set.update(to: time)
                if live != i { sets[live] = sets[i] }
                live += 1
            }
            i += 1
        }
        if live < sets.count { sets.removeLast(sets.count - live) }
    }

    /// True while some animation is running and not paused: the screen changes from frame to frame.
    public var hasRunningAnimations: Bool {
        sets.contains { $0.set?.hasRunningAnimations ?? false }
    }
}

/// A group of animations added together, whose completion runs once all of them have ended or been removed.
final class Transaction {
    let duration: Double
    let timing: TimingFunction
    let parent: Transaction?
    private var completion: (() -> Void)?
    private var pending = 0
    private var isCommitted = false

    init(duration: Double, timing: TimingFunction, parent: Transaction?, completion: (() -> Void)?) {
        self.duration = duration
        self.timing = timing
        self.parent = parent
        self.completion = completion
    }

    /// An animation joined this transaction and the ones around it.
    func retain() {
        pending += 1
        parent?.retain()
    }

    /// An animation of this transaction ended or was removed.
    func release() {
        pending -= 1
        fireIfDone()
        parent?.release()
    }

    func commit() {
        isCommitted = true
        fireIfDone()
    }

    private func fireIfDone() {
        guard isCommitted, pending <= 0, let done = completion else { return }
        completion = nil
        done()
    }
}

/// The animations attached to one object (a layer), by key, in the order added, as a layer's animation list.
///
/// The set has its own timeline in the animator's clock time, so the whole object can be paused and resumed
/// (QA1673) as a layer is: `pause(atParentTime:)` with the clock's now. Duration and repeats of the set itself
/// are not used. Hot stored properties skip dynamic exclusivity checks (see `Animation`).
public final class AnimationSet: MediaTiming {
    public let animator: Animator
    @exclusivity(unchecked) public var beginTime = 0.0
    @exclusivity(unchecked) public var duration = Double.infinity
    @exclusivity(unchecked) public var speed = 1.0
    @exclusivity(unchecked) public var timeOffset = 0.0
    public var repeatCount = 0.0
    public var repeatDuration = 0.0
    public var autoreverses = false
    public var fillMode = FillMode.removed

    private struct Entry {
        var key: String?
        var animation: Animation
        /// The key paths the animation changes, listed once when it is added (an added animation is not changed,
        /// as in Core Animation), so that a lookup skips the others without calling into them.
        var keyPaths: [String]
        var transaction: Transaction?
        var hasEnded = false
    }
    @exclusivity(unchecked) private var entries: [Entry] = []
    /// Animations that ended in the current update, kept between updates so that a frame allocates nothing.
    @exclusivity(unchecked) private var ended: [Entry] = []

    public init(animator: Animator) {
        self.animator = animator
        animator.register(self)
    }

    /// Adds a copy of `animation`, replacing the one under the same key (which is removed: its completion gets
    /// false). A begin time of 0 means now; a duration of 0 or no timing curve takes the open transaction's.
    public func add(_ animation: Animation, forKey key: String? = nil) {
        if let key { removeAnimation(forKey: key) }
        let copy = animation.copy()
        if copy.beginTime == 0 { copy.beginTime = localTime(atParentTime: animator.clock.now) }
        let transaction = animator.currentTransaction
        if let transaction {
            if copy.duration == 0 { copy.duration = transaction.duration }
            if copy.timingFunction == nil { copy.timingFunction = transaction.timing }
            transaction.retain()
        }
        var keyPaths: [String] = []
        copy.collectKeyPaths(into: &keyPaths)
        entries.append(Entry(key: key, animation: copy, keyPaths: keyPaths, transaction: transaction))
    }

    /// The animation under `key` (the copy that runs), to read or to pause in place.
    public func animation(forKey key: String) -> Animation? {
        entries.last { $0.key == key }?.animation
    }

    /// The keys of the animations, in the order added.
    public var animationKeys: [String] { entries.compactMap(\.key) }

    public var isEmpty: Bool { entries.isEmpty }

    public func removeAnimation(forKey key: String) {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return }
        let entry = entries.remove(at: index)
        finish(entry, finished: entry.hasEnded)
    }

    public func removeAllAnimations() {
        let removed = entries
        entries.removeAll()
        for entry in removed { finish(entry, finished: entry.hasEnded) }
    }

    /// Calls the completion of an animation that leaves before its end (false), unless it already ran.
    private func finish(_ entry: Entry, finished: Bool) {
        guard !entry.hasEnded else { return }
        entry.animation.completion?(finished)
        entry.transaction?.release()
    }

    /// The presentation value of `keyPath` at the clock's time: `model` with every animation of it applied in order.
    public func value<V: Animatable>(forKeyPath keyPath: String, model: V) -> V {
        value(forKeyPath: keyPath, model: model, atTime: animator.clock.now)
    }

    /// The presentation value of `keyPath` at `time` on the animator's clock.
    @_specialize(exported: false, where V == Double)
    @_specialize(exported: false, where V == Point)
    public func value<V: Animatable>(forKeyPath keyPath: String, model: V, atTime time: Double) -> V {
        let local = localTime(atParentTime: time)
        var value = model
        // Read through the buffer, which this call keeps alive, and call the animations without retaining each:
        // evaluating calls out of nothing that could change the list, and the retains and releases of one
        // reference per entry (atomic, and through the side table for weakly held objects) cost more than the
        // evaluation of most animations.
        entries.withUnsafeBufferPointer { list in
            for entry in list.indices where list[entry].keyPaths.contains(keyPath) {
                Unmanaged.passUnretained(list[entry].animation)._withUnsafeGuaranteedRef {
                    $0.apply(to: &value, keyPath: keyPath, atParentTime: local)
                }
            }
        }
        return value
    }

    /// True while one of the animations runs and neither it nor the set is paused.
    public var hasRunningAnimations: Bool {
        speed != 0 && entries.contains { !$0.hasEnded && $0.animation.speed != 0 }
    }

    /// Marks the animations whose active time is over at `time`, drops those removed on completion and then calls
    /// their completions (after the list is consistent, so a completion may add or remove animations).
    func update(to time: Double) {
        let local = localTime(atParentTime: time)
        ended.removeAll(keepingCapacity: true)
        var kept = 0
        for i in entries.indices {
            // Entries are touched in place: copying one out and back costs a retain and release per field.
            if !entries[i].hasEnded && entries[i].animation.hasEnded(atParentTime: local) {
                ended.append(entries[i])
                entries[i].hasEnded = true
                if entries[i].animation.isRemovedOnCompletion { continue }
            }
            if kept != i { entries.swapAt(kept, i) }
            kept += 1
        }
        if kept < entries.count { entries.removeLast(entries.count - kept) }
        for entry in ended {
            entry.animation.completion?(true)
            entry.transaction?.release()
        }
        ended.removeAll(keepingCapacity: true)
    }
}

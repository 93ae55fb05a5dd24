import Testing
import TestSupport
@testable import Motion

@Suite struct AnimatorTests {
    private func opacity(from: Double = 0, to: Double = 1, duration: Double = 0) -> BasicAnimation<Double> {
        let a = BasicAnimation<Double>(keyPath: "opacity", from: from, to: to)
        a.duration = duration
        return a
    }

    @Test func addingStartsNowAndCompletionRunsAtTheEnd() {
        let clock = SimulatedClock(start: 5)
        let animator = Animator(clock: clock)
        let set = AnimationSet(animator: animator)
        var finished: [Bool] = []
        let a = opacity(duration: 1)
        a.completion = { finished.append($0) }
        set.add(a, forKey: "fade")
        #expect(set.animation(forKey: "fade")?.beginTime == 5)
        #expect(a.beginTime == 0)                                // the set runs a copy
        clock.advance(by: 0.5)
        #expect(set.value(forKeyPath: "opacity", model: 7.0) == 0.5)
        #expect(animator.hasRunningAnimations)
        animator.update()
        #expect(finished.isEmpty)
        clock.advance(by: 0.5)
        animator.update()
        #expect(finished == [true])
        #expect(set.isEmpty && !animator.hasRunningAnimations)
        #expect(set.value(forKeyPath: "opacity", model: 7.0) == 7)
        animator.update()
        #expect(finished == [true])
    }

    @Test func replacingAKeyRemovesTheOldAnimation() {
        let animator = Animator(clock: SimulatedClock())
        let set = AnimationSet(animator: animator)
        var log: [String] = []
        let first = opacity(duration: 1), second = opacity(from: 1, to: 0, duration: 1)
        first.completion = { log.append("first \($0)") }
        second.completion = { log.append("second \($0)") }
        set.add(first, forKey: "fade")
        set.add(second, forKey: "fade")
        #expect(log == ["first false"])
        #expect(set.animationKeys == ["fade"])
        set.removeAllAnimations()
        #expect(log == ["first false", "second false"])
    }

    @Test func keptAnimationsFillAfterTheirEnd() {
        let clock = SimulatedClock()
        let animator = Animator(clock: clock)
        let set = AnimationSet(animator: animator)
        let a = opacity(duration: 1)
        a.isRemovedOnCompletion = false
        a.fillMode = .forwards
        var calls = 0
        a.completion = { _ in calls += 1 }
        set.add(a, forKey: "fade")
        clock.advance(by: 2)
        animator.update()
        animator.update()
        #expect(calls == 1 && !set.isEmpty && !animator.hasRunningAnimations)
        #expect(set.value(forKeyPath: "opacity", model: 7.0) == 1)
    }

    @Test func additiveAnimationsStackOnTheModel() {
        let clock = SimulatedClock()
        let animator = Animator(clock: clock)
        let set = AnimationSet(animator: animator)
        let a = BasicAnimation<Double>(keyPath: "x", from: 0, to: 10)
        a.duration = 1
        a.isAdditive = true
        set.add(a)
        set.add(a)
        clock.advance(by: 0.5)
        #expect(set.value(forKeyPath: "x", model: 100.0) == 110)
    }

    @Test func transactionGivesDurationAndTimingToItsAnimations() {
        let clock = SimulatedClock()
        let animator = Animator(clock: clock)
        let set = AnimationSet(animator: animator)
        var done = 0
        animator.animate(duration: 0.5, timing: .easeOut, changes: {
            #expect(animator.currentDuration == 0.5)
            set.add(opacity(), forKey: "a")
            set.add(opacity(duration: 2), forKey: "b")
        }, completion: { done += 1 })
        #expect(animator.currentDuration == nil)
        #expect(set.animation(forKey: "a")?.duration == 0.5 && set.animation(forKey: "a")?.timingFunction == .easeOut)
        #expect(set.animation(forKey: "b")?.duration == 2)
        clock.advance(by: 1)
        animator.update()
        #expect(done == 0)
        clock.advance(by: 1)
        animator.update()
        #expect(done == 1)
    }

    @Test func emptyTransactionCompletesAtOnce() {
        let animator = Animator(clock: SimulatedClock())
        var done = 0
        animator.animate(duration: 1, changes: {}, completion: { done += 1 })
        #expect(done == 1)
    }

    /// Random transactions, with animations that end, are removed, replaced or outlive each other: every
    /// transaction's completion runs exactly once, and not before its last animation has gone.
    @Test func transactionCompletionFiresExactlyOnce() {
        var random = SeededRandom(seed: 2024)
        for _ in 0..<100 {
            let clock = SimulatedClock()
            let animator = Animator(clock: clock)
            let sets = (0..<3).map { _ in AnimationSet(animator: animator) }
            let transactions = 1 + Int(random.next() % 4)
            var fired = [Int](repeating: 0, count: transactions)
            var pendingEnds = [Double](repeating: 0, count: transactions)
            var keys: [(AnimationSet, String)] = []
            for t in 0..<transactions {
                let count = Int(random.next() % 4)
                animator.animate(duration: random.double(in: 0.05...1), changes: {
                    for i in 0..<count {
                        let a = opacity(duration: random.next() % 2 == 0 ? 0 : random.double(in: 0.05...1.5))
                        a.repeatCount = random.next() % 5 == 0 ? 2.5 : 0
                        let set = sets[Int(random.next() % 3)]
                        let key = "k\(t)-\(i)-\(random.next() % 3)"
                        set.add(a, forKey: key)
                        keys.append((set, key))
                        pendingEnds[t] = max(pendingEnds[t], clock.now + set.animation(forKey: key)!.activeDuration)
                    }
                    if random.next() % 3 == 0 {
                        // A nested transaction: the outer one waits for it too.
                        animator.animate(duration: 0.3, changes: { sets[0].add(opacity(), forKey: "nested\(t)") })
                        keys.append((sets[0], "nested\(t)"))
                        pendingEnds[t] = max(pendingEnds[t], clock.now + 0.3)
                    }
                }, completion: { fired[t] += 1 })
                if count == 0 && pendingEnds[t] == 0 { #expect(fired[t] == 1) }
                clock.advance(by: random.double(in: 0...0.2))
            }
            // 5 s: longer than the longest animation (2.5 runs of 1.5 s) started in the first second.
            for _ in 0..<300 {
                if random.next() % 10 == 0, let (set, key) = keys.randomElement(using: &random) {
                    set.removeAnimation(forKey: key)
                }
                clock.advance(by: 1.0 / 60)
                animator.update()
                for t in 0..<transactions { #expect(fired[t] <= 1) }
            }
            for t in 0..<transactions { #expect(fired[t] == 1, "transaction \(t) fired \(fired[t]) times") }
        }
    }

    @Test func pausingTheSetFreezesAllItsAnimations() {
        // QA1673 on the object that holds the animations, as a layer is paused.
        var random = SeededRandom(seed: 77)
        for _ in 0..<100 {
            let clock = SimulatedClock()
            let animator = Animator(clock: clock)
            let set = AnimationSet(animator: animator)
            let a = opacity(from: random.double(in: -5...5), to: random.double(in: -5...5), duration: random.double(in: 0.2...2))
            a.repeatCount = .infinity
            a.autoreverses = true
            a.timingFunction = .easeInEaseOut
            set.add(a, forKey: "a")
            clock.advance(by: random.double(in: 0...3))
            let before = set.value(forKeyPath: "opacity", model: 0.0)
            set.pause(atParentTime: clock.now)
            #expect(!animator.hasRunningAnimations)
            clock.advance(by: random.double(in: 0...3))
            #expect(set.value(forKeyPath: "opacity", model: 0.0) == before)
            set.resume(atParentTime: clock.now)
            #expect(abs(set.value(forKeyPath: "opacity", model: 0.0) - before) < 1e-9)
            #expect(animator.hasRunningAnimations)
        }
    }
}

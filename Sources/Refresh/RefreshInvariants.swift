import Scrolling

/// The refresh control's invariants on its scroll view, checked frame by frame: what a person would see go wrong —
/// a jump, a header left half hidden, an inset added twice or not taken back, a state the machine cannot reach
/// (docs/audit.md names each and the reports it comes from). `refreshlab audit` checks them on every frame of its
/// cases; the transition tests drive a bare scroll view with it, the soak test the whole simulation.
public final class RefreshInvariants {
    /// What a problem breaks.
    public enum Invariant: String, CaseIterable, Sendable {
        /// The content (or a floating header) moves by no more than the finger and the running motion account for.
        case noJump = "no jump"
        /// With the finger up, the whole header is in view from the end of its inset animation until the end.
        case headerInView = "header in view"
        /// The inset is added once, the scroll view's own is kept, and at rest it is the scroll view's own again.
        case inset = "inset"
        /// The state machine takes only the documented transitions.
        case transitions = "transitions"
        /// The footer's bottom inset and the header's top inset are each the scroll view's own plus what their
        /// owner added: neither writes over or carries off the other's.
        case insetsFight = "insets never fight"
    }

    /// A problem: the invariant, what was seen, and when.
    public struct Failure: Equatable, Sendable {
        public var invariant: Invariant
        public var detail: String
        public var time: Double
    }

    public let scrollView: ScrollView
    public let control: RefreshControl
    /// The footer at the list's bottom, whose inset must stay its own, or nil.
    public let footer: LoadMoreFooter?
    /// The scroll view's own top inset, which the control adds to and must give back unchanged.
    public let base: Double
    /// The scroll view's own bottom inset, to which only the footer adds.
    public let baseBottom: Double
    /// What went wrong, the first `maxProblems` of it, each with `context()` (the time, the gesture).
    public private(set) var problems: [String] = []
    /// The same, each with its invariant and time.
    public private(set) var failures: [Failure] = []
    /// The time of the frame being checked.
    private var now = 0.0
    public var maxProblems = 5
    /// Describes the moment for a problem's message.
    public var context: () -> String = { "" }
    /// The largest inset any effect adds.
    public static let largestInset = RefreshEffects.names.compactMap { RefreshEffects.make($0)?.metrics }
        .flatMap { [$0.refreshingInset] + $0.finishing.map(\.inset) }.max() ?? 0

    /// The largest inset this control may add: an effect's, or the list's height while its second floor is open.
    var largestInset: Double {
        control.secondFloor == nil ? RefreshInvariants.largestInset
            : Swift.max(RefreshInvariants.largestInset, scrollView.boundsSize.height)
    }
    /// The viscous-fluid curve's steepest slope over its mean, with a margin: 5.06 at an eighth of its time.
    static let viscousPeakSlope = 5.2

    private var lastOffset: Double
    private var lastInsetTop: Double
    /// How far the content was past its top or bottom edge at the end of the last frame.
    private var lastOverscroll = 0.0
    private var lastVelocity = 0.0
    private var lastDistance = 0.0
    private var lastFloats = false
    /// The effect of the last frame: a switch puts a floating header back at its start at once, by design.
    private var lastEffect: ObjectIdentifier?
    private var lastState = RefreshState.idle
    /// When the refresh under way, with the finger up, should have brought its header into view.
    private var refreshSettlesAt: Double?
    /// Whether the finger or the wheel moved the list since the refresh under way began.
    private var scrolledDuringRefresh = false
    /// Whether the finger that held the content when the refresh began is still down: its lift must bring the
    /// header into view, wherever it left the content.
    private var heldSinceStart = false

    public init(scrollView: ScrollView, control: RefreshControl, footer: LoadMoreFooter? = nil) {
        self.scrollView = scrollView
        self.control = control
        self.footer = footer
        base = scrollView.contentInset.top - control.addedInset
        baseBottom = scrollView.contentInset.bottom - (footer?.addedInset ?? 0)
        lastOffset = scrollView.contentOffset.y
        lastInsetTop = scrollView.contentInset.top
        lastState = control.state
    }

    var metrics: RefreshMetrics { control.metrics }
    var offset: Double { scrollView.contentOffset.y }
    /// How far the content is past its top or bottom edge, in points.
    var overscroll: Double {
        let top = -scrollView.adjustedContentInset.top
        let bottom = Swift.max(top, scrollView.contentSize.height + scrollView.adjustedContentInset.bottom
                                   - scrollView.boundsSize.height)
        return Swift.max(top - offset, offset - bottom, 0)
    }
    /// How long past its inset animation a refreshing header may take to come into view, in seconds.
    static let settleMargin = 0.1
    /// How much must show for the whole header to be in view while refreshing: its refreshing inset, and for a
    /// header that pushes the list, its box too (a header taller than its refreshing inset is cut at its top).
    var wholeHeader: Double {
        metrics.placement.floating != nil ? metrics.refreshingInset : Swift.max(metrics.refreshingInset, metrics.headerHeight)
    }
    /// How much of the header is in view: the content's drop below its top, or a floating header's distance.
    public var shownHeader: Double {
        metrics.placement.floating != nil ? control.distance : -offset - base - scrollView.safeAreaInsets.top
    }

    /// A length as a message gives it: to a hundredth of a point.
    private func points(_ value: Double) -> String { "\((value * 100).rounded() / 100)" }

    public func note(_ problem: String, _ invariant: Invariant = .noJump) {
        guard problems.count < maxProblems else { return }
        problems.append(context() + ": " + problem)
        failures.append(Failure(invariant: invariant, detail: problem, time: now))
    }

    /// The farthest a floating header comes down on a pull near the trigger: an animation moves it at most this far.
    private var triggerReach: Double { metrics.triggerDistance + 12 }

    /// Checks a frame at `time` in which the finger (or the wheel) moved the content by up to `fingerMove` points
    /// and which lasted `frameDuration` seconds. `contentReplaced` excuses an offset jump when the list's content
    /// changed under it (a reload), as a table view's does.
    public func check(time: Double, fingerMove: Double, frameDuration: Double = 1.0 / 60, contentReplaced: Bool = false) {
        now = time
        let velocity = scrollView.velocity.y
        let previousState = lastState
        // No change of the offset larger than the finger's move plus what the running motion can produce in a frame
        // (its speed before or after, with a margin for an easing curve's change of speed), and the move of a held
        // top with its inset.
        let step = abs(offset - lastOffset)
        let insetMove = abs(scrollView.contentInset.top - lastInsetTop)
        // A finger catching the bounce spring in its first frames reads as no speed on either side of the frame,
        // yet the spring, pulling from rest, moved the content by up to half its pull times the frame's time squared.
        let physics = scrollView.physics
        let springPull = physics.bounceStiffness / physics.bounceMass * lastOverscroll
        // The inset's own move carries the content only as fast as its animation can go (its easing's peak speed, 4
        // times the mean, over its shortest duration): an inset that changes in no time is a jump.
        let durations = ([metrics.insertDuration] + metrics.finishing.map(\.duration)).filter { $0 > 0 }
        var insetSpeed = durations.min().map { RefreshInvariants.largestInset * 4 / $0 } ?? 0
        // The second floor's slide moves its inset of the list's height along the viscous-fluid curve, whose
        // steepest slope is about 5.06 times its mean (docs/reference.md §10).
        if let floor = control.secondFloor {
            insetSpeed = Swift.max(insetSpeed, largestInset * RefreshInvariants.viscousPeakSlope / floor.floorDuration)
        }
        let insetCarry = Swift.min(insetMove, insetSpeed * frameDuration)
        let allowed = fingerMove + insetCarry + 1.5 * (abs(velocity) + abs(lastVelocity)) * frameDuration
            + springPull * frameDuration * frameDuration / 2 + 2
        // An effect that shows its header at once by design (sticky) moves the content to its rest in one frame: when
        // the refresh starts, or when a finger lifts (or taps) during it.
        let atRest = !scrollView.isTracking && abs(offset + scrollView.adjustedContentInset.top) < 1e-9
        // A refresh begun and ended in one frame has shown its header at once all the same.
        let begunAndEnded = control.state.isFinishing && lastState != .refreshing && !lastState.isFinishing
        let atOnce = metrics.showsAtOnce
            && ((control.state == .refreshing && (lastState != .refreshing || atRest)) || begunAndEnded)
        if step > allowed && !atOnce && !contentReplaced {
            note("the offset jumped \(points(step)) pt (allowed \(points(allowed)))")
        }
        // A floating header moves with the finger (by the drag rate) or along its own animations, never by a jump
        // (but back to its start once its finish has scaled it away), and the content under it stays at its top
        // while the finger pulls past it.
        if let floating = metrics.placement.floating, lastFloats {
            let moved = abs(control.distance - lastDistance)
            // Android's decelerate curve starts at 4 times the mean speed, over at most the way from where the
            // header was (a long pull) or the trigger to its rest.
            let duration = min(floating.returnDuration, metrics.insertDuration)
            let way = max(metrics.refreshingInset, triggerReach, lastDistance)
            let animation = way * 4 * frameDuration / duration
            let finger = (fingerMove + 1.5 * abs(scrollView.panTracker.velocity.y) * frameDuration) * floating.dragRate
            let finished = (control.state == .idle && lastState.isBusy)
                || lastEffect != ObjectIdentifier(control.effect)
            if moved > finger + animation + 0.01 && !finished { note("the floating header jumped \(points(moved)) pt") }
            // Its top: where the inset puts it (an inset of the effect before a switch may still be on its way out).
            let top = -scrollView.adjustedContentInset.top
            if scrollView.topPullTravel > 0 && abs(offset - top) > 1e-9 { note("the content left its top") }
        }
        lastOffset = offset
        lastOverscroll = overscroll
        lastInsetTop = scrollView.contentInset.top
        lastVelocity = velocity
        lastState = control.state
        lastDistance = control.distance
        lastFloats = metrics.placement.floating != nil
        lastEffect = ObjectIdentifier(control.effect)
        // The inset is never added twice, and the scroll view's own is kept (after an effect switch the old
        // effect's inset may still be on its way out); at rest the inset is the scroll view's own again.
        let largest = largestInset
        if control.addedInset > largest + 1e-9 { note("added inset \(control.addedInset) > \(largest)", .inset) }
        if abs(scrollView.contentInset.top - control.addedInset - base) > 1e-9 { note("the own inset changed", .inset) }
        if control.state == .idle && !control.isAnimating && control.addedInset != 0 {
            note("idle and still, with \(control.addedInset) pt of inset added", .inset)
        }
        if let footer, abs(scrollView.contentInset.bottom - footer.addedInset - baseBottom) > 1e-9 {
            note("the bottom inset is \(points(scrollView.contentInset.bottom)) pt, not the list's own "
                 + "\(points(baseBottom)) plus the footer's \(points(footer.addedInset))", .insetsFight)
        }
        // With the finger up and the refresh's animation done, the whole header is in view until the end, or until
        // the finger or the wheel scrolls it away (as on the phone, where the list scrolls while it refreshes).
        // A refresh begun with the finger down is held to the same once that finger lifts, however it moved.
        if control.state != .refreshing {
            refreshSettlesAt = nil
            scrolledDuringRefresh = false
            heldSinceStart = false
        } else if previousState != .refreshing && scrollView.isTracking {
            heldSinceStart = true
        } else if heldSinceStart && scrollView.isTracking {
            refreshSettlesAt = nil
        } else if scrollView.isTracking || (fingerMove > 0 && !heldSinceStart) {
            refreshSettlesAt = nil
            scrolledDuringRefresh = true
        } else if heldSinceStart {
            heldSinceStart = false
        }
        if control.state == .refreshing && !scrollView.isTracking && !scrolledDuringRefresh && !heldSinceStart {
            let settle = refreshSettlesAt ?? (time + metrics.insertDuration + RefreshInvariants.settleMargin)
            refreshSettlesAt = settle
            if time > settle && shownHeader < wholeHeader - 0.5 {
                note("refreshing with the header \(points(wholeHeader - shownHeader)) pt hidden", .headerInView)
            }
        }
    }

    /// Notes a change of state the machine should not take (`isHeaderTransition`); called from the control's
    /// `stateDidChange`, so that every change is seen, several in one frame included.
    public func checkTransition(from old: RefreshState, to new: RefreshState) {
        if !RefreshInvariants.isHeaderTransition(from: old, to: new) { note("header \(old) → \(new)", .transitions) }
    }

    /// Whether the header's state machine can go from `old` to `new`: a refresh starts only from a pull, an arming
    /// or code, finishes only after refreshing, and a header never has "no more data" (a footer's state); the second
    /// floor arms only from a pull, opens from its arming or from code, is open only once it has opened, and closes
    /// only once it is open or opening.
    public static func isHeaderTransition(from old: RefreshState, to new: RefreshState) -> Bool {
        switch new {
        case .idle: return true
        case .pulling, .armed: return [.idle, .pulling, .armed, .releaseToFloor].contains(old)
        case .releaseToFloor: return old == .idle || old == .pulling || old == .armed
        case .floorOpening: return [.idle, .pulling, .armed, .releaseToFloor].contains(old)
        case .floor: return old == .floorOpening
        case .floorClosing: return old == .floor || old == .floorOpening
        case .willRefresh: return old != .refreshing && !old.isFinishing
        case .refreshing: return [.idle, .pulling, .armed, .willRefresh].contains(old)
        case .finishing: return old == .refreshing
        case .noMoreData: return false
        }
    }
}

private extension RefreshState {
    var isFinishing: Bool {
        if case .finishing = self { return true }
        return false
    }
}

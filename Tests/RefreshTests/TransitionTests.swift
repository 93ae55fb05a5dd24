import Geometry
import Motion
import Refresh
import Scrolling
import Testing
import TestSupport

/// A run of a control on a scroll view under generated gestures, its invariants (`RefreshInvariants`) checked on
/// every frame.
final class TransitionProbe {
    let rig: Rig
    let name: String
    let invariants: RefreshInvariants
    /// The current effect's metrics (an effect switch changes them).
    var metrics: RefreshMetrics { rig.control.metrics }
    private var fingerMove = 0.0
    var problems: [String] { invariants.problems }

    init(effect name: String, topInset: Double = 0, platform: Platform = .ios) {
        self.name = name
        let rig = Rig(effect: RefreshEffects.make(name)!, topInset: topInset, platform: platform)
        self.rig = rig
        invariants = RefreshInvariants(scrollView: rig.scrollView, control: rig.control)
        invariants.context = { [unowned rig] in
            "\(name) on \(platform) at \((rig.time * 1000).rounded() / 1000) s, \(rig.control.state), states \(rig.states)"
        }
    }

    var offset: Double { rig.scrollView.contentOffset.y }
    var base: Double { rig.baseTop }
    var shownHeader: Double { invariants.shownHeader }

    /// The finger moves to `y` in one frame; checks the frame.
    func move(to y: Double) {
        fingerMove = abs(y - rig.fingerY)
        rig.move(toFingerY: y)
        check()
    }

    func release() {
        rig.scrollView.touchEnded(at: Point(Rig.fingerX, rig.fingerY), time: rig.time)
        fingerMove = 0
        frames(1)
    }

    /// Runs `n` frames with no input, checking each.
    func frames(_ n: Int) {
        for _ in 0..<n {
            fingerMove = 0
            rig.run()
            check()
        }
    }

    private func check() { invariants.check(time: rig.time, fingerMove: fingerMove) }
}

@Suite("Refresh transitions: one rule for starting and ending")
struct TransitionTests {
    static let effects = ["sticky", "dots", "ring", "news", "classic", "system", "swipe-refresh", "material3"]

    @Test("A release anywhere in the arming band brings the whole header into view, with no jump",
          arguments: ["dots", "ring", "news", "classic", "swipe-refresh", "material3"])
    func releaseInTheArmingBand(_ name: String) {
        let trigger = TransitionProbe(effect: name).metrics.triggerDistance
        for pull in stride(from: trigger - 1.9, through: trigger + 3, by: 0.35) {
            let probe = TransitionProbe(effect: name)
            probe.rig.touchDown()
            // Past the trigger, then back to `pull` and held: armed until 2 pt under the trigger.
            probe.rig.pull(to: trigger + 4)
            probe.rig.pull(to: pull)
            probe.frames(0)
            for _ in 0..<8 { probe.move(to: probe.rig.fingerY) }
            #expect(probe.rig.control.state == .armed, "\(name) at \(pull)")
            probe.release()
            #expect(probe.rig.control.state == .refreshing)
            probe.frames(Int(probe.metrics.insertDuration * 60) + 2)
            // At the refreshing rest position: the inset and the offset arrived together (a floating header, over
            // content that never moved).
            #expect(abs(probe.shownHeader - probe.metrics.refreshingInset) < 0.01, "\(name) released at \(pull)")
            #expect(probe.rig.scrollView.velocity.y == 0)
            probe.frames(60)
            #expect(probe.problems.isEmpty, "\(probe.problems)")
        }
    }

    @Test("Beginning from code moves inset and offset in one animation of the effect's own duration",
          arguments: effects)
    func beginFromCode(_ name: String) {
        for topInset in [0.0, 64] {
            let probe = TransitionProbe(effect: name, topInset: topInset)
            probe.frames(1)
            probe.rig.control.beginRefreshing(at: probe.rig.time)
            let duration = probe.metrics.insertDuration
            let inset = probe.metrics.refreshingInset
            // Halfway, the content shows as much of the header as the inset holds: they move together.
            probe.frames(max(Int(duration * 30), 1))
            if probe.metrics.placement.floating != nil {
                #expect(abs(probe.offset + probe.base) < 0.01, "\(name): the content stays at its top")
            } else {
                #expect(abs(-probe.offset - probe.base - probe.rig.control.addedInset) < 0.01, "\(name)")
            }
            probe.frames(Int(duration * 30) + 2)
            #expect(abs(probe.shownHeader - inset) < 0.01, "\(name): \(probe.shownHeader)")
            probe.frames(90)
            #expect(abs(probe.shownHeader - inset) < 0.01, "\(name) stays")
            #expect(probe.problems.isEmpty, "\(probe.problems)")
        }
    }

    /// Nothing jumps while the finger holds, and once it lifts the whole header comes into view.
    @Test("A refresh begun from code while a pull of any length below the trigger is held shows its header on lift",
          arguments: effects)
    func beginWhileHeld(_ name: String) {
        let trigger = TransitionProbe(effect: name).metrics.triggerDistance
        for pull in stride(from: 0.0, to: trigger - 1, by: 2.5) {
            for flick in [-600.0, 0, 600] {
                let probe = TransitionProbe(effect: name)
                probe.frames(1)
                probe.rig.touchDown()
                if pull > 0 { probe.rig.pull(to: pull) }
                probe.frames(0)
                probe.rig.control.beginRefreshing(at: probe.rig.time)
                for _ in 0..<20 { probe.move(to: probe.rig.fingerY) }
                #expect(probe.rig.control.state == .refreshing, "\(name) at \(pull)")
                probe.move(to: probe.rig.fingerY + flick / 60)
                probe.release()
                probe.frames(Int(probe.metrics.insertDuration * 60) + 2)
                // The whole header in view (a pull held past the inset springs back to it: more than the whole).
                let what = "\(name): held at \(pull) pt, released at \(flick) pt/s"
                #expect(probe.shownHeader > probe.metrics.refreshingInset - 0.01,
                        "\(what): \(probe.shownHeader) pt of \(probe.metrics.refreshingInset) shown")
                probe.frames(90)
                #expect(abs(probe.shownHeader - probe.metrics.refreshingInset) < 0.01, "\(what): it stays")
                #expect(probe.problems.isEmpty, "\(what): \(probe.problems)")
            }
        }
    }

    @Test("A refresh begun from code starts at its frame's own time, not the previous frame's")
    func commandsTakeTheirFramesTime() {
        let probe = TransitionProbe(effect: "classic")
        probe.frames(10)
        // The frame's time comes with the command; the first frame after it shows the start of the animation.
        let now = probe.rig.time + Rig.frame
        probe.rig.control.beginRefreshing(at: now)
        probe.rig.run()
        #expect(probe.rig.control.addedInset == 0)
        probe.rig.run()
        let f = TimingFunction.easeInEaseOut.value(at: Rig.frame / probe.metrics.insertDuration)
        #expect(abs(probe.rig.control.addedInset - 54 * f) < 1e-9)
    }

    @Test("Thousands of generated gestures around each trigger: no jump, the header in view, the inset back",
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"),
          arguments: effects, [Platform.ios, .android])
    func generatedGestures(_ name: String, _ platform: Platform) {
        generatedGestures(name, platform, runs: 300)
    }

    @Test("Generated gestures on Android, fewer of them, in the fast suite", arguments: effects)
    func generatedGesturesOnAndroid(_ name: String) {
        generatedGestures(name, .android, runs: 12)
    }

    /// `runs` generated gestures on `platform`: iOS's seeds are the ones this test always had.
    func generatedGestures(_ name: String, _ platform: Platform, runs: Int) {
        var random = SeededRandom(seed: 0x5EED_0000 &+ UInt64(name.utf8.count) &+ (platform == .ios ? 0 : 0xA11D))
        for run in 0..<runs {
            let probe = TransitionProbe(effect: name, topInset: random.next() % 2 == 0 ? 0 : 64, platform: platform)
            let trigger = probe.metrics.triggerDistance
            probe.frames(1)
            // A pull to within ±3 pt of the trigger, or one of any length below it, over a few frames, then a release
            // at some velocity.
            probe.rig.touchDown()
            let short = random.next() % 3 == 0
            let pull = short ? random.double(in: 0...(trigger - 3)) : trigger + random.double(in: -3...3)
            let steps = Int(random.next() % 12) + 1
            let travel = probe.rig.fingerTravel(forPull: pull)
            for k in 1...steps { probe.move(to: Rig.fingerStart + travel * Double(k) / Double(steps)) }
            // Sometimes a command at a random frame: begin or end from code, or a switch to another effect; or a
            // begin from code while the finger still holds the pull.
            let commandFrame = Int(random.next() % 40)
            let command = random.next() % 5
            let other = TransitionTests.effects[Int(random.next() % UInt64(TransitionTests.effects.count))]
            // The last move sets the release velocity: −800…800 pt/s over a frame; downwards only where an upward
            // flick would send the list into its rows, away from the top the run ends at: from a short pull, and
            // under a floating header refreshing (whose list scrolls as any list does).
            // On Android an upward flick from under a floating header is the list's own fling once the header has
            // its pull back (neither SwipeRefreshLayout nor Material 3 consumes an upward fling): downwards only.
            let floats = probe.metrics.placement.floating != nil
            let upward = !short && !(command == 4 && floats) && !(platform == .android && floats)
            let flick = random.double(in: (upward ? -800 : 0)...800) / 60
            // On Android the finger rests a moment before its flick: LSQ2's quadratic reads a long step stopped short
            // as a flick back up, which under a floating header is the list's own fling away from the top.
            if platform == .android { for _ in 0..<6 { probe.move(to: probe.rig.fingerY) } }
            probe.move(to: probe.rig.fingerY + flick)
            if command == 4 {
                probe.rig.control.beginRefreshing(at: probe.rig.time)
                // On Android a finger held still for less than VelocityTracker's 100 ms horizon after its flick
                // leaves with LSQ2's overshoot, a slow flick back up, which the list under a floating header
                // refreshing takes as its own fling: it rests past the horizon.
                let held = platform == .android && floats ? max(commandFrame, 7) : commandFrame
                for _ in 0..<held { probe.move(to: probe.rig.fingerY) }
            }
            probe.release()
            for frame in 0..<150 {
                if frame == commandFrame {
                    if command == 1 { probe.rig.control.beginRefreshing(at: probe.rig.time) }
                    if command == 2 { probe.rig.control.endRefreshing(at: probe.rig.time) }
                    if command == 3 {
                        probe.rig.control.setEffect(RefreshEffects.make(other)!)
                        #expect(probe.rig.control.state == .idle, "after switching to \(other)")
                    }
                }
                probe.frames(1)
            }
            // Every refresh ends idle with the inset back where it was.
            probe.rig.control.endRefreshing(at: probe.rig.time)
            probe.frames(240)
            let gesture = "pull \(pull), \(steps) steps, flick \(flick * 60) pt/s, command \(command) at \(commandFrame)"
            #expect(probe.rig.control.state == .idle, "\(name) run \(run) (\(gesture))")
            #expect(probe.rig.control.addedInset == 0 && probe.rig.scrollView.contentInset.top == probe.base)
            #expect(abs(probe.offset + probe.base) < 0.01, "\(name) run \(run) (\(gesture)): at rest at the top")
            #expect(probe.problems.isEmpty, "run \(run) (\(gesture)): \(probe.problems)")
            if !probe.problems.isEmpty { break }
        }
    }
}

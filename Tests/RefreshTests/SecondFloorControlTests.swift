import Geometry
import Motion
@testable import Refresh
@testable import Scrolling
import Testing
import TestSupport

/// The second floor on a control, against values worked out by hand from SmartRefreshLayout's rules
/// (docs/reference.md §10): the rig's list is 600 pt tall with no inset of its own, the header 54 pt, so the floor arms
/// at a pull of 102.6 pt and opens to an inset of 600 pt.
@Suite struct SecondFloorControlTests {
    static let trigger = 54.0
    static let listHeight = Rig.viewport.height

    /// A rig whose header has a second floor with the default settings.
    static func rig(platform: Platform = .ios, effect: any RefreshEffect = RecordingEffect()) -> Rig {
        let rig = Rig(effect: effect, platform: platform)
        rig.control.secondFloor = SecondFloor.Style()
        return rig
    }

    /// Pulls past the floor's rate and lets go; returns the time the finger lifted.
    static func open(_ rig: Rig) -> Double {
        rig.touchDown()
        rig.pull(to: trigger * 2.2)
        #expect(rig.control.state == .releaseToFloor)
        let lifted = rig.lift()
        #expect(rig.control.state == .floorOpening)
        return lifted
    }

    @Test func aPullArmsTheRefreshThenTheFloorAtOnePointNineHeaderHeights() {
        let rig = Self.rig()
        rig.touchDown()
        rig.pull(to: Self.trigger - 0.5)
        #expect(rig.control.state == .pulling && rig.cues == 0)
        rig.pull(to: Self.trigger + 0.5)
        #expect(rig.control.state == .armed && rig.cues == 1)
        rig.pull(to: Self.trigger * 1.9 - 0.5)
        #expect(rig.control.state == .armed && rig.cues == 1)
        // The floor's arming is an arming: the cue fires again.
        rig.pull(to: Self.trigger * 1.9 + 0.5)
        #expect(rig.control.state == .releaseToFloor && rig.cues == 2)
        // Back under the floor's rate the refresh is armed again, without a cue; under the trigger, nothing.
        rig.pull(to: Self.trigger * 1.5)
        #expect(rig.control.state == .armed && rig.cues == 2)
        rig.pull(to: Self.trigger - 3)
        #expect(rig.control.state == .pulling)
        // One move from there straight past the floor's rate arms the floor.
        rig.pull(to: Self.trigger * 2)
        #expect(rig.control.state == .releaseToFloor && rig.cues == 3)
        #expect(rig.states == [.pulling, .armed, .releaseToFloor, .armed, .pulling, .releaseToFloor])
        #expect(rig.actions == 0)
    }

    @Test func letGoArmedTheListSlidesToTheBottomOverOneSecondAlongTheViscousCurve() throws {
        let rig = Self.rig()
        let lifted = Self.open(rig)
        // Half way the inset is 600 × viscous(0.5), 600 × 0.96909 = 581.45; the header's fade, over 0.5 s, is done.
        while rig.time < lifted + 0.25 - 1e-9 { rig.run() }
        // A quarter second in, the fade is half way: accelerate-decelerate at 0.5 is 0.5.
        #expect(abs(rig.control.headerLayer.opacity - 0.5) < 1e-6)
        while rig.time < lifted + 0.5 - 1e-9 { rig.run() }
        #expect(abs(rig.control.addedInset - 581.45) < 0.01)
        #expect(rig.control.headerLayer.opacity == 0)
        #expect(rig.control.state == .floorOpening)
        // The content follows: more than 560 pt down.
        #expect(rig.scrollView.contentOffset.y < -560)
        while rig.time < lifted + 1 - 1e-9 { rig.run() }
        rig.run()
        #expect(rig.control.state == .floor)
        #expect(rig.control.addedInset == Self.listHeight)
        #expect(abs(rig.scrollView.contentOffset.y + Self.listHeight) < 1e-9)
        #expect(rig.actions == 0, "opening the floor starts no refresh")
        let opened = try #require(rig.states.firstIndex(of: .floorOpening))
        #expect(Array(rig.states[opened...]) == [.floorOpening, .floor])
    }

    @Test func onlyATouchInTheBottomSixthReachesTheOpenFloor() {
        let rig = Self.rig()
        _ = Self.open(rig)
        #expect(!rig.control.acceptsTouch(atListY: 300, height: 600), "opening: no touch")
        rig.run(seconds: 1.1)
        #expect(rig.control.state == .floor)
        #expect(!rig.control.acceptsTouch(atListY: 499.9, height: 600))
        #expect(rig.control.acceptsTouch(atListY: 500, height: 600))
        #expect(rig.control.acceptsTouch(atListY: 599, height: 600))
    }

    /// Drags the open floor up by `by` points from the strip over `frames` frames, held still before the lift when
    /// `holds`; returns the state a frame after the lift.
    static func dragOpenFloor(by: Double, frames: Int, holds: Bool) -> Rig {
        let rig = Self.rig()
        _ = Self.open(rig)
        rig.run(seconds: 1.1)
        rig.fingerY = 560
        rig.scrollView.touchBegan(at: Point(Rig.fingerX, 560), time: rig.time)
        for k in 1...frames { rig.move(toFingerY: 560 - by * Double(k) / Double(frames)) }
        if holds {
            rig.lift()
        } else {
            rig.scrollView.touchEnded(at: Point(Rig.fingerX, rig.fingerY), time: rig.time)
        }
        rig.run()
        return rig
    }

    @Test func letGoTheOpenFloorStaysOpenWhenMoreThanHalfIsDownAndTheFingerWasSlow() {
        // 299 pt up leaves 301 down, more than half of 600: it stays and the list slides back to the bottom.
        let stays = Self.dragOpenFloor(by: 299, frames: 1, holds: true)
        #expect(stays.control.state == .floor)
        stays.run(seconds: SecondFloor.Style().floorDuration + 0.05)
        #expect(abs(stays.scrollView.contentOffset.y + Self.listHeight) < 1e-9)
        // 301 pt up leaves 299: it closes.
        let closes = Self.dragOpenFloor(by: 301, frames: 1, holds: true)
        #expect(closes.control.state == .floorClosing)
    }

    @Test func aFastFlickUpClosesTheFloorWhateverItsDistance() {
        // 100 pt up over three frames is 2000 pt/s, 4000 px/s at 2 px a point: past 1000 px/s upwards.
        let flicked = Self.dragOpenFloor(by: 100, frames: 3, holds: false)
        #expect(flicked.control.state == .floorClosing)
        // The same 100 pt over half a second is 200 pt/s, 400 px/s: it stays.
        let slow = Self.dragOpenFloor(by: 100, frames: 30, holds: false)
        #expect(slow.control.state == .floor)
    }

    @Test func closingTheListSlidesBackAndTheHeaderFadesIn() throws {
        let rig = Self.dragOpenFloor(by: 400, frames: 1, holds: true)
        #expect(rig.control.state == .floorClosing)
        let start = rig.time - Rig.frame
        while rig.time < start + 0.25 - 1e-9 { rig.run() }
        #expect(abs(rig.control.headerLayer.opacity - 0.5) < 1e-6)
        rig.run(seconds: 0.8)
        #expect(rig.control.state == .idle)
        #expect(rig.control.addedInset == 0 && rig.control.headerLayer.opacity == 1)
        #expect(abs(rig.scrollView.contentOffset.y) < 1e-9)
        let closing = try #require(rig.states.lastIndex(of: .floorClosing))
        #expect(Array(rig.states[(closing - 2)...]) == [.floorOpening, .floor, .floorClosing, .idle])
    }

    @Test func codeOpensAndClosesTheFloorButNotWhileARefreshRuns() {
        let rig = Self.rig()
        #expect(!rig.control.closeSecondFloor(at: 0))
        #expect(rig.control.openSecondFloor(at: 0))
        #expect(rig.control.state == .floorOpening)
        rig.run(seconds: 0.5)
        #expect(rig.control.headerLayer.opacity == 1, "opened from code, the header does not fade")
        rig.control.beginRefreshing(at: rig.time)
        #expect(rig.control.state == .floorOpening, "no refresh while the floor holds the list")
        rig.run(seconds: 0.55)
        #expect(rig.control.state == .floor && rig.control.addedInset == Self.listHeight)
        #expect(rig.control.closeSecondFloor(at: rig.time))
        rig.run(seconds: 1.05)
        #expect(rig.control.state == .idle && rig.control.addedInset == 0)
        rig.control.beginRefreshing(at: rig.time)
        #expect(!rig.control.openSecondFloor(at: rig.time))
        #expect(rig.control.state == .refreshing)
    }

    @Test func aFloatingHeaderHasNoFloor() {
        let floating = RecordingEffect(metrics: RefreshMetrics(placement: .floatsOverContent(FloatingPlacement())))
        let rig = Self.rig(effect: floating)
        #expect(!rig.control.hasSecondFloor)
        #expect(!rig.control.openSecondFloor(at: 0))
        rig.touchDown()
        rig.pull(to: Self.trigger * 2.2)
        #expect(rig.control.state == .armed)
    }

    @Test func onAndroidTheDampedPullStopsShortOfTheMaxRateAndStillReachesTheFloor() {
        let rig = Self.rig(platform: .android)
        rig.touchDown()
        rig.move(toFingerY: Rig.fingerStart + 5000)
        #expect(rig.control.distance < 2.5 * Self.trigger && rig.control.distance > 2.4 * Self.trigger)
        #expect(rig.control.state == .releaseToFloor)
        rig.lift()
        rig.run(seconds: 1.05)
        #expect(rig.control.state == .floor)
        #expect(abs(rig.scrollView.contentOffset.y + Self.listHeight) < 1e-9)
    }

    @Test func takingTheFloorAwayWhileOpenReturnsToIdle() {
        let rig = Self.rig()
        _ = Self.open(rig)
        rig.run(seconds: 1.1)
        rig.control.secondFloor = nil
        #expect(rig.control.state == .idle)
        rig.run(seconds: 0.5)
        #expect(rig.control.addedInset == 0)
    }

    /// The headers that push the list, which can have a floor.
    static let pushingEffects = ["sticky", "dots", "news", "classic", "system"]

    @Test("Generated gestures around the floor's rate, commands at any frame, drags of the open floor: no jump, only allowed transitions, the inset back",
          arguments: [Platform.ios, .android])
    func generatedGestures(_ platform: Platform) {
        var random = SeededRandom(seed: 0xF1_00_2 &+ (platform == .ios ? 0 : 0xA11D))
        let runs = longTestsEnabled ? 200 : 40
        var opened = 0, draggedOpen = 0
        for run in 0..<runs {
            let name = Self.pushingEffects[run % Self.pushingEffects.count]
            let probe = TransitionProbe(effect: name, topInset: random.next() % 2 == 0 ? 0 : 64, platform: platform)
            let control = probe.rig.control
            control.secondFloor = SecondFloor.Style()
            let floorPull = control.triggerDistance * SecondFloor.Style().floorRate
            probe.frames(1)
            probe.rig.touchDown()
            // A pull to within ±3 pt of the floor's rate, or of any length under it, over a few frames.
            let pull = random.next() % 3 == 0 ? random.double(in: 0...floorPull) : floorPull + random.double(in: -3...3)
            // Released short of the trigger, an upward flick would send the list into its rows, away from the top
            // the run ends at: downwards only.
            let short = pull < control.triggerDistance
            let steps = Int(random.next() % 12) + 1
            let travel = probe.rig.fingerTravel(forPull: pull)
            for k in 1...steps { probe.move(to: Rig.fingerStart + travel * Double(k) / Double(steps)) }
            probe.move(to: probe.rig.fingerY + random.double(in: (short ? 0 : -800)...800) / 60)
            probe.release()
            let commandFrame = Int(random.next() % 90), command = random.next() % 6
            var dragged = false
            for frame in 0..<150 {
                if frame == commandFrame {
                    switch command {
                    case 0: control.openSecondFloor(at: probe.rig.time)
                    case 1: control.closeSecondFloor(at: probe.rig.time)
                    case 2: control.beginRefreshing(at: probe.rig.time)
                    case 3: control.endRefreshing(at: probe.rig.time)
                    default: break
                    }
                }
                // Once open, a drag up from a touch the floor takes, at some speed.
                let listHeight = Rig.viewport.height - probe.base
                let y = random.double(in: 0...Rig.viewport.height)
                if !dragged && control.state == .floor && control.acceptsTouch(atListY: y - probe.base, height: listHeight) {
                    dragged = true
                    draggedOpen += 1
                    probe.rig.fingerY = y
                    probe.rig.scrollView.touchBegan(at: Point(Rig.fingerX, y), time: probe.rig.time)
                    let up = random.double(in: 0...listHeight), moves = Int(random.next() % 20) + 1
                    for k in 1...moves { probe.move(to: y - up * Double(k) / Double(moves)) }
                    probe.release()
                }
                probe.frames(1)
            }
            if probe.rig.states.contains(.floor) { opened += 1 }
            control.closeSecondFloor(at: probe.rig.time)
            control.endRefreshing(at: probe.rig.time)
            probe.frames(240)
            let gesture = "\(name) on \(platform), pull \(pull), \(steps) steps, command \(command) at \(commandFrame)"
            #expect(control.state == .idle, "run \(run) (\(gesture))")
            #expect(control.addedInset == 0 && probe.rig.scrollView.contentInset.top == probe.base)
            #expect(abs(probe.offset + probe.base) < 0.01, "run \(run) (\(gesture)): at rest at the top")
            for (old, new) in zip([RefreshState.idle] + probe.rig.states, probe.rig.states) {
                #expect(RefreshInvariants.isHeaderTransition(from: old, to: new), "\(old) → \(new) in run \(run)")
            }
            #expect(probe.problems.isEmpty, "run \(run) (\(gesture)): \(probe.problems)")
            if !probe.problems.isEmpty { break }
        }
        // The gestures reach what they are for: the floor opens in a fifth of the runs or more, and is dragged in
        // some.
        #expect(opened >= runs / 5 && draggedOpen >= runs / 8, "\(opened) opened, \(draggedOpen) dragged of \(runs)")
    }
}

@testable import Refresh
import Testing

/// The second floor's rules against values worked out by hand from SmartRefreshLayout's (docs/reference.md §10).
@Suite struct SecondFloorTests {
    typealias A = SecondFloor.Armed

    /// A pull rising and falling one move at a time: each move's ratio and what it has armed after it.
    @Test func aPullArmsTheRefreshPastOneHeightAndTheFloorFromOnePointNine() {
        let moves: [(Double, A)] = [
            (0.5, .nothing), (1.0, .nothing), (1.01, .refresh), (1.89, .refresh), (1.9, .floor), (2.4, .floor),
            (1.95, .floor), (1.89, .refresh), (1.2, .refresh), (1.0, .nothing), (0.2, .nothing),
        ]
        var previous = 0.0, armed = A.nothing
        for (ratio, expected) in moves {
            armed = SecondFloor.armed(after: previous, to: ratio, was: armed)
            #expect(armed == expected, "\(previous) → \(ratio)")
            previous = ratio
        }
    }

    @Test func oneMoveFromTheFloorDownSkipsTheRefreshOnlyUnderTheRefreshRate() {
        #expect(SecondFloor.armed(after: 2.0, to: 0.99, was: .floor) == .nothing)
        // At exactly one header height the kernel arms nothing (not past it), and the header then a refresh (under
        // 1.9, not under 1.0): the header has the last word.
        #expect(SecondFloor.armed(after: 2.0, to: 1.0, was: .floor) == .refresh)
        // A floor armed stays armed while the pull wobbles above 1.9, and above one height when it came from there.
        #expect(SecondFloor.armed(after: 1.92, to: 1.95, was: .floor) == .floor)
        // A move that jumps straight past 1.9 from rest arms the floor.
        #expect(SecondFloor.armed(after: 0, to: 2.2, was: .nothing) == .floor)
        // With the floor's rate lowered to 1.5, 1.6 arms it.
        var style = SecondFloor.Style()
        style.floorRate = 1.5
        #expect(SecondFloor.armed(after: 1.4, to: 1.6, was: .refresh, style: style) == .floor)
    }

    @Test func onlyTheBottomSixthDragsTheOpenFloor() {
        // A 600 pt list: its bottom sixth starts at 500.
        #expect(SecondFloor.canDrag(touchY: 500, height: 600))
        #expect(!SecondFloor.canDrag(touchY: 499.9, height: 600))
        #expect(SecondFloor.canDrag(touchY: 599, height: 600))
    }

    @Test func letGoTheFloorStaysOpenOnlyHalfOpenAndSlow() {
        #expect(SecondFloor.staysOpen(down: 301, height: 600, velocity: -999))
        #expect(!SecondFloor.staysOpen(down: 300, height: 600, velocity: 0), "half the height is not more than half")
        #expect(!SecondFloor.staysOpen(down: 590, height: 600, velocity: -1000), "−1000 px/s is not slower than it")
        #expect(SecondFloor.staysOpen(down: 590, height: 600, velocity: 4000), "a finger going down leaves it open")
    }

    @Test func theSlideAndTheFadeRunOnAndroidsCurves() {
        // Viscous fluid at half its time: g(4) = e⁻¹ + (1 − e⁻³)(1 − e⁻¹) = 0.968527 over g(8) = e⁻¹ + (1 − e⁻⁷)(1 − e⁻¹)
        // = 0.999424: 0.969085.
        #expect(abs(SecondFloor.slideProgress(elapsed: 0.5) - 0.969085) < 1e-5)
        #expect(SecondFloor.slideProgress(elapsed: 0) == 0 && SecondFloor.slideProgress(elapsed: 1) == 1)
        // Accelerate-decelerate over 0.5 s: at 125 ms, (cos(1.25π) + 1) / 2 = 0.146447 of the way.
        #expect(abs(SecondFloor.innerHeaderOpacity(elapsed: 0.125, fadingOut: true) - 0.853553) < 1e-6)
        #expect(abs(SecondFloor.innerHeaderOpacity(elapsed: 0.125, fadingOut: false) - 0.146447) < 1e-6)
        #expect(SecondFloor.innerHeaderOpacity(elapsed: 0.5, fadingOut: true) == 0)
        // A floor of 2 s fades its inner header over 1 s: halfway at 0.5 s.
        var style = SecondFloor.Style()
        style.floorDuration = 2
        #expect(abs(SecondFloor.innerHeaderOpacity(elapsed: 0.5, fadingOut: true, style: style) - 0.5) < 1e-12)
    }
}

import Geometry
import Testing
import TestSupport
@testable import Scrolling

@Suite struct RubberBandTests {
    @Test func bandAtSeveralTravels() {
        // d = 600, c = 0.55: f(x) = (1 − 1/(x·0.55/600 + 1))·600.
        // x = 100 → 600·(1 − 1/1.0916…) = 50.3816794; x = 600 → 600·(1 − 1/1.55) = 212.9032258;
        // x = 1200 → 600·(1 − 1/2.1) = 314.2857143.
        #expect(RubberBand.offset(forTravel: 0, dimension: 600) == 0)
        #expect(abs(RubberBand.offset(forTravel: 100, dimension: 600) - 50.381679389313064) < 1e-9)
        #expect(abs(RubberBand.offset(forTravel: 600, dimension: 600) - 212.90322580645162) < 1e-9)
        #expect(abs(RubberBand.offset(forTravel: 1200, dimension: 600) - 314.2857142857143) < 1e-9)
        #expect(abs(RubberBand.offset(forTravel: -600, dimension: 600) - -212.90322580645162) < 1e-9)
        // Never as far as the viewport, whatever the pull.
        #expect(RubberBand.offset(forTravel: 1e9, dimension: 600) < 600)
    }

    @Test func inverseAndSlope() {
        var random = SeededRandom(seed: 1)
        for _ in 0..<500 {
            let d = random.double(in: 100...1000), x = random.double(in: -3000...3000)
            let f = RubberBand.offset(forTravel: x, dimension: d)
            #expect(abs(RubberBand.travel(forOffset: f, dimension: d) - x) < 1e-6 * max(1, abs(x)))
            let h = 1e-4
            let numeric = (RubberBand.offset(forTravel: abs(x) + h, dimension: d) - RubberBand.offset(forTravel: abs(x) - h, dimension: d)) / (2 * h)
            #expect(abs(numeric - RubberBand.slope(atTravel: x, dimension: d)) < 1e-6)
        }
        // At the edge the content follows at c of the finger's speed.
        #expect(RubberBand.slope(atTravel: 0, dimension: 600) == 0.55)
    }
}

@Suite struct PanTrackerTests {
    @Test func weightedVelocityOfTheLastThreePairs() {
        // Pairs 10 ms apart moving 10, 20 and 30 pt: 1000, 2000, 3000 pt/s, oldest first;
        // v = 0.6·1000 + 0.35·2000 + 0.05·3000 = 1450 pt/s.
        var tracker = PanTracker()
        tracker.begin(at: Point(0, 0), time: 1.00)
        tracker.add(Point(0, 10), time: 1.01)
        tracker.add(Point(0, 30), time: 1.02)
        tracker.add(Point(0, 60), time: 1.03)
        #expect(abs(tracker.velocity.y - 1450) < 1e-6 && tracker.velocity.x == 0)
        #expect(tracker.translation == Point(0, 60))
        // A fourth pair pushes the oldest out: 2000, 3000, 4000 → 0.6·2000 + 0.35·3000 + 0.05·4000 = 2450.
        tracker.add(Point(0, 100), time: 1.04)
        #expect(abs(tracker.velocity.y - 2450) < 1e-6)
    }

    @Test func onlySamplesWithinOneHundredMillisecondsCount() {
        var tracker = PanTracker()
        tracker.begin(at: Point(0, 0), time: 0)
        tracker.add(Point(0, 500), time: 0.07)     // the pair ending here starts 160 ms before the newest sample
        tracker.add(Point(0, 510), time: 0.12)     // 10 pt in 50 ms: 200 pt/s
        tracker.add(Point(0, 530), time: 0.16)     // 20 pt in 40 ms: 500 pt/s
        // Two pairs lie in the window: (0.35·200 + 0.05·500)/0.4 = 237.5 pt/s.
        #expect(abs(tracker.velocity.y - 237.5) < 1e-6)
        // A finger that rests for more than 100 ms before lifting leaves with no velocity.
        tracker.add(Point(0, 530), time: 0.40)
        #expect(tracker.velocity == .zero)
    }

    @Test func capAndSameTimestamps() {
        var tracker = PanTracker()
        tracker.begin(at: Point(0, 0), time: 0)
        tracker.add(Point(300, 400), time: 0.01)   // 50000 pt/s along (0.6, 0.8)
        let v = tracker.velocity
        #expect(abs(v.length - 8000) < 1e-9 && abs(v.x - 4800) < 1e-9 && abs(v.y - 6400) < 1e-9)
        // Events with the same timestamp merge: the later location replaces the earlier one.
        tracker.add(Point(0, 10), time: 0.02)
        tracker.add(Point(0, 20), time: 0.02)
        tracker.add(Point(0, 5), time: 0.015)      // from the past: ignored
        #expect(tracker.location == Point(0, 20))
    }
}

import Testing
import TestSupport
@testable import Geometry

/// Parses `d`, failing the test (not crashing) on an error.
private func parse(_ d: String) -> [Path.Element] {
    do {
        return try Path(svgPathData: d).elements
    } catch {
        Issue.record("unexpected error for \(d): \(error)")
        return []
    }
}

/// The error that parsing `d` throws, or nil when it parses.
private func failure(_ d: String) -> SVGPathError? {
    do {
        _ = try Path(svgPathData: d)
        return nil
    } catch {
        return error
    }
}

private func approx(_ a: Point, _ b: Point, _ eps: Double = 1e-9) -> Bool {
    Swift.abs(a.x - b.x) <= eps && Swift.abs(a.y - b.y) <= eps
}

@Suite struct SVGPathDataTests {
    @Test func absoluteAndRelativeLines() {
        #expect(parse("M10 20 L30 40 H50 V60 Z") == [
            .move(Point(10, 20)), .line(Point(30, 40)), .line(Point(50, 40)), .line(Point(50, 60)), .close,
        ])
        #expect(parse("m10 20 l30 40 h5 v-10 z") == [
            .move(Point(10, 20)), .line(Point(40, 60)), .line(Point(45, 60)), .line(Point(45, 50)), .close,
        ])
    }

    @Test func implicitRepeatsAfterMoveAreLines() {
        // Extra pairs after M are absolute lines, after m relative lines.
        #expect(parse("M1 1 2 2 3 3") == [.move(Point(1, 1)), .line(Point(2, 2)), .line(Point(3, 3))])
        #expect(parse("m1 1 2 2 3 3") == [.move(Point(1, 1)), .line(Point(3, 3)), .line(Point(6, 6))])
        #expect(parse("M0 0 L1 1 2 2") == [.move(.zero), .line(Point(1, 1)), .line(Point(2, 2))])
        #expect(parse("M0 0 h1 2 v3 4") == [.move(.zero), .line(Point(1, 0)), .line(Point(3, 0)),
                                            .line(Point(3, 3)), .line(Point(3, 7))])
    }

    @Test func compactNumbers() {
        // ".5.5" is two numbers, "-1-2" too, and exponents may be signed.
        #expect(parse("M.5.5L-1-2") == [.move(Point(0.5, 0.5)), .line(Point(-1, -2))])
        #expect(parse("M1e-3,2E+2 L+3.,-.25e1") == [.move(Point(0.001, 200)), .line(Point(3, -2.5))])
        #expect(parse("M 0,0\n\t10 , 10") == [.move(.zero), .line(Point(10, 10))])
        #expect(parse("M0.1 0.2") == [.move(Point(0.1, 0.2))])
        #expect(parse("M123456789012345678901234 0") == [.move(Point(123456789012345678901234.0, 0))])
    }

    @Test func emptyDataIsAnEmptyPath() {
        #expect(parse("").isEmpty)
        #expect(parse("  \n ").isEmpty)
    }

    @Test func curvesAndReflections() {
        #expect(parse("M0 0 C1 2 3 4 5 6 S9 10 11 12") == [
            .move(.zero), .cubic(Point(1, 2), Point(3, 4), Point(5, 6)),
            // S reflects the previous second control (3,4) about (5,6): (7,8).
            .cubic(Point(7, 8), Point(9, 10), Point(11, 12)),
        ])
        #expect(parse("M0 0 s1 2 3 4") == [.move(.zero), .cubic(.zero, Point(1, 2), Point(3, 4))])
        #expect(parse("M0 0 Q1 1 2 0 T4 0") == [
            .move(.zero), .quad(Point(1, 1), Point(2, 0)), .quad(Point(3, -1), Point(4, 0)),
        ])
        #expect(parse("M0 0 q1 1 2 0 t2 0 t2 0") == [
            .move(.zero), .quad(Point(1, 1), Point(2, 0)), .quad(Point(3, -1), Point(4, 0)),
            .quad(Point(5, 1), Point(6, 0)),
        ])
        // T after a non-quadratic command uses the current point as its control.
        #expect(parse("M0 0 L2 0 T4 0") == [.move(.zero), .line(Point(2, 0)), .quad(Point(2, 0), Point(4, 0))])
        #expect(parse("M0 0 c1 1 2 1 3 0 1 1 2 1 3 0") == [
            .move(.zero), .cubic(Point(1, 1), Point(2, 1), Point(3, 0)),
            .cubic(Point(4, 1), Point(5, 1), Point(6, 0)),
        ])
    }

    @Test func relativeCommandsAfterCloseStartAtTheContourStart() {
        #expect(parse("M10 10 l5 0 z l0 5") == [
            .move(Point(10, 10)), .line(Point(15, 10)), .close, .move(Point(10, 10)), .line(Point(10, 15)),
        ])
        #expect(parse("M1 1 Z M2 2 z m1 1") == [
            .move(Point(1, 1)), .close, .move(Point(2, 2)), .close, .move(Point(3, 3)),
        ])
    }

    @Test func arcFlagsWithoutSeparators() {
        // a1 1 0 00 1 1: radii 1, rotation 0, both flags 0, then the end point (1, 1).
        let e = parse("M0 0 a1 1 0 00 1 1")
        #expect(e.count == 2)
        if case .cubic(_, _, let end)? = e.last { #expect(approx(end, Point(1, 1))) } else { Issue.record("no arc") }
        let f = parse("M0 0a1 1 0 011 1")
        if case .cubic(_, _, let end)? = f.last { #expect(approx(end, Point(1, 1))) } else { Issue.record("no arc") }
    }

    @Test func arcGoesTheRequestedWayRound() {
        // A half circle of radius 5 from (0,0) to (10,0): sweep 1 (increasing angle, clockwise on a y-down
        // screen: from 9 o'clock up through 12) passes above the chord through (5, -5); sweep 0 below through (5, 5).
        for (sweep, y) in [(1, -5.0), (0, 5.0)] {
            let path = (try? Path(svgPathData: "M0 0 A5 5 0 0 \(sweep) 10 0")) ?? Path()
            let b = path.boundingBox
            #expect(Swift.abs((y > 0 ? b.maxY : b.minY) - y) < 1e-3)
            #expect(Swift.abs(b.minX) < 1e-9 && Swift.abs(b.maxX - 10) < 1e-9)
        }
        // Large arc with radius 5 between points 6 apart: the centre (3, −4) is 4 above the chord, the far side
        // at y = −9, and the circle's full width (x from −2 to 8) is swept.
        let large = (try? Path(svgPathData: "M0 0 A5 5 0 1 1 6 0")) ?? Path()
        #expect(Swift.abs(large.boundingBox.minY + 9) < 1e-3)
        #expect(Swift.abs(large.boundingBox.maxY) < 1e-9)
        #expect(Swift.abs(large.boundingBox.minX + 2) < 1e-3 && Swift.abs(large.boundingBox.maxX - 8) < 1e-3)
    }

    @Test func arcEdgeCases() {
        // Zero radius is a line; an arc to the current point is omitted; small radii grow to span the chord.
        #expect(parse("M0 0 A0 5 0 0 1 10 0") == [.move(.zero), .line(Point(10, 0))])
        #expect(parse("M3 3 A5 5 0 0 1 3 3") == [.move(Point(3, 3))])
        let grown = (try? Path(svgPathData: "M0 0 A1 1 0 0 1 10 0")) ?? Path()
        #expect(Swift.abs(grown.boundingBox.minY + 5) < 1e-3)
        // Negative radii count as their absolute values.
        let neg = (try? Path(svgPathData: "M0 0 A-5 -5 0 0 1 10 0")) ?? Path()
        #expect(Swift.abs(neg.boundingBox.minY + 5) < 1e-3)
    }

    @Test func garbageNamesOffsetAndToken() {
        let cases: [(String, Int, String)] = [
            ("L10 10", 0, "L10"),          // must begin with a moveto
            ("M10 10 x20", 7, "x20"),       // unknown command
            ("M10 10 L5 abc", 10, "abc"),      // a letter where a number belongs
            ("M10", 3, ""),                  // end of data in a pair
            ("M1 2 L3 4,", 10, ""),          // a trailing comma
            ("M1e 2", 1, "1e"),              // an exponent without digits
            ("M0 0 A1 1 0 2 1 5 5", 12, "2"), // a flag that is not 0 or 1
            ("M0 0 Z 5", 7, "5"),            // numbers after Z
            ("M,1 2", 1, ","),               // a comma right after a command
            ("M1 2 L3 4 ,, 5 6", 11, ","),  // two commas
            ("M1 2 L3 é", 8, "é"),          // offsets count characters, not bytes
            ("M1 2 L. 3", 6, "."),           // a dot alone is no number
        ]
        for (d, offset, token) in cases {
            let e = failure(d)
            #expect(e?.offset == offset, "offset for \(d)")
            #expect(e?.token == token, "token for \(d)")
            #expect(e.map { $0.description.contains("offset \(offset)") } == true)
        }
    }

    @Test func randomGarbageNeverCrashes() {
        var rng = SeededRandom(seed: 7)
        let alphabet = Array("MmLlHhVvCcSsQqTtAaZz0123456789.,-+eE \n#x")
        for _ in 0..<2000 {
            let n = Int.random(in: 0..<40, using: &rng)
            let s = String((0..<n).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] })
            if let e = failure(s) {
                #expect(e.offset >= 0 && e.offset <= s.unicodeScalars.count)
            }
        }
    }
}

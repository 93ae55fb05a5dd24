import Geometry
import Refresh

/// An awkward moment for a header, one of the audit's built-in gesture scripts (docs/audit.md lists them with the
/// user reports they come from). A moment is made for the phone and header it runs on: its pulls are finger
/// travels that bring the header to a given pull there (`AuditPlace.travel(for:)`), so that "at the trigger" is at
/// that header's trigger under that platform's rubber band or drag rate.
public struct AuditMoment: Sendable {
    /// The moment's name, as `--moment` and the report give it.
    public let name: String
    /// What happens, in a line.
    public let about: String
    /// Whether the list is back at its resting top at the end, so the audit checks that it is.
    let endsAtRest: Bool
    /// Whether the moment's pull must start a refresh (true), must not (false), or either (nil): a case whose
    /// pull did otherwise did not play the moment out, and fails.
    var refreshes: Bool? = nil
    /// Whether the moment plays the second floor, and so runs only on a header that has one (`--floor`).
    var needsFloor = false
    let steps: @Sendable (AuditPlace) -> [GestureScript.Step]

    /// The gesture script of the moment on `place`, refreshes ending only where it ends them.
    public func script(on place: AuditPlace) -> GestureScript {
        GestureScript(name: name, autoEnd: false, steps: steps(place))
    }
}

/// Where a moment's finger goes on a phone with a header: the screen's middle, a start in the list, the bar to tap,
/// and the finger travel each pull takes.
public struct AuditPlace: Sendable {
    /// The middle of the screen, and where a pull starts: 120 pt into the list.
    public var x: Double, y: Double
    /// A point on the navigation bar (or the status bar without one): a tap there scrolls the list to its top.
    public var barY: Double
    /// The header's trigger distance, in points.
    public var trigger: Double
    /// How far the finger travels for each pull asked for (`travel(for:)`), worked out on the same phone.
    var travels: [Double: Double]
    /// Where a touch goes down in the open floor's bottom strip: `stripMargin` above the list's bottom.
    public var floorStripY = 0.0
    static let stripMargin = 20.0

    /// The finger travel that brings the header to `pull` points (at least the pull itself).
    func travel(for pull: Double) -> Double { travels[pull] ?? pull }

    /// The pulls the moments ask for, as fractions of the trigger distance or points past it; with a second floor,
    /// past its rate too (`floorPull`).
    static func pulls(trigger t: Double, floor: SecondFloor.Style? = nil) -> [Double] {
        [t * 0.5, t - 1, t + 1, t * 1.5] + (floor.map { [floorPull(trigger: t, $0)] } ?? [])
    }

    /// A pull past the floor's rate: halfway from it to the farthest pull Android allows.
    static func floorPull(trigger t: Double, _ floor: SecondFloor.Style) -> Double {
        t * (floor.floorRate + floor.maxRate) / 2
    }
}

extension AuditMoment {
    /// A frame at 60 Hz: the moments' "a frame later".
    static let frame = 1.0 / 60

    /// Every built-in moment, in the order the report lists them.
    public static let all: [AuditMoment] = {
        typealias S = GestureScript.Step
        @Sendable func pull(_ p: AuditPlace, to pull: Double, over seconds: Double) -> [S] {
            [.down(Point(p.x, p.y)), .move(to: Point(p.x, p.y + p.travel(for: pull)), duration: seconds, easing: .linear)]
        }
        @Sendable func settle(_ seconds: Double = 1.5) -> [S] { [.wait(seconds)] }
        let end: S = .endRefresh(.success)
        return [
            AuditMoment(name: "pull-short", about: "a pull to half the trigger, let go", endsAtRest: true,
                        refreshes: false) { p in
                pull(p, to: p.trigger * 0.5, over: 0.4) + [.up(nil)] + settle()
            },
            AuditMoment(name: "pull-at-trigger", about: "a pull a point past the trigger, let go at once",
                        endsAtRest: true, refreshes: true) { p in
                pull(p, to: p.trigger + 1, over: 0.5) + [.up(nil), .wait(1), end] + settle()
            },
            AuditMoment(name: "pull-in-arming-band", about: "a pull that trembles across the trigger, then lets go",
                        endsAtRest: true, refreshes: true) { p in
                pull(p, to: p.trigger + 1, over: 0.5)
                    + [.move(to: Point(p.x, p.y + p.travel(for: p.trigger - 1)), duration: 0.1, easing: .linear),
                       .move(to: Point(p.x, p.y + p.travel(for: p.trigger + 1)), duration: 0.1, easing: .linear),
                       .up(nil), .wait(1), end] + settle()
            },
            AuditMoment(name: "hold-past-trigger", about: "a pull to 1.5 times the trigger, held 2 s, let go",
                        endsAtRest: true, refreshes: true) { p in
                pull(p, to: p.trigger * 1.5, over: 0.6) + [.wait(2), .up(nil), .wait(1), end] + settle()
            },
            AuditMoment(name: "fling-into-top-while-refreshing",
                        about: "refreshing, the list scrolled down and flung back into its top", endsAtRest: true) { p in
                [.beginRefresh, .wait(0.8), .down(Point(p.x, p.y + 300)),
                 .move(to: Point(p.x, p.y), duration: 0.2, easing: .linear), .up(nil), .wait(0.3),
                 .down(Point(p.x, p.y)), .move(to: Point(p.x, p.y + 250), duration: 0.08, easing: .linear), .up(nil),
                 .wait(1.5), end] + settle()
            },
            AuditMoment(name: "begin-at-rest", about: "a refresh begun from code with the list at rest",
                        endsAtRest: true) { _ in
                [.beginRefresh, .wait(1.2), end] + settle()
            },
            AuditMoment(name: "begin-scrolled-down", about: "a refresh begun from code with the list scrolled down",
                        endsAtRest: false) { p in
                [.down(Point(p.x, p.y + 300)), .move(to: Point(p.x, p.y), duration: 0.3, easing: .linear), .up(nil),
                 .wait(1.5), .beginRefresh, .wait(1.2), end] + settle()
            },
            AuditMoment(name: "begin-during-bounce", about: "a refresh begun from code as a short pull bounces back",
                        endsAtRest: true) { p in
                pull(p, to: p.trigger * 0.5, over: 0.3) + [.up(nil), .wait(2 * frame), .beginRefresh, .wait(1.2), end]
                    + settle()
            },
            AuditMoment(name: "begin-under-short-pull", about: "a refresh begun from code while a finger holds a short pull",
                        endsAtRest: true) { p in
                pull(p, to: p.trigger * 0.5, over: 0.3) + [.beginRefresh, .wait(0.4), .up(nil), .wait(1.2), end]
                    + settle()
            },
            AuditMoment(name: "begin-under-finger", about: "a refresh begun from code while a finger rests on the list",
                        endsAtRest: true) { p in
                [.down(Point(p.x, p.y)), .beginRefresh, .wait(0.5), .up(nil), .wait(1.2), end] + settle()
            },
            AuditMoment(name: "begin-twice", about: "a refresh begun from code twice, a few frames apart",
                        endsAtRest: true) { _ in
                [.beginRefresh, .wait(3 * frame), .beginRefresh, .wait(1.2), end] + settle()
            },
            AuditMoment(name: "end-at-begin", about: "a refresh ended in the frame it began", endsAtRest: true) { _ in
                [.beginRefresh, end] + settle()
            },
            AuditMoment(name: "end-a-frame-after-begin", about: "a refresh ended one frame after it began",
                        endsAtRest: true) { _ in
                [.beginRefresh, .wait(frame), end] + settle()
            },
            AuditMoment(name: "end-two-frames-after-begin", about: "a refresh ended two frames after it began",
                        endsAtRest: true) { _ in
                [.beginRefresh, .wait(2 * frame), end] + settle()
            },
            AuditMoment(name: "end-while-coming-into-view",
                        about: "a refresh ended while its header is still coming into view", endsAtRest: true) { _ in
                [.beginRefresh, .wait(0.1), end] + settle()
            },
            AuditMoment(name: "end-during-drag", about: "a refresh ended while a finger drags the list",
                        endsAtRest: true) { p in
                [.beginRefresh, .wait(1.2), .down(Point(p.x, p.y)),
                 .move(to: Point(p.x, p.y + 40), duration: 0.3, easing: .linear), end,
                 .move(to: Point(p.x, p.y + 80), duration: 0.3, easing: .linear), .up(nil)] + settle(2)
            },
            AuditMoment(name: "end-twice", about: "a refresh ended twice, a few frames apart", endsAtRest: true) { _ in
                [.beginRefresh, .wait(1.2), end, .wait(3 * frame), end] + settle()
            },
            AuditMoment(name: "switch-header-while-refreshing", about: "the next header chosen while refreshing",
                        endsAtRest: true) { _ in
                [.beginRefresh, .wait(0.6), .key("Tab", .nextEffect), .wait(1.2), end] + settle()
            },
            AuditMoment(name: "tap-bar-while-refreshing",
                        about: "refreshing, the list scrolled down, a tap on the bar scrolls it to its top",
                        endsAtRest: true) { p in
                [.beginRefresh, .wait(0.8), .down(Point(p.x, p.y + 300)),
                 .move(to: Point(p.x, p.y), duration: 0.3, easing: .linear), .up(nil), .wait(0.8),
                 .down(Point(p.x, p.barY)), .up(nil), .wait(1.2), end] + settle()
            },
            AuditMoment(name: "load-more-while-refreshing",
                        about: "refreshing, the list flung to its bottom where the footer loads more", endsAtRest: false) { p in
                var steps: [S] = [.beginRefresh, .wait(0.8)]
                for _ in 0..<6 {
                    steps += [.down(Point(p.x, p.y + 350)), .move(to: Point(p.x, p.y), duration: 0.06, easing: .linear),
                              .up(nil), .wait(0.5)]
                }
                return steps + [.wait(1.5), end] + settle()
            },
        ]
    }()

    /// The moments of the second floor, run with `--floor` on each header that has one.
    public static let floorMoments: [AuditMoment] = {
        typealias S = GestureScript.Step
        @Sendable func pastTheFloor(_ p: AuditPlace) -> [S] {
            let pull = p.travels.keys.max() ?? p.trigger
            return [.down(Point(p.x, p.y)),
                    .move(to: Point(p.x, p.y + p.travel(for: pull)), duration: 0.6, easing: .linear)]
        }
        @Sendable func closeFromTheStrip(_ p: AuditPlace) -> [S] {
            [.down(Point(p.x, p.floorStripY)), .move(to: Point(p.x, p.y), duration: 0.3, easing: .linear), .up(nil)]
        }
        return [
            AuditMoment(name: "floor-open-and-close",
                        about: "a pull past the floor's rate let go, the floor open, then closed from its bottom strip",
                        endsAtRest: true, refreshes: false, needsFloor: true) { p in
                pastTheFloor(p) + [.up(nil), .wait(1.5)] + closeFromTheStrip(p) + [.wait(2)]
            },
            AuditMoment(name: "floor-back-to-refresh",
                        about: "a pull past the floor's rate taken back to 1.5 times the trigger, let go: a refresh",
                        endsAtRest: true, refreshes: true, needsFloor: true) { p in
                pastTheFloor(p) + [.move(to: Point(p.x, p.y + p.travel(for: p.trigger * 1.5)), duration: 0.3,
                                         easing: .linear), .up(nil), .wait(1), .endRefresh(.success), .wait(1.5)]
            },
            AuditMoment(name: "floor-from-code",
                        about: "the floor opened from code (U) and closed as it opens, then opened and closed once open",
                        endsAtRest: true, refreshes: false, needsFloor: true) { _ in
                [.key("U", .toggleSecondFloor), .wait(0.3), .key("U", .toggleSecondFloor), .wait(1.5),
                 .key("U", .toggleSecondFloor), .wait(1.5), .key("U", .toggleSecondFloor), .wait(2)]
            },
        ]
    }()

    /// The moment named `name`, a floor's among them.
    public static func named(_ name: String) -> AuditMoment? { (all + floorMoments).first { $0.name == name } }
}

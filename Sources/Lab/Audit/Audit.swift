#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Colors
import Geometry
import Motion
import Raster
import Recording
import Refresh
import Styles
import Synchronization
import UserFiles

/// A configuration the audit runs its moments on: a header on a phone, under a bar, in an appearance.
public struct AuditConfiguration: Hashable, Sendable {
    public var effect: String
    /// The phone; nil for the lab's own 375 × 667 phone.
    public var device: PhoneModel?
    public var bar: BarStyle
    public var appearance: Appearance
    /// The second floor the header has (`--floor`), or nil.
    public var floor: FloorSource?

    public init(effect: String, device: PhoneModel?, bar: BarStyle, appearance: Appearance, floor: FloorSource? = nil) {
        self.effect = effect
        self.device = device
        self.bar = bar
        self.appearance = appearance
        self.floor = floor
    }

    /// The phone's name as `--device` takes it ("default" for the lab's own).
    public var deviceName: String { device?.id ?? "default" }
    /// "classic iphone-se standard light", and "floor" after it for a header with a second floor.
    public var label: String {
        "\(effect) \(deviceName) \(bar.rawValue) \(appearance.rawValue)" + (floor == nil ? "" : " floor")
    }

    public static func == (a: AuditConfiguration, b: AuditConfiguration) -> Bool { a.label == b.label }
    public func hash(into hasher: inout Hasher) { hasher.combine(label) }
}

/// One case: a moment on a configuration.
public struct AuditCase: Hashable, Sendable {
    public var configuration: AuditConfiguration
    public var moment: String
}

/// How a case went: the frames it ran, and the first invariant it broke (none when it passed).
public struct AuditResult: Sendable {
    public var auditCase: AuditCase
    public var frames: Int
    /// Whether its frames were drawn, each judged against the frame budget and the screen's sides.
    public var drawn = false
    public var failure: Failure?
    /// A failing case's frames, for the report's chart: empty for a case that passed.
    public var series: [Sample] = []
    /// A failing case's script, for the report's replay command: nil for a case that passed.
    public var script: GestureScript?
    /// The frames around a failing case's failure as PNG files' bytes, when they were drawn (`Audit.strip`).
    public var strip: [(frame: Int, png: [UInt8])] = []

    /// One frame of a case: its time, how far the content sits below its rest, the inset the header added and
    /// how far the finger is below where it went down (nil while it is up), in points.
    public struct Sample: Sendable, Equatable {
        public var time: Double
        public var drop: Double
        public var inset: Double
        public var finger: Double?
    }

    public struct Failure: Sendable, Equatable {
        /// The frame (0 at the script's start) and its time in seconds.
        public var frame: Int
        public var time: Double
        public var invariant: String
        public var detail: String
    }

    public var passed: Bool { failure == nil }
}

/// `refreshlab audit`: every header on every phone, bar and appearance, through every awkward moment, each frame
/// checked against the refresh control's invariants (docs/audit.md).
public enum Audit {
    /// The configurations of the given effects, phones, bars and appearances, in that order of nesting; with
    /// `floor`, each header that can have one (`Simulation.floorRefusal`) has that second floor.
    public static func configurations(effects: [String], devices: [PhoneModel?], bars: [BarStyle],
                                      appearances: [Appearance], floor: FloorSource? = nil) -> [AuditConfiguration] {
        effects.flatMap { effect in
            let floor = Simulation.floorRefusal(effect: effect) == nil ? floor : nil
            return devices.flatMap { device in
                bars.flatMap { bar in
                    appearances.map {
                        AuditConfiguration(effect: effect, device: device, bar: bar, appearance: $0, floor: floor)
                    }
                }
            }
        }
    }

    /// Every case of `configurations` × `moments`, in a fixed order: a shard of it is the same on every machine.
    /// A moment of the second floor runs only on a configuration with one.
    public static func cases(_ configurations: [AuditConfiguration], moments: [AuditMoment]) -> [AuditCase] {
        configurations.flatMap { c in
            moments.filter { !$0.needsFloor || c.floor != nil }.map { AuditCase(configuration: c, moment: $0.name) }
        }
    }

    /// The `part`-th of `parts` shares of `cases` (1-based): every `parts`-th case from the `part`-th, so that the
    /// shares are even whatever the order of effects.
    public static func shard(_ cases: [AuditCase], part: Int, of parts: Int) -> [AuditCase] {
        cases.enumerated().filter { $0.offset % parts == part - 1 }.map(\.element)
    }

    /// The phone description of a configuration, with the user's styles and animation files.
    static func description(_ c: AuditConfiguration, styles: StyleBook?, animations: [String: String]) -> PhoneDescription {
        PhoneDescription(device: Phone(model: c.device, bar: c.bar), effect: c.effect, appearance: c.appearance,
                         styles: styles, animationFiles: animations, floor: c.floor)
    }

    /// Where the moments' fingers go on a configuration's phone, with the finger travel each pull they ask for takes
    /// there: found by pulling the header a little at a time on a phone of its own until it reaches the pull.
    static func place(_ description: PhoneDescription) throws -> AuditPlace {
        let clock = SimulatedClock()
        let simulation = try Simulation(description: description, clock: clock)
        let phone = simulation.primaryPhone, control = phone.refreshControl
        let x = phone.device.screenSize.width / 2, y = phone.device.listFrame.minY + 120
        // The status bar's middle: a tap there scrolls to the top whatever the navigation bar.
        let barY = phone.device.figures.statusBarHeight / 2
        var travels: [Double: Double] = [:]
        let wanted = AuditPlace.pulls(trigger: control.triggerDistance, floor: control.secondFloor).sorted()
        simulation.autoEndsRefreshing = false
        simulation.handle(.touchDown(Point(x, y)))
        var travel = 0.0, next = 0
        while next < wanted.count && travel < 3000 {
            travel += 0.25
            clock.advance(by: 1.0 / 240)
            simulation.handle(.touchMove(Point(x, y + travel)))
            simulation.step()
            while next < wanted.count && control.distance >= wanted[next] {
                travels[wanted[next]] = travel
                next += 1
            }
        }
        return AuditPlace(x: x, y: y, barY: barY, trigger: control.triggerDistance, travels: travels,
                          floorStripY: phone.device.listFrame.maxY - AuditPlace.stripMargin)
    }

    /// How long a case may run past its script for the header and the list to come to rest, in seconds.
    static let settleLimit = 6.0

    /// Which cases draw their frames (`drawn`): every one, none, or one a configuration, the same whichever
    /// shard runs it.
    public enum Drawing: String, CaseIterable, Sendable {
        /// Each configuration's `drawnMoment` case, or its first when that moment is not audited.
        case one
        case all
        case none
    }

    /// The moment a configuration's frames are drawn in by default: it goes through every phase of a header
    /// (pulling, armed, refreshing, finishing).
    public static let drawnMoment = "hold-past-trigger"

    /// The cases of `cases` whose frames `drawing` draws.
    public static func drawn(_ cases: [AuditCase], _ drawing: Drawing) -> Set<AuditCase> {
        switch drawing {
        case .all: return Set(cases)
        case .none: return []
        case .one:
            var chosen: [AuditConfiguration: AuditCase] = [:]
            for c in cases where chosen[c.configuration] == nil || c.moment == drawnMoment {
                if chosen[c.configuration]?.moment != drawnMoment { chosen[c.configuration] = c }
            }
            return Set(chosen.values)
        }
    }

    /// Runs one case: the moment's script on the configuration's phone, every frame checked, then on until the
    /// header and the list are still. With `budget`, each frame is also drawn, and judged against it and the
    /// screen's sides (`AuditDrawing`).
    public static func run(_ auditCase: AuditCase, styles: StyleBook?, animations: [String: String],
                           place given: AuditPlace? = nil, budget: FrameBudget? = nil) throws -> AuditResult {
        let c = auditCase.configuration
        guard let moment = AuditMoment.named(auditCase.moment) else {
            throw LabError("no moment '\(auditCase.moment)'; expected one of "
                + AuditMoment.all.map(\.name).joined(separator: ", "))
        }
        let description = Audit.description(c, styles: styles, animations: animations)
        let place = try given ?? Audit.place(description)
        let script = moment.script(on: place)
        let replay = try ScriptReplay(script: script, description: description)
        let simulation = replay.simulation, control = simulation.refreshControl, scrollView = simulation.scrollView
        let invariants = RefreshInvariants(scrollView: scrollView, control: control, footer: simulation.footer)
        var refreshed = false, deepest = 0.0
        control.stateDidChange = { old, new in
            invariants.checkTransition(from: old, to: new)
            if new == .refreshing { refreshed = true }
        }
        // The checks hold the control, and its callback holds them: let go of both when the case is done.
        defer { control.stateDidChange = nil }
        let rate = replay.timeline.frameRate
        let drawing = budget.map { AuditDrawing(simulation: simulation, budget: $0, frameRate: rate) }
        /// The earliest failure of either kind of check so far, as a time.
        var firstFailure: Double? { [invariants.failures.first?.time, drawing?.failure?.time].compactMap { $0 }.min() }
        var frames = 0
        var series: [AuditResult.Sample] = []
        var downAt: Double?
        func sample() {
            if let touch = replay.touch { downAt = downAt ?? touch.y } else { downAt = nil }
            series.append(.init(time: replay.now, drop: -scrollView.contentOffset.y - scrollView.adjustedContentInset.top
                                    + control.addedInset, inset: control.addedInset,
                                finger: replay.touch.map { $0.y - (downAt ?? $0.y) }))
        }
        while true {
            let start = FrameRecorder.threadSeconds()
            guard replay.advance() else { break }
            let stepSeconds = FrameRecorder.threadSeconds() - start
            invariants.check(time: replay.now, fingerMove: replay.frameTravel, frameDuration: 1 / rate)
            drawing?.check(time: replay.now, frame: Int((replay.now * rate).rounded()), stepSeconds: stepSeconds)
            sample()
            deepest = Swift.max(deepest, control.distance)
            frames += 1
            // A second past the first failure, for the report's chart.
            if let first = firstFailure, replay.now >= first + 1 { break }
        }
        // Then on until everything is still (a header's finish may outlast the script), for at most `settleLimit`.
        var extra = 0
        while firstFailure == nil && extra < Int(settleLimit * rate)
                && (control.state != .idle || control.isAnimating || scrollView.isAnimating) {
            replay.clock.advance(by: 1 / rate)
            let start = FrameRecorder.threadSeconds()
            simulation.step()
            let stepSeconds = FrameRecorder.threadSeconds() - start
            invariants.check(time: replay.now, fingerMove: 0, frameDuration: 1 / rate)
            drawing?.check(time: replay.now, frame: Int((replay.now * rate).rounded()), stepSeconds: stepSeconds)
            sample()
            frames += 1
            extra += 1
        }
        var failure = invariants.failures.first.map {
            AuditResult.Failure(frame: Int(($0.time * rate).rounded()), time: $0.time, invariant: $0.invariant.rawValue,
                                detail: $0.detail)
        }
        if let drawn = drawing?.failure, drawn.time < failure?.time ?? .infinity { failure = drawn }
        if failure == nil, let expected = moment.refreshes, expected != refreshed {
            failure = .init(frame: frames - 1, time: replay.now, invariant: "moment played out",
                            detail: "the pull \(expected ? "never started" : "started") a refresh (it reached "
                                + "\(JSONText.number((deepest * 10).rounded() / 10)) of \(place.trigger) pt)")
        }
        // Back at rest: the refresh over, the inset the scroll view's own, the content at its resting top.
        if failure == nil {
            let rest = -scrollView.adjustedContentInset.top
            if control.state != .idle || control.addedInset != 0 {
                failure = .init(frame: frames - 1, time: replay.now, invariant: RefreshInvariants.Invariant.inset.rawValue,
                                detail: "at the end, \(control.state) with \(control.addedInset) pt of inset added")
            } else if moment.endsAtRest && Swift.abs(scrollView.contentOffset.y - rest) > 0.5 {
                let away = ((scrollView.contentOffset.y - rest) * 100).rounded() / 100
                failure = .init(frame: frames - 1, time: replay.now, invariant: "back at rest",
                                detail: "at the end, the content \(away) pt from its rest")
            }
        }
        guard failure != nil else { return AuditResult(auditCase: auditCase, frames: frames, drawn: budget != nil) }
        return AuditResult(auditCase: auditCase, frames: frames, drawn: budget != nil, failure: failure, series: series,
                           script: script)
    }

    /// Runs `cases` on `threads` threads (each case on a phone of its own), the places worked out once per
    /// configuration; the `drawn` ones drawn and judged against `budget` (measured here when nil). Results are in
    /// the cases' order.
    public static func run(_ cases: [AuditCase], styles: StyleBook?, animations: [String: String],
                           threads: Int, drawn: Set<AuditCase> = [], budget: FrameBudget? = nil) throws -> [AuditResult] {
        let budget = drawn.isEmpty ? nil : try budget ?? FrameBudget.measure()
        let configurations = Array(Set(cases.map(\.configuration)))
        let places = Mutex<[AuditConfiguration: Result<AuditPlace, any Error>]>([:])
        let workers = Swift.max(1, threads)
        Audit.onThreads(workers) { worker in
            for i in stride(from: worker, to: configurations.count, by: workers) {
                let c = configurations[i]
                let place = Result { try Audit.place(Audit.description(c, styles: styles, animations: animations)) }
                places.withLock { $0[c] = place }
            }
        }
        let found = places.withLock { $0 }
        let results = Mutex<[Int: Result<AuditResult, any Error>]>([:])
        Audit.onThreads(workers) { worker in
            for index in stride(from: worker, to: cases.count, by: workers) {
                let auditCase = cases[index]
                let result = Result {
                    try Audit.run(auditCase, styles: styles, animations: animations,
                                  place: try found[auditCase.configuration]!.get(),
                                  budget: drawn.contains(auditCase) ? budget : nil)
                }
                results.withLock { $0[index] = result }
            }
        }
        let all = results.withLock { $0 }
        return try cases.indices.map { try all[$0]!.get() }
    }

    /// Runs `body(k)` for each k in 0..<count, each on a thread of its own, and returns when all are done.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        final class Work {
            let body: @Sendable (Int) -> Void, index: Int
            init(_ body: @escaping @Sendable (Int) -> Void, _ index: Int) {
                self.body = body
                self.index = index
            }
        }
        var threads: [pthread_t] = []
        for k in 0..<count {
            var thread = pthread_t()
            let work = Unmanaged.passRetained(Work(body, k)).toOpaque()
            let started = pthread_create(&thread, nil, { raw in
                let work = Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue()
                work.body(work.index)
                return nil
            }, work)
            if started == 0 {
                threads.append(thread)
            } else {
                // No thread: this one does the work.
                let work = Unmanaged<Work>.fromOpaque(work).takeRetainedValue()
                work.body(work.index)
            }
        }
        for thread in threads { pthread_join(thread, nil) }
    }

    /// How many frames on each side of a failure its strip shows.
    static let stripReach = 2

    /// Draws the frames around `result`'s failure (`stripReach` before and after), replaying its case: the top
    /// half of the screen, where the header is, at half the phone's scale, as PNG files' bytes.
    public static func strip(of result: AuditResult, styles: StyleBook?, animations: [String: String]) throws
        -> [(frame: Int, png: [UInt8])] {
        guard let failure = result.failure, let script = result.script else { return [] }
        let description = Audit.description(result.auditCase.configuration, styles: styles, animations: animations)
        let replay = try ScriptReplay(script: script, description: description)
        let rate = replay.timeline.frameRate
        var strip: [(frame: Int, png: [UInt8])] = []
        var frame = 0
        while frame <= failure.frame + stripReach {
            if !replay.advance() {
                // Past the script, the case ran on with no input until everything was still.
                replay.clock.advance(by: 1 / rate)
                replay.simulation.step()
            }
            if frame >= failure.frame - stripReach {
                replay.simulation.render()
                strip.append((frame, try PNG.encode(Audit.halfTop(replay.simulation.canvas))))
            }
            frame += 1
        }
        return strip
    }

    /// The top half of `canvas` at half its size (each pixel the mean of four).
    static func halfTop(_ canvas: Canvas) -> Canvas {
        let out = Canvas(width: canvas.width / 2, height: canvas.height / 4)
        for y in 0..<out.height {
            for x in 0..<out.width {
                var sums = [UInt32](repeating: 0, count: 4)
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let p = canvas[2 * x + dx, 2 * y + dy]
                    for c in 0..<4 { sums[c] += (p >> UInt32(8 * c)) & 0xFF }
                }
                out[x, y] = (0..<4).reduce(UInt32(0)) { $0 | (((sums[$1] + 2) / 4) << UInt32(8 * $1)) }
            }
        }
        return out
    }

    /// How many cores the machine has: the audit's threads by default.
    public static var cores: Int { Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}

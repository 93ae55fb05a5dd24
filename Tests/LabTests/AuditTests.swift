@testable import Lab
import Colors
import Raster
import Refresh
import Styles
import Testing
import TestSupport
import UserFiles

/// `refreshlab audit`: the built-in headers pass every moment on both platforms' phones and bars; styles that
/// break an invariant are reported with that invariant, at the frame it breaks.
@Suite struct AuditTests {
    /// Every header, on the SE and the Pixel 8, under a standard and a large bar, through every moment.
    @Test func theBuiltInHeadersPass() throws {
        let configurations = Audit.configurations(
            effects: RefreshEffects.builtInNames, devices: [.iPhoneSE, .pixel8], bars: [.standard, .large],
            appearances: [.light])
        let cases = Audit.cases(configurations, moments: AuditMoment.all)
        #expect(cases.count == 10 * 2 * 2 * AuditMoment.all.count)
        let results = try Audit.run(cases, styles: nil, animations: [:], threads: 2)
        let failed = results.filter { !$0.passed }.map(AuditReport.line)
        #expect(failed.isEmpty, "\(failed.prefix(5).joined(separator: "\n"))")
        #expect(results.allSatisfy { $0.frames > 60 })
    }

    /// With `--floor`, every header that pushes the list has the floor and its three moments pass, on the SE and
    /// the Pixel 8; the floating headers have neither. Each floor moment plays what it says: open and closed from
    /// the strip, armed then taken back to a refresh, opened and closed from code.
    @Test func theFloorsMomentsPassOnEveryHeaderThatCanHaveOne() throws {
        let configurations = Audit.configurations(effects: RefreshEffects.builtInNames, devices: [.iPhoneSE, .pixel8],
                                                  bars: [.standard], appearances: [.light], floor: .drawn)
        #expect(configurations.filter { $0.floor == nil }.map(\.effect).sorted()
                == ["material3", "material3", "ring", "ring", "swipe-refresh", "swipe-refresh"])
        let cases = Audit.cases(configurations, moments: AuditMoment.floorMoments)
        #expect(cases.count == 7 * 2 * 3)
        let results = try Audit.run(cases, styles: nil, animations: [:], threads: 2)
        let failed = results.filter { !$0.passed }.map(AuditReport.line)
        #expect(failed.isEmpty, "\(failed.prefix(5).joined(separator: "\n"))")
        for device in [PhoneModel.iPhoneSE, .pixel8] {
            let c = AuditConfiguration(effect: "classic", device: device, bar: .standard, appearance: .light, floor: .drawn)
            let description = Audit.description(c, styles: nil, animations: [:])
            let place = try Audit.place(description)
            for (moment, expected) in [("floor-open-and-close", [RefreshState.floor, .floorClosing, .idle]),
                                       ("floor-back-to-refresh", [.releaseToFloor, .armed, .refreshing]),
                                       ("floor-from-code", [.floorOpening, .floorClosing, .idle, .floorOpening, .floor,
                                                            .floorClosing, .idle])] {
                let replay = try ScriptReplay(script: AuditMoment.named(moment)!.script(on: place),
                                              description: description)
                var states: [RefreshState] = []
                replay.simulation.primaryPhone.observeChanges(header: { _, new in states.append(new) })
                while replay.advance() {}
                var rest = states[...]
                for state in expected {
                    guard let at = rest.firstIndex(of: state) else {
                        Issue.record("\(moment) on \(device.id): no \(state) in order in \(states)")
                        break
                    }
                    rest = rest[(at + 1)...]
                }
            }
        }
    }

    /// A style file in `folder` that gives classic an inset coming in no time, and the styles read from it.
    private func insetInNoTime(in folder: String, named name: String) throws -> (path: String, styles: StyleBook) {
        let path = folder + "/" + name
        writeTextFile(path, #"{"classic": {"insertDuration": 0}}"#)
        return (path, try StyleFiles.load([path]))
    }

    /// The case of `moment` for `effect` on the SE under a standard bar, with the style file `text`.
    private func audit(_ effect: String, _ moment: String, style text: String) throws -> AuditResult {
        let dir = temporaryDirectory("audit-style")
        defer { _ = removeDirectory(dir) }
        let path = dir + "/style.json"
        writeTextFile(path, text)
        let styles = try StyleFiles.load([path])
        let auditCase = AuditCase(configuration: AuditConfiguration(effect: effect, device: .iPhoneSE, bar: .standard,
                                                                    appearance: .light), moment: moment)
        return try Audit.run(auditCase, styles: styles, animations: [:])
    }

    @Test func anInsetOfNoDurationIsAJump() throws {
        // Begun from code at rest, the content drops by the whole header in the first frame.
        for (effect, style) in [("classic", #"{"classic": {"insertDuration": 0}}"#),
                                ("dots", #"{"dots": {"insetDuration": 0}}"#)] {
            let result = try audit(effect, "begin-at-rest", style: style)
            let failure = try #require(result.failure, "\(effect)")
            #expect(failure.invariant == "no jump" && failure.frame <= 1, "\(AuditReport.line(result))")
            // The header as it comes passes the same moment.
            #expect(try audit(effect, "begin-at-rest", style: "{}").passed)
        }
    }

    @Test func anEndThatNeverFinishesLeavesTheInset() throws {
        // The inset takes 10 s to go: the case stops waiting with the header still finishing.
        let result = try audit("classic", "begin-at-rest", style: #"{"classic": {"removeDuration": 10}}"#)
        let failure = try #require(result.failure)
        #expect(failure.invariant == "inset" && failure.detail.contains("finishing"), "\(AuditReport.line(result))")
    }

    @Test func aHeaderTallerThanItsRefreshingInsetIsCutAtItsTop() throws {
        // Dots' square of 80 pt over a 55 pt pull: refreshing shows 55 of it, with the finger up and the inset in.
        let result = try audit("dots", "begin-at-rest", style: #"{"dots": {"headerSide": 80}}"#)
        let failure = try #require(result.failure)
        #expect(failure.invariant == "header in view" && failure.detail.contains("25.0 pt hidden"),
                "\(AuditReport.line(result))")
        // At the first frame past the inset's animation (dots': 0.5 s) and the tenth of a second the check allows.
        #expect(failure.time > 0.6 && failure.time < 0.6 + 1.5 / 60, "\(AuditReport.line(result))")
    }

    @Test func anEndMarkerLongerThanTheCaseLeavesTheInset() throws {
        // A Lottie header whose `end` plays 8 s: the collapse waits for it whole, so the list keeps its gap at the
        // top long after the refresh ended, and the case stops with the header still finishing.
        let dir = temporaryDirectory("audit-lottie")
        defer { _ = removeDirectory(dir) }
        let disc = #"{"ty":4,"ind":1,"ip":0,"op":300,"st":0,"ks":{},"shapes":[{"ty":"el","p":{"a":0,"k":[50,50]},"#
            + #""s":{"a":0,"k":[40,40]}},{"ty":"fl","c":{"a":0,"k":[0.2,0.4,0.9,1]},"o":{"a":0,"k":100}}]}"#
        let markers = #"[{"tm":0,"cm":"pull","dr":30},{"tm":30,"cm":"refresh","dr":30},{"tm":60,"cm":"end","dr":240}]"#
        let path = dir + "/long-end.json"
        writeTextFile(path, #"{"v":"5.7.0","fr":30,"ip":0,"op":300,"w":100,"h":100,"layers":["# + disc
                      + #"],"markers":"# + markers + "}")
        let configuration = AuditConfiguration(effect: "lottie", device: .iPhoneSE, bar: .standard, appearance: .light)
        let result = try Audit.run(AuditCase(configuration: configuration, moment: "begin-at-rest"), styles: nil,
                                   animations: ["lottie": path])
        let failure = try #require(result.failure)
        #expect(failure.invariant == "inset" && failure.detail.contains("finishing"), "\(AuditReport.line(result))")
        // A second's end passes.
        writeTextFile(path, #"{"v":"5.7.0","fr":30,"ip":0,"op":300,"w":100,"h":100,"layers":["# + disc
                      + #"],"markers":"# + markers.replacingOccurrences(of: "240", with: "30") + "}")
        #expect(try Audit.run(AuditCase(configuration: configuration, moment: "begin-at-rest"), styles: nil,
                              animations: ["lottie": path]).passed)
    }

    /// A Lottie file of a bar 20 pt wide and the whole height of a 100 pt square, with a pull and a refresh segment.
    private func barAnimation(in dir: String) -> String {
        let path = dir + "/bar.json"
        writeTextFile(path, #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"layers":[{"ty":4,"ind":1,"ip":0,"#
            + #""op":60,"st":0,"ks":{},"shapes":[{"ty":"rc","p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[20,100]},"#
            + #""r":{"a":0,"k":0}},"#
            + #"{"ty":"fl","c":{"a":0,"k":[0.2,0.4,0.9,1]},"o":{"a":0,"k":100}}]}],"#
            + #""markers":[{"tm":0,"cm":"pull","dr":30},{"tm":30,"cm":"refresh","dr":30}]}"#)
        return path
    }

    @Test func aHeaderPastTheScreensSideIsSaid() throws {
        let dir = temporaryDirectory("audit-sides")
        defer { _ = removeDirectory(dir) }
        let animation = barAnimation(in: dir)
        let budget = try FrameBudget.measure()
        let configuration = AuditConfiguration(effect: "lottie", device: .iPhoneSE, bar: .standard, appearance: .light)
        func audit(offset: Int) throws -> AuditResult {
            writeTextFile(dir + "/style.json", #"{"lottie": {"offsetX": \#(offset)}}"#)
            return try Audit.run(AuditCase(configuration: configuration, moment: "pull-short"),
                                 styles: try StyleFiles.load([dir + "/style.json"]), animations: ["lottie": animation],
                                 budget: budget)
        }
        // The bar, fitted into the 60 pt header at 0.6, is 12 pt wide: 190 pt right of the middle of the SE's 375 pt
        // it spans 371.5 to 383.5, and the pixel from 383 to 384 is half covered.
        let past = try audit(offset: 190)
        let failure = try #require(past.failure)
        #expect(past.drawn && failure.invariant == "on screen"
                    && failure.detail == "the header draws 9 pt past the screen's right edge", "\(AuditReport.line(past))")
        // Not at rest, where the navigation bar hides the header, but once the pull shows some of it.
        #expect(failure.frame > 0 && past.series[failure.frame].drop > 0, "\(AuditReport.line(past))")
        #expect(try audit(offset: -190).failure?.detail == "the header draws 9 pt past the screen's left edge")
        let within = try audit(offset: 175)
        #expect(within.passed && within.drawn, "\(AuditReport.line(within))")
    }

    @Test func oneCaseOfEachConfigurationIsDrawn() {
        let configurations = Audit.configurations(effects: ["classic", "ring"], devices: [.iPhoneSE], bars: [.standard],
                                                  appearances: [.light])
        let moments = ["pull-short", "hold-past-trigger", "end-twice"].compactMap(AuditMoment.named)
        let cases = Audit.cases(configurations, moments: moments)
        #expect(Audit.drawn(cases, .one) == Set(cases.filter { $0.moment == Audit.drawnMoment }))
        #expect(Audit.drawn(cases, .all) == Set(cases) && Audit.drawn(cases, .none).isEmpty)
        // Without that moment, each configuration's first.
        let others = Audit.cases(configurations, moments: [moments[2], moments[0]])
        #expect(Audit.drawn(others, .one) == Set(others.filter { $0.moment == "end-twice" }))
        // Whichever shard runs a case, it is drawn or not the same: chosen over the whole matrix.
        let all = Audit.cases(Audit.configurations(effects: RefreshEffects.builtInNames, devices: [.iPhoneSE, .pixel8],
                                                   bars: BarStyle.allCases, appearances: Appearance.allCases),
                              moments: AuditMoment.all)
        #expect(Audit.drawn(all, .one).count == all.count / AuditMoment.all.count)
    }

    /// What was drawn, and the budget it was judged against, read back from report.json.
    @Test func theReportKeepsWhatWasDrawn() throws {
        let dir = temporaryDirectory("audit-drawn")
        defer { _ = removeDirectory(dir) }
        let configuration = AuditConfiguration(effect: "dots", device: .pixel8, bar: .none, appearance: .dark)
        let results = [AuditResult(auditCase: AuditCase(configuration: configuration, moment: "pull-short"), frames: 90),
                       AuditResult(auditCase: AuditCase(configuration: configuration, moment: "hold-past-trigger"),
                                   frames: 300, drawn: true)]
        let report = AuditReport(results: results, seconds: 2, threads: 2,
                                 budget: FrameBudget(measuredSeconds: 3 * FrameBudget.referenceSeconds))
        try report.write(to: dir)
        let read = try AuditReport.read(folder: dir)
        #expect(read.results.map(\.drawn) == [false, true] && read.budget == report.budget)
        #expect(read.budget.map { Swift.abs($0.slowness - 3) < 1e-9 } == true)
        #expect(report.summary.contains("2 cases (1 drawn)") && report.budgetLine!.contains("budget × 3 "))
        #expect(report.html().contains("<td class=\"p d\""))
    }

    @Test func aPullThatCannotArmIsSaid() throws {
        // A trigger beyond any pull: the pull at the trigger never starts a refresh.
        let result = try audit("classic", "pull-at-trigger", style: #"{"classic": {"headerHeight": 500}}"#)
        #expect(result.failure?.invariant == "moment played out" || result.passed == false,
                "\(AuditReport.line(result))")
    }

    @Test func shardsSplitTheSameCasesEvenly() {
        let cases = Audit.cases(Audit.configurations(effects: ["classic", "dots", "ring"], devices: [.iPhoneSE, .pixel8],
                                                     bars: BarStyle.allCases, appearances: Appearance.allCases),
                                moments: AuditMoment.all)
        let parts = (1...4).map { Audit.shard(cases, part: $0, of: 4) }
        #expect(parts.map(\.count).max()! - parts.map(\.count).min()! <= 1)
        #expect(Set(parts.flatMap { $0 }) == Set(cases) && parts.map(\.count).reduce(0, +) == cases.count)
    }

    /// Every moment's script, written as a file, reads back the same: the report's replay runs what the audit ran.
    @Test func momentsWriteScriptsThatReadBack() throws {
        let place = try Audit.place(PhoneDescription(device: Phone(model: .pixel8), effect: "ring"))
        for moment in AuditMoment.all {
            let script = moment.script(on: place)
            #expect(try GestureScript(json: script.json) == script, "\(moment.name)")
        }
    }

    /// The page: a cell per case, red ones linking to the failing case's section with its chart and the command
    /// that replays it; the command's words quoted for a shell where they need it.
    @Test func theReportPageShowsEachFailure() throws {
        let dir = temporaryDirectory("audit-report")
        defer { _ = removeDirectory(dir) }
        let (path, styles) = try insetInNoTime(in: dir, named: "bad style.json")
        let cases = Audit.cases(Audit.configurations(effects: ["classic"], devices: [.iPhoneSE], bars: [.standard],
                                                     appearances: [.light]),
                                moments: ["pull-short", "begin-at-rest"].compactMap(AuditMoment.named))
        var results = try Audit.run(cases, styles: styles, animations: [:], threads: 1)
        results[1].strip = try Audit.strip(of: results[1], styles: styles, animations: [:])
        let failing = try #require(results[1].failure)
        #expect(results[1].strip.map(\.frame) == Array(failing.frame - 2...failing.frame + 2).filter { $0 >= 0 }
                    || results[1].strip.map(\.frame) == Array(0...failing.frame + 2))
        // Each is a PNG of the top half of the SE's screen at half its scale.
        let picture = try results[1].strip.last!.png.withUnsafeBytes { try PNG.decode($0, name: "strip") }
        #expect(picture.width == 375 && picture.height == 333)
        #expect(AuditReport.base64(Array("Man".utf8)) == "TWFu" && AuditReport.base64(Array("Ma".utf8)) == "TWE="
                    && AuditReport.base64(Array("M".utf8)) == "TQ==")
        let report = AuditReport(results: results, seconds: 1, threads: 1, options: ["--style", path])
        #expect(report.results.map(\.passed) == [true, false])
        let page = report.html()
        #expect(page.ranges(of: "<td class=\"p\"").count == 1)
        #expect(page.contains("<a href=\"#case-1\">") && page.contains("<h2 id=\"case-1\">"))
        #expect(page.contains("<svg") && page.contains("stroke=\"#d33b32\""))
        #expect(page.ranges(of: "<img alt=\"frame ").count == results[1].strip.count)
        #expect(page.contains("refreshlab run --script scripts/case-1.json --effect classic --device iphone-se --bar "
            + "standard --appearance light --style '\(path)' --frames frames-1"))
        #expect(report.results[1].series.count == report.results[1].frames && report.results[0].series.isEmpty)
    }

    /// Shards written to their folders and merged make the report of the whole: the same cases, verdicts, failures,
    /// charts (to a thousandth) and scripts.
    @Test func mergedShardsAreTheWhole() throws {
        let dir = temporaryDirectory("audit-merge")
        defer { _ = removeDirectory(dir) }
        let (path, styles) = try insetInNoTime(in: dir, named: "style.json")
        let cases = Audit.cases(Audit.configurations(effects: ["classic", "dots"], devices: [.iPhoneSE, .pixel8],
                                                     bars: [.standard], appearances: [.light]),
                                moments: ["pull-short", "begin-at-rest", "end-twice"].compactMap(AuditMoment.named))
        let whole = try Audit.run(cases, styles: styles, animations: [:], threads: 2)
        for part in 1...3 {
            let shard = Audit.shard(cases, part: part, of: 3)
            try AuditReport(results: try Audit.run(shard, styles: styles, animations: [:], threads: 1), seconds: 1,
                            threads: 1, options: ["--style", path]).write(to: dir + "/shard-\(part)")
        }
        let merged = AuditReport.merged(try (1...3).map { try AuditReport.read(folder: dir + "/shard-\($0)") })
        #expect(merged.results.count == whole.count && merged.options == ["--style", path])
        let byCase = Dictionary(uniqueKeysWithValues: whole.map { ($0.auditCase, $0) })
        for result in merged.results {
            let expected = try #require(byCase[result.auditCase])
            #expect(result.passed == expected.passed && result.frames == expected.frames)
            #expect(result.failure?.invariant == expected.failure?.invariant && result.failure?.frame == expected.failure?.frame)
            #expect(result.series.count == expected.series.count && result.script == expected.script)
            for (a, b) in zip(result.series, expected.series) { #expect(Swift.abs(a.drop - b.drop) <= 0.0005) }
        }
        #expect(merged.failed.count == whole.filter { !$0.passed }.count && !merged.failed.isEmpty)
        #expect(throws: LabError.self) { try AuditReport.read(folder: dir + "/nowhere") }
    }
}

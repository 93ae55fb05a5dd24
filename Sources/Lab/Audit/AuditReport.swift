import Colors
import UserFiles

/// What an audit found, as `report.json` and as the lines of standard output (docs/audit.md).
public struct AuditReport: Sendable {
    public var results: [AuditResult]
    /// How long the audit took, in seconds, and on how many threads.
    public var seconds: Double
    public var threads: Int
    /// The audit's options that apply to every case (its `--style` files and `--animation`, paths from the root),
    /// which the replay commands repeat.
    public var options: [String]
    /// What the drawn cases' frames were judged against, when there were any.
    public var budget: FrameBudget?

    public init(results: [AuditResult], seconds: Double, threads: Int, options: [String] = [],
                budget: FrameBudget? = nil) {
        self.results = results
        self.seconds = seconds
        self.threads = threads
        self.options = options
        self.budget = budget
    }

    public var failed: [AuditResult] { results.filter { !$0.passed } }

    /// A failing case's line: "FAIL classic iphone-se standard light · end-during-drag: frame 83 (1.38 s), no
    /// jump: the offset jumped 12.3 pt (allowed 4.1)".
    public static func line(_ result: AuditResult) -> String {
        let c = result.auditCase
        guard let f = result.failure else { return "pass \(c.configuration.label) · \(c.moment)" }
        return "FAIL \(c.configuration.label) · \(c.moment): frame \(f.frame) (\(JSONText.number((f.time * 1000).rounded() / 1000)) s), "
            + "\(f.invariant): \(f.detail)"
    }

    /// The closing line: how many cases (and of them drawn), how many failed, how long it took.
    public var summary: String {
        let time = JSONText.number((seconds * 10).rounded() / 10)
        let drawn = results.filter(\.drawn).count
        return "audit: \(results.count) cases (\(drawn) drawn), \(failed.count) failed, in \(time) s on \(threads) threads"
    }

    /// How the drawn frames were judged: the reference frame's time here and on the reference machine, and what a
    /// frame's budget was multiplied by; nil when nothing was drawn.
    public var budgetLine: String? {
        guard let budget else { return nil }
        func ms(_ s: Double) -> String { JSONText.number((s * 100_000).rounded() / 100) + " ms" }
        return "frames drawn within the platform's budget × \(JSONText.number((budget.slowness * 100).rounded() / 100)) "
            + "(the reference frame took \(ms(budget.measuredSeconds)) here, \(ms(FrameBudget.referenceSeconds)) on the "
            + "reference machine)"
    }

    /// `report.json`: every case with its configuration, moment, verdict and frames, and a failing case's first
    /// failure (frame, time, invariant, what was seen).
    public var json: String {
        func string(_ s: String) -> String { JSONText.string(s) }
        let cases = results.map { r -> String in
            let c = r.auditCase.configuration
            var fields = ["\"effect\":" + string(c.effect), "\"device\":" + string(c.deviceName),
                          "\"bar\":" + string(c.bar.rawValue), "\"appearance\":" + string(c.appearance.rawValue),
                          "\"moment\":" + string(r.auditCase.moment), "\"verdict\":" + string(r.passed ? "pass" : "fail"),
                          "\"frames\":\(r.frames)"]
            if let floor = c.floor { fields.append("\"floor\":" + string(floor.name)) }
            if r.drawn { fields.append("\"drawn\":true") }
            if let f = r.failure {
                fields.append("\"failure\":{\"frame\":\(f.frame),\"time\":" + JSONText.number(f.time)
                    + ",\"invariant\":" + string(f.invariant) + ",\"detail\":" + string(f.detail) + "}")
                fields.append("\"script\":" + string(AuditReport.scriptName(index[r.auditCase] ?? 0)))
                // [time, drop, inset, finger or null] a frame, for a merged report's chart.
                fields.append("\"series\":[" + r.series.map {
                    "[" + [$0.time, $0.drop, $0.inset].map { JSONText.number(($0 * 1000).rounded() / 1000) }
                        .joined(separator: ",") + "," + ($0.finger.map { JSONText.number(($0 * 1000).rounded() / 1000) } ?? "null")
                        + "]"
                }.joined(separator: ",") + "]")
            }
            return "{" + fields.joined(separator: ",") + "}"
        }
        let budget = self.budget.map { ",\"budget\":{\"measured\":" + JSONText.number($0.measuredSeconds) + ",\"reference\":"
            + JSONText.number(FrameBudget.referenceSeconds) + ",\"slowness\":" + JSONText.number($0.slowness) + "}" } ?? ""
        return "{\"cases\":\(results.count),\"failed\":\(failed.count),\"seconds\":" + JSONText.number(seconds)
            + ",\"threads\":\(threads)" + budget + ",\"options\":[" + options.map(string).joined(separator: ",")
            + "],\"results\":[\n"
            + cases.joined(separator: ",\n") + "\n]}\n"
    }

    /// Writes `report.json`, `report.html` and each failing case's script (`scripts/case-N.json`) into `folder`,
    /// made when missing, each file whole or not at all.
    ///
    /// - Throws: `LabError` naming what could not be written.
    public func write(to folder: String) throws {
        do {
            try makeDirectory(folder)
            if !failed.isEmpty { try makeDirectory(folder + "/scripts") }
        } catch {
            throw LabError("--out: \(error)")
        }
        func save(_ text: String, _ name: String) throws {
            try Array(text.utf8).withUnsafeBytes { try OutputFile.write($0, to: folder + "/" + name) }
        }
        for (i, result) in results.enumerated() {
            if let script = result.script { try save(script.json, AuditReport.scriptName(i)) }
        }
        try save(json, "report.json")
        try save(html(), "report.html")
    }

    /// Each case's place in the results.
    private var index: [AuditCase: Int] {
        var index: [AuditCase: Int] = [:]
        for (i, r) in results.enumerated() { index[r.auditCase] = i }
        return index
    }

    /// Reads a `report.json` that `json` wrote in `folder`, the failing cases' scripts from beside it.
    ///
    /// - Throws: `LabError` naming the file and what is wrong.
    public static func read(folder: String) throws -> AuditReport {
        let path = folder + "/report.json"
        func bad(_ why: String) -> LabError { LabError("\(path): \(why); give the folder of an audit's --out") }
        let bytes: [UInt8]
        do {
            bytes = try UserFile.read(path, kind: "audit report", limit: 1 << 30,
                                      missingAdvice: "give the folder of an audit's --out")
        } catch {
            throw LabError("\(error)")
        }
        let value: JSONValue
        do {
            value = try JSONReader.parse(bytes)
        } catch {
            throw bad("not valid JSON (\(error))")
        }
        guard case .object(let top) = value else { throw bad("not an object") }
        func field(_ fields: [(key: String, value: JSONValue)], _ key: String) -> JSONValue? {
            fields.first { $0.key == key }?.value
        }
        func number(_ v: JSONValue?) -> Double? { if case .number(let n) = v { n } else { nil } }
        func text(_ v: JSONValue?) -> String? { if case .string(let t) = v { t } else { nil } }
        guard case .array(let items) = field(top, "results") else { throw bad("no \"results\"") }
        var results: [AuditResult] = []
        for item in items {
            guard case .object(let f) = item, let effect = text(field(f, "effect")), let device = text(field(f, "device")),
                  let bar = text(field(f, "bar")).flatMap(BarStyle.init(rawValue:)),
                  let appearance = text(field(f, "appearance")).flatMap(Appearance.init(rawValue:)),
                  let moment = text(field(f, "moment")), let frames = number(field(f, "frames")) else {
                throw bad("a case without its configuration, moment or frames")
            }
            let model = device == "default" ? nil : PhoneModel.catalog.first { $0.id == device }
            guard device == "default" || model != nil else { throw bad("no phone '\(device)'") }
            var result = AuditResult(auditCase: AuditCase(
                configuration: AuditConfiguration(effect: effect, device: model, bar: bar, appearance: appearance,
                                                  floor: text(field(f, "floor")).map(FloorSource.init(option:))),
                moment: moment), frames: Int(frames), drawn: field(f, "drawn") == .bool(true))
            if case .object(let failure) = field(f, "failure") {
                result.failure = .init(frame: Int(number(field(failure, "frame")) ?? 0),
                                       time: number(field(failure, "time")) ?? 0,
                                       invariant: text(field(failure, "invariant")) ?? "",
                                       detail: text(field(failure, "detail")) ?? "")
                if case .array(let samples) = field(f, "series") {
                    result.series = samples.compactMap { sample in
                        guard case .array(let v) = sample, v.count == 4, let t = number(v[0]), let d = number(v[1]),
                              let i = number(v[2]) else { return nil }
                        return AuditResult.Sample(time: t, drop: d, inset: i, finger: number(v[3]))
                    }
                }
                if let script = text(field(f, "script")) {
                    do {
                        result.script = try GestureScript.load(path: folder + "/" + script)
                    } catch {
                        throw LabError("\(error)")
                    }
                }
            }
            results.append(result)
        }
        var options: [String] = []
        if case .array(let given) = field(top, "options") { options = given.compactMap(text) }
        var budget: FrameBudget?
        if case .object(let b) = field(top, "budget"), let measured = number(field(b, "measured")) {
            budget = FrameBudget(measuredSeconds: measured)
        }
        return AuditReport(results: results, seconds: number(field(top, "seconds")) ?? 0,
                           threads: Int(number(field(top, "threads")) ?? 1), options: options, budget: budget)
    }

    /// One report of several (the shards of one audit): their cases in the order given, their times added.
    public static func merged(_ reports: [AuditReport]) -> AuditReport {
        // The slowest shard's machine: the one whose budget was widest.
        AuditReport(results: reports.flatMap(\.results), seconds: reports.map(\.seconds).reduce(0, +),
                    threads: reports.map(\.threads).reduce(0, +), options: reports.first?.options ?? [],
                    budget: reports.compactMap(\.budget).max { $0.measuredSeconds < $1.measuredSeconds })
    }

    // MARK: The page

    /// The file name of a failing case's script in the report's folder: `scripts/case-N.json`, N its place in the
    /// results.
    public static func scriptName(_ index: Int) -> String { "scripts/case-\(index).json" }

    /// The command that replays the case at `index` headless with its frames written out, from the report's folder.
    public func replayCommand(_ index: Int) -> String {
        let c = results[index].auditCase.configuration
        var words = ["refreshlab", "run", "--script", AuditReport.scriptName(index), "--effect", c.effect]
        if let device = c.device { words += ["--device", device.id] }
        words += ["--bar", c.bar.rawValue, "--appearance", c.appearance.rawValue] + options
        if let floor = c.floor { words += ["--floor", floor.name] }
        words += ["--frames", "frames-\(index)"]
        return words.map(AuditReport.shellWord).joined(separator: " ")
    }

    /// A word as a POSIX shell reads it back: as it is when it is plain, else in single quotes.
    static func shellWord(_ word: String) -> String {
        let plain = !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:".contains($0) }
        return plain ? word : "'" + word.map { $0 == "'" ? "'\\''" : String($0) }.joined() + "'"
    }

    /// `report.html`: one page with no outside file. A table of configurations (rows) × moments (columns), each cell
    /// green when the case passed and red, linking to its section, when it failed; then for each failing case its
    /// line, a chart of the content's drop, the inset and the finger over the case's time with the failing frame
    /// marked, the frames around the failure where they were drawn, and the command that replays it.
    public func html() -> String {
        func escape(_ text: String) -> String {
            text.map { c -> String in
                switch c {
                case "&": "&amp;"
                case "<": "&lt;"
                case ">": "&gt;"
                case "\"": "&quot;"
                default: String(c)
                }
            }.joined()
        }
        let index = self.index
        var configurations: [AuditConfiguration] = [], moments: [String] = []
        var seen = Set<AuditConfiguration>()
        for r in results {
            if seen.insert(r.auditCase.configuration).inserted { configurations.append(r.auditCase.configuration) }
            if !moments.contains(r.auditCase.moment) { moments.append(r.auditCase.moment) }
        }
        var page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>RefreshLab audit</title><style>"
            + "body{font:14px system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse}"
            + "td,th{padding:2px 4px;font-size:12px}th.m{writing-mode:vertical-rl;transform:rotate(180deg);"
            + "text-align:left;font-weight:normal}td.p{background:#3c9a4e}td.f{background:#d33b32}"
            + "td.p,td.f{width:14px;height:14px;border:1px solid #fff}td.f a{display:block;width:100%;height:100%}"
            + "td.d{box-shadow:inset 0 0 0 3px #1d5c2a}td.f.d{box-shadow:inset 0 0 0 3px #7a1c16}"
            + "pre{background:#f3f3f3;padding:8px;overflow:auto}h2{font-size:16px;margin-top:32px}</style></head><body>\n"
        page += "<h1>RefreshLab audit</h1>\n<p>" + escape(summary) + "</p>\n"
        if let budgetLine { page += "<p>" + escape(budgetLine) + "; a drawn case has a dark frame.</p>\n" }
        page += "<table><tr><th></th>"
        for m in moments { page += "<th class=\"m\">" + escape(m) + "</th>" }
        page += "</tr>\n"
        for c in configurations {
            page += "<tr><th style=\"text-align:left\">" + escape(c.label) + "</th>"
            for m in moments {
                guard let i = index[AuditCase(configuration: c, moment: m)] else { page += "<td></td>"; continue }
                let r = results[i]
                let drawn = r.drawn ? " d" : ""
                page += r.passed ? "<td class=\"p\(drawn)\" title=\"pass\(r.drawn ? ", drawn" : "")\"></td>"
                    : "<td class=\"f\(drawn)\" title=\"" + escape(AuditReport.line(r)) + "\"><a href=\"#case-\(i)\"></a></td>"
            }
            page += "</tr>\n"
        }
        page += "</table>\n"
        for (i, r) in results.enumerated() where !r.passed {
            page += "<h2 id=\"case-\(i)\">" + escape(r.auditCase.configuration.label + " · " + r.auditCase.moment) + "</h2>\n"
            page += "<p>" + escape(AuditReport.line(r)) + "</p>\n"
            if !r.strip.isEmpty {
                page += "<div>" + r.strip.map {
                    "<figure style=\"display:inline-block;margin:0 6px 0 0\"><img alt=\"frame \($0.frame)\" src=\"data:image/png;base64,"
                        + AuditReport.base64($0.png) + "\"><figcaption>frame \($0.frame)</figcaption></figure>"
                }.joined() + "</div>\n"
            }
            page += AuditReport.chart(r) + "\n"
            page += "<pre>" + escape(replayCommand(i)) + "</pre>\n"
        }
        return page + "</body></html>\n"
    }

    /// An SVG chart of a failing case: the content's drop below its rest (blue), the inset added (green) and the
    /// finger's travel (grey, while it is down), in points against seconds, the failing frame a red line.
    static func chart(_ r: AuditResult) -> String {
        let width = 720.0, height = 220.0, left = 44.0, bottom = 24.0
        guard let first = r.series.first, let last = r.series.last, last.time > first.time else { return "" }
        let values = r.series.flatMap { [$0.drop, $0.inset] + ($0.finger.map { [$0] } ?? []) }
        let low = Swift.min(0, values.min() ?? 0), high = Swift.max(1, values.max() ?? 1)
        func x(_ t: Double) -> Double { left + (t - first.time) / (last.time - first.time) * (width - left - 8) }
        func y(_ v: Double) -> Double { 8 + (high - v) / (high - low) * (height - bottom - 8) }
        func number(_ v: Double) -> String { JSONText.number((v * 10).rounded() / 10) }
        func line(_ pick: (AuditResult.Sample) -> Double?, _ colour: String) -> String {
            var runs: [[String]] = [[]]
            for s in r.series {
                if let v = pick(s) { runs[runs.count - 1].append(number(x(s.time)) + "," + number(y(v))) }
                else if !runs[runs.count - 1].isEmpty { runs.append([]) }
            }
            return runs.filter { $0.count > 1 }.map {
                "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.5\" points=\"" + $0.joined(separator: " ") + "\"/>"
            }.joined()
        }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "font-size=\"11\"><rect x=\"0\" y=\"0\" width=\"\(Int(width))\" height=\"\(Int(height))\" fill=\"#fafafa\"/>"
        for v in [low, 0, high] where v != low || v != 0 {
            svg += "<line x1=\"\(number(left))\" x2=\"\(number(width - 8))\" y1=\"\(number(y(v)))\" y2=\"\(number(y(v)))\" "
                + "stroke=\"#ddd\"/><text x=\"4\" y=\"\(number(y(v) + 4))\">\(number(v)) pt</text>"
        }
        svg += "<text x=\"\(number(left))\" y=\"\(Int(height) - 6)\">\(number(first.time)) s</text>"
            + "<text x=\"\(number(width - 60))\" y=\"\(Int(height) - 6)\">\(number(last.time)) s</text>"
        if let f = r.failure {
            svg += "<line x1=\"\(number(x(f.time)))\" x2=\"\(number(x(f.time)))\" y1=\"8\" y2=\"\(number(height - bottom))\" "
                + "stroke=\"#d33b32\"/>"
        }
        svg += line({ $0.finger }, "#999") + line({ $0.inset }, "#3c9a4e") + line({ $0.drop }, "#2f6fd6")
        svg += "<text x=\"\(number(width - 300))\" y=\"20\"><tspan fill=\"#2f6fd6\">content below its rest</tspan> "
            + "<tspan fill=\"#3c9a4e\">inset</tspan> <tspan fill=\"#999\">finger</tspan></text>"
        return svg + "</svg>"
    }

    /// `bytes` in base64 (RFC 4648), as a data URI holds them.
    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var out = ""
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let n = bytes.count - i
            let a = UInt32(bytes[i]), b = n > 1 ? UInt32(bytes[i + 1]) : 0, c = n > 2 ? UInt32(bytes[i + 2]) : 0
            let word = a << 16 | b << 8 | c
            out.append(alphabet[Int(word >> 18 & 63)])
            out.append(alphabet[Int(word >> 12 & 63)])
            out.append(n > 1 ? alphabet[Int(word >> 6 & 63)] : "=")
            out.append(n > 2 ? alphabet[Int(word & 63)] : "=")
            i += 3
        }
        return out
    }
}

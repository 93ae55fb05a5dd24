import UserFiles

/// What an audit found, as `report.json` and as the lines of standard output (docs/audit.md).
public struct AuditReport: Sendable {
    public var results: [AuditResult]
    /// How long the audit took, in seconds, and on how many threads.
    public var seconds: Double
    public var threads: Int

    public init(results: [AuditResult], seconds: Double, threads: Int) {
        self.results = results
        self.seconds = seconds
        self.threads = threads
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

    /// The closing line: how many cases, how many failed, how long it took.
    public var summary: String {
        let time = JSONText.number((seconds * 10).rounded() / 10)
        return "audit: \(results.count) cases, \(failed.count) failed, in \(time) s on \(threads) threads"
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
            if let f = r.failure {
                fields.append("\"failure\":{\"frame\":\(f.frame),\"time\":" + JSONText.number(f.time)
                    + ",\"invariant\":" + string(f.invariant) + ",\"detail\":" + string(f.detail) + "}")
            }
            return "{" + fields.joined(separator: ",") + "}"
        }
        return "{\"cases\":\(results.count),\"failed\":\(failed.count),\"results\":[\n"
            + cases.joined(separator: ",\n") + "\n]}\n"
    }

    // MARK: The page

    /// The file name of a failing case's script in the report's folder: `scripts/case-N.json`, N its place in the
    /// results.
    public static func scriptName(_ index: Int) -> String { "scripts/case-\(index).json" }

    /// The command that replays the case at `index` headless with its frames written out, from the report's folder;
    /// `options` are the audit's own that apply to every case (its `--style` files and `--animation`).
    public func replayCommand(_ index: Int, options: [String]) -> String {
        let c = results[index].auditCase.configuration
        var words = ["refreshlab", "run", "--script", AuditReport.scriptName(index), "--effect", c.effect]
        if let device = c.device { words += ["--device", device.id] }
        words += ["--bar", c.bar.rawValue, "--appearance", c.appearance.rawValue] + options
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
    /// marked, and the command that replays it.
    public func html(moments: [String], options: [String]) -> String {
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
        var index: [AuditCase: Int] = [:]
        for (i, r) in results.enumerated() { index[r.auditCase] = i }
        var configurations: [AuditConfiguration] = []
        for r in results where configurations.last != r.auditCase.configuration
            && !configurations.contains(r.auditCase.configuration) {
            configurations.append(r.auditCase.configuration)
        }
        var page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>RefreshLab audit</title><style>"
            + "body{font:14px system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse}"
            + "td,th{padding:2px 4px;font-size:12px}th.m{writing-mode:vertical-rl;transform:rotate(180deg);"
            + "text-align:left;font-weight:normal}td.p{background:#3c9a4e}td.f{background:#d33b32}"
            + "td.p,td.f{width:14px;height:14px;border:1px solid #fff}td.f a{display:block;width:100%;height:100%}"
            + "pre{background:#f3f3f3;padding:8px;overflow:auto}h2{font-size:16px;margin-top:32px}</style></head><body>\n"
        page += "<h1>RefreshLab audit</h1>\n<p>" + escape(summary) + "</p>\n<table><tr><th></th>"
        for m in moments { page += "<th class=\"m\">" + escape(m) + "</th>" }
        page += "</tr>\n"
        for c in configurations {
            page += "<tr><th style=\"text-align:left\">" + escape(c.label) + "</th>"
            for m in moments {
                guard let i = index[AuditCase(configuration: c, moment: m)] else { page += "<td></td>"; continue }
                let r = results[i]
                page += r.passed ? "<td class=\"p\" title=\"pass\"></td>"
                    : "<td class=\"f\" title=\"" + escape(AuditReport.line(r)) + "\"><a href=\"#case-\(i)\"></a></td>"
            }
            page += "</tr>\n"
        }
        page += "</table>\n"
        for (i, r) in results.enumerated() where !r.passed {
            page += "<h2 id=\"case-\(i)\">" + escape(r.auditCase.configuration.label + " · " + r.auditCase.moment) + "</h2>\n"
            page += "<p>" + escape(AuditReport.line(r)) + "</p>\n" + AuditReport.chart(r) + "\n"
            page += "<pre>" + escape(replayCommand(i, options: options)) + "</pre>\n"
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
}

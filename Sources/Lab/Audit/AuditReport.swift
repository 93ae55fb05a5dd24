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
}

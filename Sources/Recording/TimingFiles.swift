#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster
import UserFiles

/// The CSV and JSON files of a recording.
///
/// CSV, one row per frame after the header (times in milliseconds with microsecond digits, the frame's time in
/// seconds):
///
/// ```
/// frame,time_s,interval_ms,input_ms,update_ms,draw_ms,upload_ms,present_ms,output_ms,cpu_ms,state,effect,dropped,idle
/// 0,0.000000,16.667,0.012,0.051,1.204,0.000,0.000,3.520,1.267,idle,sticky,0,0
/// ```
///
/// `cpu_ms` sums the phases within the budget (all but `output_ms`, the files a run writes); `idle` is 1 for a
/// frame that came after a stretch in which nothing moved (its interval is idle time, so it dropped nothing).
///
/// JSON summary: `frames`, `budget_ms`, `refresh_rate_hz`, `interval_ms` (frames in motion) and `cpu_ms` (each
/// with p50, p90, p95, p99 and max), `mean_cpu_ms`, `janky_frames`, `janky_frames_2x`, `dropped_frames`,
/// `idle_gaps`.
public enum TimingFiles {
    /// The CSV's columns, in order.
    static let columns = ["frame", "time_s", "interval_ms", "input_ms", "update_ms", "draw_ms", "upload_ms",
                                 "present_ms", "output_ms", "cpu_ms", "state", "effect", "dropped", "idle"]
    public static var header: String { columns.joined(separator: ",") }

    /// Appends one frame's row (with its newline).
    @inline(__always)
    static func appendRow(_ s: FrameSample, state: [UInt8], effect: [UInt8], budget: Double,
                                 to out: inout ByteBuffer) {
        out.append(int: s.index); out.append(UInt8(ascii: ","))
        out.append(fixed: s.time, decimals: 6); out.append(UInt8(ascii: ","))
        out.append(fixed: s.interval * 1000, decimals: 3); out.append(UInt8(ascii: ","))
        for phase in FramePhase.allCases {
            out.append(fixed: s[phase] * 1000, decimals: 3); out.append(UInt8(ascii: ","))
        }
        out.append(fixed: s.cpuTime * 1000, decimals: 3); out.append(UInt8(ascii: ","))
        out.append(state); out.append(UInt8(ascii: ","))
        out.append(effect); out.append(UInt8(ascii: ","))
        out.append(int: s.droppedFrames(budget: budget)); out.append(UInt8(ascii: ","))
        out.append(s.followsIdle ? UInt8(ascii: "1") : UInt8(ascii: "0"))
        out.append(UInt8(ascii: "\n"))
    }

    /// The JSON summary, pretty-printed with one field a line, in a buffer the caller deallocates.
    public static func json(_ s: TimingSummary) -> ByteBuffer {
        var out = ByteBuffer(capacity: 1024)
        func ms(_ v: Double) -> Double { v * 1000 }
        func distribution(_ name: StaticString, _ d: TimingSummary.Distribution) {
            out.append("  \""); out.append(name); out.append("\": {")
            out.append("\"p50\": "); out.append(fixed: ms(d.p50), decimals: 3)
            out.append(", \"p90\": "); out.append(fixed: ms(d.p90), decimals: 3)
            out.append(", \"p95\": "); out.append(fixed: ms(d.p95), decimals: 3)
            out.append(", \"p99\": "); out.append(fixed: ms(d.p99), decimals: 3)
            out.append(", \"max\": "); out.append(fixed: ms(d.max), decimals: 3)
            out.append("},\n")
        }
        out.append("{\n  \"frames\": "); out.append(int: s.frameCount); out.append(",\n")
        out.append("  \"budget_ms\": "); out.append(fixed: ms(s.budget), decimals: 3); out.append(",\n")
        out.append("  \"refresh_rate_hz\": "); out.append(fixed: s.budget > 0 ? 1 / s.budget : 0, decimals: 2)
        out.append(",\n")
        distribution("interval_ms", s.interval)
        distribution("cpu_ms", s.cpuTime)
        out.append("  \"mean_cpu_ms\": "); out.append(fixed: ms(s.meanCPUTime), decimals: 3); out.append(",\n")
        out.append("  \"janky_frames\": "); out.append(int: s.jankyFrames); out.append(",\n")
        out.append("  \"janky_frames_2x\": "); out.append(int: s.badlyJankyFrames); out.append(",\n")
        out.append("  \"dropped_frames\": "); out.append(int: s.droppedFrames); out.append(",\n")
        out.append("  \"idle_gaps\": "); out.append(int: s.idleGaps); out.append("\n}\n")
        return out
    }
}

/// One row of a timings CSV read back (by `refreshlab report` and tests).
public struct TimingRow: Equatable, Sendable {
    public var frame: Int
    /// Seconds.
    public var time: Double
    /// Seconds, as the phases below.
    public var interval: Double
    public var phases: [Double]
    public var cpuTime: Double
    public var state: String
    public var effect: String
    public var dropped: Int
    /// True for a frame after an idle stretch.
    public var followsIdle: Bool

    /// The largest time a row may give, in milliseconds (and in seconds for `time_s`): about eleven days, far
    /// past any recording, small enough that the chart's arithmetic stays exact.
    static let maxTime = 1e9

    /// Reads a timings CSV (LF or CRLF line ends); a malformed file, or a number outside its range (times from 0
    /// to `maxTime`, counts from 0), throws a `FileError` naming the path, line and column at fault.
    ///
    /// The text is split as bytes: in Swift "\r\n" is one `Character`, which a split on "\n" never finds.
    public static func parse(_ text: String, path: String) throws(FileError) -> [TimingRow] {
        var rows: [TimingRow] = []
        var lineNumber = 0
        var sawHeader = false
        for raw in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = raw.last == UInt8(ascii: "\r") ? raw.dropLast() : raw[...]
            if line.isEmpty { continue }
            let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            if !sawHeader {
                guard fields == TimingFiles.columns else {
                    throw FileError(file: path, line: lineNumber, column: 1, reason: "not a timings CSV: the header "
                        + "should be '\(TimingFiles.header)'; record one with the R key or 'refreshlab run --headless … "
                        + "--timings FILE'")
                }
                sawHeader = true
                continue
            }
            guard fields.count == TimingFiles.columns.count else {
                throw FileError(file: path, line: lineNumber, column: 1, reason: "\(fields.count) fields, expected "
                    + "\(TimingFiles.columns.count) (\(TimingFiles.header))")
            }
            func fault(_ i: Int, _ what: String) -> FileError {
                let column = fields[..<i].reduce(1) { $0 + $1.utf8.count + 1 }
                return FileError(file: path, line: lineNumber, column: column, reason: "'\(TimingFiles.columns[i])' "
                    + "\(what), not '\(fields[i])'; fix that row or record the timings again")
            }
            func time(_ i: Int) throws(FileError) -> Double {
                guard let v = Double(fields[i]), v.isFinite, v >= 0, v <= TimingRow.maxTime else {
                    throw fault(i, "is a time from 0 to \(Int(TimingRow.maxTime))")
                }
                return v
            }
            func count(_ i: Int) throws(FileError) -> Int {
                guard let v = Int(fields[i]), v >= 0 else { throw fault(i, "is a whole number from 0") }
                return v
            }
            let idle = try count(13)
            guard idle <= 1 else { throw fault(13, "is 0 or 1") }
            let phases = try (3..<9).map { (i: Int) throws(FileError) -> Double in try time(i) / 1000 }
            rows.append(TimingRow(frame: try count(0), time: try time(1), interval: try time(2) / 1000,
                                  phases: phases, cpuTime: try time(9) / 1000,
                                  state: fields[10], effect: fields[11], dropped: try count(12),
                                  followsIdle: idle == 1))
        }
        guard sawHeader else {
            throw FileError(file: path, reason: "the file is empty; a timings CSV starts with the header "
                + "'\(TimingFiles.header)'")
        }
        return rows
    }
}

extension TimingFiles {
    /// The whole of a text file; throws a `FileError` naming the path and what to do.
    public static func readText(_ path: String) throws(FileError) -> String {
        let bytes = try UserFile.read(path, kind: "timings CSV", limit: maxFileSize)
        return String(decoding: bytes[UserFile.byteOrderMarkLength(bytes)...], as: UTF8.self)
    }

    /// The largest timings CSV read: an hour recorded at 120 Hz is about 40 MB.
    static let maxFileSize = 256 << 20

    /// The JSON summary written beside a CSV: `T.csv` → `T.json`.
    public static func summaryPath(forCSV csv: String) -> String {
        csv.hasSuffix(".csv") ? String(csv.dropLast(4)) + ".json" : csv + ".json"
    }

    /// The budgets a chart accepts, in milliseconds: 0.1 ms (a 10 kHz display) to 10 s.
    public static let budgetRange = 0.1...10_000.0

    /// The budget (seconds) a JSON summary gives, or nil when the file is missing or has none.
    ///
    /// - Throws: `FileError` naming the file, line and column when its `budget_ms` is outside `budgetRange`.
    public static func budget(fromSummaryAt path: String) throws(FileError) -> Double? {
        guard FileName.withBytes(path, { access($0, R_OK) }) == 0, let text = try? readText(path) else { return nil }
        let bytes = Array(text.utf8)
        guard let (value, offsets) = try? JSONReader.parseWithOffsets(bytes), case .object(let fields) = value
        else { return nil }
        var node = 1
        for field in fields {
            defer { node += field.value.nodeCount }
            guard field.key == "budget_ms", case .number(let ms) = field.value else { continue }
            guard ms.isFinite, budgetRange.contains(ms) else {
                let (line, column) = JSONReader.lineAndColumn(of: offsets[node], in: bytes)
                throw FileError(file: path, line: line, column: column, reason: "\"budget_ms\" is \(ms), outside "
                    + "\(budgetRange.lowerBound) to \(Int(budgetRange.upperBound)) ms; fix it, or give the budget with "
                    + "--budget-ms")
            }
            return ms / 1000
        }
        return nil
    }
}

import ArgumentParser
import Lab
import Raster

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UserFiles
import Recording

/// `refreshlab report TIMINGS.csv --out CHART.png`: the frame-time chart of a recording.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Draw the frame-time chart of a timings CSV as a PNG.",
        discussion: """
            One bar per frame as tall as its interval, stacked by phase (input, update, draw, upload, present) \
            with the rest of the interval (waiting) above; lines at the budget and twice it; a mark under every \
            frame over the budget; the axis in milliseconds, the summary's figures in the title and a legend. The budget comes from --budget-ms, \
            else from the JSON summary beside the CSV (TIMINGS.json), else from the median frame interval. \
            Record timings with the R key in the window or 'refreshlab run --headless … --timings FILE'.
            """
    )

    @Argument(help: ArgumentHelp("The timings CSV.", valueName: "timings.csv"))
    var file: String

    @Option(help: ArgumentHelp("Where to write the chart (PNG).", valueName: "png"))
    var out: String?

    @Option(name: .customLong("budget-ms"), parsing: .unconditional,
            help: ArgumentHelp("The frame budget in milliseconds, from 0.1 to 10000.", valueName: "ms"))
    var budgetMilliseconds: String?

    func validate() throws {
        _ = try validating(budget)
    }

    /// `--budget-ms` in seconds, checked.
    func budget() throws -> Double? {
        try budgetMilliseconds.map { try OptionNumber.real($0, option: "--budget-ms", in: TimingFiles.budgetRange) / 1000 }
    }

    func run() throws {
        var named = CommandFiles()
        named.reads(file, as: "the timings CSV")
        named.reads(TimingFiles.summaryPath(forCSV: file), as: "the summary JSON beside it")
        named.writes(out, as: "--out")
        try named.checkApart()
        // The input first: asking for --out is no help when there is nothing to chart yet.
        let rows = try TimingRow.parse(try TimingFiles.readText(file), path: file)
        guard !rows.isEmpty else {
            throw LabError("\(file): no frames after the header; record for at least one frame")
        }
        guard let out else {
            throw LabError("give the chart's path with --out CHART.png")
        }
        let median = TimingSummary.Distribution(rows.map(\.interval)).p50
        let given = try budget() ?? TimingFiles.budget(fromSummaryAt: TimingFiles.summaryPath(forCSV: file))
        let budget = given ?? (median > 0 ? median : 1 / simulatedFrameRate)
        let chart = TimingChart(rows: rows, budget: budget)
        let (canvas, warning) = chart.renderWithStandardFonts(
            title: "Frame times: " + (file.split(separator: "/").last.map(String.init) ?? file))
        if let warning { FileLines.standardError(warning) }
        do {
            try PNG.write(canvas, to: out)
        } catch {
            throw LabError("\(error); check that the folder of '\(out)' exists and is writable")
        }
        print("wrote \(out) (\(canvas.width)×\(canvas.height)): \(chart.figures)")
    }
}

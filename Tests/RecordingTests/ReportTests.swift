import Geometry
import Raster
import Testing
import TestSupport
import Colors
@testable import Recording

@Suite("Timing report chart")
struct ReportTests {
    func chart() throws -> TimingChart {
        TimingChart(rows: try TimingRow.parse(TimingFixtures.csv, path: "t.csv"), budget: 0.010)
    }

    @Test("the chart's size, axis and bar columns")
    func geometry() throws {
        let c = try chart()
        // Four frames need less than the least plot width: 64 + 960 + 24 by 92 + 420 + 44 pixels.
        #expect(c.size.width == 1048 && c.size.height == 556)
        // The slowest frame (40 ms) is within 8 budgets: the axis reaches 40 ms in steps of 5 (8 lines).
        #expect(c.axis.step == 5 && c.axis.top == 40)
        // 240 px per frame with a one-pixel gap.
        #expect(c.columns(ofFrame: 0) == (64, 303))
        #expect(c.columns(ofFrame: 1) == (304, 543))
        #expect(c.y(ofSeconds: 0) == 512 && c.y(ofSeconds: 0.005) == 459.5 && c.y(ofSeconds: 0.1) == 92)
        #expect(c.summary.frameCount == 4 && c.summary.jankyFrames == 2 && c.summary.badlyJankyFrames == 1)
        #expect(c.summary.droppedFrames == 2)
    }

    @Test("bars stacked by phase where expected, budget line over them")
    func bars() throws {
        let canvas = try chart().render(title: "t", text: nil)
        func at(_ x: Int, _ y: Int) -> UInt32 { canvas[x, y] }
        let white = Color(rgb: 255, 255, 255).premultipliedPixel
        // Frame 0: input 512 → 491 (2 ms at 10.5 px/ms), draw 491 → 459.5, then the rest of its 10 ms interval
        // waiting up to 407, then nothing.
        #expect(at(100, 500) == FramePhase.input.color.premultipliedPixel)
        #expect(at(100, 475) == FramePhase.draw.color.premultipliedPixel)
        #expect(at(100, 440) == TimingChart.waitingColor.premultipliedPixel)
        #expect(at(100, 400) == white)
        // Frame 1: update up to 470, then draw up to 407 where the budget line is drawn (rows 406 and 407).
        #expect(at(400, 490) == FramePhase.update.color.premultipliedPixel)
        #expect(at(400, 430) == FramePhase.draw.color.premultipliedPixel)
        #expect(at(400, 407) == TimingChart.budgetColor.premultipliedPixel)
        #expect(at(100, 406) == TimingChart.budgetColor.premultipliedPixel)
        // Frame 2: present (5 ms) on top of 10 ms of drawing: 407 → 354.5.
        #expect(at(600, 380) == FramePhase.present.color.premultipliedPixel)
        #expect(at(600, 340) == white)
        // Frame 3 fills the plot to its top; the gap column between bars stays white.
        #expect(at(900, 100) == FramePhase.draw.color.premultipliedPixel)
        #expect(at(303, 480) == white)
    }

    @Test("every frame's whole interval is drawn, and each frame over the budget is marked under the axis")
    func intervalsAndMarks() throws {
        // 16.7 ms frames of 4 ms of drawing at a 16.67 ms budget, but for frame 2, presented 50 ms after frame 1
        // (its CPU time within the budget: a chart of CPU time alone shows nothing wrong), and frame 4, which
        // follows an idle stretch of 2 s.
        let header = "frame,time_s,interval_ms,input_ms,update_ms,draw_ms,upload_ms,present_ms,output_ms,cpu_ms,state,"
            + "effect,dropped,idle\n"
        let intervals = [16.7, 16.7, 50.0, 16.7, 2000]
        let lines = intervals.enumerated().map { i, ms in
            "\(i),\(Double(i) * 0.1),\(ms),0,0,4,0,0,0,4,idle,dots,0,\(i == 4 ? 1 : 0)"
        }
        let rows = try TimingRow.parse(header + lines.joined(separator: "\n") + "\n", path: "t.csv")
        let chart = TimingChart(rows: rows, budget: 1.0 / 60)
        // The axis reaches the late frame: 50 ms in steps of 10 (the idle gap is not a frame's interval).
        #expect(chart.axis.top == 50)
        let canvas = chart.render(title: "t", text: nil)
        let plot = chart.plotFrame
        let waiting = TimingChart.waitingColor.premultipliedPixel
        let mark = TimingChart.overBudgetColor.premultipliedPixel
        let markRow = Int(plot.maxY + TimingChart.overBudgetMark.top + 1)
        for i in 0..<rows.count {
            let (x0, x1) = chart.columns(ofFrame: i)
            let x = (x0 + x1) / 2
            // Drawing up to 4 ms, then waiting up to the interval (not after an idle stretch).
            #expect(canvas[x, Int(chart.y(ofSeconds: 0.002))] == FramePhase.draw.color.premultipliedPixel)
            let end = i == 4 ? 0.004 : intervals[i] / 1000
            let wait = canvas[x, Int(chart.y(ofSeconds: (0.004 + end) / 2))]
            #expect((wait == waiting) == (i != 4), "frame \(i)")
            #expect(canvas[x, Int(chart.y(ofSeconds: end)) - 2] != waiting, "frame \(i) ends at its interval")
            #expect((canvas[x, markRow] == mark) == (i == 2), "frame \(i): marked only when over the budget")
        }
    }

    @Test("the chart is written as a PNG of its size")
    func png() throws {
        let dir = temporaryDirectory("report")
        let (canvas, _) = try chart().renderWithStandardFonts(title: "Frame times: t.csv")
        try PNG.write(canvas, to: dir + "/chart.png")
        let back = try PNG.read(from: dir + "/chart.png")
        #expect(back.width == 1048 && back.height == 556)
        #expect(back[900, 100] == FramePhase.draw.color.premultipliedPixel)
    }

    @Test("the budget is read from the JSON summary beside the CSV")
    func budgetFromSummary() throws {
        let dir = temporaryDirectory("report-budget")
        let recorder = FrameRecorder(budget: 1.0 / 120)
        try recorder.startRecording(csvPath: dir + "/t.csv", jsonPath: TimingFiles.summaryPath(forCSV: dir + "/t.csv"))
        recorder.beginFrame(at: 0)
        recorder.endFrame(state: .idle, effect: "dots")
        try recorder.stopRecording()
        #expect(TimingFiles.summaryPath(forCSV: "a/t.csv") == "a/t.json")
        #expect(try TimingFiles.budget(fromSummaryAt: dir + "/t.json") == 0.008333)
        #expect(try TimingFiles.budget(fromSummaryAt: dir + "/missing.json") == nil)
    }

    @Test("a missing file is named; a byte-order mark before the header is skipped")
    func missing() throws {
        #expect { try TimingFiles.readText("/nonexistent/t.csv") } throws: {
            "\($0)" == "/nonexistent/t.csv: no such timings CSV; check the path"
        }
        let csv = temporaryDirectory("timings-bom") + "/t.csv"
        #expect(writeBytes(csv, [0xEF, 0xBB, 0xBF] + Array("frame,time_s\n".utf8)))
        #expect(try TimingFiles.readText(csv) == "frame,time_s\n")
    }
}

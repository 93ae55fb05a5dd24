#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TestSupport
@testable import UserFiles
@testable import Recording

@Suite("Timing summary arithmetic")
struct TimingSummaryTests {
    @Test("nearest rank takes sorted[round((n − 1) · p)]")
    func nearestRank() {
        #expect(TimingSummary.nearestRank([1, 2, 3, 4], 0.5) == 3)  // round(1.5) = 2
        #expect(TimingSummary.nearestRank([1, 2, 3, 4], 0.0) == 1)
        #expect(TimingSummary.nearestRank([1, 2, 3, 4], 1.0) == 4)
        #expect(TimingSummary.nearestRank([1, 2, 3, 4], 0.9) == 4)  // round(2.7) = 3
        #expect(TimingSummary.nearestRank([7], 0.99) == 7)
        #expect(TimingSummary.nearestRank([], 0.5) == 0)
    }

    @Test("dropped frames are round(interval / budget) − 1")
    func dropped() {
        let budget = 0.005
        #expect(TimingSummary.droppedFrames(interval: 0.005, budget: budget) == 0)
        #expect(TimingSummary.droppedFrames(interval: 0.007, budget: budget) == 0)  // 1.4 → 1
        #expect(TimingSummary.droppedFrames(interval: 0.008, budget: budget) == 1)  // 1.6 → 2
        #expect(TimingSummary.droppedFrames(interval: 0.016, budget: budget) == 2)  // 3.2 → 3
        #expect(TimingSummary.droppedFrames(interval: 0.001, budget: budget) == 0)  // 0.2 → 0, never below 0
        #expect(TimingSummary.droppedFrames(interval: 0, budget: budget) == 0)
    }

    @Test("eleven frames worked out by hand")
    func elevenFrames() {
        // CPU times 1…11 ms in shuffled order; budget 5 ms.
        let cpu = [4, 11, 1, 7, 3, 9, 2, 10, 6, 8, 5].map { Double($0) / 1000 }
        let intervals = [5, 5, 5, 10, 5, 16, 5, 5, 5, 5, 5].map { Double($0) / 1000 }
        let s = TimingSummary(budget: 0.005, intervals: intervals, cpuTimes: cpu)
        #expect(s.frameCount == 11)
        // sorted[k] = k + 1 ms; ranks: p50 → round(5) = 5, p90 → round(9) = 9, p95 → round(9.5) = 10,
        // p99 → round(9.9) = 10.
        #expect(s.cpuTime == TimingSummary.Distribution(p50: 0.006, p90: 0.010, p95: 0.011, p99: 0.011, max: 0.011))
        #expect(abs(s.meanCPUTime - 0.006) < 1e-12)  // 66 / 11
        // Intervals sorted: nine of 5 ms, then 10 and 16.
        #expect(s.interval == TimingSummary.Distribution(p50: 0.005, p90: 0.010, p95: 0.016, p99: 0.016, max: 0.016))
        #expect(s.jankyFrames == 6)  // 6…11 ms are over 5 ms
        #expect(s.badlyJankyFrames == 1)  // only 11 ms is over 10 ms (10 ms is not over)
        #expect(s.droppedFrames == 3)  // 10 ms: 2 − 1; 16 ms: round(3.2) − 1 = 2
    }

    @Test("no frames give zeros")
    func empty() {
        let s = TimingSummary(budget: 1 / 60, intervals: [], cpuTimes: [])
        #expect(s.frameCount == 0 && s.cpuTime.max == 0 && s.meanCPUTime == 0 && s.droppedFrames == 0)
    }
}

@Suite("Timing files")
struct TimingFileTests {
    @Test("numbers are formatted in fixed point without strings")
    func formatting() {
        var b = ByteBuffer(capacity: 8)
        defer { b.deallocate() }
        b.append(int: -42); b.append(UInt8(ascii: " "))
        b.append(int: 0); b.append(UInt8(ascii: " "))
        b.append(fixed: 1.2345, decimals: 2); b.append(UInt8(ascii: " "))
        b.append(fixed: -2.25, decimals: 1); b.append(UInt8(ascii: " "))  // 22.5 rounds away from zero
        b.append(fixed: 16.6666667, decimals: 3); b.append(UInt8(ascii: " "))
        b.append(fixed: 0.0004, decimals: 3); b.append(UInt8(ascii: " "))
        b.append(fixed: .nan, decimals: 1)
        #expect(b.string == "-42 0 1.23 -2.3 16.667 0.000 0.0")
    }

    /// Three frames with phase times given by hand (no clock involved).
    func recordThreeFrames(_ recorder: FrameRecorder) {
        recorder.beginFrame(at: 0)
        recorder.add(0.001, to: .input)
        recorder.add(0.002, to: .update)
        recorder.add(0.0105, to: .draw)
        recorder.endFrame(state: .idle, effect: "sticky")
        recorder.beginFrame(at: 1.0 / 60)
        recorder.add(0.004, to: .draw)
        recorder.add(0.0005, to: .upload)
        recorder.endFrame(state: .pulling, effect: "sticky")
        recorder.beginFrame(at: 3.0 / 60)  // one frame late
        recorder.add(0.020, to: .draw)
        recorder.add(0.0001, to: .present)
        recorder.endFrame(state: .finishingMessage, effect: "ring")
    }

    @Test("a recording writes the CSV header and a row per frame, and the JSON summary")
    func csvAndJSON() throws {
        let dir = temporaryDirectory("timing-files")
        let csv = dir + "/t.csv", json = dir + "/t.json"
        let recorder = FrameRecorder(budget: 1.0 / 60)
        try recorder.startRecording(csvPath: csv, jsonPath: json)
        recordThreeFrames(recorder)
        let summary = try #require(try recorder.stopRecording())
        #expect(summary.frameCount == 3)

        let text = try #require(readTextFile(csv))
        #expect(text == """
            frame,time_s,interval_ms,input_ms,update_ms,draw_ms,upload_ms,present_ms,output_ms,cpu_ms,state,effect,dropped,idle
            0,0.000000,16.667,1.000,2.000,10.500,0.000,0.000,0.000,13.500,idle,sticky,0,0
            1,0.016667,16.667,0.000,0.000,4.000,0.500,0.000,0.000,4.500,pulling,sticky,0,0
            2,0.050000,33.333,0.000,0.000,20.000,0.000,0.100,0.000,20.100,finishing(message),ring,1,0

            """)
        let rows = try TimingRow.parse(text, path: csv)
        #expect(rows.count == 3)
        #expect(rows[2].effect == "ring" && rows[2].dropped == 1 && abs(rows[2].cpuTime - 0.0201) < 1e-9)
        #expect(rows[1].phases.count == 6 && abs(rows[1].phases[3] - 0.0005) < 1e-9)

        let parsed = try JSONReader.parse(try #require(readTextFile(json)))
        #expect(timingJSONNumber(parsed, "frames") == 3)
        #expect(timingJSONNumber(parsed, "budget_ms") == 16.667)
        #expect(timingJSONNumber(parsed, "refresh_rate_hz") == 60)
        // CPU 13.5, 4.5, 20.1 ms: p50 → sorted[1] = 13.5; p90 → round(1.8) = 2 → 20.1.
        #expect(timingJSONNumber(parsed, "cpu_ms", "p50") == 13.5)
        #expect(timingJSONNumber(parsed, "cpu_ms", "p90") == 20.1)
        #expect(timingJSONNumber(parsed, "cpu_ms", "max") == 20.1)
        #expect(timingJSONNumber(parsed, "mean_cpu_ms") == 12.7)  // 38.1 / 3
        #expect(timingJSONNumber(parsed, "interval_ms", "max") == 33.333)
        #expect(timingJSONNumber(parsed, "interval_ms", "p50") == 16.667)
        #expect(timingJSONNumber(parsed, "janky_frames") == 1)  // 20.1 > 16.667
        #expect(timingJSONNumber(parsed, "janky_frames_2x") == 0)
        #expect(timingJSONNumber(parsed, "dropped_frames") == 1)
        #expect(!fileExists(csv + ".tmp") && !fileExists(json + ".tmp"))
    }

    @Test("files appear only whole: nothing at the paths until the recording stops, no temporary file after")
    func atomic() throws {
        let dir = temporaryDirectory("timing-atomic")
        let csv = dir + "/t.csv", json = dir + "/t.json"
        let recorder = FrameRecorder(budget: 1.0 / 60)
        try recorder.startRecording(csvPath: csv, jsonPath: json)
        #expect(recorder.isRecording)
        for i in 0..<(FrameRecorder.flushInterval + 5) {
            recorder.beginFrame(at: Double(i) / 60)
            recorder.add(0.001, to: .draw)
            recorder.endFrame(state: .idle, effect: "dots")
        }
        #expect(!fileExists(csv) && !fileExists(json))
        // The periodic flush has put the header and the first 60 rows in the temporary file.
        let partial = try #require(readTextFile(csv + ".tmp"))
        #expect(partial.split(separator: "\n").count == 1 + FrameRecorder.flushInterval)
        #expect(recorder.recordedFrameCount == FrameRecorder.flushInterval + 5)
        try recorder.stopRecording()
        #expect(!recorder.isRecording)
        #expect(!fileExists(csv + ".tmp") && !fileExists(json + ".tmp"))
        let rows = try TimingRow.parse(try #require(readTextFile(csv)), path: csv)
        #expect(rows.count == FrameRecorder.flushInterval + 5)
        #expect(rows.last?.frame == FrameRecorder.flushInterval + 4)
        #expect(try recorder.stopRecording() == nil)  // nothing more to stop
    }

    @Test("an abandoned recording leaves nothing behind")
    func abandoned() throws {
        let dir = temporaryDirectory("timing-abandon")
        let recorder = FrameRecorder()
        try recorder.startRecording(csvPath: dir + "/a.csv", jsonPath: dir + "/a.json")
        recorder.abandonRecording()
        #expect(!fileExists(dir + "/a.csv") && !fileExists(dir + "/a.csv.tmp"))
        #expect(!fileExists(dir + "/a.json.tmp"))
    }

    @Test("an unwritable path is named in the error")
    func unwritable() {
        let recorder = FrameRecorder()
        #expect {
            try recorder.startRecording(csvPath: "/nonexistent-dir/t.csv", jsonPath: "/tmp/x.json")
        } throws: { error in
            "\(error)".contains("/nonexistent-dir/t.csv") && "\(error)".contains("choose a directory")
        }
        #expect(!recorder.isRecording)
    }

    @Test("a bad CSV names its line and column")
    func badCSV() {
        let header = TimingFiles.header
        #expect { try TimingRow.parse("frame,time\n", path: "x.csv") } throws: { "\($0)".hasPrefix("x.csv:1:1: not a timings CSV") }
        #expect {
            try TimingRow.parse(header + "\n0,0,16.6,1,1,1,1,1,0,5,idle,sticky,0,0\n1,0.1,abc,1,1,1,1,1,0,5,idle,sticky,0,0\n",
                                path: "x.csv")
        } throws: { "\($0)".hasPrefix("x.csv:3:7: 'interval_ms' is a time from 0 to 1000000000, not 'abc'") }
        #expect { try TimingRow.parse(header + "\n0,0,16.6\n", path: "y.csv") } throws: { "\($0)".hasPrefix("y.csv:2:1: 3 fields, expected 14") }
        #expect { try TimingRow.parse("", path: "z.csv") } throws: { "\($0)".hasPrefix("z.csv: the file is empty") }
    }
}

@Suite("Frame recorder")
struct FrameRecorderTests {
    @Test("the ring keeps the recent frames, newest first; fps, mean and p99 come from them")
    func ring() {
        let recorder = FrameRecorder(budget: 0.01, historyCapacity: 4)
        for i in 0..<6 {
            recorder.beginFrame(at: Double(i) * 0.02)
            recorder.add(Double(i + 1) / 1000, to: .update)
            recorder.endFrame(state: .idle, effect: "classic")
        }
        #expect(recorder.frameCount == 6 && recorder.recentCount == 4)
        #expect(recorder.recent(0).index == 5 && recorder.recent(3).index == 2)
        #expect(abs(recorder.recent(0).update - 0.006) < 1e-12)
        #expect(abs(recorder.recentMeanCPUTime - 0.0045) < 1e-12)  // (3 + 4 + 5 + 6) / 4 ms
        #expect(recorder.recentCPUTime(percentile: 0.99) == 0.006)  // round(2.97) = 3 → 6 ms
        #expect(recorder.recentCPUTime(percentile: 0.5) == 0.005)  // round(1.5) = 2 → 5 ms
        #expect(abs((recorder.framesPerSecond(at: 0.12) ?? 0) - 50) < 1e-9)  // 20 ms apart
        #expect(recorder.effectName(recorder.recent(0).effectCode) == "classic")
    }

    @Test("the first frame's interval is the budget; later ones come from the frame clock")
    func intervals() {
        let recorder = FrameRecorder(budget: 1.0 / 60)
        recorder.beginFrame(at: 10)
        recorder.endFrame(state: .idle, effect: "sticky")
        recorder.beginFrame(at: 10.05)
        recorder.endFrame(state: .idle, effect: "sticky")
        #expect(recorder.recent(1).interval == 1.0 / 60)
        #expect(abs(recorder.recent(0).interval - 0.05) < 1e-9)
    }

    @Test("phases measure the thread's CPU time between marks")
    func phases() {
        let recorder = FrameRecorder(budget: 1.0 / 60)
        recorder.beginFrame(at: 0)
        var x = 0.0
        for i in 0..<200_000 { x += Double(i).squareRoot() }
        recorder.endPhase(.draw)
        recorder.endPhase(.present)
        recorder.endFrame(state: .idle, effect: "sticky")
        let frame = recorder.recent(0)
        #expect(x > 0)
        #expect(frame.draw > 0 && frame.draw < 1)
        #expect(frame.present < frame.draw)
        #expect(frame.input == 0 && frame.update == 0)
    }
}

@Suite("Frame timings with idle stretches")
struct IdleTimingTests {
    /// Frames at 60 Hz with these start times (ms) and whether each came after an idle stretch; 1 ms of drawing each.
    func record(_ frames: [(ms: Double, idle: Bool)], into recorder: FrameRecorder) {
        for frame in frames {
            recorder.beginFrame(at: frame.ms / 1000, followsIdle: frame.idle)
            recorder.add(0.001, to: .draw)
            recorder.endFrame(state: .idle, effect: "sticky")
        }
    }

    @Test("an idle stretch is neither dropped nor janky, and its interval is left out of the figures")
    func idleStretch() throws {
        let dir = temporaryDirectory("idle")
        let recorder = FrameRecorder(budget: 0.010)
        // Before recording: a frame 5 s earlier, which must not count.
        record([(0, false)], into: recorder)
        try recorder.startRecording(csvPath: dir + "/t.csv", jsonPath: dir + "/t.json")
        // 5000: first recorded (its interval is the budget, not 5 s); 5010, 5020 in motion; 5030 one late
        // (20 ms: 1 dropped); idle until 7000 (an idle gap, 0 dropped); 7010.
        record([(5000, false), (5010, false), (5020, false), (5040, false), (7000, true), (7010, false)],
               into: recorder)
        let summary = try #require(try recorder.stopRecording())
        #expect(summary.frameCount == 6)
        #expect(summary.idleGaps == 1)
        #expect(summary.droppedFrames == 1)
        #expect(summary.jankyFrames == 0)
        // Intervals in motion, sorted: 10, 10, 10, 10, 20 ms; p50 → sorted[2] = 10, max 20.
        #expect(abs(summary.interval.p50 - 0.010) < 1e-9 && abs(summary.interval.max - 0.020) < 1e-9)
        let rows = try TimingRow.parse(try TimingFiles.readText(dir + "/t.csv"), path: "t.csv")
        #expect(rows.map(\.dropped) == [0, 0, 0, 1, 0, 0])
        #expect(rows.map(\.followsIdle) == [false, false, false, false, true, false])
        #expect(abs(rows[0].interval - 0.010) < 1e-9)   // the recording starts at its first frame
        let json = try TimingFiles.readText(dir + "/t.json")
        #expect(json.contains("\"idle_gaps\": 1") && json.contains("\"dropped_frames\": 1"))
    }

    @Test("a long recording keeps its summary's values on disk, not in memory, and sums them up exactly")
    func longRecordingSpills() throws {
        let dir = temporaryDirectory("long-recording")
        let recorder = FrameRecorder(budget: 1.0 / 60)
        // Twice, so that the second recording starts from an empty temporary file.
        for round in 0..<2 {
            try recorder.startRecording(csvPath: dir + "/t\(round).csv", jsonPath: dir + "/t\(round).json")
            var intervals: [Double] = [], cpuTimes: [Double] = [], time = 0.0
            for i in 0..<(25 * FrameRecorder.flushInterval + 7) {
                let idle: Bool = i % 97 == 50
                let previous: Double = time
                let step: Int = 1 + (i * 7919 + round) % 40
                time += idle ? 3.0 : Double(step) / 1000
                recorder.beginFrame(at: time, followsIdle: idle)
                let cpu: Double = Double((i * 104_729) % 30_000) / 1_000_000
                recorder.add(cpu, to: .draw)
                recorder.endFrame(state: .idle, effect: "sticky")
                // The first frame's interval is the budget; the others are what the frame clock says.
                if !idle { intervals.append(i == 0 ? 1.0 / 60 : time - previous) }
                cpuTimes.append(cpu)
            }
            let idleGaps = cpuTimes.indices.filter { $0 % 97 == 50 }.count
            #expect(recorder.recordedFrameCount == cpuTimes.count)
            let expected = TimingSummary(budget: 1.0 / 60, intervals: intervals, cpuTimes: cpuTimes, idleGaps: idleGaps)
            #expect(recorder.currentSummary == expected)
            #expect(try recorder.stopRecording() == expected)
        }
    }

    @Test("fps counts the frames presented in motion in the last second, none after an idle stretch")
    func framesPerSecond() {
        let recorder = FrameRecorder(budget: 1.0 / 60)
        #expect(recorder.framesPerSecond(at: 1) == nil)
        // 30 frames 20 ms apart from t = 0 (50 fps), then idle, then 10 frames 1/60 s apart from t = 3.
        let steady: [(ms: Double, idle: Bool)] = (0..<30).map { i in (ms: Double(i) * 20, idle: false) }
        record(steady, into: recorder)
        #expect(abs((recorder.framesPerSecond(at: 0.6) ?? 0) - 50) < 1e-9)
        var again: [(ms: Double, idle: Bool)] = []
        for i in 0..<10 { again.append((ms: 3000 + Double(i) * (1000.0 / 60), idle: i == 0)) }
        record(again, into: recorder)
        // At 3 + 10/60: the ten frames since the idle stretch, over 10/60 s.
        #expect(abs((recorder.framesPerSecond(at: 3 + 10.0 / 60) ?? 0) - 60) < 1e-6)
    }
}

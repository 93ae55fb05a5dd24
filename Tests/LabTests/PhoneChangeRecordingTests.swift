#if canImport(Glibc)
import Glibc
#endif
import Motion
import Raster
import Testing
import TestSupport
@testable import Lab
@testable import Recording
@testable import UserFiles

@Suite("Recordings across a phone change")
struct PhoneChangeRecordingTests {
    /// The width and height of a video's first stream, read by ffprobe.
    static func videoSize(_ path: String) throws -> (Int, Int)? {
        let fields = try probe(["-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0",
                                path]).first?.split(separator: ",").compactMap { Int($0) }
        guard let fields, fields.count == 2 else { return nil }
        return (fields[0], fields[1])
    }

    @Test("A phone of another size during a video (I, Y) ends that video whole and records the new phone to a new file, said in a toast; a phone of the same size goes on in the same file",
          .enabled(if: ffmpegTools != nil, "ffmpeg and ffprobe are installed"))
    func newFileForANewSize() throws {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        let input = TickInput(clock: clock)
        let loop = FrameLoop(simulation: simulation, input: input, recorder: FrameRecorder(phaseClock: .monotonic))
        let folder = temporaryDirectory("video-phone-change")
        loop.files = try OutputFolder(path: folder)
        var lines: [String] = []
        loop.report = { lines.append($0) }
        var toasts: [(String, String?)] = []
        func press(_ command: Command) {
            input.turns.append { simulation in
                simulation.perform(command)
                return true
            }
        }
        func noteToast() {
            input.turns.append { simulation in
                toasts.append((simulation.toast.text, simulation.toast.detail))
                return false
            }
        }
        input.nothing(1)
        press(.toggleVideoRecording)
        press(.toggleRecording)     // timings over the same stretch
        input.nothing(5)
        press(.nextDevice)          // the lab's own phone to the iPhone SE: the same 750×1334 pixels
        input.nothing(4)
        press(.nextDevice)          // the iPhone 16: 1179×2556
        noteToast()
        input.nothing(4)
        press(.togglePlatform)      // the Pixel 8: 1080×2400
        noteToast()
        input.nothing(4)
        press(.toggleVideoRecording)
        noteToast()
        press(.toggleRecording)
        input.nothing(1)
        try loop.run()

        let saved = lines.compactMap { $0.hasPrefix("saved ") ? String($0.dropFirst(6)) : nil }
        // The videos in the order they began (ffmpeg finishes them in the background, in any order).
        let videos = lines.compactMap { line -> String? in
            guard line.hasPrefix("recording video to ") else { return nil }
            let path = line.dropFirst("recording video to ".count)
            return String(path.hasSuffix(" (the phone's new size)") ? path.dropLast(" (the phone's new size)".count) : path)
        }
        #expect(videos.count == 3, "\(lines)")
        #expect(Set(saved.filter { $0.hasSuffix(".mp4") }) == Set(videos), "\(lines)")
        #expect(lines.filter { $0.hasSuffix(" (the phone's new size)") }.count == 2, "\(lines)")
        // Each the size of its phone (H.264 takes even sizes: the iPhone 16's odd column is cropped).
        let sizes = try videos.map { try Self.videoSize($0) }
        #expect(sizes.map { $0?.0 } == [750, 1178, 1080] && sizes.map { $0?.1 } == [1334, 2556, 2400], "\(sizes)")
        // Each file whole, with the frames of its stretch at 60 fps: the first from V through the SE to the 16.
        let counts = try videos.map { try decodedFrameCount($0) }
        #expect(counts.allSatisfy { ($0 ?? 0) > 0 }, "\(counts)")
        #expect(counts.map { $0 ?? 0 }.reduce(0, +) >= 18, "\(counts)")
        // The toast after each change names the file that ends and the new one.
        #expect(toasts.count == 3)
        for (index, (text, detail)) in toasts.prefix(2).enumerated() {
            #expect(text.contains("new video"), "\(text)")
            let ended = FileName.split(videos[index]).name, next = FileName.split(videos[index + 1]).name
            #expect(detail == ended + " ends, " + next + " begins", "\(detail ?? "")")
        }
        // V: the last video is being saved (or already is, by the next frame).
        #expect(["Saving the video", "Video saved"].contains(toasts[2].0), "\(toasts[2].0)")
        #expect(toasts[2].1 == videos[2], "\(toasts[2].1 ?? "")")
        // The timings over the changes: one recording, its CSV and summary both there.
        let timings = saved.filter { $0.hasSuffix(".csv") }
        #expect(timings.count == 1 && timings.allSatisfy {
            access($0, R_OK) == 0 && access(TimingFiles.summaryPath(forCSV: $0), R_OK) == 0
        }, "\(saved)")
        let left = (folderEntries(folder) ?? []).filter { $0.hasSuffix(".tmp") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test("A frame of another size than the video's is refused with a message naming both sizes, never a trap; the video keeps what it had",
          .enabled(if: ffmpegTools != nil, "ffmpeg and ffprobe are installed"))
    func wrongSizeRefused() throws {
        let mp4 = temporaryDirectory("video-wrong-size") + "/rec.mp4"
        let recording = try VideoRecording(output: mp4, width: 16, height: 12)
        try recording.write(Canvas(width: 16, height: 12), at: 0)
        let refused = #expect(throws: LabError.self) { try recording.write(Canvas(width: 12, height: 16), at: 1.0 / 60) }
        #expect(refused?.description.contains("12×16 frame") == true, "\(refused?.description ?? "")")
        #expect(refused?.description.contains("16×12 video") == true)
        try recording.finish(at: 2.0 / 60)
        #expect(try decodedFrameCount(mp4) == 2)
    }
}

@testable import Lab
import Motion
import Recording
import Testing
import TestSupport
import UserFiles

/// E in the window: the selected phone's header as a Lottie file in the output folder, named like screenshots, with
/// its settings as code beside it where it is a platform's own header; the toast and standard output name the
/// files; a header that cannot be exported says why and writes nothing.
@Suite struct HeaderExportKeyTests {
    @Test func eWritesTheHeaderIntoTheOutputFolder() throws {
        let folder = temporaryDirectory("export-key")
        defer { _ = removeDirectory(folder) }
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        simulation.selectEffect(named: "dots")
        let input = TickInput(clock: clock)
        let loop = FrameLoop(simulation: simulation, input: input)
        loop.files = try OutputFolder(path: folder)
        var saved: [String] = [], errors: [String] = []
        loop.report = { saved.append($0) }
        loop.reportError = { errors.append($0) }
        input.turns.append { $0.perform(.exportHeader); return true }
        input.turns.append { $0.perform(.selectEffect(index: 5)); return true }   // the gif header: a file already
        input.turns.append { $0.perform(.exportHeader); return true }
        input.turns.append { $0.perform(.selectEffect(index: 7)); return true }   // system: UIRefreshControl's code too
        input.turns.append { $0.perform(.exportHeader); return true }
        try loop.run()
        let entries = (folderEntries(folder) ?? []).sorted()
        let dots = entries.filter { $0.hasPrefix("refreshlab-dots-") }
        #expect(dots.count == 1 && dots[0].hasSuffix(".json"), "\(entries)")
        #expect(saved.first == "saved " + folder + "/" + dots[0])
        #expect(readTextFile(folder + "/" + dots[0])?.contains("\"cm\":\"refresh\"") == true)
        // The system header: its Lottie file, and its settings as Swift and Dart beside it, each said.
        let system = entries.filter { $0.hasPrefix("refreshlab-system-") }
        #expect(system.count == 3, "\(entries)")
        let swift = try #require(system.first { $0.hasSuffix(".swift") })
        #expect(readTextFile(folder + "/" + swift)?.contains("UIRefreshControl()") == true)
        #expect(system.contains { $0.hasSuffix(".dart") })
        #expect(saved.filter { $0.contains("refreshlab-system-") }.count == 3)
        #expect(simulation.toast.text.hasSuffix("and its code (swift, dart)"), "\(simulation.toast.text)")
        #expect(errors.count == 1 && errors[0].contains("the gif header plays a file already"), "\(errors)")
    }
}

@testable import Lab
import Motion
import Recording
import Testing
import TestSupport
import UserFiles

/// E in the window: the selected phone's header as a Lottie file in the output folder, named like screenshots, the
/// toast and standard output naming it; a header that cannot be exported says why and writes nothing.
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
        input.turns.append { $0.perform(.selectEffect(index: 2)); return true }   // the ring: floats, not exported yet
        input.turns.append { $0.perform(.exportHeader); return true }
        try loop.run()
        let entries = (folderEntries(folder) ?? []).sorted()
        #expect(entries.count == 1 && entries[0].hasPrefix("refreshlab-dots-") && entries[0].hasSuffix(".json"),
                "\(entries)")
        #expect(saved.first == "saved " + folder + "/" + entries[0])
        #expect(readTextFile(folder + "/" + entries[0])?.contains("\"cm\":\"refresh\"") == true)
        #expect(errors.count == 1 && errors[0].contains("the ring header floats over the list"), "\(errors)")
        #expect(simulation.toast.text == "Cannot export this header: see the terminal")
    }
}

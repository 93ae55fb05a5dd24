import Raster
import Testing
import TestSupport

/// Golden frames of the simulated phone: PNGs kept in `Tests/LabTests/Goldens`, compared with what the simulation
/// draws now within `PixelTolerance.golden`. After an intended change of look, `REFRESHLAB_UPDATE_GOLDENS=1` writes
/// them instead of comparing; look at the new PNGs before committing them.
enum PhoneGoldens {
    /// The folder of the golden PNGs, next to this file.
    static let directory = GoldenFiles.directory(besides: #filePath)
    /// True when the run writes the goldens instead of comparing.
    static var isUpdating: Bool { GoldenFiles.isUpdating }

    /// Compares `canvas` with the golden `name`.png, or writes it when updating.
    static func expect(_ canvas: Canvas, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let path = directory + "/" + name + ".png"
        if isUpdating {
            #expect(throws: Never.self, sourceLocation: sourceLocation) { try PNG.write(canvas, to: path) }
            return
        }
        guard let golden = try? PNG.read(from: path) else {
            Issue.record("no golden image \(name).png; create it with REFRESHLAB_UPDATE_GOLDENS=1",
                         sourceLocation: sourceLocation)
            return
        }
        expectImage(canvas, matches: golden, tolerance: .golden, named: "golden \(name)", sourceLocation: sourceLocation)
    }
}

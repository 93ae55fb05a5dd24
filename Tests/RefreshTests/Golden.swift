#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Layers
import Raster
import Refresh
import Testing

/// Golden images of the effects: PNGs kept in `Tests/RefreshTests/Goldens`, compared with what the effects draw now.
///
/// Regenerate them after an intended change of look with
/// `REFRESHLAB_UPDATE_GOLDENS=1 swift test --filter RefreshTests`, then look at the new PNGs before committing.
enum Golden {
    /// The folder of the golden PNGs, next to this file.
    static let directory: String = {
        let file = "\(#filePath)"
        return String(file[..<file.lastIndex(of: "/")!]) + "/Goldens"
    }()

    /// True when the run should write new goldens instead of comparing.
    static var isUpdating: Bool {
        guard let value = getenv("REFRESHLAB_UPDATE_GOLDENS") else { return false }
        return value.pointee != 0 && String(cString: value) != "0"
    }

    /// Largest mean absolute channel difference allowed: rendering is deterministic, so only floating-point
    /// differences between machines may show.
    static let meanTolerance = 0.1
    /// Largest share of pixels allowed to differ by more than 16 in a channel.
    static let outlierShare = 0.001

    /// Compares `canvas` with the golden `name`.png (or writes it when updating), recording an issue on a mismatch.
    static func expect(_ canvas: Canvas, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let path = directory + "/" + name + ".png"
        if isUpdating {
            #expect(throws: Never.self, sourceLocation: sourceLocation) { try PNG.write(canvas, to: path) }
            return
        }
        let golden: Canvas
        do {
            golden = try PNG.read(from: path)
        } catch {
            Issue.record("no golden image \(name).png (\(error)); create it with REFRESHLAB_UPDATE_GOLDENS=1",
                         sourceLocation: sourceLocation)
            return
        }
        guard golden.width == canvas.width, golden.height == canvas.height else {
            Issue.record("\(name): size \(canvas.width)×\(canvas.height), golden \(golden.width)×\(golden.height)",
                         sourceLocation: sourceLocation)
            return
        }
        var total = 0, outliers = 0
        for i in 0..<canvas.pixelCount {
            let a = canvas.pixels[i], b = golden.pixels[i]
            var worst = 0
            for shift in stride(from: 0, to: 32, by: 8) {
                let d = abs(Int((a >> UInt32(shift)) & 0xFF) - Int((b >> UInt32(shift)) & 0xFF))
                total += d
                worst = max(worst, d)
            }
            if worst > 16 { outliers += 1 }
        }
        let mean = Double(total) / Double(canvas.pixelCount * 4)
        let share = Double(outliers) / Double(canvas.pixelCount)
        #expect(mean <= meanTolerance && share <= outlierShare,
                "\(name): mean channel difference \(mean), \(share * 100) % of pixels off by more than 16",
                sourceLocation: sourceLocation)
    }
}

extension Rig {
    /// The top of the viewport as the phone shows it: the list's background, the header where the pull puts it, at
    /// `scale` pixels per point and the rig's current time; `height` points tall.
    func snapshot(height: Double = 160, scale: Double = 2, renderer: LayerRenderer = LayerRenderer()) -> Canvas {
        let canvas = Canvas(width: Int(Rig.viewport.width * scale), height: Int(height * scale), fill: .white)
        let offset = scrollView.contentOffset
        let transform = AffineTransform(translationX: -offset.x, y: -offset.y)
            .concatenating(AffineTransform(scaleX: scale, y: scale))
        control.headerLayer.render(into: canvas, at: time, transform: transform, renderer: renderer)
        return canvas
    }
}

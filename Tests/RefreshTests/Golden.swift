import Geometry
import Layers
import Raster
import Refresh
import Testing
import TestSupport
import Colors

/// A picture of what a header or footer draws: the canvas, and where the drawing layer's bounds fall on it.
struct Snapshot {
    let canvas: Canvas
    /// The layer's bounds in pixels, clipped to the canvas.
    let layerRegion: PixelRegion
    /// The stored pixel the canvas was filled with before drawing.
    let background: UInt32
}

/// Golden images of the effects: PNGs kept in `Tests/RefreshTests/Goldens`, compared with what the effects draw now.
///
/// Each golden is the whole snapshot; the comparison covers the header's own region: the header layer's bounds in
/// pixels, grown to take in every pixel either image draws outside them (effects draw beyond their header: the
/// dots above it once pulled past 35 pt, the ring's disc below it). Outside that region both images are plain
/// background, so nothing drawn goes unchecked; inside it every pixel must be within `tolerance`
/// (`PixelTolerance.golden`: 2 levels per channel, at most one pixel in 2000 up to 8, none over 8). A failure
/// says where, how much and how many pixels, and names the actual image and a difference picture it wrote.
///
/// Regenerating is mechanical: after an intended change of look, run
/// `REFRESHLAB_UPDATE_GOLDENS=1 swift test --filter RefreshTests`, which writes every golden the tests take
/// (each test's snapshot, whole) instead of comparing; then look at the new PNGs and commit them with the change.
enum Golden {
    /// The folder of the golden PNGs, next to this file.
    static let directory = GoldenFiles.directory(besides: #filePath)
    /// True when the run writes the goldens instead of comparing.
    static var isUpdating: Bool { GoldenFiles.isUpdating }

    /// What every golden is held to.
    static let tolerance = PixelTolerance.golden

    static func path(_ name: String) -> String { directory + "/" + name + ".png" }

    /// The region compared: the layer's bounds, grown by every pixel that is not background in either image,
    /// clipped to the canvas.
    static func region(_ snapshot: Snapshot, against golden: Canvas) -> PixelRegion {
        snapshot.layerRegion
            .union(snapshot.canvas.region(differingFrom: snapshot.background))
            .union(golden.region(differingFrom: snapshot.background))
            .clipped(to: snapshot.canvas)
    }

    /// The comparison of `snapshot` with the golden `name`.png over the header's region; nil when the sizes differ.
    static func compare(_ snapshot: Snapshot, named name: String) throws -> ImageComparison? {
        let golden = try PNG.read(from: path(name))
        return ImageComparison(snapshot.canvas, golden, in: region(snapshot, against: golden), tolerance: tolerance)
    }

    /// Compares `snapshot` with the golden `name`.png (or writes it when updating), recording an issue on a mismatch.
    static func expect(_ snapshot: Snapshot, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if isUpdating {
            #expect(throws: Never.self, sourceLocation: sourceLocation) {
                try PNG.write(snapshot.canvas, to: path(name))
            }
            return
        }
        let golden: Canvas
        do {
            golden = try PNG.read(from: path(name))
        } catch {
            Issue.record("no golden image \(name).png (\(error)); create it with REFRESHLAB_UPDATE_GOLDENS=1",
                         sourceLocation: sourceLocation)
            return
        }
        expectImage(snapshot.canvas, matches: golden, in: region(snapshot, against: golden), tolerance: tolerance,
                    named: "golden \(name)", sourceLocation: sourceLocation)
    }
}

extension Rig {
    /// The top of the viewport as the phone shows it: the list's background, the header where the pull puts it, at
    /// `scale` pixels per point and the rig's current time; `height` points tall.
    func snapshot(height: Double = 160, scale: Double = 2, renderer: LayerRenderer = LayerRenderer()) -> Snapshot {
        let canvas = Canvas(width: Int(Rig.viewport.width * scale), height: Int(height * scale), fill: .white)
        let offset = scrollView.contentOffset
        let transform = AffineTransform(translationX: -offset.x, y: -offset.y)
            .concatenating(AffineTransform(scaleX: scale, y: scale))
        let header = control.headerLayer
        header.render(into: canvas, at: time, transform: transform, renderer: renderer)
        let bounds = Layer.box(of: header.presentation(at: time).frame, through: transform)
        return Snapshot(canvas: canvas, layerRegion: PixelRegion(covering: bounds).clipped(to: canvas),
                        background: Color.white.premultipliedPixel)
    }
}

extension Layer {
    /// The axis-aligned box holding `rect` mapped through `t`.
    static func box(of rect: Rect, through t: AffineTransform) -> Rect {
        let corners = [Point(rect.minX, rect.minY), Point(rect.maxX, rect.minY), Point(rect.minX, rect.maxY),
                       Point(rect.maxX, rect.maxY)].map { t.apply($0) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}

import Geometry
import Raster
import Colors

/// The room a wide window offers beside the phone. From `sideMinimumWidth` points on, the tuning panel and the
/// HUD are drawn there, into `sideCanvas`, so that the whole phone stays in view while tuning; narrower, they
/// stay over the phone.
extension Simulation {
    /// The narrowest side area the panel and the HUD move into, in points: the panel's rows need about this much.
    public static let sideMinimumWidth = 280.0
    /// The widest side area used, in points; the window's remaining room stays empty.
    public static let sideMaximumWidth = 400.0
    /// The side area's background: iOS's grouped background, on which the panel's white sheet stands out.
    static let sideBackground = Color(rgb: 242, 242, 247)

    /// The width of the side area in use, in points: 0 without one.
    public var sideAreaWidth: Double {
        sideRoom >= Simulation.sideMinimumWidth ? Swift.min(sideRoom, Simulation.sideMaximumWidth).rounded(.down) : 0
    }

    /// The side area in screen points (to the right of the phone), when there is one.
    var sideArea: Rect? {
        let width = sideAreaWidth
        guard width > 0 else { return nil }
        return Rect(x: phone.screenSize.width, y: 0, width: width, height: phone.screenSize.height)
    }

    /// Where the tuning panel's sheet is, in screen points: the whole side area, else the phone's lower part.
    var tuningSheet: Rect { sideArea ?? TuningPanel.sheetFrame(screen: phone.screenSize) }

    /// The canvas of the side area, `sideAreaWidth × phone.pixelHeight`, made when the area's width changes and
    /// cleared to its background; nil without a side area.
    func preparedSideCanvas() -> Canvas? {
        let width = Int((sideAreaWidth * phone.scale).rounded())
        guard width > 0 else {
            sideCanvas = nil
            return nil
        }
        if sideCanvas?.width != width || sideCanvas?.height != phone.pixelHeight {
            sideCanvas = Canvas(width: width, height: phone.pixelHeight)
        }
        sideCanvas?.clear(to: Simulation.sideBackground)
        return sideCanvas
    }
}

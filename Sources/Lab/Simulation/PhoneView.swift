import Layers
import Raster
import Refresh

/// What the lab's overlays read of a phone: its device and effect, the header's state and shapes, and where the
/// list's top and the header's lines are. They draw over its canvas with its renderer and change nothing else.
protocol PhoneView: AnyObject {
    var device: Phone { get }
    var effectName: String { get }
    var language: RefreshLanguage { get }
    /// The frame the overlays are drawn over, and what draws them.
    var canvas: Canvas { get }
    var renderer: LayerRenderer { get }
    var headerState: RefreshState { get }
    /// How far the header is pulled, in points.
    var pullDistance: Double { get }
    /// The header's layer tree, whose shapes the debug overlay outlines.
    var headerLayer: Layer { get }
    var armingCount: Int { get }
    func showsArmingMark(at time: Double) -> Bool
    /// The scroll view's own inset at the top, without what the header adds: where a pull is measured from.
    var topInsetWithoutHeader: Double { get }
    /// How far the content must come down for a pull to arm the header, in points.
    var triggerDistance: Double { get }
    /// The inset a refresh holds the header open with, in points.
    var refreshingInset: Double { get }
    /// The frames per second the phone itself presented over the last second up to `time`.
    func framesPerSecond(at time: Double) -> Double?
}

extension SimulatedPhone: PhoneView {
    var headerState: RefreshState { refreshControl.state }
    var pullDistance: Double { refreshControl.pull.distance }
    var headerLayer: Layer { refreshControl.headerLayer }
    var topInsetWithoutHeader: Double { scrollView.adjustedContentInset.top - refreshControl.addedInset }
    var triggerDistance: Double { refreshControl.triggerDistance }
    var refreshingInset: Double { refreshControl.metrics.refreshingInset }
    func framesPerSecond(at time: Double) -> Double? { presentations.framesPerSecond(at: time) }
}

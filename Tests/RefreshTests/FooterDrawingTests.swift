import Geometry
import Layers
import Motion
import Raster
@testable import Refresh
import Scrolling
import Testing
import TestSupport
import Colors

extension FooterRig {
    /// The bottom `height` points of the viewport at `scale`, with the footer where the scroll puts it.
    func snapshot(height: Double = 100, scale: Double = 2) -> Snapshot {
        let canvas = Canvas(width: Int(375 * scale), height: Int(height * scale), fill: .white)
        let offset = scrollView.contentOffset
        let top = offset.y + scrollView.boundsSize.height - height
        let transform = AffineTransform(translationX: -offset.x, y: -top)
            .concatenating(AffineTransform(scaleX: scale, y: scale))
        footer.layer.render(into: canvas, at: time, transform: transform, renderer: LayerRenderer())
        let bounds = Layer.box(of: footer.layer.presentation(at: time).frame, through: transform)
        return Snapshot(canvas: canvas, layerRegion: PixelRegion(covering: bounds).clipped(to: canvas),
                        background: Color.white.premultipliedPixel)
    }

    /// Scrolls the content so that its end is at the bottom of the screen, the footer's 44 pt below it in view.
    func showEnd() {
        scrollView.setContentOffset(Point(0, scrollView.contentSize.height + scrollView.contentInset.bottom - 600))
        run()
    }
}

@Suite("LoadMoreFooter: drawing")
struct FooterDrawingTests {
    @Test("The title follows the state and language; the spinner shows only while loading")
    func titles() {
        let rig = FooterRig(mode: .automatic(triggerPercent: 1))
        #expect(rig.footer.titleLayer.string == "Tap or pull up to load more")
        #expect(rig.footer.spinner.isHidden)
        rig.footer.beginRefreshing()
        #expect(rig.footer.titleLayer.string == "Loading more...")
        #expect(!rig.footer.spinner.isHidden)
        rig.footer.language = .chinese
        rig.run()
        #expect(rig.footer.titleLayer.string == "正在加载更多的数据...")
        rig.footer.endRefreshingWithNoMoreData()
        #expect(rig.footer.titleLayer.string == "已经全部加载完毕")
        #expect(rig.footer.spinner.isHidden)
        let back = FooterRig(mode: .back)
        #expect(back.footer.titleLayer.string == "Pull up to load more")
    }

    @Test("Footer 44 pt tall at the content's end, title across it; spinner 20 pt, 90 pt left of the centre")
    func layout() {
        let rig = FooterRig(mode: .automatic(triggerPercent: 1))
        #expect(rig.footer.layer.frame == Rect(x: 0, y: 2000, width: 375, height: 44))
        #expect(rig.footer.titleLayer.frame == Rect(x: 0, y: 0, width: 375, height: 44))
        #expect(rig.footer.spinner.frame == Rect(x: 187.5 - 90 - 10, y: 12, width: 20, height: 20))
        #expect(rig.footer.spinner.sublayers.count == 12)
    }

    @Test("The spinner steps one spoke (30°) every 1/12 s from the start of loading")
    func spinnerSteps() {
        let rig = FooterRig(mode: .automatic(triggerPercent: 1))
        let start = rig.time
        rig.footer.beginRefreshing()
        for (dt, step) in [(0.04, 0), (0.1, 1), (0.5, 6), (0.95, 11), (1.04, 0)] {
            let angle = DecomposedTransform(rig.footer.spinner.presentation(at: start + dt).transform).rotation
            let expected = Double(step) * 2 * Double.pi / 12
            // Angles are compared as turns, so 330° and −30° are the same.
            let d = (angle - expected) / (2 * Double.pi)
            #expect(abs(d - d.rounded()) < 1e-9, "at +\(dt) s")
        }
    }

    @Test("Content of 300 pt in a 600 pt screen: the footer is hidden and draws nothing")
    func hiddenWhenShort() {
        let rig = FooterRig(mode: .automatic(triggerPercent: 1), contentHeight: 300)
        #expect(rig.footer.isHidden && rig.footer.layer.isHidden)
        let canvas = Canvas(width: 750, height: 1200, fill: .white)
        rig.footer.layer.render(into: canvas, at: rig.time, scale: 2, renderer: LayerRenderer())
        #expect((0..<canvas.pixelCount).allSatisfy { canvas.pixels[$0] == Color.white.premultipliedPixel })
    }

    @Test("Goldens: idle, loading, no more data (Chinese), back footer armed")
    func goldens() {
        let rig = FooterRig(mode: .automatic(triggerPercent: 1))
        rig.showEnd()
        Golden.expect(rig.snapshot(), named: "footer-idle")
        rig.footer.beginRefreshing()
        rig.run(4)
        Golden.expect(rig.snapshot(), named: "footer-loading")
        rig.footer.language = .chinese
        rig.footer.endRefreshingWithNoMoreData()
        rig.run()
        Golden.expect(rig.snapshot(), named: "footer-no-more-data-zh")
        let back = FooterRig(mode: .back)
        back.showEnd()
        back.touchDown()
        back.drag(up: 120)
        #expect(back.footer.state == .armed)
        Golden.expect(back.snapshot(), named: "footer-back-armed")
    }
}

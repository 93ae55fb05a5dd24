import Geometry
import Raster
import Refresh
import Testing
import TestSupport
import Text
@testable import Lab
import Colors
@testable import Recording

@Suite("HUD")
struct HUDTests {
    static let screen = Size(375, 667)
    static let scale = 2.0
    static let white = Color(rgb: 255, 255, 255)

    /// A recorder with a 10 ms budget whose frames are: input 2 ms, update 3 ms, draw 5 ms (exactly the budget),
    /// and, newest, a frame of 30 ms of drawing (over twice the budget).
    func recorder() -> FrameRecorder {
        let r = FrameRecorder(budget: 0.010)
        for i in 0..<10 {
            r.beginFrame(at: Double(i) * 0.010)
            r.add(0.002, to: .input)
            r.add(0.003, to: .update)
            r.add(0.005, to: .draw)
            r.endFrame(state: .pulling, effect: "sticky")
        }
        r.beginFrame(at: 0.1)
        r.add(0.030, to: .draw)
        r.endFrame(state: .refreshing, effect: "sticky")
        return r
    }

    func pixel(_ canvas: Canvas, _ p: Point) -> UInt32 {
        canvas[Int(p.x * HUDTests.scale), Int(p.y * HUDTests.scale)]
    }

    @Test("bars are stacked by phase from the bottom, newest on the right, with the budget line at a third")
    func bars() {
        let canvas = Canvas(width: 750, height: 1334, fill: HUDTests.white)
        let hud = HUD()
        let r = recorder()
        hud.draw(recorder: r, time: 0.11, isMoving: true, state: .refreshing, pullDistance: 64, screen: HUDTests.screen, scale: HUDTests.scale,
                 text: nil, into: canvas)
        let g = hud.graphFrame(screen: HUDTests.screen)
        // 66 pt for 30 ms: 2.2 pt per ms. The newest bar (30 ms of drawing) is clamped to the graph's top.
        let newest = g.maxX - 0.5
        #expect(pixel(canvas, Point(newest, g.maxY - 1)) == FramePhase.draw.color.premultipliedPixel)
        #expect(pixel(canvas, Point(newest, g.minY + 1)) == FramePhase.draw.color.premultipliedPixel)
        // The one before: input 0…4.4 pt, update 4.4…11 pt, draw 11…22 pt, then the panel's background.
        let previous = g.maxX - 1.5
        #expect(pixel(canvas, Point(previous, g.maxY - 2)) == FramePhase.input.color.premultipliedPixel)
        #expect(pixel(canvas, Point(previous, g.maxY - 7.5)) == FramePhase.update.color.premultipliedPixel)
        #expect(pixel(canvas, Point(previous, g.maxY - 16)) == FramePhase.draw.color.premultipliedPixel)
        let background = Pixel.sourceOver(HUD.background.premultipliedPixel, HUDTests.white.premultipliedPixel)
        #expect(pixel(canvas, Point(previous, g.maxY - 30)) == background)
        // The budget line (10 ms = 22 pt up) across the graph, over the bars.
        #expect(pixel(canvas, Point(g.minX + 2, g.maxY - 22)) == HUD.budgetColor.premultipliedPixel)
        #expect(pixel(canvas, Point(previous, g.maxY - 22)) == HUD.budgetColor.premultipliedPixel)
        // Only eleven frames: left of them the graph is empty.
        #expect(pixel(canvas, Point(g.maxX - 12.5, g.maxY - 2)) == background)
        // Outside the panel nothing changed.
        let panel = hud.panelFrame(screen: HUDTests.screen)
        #expect(pixel(canvas, Point(panel.minX - 2, panel.midY)) == HUDTests.white.premultipliedPixel)
        #expect(panel.maxX == 375 - HUD.margin)
        // At the bottom, clear of the header.
        #expect(panel.maxY == 667 - HUD.margin - 20)
    }

    @Test("without the graph the panel is shorter and draws no bars")
    func noGraph() {
        let hud = HUD()
        let tall = hud.panelFrame(screen: HUDTests.screen).height
        hud.showsGraph = false
        #expect(hud.panelFrame(screen: HUDTests.screen).height
                == tall - HUD.graphHeight - HUD.padding - 2 * HUD.legendLineHeight)
        let canvas = Canvas(width: 750, height: 1334, fill: HUDTests.white)
        hud.draw(recorder: recorder(), time: 0.11, isMoving: true, state: .idle, pullDistance: 0, screen: HUDTests.screen, scale: HUDTests.scale,
                 text: nil, into: canvas)
        // No pixel anywhere has a phase's colour.
        let phases = Set(FramePhase.allCases.map { $0.color.premultipliedPixel })
        let barPixels = UnsafeBufferPointer(start: canvas.pixels, count: canvas.pixelCount).filter { phases.contains($0) }
        #expect(barPixels.isEmpty)
    }

    @Test("the figures are drawn in white text inside the panel",
          .enabled(if: standardFontsInstalled, "the standard fonts are installed"))
    func figures() throws {
        let fonts = try FontSet.standard()
        let text = TextRenderer(fonts: fonts)
        let hud = HUD()
        let plain = Canvas(width: 750, height: 1334, fill: HUDTests.white)
        hud.draw(recorder: recorder(), time: 0.11, isMoving: true, state: .refreshing, pullDistance: 64, screen: HUDTests.screen,
                 scale: HUDTests.scale, text: nil, into: plain)
        let canvas = Canvas(width: 750, height: 1334, fill: HUDTests.white)
        hud.draw(recorder: recorder(), time: 0.11, isMoving: true, state: .refreshing, pullDistance: 64, screen: HUDTests.screen,
                 scale: HUDTests.scale, text: text, into: canvas)
        // Text brightens pixels in each of the three text lines, and nowhere outside the panel.
        let panel = hud.panelFrame(screen: HUDTests.screen)
        func brightened(rowsFrom top: Double, to bottom: Double) -> Int {
            var n = 0
            for y in Int(top * 2)..<Int(bottom * 2) {
                for x in Int(panel.minX * 2)..<Int(panel.maxX * 2) where canvas[x, y] != plain[x, y] { n += 1 }
            }
            return n
        }
        let top = panel.minY + HUD.padding
        #expect(brightened(rowsFrom: top, to: top + HUD.lineHeight) > 100)
        #expect(brightened(rowsFrom: top + HUD.lineHeight, to: top + 2 * HUD.lineHeight) > 100)
        #expect(brightened(rowsFrom: top + 2 * HUD.lineHeight, to: top + 3 * HUD.lineHeight) > 100)
        var outside = 0
        for y in 0..<1334 { for x in 0..<Int(panel.minX * 2) where canvas[x, y] != plain[x, y] { outside += 1 } }
        #expect(outside == 0)
    }

    @Test("the graph shows one bar per point of its width, at most the recorder's ring")
    func barCount() {
        let hud = HUD()
        #expect(hud.barCount(screen: HUDTests.screen, recorder: FrameRecorder()) == Int(HUD.width - 2 * HUD.padding))
        #expect(hud.barCount(screen: HUDTests.screen, recorder: FrameRecorder(historyCapacity: 30)) == 30)
    }
}

@Suite("HUD cost")
struct HUDCostTests {
    /// Release only: the debug build is tens of times slower in pixel loops. Prints the median of 200 draws.
    @Test("drawing the HUD with its graph takes well under a millisecond at scale 2",
          .enabled(if: !isDebugBuild, "a release build"),
          .enabled(if: standardFontsInstalled, "the standard fonts are installed"))
    func cost() throws {
        let fonts = try FontSet.standard()
        let text = TextRenderer(fonts: fonts)
        let recorder = FrameRecorder(budget: 1.0 / 60, phaseClock: .monotonic)
        for i in 0..<240 {
            recorder.beginFrame(at: Double(i) / 60)
            recorder.add(0.0005 + Double(i % 7) * 0.0003, to: .draw)
            recorder.add(0.0002, to: .update)
            recorder.endFrame(state: .pulling, effect: "sticky")
        }
        let canvas = Canvas(width: 750, height: 1334, fill: Color(rgb: 242, 242, 247))
        let hud = HUD()
        var times: [Double] = []
        for i in 0..<220 {
            let start = recorder.phaseNow()
            hud.draw(recorder: recorder, time: Double(i + 1) / 60, isMoving: true, state: .pulling, pullDistance: Double(i) * 0.37, screen: Size(375, 667),
                     scale: 2, text: text, into: canvas)
            if i >= 20 { times.append(recorder.phaseNow() - start) }
        }
        times.sort()
        let median = times[times.count / 2], p99 = TimingSummary.nearestRank(times, 0.99)
        print("HUD draw at scale 2: median \(Int(median * 1e6)) µs, p99 \(Int(p99 * 1e6)) µs")
        #expect(median < 0.001)
    }
}

#if DEBUG
let isDebugBuild = true
#else
let isDebugBuild = false
#endif

#if canImport(Glibc)
import Glibc
#endif
import Colors
import Geometry
@testable import Lab
import Motion
import Raster
@testable import Refresh
import Styles
import Testing
import TestSupport
@testable import UserFiles

/// A simulation showing `effect` in dark appearance, with no automatic end, on a simulated clock.
private func darkSimulation(_ effect: String) -> (Simulation, SimulatedClock) {
    let (simulation, clock) = effectSimulation(showing: effect)
    simulation.appearance = .dark
    return (simulation, clock)
}

/// How many pixels of `canvas` in the pixel rows `rows` are within `t` levels of (r, g, b) in every channel.
private func pixels(_ canvas: Canvas, rows: Range<Int>, columns: Range<Int>? = nil, _ r: Int, _ g: Int, _ b: Int,
                    within t: Int = 1) -> Int {
    var n = 0
    for y in rows.clamped(to: 0..<canvas.height) {
        for x in (columns ?? 0..<canvas.width).clamped(to: 0..<canvas.width) {
            let p = canvas[x, y]
            if Swift.abs(Int(p >> 16 & 0xFF) - r) <= t && Swift.abs(Int(p >> 8 & 0xFF) - g) <= t
                && Swift.abs(Int(p & 0xFF) - b) <= t { n += 1 }
        }
    }
    return n
}

/// Whether the pixel at (x, y) is within 1 level of (r, g, b).
private func pixel(_ canvas: Canvas, _ x: Int, _ y: Int, is r: Int, _ g: Int, _ b: Int) -> Bool {
    pixels(canvas, rows: y..<(y + 1), columns: x..<(x + 1), r, g, b) == 1
}

/// Whether two canvases of one size hold the same pixels.
private func same(_ a: Canvas, _ b: Canvas) -> Bool {
    let n = a.width * a.height
    return n == b.width * b.height && memcmp(a.pixels, b.pixels, n * MemoryLayout<UInt32>.size) == 0
}

/// Renders, and when `REFRESHLAB_DARK_FRAMES` names a folder writes the frame there as `name`.png to be looked at.
private func rendered(_ simulation: Simulation, _ name: String) -> Canvas {
    simulation.render()
    if let folder = getenv("REFRESHLAB_DARK_FRAMES").map({ String(cString: $0) }), !folder.isEmpty {
        try? PNG.write(simulation.canvas, to: folder + "/" + name + ".png")
    }
    return simulation.canvas
}

/// The pixel rows of the list's top `points` points at scale 2: where a header shows (the list starts at 64 pt).
private func headerRows(_ points: Double) -> Range<Int> { 128..<(128 + Int(points * 2)) }

// Expected colours, worked out by hand from docs/reference.md §6 (dark column) and each style's dark default:
// - the page behind the list, secondarySystemBackground: (28, 28, 30);
// - secondaryLabel (235, 235, 245) at 0.6 over it: 235·0.6 + 28·0.4 = 152.2, 245·0.6 + 30·0.4 = 159.0 → (152, 152, 159);
//   over a black row instead: 235·0.6 = 141, 245·0.6 = 147 → (141, 141, 147).
// In light the same text is (90, 90, 90) (MJRefresh's grey), which a dark frame must not show.

@Suite("Dark appearance: system colours, every header's dark variants, the key, the options and the tuning panel")
struct DarkAppearanceTests {
    @Test("At rest in dark: the page, the bar, its title, the rows, their separators and the footer take the dark system colours")
    func systemColours() {
        let (simulation, clock) = darkSimulation("classic")
        advance(simulation, clock)
        let canvas = rendered(simulation, "dark-rest")
        // The bar, (18, 18, 18) at 0.94 over the page (28, 28, 30): 18·0.94 + 28·0.06 = 18.6, + 30·0.06 = 18.7 → 19.
        #expect(pixel(canvas, 10, 10, is: 19, 19, 19))
        // Its title, white at 0.8 over the bar: 255·0.8 + 19·0.2 = 207.8 → 208, on the glyphs' solid pixels.
        #expect(pixels(canvas, rows: 40..<128, 208, 208, 208) > 20)
        // The first row's background is systemBackground, black, and its title label white.
        #expect(pixel(canvas, 8, 200, is: 0, 0, 0))
        #expect(pixels(canvas, rows: 128..<272, 255, 255, 255) > 20)
        // Its subtitle and time: secondaryLabel over black, (141, 141, 147).
        #expect(pixels(canvas, rows: 128..<272, 141, 141, 147) > 20)
        // The separator under it (135.5 pt → pixel row 271, from x = 72 pt) is opaqueSeparator's dark (56, 56, 58).
        #expect(pixel(canvas, 300, 271, is: 56, 56, 58))
        // Nothing of light's: no (242, 242, 247) page, no white row.
        #expect(pixels(canvas, rows: 0..<canvas.height, 242, 242, 247) == 0)
        #expect(!pixel(canvas, 8, 200, is: 255, 255, 255))
        // The footer under the last row: its title in secondaryLabel over the page, (152, 152, 159).
        let scroll = simulation.scrollView
        scroll.setContentOffset(Point(0, scroll.contentSize.height + 44 - scroll.boundsSize.height))
        advance(simulation, clock)
        let end = rendered(simulation, "dark-footer")
        #expect(pixels(end, rows: (end.height - 88)..<end.height, 152, 152, 159) > 10)
        #expect(pixels(end, rows: (end.height - 88)..<end.height, 90, 90, 90) == 0)
    }

    @Test("Light stays light: back from dark, the frames are those of a run never switched, byte for byte")
    func lightUnchanged() {
        let (plain, plainClock) = effectSimulation(showing: "classic")
        let (switched, switchedClock) = effectSimulation(showing: "classic")
        for (simulation, clock) in [(plain, plainClock), (switched, switchedClock)] {
            holdFinger(simulation, clock, pulledBy: 60)
        }
        plain.render()
        // Light's bar, (248, 248, 248) at 0.94 over (242, 242, 247): 248·0.94 + 242·0.06 = 247.6, + 247·0.06 = 247.9.
        #expect(pixel(plain.canvas, 10, 10, is: 248, 248, 248))
        switched.perform(.toggleAppearance)
        advance(switched, switchedClock)
        advance(plain, plainClock)
        switched.render()
        plain.render()
        #expect(!same(switched.canvas, plain.canvas))
        switched.perform(.toggleAppearance)
        for _ in 0..<30 {
            advance(switched, switchedClock)
            advance(plain, plainClock)
            switched.render()
            plain.render()
            #expect(same(switched.canvas, plain.canvas))
        }
    }

    @Test("sticky in dark: the blob is systemGray at 0.6 and the result row secondaryLabel")
    func sticky() {
        let (simulation, clock) = darkSimulation("sticky")
        holdFinger(simulation, clock, pulledBy: 66)
        let pulled = rendered(simulation, "dark-sticky-pulled")
        // (142, 142, 147) at 0.6 over (28, 28, 30): 142·0.6 + 28·0.4 = 96.4, 147·0.6 + 30·0.4 = 100.2 → (96, 96, 100).
        #expect(pixels(pulled, rows: headerRows(66), 96, 96, 100) > 300)
        // Light's dark grey (85) at 0.6 over the dark page would be (62, 62, 63).
        // (Edge pixels of the blob pass through it: a few, not a blob's hundreds.)
        #expect(pixels(pulled, rows: headerRows(66), 62, 62, 63) < 50)
        simulation.handle(.touchUp(Point(187.5, 400)))
        advance(simulation, clock, frames: 30)
        #expect(rendered(simulation, "dark-sticky-refreshing")[0, 140] == Color(rgb: 28, 28, 30).premultipliedPixel)
        simulation.perform(.endRefreshSuccess)
        advance(simulation, clock, frames: 30)
        let ended = rendered(simulation, "dark-sticky-succeeded")
        #expect(pixels(ended, rows: headerRows(44), 152, 152, 159) > 10)
    }

    @Test("dots in dark: the brand colours unchanged on the dark page")
    func dots() {
        let (simulation, clock) = darkSimulation("dots")
        holdFinger(simulation, clock, pulledBy: 60)
        let pulled = rendered(simulation, "dark-dots-pulled")
        for (r, g, b) in [(90, 200, 200), (250, 85, 78), (92, 201, 105), (253, 175, 75)] {
            #expect(pixels(pulled, rows: headerRows(60), r, g, b) > 50, "dot (\(r), \(g), \(b))")
        }
        simulation.handle(.touchUp(Point(187.5, 400)))
        advance(simulation, clock, frames: 40)
        let refreshing = rendered(simulation, "dark-dots-refreshing")
        #expect(pixels(refreshing, rows: headerRows(55), 90, 200, 200) > 50)
        #expect(pixels(refreshing, rows: headerRows(55), 28, 28, 30) > 1000)
    }

    @Test("ring in dark: the disc is tertiarySystemBackground's (44, 44, 46), the arc the brand orange")
    func ring() {
        let (simulation, clock) = darkSimulation("ring")
        holdFinger(simulation, clock, pulledBy: 150)
        let pulled = rendered(simulation, "dark-ring-pulled")
        // The disc is 40 pt, 80 px across: thousands of its pixels, none white.
        #expect(pixels(pulled, rows: headerRows(200), 44, 44, 46) > 2000)
        simulation.handle(.touchUp(Point(187.5, 400)))
        advance(simulation, clock, frames: 70)
        let refreshing = rendered(simulation, "dark-ring-refreshing")
        #expect(pixels(refreshing, rows: headerRows(140), 44, 44, 46) > 2000)
        // The spinning arc keeps the brand orange, at full alpha while refreshing.
        #expect(pixels(refreshing, rows: headerRows(140), 255, 149, 0, within: 2) > 30)
    }

    @Test("news in dark: the grey view is the page's, the label and picture secondaryLabel, the banner a dim blue")
    func news() {
        let (simulation, clock) = darkSimulation("news")
        holdFinger(simulation, clock, pulledBy: 60)
        let pulled = rendered(simulation, "dark-news-pulled")
        #expect(pixels(pulled, rows: headerRows(60), 152, 152, 159) > 100)
        #expect(pixels(pulled, rows: headerRows(60), 221, 56, 44) > 10)
        #expect(pixels(pulled, rows: headerRows(60), 235, 235, 235) == 0)
        simulation.handle(.touchUp(Point(187.5, 400)))
        advance(simulation, clock, frames: 30)
        _ = rendered(simulation, "dark-news-refreshing")
        simulation.perform(.endRefreshMessage)
        advance(simulation, clock, frames: 40)
        let banner = rendered(simulation, "dark-news-banner")
        // The banner (14, 28, 49) (69, 141, 243 at a fifth over black), its text the brand blue on it.
        #expect(pixels(banner, rows: headerRows(40), 14, 28, 49) > 3000)
        #expect(pixels(banner, rows: headerRows(40), 69, 141, 243, within: 2) > 10)
        #expect(pixels(banner, rows: headerRows(40), 220, 232, 244) == 0)
    }

    @Test("classic and gif in dark: their lines secondaryLabel, classic's arrow its own grey")
    func classicAndGif() {
        for name in ["classic", "gif"] {
            let (simulation, clock) = darkSimulation(name)
            holdFinger(simulation, clock, pulledBy: 70)
            let pulled = rendered(simulation, "dark-\(name)-pulled")
            #expect(pixels(pulled, rows: headerRows(70), 152, 152, 159) > 20, "\(name)")
            // MJRefresh's light grey, (90, 90, 90), only where an edge's blend passes through it.
            #expect(pixels(pulled, rows: headerRows(70), 90, 90, 90) < 10, "\(name)")
            if name == "classic" { #expect(pixels(pulled, rows: headerRows(70), 150, 150, 150) > 10) }
            simulation.handle(.touchUp(Point(187.5, 400)))
            advance(simulation, clock, frames: 30)
            let refreshing = rendered(simulation, "dark-\(name)-refreshing")
            #expect(pixels(refreshing, rows: headerRows(54), 152, 152, 159) > 20, "\(name)")
        }
    }

    @Test("system in dark: the ticks take the system's dark grey, as UIKit's control follows the appearance")
    func system() {
        let (simulation, clock) = darkSimulation("system")
        holdFinger(simulation, clock, pulledBy: 60)
        let pulled = rendered(simulation, "dark-system-pulled")
        // Revealed ticks, (235, 235, 245) at 147/255 over the page (28, 28, 30): 235·0.5765 + 28·0.4235 = 147.3,
        // 245·0.5765 + 30·0.4235 = 153.9 → (147, 147, 154) on their solid pixels.
        #expect(pixels(pulled, rows: headerRows(60), 147, 147, 154) > 20)
        // Light's (60, 60, 68) at the same alpha would be (47, 47, 52).
        #expect(pixels(pulled, rows: headerRows(60), 47, 47, 52) < 5)
    }

    @Test("lottie in dark: the animation keeps its own colours on the dark page")
    func lottie() throws {
        let (simulation, clock) = darkSimulation("lottie")
        _ = try simulation.loadAnimation(path: nil, for: "lottie")
        simulation.selectEffect(named: "lottie")
        holdFinger(simulation, clock, pulledBy: 60)
        simulation.handle(.touchUp(Point(187.5, 400)))
        advance(simulation, clock, frames: 40)
        let refreshing = rendered(simulation, "dark-lottie-refreshing")
        // The file's blue stroke, (0, 0.48, 1) → (0, 122, 255), and the page around it.
        #expect(pixels(refreshing, rows: headerRows(60), 0, 122, 255, within: 2) > 20)
        #expect(pixels(refreshing, rows: headerRows(60), 28, 28, 30) > 1000)
    }

    @Test("A style file's {\"light\", \"dark\"} colour is applied in each appearance, switching with K")
    func styleFileVariants() throws {
        let dir = temporaryDirectory("dark-style")
        let path = dir + "/mine.json"
        #expect(writeTextFile(path, "{\"classic\": {\"textColor\": {\"light\": \"#FF0000\", \"dark\": \"#00FF00\"}}}"))
        let (simulation, clock) = effectSimulation(showing: "classic")
        simulation.styles = try StyleFiles.load([path])
        holdFinger(simulation, clock, pulledBy: 70)
        simulation.render()
        #expect(pixels(simulation.canvas, rows: headerRows(70), 255, 0, 0) > 20)
        #expect(pixels(simulation.canvas, rows: headerRows(70), 0, 255, 0) == 0)
        #expect(simulation.perform(.toggleAppearance) == "Appearance: dark")
        simulation.render()
        #expect(pixels(simulation.canvas, rows: headerRows(70), 0, 255, 0) > 20)
        #expect(pixels(simulation.canvas, rows: headerRows(70), 255, 0, 0) == 0)
        // A broken variant is one error naming the file, the line and the value.
        #expect(writeTextFile(path, "{\"classic\": {\"textColor\":\n {\"light\": \"#FF0000\", \"dark\": true}}}"))
        #expect(throws: StyleError.self) { try StyleFiles.load([path]) }
        do { _ = try StyleFiles.load([path]) } catch {
            #expect(error.description == "\(path):2:31: \"classic\".\"textColor\".\"dark\": expected a colour "
                + "\"#RRGGBB\" or \"#RRGGBBAA\", not true")
        }
    }

    @Test("The tuning panel edits the variant shown: in dark the file gets both, light keeps its colour")
    func tuningEditsDark() throws {
        let dir = temporaryDirectory("dark-tuning")
        let path = dir + "/tuning.json"
        let (simulation, _) = effectSimulation(showing: "classic")
        simulation.tuning.file = path
        simulation.appearance = .dark
        simulation.perform(.toggleTuning)
        let rows = simulation.tuningRows
        let index = try #require(rows.firstIndex { $0.key == "textColor" && $0.part == .channel(0) })
        for _ in 0..<index { simulation.perform(.tuningSelect(by: 1)) }
        let row = try #require(simulation.selectedTuningRow)
        // The row shows the dark variant: secondaryLabel's dark, #EBEBF599, red channel 235.
        #expect(row.value == .string("#EBEBF599") && row.valueText == "235")
        simulation.perform(.tuningNudge(by: -10))
        simulation.perform(.toggleTuning)
        let classic = try #require(simulation.refreshControl.effect as? ClassicEffect)
        #expect(classic.style.textColor == Color(rgb: 225, 235, 245, alpha: Double(0x99) / 255))
        let saved = String(decoding: try UserFile.read(path, kind: "style file", limit: 1 << 20), as: UTF8.self)
        #expect(saved.contains("\"light\": \"#5A5A5A\"") && saved.contains("\"dark\": \"#E1EBF599\""), "\(saved)")
        // Light keeps MJRefresh's grey.
        simulation.appearance = .light
        #expect(classic.style.textColor == Color(rgb: 90, 90, 90))
        // Read back from the file, each appearance has its own.
        let book = try StyleFiles.load([path])
        #expect(book.style(ClassicEffect.Style.self, for: "classic", appearance: .dark).textColor
            == Color(rgb: 225, 235, 245, alpha: Double(0x99) / 255))
        #expect(book.style(ClassicEffect.Style.self, for: "classic").textColor == Color(rgb: 90, 90, 90))
    }

    @Test("K switches the appearance, named in the help and the title; a script may set it, and --appearance too")
    func keyScriptAndOption() throws {
        #expect(Command(keyName: "K") == .toggleAppearance && Command(keyName: "k") == .toggleAppearance)
        #expect(Command.keyBindings.contains { $0.keys == "K" && $0.help == "light / dark appearance" })
        let (simulation, _) = effectSimulation(showing: "classic")
        #expect(!simulation.status.contains("dark"))
        simulation.perform(.toggleAppearance)
        #expect(simulation.appearance == .dark && simulation.status.contains("| dark"))
        let script = try GestureScript(json: "{\"appearance\": \"dark\", \"steps\": [{\"wait\": 0.1}]}")
        #expect(script.appearance == .dark)
        #expect(try ScriptReplay(script: script).simulation.appearance == .dark)
        #expect(try ScriptReplay(script: GestureScript(json: "{\"steps\": []}")).simulation.appearance == .light)
        #expect(throws: ScriptError.self) { try GestureScript(json: "{\"appearance\": \"dim\", \"steps\": []}") }
        do { _ = try GestureScript(json: "{\"steps\": [],\n \"appearance\": 1}") } catch {
            #expect(error.description == "script.json:2:16: \"appearance\" is \"light\" or \"dark\", not 1")
        }
    }
}

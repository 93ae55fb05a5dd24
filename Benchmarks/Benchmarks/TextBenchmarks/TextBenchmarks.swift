import Benchmark
import Geometry
import Raster
import TestSupport
import Text
import Colors

/// The list screen's text: 40 lines at 750×1334 px (scale 2), titles at 17 pt and details at 13 pt, English
/// and Chinese, as the demo list and its refresh header show them.
func listScreen(_ renderer: TextRenderer) -> [(TextLine, Point)] {
    var lines: [(TextLine, Point)] = []
    let header = ["Pull down to refresh", "最后更新：今天 10:32"]
    for (i, text) in header.enumerated() {
        let line = renderer.layout(text, size: 13, maxWidth: 355)
        lines.append((line, line.origin(in: Rect(x: 10, y: 8 + Double(i) * 18, width: 355, height: 18),
                                        alignment: .center)))
    }
    for row in 0..<19 {
        let title = row % 3 == 1 ? "第 \(row + 1) 行：下拉刷新的效果演示" : "Row \(row + 1): the quick brown fox jumps"
        let detail = row % 2 == 0 ? "Updated today at 10:\(10 + row) · 3 new items" : "松开立即刷新 · 正在刷新数据中..."
        let y = 50 + Double(row) * 32
        let a = renderer.layout(title, size: 17, maxWidth: 343)
        let b = renderer.layout(detail, size: 13, maxWidth: 343)
        lines.append((a, Point(16, y + 16)))
        lines.append((b, Point(16, y + 30)))
    }
    return lines
}

let benchmarks: @Sendable () -> Void = {
    let config = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3))

    // Ours: every glyph of both sets at every size, from the cached font-unit outline to a coverage mask.
    Benchmark("glyph sets from outlines: ours (GlyphRasterizer)", configuration: config) { benchmark in
        let fonts = try GlyphSets.fonts()
        let outlines = fonts.map { font, glyphs in (font, glyphs.map(font.outline(glyph:))) }
        let rasterizer = GlyphRasterizer()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var check = 0
            for size in GlyphSets.sizes {
                for (font, list) in outlines {
                    let scale = size / font.unitsPerEm
                    for o in list { check &+= rasterizer.render(o, scale: scale, offsetX: 0.25).width }
                }
            }
            blackHole(check)
        }
    }

    // FreeType's smooth rasterizer on the same sets, straight from stored outlines into a reused bitmap.
    Benchmark("glyph sets from outlines: FreeType FT_Outline_Get_Bitmap", configuration: config) { benchmark in
        let fonts = try GlyphSets.fonts()
        var refs: [FreeTypeOutlineRasterizer] = []
        for size in GlyphSets.sizes {
            for (font, glyphs) in fonts {
                refs.append(FreeTypeOutlineRasterizer(font: font, glyphs: glyphs, pixelSize: size))
            }
        }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var check = 0
            for r in refs { check &+= r.renderAll(offsetX: 0.25) }
            blackHole(check)
        }
    }

    // FT_Render_Glyph needs a freshly loaded outline in the slot: time loading alone and loading plus rendering;
    // the difference is FT_Render_Glyph's own time.
    Benchmark("glyph sets: FreeType FT_Load_Glyph + FT_Render_Glyph", configuration: config) { benchmark in
        let fonts = try GlyphSets.fonts()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var check = 0
            for size in GlyphSets.sizes {
                for (font, glyphs) in fonts where font.setReferenceSize(size) {
                    for g in glyphs where font.loadReferenceOutline(glyph: g) {
                        check &+= font.renderLoadedReference(offsetX: 0.25)
                    }
                }
            }
            blackHole(check)
        }
    }

    Benchmark("glyph sets: FreeType FT_Load_Glyph only", configuration: config) { benchmark in
        let fonts = try GlyphSets.fonts()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var check = 0
            for size in GlyphSets.sizes {
                for (font, glyphs) in fonts where font.setReferenceSize(size) {
                    for g in glyphs where font.loadReferenceOutline(glyph: g) { check &+= 1 }
                }
            }
            blackHole(check)
        }
    }

    // A full list screen of text from a warm glyph cache: 40 laid-out lines composited into 750×1334.
    Benchmark("list screen text, warm cache (40 lines, 750×1334)", configuration: config) { benchmark in
        let renderer = TextRenderer(fonts: try FontSet.standard())
        let canvas = Canvas(width: 750, height: 1334, fill: .white)
        let lines = listScreen(renderer)
        let ink = Color(white: 0.2)
        for (line, origin) in lines { renderer.draw(line, at: origin, color: ink, scale: 2, into: canvas) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for (line, origin) in lines { renderer.draw(line, at: origin, color: ink, scale: 2, into: canvas) }
        }
        blackHole(canvas.pixels[0])
    }

    // The same screen laid out again every frame (the cost of text that changes, such as a HUD).
    Benchmark("list screen text, layout + draw (40 lines, 750×1334)", configuration: config) { benchmark in
        let renderer = TextRenderer(fonts: try FontSet.standard())
        let canvas = Canvas(width: 750, height: 1334, fill: .white)
        _ = listScreen(renderer).map { renderer.draw($0.0, at: $0.1, color: .black, scale: 2, into: canvas) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for (line, origin) in listScreen(renderer) {
                renderer.draw(line, at: origin, color: .black, scale: 2, into: canvas)
            }
        }
        blackHole(canvas.pixels[0])
    }
}

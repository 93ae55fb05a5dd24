import Testing
import Geometry
import Raster
@testable import Text

@Test func debugCount() throws {
    let r = TextRenderer(fonts: try FontSet.standard())
    var area = 0, nz = 0, full = 0, glyphs = 0, rowSpan = 0, words = 0
    for row in 0..<19 {
        let title = row % 3 == 1 ? "第 \(row + 1) 行：下拉刷新的效果演示" : "Row \(row + 1): the quick brown fox jumps"
        let detail = row % 2 == 0 ? "Updated today at 10:\(10 + row) · 3 new items" : "松开立即刷新 · 正在刷新数据中..."
        for (t, s) in [(title, 17.0), (detail, 13.0)] {
            let line = r.layout(t, size: s, maxWidth: 343)
            for g in line.glyphs {
                glyphs += 1
                let m = r.cache.mask(fonts: r.fonts, font: g.font, glyph: g.glyph, pixelSize: s * 2, subpixel: 1)
                area += m.width * m.height
                for y in 0..<m.height {
                    var first = -1, last = -1
                    for x in 0..<m.width { let v = m.value(x: m.left + x, y: m.top + y); if v > 0 { nz += 1; if first < 0 { first = x }; last = x }; if v == 255 { full += 1 } }
                    if first >= 0 { rowSpan += last - first + 1 }
                    var x = 0
                    while x < m.width { var any = false; for k in x..<min(x+8, m.width) where m.value(x: m.left + k, y: m.top + y) > 0 { any = true }; if any { words += 1 }; x += 8 }
                }
            }
        }
    }
    print("glyphs", glyphs, "area", area, "nonzero", nz, "full", full, "rowSpan", rowSpan, "nonzero words", words)
}

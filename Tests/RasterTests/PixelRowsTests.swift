import Testing
import TestSupport
@testable import Raster
import RasterKernels

/// Rows put down eight pixels at a time, on every fill path, against `Pixel.scale` and `Pixel.sourceOver` one pixel
/// at a time: transparent, opaque and partly transparent sources, every opacity and coverage class, rows of lengths
/// that are and are not multiples of eight.
@Suite struct PixelRowsTests {
    /// A premultiplied pixel: transparent, opaque or in between, its colour at most its alpha.
    static func pixel(_ g: inout SeededRandom) -> UInt32 {
        let a = [0, 255, UInt32(g.int(in: 1...254))][g.int(in: 0...2)]
        func channel() -> UInt32 { a == 0 ? 0 : UInt32(g.int(in: 0...Int(a))) }
        return a << 24 | channel() << 16 | channel() << 8 | channel()
    }

    @Test func compositingARowGivesEachPixelsSourceOver() {
        var g = SeededRandom(seed: 41)
        for n in 0..<200 {
            let count = g.int(in: 0...40), alpha = [255, 1, UInt32(g.int(in: 2...254))][n % 3]
            // Runs of transparent pixels, so that whole groups of eight are skipped too.
            let source = (0..<count).map { i in i % 16 < 8 && n % 2 == 0 ? 0 : PixelRowsTests.pixel(&g) }
            let under = (0..<count).map { _ in PixelRowsTests.pixel(&g) }
            let expected = (0..<count).map { i in
                source[i] == 0 ? under[i] : Pixel.sourceOver(Pixel.scale(source[i], by: alpha), under[i])
            }
            for path in FillPath.available {
                var out = under
                source.withUnsafeBufferPointer { s in
                    out.withUnsafeMutableBufferPointer { d in
                        if count > 0 {
                            path.pipeline.compositeRow(s.baseAddress!, onto: d.baseAddress!, count: count, alpha: alpha)
                        }
                    }
                }
                #expect(out == expected, "\(path), row \(n)")
            }
        }
    }

    @Test func shadingARowGivesEachPixelsColourAtItsCoverage() {
        var g = SeededRandom(seed: 43)
        let colors = (0..<256).map { _ in PixelRowsTests.pixel(&g) }
        for n in 0..<200 {
            let count = g.int(in: 0...40)
            let entries = (0..<count).map { _ in Int32(g.int(in: 0...255)) }
            let coverage = (0..<count).map { i in
                i % 24 < 8 && n % 2 == 0 ? 0 : [0, 255, UInt8(g.int(in: 1...254))][g.int(in: 0...2)]
            }
            let under = (0..<count).map { _ in PixelRowsTests.pixel(&g) }
            let expected = (0..<count).map { i in
                coverage[i] == 0 ? under[i]
                    : Pixel.sourceOver(Pixel.scale(colors[Int(entries[i])], by: UInt32(coverage[i])), under[i])
            }
            for path in FillPath.available {
                var out = under
                entries.withUnsafeBufferPointer { e in
                    colors.withUnsafeBufferPointer { c in
                        coverage.withUnsafeBufferPointer { k in
                            out.withUnsafeMutableBufferPointer { d in
                                if count > 0 {
                                    path.pipeline.shadeRow(entries: e.baseAddress!, colors: c.baseAddress!,
                                                           coverage: k.baseAddress!, onto: d.baseAddress!, count: count)
                                }
                            }
                        }
                    }
                }
                #expect(out == expected, "\(path), row \(n)")
            }
        }
    }

    @Test func mixingTwoRowsGivesEachChannelsRoundedWeightedMean() {
        var g = SeededRandom(seed: 47)
        for n in 0..<300 {
            let count = g.int(in: 0...40), t = [0, 256, UInt32(g.int(in: 1...255))][n % 3]
            let a = (0..<count).map { _ in PixelRowsTests.pixel(&g) }, b = (0..<count).map { _ in PixelRowsTests.pixel(&g) }
            // Channel by channel: (a × (256 − t) + b × t + 128) / 256, rounded down.
            let expected = (0..<count).map { i in
                (0..<4).reduce(UInt32(0)) { word, c in
                    let shift = UInt32(8 * c)
                    let x = (a[i] >> shift) & 0xFF, y = (b[i] >> shift) & 0xFF
                    return word | ((x * (256 - t) + y * t + 128) / 256) << shift
                }
            }
            for path in FillPath.available {
                var out = [UInt32](repeating: 0xDEAD_BEEF, count: count)
                out.withUnsafeMutableBufferPointer { o in
                    guard count > 0 else { return }
                    path.pipeline.mixRows(a, b, weight: t, into: o.baseAddress!, count: count)
                }
                #expect(out == expected, "\(path), row \(n), weight \(t)")
                // A colour channel at or below alpha in both stays so.
                for p in out { #expect(p & 0xFF <= p >> 24 && (p >> 8) & 0xFF <= p >> 24 && (p >> 16) & 0xFF <= p >> 24) }
            }
        }
    }

    @Test func addingARowsHalvesSumsEachChannel() {
        var g = SeededRandom(seed: 53)
        for n in 0..<100 {
            let count = g.int(in: 0...40), rows = g.int(in: 1...36)
            let pixels = (0..<(count * rows)).map { _ in PixelRowsTests.pixel(&g) }
            for path in FillPath.available {
                var blueRed = [UInt32](repeating: 0, count: count), greenAlpha = blueRed
                blueRed.withUnsafeMutableBufferPointer { br in
                    greenAlpha.withUnsafeMutableBufferPointer { ga in
                        pixels.withUnsafeBufferPointer { p in
                            guard count > 0 else { return }
                            for r in 0..<rows {
                                path.pipeline.addHalves(of: p.baseAddress! + r * count, blueRed: br.baseAddress!,
                                                        greenAlpha: ga.baseAddress!, count: count)
                            }
                        }
                    }
                }
                for x in 0..<count {
                    let column = (0..<rows).map { pixels[$0 * count + x] }
                    func sum(_ shift: UInt32) -> UInt32 { column.reduce(0) { $0 + (($1 >> shift) & 0xFF) } }
                    #expect(blueRed[x] == sum(0) | sum(16) << 16 && greenAlpha[x] == sum(8) | sum(24) << 16,
                            "\(path), row \(n), column \(x)")
                }
            }
        }
    }
}

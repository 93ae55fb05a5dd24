#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Testing
import TestSupport
@testable import Raster
import RasterKernels

/// A gradient's table entries, a row at a time on each fill path, against one point at a time: the pixel centre
/// mapped into the gradient's space, t from the gradient's formula, clamped and rounded with `rounded()`.
@Suite struct GradientPlacementTests {
    @Test func anEntryIsTheRoundedPosition() {
        var ts: [Double] = [0, 1, -1, 2, .nan, .infinity, -.infinity, 0.5, 1.0 / 510, 3.0 / 510]
        for k in 0..<255 {
            let half = (Double(k) + 0.5) / 255
            ts += [half, half.nextDown, half.nextUp]
        }
        var g = SeededRandom(seed: 4)
        for _ in 0..<10_000 { ts.append(g.double(in: -0.1...1.1)) }
        for t in ts {
            let expected = t.isNaN ? 0 : Int((min(max(t, 0), 1) * 255).rounded())
            #expect(Int(GradientPlacement.entry(t)) == expected, "\(t)")
        }
    }

    /// t at one pixel centre, as a renderer working point by point computes it.
    static func t(at p: Point, inverse: AffineTransform, isRadial: Bool, start s: Point, end e: Point,
                  radius: Double, focus: Point) -> Double {
        let q = inverse.apply(p)
        if isRadial {
            if radius <= 0 { return 1 }
            if focus == s { return (q - s).length / radius }
            let d = s - focus, a = d.dot(d) - radius * radius
            let f = q - focus, fd = f.dot(d)
            return (fd - (fd * fd - a * f.dot(f)).squareRoot()) / a
        }
        let d = e - s, len2 = d.dot(d)
        return len2 > 0 ? (q - s).dot(d) / len2 : 0
    }

    @Test(arguments: ["linear", "circle", "conical", "flat"])
    func everyPathGivesThePointByPointEntries(_ kind: String) throws {
        var g = SeededRandom(seed: 17)
        let width = 37
        var out = [Int32](repeating: 0, count: width)
        var seen = Set<Int32>()
        for _ in 0..<40 {
            let angle = g.double(in: -3...3), scale = g.double(in: 0.2...3)
            let inverse = AffineTransform(a: cos(angle) * scale, b: sin(angle) * scale, c: -sin(angle) * scale,
                                          d: cos(angle) * scale, tx: g.double(in: -50...50), ty: g.double(in: -50...50))
            let s = Point(g.double(in: -20...60), g.double(in: -20...60))
            let e = kind == "flat" ? s : Point(g.double(in: -20...60), g.double(in: -20...60))
            let radius = (e - s).length
            let focus = kind == "conical" ? s + (e - s) * g.double(in: -0.9...0.9) : s
            let radial = kind != "linear" && kind != "flat"
            let place = GradientPlacement(inverse: inverse, isRadial: radial, start: s, end: e, radius: radius,
                                          focus: focus)
            let y = g.int(in: -5...40), x0 = g.int(in: -5...40)
            for path in FillPath.available {
                out.withUnsafeMutableBufferPointer {
                    path.pipeline.gradientEntries(place.geometry, y: y, from: x0, count: width, into: $0.baseAddress!)
                }
                for i in 0..<width {
                    let t = GradientPlacementTests.t(at: Point(Double(x0 + i) + 0.5, Double(y) + 0.5),
                                                     inverse: inverse, isRadial: radial, start: s, end: e,
                                                     radius: radius, focus: focus)
                    #expect(out[i] == GradientPlacement.entry(t), "\(path), pixel \(i)")
                    seen.insert(out[i])
                }
            }
        }
        #expect(kind == "flat" ? seen == [0] : seen.count > 100)
    }
}

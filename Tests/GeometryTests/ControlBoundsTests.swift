import Testing
import TestSupport
@testable import Geometry

/// A path's control bounds, kept by its builders, are always what walking its elements gives.
@Suite struct ControlBoundsTests {
    /// The bounds and finiteness of every point of `path`'s elements, found by walking them.
    static func walked(_ path: Path) -> (box: (minX: Double, minY: Double, maxX: Double, maxY: Double)?, finite: Bool) {
        var points: [Point] = []
        for e in path.elements {
            switch e {
            case .move(let p), .line(let p): points.append(p)
            case .quad(let c, let p): points += [c, p]
            case .cubic(let c1, let c2, let p): points += [c1, c2, p]
            case .close: break
            }
        }
        let finite = points.allSatisfy { $0.x.isFinite && $0.y.isFinite }
        let xs = points.map(\.x).filter { !$0.isNaN }, ys = points.map(\.y).filter { !$0.isNaN }
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else {
            return (nil, finite)
        }
        return ((minX, minY, maxX, maxY), finite)
    }

    static func expectKept(_ path: Path, _ what: String) {
        let (box, finite) = walked(path)
        let kept = path.controlBounds
        #expect(kept.allFinite == finite, "\(what): finite")
        if let box {
            #expect(kept.minX == box.minX && kept.maxX == box.maxX && kept.minY == box.minY && kept.maxY == box.maxY,
                    "\(what): \(kept) against \(box)")
            if finite {
                #expect(path.controlPointBounds == Rect(x: box.minX, y: box.minY, width: box.maxX - box.minX,
                                                        height: box.maxY - box.minY), "\(what)")
            }
        } else {
            #expect(!(kept.minX <= kept.maxX), "\(what): empty")
            #expect(path.controlPointBounds == .zero, "\(what)")
        }
    }

    @Test("The control bounds kept as a path is built are its elements' bounds, through every builder, and a NaN or infinite point marks them not finite")
    func keptThroughEveryBuilder() {
        var random = SeededRandom(seed: 0xB0B5)
        let stroker = Stroker()
        for n in 0..<300 {
            var path = Path()
            for _ in 0..<random.int(in: 0...12) {
                switch random.int(in: 0...9) {
                case 0: path.move(to: random.point(-50...50))
                case 1, 2: path.line(to: random.point(-50...50))
                case 3: path.quad(to: random.point(-50...50), control: random.point(-80...80))
                case 4: path.cubic(to: random.point(-50...50), control1: random.point(-80...80),
                                   control2: random.point(-80...80))
                case 5: path.close()
                case 6: path.addRect(Rect(x: random.double(in: -20...20), y: random.double(in: -20...20),
                                          width: random.double(in: 0...30), height: random.double(in: 0...30)))
                case 7: path.addEllipse(in: Rect(x: random.double(in: -20...20), y: 3, width: 9, height: random.double(in: 1...9)))
                case 8: path.addArc(center: random.point(-20...20), radius: random.double(in: 1...9), startAngle: 0,
                                    endAngle: random.double(in: -6...6), clockwise: random.bool())
                default:
                    var other = Path()
                    other.move(to: random.point(-90...90))
                    other.cubic(to: random.point(-90...90), control1: random.point(-99...99), control2: random.point(-99...99))
                    if random.bool() { path.append(contentsOf: other) } else { path.append(continuing: other) }
                }
            }
            if n % 10 == 0 { path.line(to: Point([Double.nan, .infinity, -.infinity][n / 10 % 3], 4)) }
            Self.expectKept(path, "case \(n)")
            Self.expectKept(path.applying(AffineTransform(a: 0.5, b: 0.3, c: -0.2, d: 2, tx: 7, ty: -3)), "case \(n), mapped")
            Self.expectKept(path.trimmed(from: 0.2, to: 0.7), "case \(n), trimmed")
            var outline = Path.rect(Rect(x: 500, y: 500, width: 1, height: 1))
            stroker.stroke(path, style: StrokeStyle(lineWidth: 3), tolerance: 0.1, into: &outline)
            Self.expectKept(outline, "case \(n), stroked into a reused path")
            var reused = Path.rect(Rect(x: -500, y: -500, width: 1, height: 1))
            reused.removeAll(keepingCapacity: true)
            Self.expectKept(reused, "case \(n), emptied")
            reused.append(contentsOf: path)
            Self.expectKept(reused, "case \(n), copied into a reused path")
        }
    }
}

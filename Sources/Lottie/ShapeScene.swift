import Geometry

/// A shape layer's contents at one frame, flattened: every path in pixel coordinates, every paint with the paths
/// it covers, and every trim with the paths it cuts.
///
/// Items are visited in file order, depth first. A path is added to `shapes`; a paint or trim covers the shapes
/// added since its group began, which are exactly the paths above it in its group and in the groups above it.
/// Paints are therefore listed top first, so they are drawn in reverse.
struct ShapeScene {
    struct PaintUse {
        var item: ShapeItem
        /// The paint's group, mapped to pixels: a stroke's width and a gradient's points are in its units.
        var matrix: AffineTransform
        /// The opacities of the groups around the paint, multiplied.
        var opacity: Double
        var shapes: Range<Int>
    }

    var shapes: [Path] = []
    var paints: [PaintUse] = []
    var trims: [(trim: Trim, shapes: Range<Int>)] = []

    mutating func collect(_ items: [ShapeItem], frame: Double, matrix: AffineTransform, opacity: Double) {
        let begin = shapes.count
        for item in items {
            switch item {
            case .group(let contents, let transform):
                let o = Swift.min(Swift.max(transform.opacity.scalar(at: frame) / 100, 0), 1)
                collect(contents, frame: frame, matrix: transform.matrix(at: frame).concatenating(matrix),
                        opacity: opacity * o)
            case .rectangle(let p, let s, let r, let reversed):
                add(ShapeGeometry.rectangle(center: p.value(at: frame), size: s.value(at: frame),
                                            roundness: r.scalar(at: frame)), reversed, matrix)
            case .ellipse(let p, let s, let reversed):
                add(ShapeGeometry.ellipse(center: p.value(at: frame), size: s.value(at: frame)), reversed, matrix)
            case .path(let shape, let reversed):
                if let bezier = shape.value(at: frame) { add(bezier, reversed, matrix) }
            case .star(let star):
                add(ShapeGeometry.star(star, at: frame), star.reversed, matrix)
            case .fill, .stroke:
                paints.append(PaintUse(item: item, matrix: matrix, opacity: opacity, shapes: begin..<shapes.count))
            case .trim(let trim):
                trims.append((trim, begin..<shapes.count))
            case .transform:
                continue
            }
        }
    }

    private mutating func add(_ shape: BezierShape, _ reversed: Bool, _ matrix: AffineTransform) {
        var path = Path()
        shape.append(to: &path, reversed: reversed)
        shapes.append(path.applying(matrix))
    }

    /// Cuts the paths by every trim, inner groups' trims first, as they were met.
    mutating func applyTrims(frame: Double) {
        for (trim, range) in trims where !range.isEmpty {
            var s = trim.start.scalar(at: frame) / 100, e = trim.end.scalar(at: frame) / 100
            guard s.isFinite, e.isFinite else { continue }
            s = Swift.min(Swift.max(s, 0), 1)
            e = Swift.min(Swift.max(e, 0), 1)
            if s > e { swap(&s, &e) }
            var offset = trim.offset.scalar(at: frame) / 360
            offset = offset.isFinite ? offset - offset.rounded(.down) : 0
            if e - s >= 1 { continue }
            let from = s + offset, to = e + offset
            if trim.individually {
                // The paths one after another, as a single path would be: each gets its share of the range.
                let lengths = range.map { shapes[$0].length() }
                let total = lengths.reduce(0, +)
                guard total > 0 else { continue }
                var before = 0.0
                for (k, index) in range.enumerated() {
                    let len = lengths[k]
                    let a = before / total, b = (before + len) / total
                    before += len
                    shapes[index] = ShapeScene.cut(shapes[index], from: from, to: to, spanning: a, b)
                }
            } else {
                for index in range { shapes[index] = ShapeScene.cut(shapes[index], from: from, to: to, spanning: 0, 1) }
            }
        }
    }

    /// The part of a path that covers `a…b` of the whole, kept where it meets `from…to` (which may pass 1 and then
    /// wraps round to the start).
    static func cut(_ path: Path, from: Double, to: Double, spanning a: Double, _ b: Double) -> Path {
        guard b > a else { return Path() }
        var out = Path()
        for (lo, hi) in [(from, Swift.min(to, 1)), (0, to - 1)] where hi > lo {
            let s = (Swift.max(lo, a) - a) / (b - a), e = (Swift.min(hi, b) - a) / (b - a)
            if e > s { out.append(contentsOf: path.trimmed(from: s, to: e)) }
        }
        return out
    }
}

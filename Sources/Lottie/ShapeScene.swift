import Geometry

/// A shape layer's contents at one frame, flattened: every path in pixel coordinates, every paint with the paths
/// it covers, and every trim with the paths it cuts.
///
/// Items are visited in file order, depth first. A path is added to `shapes`; a paint or trim covers the shapes
/// added since its group began, which are exactly the paths above it in its group and in the groups above it.
/// Paints are therefore listed top first, so they are drawn in reverse.
///
/// One scene is kept by the renderer and filled again for every shape layer of every frame: its paths, lists and
/// scratch shapes keep their storage, so that once they have grown to the largest layer seen, a frame allocates
/// nothing. Only the first `count` paths of `shapes` belong to the current layer.
struct ShapeScene {
    struct PaintUse {
        var item: ShapeItem
        /// The paint's group, mapped to pixels: a stroke's width and a gradient's points are in its units.
        var matrix: AffineTransform
        /// The opacities of the groups around the paint, multiplied.
        var opacity: Double
        var shapes: Range<Int>
    }

    private(set) var shapes: [Path] = []
    private(set) var count = 0
    private(set) var paints: [PaintUse] = []
    private var trims: [(trim: Trim, shapes: Range<Int>)] = []
    /// A parametric shape (rectangle, ellipse, star) before it is appended as a path, and the same rounded.
    private var scratch = BezierShape.empty, roundedScratch = BezierShape.empty
    /// The rounded-corner modifiers of the groups being visited, outermost group first, each with its place in its
    /// group; `roundingLevels` holds where each group's modifiers begin, and `groupPlaces` the place of each inner
    /// group in the group around it. A modifier rounds the paths above it in its group, inner groups' included.
    private var roundings: [(place: Int, radius: Double)] = []
    private var roundingLevels: [Int] = [], groupPlaces: [Int] = []
    /// A trimmed path being built, swapped with the path it replaces, and one piece of it.
    private var cutPath = Path(), piece = Path()

    /// Empties the scene for the next layer, keeping every buffer.
    mutating func reset() {
        count = 0
        paints.removeAll(keepingCapacity: true)
        trims.removeAll(keepingCapacity: true)
        roundings.removeAll(keepingCapacity: true)
        roundingLevels.removeAll(keepingCapacity: true)
        groupPlaces.removeAll(keepingCapacity: true)
    }

    /// The most paths one layer's scene holds: copies of copies past it are not added.
    static let maxShapes = 100_000

    mutating func collect(_ items: [ShapeItem], frame: Double, matrix: AffineTransform, opacity: Double) {
        enterGroup(items, frame: frame)
        collect(items[...], frame: frame, matrix: matrix, opacity: opacity)
        leaveGroup()
    }

    /// Notes the rounded-corner modifiers of a group about to be visited.
    private mutating func enterGroup(_ items: [ShapeItem], frame: Double) {
        roundingLevels.append(roundings.count)
        for place in items.indices {
            if case .roundCorners(let radius) = items[place] {
                let r = radius.scalar(at: frame)
                if r > 0, r.isFinite { roundings.append((place, r)) }
            }
        }
    }

    private mutating func leaveGroup() {
        roundings.removeSubrange(roundingLevels.removeLast()...)
    }

    private mutating func collect(_ items: ArraySlice<ShapeItem>, frame: Double, matrix: AffineTransform,
                                  opacity: Double) {
        let begin = count
        var rest = items
        // The last repeater of the group copies the items above it, each copy a group of its own (so that a paint
        // among them covers its copy's paths only); an earlier repeater is repeated within each copy.
        if let r = items.lastIndex(where: { if case .repeater = $0 { true } else { false } }),
           case .repeater(let repeater) = items[r] {
            let copies = repeater.copies(at: frame)
            for index in 0..<copies.count {
                guard count < ShapeScene.maxShapes else { break }
                let copy = copies.copy(index)
                collect(items[..<r], frame: frame, matrix: copy.matrix.concatenating(matrix),
                        opacity: opacity * copy.opacity)
            }
            rest = items[(r + 1)...]
        }
        for place in rest.indices {
            let item = rest[place]
            switch item {
            case .group(let contents, let transform):
                let o = unitClamped(transform.opacity.scalar(at: frame) / 100)
                groupPlaces.append(place)
                enterGroup(contents, frame: frame)
                collect(contents[...], frame: frame, matrix: transform.matrix(at: frame).concatenating(matrix),
                        opacity: opacity * o)
                leaveGroup()
                groupPlaces.removeLast()
            case .rectangle(let p, let s, let r, let reversed):
                ShapeGeometry.rectangle(center: p.sample(at: frame), size: s.sample(at: frame),
                                        roundness: r.scalar(at: frame), into: &scratch)
                addScratch(reversed, matrix, place: place)
            case .ellipse(let p, let s, let reversed):
                ShapeGeometry.ellipse(center: p.sample(at: frame), size: s.sample(at: frame), into: &scratch)
                addScratch(reversed, matrix, place: place)
            case .path(let shape, let reversed):
                if roundings.isEmpty {
                    let i = nextShape()
                    shape.append(at: frame, to: &shapes[i], reversed: reversed, transform: matrix)
                } else {
                    shape.sample(at: frame, into: &scratch)
                    addScratch(reversed, matrix, place: place)
                }
            case .star(let star):
                ShapeGeometry.star(star, at: frame, into: &scratch)
                addScratch(star.reversed, matrix, place: place)
            case .fill, .stroke:
                paints.append(PaintUse(item: item, matrix: matrix, opacity: opacity, shapes: begin..<count))
            case .trim(let trim):
                trims.append((trim, begin..<count))
            case .transform, .repeater, .roundCorners:
                continue
            }
        }
    }

    /// The index of a new, empty path at the end of the scene.
    private mutating func nextShape() -> Int {
        if count == shapes.count { shapes.append(Path()) } else { shapes[count].removeAll(keepingCapacity: true) }
        count += 1
        return count - 1
    }

    /// Appends `scratch`, the shape at `place` in the innermost group, rounded by the modifiers that cover it:
    /// its own group's below it first, then each outer group's below the group that holds it, as lottie-web
    /// applies them.
    private mutating func addScratch(_ reversed: Bool, _ matrix: AffineTransform, place: Int) {
        var level = roundingLevels.count - 1, below = place
        while level >= 0 && !roundings.isEmpty {
            let end = level + 1 < roundingLevels.count ? roundingLevels[level + 1] : roundings.count
            for r in roundingLevels[level]..<end where roundings[r].place > below {
                scratch.rounded(radius: roundings[r].radius, into: &roundedScratch)
                swap(&scratch, &roundedScratch)
            }
            if level > 0 { below = groupPlaces[level - 1] }
            level -= 1
        }
        let i = nextShape()
        scratch.append(to: &shapes[i], reversed: reversed, transform: matrix)
    }

    /// Cuts the paths by every trim, inner groups' trims first, as they were met.
    mutating func applyTrims(frame: Double) {
        for t in trims.indices where !trims[t].shapes.isEmpty {
            let (trim, range) = trims[t]
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
                var total = 0.0
                for index in range { total += shapes[index].length() }
                guard total > 0 else { continue }
                var before = 0.0
                for index in range {
                    let len = shapes[index].length()
                    let a = before / total, b = (before + len) / total
                    before += len
                    cut(index, from: from, to: to, spanning: a, b)
                }
            } else {
                for index in range { cut(index, from: from, to: to, spanning: 0, 1) }
            }
        }
    }

    /// Replaces path `index` by its part that covers `a…b` of the whole, kept where it meets `from…to` (which may
    /// pass 1 and then wraps round to the start).
    private mutating func cut(_ index: Int, from: Double, to: Double, spanning a: Double, _ b: Double) {
        cutPath.removeAll(keepingCapacity: true)
        if b > a {
            keep(index, from, Swift.min(to, 1), spanning: a, b)
            // The part past 1 comes round from the start: all of it when the offset took both ends past 1. On a
            // closed path kept through its end, it carries on the same contour, which a fill closes once
            // (docs/reference.md §8).
            let through = shapes[index].elements.last == .close && Swift.min(to, 1) >= b && from - 1 <= a
            keep(index, Swift.max(from - 1, 0), to - 1, spanning: a, b, continuing: through)
        }
        swap(&shapes[index], &cutPath)
    }

    /// Appends to `cutPath` the part of path `index` (which covers `a…b` of the whole) inside `lo…hi`, carrying
    /// on its last contour when `continuing` and the part starts where that contour ends.
    private mutating func keep(_ index: Int, _ lo: Double, _ hi: Double, spanning a: Double, _ b: Double,
                               continuing: Bool = false) {
        guard hi > lo else { return }
        let s = (Swift.max(lo, a) - a) / (b - a), e = (Swift.min(hi, b) - a) / (b - a)
        guard e > s else { return }
        shapes[index].trimmed(from: s, to: e, into: &piece)
        if continuing { cutPath.append(continuing: piece) } else { cutPath.append(contentsOf: piece) }
    }
}

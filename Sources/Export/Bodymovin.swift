#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import Colors
import Geometry
import Layers
import Lottie
import Raster
import UserFiles

/// Writes frames of filled paths (a header's drawing, `LayerRecording`) as a Bodymovin (Lottie) document that every
/// player draws alike: one shape layer per path of the drawing, in its order, each a group of Bézier paths with a
/// solid fill or a radial gradient fill (a shadow), and a rectangular mask where the path is cut; no transform,
/// stroke, matte or effect for a player to read otherwise. Paths that keep
/// their topology from frame to frame are keyframed linearly, so a player in between draws their blend; where it
/// changes, hold keyframes; a keyframe a straight line through its neighbours already gives is left out, so a still
/// path costs one (docs/export.md).
public struct Bodymovin {
    /// The composition's size in points, its frame rate, and its frames' drawings.
    public var size: Size
    public var frameRate: Double
    public var frames: [[LayerRecording.Shape]]
    public var markers: [LottieMarker]
    /// The composition's name.
    public var name: String

    public init(size: Size, frameRate: Double, frames: [[LayerRecording.Shape]], markers: [LottieMarker],
                name: String) {
        self.size = size
        self.frameRate = frameRate
        self.frames = frames
        self.markers = markers
        self.name = name
    }

    /// How far a kept keyframe's interpolation may stray from a left-out sample, in points (and colour units of 0–1).
    static let tolerance = 0.005

    /// The document, as compact JSON.
    public var json: String {
        let count = Swift.max(1, frames.count)
        let columns = Bodymovin.columns(frames)
        var layers: [String] = []
        // Lottie draws its first layer on top: the drawing's last path first.
        for (slot, shapes) in columns.enumerated().reversed() {
            layers.append(layer(slot, shapes, frameCount: count))
        }
        let markerText = markers.map {
            "{\"tm\":" + Bodymovin.number($0.start) + ",\"cm\":" + JSONText.string($0.name) + ",\"dr\":"
                + Bodymovin.number($0.duration) + "}"
        }
        return "{\"v\":\"5.7.4\",\"fr\":\(Bodymovin.number(frameRate)),\"ip\":0,\"op\":\(count),"
            + "\"w\":\(Bodymovin.number(size.width)),\"h\":\(Bodymovin.number(size.height)),"
            + "\"nm\":\(JSONText.string(name)),\"ddd\":0,\"assets\":[],"
            + "\"layers\":[" + layers.joined(separator: ",") + "],\"markers\":[" + markerText.joined(separator: ",") + "]}"
    }

    /// The frames' shapes in columns, one shape layer each, bottom first: each frame's shapes in their order, each in
    /// the first column after the last one it used that holds its kind (a stroke of a path of the same make, or a
    /// fill), in a new one there when none does. A stroke and a fill that take turns in the drawing's order (an arc
    /// hidden while an arrowhead shows) keep columns of their own, and each column is written as what it holds.
    static func columns(_ frames: [[LayerRecording.Shape]]) -> [[LayerRecording.Shape?]] {
        func kind(_ shape: LayerRecording.Shape) -> String {
            guard shape.fade == nil, let stroke = shape.stroke else { return "fill" }
            return "stroke \(stroke.style.lineCap) \(stroke.style.lineJoin) "
                + beziers(of: stroke.path).map { "\($0.values.count)\($0.isClosed ? "c" : "o")" }.joined(separator: " ")
        }
        var kinds: [String] = [], columns: [[LayerRecording.Shape?]] = []
        for (f, shapes) in frames.enumerated() {
            var next = 0
            for shape in shapes {
                let k = kind(shape)
                if let found = (next..<kinds.count).first(where: { kinds[$0] == k && columns[$0][f] == nil }) {
                    columns[found][f] = shape
                    next = found + 1
                } else {
                    kinds.insert(k, at: next)
                    columns.insert(Array(repeating: nil, count: frames.count), at: next)
                    columns[next][f] = shape
                    next += 1
                }
            }
        }
        return columns
    }

    /// The shape layer of the drawing's `slot`-th column: a stroke turned and trimmed frame by frame, or Bézier
    /// paths with a solid fill for the frames it is solid and a radial gradient fill for those it fades (each at
    /// opacity 0 in the other's frames); and a mask where the path is cut to a rectangle.
    private func layer(_ slot: Int, _ shapes: [LayerRecording.Shape?], frameCount: Int) -> String {
        let rule = shapes.lazy.compactMap { $0 }.first?.rule ?? .nonZero
        let group: String
        if let strokes = Bodymovin.strokes(shapes) {
            group = Bodymovin.strokeGroup(shapes, strokes)
        } else {
            group = fillGroup(shapes, rule: rule)
        }
        return "{\"ddd\":0,\"ind\":\(slot + 1),\"ty\":4,\"nm\":\"path \(slot + 1)\",\"sr\":1,"
            + "\"ks\":{\"o\":{\"a\":0,\"k\":100},\"r\":{\"a\":0,\"k\":0},\"p\":{\"a\":0,\"k\":[0,0,0]},"
            + "\"a\":{\"a\":0,\"k\":[0,0,0]},\"s\":{\"a\":0,\"k\":[100,100,100]}},"
            + "\"ao\":0," + mask(shapes) + "\"shapes\":[" + group + "],\"ip\":0,"
            + "\"op\":\(frameCount),\"st\":0,\"bm\":0}"
    }

    /// The `"sh"` items of a path each frame (nil: none), one per subpath.
    static func pathItems(_ paths: [Path?]) -> [String] {
        let beziers = paths.map { path in path.map { Bodymovin.beziers(of: $0) } ?? [] }
        let pathCount = beziers.map(\.count).max() ?? 0
        var items: [String] = []
        for index in 0..<pathCount {
            let values: [[Double]] = beziers.map { index < $0.count ? $0[index].values : [] }
            let closed = beziers.map { index < $0.count ? $0[index].isClosed : false }
            items.append("{\"ty\":\"sh\",\"ks\":" + Bodymovin.property(values) { values, i in
                Bodymovin.bezierJSON(values[i], closed: closed[i])
            } + "}")
        }
        return items
    }

    /// A column's strokes, when it holds strokes (`columns(_:)` puts a stroke only with strokes of a path of the same
    /// make, cap and join), to be written as one stroke turned and trimmed frame by frame; else nil.
    static func strokes(_ shapes: [LayerRecording.Shape?]) -> [LayerRecording.Stroke?]? {
        guard let first = shapes.lazy.compactMap({ $0 }).first, first.fade == nil, first.stroke != nil else { return nil }
        return shapes.map { $0?.stroke }
    }

    /// A slot of strokes as a group: the path in its layer's coordinates, a trim, the stroke, and the layer's
    /// move, turn and scale as the group's transform.
    private static func strokeGroup(_ shapes: [LayerRecording.Shape?], _ strokes: [LayerRecording.Stroke?]) -> String {
        func number(_ values: [[Double]], _ i: Int) -> String { Bodymovin.number(values[i][0]) }
        func array(_ values: [[Double]], _ i: Int) -> String {
            "[" + values[i].map(Bodymovin.number).joined(separator: ",") + "]"
        }
        var items = pathItems(strokes.map { $0?.path })
        let starts = carried(strokes.map { $0.map { [$0.start * 100] } })
        let ends = carried(strokes.map { $0.map { [$0.end * 100] } })
        items.append("{\"ty\":\"tm\",\"s\":" + property(starts, text: number) + ",\"e\":" + property(ends, text: number)
            + ",\"o\":{\"a\":0,\"k\":0},\"m\":1}")
        let style = strokes.lazy.compactMap { $0?.style }.first ?? StrokeStyle(lineWidth: 1)
        let colors = carried(shapes.map { $0.map { [$0.color.red, $0.color.green, $0.color.blue, 1] } })
        let alphas = shapes.map { [($0?.color.alpha ?? 0) * 100] }
        let widths = carried(strokes.map { $0.map { [$0.style.lineWidth] } })
        let cap = [LineCap.butt: 1, .round: 2, .square: 3][style.lineCap] ?? 1
        let join = [LineJoin.miter: 1, .round: 2, .bevel: 3][style.lineJoin] ?? 1
        items.append("{\"ty\":\"st\",\"c\":" + property(colors, isArray: true, text: array) + ",\"o\":"
            + property(alphas, text: number) + ",\"w\":" + property(widths, text: number)
            + ",\"lc\":\(cap),\"lj\":\(join),\"ml\":" + Bodymovin.number(style.miterLimit) + "}")
        items.append(transformItem(strokes.map { $0?.transform }))
        return "{\"ty\":\"gr\",\"it\":[" + items.joined(separator: ",") + "]}"
    }

    /// A group's transform (`"tr"`) from each frame's move, turn and even scale (nil: the last one's): the turn in
    /// degrees, unwrapped from frame to frame so that a keyframe never turns the long way round.
    static func transformItem(_ transforms: [AffineTransform?]) -> String {
        func number(_ values: [[Double]], _ i: Int) -> String { Bodymovin.number(values[i][0]) }
        func array(_ values: [[Double]], _ i: Int) -> String {
            "[" + values[i].map(Bodymovin.number).joined(separator: ",") + "]"
        }
        var turned = 0.0
        var angles: [[Double]?] = []
        for m in transforms {
            guard let m else { angles.append(nil); continue }
            var delta = (atan2(m.b, m.a) * 180 / Double.pi - turned).truncatingRemainder(dividingBy: 360)
            if delta > 180 { delta -= 360 } else if delta <= -180 { delta += 360 }
            turned += delta
            angles.append([turned])
        }
        let positions = carried(transforms.map { $0.map { [$0.tx, $0.ty] } })
        let scales = carried(transforms.map { m in
            m.map { m -> [Double] in
                let k = (m.a * m.a + m.b * m.b).squareRoot() * 100
                return [k, k]
            }
        })
        return "{\"ty\":\"tr\",\"p\":" + property(positions, isArray: true, text: array)
            + ",\"a\":{\"a\":0,\"k\":[0,0]},\"s\":" + property(scales, isArray: true, text: array) + ",\"r\":"
            + property(carried(angles), text: number) + ",\"o\":{\"a\":0,\"k\":100}}"
    }

    /// When every path of a column is its first path moved, turned and evenly scaled (within a hundredth of a
    /// point), each frame's move, turn and scale from the first; else nil. A spinner's spoke stepping round, an
    /// arrow turning over or a dot moving is then one path and a transform's keyframes.
    static func rigidMotion(_ paths: [Path?]) -> [AffineTransform?]? {
        let values = paths.map { path in path.map { beziers(of: $0) } }
        guard let base = values.lazy.compactMap({ $0 }).first, !base.isEmpty else { return nil }
        let make = base.map { ($0.values.count, $0.isClosed) }
        // Two points of the path far apart fix the similarity: the first vertex and the one farthest from it.
        let points = base.flatMap { b in stride(from: 0, to: b.values.count, by: 6).map { Point(b.values[$0], b.values[$0 + 1]) } }
        guard let p0 = points.first, let far = points.indices.max(by: { (points[$0] - p0).length < (points[$1] - p0).length }),
              (points[far] - p0).length > 0.5 else { return nil }
        let pk = points[far], u = pk - p0
        var transforms: [AffineTransform?] = []
        for frame in values {
            guard let frame else { transforms.append(nil); continue }
            guard frame.map({ ($0.values.count, $0.isClosed) }).elementsEqual(make, by: ==) else { return nil }
            let q = frame.flatMap { b in stride(from: 0, to: b.values.count, by: 6).map { Point(b.values[$0], b.values[$0 + 1]) } }
            let v = q[far] - q[0]
            // s·R as the complex ratio v / u; then the move that puts p0 on q0.
            let d = u.x * u.x + u.y * u.y
            let a = (v.x * u.x + v.y * u.y) / d, b = (v.y * u.x - v.x * u.y) / d
            let m = AffineTransform(a: a, b: b, c: -b, d: a, tx: q[0].x - (a * p0.x - b * p0.y), ty: q[0].y - (b * p0.x + a * p0.y))
            guard a * a + b * b > 1e-6 else { return nil }
            for (x, y) in zip(base, frame) {
                var k = 0
                while k + 5 < x.values.count {
                    let p = m.apply(Point(x.values[k], x.values[k + 1]))
                    let i = Point(a * x.values[k + 2] - b * x.values[k + 3], b * x.values[k + 2] + a * x.values[k + 3])
                    let o = Point(a * x.values[k + 4] - b * x.values[k + 5], b * x.values[k + 4] + a * x.values[k + 5])
                    if (p - Point(y.values[k], y.values[k + 1])).length > 0.01
                        || (i - Point(y.values[k + 2], y.values[k + 3])).length > 0.01
                        || (o - Point(y.values[k + 4], y.values[k + 5])).length > 0.01 { return nil }
                    k += 6
                }
            }
            transforms.append(m)
        }
        return transforms
    }

    /// A slot of filled paths as a group: its paths (one path and a transform's keyframes when they only move, turn
    /// and scale), a solid fill and a radial gradient fill as its frames need.
    private func fillGroup(_ shapes: [LayerRecording.Shape?], rule: FillRule) -> String {
        let paths = shapes.map { $0?.path }
        // A gradient's points are in the group's coordinates: a fading column keeps its paths where they are drawn.
        let motion = shapes.contains { $0?.fade != nil } ? nil : Bodymovin.rigidMotion(paths)
        var items: [String]
        if motion != nil, let base = paths.lazy.compactMap({ $0 }).first {
            items = Bodymovin.pathItems([base])
        } else {
            items = Bodymovin.pathItems(paths)
        }
        // Where a fill is not the frame's, it keeps its neighbours' values at opacity 0, so it costs no keyframes.
        let solids = shapes.map { $0?.fade == nil ? $0 : nil }, fades = shapes.map { $0?.fade != nil ? $0 : nil }
        func number(_ values: [[Double]], _ i: Int) -> String { Bodymovin.number(values[i][0]) }
        func array(_ values: [[Double]], _ i: Int) -> String {
            "[" + values[i].map(Bodymovin.number).joined(separator: ",") + "]"
        }
        if solids.contains(where: { $0 != nil }) {
            let colors = Bodymovin.carried(solids.map { $0.map { [$0.color.red, $0.color.green, $0.color.blue, 1] } })
            let alphas = solids.map { [($0?.color.alpha ?? 0) * 100] }
            items.append("{\"ty\":\"fl\",\"c\":" + Bodymovin.property(colors, isArray: true, text: array)
                + ",\"o\":" + Bodymovin.property(alphas, text: number)
                + ",\"r\":\(rule == .evenOdd ? 2 : 1)}")
        }
        if fades.contains(where: { $0 != nil }) {
            let stops = fades.compactMap { $0?.fade?.stops.count }.max() ?? 0
            let gradients = Bodymovin.carried(fades.map { shape in
                shape.flatMap { s in s.fade.map { f in
                    let c = s.color
                    return f.stops.flatMap { [$0.offset, c.red, c.green, c.blue] } + f.stops.flatMap { [$0.offset, $0.alpha] }
                } }
            })
            let centers = Bodymovin.carried(fades.map { $0?.fade.map { [$0.center.x, $0.center.y] } })
            let edges = Bodymovin.carried(fades.map { $0?.fade.map { [$0.center.x + $0.radius, $0.center.y] } })
            let alphas = fades.map { [($0?.color.alpha ?? 0) * 100] }
            items.append("{\"ty\":\"gf\",\"t\":2,\"g\":{\"p\":\(stops),\"k\":"
                + Bodymovin.property(gradients, isArray: true, text: array) + "},\"s\":"
                + Bodymovin.property(centers, isArray: true, text: array) + ",\"e\":"
                + Bodymovin.property(edges, isArray: true, text: array)
                + ",\"h\":{\"a\":0,\"k\":0},\"a\":{\"a\":0,\"k\":0},\"o\":"
                + Bodymovin.property(alphas, text: number) + ",\"r\":\(rule == .evenOdd ? 2 : 1)}")
        }
        items.append(Bodymovin.transformItem(motion ?? [.identity]))
        return "{\"ty\":\"gr\",\"it\":[" + items.joined(separator: ",") + "]}"
    }

    /// The mask of a slot whose path is cut to a rectangle in some frames (`"hasMask"` and `"masksProperties"`, with
    /// a trailing comma), or nothing. A frame whose path is not cut keeps the nearest cut frame's rectangle when the
    /// path lies inside it, so a still clip costs no keyframes; else a rectangle around the whole composition.
    private func mask(_ shapes: [LayerRecording.Shape?]) -> String {
        guard shapes.contains(where: { $0?.clip != nil }) else { return "" }
        let everything = Rect(x: -size.width, y: -size.height, width: 3 * size.width, height: 3 * size.height)
        // Cut to a little more than the composition: a player may fail on a mask of huge numbers.
        let cuts = Bodymovin.carried(shapes.map { shape in
            shape?.clip.map { $0.intersection(everything) }.map { [$0.minX, $0.minY, $0.maxX, $0.maxY] }
        })
        let rects: [[Double]] = shapes.indices.map { i in
            let r = Rect(x: cuts[i][0], y: cuts[i][1], width: cuts[i][2] - cuts[i][0], height: cuts[i][3] - cuts[i][1])
            guard let shape = shapes[i], shape.clip == nil, !r.contains(shape.path.controlPointBounds) else {
                return Bodymovin.beziers(of: Path.rect(r))[0].values
            }
            return Bodymovin.beziers(of: Path.rect(everything))[0].values
        }
        return "\"hasMask\":true,\"masksProperties\":[{\"inv\":false,\"mode\":\"a\",\"nm\":\"clip\",\"pt\":"
            + Bodymovin.property(rects) { values, i in Bodymovin.bezierJSON(values[i], closed: true) }
            + ",\"o\":{\"a\":0,\"k\":100},\"x\":{\"a\":0,\"k\":0}}],"
    }

    /// `values` with each missing value replaced by the last one before it, or the first one after it at the
    /// start (empty when there is none).
    static func carried(_ values: [[Double]?]) -> [[Double]] {
        let first = values.lazy.compactMap { $0 }.first ?? []
        var last = first
        return values.map { value in
            if let value { last = value }
            return last
        }
    }

    /// A property with one value per frame: still when every frame's is the same; else keyframes where the values
    /// change, linear between frames whose values have as many numbers, held where they do not, and only the frames a
    /// straight line through the kept ones does not give. `text` writes frame `i`'s value.
    /// A keyframe's value is an array: `text`'s own when `isArray` (a colour's), else `text` in one (a number, a path).
    static func property(_ values: [[Double]], isArray: Bool = false,
                         text: ([[Double]], Int) -> String) -> String {
        guard let first = values.first else { return "{\"a\":0,\"k\":0}" }
        if values.allSatisfy({ $0 == first }) { return "{\"a\":0,\"k\":" + text(values, 0) + "}" }
        var kept = [0]
        var i = 1
        while i < values.count {
            // Extend the run from the last kept frame while every frame between lies on the straight line to `i`.
            let from = kept[kept.count - 1]
            if values[i].count != values[from].count {
                if i - 1 != from { kept.append(i - 1) }
                kept.append(i)
            } else if i + 1 < values.count, values[i + 1].count == values[from].count,
                      liesOnLine(values, from: from, to: i + 1) {
                // `i` is given by the line from `from` to `i + 1`: left out for now.
            } else {
                kept.append(i)
            }
            i += 1
        }
        var keyframes: [String] = []
        var previousHeld = false
        for (n, frame) in kept.enumerated() {
            let next = n + 1 < kept.count ? kept[n + 1] : nil
            // Held when the next keyframe's value has another shape (a path of other vertices), or at the end.
            let held = next.map { values[$0].count != values[frame].count } ?? true
            func value(_ i: Int) -> String { isArray ? text(values, i) : "[" + text(values, i) + "]" }
            var key = "{\"t\":\(frame),\"s\":" + value(frame)
            if held {
                // After a held keyframe, "e" (the next keyframe's value, or its own at the end): rlottie takes a
                // keyframe without one as the held keyframe's end, and a held path ending in a path of other
                // vertices draws neither; ThorVG takes "e" as the next keyframe's value.
                key += n > 0 && previousHeld ? ",\"e\":" + value(next ?? frame) + ",\"h\":1" : ",\"h\":1"
            } else if let next {
                // Linear to the next keyframe's value, given as "e" too: rlottie reads a segment before a held
                // keyframe wrongly without it (measured: classic's frame 60 off by 3 levels).
                key += ",\"e\":" + value(next) + ",\"o\":{\"x\":[0],\"y\":[0]},\"i\":{\"x\":[1],\"y\":[1]}"
            }
            keyframes.append(key + "}")
            previousHeld = held
        }
        return "{\"a\":1,\"k\":[" + keyframes.joined(separator: ",") + "]}"
    }

    /// Whether every frame strictly between `from` and `to` is what a straight line from `from` to `to` gives there.
    private static func liesOnLine(_ values: [[Double]], from: Int, to: Int) -> Bool {
        let a = values[from], b = values[to]
        guard a.count == b.count else { return false }
        for f in (from + 1)..<to {
            let v = values[f]
            guard v.count == a.count else { return false }
            let t = Double(f - from) / Double(to - from)
            for k in v.indices where Swift.abs(a[k] + (b[k] - a[k]) * t - v[k]) > tolerance { return false }
        }
        return true
    }

    // MARK: Paths

    /// One closed or open Bézier path as Lottie writes it, flattened: each vertex's point, in tangent and out
    /// tangent (relative to the point), six numbers a vertex.
    struct Bezier {
        var values: [Double] = []
        var isClosed = false
    }

    /// `path`'s subpaths as Lottie Béziers: lines with no tangents, quadratic curves raised to cubic ones.
    static func beziers(of path: Path) -> [Bezier] {
        var result: [Bezier] = []
        var vertices: [(p: Point, i: Point, o: Point)] = []
        var closed = false
        func finish() {
            if vertices.count > 1, let first = vertices.first, let last = vertices.last, closed,
               (last.p - first.p).length < 1e-9 {
                // The closing point repeats the first: its in tangent is the first's.
                vertices[0].i = last.i
                vertices.removeLast()
            }
            if !vertices.isEmpty {
                result.append(Bezier(values: vertices.flatMap { [$0.p.x, $0.p.y, $0.i.x, $0.i.y, $0.o.x, $0.o.y] },
                                     isClosed: closed))
            }
            vertices = []
            closed = false
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                finish()
                vertices.append((p, .zero, .zero))
            case .line(let p):
                if vertices.isEmpty { vertices.append((p, .zero, .zero)) } else { vertices.append((p, .zero, .zero)) }
            case .quad(let c, let p):
                guard let last = vertices.last else { continue }
                let c1 = last.p + (c - last.p) * (2.0 / 3), c2 = p + (c - p) * (2.0 / 3)
                vertices[vertices.count - 1].o = c1 - last.p
                vertices.append((p, c2 - p, .zero))
            case .cubic(let c1, let c2, let p):
                guard let last = vertices.last else { continue }
                vertices[vertices.count - 1].o = c1 - last.p
                vertices.append((p, c2 - p, .zero))
            case .close:
                closed = true
                finish()
            }
        }
        finish()
        return result
    }

    /// A Bézier's JSON: `{"c":…,"v":[…],"i":[…],"o":[…]}`.
    static func bezierJSON(_ values: [Double], closed: Bool) -> String {
        var v: [String] = [], i: [String] = [], o: [String] = []
        var k = 0
        while k + 5 < values.count {
            v.append("[" + number(values[k]) + "," + number(values[k + 1]) + "]")
            i.append("[" + number(values[k + 2]) + "," + number(values[k + 3]) + "]")
            o.append("[" + number(values[k + 4]) + "," + number(values[k + 5]) + "]")
            k += 6
        }
        return "{\"c\":\(closed),\"v\":[" + v.joined(separator: ",") + "],\"i\":[" + i.joined(separator: ",")
            + "],\"o\":[" + o.joined(separator: ",") + "]}"
    }

    /// A number to a hundredth (of a point, a 300th of a pixel at 3×), as short as it writes: 12, 0.5, -3.13.
    static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return JSONText.number(rounded == 0 ? 0 : rounded)
    }
}

import Geometry
import Raster

/// The coverage a fill must give each pixel, computed in the plainest way there is: slow, and meant to be
/// obviously right, so that the production rasterizers (`Rasterizer`, `MaskRasterizer`) can be checked against it.
///
/// What coverage means, for it and for them: a pixel's coverage is the fill rule applied to the integral of the
/// winding number over the part of the pixel inside the clip. Non-zero takes its magnitude and saturates at 1;
/// even-odd folds it every two windings (1 is inside, 2 outside). Where the winding number inside a pixel only
/// takes the values 0 and ±1 (any pixel with no crossing of the outline) this is the exact area covered; it is the
/// convention of FreeType, cairo and Blend2D too.
///
/// How: each contour, a closed polygon of flattened edges, is clipped (Sutherland–Hodgman) to the pixel's square
/// intersected with the clip box, and the signed area (shoelace) of what is left is added to the pixel. Clipping a
/// closed polygon to a convex region keeps its winding number at every point inside the region and makes it 0
/// outside, so the sum over contours is the winding integral. Everything is in `Double`; nothing is cached,
/// fixed-point, or skipped but whole rows and columns the contour does not reach. A contour is first clipped to
/// the canvas (and clip box), then to each pixel row, then to each pixel of that row, which keeps the cost
/// proportional to the pixels the contour touches; geometry at ±1e5 is clipped away exactly in the first step.
///
/// It lives in test support, not in Raster: production never calls it.
public enum ReferenceRasterizer {
    /// Per-pixel coverage (0…1, row after row) of `edges`, straight edges in pixel coordinates that form closed
    /// contours (each edge starts where the previous one ended, and a contour ends where it began), on a
    /// `width × height` canvas, inside `clip` when given.
    public static func coverage(edges: [(Point, Point)], rule: FillRule, clip: Rect? = nil,
                                width: Int, height: Int) -> [Double] {
        var winding = [Double](repeating: 0, count: width * height)
        var region = Box(minX: 0, minY: 0, maxX: Double(width), maxY: Double(height))
        if let clip {
            region = Box(minX: max(region.minX, clip.minX), minY: max(region.minY, clip.minY),
                         maxX: min(region.maxX, clip.maxX), maxY: min(region.maxY, clip.maxY))
        }
        guard region.minX < region.maxX, region.minY < region.maxY else { return winding }
        for contour in contours(of: edges) {
            let inside = clipped(contour, to: region)
            guard let bounds = Box(of: inside) else { continue }
            for row in Int(bounds.minY.rounded(.down))..<Int(bounds.maxY.rounded(.up)) where row >= 0 && row < height {
                let band = clipped(inside, to: Box(minX: region.minX, minY: Double(row),
                                                   maxX: region.maxX, maxY: Double(row + 1)))
                guard let b = Box(of: band) else { continue }
                for column in Int(b.minX.rounded(.down))..<Int(b.maxX.rounded(.up)) where column >= 0 && column < width {
                    let cell = clipped(band, to: Box(minX: Double(column), minY: Double(row),
                                                     maxX: Double(column + 1), maxY: Double(row + 1)))
                    winding[row * width + column] += signedArea(cell)
                }
            }
        }
        return winding.map { w in
            let a = abs(w)
            switch rule {
            case .nonZero: return min(a, 1)
            case .evenOdd:
                let m = a.truncatingRemainder(dividingBy: 2)
                return m > 1 ? 2 - m : m
            }
        }
    }

    /// The coverage of `path` as `Rasterizer.fill` flattens it (mapped through `transform`, curves split within
    /// `tolerance`): the same edges go to both, so the comparison is of scan conversion alone.
    public static func coverage(_ path: Path, transform: AffineTransform = .identity,
                                tolerance: Double = Rasterizer.defaultTolerance, rule: FillRule, clip: Rect? = nil,
                                width: Int, height: Int) -> [Double] {
        var sink = EdgeList()
        path.flattenForFill(transform: transform, tolerance: tolerance, into: &sink)
        return coverage(edges: sink.edges, rule: rule, clip: clip, width: width, height: height)
    }

    /// Coverage as the 8-bit alpha an exact rasterizer would write: rounded to the nearest 1/255.
    public static func alpha(_ coverage: [Double]) -> [UInt8] {
        coverage.map { UInt8((min(max($0, 0), 1) * 255).rounded()) }
    }

    /// The edges, collected as `flattenForFill` gives them.
    public struct EdgeList: EdgeSink {
        public var edges: [(Point, Point)] = []
        public init() {}
        public mutating func addEdge(from p0: Point, to p1: Point) { edges.append((p0, p1)) }
    }

    /// Chains edges into closed polygons: a new contour begins wherever an edge does not start where the last
    /// one ended.
    static func contours(of edges: [(Point, Point)]) -> [[Point]] {
        var result: [[Point]] = []
        var current: [Point] = []
        for (a, b) in edges {
            if let last = current.last, last != a {
                result.append(current)
                current = []
            }
            if current.isEmpty { current.append(a) }
            current.append(b)
        }
        if !current.isEmpty { result.append(current) }
        // The polygon's last point is its first again: the shoelace and the clipper close it themselves.
        return result.map { $0.count > 1 && $0.first == $0.last ? Array($0.dropLast()) : $0 }
    }

    /// An axis-aligned box.
    struct Box {
        var minX, minY, maxX, maxY: Double

        init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
            self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
        }

        /// The bounds of `points`; nil when there are fewer than three (no area).
        init?(of points: [Point]) {
            guard points.count >= 3 else { return nil }
            minX = points.map(\.x).min()!; maxX = points.map(\.x).max()!
            minY = points.map(\.y).min()!; maxY = points.map(\.y).max()!
        }
    }

    /// Sutherland–Hodgman: `polygon` cut by the four half-planes of `box`, one after the other.
    static func clipped(_ polygon: [Point], to box: Box) -> [Point] {
        var p = polygon
        p = clip(p, inside: { $0.x >= box.minX }, cross: { a, b in at(x: box.minX, a, b) })
        p = clip(p, inside: { $0.x <= box.maxX }, cross: { a, b in at(x: box.maxX, a, b) })
        p = clip(p, inside: { $0.y >= box.minY }, cross: { a, b in at(y: box.minY, a, b) })
        p = clip(p, inside: { $0.y <= box.maxY }, cross: { a, b in at(y: box.maxY, a, b) })
        return p
    }

    /// One Sutherland–Hodgman pass: keeps the points inside, and adds the crossing point wherever an edge goes in
    /// or out.
    static func clip(_ polygon: [Point], inside: (Point) -> Bool, cross: (Point, Point) -> Point) -> [Point] {
        guard !polygon.isEmpty else { return [] }
        var out: [Point] = []
        var previous = polygon[polygon.count - 1]
        for current in polygon {
            switch (inside(previous), inside(current)) {
            case (true, true): out.append(current)
            case (true, false): out.append(cross(previous, current))
            case (false, true): out.append(cross(previous, current)); out.append(current)
            case (false, false): break
            }
            previous = current
        }
        return out
    }

    /// The point of segment `a`–`b` at abscissa `x` (the segment crosses it); exactly `x`, whatever the rounding.
    static func at(x: Double, _ a: Point, _ b: Point) -> Point {
        Point(x, a.y + (b.y - a.y) * ((x - a.x) / (b.x - a.x)))
    }

    /// The point of segment `a`–`b` at ordinate `y`.
    static func at(y: Double, _ a: Point, _ b: Point) -> Point {
        Point(a.x + (b.x - a.x) * ((y - a.y) / (b.y - a.y)), y)
    }

    /// The shoelace formula; positive for a polygon that turns clockwise on screen (y down).
    static func signedArea(_ polygon: [Point]) -> Double {
        guard polygon.count >= 3 else { return 0 }
        var sum = 0.0
        var previous = polygon[polygon.count - 1]
        for p in polygon {
            sum += previous.x * p.y - p.x * previous.y
            previous = p
        }
        return sum / 2
    }
}

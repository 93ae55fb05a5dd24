import Foundation
import Geometry
@testable import Raster
import TestSupport

/// The alpha of every pixel, 0…255, of a canvas drawn on transparent black.
func alphas(_ canvas: Canvas) -> [Int] {
    (0..<canvas.pixelCount).map { Int(canvas.pixels[$0] >> 24) }
}

/// The sum of all pixels' coverage, in pixels, of a canvas drawn on transparent black with an opaque colour.
func coveredArea(_ canvas: Canvas) -> Double {
    alphas(canvas).reduce(0.0) { $0 + Double($1) / 255 }
}

/// A closed polygon through `points`.
func polygon(_ points: [Point]) -> Path {
    var p = Path()
    p.move(to: points[0])
    for q in points.dropFirst() { p.line(to: q) }
    p.close()
    return p
}

/// A polygon clipped to an axis-aligned rectangle (Sutherland–Hodgman against each side in turn).
func clipped(_ points: [Point], to r: Rect) -> [Point] {
    var poly = points
    // Each side of the rectangle as a signed distance, positive inside.
    let sides: [(Point) -> Double] = [{ $0.x - r.minX }, { r.maxX - $0.x }, { $0.y - r.minY }, { r.maxY - $0.y }]
    for inside in sides {
        guard !poly.isEmpty else { return [] }
        var out: [Point] = []
        for i in poly.indices {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            let da = inside(a), db = inside(b)
            if da >= 0 { out.append(a) }
            if (da >= 0) != (db >= 0) { out.append(a.lerp(to: b, da / (da - db))) }
        }
        poly = out
    }
    return poly
}

/// The unsigned area of a simple polygon (shoelace formula).
func area(_ poly: [Point]) -> Double {
    guard poly.count >= 3 else { return 0 }
    var twice = 0.0
    for i in poly.indices {
        let a = poly[i], b = poly[(i + 1) % poly.count]
        twice += a.x * b.y - b.x * a.y
    }
    return abs(twice) / 2
}

/// Exact coverage of pixel (x, y) by a simple (not self-intersecting) polygon: the area of the polygon clipped to
/// the pixel's square. The reference that the rasterizer's cell arithmetic is checked against, independent of it
/// in every step.
func exactCoverage(of points: [Point], pixelX x: Int, y: Int) -> Double {
    area(clipped(points, to: Rect(x: Double(x), y: Double(y), width: 1, height: 1)))
}

/// The largest difference, in levels of alpha, between the pixels of `canvas` and the exact coverage of the polygon
/// `points`, and the pixel where it is. Columns wholly left or right of the polygon are compared with zero unclipped.
func worstAreaDifference(_ canvas: Canvas, _ points: [Point]) -> (levels: Double, x: Int, y: Int) {
    let left = points.map(\.x).min() ?? 0, right = points.map(\.x).max() ?? 0
    var worst = (levels: 0.0, x: 0, y: 0)
    for y in 0..<canvas.height {
        for x in 0..<canvas.width {
            let outside = Double(x + 1) < left || Double(x) > right
            let exact = outside ? 0 : exactCoverage(of: points, pixelX: x, y: y) * 255
            let off = abs(Double(canvas[x, y] >> 24) - exact)
            if off > worst.levels { worst = (off, x, y) }
        }
    }
    return worst
}

/// Random points on a circle's perimeter, sorted by angle: a convex polygon.
func randomConvexPolygon(_ rng: inout SeededRandom, center: Point, radius: Double, count: Int) -> [Point] {
    var angles = (0..<count).map { _ in rng.double(in: 0...(2 * Double.pi)) }
    angles.sort()
    return angles.map { Point(center.x + radius * cos($0), center.y + radius * sin($0)) }
}


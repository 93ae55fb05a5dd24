import Testing
@testable import Geometry

/// Building into reused paths gives what the allocating calls give, and keeps the storage.
@Suite struct PathReuseTests {
    func spinnerArc() -> Path {
        var p = Path()
        p.addArc(center: Point(10, 10), radius: 8, startAngle: -Double.pi / 2, endAngle: Double.pi, clockwise: true)
        p.line(to: Point(30, 10))
        return p
    }

    @Test func removeAllKeepsTheBufferWhenAsked() {
        var p = spinnerArc()
        let capacity = p.elements.capacity
        p.removeAll(keepingCapacity: true)
        #expect(p.isEmpty && p.currentPoint == nil && p.contourStart == .zero)
        #expect(p.elements.capacity == capacity)
        // Drawing again starts a contour, as in a new path.
        p.line(to: Point(1, 2))
        #expect(p.elements == [.move(Point(1, 2))])
        p.removeAll()
        #expect(p.elements.capacity == 0)
    }

    @Test func trimmingIntoAPathEqualsTrimmed() {
        let arc = spinnerArc()
        var out = Path.rect(Rect(x: 0, y: 0, width: 1, height: 1))
        for (a, b) in [(0.0, 1.0), (0.1, 0.6), (0.5, 0.5), (0.7, 0.2), (-1, 2), (Double.nan, 0.3), (0.25, 1)] {
            arc.trimmed(from: a, to: b, into: &out)
            #expect(out == arc.trimmed(from: a, to: b))
        }
    }

    @Test func strokingIntoAPathEqualsStroke() {
        let stroker = Stroker()
        let style = StrokeStyle(lineWidth: 3, lineCap: .round, lineJoin: .round)
        var outline = Path.rect(Rect(x: 0, y: 0, width: 1, height: 1))
        for end in [0.2, 0.9, 0.4] {
            let piece = spinnerArc().trimmed(from: 0.05, to: end)
            stroker.stroke(piece, style: style, tolerance: 0.05, into: &outline)
            #expect(outline == stroker.stroke(piece, style: style, tolerance: 0.05))
        }
    }

    @Test func appendingAPathKeepsItsContours() {
        var p = Path()
        p.append(contentsOf: spinnerArc())
        #expect(p == spinnerArc())
        p.append(contentsOf: Path.rect(Rect(x: 40, y: 0, width: 2, height: 2)))
        #expect(p.elements.count == spinnerArc().elements.count + Path.rect(Rect(x: 40, y: 0, width: 2, height: 2)).elements.count)
        #expect(p.currentPoint == Point(40, 0))
    }

    /// A thread gathers a whole batch's outlines in one list: stroking into it adds to it in place, whatever the
    /// sink. (The stroker's edge sink once held a copy of the caller's sink; a sink keeping its edges in an array then
    /// shared that array's storage, and the first edge added copied all that it already held.)
    @Test func strokingIntoASinkAddsToItInPlace() {
        let stroker = Stroker()
        let style = StrokeStyle(lineWidth: 3, lineCap: .round, lineJoin: .round, miterLimit: 10, dashPattern: [],
                                dashPhase: 0)
        var edges = EdgeList()
        for i in 0..<2000 { edges.addEdge(from: Point(Double(i), 0), to: Point(Double(i), 1)) }
        edges.removeAll()
        for i in 0..<30 { edges.addEdge(from: Point(Double(i), 2), to: Point(Double(i), 3)) }
        let storage = edges.ends.baseAddress
        stroker.stroke(spinnerArc(), style: style, tolerance: 0.1, transform: .identity, into: &edges)
        #expect(edges.ends.baseAddress == storage)
        // What the list held is kept, and the outline follows it.
        #expect(edges.count > 30 && edges.ends[29] == Point(14, 3))
        var alone = EdgeList()
        stroker.stroke(spinnerArc(), style: style, tolerance: 0.1, transform: .identity, into: &alone)
        #expect(Array(edges.ends[60...]) == Array(alone.ends))

        // The same through the generic form, into a sink of value type that keeps its edges in an array.
        var array = ArrayEdges()
        array.ends.reserveCapacity(4 * edges.count)
        for i in 0..<30 { array.addEdge(from: Point(Double(i), 2), to: Point(Double(i), 3)) }
        let arrayStorage = array.ends.withUnsafeBufferPointer { $0.baseAddress }
        stroker.stroke(spinnerArc(), style: style, tolerance: 0.1, transform: .identity, into: &array)
        #expect(array.ends.withUnsafeBufferPointer { $0.baseAddress } == arrayStorage)
        #expect(array.ends == Array(edges.ends))
    }

    /// Edges in an array, a sink of value type.
    struct ArrayEdges: EdgeSink {
        var ends: [Point] = []
        mutating func addEdge(from p0: Point, to p1: Point) {
            ends.append(p0)
            ends.append(p1)
        }
    }
}

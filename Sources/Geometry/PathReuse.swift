/// Building paths again into storage they already own: what a frame that changes geometry uses so that, once the
/// buffers have grown to the largest path seen, it allocates nothing.
extension Path {
    /// Removes every element; with `keepingCapacity` the element buffer stays allocated for the next build.
    public mutating func removeAll(keepingCapacity: Bool = false) {
        elements.removeAll(keepingCapacity: keepingCapacity)
        controlBounds = ControlBounds()
        contourStart = .zero
        currentPoint = nil
    }

    /// Appends the elements of `other` as they are, continuing from its current point and contour start.
    public mutating func append(contentsOf other: Path) {
        guard !other.isEmpty else { return }
        if elements.isEmpty {
            // The common case (a copy into reused storage): the elements are already well formed.
            elements.append(contentsOf: other.elements)
            controlBounds = other.controlBounds
            contourStart = other.contourStart
            currentPoint = other.currentPoint
        } else {
            for e in other.elements { append(e) }
        }
    }

    /// Appends `other`, carrying on the current contour when `other` starts where that contour ends (its first
    /// move left out); otherwise as `append(contentsOf:)`.
    public mutating func append(continuing other: Path) {
        guard let current = currentPoint, case .move(let start)? = other.elements.first,
              current.distance(to: start) <= 1e-9 * Swift.max(1, Swift.abs(start.x) + Swift.abs(start.y))
        else { return append(contentsOf: other) }
        for e in other.elements.dropFirst() { append(e) }
    }
}

extension Stroker {
    /// The outline of `path` stroked with `style`, written into `outline`, which is emptied first and keeps its
    /// storage (the same outline as `stroke(_:style:tolerance:)`).
    public func stroke(_ path: Path, style: StrokeStyle, tolerance: Double, into outline: inout Path) {
        var sink = PathOutlineSink()
        // Moved in and out by swapping, so that the buffer stays uniquely owned and is never copied.
        swap(&sink.path, &outline)
        sink.path.removeAll(keepingCapacity: true)
        stroke(path, style: style, tolerance: tolerance, into: &sink)
        swap(&sink.path, &outline)
    }
}

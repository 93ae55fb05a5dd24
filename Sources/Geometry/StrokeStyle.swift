/// The shape at the open ends of a stroke, as SVG's `stroke-linecap` (raw values are the SVG names).
public enum LineCap: String, Hashable, Sendable, CaseIterable {
    /// Ends flat at the end point; a zero-length segment draws nothing.
    case butt
    /// A half disc around the end point; a zero-length segment draws a dot.
    case round
    /// A half square beyond the end point; a zero-length segment draws a square.
    case square
}

/// The shape where two segments of a stroke meet, as SVG's `stroke-linejoin`.
public enum LineJoin: String, Hashable, Sendable, CaseIterable {
    /// The outer edges extended to their meeting point, unless that is farther than the miter limit allows.
    case miter
    /// A circular arc around the corner.
    case round
    /// The outer corners joined by a straight line.
    case bevel
}

/// How a path is stroked: as `CAShapeLayer`'s line properties and SVG's stroke attributes.
public struct StrokeStyle: Hashable, Sendable {
    /// The stroke's full width, centred on the path; 0 or less draws nothing.
    public var lineWidth: Double
    public var lineCap: LineCap
    public var lineJoin: LineJoin
    /// The longest a miter may be, as a multiple of the line width, before the join falls back to a bevel
    /// (SVG's `stroke-miterlimit`; 10 is SVG's and Core Graphics' default).
    public var miterLimit: Double
    /// Alternating lengths of dashes and gaps; empty (or all zero, or with a negative entry) draws a solid line.
    /// An odd count repeats the pattern twice, as SVG does.
    public var dashPattern: [Double]
    /// How far into the pattern the first dash starts.
    public var dashPhase: Double

    public init(lineWidth: Double = 1, lineCap: LineCap = .butt, lineJoin: LineJoin = .miter, miterLimit: Double = 10,
                dashPattern: [Double] = [], dashPhase: Double = 0) {
        self.lineWidth = lineWidth
        self.lineCap = lineCap
        self.lineJoin = lineJoin
        self.miterLimit = miterLimit
        self.dashPattern = dashPattern
        self.dashPhase = dashPhase
    }

    /// The default style: width 1, butt caps, miter joins, limit 10, no dashes.
    public static let `default` = StrokeStyle()

    /// The dash pattern to apply, or nil for a solid line.
    var effectiveDashes: [Double]? {
        guard !dashPattern.isEmpty, dashPattern.allSatisfy({ $0 >= 0 && $0.isFinite }) else { return nil }
        let sum = dashPattern.reduce(0, +)
        guard sum > 0, sum.isFinite else { return nil }
        return dashPattern.count % 2 == 1 ? dashPattern + dashPattern : dashPattern
    }
}

/// Malformed SVG path data: where the parser stopped and what it found there.
public struct SVGPathError: Error, CustomStringConvertible, Hashable, Sendable {
    /// The offset of the bad token, counted in characters (Unicode scalars) from 0; the data's length at its end.
    public var offset: Int
    /// The text found at `offset` (up to the next separator), or "" at the end of the data.
    public var token: String
    /// What the parser expected there.
    public var expected: String

    public init(offset: Int, token: String, expected: String) {
        self.offset = offset
        self.token = token
        self.expected = expected
    }

    public var description: String {
        let found = token.isEmpty ? "the end of the data" : "\"\(token)\""
        return "SVG path data: expected \(expected) at offset \(offset) but found \(found); "
            + "fix the path string there (grammar: SVG 1.1 section 8.3)"
    }
}

extension Path {
    /// Parses SVG path data (the `d` attribute): every command of SVG 1.1, absolute and relative (M L H V C S Q T
    /// A Z), implicit repeats, numbers such as `1e-3`, `.5.5` and `-1-2`, arc flags without separators.
    ///
    ///     let p = try Path(svgPathData: "M10 10 h80 v80 h-80 z")
    ///
    /// Any malformed data throws an error naming the offset and the token there; nothing is drawn up to it.
    public init(svgPathData data: String) throws(SVGPathError) {
        self.init()
        var parser = SVGPathParser(Array(data.utf8))
        try parser.parse(into: &self)
    }
}

/// A one-pass reader of SVG path data over its UTF-8 bytes.
struct SVGPathParser {
    let bytes: [UInt8]
    var i = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    // ASCII codes the grammar is made of.
    static let space: UInt8 = 0x20, tab: UInt8 = 0x09, lf: UInt8 = 0x0A, ff: UInt8 = 0x0C, cr: UInt8 = 0x0D
    static let comma: UInt8 = 0x2C, plus: UInt8 = 0x2B, minus: UInt8 = 0x2D, dot: UInt8 = 0x2E
    static let zero: UInt8 = 0x30, nine: UInt8 = 0x39, lowerE: UInt8 = 0x65, upperE: UInt8 = 0x45

    @inline(__always) static func isSpace(_ c: UInt8) -> Bool { c == space || c == tab || c == lf || c == cr || c == ff }
    @inline(__always) static func isDigit(_ c: UInt8) -> Bool { c >= zero && c <= nine }
    @inline(__always) static func startsNumber(_ c: UInt8) -> Bool { isDigit(c) || c == plus || c == minus || c == dot }

    mutating func skipSpaces() {
        while i < bytes.count, SVGPathParser.isSpace(bytes[i]) { i += 1 }
    }

    /// Skips `wsp* (',' wsp*)?`, the separator allowed between two arguments; true when it held a comma.
    @discardableResult
    mutating func skipSeparator() -> Bool {
        skipSpaces()
        if i < bytes.count, bytes[i] == SVGPathParser.comma {
            i += 1
            skipSpaces()
            return true
        }
        return false
    }

    /// The error for the token at `at`.
    func error(at: Int, expected: String) -> SVGPathError {
        var end = at
        let isLetter = { (c: UInt8) in (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A && (c | 0x20) != SVGPathParser.lowerE }
        while end < bytes.count, end - at < 24 {
            let c = bytes[end]
            if SVGPathParser.isSpace(c) || c == SVGPathParser.comma { break }
            if end > at, isLetter(c), !isLetter(bytes[at]) { break }
            end += 1
        }
        if end == at, at < bytes.count { end = at + 1 }
        // Do not cut a multi-byte character in two.
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        let token = String(decoding: bytes[at..<end], as: UTF8.self)
        let offset = String(decoding: bytes[0..<at], as: UTF8.self).unicodeScalars.count
        return SVGPathError(offset: offset, token: token, expected: expected)
    }

    /// Exact powers of ten that a Double holds without rounding, for the fast path of number conversion.
    static let exactPowersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]

    /// Reads `sign? (digits ('.' digits?)? | '.' digits) (('e'|'E') sign? digits)?`.
    mutating func number() throws(SVGPathError) -> Double {
        let start = i
        var negative = false
        if i < bytes.count, bytes[i] == SVGPathParser.plus || bytes[i] == SVGPathParser.minus {
            negative = bytes[i] == SVGPathParser.minus
            i += 1
        }
        var mantissa: UInt64 = 0, digits = 0, scale = 0, sawDigit = false, exact = true
        while i < bytes.count, SVGPathParser.isDigit(bytes[i]) {
            sawDigit = true
            if digits < 19 {
                mantissa = mantissa &* 10 &+ UInt64(bytes[i] - SVGPathParser.zero)
                if mantissa != 0 { digits += 1 }
            } else { scale += 1; exact = false }
            i += 1
        }
        if i < bytes.count, bytes[i] == SVGPathParser.dot {
            i += 1
            while i < bytes.count, SVGPathParser.isDigit(bytes[i]) {
                sawDigit = true
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[i] - SVGPathParser.zero)
                    if mantissa != 0 { digits += 1 }
                    scale -= 1
                } else { exact = false }
                i += 1
            }
        }
        guard sawDigit else {
            i = start
            throw error(at: start, expected: "a number")
        }
        if i < bytes.count, bytes[i] == SVGPathParser.lowerE || bytes[i] == SVGPathParser.upperE {
            var j = i + 1
            var expNegative = false
            if j < bytes.count, bytes[j] == SVGPathParser.plus || bytes[j] == SVGPathParser.minus {
                expNegative = bytes[j] == SVGPathParser.minus
                j += 1
            }
            guard j < bytes.count, SVGPathParser.isDigit(bytes[j]) else {
                i = start
                throw error(at: start, expected: "a number (an exponent needs digits)")
            }
            var e = 0
            while j < bytes.count, SVGPathParser.isDigit(bytes[j]) {
                if e < 100_000 { e = e * 10 + Int(bytes[j] - SVGPathParser.zero) }
                j += 1
            }
            scale += expNegative ? -e : e
            i = j
        }
        var value: Double
        if exact, mantissa < (1 << 53), Swift.abs(scale) <= 22 {
            // Clinger's fast path: both factors are exact, so one rounding gives the correctly rounded result.
            let m = Double(mantissa)
            value = scale >= 0 ? m * SVGPathParser.exactPowersOfTen[scale] : m / SVGPathParser.exactPowersOfTen[-scale]
        } else {
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            value = Double(text) ?? (negative ? -Double.infinity : Double.infinity)
            return value
        }
        return negative ? -value : value
    }

    /// Reads an arc flag: a single `0` or `1`, which needs no separator after it.
    mutating func flag() throws(SVGPathError) -> Bool {
        guard i < bytes.count, bytes[i] == SVGPathParser.zero || bytes[i] == SVGPathParser.zero + 1 else {
            throw error(at: i, expected: "an arc flag (0 or 1)")
        }
        i += 1
        return bytes[i - 1] == SVGPathParser.zero + 1
    }

    /// A coordinate pair, each number followed by an optional separator.
    mutating func pair() throws(SVGPathError) -> Point {
        let x = try number()
        skipSeparator()
        let y = try number()
        return Point(x, y)
    }

    /// True when another argument group follows (an implicit repeat of the last command).
    func argumentFollows() -> Bool {
        i < bytes.count && SVGPathParser.startsNumber(bytes[i])
    }

    mutating func parse(into path: inout Path) throws(SVGPathError) {
        skipSpaces()
        if i >= bytes.count { return }
        var current = Point.zero
        var lastCubicControl: Point?   // second control point of the previous C/S, for S
        var lastQuadControl: Point?    // control point of the previous Q/T, for T
        var first = true
        while true {
            skipSpaces()
            guard i < bytes.count else { return }
            let commandOffset = i
            let c = bytes[i]
            let command = c | 0x20  // lower case
            let relative = c == command
            guard "mlhvcsqtaz".utf8.contains(command), c >= 0x41 else {
                throw error(at: i, expected: "a path command (M L H V C S Q T A Z)")
            }
            if first && command != UInt8(ascii: "m") {
                throw error(at: commandOffset, expected: "a moveto (M or m) to begin the path")
            }
            i += 1
            skipSpaces()
            if command == UInt8(ascii: "z") {
                path.close()
                current = path.currentPoint ?? current
                lastCubicControl = nil; lastQuadControl = nil
                first = false
                continue
            }
            var repeatCount = 0
            repeat {
                let base = relative ? current : Point.zero
                var cubicControl: Point? = nil, quadControl: Point? = nil
                switch command {
                case UInt8(ascii: "m"):
                    // The first pair of a relative moveto at the start of the data is absolute.
                    let p = try pair() + (first ? .zero : base)
                    if repeatCount == 0 { path.move(to: p) } else { path.line(to: p) }
                    current = p
                case UInt8(ascii: "l"):
                    let p = try pair() + base
                    path.line(to: p); current = p
                case UInt8(ascii: "h"):
                    let p = Point(try number() + base.x, current.y)
                    path.line(to: p); current = p
                case UInt8(ascii: "v"):
                    let p = Point(current.x, try number() + base.y)
                    path.line(to: p); current = p
                case UInt8(ascii: "c"):
                    let c1 = try pair() + base
                    skipSeparator()
                    let c2 = try pair() + base
                    skipSeparator()
                    let p = try pair() + base
                    path.cubic(to: p, control1: c1, control2: c2)
                    current = p; cubicControl = c2
                case UInt8(ascii: "s"):
                    let c1 = lastCubicControl.map { current * 2 - $0 } ?? current
                    let c2 = try pair() + base
                    skipSeparator()
                    let p = try pair() + base
                    path.cubic(to: p, control1: c1, control2: c2)
                    current = p; cubicControl = c2
                case UInt8(ascii: "q"):
                    let c1 = try pair() + base
                    skipSeparator()
                    let p = try pair() + base
                    path.quad(to: p, control: c1)
                    current = p; quadControl = c1
                case UInt8(ascii: "t"):
                    let c1 = lastQuadControl.map { current * 2 - $0 } ?? current
                    let p = try pair() + base
                    path.quad(to: p, control: c1)
                    current = p; quadControl = c1
                default: // "a"
                    let rx = try number()
                    skipSeparator()
                    let ry = try number()
                    skipSeparator()
                    let rotation = try number()
                    skipSeparator()
                    let large = try flag()
                    skipSeparator()
                    let sweep = try flag()
                    skipSeparator()
                    let p = try pair() + base
                    path.addSVGArc(to: p, rx: rx, ry: ry, xAxisRotation: rotation, largeArc: large, sweep: sweep)
                    current = p
                }
                lastCubicControl = cubicControl
                lastQuadControl = quadControl
                first = false
                repeatCount += 1
                // A comma must be followed by another argument group.
                if skipSeparator(), !argumentFollows() {
                    throw error(at: i, expected: "a number after the comma")
                }
            } while argumentFollows()
        }
    }
}

/// A colour in sRGB with straight (not premultiplied) alpha; components run from 0 to 1.
///
/// Its small members are inlinable: the modules that draw call them in their loops, and a build without
/// cross-module optimisation (CMake's) would otherwise make each a call.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    @inlinable
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour from 8-bit components, as docs/reference.md lists them (for example `Color(rgb: 90, 200, 200)`).
    @inlinable
    public init(rgb r: Int, _ g: Int, _ b: Int, alpha: Double = 1) {
        self.init(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, alpha: alpha)
    }

    /// A grey of the given white level, as `UIColor(white:alpha:)`.
    @inlinable
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA` (the leading `#` is optional); nil when the text is not such a colour.
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.first == "#" { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else { return nil }
        let v = digits.count == 6 ? (value << 8) | 0xFF : value
        self.init(rgb: Int(v >> 24), Int((v >> 16) & 0xFF), Int((v >> 8) & 0xFF), alpha: Double(v & 0xFF) / 255)
    }

    public static let black = Color(white: 0)
    public static let white = Color(white: 1)
    public static let clear = Color(white: 0, alpha: 0)

    public var description: String {
        func hex(_ v: Double) -> String {
            let b = Color.byte(v)
            return (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true)
        }
        return "#" + hex(red) + hex(green) + hex(blue) + hex(alpha)
    }

    /// The colour with its alpha multiplied by `opacity`.
    @inlinable
    public func withAlphaMultiplied(by opacity: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha * opacity)
    }

    /// This colour as a premultiplied 32-bit pixel, `0xAARRGGBB` (the layout of SDL's ARGB8888 and cairo's ARGB32).
    @inlinable
    public var premultipliedPixel: UInt32 {
        let a = Color.clamp(alpha)
        let a8 = UInt32(Color.byte(a))
        let r8 = UInt32(Color.byte(Color.clamp(red) * a))
        let g8 = UInt32(Color.byte(Color.clamp(green) * a))
        let b8 = UInt32(Color.byte(Color.clamp(blue) * a))
        return a8 << 24 | r8 << 16 | g8 << 8 | b8
    }

    @inlinable @inline(__always) static func clamp(_ v: Double) -> Double { v.isNaN ? 0 : Swift.min(Swift.max(v, 0), 1) }
    @inlinable @inline(__always) static func byte(_ v: Double) -> Int { Int((clamp(v) * 255).rounded()) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import Colors

/// A value an animation can move: it interpolates, and it adds and subtracts for `by` and additive animations.
public protocol Animatable {
    /// `self` at fraction 0, `other` at 1; fractions outside 0…1 extrapolate (an overshooting timing curve).
    func interpolated(to other: Self, fraction: Double) -> Self
    /// The value moved by `delta`, as a `by` or additive animation applies it.
    func adding(_ delta: Self) -> Self
    /// The change that takes `other` to `self`: `other.adding(self.subtracting(other)) == self`.
    func subtracting(_ other: Self) -> Self
}

extension Double: Animatable {
    public func interpolated(to other: Double, fraction: Double) -> Double { self + (other - self) * fraction }
    public func adding(_ delta: Double) -> Double { self + delta }
    public func subtracting(_ other: Double) -> Double { self - other }
}

extension Point: Animatable {
    public func interpolated(to other: Point, fraction: Double) -> Point { lerp(to: other, fraction) }
    public func adding(_ delta: Point) -> Point { self + delta }
    public func subtracting(_ other: Point) -> Point { self - other }
}

extension Size: Animatable {
    public func interpolated(to other: Size, fraction: Double) -> Size {
        Size(width.interpolated(to: other.width, fraction: fraction), height.interpolated(to: other.height, fraction: fraction))
    }
    public func adding(_ delta: Size) -> Size { Size(width + delta.width, height + delta.height) }
    public func subtracting(_ other: Size) -> Size { Size(width - other.width, height - other.height) }
}

extension Rect: Animatable {
    public func interpolated(to other: Rect, fraction: Double) -> Rect {
        Rect(origin: origin.interpolated(to: other.origin, fraction: fraction),
             size: size.interpolated(to: other.size, fraction: fraction))
    }
    public func adding(_ delta: Rect) -> Rect { Rect(origin: origin + delta.origin, size: size.adding(delta.size)) }
    public func subtracting(_ other: Rect) -> Rect { Rect(origin: origin - other.origin, size: size.subtracting(other.size)) }
}

/// Colours move component by component in straight (unpremultiplied) sRGB, as Core Animation moves `CGColor`s.
extension Color: Animatable {
    public func interpolated(to other: Color, fraction f: Double) -> Color {
        Color(red: red + (other.red - red) * f, green: green + (other.green - green) * f,
              blue: blue + (other.blue - blue) * f, alpha: alpha + (other.alpha - alpha) * f)
    }
    public func adding(_ d: Color) -> Color {
        Color(red: red + d.red, green: green + d.green, blue: blue + d.blue, alpha: alpha + d.alpha)
    }
    public func subtracting(_ o: Color) -> Color {
        Color(red: red - o.red, green: green - o.green, blue: blue - o.blue, alpha: alpha - o.alpha)
    }
}

/// An affine transform split into parts that interpolate naturally: M = T(translation) · R(rotation) · U, with U
/// upper triangular [[scaleX, shear], [0, scaleY]] (a QR decomposition). A half-turn rotation lerped as a matrix
/// collapses through a zero scale; lerped as an angle it turns.
public struct DecomposedTransform: Hashable, Sendable {
    public var translation: Point
    /// Radians, positive from +x towards +y, as `AffineTransform(rotationAngle:)`.
    public var rotation: Double
    public var scaleX: Double
    public var scaleY: Double
    public var shear: Double

    public init(translation: Point = .zero, rotation: Double = 0, scaleX: Double = 1, scaleY: Double = 1, shear: Double = 0) {
        self.translation = translation
        self.rotation = rotation
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.shear = shear
    }

    public init(_ m: AffineTransform) {
        translation = Point(m.tx, m.ty)
        let sx = (m.a * m.a + m.b * m.b).squareRoot()
        if sx == 0 {
            // The first column vanished: no rotation can be read, U is the matrix itself.
            rotation = 0; scaleX = 0; shear = m.c; scaleY = m.d
        } else {
            rotation = atan2(m.b, m.a)
            let cs = m.a / sx, sn = m.b / sx
            scaleX = sx
            shear = cs * m.c + sn * m.d
            scaleY = -sn * m.c + cs * m.d
        }
    }

    public var transform: AffineTransform {
        let cs = cos(rotation), sn = sin(rotation)
        return AffineTransform(a: cs * scaleX, b: sn * scaleX,
                               c: cs * shear - sn * scaleY, d: sn * shear + cs * scaleY,
                               tx: translation.x, ty: translation.y)
    }
}

/// Transforms move through their decomposition (translation, rotation, scale), never by lerping the matrix; the
/// rotation takes the shorter way round. Adding composes parts: translations and angles add, scales multiply.
extension AffineTransform: Animatable {
    public func interpolated(to other: AffineTransform, fraction f: Double) -> AffineTransform {
        let a = DecomposedTransform(self), b = DecomposedTransform(other)
        var turn = b.rotation - a.rotation
        if turn > Double.pi { turn -= 2 * Double.pi } else if turn < -Double.pi { turn += 2 * Double.pi }
        return DecomposedTransform(translation: a.translation.lerp(to: b.translation, f),
                                   rotation: a.rotation + turn * f,
                                   scaleX: a.scaleX + (b.scaleX - a.scaleX) * f,
                                   scaleY: a.scaleY + (b.scaleY - a.scaleY) * f,
                                   shear: a.shear + (b.shear - a.shear) * f).transform
    }

    public func adding(_ delta: AffineTransform) -> AffineTransform {
        let a = DecomposedTransform(self), d = DecomposedTransform(delta)
        return DecomposedTransform(translation: a.translation + d.translation, rotation: a.rotation + d.rotation,
                                   scaleX: a.scaleX * d.scaleX, scaleY: a.scaleY * d.scaleY,
                                   shear: a.shear + d.shear).transform
    }

    public func subtracting(_ other: AffineTransform) -> AffineTransform {
        let a = DecomposedTransform(self), o = DecomposedTransform(other)
        func ratio(_ x: Double, _ y: Double) -> Double { y == 0 ? 1 : x / y }
        return DecomposedTransform(translation: a.translation - o.translation, rotation: a.rotation - o.rotation,
                                   scaleX: ratio(a.scaleX, o.scaleX), scaleY: ratio(a.scaleY, o.scaleY),
                                   shear: a.shear - o.shear).transform
    }
}

/// Paths of the same structure (the same elements in the same order) move point by point. Paths of different
/// structure cannot be matched (Core Animation calls the result undefined): the value switches halfway.
extension Path: Animatable {
    public func interpolated(to other: Path, fraction f: Double) -> Path {
        combined(with: other) { $0.lerp(to: $1, f) } ?? (f < 0.5 ? self : other)
    }

    public func adding(_ delta: Path) -> Path { combined(with: delta) { $0 + $1 } ?? self }

    public func subtracting(_ other: Path) -> Path { combined(with: other) { $0 - $1 } ?? self }

    /// The path whose every point is `op` of the matching points of `self` and `other`; nil when they differ in
    /// structure.
    func combined(with other: Path, _ op: (Point, Point) -> Point) -> Path? {
        guard elements.count == other.elements.count else { return nil }
        var out = Path()
        for (e, o) in zip(elements, other.elements) {
            switch (e, o) {
            case let (.move(p), .move(q)): out.move(to: op(p, q))
            case let (.line(p), .line(q)): out.line(to: op(p, q))
            case let (.quad(c, p), .quad(d, q)): out.quad(to: op(p, q), control: op(c, d))
            case let (.cubic(c1, c2, p), .cubic(d1, d2, q)):
                out.cubic(to: op(p, q), control1: op(c1, d1), control2: op(c2, d2))
            case (.close, .close): out.close()
            default: return nil
            }
        }
        return out
    }
}

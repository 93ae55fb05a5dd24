import Geometry
import Motion
import Raster
import Colors

/// The animatable key paths the layers know, by their iOS names, one bit each; a layer keeps the union of those
/// its animations change, so that a frame looks up only those.
struct AnimatedKeyPaths: OptionSet, Sendable {
    let rawValue: UInt64
    init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Every listed key path with its bit, in the order presentation values are worked out.
    static let names: [String] = [
        "position", "position.x", "position.y",
        "bounds", "bounds.origin", "bounds.origin.x", "bounds.origin.y",
        "bounds.size", "bounds.size.width", "bounds.size.height",
        "anchorPoint", "transform",
        "transform.rotation", "transform.rotation.z", "transform.scale", "transform.scale.x", "transform.scale.y",
        "transform.translation", "transform.translation.x", "transform.translation.y",
        "opacity", "backgroundColor", "cornerRadius", "borderWidth", "borderColor",
        "shadowColor", "shadowOpacity", "shadowRadius", "shadowOffset", "shadowPath",
        "path", "fillColor", "strokeColor", "lineWidth", "strokeStart", "strokeEnd", "lineDashPhase", "miterLimit",
        "foregroundColor", "fontSize",
    ]

    /// The bit of a listed key path; nil for others.
    static func bit(_ name: String) -> AnimatedKeyPaths? {
        names.firstIndex(of: name).map { AnimatedKeyPaths(rawValue: 1 << UInt64($0)) }
    }

    /// The listed key paths that `animation` changes.
    init(_ animation: Animation) {
        var bits: UInt64 = 0
        for (i, name) in AnimatedKeyPaths.names.enumerated() where animation.animates(keyPath: name) {
            bits |= 1 << UInt64(i)
        }
        self.init(rawValue: bits)
    }

    static func at(_ i: Int) -> AnimatedKeyPaths { AnimatedKeyPaths(rawValue: 1 << UInt64(i)) }

    static let position = at(0), positionX = at(1), positionY = at(2)
    static let bounds = at(3), boundsOrigin = at(4), boundsOriginX = at(5), boundsOriginY = at(6)
    static let boundsSize = at(7), boundsWidth = at(8), boundsHeight = at(9)
    static let anchorPoint = at(10), transform = at(11)
    static let rotation = at(12), rotationZ = at(13), scale = at(14), scaleX = at(15), scaleY = at(16)
    static let translation = at(17), translationX = at(18), translationY = at(19)
    static let opacity = at(20), backgroundColor = at(21), cornerRadius = at(22), borderWidth = at(23)
    static let borderColor = at(24), shadowColor = at(25), shadowOpacity = at(26), shadowRadius = at(27)
    static let shadowOffset = at(28), shadowPath = at(29)
    static let path = at(30), fillColor = at(31), strokeColor = at(32), lineWidth = at(33), strokeStart = at(34)
    static let strokeEnd = at(35), lineDashPhase = at(36), miterLimit = at(37)
    static let foregroundColor = at(38), fontSize = at(39)

    /// The key paths that change a part of the transform, read through its decomposition.
    static let transformParts: AnimatedKeyPaths = [rotation, rotationZ, scale, scaleX, scaleY,
                                                   translation, translationX, translationY]
}

/// The values a layer shows at one time: its model values with its animations applied, as `CALayer.presentation()`.
public struct LayerPresentation: Equatable {
    public var bounds: Rect
    public var position: Point
    public var anchorPoint: Point
    public var transform: AffineTransform
    public var opacity: Double
    public var backgroundColor: Color?
    public var cornerRadius: Double
    var borderWidth: Double
    var borderColor: Color?
    public var shadowColor: Color?
    public var shadowOpacity: Double
    public var shadowRadius: Double
    public var shadowOffset: Size
    public var shadowPath: Path?

    /// The frame these values give, as `Layer.frame` computes it from the model.
    public var frame: Rect {
        bounds.boundingBox(through: transformToSuperlayer)
    }

    /// The map from the layer's coordinates to its superlayer's.
    public var transformToSuperlayer: AffineTransform {
        let ax = bounds.minX + anchorPoint.x * bounds.width, ay = bounds.minY + anchorPoint.y * bounds.height
        var t = AffineTransform(translationX: -ax, y: -ay).concatenating(transform)
        t.tx += position.x
        t.ty += position.y
        return t
    }
}

extension Layer {
    /// The model values, as a presentation with no animation.
    var modelValues: LayerPresentation {
        LayerPresentation(bounds: bounds, position: position, anchorPoint: anchorPoint, transform: transform,
                          opacity: opacity, backgroundColor: backgroundColor, cornerRadius: cornerRadius,
                          borderWidth: borderWidth, borderColor: borderColor, shadowColor: shadowColor,
                          shadowOpacity: shadowOpacity, shadowRadius: shadowRadius, shadowOffset: shadowOffset,
                          shadowPath: shadowPath)
    }

    /// The values shown at `time` on the animator's clock: each animated key path is the model value with the
    /// animations of it applied in the order they were added. A part of a value ("position.y") is applied after
    /// the whole ("position"); parts of the transform ("transform.rotation.z", "transform.scale") replace that
    /// part of the decomposed transform, as Core Animation's value functions do.
    public func presentation(at time: Double) -> LayerPresentation {
        var p = modelValues
        let paths = animatedKeyPaths
        guard !paths.isEmpty, let set = animationSet, !set.isEmpty else { return p }
        let t = time
        if !paths.isDisjoint(with: [.position, .positionX, .positionY]) {
            p.position = animated(.position, "position", p.position, t)
            p.position.x = animated(.positionX, "position.x", p.position.x, t)
            p.position.y = animated(.positionY, "position.y", p.position.y, t)
        }
        if !paths.isDisjoint(with: [.bounds, .boundsOrigin, .boundsOriginX, .boundsOriginY,
                                    .boundsSize, .boundsWidth, .boundsHeight]) {
            p.bounds = animated(.bounds, "bounds", p.bounds, t)
            p.bounds.origin = animated(.boundsOrigin, "bounds.origin", p.bounds.origin, t)
            p.bounds.origin.x = animated(.boundsOriginX, "bounds.origin.x", p.bounds.origin.x, t)
            p.bounds.origin.y = animated(.boundsOriginY, "bounds.origin.y", p.bounds.origin.y, t)
            p.bounds.size = animated(.boundsSize, "bounds.size", p.bounds.size, t)
            p.bounds.size.width = animated(.boundsWidth, "bounds.size.width", p.bounds.size.width, t)
            p.bounds.size.height = animated(.boundsHeight, "bounds.size.height", p.bounds.size.height, t)
        }
        p.anchorPoint = animated(.anchorPoint, "anchorPoint", p.anchorPoint, t)
        p.transform = animated(.transform, "transform", p.transform, t)
        if !paths.isDisjoint(with: AnimatedKeyPaths.transformParts) {
            var d = DecomposedTransform(p.transform)
            d.rotation = animated(.rotation, "transform.rotation", d.rotation, t)
            d.rotation = animated(.rotationZ, "transform.rotation.z", d.rotation, t)
            if paths.contains(.scale) {
                let s = animated(.scale, "transform.scale", d.scaleX, t)
                d.scaleX = s
                d.scaleY = s
            }
            d.scaleX = animated(.scaleX, "transform.scale.x", d.scaleX, t)
            d.scaleY = animated(.scaleY, "transform.scale.y", d.scaleY, t)
            let moved = animated(.translation, "transform.translation", Size(d.translation.x, d.translation.y), t)
            d.translation = Point(moved.width, moved.height)
            d.translation.x = animated(.translationX, "transform.translation.x", d.translation.x, t)
            d.translation.y = animated(.translationY, "transform.translation.y", d.translation.y, t)
            p.transform = d.transform
        }
        p.opacity = animated(.opacity, "opacity", p.opacity, t)
        p.backgroundColor = animatedColor(.backgroundColor, "backgroundColor", p.backgroundColor, t)
        p.cornerRadius = animated(.cornerRadius, "cornerRadius", p.cornerRadius, t)
        p.borderWidth = animated(.borderWidth, "borderWidth", p.borderWidth, t)
        p.borderColor = animatedColor(.borderColor, "borderColor", p.borderColor, t)
        p.shadowColor = animatedColor(.shadowColor, "shadowColor", p.shadowColor, t)
        p.shadowOpacity = animated(.shadowOpacity, "shadowOpacity", p.shadowOpacity, t)
        p.shadowRadius = animated(.shadowRadius, "shadowRadius", p.shadowRadius, t)
        p.shadowOffset = animated(.shadowOffset, "shadowOffset", p.shadowOffset, t)
        if paths.contains(.shadowPath) {
            p.shadowPath = animated(.shadowPath, "shadowPath", p.shadowPath ?? Path(), t)
        }
        return p
    }

    /// A colour property's presentation; a nil model colour animates from clear, as a nil `CGColor` does.
    @inline(__always)
    func animatedColor(_ path: AnimatedKeyPaths, _ name: String, _ model: Color?, _ time: Double) -> Color? {
        guard animatedKeyPaths.contains(path) else { return model }
        return animated(path, name, model ?? .clear, time)
    }
}

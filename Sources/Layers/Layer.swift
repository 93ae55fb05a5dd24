import Geometry
import Motion
import Raster
import Colors

/// A rectangle of content in a tree, as `CALayer`.
///
/// Geometry follows Core Animation: `position` is where the `anchorPoint` (a fraction of the bounds) sits in the
/// superlayer; `transform` turns and scales about that point; `frame` is derived from them. Sublayers live in the
/// layer's bounds coordinates, so `bounds.origin` scrolls them. Every property below is the model value; the value
/// drawn at a time t is the presentation value, the model with the layer's animations applied
/// (`presentation(at:)`).
///
/// ```swift
/// let disc = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 40))
/// disc.backgroundColor = .white
/// disc.cornerRadius = 20
/// disc.shadowOpacity = 0.15
/// let fade = BasicAnimation<Double>(keyPath: "opacity", from: 0, to: 1)
/// fade.duration = 0.3
/// disc.add(fade, forKey: "fade")
/// disc.render(into: canvas, at: clock.now, scale: 2, renderer: renderer)
/// ```
///
/// Timing: the layer is a `MediaTiming` timeline in its animator's clock time, so QA1673's pause and resume work
/// on it (`layer.pause(atParentTime: now)`). Unlike Core Animation the timelines do not nest: pausing a layer
/// freezes its own animations, not its sublayers' (pause each animated layer).
open class Layer: MediaTiming {
    /// The layer's own coordinate space: its size, and the point of that space at its top left corner.
    public var bounds = Rect.zero
    /// Where the anchor point sits in the superlayer's coordinates.
    public var position = Point.zero
    /// The point the layer is placed by and turns about, as a fraction of the bounds; (0.5, 0.5) is the centre.
    public var anchorPoint = Point(0.5, 0.5)
    /// Applied about the anchor point.
    public var transform = AffineTransform.identity
    /// 0 (invisible) to 1 (opaque); multiplies through the tree, and a layer with sublayers is flattened first.
    public var opacity = 1.0
    public var isHidden = false
    /// Whether sublayers are cut to the bounds (rounded by `cornerRadius`).
    public var masksToBounds = false
    public var backgroundColor: Color?
    /// Radius of the rounded corners of the background, the border and the clip, in points.
    public var cornerRadius = 0.0
    /// Width of the border drawn inside the bounds, above the sublayers, in points.
    var borderWidth = 0.0
    var borderColor: Color? = .black
    public var shadowColor: Color? = .black
    /// The shadow's alpha multiplier; 0 (the default, as in Core Animation) draws no shadow.
    public var shadowOpacity = 0.0
    /// The blur of the shadow, in points: the standard deviation of the Gaussian it approximates.
    public var shadowRadius = Layer.defaultShadowRadius
    /// How far the shadow is moved, in points of the canvas (layer transforms do not turn it).
    public var shadowOffset = Layer.defaultShadowOffset
    /// The shadow's shape in the layer's coordinates; nil casts it from what the layer and its sublayers draw.
    public var shadowPath: Path?
    /// A name for debugging and for finding a layer in a tree.
    public var name: String?

    /// Core Animation's default shadow blur, 3 pt.
    static let defaultShadowRadius = 3.0
    /// Core Animation's default shadow offset, (0, −3) pt: 3 pt up.
    static let defaultShadowOffset = Size(0, -3)

    public private(set) var sublayers: [Layer] = []
    public private(set) weak var superlayer: Layer?

    /// The animator whose clock starts this layer's animations and ends them; nil uses the superlayer's. A layer
    /// with none in its tree runs its animations on a timeline that starts at 0 and never removes them (tests
    /// and single pictures); give the root the program's animator.
    public var animator: Animator?

    // MediaTiming: the layer's timeline, kept in its animation set once it has one.
    public var beginTime = 0.0 { didSet { animationSet?.beginTime = beginTime } }
    public var speed = 1.0 { didSet { animationSet?.speed = speed } }
    public var timeOffset = 0.0 { didSet { animationSet?.timeOffset = timeOffset } }
    public var duration = Double.infinity
    public var repeatCount = 0.0
    public var repeatDuration = 0.0
    public var autoreverses = false
    public var fillMode = FillMode.removed

    /// The layer's animations, made when the first one is added.
    private(set) var animationSet: AnimationSet?
    /// The animatable key paths that some animation added since the set was last empty may change.
    var animatedKeyPaths: AnimatedKeyPaths = []

    /// A layer whose frame is `frame`: bounds of that size at the origin, positioned by the anchor point.
    public init(frame: Rect = .zero) {
        self.frame = frame
    }

    // MARK: Geometry

    /// The bounds as the superlayer sees them: derived from position, bounds and anchor point (the bounding box
    /// when transformed). Setting it sets `position` and `bounds.size`, ignoring the transform.
    public var frame: Rect {
        get {
            let t = transformToSuperlayer(bounds: bounds, position: position, anchorPoint: anchorPoint, transform: transform)
            return bounds.boundingBox(through: t)
        }
        set {
            bounds.size = newValue.size
            position = Point(newValue.minX + anchorPoint.x * newValue.width, newValue.minY + anchorPoint.y * newValue.height)
        }
    }

    /// The map from this layer's coordinates to its superlayer's, for the given geometry: the anchor point moved
    /// to the origin, transformed, then moved to `position`.
    @inline(__always)
    func transformToSuperlayer(bounds: Rect, position: Point, anchorPoint: Point, transform: AffineTransform)
        -> AffineTransform {
        let ax = bounds.minX + anchorPoint.x * bounds.width, ay = bounds.minY + anchorPoint.y * bounds.height
        var t = AffineTransform(translationX: -ax, y: -ay).concatenating(transform)
        t.tx += position.x
        t.ty += position.y
        return t
    }

    /// The map from this layer's coordinates to its superlayer's, from the model values.
    public var transformToSuperlayer: AffineTransform {
        transformToSuperlayer(bounds: bounds, position: position, anchorPoint: anchorPoint, transform: transform)
    }

    /// Converts a point in this layer's coordinates to `layer`'s (nil: the root's superlayer space), through the
    /// model values of both branches; nil when the layers are in different trees or a transform is singular.
    func convert(_ point: Point, to layer: Layer?) -> Point? {
        var p = point
        var up: Layer? = self
        var toRoot = AffineTransform.identity
        while let l = up {
            toRoot = toRoot.concatenating(l.transformToSuperlayer)
            up = l.superlayer
        }
        p = toRoot.apply(p)
        guard let layer else { return p }
        guard layer.root === root else { return nil }
        var fromRoot = AffineTransform.identity
        var down: Layer? = layer
        while let l = down {
            fromRoot = fromRoot.concatenating(l.transformToSuperlayer)
            down = l.superlayer
        }
        guard let inverse = fromRoot.inverted else { return nil }
        return inverse.apply(p)
    }

    /// The top of the tree this layer is in.
    public var root: Layer {
        var l = self
        while let s = l.superlayer { l = s }
        return l
    }

    // MARK: Tree

    public func addSublayer(_ layer: Layer) {
        insertSublayer(layer, at: sublayers.count)
    }

    /// Inserts `layer` at `index` (clamped to the valid range), taking it from its old superlayer.
    func insertSublayer(_ layer: Layer, at index: Int) {
        guard layer !== self, !isDescendant(of: layer) else { return }
        layer.removeFromSuperlayer()
        sublayers.insert(layer, at: Swift.min(Swift.max(index, 0), sublayers.count))
        layer.superlayer = self
    }

    /// Inserts `layer` just above `sibling`, or on top when `sibling` is not a sublayer.
    func insertSublayer(_ layer: Layer, above sibling: Layer) {
        layer.removeFromSuperlayer()
        let i = sublayers.firstIndex { $0 === sibling }.map { $0 + 1 } ?? sublayers.count
        insertSublayer(layer, at: i)
    }

    /// Inserts `layer` just below `sibling`, or at the bottom when `sibling` is not a sublayer.
    func insertSublayer(_ layer: Layer, below sibling: Layer) {
        layer.removeFromSuperlayer()
        let i = sublayers.firstIndex { $0 === sibling } ?? 0
        insertSublayer(layer, at: i)
    }

    public func removeFromSuperlayer() {
        superlayer?.sublayers.removeAll { $0 === self }
        superlayer = nil
    }

    /// True when `layer` is this layer's superlayer, or its superlayer's, and so on.
    func isDescendant(of layer: Layer) -> Bool {
        var up = superlayer
        while let l = up {
            if l === layer { return true }
            up = l.superlayer
        }
        return false
    }

    // MARK: Animations

    /// Adds a copy of `animation`, replacing the one under `key`, as `CALayer.add(_:forKey:)`: a begin time of 0
    /// means now on the animator's clock.
    public func add(_ animation: Animation, forKey key: String? = nil) {
        let set = animationSet ?? makeAnimationSet()
        set.add(animation, forKey: key)
        animatedKeyPaths.formUnion(AnimatedKeyPaths(animation))
    }

    public func removeAnimation(forKey key: String) {
        animationSet?.removeAnimation(forKey: key)
        if animationSet?.isEmpty ?? true { animatedKeyPaths = [] }
    }

    public func removeAllAnimations() {
        animationSet?.removeAllAnimations()
        animatedKeyPaths = []
    }

    /// The running copy of the animation under `key`.
    public func animation(forKey key: String) -> Animation? { animationSet?.animation(forKey: key) }

    /// The keys of the animations, in the order added.
    public var animationKeys: [String] { animationSet?.animationKeys ?? [] }

    /// The animator this layer's animations run on: its own, else the nearest superlayer's.
    var effectiveAnimator: Animator? {
        var l: Layer? = self
        while let layer = l {
            if let a = layer.animator { return a }
            l = layer.superlayer
        }
        return nil
    }

    private func makeAnimationSet() -> AnimationSet {
        let set = AnimationSet(animator: effectiveAnimator ?? Animator(clock: SimulatedClock()))
        set.beginTime = beginTime
        set.speed = speed
        set.timeOffset = timeOffset
        animationSet = set
        return set
    }

    /// The presentation value of a listed key path when some animation may change it, else the model value.
    @inline(__always)
    func animated<V: Animatable>(_ path: AnimatedKeyPaths, _ name: String, _ model: V, _ time: Double) -> V {
        guard animatedKeyPaths.contains(path), let set = animationSet else { return model }
        return set.value(forKeyPath: name, model: model, atTime: time)
    }

    // MARK: Drawing hooks

    /// Draws the layer's own content (above its background, below its sublayers) in layer coordinates; the base
    /// layer draws nothing. Override it for custom drawing, as `CALayer.draw(in:)`.
    open func draw(in context: LayerDrawingContext) {}

    /// The box, in layer coordinates, that `draw(in:)` may cover at `time`; nil when it draws nothing. Used to size
    /// offscreen passes and shadows, so it must hold everything drawn.
    open func contentBounds(at time: Double) -> Rect? { nil }

    /// How many separate things `draw(in:)` paints (0, 1 or more): a layer that paints one thing with an opacity
    /// needs no offscreen pass.
    open var contentPrimitiveCount: Int { 0 }

    // MARK: Cached outlines

    /// The background's outline, made again only when its bounds or corners change, so that drawing an unchanged
    /// layer allocates nothing.
    func backgroundPath(_ rect: Rect, radius: Double) -> Path {
        if let c = cachedBackground, c.rect == rect, c.radius == radius { return c.path }
        var path = Path()
        path.addRoundedRect(rect, cornerRadius: radius)
        cachedBackground = (rect, radius, path)
        return path
    }

    private var cachedBackground: (rect: Rect, radius: Double, path: Path)?

    /// The border's outline: the rounded bounds less the same shape inset by the width (even-odd), cached.
    func borderPath(_ rect: Rect, radius: Double, width: Double) -> Path {
        if let c = cachedBorder, c.rect == rect, c.radius == radius, c.width == width { return c.path }
        var path = Path()
        path.addRoundedRect(rect, cornerRadius: radius)
        let inner = rect.insetBy(dx: width, dy: width)
        if !inner.isEmpty { path.addRoundedRect(inner, cornerRadius: Swift.max(0, radius - width)) }
        cachedBorder = (rect, radius, width, path)
        return path
    }

    private var cachedBorder: (rect: Rect, radius: Double, width: Double, path: Path)?

    /// Draws the tree, presentation values at `time`, into `canvas`: points × `scale` = pixels.
    public func render(into canvas: Canvas, at time: Double, scale: Double = 1, renderer: LayerRenderer) {
        renderer.render(self, into: canvas, at: time, transform: AffineTransform(scaleX: scale, y: scale))
    }

    /// Draws the tree, presentation values at `time`, through `transform` (the superlayer's points to the canvas's
    /// pixels), inside `clip` (pixels) when given.
    public func render(into canvas: Canvas, at time: Double, transform: AffineTransform, clip: Rect? = nil,
                       renderer: LayerRenderer) {
        renderer.render(self, into: canvas, at: time, transform: transform, clip: clip)
    }
}

/// A running bounding box of points.
struct BoxBuilder {
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity

    @inline(__always) mutating func add(_ p: Point) {
        if p.x < minX { minX = p.x }
        if p.x > maxX { maxX = p.x }
        if p.y < minY { minY = p.y }
        if p.y > maxY { maxY = p.y }
    }

    var rect: Rect? {
        guard minX <= maxX, minY <= maxY else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

import Geometry
import Layers
import Lottie
import Raster

/// A span of an animation's frames, named by one of the file's markers or given by frame numbers.
public enum LottieSegment: Equatable, Sendable {
    case marker(String)
    case frames(Double, Double)

    /// The frames from and to, in the file's numbering; nil when the file has no such marker.
    public func frames(in animation: LottieAnimation) -> (start: Double, end: Double)? {
        switch self {
        case .frames(let a, let b):
            guard a.isFinite, b.isFinite else { return nil }
            return (a, b)
        case .marker(let name):
            guard let m = animation.marker(named: name) else { return nil }
            return (m.start, m.start + m.duration)
        }
    }
}

/// The Lottie header's parameters: which segments play when, and where the animation sits in the header.
public struct LottieHeaderStyle: Equatable, Sendable {
    /// Scrubbed by the pull's fraction of the trigger distance. Default: the marker "pull", else the first half.
    public var pull: LottieSegment?
    /// Looped while refreshing. Default: the marker "refresh", else the second half.
    public var refresh: LottieSegment?
    /// Played once when the refresh ends. Default: the marker "end", else none (the pull segment is scrubbed back).
    public var end: LottieSegment?
    public var headerHeight: Double
    /// The box the animation is fitted into, in points, keeping its proportions; nil fits it in the header.
    public var animationSize: Size?
    /// How far the box's centre sits from the header's centre, in points.
    public var offset: Point

    public init(pull: LottieSegment? = nil, refresh: LottieSegment? = nil, end: LottieSegment? = nil,
                headerHeight: Double = 60, animationSize: Size? = nil, offset: Point = .zero) {
        self.pull = pull
        self.refresh = refresh
        self.end = end
        self.headerHeight = headerHeight
        self.animationSize = animationSize
        self.offset = offset
    }
}

/// A header that plays a Bodymovin animation: the pull scrubs one segment, refreshing loops another, and the end
/// of a refresh plays a third when there is one — what Lottie users wire up by hand for pull-to-refresh.
public final class LottieEffect: RefreshEffect {
    public let metrics: RefreshMetrics
    public let layer = Layer()
    public let animation: LottieAnimation?
    public let style: LottieHeaderStyle
    private let canvasLayer: LottieLayerView
    private var phase: Phase = .pulling
    private var progress = 0.0

    private enum Phase {
        case pulling
        case looping(since: Double)
        case ending(since: Double)
    }

    public init(animation: LottieAnimation?, style: LottieHeaderStyle = LottieHeaderStyle()) {
        self.animation = animation
        self.style = style
        metrics = RefreshMetrics(headerHeight: style.headerHeight)
        canvasLayer = LottieLayerView(animation: animation)
        layer.addSublayer(canvasLayer)
    }

    /// The segments in effect for this file: the style's, else the file's markers, else its two halves.
    public var segments: (pull: (start: Double, end: Double), refresh: (start: Double, end: Double),
                          end: (start: Double, end: Double)?) {
        guard let a = animation else { return ((0, 0), (0, 0), nil) }
        let middle = (a.inPoint + a.outPoint) / 2
        func resolve(_ s: LottieSegment?, _ marker: String) -> (start: Double, end: Double)? {
            (s ?? .marker(marker)).frames(in: a) ?? (s == nil ? nil : LottieSegment.marker(marker).frames(in: a))
        }
        return (resolve(style.pull, "pull") ?? (a.inPoint, middle),
                resolve(style.refresh, "refresh") ?? (middle, a.outPoint),
                resolve(style.end, "end"))
    }

    /// The frame shown at `time` for the current phase and pull.
    public func frame(at time: Double) -> Double {
        guard let a = animation else { return 0 }
        let s = segments
        switch phase {
        case .pulling:
            return s.pull.start + (s.pull.end - s.pull.start) * Swift.min(Swift.max(progress, 0), 1)
        case .looping(let since):
            let length = s.refresh.end - s.refresh.start
            guard length > 0 else { return s.refresh.start }
            let elapsed = Swift.max(0, time - since) * a.frameRate
            return s.refresh.start + elapsed.truncatingRemainder(dividingBy: length)
        case .ending(let since):
            guard let end = s.end else { return s.pull.start }
            return Swift.min(end.start + Swift.max(0, time - since) * a.frameRate, end.end)
        }
    }

    public func update(pull: RefreshPull) {
        progress = pull.progress
        let box = style.animationSize ?? pull.headerSize
        canvasLayer.frame = Rect(x: (pull.headerSize.width - box.width) / 2 + style.offset.x,
                                 y: (pull.headerSize.height - box.height) / 2 + style.offset.y,
                                 width: box.width, height: box.height)
        canvasLayer.frameNumber = frame(at: pull.time)
    }

    public func transition(from old: RefreshState, to new: RefreshState, at time: Double) {
        switch new {
        case .refreshing, .willRefresh:
            if case .looping = phase { return }
            phase = .looping(since: time)
        case .finishing:
            phase = segments.end == nil ? .pulling : .ending(since: time)
        case .idle:
            phase = .pulling
        default:
            if case .ending = phase { return }
            phase = .pulling
        }
    }
}

/// The layer that draws the animation's current frame, fitted into its bounds.
final class LottieLayerView: Layer {
    let animation: LottieAnimation?
    var frameNumber = 0.0
    private let renderer = LottieRenderer()

    init(animation: LottieAnimation?) {
        self.animation = animation
        super.init(frame: .zero)
    }

    override func draw(in context: LayerDrawingContext) {
        guard let animation else { return }
        let fit = LottieRenderer.fitting(animation.size, into: bounds)
        renderer.render(animation, frame: frameNumber, into: context.canvas,
                        transform: fit.concatenating(context.transform))
    }
}

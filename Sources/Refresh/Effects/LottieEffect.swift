import Geometry
import Layers
import Lottie
import Raster
import Styles

/// A span of an animation's frames: one of the file's markers, or frame numbers.
public typealias LottieSegment = FrameSegment

extension FrameSegment {
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

/// A header that plays a Bodymovin animation: the pull scrubs one segment, arming plays one once where the file has
/// it (backwards when the pull falls back under the trigger), refreshing loops another, and the end of a refresh
/// plays one when there is one — what Lottie users wire up by hand for pull-to-refresh.
public final class LottieEffect: StyledEffect {
    public private(set) var metrics: RefreshMetrics
    public let layer = Layer()
    /// What plays; nil draws nothing. A new one shows from the next frame, in the phase under way.
    public var animation: LottieAnimation? {
        didSet {
            canvasLayer.animation = animation
            metrics = makeMetrics()
        }
    }
    /// The parameters in use; a change shows from the next frame and keeps the pull or refresh under way.
    public var style: Style {
        didSet { metrics = makeMetrics() }
    }
    private let canvasLayer: LottieLayerView
    /// Why the frame last drawn was cut short (the file asks more work of a frame than the budgets allow, at this
    /// canvas's size); nil when it was drawn whole. The lab shows it as it shows a file that cannot be read.
    public var renderError: LottieRenderError? { canvasLayer.renderError }
    private var phase: Phase = .pulling
    private var progress = 0.0

    private enum Phase {
        case pulling
        /// Playing the armed segment forwards (`direction` 1, armed) or backwards (−1, disarmed), from `offset`
        /// frames into it at `since`.
        case arming(since: Double, offset: Double, direction: Double)
        case looping(since: Double)
        case ending(since: Double)
    }

    public init(animation: LottieAnimation? = nil, style: Style = Style()) {
        self.animation = animation
        self.style = style
        metrics = RefreshMetrics(headerHeight: style.headerHeight)
        canvasLayer = LottieLayerView(animation: animation)
        layer.addSublayer(canvasLayer)
        metrics = makeMetrics()
    }

    /// The header's metrics: MJRefresh's, with the collapse waiting for the end segment to play whole in view, as
    /// the sticky header's collapse waits for its result row (the first finishing stage's delay).
    private func makeMetrics() -> RefreshMetrics {
        var metrics = RefreshMetrics(headerHeight: style.headerHeight)
        metrics.finishing[0].delay = endDuration
        return metrics
    }

    /// How long the end segment plays, in seconds; 0 without one.
    var endDuration: Double {
        guard let a = animation, let end = segments.end, a.frameRate > 0 else { return 0 }
        return Swift.max(0, end.end - end.start) / a.frameRate
    }

    /// The segments in effect for this file: the style's, else the file's markers, else its two halves.
    public var segments: (pull: (start: Double, end: Double), refresh: (start: Double, end: Double),
                          end: (start: Double, end: Double)?, armed: (start: Double, end: Double)?) {
        guard let a = animation else { return ((0, 0), (0, 0), nil, nil) }
        let middle = (a.inPoint + a.outPoint) / 2
        func resolve(_ s: LottieSegment?, _ marker: String) -> (start: Double, end: Double)? {
            (s ?? .marker(marker)).frames(in: a) ?? (s == nil ? nil : LottieSegment.marker(marker).frames(in: a))
        }
        return (resolve(style.pull, "pull") ?? (a.inPoint, middle),
                resolve(style.refresh, "refresh") ?? (middle, a.outPoint),
                resolve(style.end, "end"), resolve(style.armed, "armed"))
    }

    /// How many frames into the armed segment the header is at `time` while it plays it, clamped to the segment.
    private func armedOffset(at time: Double) -> Double? {
        guard case .arming(let since, let offset, let direction) = phase, let a = animation,
              let armed = segments.armed else { return nil }
        let length = Swift.max(0, armed.end - armed.start)
        return Swift.min(Swift.max(offset + direction * Swift.max(0, time - since) * a.frameRate, 0), length)
    }

    /// The frame shown at `time` for the current phase and pull.
    public func frame(at time: Double) -> Double {
        guard let a = animation else { return 0 }
        let s = segments
        switch phase {
        case .pulling:
            return s.pull.start + (s.pull.end - s.pull.start) * Swift.min(Swift.max(progress, 0), 1)
        case .arming(_, _, let direction):
            // Played back to its start, it gives way to the pull's frames again.
            guard let armed = s.armed, let offset = armedOffset(at: time), direction > 0 || offset > 0 else {
                return s.pull.start + (s.pull.end - s.pull.start) * Swift.min(Swift.max(progress, 0), 1)
            }
            return armed.start + offset
        case .looping(let since):
            let length = s.refresh.end - s.refresh.start
            guard length > 0 else { return s.refresh.start }
            let elapsed = Swift.max(0, time - since) * a.frameRate
            return s.refresh.start + elapsed.truncatingRemainder(dividingBy: length)
        case .ending(let since):
            guard let end = s.end else { return s.pull.start }
            // It stops just before its last frame number: a segment ending at the file's out point would show
            // nothing there, as layers end at their out points.
            let last = end.end > end.start ? end.end.nextDown : end.end
            return Swift.min(end.start + Swift.max(0, time - since) * a.frameRate, last)
        }
    }

    public func update(pull: RefreshPull) {
        progress = pull.progress
        let box = style.animationSize.width > 0 && style.animationSize.height > 0 ? style.animationSize : pull.headerSize
        canvasLayer.frame = Rect(x: (pull.headerSize.width - box.width) / 2 + style.offsetX,
                                 y: (pull.headerSize.height - box.height) / 2 + style.offsetY,
                                 width: box.width, height: box.height)
        canvasLayer.frameNumber = frame(at: pull.time)
    }

    public func transition(from old: RefreshState, to new: RefreshState, pull: RefreshPull) {
        let time = pull.time
        switch new {
        case .refreshing, .willRefresh:
            if case .looping = phase { return }
            phase = .looping(since: time)
        case .finishing:
            phase = segments.end == nil ? .pulling : .ending(since: time)
        case .idle:
            phase = .pulling
        case .armed:
            if case .ending = phase { return }
            guard segments.armed != nil else {
                phase = .pulling
                return
            }
            phase = .arming(since: time, offset: armedOffset(at: time) ?? 0, direction: 1)
        default:
            if case .ending = phase { return }
            if old == .armed, segments.armed != nil, let offset = armedOffset(at: time) {
                phase = .arming(since: time, offset: offset, direction: -1)
                return
            }
            phase = .pulling
        }
    }
}

/// The layer that draws the animation's current frame, fitted into its bounds.
final class LottieLayerView: Layer {
    var animation: LottieAnimation?
    var frameNumber = 0.0
    /// Why the last frame was not drawn whole (a budget of work passed), nil when it was.
    private(set) var renderError: LottieRenderError?
    private let renderer = LottieRenderer()

    init(animation: LottieAnimation?) {
        self.animation = animation
        super.init(frame: .zero)
    }

    /// The composition's box as fitted into the layer, to which the renderer confines the frame.
    override func contentBounds(at time: Double) -> Rect? {
        guard let animation else { return nil }
        return Rect(x: 0, y: 0, width: animation.size.width, height: animation.size.height)
            .boundingBox(through: LottieRenderer.fitting(animation.size, into: bounds))
    }

    /// A frame paints many things over each other: an opacity of this layer's or of one above it is a group's,
    /// applied once to the flattened frame (`LayerRenderer`), since the Lottie renderer draws at full opacity.
    override var contentPrimitiveCount: Int { animation == nil ? 0 : 2 }

    override func draw(in context: LayerDrawingContext) {
        guard let animation else { return }
        let fit = LottieRenderer.fitting(animation.size, into: bounds)
        do {
            try renderer.render(animation, frame: frameNumber, into: context.canvas,
                                transform: fit.concatenating(context.transform), clip: context.clip)
            renderError = nil
        } catch {
            renderError = error
        }
    }
}

extension LottieEffect {
    /// The Lottie header's parameters: which segments play when, and where the animation sits in the header.
    public struct Style: StyleValue {
        /// Scrubbed by the pull's fraction of the trigger distance. Default: the marker "pull", else the first half.
        public var pull: LottieSegment?
        /// Looped while refreshing. Default: the marker "refresh", else the second half.
        public var refresh: LottieSegment?
        /// Played once when the refresh ends. Default: the marker "end", else none (the pull segment is scrubbed
        /// back).
        public var end: LottieSegment?
        /// Played once when the pull arms the header, backwards when it falls back under the trigger. Default: the
        /// marker "armed", else none (the pull segment's last frame stays).
        public var armed: LottieSegment?
        /// 60 pt: room for a 50 pt animation with margins, as Lottie pull-to-refresh headers are usually made.
        public var headerHeight = 60.0
        /// The box the animation is fitted into, keeping its proportions; [0, 0] fits it in the header.
        var animationSize = Size(0, 0)
        /// How far the box's centre sits from the header's centre, in points (y down).
        public var offsetX = 0.0
        public var offsetY = 0.0

        public init() {}

        public init(pull: LottieSegment? = nil, refresh: LottieSegment? = nil, end: LottieSegment? = nil,
                    headerHeight: Double = 60, animationSize: Size = Size(0, 0), offset: Point = .zero) {
            self.pull = pull
            self.refresh = refresh
            self.end = end
            self.headerHeight = headerHeight
            self.animationSize = animationSize
            offsetX = offset.x
            offsetY = offset.y
        }

        public static var fields: [StyleField<Style>] {
            [
                .segment("pull", \.pull, "scrubbed by the pull up to the trigger; null: the marker \"pull\", else the first half"),
                .segment("refresh", \.refresh, "looped while refreshing; null: the marker \"refresh\", else the second half"),
                .segment("end", \.end, "played once when a refresh ends; null: the marker \"end\", else none"),
                .segment("armed", \.armed, "played once when the pull arms the header, backwards when it disarms; "
                         + "null: the marker \"armed\", else none"),
                .number("headerHeight", \.headerHeight, "pt", 10...500,
                        "the header's height: the pull that arms it (its trigger) and the refreshing inset"),
                .size("animationSize", \.animationSize, "pt", 0...1000,
                      "the box [width, height] the animation is fitted into; [0, 0] fits it in the header"),
                .number("offsetX", \.offsetX, "pt", -1000...1000, "how far right of the header's centre the box sits"),
                .number("offsetY", \.offsetY, "pt", -1000...1000, "how far below the header's centre the box sits"),
            ]
        }
    }
}

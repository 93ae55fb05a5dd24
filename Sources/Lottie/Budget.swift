/// Why a frame was not drawn whole: the file asked for more work than one frame may do. The layer named is the one
/// at which the budget was passed.
public struct LottieRenderError: Error, Sendable, Equatable, CustomStringConvertible {
    public var layer: String
    public var reason: String

    public init(layer: String, reason: String) {
        self.layer = layer
        self.reason = reason
    }

    public var description: String { "layer '\(layer)': \(reason)" }
}

extension LottieRenderer {
    /// Most layers one frame draws, each precomposition's layers counted as often as it is shown (matte layers
    /// included). Real files draw tens to several hundred; a layer costs at least a transform and one pass of the
    /// rasterizer, a few microseconds, so 10,000 is already tens of milliseconds — past what a header can show at
    /// 60 Hz — while nesting three copies 16 deep (3¹⁶ layers) would never end. Chosen here.
    public static let maxLayerDraws = 10_000

    /// Most bytes of offscreen canvases (for opacity, masks, mattes, blend modes and precomposition bounds) alive
    /// at once in one frame. Each is as large as the canvas drawn into, and one is alive per such layer nested in
    /// another, so the total grows with both; 512 MB holds two at the largest frame `refreshlab lottie` draws
    /// (8192² px, 256 MB each) and hundreds at the window's size, where the nesting limit binds first. A fixed
    /// sum rather than a multiple of the canvas, because what must not happen is the process running out of
    /// memory. Chosen here.
    public static let maxOffscreenBytes = 512 << 20

    static func offscreenBytes(width: Int, height: Int) -> Int {
        width.multipliedReportingOverflow(by: height).partialValue &* 4
    }
}

/// The work a composition asks of one frame at most, worked out once when the file is read: how many layers it
/// draws with its precompositions multiplied out, and the deepest chain of offscreen canvases alive at once. Both
/// count every layer as if visible, so that a frame can never ask for more.
struct LottieWorkBound {
    /// A layer past whose own drawing the count first exceeds `LottieRenderer.maxLayerDraws`: the precomposition
    /// layer that multiplies too much, or the layer at which a composition's plain list passes the budget.
    struct Excess {
        /// The precomposition's id; nil for the main composition.
        var composition: String?
        var position: Int
        var name: String
    }

    /// The layer draws of the main composition, saturated just past the budget.
    private(set) var layerDraws = 0
    private(set) var excess: Excess?
    /// The layers that take an offscreen canvas, outermost first, along the path that keeps most alive at once.
    private(set) var offscreenChain: [String] = []

    private let precomps: [String: [LottieLayer]]
    /// By precomposition id (nil the main composition), then depth. Only counts are kept while walking: the
    /// layers are read in place, never copied, and the chain's names are gathered once at the end.
    private var drawMemo: [String?: [Int: Int]] = [:]
    private var chainMemo: [String?: [Int: Int]] = [:]

    init(_ layers: [LottieLayer], precomps: [String: [LottieLayer]]) {
        self.precomps = precomps
        layerDraws = draws(layers, id: nil, depth: 0)
        if excess == nil {
            var names: [String] = []
            gatherChain(layers, id: nil, depth: 0, into: &names)
            offscreenChain = names
        }
    }

    /// The index of the matte source drawn for the layer at `i`, as the renderer pairs them.
    private static func matteSource(_ layers: [LottieLayer], _ i: Int) -> Int? {
        layers[i].matte != nil && i > 0 && layers[i - 1].isMatteSource ? i - 1 : nil
    }

    /// The layers of a precomposition layer's source, with its id; nil for any other layer.
    private func source(of kind: LottieLayer.Kind) -> (id: String, layers: [LottieLayer], clips: Bool)? {
        guard case .precomp(let id, let w, let h) = kind, let layers = precomps[id] else { return nil }
        return (id, layers, w > 0 && h > 0)
    }

    private mutating func draws(_ layers: [LottieLayer], id: String?, depth: Int) -> Int {
        guard depth <= LottieRenderer.maxPrecompDepth else { return 0 }
        if let known = drawMemo[id]?[depth] { return known }
        let limit = LottieRenderer.maxLayerDraws
        var total = 0
        for i in layers.indices where !layers[i].isMatteSource && !layers[i].hidden {
            var n = 1 + inner(layers[i].kind, depth)
            if let s = LottieWorkBound.matteSource(layers, i) { n += 1 + inner(layers[s].kind, depth) }
            total = Swift.min(total + Swift.min(n, limit + 1), limit + 1)
            if total > limit {
                if excess == nil { excess = Excess(composition: id, position: i, name: layers[i].name) }
                break
            }
        }
        drawMemo[id, default: [:]][depth] = total
        return total
    }

    private mutating func inner(_ kind: LottieLayer.Kind, _ depth: Int) -> Int {
        guard let (id, layers, _) = source(of: kind) else { return 0 }
        return draws(layers, id: id, depth: depth + 1)
    }

    /// Whether the renderer may draw the layer at `i` into a canvas of its own: an opacity that is not always
    /// full, masks, a matte, a blend mode or effects.
    private static func needsGroup(_ layers: [LottieLayer], _ i: Int, matte: Bool) -> Bool {
        let k = layers[i].transform.opacity.keyframes
        let alwaysOpaque = k.count == 1 && k[0].value.at(0) >= 100
        return !alwaysOpaque || !layers[i].masks.isEmpty || matte || layers[i].blendMode != .normal
            || !layers[i].effects.isEmpty
    }

    /// The canvases the layer at `i` keeps alive at once, at most: its own group (or its group and its matte)
    /// and what its precomposition keeps inside; and whether the longest way is through its matte source.
    private mutating func chainLength(_ layers: [LottieLayer], _ i: Int, depth: Int) -> (count: Int, viaMatte: Bool) {
        let s = LottieWorkBound.matteSource(layers, i)
        let own = (LottieWorkBound.needsGroup(layers, i, matte: s != nil) ? 1 : 0) + innerChain(layers[i].kind, depth)
        guard let s else { return (own, false) }
        // The group and the matte are both alive while the matte layer is drawn.
        let matte = 2 + innerChain(layers[s].kind, depth)
        return matte > own ? (matte, true) : (own, false)
    }

    private mutating func chain(_ layers: [LottieLayer], id: String?, depth: Int) -> Int {
        guard depth <= LottieRenderer.maxPrecompDepth else { return 0 }
        if let known = chainMemo[id]?[depth] { return known }
        var best = 0
        for i in layers.indices where !layers[i].isMatteSource && !layers[i].hidden {
            best = Swift.max(best, chainLength(layers, i, depth: depth).count)
        }
        chainMemo[id, default: [:]][depth] = best
        return best
    }

    /// A precomposition's chain: one canvas for its bounds when it has them, then its layers'.
    private mutating func innerChain(_ kind: LottieLayer.Kind, _ depth: Int) -> Int {
        guard let (id, layers, clips) = source(of: kind) else { return 0 }
        return (clips ? 1 : 0) + chain(layers, id: id, depth: depth + 1)
    }

    /// The names along the longest chain of `layers`, outermost first, found again from the counts.
    private mutating func gatherChain(_ layers: [LottieLayer], id: String?, depth: Int, into names: inout [String]) {
        guard depth <= LottieRenderer.maxPrecompDepth else { return }
        let best = chain(layers, id: id, depth: depth)
        guard best > 0, let i = layers.indices.first(where: { i in
            !layers[i].isMatteSource && !layers[i].hidden && chainLength(layers, i, depth: depth).count == best
        }) else { return }
        let (_, viaMatte) = chainLength(layers, i, depth: depth)
        let s = LottieWorkBound.matteSource(layers, i)
        let through = viaMatte ? s! : i
        if viaMatte {
            names += [layers[i].name, layers[through].name]
        } else if LottieWorkBound.needsGroup(layers, i, matte: s != nil) {
            names.append(layers[i].name)
        }
        guard let (innerID, innerLayers, clips) = source(of: layers[through].kind) else { return }
        if clips { names.append(layers[through].name) }
        gatherChain(innerLayers, id: innerID, depth: depth + 1, into: &names)
    }
}

import Geometry
import Colors
import UserFiles

/// Reading text layers: the file's fonts and glyphs, each layer's documents, laid out as they are read, and its
/// animators.
extension LottieParser {
    /// The most letters all of a file's text documents may hold together: past it a file costs more to lay out
    /// and draw than any header needs.
    static let maxTextLetters = 50_000
    /// The most animators one text layer may have. Each is read once a frame, and then applied to every letter of
    /// the document shown; files made by designers have a few (four at most in the lottie-web, lottie-android,
    /// rlottie and ThorVG repositories' files, docs/reference.md §8). Chosen here.
    static let maxTextAnimators = 100
    /// The most letters times their layer's animators over the file's documents: every such pair is worked out at
    /// every frame its document shows, at about 50 ns (a release build, five properties with a rotation and a
    /// colour; docs/reference.md §8), so the budget keeps a frame's animators near 5 ms at most. Chosen here.
    static let maxTextSelections = 100_000

    /// Whether the file was written by a Bodymovin older than `minimum` (its `v`, "major.minor.patch"); a file
    /// without a version counts as new, as lottie-web counts it.
    static func version(of root: JSONNode, isBelow minimum: [Int]) -> Bool {
        guard let v = root["v"]?.string else { return false }
        let parts = v.split(separator: ".").map { Int($0) ?? 0 }
        for (i, m) in minimum.enumerated() {
            let p = i < parts.count ? parts[i] : 0
            if p != m { return p < m }
        }
        return false
    }

    /// Reads the font list (`fonts.list`) and the embedded glyphs (`chars`). Bodymovin before 4.7.99 wrote the
    /// glyphs' tangents as points rather than offsets from their vertices (lottie-web's `checkChars`).
    mutating func readFonts(_ root: JSONNode) throws(LottieError) {
        let absoluteTangents = LottieParser.version(of: root, isBelow: [4, 7, 99])
        for font in root["fonts"]?.elements("list") ?? root.elements("fonts") {
            guard let name = font["fName"]?.string else { throw fail(font, "a font needs its name 'fName'") }
            let ascent = font["ascent"]?.number.flatMap { $0.isFinite ? $0 : nil }
            fonts.add(name: name, TextFonts.Entry(family: font["fFamily"]?.string ?? name,
                                                 style: font["fStyle"]?.string ?? "", ascent: ascent))
        }
        for char in root.elements("chars") {
            guard let ch = char["ch"]?.string else { throw fail(char, "a glyph needs its character 'ch'") }
            var outline = Path()
            if char["t"]?.number == 1 {
                layerName = "glyph '\(ch)'"
                skip("animated glyphs")
            } else {
                // The glyph is the first group's paths, as lottie-web's canvas renderer reads it: files of some
                // Bodymovin versions add a second, shifted copy.
                if let first = char["data"]?.elements("shapes").first {
                    try glyphPaths(first, absoluteTangents: absoluteTangents, into: &outline)
                }
            }
            let width = try number(char, "w", default: 0, in: 0...1e6)
            fonts.addGlyph(ch, family: char["fFamily"]?.string ?? "", style: char["style"]?.string ?? "", width: width,
                           outline: outline.isEmpty ? nil : outline)
        }
    }

    /// A glyph's paths (its `sh` items, in groups at any depth), each closed, as lottie-web draws them.
    private func glyphPaths(_ item: JSONNode, absoluteTangents: Bool, into outline: inout Path) throws(LottieError) {
        switch item["ty"]?.string {
        case "gr":
            for inner in item.elements("it") { try glyphPaths(inner, absoluteTangents: absoluteTangents, into: &outline) }
        case "sh":
            guard let k = item["ks"]?["k"] else { throw fail(item, "a path needs its shape 'ks'") }
            var shape = try bezier(k.isObject ? k : (k.array?.first?["s"]?.array?.first ?? k))
            shape.closed = true
            if absoluteTangents {
                for i in shape.vertices.indices {
                    shape.inTangents[i] = shape.inTangents[i] - shape.vertices[i]
                    shape.outTangents[i] = shape.outTangents[i] - shape.vertices[i]
                }
            }
            AnimatedShape(keyframes: [Keyframe(time: 0, value: shape)])
                .append(at: 0, to: &outline, reversed: false, transform: .identity)
        default:
            break
        }
    }

    /// Notes on fonts drawn otherwise than the file asks, one line each, then the letters no font has.
    func fontWarnings() -> [String] {
        fonts.notes.map { note in note.message + " (" + note.layers.map { "'\($0)'" }.joined(separator: ", ") + ")" }
            + [fonts.lettersWithoutGlyphWarning()].compactMap { $0 }
    }

    /// A text layer's contents (`t`): its documents laid out, its animators and alignment.
    mutating func text(_ t: JSONNode) throws(LottieError) -> LottieText {
        var animators: [TextAnimator] = []
        for a in t.elements("a") {
            guard animators.count < LottieParser.maxTextAnimators else {
                throw fail(a, "text layer '\(layerName)' has more than \(LottieParser.maxTextAnimators) animators; "
                    + "merge them (one animator can move, turn, scale, fade and colour the same letters)")
            }
            animators.append(try animator(a))
        }
        if let p = t["p"], p["m"] != nil { skip("text on a path, drawn on a line") }
        let grouping = t["m"]?["g"]?.number.flatMap(LottieParser.wholeNumber) ?? 1
        let alignment = try animated(t["m"]?["a"], [0, 0], "Anchor Point Grouping Alignment")
        guard let d = t["d"] else { throw fail(t, "a text layer needs its documents 'd'") }
        if d["x"] != nil { skip("source text expressions") }
        // Before Bodymovin 4.4.14, 'd' was the one document itself (lottie-web's `checkText`).
        let single = d["k"] == nil && d["t"] != nil
        guard single || !(d["k"]?.array?.isEmpty ?? true) else {
            throw fail(d, "'d' should hold keyframes of documents in 'k'")
        }
        var documents: [(frame: Double, layout: TextLayout)] = []
        for key in single ? [d] : Array(d.elements("k")) {
            guard let s = single ? key : key["s"] else { throw fail(key, "a text keyframe needs its document 's'") }
            let document = try self.document(s)
            textLetters += document.text.count
            guard textLetters <= LottieParser.maxTextLetters else {
                throw fail(s, "the file's text holds more than \(LottieParser.maxTextLetters) letters; "
                    + "a header shows a few words")
            }
            textSelections += document.text.count * animators.count
            guard textSelections <= LottieParser.maxTextSelections else {
                throw fail(s, "text layer '\(layerName)': the file's letters times their layer's animators pass "
                    + "\(LottieParser.maxTextSelections), each worked out at every frame; use fewer animators or "
                    + "shorter text")
            }
            let source = fonts.source(forFont: document.font, text: document.text, layer: layerName)
            let frame = single ? 0 : try number(key, "t", default: 0, in: -LottieAnimation.maxFrame...LottieAnimation.maxFrame)
            documents.append((frame, TextLayout(document, glyphs: source, grouping: grouping, animators: animators)))
        }
        documents.sort { $0.frame < $1.frame }
        return LottieText(documents: documents, animators: animators, alignment: alignment)
    }

    /// One text document (a keyframe's `s`).
    private func document(_ s: JSONNode) throws(LottieError) -> TextDocument {
        guard let text = s["t"]?.string else { throw fail(s, "a text document needs its text 't'") }
        func color(_ key: String) -> Color? {
            guard let c = s[key]?.numbers, c.count >= 3 else { return nil }
            return LottieRenderer.color(Array(c.prefix(3)))
        }
        func point(_ key: String) throws(LottieError) -> Point? {
            guard let node = s[key] else { return nil }
            guard let v = node.numbers, v.count >= 2, v[0].isFinite, v[1].isFinite,
                  abs(v[0]) <= LottieAnimation.maxSide * 4, abs(v[1]) <= LottieAnimation.maxSide * 4
            else { throw fail(node, "'\(key)' should be two numbers within ±\(Int(LottieAnimation.maxSide * 4))") }
            return Point(v[0], v[1])
        }
        let length = -LottieAnimation.maxSide...LottieAnimation.maxSide
        let box = try point("sz")
        return TextDocument(
            text: text, size: try number(s, "s", default: 10, in: 0...LottieAnimation.maxSide),
            font: s["f"]?.string ?? "", fill: color("fc"), stroke: color("sc"),
            strokeWidth: try number(s, "sw", default: 0, in: 0...LottieAnimation.maxSide),
            strokeOverFill: s["of"].map { $0.kind == .true || ($0.number ?? 0) != 0 } ?? true,
            justification: s["j"]?.number.flatMap(LottieParser.wholeNumber) ?? 0,
            tracking: try number(s, "tr", default: 0, in: -1e5...1e5),
            lineHeight: try number(s, "lh", default: 0, in: length),
            baselineShift: try number(s, "ls", default: 0, in: length),
            box: box.map { Size(Swift.max($0.x, 0), Swift.max($0.y, 0)) }, boxPosition: try point("ps"))
    }

    /// A text animator: its range selector and the properties it animates.
    private mutating func animator(_ node: JSONNode) throws(LottieError) -> TextAnimator {
        guard let s = node["s"], let a = node["a"] else { throw fail(node, "a text animator needs its selector 's' and properties 'a'") }
        if s["t"]?.number == 1 || s["x"] != nil { skip("expression selectors, drawn as range selectors") }
        if a["rx"] != nil || a["ry"] != nil { skip("3D") }
        func optional(_ key: String, _ fallback: [Double], _ name: String) throws(LottieError) -> Animated? {
            guard let v = a[key] else { return nil }
            return try animated(v, fallback, name)
        }
        let selector = TextSelector(
            start: try animated(s["s"], [0], "Start"), end: try animated(s["e"], [100], "End"),
            offset: try animated(s["o"], [0], "Offset"), inUnits: s["r"]?.number == 2,
            basedOn: s["b"]?.number.flatMap(LottieParser.wholeNumber) ?? 1,
            shape: s["sh"]?.number.flatMap(LottieParser.wholeNumber) ?? 1,
            easeHigh: try animated(s["xe"], [0], "Ease High"), easeLow: try animated(s["ne"], [0], "Ease Low"),
            smoothness: try animated(s["sm"], [100], "Smoothness"), amount: try animated(s["a"], [100], "Amount"),
            randomized: s["rn"]?.number == 1)
        return TextAnimator(
            selector: selector, position: try optional("p", [0, 0], "Position"),
            anchor: try optional("a", [0, 0], "Anchor Point"), scale: try optional("s", [100, 100], "Scale"),
            rotation: try optional("r", [0], "Rotation"), skew: try optional("sk", [0], "Skew"),
            skewAxis: try optional("sa", [0], "Skew Axis"), opacity: try optional("o", [100], "Opacity"),
            fillColor: try optional("fc", [0, 0, 0], "Fill Color"), fillHue: try optional("fh", [0], "Fill Hue"),
            fillSaturation: try optional("fs", [0], "Fill Saturation"),
            fillBrightness: try optional("fb", [0], "Fill Brightness"),
            strokeColor: try optional("sc", [0, 0, 0], "Stroke Color"),
            strokeWidth: try optional("sw", [0], "Stroke Width"), tracking: try optional("t", [0], "Tracking Amount"))
    }
}

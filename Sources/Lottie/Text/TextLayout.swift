import Geometry
import Colors

/// A text layer's contents (Bodymovin's `t`): its documents, each laid out once when the file is read, and the
/// animators that move, turn, scale, fade and colour its letters at each frame (TextAnimators.swift).
struct LottieText: Sendable {
    /// The documents in time order, each shown from its frame (in the time of the composition holding the layer)
    /// until the next one's; the first also before its frame.
    var documents: [(frame: Double, layout: TextLayout)]
    var animators: [TextAnimator]
    /// The point of each letter (or word, or line) that it turns and scales about, in % of its width and of the
    /// font's cap height (`m.a`).
    var alignment: Animated

    /// The document shown at `frame`, as lottie-web chooses it: the last whose frame is not after it.
    func layout(at frame: Double) -> TextLayout {
        var i = 0
        while i + 1 < documents.count, documents[i + 1].frame <= frame { i += 1 }
        return documents[i].layout
    }
}

/// What a text document asks for (one keyframe of `t.d`), before it is laid out.
struct TextDocument: Sendable {
    var text: String
    var size: Double
    /// The font's name in the file's font list (`f`).
    var font: String
    var fill: Color?
    var stroke: Color?
    var strokeWidth: Double
    /// The stroke is drawn over the fill (`of`, After Effects' "stroke over fill"); else under it.
    var strokeOverFill: Bool
    /// 0 left, 1 right, 2 centre; After Effects' full justifications (3…6) are drawn left, as lottie-web does.
    var justification: Int
    /// Added after each letter, in thousandths of the size (`tr`).
    var tracking: Double
    /// From one baseline to the next (`lh`); 0 for 1.2 times the size.
    var lineHeight: Double
    /// How far the baselines rise (`ls`).
    var baselineShift: Double
    /// A paragraph's box: its size (`sz`), in which lines wrap at spaces, and its top left (`ps`).
    var box: Size?
    var boxPosition: Point?
}

/// Where a document's glyphs come from: the file's own outlines (`chars`) or an installed font, measured at a
/// size of 100 as Bodymovin's glyphs are.
struct GlyphSource {
    /// The advance of a character at size 100.
    var advance: (String) -> Double
    /// The character's outline at size 100, its origin on the baseline, y growing downwards; nil draws nothing.
    var outline: (String) -> Path?
    /// Height of the font above the baseline, in % of the size (the font list's `ascent`).
    var ascent: Double
}

/// A text document laid out as lottie-web lays it out (its `TextProperty.completeTextData`, docs/reference.md
/// §8): letters on lines, with their widths, the groups they turn about and their places in each animator's
/// selection. Positions along the line are worked out at each frame, since tracking can be animated.
struct TextLayout: Sendable {
    struct Letter: Sendable {
        /// Index in `glyphs`, or −1 for a letter with nothing to draw (a line break, a space, a missing glyph).
        var glyph: Int
        /// The letter's advance, without tracking.
        var width: Double
        /// The width of the group it turns about (itself, its word or its line) and its offset in that group.
        var groupWidth: Double
        var groupOffset: Double
        /// A line break: it moves the pen to the next line and draws nothing.
        var isLineBreak: Bool
        var line: Int
    }

    var letters: [Letter] = []
    /// Each distinct outline once, at the document's size, its origin on the baseline.
    var glyphs: [Path] = []
    /// Each letter's place in each animator's count (letters × animators, a letter's row together) and how many
    /// each animator counts: its range selector reads them.
    var selectorPlaces: [Int] = []
    var selectorTotals: [Int] = []
    var size: Double
    var fill: Color?
    var stroke: Color?
    var strokeWidth: Double
    var strokeOverFill: Bool
    var justification: Int
    /// The tracking added after each letter, in the layer's units.
    var trackingAdvance: Double
    /// The widths lines are justified in: the box's, or the widest line's.
    var boxWidth: Double
    /// Where a right or centred line starts without a box: the box width, or half of it, back from the origin.
    var justifyOffset: Double
    var lineWidths: [Double] = []
    var lineAdvance: Double
    var ascent: Double
    var baselineShift: Double
    var boxPosition: Point?

    /// The most letters a document may have: a title is a few dozen, and each letter is a path drawn each frame.
    static let maxLetters = 5000

    /// Lays out `document` with glyphs from `glyphs`, grouping letters by `grouping` (`m.g`: 2 words, 3 lines,
    /// else each letter) for `animators`.
    init(_ document: TextDocument, glyphs source: GlyphSource, grouping: Int, animators: [TextAnimator]) {
        size = document.size
        fill = document.fill
        stroke = document.stroke
        strokeWidth = document.strokeWidth
        strokeOverFill = document.strokeOverFill
        justification = document.justification
        trackingAdvance = document.tracking / 1000 * size
        baselineShift = document.baselineShift
        boxPosition = document.boxPosition
        lineAdvance = document.lineHeight != 0 ? document.lineHeight : size * 1.2
        ascent = source.ascent * size / 100
        boxWidth = 0
        justifyOffset = 0

        var widths: [String: Double] = [:]
        func width(_ c: String) -> Double {
            if TextLayout.isLineBreak(c) { return 0 }
            if let w = widths[c] { return w }
            let w = source.advance(c) * size / 100
            let finite = w.isFinite ? w : 0
            widths[c] = finite
            return finite
        }
        var text = document.text.prefix(TextLayout.maxLetters).map { String($0) }
        if let box = document.box { text = TextLayout.wrapped(text, width: box.width, tracking: trackingAdvance, measure: width) }

        // Line widths count a space only when something follows it on its line; each letter adds its tracking.
        var lineWidth = -trackingAdvance, pendingSpaces = 0.0, widest = 0.0, line = 0
        var groupStart = 0, groupWidth = 0.0
        var glyphIndex: [String: Int] = [:]
        for (i, c) in text.enumerated() {
            let isBreak = TextLayout.isLineBreak(c)
            if isBreak {
                pendingSpaces = 0
                lineWidths.append(lineWidth)
                widest = Swift.max(widest, lineWidth)
                lineWidth = -2 * trackingAdvance
                line += 1
            }
            let w = width(c)
            if c == " " {
                pendingSpaces += w + trackingAdvance
            } else {
                lineWidth += w + trackingAdvance + pendingSpaces
                pendingSpaces = 0
            }
            var glyph = -1
            if !isBreak, c != " " {
                if let known = glyphIndex[c] {
                    glyph = known
                } else if let outline = source.outline(c), !outline.isEmpty {
                    let s = size / 100
                    glyph = glyphs.count
                    glyphs.append(outline.applying(AffineTransform(scaleX: s, y: s)))
                    glyphIndex[c] = glyph
                } else {
                    glyphIndex[c] = -1
                }
            }
            letters.append(Letter(glyph: glyph, width: w, groupWidth: w, groupOffset: 0, isLineBreak: isBreak,
                                  line: line))
            // Words (2) and lines (3) turn about their middle: each letter keeps the group's width and its
            // offset in it; a group ends at a break (or a space, for words) and at the last letter.
            guard grouping == 2 || grouping == 3 else { continue }
            letters[i].groupOffset = groupWidth
            groupWidth += w
            let ends = isBreak || (grouping == 2 && c == " ")
            if ends || i == text.count - 1 {
                if ends { groupWidth -= w }
                for k in groupStart...i { letters[k].groupWidth = groupWidth }
                groupStart = i + 1
                groupWidth = 0
            }
        }
        widest = Swift.max(widest, lineWidth)
        lineWidths.append(lineWidth)
        if let box = document.box {
            boxWidth = box.width
        } else {
            boxWidth = widest
            justifyOffset = justification == 1 ? -boxWidth : justification == 2 ? -boxWidth / 2 : 0
        }
        countSelections(text, animators)
    }

    /// Each letter's place in what each animator counts: letters (1), letters but spaces (2), words (3) or
    /// lines (4); randomized orders are shuffled by a seed of the document, so that two runs draw alike.
    private mutating func countSelections(_ text: [String], _ animators: [TextAnimator]) {
        selectorPlaces = [Int](repeating: 0, count: letters.count * animators.count)
        for (j, animator) in animators.enumerated() {
            var place = 0
            for (i, c) in text.enumerated() {
                selectorPlaces[i * animators.count + j] = place
                let isBreak = letters[i].isLineBreak, last = i == text.count - 1
                let counts: Bool
                switch animator.selector.basedOn {
                case 2: counts = !isBreak && c != " "
                case 3: counts = isBreak || c == " " || last
                case 4: counts = isBreak || last
                default: counts = !isBreak
                }
                if counts { place += 1 }
            }
            selectorTotals.append(place)
            guard animator.selector.randomized, place > 1 else { continue }
            var order = Array(0..<place), seed: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(truncatingIfNeeded: place &+ j)
            for k in stride(from: place - 1, to: 0, by: -1) {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                order.swapAt(k, Int((seed >> 33) % UInt64(k + 1)))
            }
            for i in letters.indices {
                let p = selectorPlaces[i * animators.count + j]
                selectorPlaces[i * animators.count + j] = order[Swift.min(p, place - 1)]
            }
        }
    }

    /// After Effects ends a line with a carriage return (13), or ETX (3) in older files; a line feed ends one too.
    static func isLineBreak(_ c: String) -> Bool {
        guard let s = c.unicodeScalars.first else { return false }
        return s.value == 13 || s.value == 3 || s.value == 10
    }

    /// Paragraph text broken into lines that fit `width`: at the last space of a line that would overflow, or
    /// before the letter that overflows when the line has no space, as lottie-web breaks it (a letter wider than
    /// the box alone stays on its line).
    static func wrapped(_ text: [String], width box: Double, tracking: Double,
                        measure: (String) -> Double) -> [String] {
        var out = text, lineWidth = 0.0, lastSpace = -1, i = 0
        while i < out.count {
            let c = out[i], w = measure(c)
            if c == " " {
                lastSpace = i
            } else if isLineBreak(c) {
                lineWidth = 0
                lastSpace = -1
            }
            if lineWidth + w > box, c != " ", lineWidth > 0 {
                if lastSpace >= 0 {
                    out[lastSpace] = "\r"
                    i = lastSpace
                } else {
                    out.insert("\r", at: i)
                }
                lastSpace = -1
                lineWidth = 0
            } else {
                lineWidth += w + tracking
            }
            i += 1
        }
        return out
    }
}

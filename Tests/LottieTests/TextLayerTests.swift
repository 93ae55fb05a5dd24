#if canImport(Glibc)
import Glibc
#endif
import Geometry
@testable import Lottie
import Raster
import Testing

/// Text layers, against placements worked out by hand from lottie-web's layout (docs/reference.md §8) at one pixel
/// per unit. The file's own glyphs are boxes as wide as their advance and 70 high at size 100, so that where each
/// letter lands can be read from the pixels: 'a' 50 wide, 'b' 60, 'c' 40, and a space of 25 that draws nothing.
@Suite struct TextLayerTests {
    /// Computed, not stored: a stored static of `J` keeps its boxes behind tagged pointers that LeakSanitizer
    /// cannot follow, so the AddressSanitizer run reports them as leaked.
    static var red: J { [1, 0, 0] }

    static func glyph(_ ch: String, _ w: Double, family: String = "Boxes", style: String = "Regular") -> J {
        let box: J = ["i": [[0, 0], [0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0], [0, 0]],
                      "v": [[0, 0], [.number(w), 0], [.number(w), -70], [0, -70]], "c": .bool(true)]
        let shapes: J = ch == " " ? [] : [["ty": "gr", "it": [["ty": "sh", "ks": ["a": 0, "k": box]]]]]
        return ["ch": .string(ch), "size": 100, "style": .string(style), "w": .number(w), "fFamily": .string(family),
                "data": ["shapes": shapes]]
    }

    static var glyphs: [J] { [glyph("a", 50), glyph("b", 60), glyph("c", 40), glyph(" ", 25)] }

    /// A text document: `text` (lines end with "\\r") at `size`, red, with the given extra fields.
    static func document(_ text: String, size: Double = 20, _ extra: [(String, J)] = []) -> J {
        var d: J = ["s": .number(size), "f": "Boxes-Regular", "t": .string(text), "j": 0, "tr": 0, "lh": 0, "ls": 0,
                    "fc": red]
        for (k, v) in extra { d = d.with(k, v) }
        return d
    }

    /// A text layer at `p` showing `documents` (frame, document), with `animators` and grouping `g`.
    static func layer(_ documents: [(Double, J)], p: J = [10, 50], animators: [J] = [], g: Int = 1) -> J {
        let keys: [J] = documents.map { ["s": $0.1, "t": .number($0.0)] }
        return ["ddd": 0, "ind": 1, "ty": 5, "nm": "Title", "sr": 1, "ks": Lot.transform(p: p), "ao": 0,
                "t": ["d": ["k": .array(keys)], "p": [:], "m": ["g": .number(Double(g)), "a": Lot.value([0, 0])],
                      "a": .array(animators)],
                "ip": 0, "op": 60, "st": 0, "bm": 0]
    }

    /// A file of `layers` whose fonts list names `family` (ascent 75 %), with `chars` as its glyphs.
    static func file(_ layers: [J], family: String = "Boxes", style: String = "Regular", chars: [J] = glyphs,
                     version: String = "5.5.2") -> String {
        let root: J = ["v": .string(version), "fr": 30, "ip": 0, "op": 60, "w": 100, "h": 100, "nm": "text", "ddd": 0,
                       "assets": [], "layers": .array(layers),
                       "fonts": ["list": [["fName": "Boxes-Regular", "fFamily": .string(family), "fStyle": .string(style),
                                           "ascent": 75]]],
                       "chars": .array(chars)]
        return root.description
    }

    /// An animator whose range selector (`r` 1 %, 2 units; `sh` its shape) applies `properties`.
    static func animator(_ properties: [(String, J)], s: J = 0, e: J = 100, o: J = 0, r: Int = 1, b: Int = 1,
                         shape: Int = 1, amount: J = 100, extra: [(String, J)] = []) -> J {
        var selector: J = ["t": 0, "xe": Lot.value(0), "ne": Lot.value(0), "a": Lot.value(amount), "b": .number(Double(b)),
                           "rn": 0, "sh": .number(Double(shape)), "s": Lot.value(s), "e": Lot.value(e),
                           "o": Lot.value(o), "r": .number(Double(r)), "sm": Lot.value(100)]
        for (k, v) in extra { selector = selector.with(k, v) }
        var a: J = [:]
        for (k, v) in properties { a = a.with(k, Lot.value(v)) }
        return ["nm": "Animator", "s": selector, "a": a]
    }

    func render(_ json: String, frame: Double = 0) throws -> Canvas {
        ours(try parse(json), frame: frame, width: 100, height: 100)
    }

    func alpha(_ c: Canvas, _ x: Int, _ y: Int) -> Int { Int(c[x, y] >> 24) }

    /// The runs of row `y` more than half covered, as half-open column ranges.
    func runs(_ c: Canvas, row y: Int) -> [Range<Int>] {
        var out: [Range<Int>] = [], start: Int?
        for x in 0...c.width {
            let on = x < c.width && alpha(c, x, y) > 127
            if on, start == nil { start = x }
            if !on, let s = start { out.append(s..<x); start = nil }
        }
        return out
    }

    @Test func lettersFollowTheirAdvancesAndTheTracking() throws {
        // Size 20: a 10 wide, b 12, space 5, c 8; tracking 100 adds 2 after each. From x 10: a 10…20, b 22…34,
        // c at 10 + 10 + 2 + 12 + 2 + 5 + 2 = 43. The glyphs stand 14 high on the baseline, y 50.
        let c = try render(Self.file([Self.layer([(0, Self.document("ab c", [("tr", 100)]))])]))
        #expect(runs(c, row: 45) == [10..<20, 22..<34, 43..<51])
        #expect(runs(c, row: 36).count == 3 && runs(c, row: 35).isEmpty && runs(c, row: 50).isEmpty)
    }

    @Test(arguments: [(1, [36..<46, 48..<60], [52..<60]), (2, [48..<58, 60..<72], [56..<64])])
    func rightAndCentredLinesEndAndCentreOnTheOrigin(justification: Int, first: [Range<Int>], second: [Range<Int>]) throws {
        // "ab" measures −2 + 12 + 14 = 24 with tracking 2 (a tracking before the line and one per letter);
        // "c" on the next line −4 + 2 + 10 = 8. Right: the widest line ends at the origin (60), and each line
        // moves by what it lacks; centred: half of both. The second baseline is 1.2 × 20 + 1 lower, lottie-web's
        // extra pixel after the first line.
        let doc = Self.document("ab\\rc", [("j", .number(Double(justification))), ("tr", 100)])
        let c = try render(Self.file([Self.layer([(0, doc)], p: [60, 30])]))
        #expect(runs(c, row: 25) == first)
        #expect(runs(c, row: 50) == second)
        #expect(runs(c, row: 41) == second && runs(c, row: 40).isEmpty)
    }

    @Test func paragraphTextWrapsAtTheLastSpaceThatFits() throws {
        // A 25-wide box at (10, 10): "aa " fills it (10 + 10 + 5), so the second word goes to the next line. The
        // first baseline is the ascent (75 % of 20) below the box's top, the next 24 + 1 lower.
        let boxed = Self.document("aa aa", [("sz", [25, 100]), ("ps", [10, 10])])
        let c = try render(Self.file([Self.layer([(0, boxed)], p: [0, 0])]))
        #expect(runs(c, row: 20) == [10..<30])
        #expect(runs(c, row: 45) == [10..<30])
        #expect(runs(c, row: 10).isEmpty && runs(c, row: 11) == [10..<30] && runs(c, row: 36) == [10..<30])
        // Without the box the same text stays on one line.
        let line = try render(Self.file([Self.layer([(0, Self.document("aa aa"))], p: [10, 50])]))
        #expect(runs(line, row: 45) == [10..<30, 35..<55])
    }

    @Test func aWordWiderThanItsBoxBreaksBetweenLettersAndALetterWiderStaysWhole() throws {
        // 12 wide: one 'a' (10) fits, the second does not and starts the next line; a box narrower than a
        // letter still shows every letter, one a line.
        let c = try render(Self.file([Self.layer([(0, Self.document("aab", [("sz", [12, 100]), ("ps", [10, 0])]))],
                                                 p: [0, 0])]))
        #expect(runs(c, row: 10) == [10..<20] && runs(c, row: 35) == [10..<20] && runs(c, row: 60) == [10..<22])
    }

    @Test func aRangeSelectorChoosesWholeAndPartLetters() throws {
        // 4 letters, 0…37.5 %: the range covers letters 0…1.5. Letter 0 wholly (opacity 0), letter 1 by half
        // (1 + (0 − 1) × 0.5 = 0.5), letters 2 and 3 not at all.
        let fade = Self.animator([("o", 0)], s: 0, e: 37.5)
        let c = try render(Self.file([Self.layer([(0, Self.document("aaaa"))], animators: [fade])]))
        let alphas = [15, 25, 35, 45].map { alpha(c, $0, 45) }
        #expect(alphas[0] == 0 && abs(alphas[1] - 128) <= 1 && alphas[2] == 255 && alphas[3] == 255, "\(alphas)")
    }

    @Test func aRampUpGivesEachUnitTheMiddleOfItsStep() throws {
        // Units 0…4, ramp up: letter n is chosen by (n + 0.5) / 4, so its opacity is 1 minus that.
        let fade = Self.animator([("o", 0)], s: 0, e: 4, r: 2, shape: 2)
        let c = try render(Self.file([Self.layer([(0, Self.document("aaaa"))], animators: [fade])]))
        let alphas = [15, 25, 35, 45].map { alpha(c, $0, 45) }
        let expected = [0.875, 0.625, 0.375, 0.125].map { Int(($0 * 255).rounded()) }
        #expect(zip(alphas, expected).allSatisfy { abs($0 - $1) <= 1 }, "\(alphas) against \(expected)")
    }

    @Test func selectorsCountWordsAndLines() throws {
        // Based on words: "a a c" has 3; 0…34 % takes the first word whole and none of the rest.
        let words = Self.animator([("o", 0)], s: 0, e: 34, b: 3)
        let c = try render(Self.file([Self.layer([(0, Self.document("a a c"))], animators: [words])]))
        #expect(runs(c, row: 45) == [25..<35, 40..<48])
        // Based on lines: 50 % of two lines takes the first.
        let lines = Self.animator([("o", 0)], s: 0, e: 50, b: 4)
        let l = try render(Self.file([Self.layer([(0, Self.document("a\\ra"))], p: [10, 30], animators: [lines])]))
        #expect(runs(l, row: 25).isEmpty && runs(l, row: 50) == [10..<20])
    }

    @Test func lettersMoveTurnAndScaleAboutTheirBaselineMiddle() throws {
        // One 'a' (x 50…60, y 36…50 as laid out) moved 10 up.
        let up = try render(Self.file([Self.layer([(0, Self.document("a"))], p: [50, 50],
                                                  animators: [Self.animator([("p", [0, -10])])])]))
        #expect(runs(up, row: 30) == [50..<60] && runs(up, row: 41).isEmpty)
        // Turned 90° clockwise about (55, 50): x 55…69, y 45…55.
        let turned = try render(Self.file([Self.layer([(0, Self.document("a"))], p: [50, 50],
                                                      animators: [Self.animator([("r", 90)])])]))
        #expect(runs(turned, row: 50) == [55..<69] && runs(turned, row: 44).isEmpty && runs(turned, row: 54) == [55..<69])
        // Scaled 200 %: x 45…65, y 22…50.
        let grown = try render(Self.file([Self.layer([(0, Self.document("a"))], p: [50, 50],
                                                     animators: [Self.animator([("s", [200, 200])])])]))
        #expect(runs(grown, row: 23) == [45..<65] && runs(grown, row: 21).isEmpty)
    }

    @Test func groupingByLinesScalesTheLineAboutItsMiddle() throws {
        // "ab" is 22 wide, its middle 11 from the start. Scaled 200 % as a line: a −11…−1 → −22…−2, b −1…11 →
        // −2…22, put back at 30 + 11: a 19…39, b 39…63. Letter by letter each grows about its own middle instead.
        let grow = Self.animator([("s", [200, 200])])
        let line = try render(Self.file([Self.layer([(0, Self.document("ab"))], p: [30, 60], animators: [grow], g: 3)]))
        #expect(runs(line, row: 45) == [19..<63])
        #expect(alpha(line, 19, 45) == 255 && alpha(line, 18, 45) == 0 && alpha(line, 63, 45) == 0)
        let letters = try render(Self.file([Self.layer([(0, Self.document("ab"))], p: [30, 60], animators: [grow])]))
        #expect(runs(letters, row: 45) == [25..<58])
    }

    @Test func fillColourMovesTowardTheAnimatorsByItsAmount() throws {
        // Red toward blue by half: (0.5, 0, 0.5).
        let tint = Self.animator([("fc", [0, 0, 1])], amount: 50)
        let c = try render(Self.file([Self.layer([(0, Self.document("a"))], animators: [tint])]))
        let p = c[15, 45]
        #expect(Int(p >> 24) == 255 && abs(Int((p >> 16) & 0xFF) - 128) <= 1 && Int((p >> 8) & 0xFF) == 0
                && abs(Int(p & 0xFF) - 128) <= 1, "\(String(p, radix: 16))")
    }

    @Test(arguments: [true, false])
    func theStrokeLiesOverOrUnderTheFill(over: Bool) throws {
        // A blue 'a' (x 10…20) stroked 4 wide in red: the stroke's inner half covers x 10…12 when it lies over
        // the fill, and is hidden under it otherwise; its outer half shows either way.
        let doc = Self.document("a", [("fc", [0, 0, 1]), ("sc", Self.red), ("sw", 4), ("of", .bool(over))])
        let c = try render(Self.file([Self.layer([(0, doc)])]))
        let inside = c[11, 45], outside = c[9, 45]
        #expect((inside >> 16) & 0xFF == (over ? 255 : 0) && inside & 0xFF == (over ? 0 : 255))
        #expect((outside >> 16) & 0xFF == 255 && outside & 0xFF == 0)
    }

    @Test func documentsChangeAtTheirKeyframes() throws {
        let json = Self.file([Self.layer([(0, Self.document("a")), (10, Self.document("b"))])])
        #expect(runs(try render(json, frame: 9.9), row: 45) == [10..<20])
        #expect(runs(try render(json, frame: 10), row: 45) == [10..<22])
    }

    static var dejaVuInstalled: Bool { FontRequestProbe.dejaVuSans }

    @Test(.enabled(if: dejaVuInstalled, "needs the DejaVu Sans font (apt-get install fonts-dejavu-core)"))
    func textWithoutGlyphsIsDrawnWithTheInstalledFamily() throws {
        // DejaVu Sans's 'H' advances 1540 of its 2048 units: 75.195 at size 100; 'i' 569, 27.783.
        let json = Self.file([Self.layer([(0, Self.document("Hi", size: 100))])], family: "DejaVu Sans", style: "Book",
                             chars: [])
        let animation = try parse(json)
        #expect(animation.warning == nil, "\(animation.warning ?? "")")
        guard case .text(let text) = animation.layers[0].kind else { return #expect(Bool(false)) }
        let letters = text.documents[0].layout.letters
        #expect(abs(letters[0].width - 75.1953125) < 1e-9 && abs(letters[1].width - 27.783203125) < 1e-9)
        // The H's left stem starts at its left side bearing, 201 units: x 10 + 9.81, and is 202 wide.
        let c = ours(animation, frame: 0, width: 100, height: 100)
        #expect(alpha(c, 20, 30) == 255 && alpha(c, 18, 30) == 0 && alpha(c, 19, 30) < 255)
    }

    @Test(.enabled(if: dejaVuInstalled, "needs the DejaVu Sans font (apt-get install fonts-dejavu-core)"))
    func aFamilyNotInstalledIsReplacedAndSaid() throws {
        let animation = try parse(Self.file([Self.layer([(0, Self.document("Hi"))])], family: "No Such Family",
                                            chars: []))
        let warning = animation.warning ?? ""
        #expect(warning.contains("font 'No Such Family' is not installed: drawn with 'DejaVu Sans'"), "\(warning)")
        #expect(warning.contains("'Title'"))
        #expect(alpha(ours(animation, frame: 0, width: 100, height: 100), 12, 45) == 255)
        // A letter the file's glyphs lack comes from the installed font, and that is said too.
        let mixed = try parse(Self.file([Self.layer([(0, Self.document("aH"))])], family: "DejaVu Sans", style: "Book",
                                        chars: [Self.glyph("a", 50, family: "DejaVu Sans", style: "Book")]))
        #expect(mixed.warning?.contains("the file's glyphs of 'DejaVu Sans' lack 'H'") == true, "\(mixed.warning ?? "")")
    }

    @Test func olderExportsAreReadAsLottieWebReadsThem() throws {
        // Before Bodymovin 4.7.99 a glyph's tangents are points: a box whose tangents sit on its corners is a box.
        // Only the glyph's first group is drawn (a second, shifted copy follows it in such files), and the first
        // glyph of a character counts. Before 4.4.14, 'd' is the document itself.
        let corners: J = [[0, 0], [50, 0], [50, -70], [0, -70]]
        func group(_ v: J, _ tangents: J) -> J {
            ["ty": "gr", "it": [["ty": "sh", "ks": ["a": 0, "k": ["i": tangents, "o": tangents, "v": v, "c": .bool(true)]]]]]
        }
        let shifted: J = [[60, 0], [110, 0], [110, -70], [60, -70]]
        let a: J = ["ch": "a", "size": 100, "style": "Regular", "w": 50, "fFamily": "Boxes",
                    "data": ["shapes": [group(corners, corners), group(shifted, [[9, 9], [9, 9], [9, 9], [9, 9]])]]]
        let later: J = ["ch": "a", "size": 100, "style": "Regular", "w": 90, "fFamily": "Boxes", "data": ["shapes": []]]
        var layer = Self.layer([(0, Self.document("aa"))])
        if case .object(var fields) = layer, let i = fields.firstIndex(where: { $0.0 == "t" }),
           case .object(var t) = fields[i].1, let d = t.firstIndex(where: { $0.0 == "d" }) {
            t[d].1 = Self.document("aa")
            fields[i].1 = .object(t)
            layer = .object(fields)
        }
        let c = try render(Self.file([layer], chars: [a, later], version: "4.4.2"))
        #expect(runs(c, row: 45) == [10..<30])
        #expect(runs(c, row: 37) == [10..<30] && runs(c, row: 35).isEmpty)
    }

    @Test func brokenTextIsRefusedNamingWhatIsWrong() throws {
        func message(_ json: String) -> String {
            do { _ = try parse(json); return "" } catch { return "\(error)" }
        }
        var noText = Self.layer([(0, ["s": 20, "f": "Boxes-Regular"])])
        #expect(message(Self.file([noText])).contains("a text document needs its text 't'"))
        noText = Self.layer([])
        #expect(message(Self.file([noText])).contains("'d' should hold keyframes of documents"))
        let long = String(repeating: "a", count: LottieParser.maxTextLetters + 1)
        #expect(message(Self.file([Self.layer([(0, Self.document(long))])])).contains("more than 50000 letters"))
        let badBox = Self.document("a", [("sz", ["x", 1])])
        #expect(message(Self.file([Self.layer([(0, badBox)])])).contains("'sz' should be two numbers"))
    }
}

/// Whether the fonts a test needs are installed, asked once.
enum FontRequestProbe {
    static let dejaVuSans: Bool = access("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", R_OK) == 0
}

/// What a text layer may ask of a frame: its animators, and its letters times them.
@Suite struct TextBudgetTests {
    /// A file whose one text layer shows `letters` 'a's under `animators` animators that each move the letters.
    static func file(letters: Int, animators: Int) -> String {
        let move = TextLayerTests.animator([("p", [0, -1])])
        return TextLayerTests.file([TextLayerTests.layer([(0, TextLayerTests.document(String(repeating: "a", count: letters)))],
                                                         animators: Array(repeating: move, count: animators))])
    }

    func message(_ json: String) -> String {
        do { _ = try parse(json); return "" } catch { return "\(error)" }
    }

    @Test("A text layer has at most 100 animators; the one past them is refused at its place, naming the layer")
    func animatorsAreCapped() throws {
        #expect(message(Self.file(letters: 1, animators: LottieParser.maxTextAnimators)) == "")
        let json = Self.file(letters: 1, animators: LottieParser.maxTextAnimators + 1)
        // The 101st animator's place: every animator is the same text, so it is the 101st occurrence.
        let utf8 = Array(json.utf8), key = Array(#"{"nm":"Animator""#.utf8)
        let starts = (0...utf8.count - key.count).filter { utf8[$0] == key[0] && Array(utf8[$0..<$0 + key.count]) == key }
        #expect(message(json) == "test.json:1:\(starts[LottieParser.maxTextAnimators] + 1): text layer 'Title' has "
                + "more than 100 animators; merge them (one animator can move, turn, scale, fade and colour the same "
                + "letters)")
    }

    @Test("The file's letters times their layer's animators are at most 100,000")
    func lettersTimesAnimatorsAreCapped() throws {
        #expect(message(Self.file(letters: 1000, animators: 100)) == "")
        let past = message(Self.file(letters: 1001, animators: 100))
        #expect(past.hasSuffix("text layer 'Title': the file's letters times their layer's animators pass 100000, "
                               + "each worked out at every frame; use fewer animators or shorter text"), "\(past)")
        // Summed over the file's documents, as letters are.
        let two = TextLayerTests.file([TextLayerTests.layer(
            [(0, TextLayerTests.document(String(repeating: "a", count: 600))),
             (10, TextLayerTests.document(String(repeating: "a", count: 600)))],
            animators: Array(repeating: TextLayerTests.animator([("o", 0)]), count: 100))])
        #expect(message(two).contains("pass 100000"))
    }
}

/// Letters that no font has are named, once for the file.
@Suite struct LettersWithoutGlyphTests {
    @Test("Letters no font has are named with their code points and layers, at most eight, once for the file",
          .enabled(if: TextLayerTests.dejaVuInstalled, "needs the DejaVu Sans font (apt-get install fonts-dejavu-core)"))
    func lettersWithoutGlyphAreNamed() throws {
        // Code points no version of Unicode has assigned yet, so no font has them; 'a' and 'b' DejaVu has.
        let unassigned = [0x378, 0x379, 0x380, 0x381, 0x382, 0x383, 0x38B, 0x38D, 0x3A2, 0x530]
        let text = "a" + unassigned.map { String(Unicode.Scalar($0)!) }.joined() + "b"
        func layer(_ name: String, _ text: String, index: Int) -> J {
            TextLayerTests.layer([(0, TextLayerTests.document(text))]).with("nm", .string(name))
                .with("ind", .number(Double(index)))
        }
        let json = TextLayerTests.file([layer("Title", text, index: 1), layer("Sub", "\u{378}b", index: 2)],
                                       family: "DejaVu Sans", style: "Book", chars: [])
        let warning = try parse(json).warning ?? ""
        #expect(warning == "letters that no font here has, drawn as empty boxes: U+0378 in 'Title' and 'Sub', "
                + "U+0379 in 'Title', U+0380 in 'Title', U+0381 in 'Title', U+0382 in 'Title', U+0383 in 'Title', "
                + "U+038B in 'Title', U+038D in 'Title' and 2 more (install a font that has them and name its family "
                + "in the file)", "\(warning)")
        // Every letter has a glyph: nothing to say.
        let plain = TextLayerTests.file([layer("Title", "ab", index: 1)], family: "DejaVu Sans", style: "Book", chars: [])
        #expect(try parse(plain).warning == nil)
    }

    @Test("A letter is shown in the message only when a terminal can show it")
    func lettersAreDescribed() {
        #expect(TextFonts.describe("😀") == "U+1F600 '😀'")
        #expect(TextFonts.describe("\u{1F468}\u{200D}\u{1F467}") == "U+1F468 U+200D U+1F467 '\u{1F468}\u{200D}\u{1F467}'")
        #expect(TextFonts.describe("\u{7}") == "U+0007")
        #expect(TextFonts.describe("\u{202E}") == "U+202E")
        #expect(TextFonts.describe("\u{E000}") == "U+E000")
    }
}

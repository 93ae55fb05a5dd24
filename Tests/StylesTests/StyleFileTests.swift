import Geometry
import Motion
import Raster
import Testing
@testable import Styles
import Colors

/// A style with one field of every kind, to test the file format without any effect.
struct SampleStyle: StyleValue {
    var size = 40.0
    var count = 12
    var tint = Color(rgb: 255, 149, 0)
    var palette = [Color.white, Color.black]
    var curve = TimingFunction.easeInEaseOut
    var offset = Size(0, 1.75)
    var title = LocalizedText(english: "Pull down to refresh", chinese: "下拉可以刷新")

    static var fields: [StyleField<SampleStyle>] {
        [
            .number("size", \.size, "pt", 1...100, "a size"),
            .integer("count", \.count, "", 1...24, "a count"),
            .color("tint", \.tint, "a colour"),
            .colors("palette", \.palette, "colours"),
            .timing("curve", \.curve, "a curve"),
            .size("offset", \.offset, "pt", -10...10, "an offset"),
            .text("title", \.title, "a text"),
        ]
    }
}

let sampleCatalog = StyleCatalog([("sample", SampleStyle.self), ("other", SampleStyle.self)])

/// The fault `text` gives as a style file named "f.json", or nil when it reads.
func fault(_ text: String) -> StyleError? {
    do {
        _ = try StyleBook(catalog: sampleCatalog, files: [("f.json", Array(text.utf8))])
        return nil
    } catch {
        return error
    }
}

@Suite struct StyleFileTests {
    @Test func everyKindReadsAndOverridesOnlyWhatItNames() throws {
        let text = """
            {"sample": {"size": 20, "count": 3, "tint": "#10203040", "palette": ["#FFFFFF", "#000000", "#FF0000"],
                        "curve": "decelerate(2)", "offset": [1, -2], "title": {"zh": "拉"}},
             "other": {"curve": [0.1, 0.2, 0.3, 1.5]}}
            """
        let book = try StyleBook(catalog: sampleCatalog, files: [("f.json", Array(text.utf8))])
        let sample = book.style(SampleStyle.self, for: "sample")
        #expect(sample.size == 20 && sample.count == 3)
        #expect(sample.tint == Color(rgb: 0x10, 0x20, 0x30, alpha: Double(0x40) / 255))
        #expect(sample.palette.count == 3 && sample.palette[2] == Color(rgb: 255, 0, 0))
        #expect(sample.curve == .decelerate(factor: 2))
        #expect(sample.offset == Size(1, -2))
        #expect(sample.title == LocalizedText(english: "Pull down to refresh", chinese: "拉"))
        let other = book.style(SampleStyle.self, for: "other")
        #expect(other.curve == TimingFunction(controlPoints: 0.1, 0.2, 0.3, 1.5))
        #expect(other.size == SampleStyle().size)
    }

    @Test func aLaterFileOverridesAnEarlierOneKeyByKey() throws {
        let book = try StyleBook(catalog: sampleCatalog, files: [
            ("a.json", Array(#"{"sample": {"size": 20, "count": 3}}"#.utf8)),
            ("b.json", Array("{\n\"sample\": {\"size\": 30}}".utf8)),
        ])
        let style = book.style(SampleStyle.self, for: "sample")
        #expect(style.size == 30 && style.count == 3)
        #expect(book.entries(for: "sample").map { "\($0.source)" } == ["b.json:2", "a.json:1"])
    }

    @Test(arguments: [
        ("{\"sample\": {\"size\": \"big\"}}", 1, 21, "\"sample\".\"size\": expected a number, not \"big\""),
        ("{\"sample\": {\n  \"size\": 400}}", 2, 11, "400 is out of range: it must be from 1 to 100"),
        ("{\"sample\": {\"count\": 2.5}}", 1, 22, "expected a whole number, not 2.5"),
        ("{\"sample\": {\"tint\": \"#12345G\"}}", 1, 21, "expected a colour \"#RRGGBB\" or \"#RRGGBBAA\""),
        ("{\"sample\": {\"tint\": \"red\"}}", 1, 21, "not \"red\""),
        ("{\"sample\": {\"palette\": []}}", 1, 24, "(1 to 64 of them)"),
        ("{\"sample\": {\"curve\": \"bouncy\"}}", 1, 22, "expected a timing curve: a name (linear, easeIn"),
        ("{\"sample\": {\"curve\": \"decelerate(-1)\"}}", 1, 22, "must be a number above 0"),
        ("{\"sample\": {\"curve\": [2, 0, 1, 1]}}", 1, 22, "2 is out of range"),
        ("{\"sample\": {\"offset\": [1]}}", 1, 23, "expected [width, height]"),
        ("{\"sample\": {\"title\": \"Pull\"}}", 1, 22, "expected a text {\"en\": \"…\", \"zh\": \"…\"}, not \"Pull\""),
        ("{\"sample\": {\"title\": {\"fr\": \"Tirer\"}}}", 1, 22, "unknown language \"fr\""),
        ("{\"sample\": {\"title\": {\"en\": 3}}}", 1, 22, "\"en\" must be a string"),
        ("{\"sample\": {\"sise\": 3}}", 1, 13, "unknown key \"sise\" in \"sample\"; did you mean \"size\"?"),
        ("{\"sampel\": {}}", 1, 2, "unknown section \"sampel\"; did you mean \"sample\"?"),
        ("{\"sample\": {\"zzzzzzzz\": 3}}", 1, 13, "unknown key \"zzzzzzzz\" in \"sample\" "),
        ("{\"sample\": 3}", 1, 12, "\"sample\" must be an object"),
        ("[1]", 1, 1, "a style file is a JSON object"),
        ("{\"sample\": {\"size\": 3,}}", 1, 23, "not valid JSON"),
    ] as [(String, Int, Int, String)])
    func aBrokenFileNamesItsFileLineColumnAndFault(text: String, line: Int, column: Int, message: String) throws {
        let error = try #require(fault(text))
        #expect(error.file == "f.json")
        #expect(error.line == line)
        #expect(error.column == column)
        #expect((error.description + " ").contains(message), "\(error)")
        #expect(error.description.hasPrefix("f.json:\(line):\(column): "))
    }

    @Test func aBrokenFileLeavesTheBookAsItWas() throws {
        var book = try StyleBook(catalog: sampleCatalog, files: [("a.json", Array(#"{"sample": {"size": 20}}"#.utf8))])
        #expect(throws: StyleError.self) {
            try book.add("b.json", bytes: Array(#"{"sample": {"count": 5, "size": "x"}}"#.utf8))
        }
        #expect(book.files == ["a.json"])
        #expect(book.style(SampleStyle.self, for: "sample") == { var s = SampleStyle(); s.size = 20; return s }())
    }

    @Test func theListingIsAStyleFileThatReadsBackToTheSameValues() throws {
        let text = ##"{"sample": {"size": 20.5, "tint": "#10203040", "curve": [0.1, 0.2, 0.3, 1.5], "offset": [1, 2]}}"##
        let book = try StyleBook(catalog: sampleCatalog, files: [("f.json", Array(text.utf8))])
        let listing = book.listing(["sample"])
        #expect(listing.contains("\"size\": \"f.json:1\""))
        #expect(listing.contains("\"count\": \"default\""))
        let again = try StyleBook(catalog: sampleCatalog, files: [("listing.json", Array(listing.utf8))])
        #expect(again.style(SampleStyle.self, for: "sample") == book.style(SampleStyle.self, for: "sample"))
        #expect(again.entries(for: "sample").count == SampleStyle.fields.count)
    }

    @Test func editDistanceCountsSingleEdits() {
        #expect(StyleBook.editDistance("kitten", "sitting") == 3)
        #expect(StyleBook.editDistance("", "abc") == 3)
        #expect(StyleBook.editDistance("size", "size") == 0)
    }
}

@testable import Lab
import Testing
import TestSupport

/// The scene files' JSON reader, on texts whose values are known.
@Suite struct SceneJSONTests {
    @Test func valuesOfEveryKind() throws {
        let value = try JSONReader.parse(#" {"a": [1, -2.5, 3e2, -0.125E-1], "b": {"c": true, "d": false, "e": null}, "f": ""} "#)
        #expect(value == .object([
            ("a", .array([.number(1), .number(-2.5), .number(300), .number(-0.0125)])),
            ("b", .object([("c", .bool(true)), ("d", .bool(false)), ("e", .null)])),
            ("f", .string("")),
        ]))
    }

    @Test func stringEscapes() throws {
        let value = try JSONReader.parse(#""q\"b\\s\/n\nt\tu\u00e9\ud83d\ude00 中""#)
        #expect(value == .string("q\"b\\s/n\nt\tu\u{E9}\u{1F600} 中"))
    }

    @Test(arguments: [
        ("", "line 1, column 1 (offset 0): expected a value but found the end of the file"),
        ("[1,]", "line 1, column 4 (offset 3): expected a value but found ']'"),
        ("[1 2]", "line 1, column 4 (offset 3): expected ',' or ']' but found '2'"),
        ("{\"a\" 1}", "line 1, column 6 (offset 5): expected ':' after \"a\" but found '1'"),
        ("{a: 1}", "line 1, column 2 (offset 1): expected a field name in double quotes but found 'a'"),
        ("[01]", "line 1, column 3 (offset 2): a number may not start with 0 followed by more digits"),
        ("[1.]", "line 1, column 4 (offset 3): expected a digit after '.' but found ']'"),
        ("[-]", "line 1, column 3 (offset 2): expected a digit but found ']'"),
        ("[tru]", "line 1, column 2 (offset 1): expected a value but found 't'"),
        ("\n\n  \"abc", "line 3, column 3 (offset 4): a string is not closed before the end of the file"),
        ("\"a\\x\"", "line 1, column 4 (offset 3): unknown escape '\\x' in a string"),
        ("[1] 2", "line 1, column 5 (offset 4): unexpected text after the end of the document"),
    ])
    func syntaxErrorsSayWhere(_ text: String, _ message: String) {
        do {
            _ = try JSONReader.parse(text)
            Issue.record("'\(text)' was accepted")
        } catch {
            #expect(error.description == message)
        }
    }

    /// Deep nesting is refused with an error instead of exhausting the stack.
    @Test func deepNestingIsRefused() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONReader.parse(text) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect((try? JSONReader.parse(fine)) != nil)
    }

    /// Random bytes never crash the reader: it returns a value or an error.
    @Test func randomBytesNeverCrash() {
        var random = SeededRandom(seed: 0x15_0A)
        let alphabet = Array(#"{}[]:,"\-+.0123456789eEtrufalsn u"#.utf8) + [0x0A, 0xC3, 0xA9, 0x00]
        for _ in 0..<2000 {
            let bytes = (0..<random.int(in: 0...24)).map { _ in alphabet[random.int(in: 0...(alphabet.count - 1))] }
            switch Result(catching: { () throws(JSONSyntaxError) -> JSONValue in try JSONReader.parse(bytes) }) {
            case .success: break
            case .failure(let error): #expect(error.offset >= 0 && error.offset <= bytes.count)
            }
        }
    }
}

@testable import UserFiles
import Testing
import TestSupport
import Foundation

/// The JSON reader every user file goes through, on texts whose values are known.
@Suite struct JSONReaderTests {
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

    /// Random strings, each letter written as itself or as any escape that means it, read back as themselves;
    /// invalid UTF-8 between escapes is repaired as it is in a plain run.
    @Test func escapedStringsReadAsWhatTheyEncode() throws {
        var random = SeededRandom(seed: 0x35_E5)
        let pool: [Unicode.Scalar] = ["a", "z", " ", "\"", "\\", "/", "\u{08}", "\u{0C}", "\n", "\r", "\t", "\u{01}",
                                      "\u{7F}", "é", "中", "\u{2028}", "\u{FFFF}", "😀", "\u{10FFFF}"]
        for _ in 0..<500 {
            var text = String.UnicodeScalarView(), json: [UInt8] = [UInt8(ascii: "\"")]
            for _ in 0..<random.int(in: 0...40) {
                let scalar = pool[random.int(in: 0...(pool.count - 1))]
                text.append(scalar)
                let short: [Unicode.Scalar: String] = ["\"": "\\\"", "\\": "\\\\", "/": "\\/", "\u{08}": "\\b",
                                                       "\u{0C}": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"]
                let utf16 = Array(String(scalar).utf16).map { "\\u" + String(format: "%04X", $0) }.joined()
                let mustEscape = scalar.value < 0x20 || scalar == "\"" || scalar == "\\"
                switch random.int(in: 0...2) {
                case 0 where !mustEscape: json += Array(String(scalar).utf8)
                case 1 where short[scalar] != nil: json += Array(short[scalar]!.utf8)
                default: json += Array(utf16.utf8)
                }
            }
            json.append(UInt8(ascii: "\""))
            #expect(try JSONReader.parse(json) == .string(String(text)), "\(String(decoding: json, as: UTF8.self))")
        }
        // A broken UTF-8 byte before an escape is one replacement character, as in a plain run.
        #expect(try JSONReader.parse([0x22, 0xE2, 0x5C, 0x6E, 0xE2, 0x22]) == .string("\u{FFFD}\n\u{FFFD}"))
    }

    /// A long string with escapes is read in time in proportion to its length (it grew with its square).
    @Test func longEscapedStringsReadInLinearTime() throws {
        func seconds(_ count: Int) throws -> Double {
            let json = Array(("\"" + String(repeating: "while (a) { b = \\\"c\\\"; }\\n", count: count) + "\"").utf8)
            return try fastestSeconds { _ = try JSONReader.parse(json) }
        }
        // 16 times the string: linear is 16 times the time, the square 256; 64 leaves room for a loaded machine and
        // AddressSanitizer's allocator (8 times the string once took 19 times the time there).
        let small = try seconds(10_000), large = try seconds(160_000)
        #expect(large / small < 64, "16× the string took \(large / small)× the time")
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
        ("{\"a\": 1,\n \"a\": 2}", "line 2, column 2 (offset 10): field \"a\" appears twice in one object"),
    ])
    func syntaxErrorsSayWhere(_ text: String, _ message: String) {
        do {
            _ = try JSONReader.parse(text)
            Issue.record("'\(text)' was accepted")
        } catch {
            #expect(error.description == message)
        }
        // The tape reader (the Lottie files') says the same.
        do {
            _ = try JSONReader.parseTape(Array(text.utf8))
            Issue.record("'\(text)' was accepted as a tape")
        } catch {
            #expect(error.description == message)
        }
    }

    /// The tree a tape describes, to compare it with the reader's own.
    static func value(_ tape: JSONTape, _ i: Int) -> JSONValue {
        func children(_ i: Int) -> [Int] {
            var out: [Int] = [], c = i + 1
            while c < tape.links[i] { out.append(c); c = tape.next(after: c) }
            return out
        }
        switch JSONTape.Kind(rawValue: tape.kinds[i])! {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .number: return .number(tape.numbers[i])
        case .string: return .string(tape.strings[tape.links[i]])
        case .array: return .array(children(i).map { value(tape, $0) })
        case .object: return .object(children(i).map { (tape.strings[tape.keys[$0]], value(tape, $0)) })
        }
    }

    /// On random texts, the tape and the tree agree: the same values with the same offsets, or the same error.
    @Test func theTapeReadsAsTheTreeDoes() throws {
        var random = SeededRandom(seed: 0x7A_9E)
        let alphabet = Array(#"{}[]:,"\-+.0123456789eEtrufalsn uab"#.utf8) + [0x0A, 0xC3, 0xA9]
        var accepted = 0
        for round in 0..<4000 {
            let text: [UInt8]
            if round % 2 == 0 {
                text = (0..<random.int(in: 0...24)).map { _ in alphabet[random.int(in: 0...(alphabet.count - 1))] }
            } else {
                // Mostly well formed: a document cut and changed at one random place.
                var t = Array(#"{"v": [1, -2.5e3, {"k": "x\ty"}, true, null], "w": {"a": 0.125, "b": [[], {}]}}"#.utf8)
                t[random.int(in: 0...(t.count - 1))] = alphabet[random.int(in: 0...(alphabet.count - 1))]
                text = t
            }
            let tree = Result { () throws(JSONSyntaxError) in try JSONReader.parseWithOffsets(text) }
            let tape = Result { () throws(JSONSyntaxError) in try JSONReader.parseTape(text) }
            switch (tree, tape) {
            case (.success(let t), .success(let p)):
                accepted += 1
                #expect(JSONReaderTests.value(p, 0) == t.value)
                #expect(p.offsets == t.offsets)
            case (.failure(let a), .failure(let b)):
                #expect(a == b)
            default:
                Issue.record("the tree and the tape disagree on \(String(decoding: text, as: UTF8.self))")
            }
        }
        #expect(accepted > 100)
    }

    /// Numbers read without text (few digits, a small exponent) are exactly what Double's parser gives.
    @Test func numbersAreReadExactly() throws {
        var random = SeededRandom(seed: 0x0D_1E)
        var texts = ["0", "-0", "0.0", "1e22", "1e23", "123456789012345", "1234567890123456", "0.000001",
                     "9007199254740993", "1.7976931348623157e308", "5e-324", "-0.0e-0", "0.1", "0.3", "2.2250738585072014e-308"]
        for _ in 0..<5000 {
            var t = random.int(in: 0...1) == 0 ? "-" : ""
            t += String(random.int(in: 0...999_999))
            if random.int(in: 0...1) == 0 { t += "." + String(random.int(in: 0...99_999_999)) }
            if random.int(in: 0...3) == 0 { t += "e" + String(random.int(in: -30...30)) }
            texts.append(t)
        }
        for t in texts {
            let value = try JSONReader.parse("[\(t)]")
            let expected = try #require(Double(t))
            guard case .array(let a) = value, case .number(let n) = a.first else {
                Issue.record("\(t) did not read as a number")
                continue
            }
            #expect(n.bitPattern == expected.bitPattern, "\(t)")
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

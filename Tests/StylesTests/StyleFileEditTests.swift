import Testing
@testable import Styles
import UserFiles

@Suite("Setting one value of a style file")
struct StyleFileEditTests {
    @Test("Other sections, keys and their order stay; a new key and a new section come last; saving again gives the same text")
    func keepsTheRest() throws {
        let mine = ##"{"b": {"x": 1, "y": [1, 2]}, "sources": {"b": {"x": "default"}}, "a": {"z": "#FF9500"}}"##
        let once = try StyleFileEdit.setting(.number(2.5), section: "b", key: "x", in: Array(mine.utf8))
        #expect(once == """
            {
              "b": {
                "x": 2.5,
                "y": [1, 2]
              },
              "sources": {
                "b": {
                  "x": "default"
                }
              },
              "a": {
                "z": "#FF9500"
              }
            }

            """)
        let twice = try StyleFileEdit.setting(.number(2.5), section: "b", key: "x", in: Array(once.utf8))
        #expect(twice == once)
        let added = try StyleFileEdit.setting(.string("easeIn"), section: "c", key: "t", in: Array(once.utf8))
        guard case .object(let root) = try JSONReader.parse(added) else { Issue.record("not an object"); return }
        #expect(root.map(\.key) == ["b", "sources", "a", "c"])
        // A new file, and an empty one, hold the one value.
        #expect(try StyleFileEdit.setting(.number(1), section: "p", key: "k", in: nil) == "{\n  \"p\": {\n    \"k\": 1\n  }\n}\n")
        #expect(try StyleFileEdit.setting(.number(1), section: "p", key: "k", in: Array(" \n".utf8)).hasPrefix("{\n  \"p\""))
    }

    @Test("A file that is not JSON, or whose section is not an object, is refused")
    func refusesBrokenFiles() {
        #expect(throws: JSONSyntaxError.self) { try StyleFileEdit.setting(.number(1), section: "p", key: "k", in: Array("{\"p\": {".utf8)) }
        #expect(throws: JSONSyntaxError.self) { try StyleFileEdit.setting(.number(1), section: "p", key: "k", in: Array("[1]".utf8)) }
        #expect(throws: JSONSyntaxError.self) { try StyleFileEdit.setting(.number(1), section: "p", key: "k", in: Array("{\"p\": 3}".utf8)) }
    }
}

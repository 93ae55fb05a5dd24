#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import UserFiles

/// The one reader of the user's files: what it refuses, where its limit lies, and the byte-order mark.
@Suite("Reading a user's file")
struct UserFileTests {
    @Test("A pipe with no writer is refused at once, never waited on")
    func pipeRefused() throws {
        let fifo = temporaryDirectory("user-file-fifo") + "/pipe.json"
        #expect(mkfifo(fifo, 0o600) == 0)
        do {
            _ = try UserFile.read(fifo, kind: "style file", limit: 1 << 20)
            Issue.record("a FIFO was read")
        } catch {
            #expect(error.description == fifo + ": not a regular file (a pipe or a device), not a style file; "
                    + "give the path of one")
        }
    }

    @Test("A file of exactly the limit is read; one byte more is refused, naming the limit")
    func limit() throws {
        let path = temporaryDirectory("user-file-limit") + "/f.json"
        #expect(writeBytes(path, [UInt8](repeating: 0x20, count: 1024)))
        #expect(try UserFile.read(path, kind: "scene file", limit: 1024).count == 1024)
        #expect(throws: FileError.self) { try UserFile.read(path, kind: "scene file", limit: 1023) }
        do { _ = try UserFile.read(path, kind: "scene file", limit: 1023) } catch {
            #expect(error.reason.hasPrefix("larger than 1023 bytes, the most a scene file may have"))
        }
    }

    @Test("A file that reports no size (under /proc) is read whole")
    func procFile() throws {
        let bytes = try UserFile.read("/proc/self/status", kind: "status", limit: 1 << 16)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("Name:"))
    }

    @Test("A byte-order mark before a JSON document is skipped")
    func byteOrderMark() throws {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(try JSONReader.parse(mark + Array(#"{"a": 1}"#.utf8)) == .object([(key: "a", value: .number(1))]))
        #expect(try JSONReader.parseTape(mark + Array("[1, 2]".utf8)).kinds.count == 3)
    }
}

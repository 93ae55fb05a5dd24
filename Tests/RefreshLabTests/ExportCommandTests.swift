#if canImport(Glibc)
import Glibc
#endif
@testable import refreshlab
import Testing
import TestSupport
import UserFiles

/// `refreshlab export lottie`: bad input is one clear error, and nothing is written.
@Suite struct ExportCommandTests {
    /// The error running the command with `arguments` throws, as its message.
    private func failure(_ arguments: [String]) -> String? {
        do {
            let command = try ExportLottieCommand.parse(arguments)
            try command.run()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func headersWithNoExportAndBadOutputsAreRefusedByName() throws {
        let folder = temporaryDirectory("export-command")
        defer { _ = removeDirectory(folder) }
        let out = folder + "/gif.json"
        let gif = try #require(failure(["--effect", "gif", "--out", out]))
        #expect(gif.contains("the gif header plays a file already"), "\(gif)")
        let unknown = try #require(failure(["--effect", "blob", "--out", out]))
        #expect(unknown.contains("blob"), "\(unknown)")
        #expect(access(out, F_OK) != 0, "nothing is written")
        let intoFolder = try #require(failure(["--effect", "dots", "--out", folder]))
        #expect(intoFolder.contains(folder), "\(intoFolder)")
        // A style file given as the output is refused before anything is read or written.
        let style = folder + "/style.json"
        #expect(writeTextFile(style, "{}"))
        let clash = try #require(failure(["--effect", "dots", "--style", style, "--out", style]))
        #expect(clash.contains("--out") && clash.contains("--style"), "\(clash)")
        #expect(readTextFile(style) == "{}")
    }

    @Test func aDrawnHeaderIsWrittenWhole() throws {
        let folder = temporaryDirectory("export-command-ok")
        defer { _ = removeDirectory(folder) }
        let out = folder + "/dots.json"
        #expect(failure(["--effect", "dots", "--out", out]) == nil)
        let text = try #require(readTextFile(out))
        #expect(text.hasPrefix("{\"v\":\"5.7.4\",\"fr\":60,") && text.hasSuffix("]}"))
        #expect(text.contains("\"cm\":\"pull\"") && text.contains("\"cm\":\"refresh\"") && text.contains("\"cm\":\"end\""))
        #expect((folderEntries(folder) ?? []).sorted() == ["dots.json"], "no temporary is left")
    }
}

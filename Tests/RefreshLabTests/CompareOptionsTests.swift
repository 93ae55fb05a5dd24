import ArgumentParser
import Testing
@testable import refreshlab

/// `run --compare "OPTIONS"`: the second phone's options, checked as the first phone's are.
@Suite("The --compare option")
struct CompareOptionsTests {
    /// The message a command line's error gives, as the command prints it.
    static func message(_ arguments: [String]) -> String? {
        do {
            _ = try RunCommand.parse(arguments)
            return nil
        } catch {
            return RunCommand.message(for: error)
        }
    }

    @Test("a bad option, device or appearance in the string is one error naming --compare and what is wrong")
    func badStrings() {
        let cases: [(String, String)] = [
            ("--effct dots", "Unknown option '--effct'"),
            ("--device nope", "--device: unknown device 'nope'"),
            ("--appearance dim", "--appearance is light or dark, not 'dim'"),
            ("--language klingon", "--language is english or chinese, not 'klingon'"),
            ("--frames out", "Unknown option '--frames'"),
        ]
        for (text, says) in cases {
            let message = CompareOptionsTests.message(["--script", "dots", "--compare", text])
            #expect(message?.hasPrefix("--compare: ") == true && message?.contains(says) == true,
                    "'\(text)' gave \(message ?? "no error")")
        }
        #expect(CompareOptionsTests.message(["--script", "dots", "--compare", "--effect ring", "--timings", "t.csv"])
            == "--timings times a single phone's frames; leave it out with --compare")
    }

    @Test("what the string leaves out is the first phone's; a platform or device replaces both")
    func defaults() throws {
        let first = try PhoneOptions.parse(["--effect", "dots", "--device", "iphone-16", "--bar", "large"])
        let same = try CompareOptions.parsing("").phone(over: first)
        #expect(same.effect == "dots" && same.device == "iphone-16" && same.bar == "large")
        let other = try CompareOptions.parsing("--platform android --effect ring").phone(over: first)
        #expect(other.platform == "android" && other.device == nil && other.effect == "ring" && other.bar == "large")
        #expect(try CompareOptions.parsing("--language chinese").appearance.chosenLanguage() == .chinese)
        #expect(try CompareOptions.parsing("").appearance.chosenLanguage() == nil)
    }
}

@testable import Lab
import Styles
import Testing
import TestSupport
import UserFiles

/// `refreshlab export code`: the settings a style sets, in the header's library, each with its source; nothing the
/// style holds is dropped silently.
@Suite struct HeaderCodeTests {
    private func styles(_ text: String) throws -> (StyleBook, String) {
        let folder = temporaryDirectory("header-code")
        let path = folder + "/mine.json"
        #expect(writeTextFile(path, text))
        return (try StyleFiles.load([path]), path)
    }

    @Test func everyValueOfTheStyleIsWrittenOrListed() throws {
        for (effect, languages) in HeaderCode.languages {
            let description = PhoneDescription(effect: effect)
            let keys = StyleFiles.catalog.sections.first { $0.name == effect }.map { section -> [String] in
                func keys<S: StyleValue>(_ type: S.Type) -> [String] { S.fields.map(\.key) }
                return keys(section.type)
            } ?? []
            #expect(!keys.isEmpty)
            for language in languages {
                let text = try HeaderCode.text(for: description, in: language)
                for key in keys where language != .xml {
                    #expect(text.contains("\(effect).\(key) = "), "\(effect) as \(language) says nothing of \(key)")
                }
            }
        }
    }

    @Test func valuesFromAStyleFileNameTheirLine() throws {
        let (book, path) = try styles("""
            {
              "system": {"tintColor": "#FF0000", "title": {"en": "Pulling", "zh": "下拉"}},
              "swipe-refresh": {"colors": ["#FF0000", "#00FF00"], "triggerDistance": 80},
              "material3": {"threshold": 96}
            }
            """)
        let name = FileName.split(path).name
        let system = try HeaderCode.text(for: PhoneDescription(effect: "system", styles: book), in: .swift)
        #expect(system.contains("refreshControl.tintColor = UIColor(red: 1, green: 0, blue: 0, alpha: 1)  // system.tintColor = #FF0000 (\(name):2)"))
        #expect(system.contains("string: \"Pulling\""))
        let pixel = Phone(model: try PhoneModel.named("pixel-8", on: .android))
        let android = try HeaderCode.text(for: PhoneDescription(device: pixel, effect: "swipe-refresh", styles: book),
                                          in: .kotlin)
        #expect(android.contains("setColorSchemeColors(0xFFFF0000.toInt(), 0xFF00FF00.toInt())"))
        #expect(android.contains("setDistanceToTriggerSync((80 * density).roundToInt())  // swipe-refresh.triggerDistance = 80 dp (\(name):3), 210 px"))
        let compose = try HeaderCode.text(for: PhoneDescription(effect: "material3", styles: book), in: .compose)
        #expect(compose.contains("threshold = 96.dp,  // material3.threshold = 96 dp (\(name):4)"))
    }

    /// Files of one header's code have extensions of their own, so that E can write them side by side.
    @Test func eachHeadersLanguagesHaveExtensionsOfTheirOwn() {
        for (effect, languages) in HeaderCode.languages {
            #expect(Set(languages.map(\.fileExtension)).count == languages.count, "\(effect)")
        }
    }

    @Test func otherHeadersAndLanguagesAreRefusedByName() {
        #expect(throws: LabError.self) { try HeaderCode.text(for: PhoneDescription(effect: "ring"), in: .swift) }
        do {
            _ = try HeaderCode.text(for: PhoneDescription(effect: "system"), in: .kotlin)
            Issue.record("kotlin for UIRefreshControl")
        } catch {
            #expect("\(error)".contains("--as kotlin: the system header's library is written in swift or dart"))
        }
    }
}

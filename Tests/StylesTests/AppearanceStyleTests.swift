import Colors
import Testing
@testable import Styles

/// A style with a colour that has a dark default, one that has none, and a list of colours.
struct ShadedStyle: StyleValue {
    var ink = Color(rgb: 90, 90, 90)
    var brand = Color(rgb: 255, 149, 0)
    var palette = [Color.white, Color.black]
    var size = 10.0

    static var fields: [StyleField<ShadedStyle>] {
        [
            .color("ink", \.ink, dark: Color(rgb: 235, 235, 245, alpha: 0.6), "text"),
            .color("brand", \.brand, "a brand colour, the same in dark"),
            .colors("palette", \.palette, "colours"),
            .number("size", \.size, "pt", 1...100, "a size"),
        ]
    }
}

private let shadedCatalog = StyleCatalog([("shaded", ShadedStyle.self)])

private func book(_ text: String) throws(StyleError) -> StyleBook {
    try StyleBook(catalog: shadedCatalog, files: [("mine.json", Array(text.utf8))])
}

/// The one error `text` gives as "mine.json".
private func refusal(_ text: String) -> String {
    do {
        _ = try book(text)
        return "(read without a fault)"
    } catch {
        return error.description
    }
}

@Suite("Styles per appearance: dark defaults, {\"light\", \"dark\"} in files, faults")
struct AppearanceStyleTests {
    @Test("Without files, dark gives each colour's dark default and keeps the others; light is init()")
    func darkDefaults() {
        let none = StyleBook(catalog: shadedCatalog)
        #expect(none.style(ShadedStyle.self, for: "shaded") == ShadedStyle())
        let dark = none.style(ShadedStyle.self, for: "shaded", appearance: .dark)
        #expect(dark.ink == Color(rgb: 235, 235, 245, alpha: 0.6))
        #expect(dark.brand == Color(rgb: 255, 149, 0) && dark.palette == [.white, .black] && dark.size == 10)
    }

    @Test("A colour given per appearance is read and applied in each; a plain colour is the same in both")
    func variantsApplied() throws {
        let styles = try book("""
            {"shaded": {"ink": {"light": "#102030", "dark": "#C0D0E0"},
                        "brand": "#00FF00",
                        "palette": {"light": ["#FF0000"], "dark": ["#0000FF", "#00FFFF80"]}}}
            """)
        let light = styles.style(ShadedStyle.self, for: "shaded")
        let dark = styles.style(ShadedStyle.self, for: "shaded", appearance: .dark)
        #expect(light.ink == Color(rgb: 0x10, 0x20, 0x30) && dark.ink == Color(rgb: 0xC0, 0xD0, 0xE0))
        // A plain colour over a field with a dark default would be the same in both; one without is.
        #expect(light.brand == Color(rgb: 0, 255, 0) && dark.brand == Color(rgb: 0, 255, 0))
        #expect(light.palette == [Color(rgb: 255, 0, 0)])
        #expect(dark.palette == [Color(rgb: 0, 0, 255), Color(rgb: 0, 255, 255, alpha: Double(0x80) / 255)])
        // The listing writes colours that differ per appearance, and reads back to the same styles.
        let listed = try book(styles.listing())
        #expect(listed.style(ShadedStyle.self, for: "shaded", appearance: .dark) == dark)
        #expect(listed.style(ShadedStyle.self, for: "shaded") == light)
        #expect(styles.listing().contains("\"ink\": {\"light\": \"#102030\", \"dark\": \"#C0D0E0\"}"))
    }

    @Test("A broken variant is one error naming the file, the line and column, and the value at fault")
    func brokenVariants() {
        // "dark" missing: the object is at fault, line 2.
        #expect(refusal("{\"shaded\": {\n  \"ink\": {\"light\": \"#102030\"}}}")
            == "mine.json:2:10: \"shaded\".\"ink\": \"dark\" is missing: a value per appearance gives both \"light\" and \"dark\"")
        // A variant of the wrong type: the variant's value, on its own line.
        #expect(refusal("{\"shaded\": {\"ink\": {\"light\": \"#102030\",\n  \"dark\": 12}}}")
            == "mine.json:2:11: \"shaded\".\"ink\".\"dark\": expected a colour \"#RRGGBB\" or \"#RRGGBBAA\", not 12")
        #expect(refusal("{\"shaded\": {\"palette\": {\"light\": [\"#FFFFFF\"], \"dark\": \"#000000\"}}}")
            .hasPrefix("mine.json:1:55: \"shaded\".\"palette\".\"dark\": expected a list of colours"))
        // An unknown appearance, at its key, with the nearest known one.
        #expect(refusal("{\"shaded\": {\"ink\": {\"light\": \"#102030\", \"drak\": \"#FFFFFF\"}}}")
            == "mine.json:1:41: \"shaded\".\"ink\": unknown appearance \"drak\" (a value per appearance has "
            + "\"light\" and \"dark\"); did you mean \"dark\"?")
        // Only colours vary: a number given per appearance is refused as a number would be.
        #expect(refusal("{\"shaded\": {\"size\": {\"light\": 1, \"dark\": 2}}}")
            == "mine.json:1:21: \"shaded\".\"size\": expected a number, not an object")
        // Nothing of a broken file is kept.
        #expect(throws: StyleError.self) { try book("{\"shaded\": {\"ink\": {\"dark\": \"#FFFFFF\"}}}") }
    }

    @Test("The schema lists a colour's dark default beside its default")
    func schema() {
        let text = ShadedStyle.schemaDocument(name: "shaded", about: "test")
        #expect(text.contains("\"key\": \"ink\", \"kind\": \"color\", \"default\": \"#5A5A5A\", \"dark\": \"#EBEBF599\""))
        #expect(!text.contains("\"key\": \"brand\", \"kind\": \"color\", \"default\": \"#FF9500\", \"dark\""))
    }
}

@testable import Lab
import Styles
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The source tree's `Resources` folder, from this file's place in it.
let sourceResources: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    return path + "/Resources"
}()

@Suite struct StyleResourceTests {
    /// `Resources/effects/NAME.json`, `Resources/physics.json` and `Resources/floor.json` are made from the code's schema; after a change of
    /// parameters, `REFRESHLAB_UPDATE_STYLES=1 swift test --filter StyleResourceTests` writes them again.
    @Test func theSchemaFilesMatchTheCode() {
        let update = getenv("REFRESHLAB_UPDATE_STYLES") != nil
        let catalog = StyleFiles.catalog
        #expect(catalog.sections.map(\.name) == ["physics", "floor", "sticky", "dots", "ring", "news", "classic", "gif", "lottie", "system", "swipe-refresh", "material3"])
        for section in catalog.sections {
            let path = sourceResources + "/" + StyleFiles.schemaResource(for: section.name)
            let expected = StyleFiles.schemaDocument(for: section)
            if update { writeTextFile(path, expected) }
            #expect(readTextFile(path) == expected,
                    "\(path) is out of date: run REFRESHLAB_UPDATE_STYLES=1 swift test --filter StyleResourceTests")
        }
    }

    /// Every schema file is itself valid JSON whose defaults, written as a style file, read back unchanged.
    @Test func theDefaultsReadBackAsAStyleFile() throws {
        let catalog = StyleFiles.catalog
        let listing = StyleBook(catalog: catalog).listing()
        let book = try StyleBook(catalog: catalog, files: [("defaults.json", Array(listing.utf8))])
        // The values are the same; only the sources differ (the defaults now come from defaults.json).
        #expect(book.listing().split(separator: "\"sources\"").first == listing.split(separator: "\"sources\"").first)
    }
}

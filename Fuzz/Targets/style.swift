import Lab
import Styles

/// The style-file reader on any bytes, checked against every effect's and the physics' parameters, then every
/// section's style built from what it accepted, as the window does on a reload.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let catalog = StyleFiles.catalog
    guard let book = try? StyleBook(catalog: catalog, files: [("fuzz.json", input.array)]) else { return 0 }
    for section in catalog.sections {
        func build<S: StyleValue>(_ type: S.Type) { _ = book.style(type, for: section.name) }
        build(section.type)
    }
    return 0
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The scene fixtures: `Tests/Fixtures/scenes`, found from this file (the repository root is three levels up).
/// The scenes' tests, and the commands' tests that draw a scene, share them.
public enum SceneFixtures {
    public static let directory: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/Tests/Fixtures/scenes"
    }()

    /// Every scene's name (its file name without `.json`), sorted.
    public static let names: [String] = {
        guard let folder = opendir(directory) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".json") { names.append(String(name.dropLast(5))) }
        }
        return names.sorted()
    }()

    public static func scenePath(_ name: String) -> String { directory + "/" + name + ".json" }
    public static func referencePath(_ name: String) -> String { directory + "/reference/" + name + ".png" }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UserFiles

/// Finds RefreshLab's `Resources/` folder (gesture scripts and other data) at run time.
///
/// In order: the folder named by `REFRESHLAB_RESOURCES`; `Resources` beside the executable (an installed copy);
/// the source tree this module was built from. The first that exists wins.
public enum ResourceLocator {
    static let environmentVariable = "REFRESHLAB_RESOURCES"

    /// The folders tried, in order.
    static var candidates: [String] {
        var list: [String] = []
        if let value = getenv(environmentVariable), value.pointee != 0 { list.append(String(cString: value)) }
        if let executable = executablePath, let slash = executable.lastIndex(of: "/") {
            list.append(String(executable[..<slash]) + "/Resources")
        }
        // This file is Sources/Lab/Files/Resources.swift: four levels below the package's root.
        var source = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        if source.count > 4 {
            source.removeLast(4)
            list.append(source.joined(separator: "/") + "/Resources")
        }
        return list
    }

    /// The resources folder, or nil when none of the candidates exists.
    static var directory: String? {
        candidates.first(where: isDirectory)
    }

    /// The path of a file under the resources folder, when it exists.
    public static func path(_ relative: String) -> String? {
        guard let directory else { return nil }
        let path = directory + "/" + relative
        return access(path, R_OK) == 0 ? path : nil
    }

    /// The gesture script named `name` (`sticky` is `Resources/gestures/sticky.json`), when it exists.
    public static func gestureScript(named name: String) -> String? {
        path("gestures/" + name + ".json")
    }

    /// The names of the gesture scripts in `Resources/gestures`, sorted.
    public static var gestureScriptNames: [String] {
        guard let directory, let entries = folderEntries(directory + "/gestures") else { return [] }
        return entries.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The running program's file, from `/proc/self/exe`.
    static var executablePath: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

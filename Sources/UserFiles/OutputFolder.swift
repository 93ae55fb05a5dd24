#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif


/// The folder where the window writes screenshots, timing recordings and videos (`--output-dir`, else the current
/// folder), checked when the program starts so that a folder that cannot be written is said at once, not after a
/// recording.
public struct OutputFolder: Sendable, Equatable {
    /// The folder's absolute path.
    public let path: String

    /// The folder at `path`, created with its parents when missing.
    ///
    /// - Throws: `LabError` naming the folder when it cannot be made or written to.
    public init(path: String) throws {
        do {
            try makeDirectory(path)
        } catch {
            throw LabError("the output folder: \(error); choose another with --output-dir DIR")
        }
        guard FileName.withBytes(path, { access($0, W_OK | X_OK) }) == 0 else {
            throw LabError("cannot write to the output folder '\(path)': \(String(cString: strerror(errno))); "
                + "choose another with --output-dir DIR")
        }
        guard let resolved = FileName.withBytes(path, { realpath($0, nil) }) else {
            throw LabError("cannot resolve the output folder '\(path)': \(String(cString: strerror(errno)))")
        }
        self.path = FileName.decode(resolved)
        free(resolved)
    }

    /// The full path of a file named `name` in the folder.
    public func path(for name: String) -> String {
        path == "/" ? "/" + name : path + "/" + name
    }

    /// A path for a new file named `prefix`, the local time and `suffix` ("refreshlab-2025-03-14-094105.png"), with
    /// "-2", "-3", … before the suffix while that name, or one of the files written with it (`companions`, given
    /// the path), exists or is being written (its `.tmp`): two screenshots in one second are two files.
    public func newPath(prefix: String, suffix: String, companions: (String) -> [String] = { [$0] }) -> String {
        let stem = prefix + OutputFolder.timestamp()
        var candidate = path(for: stem + suffix)
        var number = 1
        while companions(candidate).contains(where: { OutputFolder.isTaken($0) || OutputFolder.isTaken($0 + ".tmp") }) {
            number += 1
            candidate = path(for: stem + "-\(number)" + suffix)
        }
        return candidate
    }

    private static func isTaken(_ path: String) -> Bool {
        var info = stat()
        return FileName.withBytes(path) { lstat($0, &info) } == 0
    }

    /// The local date and time as `2025-03-14-094105`, for file names that sort by time.
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let n = strftime(&buffer, buffer.count, "%Y-%m-%d-%H%M%S", &parts)
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Lines on standard error, where they do not mix with a run's report on standard output.
public enum FileLines {
    public static func standardError(_ line: String) {
        let text = Array(("refreshlab: " + line + "\n").utf8)
        _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates `path` and its missing parents, as `mkdir -p`.
public func makeDirectory(_ path: String) throws {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for part in path.split(separator: "/") {
        prefix += part
        if FileName.withBytes(prefix, { mkdir($0, 0o755) }) != 0 && errno != EEXIST {
            throw LabError("cannot create directory '\(prefix)': \(String(cString: strerror(errno)))")
        }
        prefix += "/"
    }
    var info = stat()
    guard FileName.withBytes(path, { stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
        throw LabError("'\(path)' exists and is not a directory; choose another folder")
    }
}

/// The names of the entries of the folder at `path`, without `.` and `..`, in the order the system gives them; nil
/// when the folder cannot be read (`errno` says why). Names that are not UTF-8 keep their bytes (see `FileName`).
public func folderEntries(_ path: String) -> [String]? {
    guard let folder = FileName.withBytes(path, { opendir($0) }) else { return nil }
    defer { closedir(folder) }
    var names: [String] = []
    while let entry = readdir(folder) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            FileName.decode(raw.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}


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

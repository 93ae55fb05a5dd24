import Raster
#if canImport(Glibc)
import Glibc
#endif

/// Why a file could not be read: it does not exist, or the system's reason.
enum FileReadFailure: Error {
    case missing
    case unreadable(String)
}

/// The whole content of the file at `path`, read in 64 KiB chunks.
func readFileBytes(_ path: String) throws(FileReadFailure) -> [UInt8] {
    guard let file = FileName.withBytes(path, { fopen($0, "rb") }) else {
        if errno == ENOENT { throw .missing }
        throw .unreadable(String(cString: strerror(errno)))
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        bytes.append(contentsOf: chunk[0..<n])
        if n < chunk.count {
            if ferror(file) != 0 { throw .unreadable(String(cString: strerror(errno))) }
            return bytes
        }
    }
}

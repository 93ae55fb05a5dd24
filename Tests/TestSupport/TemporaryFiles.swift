#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fresh, empty directory for one test's files, in the system's temporary directory (`TMPDIR`, else `/tmp`),
/// named `refreshlab-<name>-XXXXXX`. The tests leave it behind so that a failure's files can be looked at.
public func temporaryDirectory(_ name: String) -> String {
    var base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    if base.isEmpty { base = "/tmp" }
    while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
    var template = Array("\(base)/refreshlab-\(name)-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(made != nil, "cannot make a temporary directory in \(base)")
    return String(cString: made!)
}

/// True when something exists at `path`.
public func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

/// The whole file at `path` as UTF-8 text; nil when it cannot be read.
public func readTextFile(_ path: String) -> String? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&chunk, 1, chunk.count, file)
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Writes `text` to `path`, replacing the file; false when it cannot be written.
@discardableResult
public func writeTextFile(_ path: String, _ text: String) -> Bool {
    guard let file = fopen(path, "wb") else { return false }
    let written = fputs(text, file) >= 0
    return fclose(file) == 0 && written
}

/// Writes `bytes` to `path`, replacing the file; false when it cannot be written.
@discardableResult
public func writeBytes(_ path: String, _ bytes: [UInt8]) -> Bool {
    guard let file = fopen(path, "wb") else { return false }
    let n = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    return fclose(file) == 0 && n == bytes.count
}

/// Removes the directory at `path` with the files directly in it (no subdirectories); false when something stays.
@discardableResult
public func removeDirectory(_ path: String) -> Bool {
    if let dir = opendir(path) {
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { unlink(path + "/" + name) }
        }
        closedir(dir)
    }
    return rmdir(path) == 0
}

/// Makes the process's children read no user's style files: `XDG_CONFIG_HOME` points at an empty folder of the
/// tests' own. Evaluated once, before the first child is started.
public let isolatedUserConfiguration: Void = {
    setenv("XDG_CONFIG_HOME", temporaryDirectory("config"), 1)
}()

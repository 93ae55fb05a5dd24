#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a file the user named (a style, a gesture script, a scene, an animation, a recording): the one way every
/// reader of the project takes, so that each refuses the same things with the same kind of message.
///
/// Only a regular file is read: a pipe, a device or a folder (`--script /dev/zero`) is refused before a byte is
/// read, since the file is opened without waiting for a writer and checked once open. The size limit is checked
/// while reading, not only from `stat`, so a file that grows while it is read cannot take more than its limit.
public enum UserFile {
    /// The whole content of the file at `path`, at most `limit` bytes.
    ///
    /// - Parameters:
    ///   - kind: what the file is, for messages ("gesture script", "style file").
    ///   - missingAdvice: what to do when there is no such file, after "no such file; ".
    /// - Throws: `FileError` naming the file: missing, not a regular file, unreadable, or over the limit.
    public static func read(_ path: String, kind: String, limit: Int,
                            missingAdvice: String = "check the path") throws(FileError) -> [UInt8] {
        let fd = FileName.withBytes(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else {
            if errno == ENOENT { throw FileError(file: path, reason: "no such \(kind); \(missingAdvice)") }
            throw FileError(file: path, reason: "cannot read the \(kind): \(String(cString: strerror(errno))); "
                            + "check the path and its permissions")
        }
        return try read(opened: fd, path: path, kind: kind, limit: limit)
    }

    /// The whole content of the file open at `fd` (opened without waiting on a pipe), which it closes: `path` names
    /// it in messages.
    static func read(opened fd: Int32, path: String, kind: String, limit: Int) throws(FileError) -> [UInt8] {
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw FileError(file: path, reason: "cannot read the \(kind): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            let what = info.st_mode & S_IFMT == S_IFDIR ? "a folder" : "not a regular file (a pipe or a device)"
            throw FileError(file: path, reason: "\(what), not a \(kind); give the path of one")
        }
        let tooLarge = FileError(file: path, reason: "larger than \(describe(bytes: limit)), the most a \(kind) may "
                                 + "have; check that this is the file meant")
        guard Int(info.st_size) <= limit else { throw tooLarge }
        // A regular file never blocks; the flag only kept open(2) from waiting on a pipe.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var bytes = [UInt8](repeating: 0, count: Swift.min(Int(info.st_size), limit) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= limit else { throw tooLarge }
                let more = Swift.min(Swift.max(count, 1 << 16), limit + 1 - count)
                bytes.append(contentsOf: repeatElement(0, count: more))
            }
            let n = bytes.withUnsafeMutableBytes { readBytes(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(file: path, reason: "cannot read the \(kind): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            count += n
        }
        guard count <= limit else { throw tooLarge }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// A byte count as people read it: "1 MB", "64 MB", "512 bytes".
    static func describe(bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
        return "\(bytes) bytes"
    }

    /// Text files may start with a UTF-8 byte-order mark (spreadsheets and some editors write one): the number of
    /// bytes to skip, 3 or 0.
    public static func byteOrderMarkLength(_ bytes: [UInt8]) -> Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }
}

/// read(2), outside `UserFile` whose own `read` hides it.
private func readBytes(_ fd: Int32, _ p: UnsafeMutableRawPointer, _ n: Int) -> Int { read(fd, p, n) }

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A file could not be written; `reason` is the system's word for why.
public struct OutputFileError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let reason: String
    public var description: String { "cannot write '\(path)': \(reason)" }

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// An output that appears whole or not at all, and never costs what was there before.
///
/// A path that does not exist yet, or holds a regular file, is written through a temporary beside it
/// (`PATH.tmp`, in the same folder so that a rename can replace the file at once); `commit()` renames the
/// temporary over the path, and a failure removes only the temporary. Anything else at the path (a device such
/// as `/dev/null`, a FIFO, a symbolic link such as `/dev/stdout`) is written in place: it is never renamed over
/// nor removed. Only regular files are ever replaced or removed.
public final class OutputFile {
    public let path: String
    /// Where the bytes go until `commit()`: the temporary, or `path` itself when it is written in place.
    public let writingPath: String
    /// The open file while writing through `write` or `stream`; nil before `open()` and after `close()`.
    public private(set) var stream: UnsafeMutablePointer<FILE>?
    /// The mode of the regular file this one replaces, so that it keeps its permissions.
    private let replacedMode: mode_t?
    private var committed = false
    /// True while the temporary is listed in `unfinished`.
    private var isTracked = false

    public var isInPlace: Bool { writingPath == path }

    /// The temporaries being written now, in every thread: what a process ended by a signal removes.
    /// (A count for each path, as two outputs in turn may write the same temporary.)
    private static let unfinished = Mutex<[String: Int]>([:])

    /// Removes every temporary not yet renamed into place, so that a process ending on a signal leaves each of
    /// its outputs whole or absent. Safe from any thread; a file committed meanwhile is not touched.
    public static func removeUnfinished() {
        for path in unfinished.withLock({ $0.keys }) { FileName.withBytes(path) { _ = unlink($0) } }
    }

    /// Marks the temporary as written (`true`) or done with, renamed or removed (`false`).
    private func track(_ writing: Bool) {
        guard !isInPlace, writing != isTracked else { return }
        isTracked = writing
        OutputFile.unfinished.withLock { pending in
            let count = (pending[writingPath] ?? 0) + (writing ? 1 : -1)
            pending[writingPath] = count > 0 ? count : nil
        }
    }

    /// Prepares `path` for writing and, with `open`, opens it: without, another program writes `writingPath`
    /// (a temporary left there by an earlier run is removed first, so nothing of it is taken for this one's).
    ///
    /// - Throws: `OutputFileError` when the file cannot be opened, or the path is a folder.
    public init(path: String, open: Bool = true) throws {
        self.path = path
        var info = stat()
        let exists = FileName.withBytes(path) { lstat($0, &info) } == 0
        if !exists || (info.st_mode & S_IFMT) == S_IFREG {
            writingPath = path + ".tmp"
            replacedMode = exists ? info.st_mode & 0o7777 : nil
            var stale = stat()
            if FileName.withBytes(writingPath, { lstat($0, &stale) }) == 0 {
                guard (stale.st_mode & S_IFMT) == S_IFREG, FileName.withBytes(writingPath, { unlink($0) }) == 0 else {
                    throw OutputFileError(path: path, reason: "'\(writingPath)' is in the way; remove it")
                }
            }
        } else if (info.st_mode & S_IFMT) == S_IFDIR {
            throw OutputFileError(path: path, reason: "it is a folder; give a file's path")
        } else {
            writingPath = path
            replacedMode = nil
        }
        track(true)
        if open {
            do { try self.open() } catch { track(false); throw error }
        }
    }

    deinit { abandon() }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    private func failure(_ code: Int32 = errno) -> OutputFileError {
        OutputFileError(path: path, reason: OutputFile.reason(code))
    }

    /// Opens `writingPath` for writing: a new temporary (never through a link left in its place), or the path
    /// as it is, truncated only when it leads to a regular file.
    private func open() throws {
        let flags: Int32
        if isInPlace {
            var info = stat()
            let regular = FileName.withBytes(path) { stat($0, &info) } == 0 && (info.st_mode & S_IFMT) == S_IFREG
            flags = O_WRONLY | O_NOCTTY | O_CLOEXEC | (regular ? O_TRUNC : 0)
        } else {
            flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC
        }
        let fd = FileName.withBytes(writingPath) { Glibc.open($0, flags, 0o644) }
        guard fd >= 0 else { throw failure() }
        if let replacedMode { fchmod(fd, replacedMode) }
        guard let file = fdopen(fd, "wb") else {
            let code = errno
            Glibc.close(fd)
            throw failure(code)
        }
        stream = file
    }

    /// Appends `bytes` and hands them to the system, so that a reader of the temporary sees them.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let stream else { return }
        if bytes.count > 0 && fwrite(bytes.baseAddress, 1, bytes.count, stream) != bytes.count { throw failure() }
        if fflush(stream) != 0 { throw failure() }
    }

    /// Closes the file; a write that failed on the way (a full disk) throws here at the latest.
    public func close() throws {
        guard let file = stream else { return }
        stream = nil
        let flushed = fflush(file) == 0 && ferror(file) == 0
        let flushError = errno
        let closed = fclose(file) == 0
        if !flushed { throw failure(flushError) }
        if !closed { throw failure() }
    }

    /// Closes the file and renames the temporary over the path; on failure the temporary is removed and the
    /// path keeps what it had.
    public func commit() throws {
        do {
            try close()
            if !isInPlace && !committed && FileName.withBytes(writingPath, { from in FileName.withBytes(path) { rename(from, $0) } }) != 0 { throw failure() }
            committed = true
            track(false)
        } catch {
            abandon()
            throw error
        }
    }

    /// Closes the file and removes the temporary; the path is left as it was.
    public func abandon() {
        if let file = stream {
            stream = nil
            fclose(file)
        }
        if !isInPlace && !committed {
            FileName.withBytes(writingPath) { _ = unlink($0) }
            track(false)
        }
    }

    /// Commits `files` together: every one is closed first, and only when all were written whole are the
    /// temporaries renamed into place; otherwise every one is abandoned and the first failure thrown.
    public static func commit(_ files: [OutputFile]) throws {
        do {
            for file in files { try file.close() }
        } catch {
            for file in files { file.abandon() }
            throw error
        }
        for file in files { try file.commit() }
    }

    /// Writes `bytes` to `path` whole.
    public static func write(_ bytes: UnsafeRawBufferPointer, to path: String) throws {
        let file = try OutputFile(path: path)
        do { try file.write(bytes) } catch { file.abandon(); throw error }
        try file.commit()
    }
}

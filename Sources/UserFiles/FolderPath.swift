#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Paths that one file gives for another, to be read from the first file's folder (a Lottie file's pictures): they
/// are opened inside that folder or not at all, whatever the path says and whatever links lie along it.
///
/// The path is first judged as written: an absolute one, or one whose `..` would climb above the folder, is refused
/// before anything is opened. Then it is opened one component at a time from the folder's own descriptor, each with
/// `O_NOFOLLOW`, so that no link is ever followed by the system: a link met on the way is read and its target walked
/// the same way, from the folder it lies in, and a target that leaves the folder (absolute elsewhere, or climbing
/// out with `..`) refuses the path. A `..` goes back to the folder the walk came from (as the system would), never
/// past the folder itself. Replacing an entry by a link while the walk runs cannot lead out: every step opens a
/// name in a folder already reached, without following what it finds. docs/reference.md §8 says the rules.
public enum FolderPath {
    /// Why a path is refused: what leads outside the folder, or past a bound of the walk.
    public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        /// The path starts at `/`.
        case absolute
        /// A `..` of the path as written climbs above the folder.
        case climbsOut
        /// A character no file name may hold: NUL, which the system would take as the path's end.
        case nulCharacter
        /// The link `link` (its place in the folder) points at `target`, which lies outside it.
        case link(String, target: String)
        /// More links than `maxLinks` on the way: a loop, or a chain no picture needs.
        case tooManyLinks
        /// More than `maxDepth` folders deep, or longer than `maxLength` bytes.
        case tooLong

        public var description: String {
            switch self {
            case .absolute: "an absolute path, outside the folder"
            case .climbsOut: "its '..' climbs out of the folder"
            case .nulCharacter: "a NUL character in the name, which no file name holds"
            case .link(let link, let target): "the link '\(link)' leads to '\(target)', outside the folder"
            case .tooManyLinks: "more than \(FolderPath.maxLinks) links on the way (a loop?)"
            case .tooLong: "longer than \(FolderPath.maxLength) bytes or \(FolderPath.maxDepth) folders deep"
            }
        }
    }

    /// Why a path could not be opened: it was refused, or the system said no (`errno`) at `place`, the part of
    /// the path walked so far.
    public enum Failure: Error, Equatable, Sendable {
        case refused(Refusal)
        case system(errno: Int32, place: String)
    }

    /// The most links followed in one path, as Linux's own limit for one lookup (`MAXSYMLINKS`, 40).
    public static let maxLinks = 40
    /// The longest path taken, in bytes, and the deepest folder reached: `PATH_MAX`, and a depth no asset needs
    /// (each level held open while the walk goes on). Chosen here.
    public static let maxLength = 4096
    public static let maxDepth = 64

    /// Whether `path`, as written, stays inside the folder it is read from: nil when it does, else why not. Empty
    /// components and `.` are nothing; a `..` goes back one name and may never go above the start.
    public static func refusalAsWritten(_ path: String) -> Refusal? {
        if path.utf8.contains(0) { return .nulCharacter }
        if path.utf8.count > maxLength { return .tooLong }
        if path.hasPrefix("/") { return .absolute }
        var depth = 0
        for part in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            if part.elementsEqual(".".utf8) { continue }
            if part.elementsEqual("..".utf8) {
                if depth == 0 { return .climbsOut }
                depth -= 1
            } else {
                depth += 1
            }
        }
        return nil
    }

    /// Opens the file at `path` inside `folder` for reading, without waiting on a pipe (`O_NONBLOCK`), and returns
    /// its descriptor; the caller closes it. Whatever it opens lies inside the folder when it is opened: every
    /// component is opened by name from a folder reached the same way, without following links.
    public static func open(_ path: String, inside folder: String) throws(Failure) -> Int32 {
        if let refusal = refusalAsWritten(path) { throw .refused(refusal) }
        let root = FileName.withBytes(folder) { openFile($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard root >= 0 else { throw .system(errno: errno, place: folder) }
        // The folders walked into, the first the root, each with its name: a `..` closes the last.
        var folders: [(fd: Int32, name: String)] = [(root, "")]
        defer { for f in folders { close(f.fd) } }
        var pending = components(path).reversed() as [String]
        var links = 0
        var realFolder: String?
        func place(_ name: String) -> String {
            (folders.dropFirst().map(\.name) + [name]).joined(separator: "/")
        }
        while let name = pending.popLast() {
            if name == ".." {
                guard folders.count > 1 else { throw .refused(.climbsOut) }
                close(folders.removeLast().fd)
                // A path ending in `..` names the folder it climbed to.
                if pending.isEmpty { pending.append(".") }
                continue
            }
            let last = pending.isEmpty
            // A `.` stands where it is; only a last one opens (the folder reached).
            if name == "." && !last { continue }
            let flags = (last ? O_RDONLY | O_NONBLOCK : O_RDONLY | O_DIRECTORY) | O_NOFOLLOW | O_CLOEXEC
            let fd = FileName.withBytes(name) { openat(folders[folders.count - 1].fd, $0, flags) }
            if fd >= 0 {
                if last { return fd }
                guard folders.count <= maxDepth else { close(fd); throw .refused(.tooLong) }
                folders.append((fd, name))
                continue
            }
            let failure = errno
            // O_NOFOLLOW fails on a link (ELOOP; ENOTDIR on some systems with O_DIRECTORY): read where it points.
            guard failure == ELOOP || failure == ENOTDIR,
                  let target = readLink(name, in: folders[folders.count - 1].fd) else {
                throw .system(errno: failure, place: place(name))
            }
            links += 1
            guard links <= maxLinks else { throw .refused(.tooManyLinks) }
            var rest = target
            if target.hasPrefix("/") {
                // An absolute target counts only when it names the folder by its real path: the walk starts again
                // from the folder with what follows.
                if realFolder == nil { realFolder = realPath(folder) }
                guard let real = realFolder, let inside = relative(target, to: real) else {
                    throw .refused(.link(place(name), target: target))
                }
                for f in folders.dropFirst() { close(f.fd) }
                folders.removeSubrange(1...)
                rest = inside
            }
            let more = components(rest)
            // The walk may climb back out of where the link lies, but never above the folder.
            var depth = folders.count - 1
            for part in more {
                depth += part == ".." ? -1 : 1
                if depth < 0 { throw .refused(.link(place(name), target: target)) }
            }
            pending += more.reversed()
        }
        // Unreachable: a path's components end with a name or `.`, each of which returns or throws.
        throw .system(errno: ENOENT, place: folder)
    }

    /// The names of `path` in order, without empty ones and `.`, but for a last `.` that stands for a path ending
    /// in a folder (`images/`, `images/.`, or nothing), which must then be one, as the system has it.
    static func components(_ path: String) -> [String] {
        let names = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let endsInFolder = names.last.map { $0 == "." || path.hasSuffix("/") } ?? true
        return names.filter { $0 != "." } + (endsInFolder ? ["."] : [])
    }

    /// Where the link `name` in the folder `fd` points; nil when it is no link.
    private static func readLink(_ name: String, in fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: maxLength + 1)
        let n = FileName.withBytes(name) { readlinkat(fd, $0, &buffer, maxLength) }
        guard n >= 0 else { return nil }
        buffer[n] = 0
        return FileName.decode(buffer)
    }

    /// The folder's absolute path with every link resolved, as `realpath(3)` gives it.
    private static func realPath(_ folder: String) -> String? {
        guard let resolved = FileName.withBytes(folder, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return FileName.decode(resolved)
    }

    /// What follows `folder` in the absolute path `path`: "" for the folder itself, nil when it lies elsewhere.
    static func relative(_ path: String, to folder: String) -> String? {
        if folder == "/" { return String(path.dropFirst()) }
        guard path.hasPrefix(folder) else { return nil }
        let rest = path.dropFirst(folder.count)
        guard rest.isEmpty || rest.hasPrefix("/") else { return nil }
        return String(rest.drop { $0 == "/" })
    }
}

extension UserFile {
    /// The whole content of the file at `path` inside `folder` (see `FolderPath`), at most `limit` bytes.
    ///
    /// - Parameters:
    ///   - kind: what the file is, for messages ("image file").
    ///   - outsideAdvice: what to do when the path leads outside the folder.
    /// - Throws: `FileError` naming the file as the folder and the path make it: outside the folder, missing, not a
    ///   regular file, unreadable, or over the limit.
    public static func read(_ path: String, inside folder: String, kind: String, limit: Int,
                            outsideAdvice: String) throws(FileError) -> [UInt8] {
        let shown = FileName.joined(folder, path)
        let fd: Int32
        do {
            fd = try FolderPath.open(path, inside: folder)
        } catch {
            switch error {
            case .refused(let refusal):
                throw FileError(file: shown, reason: "\(refusal); \(outsideAdvice)")
            case .system(let code, let place):
                // Where the walk stopped, when that is not the whole path: a missing folder, a link's target.
                let whole = place == path
                throw FileError(file: shown, reason: code == ENOENT
                                ? "no such \(kind)\(whole ? "" : " ('\(place)' is missing)"); check the path"
                                : "cannot read the \(kind)\(whole ? "" : " (at '\(place)')"): "
                                + "\(String(cString: strerror(code))); check the path and its permissions")
            }
        }
        return try read(opened: fd, path: shown, kind: kind, limit: limit)
    }
}

/// open(2), outside `FolderPath` whose own `open` hides it.
private func openFile(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 { open(path, flags) }

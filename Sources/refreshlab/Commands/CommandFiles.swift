#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UserFiles

/// The files one command reads and writes, each under the option that names it, checked before anything runs so
/// that no output is written over an input or over another output.
///
/// Two paths are the same file when both exist and share device and inode (a hard link, a symbolic link, `./a`
/// and `a`), or when neither exists and they resolve to the same path. Paths that are neither regular files nor
/// folders (`/dev/null`, `/dev/stdout`, a FIFO) are written in place, never replaced, so several outputs may share
/// one. An output folder clashes with any file the command names inside it whose name it would write (`owns`).
struct CommandFiles {
    private struct Entry {
        let option: String
        let path: String
        let isOutput: Bool
        /// For an output folder: the names of the files it writes.
        let owns: ((String) -> Bool)?
        let identity: FileIdentity
    }

    private var entries: [Entry] = []

    init() {}

    /// Adds a file or folder the command reads, named by `option` ("--script", "the Lottie file").
    mutating func reads(_ path: String?, as option: String) {
        add(path, option, isOutput: false, owns: nil)
    }

    /// Adds a file the command writes, or a folder whose files named as `owns` accepts it writes.
    mutating func writes(_ path: String?, as option: String, owning owns: ((String) -> Bool)? = nil) {
        add(path, option, isOutput: true, owns: owns)
    }

    private mutating func add(_ path: String?, _ option: String, isOutput: Bool, owns: ((String) -> Bool)?) {
        guard let path, !path.isEmpty else { return }
        entries.append(Entry(option: option, path: path, isOutput: isOutput, owns: owns,
                             identity: FileIdentity(path)))
    }

    /// - Throws: `LabError` naming both options and the path when an output is an input or another output, or
    ///   lies inside an output folder under a name that folder writes; nothing has been written then.
    func checkApart() throws {
        for (i, a) in entries.enumerated() {
            for b in entries[(i + 1)...] where a.isOutput || b.isOutput {
                if a.identity.isSameFile(as: b.identity) {
                    throw clash(a, b)
                }
                for (folder, file) in [(a, b), (b, a)] {
                    if let owns = folder.owns, let parent = file.identity.folder, let name = file.identity.name,
                       parent == folder.identity.kind, owns(name) {
                        throw LabError("\(file.option) '\(file.path)' is in the \(folder.option) folder "
                            + "'\(folder.path)' under a name written there; nothing was written: give "
                            + "\(file.option) a path outside that folder")
                    }
                }
            }
        }
    }

    private func clash(_ a: Entry, _ b: Entry) -> LabError {
        let (output, other) = a.isOutput ? (a, b) : (b, a)
        let same = a.path == b.path ? "'\(a.path)'" : "'\(a.path)' and '\(b.path)'"
        return LabError("\(other.option) and \(output.option) name the same file (\(same)); nothing was written: give "
            + "\(output.option) another path, or the \(other.isOutput ? "output" : "input") would be lost")
    }
}

/// What makes a path one file: its device and inode when it exists, else the path it resolves to.
struct FileIdentity {
    enum Kind: Equatable {
        case existing(device: UInt64, inode: UInt64, sharable: Bool)
        case missing(resolved: String)
    }

    let kind: Kind
    /// The folder the path is in (as a path of its own) and the path's last component.
    let folder: Kind?
    let name: String?

    init(_ path: String) {
        var info = stat()
        if FileName.withBytes(path, { stat($0, &info) }) == 0 {
            let type = info.st_mode & S_IFMT
            kind = .existing(device: UInt64(info.st_dev), inode: UInt64(info.st_ino),
                             sharable: type != S_IFREG && type != S_IFDIR)
        } else {
            kind = .missing(resolved: FileIdentity.resolved(path))
        }
        let (folder, last) = FileName.split(path)
        var folderInfo = stat()
        if last.isEmpty {
            self.folder = nil
            name = nil
        } else if FileName.withBytes(folder, { stat($0, &folderInfo) }) == 0 {
            self.folder = .existing(device: UInt64(folderInfo.st_dev), inode: UInt64(folderInfo.st_ino),
                                    sharable: false)
            name = last
        } else {
            // A folder not made yet (a --frames folder the run will create) is known by its resolved path.
            self.folder = .missing(resolved: FileIdentity.resolved(folder))
            name = last
        }
    }

    /// True when writing one would change the other. Devices and pipes are shared, never replaced.
    func isSameFile(as other: FileIdentity) -> Bool {
        if case .existing(_, _, true) = kind { return false }
        return kind == other.kind
    }

    /// The absolute path a missing file would have: its nearest existing folder resolved (links and `..`
    /// followed), the rest appended as written with `.` and `..` taken out.
    static func resolved(_ path: String) -> String {
        var pending: [String] = []
        var folder = path
        while true {
            let (parent, last) = FileName.split(folder)
            if !last.isEmpty && last != "." { pending.insert(last, at: 0) }
            if let real = FileName.withBytes(parent, { realpath($0, nil) }) {
                var components = FileName.decode(real).split(separator: "/").map(String.init)
                free(real)
                for part in pending {
                    if part == ".." { _ = components.popLast() } else if part != "." { components.append(part) }
                }
                return "/" + components.joined(separator: "/")
            }
            if parent == folder || parent == "/" || parent == "." { return path }
            folder = parent
        }
    }
}

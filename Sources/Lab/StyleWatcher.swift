import Raster
import Refresh
import Styles
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Watches style files with inotify on a thread of its own and calls `onChange` when one is saved.
///
/// Editors save by writing a new file and renaming it over the old one, which replaces the inode a file watch
/// would follow; so the watcher watches each file's folder and picks the events by name: a write closed, a file
/// moved in or created, and in the user's folder also a `*.json` removed. Events that come in a burst (a save is
/// often several) are taken as one: `onChange` runs once the folder has been quiet for `settleTime`.
public final class StyleWatcher: @unchecked Sendable {
    /// How long after the last event of a burst the change is reported, in seconds: long enough for an editor's
    /// write-and-rename, short against the 200 ms a reload may take.
    public static let settleTime = 0.03

    private let inotify: Int32
    private let stopPipe: (read: Int32, write: Int32)
    /// Per watch descriptor: the names that matter in that folder, or nil for every `*.json`.
    private let watched: [Int32: Set<String>?]
    private let onChange: @Sendable () -> Void
    private var thread: pthread_t?
    private var isStopped = false

    /// Starts watching the folders of `files` for those files, and `folder` (when it exists) for any `*.json`.
    ///
    /// - Throws: `LabError` when inotify cannot be set up.
    public init(files: [String], folder: String?, onChange: @escaping @Sendable () -> Void) throws {
        self.onChange = onChange
        inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else { throw LabError("cannot watch the style files: \(String(cString: strerror(errno)))") }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            close(inotify)
            throw LabError("cannot watch the style files: \(String(cString: strerror(errno)))")
        }
        stopPipe = (fds[0], fds[1])
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let saved = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)
        var byFolder: [String: Set<String>?] = [:]
        for file in files {
            let (dir, name) = StyleWatcher.split(file)
            if case .some(.some(var names)) = byFolder[dir] {
                names.insert(name)
                byFolder[dir] = names
            } else if byFolder[dir] == nil {
                byFolder[dir] = Set([name])
            }
        }
        if let folder { byFolder[folder] = .some(nil) }
        var watched: [Int32: Set<String>?] = [:]
        let inotify = self.inotify
        for (dir, names) in byFolder {
            let mask = names == nil ? saved | UInt32(IN_DELETE | IN_MOVED_FROM) : saved
            let wd = FileName.withBytes(dir) { inotify_add_watch(inotify, $0, mask) }
            // A folder that does not exist (yet) is not watched; its files were not read either.
            if wd >= 0 { watched[wd] = names }
        }
        self.watched = watched
        var tid = pthread_t()
        // Unretained: the owner's release runs `deinit`, whose `stop()` joins the thread before anything goes.
        let context = Unmanaged.passUnretained(self).toOpaque()
        if pthread_create(&tid, nil, { context in
            Unmanaged<StyleWatcher>.fromOpaque(context!).takeUnretainedValue().watch()
            return nil
        }, context) == 0 {
            thread = tid
        }
    }

    /// The folder and the name of a path ("." for a bare name).
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// Stops the thread and closes the watch; safe to call more than once.
    public func stop() {
        guard inotify >= 0, !isStopped else { return }
        isStopped = true
        if let thread {
            var byte: UInt8 = 1
            _ = write(stopPipe.write, &byte, 1)
            pthread_join(thread, nil)
        }
        close(inotify)
        close(stopPipe.read)
        close(stopPipe.write)
    }

    /// The thread: waits for events or the stop byte; reports a burst once it has settled.
    private func watch() {
        var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 4096)
        var changed = false
        while true {
            let timeout: Int32 = changed ? Int32(StyleWatcher.settleTime * 1000) : -1
            let ready = poll(&fds, 2, timeout)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || fds[1].revents != 0 { return }
            if ready == 0 {
                changed = false
                onChange()
                continue
            }
            while true {
                let n = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
                guard n > 0 else { break }
                if matches(buffer, count: n) { changed = true }
            }
        }
    }

    /// Whether any event in the first `count` bytes of `buffer` is about a watched name.
    private func matches(_ buffer: [UInt8], count: Int) -> Bool {
        var offset = 0, found = false
        // struct inotify_event: wd (Int32), mask, cookie, len (UInt32), then `len` bytes of name, NUL-padded.
        while offset + 16 <= count {
            func word(_ at: Int) -> UInt32 {
                UInt32(buffer[at]) | UInt32(buffer[at + 1]) << 8 | UInt32(buffer[at + 2]) << 16 | UInt32(buffer[at + 3]) << 24
            }
            let wd = Int32(bitPattern: word(offset))
            let length = Int(word(offset + 12))
            let nameBytes = buffer[(offset + 16)..<Swift.min(offset + 16 + length, count)].prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            if let names = watched[wd] {
                if let names { found = found || names.contains(name) } else { found = found || name.hasSuffix(".json") }
            }
            offset += 16 + length
        }
        return found
    }

    deinit { stop() }
}

/// Reloads the style files when the watcher says they changed, on the frame loop's thread, in its input phase:
/// the physics and the header take the new values with no reset; a broken file keeps the last good values and
/// says what is wrong in a toast and on standard error.
public final class StyleReloader: @unchecked Sendable {
    /// Set by the watcher's thread, taken by the frame loop.
    private let pending = Atomic<Bool>(false)
    private let paths: () -> [String]
    /// The sections files may have, made once.
    private let catalog = StyleFiles.catalog
    private var watcher: StyleWatcher?
    /// The fault of the last reload, nil when it read.
    public private(set) var lastError: StyleError?
    /// How many times the styles were read again.
    public private(set) var reloadCount = 0

    /// Watches the files `paths` gives (asked again at each reload, as files may come and go in `folder`) and
    /// `folder`; `wake` runs on the watcher's thread after a change, to wake a loop asleep in its event queue.
    public init(paths: @escaping () -> [String], folder: String?, wake: @escaping @Sendable () -> Void) throws {
        self.paths = paths
        watcher = try StyleWatcher(files: paths(), folder: folder) { [weak self] in
            self?.pending.store(true, ordering: .releasing)
            wake()
        }
    }

    /// Reads the styles again if a file changed since the last call, and gives them to `simulation`. Returns true
    /// when something was done (new values, or a fault shown).
    @discardableResult
    public func applyPending(to simulation: Simulation) -> Bool {
        guard pending.exchange(false, ordering: .acquiring) else { return false }
        reloadCount += 1
        do {
            var book = try StyleFiles.load(paths(), catalog: catalog)
            // Values tuned in the panel and not saved yet stay; a save of the panel's own values reads back the
            // same and says nothing.
            simulation.tuning.reapplyUnsaved(to: &book)
            let same = book.hasSameValues(as: simulation.styles)
            simulation.styles = book
            lastError = nil
            if !same { simulation.showToast("Styles reloaded") }
        } catch {
            lastError = error
            simulation.showToast("Style file broken; the last good values stay", detail: error.description)
            FileLines.standardError("\(error.description) (the last good values stay)")
        }
        return true
    }

    /// Stops watching.
    public func stop() {
        watcher?.stop()
        watcher = nil
    }

    deinit { stop() }
}

import Raster
import Refresh
import Styles
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import UserFiles

/// Watches files and folders with inotify on a thread of its own, and says when one of them changed: the window's
/// style files and the animation a header plays.
///
/// Editors save by writing a new file and renaming it over the old one, which replaces the inode a file watch
/// would follow; so the watcher watches each file's folder and picks the events by name: a write closed, a file
/// moved in or created, and in a watched folder also a file removed. Events that come in a burst (a save is
/// often several) are taken as one: the change is reported once the folder has been quiet for `settleTime`.
public final class FileWatcher: @unchecked Sendable {
    /// How long after the last event of a burst the change is reported, in seconds: long enough for an editor's
    /// write-and-rename, short against the 200 ms a reload may take.
    static let settleTime = 0.03

    /// What to watch.
    public enum Target: Hashable, Sendable {
        /// One file, by its name in its folder.
        case file(String)
        /// Every file in a folder whose name ends with `suffix` ("" for all), removals included.
        case folder(String, suffix: String)
    }

    private let inotify: Int32
    private let stopPipe: (read: Int32, write: Int32)
    /// Per watch descriptor: the names that matter in that folder, or the suffix of those that do.
    private let watched: [Int32: Names]
    private let wake: @Sendable () -> Void
    /// Set by the watcher's thread, taken by `takeChange()`.
    private let pending = Atomic<Bool>(false)
    private var thread: pthread_t?
    private var isStopped = false

    private enum Names {
        case exactly(Set<String>)
        case endingWith(String)
    }

    /// Starts watching `targets`; `wake` runs on the watcher's thread after a change, to wake a loop asleep in its
    /// event queue. A folder that does not exist is not watched.
    ///
    /// - Throws: `LabError` when inotify cannot be set up.
    public init(_ targets: [Target], wake: @escaping @Sendable () -> Void) throws {
        self.wake = wake
        inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else { throw LabError("cannot watch files for changes: \(String(cString: strerror(errno)))") }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            close(inotify)
            throw LabError("cannot watch files for changes: \(String(cString: strerror(errno)))")
        }
        stopPipe = (fds[0], fds[1])
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var byFolder: [String: Names] = [:]
        for target in targets {
            switch target {
            case .file(let file):
                let (dir, name) = FileName.split(file)
                switch byFolder[dir] {
                case .exactly(let names)?: byFolder[dir] = .exactly(names.union([name]))
                case nil: byFolder[dir] = .exactly([name])
                case .endingWith?: break  // the folder's own watch sees it when its suffix does
                }
            case .folder(let folder, let suffix):
                byFolder[folder] = .endingWith(suffix)
            }
        }
        let saved = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)
        var watched: [Int32: Names] = [:]
        let inotify = self.inotify
        for (dir, names) in byFolder {
            let mask = if case .endingWith = names { saved | UInt32(IN_DELETE | IN_MOVED_FROM) } else { saved }
            let wd = FileName.withBytes(dir) { inotify_add_watch(inotify, $0, mask) }
            if wd >= 0 { watched[wd] = names }
        }
        self.watched = watched
        var tid = pthread_t()
        // Unretained: the owner's release runs `deinit`, whose `stop()` joins the thread before anything goes.
        let context = Unmanaged.passUnretained(self).toOpaque()
        if pthread_create(&tid, nil, { context in
            Unmanaged<FileWatcher>.fromOpaque(context!).takeUnretainedValue().watch()
            return nil
        }, context) == 0 {
            thread = tid
        }
    }

    /// True once after each change: the caller reloads then.
    func takeChange() -> Bool {
        pending.exchange(false, ordering: .acquiring)
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
            let timeout: Int32 = changed ? Int32(FileWatcher.settleTime * 1000) : -1
            let ready = poll(&fds, 2, timeout)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || fds[1].revents != 0 { return }
            if ready == 0 {
                changed = false
                pending.store(true, ordering: .releasing)
                wake()
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
            switch watched[wd] {
            case .exactly(let names)?: found = found || names.contains(name)
            case .endingWith(let suffix)?: found = found || (name.hasSuffix(suffix) && !name.hasPrefix("."))
            case nil: break
            }
            offset += 16 + length
        }
        return found
    }

    deinit { stop() }
}

/// Something the frame loop asks, in its input phase, whether files it watches changed, and which then reads them
/// again into the simulation.
public protocol FileReloader: AnyObject {
    /// Reads the files again if one changed since the last call, and gives them to `simulation`. Returns true when
    /// something was done (new values, or a fault shown).
    func applyPending(to simulation: Simulation) -> Bool
    /// Stops watching.
    func stop()
}

/// Reloads the style files when the watcher says they changed, on the frame loop's thread, in its input phase:
/// the physics and the header take the new values with no reset; a broken file keeps the last good values and
/// says what is wrong in a toast and on standard error.
public final class StyleReloader: FileReloader {
    private let paths: () -> [String]
    /// The sections files may have, made once.
    private let catalog = StyleFiles.catalog
    private var watcher: FileWatcher?
    /// The fault of the last reload, nil when it read.
    private(set) var lastError: StyleError?
    /// How many times the styles were read again.
    private(set) var reloadCount = 0

    /// Watches the files `paths` gives (asked again at each reload, as files may come and go in `folder`) and
    /// the `*.json` files of `folder`; `wake` runs on the watcher's thread after a change.
    public init(paths: @escaping () -> [String], folder: String?, wake: @escaping @Sendable () -> Void) throws {
        self.paths = paths
        watcher = try FileWatcher(paths().map { .file($0) } + (folder.map { [.folder($0, suffix: ".json")] } ?? []),
                                  wake: wake)
    }

    @discardableResult
    public func applyPending(to simulation: Simulation) -> Bool {
        guard watcher?.takeChange() == true else { return false }
        reloadCount += 1
        do {
            // Values tuned in the panel and not saved yet stay; a save of the panel's own values reads back the
            // same and says nothing.
            let changed = try simulation.restyle(with: StyleFiles.load(paths(), catalog: catalog))
            lastError = nil
            if changed { simulation.showToast("Styles reloaded") }
        } catch {
            lastError = error
            simulation.showToast("Style file broken; the last good values stay", detail: error.description)
            FileLines.standardError("\(error.description) (the last good values stay)")
        }
        return true
    }

    public func stop() {
        watcher?.stop()
        watcher = nil
    }

    deinit { stop() }
}

/// Reads the headers' animation files again when one changes on disk (a designer exporting a new version), on the
/// frame loop's thread: the header shows the new animation from the next frame, in the state it is in; a file now
/// broken keeps the last good animation and says what is wrong in a toast and on standard error.
public final class AnimationReloader: FileReloader {
    private var watcher: FileWatcher?

    /// Watches `paths` (files, or folders of pictures with their `idle`, `pulling` and `refreshing` folders).
    public init(paths: [String], wake: @escaping @Sendable () -> Void) throws {
        var targets: [FileWatcher.Target] = []
        for path in paths {
            guard AnimationFiles.isDirectory(path) else {
                targets.append(.file(path))
                continue
            }
            targets.append(.folder(path, suffix: ""))
            for state in GifHeaderState.allCases where AnimationFiles.isDirectory(path + "/" + state.rawValue) {
                targets.append(.folder(path + "/" + state.rawValue, suffix: ""))
            }
        }
        watcher = try FileWatcher(targets, wake: wake)
    }

    @discardableResult
    public func applyPending(to simulation: Simulation) -> Bool {
        guard watcher?.takeChange() == true else { return false }
        let results = simulation.reloadAnimations()
        if let failed = results.first(where: { $0.error != nil }), let error = failed.error {
            simulation.showToast("Animation file broken; the last good one stays", detail: error)
            FileLines.standardError("\(error) (the last good animation stays)")
        } else {
            simulation.showToast("Animation reloaded", detail: results.map(\.path).joined(separator: ", "))
        }
        return true
    }

    public func stop() {
        watcher?.stop()
        watcher = nil
    }

    deinit { stop() }
}

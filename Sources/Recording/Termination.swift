#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UserFiles

/// How the process ends when it is asked to (SIGINT from Ctrl-C, SIGTERM, SIGHUP from a closed terminal or a dropped
/// connection, SIGQUIT from Ctrl-\\): with everything under way finished whole, and no crash report.
///
/// The signal handler only writes the signal's number to a pipe (write(2) is async-signal-safe; formatting and
/// renaming files in a handler is not, and the frame loop may be in the middle of a row). A watcher thread reads the
/// pipe, sets `signal` and runs the handlers added with `addRequestHandler` (waking a loop asleep in its event
/// queue). Frame loops check `isRequested` once a frame and quit as if the user had pressed Q, finishing their
/// recordings, videos and captures (ffmpeg included, however long it takes); the program then exits with status
/// 128 + the signal's number. SIGPIPE is ignored: a closed standard output (`refreshlab | head -1`) makes writes to it
/// fail, which is no reason to stop a run or lose its files. A second signal is for a program that takes too long:
/// the watcher runs the savers (`addSaver`: the timing recordings under way), then the stoppers (`addStopper`: what
/// cannot be finished at once stops and removes its partial output), removes the outputs still being written, and
/// exits with that status.
public enum Termination {
    /// What the first signal does.
    public enum FirstSignal: Sendable {
        /// Asks the frame loop to finish its outputs and quit (`isRequested`); a second signal ends it at once.
        case finishesTheRun
        /// Ends the process at once, with its outputs whole or absent: for a command that writes one file after a
        /// short computation and has no loop to check `isRequested`.
        case endsAtOnce
    }

    /// Installs the handlers, as early as possible (the program's first line), or on a later call only changes what
    /// the first signal does: a command that runs a frame loop asks for `.finishesTheRun` once its loop can hear it.
    public static func install(_ firstSignal: FirstSignal = .finishesTheRun) {
        pthread_mutex_lock(terminationLock)
        defer { pthread_mutex_unlock(terminationLock) }
        endsAtFirstSignal = firstSignal == .endsAtOnce
        guard !handlersInstalled else { return }
        handlersInstalled = true
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
        terminationPipeRead = fds[0]
        terminationPipeWrite = fds[1]
        ignoreBrokenPipes()
        for sig in endingSignals {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = terminationSignalHandler
            #else
            action.__sigaction_u.__sa_handler = terminationSignalHandler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(sig, &action, nil)
        }
        // A process started with the signals blocked (its parent's mask is inherited) would never see them.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for sig in endingSignals { sigaddset(&unblock, sig) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        var thread = pthread_t()
        pthread_create(&thread, nil, { _ in
            Termination.watch()
            return nil
        }, nil)
        pthread_detach(thread)
    }

    /// The signals that ask the process to end, each finishing what is under way.
    public static let endingSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Makes a write to a closed pipe or socket fail with EPIPE instead of ending the process: every command's
    /// output may go to a reader that stops early.
    private static func ignoreBrokenPipes() {
        Glibc.signal(SIGPIPE, SIG_IGN)
    }

    /// The signal that asked the process to end (one of `endingSignals`), or nil; frame loops check it every frame.
    public static var signal: Int32? {
        pthread_mutex_lock(terminationLock)
        defer { pthread_mutex_unlock(terminationLock) }
        return receivedSignal
    }

    /// True once one of `endingSignals` has arrived: the frame loop should stop its recording and quit.
    public static var isRequested: Bool { signal != nil }

    /// After a second signal the watcher saves the recordings, stops the child programs and exits the process
    /// itself: a thread that finds its child stopped that way waits here for that exit, instead of reporting the
    /// stop as a failure of its own and exiting first with another status.
    static func waitIfStoppingAtOnce() {
        pthread_mutex_lock(terminationLock)
        let stopping = isStoppingAtOnce
        pthread_mutex_unlock(terminationLock)
        guard stopping else { return }
        while true { pause() }
    }

    /// Adds work for the watcher to do first when a second signal stops the process at once: saving what can be
    /// saved. It runs on the watcher's thread.
    static func addSaver(_ handler: @escaping @Sendable () -> Void) {
        pthread_mutex_lock(terminationLock)
        defer { pthread_mutex_unlock(terminationLock) }
        savers.append(handler)
    }

    /// Adds work for the watcher to do after the savers, before it exits the process on a second signal (stopping
    /// a program that writes a file, say). It runs on the watcher's thread.
    static func addStopper(_ handler: @escaping @Sendable () -> Void) {
        pthread_mutex_lock(terminationLock)
        defer { pthread_mutex_unlock(terminationLock) }
        stoppers.append(handler)
    }

    /// Adds work for the watcher to do as soon as a signal arrives: waking a frame loop asleep in its event queue,
    /// say. It runs on the watcher's thread.
    public static func addRequestHandler(_ handler: @escaping @Sendable () -> Void) {
        pthread_mutex_lock(terminationLock)
        defer { pthread_mutex_unlock(terminationLock) }
        requestHandlers.append(handler)
    }

    /// Writes `message` with write(2), which a thread about to exit the process can still rely on.
    static func writeToStandardError(_ message: String) {
        _ = message.withCString { write(2, $0, strlen($0)) }
    }

    private static func watch() {
        let signal = nextSignal()
        pthread_mutex_lock(terminationLock)
        receivedSignal = signal
        let wakers = requestHandlers
        pthread_mutex_unlock(terminationLock)
        for wake in wakers { wake() }
        // The program finishes what is under way and exits by itself; a second signal stops it now.
        pthread_mutex_lock(terminationLock)
        let endsAtOnce = endsAtFirstSignal
        pthread_mutex_unlock(terminationLock)
        if !endsAtOnce { _ = nextSignal() }
        pthread_mutex_lock(terminationLock)
        isStoppingAtOnce = true
        let handlers = savers + stoppers
        pthread_mutex_unlock(terminationLock)
        for handler in handlers { handler() }
        // Whatever was still being written is removed: no file is left half-written, nor its temporary.
        OutputFile.removeUnfinished()
        _exit(128 + signal)
    }

    /// Waits for the next signal the handler passes on.
    private static func nextSignal() -> Int32 {
        var byte: UInt8 = 0
        while read(terminationPipeRead, &byte, 1) < 0 && errno == EINTR {}
        return Int32(byte)
    }
}

/// A set of objects shared between threads, compared by identity.
final class LockedObjects<Object: AnyObject>: @unchecked Sendable {
    private var objects: [Object] = []
    private var lock = pthread_mutex_t()

    init() { pthread_mutex_init(&lock, nil) }

    func insert(_ object: Object) {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        if !objects.contains(where: { $0 === object }) { objects.append(object) }
    }

    func remove(_ object: Object) {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        objects.removeAll { $0 === object }
    }

    func snapshot() -> [Object] {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return objects
    }
}

// The termination machinery's state: written before the handlers are installed or under `terminationLock`.
private nonisolated(unsafe) let terminationLock: UnsafeMutablePointer<pthread_mutex_t> = {
    let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    pthread_mutex_init(lock, nil)
    return lock
}()
private nonisolated(unsafe) var handlersInstalled = false
private nonisolated(unsafe) var receivedSignal: Int32?
private nonisolated(unsafe) var isStoppingAtOnce = false
private nonisolated(unsafe) var endsAtFirstSignal = false
private nonisolated(unsafe) var savers: [@Sendable () -> Void] = []
private nonisolated(unsafe) var stoppers: [@Sendable () -> Void] = []
private nonisolated(unsafe) var requestHandlers: [@Sendable () -> Void] = []
private nonisolated(unsafe) var terminationPipeRead: Int32 = -1
/// Read by the signal handler: set once before the handler is installed.
private nonisolated(unsafe) var terminationPipeWrite: Int32 = -1

/// Writes the signal's number to the pipe, and nothing else: write(2) is async-signal-safe.
private func terminationSignalHandler(_ signal: Int32) {
    var byte = UInt8(truncatingIfNeeded: signal)
    let saved = errno
    _ = write(terminationPipeWrite, &byte, 1)
    errno = saved
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TestSupport
@testable import Lab

/// The `refreshlab` executable built beside the test binary (SwiftPM puts both in one folder; CMake one level up),
/// or nil when it is not there.
let refreshlabExecutable: String? = {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    var dir = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    for _ in 0..<3 {
        guard let slash = dir.lastIndex(of: "/") else { return nil }
        dir = String(dir[..<slash])
        let candidate = dir + "/refreshlab"
        var info = stat()
        if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 {
            return candidate
        }
    }
    return nil
}()

@Suite("Timings survive SIGTERM")
struct TimingTerminationTests {
    @Test("SIGTERM during a headless recording leaves a complete CSV and JSON summary",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"))
    func sigterm() throws {
        let exe = try #require(refreshlabExecutable)
        let dir = temporaryDirectory("sigterm")
        let csv = dir + "/t.csv", json = dir + "/t.json"
        let args = [exe, "run", "--headless", "--script", "long", "--timings", csv]
        var cArgs: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, dir + "/stdout", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, dir + "/stderr", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // The child starts with no signal blocked and SIGTERM at its default, whatever the test runner's are.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGINT)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, exe, &actions, &attributes, &cArgs, environ)
        try #require(spawned == 0)
        // Wait until frames are being recorded (the temporary CSV has rows), then stop the run midway.
        var waited = 0
        var status: Int32 = 0
        var exited = false
        while waited < 600 {
            if waitpid(pid, &status, WNOHANG) == pid { exited = true; break }
            if let partial = readTextFile(csv + ".tmp"), partial.split(separator: "\n").count > 61 { break }
            usleep(50_000)
            waited += 1
        }
        #expect(!exited, "the run ended before it could be stopped: \(readTextFile(dir + "/stderr") ?? "")")
        kill(pid, SIGTERM)
        for _ in 0..<400 where !exited {  // up to 20 s
            if waitpid(pid, &status, WNOHANG) == pid { exited = true; break }
            usleep(50_000)
        }
        if !exited { kill(pid, SIGKILL); _ = waitpid(pid, &status, 0) }
        #expect(exited)
        // Ended by itself (status 0 or 128 + SIGTERM), not killed by the signal.
        let code = (status >> 8) & 0xFF, signalled = status & 0x7F
        #expect(signalled == 0)
        #expect(code == 0 || code == 128 + SIGTERM)

        let text = try #require(readTextFile(csv))
        let rows = try TimingRow.parse(text, path: csv)
        #expect(text.hasSuffix("\n"))
        // The long script is ten seconds: stopped midway, so some but not all of its 600 frames.
        #expect(rows.count > 60 && rows.count < 600)
        #expect(rows.map(\.frame) == Array(rows[0].frame..<(rows[0].frame + rows.count)))
        let summary = try JSONReader.parse(try #require(readTextFile(json)))
        #expect(timingJSONNumber(summary, "frames") == Double(rows.count))
        #expect(timingJSONNumber(summary, "interval_ms", "max") == 16.667)
        #expect(!fileExists(csv + ".tmp") && !fileExists(json + ".tmp"))
    }
}

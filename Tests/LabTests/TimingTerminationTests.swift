#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TestSupport
@testable import Lab
@testable import UserFiles
@testable import Recording

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
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"),
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"))
    func sigterm() throws {
        let dir = temporaryDirectory("sigterm")
        let csv = dir + "/t.csv", json = dir + "/t.json"
        let pid = try spawnRefreshlab(["run", "--script", "long", "--timings", csv], in: dir)
        // Wait until frames are being recorded (the temporary CSV has rows), then stop the run midway.
        var waited = 0
        var status: Int32 = 0
        var exited = false
        while waited < Int(600 * timeLimitScale) {
            if waitpid(pid, &status, WNOHANG) == pid { exited = true; break }
            if let partial = readTextFile(csv + ".tmp"), partial.split(separator: "\n").count > 61 { break }
            usleep(50_000)
            waited += 1
        }
        #expect(!exited, "the run ended before it could be stopped: \(readTextFile(dir + "/stderr") ?? "")")
        kill(pid, SIGTERM)
        for _ in 0..<Int(400 * timeLimitScale) where !exited {  // up to 20 s (80 s under AddressSanitizer)
            if waitpid(pid, &status, WNOHANG) == pid { exited = true; break }
            usleep(50_000)
        }
        if !exited { kill(pid, SIGKILL); _ = waitpid(pid, &status, 0) }
        #expect(exited)
        // Ended by itself with 128 + SIGTERM, as a shell reports a run stopped by it, not killed by the signal.
        let code = (status >> 8) & 0xFF, signalled = status & 0x7F
        #expect(signalled == 0)
        #expect(code == 128 + SIGTERM)

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

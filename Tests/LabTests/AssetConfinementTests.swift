#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import UserFiles

/// `strace`, when it is installed: it records every file the executable opens.
let straceExecutable: String? = ["/usr/bin/strace", "/bin/strace"].first { access($0, X_OK) == 0 }

/// What `refreshlab lottie` opens for a file whose pictures lead outside its folder, seen by the system: the files
/// it opened, recorded by `strace`, not only its answer.
@Suite("Lottie pictures stay in the animation's folder, as the system sees it")
struct AssetConfinementTests {
    /// `anim/` with a picture in `anim/images` and links out of it, beside `outside/` with the secret picture.
    static func folders() -> (anim: String, outside: String) {
        let root = temporaryDirectory("asset-confinement")
        let anim = root + "/anim", outside = root + "/outside"
        for dir in [anim, anim + "/images", outside] { mkdir(dir, 0o755) }
        var fixture = #filePath
        for _ in 0..<3 { fixture = String(fixture[..<fixture.lastIndex(of: "/")!]) }
        let bytes = (try? UserFile.read(fixture + "/Tests/Fixtures/images/quadrants.png", kind: "picture",
                                        limit: 1 << 20)) ?? []
        writeBytes(anim + "/images/ok.png", bytes)
        writeBytes(outside + "/secret.png", bytes)
        symlink("../outside", anim + "/linkout")
        symlink(outside, anim + "/absout")
        symlink("linkout", anim + "/chain")
        symlink("../outside/secret.png", anim + "/secret-link.png")
        symlink("loop", anim + "/loop")
        return (anim, outside)
    }

    /// A one-layer animation showing the picture `u` + `p`.
    static func animation(u: String, p: String) -> String {
        #"{"v":"5.7.0","fr":30,"ip":0,"op":10,"w":40,"h":40,"assets":[{"id":"pic","w":16,"h":16,"u":"\#(u)","p":"\#(p)"}],"#
            + #""layers":[{"ddd":0,"ind":1,"ty":2,"nm":"picture","refId":"pic","ks":{},"ip":0,"op":10,"st":0}]}"#
    }

    /// Runs `refreshlab lottie` on `json` under strace: the outcome and every path it opened (open, openat, openat2),
    /// with the result of each.
    func traced(_ json: String, in anim: String) throws -> (CommandOutcome, [String]) {
        let strace = try #require(straceExecutable)
        writeTextFile(anim + "/anim.json", json)
        let log = anim + "/../strace.log"
        // LeakSanitizer cannot run under ptrace: a sanitized build's leak check is left to the other tests.
        let noLeakCheck = runsUnderAddressSanitizer ? ["-E", "ASAN_OPTIONS=detect_leaks=0"] : []
        let outcome = try runRefreshlab(["lottie", anim + "/anim.json", "--out", anim + "/../frame.png"], in: anim + "/..",
                                        wrapper: [strace, "-f", "-qq", "-e", "trace=open,openat,openat2", "-o", log]
                                            + noLeakCheck)
        let opens = (readTextFile(log) ?? "").split(separator: "\n").map(String.init).filter { $0.contains("open") }
        return (outcome, opens)
    }

    @Test("Pictures named outside the folder (by '..', absolute paths, links out, a chain, a loop) are refused, and no file outside is ever opened",
          .enabled(if: refreshlabExecutable != nil, "the refreshlab executable is built"),
          .enabled(if: straceExecutable != nil, "strace is installed (the CI's set-up installs it)"),
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"))
    func nothingOutsideOpened() throws {
        let (anim, outside) = AssetConfinementTests.folders()
        // The control: a picture inside is opened (by its name, from the folder's descriptor) and drawn, so the
        // trace does see the files opened.
        let (ok, okOpens) = try traced(AssetConfinementTests.animation(u: "images/", p: "ok.png"), in: anim)
        #expect(ok.status == 0, "\(ok.errors)")
        #expect(okOpens.contains { $0.contains("\"ok.png\"") && !$0.contains("= -1") }, "\(okOpens.suffix(8))")
        let hostile: [(u: String, p: String, says: String)] = [
            ("../outside/", "secret.png", "its '..' climbs out of the folder"),
            ("images/", "../../outside/secret.png", "its '..' climbs out of the folder"),
            ("", outside + "/secret.png", "an absolute path"),
            ("", "/etc/hostname", "an absolute path"),
            ("", "/etc/passwd", "an absolute path"),
            ("linkout/", "secret.png", "the link 'linkout' leads to '../outside'"),
            ("absout/", "secret.png", "the link 'absout' leads to '\(outside)'"),
            ("chain/", "secret.png", "the link 'linkout' leads to '../outside'"),
            ("", "secret-link.png", "the link 'secret-link.png' leads to '../outside/secret.png'"),
            ("", "loop", "links on the way (a loop?)"),
        ]
        for (u, p, says) in hostile {
            let (outcome, opens) = try traced(AssetConfinementTests.animation(u: u, p: p), in: anim)
            #expect(outcome.status == 1, "\(u)\(p)")
            // One line: the file, its place, the asset with its path as written, why, and what to do.
            let line = outcome.errors.split(separator: "\n").first.map(String.init) ?? ""
            #expect(line.contains("anim.json:1:") && line.contains("image asset 'pic' (\(u)\(p))")
                    && line.contains(says) && line.hasSuffix("put the picture in the animation's folder (or a folder "
                    + "inside it) and name it from there"), "\(u)\(p): \(outcome.errors)")
            let outsideOpens = opens.filter {
                $0.contains("outside") || $0.contains("secret.png") || $0.contains("/etc/hostname")
                    || $0.contains("/etc/passwd")
            }
            #expect(outsideOpens.isEmpty, "\(u)\(p) opened \(outsideOpens)")
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TestSupport
import Recording
import UserFiles
@testable import refreshlab

/// `CommandFiles`: an output is never an input nor another output, however the two paths are spelled.
@Suite("Outputs apart from inputs")
struct CommandFilesTests {
    /// Ways of naming `name` in `dir` that all lead to one file once it exists (a symbolic and a hard link
    /// only then); the missing spellings resolve to the same path.
    func spellings(of name: String, in dir: String, existing: Bool) -> [String] {
        var names = [dir + "/" + name, dir + "/./" + name, dir + "/sub/../" + name, dir + "//" + name]
        if existing {
            symlink(dir + "/" + name, dir + "/link-" + name)
            link(dir + "/" + name, dir + "/hard-" + name)
            names += [dir + "/link-" + name, dir + "/hard-" + name]
        }
        return names
    }

    @Test("every spelling of one file, existing or not, clashes with every other as input and output")
    func spellingsClash() throws {
        let dir = temporaryDirectory("files-spellings")
        try #require(mkdir(dir + "/sub", 0o755) == 0)
        try #require(writeTextFile(dir + "/in.json", "{}"))
        for (name, existing) in [("in.json", true), ("new.png", false)] {
            let names = spellings(of: name, in: dir, existing: existing)
            for a in names {
                for b in names {
                    for (readsA, readsB) in [(true, false), (false, true), (false, false)] {
                        var files = CommandFiles()
                        if readsA { files.reads(a, as: "A") } else { files.writes(a, as: "A") }
                        if readsB { files.reads(b, as: "B") } else { files.writes(b, as: "B") }
                        #expect(throws: LabError.self, "\(a) and \(b)") { try files.checkApart() }
                    }
                    // Two inputs may be one file.
                    var inputs = CommandFiles()
                    inputs.reads(a, as: "A")
                    inputs.reads(b, as: "B")
                    #expect(throws: Never.self) { try inputs.checkApart() }
                }
            }
        }
    }

    @Test("different files never clash; devices such as /dev/null may take several outputs")
    func apart() throws {
        let dir = temporaryDirectory("files-apart")
        try #require(writeTextFile(dir + "/a.json", "{}"))
        var files = CommandFiles()
        files.reads(dir + "/a.json", as: "--script")
        files.writes(dir + "/a.json.csv", as: "--timings")
        files.writes(dir + "/b.json", as: "--events")
        files.writes("/dev/null", as: "--trace")
        files.writes("/dev/null", as: "--capture")
        files.writes(nil, as: "--frames")
        #expect(throws: Never.self) { try files.checkApart() }
    }

    @Test("the message names both options and the path, and says nothing was written")
    func message() throws {
        let dir = temporaryDirectory("files-message")
        var files = CommandFiles()
        files.reads(dir + "/anim.json", as: "the Lottie file")
        files.writes(dir + "/anim.json", as: "--out")
        let error = try #require(throws: LabError.self) { try files.checkApart() }
        #expect(error.description == "the Lottie file and --out name the same file ('\(dir)/anim.json'); nothing was "
            + "written: give --out another path, or the input would be lost")
    }

    @Test("a file inside a frames folder clashes only under a name the folder's run writes")
    func folderNames() throws {
        let dir = temporaryDirectory("files-folder")
        try #require(mkdir(dir + "/frames", 0o755) == 0)
        // The folder existing, and one the run has not made yet.
        for (folder, (name, clashes)) in ["frames", "new"].flatMap({ folder in
            [("frame-0003.png", true), ("frame-12345.png", true), ("frame-0003.png.tmp", true),
             ("frame-003.png", false), ("notes.png", false), ("frame-0003.jpg", false)].map { (folder, $0) }
        }) {
            var files = CommandFiles()
            files.writes(dir + "/" + folder, as: "--frames", owning: PNGSequence.isFrameName)
            files.writes(dir + "/./" + folder + "/" + name, as: "--capture")
            if clashes {
                #expect(throws: LabError.self, "\(folder)/\(name)") { try files.checkApart() }
            } else {
                #expect(throws: Never.self, "\(folder)/\(name)") { try files.checkApart() }
            }
        }
    }
}

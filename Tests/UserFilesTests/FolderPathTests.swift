#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import UserFiles

/// Paths one file gives for another (a Lottie file's pictures): opened inside the first file's folder or refused,
/// whatever `..`, absolute paths and links they hold.
@Suite("Paths confined to a folder")
struct FolderPathTests {
    /// A folder `in` with files, folders and links of every kind, beside an `out` folder and an `in2` folder (whose
    /// name starts as `in`'s does) that the paths must never reach.
    struct Tree {
        let root: String
        var folder: String { root + "/in" }
        /// The identity (device, inode) of every file and folder inside `in` (itself included), and of those
        /// outside.
        var inside: Set<[UInt64]> = []
        var outside: Set<[UInt64]> = []
        /// Every name in the tree, for drawing paths.
        static let names = ["a.png", "d", "e", "b.png", "c.png", "l-in", "l-deep", "l-up", "l-back", "l-out",
                            "l-abs-in", "l-abs-out", "l-etc", "l-chain", "l-loop1", "l-loop2", "l-dangling", "l-root",
                            "l-self", "l-prefix", "l-file-out", "in", "in2", "out", "s.png", "x.png", "etc", "hostname"]
        /// The names that lead somewhere inside from some folder, drawn more often so that many paths open.
        static let insideNames = ["a.png", "d", "e", "b.png", "c.png", "l-in", "l-deep", "l-back", "l-abs-in",
                                  "l-chain", "l-root", "l-self"]

        init() {
            let made = temporaryDirectory("folder-path")
            var real = [CChar](repeating: 0, count: 4096)
            realpath(made, &real)
            root = String(decoding: real.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            for dir in ["in", "in/d", "in/d/e", "out", "in2"] { mkdir(root + "/" + dir, 0o755) }
            for file in ["in/a.png", "in/d/b.png", "in/d/e/c.png"] { writeTextFile(root + "/" + file, file) }
            for file in ["out/s.png", "in2/x.png"] { writeTextFile(root + "/" + file, file) }
            let links = [("in/l-in", "d"), ("in/l-deep", "d/e/c.png"), ("in/l-up", ".."), ("in/d/l-back", "../a.png"),
                         ("in/d/l-out", "../../out"), ("in/l-abs-in", root + "/in/d"),
                         ("in/l-abs-out", root + "/out/s.png"), ("in/l-etc", "/etc"), ("in/l-chain", "l-in"),
                         ("in/l-loop1", "l-loop2"), ("in/l-loop2", "l-loop1"), ("in/l-dangling", "nothere.png"),
                         ("in/d/e/l-root", "../.."), ("in/l-self", "."), ("in/l-prefix", root + "/in2/x.png"),
                         ("in/d/l-file-out", "../../out/s.png")]
            for (link, target) in links { symlink(target, root + "/" + link) }
            for file in ["in", "in/d", "in/d/e", "in/a.png", "in/d/b.png", "in/d/e/c.png"] {
                inside.insert(Tree.identity(root + "/" + file)!)
            }
            for file in ["", "out", "in2", "out/s.png", "in2/x.png", "/etc", "/etc/hostname", "/"] {
                if let id = Tree.identity(file.hasPrefix("/") ? file : root + "/" + file) { outside.insert(id) }
            }
        }

        static func identity(_ path: String) -> [UInt64]? {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return [UInt64(info.st_dev), UInt64(info.st_ino)]
        }

        static func identity(of fd: Int32) -> [UInt64] {
            var info = stat()
            fstat(fd, &info)
            return [UInt64(info.st_dev), UInt64(info.st_ino)]
        }

        /// What the system itself opens for `path` from the folder, following every link; nil when it opens
        /// nothing.
        func systemOpens(_ path: String) -> [UInt64]? {
            let fd = open(path.hasPrefix("/") ? path : folder + "/" + path, O_RDONLY | O_NONBLOCK)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            return Tree.identity(of: fd)
        }

        /// The file opened for `path` inside the folder, or what refused it.
        func confinedOpen(_ path: String) -> Result<[UInt64], FolderPath.Failure> {
            do {
                let fd = try FolderPath.open(path, inside: folder)
                defer { close(fd) }
                return .success(Tree.identity(of: fd))
            } catch {
                return .failure(error)
            }
        }
    }

    @Test("Random paths of names, '..', '.', links and absolute parts: each opens a file or folder inside, the one the system would open, or is refused; none opens anything outside")
    func randomPaths() {
        let tree = Tree()
        var random = SeededRandom(seed: 34)
        var opened = 0, refused = 0
        for _ in 0..<4000 {
            var parts: [String] = []
            for _ in 0..<random.int(in: 1...6) {
                switch random.int(in: 0...9) {
                case 0: parts.append("..")
                case 1: parts.append(random.bool() ? "." : "")
                case 2...5: parts.append(Tree.insideNames[random.int(in: 0...Tree.insideNames.count - 1)])
                default: parts.append(Tree.names[random.int(in: 0...Tree.names.count - 1)])
                }
            }
            var path = parts.joined(separator: "/")
            switch random.int(in: 0...19) {
            case 0: path = "/" + path
            case 1: path = tree.root + "/" + path
            case 2: path = tree.folder + "/" + path
            default: break
            }
            switch tree.confinedOpen(path) {
            case .success(let id):
                opened += 1
                #expect(tree.inside.contains(id) && !tree.outside.contains(id), "\(path) opened something outside")
                #expect(tree.systemOpens(path) == id, "\(path) opened another file than the system would")
            case .failure:
                refused += 1
            }
        }
        // Both answers occur often enough for the property to say something.
        #expect(opened > 300 && refused > 300, "opened \(opened), refused \(refused)")
    }

    @Test("Random paths that never leave the folder (real folders, '..' below the top, links pointing inside) open the file the system opens")
    func insidePathsOpen() {
        let tree = Tree()
        var random = SeededRandom(seed: 3434)
        // From each folder (its place in `in`): the names that lead to another folder inside, by their place.
        let folders: [String: [(String, String)]] = [
            "": [("d", "d"), ("l-in", "d"), ("l-chain", "d"), ("l-abs-in", "d"), ("l-self", ""), (".", "")],
            "d": [("e", "d/e"), ("..", ""), (".", "d")],
            "d/e": [("..", "d"), ("l-root", ""), (".", "d/e")]]
        let files: [String: [String]] = ["": ["a.png", "l-deep"], "d": ["b.png", "l-back"], "d/e": ["c.png"]]
        for _ in 0..<1000 {
            var place = "", parts: [String] = []
            for _ in 0..<random.int(in: 0...6) {
                let steps = folders[place]!
                let (name, next) = steps[random.int(in: 0...steps.count - 1)]
                parts.append(name)
                place = next
            }
            let names = files[place]!
            parts.append(names[random.int(in: 0...names.count - 1)])
            let path = parts.joined(separator: "/")
            guard case .success(let id) = tree.confinedOpen(path) else {
                Issue.record("\(path) was refused: \(tree.confinedOpen(path))")
                continue
            }
            #expect(tree.inside.contains(id) && tree.systemOpens(path) == id, "\(path)")
        }
    }

    @Test("Each way out is refused with what leads out: absolute paths, '..' above the folder, links out, loops")
    func refusals() {
        let tree = Tree()
        func refusal(_ path: String) -> FolderPath.Failure? {
            if case .failure(let failure) = tree.confinedOpen(path) { return failure }
            return nil
        }
        #expect(refusal("/etc/hostname") == .refused(.absolute))
        #expect(refusal(tree.folder + "/a.png") == .refused(.absolute))
        #expect(refusal("../in/a.png") == .refused(.climbsOut))
        #expect(refusal("d/../../out/s.png") == .refused(.climbsOut))
        #expect(refusal("a.png\u{0}/../../x") == .refused(.nulCharacter))
        #expect(refusal("l-up/in/a.png") == .refused(.link("l-up", target: "..")))
        #expect(refusal("d/l-out/s.png") == .refused(.link("d/l-out", target: "../../out")))
        #expect(refusal("l-in/l-file-out") == .refused(.link("d/l-file-out", target: "../../out/s.png")))
        #expect(refusal("l-abs-out") == .refused(.link("l-abs-out", target: tree.root + "/out/s.png")))
        #expect(refusal("l-prefix") == .refused(.link("l-prefix", target: tree.root + "/in2/x.png")))
        #expect(refusal("l-etc/hostname") == .refused(.link("l-etc", target: "/etc")))
        #expect(refusal("l-loop1") == .refused(.tooManyLinks))
        #expect(refusal("l-dangling") == .system(errno: ENOENT, place: "nothere.png"))
        #expect(refusal("d/e/l-root/..") == .refused(.climbsOut))
        // As written: the same rules without the disk.
        #expect(FolderPath.refusalAsWritten("images/../img.png") == nil)
        #expect(FolderPath.refusalAsWritten("./images//img.png") == nil)
        #expect(FolderPath.refusalAsWritten("images/../../img.png") == .climbsOut)
        #expect(FolderPath.refusalAsWritten("/img.png") == .absolute)
        #expect(FolderPath.refusalAsWritten(String(repeating: "a/", count: 2100)) == .tooLong)
    }

    @Test("The reader says which path left the folder and what to do, naming the file as the folder makes it")
    func readerMessage() throws {
        let tree = Tree()
        do {
            _ = try UserFile.read("d/l-out/s.png", inside: tree.folder, kind: "image file", limit: 1 << 20,
                                  outsideAdvice: "put it inside")
            Issue.record("a link out was read")
        } catch {
            #expect(error.description == tree.folder + "/d/l-out/s.png: the link 'd/l-out' leads to '../../out', "
                    + "outside the folder; put it inside")
        }
        #expect(try UserFile.read("l-in/../l-deep", inside: tree.folder, kind: "image file", limit: 1 << 20,
                                  outsideAdvice: "") == Array("in/d/e/c.png".utf8))
        #expect(throws: FileError(file: tree.folder + "/d/gone.png", reason: "no such image file; check the path")) {
            try UserFile.read("d/gone.png", inside: tree.folder, kind: "image file", limit: 1 << 20, outsideAdvice: "")
        }
    }
}

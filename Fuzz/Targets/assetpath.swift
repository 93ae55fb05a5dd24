#if canImport(Glibc)
import Glibc
#endif
import Colors
import Lab
import Lottie
import Raster
import UserFiles

/// Paths a Lottie file gives its pictures (`u` + `p`), made of the names, links, `..`, `.` and slashes of a folder
/// built once, with a link the input makes beside them: `FolderPath.open` must open something inside the folder,
/// the very thing the system opens for that path, or refuse; and the animation whose picture has that path must
/// show the blue pictures inside, never the red ones outside. A breach stops the process, which libFuzzer reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let sandbox = Sandbox.shared
    // The input's own link, `in/fz` (or `in/d/fz`), pointing wherever its first part says.
    let linkPlace = sandbox.folder + (input.byte() & 1 == 0 ? "/fz" : "/d/fz")
    let target = sandbox.path(&input)
    symlink(target.isEmpty ? "." : target, linkPlace)
    defer { unlink(linkPlace) }
    let path = sandbox.path(&input)

    if let fd = try? FolderPath.open(path, inside: sandbox.folder) {
        let id = Sandbox.identity(of: fd)
        close(fd)
        guard sandbox.inside.contains(id) else { fatalError("'\(path)' opened something outside the folder") }
        let system = open(path.hasPrefix("/") ? path : sandbox.folder + "/" + path, O_RDONLY | O_NONBLOCK)
        guard system >= 0 else { fatalError("'\(path)' opened what the system cannot open") }
        defer { close(system) }
        guard Sandbox.identity(of: system) == id else { fatalError("'\(path)' opened another file than the system") }
    }

    // The same path as an image asset's: split where the input says into the folder `u` and the name `p`.
    let cut = path.index(path.startIndex, offsetBy: Int(input.byte()) % (path.count + 1))
    let json = Sandbox.animation(u: String(path[..<cut]), p: String(path[cut...]))
    guard let animation = try? LottieFile.parse(Array(json.utf8), file: "fuzz.json", folder: sandbox.folder),
          let canvas = try? LottieFile.render(animation, frame: 0) else { return 0 }
    for y in 0..<canvas.height {
        for x in 0..<canvas.width where canvas[x, y] >> 16 & 0xFF > 0x80 {
            fatalError("'\(path)' drew a picture from outside the folder")
        }
    }
    return 0
}

/// The folder the paths start from, `in`, beside `out` and `in2` (whose name starts as `in`'s does), in a fresh
/// temporary folder: blue pictures inside, red ones outside, and links of every kind between them.
final class Sandbox: @unchecked Sendable {
    static let shared = Sandbox()

    let root: String
    var folder: String { root + "/in" }
    /// The identities (device, inode) of everything inside `in`, itself included.
    private(set) var inside: Set<[UInt64]> = []
    /// What paths are made of: the tree's names, `..`, `.`, the roots of absolute paths.
    let tokens: [String]

    private init() {
        var template = Array("/tmp/refreshlab-fuzz-assetpath-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "cannot make a temporary folder")
        var real = [CChar](repeating: 0, count: 4096)
        realpath(made!, &real)
        root = String(cString: real)
        for dir in ["in", "in/d", "in/d/e", "out", "in2"] { mkdir(root + "/" + dir, 0o755) }
        for (file, inside) in [("in/a.png", true), ("in/d/b.png", true), ("in/d/e/c.png", true),
                               ("out/s.png", false), ("in2/x.png", false)] {
            let canvas = Canvas(width: 4, height: 4, fill: inside ? Color(red: 0, green: 0, blue: 1)
                                : Color(red: 1, green: 0, blue: 0))
            try? PNG.write(canvas, to: root + "/" + file)
        }
        let links = [("in/l-in", "d"), ("in/l-file", "d/e/c.png"), ("in/l-up", ".."), ("in/d/l-back", "../a.png"),
                     ("in/d/l-out", "../../out"), ("in/l-abs-in", root + "/in/d"), ("in/l-abs-out", root + "/out/s.png"),
                     ("in/l-chain", "l-in"), ("in/l-loop", "l-loop"), ("in/d/e/l-root", "../.."),
                     ("in/l-prefix", root + "/in2/x.png"), ("in/l-etc", "/etc")]
        for (link, target) in links { symlink(target, root + "/" + link) }
        tokens = ["a.png", "b.png", "c.png", "d", "e", "l-in", "l-file", "l-up", "l-back", "l-out", "l-abs-in",
                  "l-abs-out", "l-chain", "l-loop", "l-root", "l-prefix", "l-etc", "fz", "..", ".", "", "in", "out",
                  "in2", "s.png", "x.png", "etc", "hostname", root, root + "/in", "/"]
        var walk = [root + "/in"]
        while let dir = walk.popLast() {
            inside.insert(Sandbox.identity(dir))
            for name in folderEntries(dir) ?? [] {
                var info = stat()
                guard lstat(dir + "/" + name, &info) == 0, info.st_mode & S_IFMT != S_IFLNK else { continue }
                if info.st_mode & S_IFMT == S_IFDIR { walk.append(dir + "/" + name) } else {
                    inside.insert(Sandbox.identity(dir + "/" + name))
                }
            }
        }
    }

    static func identity(_ path: String) -> [UInt64] {
        var info = stat()
        stat(path, &info)
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    static func identity(of fd: Int32) -> [UInt64] {
        var info = stat()
        fstat(fd, &info)
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// A path from the input: a count, then that many tokens joined by slashes (a byte past the tokens is a
    /// character of its own: a NUL, or a printable one, a slash among them).
    func path(_ input: inout FuzzInput) -> String {
        var parts: [String] = []
        for _ in 0..<Int(input.byte() % 8) {
            let b = Int(input.byte()), c = b - tokens.count
            parts.append(c < 0 ? tokens[b] : c == 0 ? "\u{0}" : String(UnicodeScalar(UInt8(32 + c % 95))))
        }
        return parts.joined(separator: "/")
    }

    /// An 8 × 8 composition whose one image layer shows the picture `u` + `p` over the whole of it.
    static func animation(u: String, p: String) -> String {
        #"{"v":"5.7.0","fr":30,"ip":0,"op":10,"w":8,"h":8,"assets":[{"id":"pic","w":8,"h":8,"u":\#(JSONText.string(u)),"#
            + #""p":\#(JSONText.string(p))}],"layers":[{"ty":2,"nm":"picture","refId":"pic","ks":{},"ip":0,"op":10,"st":0}]}"#
    }
}

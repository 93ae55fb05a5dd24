import Lottie
import Raster
import Refresh
#if canImport(Glibc)
import Glibc
#endif

/// A Lottie file that could not be loaded: the file, the line and column when the fault has a place, and why.
public struct LottieFileError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var line: Int?
    public var column: Int?
    public var reason: String

    public var description: String {
        guard let line, let column else { return "\(file): \(reason)" }
        return "\(file):\(line):\(column): \(reason)"
    }
}

/// Reads Bodymovin files with the scene files' JSON reader and hands the tree, with each value's place in the
/// file, to the Lottie module, which knows the format but reads no files.
public enum LottieFile {
    /// Largest file read: real animations are well under a few megabytes.
    public static let maxBytes = 64 << 20

    public static func load(path: String) throws(LottieFileError) -> LottieAnimation {
        var info = stat()
        if stat(path, &info) == 0, Int(info.st_size) > maxBytes {
            throw LottieFileError(file: path, reason: "the file is \(info.st_size) bytes, more than the "
                                  + "\(maxBytes >> 20) MB a Lottie file may have")
        }
        let bytes: [UInt8]
        do {
            bytes = try readFileBytes(path)
        } catch {
            switch error {
            case .missing: throw LottieFileError(file: path, reason: "no such file; check the path")
            case .unreadable(let why): throw LottieFileError(file: path, reason: "cannot read it: \(why)")
            }
        }
        return try parse(bytes, file: path)
    }

    /// Parses a Bodymovin document; `file` names it in errors.
    public static func parse(_ bytes: [UInt8], file: String) throws(LottieFileError) -> LottieAnimation {
        let value: JSONValue, offsets: [Int]
        do {
            (value, offsets) = try JSONReader.parseWithOffsets(bytes)
        } catch {
            throw LottieFileError(file: file, line: error.line, column: error.column, reason: "not valid JSON: \(error.reason)")
        }
        var next = 0
        let tree = convert(value, offsets, &next)
        do {
            return try LottieAnimation(json: tree)
        } catch {
            let (line, column) = JSONReader.lineAndColumn(of: error.offset, in: bytes)
            throw LottieFileError(file: file, line: line, column: column, reason: error.reason)
        }
    }

    /// The reader's tree as Lottie's, each value with its offset; offsets come in the order values are visited
    /// here (a value before its children, depth first), which is the reader's order.
    private static func convert(_ value: JSONValue, _ offsets: [Int], _ next: inout Int) -> LottieJSON {
        let offset = next < offsets.count ? offsets[next] : 0
        next += 1
        switch value {
        case .null: return LottieJSON(.null, offset: offset)
        case .bool(let b): return LottieJSON(.bool(b), offset: offset)
        case .number(let n): return LottieJSON(.number(n), offset: offset)
        case .string(let s): return LottieJSON(.string(s), offset: offset)
        case .array(let items):
            return LottieJSON(.array(items.map { convert($0, offsets, &next) }), offset: offset)
        case .object(let fields):
            return LottieJSON(.object(fields.map { ($0.key, convert($0.value, offsets, &next)) }), offset: offset)
        }
    }
}

extension LottieFile {
    /// Largest side of a rendered frame, in pixels.
    public static let maxRenderSide = 8192

    /// Frame `frame` (the file's numbering) of `animation`, fitted into a `width × height` canvas (the
    /// composition's own size when nil) on a transparent background.
    public static func render(_ animation: LottieAnimation, frame: Double, width: Int? = nil,
                              height: Int? = nil) throws(LabError) -> Canvas {
        let w = width ?? Int(animation.width.rounded()), h = height ?? Int(animation.height.rounded())
        guard (1...maxRenderSide).contains(w), (1...maxRenderSide).contains(h) else {
            throw LabError("the frame would be \(w)×\(h) pixels; each side must be 1 to \(maxRenderSide)")
        }
        guard frame.isFinite else { throw LabError("the frame number must be a finite number") }
        let canvas = Canvas(width: w, height: h)
        let fit = LottieRenderer.fitting(animation.size, into: canvas.bounds)
        LottieRenderer().render(animation, frame: frame, into: canvas, transform: fit)
        return canvas
    }

    /// The animation the `lottie` header shows when none is given, from the resources.
    public static let defaultAnimation = "animations/refresh.json"
}

extension LottieEffect: AnimationFileEffect {
    public static func readAnimation(at path: String) throws -> (animation: LottieAnimation, warning: String?) {
        let animation: LottieAnimation
        do {
            animation = try LottieFile.load(path: path)
        } catch {
            throw LabError(error.description)
        }
        return (animation, animation.warning.map { "\(path): \($0)" })
    }

    public static var defaultAnimationResource: String { LottieFile.defaultAnimation }
}

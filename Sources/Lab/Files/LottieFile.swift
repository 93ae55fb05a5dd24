import Lottie
import Raster
import Refresh
import UserFiles
#if canImport(Glibc)
import Glibc
#endif

/// A Lottie file that could not be loaded: the file, the line and column when the fault has a place, and why.
public typealias LottieFileError = FileError

/// Reads Bodymovin files with the scene files' JSON reader and hands the tree, with each value's place in the
/// file, to the Lottie module, which knows the format but reads no files.
public enum LottieFile {
    /// Largest file read: real animations are well under a few megabytes.
    static let maxBytes = 64 << 20

    /// Reads a Bodymovin file and the image files beside it that it names.
    public static func load(path: String) throws(LottieFileError) -> LottieAnimation {
        try parse(UserFile.read(path, kind: "Lottie file", limit: maxBytes), file: path,
                  folder: FileName.split(path).folder)
    }

    /// Parses a Bodymovin document; `file` names it in errors. The reader's tape goes to the Lottie module as it
    /// is, so no tree is built between the bytes and the model. Embedded images are decoded; image files are read
    /// from inside `folder` (the animation's; nothing outside it, see `FolderPath`), and left out when it is nil.
    public static func parse(_ bytes: [UInt8], file: String, folder: String? = nil) throws(LottieFileError)
        -> LottieAnimation {
        let tape: JSONTape
        do {
            tape = try JSONReader.parseTape(bytes)
        } catch {
            throw LottieFileError(file: file, line: error.line, column: error.column, reason: "not valid JSON: \(error.reason)")
        }
        do {
            var animation = try LottieAnimation(json: JSONNode(root: tape))
            try animation.decodeImages(read: folder.map { folder in
                { name in try UserFile.read(name, inside: folder, kind: "image file", limit: LottieImage.maxFileBytes,
                                            outsideAdvice: LottieImage.outsideAdvice) }
            })
            return animation
        } catch {
            let (line, column) = JSONReader.lineAndColumn(of: error.offset, in: bytes)
            throw LottieFileError(file: file, line: line, column: column, reason: error.reason)
        }
    }
}

extension LottieFile {
    /// Largest side of a rendered frame, in pixels.
    public static let maxRenderSide = 8192

    /// Frame `frame` (the file's numbering) of `animation`, fitted into a `width × height` canvas (the
    /// composition's own size when nil) on a transparent background.
    ///
    /// - Throws: `LabError` for a size or frame out of range, or naming the layer at which the frame would pass a
    ///   budget of work (`LottieRenderer.maxLayerDraws`, `maxOffscreenBytes`).
    public static func render(_ animation: LottieAnimation, frame: Double, width: Int? = nil,
                              height: Int? = nil) throws(LabError) -> Canvas {
        let w = width ?? Int(animation.width.rounded()), h = height ?? Int(animation.height.rounded())
        guard (1...maxRenderSide).contains(w), (1...maxRenderSide).contains(h) else {
            throw LabError("the frame would be \(w)×\(h) pixels; each side must be 1 to \(maxRenderSide)")
        }
        guard frame.isFinite else { throw LabError("the frame number must be a finite number") }
        let canvas = Canvas(width: w, height: h)
        let fit = LottieRenderer.fitting(animation.size, into: canvas.bounds)
        do {
            try LottieRenderer().render(animation, frame: frame, into: canvas, transform: fit)
        } catch {
            let n = Swift.abs(frame) < 1e15 && frame == frame.rounded() ? String(Int(frame)) : String(frame)
            throw LabError("frame \(n): \(error)")
        }
        return canvas
    }

    /// The animation the `lottie` header shows when none is given, from the resources.
    public static let defaultAnimation = "animations/refresh.json"
}

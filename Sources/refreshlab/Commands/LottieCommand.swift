import ArgumentParser
import Lab
import Lottie
import Raster
import UserFiles


/// `refreshlab lottie`: draws one frame of a Bodymovin file with RefreshLab's own renderer into a PNG.
struct LottieCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lottie",
        abstract: "Render one frame of a Lottie (Bodymovin JSON) file to a PNG.",
        discussion: """
            The frame is drawn on a transparent background, the composition fitted into --size (its own size by \
            default) with its proportions kept. What the file uses that is not supported is named in one warning \
            on standard error and left out.
            """
    )

    @Argument(help: ArgumentHelp("The Lottie file (JSON).", valueName: "file"))
    var file: String

    @Option(parsing: .unconditional,
            help: ArgumentHelp("The frame to draw, in the file's own numbering (default: its first).", valueName: "n"))
    var frame: String?

    @Option(help: ArgumentHelp("Where to write the PNG.", valueName: "png"))
    var out: String

    @Option(help: ArgumentHelp("The picture's size in pixels, as WxH (default: the composition's size).",
                               valueName: "WxH"))
    var size: String?

    /// `--size`, checked.
    func pixelSize() throws -> (Int, Int)? {
        guard let size else { return nil }
        let parts = size.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw ValidationError("--size: expected WxH, as 200x200, not '\(size)'") }
        let w = try OptionNumber.integer(String(parts[0]), option: "--size (width)", in: 1...LottieFile.maxRenderSide)
        let h = try OptionNumber.integer(String(parts[1]), option: "--size (height)", in: 1...LottieFile.maxRenderSide)
        return (w, h)
    }

    func validate() throws {
        _ = try pixelSize()
        if let frame { _ = try OptionNumber.real(frame, option: "--frame", in: -1e7...1e7) }
    }

    func run() throws {
        var named = CommandFiles()
        named.reads(file, as: "the Lottie file")
        named.writes(out, as: "--out")
        try named.checkApart()
        let animation: LottieAnimation
        do {
            animation = try LottieFile.load(path: file)
        } catch {
            throw LabError(error.description)
        }
        if let warning = animation.warning { FileLines.standardError("\(file): \(warning)") }
        let n = try frame.map { try OptionNumber.real($0, option: "--frame", in: -1e7...1e7) } ?? animation.inPoint
        let size = try pixelSize()
        let canvas: Canvas
        do {
            canvas = try LottieFile.render(animation, frame: n, width: size?.0, height: size?.1)
        } catch {
            throw LabError("\(file): \(error.description)")
        }
        try PNG.write(canvas, to: out)
    }
}

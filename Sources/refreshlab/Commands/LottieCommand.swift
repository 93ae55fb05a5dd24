import ArgumentParser
import Lab
import Lottie
import Raster
import Scenes
import UserFiles


/// `refreshlab lottie`: draws one frame of a Bodymovin file with RefreshLab's own renderer into a PNG.
struct LottieCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lottie",
        abstract: "Render one frame of a Lottie (Bodymovin JSON) file to a PNG, and optionally time the rendering.",
        discussion: """
            The frame is drawn on a transparent background, the composition fitted into --size (its own size by \
            default) with its proportions kept. What the file uses that is not supported is named in one warning \
            on standard error and left out. With --iterations N, the file is read once, the frame is drawn untimed \
            for a quarter of a second (3 times at least) and N times timed into one canvas, as the lottie header \
            draws it, and one JSON line is printed: {"file": …, "frame": …, "width": …, "height": …, \
            "iterations": N, "median_ns": …, "mean_ns": …, "min_ns": …}.
            """
    )

    @Argument(help: ArgumentHelp("The Lottie file (JSON).", valueName: "file"))
    var file: String

    @Option(parsing: .unconditional,
            help: ArgumentHelp("The frame to draw, in the file's own numbering (default: its first).", valueName: "n"))
    var frame: String?

    @Option(help: ArgumentHelp("Where to write the PNG.", valueName: "png"))
    var out: String?

    @Option(parsing: .unconditional,
            help: SceneCommand.iterationsHelp)
    var iterations: String?

    @Option(help: ArgumentHelp("The picture's size in pixels, as WxH (default: the composition's size).",
                               valueName: "WxH"))
    var size: String?

    @OptionGroup var threads: ThreadOptions

    /// `--size`, checked.
    func pixelSize() throws -> (Int, Int)? {
        guard let size else { return nil }
        let parts = size.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw ValidationError("--size: expected WxH, as 200x200, not '\(size)'") }
        let w = try OptionNumber.integer(String(parts[0]), option: "--size (width)", in: 1...LottieFile.maxRenderSide)
        let h = try OptionNumber.integer(String(parts[1]), option: "--size (height)", in: 1...LottieFile.maxRenderSide)
        return (w, h)
    }

    /// `--iterations`, checked.
    func iterationCount() throws -> Int? {
        try iterations.map { try OptionNumber.integer($0, option: "--iterations", in: 1...SceneCommand.maxIterations) }
    }

    func validate() throws {
        _ = try validating(pixelSize)
        _ = try validating(iterationCount)
        if let frame { _ = try validating { try OptionNumber.real(frame, option: "--frame", in: -1e7...1e7) } }
        if out == nil && iterations == nil { throw ValidationError("nothing to do: give --out FILE.png or --iterations N") }
    }

    func run() throws {
        var named = CommandFiles()
        named.reads(file, as: "the Lottie file")
        if let out { named.writes(out, as: "--out") }
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
        for warning in animation.takeExpressionWarnings() { FileLines.standardError("\(file): \(warning)") }
        if let out { try PNG.write(canvas, to: out) }
        if let iterations = try iterationCount() {
            // The frame drew once above, so the file is within every budget at this size; the renderer and the
            // canvas are kept from render to render.
            let renderer = LottieRenderer(threads: try threads.count())
            let fit = LottieRenderer.fitting(animation.size, into: canvas.bounds)
            let timing = SceneTiming.measure(iterations: iterations) {
                canvas.clear(to: .clear)
                try? renderer.render(animation, frame: n, into: canvas, transform: fit)
            }
            let frameText = n == n.rounded() ? String(Int(n)) : String(n)
            print("{\"file\": \(JSONLineBuffer.quoted(file)), \"frame\": \(frameText), \"width\": \(canvas.width), "
                  + "\"height\": \(canvas.height), " + timing.figures + "}")
        }
    }
}

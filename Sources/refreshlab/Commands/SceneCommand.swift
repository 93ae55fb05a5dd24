import ArgumentParser
import Lab
import Raster

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UserFiles
import Scenes

/// `refreshlab scene`: draws a vector scene file with RefreshLab's rasterizer, writes it, and optionally times it
/// with the protocol shared with the cairo benchmark.
struct SceneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scene",
        abstract: "Render a vector scene file (JSON) to a PNG, and optionally time the rendering.",
        discussion: """
            With --iterations N, the scene is then rendered untimed for a quarter of a second (3 times at least) \
            and N times timed, every path flattened, stroked and rasterized afresh each time, and one JSON line is \
            printed: {"scene": …, "width": …, "height": …, "iterations": N, "median_ns": …, "mean_ns": …, \
            "min_ns": …}.
            With --reference, the figures of the difference are printed on standard error, and the command fails \
            (exit status 1, before any timing) when they exceed --max-mean or --max-percent.
            """
    )

    @Argument(help: ArgumentHelp("The scene file (JSON).", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("Where to write the rendered scene as a PNG.", valueName: "png"))
    var out: String?

    @Option(parsing: .unconditional,
            help: SceneCommand.iterationsHelp)
    var iterations: String?

    /// The most timed renders: minutes for the largest scenes, and a few hundred kilobytes of samples.
    static let maxIterations = 100_000

    /// `--iterations` as `scene` and `lottie` both take it (`SceneTiming`'s protocol).
    static let iterationsHelp = ArgumentHelp(
        "Time this many renders (1 to \(maxIterations)) after a quarter of a second of warm-up renders (3 at least) "
            + "and print the figures as JSON.", valueName: "n")

    /// `--iterations`, checked.
    func iterationCount() throws -> Int? {
        try iterations.map { try OptionNumber.integer($0, option: "--iterations", in: 1...SceneCommand.maxIterations) }
    }

    @OptionGroup var threads: ThreadOptions

    @Option(help: ArgumentHelp("A PNG to compare the rendering with; prints how far the two are apart and fails "
                               + "when they are further apart than --max-mean and --max-percent allow.",
                               valueName: "png"))
    var reference: String?

    /// Text rather than a number, so that a bad value is reported in the project's words; unconditional so that
    /// a negative value reaches the check instead of passing for an option.
    @Option(name: .customLong("max-mean"), parsing: .unconditional,
            help: ArgumentHelp("With --reference: the largest mean channel difference (0–255 per channel) that "
                               + "passes; default \(ImageTolerance.standard.maxMeanDifference), the bound the scene "
                               + "reference tests use.", valueName: "mean"))
    var maxMean: String?

    @Option(name: .customLong("max-percent"), parsing: .unconditional,
            help: ArgumentHelp("With --reference: the largest share of pixels, in percent, that may differ by more "
                               + "than \(ImageDifference.defaultThreshold) in some channel; default "
                               + "\(ImageTolerance.standard.maxPercentOverThreshold), the bound the scene reference "
                               + "tests use.", valueName: "percent"))
    var maxPercent: String?

    @Option(help: ArgumentHelp("With --reference: write a picture of the differences here (PNG): the reference in "
                               + "faded grey, every differing pixel in red, the stronger the larger the difference.",
                               valueName: "png"))
    var diff: String?

    /// Where to write the PNG: `--out`, whichever command's parser took it.
    var outputPath: String? { out }

    func validate() throws {
        _ = try validating(iterationCount)
        if reference == nil {
            let strays = [("--max-mean", maxMean), ("--max-percent", maxPercent), ("--diff", diff)]
                .filter { $0.1 != nil }.map(\.0)
            if !strays.isEmpty {
                throw ValidationError("\(strays.joined(separator: ", ")) go\(strays.count == 1 ? "es" : "") with "
                    + "--reference FILE.png")
            }
        }
        _ = try validating(tolerance)
    }

    /// The bounds the rendering must keep to against `--reference`: the standard ones unless given.
    func tolerance() throws -> ImageTolerance {
        var tolerance = ImageTolerance.standard
        if let maxMean {
            tolerance.maxMeanDifference = try ImageTolerance.bound(maxMean, option: "--max-mean")
        }
        if let maxPercent {
            tolerance.maxPercentOverThreshold = try ImageTolerance.bound(maxPercent, option: "--max-percent",
                                                                         isPercent: true)
        }
        return tolerance
    }

    func run() throws {
        var named = CommandFiles()
        named.reads(file, as: "the scene file")
        named.reads(reference, as: "--reference")
        named.writes(out, as: "--out")
        named.writes(diff, as: "--diff")
        try named.checkApart()
        let out = outputPath
        if out == nil && iterations == nil && reference == nil {
            throw LabError("nothing to do: give --out FILE.png, --iterations N or --reference FILE.png")
        }
        let scene = try Scene.load(path: file)
        let canvas = scene.makeCanvas()
        let rasterizer = Rasterizer(threads: try threads.count(otherwise: Rasterizer.processorCount))
        scene.render(into: canvas, rasterizer: rasterizer)
        if let out {
            do {
                try PNG.write(canvas, to: out)
            } catch {
                throw LabError("\(error); check that the folder exists and is writable")
            }
        }
        if let reference {
            let expected = try PNG.read(from: reference)
            guard let difference = ImageDifference(canvas, expected) else {
                throw LabError("'\(reference)' is \(expected.width)×\(expected.height) but the scene is "
                    + "\(scene.width)×\(scene.height); compare images of the same size")
            }
            // On standard error, so that stdout keeps only the timing line.
            FileLines.standardError("\(scene.name): against \(reference): \(difference.summary)")
            if let diff {
                // Sizes were checked above, so the picture exists.
                if let picture = ImageDifference.image(of: canvas, against: expected) {
                    do {
                        try PNG.write(picture, to: diff)
                    } catch {
                        throw LabError("\(error); check that the folder of '\(diff)' exists and is writable")
                    }
                    FileLines.standardError("wrote the difference image \(diff)")
                }
            }
            let excesses = try tolerance().excesses(difference)
            if !excesses.isEmpty {
                throw LabError("scene '\(scene.name)' (\(file)) differs from '\(reference)' more than allowed: "
                    + excesses.joined(separator: "; ")
                    + (diff.map { "; see \($0) for where" } ?? "; add --diff DIFF.png to see where"))
            }
        }
        if let iterations = try iterationCount() {
            let timing = SceneTiming.measure(iterations: iterations) {
                scene.render(into: canvas, rasterizer: rasterizer)
            }
            print(timing.jsonLine(scene: scene.name, width: scene.width, height: scene.height))
        }
    }
}

extension ImageTolerance {
    /// A bound given on the command line: a mean channel difference from 0 to 255, or a percentage from 0 to 100.
    /// The error names the option and the value, since a tolerance mistyped would silently pass or fail everything.
    static func bound(_ text: String, option: String, isPercent: Bool = false) throws -> Double {
        try OptionNumber.real(text, option: option, in: 0...(isPercent ? 100 : 255))
    }
}

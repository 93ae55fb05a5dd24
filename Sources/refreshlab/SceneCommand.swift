import ArgumentParser
import Lab
import Raster

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `refreshlab scene`: draws a vector scene file with RefreshLab's rasterizer, writes it, and optionally times it
/// with the protocol shared with the cairo benchmark.
struct SceneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scene",
        abstract: "Render a vector scene file (JSON) to a PNG, and optionally time the rendering.",
        discussion: """
            With --iterations N, the scene is then rendered 3 times untimed and N times timed, every path \
            flattened, stroked and rasterized afresh each time, and one JSON line is printed: \
            {"scene": …, "width": …, "height": …, "iterations": N, "median_ns": …, "mean_ns": …, "min_ns": …}.
            """
    )

    @Argument(help: ArgumentHelp("The scene file (JSON).", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("Where to write the rendered scene as a PNG.", valueName: "png"))
    var out: String?

    @Option(help: ArgumentHelp("Time this many renders after 3 warm-up renders and print the figures as JSON.",
                               valueName: "n"))
    var iterations: Int?

    @Option(help: ArgumentHelp("A PNG to compare the rendering with; prints how far the two are apart.",
                               valueName: "png"))
    var reference: String?

    /// Where to write the PNG: `--out`, whichever command's parser took it.
    var outputPath: String? { out }

    func validate() throws {
        if let iterations, iterations < 1 {
            throw ValidationError("--iterations must be at least 1, not \(iterations)")
        }
    }

    func run() throws {
        let out = outputPath
        if out == nil && iterations == nil && reference == nil {
            throw LabError("nothing to do: give --out FILE.png, --iterations N or --reference FILE.png")
        }
        let scene = try Scene.load(path: file)
        let canvas = scene.makeCanvas()
        let rasterizer = Rasterizer()
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
            printError("\(scene.name): against \(reference): \(difference.summary)")
        }
        if let iterations {
            let timing = SceneTiming.measure(iterations: iterations) {
                scene.render(into: canvas, rasterizer: rasterizer)
            }
            print(timing.jsonLine(scene: scene.name, width: scene.width, height: scene.height))
        }
    }
}

/// Writes one line to standard error.
private func printError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

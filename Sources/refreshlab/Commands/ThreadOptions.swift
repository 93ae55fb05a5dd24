import ArgumentParser
import Raster

/// `--threads N`: how many threads draw, in bands of rows (`Rasterizer.beginBands`). The pixels are the same at every
/// count; one thread is the single-threaded rasterizer.
///
/// A scene is one batch of fills, and two threads take about 0.6 of one's time on the largest. A phone's frame is
/// split into about twenty batches by what reads its pixels between fills (each row's text, the bar's blur), so two
/// threads save only about a seventh of it; a Lottie frame is split likewise by its offscreen passes, gradients and
/// effects, and some files take longer on two threads than on one. Those draw on one thread unless asked.
struct ThreadOptions: ParsableArguments {
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Draw on this many threads (1 to \(ThreadOptions.maxThreads)), each taking bands of rows. "
                               + "The pixels are the same at every count. Default: one per processor for a scene, one "
                               + "for a phone or a Lottie file.", valueName: "n"))
    var threads: String?

    /// The most drawing threads (the rasterizer's limit); more than a machine's cores only adds waiting.
    static let maxThreads = Rasterizer.maxThreads

    /// `--threads`, checked; `otherwise` when not given.
    func count(otherwise: Int = 1) throws -> Int {
        try threads.map { try OptionNumber.integer($0, option: "--threads", in: 1...ThreadOptions.maxThreads) }
            ?? otherwise
    }

    func validate() throws {
        _ = try count()
    }
}

import Export
import Lottie
import UserFiles

/// A header written as a Lottie file: its frames (`HeaderSamples`) as a Bodymovin document with the markers
/// `pull`, `refresh` and `end`. What `refreshlab export lottie` and the window's E key write.
public enum HeaderExport {
    /// Writes the header `description` shows to `path` (whole, or not at all); returns how many frames and bytes
    /// it holds, and whether its refresh loops seamlessly.
    ///
    /// - Throws: `LabError` for a header that cannot be exported yet, or a file that cannot be written.
    @discardableResult
    public static func write(_ description: PhoneDescription, to path: String) throws
        -> (frames: Int, bytes: Int, refreshLoops: Bool) {
        if Simulation.animationEffectNames.contains(description.effect) {
            throw LabError("the \(description.effect) header plays a file already; export one of the drawn headers")
        }
        let samples = try HeaderSamples.take(description)
        let document = HeaderExport.document(samples, name: "RefreshLab \(description.effect) header")
        let bytes = Array(document.json.utf8)
        try bytes.withUnsafeBytes { try OutputFile.write($0, to: path) }
        return (samples.frames.count, bytes.count, samples.refreshLoops)
    }

    /// The Bodymovin document of `samples`: its frames, and each section as a marker from its first frame to its
    /// last.
    public static func document(_ samples: HeaderSamples, name: String) -> Bodymovin {
        Bodymovin(size: samples.size, frameRate: HeaderSamples.frameRate, frames: samples.frames.map(\.shapes),
                  markers: samples.sections.map {
                      LottieMarker(name: $0.name, start: Double($0.frames.lowerBound),
                                   duration: Double($0.frames.count - 1))
                  },
                  name: name)
    }
}

import Export
import Geometry
@testable import Lab
import Layers
import Lottie
import Raster
import Testing
import TestSupport

/// The exported file (`refreshlab export lottie`) drawn by our renderer and by rlottie agrees with the live header
/// drawn in the same box at the same moment, at every 5th frame of its pull, refresh and end, over the whole box.
@Suite struct ExportRoundTripTests {
    @Test(arguments: ["dots", "news", "classic", "system"])
    func theFileDrawsWhatTheHeaderDraws(effect: String) throws {
        let scale = 2.0
        var live: [Int: Canvas] = [:]
        let samples = try HeaderSamples.take(PhoneDescription(effect: effect)) { index, phone in
            guard index % 5 == 0 else { return }
            let root = phone.refreshControl.headerLayer
            let time = phone.frameTime ?? 0
            let box = root.presentation(at: time)
            let canvas = Canvas(width: Int(box.bounds.width * scale), height: Int(box.bounds.height * scale))
            let toBox = box.transformToSuperlayer.inverted ?? .identity
            phone.renderer.render(root, into: canvas, at: time,
                                  transform: toBox.concatenating(AffineTransform(scaleX: scale, y: scale)))
            live[index] = canvas
        }
        // The pull from no pull to the trigger in 61 frames, then the refresh and the end.
        #expect(samples.sections.map(\.name) == ["pull", "refresh", "end"])
        #expect(samples.sections[0].frames == 0..<(HeaderSamples.pullFrames + 1))
        #expect(samples.refreshLoops, "one whole period of \(effect)'s refreshing animation")
        let document = HeaderExport.document(samples, name: effect)
        let json = document.json
        let animation = try LottieFile.parse(Array(json.utf8), file: "\(effect).json")
        #expect(animation.marker(named: "pull") == LottieMarker(name: "pull", start: 0, duration: 60))
        let end = try #require(animation.marker(named: "end"))
        #expect(end.start + end.duration == Double(samples.frames.count - 1))
        let rlottie = try #require(RLottie(json: json))
        #expect(rlottie.frameCount == samples.frames.count)
        for (index, expected) in live.sorted(by: { $0.key < $1.key }) {
            let canvas = Canvas(width: expected.width, height: expected.height)
            try LottieRenderer().render(animation, frame: Double(index), into: canvas,
                                        transform: AffineTransform(scaleX: scale, y: scale))
            let d = Difference(expected, canvas, overWhole: true)
            #expect(d.mean <= 1 && d.percentOver <= 0.5, "\(effect) frame \(index), ours: \(d)")
            let theirs = rlottie.render(frame: index, width: expected.width, height: expected.height)
            let r = Difference(expected, theirs, overWhole: true)
            #expect(r.mean <= 1 && r.percentOver <= 0.5, "\(effect) frame \(index), rlottie: \(r)")
        }
        print("\(effect): \(samples.frames.count) frames, \(document.json.utf8.count / 1024) KB, sections "
            + samples.sections.map { "\($0.name) \($0.frames)" }.joined(separator: ", "))
    }
}

import Export
import Geometry
@testable import Lab
import Layers
import Lottie
import Raster
import Testing
import TestSupport

/// The exported file (`refreshlab export lottie`) drawn by our renderer and by rlottie agrees with the live header
/// drawn in the same box at the same moment, at every 5th frame of its pull, refresh and end.
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
        let document = Bodymovin(size: samples.size, frameRate: HeaderSamples.frameRate,
                                 frames: samples.frames.map(\.shapes), markers: [], name: effect)
        let json = document.json
        let animation = try LottieFile.parse(Array(json.utf8), file: "\(effect).json")
        let rlottie = try #require(RLottie(json: json))
        #expect(rlottie.frameCount == samples.frames.count)
        for (index, expected) in live.sorted(by: { $0.key < $1.key }) {
            let canvas = Canvas(width: expected.width, height: expected.height)
            try LottieRenderer().render(animation, frame: Double(index), into: canvas,
                                        transform: AffineTransform(scaleX: scale, y: scale))
            let d = RoundTripDifference(expected, canvas)
            #expect(d.mean <= 1 && d.percentOver <= 0.5, "\(effect) frame \(index), ours: \(d)")
            let theirs = rlottie.render(frame: index, width: expected.width, height: expected.height)
            let r = RoundTripDifference(expected, theirs)
            #expect(r.mean <= 1 && r.percentOver <= 0.5, "\(effect) frame \(index), rlottie: \(r)")
        }
        print("\(effect): \(samples.frames.count) frames, \(document.json.utf8.count / 1024) KB, sections "
            + samples.sections.map { "\($0.name) \($0.frames)" }.joined(separator: ", "))
    }
}

/// How far two renderings are apart over the whole box: the mean difference per channel (0–255) and the share of
/// pixels, in percent, off by more than 32 in a channel.
struct RoundTripDifference: CustomStringConvertible {
    var mean = 0.0
    var percentOver = 0.0

    init(_ a: Canvas, _ b: Canvas) {
        var sum = 0, over = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y], q = b[x, y]
                var worst = 0
                for shift in stride(from: 0, through: 24, by: 8) {
                    let d = abs(Int((p >> UInt32(shift)) & 0xFF) - Int((q >> UInt32(shift)) & 0xFF))
                    sum += d
                    worst = max(worst, d)
                }
                if worst > 32 { over += 1 }
            }
        }
        let pixels = Swift.max(1, a.width * a.height)
        mean = Double(sum) / Double(pixels * 4)
        percentOver = 100 * Double(over) / Double(pixels)
    }

    var description: String { "mean \(mean), \(percentOver) % of pixels off by more than 32" }
}

import Geometry
import Raster
@testable import Refresh
import Testing
import TestSupport

/// The image-sequence header (docs/reference.md §1, MJRefreshGifHeader): below the trigger the image is
/// ⌊count × pull / trigger⌋ clamped to count − 1; past the trigger and while refreshing, the state's images loop
/// over its duration, 0.1 s per image by default.

/// `count` one-pixel images, image i of value i + 1, so an image tells its index.
private func numbered(_ count: Int) -> [Bitmap] {
    (0..<count).map { Bitmap(width: 1, height: 1, pixels: [0xFF00_0000 | UInt32($0 + 1)])! }
}

private func pull(_ distance: Double, at time: Double = 0) -> RefreshPull {
    RefreshPull(distance: distance, progress: distance / 54, isDragging: true, time: time, headerSize: Size(375, 54))
}

@Suite("Gif effect")
struct GifEffectTests {
    @Test("The pulling frame is ⌊count × percent⌋ clamped: at 0, either side of every boundary, at and past the trigger",
          arguments: [1, 4, 7])
    func pullingFrame(count: Int) {
        let sequence = ImageSequence(images: numbered(count))
        let n = Double(count)
        var probes: [(Double, Int)] = [(0, 0), (-0.5, 0), (1, count - 1), (1.0001, count - 1), (3, count - 1),
                                       (.infinity, count - 1), (.nan, 0)]
        for k in 1..<max(count, 1) {
            probes.append((Double(k) / n - 1e-6, k - 1))
            probes.append((Double(k) / n + 1e-6, k))
        }
        for (percent, expected) in probes {
            #expect(sequence.index(pullingPercent: percent) == expected, "\(count) images at \(percent)")
        }
    }

    @Test("The effect shows idle's frame for the pull's fraction of the trigger, as the image on its layer")
    func effectFollowsPull() {
        let effect = GifEffect(images: GifHeaderImages(ImageSequence(images: numbered(4))))
        for (distance, expected) in [(0.0, 0), (13.4, 0), (13.6, 1), (27.1, 2), (40.6, 3), (54, 3), (80, 3)] {
            effect.update(pull: pull(distance))
            #expect(effect.frameIndex == expected && effect.shownState == .idle, "at \(distance) pt")
            #expect(effect.imageLayer.image?.pixels == [0xFF00_0000 | UInt32(expected + 1)])
        }
    }

    @Test("Looping: 0.1 s per image by default, a given duration spread evenly, a GIF's own delays")
    func looping() {
        let even = ImageSequence(images: numbered(4))
        #expect(even.duration == 0.4)
        for (t, expected) in [(0.0, 0), (0.099, 0), (0.1, 1), (0.101, 1), (0.3, 3), (0.399, 3), (0.4, 0), (0.45, 0),
                              (0.5, 1), (4.05, 0), (-0.05, 3)] {
            #expect(even.index(looping: t) == expected, "at \(t) s")
        }
        let slow = ImageSequence(images: numbered(4), duration: 2)
        #expect(slow.index(looping: 0.49) == 0 && slow.index(looping: 0.51) == 1 && slow.index(looping: 2.01) == 0)
        let gif = ImageSequence(images: numbered(3), delays: [0.5, 0.1, 0.2])
        #expect(gif.duration == 0.8)
        #expect([0.49, 0.51, 0.59, 0.61, 0.79, 0.81].map(gif.index(looping:)) == [0, 1, 1, 2, 2, 0])
    }

    @Test("Armed loops pulling's images and refreshing loops refreshing's, each from when its state began")
    func perStateLoops() throws {
        var images = GifHeaderImages(ImageSequence(images: numbered(3)))
        images.setImages(numbered(5), duration: 1, for: .pulling)
        images.setImages(numbered(2), for: .refreshing)
        let effect = GifEffect(images: images)
        effect.transition(from: .idle, to: .pulling, at: 0)
        effect.update(pull: pull(30, at: 0.5))
        #expect(effect.shownState == .idle && effect.frameIndex == 1)
        // Start times off the loops' beats, so that a loop timed from 0 instead shows other images.
        effect.transition(from: .pulling, to: .armed, at: 1.15)
        effect.update(pull: pull(60, at: 1.2))
        #expect(effect.shownState == .pulling && effect.frameIndex == 0)
        effect.update(pull: pull(60, at: 1.76))
        #expect(effect.frameIndex == 3)
        effect.transition(from: .armed, to: .refreshing, at: 2.05)
        for (t, expected) in [(2.1, 0), (2.2, 1), (2.3, 0), (4.0, 1)] {
            effect.update(pull: pull(54, at: t))
            #expect(effect.shownState == .refreshing && effect.frameIndex == expected, "at \(t) s")
        }
        // Finishing follows the pull again with idle's images, as MJRefresh's header is back in Idle.
        effect.transition(from: .refreshing, to: .finishing(.success), at: 4)
        effect.update(pull: pull(20, at: 4.1))
        #expect(effect.shownState == .idle && effect.frameIndex == 1)
        #expect(GifHeaderImages([:]) == nil)
        let onlyRefreshing = try #require(GifHeaderImages([.refreshing: ImageSequence(images: numbered(2))]))
        #expect(onlyRefreshing[.idle].images.count == 2)
    }

    @Test("The picture fits its box keeping its aspect: centred without labels, left of the text with them")
    func layout() {
        let wide = Bitmap(width: 4, height: 2, pixels: Array(repeating: 0xFF00_0000, count: 8))!
        let effect = GifEffect(images: GifHeaderImages(ImageSequence(images: [wide])))
        effect.labels.showsState = false
        effect.labels.showsLastUpdated = false
        effect.update(pull: pull(54))
        #expect(effect.imageLayer.frame == Rect(x: 162.5, y: 14.5, width: 50, height: 25))
        effect.labels.showsState = true
        effect.update(pull: pull(54))
        let right = 375 / 2 - effect.labels.textWidth / 2 - StateLabels.labelLeftInset
        #expect(effect.labels.textWidth > 0)
        #expect(abs(effect.imageLayer.frame.maxX - right) < 1e-9 && effect.imageLayer.frame.width == 50)
    }
}

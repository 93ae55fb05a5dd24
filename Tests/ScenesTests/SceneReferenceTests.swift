import Geometry
import Raster
import Testing
import TestSupport
import Colors
@testable import Scenes

/// RefreshLab's rendering of every fixture scene against cairo's (the stored references).
@Suite struct SceneReferenceTests {
    /// Mean absolute channel difference allowed on any scene: anti-aliasing may differ from cairo's a little.
    static let maxMeanDifference = 0.6
    /// The tighter bound for the scenes the simulator draws every frame (shapes, text and whole frames).
    static let maxMeanDifferenceForUIScenes = 0.15
    static let uiScenes: Set<String> = ["sticky", "list", "text", "frame"]
    /// Share of pixels, in percent, allowed to differ by more than 32 in some channel: visible mistakes.
    static let maxPercentOverThreshold = 0.2

    @Test func everyFixtureHasAReference() {
        #expect(SceneFixtures.names.count >= 10, "scenes found in \(SceneFixtures.directory): \(SceneFixtures.names)")
        for name in SceneFixtures.names {
            #expect(fileExists(SceneFixtures.referencePath(name)),
                    "scene \(name) has no reference/\(name).png")
        }
    }

    @Test(arguments: SceneFixtures.names)
    func matchesCairoReference(_ name: String) throws {
        let scene = try Scene.load(path: SceneFixtures.scenePath(name))
        let reference = try PNG.read(from: SceneFixtures.referencePath(name))
        let canvas = scene.makeCanvas()
        scene.render(into: canvas, rasterizer: Rasterizer())
        let difference = try #require(ImageDifference(canvas, reference),
                                      "\(name): rendered \(scene.width)×\(scene.height), reference \(reference.width)×\(reference.height)")
        let meanLimit = SceneReferenceTests.uiScenes.contains(name)
            ? SceneReferenceTests.maxMeanDifferenceForUIScenes : SceneReferenceTests.maxMeanDifference
        #expect(difference.meanAbsoluteChannelDifference <= meanLimit,
                "\(name): \(difference.summary); mean allowed \(meanLimit)")
        #expect(difference.percentOverThreshold <= SceneReferenceTests.maxPercentOverThreshold,
                "\(name): \(difference.summary); allowed \(SceneReferenceTests.maxPercentOverThreshold) % over 32")
    }

    /// Rendering twice into the same canvas with the same rasterizer gives the same pixels: nothing left over from
    /// one render changes the next (the benchmark renders repeatedly and must measure the same work).
    @Test(arguments: ["sticky", "strokes"])
    func renderingAgainGivesTheSamePixels(_ name: String) throws {
        let scene = try Scene.load(path: SceneFixtures.scenePath(name))
        let rasterizer = Rasterizer()
        let first = scene.makeCanvas(), second = scene.makeCanvas()
        scene.render(into: first, rasterizer: rasterizer)
        second.clear(to: .black)
        scene.render(into: second, rasterizer: rasterizer)
        let difference = try #require(ImageDifference(first, second))
        #expect(difference.maxChannelDifference == 0, "\(name): \(difference.summary)")
    }
}

/// The difference measure itself, on images worked out by hand.
@Suite struct ImageDifferenceTests {
    @Test func identicalImagesDifferByNothing() throws {
        let a = Canvas(width: 3, height: 2, fill: Color(rgb: 10, 20, 30))
        let b = Canvas(width: 3, height: 2, fill: Color(rgb: 10, 20, 30))
        let d = try #require(ImageDifference(a, b))
        #expect(d.meanAbsoluteChannelDifference == 0)
        #expect(d.maxChannelDifference == 0)
        #expect(d.pixelsOverThreshold == 0)
    }

    @Test func oneChangedPixel() throws {
        let a = Canvas(width: 2, height: 2, fill: .white)
        let b = Canvas(width: 2, height: 2, fill: .white)
        b[1, 1] = 0xFFFF_C0FF  // green 255 → 192 (off by 63), blue unchanged
        b[0, 1] = 0xFFFF_FFF0  // blue 255 → 240 (off by 15)
        let d = try #require(ImageDifference(a, b))
        // (63 + 15) over 4 pixels × 4 channels.
        #expect(d.meanAbsoluteChannelDifference == 78.0 / 16.0)
        #expect(d.maxChannelDifference == 63)
        #expect(d.pixelsOverThreshold == 1)
        #expect(d.percentOverThreshold == 25)
    }

    @Test func sizesMustMatch() {
        #expect(ImageDifference(Canvas(width: 2, height: 2), Canvas(width: 2, height: 3)) == nil)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import Motion
import Raster
import Refresh
import Testing
import TestSupport
@testable import Lab
@testable import Recording

/// Four solid frames, each its own colour, for finding which one a header shows.
enum SolidFrames {
    static let colours: [UInt32] = [0xE0_2020, 0x20_C020, 0x20_20E0, 0xE0_C020]
    static let size = 20

    /// A GIF of the four frames at 0.1 s each.
    static func gif() -> [UInt8] {
        let frames = (0..<4).map {
            GIFWriter.Frame(width: size, height: size, indices: Array(repeating: UInt8($0), count: size * size))
        }
        return GIFWriter.encode(width: size, height: size, palette: colours, frames: frames)
    }

    /// How many pixels of `canvas` inside `box` are exactly each frame's colour.
    static func counts(in canvas: Canvas, box: PixelBox) -> [Int] {
        let premultiplied = colours.map { 0xFF00_0000 | $0 }
        var counts = [0, 0, 0, 0]
        for y in box.minY..<box.maxY {
            for x in box.minX..<box.maxX {
                if let i = premultiplied.firstIndex(of: canvas[x, y]) { counts[i] += 1 }
            }
        }
        return counts
    }

    /// A script that pulls the list down by `travel` points of finger and holds it there.
    static func holdScript(travel: Double, effect: String? = nil) -> String {
        let e = effect.map { "\"effect\": \"\($0)\", " } ?? ""
        return "{\(e)\"steps\": [{\"down\": [187.5, 150]}, {\"move\": [187.5, \(150 + travel)], \"duration\": 0.3}, "
            + "{\"wait\": 0.3}]}"
    }
}

@Suite("Gif header: animation files")
struct AnimationFileTests {
    /// A one-pixel PNG of `rgb`.
    static func writePNG(_ path: String, _ rgb: UInt32) throws {
        let canvas = Canvas(width: 1, height: 1)
        canvas[0, 0] = 0xFF00_0000 | rgb
        try PNG.write(canvas, to: path)
    }

    @Test("A PNG folder sorts by the number in the names: 9 before 10, leading zeros ignored, other files skipped")
    func numericOrder() throws {
        let dir = temporaryDirectory("png-order")
        let names = ["frame-10.png", "frame-9.png", "frame-001.png", "frame-0002.PNG", "a.png"]
        for (i, name) in names.enumerated() { try Self.writePNG(dir + "/" + name, UInt32(i + 1)) }
        #expect(writeTextFile(dir + "/notes.txt", "not a frame"))
        #expect(writeTextFile(dir + "/.hidden.png", "not a frame either"))
        #expect(mkfifo(dir + "/frame-5.png", 0o644) == 0, "a pipe is skipped, not waited on")
        let images = try AnimationFiles.load(dir)
        let order = images[.idle].images.map { Int($0.pixels[0] & 0xFF) }
        // frame-001, frame-0002, frame-9, frame-10, then a.png (no number).
        #expect(order == [3, 4, 2, 1, 5])
        #expect(images[.idle].duration == 0.5 && images[.refreshing] == images[.idle])
        #expect(AnimationFiles.frameOrder("shot-3-of-10.png", "shot-2-of-11.png"), "the last number decides")
        #expect(AnimationFiles.frameOrder("f99999999999999999999999.png", "f100000000000000000000000.png"))
    }

    @Test("A folder with idle/, pulling.gif and refreshing/ gives a sequence per state")
    func perState() throws {
        let dir = temporaryDirectory("png-states")
        mkdir(dir + "/idle", 0o755)
        mkdir(dir + "/refreshing", 0o755)
        try Self.writePNG(dir + "/idle/1.png", 1)
        try Self.writePNG(dir + "/idle/2.png", 2)
        try Self.writePNG(dir + "/refreshing/1.png", 3)
        #expect(writeBytes(dir + "/pulling.gif", SolidFrames.gif()))
        let images = try AnimationFiles.load(dir)
        #expect(images[.idle].images.count == 2 && images[.refreshing].images.count == 1)
        #expect(images[.pulling].images.count == 4 && images[.pulling].delays == [0.1, 0.1, 0.1, 0.1])
    }

    @Test("Bad animations are errors naming the file: missing, empty folder, broken GIF, broken PNG")
    func errors() throws {
        let dir = temporaryDirectory("png-bad")
        mkdir(dir + "/empty", 0o755)
        #expect(writeBytes(dir + "/broken.gif", Array(SolidFrames.gif().prefix(60))))
        mkdir(dir + "/badpng", 0o755)
        #expect(writeTextFile(dir + "/badpng/frame-1.png", "no PNG"))
        for (path, words) in [(dir + "/missing.gif", "no such file"), (dir + "/empty", "has no PNG files"),
                              (dir + "/broken.gif", "truncated"), (dir + "/badpng", "frame-1.png")] {
            do {
                _ = try AnimationFiles.load(path)
                Issue.record("\(path) loaded")
            } catch {
                #expect("\(error)".contains(path) && "\(error)".contains(words), "\(error)")
            }
        }
    }

    @Test("The default animation is the one DefaultAnimationArt draws (REFRESHLAB_UPDATE_DEFAULT_ANIMATION=1 writes it)")
    func defaultAnimation() throws {
        let art = DefaultAnimationArt.frames()
        if getenv("REFRESHLAB_UPDATE_DEFAULT_ANIMATION") != nil {
            let root = try #require(ResourceLocator.directory) + "/" + AnimationFiles.defaultResource
            mkdir(String(root[..<root.lastIndex(of: "/")!]), 0o755)
            mkdir(root, 0o755)
            for (state, frames) in art {
                mkdir(root + "/" + state, 0o755)
                for (i, frame) in frames.enumerated() {
                    try PNG.write(frame, to: root + "/\(state)/frame-" + (i < 9 ? "0" : "") + "\(i + 1).png")
                }
            }
        }
        let images = try AnimationFiles.load(try #require(ResourceLocator.path(AnimationFiles.defaultResource)))
        for (state, frames) in art {
            let sequence = images[try #require(GifHeaderState(rawValue: state))]
            #expect(sequence.images.count == frames.count)
            for (shipped, drawn) in zip(sequence.images, frames) {
                // Through PNG's straight alpha a faint pixel's colour may move by one step.
                var worst = 0
                for (a, b) in zip(shipped.pixels, Bitmap(drawn).pixels) {
                    for shift in stride(from: 0, to: 32, by: 8) {
                        let ca = Int((a >> UInt32(shift)) & 0xFF), cb = Int((b >> UInt32(shift)) & 0xFF)
                        worst = max(worst, abs(ca - cb))
                    }
                }
                #expect(worst <= 2, "\(state): off by \(worst)")
            }
        }
    }
}

@Suite("Gif header in the simulation")
struct GifHeaderRunTests {
    /// The header's band on the phone, in pixels: between the navigation bar and the content's top.
    static func headerBand(_ simulation: Simulation) -> PixelBox {
        let s = simulation.phone.scale
        let top = simulation.phone.listFrame.minY
        let pull = simulation.refreshControl.distance
        return PixelBox(covering: Rect(x: 0, y: top * s, width: simulation.phone.screenSize.width * s, height: pull * s))
    }

    @Test("A headless run shows the frame ⌊count × pull / trigger⌋ of the animation in the header",
          arguments: [40.0, 90.0])
    func pulledFrame(travel: Double) throws {
        let dir = temporaryDirectory("gif-run")
        #expect(writeBytes(dir + "/four.gif", SolidFrames.gif()))
        let script = try GestureScript(json: SolidFrames.holdScript(travel: travel))
        let run = try ScriptRun(script: script, effect: "gif", prepare: { try $0.loadAnimation(path: dir + "/four.gif", for: "gif") })
        while try run.runFrame() {}
        let simulation = run.simulation
        let progress = simulation.refreshControl.distance / simulation.refreshControl.metrics.triggerDistance
        #expect(progress > 0.1 && progress < 1, "the hold is below the trigger: \(progress)")
        let expected = min(Int(4 * progress), 3)
        let counts = SolidFrames.counts(in: simulation.canvas, box: Self.headerBand(simulation))
        #expect(counts[expected] > 100, "\(counts), expected frame \(expected)")
        #expect(counts.enumerated().allSatisfy { $0.offset == expected || $0.element == 0 }, "\(counts)")
    }

    @Test("Selecting the gif header without an animation shows the default one")
    func defaultOnKey() throws {
        let simulation = Simulation(clock: SimulatedClock())
        #expect(simulation.selectEffect(named: "gif"))
        let effect = try #require(simulation.refreshControl.effect as? GifEffect)
        #expect(effect.images?[.refreshing].images.count == 12)
    }

    @Test("reloadAnimations reads the file again; a broken file keeps the old pictures and says why")
    func reload() throws {
        let dir = temporaryDirectory("gif-reload")
        let path = dir + "/a.gif"
        #expect(writeBytes(path, SolidFrames.gif()))
        let simulation = Simulation(clock: SimulatedClock())
        try simulation.loadAnimation(path: path, for: "gif")
        #expect(simulation.selectEffect(named: "gif"))
        let effect = try #require(simulation.refreshControl.effect as? GifEffect)
        #expect(effect.images?[.idle].images.count == 4)
        let one = GIFWriter.encode(width: 2, height: 2, palette: [0xFFFFFF, 0],
                                   frames: [GIFWriter.Frame(width: 2, height: 2, indices: [0, 1, 1, 0])])
        #expect(writeBytes(path, one))
        let reloaded = simulation.reloadAnimations()
        #expect(reloaded.count == 1 && reloaded[0].path == path && reloaded[0].error == nil)
        #expect(effect.images?[.idle].images.count == 1)
        #expect(writeBytes(path, Array(one.prefix(20))))
        #expect(simulation.reloadAnimations().first?.error?.contains("'\(path)'") == true)
        #expect(effect.images?[.idle].images.count == 1)
    }

    @Test("The window's watcher shows a GIF saved again within 200 ms, in the state the header is in")
    func reloadThroughTheWatcher() throws {
        let dir = temporaryDirectory("gif-watch")
        let path = dir + "/a.gif"
        #expect(writeBytes(path, SolidFrames.gif()))
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        try simulation.loadAnimation(path: path, for: "gif")
        #expect(simulation.selectEffect(named: "gif"))
        let reloader = try AnimationReloader(paths: simulation.animationPaths, wake: {})
        defer { reloader.stop() }
        simulation.refreshControl.beginRefreshing()
        for _ in 0..<30 {
            clock.advance(by: 1 / 60)
            simulation.step()
        }
        let effect = try #require(simulation.refreshControl.effect as? GifEffect)
        #expect(effect.images?[.refreshing].images.count == 4 && simulation.refreshControl.state == .refreshing)
        let one = GIFWriter.encode(width: 2, height: 2, palette: [0xFFFFFF, 0],
                                   frames: [GIFWriter.Frame(width: 2, height: 2, indices: [0, 1, 1, 0])])
        let start = monotonicNow()
        saveByRename(path, one)
        let seconds = try #require(waitForReload(reloader, simulation, since: start))
        #expect(seconds < 0.2)
        #expect(effect.images?[.refreshing].images.count == 1)
        #expect(simulation.refreshControl.state == .refreshing)  // the refresh under way goes on
        // Broken now: the last good pictures stay.
        saveByRename(path, Array(one.prefix(20)))
        #expect(waitForReload(reloader, simulation, since: monotonicNow()) != nil)
        #expect(effect.images?[.refreshing].images.count == 1)
    }

    @Test("refreshlab run --effect gif --animation FILE draws the pulled frame; bad options are errors",
          .enabled(if: longTestsEnabled, "a long test: REFRESHLAB_LONG_TESTS=1 runs it"))
    func commandLine() throws {
        let dir = temporaryDirectory("gif-cli")
        #expect(writeBytes(dir + "/four.gif", SolidFrames.gif()))
        #expect(writeTextFile(dir + "/hold.json", SolidFrames.holdScript(travel: 40)))
        let outcome = try runRefreshlab(["run", "--script", dir + "/hold.json", "--effect", "gif", "--animation",
                                         dir + "/four.gif", "--frames", dir + "/frames"], in: dir)
        #expect(outcome.status == 0, "\(outcome.errors)")
        var last = 0
        while fileExists(PNGSequence.path(of: last + 1, in: dir + "/frames")) { last += 1 }
        let frame = try PNG.read(from: PNGSequence.path(of: last, in: dir + "/frames"))
        let band = PixelBox(minX: 0, minY: Int(Phone().listFrame.minY * 2), maxX: frame.width,
                            maxY: Int(Phone().listFrame.minY * 2) + 80)
        let counts = SolidFrames.counts(in: frame, box: band)
        #expect(counts.filter { $0 > 100 }.count == 1, "\(counts)")

        #expect(writeBytes(dir + "/broken.gif", Array(SolidFrames.gif().prefix(50))))
        for (arguments, words) in [
            (["--effect", "classic", "--animation", dir + "/four.gif"], "--animation goes with --effect gif"),
            (["--animation", dir + "/four.gif"], "--animation goes with --effect gif"),
            (["--effect", "gif", "--animation", dir + "/broken.gif"], "'\(dir)/broken.gif'"),
            (["--effect", "gif", "--animation", dir + "/none"], "no such file"),
        ] {
            let bad = try runRefreshlab(["run", "--script", dir + "/hold.json"] + arguments, in: dir)
            #expect(bad.status != 0 && bad.status < 128, "\(arguments): \(bad.status)")
            #expect(bad.errors.contains(words), "\(arguments): \(bad.errors)")
        }
    }
}

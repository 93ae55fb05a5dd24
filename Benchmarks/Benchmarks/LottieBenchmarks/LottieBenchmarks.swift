#if canImport(Glibc)
import Glibc
#endif
import Benchmark
import CRLottie
import Geometry
import Lab
import Layers
import Lottie
import Motion
import Raster
import Refresh
import Scrolling

/// The Lottie header's animation drawn frame after frame at 100×100 points and scale 2 (200×200 pixels), by
/// RefreshLab's renderer and by rlottie in the same run; a generated 1 MB Bodymovin file parsed the way the app
/// reads one; and the lottie and gif headers refreshing, which must allocate nothing once warm.
let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]
    let configuration = Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(3), maxIterations: 20_000)

    for file in LottieBench.files() {
        // Both renderers draw every frame of the animation in turn, one frame per iteration, so that the median is
        // over the whole animation and not over one pose.
        let mine = OurFrames(file)
        Benchmark("lottie \(file.name) frames: RefreshLab (200×200)", configuration: configuration) { benchmark in
            mine.warm()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { mine.next() }
        }
        if let theirs = RLottieFrames(file) {
            Benchmark("lottie \(file.name) frames: rlottie (200×200)", configuration: configuration) { benchmark in
                theirs.warm()
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations { theirs.next() }
            }
        }
    }

    let large = BodymovinGenerator.document(minimumBytes: 1 << 20)
    Benchmark("lottie parse, generated \(large.count / 1024) KB file (LottieFile.parse)",
              configuration: .init(metrics: metrics, maxDuration: .seconds(5), maxIterations: 200)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try LottieFile.parse(large, file: "generated.json"))
        }
    }

    /// A header's frames while it refreshes, its animation looping.
    func refreshingHeader(_ name: String, _ effect: @escaping @Sendable () -> any RefreshEffect) {
        Benchmark(name, configuration: .init(metrics: metrics, maxDuration: .seconds(2))) { benchmark in
            let bench = HeaderFrames(effect: effect())
            bench.refresh()
            bench.warmUp()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { bench.frameStep() }
        }
    }
    if let animation = LottieBench.files().first?.animation {
        refreshingHeader("header lottie (refresh.json) refreshing, looping segment") {
            LottieEffect(animation: animation)
        }
    }
    if let animation = LottieBench.file(at: LottieBench.fixture("expressions.json"))?.animation {
        refreshingHeader("header lottie with expressions (Tests/Fixtures/lottie/expressions.json) refreshing") {
            LottieEffect(animation: animation)
        }
    }
    if let animation = LottieBench.file(at: LottieBench.fixture("text.json"))?.animation {
        refreshingHeader("header lottie with text (Tests/Fixtures/lottie/text.json) refreshing") {
            LottieEffect(animation: animation)
        }
    }
    if let path = ResourceLocator.path(GifEffect.defaultAnimationResource),
       let images = try? GifEffect.readAnimation(at: path).animation {
        refreshingHeader("header gif (default pictures) refreshing, looping sequence") { GifEffect(images: images) }
    }
}

/// A Bodymovin file read once, with its bytes (for rlottie) and its model (for us).
struct LottieBenchFile {
    let name: String
    let bytes: [UInt8]
    let animation: LottieAnimation
}

enum LottieBench {
    /// The header's size in points and the phone's scale: 200×200 pixels.
    static let side = 100.0, scale = 2.0
    static var pixels: Int { Int(side * scale) }

    /// The default header animation; `LOTTIE_BENCH_FILES` (paths separated by ':') adds others.
    static func files() -> [LottieBenchFile] {
        var paths: [String] = []
        if let path = ResourceLocator.path(LottieFile.defaultAnimation) { paths.append(path) }
        if let extra = getenv("LOTTIE_BENCH_FILES") {
            paths += String(cString: extra).split(separator: ":").map(String.init)
        }
        return paths.compactMap(file(at:))
    }

    static func file(at path: String) -> LottieBenchFile? {
        guard let bytes = readBytes(path), let animation = try? LottieFile.parse(bytes, file: path) else { return nil }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return LottieBenchFile(name: name, bytes: bytes, animation: animation)
    }

    /// The test fixture whose expressions read controls, loop, wiggle, map points between layers and drive a path.
    /// The path of one of the tests' Lottie fixtures.
    static func fixture(_ name: String) -> String {
        let here = "\(#filePath)"
        let root = here.range(of: "/Benchmarks/Benchmarks/").map { String(here[..<$0.lowerBound]) } ?? "."
        return root + "/Tests/Fixtures/lottie/" + name
    }
}

/// RefreshLab's renderer over one 200×200 canvas, cleared before each frame as rlottie clears its buffer.
final class OurFrames: @unchecked Sendable {
    let animation: LottieAnimation
    let canvas = Canvas(width: LottieBench.pixels, height: LottieBench.pixels)
    let renderer = LottieRenderer()
    let fit: AffineTransform
    private var frame = 0
    let frameCount: Int

    init(_ file: LottieBenchFile) {
        animation = file.animation
        fit = LottieRenderer.fitting(animation.size, into: canvas.bounds)
        frameCount = Swift.max(1, Int((animation.outPoint - animation.inPoint).rounded(.up)))
    }

    func warm() { for _ in 0..<frameCount { next() } }

    @inline(never)
    func next() {
        canvas.clear(to: .clear)
        // The benchmarked files are within every budget: an error here would show as an empty frame.
        try? renderer.render(animation, frame: animation.inPoint + Double(frame), into: canvas, transform: fit)
        frame = (frame + 1) % frameCount
    }
}

/// rlottie through its C API, rendering into a buffer of the same size.
final class RLottieFrames: @unchecked Sendable {
    private let handle: OpaquePointer
    private let buffer: UnsafeMutablePointer<UInt32>
    private var frame = 0
    let frameCount: Int

    init?(_ file: LottieBenchFile) {
        let text = String(decoding: file.bytes, as: UTF8.self)
        guard let h = text.withCString({ lottie_animation_from_data($0, "refreshlab-bench-\(file.name)", "") })
        else { return nil }
        handle = h
        frameCount = Swift.max(1, lottie_animation_get_totalframe(h))
        buffer = .allocate(capacity: LottieBench.pixels * LottieBench.pixels)
    }

    deinit {
        lottie_animation_destroy(handle)
        buffer.deallocate()
    }

    func warm() { for _ in 0..<frameCount { next() } }

    @inline(never)
    func next() {
        let n = LottieBench.pixels
        lottie_animation_render(handle, frame, buffer, n, n, n * 4)
        frame = (frame + 1) % frameCount
    }
}

/// The bytes of a file, or nil when it cannot be read.
func readBytes(_ path: String) -> [UInt8]? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = fread(&chunk, 1, chunk.count, f)
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    return bytes
}

/// A header effect on a phone-wide scroll view, refreshing, drawn at scale 2 over the list's background: the
/// header benchmarks' bench, for a header made here with its file.
final class HeaderFrames {
    static let scale = 2.0, height = 160.0, frame = 1.0 / 60

    let clock = SimulatedClock()
    let scrollView = ScrollView(boundsSize: Size(375, 603), contentSize: Size(375, 4000))
    let control: RefreshControl
    let renderer = LayerRenderer()
    let canvas = Canvas(width: 750, height: Int(HeaderFrames.height * HeaderFrames.scale), fill: .white)

    init(effect: any RefreshEffect) {
        control = RefreshControl(effect: effect)
        control.headerLayer.animator = Animator(clock: clock)
        control.attach(to: scrollView)
    }

    /// Starts a refresh from code and runs a second of it, unmeasured.
    func refresh() {
        control.beginRefreshing()
        for _ in 0..<60 {
            clock.advance(by: HeaderFrames.frame)
            scrollView.step(to: clock.now)
            control.step(to: clock.now)
        }
    }

    /// Five seconds of frames: every frame of a looping segment up to 5 s long has been drawn once, so the
    /// renderer's buffers have grown to the largest any of them needs.
    func warmUp() {
        for _ in 0..<300 { frameStep() }
    }

    @inline(never)
    func frameStep() {
        clock.advance(by: HeaderFrames.frame)
        scrollView.step(to: clock.now)
        control.step(to: clock.now)
        canvas.clear(to: .white)
        let offset = scrollView.contentOffset
        let transform = AffineTransform(translationX: -offset.x, y: -offset.y)
            .concatenating(AffineTransform(scaleX: HeaderFrames.scale, y: HeaderFrames.scale))
        control.headerLayer.render(into: canvas, at: clock.now, transform: transform, renderer: renderer)
    }
}

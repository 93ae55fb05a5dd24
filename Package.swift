// swift-tools-version:6.1
// RefreshLab: a desktop simulator of iOS pull-to-refresh effects.
// The module graph follows docs/architecture.md's layers; every arrow points one way, from a module to what it uses.
import PackageDescription

let package = Package(
    name: "RefreshLab",
    products: [
        .executable(name: "refreshlab", targets: ["refreshlab"]),
        .library(name: "Lab", targets: ["Lab"]),
        // The vector scenes and image differences, for the rasterizer's comparison with cairo without the simulation.
        .library(name: "Scenes", targets: ["Scenes"]),
        .library(name: "Text", targets: ["Text"]),
        // For the benchmark package only (FreeType's reference rasterizer, the glyph sets); the executable never
        // links it.
        .library(name: "TestSupport", targets: ["TestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // C libraries, found through pkg-config.
        .systemLibrary(name: "CSDL2", pkgConfig: "sdl2", providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CGIF", pkgConfig: "libgif", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CDuktape", pkgConfig: "duktape", providers: [.apt(["duktape-dev"])]),
        // A header only: the CPU's prefetch instruction, for the compositor.
        .systemLibrary(name: "CIntrinsics"),

        // The layers, bottom up.
        // Reading and writing the user's files: the JSON reader, FileError, bounded reads, outputs written whole.
        .target(name: "UserFiles"),
        // The colour type every drawing and animating layer shares.
        .target(name: "Colors"),
        // Geometry runs without run-time exclusivity checks: the stroker's reused buffers are class properties,
        // and checking each access cost a tenth of every stroke.
        .target(name: "Geometry", swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])]),
        // The rasterizer's inner loops, compiled once per instruction set (the same code, inlined into the two
        // wider modules); Raster picks one at start-up from the CPU's features. Optimised in debug builds too: their
        // vector code unoptimised is a function call per lane operation, which would make every test that draws
        // a hundred times slower. Unchecked: each conversion of a coordinate to a cell index would otherwise test
        // for NaN and range (three branches, 5–8 % of a fill); the kernels drop edges with a NaN coordinate and
        // clip the others to the cell buffer before converting any.
        .target(name: "RasterKernels", dependencies: ["Geometry", "CIntrinsics"],
                swiftSettings: [.unsafeFlags(["-Ounchecked"])]),
        .target(name: "RasterKernelsAVX2", dependencies: ["Geometry", "RasterKernels", "CIntrinsics"],
                swiftSettings: [.unsafeFlags(["-Ounchecked", "-target-cpu", "haswell"])]),
        .target(name: "RasterKernelsAVX512", dependencies: ["Geometry", "RasterKernels", "CIntrinsics"],
                swiftSettings: [.unsafeFlags(["-Ounchecked", "-target-cpu", "skylake-avx512"])]),
        .target(name: "Raster", dependencies: ["UserFiles", "Geometry", "Colors", "RasterKernels", "RasterKernelsAVX2", "RasterKernelsAVX512",
                                               "CPNG", "CGIF", "CJPEG", "CWebP"]),
        .target(name: "Text", dependencies: ["Geometry", "Colors", "Raster", "CFreeType", "CFontconfig"]),
        .target(name: "Motion", dependencies: ["Geometry", "Colors"]),
        .target(name: "Layers", dependencies: ["Geometry", "Colors", "Raster", "Text", "Motion"]),
        // Parameters as data: style values, their schemas, style files and the JSON reader they share.
        .target(name: "Styles", dependencies: ["UserFiles", "Geometry", "Colors", "Motion"]),
        .target(name: "Lottie", dependencies: ["UserFiles", "Geometry", "Colors", "Raster", "Text", "Motion", "CDuktape"]),
        .target(name: "Scrolling", dependencies: ["Geometry", "Motion", "Styles"]),
        .target(name: "Refresh", dependencies: ["Geometry", "Colors", "Raster", "Text", "Motion", "Layers", "Scrolling", "Styles",
                                                "Lottie"]),
        // Vector scene files drawn by the rasterizer, and differences between images: the rasterizer's harness.
        .target(name: "Scenes", dependencies: ["UserFiles", "Geometry", "Colors", "Raster"]),
        // Frame timings and their files, summary and chart; captures and videos through ffmpeg; how the process
        // ends on a signal. Knows nothing of the simulation.
        .target(name: "Recording", dependencies: ["UserFiles", "Geometry", "Colors", "Raster", "Text", "Motion"]),
        // A header's drawing written out for other players: Bodymovin (Lottie) documents. Knows nothing of the
        // simulation; the lab takes the frames (`HeaderSamples`).
        .target(name: "Export", dependencies: ["UserFiles", "Geometry", "Colors", "Raster", "Layers", "Lottie"]),
        .target(name: "Lab", dependencies: ["UserFiles", "Geometry", "Colors", "Raster", "Text", "Motion", "Layers",
                                            "Scrolling", "Refresh", "Styles", "Lottie", "Scenes", "Recording", "Export"]),
        .executableTarget(
            name: "refreshlab",
            dependencies: [
                "UserFiles", "Geometry", "Colors", "Raster", "Motion", "Styles", "Scrolling", "Lottie", "Scenes", "Recording", "Lab",
                "CSDL2",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Test support: what the test targets and the benchmarks share (image comparison, the seeded random generator,
        // temporary files, the refresh control's invariants, FreeType's reference glyph rendering, the glyph sets). A
        // target of its own under Tests/ that no production target depends on, so that production code ships no test
        // oracle.
        .target(name: "TestSupport", dependencies: ["UserFiles", "Geometry", "Colors", "Raster", "Text", "CFreeType", "Scrolling", "Refresh"],
                path: "Tests/TestSupport"),
        // rlottie, the reference the Lottie renderer is compared with; tests and benchmarks only.
        .systemLibrary(name: "CRLottie", path: "Tests/CRLottie", pkgConfig: "rlottie",
                       providers: [.apt(["librlottie-dev"])]),

        // One test target per module.
        .testTarget(name: "UserFilesTests", dependencies: ["UserFiles", "TestSupport"]),
        .testTarget(name: "GeometryTests", dependencies: ["Geometry", "TestSupport"]),
        .testTarget(name: "RasterTests", dependencies: ["UserFiles", "Colors", "Geometry", "RasterKernels", "Raster", "TestSupport"]),
        .testTarget(name: "TextTests", dependencies: ["Colors", "Geometry", "Raster", "Text", "CFreeType", "TestSupport"]),
        .testTarget(name: "MotionTests", dependencies: ["Colors", "Geometry", "Motion", "TestSupport"]),
        .testTarget(name: "LayersTests", dependencies: ["Colors", "Geometry", "Raster", "Motion", "Layers", "TestSupport"]),
        .testTarget(name: "StylesTests", dependencies: ["UserFiles", "Colors", "Geometry", "Raster", "Motion", "Styles", "TestSupport"]),
        .testTarget(name: "ScrollingTests", dependencies: ["Geometry", "Motion", "Scrolling", "TestSupport"]),
        .testTarget(name: "RefreshTests", dependencies: ["Colors", "Geometry", "Scrolling", "Styles", "Refresh", "TestSupport"],
                    exclude: ["Goldens"]),
        .testTarget(name: "LottieTests", dependencies: ["UserFiles", "Colors", "Geometry", "Raster", "Motion", "Layers", "Lottie", "Scrolling", "Refresh", "Lab", "Export", "CRLottie",
                                                        "TestSupport"]),
        .testTarget(name: "ScenesTests", dependencies: ["UserFiles", "Colors", "Geometry", "Raster", "Scenes", "TestSupport"]),
        .testTarget(name: "RecordingTests", dependencies: ["UserFiles", "Colors", "Geometry", "Raster", "Recording", "TestSupport"]),
        .testTarget(name: "ExportTests", dependencies: ["UserFiles", "Colors", "Geometry", "Raster", "Layers", "Lottie", "Export", "TestSupport"]),
        .testTarget(name: "LabTests", dependencies: ["UserFiles", "Colors", "Scenes", "Recording", "Refresh", "Geometry", "Raster", "Motion", "Styles", "Lab", "TestSupport"],
                    exclude: ["Goldens"]),
        // The executable's own code (the command line's file and number checks), imported with @testable.
        .testTarget(name: "RefreshLabTests", dependencies: ["refreshlab", "UserFiles", "Scenes", "Recording", "TestSupport"]),
    ]
)

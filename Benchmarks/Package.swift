// swift-tools-version:6.1
// RefreshLab's benchmarks, kept out of the main package so that building and testing RefreshLab never pulls in the
// benchmark tooling. Run from this folder: `swift package benchmark` (see README.md).
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder, which is whatever the checkout was cloned as.
let refreshLab = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "RefreshLabBenchmarks",
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "FrameBenchmarks",
            dependencies: [
                .product(name: "Lab", package: refreshLab),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/FrameBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "MotionBenchmarks",
            dependencies: [
                .product(name: "Lab", package: refreshLab),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/MotionBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "TextBenchmarks",
            dependencies: [
                .product(name: "Text", package: refreshLab),
                .product(name: "TestSupport", package: refreshLab),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/TextBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),

        // The Lottie renderer and parser, with rlottie drawing the same frames in the same run.
        .systemLibrary(name: "CRLottie", path: "CRLottie", pkgConfig: "rlottie", providers: [.apt(["librlottie-dev"])]),
        .executableTarget(
            name: "LottieBenchmarks",
            dependencies: [
                "CRLottie",
                .product(name: "Lab", package: refreshLab),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/LottieBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),

        // The reference renderer for the scene comparison (compare-scenes.sh): cairo draws the same scene files. It lives
        // outside Benchmarks/ because the benchmark plugin runs every executable there as a benchmark.
        .systemLibrary(name: "CCairo", path: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .executableTarget(
            name: "cairo-scene",
            dependencies: ["CCairo", .product(name: "Scenes", package: refreshLab)],
            path: "Tools/CairoScene"
        ),
    ]
)

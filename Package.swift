// swift-tools-version:6.1
// RefreshLab: a desktop simulator of iOS pull-to-refresh effects.
// The module graph follows DESIGN's layers; every arrow points one way, from a module to what it uses.
import PackageDescription

let package = Package(
    name: "RefreshLab",
    products: [
        .executable(name: "refreshlab", targets: ["refreshlab"]),
        .library(name: "Lab", targets: ["Lab"]),
        .library(name: "Text", targets: ["Text"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // C libraries, found through pkg-config.
        .systemLibrary(name: "CSDL2", pkgConfig: "sdl2", providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),

        // The layers, bottom up.
        .target(name: "Geometry"),
        .target(name: "Raster", dependencies: ["Geometry", "CPNG"]),
        .target(name: "Text", dependencies: ["Geometry", "Raster", "CFreeType", "CFontconfig"]),
        .target(name: "Motion", dependencies: ["Geometry", "Raster"]),
        .target(name: "Layers", dependencies: ["Geometry", "Raster", "Text", "Motion"]),
        .target(name: "Scrolling", dependencies: ["Geometry", "Motion"]),
        .target(name: "Refresh", dependencies: ["Geometry", "Raster", "Text", "Motion", "Layers", "Scrolling"]),
        .target(name: "Lab", dependencies: ["Geometry", "Raster", "Text", "Motion", "Layers", "Scrolling", "Refresh"]),
        .executableTarget(
            name: "refreshlab",
            dependencies: [
                "Geometry", "Raster", "Motion", "Lab", "CSDL2",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Test support: what the test targets share (image comparison, the seeded random generator, temporary
        // files, the refresh control's invariants). A target of its own under Tests/, in no product, so that production code ships no test oracle.
        .target(name: "TestSupport", dependencies: ["Geometry", "Raster", "Scrolling", "Refresh"],
                path: "Tests/TestSupport"),

        // One test target per module.
        .testTarget(name: "GeometryTests", dependencies: ["Geometry", "TestSupport"]),
        .testTarget(name: "RasterTests", dependencies: ["Geometry", "Raster", "TestSupport"]),
        .testTarget(name: "TextTests", dependencies: ["Geometry", "Raster", "Text", "TestSupport"]),
        .testTarget(name: "MotionTests", dependencies: ["Geometry", "Raster", "Motion", "TestSupport"]),
        .testTarget(name: "LayersTests", dependencies: ["Geometry", "Raster", "Motion", "Layers", "TestSupport"]),
        .testTarget(name: "ScrollingTests", dependencies: ["Geometry", "Motion", "Scrolling", "TestSupport"]),
        .testTarget(name: "RefreshTests", dependencies: ["Geometry", "Scrolling", "Refresh", "TestSupport"],
                    exclude: ["Goldens"]),
        .testTarget(name: "LabTests", dependencies: ["Geometry", "Raster", "Lab", "TestSupport"]),
    ]
)

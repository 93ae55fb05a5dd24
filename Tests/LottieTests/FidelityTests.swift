#if canImport(Glibc)
import Glibc
#endif
@testable import Lab
import Lottie
import Raster
import Testing
@testable import UserFiles

/// Every file of `Fixtures` drawn by us and by rlottie at every 5th frame, 200×200 pixels: the mean channel
/// difference at most 1.0 and at most 0.5 % of pixels off by more than 32, in the box around what is drawn.
///
/// Left out, where rlottie departs from lottie-web and we follow lottie-web (tested by hand in the other suites):
/// skew; easing per dimension; a star's rotation (rlottie turns it the other way) and roundness (rlottie's tangents
/// use other constants); blend modes and radial highlights (checked against the W3C and lottie-web formulas); a layer
/// at its out point (no out point here is a multiple of 5); layer opacity over overlapping shapes (rlottie fades each
/// shape, After Effects the layer as a whole); mask opacity (rlottie ignores it); gradient opacity stops; positions
/// along spatial tangents; a precomposition at a fractional frame (rlottie rounds its time); track mattes (this rlottie
/// draws none).
@Suite struct FidelityTests {
    static let bound = (mean: 1.0, percent: 0.5)

    static var files: [(name: String, json: String)] {
        var list = Fixtures.compared
        if let path = ResourceLocator.path(LottieFile.defaultAnimation),
           let text = try? String(decoding: readAll(path), as: UTF8.self) {
            list.append(("refresh (resources)", text))
        }
        return list
    }

    @Test(arguments: FidelityTests.files.map(\.name))
    func matchesRLottie(_ name: String) throws {
        let json = try #require(FidelityTests.files.first { $0.name == name }).json
        let animation = try parse(json, file: name)
        #expect(animation.warning == nil)
        let reference = try #require(RLottie(json: json), "rlottie cannot read \(name)")
        var worst: Difference?
        var worstFrame = 0
        for frame in stride(from: Int(animation.inPoint), to: Int(animation.outPoint), by: 5) {
            let mine = ours(animation, frame: Double(frame))
            let theirs = reference.render(frame: frame, width: 200, height: 200)
            let d = Difference(mine, theirs)
            // LOTTIE_DIFF_DIR=folder keeps both renderings of every frame compared, to look at a failure.
            if let dir = getenv("LOTTIE_DIFF_DIR").map({ String(cString: $0) }) {
                try PNG.write(mine, to: "\(dir)/\(name)-\(frame)-ours.png")
                try PNG.write(theirs, to: "\(dir)/\(name)-\(frame)-rlottie.png")
            }
            if worst.map({ d.mean > $0.mean || d.percentOver > $0.percentOver }) ?? true { worst = d; worstFrame = frame }
            #expect(d.mean <= FidelityTests.bound.mean && d.percentOver <= FidelityTests.bound.percent,
                    "\(name) frame \(frame): \(d)")
        }
        print("fidelity \(name): worst frame \(worstFrame): \(worst.map(\.description) ?? "none")")
    }
}

/// The bytes of a file the tests read.
func readAll(_ path: String) throws -> [UInt8] {
    var bytes: [UInt8] = []
    guard let f = fopen(path, "rb") else { throw LabError("cannot open \(path)") }
    defer { fclose(f) }
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&chunk, 1, chunk.count, f)
        bytes += chunk[0..<n]
        if n < chunk.count { return bytes }
    }
}

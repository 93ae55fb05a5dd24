#if canImport(Glibc)
import Glibc
#endif
import Geometry
@testable import Lab
@testable import Lottie
import Raster
import Testing
import TestSupport

/// Image assets and image layers: embedded as data URIs or beside the animation, in PNG, JPEG and WebP.
@Suite struct ImageAssetTests {
    /// `Tests/Fixtures/images`: a 16×16 picture of four quadrants (red, green over blue, white) in each format,
    /// and a 4×4 red at half opacity.
    static let folder: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/Tests/Fixtures/images"
    }()

    static func fixture(_ name: String) -> [UInt8] { (try? readAll(folder + "/" + name)) ?? [] }

    static func base64(_ bytes: [UInt8]) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var out = ""
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            var v = 0
            for k in 0..<3 { v = v << 8 | (k < n ? Int(bytes[i + k]) : 0) }
            for k in 0..<4 { out.append(k <= n ? table[(v >> (18 - 6 * k)) & 63] : "=") }
            i += 3
        }
        return out
    }

    /// A 100×100 composition whose one image layer shows asset `asset` at (10, 20), the asset's box 40×40.
    static func composition(_ asset: J, layerExtra: [(String, J)] = []) -> String {
        var layer: J = ["ddd": 0, "ind": 1, "ty": 2, "nm": "picture", "refId": "pic",
                        "ks": Lot.transform(p: [10, 20]), "ip": 0, "op": 60, "st": 0]
        for (k, v) in layerExtra { layer = layer.with(k, v) }
        return Lot.composition(layers: [layer], assets: [asset])
    }

    static func embedded(_ file: String, mime: String) -> J {
        ["id": "pic", "w": 40, "h": 40, "u": "", "e": 1,
         "p": .string("data:image/\(mime);base64," + base64(fixture(file)))]
    }

    func render(_ json: String, folder: String? = nil) throws -> Canvas {
        let animation = try LottieFile.parse(Array(json.utf8), file: "pic.json", folder: folder)
        #expect(animation.warning == nil)
        return try LottieFile.render(animation, frame: 0, width: 100, height: 100)
    }

    /// The premultiplied colour at (x, y) as (r, g, b, a).
    func rgba(_ c: Canvas, _ x: Int, _ y: Int) -> [Int] {
        let p = c[x, y]
        return [Int(p >> 16 & 255), Int(p >> 8 & 255), Int(p & 255), Int(p >> 24)]
    }

    func close(_ a: [Int], _ b: [Int], within t: Int) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) <= t } }

    @Test("An embedded PNG, JPEG or WebP fills the asset's box at the layer's place, scaled 2.5 times, filtered")
    func embeddedFormats() throws {
        for (file, mime, tolerance) in [("quadrants.png", "png", 0), ("quadrants.webp", "webp", 0),
                                        ("quadrants.jpg", "jpeg", 12)] {
            let c = try render(ImageAssetTests.composition(ImageAssetTests.embedded(file, mime: mime)))
            // The box is x 10…50, y 20…60; each quadrant 20×20.
            #expect(close(rgba(c, 15, 25), [255, 0, 0, 255], within: tolerance), "\(file)")
            #expect(close(rgba(c, 45, 25), [0, 255, 0, 255], within: tolerance), "\(file)")
            #expect(close(rgba(c, 15, 55), [0, 0, 255, 255], within: tolerance), "\(file)")
            #expect(close(rgba(c, 45, 55), [255, 255, 255, 255], within: tolerance), "\(file)")
            #expect(rgba(c, 9, 40)[3] == 0 && rgba(c, 51, 40)[3] == 0 && rgba(c, 30, 19)[3] == 0 && rgba(c, 30, 61)[3] == 0)
            // Across the middle, bilinear filtering mixes red and green.
            let middle = rgba(c, 30, 25)
            #expect(middle[0] > 40 && middle[1] > 40, "\(file): \(middle)")
        }
    }

    @Test("A picture beside the animation is read from the asset's folder; the layer's opacity applies")
    func besideTheAnimation() throws {
        let dir = temporaryDirectory("lottie-images")
        mkdir(dir + "/images", 0o755)
        #expect(writeBytes(dir + "/images/half.webp", ImageAssetTests.fixture("half-red.webp")))
        let asset: J = ["id": "pic", "w": 40, "h": 40, "u": "images/", "p": "half.webp", "e": 0]
        let json = ImageAssetTests.composition(asset, layerExtra: [("ks", Lot.transform(p: [10, 20], o: 50))])
        #expect(writeTextFile(dir + "/anim.json", json))
        let animation = try LottieFile.load(path: dir + "/anim.json")
        let c = try LottieFile.render(animation, frame: 0, width: 100, height: 100)
        // Red at 128/255, then the layer at 50 %: alpha 64, premultiplied red 64.
        #expect(close(rgba(c, 30, 40), [64, 0, 0, 64], within: 2), "\(rgba(c, 30, 40))")
        // Without a folder (parsing bytes alone) the picture is not read, and nothing is drawn.
        let unread = try LottieFile.parse(Array(json.utf8), file: "anim.json")
        #expect(try LottieFile.render(unread, frame: 0, width: 100, height: 100)[30, 40] == 0)
    }

    @Test("A missing, broken or oversized picture is one error naming the asset and its place")
    func badPictures() throws {
        func error(_ asset: J, folder: String? = "/nonexistent-folder") -> String? {
            do {
                _ = try LottieFile.parse(Array(ImageAssetTests.composition(asset).utf8), file: "pic.json",
                                         folder: folder)
                return nil
            } catch {
                return error.description
            }
        }
        let missing = error(["id": "pic", "w": 40, "h": 40, "u": "images/", "p": "gone.png"])
        #expect(missing?.hasPrefix("pic.json:1:") == true && missing?.contains("image asset 'pic' (images/gone.png)") == true
                && missing?.contains("no such image file") == true, "\(missing ?? "")")
        let base64 = error(["id": "pic", "p": "data:image/png;base64,iVBOR*w0"])
        #expect(base64?.contains("image asset 'pic': its data URI is not valid base64") == true, "\(base64 ?? "")")
        let notImage = error(["id": "pic", "p": .string("data:image/png;base64," + ImageAssetTests.base64(Array("hello".utf8)))])
        #expect(notImage?.contains("it is not a PNG, JPEG or WebP image") == true, "\(notImage ?? "")")
        let truncated = error(ImageAssetTests.embedded("quadrants.png", mime: "png").with("p", .string(
            "data:image/png;base64," + ImageAssetTests.base64(Array(ImageAssetTests.fixture("quadrants.png").prefix(40))))))
        #expect(truncated?.contains("cannot read PNG 'image asset 'pic''") == true, "\(truncated ?? "")")
        let network = error(["id": "pic", "u": "https://example.com/", "p": "a.png"])
        #expect(network?.contains("is on the network") == true, "\(network ?? "")")
    }

    @Test("A picture outside the animation's folder is one error naming the asset, its path and its place; links inside are followed")
    func outsideTheFolder() throws {
        let root = temporaryDirectory("lottie-outside"), dir = root + "/anim"
        mkdir(dir, 0o755)
        mkdir(dir + "/images", 0o755)
        mkdir(root + "/outside", 0o755)
        #expect(writeBytes(dir + "/images/half.webp", ImageAssetTests.fixture("half-red.webp")))
        #expect(writeBytes(root + "/outside/half.webp", ImageAssetTests.fixture("half-red.webp")))
        symlink("../outside", dir + "/out")
        symlink("images", dir + "/pictures")
        symlink(root + "/outside/half.webp", dir + "/abs.webp")
        func load(_ u: String, _ p: String) -> Result<LottieAnimation, LottieFileError> {
            let asset: J = ["id": "pic", "w": 40, "h": 40, "u": .string(u), "p": .string(p), "e": 0]
            _ = writeTextFile(dir + "/anim.json", ImageAssetTests.composition(asset))
            do { return .success(try LottieFile.load(path: dir + "/anim.json")) } catch { return .failure(error) }
        }
        func message(_ u: String, _ p: String) -> String {
            guard case .failure(let error) = load(u, p) else { return "read" }
            return error.description
        }
        /// Where the asset's `p` value starts in the file just written (one line): `1:column`.
        func placeOfP() -> String {
            let text = Array((readTextFile(dir + "/anim.json") ?? "").utf8), key = Array("\"p\":".utf8)
            let at = (0...text.count - key.count).first { Array(text[$0..<$0 + key.count]) == key }!
            return "1:\(at + key.count + 1)"
        }
        let advice = "put the picture in the animation's folder (or a folder inside it) and name it from there"
        #expect(message("../outside/", "half.webp") == dir + "/anim.json:\(placeOfP()): image asset 'pic' "
                + "(../outside/half.webp): its '..' climbs out of the folder; " + advice)
        let absolute = message("", root + "/outside/half.webp")
        #expect(absolute.hasPrefix(dir + "/anim.json:\(placeOfP()):") && absolute.hasSuffix(
            "image asset 'pic' (\(root)/outside/half.webp): an absolute path, outside the folder; " + advice), "\(absolute)")
        #expect(message("", "/etc/hostname").contains("image asset 'pic' (/etc/hostname): an absolute path"))
        #expect(message("images/", "../../outside/half.webp").contains("its '..' climbs out of the folder"))
        let link = message("out/", "half.webp")
        #expect(link.hasPrefix(dir + "/anim.json:1:") && link.hasSuffix("image asset 'pic' (out/half.webp): " + dir
            + "/out/half.webp: the link 'out' leads to '../outside', outside the folder; " + advice), "\(link)")
        #expect(message("", "abs.webp").contains("the link 'abs.webp' leads to '\(root)/outside/half.webp'"))
        // Inside, through a link or a '..' that stays in: drawn.
        for (u, p) in [("pictures/", "half.webp"), ("images/../", "images/half.webp"), ("./images/", "half.webp")] {
            guard case .success(let animation) = load(u, p) else { Issue.record("\(u)\(p) refused"); continue }
            let c = try LottieFile.render(animation, frame: 0, width: 100, height: 100)
            #expect(close(rgba(c, 30, 40), [128, 0, 0, 128], within: 2), "\(u)\(p): \(rgba(c, 30, 40))")
        }
        // Judged as written without a folder too: the file alone is refused.
        let json = ImageAssetTests.composition(["id": "pic", "u": "", "p": "/etc/passwd"])
        #expect(throws: LottieFileError.self) { try LottieFile.parse(Array(json.utf8), file: "anim.json") }
    }

    @Test("Base64 decodes with and without padding and refuses stray characters")
    func base64Decoding() {
        for text in ["", "f", "fo", "foo", "foob", "fooba", "foobar"] {
            let bytes = Array(text.utf8)
            let encoded = ImageAssetTests.base64(bytes)
            #expect(DataURI.bytes("data:text/plain;base64," + encoded) == bytes, "\(text)")
            #expect(DataURI.bytes("data:text/plain;base64," + encoded.filter { $0 != "=" })
                    == bytes, "\(text) unpadded")
        }
        #expect(DataURI.bytes("data:text/plain;base64,Zm9v!") == nil)
        #expect(DataURI.bytes("data:text/plain;base64,Z") == nil)
        #expect(DataURI.bytes("data:text/plain,foo") == nil)
    }
}

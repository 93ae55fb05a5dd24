/// A large Bodymovin file made up the same way every time, as After Effects' exporter writes one (minified, numbers
/// to three decimals, every field it usually adds): shape layers of groups with animated paths, ellipses,
/// rectangles, stars, fills, strokes with dashes, gradients and trims, each layer's transform keyframed with
/// easing, parented layers and a precomposition. Nothing is stored: the benchmark builds it when it starts.
enum BodymovinGenerator {
    /// A document of at least `minimumBytes` (it stops at the first layer past that size).
    static func document(minimumBytes: Int) -> [UInt8] {
        var g = Writer()
        var layers: [String] = []
        var size = 0, index = 1
        while size < minimumBytes {
            let layer = g.shapeLayer(index: index, parent: index > 1 && index % 4 == 0 ? index - 1 : nil)
            size += layer.utf8.count + 1
            layers.append(layer)
            index += 1
        }
        let precomp = "{\"id\":\"comp_0\",\"layers\":[" + (0..<3).map { g.shapeLayer(index: 1000 + $0, parent: nil) }
            .joined(separator: ",") + "]}"
        let precompLayer = "{\"ddd\":0,\"ind\":\(index),\"ty\":0,\"nm\":\"Pre-comp 1\",\"refId\":\"comp_0\",\"sr\":1,"
            + "\"ks\":\(g.transform(animated: false)),\"ao\":0,\"w\":400,\"h\":400,\"ip\":0,\"op\":120,\"st\":0,\"bm\":0}"
        let text = "{\"v\":\"5.7.4\",\"fr\":30,\"ip\":0,\"op\":120,\"w\":400,\"h\":400,\"nm\":\"generated\",\"ddd\":0,"
            + "\"assets\":[\(precomp)],\"layers\":[\(([precompLayer] + layers).joined(separator: ","))],"
            + "\"markers\":[{\"tm\":0,\"cm\":\"pull\",\"dr\":60},{\"tm\":60,\"cm\":\"refresh\",\"dr\":60}]}"
        return Array(text.utf8)
    }

    /// The writer with its random generator (SplitMix64, fixed seed).
    struct Writer {
        var state: UInt64 = 0x5EED_1234_ABCD_0001

        mutating func random() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z >> 11) / Double(1 << 53)
        }

        /// A number in `range`, written with at most three decimals as the exporter writes them.
        mutating func number(_ range: ClosedRange<Double>) -> String {
            let v = ((range.lowerBound + (range.upperBound - range.lowerBound) * random()) * 1000).rounded() / 1000
            return v == v.rounded() ? String(Int(v)) : String(v)
        }

        mutating func vector(_ n: Int, _ range: ClosedRange<Double>) -> String {
            "[" + (0..<n).map { _ in number(range) }.joined(separator: ",") + "]"
        }

        mutating func easing(_ dimensions: Int) -> String {
            let ox = vector(dimensions, 0.1...0.5), oy = vector(dimensions, 0...0.3)
            let ix = vector(dimensions, 0.5...0.9), iy = vector(dimensions, 0.7...1)
            return "\"o\":{\"x\":\(ox),\"y\":\(oy)},\"i\":{\"x\":\(ix),\"y\":\(iy)}"
        }

        /// A property: constant, or four keyframes over the 120 frames.
        mutating func property(_ n: Int, _ range: ClosedRange<Double>, animated: Bool, index: Int,
                               spatial: Bool = false) -> String {
            guard animated else { return "{\"a\":0,\"k\":\(n == 1 ? number(range) : vector(n, range)),\"ix\":\(index)}" }
            var keys: [String] = []
            for t in [0, 30, 60, 90] {
                var k = "{\(easing(n == 3 ? 1 : n)),\"t\":\(t),\"s\":\(vector(n, range))"
                if spatial { k += ",\"to\":\(vector(3, -20...20)),\"ti\":\(vector(3, -20...20))" }
                keys.append(k + "}")
            }
            keys.append("{\"t\":120,\"s\":\(vector(n, range))}")
            return "{\"a\":1,\"k\":[\(keys.joined(separator: ","))],\"ix\":\(index)}"
        }

        mutating func transform(animated: Bool) -> String {
            "{\"o\":\(property(1, 60...100, animated: animated, index: 11)),"
                + "\"r\":\(property(1, -180...180, animated: animated, index: 10)),"
                + "\"p\":\(property(3, 0...400, animated: animated, index: 2, spatial: true)),"
                + "\"a\":\(property(3, -20...20, animated: false, index: 1)),"
                + "\"s\":\(property(3, 50...150, animated: animated, index: 6))}"
        }

        mutating func groupTransform() -> String {
            "{\"ty\":\"tr\",\"p\":\(property(2, -50...50, animated: false, index: 2)),"
                + "\"a\":\(property(2, -5...5, animated: false, index: 1)),"
                + "\"s\":\(property(2, 80...120, animated: false, index: 3)),"
                + "\"r\":\(property(1, -30...30, animated: random() < 0.3, index: 6)),"
                + "\"o\":\(property(1, 100...100, animated: false, index: 7)),"
                + "\"sk\":{\"a\":0,\"k\":0,\"ix\":4},\"sa\":{\"a\":0,\"k\":0,\"ix\":5},\"nm\":\"Transform\"}"
        }

        /// A Bézier shape of `n` vertices round a circle, jittered.
        mutating func bezier(_ n: Int) -> String {
            var v: [String] = [], i: [String] = [], o: [String] = []
            for k in 0..<n {
                let a = Double(k) / Double(n) * 6.283185307179586
                let r = 20 + 30 * random()
                let x = (r * cosine(a) * 1000).rounded() / 1000, y = (r * sine(a) * 1000).rounded() / 1000
                v.append("[\(x),\(y)]")
                // Smooth vertices: the out tangent is the in tangent reversed.
                let tx = ((random() * 16 - 8) * 1000).rounded() / 1000, ty = ((random() * 16 - 8) * 1000).rounded() / 1000
                i.append("[\(tx),\(ty)]")
                o.append("[\(-tx),\(-ty)]")
            }
            return "{\"i\":[\(i.joined(separator: ","))],\"o\":[\(o.joined(separator: ","))],"
                + "\"v\":[\(v.joined(separator: ","))],\"c\":true}"
        }

        mutating func path(_ index: Int) -> String {
            let n = 4 + Int(random() * 8)
            var keys: [String] = []
            for t in [0, 40, 80] {
                keys.append("{\"i\":{\"x\":0.667,\"y\":1},\"o\":{\"x\":0.333,\"y\":0},\"t\":\(t),\"s\":[\(bezier(n))]}")
            }
            keys.append("{\"t\":120,\"s\":[\(bezier(n))]}")
            return "{\"ind\":0,\"ty\":\"sh\",\"ix\":\(index),\"ks\":{\"a\":1,\"k\":[\(keys.joined(separator: ","))],"
                + "\"ix\":2},\"nm\":\"Path \(index)\",\"mn\":\"ADBE Vector Shape - Group\",\"hd\":false}"
        }

        mutating func color() -> String { "[\(number(0...1)),\(number(0...1)),\(number(0...1)),1]" }

        mutating func paint() -> String {
            switch Int(random() * 4) {
            case 0:
                return "{\"ty\":\"st\",\"c\":{\"a\":0,\"k\":\(color()),\"ix\":3},\"o\":{\"a\":0,\"k\":100,\"ix\":4},"
                    + "\"w\":\(property(1, 1...6, animated: random() < 0.5, index: 5)),\"lc\":2,\"lj\":2,\"ml\":4,"
                    + "\"bm\":0,\"d\":[{\"n\":\"d\",\"nm\":\"dash\",\"v\":{\"a\":0,\"k\":6,\"ix\":1}},"
                    + "{\"n\":\"g\",\"nm\":\"gap\",\"v\":{\"a\":0,\"k\":3,\"ix\":2}},"
                    + "{\"n\":\"o\",\"nm\":\"offset\",\"v\":\(property(1, 0...20, animated: true, index: 7))}],"
                    + "\"nm\":\"Stroke 1\",\"mn\":\"ADBE Vector Graphic - Stroke\",\"hd\":false}"
            case 1:
                return "{\"ty\":\"gf\",\"o\":{\"a\":0,\"k\":100,\"ix\":10},\"r\":1,\"bm\":0,\"g\":{\"p\":3,\"k\":{\"a\":0,"
                    + "\"k\":[0,\(number(0...1)),\(number(0...1)),\(number(0...1)),0.5,\(number(0...1)),"
                    + "\(number(0...1)),\(number(0...1)),1,\(number(0...1)),\(number(0...1)),\(number(0...1))],"
                    + "\"ix\":9}},\"s\":\(property(2, -40...0, animated: false, index: 5)),"
                    + "\"e\":\(property(2, 0...40, animated: false, index: 6)),\"t\":\(random() < 0.5 ? 1 : 2),"
                    + "\"h\":{\"a\":0,\"k\":0,\"ix\":7},\"a\":{\"a\":0,\"k\":0,\"ix\":8},"
                    + "\"nm\":\"Gradient Fill 1\",\"mn\":\"ADBE Vector Graphic - G-Fill\",\"hd\":false}"
            default:
                return "{\"ty\":\"fl\",\"c\":\(property(4, 0...1, animated: random() < 0.3, index: 4)),"
                    + "\"o\":{\"a\":0,\"k\":100,\"ix\":5},\"r\":1,\"bm\":0,\"nm\":\"Fill 1\","
                    + "\"mn\":\"ADBE Vector Graphic - Fill\",\"hd\":false}"
            }
        }

        mutating func group(_ index: Int) -> String {
            var items: [String] = []
            switch Int(random() * 5) {
            case 0:
                items.append("{\"d\":1,\"ty\":\"el\",\"s\":\(property(2, 10...60, animated: true, index: 3)),"
                             + "\"p\":{\"a\":0,\"k\":[0,0],\"ix\":3},\"nm\":\"Ellipse Path 1\","
                             + "\"mn\":\"ADBE Vector Shape - Ellipse\",\"hd\":false}")
            case 1:
                items.append("{\"ty\":\"rc\",\"d\":1,\"s\":\(property(2, 10...60, animated: true, index: 2)),"
                             + "\"p\":{\"a\":0,\"k\":[0,0],\"ix\":3},\"r\":\(property(1, 0...8, animated: false, index: 4)),"
                             + "\"nm\":\"Rectangle Path 1\",\"mn\":\"ADBE Vector Shape - Rect\",\"hd\":false}")
            case 2:
                items.append("{\"ty\":\"sr\",\"sy\":1,\"d\":1,\"pt\":{\"a\":0,\"k\":5,\"ix\":3},"
                             + "\"p\":{\"a\":0,\"k\":[0,0],\"ix\":4},\"r\":\(property(1, 0...90, animated: true, index: 5)),"
                             + "\"ir\":{\"a\":0,\"k\":10,\"ix\":6},\"is\":{\"a\":0,\"k\":0,\"ix\":8},"
                             + "\"or\":{\"a\":0,\"k\":25,\"ix\":7},\"os\":{\"a\":0,\"k\":0,\"ix\":9},"
                             + "\"ix\":1,\"nm\":\"Polystar Path 1\",\"mn\":\"ADBE Vector Shape - Star\",\"hd\":false}")
            default:
                items.append(path(1))
                if random() < 0.5 { items.append(path(2)) }
            }
            if random() < 0.25 {
                items.append("{\"ty\":\"tm\",\"s\":\(property(1, 0...40, animated: true, index: 1)),"
                             + "\"e\":\(property(1, 60...100, animated: true, index: 2)),\"o\":{\"a\":0,\"k\":0,\"ix\":3},"
                             + "\"m\":1,\"ix\":2,\"nm\":\"Trim Paths 1\",\"mn\":\"ADBE Vector Filter - Trim\",\"hd\":false}")
            }
            items.append(paint())
            items.append(groupTransform())
            return "{\"ty\":\"gr\",\"it\":[\(items.joined(separator: ","))],\"nm\":\"Group \(index)\",\"np\":\(items.count),"
                + "\"cix\":2,\"bm\":0,\"ix\":\(index),\"mn\":\"ADBE Vector Group\",\"hd\":false}"
        }

        mutating func shapeLayer(index: Int, parent: Int?) -> String {
            let groups = (1...(2 + Int(random() * 4))).map { group($0) }.joined(separator: ",")
            let parentField = parent.map { "\"parent\":\($0)," } ?? ""
            return "{\"ddd\":0,\"ind\":\(index),\"ty\":4,\"nm\":\"Shape Layer \(index)\",\(parentField)\"sr\":1,"
                + "\"ks\":\(transform(animated: true)),\"ao\":0,\"shapes\":[\(groups)],\"ip\":0,\"op\":120,\"st\":0,\"bm\":0}"
        }
    }
}

/// Sine and cosine by their series after reducing the angle to ±π: the generator needs no C library and gives the
/// same digits on every machine.
private func sine(_ x: Double) -> Double {
    var a = x.truncatingRemainder(dividingBy: 2 * Double.pi)
    if a > .pi { a -= 2 * .pi } else if a < -.pi { a += 2 * .pi }
    var term = a, sum = a
    for n in 1...12 {
        term *= -a * a / Double((2 * n) * (2 * n + 1))
        sum += term
    }
    return sum
}

private func cosine(_ x: Double) -> Double { sine(x + .pi / 2) }

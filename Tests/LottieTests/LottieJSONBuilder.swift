/// A tiny JSON writer for the Lottie files the tests make: objects keep their fields' order, so that `ty` comes
/// first in every shape item, where rlottie looks for it.
indirect enum J: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
                 ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    case number(Double)
    case bool(Bool)
    case string(String)
    case array([J])
    case object([(String, J)])

    init(integerLiteral value: Int) { self = .number(Double(value)) }
    init(floatLiteral value: Double) { self = .number(value) }
    init(stringLiteral value: String) { self = .string(value) }
    init(arrayLiteral elements: J...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, J)...) { self = .object(elements) }

    var description: String {
        switch self {
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return "\"" + s + "\""
        case .array(let a): return "[" + a.map(\.description).joined(separator: ",") + "]"
        case .object(let o): return "{" + o.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        }
    }

    /// The same object with `key` set (appended, or replaced in place).
    func with(_ key: String, _ value: J) -> J {
        guard case .object(var fields) = self else { return self }
        if let i = fields.firstIndex(where: { $0.0 == key }) { fields[i].1 = value } else { fields.append((key, value)) }
        return .object(fields)
    }
}

/// Builders for the parts of a Bodymovin file.
enum Lot {
    /// A property's value: an animated one as it is, anything else as a static one.
    static func value(_ v: J) -> J {
        if case .object(let fields) = v, fields.contains(where: { $0.0 == "a" }) { return v }
        return ["a": 0, "k": v]
    }

    /// One keyframe: time, value, and the easing out of it (x1, y1, x2, y2), the same for every dimension.
    struct Key {
        var t: Double
        var s: J
        var ease: (Double, Double, Double, Double) = (0.33, 0, 0.67, 1)
        var hold = false
        var to: J?
        var ti: J?
    }

    static func animated(_ keys: [Key]) -> J {
        var list: [J] = []
        for (n, k) in keys.enumerated() {
            var kf: J = ["t": .number(k.t), "s": k.s]
            if n + 1 < keys.count {
                kf = kf.with("e", keys[n + 1].s)
                    .with("o", ["x": [.number(k.ease.0)], "y": [.number(k.ease.1)]])
                    .with("i", ["x": [.number(k.ease.2)], "y": [.number(k.ease.3)]])
                if k.hold { kf = kf.with("h", 1) }
                if let to = k.to { kf = kf.with("to", to) }
                if let ti = k.ti { kf = kf.with("ti", ti) }
            }
            list.append(kf)
        }
        return ["a": 1, "k": .array(list)]
    }

    static func transform(a: J = [0, 0], p: J = [0, 0], s: J = [100, 100], r: J = 0, o: J = 100,
                          animated: [String: J] = [:]) -> J {
        var t: J = ["a": value(a), "p": value(p), "s": value(s), "r": value(r), "o": value(o)]
        for (k, v) in animated.sorted(by: { $0.key < $1.key }) { t = t.with(k, v) }
        return t
    }

    static func shapeLayer(_ name: String, _ shapes: [J], ks: J = transform(), ind: Int = 1, ip: Double = 0,
                           op: Double = 60, st: Double = 0, extra: [(String, J)] = []) -> J {
        var layer: J = ["ddd": 0, "ind": .number(Double(ind)), "ty": 4, "nm": .string(name), "sr": 1, "ks": ks,
                        "ao": 0, "shapes": .array(shapes), "ip": .number(ip), "op": .number(op), "st": .number(st),
                        "bm": 0]
        for (k, v) in extra { layer = layer.with(k, v) }
        return layer
    }

    static func composition(w: Double = 100, h: Double = 100, fr: Double = 30, ip: Double = 0, op: Double = 60,
                            layers: [J], assets: [J] = [], markers: [J] = []) -> String {
        let root: J = ["v": "5.5.2", "fr": .number(fr), "ip": .number(ip), "op": .number(op), "w": .number(w),
                       "h": .number(h), "nm": "test", "ddd": 0, "assets": .array(assets), "layers": .array(layers),
                       "markers": .array(markers)]
        return root.description
    }

    static func group(_ items: [J], _ tr: J = groupTransform()) -> J {
        ["ty": "gr", "it": .array(items + [tr]), "nm": "group"]
    }

    static func groupTransform(a: J = [0, 0], p: J = [0, 0], s: J = [100, 100], r: J = 0, o: J = 100) -> J {
        ["ty": "tr", "p": value(p), "a": value(a), "s": value(s), "r": value(r), "o": value(o), "sk": value(0),
         "sa": value(0)]
    }

    static func rect(_ p: J, _ s: J, r: J = 0) -> J { ["ty": "rc", "d": 1, "s": value(s), "p": value(p), "r": value(r)] }
    static func ellipse(_ p: J, _ s: J) -> J { ["ty": "el", "d": 1, "s": value(s), "p": value(p)] }
    static func path(_ v: [J], i: [J]? = nil, o: [J]? = nil, closed: Bool = true) -> J {
        let zero = [J](repeating: [0, 0], count: v.count)
        let shape: J = ["i": .array(i ?? zero), "o": .array(o ?? zero), "v": .array(v), "c": .bool(closed)]
        return ["ty": "sh", "ks": value(shape)]
    }
    static func star(_ p: J, points: J, outer: J, inner: J, r: J = 0, polygon: Bool = false) -> J {
        var s: J = ["ty": "sr", "sy": polygon ? 2 : 1, "d": 1, "pt": value(points), "p": value(p), "r": value(r),
                    "or": value(outer), "os": value(0)]
        if !polygon { s = s.with("ir", value(inner)).with("is", value(0)) }
        return s
    }
    static func fill(_ c: J, o: J = 100, evenOdd: Bool = false) -> J {
        ["ty": "fl", "c": value(c), "o": value(o), "r": evenOdd ? 2 : 1]
    }
    static func stroke(_ c: J, w: J, cap: Int = 2, join: Int = 2, miter: Double = 4, o: J = 100,
                       dashes: [Double] = []) -> J {
        var s: J = ["ty": "st", "c": value(c), "o": value(o), "w": value(w), "lc": .number(Double(cap)),
                    "lj": .number(Double(join)), "ml": .number(miter)]
        if !dashes.isEmpty {
            var d: [J] = []
            for (k, v) in dashes.dropLast().enumerated() {
                d.append(["n": k % 2 == 0 ? "d" : "g", "nm": k % 2 == 0 ? "dash" : "gap", "v": value(.number(v))])
            }
            d.append(["n": "o", "nm": "offset", "v": value(.number(dashes.last!))])
            s = s.with("d", .array(d))
        }
        return s
    }
    /// A repeater: `c` copies, `o` steps of offset, each step moving by `p`, turning by `r` about `a`, scaling by `s`;
    /// opacity from `so` to `eo` %; `above` is After Effects' "Above" composite (m 1), else "Below" (m 2).
    static func repeater(c: J, o: J = 0, above: Bool = true, a: J = [0, 0], p: J = [0, 0], s: J = [100, 100], r: J = 0,
                         so: J = 100, eo: J = 100) -> J {
        ["ty": "rp", "c": value(c), "o": value(o), "m": above ? 1 : 2,
         "tr": ["ty": "tr", "p": value(p), "a": value(a), "s": value(s), "r": value(r), "so": value(so), "eo": value(eo)]]
    }
    /// Rounded corners of radius `r` for the paths above it.
    static func roundCorners(_ r: J) -> J { ["ty": "rd", "r": value(r)] }
    static func trim(s: J, e: J, o: J = 0, individually: Bool = false) -> J {
        ["ty": "tm", "s": value(s), "e": value(e), "o": value(o), "m": individually ? 2 : 1]
    }
    /// A gradient fill or stroke: colour stops as (offset, r, g, b), then opacity stops as (offset, alpha).
    static func gradient(fill: Bool, radial: Bool, start: J, end: J, colors: [Double], alphas: [Double] = [],
                         width: J = 4) -> J {
        var g: J = ["ty": fill ? "gf" : "gs", "o": value(100), "r": 1,
                    "g": ["p": .number(Double(colors.count / 4)), "k": value(.array((colors + alphas).map { .number($0) }))],
                    "s": value(start), "e": value(end), "t": radial ? 2 : 1, "h": value(0), "a": value(0)]
        if !fill { g = g.with("w", value(width)).with("lc", 2).with("lj", 2).with("ml", 4) }
        return g
    }
}

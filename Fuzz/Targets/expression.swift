import Foundation
import Lab
import Lottie
import Colors
import Raster
import UserFiles

/// An expression made of any bytes: the input's text (after a first byte choosing whether it runs as it is, inside
/// `eval`, inside `Function` or inside a method) is layer A's rotation expression, beside a bar B whose rotation's
/// expression reads built-ins, the library, another layer and the clock (B is drawn first, so that A's time cannot
/// take B's share of a frame). Three frames are drawn. Two things are findings beside a crash: a frame that takes
/// more than 2 s (the budgets are 50 ms an evaluation and 100 ms a frame), and B drawn otherwise than beside a
/// harmless A (what A did reached B).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let mode = input.choice(4)
    let text = String(decoding: input.bytes.dropFirst(), as: UTF8.self)
    let quoted = JSONText.string(text)
    let source: String
    switch mode {
    case 0: source = text
    case 1: source = "eval(\(quoted));"
    case 2: source = "Function(\(quoted))();"
    default: source = "({ m() { " + text + "\n} }).m();"
    }
    // Each way A could reach B turns the bar by 45° or more.
    let reader = "$bm_rt = Math.sin(1) * 10 + (({}).q === undefined ? 0 : 45) + ([3, 1, 2].sort().join('') === '123' ? 0 : 90)"
        + " + linear(0.5, 0, 1, 0, 10) + thisComp.layer('C').transform.rotation.valueAtTime(0.5)"
        + " + (typeof shared === 'undefined' ? 0 : 135) + Math.random() * 5 + Date.now() % 1000 / 100;"
    guard let clean = try? LottieFile.parse(Array(file(a: "$bm_rt = 0;", b: reader).utf8), file: "clean.json"),
          let animation = try? LottieFile.parse(Array(file(a: source + "\n;$bm_rt = 0;", b: reader).utf8),
                                                file: "fuzz.json")
    else { return 0 }
    let expected = Canvas(width: 64, height: 64), canvas = Canvas(width: 64, height: 64)
    let renderer = LottieRenderer()
    for frame in [0.0, 7, 7.5] {
        expected.clear(to: .clear)
        canvas.clear(to: .clear)
        try? renderer.render(clean, frame: frame, into: expected)
        let start = Date()
        try? renderer.render(animation, frame: frame, into: canvas)
        let seconds = Date().timeIntervalSince(start)
        if seconds > 2 { fatalError("a frame took \(seconds) s with the expression \(quoted)") }
        // A machine too busy for B's own budget draws B's keyframes: that is the budget, not a leak.
        let warnings = clean.takeExpressionWarnings() + animation.takeExpressionWarnings()
        if warnings.contains(where: { $0.contains("'B'") || $0.contains("frame's") }) { return 0 }
        if memcmp(canvas.pixels, expected.pixels, canvas.pixelCount * 4) != 0 {
            fatalError("the bar was drawn otherwise beside \(quoted) (warnings: \(warnings))")
        }
    }
    return 0
}

/// Layers A (a null carrying `a` on its rotation), C (a null, keyframed, read by B) and B (a 60 × 4 bar at the
/// middle of the 64 × 64 composition, turned by `b`), drawn from the last: B first.
private func file(a: String, b: String) -> String {
    func rotation(_ expression: String?) -> String {
        let x = expression.map { ",\"x\":" + JSONText.string("var $bm_rt;\n" + $0) } ?? ""
        return #"{"a":1,"k":[{"t":0,"s":[0],"i":{"x":[1],"y":[1]},"o":{"x":[0],"y":[0]}},{"t":30,"s":[30]}]\#(x)}"#
    }
    let bar = #"{"ty":4,"nm":"B","ind":2,"ip":0,"op":30,"st":0,"ks":{"p":{"a":0,"k":[32,32]},"r":\#(rotation(b))},"#
        + #""shapes":[{"ty":"rc","p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[60,4]},"r":{"a":0,"k":0}},"#
        + #"{"ty":"fl","c":{"a":0,"k":[0,0,0,1]},"o":{"a":0,"k":100}}]}"#
    return #"{"fr":30,"ip":0,"op":30,"w":64,"h":64,"layers":["#
        + #"{"ty":3,"nm":"A","ind":1,"ip":0,"op":30,"st":0,"ks":{"r":\#(rotation(a))}},"#
        + #"{"ty":3,"nm":"C","ind":3,"ip":0,"op":30,"st":0,"ks":{"r":\#(rotation(nil))}},"# + bar + "]}"
}

import Geometry
import Lab
import Raster
import Colors
import Scenes

/// The rasterizer and the stroker on random paths: the bytes decode into path commands, a transform, a fill rule,
/// a clip and a stroke style, drawn into a small canvas the way a scene item is (fill, then stroke).
nonisolated(unsafe) let rasterizer = Rasterizer()
nonisolated(unsafe) let canvas = Canvas(width: 64, height: 48)

extension FuzzInput {
    mutating func point() -> Point { Point(number(), number()) }
    mutating func rect() -> Rect { Rect(x: number(), y: number(), width: number(), height: number()) }

    mutating func path() -> Path {
        var path = Path()
        for _ in 0..<choice(48) {
            switch choice(8) {
            case 0: path.move(to: point())
            case 1, 2: path.line(to: point())
            case 3: path.quad(to: point(), control: point())
            case 4: path.cubic(to: point(), control1: point(), control2: point())
            case 5: path.close()
            case 6: path.addEllipse(in: rect())
            default: path.addRoundedRect(rect(), cornerRadius: number())
            }
        }
        return path
    }

    /// Mostly the transforms drawing uses (a scale and a translation, a rotation), sometimes any six numbers.
    mutating func transform() -> AffineTransform {
        switch choice(4) {
        case 0: return .identity
        case 1: return AffineTransform(scaleX: number(), y: number()).translatedBy(x: number(), y: number())
        case 2: return AffineTransform(rotationAngle: number()).scaledBy(x: number(), y: number())
        default: return AffineTransform(a: number(), b: number(), c: number(), d: number(), tx: number(), ty: number())
        }
    }

    mutating func strokeStyle() -> StrokeStyle {
        StrokeStyle(lineWidth: number(), lineCap: LineCap.allCases[choice(LineCap.allCases.count)],
                    lineJoin: LineJoin.allCases[choice(LineJoin.allCases.count)], miterLimit: number(),
                    dashPattern: (0..<choice(5)).map { _ in number() }, dashPhase: number())
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let path = input.path()
    let transform = input.transform()
    let rule = FillRule.allCases[input.choice(FillRule.allCases.count)]
    let clip: Rect? = input.choice(2) == 0 ? nil : input.rect()
    let color = Color(rgb: Int(input.byte()), Int(input.byte()), Int(input.byte()), alpha: Double(input.byte()) / 255)
    rasterizer.fill(path, transform: transform, color: color, rule: rule, clip: clip, into: canvas)
    let item = SceneItem(path: path, fill: nil, stroke: color, strokeStyle: input.strokeStyle(), transform: transform,
                         opacity: Double(input.byte()) / 255)
    item.render(into: canvas, rasterizer: rasterizer)
    return 0
}

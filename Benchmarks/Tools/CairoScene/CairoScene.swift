import CCairo
import Colors
import Geometry
import Raster
import Scenes
import UserFiles

#if canImport(Glibc)
import Glibc
#endif

/// Draws RefreshLab's vector scenes with cairo, the reference renderer, under the same timing protocol as
/// `refreshlab scene`, so the two can be compared on speed (and, with --out or --reference, on pixels).
///
///     cairo-scene FILE.json [--out OUT.png] [--iterations N] [--reference REF.png]
@main
enum CairoSceneCommand {
    static let usage = "usage: cairo-scene FILE.json [--out OUT.png] [--iterations N] [--reference REF.png]"

    static func main() {
        do {
            try run(Array(CommandLine.arguments.dropFirst()))
        } catch {
            printError("cairo-scene: \(error)")
            exit(1)
        }
    }

    static func run(_ arguments: [String]) throws {
        var file: String?, out: String?, reference: String?, iterations: Int?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            func value() throws -> String {
                guard let v = rest.popFirst() else { throw LabError("\(argument) needs a value; \(usage)") }
                return v
            }
            switch argument {
            case "--out": out = try value()
            case "--reference": reference = try value()
            case "--iterations":
                let text = try value()
                guard let n = Int(text), n >= 1 else {
                    throw LabError("--iterations must be a whole number of at least 1, not '\(text)'")
                }
                iterations = n
            case "-h", "--help":
                print(usage)
                return
            case _ where argument.hasPrefix("-"):
                throw LabError("unknown option '\(argument)'; \(usage)")
            default:
                guard file == nil else { throw LabError("one scene file at a time, not '\(argument)' too; \(usage)") }
                file = argument
            }
        }
        guard let file else { throw LabError("no scene file given; \(usage)") }
        guard out != nil || iterations != nil || reference != nil else {
            throw LabError("nothing to do: give --out FILE.png, --iterations N or --reference FILE.png")
        }

        let scene = try Scene.load(path: file)
        let renderer = try CairoSceneRenderer(scene: scene)
        renderer.render()
        if let out {
            let status = cairo_surface_write_to_png(renderer.surface, out)
            guard status == CAIRO_STATUS_SUCCESS else {
                throw LabError("cannot write PNG '\(out)': \(String(cString: cairo_status_to_string(status))); "
                    + "check that the folder exists and is writable")
            }
        }
        if let reference {
            let expected = try PNG.read(from: reference)
            guard let difference = ImageDifference(renderer.canvas(), expected) else {
                throw LabError("'\(reference)' is \(expected.width)×\(expected.height) but the scene is "
                    + "\(scene.width)×\(scene.height); compare images of the same size")
            }
            printError("\(scene.name) (cairo): against \(reference): \(difference.summary)")
        }
        if let iterations {
            let timing = SceneTiming.measure(iterations: iterations) { renderer.render() }
            print(timing.jsonLine(scene: scene.name, width: scene.width, height: scene.height))
        }
    }
}

/// A cairo image surface (ARGB32, premultiplied, the layout of RefreshLab's canvas) and the scene drawn into it.
final class CairoSceneRenderer {
    /// cairo's flattening tolerance in device pixels: the value RefreshLab's rasterizer uses.
    static let tolerance = 0.1

    let scene: Scene
    let surface: OpaquePointer
    let context: OpaquePointer

    init(scene: Scene) throws {
        self.scene = scene
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(scene.width), Int32(scene.height))
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw LabError("cairo cannot make a \(scene.width)×\(scene.height) surface: "
                + String(cString: cairo_status_to_string(status)))
        }
        context = cairo_create(surface)
        cairo_set_tolerance(context, CairoSceneRenderer.tolerance)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// Draws the whole scene afresh: the background replaces the canvas, then each item is built as a cairo path
    /// and filled and stroked (cairo keeps nothing from one render to the next).
    func render() {
        let cr = context
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        setSource(scene.background)
        cairo_paint(cr)
        cairo_restore(cr)
        for item in scene.items {
            let fill = item.effectiveFill, stroke = item.effectiveStroke
            guard fill != nil || stroke != nil else { continue }
            let t = item.transform
            // A singular matrix would put the context into a lasting error state; such an item covers nothing.
            guard t.determinant != 0, t.determinant.isFinite, t.tx.isFinite, t.ty.isFinite else { continue }
            cairo_save(cr)
            var matrix = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
            cairo_transform(cr, &matrix)
            appendPath(item.path)
            if let fill {
                setSource(fill)
                cairo_set_fill_rule(cr, item.fillRule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
                if stroke != nil { cairo_fill_preserve(cr) } else { cairo_fill(cr) }
            }
            if let stroke {
                let style = item.strokeStyle
                setSource(stroke)
                cairo_set_line_width(cr, style.lineWidth)
                cairo_set_line_cap(cr, CairoSceneRenderer.cap(style.lineCap))
                cairo_set_line_join(cr, CairoSceneRenderer.join(style.lineJoin))
                cairo_set_miter_limit(cr, style.miterLimit)
                if !style.dashPattern.isEmpty {
                    style.dashPattern.withUnsafeBufferPointer { dashes in
                        cairo_set_dash(cr, dashes.baseAddress, Int32(dashes.count), style.dashPhase)
                    }
                }
                cairo_stroke(cr)
            }
            cairo_new_path(cr)
            cairo_restore(cr)
        }
        cairo_surface_flush(surface)
    }

    private func setSource(_ color: Color) {
        cairo_set_source_rgba(context, color.red, color.green, color.blue, color.alpha)
    }

    /// Feeds the path to cairo; quadratic segments become the cubics that trace the same curve (cairo has none).
    private func appendPath(_ path: Path) {
        let cr = context
        var current = Point.zero, start = Point.zero
        for element in path.elements {
            switch element {
            case .move(let p):
                cairo_move_to(cr, p.x, p.y)
                current = p
                start = p
            case .line(let p):
                cairo_line_to(cr, p.x, p.y)
                current = p
            case .quad(let c, let p):
                // Degree elevation: the cubic's controls lie 2/3 of the way from each end to the quadratic's control.
                let c1 = current + (c - current) * (2.0 / 3.0), c2 = p + (c - p) * (2.0 / 3.0)
                cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
                current = p
            case .cubic(let c1, let c2, let p):
                cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
                current = p
            case .close:
                cairo_close_path(cr)
                current = start
            }
        }
    }

    private static func cap(_ cap: LineCap) -> cairo_line_cap_t {
        switch cap {
        case .butt: return CAIRO_LINE_CAP_BUTT
        case .round: return CAIRO_LINE_CAP_ROUND
        case .square: return CAIRO_LINE_CAP_SQUARE
        }
    }

    private static func join(_ join: LineJoin) -> cairo_line_join_t {
        switch join {
        case .miter: return CAIRO_LINE_JOIN_MITER
        case .round: return CAIRO_LINE_JOIN_ROUND
        case .bevel: return CAIRO_LINE_JOIN_BEVEL
        }
    }

    /// The surface's pixels copied into a canvas (both are premultiplied 0xAARRGGBB words; cairo pads its rows).
    func canvas() -> Canvas {
        cairo_surface_flush(surface)
        let canvas = Canvas(width: scene.width, height: scene.height)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        for y in 0..<scene.height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            (canvas.pixels + y * scene.width).update(from: row, count: scene.width)
        }
        return canvas
    }
}

/// Writes one line to standard error (stdout carries only the timing line).
func printError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

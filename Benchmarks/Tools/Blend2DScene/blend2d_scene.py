#!/usr/bin/env python3
"""Draws RefreshLab's vector scenes with Blend2D under the same timing protocol as `refreshlab scene` and
`cairo-scene`, so the three can be compared on speed (and, with --out or --reference, on pixels).

    blend2d_scene.py FILE.json [--out OUT.png] [--iterations N] [--reference REF.png]

Blend2D is driven through its Python binding (`pip install --user blend2d-python numpy`), which pays one Python call
per drawing call: a few microseconds per item, which this renderer's times include. The scene is parsed once into
Blend2D paths; every render clears the canvas and fills and strokes every item afresh (Blend2D flattens, strokes and
rasterizes each call anew), then flushes. The context is synchronous (no worker threads), as ours and cairo's are.

Scene files: see Tests/Fixtures/scenes/README.md.
"""

import json
import re
import statistics
import sys
import time

try:
    import blend2d as bl
except ImportError:
    sys.exit("blend2d-scene: the Blend2D Python binding is not installed; "
             "install it with: pip install --user blend2d-python numpy")

USAGE = "usage: blend2d_scene.py FILE.json [--out OUT.png] [--iterations N] [--reference REF.png]"

CAPS = {"butt": bl.BLStrokeCap.CAP_BUTT, "round": bl.BLStrokeCap.CAP_ROUND, "square": bl.BLStrokeCap.CAP_SQUARE}
# SVG's miter join falls back to a bevel past the miter limit: Blend2D's JOIN_MITER_BEVEL.
JOINS = {"miter": bl.BLStrokeJoin.JOIN_MITER_BEVEL, "round": bl.BLStrokeJoin.JOIN_ROUND,
         "bevel": bl.BLStrokeJoin.JOIN_BEVEL}
RULES = {"nonzero": bl.BLFillRule.NON_ZERO, "evenodd": bl.BLFillRule.EVEN_ODD}


class SceneError(Exception):
    pass


def parse_color(text, where):
    """`#RRGGBB` or `#RRGGBBAA` as straight (r, g, b, a), each 0…1."""
    m = re.fullmatch(r"#([0-9A-Fa-f]{6})([0-9A-Fa-f]{2})?", text or "")
    if not m:
        raise SceneError(f"{where}: colour '{text}' is not #RRGGBB or #RRGGBBAA")
    v = int(m.group(1), 16)
    a = int(m.group(2), 16) if m.group(2) else 255
    return ((v >> 16) / 255, ((v >> 8) & 0xFF) / 255, (v & 0xFF) / 255, a / 255)


def style(rgba, opacity=1.0):
    """A colour as the binding's `set_fill_style` takes it: its tuple is read in the pixel's memory order, blue,
    green, red, alpha (measured: (1, 0, 0, 1) paints blue)."""
    r, g, b, a = rgba
    return (b, g, r, a * opacity)


TOKEN = re.compile(r"[MmLlHhVvQqCcZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def parse_path(data, where):
    """SVG path data as a Blend2D path: M, L, H, V, Q, C, Z, absolute and relative, with implicit repeats."""
    tokens = TOKEN.findall(data)
    leftover = TOKEN.sub("", data).replace(",", "").strip()
    if leftover:
        raise SceneError(f"{where}: cannot read '{leftover[:20]}' in the path data")
    path = bl.BLPath()
    i, command = 0, None
    x = y = sx = sy = 0.0

    def numbers(n):
        nonlocal i
        if i + n > len(tokens) or any(t.isalpha() for t in tokens[i:i + n]):
            raise SceneError(f"{where}: command '{command}' needs {n} numbers")
        values = [float(t) for t in tokens[i:i + n]]
        i += n
        return values

    while i < len(tokens):
        if tokens[i].isalpha():
            command = tokens[i]
            i += 1
        elif command is None:
            raise SceneError(f"{where}: path data must start with a command, not '{tokens[i]}'")
        relative = command.islower()
        ox, oy = (x, y) if relative else (0.0, 0.0)
        c = command.upper()
        if c == "M":
            px, py = numbers(2)
            x, y = ox + px, oy + py
            sx, sy = x, y
            path.move_to(x, y)
            command = "l" if relative else "L"  # implicit repeats of a moveto are linetos
        elif c == "L":
            px, py = numbers(2)
            x, y = ox + px, oy + py
            path.line_to(x, y)
        elif c == "H":
            (px,) = numbers(1)
            x = ox + px
            path.line_to(x, y)
        elif c == "V":
            (py,) = numbers(1)
            y = oy + py
            path.line_to(x, y)
        elif c == "Q":
            x1, y1, px, py = numbers(4)
            path.quadric_to(ox + x1, oy + y1, ox + px, oy + py)
            x, y = ox + px, oy + py
        elif c == "C":
            x1, y1, x2, y2, px, py = numbers(6)
            path.cubic_to(ox + x1, oy + y1, ox + x2, oy + y2, ox + px, oy + py)
            x, y = ox + px, oy + py
        elif c == "Z":
            path.close()
            x, y = sx, sy
            command = None if i >= len(tokens) or tokens[i].isalpha() else ("l" if relative else "L")
        else:
            raise SceneError(f"{where}: path command '{command}' is not supported here (M L H V Q C Z are)")
    return path


class Item:
    def __init__(self, raw, where):
        if "path" not in raw:
            raise SceneError(f"{where}: an item needs a 'path'")
        self.path = parse_path(raw["path"], where)
        opacity = float(raw.get("opacity", 1.0))
        t = raw.get("transform")
        self.transform = bl.Matrix2D(*[float(v) for v in t]) if t else None
        self.fill = self.stroke = None
        if "fill" in raw:
            self.fill = style(parse_color(raw["fill"], where), opacity)
        rule = raw.get("fillRule", "nonzero")
        if rule not in RULES:
            raise SceneError(f"{where}: fillRule '{rule}' is not nonzero or evenodd")
        self.rule = RULES[rule]
        if "stroke" in raw:
            self.stroke = style(parse_color(raw["stroke"], where), opacity)
            self.width = float(raw.get("lineWidth", 1))
            cap, join = raw.get("lineCap", "butt"), raw.get("lineJoin", "miter")
            if cap not in CAPS or join not in JOINS:
                raise SceneError(f"{where}: lineCap '{cap}' or lineJoin '{join}' is unknown")
            self.cap, self.join = CAPS[cap], JOINS[join]
            self.miter = float(raw.get("miterLimit", 10))


class Scene:
    def __init__(self, file):
        try:
            with open(file) as f:
                raw = json.load(f)
        except (OSError, ValueError) as error:
            raise SceneError(f"cannot read scene '{file}': {error}")
        self.name = raw.get("name", file)
        self.width, self.height = int(raw["width"]), int(raw["height"])
        self.background = style(parse_color(raw.get("background", "#00000000"), f"{file}: background"))
        self.items = [Item(item, f"{file}: item {n}") for n, item in enumerate(raw.get("items", []))]
        self.image = bl.BLImage(self.width, self.height, bl.BLFormat.PRGB32)

    def render(self):
        ctx = bl.BLContext(self.image)
        ctx.comp_op = bl.BLCompOp.SRC_COPY
        ctx.set_fill_style(self.background)
        ctx.fill_all()
        ctx.comp_op = bl.BLCompOp.SRC_OVER
        for item in self.items:
            if item.transform is not None:
                ctx.reset_transform()
                ctx.transform(item.transform)
            if item.fill is not None and item.fill[3] > 0:
                ctx.fill_rule = item.rule
                ctx.set_fill_style(item.fill)
                ctx.fill_path(item.path)
            if item.stroke is not None and item.stroke[3] > 0 and item.width > 0:
                ctx.stroke_width = item.width
                ctx.set_stroke_caps(item.cap)
                ctx.stroke_join = item.join
                ctx.stroke_miter_limit = item.miter
                ctx.set_stroke_style(item.stroke)
                ctx.stroke_path(item.path)
            if item.transform is not None:
                ctx.reset_transform()
        ctx.flush()
        del ctx


def difference(image, reference, threshold=32):
    """The same summary as `refreshlab scene --reference`: over premultiplied ARGB channels."""
    a = image.getDataAsNumPy().astype("int32")
    b = reference.getDataAsNumPy().astype("int32")
    if a.shape != b.shape:
        raise SceneError(f"the reference is {b.shape[1]}×{b.shape[0]} but the scene is {a.shape[1]}×{a.shape[0]}")
    d = abs(a - b)
    over = (d.max(axis=2) > threshold).mean() * 100
    return f"mean |Δ| {d.mean():.3f}, {over:.3f} % of pixels off by more than {threshold}, max {d.max()}"


def main(arguments):
    file = out = reference = None
    iterations = None
    rest = list(arguments)
    while rest:
        argument = rest.pop(0)
        if argument in ("--out", "--reference", "--iterations"):
            if not rest:
                raise SceneError(f"{argument} needs a value; {USAGE}")
            value = rest.pop(0)
            if argument == "--out":
                out = value
            elif argument == "--reference":
                reference = value
            else:
                if not value.isdigit() or int(value) < 1:
                    raise SceneError(f"--iterations must be a whole number of at least 1, not '{value}'")
                iterations = int(value)
        elif argument in ("-h", "--help"):
            print(USAGE)
            return
        elif argument.startswith("-"):
            raise SceneError(f"unknown option '{argument}'; {USAGE}")
        elif file is not None:
            raise SceneError(f"one scene file at a time, not '{argument}' too; {USAGE}")
        else:
            file = argument
    if file is None:
        raise SceneError(f"no scene file given; {USAGE}")
    if out is None and iterations is None and reference is None:
        raise SceneError("nothing to do: give --out FILE.png, --iterations N or --reference FILE.png")

    scene = Scene(file)
    scene.render()
    if out:
        scene.image.writeToFile(out)
    if reference:
        expected = bl.BLImage()
        expected.readFromFile(reference)
        print(f"{scene.name} (Blend2D): against {reference}: {difference(scene.image, expected)}", file=sys.stderr)
    if iterations:
        for _ in range(3):
            scene.render()
        samples = []
        for _ in range(iterations):
            start = time.perf_counter_ns()
            scene.render()
            samples.append(time.perf_counter_ns() - start)
        print(json.dumps({"scene": scene.name, "width": scene.width, "height": scene.height,
                          "iterations": iterations, "median_ns": int(statistics.median(samples)),
                          "mean_ns": int(statistics.mean(samples)), "min_ns": min(samples)}))


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except SceneError as error:
        sys.exit(f"blend2d-scene: {error}")

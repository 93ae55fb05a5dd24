#!/usr/bin/env python3
"""Draws RefreshLab's vector scenes with Blend2D under the same timing protocol as `refreshlab scene` and
`cairo-scene`, so the three can be compared on speed (and, with --out or --reference, on pixels).

    blend2d_scene.py FILE.json [--out OUT.png] [--iterations N] [--reference REF.png] [--threads N] [--native]
                     [--tolerance T]

Blend2D is driven through its Python binding (`pip install --user blend2d-python numpy`), which pays one Python call
per drawing call: a few microseconds per item, which this renderer's times include. The scene is parsed once into
Blend2D paths; every render clears the canvas and fills and strokes every item afresh (Blend2D flattens, strokes and
rasterizes each call anew), then flushes. The context is synchronous (no worker threads), as cairo's is and ours is
with `refreshlab scene --threads 1`.

--threads N with N >= 1 draws through Blend2D's C API instead, with an asynchronous context made with
BLContextCreateInfo.threadCount = N, which the binding cannot ask for. Blend2D's threadCount counts the calling thread:
N threads render in all, the caller and N - 1 from Blend2D's thread pool (its docs on BLContextCreateInfo::threadCount
and WorkerManager::init in src/blend2d/raster/workermanager.cpp, and the context's own "threadCount" property, which
this checks after every context is made). So --threads 2 is two threads in all, as `refreshlab scene --threads 2`;
--threads 1 is asynchronous too, but the caller does all the work itself when it flushes. The async context queues the
drawing calls and renders them in bands when flushed: every render here makes the context, draws every item, and
flushes with BL_CONTEXT_FLUSH_SYNC, so the timed renders include all the work until the pixels are done.
--native (with --threads 0, the default) is that same C path with a synchronous context, to tell the cost of the
binding's Python calls apart from what the threads gain.
--tolerance T (C path only) flattens curves within T pixels (BLContext's flatten tolerance). Blend2D's default is 0.2
(blDefaultApproximationOptions, read from the wheel's libblend2d.a); RefreshLab and cairo-scene flatten within 0.1, so
a curve costs Blend2D about 1/sqrt(2) as many edges at its default, and comparing at 0.1 compares the same geometry.

The C path is blend2d_native.c, compiled on first use with g++ against the libblend2d.a that the binding's wheel ships
(the same Blend2D build as the binding's: blend2d commit c79b36d, version 0.12.0) into a shared library cached in
$BLEND2D_SCENE_CACHE (default ~/.cache/refreshlab/blend2d-scene; $CXX chooses the compiler), then driven with ctypes.
Blend2D's functions are hidden (neither the binding's module nor a library linked straight from the archive exports
them), hence the small C file. Parsing still happens in Python, but each render is one call, which draws every item,
so these times pay no Python call per item. Colours are packed as the binding packs them: the pixels are the same.

Scene files: see Tests/Fixtures/scenes/README.md.
"""

import ctypes
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

try:
    import blend2d as bl
except ImportError:
    sys.exit("blend2d-scene: the Blend2D Python binding is not installed; "
             "install it with: pip install --user blend2d-python numpy")

# How long the untimed renders go on before timing, at least (SceneTiming.warmUpNanoseconds).
WARM_UP_NS = 250_000_000

USAGE = ("usage: blend2d_scene.py FILE.json [--out OUT.png] [--iterations N] [--reference REF.png] [--threads N] "
         "[--native] [--tolerance T]")

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


def parse_path(data, where, path=None):
    """SVG path data as a Blend2D path (or into `path`, anything with BLPath's move_to, line_to, quadric_to, cubic_to
    and close): M, L, H, V, Q, C, Z, absolute and relative, with implicit repeats."""
    tokens = TOKEN.findall(data)
    leftover = TOKEN.sub("", data).replace(",", "").strip()
    if leftover:
        raise SceneError(f"{where}: cannot read '{leftover[:20]}' in the path data")
    if path is None:
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


class PathRecord:
    """A path as the commands (0 to 4 for M L Q C Z) and coordinates that blend2d_native.c's rl_scene_add reads."""

    def __init__(self):
        self.commands, self.coords = bytearray(), []

    def move_to(self, x, y):
        self.commands.append(0)
        self.coords += (x, y)

    def line_to(self, x, y):
        self.commands.append(1)
        self.coords += (x, y)

    def quadric_to(self, x1, y1, x2, y2):
        self.commands.append(2)
        self.coords += (x1, y1, x2, y2)

    def cubic_to(self, x1, y1, x2, y2, x3, y3):
        self.commands.append(3)
        self.coords += (x1, y1, x2, y2, x3, y3)

    def close(self):
        self.commands.append(4)


def rgba32(colour):
    """A `style` tuple as the 0xAARRGGBB that the binding's set_fill_style makes of it (each channel 255·v,
    truncated)."""
    b, g, r, a = colour
    return (int(255 * a) << 24) | (int(255 * r) << 16) | (int(255 * g) << 8) | int(255 * b)


class Item:
    def __init__(self, raw, where, native=False):
        if "path" not in raw:
            raise SceneError(f"{where}: an item needs a 'path'")
        self.path = parse_path(raw["path"], where, PathRecord() if native else None)
        opacity = float(raw.get("opacity", 1.0))
        t = raw.get("transform")
        self.matrix = [float(v) for v in t] if t else None
        self.transform = bl.Matrix2D(*self.matrix) if t else None
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
    """A scene drawn through the binding, with a synchronous context."""

    def __init__(self, file, native=False):
        try:
            with open(file) as f:
                raw = json.load(f)
        except (OSError, ValueError) as error:
            raise SceneError(f"cannot read scene '{file}': {error}")
        self.name = raw.get("name", file)
        self.width, self.height = int(raw["width"]), int(raw["height"])
        self.background = style(parse_color(raw.get("background", "#00000000"), f"{file}: background"))
        self.items = [Item(item, f"{file}: item {n}", native) for n, item in enumerate(raw.get("items", []))]
        if not native:
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

    def pixels(self):
        return self.image.getDataAsNumPy()

    def write(self, file):
        self.image.writeToFile(file)


def native_library():
    """blend2d_native.c built against the wheel's libblend2d.a (once; then from the cache) and loaded with ctypes."""
    archive = os.path.join(os.path.dirname(bl.__file__), "libblend2d.a")
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "blend2d_native.c")
    if not os.path.isfile(archive):
        raise SceneError(f"--threads and --native need the libblend2d.a that blend2d-python's wheel ships, "
                         f"and there is none at {archive}")
    compiler = os.environ.get("CXX") or shutil.which("g++") or shutil.which("c++")
    if not compiler:
        raise SceneError("--threads and --native need a C/C++ compiler (g++) to build blend2d_native.c; set CXX")
    digest = hashlib.sha256()
    for part in (source, archive):
        with open(part, "rb") as f:
            digest.update(f.read())
    digest.update(compiler.encode())
    cache = os.environ.get("BLEND2D_SCENE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "refreshlab", "blend2d-scene")
    library = os.path.join(cache, f"blend2d_native-{digest.hexdigest()[:16]}.so")
    if not os.path.isfile(library):
        os.makedirs(cache, exist_ok=True)
        handle, temporary = tempfile.mkstemp(suffix=".so", dir=cache)
        os.close(handle)
        command = [compiler, "-O2", "-shared", "-fPIC", "-o", temporary, "-x", "c", source, "-x", "none", archive,
                   "-lpthread", "-lrt"]
        try:
            built = subprocess.run(command, capture_output=True, text=True)
            failure = built.stderr.strip() if built.returncode != 0 else None
        except OSError as error:
            failure = str(error)
        if failure is not None:
            os.unlink(temporary)
            raise SceneError(f"cannot build {library}: {' '.join(command)}:\n{failure}")
        os.replace(temporary, library)
    lib = ctypes.CDLL(library)
    u32, f64, vp = ctypes.c_uint32, ctypes.c_double, ctypes.c_void_p
    lib.rl_scene_new.argtypes, lib.rl_scene_new.restype = [ctypes.c_int, ctypes.c_int, u32], vp
    lib.rl_scene_free.argtypes, lib.rl_scene_free.restype = [vp], None
    lib.rl_scene_add.argtypes = [vp, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(f64), ctypes.POINTER(f64),
                                 ctypes.c_int, u32, u32, ctypes.c_int, u32, f64, u32, u32, f64]
    lib.rl_scene_add.restype = u32
    lib.rl_scene_render.argtypes, lib.rl_scene_render.restype = [vp, u32, ctypes.c_double, ctypes.POINTER(u32)], u32
    lib.rl_scene_pixels.argtypes = [vp, ctypes.POINTER(vp), ctypes.POINTER(ctypes.c_ssize_t)]
    lib.rl_scene_pixels.restype = u32
    lib.rl_scene_write.argtypes, lib.rl_scene_write.restype = [vp, ctypes.c_char_p], u32
    return lib


class NativeScene(Scene):
    """A scene drawn through Blend2D's C API (blend2d_native.c): one call per render, with a context of `threads`
    threads (BLContextCreateInfo.threadCount; 0 is synchronous)."""

    def __init__(self, file, threads, tolerance=0.0):
        super().__init__(file, native=True)
        self.lib = native_library()
        self.threads = threads
        self.tolerance = tolerance
        self.handle = self.lib.rl_scene_new(self.width, self.height, rgba32(self.background))
        if not self.handle:
            raise SceneError(f"Blend2D cannot make a {self.width}×{self.height} image")
        for n, item in enumerate(self.items):
            path = item.path
            coords = (ctypes.c_double * max(len(path.coords), 1))(*path.coords)
            matrix = (ctypes.c_double * 6)(*item.matrix) if item.matrix else None
            fill = item.fill is not None and item.fill[3] > 0
            stroke = item.stroke is not None and item.stroke[3] > 0 and item.width > 0
            result = self.lib.rl_scene_add(
                self.handle, bytes(path.commands), len(path.commands), coords, matrix,
                fill, rgba32(item.fill) if fill else 0, item.rule.value,
                stroke, rgba32(item.stroke) if stroke else 0, item.width if stroke else 0,
                item.cap.value if stroke else 0, item.join.value if stroke else 0, item.miter if stroke else 0)
            if result:
                raise SceneError(f"{file}: item {n}: Blend2D cannot make its path (error {result:#x})")
        self.items = None  # the native scene holds them now

    def render(self):
        threads = ctypes.c_uint32(0xFFFFFFFF)
        result = self.lib.rl_scene_render(self.handle, self.threads, self.tolerance, ctypes.byref(threads))
        if result:
            raise SceneError(f"Blend2D failed to render (error {result:#x})")
        if threads.value != self.threads:
            raise SceneError(f"asked Blend2D for a context of {self.threads} threads and it reports {threads.value}")

    def pixels(self):
        import numpy
        data, stride = ctypes.c_void_p(), ctypes.c_ssize_t()
        if self.lib.rl_scene_pixels(self.handle, ctypes.byref(data), ctypes.byref(stride)) or not data.value:
            raise SceneError("cannot read Blend2D's pixels")
        rows = (ctypes.c_uint8 * (stride.value * self.height)).from_address(data.value)
        return numpy.ctypeslib.as_array(rows).reshape(self.height, stride.value)[:, :self.width * 4] \
            .reshape(self.height, self.width, 4).copy()

    def write(self, file):
        result = self.lib.rl_scene_write(self.handle, os.fsencode(file))
        if result:
            raise SceneError(f"cannot write '{file}' (Blend2D error {result:#x})")


def difference(image, reference, threshold=32):
    """The same summary as `refreshlab scene --reference`: over premultiplied ARGB channels (numpy arrays)."""
    a = image.astype("int32")
    b = reference.astype("int32")
    if a.shape != b.shape:
        raise SceneError(f"the reference is {b.shape[1]}×{b.shape[0]} but the scene is {a.shape[1]}×{a.shape[0]}")
    d = abs(a - b)
    over = (d.max(axis=2) > threshold).mean() * 100
    return f"mean |Δ| {d.mean():.3f}, {over:.3f} % of pixels off by more than {threshold}, max {d.max()}"


def main(arguments):
    file = out = reference = None
    iterations = None
    threads, native, tolerance = 0, False, 0.0
    rest = list(arguments)
    while rest:
        argument = rest.pop(0)
        if argument in ("--out", "--reference", "--iterations", "--threads", "--tolerance"):
            if not rest:
                raise SceneError(f"{argument} needs a value; {USAGE}")
            value = rest.pop(0)
            if argument == "--out":
                out = value
            elif argument == "--reference":
                reference = value
            elif argument == "--threads":
                if not value.isdigit() or int(value) > 32:
                    raise SceneError(f"--threads must be a whole number from 0 to 32 (Blend2D's most), not '{value}'")
                threads = int(value)
            elif argument == "--tolerance":
                try:
                    tolerance = float(value)
                except ValueError:
                    tolerance = -1.0
                if not 0 < tolerance <= 10:
                    raise SceneError(f"--tolerance must be a number of pixels above 0 and at most 10, not '{value}'")
            else:
                if not value.isdigit() or int(value) < 1:
                    raise SceneError(f"--iterations must be a whole number of at least 1, not '{value}'")
                iterations = int(value)
        elif argument == "--native":
            native = True
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

    if tolerance and not (threads or native):
        raise SceneError("--tolerance needs the C path: add --native or --threads N (the binding cannot set it)")
    scene = NativeScene(file, threads, tolerance) if threads or native else Scene(file)
    scene.render()
    if out:
        scene.write(out)
    if reference:
        expected = bl.BLImage()
        expected.readFromFile(reference)
        label = "Blend2D, C API" if native else "Blend2D"
        if threads:
            label = f"Blend2D, {threads} thread{'s' if threads > 1 else ''}"
        print(f"{scene.name} ({label}): against {reference}: {difference(scene.pixels(), expected.getDataAsNumPy())}",
              file=sys.stderr)
    if iterations:
        # As RefreshLab's and cairo's timing (SceneTiming): 3 untimed renders, and more until 0.25 s have passed.
        warm_up_start = time.perf_counter_ns()
        warmed = 0
        while warmed < 3 or time.perf_counter_ns() - warm_up_start < WARM_UP_NS:
            scene.render()
            warmed += 1
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

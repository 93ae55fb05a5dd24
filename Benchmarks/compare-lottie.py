#!/usr/bin/env python3
"""Times RefreshLab's Lottie renderer against ThorVG's on a set of real animations and prints a Markdown table.

    Benchmarks/compare-lottie.py BIN SET [--iterations K] [--rounds R] [--threads N] [--scale S] [--only NAME ...]

BIN is a release build of refreshlab. SET is a folder laid out as the real-file check set: manifest.json listing
each file (its path, the check size as [W, H], and the frames compared), the files beside it. For every file and
each listed frame, RefreshLab's time is `refreshlab lottie FILE --frame N --size WxH --iterations K` (the file read
once, untimed renders for 0.25 s and at least 3, K timed ones into one canvas; its median); ThorVG's is measured in
this process through its Python binding (thorvg-python), with its software canvas at the same size and fit, after
untimed rounds over the frames for 0.25 s and at least 3, K rounds over the file's frames (ThorVG skips a frame
asked for twice in a row, so the frames take turns), each frame's median. `--threads N` draws on N threads in all,
the caller's among them: RefreshLab's `--threads N`, ThorVG's engine made with N - 1 threads (its count is of
threads besides the caller's, and fixed for the process at its first use). `--scale S` draws every file at S times
its check size, for the large frames threads are for. A file's figure is the median over its frames; the two
renderers take turns file by file, ROUNDS times over, and each cell is the median of the file's rounds. The table
gives RefreshLab / ThorVG per file, then the geometric mean over the files and the slowest file.

Needs: pip install thorvg-python.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time


def refreshlab_time(binary, path, frame, size, iterations, threads):
    """RefreshLab's median nanoseconds for one frame, from its JSON line."""
    out = subprocess.run([binary, "lottie", path, "--frame", str(frame), "--size", "%dx%d" % size,
                          "--iterations", str(iterations), "--threads", str(threads)],
                         capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "exit %d" % out.returncode)
    return json.loads(out.stdout.strip().splitlines()[-1])["median_ns"]


class ThorVGPlayer:
    """One animation on a ThorVG software canvas of the check size, fitted and centred as RefreshLab fits it."""

    def __init__(self, tvg, engine, path, size):
        self.tvg = tvg
        self.animation = tvg.LottieAnimation(engine)
        self.picture = self.animation.get_picture()
        if self.picture.load(path) != tvg.Result.SUCCESS:
            raise RuntimeError("ThorVG cannot load it")
        _, pw, ph = self.picture.get_size()
        w, h = size
        scale = min(w / pw, h / ph)
        self.picture.set_size(pw * scale, ph * scale)
        self.picture.translate((w - pw * scale) / 2, (h - ph * scale) / 2)
        self.canvas = tvg.SwCanvas(engine)
        self.canvas.set_target(w, h, w, tvg.Colorspace.ABGR8888)
        self.canvas.add(self.picture)
        with open(path, "rb") as f:
            self.first = json.load(f).get("ip", 0)

    def render(self, frame):
        # ThorVG counts frames from the file's in point.
        self.animation.set_frame(max(float(frame - self.first), 0.0))
        self.canvas.update()
        self.canvas.draw(True)
        self.canvas.sync()

    def close(self):
        self.canvas.destroy()


# How long the untimed renders go on before timing, at least (SceneTiming.warmUpNanoseconds).
WARM_UP_NS = 250_000_000


def thorvg_time(tvg, engine, path, frames, size, iterations):
    """ThorVG's median nanoseconds over `frames` (the median of each frame's timed renders)."""
    player = ThorVGPlayer(tvg, engine, path, size)
    try:
        # As RefreshLab's timing (SceneTiming): 3 untimed rounds, and more until 0.25 s have passed.
        warm_up_start = time.perf_counter_ns()
        warmed = 0
        while warmed < 3 or time.perf_counter_ns() - warm_up_start < WARM_UP_NS:
            for f in frames:
                player.render(f)
            warmed += 1
        samples = {f: [] for f in frames}
        for _ in range(iterations):
            for f in frames:
                start = time.perf_counter_ns()
                player.render(f)
                samples[f].append(time.perf_counter_ns() - start)
        return statistics.median(statistics.median(s) for s in samples.values())
    finally:
        player.close()


def scaled(size, scale):
    """A check size [W, H] times `scale`, in whole pixels."""
    return tuple(max(1, round(side * scale)) for side in size)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("set")
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--scale", type=float, default=1)
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    try:
        import thorvg_python as tvg
    except ImportError:
        sys.exit("compare-lottie: ThorVG's Python binding is missing; install it with: pip install thorvg-python")
    if args.threads < 1:
        sys.exit("compare-lottie: --threads counts every thread drawing, the caller's too: give 1 or more")
    engine = tvg.Engine(threads=args.threads - 1)
    with open(os.path.join(args.set, "manifest.json")) as f:
        entries = json.load(f)["files"]
    if args.only:
        entries = [e for e in entries if e["name"] in args.only]

    ours = {e["name"]: [] for e in entries}
    theirs = {e["name"]: [] for e in entries}
    failed = {}
    for _ in range(args.rounds):
        for e in entries:
            if e["name"] in failed:
                continue
            path = os.path.join(args.set, e["file"])
            size = scaled(e["size"], args.scale)
            frames = [f["frame"] for f in e["frames"]]
            try:
                ours[e["name"]].append(statistics.median(
                    refreshlab_time(args.binary, path, f, size, args.iterations, args.threads) for f in frames))
                theirs[e["name"]].append(thorvg_time(tvg, engine, path, frames, size, args.iterations))
            except Exception as error:  # a file either renderer refuses is listed, not timed
                failed[e["name"]] = str(error)

    print("| file | size | RefreshLab ms | ThorVG ms | RefreshLab / ThorVG |")
    print("| --- | --- | ---: | ---: | ---: |")
    ratios = []
    for e in entries:
        name = e["name"]
        width, height = scaled(e["size"], args.scale)
        if name in failed:
            print("| %s | %dx%d | — | — | not timed: %s |" % (name, width, height, failed[name]))
            continue
        a, b = statistics.median(ours[name]), statistics.median(theirs[name])
        ratios.append((a / b, name))
        print("| %s | %dx%d | %.3f | %.3f | %.2f |" % (name, width, height, a / 1e6, b / 1e6, a / b))
    if ratios:
        mean = math.exp(sum(math.log(r) for r, _ in ratios) / len(ratios))
        worst = max(ratios)
        print()
        print("geometric mean of RefreshLab / ThorVG over %d files: %.2f; slowest: %s at %.2f"
              % (len(ratios), mean, worst[1], worst[0]))


if __name__ == "__main__":
    main()

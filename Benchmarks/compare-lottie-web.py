#!/usr/bin/env python3
"""Compares RefreshLab's frames of Lottie files with lottie-web's, the player After Effects exports are made for.

    Benchmarks/compare-lottie-web.py BIN LOTTIE_SVG_JS FILE [FILE ...] [--size WxH] [--frames N ...] [--keep DIR]

BIN is a build of refreshlab; LOTTIE_SVG_JS is lottie-web's build/player/lottie_svg.js. Each frame is drawn by
lottie-web's SVG renderer in Node (Tools/LottieWeb/render.js) and rasterized by cairosvg, and by `refreshlab lottie`,
both fitted into the same size and put on white. For each file and frame it prints the mean channel difference
(0-255) and the share of pixels off by more than 32 in a channel. With --keep, each frame's pair is written side by
side (lottie-web left) into DIR. Frames default to every 30th of the file's span.

Text in fonts the file does not embed is measured for lottie-web with the font fontconfig gives its family here
(fc-match), which cairosvg also draws it with.

Needs: node, fc-match, and pip install cairosvg numpy pillow.
"""
import argparse
import io
import json
import os
import subprocess
import sys

import tempfile

import cairosvg
import numpy as np
from PIL import Image, ImageFont

RENDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Tools", "LottieWeb", "render.js")


def text_widths(data):
    """The advance at 100 px of every letter of the file's text, by font family, measured (by Pillow, through
    FreeType) with the font fontconfig gives that family here, which cairosvg then draws lottie-web's text with."""
    families = {}
    for font in (data.get("fonts") or {}).get("list", []):
        families.setdefault(font.get("fFamily", ""), set())
    letters = set()

    def walk(layers):
        for layer in layers:
            if layer.get("ty") == 5:
                for key in layer.get("t", {}).get("d", {}).get("k", []):
                    letters.update(key.get("s", {}).get("t", ""))
    walk(data.get("layers", []))
    for asset in data.get("assets", []):
        walk(asset.get("layers", []))
    table = {}
    for family in families:
        path = subprocess.run(["fc-match", "-f", "%{file}", family], capture_output=True, text=True).stdout
        if not path:
            continue
        font = ImageFont.truetype(path, 100)
        table[family] = {c: font.getlength(c) for c in letters if c.isprintable()}
    return table


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("library")
    parser.add_argument("files", nargs="+")
    parser.add_argument("--size", default="400x300")
    parser.add_argument("--frames", nargs="*", type=float)
    parser.add_argument("--keep")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    print("| file | frame | mean difference | pixels off by > 32 |")
    print("|---|---:|---:|---:|")
    for path in args.files:
        with open(path) as f:
            data = json.load(f)
        frames = args.frames or [float(n) for n in range(int(data["ip"]), int(data["op"]), 30)]
        name = os.path.splitext(os.path.basename(path))[0]
        widths = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        json.dump(text_widths(data), widths)
        widths.close()
        environment = dict(os.environ, LOTTIE_TEXT_WIDTHS=widths.name)
        for frame in frames:
            svg = subprocess.run(["node", RENDER, args.library, path, str(frame), str(width), str(height)],
                                 capture_output=True, text=True, timeout=300, env=environment)
            if svg.returncode != 0:
                sys.exit("lottie-web could not draw %s at %g: %s" % (path, frame, svg.stderr.strip()[-400:]))
            theirs = Image.open(io.BytesIO(cairosvg.svg2png(bytestring=svg.stdout.encode(), output_width=width,
                                                            output_height=height, background_color="white")))
            out = subprocess.run([args.binary, "lottie", path, "--frame", "%g" % frame, "--size", args.size,
                                  "--out", "/dev/stdout"], capture_output=True, timeout=300)
            if out.returncode != 0:
                sys.exit("refreshlab could not draw %s at %g: %s" % (path, frame, out.stderr.decode()[-400:]))
            ours = Image.alpha_composite(Image.new("RGBA", (width, height), "white"),
                                         Image.open(io.BytesIO(out.stdout)).convert("RGBA"))
            a = np.asarray(theirs.convert("RGB"), np.int16)
            b = np.asarray(ours.convert("RGB"), np.int16)
            d = np.abs(a - b)
            print("| %s | %g | %.2f | %.2f %% |" % (name, frame, d.mean(), 100 * (d.max(axis=2) > 32).mean()))
            if args.keep:
                pair = Image.new("RGB", (2 * width, height), "white")
                pair.paste(theirs.convert("RGB"), (0, 0))
                pair.paste(ours.convert("RGB"), (width, 0))
                pair.save(os.path.join(args.keep, "%s-%g.png" % (name, frame)))
        os.unlink(widths.name)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Exported headers drawn by ThorVG against RefreshLab's own Lottie renderer.

Usage: export-thorvg.py REFRESHLAB [OUT_DIR [LIVE_DIR]]

For every header `refreshlab export lottie` exports (all but gif and lottie), writes the file, then draws every
5th frame at 2x with ThorVG (thorvg-python) and with `refreshlab lottie`, and prints, per header, the worst frame's
mean channel difference (0-255, premultiplied RGBA over the whole box) and share of pixels off by more than 32.
RefreshLab's renderer is checked against the live header in the tests (ExportRoundTripTests), so this closes the
loop to ThorVG. With LIVE_DIR (the live headers' frames the round-trip test writes when REFRESHLAB_EXPORT_FRAMES
names a folder), also writes OUT_DIR/export-ring.png: the live ring beside ThorVG's drawing of its file, at four
moments (the README's picture). Needs: Python 3, numpy, Pillow, thorvg-python 1.1.3 (ThorVG 1.0.4).
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

EFFECTS = ["sticky", "dots", "ring", "news", "classic", "system", "swipe-refresh", "material3"]
SCALE = 2


def thorvg_frame(tvg, engine, path, frame, w, h):
    anim = tvg.LottieAnimation(engine)
    pic = anim.get_picture()
    if pic.load(path) != tvg.Result.SUCCESS:
        raise RuntimeError("ThorVG cannot load " + path)
    pic.set_size(w, h)
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(w, h, w, tvg.Colorspace.ABGR8888)
    canvas.add(pic)
    anim.set_frame(float(frame))
    canvas.update(); canvas.draw(True); canvas.sync()
    a = np.frombuffer(bytes(canvas.buffer_arr), dtype=np.uint8).reshape(h, w, 4).astype(np.float64)
    canvas.destroy()
    return a


def ours_frame(refreshlab, path, frame, w, h, out):
    subprocess.run([refreshlab, "lottie", path, "--frame", str(frame), "--size", "%dx%d" % (w, h), "--out", out],
                   check=True, capture_output=True)
    rgba = np.asarray(Image.open(out).convert("RGBA")).astype(np.float64)
    rgba[:, :, :3] = np.round(rgba[:, :, :3] * rgba[:, :, 3:4] / 255.0)
    return rgba


def main():
    refreshlab = os.path.abspath(sys.argv[1])
    out = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp()
    os.makedirs(out, exist_ok=True)
    import thorvg_python as tvg
    engine = tvg.Engine(threads=0)
    print("| header | file | frames compared | worst mean difference | worst share off by > 32 |")
    print("| --- | --- | --- | --- | --- |")
    for effect in EFFECTS:
        path = os.path.join(out, effect + ".json")
        subprocess.run([refreshlab, "export", "lottie", "--effect", effect, "--out", path], check=True,
                       capture_output=True)
        doc = json.load(open(path))
        w, h = int(doc["w"] * SCALE), int(doc["h"] * SCALE)
        worst_mean = worst_share = 0.0
        frames = range(0, int(doc["op"]), 5)
        for frame in frames:
            theirs = thorvg_frame(tvg, engine, path, frame, w, h)
            ours = ours_frame(refreshlab, path, frame, w, h, os.path.join(out, "%s-%d.png" % (effect, frame)))
            d = np.abs(theirs - ours)
            worst_mean = max(worst_mean, d.mean())
            worst_share = max(worst_share, 100.0 * (d.max(axis=2) > 32).mean())
        print("| %s | %d KB | %d | %.2f | %.2f %% |" % (effect, os.path.getsize(path) // 1024, len(frames),
                                                      worst_mean, worst_share))
    if len(sys.argv) > 3:
        picture(tvg, engine, out, sys.argv[3])


def picture(tvg, engine, out, live_dir, frames=(40, 70, 120, 205)):
    """The live ring (left) beside ThorVG's drawing of its file (right), one row per frame: the middle 160 pt of the
    box, outlined in grey, on white, under a heading."""
    from PIL import ImageDraw
    path = os.path.join(out, "ring.json")
    doc = json.load(open(path))
    w, h = int(doc["w"] * SCALE), int(doc["h"] * SCALE)
    crop = 160 * SCALE
    left = (w - crop) // 2
    gap, heading = 24, 28
    sheet = Image.new("RGB", (2 * crop + 3 * gap, heading + len(frames) * (h + gap)), (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    draw.text((gap, 8), "RefreshLab, live", fill=(60, 60, 60))
    draw.text((2 * gap + crop, 8), "ThorVG, the exported file", fill=(60, 60, 60))
    for row, frame in enumerate(frames):
        live = Image.open(os.path.join(live_dir, "ring-live-%d.png" % frame)).convert("RGBA")
        theirs = thorvg_frame(tvg, engine, path, frame, w, h)
        alpha = theirs[:, :, 3:4]
        straight = np.where(alpha > 0, np.round(theirs[:, :, :3] * 255.0 / np.maximum(alpha, 1)), 0)
        theirs = Image.fromarray(np.concatenate([straight, alpha], axis=2).astype(np.uint8), "RGBA")
        y = heading + row * (h + gap)
        for column, image in enumerate([live, theirs]):
            x = gap + column * (crop + gap)
            tile = Image.new("RGBA", (crop, h), (255, 255, 255, 255))
            tile.alpha_composite(image.crop((left, 0, left + crop, h)))
            sheet.paste(tile.convert("RGB"), (x, y))
            draw.rectangle((x - 1, y - 1, x + crop, y + h), outline=(200, 200, 200))
    sheet.save(os.path.join(out, "export-ring.png"))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes a second scene of each kind for the rasterizer benchmark: every scene of Tests/Fixtures/scenes drawn
through one more transform, so that the same kinds of geometry land on other slopes and sub-pixel positions.

    vary_scenes.py OUT_FOLDER

Each variant NAME-moved.json holds the scene's items with the transform below composed before their own (the
stroke is still made in the item's own coordinates, as the scene format says). The random-geometry scenes (polys,
curves, strokes, stress) are also turned, so that their edges meet the scanlines at other angles; the screen-like
ones (list, frame, text, dots, ring, sticky) keep their axes, as a screen would, and are only scaled and moved by
a fraction of a pixel. compare-scenes.sh writes them into its output folder and has cairo-scene draw their
references there.
"""

import glob
import json
import math
import os
import sys

TURNED = {"polys", "curves", "strokes", "stress"}
SCALE = 0.87
TURN_DEGREES = 17.0
SHIFT = (0.37, 0.61)


def compose(outer, inner):
    """outer ∘ inner for affine matrices [a, b, c, d, tx, ty] with x' = a·x + c·y + tx, y' = b·x + d·y + ty."""
    a1, b1, c1, d1, e1, f1 = outer
    a2, b2, c2, d2, e2, f2 = inner
    return [a1 * a2 + c1 * b2, b1 * a2 + d1 * b2,
            a1 * c2 + c1 * d2, b1 * c2 + d1 * d2,
            a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1]


def variant_transform(name, width, height):
    """Scale (and turn) about the canvas's centre, then move by a fraction of a pixel."""
    angle = math.radians(TURN_DEGREES) if name in TURNED else 0.0
    cos, sin = math.cos(angle) * SCALE, math.sin(angle) * SCALE
    cx, cy = width / 2, height / 2
    return [cos, sin, -sin, cos,
            cx - (cos * cx - sin * cy) + SHIFT[0], cy - (sin * cx + cos * cy) + SHIFT[1]]


def main(arguments):
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    if len(arguments) != 1:
        sys.exit("usage: vary_scenes.py OUT_FOLDER")
    out = arguments[0]
    os.makedirs(out, exist_ok=True)
    for file in sorted(glob.glob(os.path.join(root, "Tests", "Fixtures", "scenes", "*.json"))):
        with open(file) as f:
            scene = json.load(f)
        name = os.path.basename(file)[:-len(".json")]
        outer = variant_transform(name, scene["width"], scene["height"])
        for item in scene.get("items", []):
            item["transform"] = [round(v, 9) for v in compose(outer, item.get("transform", [1, 0, 0, 1, 0, 0]))]
        scene["name"] = name + "-moved"
        target = os.path.join(out, scene["name"] + ".json")
        with open(target + ".part", "w") as f:
            json.dump(scene, f, separators=(",", ":"))
        os.replace(target + ".part", target)
        print(f"wrote {target}")


if __name__ == "__main__":
    main(sys.argv[1:])

#!/usr/bin/env python3
"""Copies the real Lottie files that use layer effects into Tests/Fixtures/lottie-effects and draws ThorVG's
reference frames of each.

    Benchmarks/Tools/lottie-effects-references.py SOURCES...

Each SOURCE is a git directory of one of the repositories in FILES below (a clone or a bare snapshot), at the
commit FILES names. For every file, this copies its bytes from that commit (`git show COMMIT:PATH`), records its
repository, commit, path and sha1 in manifest.json, and draws six frames (the middles of six equal slices of
ip…op) with ThorVG's software canvas, fitted into the composition's size scaled so that its larger side is at most
256 px and centred: references/NAME/N.thorvg.png is that frame over white on the left and over black on the right,
as the real-file check set lays them out. Run it again after changing FILES; frames already drawn are drawn again.
OPTIONS changes that for a file: drawn at a larger size, or not drawn at all when ThorVG's frames cannot be compared
(the manifest then says how the file is checked instead).

Needs: Python 3, numpy, Pillow, thorvg-python 1.1.3 (ThorVG 1.0.4), which the references were made with.
"""
import hashlib, json, os, subprocess, sys
import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "..", "Tests", "Fixtures", "lottie-effects"))
ANDROID = ("airbnb/lottie-android", "05ea92e90381eb8a8ae06855ea2b74f322bebbec", "snapshot-tests/src/main/assets/")
# name, (repository, commit, folder), path in the folder
FILES = [
    ("shadow-static", ANDROID, "Tests/StaticShadow.json"),
    ("shadow-animated", ANDROID, "Tests/AnimatedShadow.json"),
    ("shadow-position", ANDROID, "Tests/ShadowPosition1.json"),
    ("shadow-precomp", ANDROID, "lottiefiles/the_final_frontier.json"),
    ("shadow-finish", ANDROID, "lottiefiles/finish,done.json"),
    ("blur-fill", ANDROID, "Tests/FillBlur.json"),
    ("blur-precomp", ANDROID, "Tests/PrecompBlur.json"),
    ("blur-payme", ANDROID, "lottiefiles/payme.json"),
    ("fill-motorcycle", ANDROID, "lottiefiles/motorcycle.json"),
    ("image-shadow", ANDROID, "Tests/shadows_test_alpha.json"),
    ("stroke-streetby", ANDROID, "lottiefiles/streetby_test_loading.json"),
    # Made here (files/made-effects.json, kept as it is): Tint, Tritone and Fill, which no real file of the
    # repositories searched draws within ThorVG's reach, with keyframed and expression-driven parameters.
    ("made-effects", None, None),
    # Made here too: Stroke on a solid (on transparent, a write-on with a growing brush), on a shape layer and on a
    # precomposition (revealing the layer through a white stroke along a mask of mode none, or the mask picked):
    # the cases where ThorVG, which always reveals the layer through the stroke, draws what lottie-web draws.
    ("made-stroke", None, None),
]
MAX_SIDE = 256
OPTIONS = {
    # Its pictures drawn at 256 px are minified past a sixth, which ThorVG filters otherwise than bilinearly (the
    # file without its effects is 3.1 from ThorVG's frames there, 0.5 at its own size): drawn at its own size.
    "image-shadow": {"max_side": 1688},
    # ThorVG 1.0.4 draws nothing of it: its Stroke reveals the layer's own pixels, and this layer has none.
    "stroke-streetby": {"frames": False,
                        "checked": "by hand (LayerEffectTests.aRealStrokeDrawsItsMasksOutlinesUnclipped): ThorVG "
                                   "1.0.4 draws nothing of it"},
}


def effects_of(doc):
    """the drawing effects a file uses: match name -> number of layers"""
    found = {}
    def walk(layers):
        for layer in layers:
            for e in layer.get("ef") or []:
                mn = e.get("mn", "")
                if mn.endswith(" Control") or mn.startswith("Pseudo/"):
                    continue
                found[mn] = found.get(mn, 0) + 1
    walk(doc.get("layers", []))
    for a in doc.get("assets", []):
        walk(a.get("layers") or [])
    return found


def thorvg_frame(tvg, engine, path, first, frame, w, h):
    """premultiplied RGBA floats, ThorVG's frame counted from the file's in point"""
    anim = tvg.LottieAnimation(engine)
    pic = anim.get_picture()
    if pic.load(path) != tvg.Result.SUCCESS:
        raise RuntimeError("ThorVG cannot load " + path)
    _, pw, ph = pic.get_size()
    s = min(w / pw, h / ph)
    pic.set_size(pw * s, ph * s)
    pic.translate((w - pw * s) / 2.0, (h - ph * s) / 2.0)
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(w, h, w, tvg.Colorspace.ABGR8888)
    canvas.add(pic)
    anim.set_frame(max(float(frame - first), 0.0))
    canvas.update(); canvas.draw(True); canvas.sync()
    a = np.frombuffer(bytes(canvas.buffer_arr), dtype=np.uint8).reshape(h, w, 4).astype(np.float64)
    canvas.destroy()
    return a


def over(premul, grey):
    a = premul[:, :, 3:4] / 255.0
    return np.clip(np.round(premul[:, :, :3] + grey * (1.0 - a)), 0, 255).astype(np.uint8)


def main(sources):
    import thorvg_python as tvg
    engine = tvg.Engine(threads=0)
    gits = {}
    for s in sources:
        for name, source, path in FILES:
            if source is None:
                continue
            repo, commit, folder = source
            ok = subprocess.run(["git", "--git-dir", s, "cat-file", "-e", "%s:%s%s" % (commit, folder, path)],
                                capture_output=True).returncode == 0
            if ok:
                gits[repo] = s
    entries = []
    for name, source, path in FILES:
        file = os.path.join("files", name + ".json")
        if source is None:
            repo = commit = folder = path = None
            with open(os.path.join(OUT, file), "rb") as f:
                data = f.read()
        else:
            repo, commit, folder = source
            if repo not in gits:
                sys.exit("no source given holds %s at %s" % (repo, commit))
            data = subprocess.run(["git", "--git-dir", gits[repo], "show", "%s:%s%s" % (commit, folder, path)],
                                  capture_output=True, check=True).stdout
            os.makedirs(os.path.join(OUT, "files"), exist_ok=True)
            with open(os.path.join(OUT, file), "wb") as f:
                f.write(data)
        doc = json.loads(data)
        options = OPTIONS.get(name, {})
        s = min(1.0, options.get("max_side", MAX_SIDE) / max(doc["w"], doc["h"]))
        w, h = max(1, round(doc["w"] * s)), max(1, round(doc["h"] * s))
        ip, op = doc.get("ip", 0), doc["op"]
        frames = []
        os.makedirs(os.path.join(OUT, "references", name), exist_ok=True)
        for k in range(6 if options.get("frames", True) else 0):
            n = int(ip + (op - ip) * (2 * k + 1) / 12)
            pm = thorvg_frame(tvg, engine, os.path.join(OUT, file), ip, n, w, h)
            ref = os.path.join("references", name, "%d.thorvg.png" % n)
            Image.fromarray(np.concatenate([over(pm, 255.0), over(pm, 0.0)], axis=1)).save(os.path.join(OUT, ref))
            frames.append({"frame": n, "thorvg": ref})
        entries.append({"name": name, "file": file, "repo": repo, "commit": commit, "path": folder + path if path else None,
                        "sha1": hashlib.sha1(data).hexdigest(), "bytes": len(data), "effects": effects_of(doc),
                        "size": [w, h], "frames": frames})
        if "checked" in options:
            entries[-1]["checked"] = options["checked"]
        print(name, w, h, entries[-1]["effects"])
    manifest = {"renderer": "ThorVG 1.0.4 (thorvg-python 1.1.3), software canvas",
                "rule": "a frame agrees within a mean channel difference of 2.0 and 2 % of pixels off by more than "
                        "32, over white and over black",
                "files": entries}
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    main(sys.argv[1:])

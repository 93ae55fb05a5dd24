#!/usr/bin/env python3
"""The table of an audit's report.html as a PNG, for the README: configurations down, moments across, a green cell
for a case that passed and a red one for a case that failed, a drawn case's cell with a dark frame.

Usage: audit-table.py REPORT.json OUT.png
Needs: Python 3, Pillow.
"""
import json
import sys

from PIL import Image, ImageDraw


def main():
    report = json.load(open(sys.argv[1]))
    results = report["results"]
    configurations, moments = [], []
    for r in results:
        label = "%s %s %s %s" % (r["effect"], r["device"], r["bar"], r["appearance"])
        if label not in configurations:
            configurations.append(label)
        if r["moment"] not in moments:
            moments.append(r["moment"])
    verdict = {("%s %s %s %s" % (r["effect"], r["device"], r["bar"], r["appearance"]), r["moment"]): r["verdict"]
               for r in results}
    drawn = {("%s %s %s %s" % (r["effect"], r["device"], r["bar"], r["appearance"]), r["moment"])
             for r in results if r.get("drawn")}
    cell, gap, left, top = 16, 2, 230, 190
    width = left + len(moments) * (cell + gap) + 12
    height = top + len(configurations) * (cell + gap) + 40
    image = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.text((12, 10), "refreshlab audit: %d cases (%d drawn, framed), %d failed"
              % (report["cases"], len(drawn), report["failed"]), fill=(30, 30, 30))
    for j, moment in enumerate(moments):
        # Moment names written upwards above their column.
        label = Image.new("RGB", (top - 40, cell), (255, 255, 255))
        ImageDraw.Draw(label).text((2, 2), moment, fill=(60, 60, 60))
        label = label.rotate(90, expand=True)
        image.paste(label, (left + j * (cell + gap), 34))
    for i, configuration in enumerate(configurations):
        y = top + i * (cell + gap)
        draw.text((12, y + 3), configuration, fill=(60, 60, 60))
        for j, moment in enumerate(moments):
            x = left + j * (cell + gap)
            colour = {"pass": (60, 154, 78), "fail": (211, 59, 50)}.get(verdict.get((configuration, moment)),
                                                                        (230, 230, 230))
            draw.rectangle((x, y, x + cell - 1, y + cell - 1), fill=colour)
            if (configuration, moment) in drawn:
                frame = {"pass": (29, 92, 42), "fail": (122, 28, 22)}.get(verdict.get((configuration, moment)))
                draw.rectangle((x, y, x + cell - 1, y + cell - 1), outline=frame, width=3)
    image.save(sys.argv[2])


if __name__ == "__main__":
    main()

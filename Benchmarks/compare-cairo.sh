#!/usr/bin/env bash
# Times RefreshLab's rasterizer against cairo on the scene fixtures and prints a Markdown table.
#
#   Benchmarks/compare-cairo.sh [SCENE ...]      (default: every Tests/Fixtures/scenes/*.json)
#
# Both renderers are release builds and follow one protocol: parse once, 3 untimed renders, then ITERATIONS timed
# renders, each drawing every path afresh; the table shows the medians. Their PNGs are written to OUT_DIR, and how
# far each is from the stored cairo reference is printed under the table.
#
# Environment: ITERATIONS (default 30), OUT_DIR (default out/compare-cairo), SCRATCH_PATH (SwiftPM build folder,
# default .build, used for both packages).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
iterations="${ITERATIONS:-30}"
out_dir="${OUT_DIR:-out/compare-cairo}"
scratch="${SCRATCH_PATH:-.build}"

if ! pkg-config --exists cairo; then
    echo "compare-cairo: cairo's development files are not installed (pkg-config cannot find 'cairo');" >&2
    echo "install them with: sudo apt-get install libcairo2-dev" >&2
    exit 1
fi

cd "$root"
echo "Building RefreshLab and cairo-scene (release)..." >&2
swift build -c release --product refreshlab --scratch-path "$scratch" >&2
ours="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/refreshlab"
(cd Benchmarks && swift build -c release --product cairo-scene --scratch-path "$scratch" >&2)
cairo="$(cd Benchmarks && swift build -c release --scratch-path "$scratch" --show-bin-path)/cairo-scene"

if [ "$#" -gt 0 ]; then
    scenes=("$@")
else
    scenes=()
    for file in Tests/Fixtures/scenes/*.json; do scenes+=("$(basename "$file" .json)"); done
fi
mkdir -p "$out_dir"

# The median from a renderer's JSON line, in nanoseconds.
median_ns() { sed -n 's/.*"median_ns": \([0-9][0-9]*\).*/\1/p'; }

rows=""
ratios=""
for name in "${scenes[@]}"; do
    scene="Tests/Fixtures/scenes/$name.json"
    reference="Tests/Fixtures/scenes/reference/$name.png"
    [ -f "$scene" ] || { echo "compare-cairo: no scene '$scene'; scenes are named after Tests/Fixtures/scenes/*.json" >&2; exit 1; }
    echo "  $name" >&2
    ours_line="$("$ours" scene "$scene" --out "$out_dir/$name-refreshlab.png" --iterations "$iterations" \
        --reference "$reference" 2>>"$out_dir/agreement.txt.tmp")"
    cairo_line="$("$cairo" "$scene" --out "$out_dir/$name-cairo.png" --iterations "$iterations" \
        --reference "$reference" 2>>"$out_dir/agreement.txt.tmp")"
    ours_ns="$(echo "$ours_line" | median_ns)"
    cairo_ns="$(echo "$cairo_line" | median_ns)"
    [ -n "$ours_ns" ] && [ -n "$cairo_ns" ] || { echo "compare-cairo: no timing for $name" >&2; exit 1; }
    row="$(awk -v n="$name" -v a="$ours_ns" -v b="$cairo_ns" \
        'BEGIN { printf "| %s | %.2f | %.2f | %.2f |", n, a / 1e6, b / 1e6, a / b }')"
    rows+="$row"$'\n'
    ratios+="$(awk -v a="$ours_ns" -v b="$cairo_ns" 'BEGIN { printf "%.6f", a / b }') "
done
agreement="$(cat "$out_dir/agreement.txt.tmp")"
rm -f "$out_dir/agreement.txt.tmp"

echo "| scene | RefreshLab median ms | cairo median ms | ratio |"
echo "| --- | ---: | ---: | ---: |"
printf "%s" "$rows"
echo "$ratios" | awk -v iter="$iterations" '{ s = 0; for (i = 1; i <= NF; i++) s += log($i); printf "\nGeometric mean of the ratios (RefreshLab / cairo): %.2f over %d scenes, %s timed renders each.\n", exp(s / NF), NF, iter }'
echo
echo "Pixels against the stored cairo references (PNGs in $out_dir):"
echo
echo "$agreement" | sed 's/^/    /'

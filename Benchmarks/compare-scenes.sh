#!/usr/bin/env bash
# Times RefreshLab's rasterizer against cairo and Blend2D on the scene fixtures and prints a Markdown table.
#
#   Benchmarks/compare-scenes.sh [SCENE ...]
#
# By default it runs twenty scenes: the ten of Tests/Fixtures/scenes, and a second of each kind that
# Tools/vary_scenes.py makes from them (NAME-moved: the same items scaled, moved by a fraction of a pixel and, for
# the random-geometry scenes, turned), written into OUT_DIR/scenes with references drawn there by cairo-scene.
#
# The three renderers follow one protocol: parse once, 3 untimed renders, then ITERATIONS timed renders, each
# drawing every path afresh; the table shows the medians. RefreshLab (`refreshlab scene`) and cairo (`cairo-scene`)
# are release builds; Blend2D is its release library through the Python binding (`blend2d_scene.py`), which pays
# one Python call per drawing call. The renderers take turns scene by scene, ROUNDS times over, so that a slow
# spell of a shared machine falls on all three alike; each cell is the median of a scene's round medians. The last
# column, and the geometric means printed a second time, take each renderer's fastest round per scene instead, which
# a busy neighbour on the machine disturbs least (other work only ever adds time).
# PNGs are written to OUT_DIR, and how far each is from the stored cairo reference is printed under the table.
#
# Needs: cairo's development files (sudo apt-get install libcairo2-dev); Blend2D's Python binding
# (pip install --user blend2d-python numpy); without the binding the Blend2D column is left out.
#
# Environment: ITERATIONS (default 30), ROUNDS (default 3), OUT_DIR (default out/compare-scenes), SCRATCH_PATH
# (SwiftPM build folder, default .build, used for both packages), PYTHON (default python3).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
iterations="${ITERATIONS:-30}"
rounds="${ROUNDS:-3}"
out_dir="${OUT_DIR:-out/compare-scenes}"
scratch="${SCRATCH_PATH:-.build}"
python="${PYTHON:-python3}"

if ! pkg-config --exists cairo; then
    echo "compare-scenes: cairo's development files are not installed (pkg-config cannot find 'cairo');" >&2
    echo "install them with: sudo apt-get install libcairo2-dev" >&2
    exit 1
fi
blend2d="$root/Benchmarks/Tools/Blend2DScene/blend2d_scene.py"
if ! "$python" -c 'import blend2d, numpy' 2>/dev/null; then
    echo "compare-scenes: Blend2D's Python binding is not installed, so Blend2D is left out;" >&2
    echo "install it with: pip install --user blend2d-python numpy" >&2
    blend2d=""
fi

cd "$root"
echo "Building RefreshLab and cairo-scene (release)..." >&2
swift build -c release --product refreshlab --scratch-path "$scratch" >&2
ours="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/refreshlab"
(cd Benchmarks && swift build -c release --product cairo-scene --scratch-path "$scratch" >&2)
cairo="$(cd Benchmarks && swift build -c release --scratch-path "$scratch" --show-bin-path)/cairo-scene"

mkdir -p "$out_dir/scenes/reference"
"$python" Benchmarks/Tools/vary_scenes.py "$out_dir/scenes" >/dev/null
# A scene's file and its cairo reference, by name: a fixture, or a variant made above.
scene_file() {
    if [ -f "Tests/Fixtures/scenes/$1.json" ]; then echo "Tests/Fixtures/scenes/$1.json"; else echo "$out_dir/scenes/$1.json"; fi
}
reference_file() {
    if [ -f "Tests/Fixtures/scenes/$1.json" ]; then echo "Tests/Fixtures/scenes/reference/$1.png"
    else echo "$out_dir/scenes/reference/$1.png"; fi
}

if [ "$#" -gt 0 ]; then
    scenes=("$@")
else
    scenes=()
    for file in Tests/Fixtures/scenes/*.json; do
        scenes+=("$(basename "$file" .json)" "$(basename "$file" .json)-moved")
    done
fi
for name in "${scenes[@]}"; do
    [ -f "$(scene_file "$name")" ] || {
        echo "compare-scenes: no scene '$name'; scenes are named after Tests/Fixtures/scenes/*.json, or NAME-moved" >&2
        exit 1
    }
done
for name in "${scenes[@]}"; do
    reference="$(reference_file "$name")"
    [ -f "$reference" ] || "$cairo" "$(scene_file "$name")" --out "$reference" >/dev/null
done
agreement="$out_dir/agreement.txt"
times="$out_dir/times.txt"
: >"$agreement"
: >"$times"

# The median from a renderer's JSON line, in nanoseconds.
median_ns() { sed -n 's/.*"median_ns": \([0-9][0-9]*\).*/\1/p'; }

# One timed run of renderer $1 on scene $2, appended to $times as "scene renderer ns".
time_one() {
    local who="$1" name="$2" scene line ns
    scene="$(scene_file "$2")"
    case "$who" in
        ours) line="$("$ours" scene "$scene" --iterations "$iterations")" ;;
        cairo) line="$("$cairo" "$scene" --iterations "$iterations")" ;;
        blend2d) line="$("$python" "$blend2d" "$scene" --iterations "$iterations")" ;;
    esac
    ns="$(echo "$line" | median_ns)"
    [ -n "$ns" ] || { echo "compare-scenes: no timing from $who for $name" >&2; exit 1; }
    echo "$name $who $ns" >>"$times"
}

renderers=(ours cairo)
[ -n "$blend2d" ] && renderers+=(blend2d)

# Pixels first, once per scene and renderer (untimed).
for name in "${scenes[@]}"; do
    scene="$(scene_file "$name")"
    reference="$(reference_file "$name")"
    "$ours" scene "$scene" --out "$out_dir/$name-refreshlab.png" --reference "$reference" >/dev/null 2>>"$agreement"
    "$cairo" "$scene" --out "$out_dir/$name-cairo.png" --reference "$reference" >/dev/null 2>>"$agreement"
    if [ -n "$blend2d" ]; then
        "$python" "$blend2d" "$scene" --out "$out_dir/$name-blend2d.png" --reference "$reference" 2>>"$agreement"
    fi
done

for round in $(seq 1 "$rounds"); do
    echo "  round $round of $rounds" >&2
    for name in "${scenes[@]}"; do
        # A different renderer goes first in each round.
        for i in "${!renderers[@]}"; do
            time_one "${renderers[$(( (i + round) % ${#renderers[@]} ))]}" "$name"
        done
    done
done

# Per scene and renderer, the median of the round medians; then the table and the geometric means.
awk -v iter="$iterations" -v rounds="$rounds" -v blend="${blend2d:+1}" '
    function median(list,    n, a, i, j, t) {
        n = split(list, a, " ")
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    function least(list,    n, a, i, m) {
        n = split(list, a, " ")
        m = a[1]
        for (i = 2; i <= n; i++) if (a[i] < m) m = a[i]
        return m
    }
    { if (!($1 in seen)) { seen[$1] = 1; order[++count] = $1 }; runs[$1 " " $2] = runs[$1 " " $2] " " $3 }
    END {
        if (blend) {
            printf "| scene | RefreshLab ms | cairo ms | Blend2D ms | RefreshLab / cairo | RefreshLab / Blend2D "
            print "| fastest rounds |"
            print "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
        } else {
            print "| scene | RefreshLab ms | cairo ms | RefreshLab / cairo |"
            print "| --- | ---: | ---: | ---: |"
        }
        for (k = 1; k <= count; k++) {
            s = order[k]; a = median(runs[s " ours"]); c = median(runs[s " cairo"])
            lc += log(a / c)
            # The same from the least disturbed round of each renderer: work of other tenants only ever adds time.
            fa = least(runs[s " ours"]); lfc += log(fa / least(runs[s " cairo"]))
            if (blend) {
                b = median(runs[s " blend2d"]); lb += log(a / b); fb = fa / least(runs[s " blend2d"]); lfb += log(fb)
                printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
                       s, a / 1e6, c / 1e6, b / 1e6, a / c, a / b, fb
            } else {
                printf "| %s | %.2f | %.2f | %.2f |\n", s, a / 1e6, c / 1e6, a / c
            }
        }
        printf "\nGeometric mean of the ratios over %d scenes: RefreshLab / cairo %.2f", count, exp(lc / count)
        if (blend) printf ", RefreshLab / Blend2D %.2f", exp(lb / count)
        printf " (medians of %d rounds of %d timed renders each).\n", rounds, iter
        printf "From the fastest round of each renderer instead: RefreshLab / cairo %.2f", exp(lfc / count)
        if (blend) printf ", RefreshLab / Blend2D %.2f", exp(lfb / count)
        printf ".\n"
    }' "$times"
echo
echo "Pixels against the stored cairo references (PNGs in $out_dir):"
echo
sed 's/^/    /' "$agreement"

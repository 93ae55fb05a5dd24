#!/usr/bin/env bash
# Times RefreshLab's rasterizer against cairo and Blend2D on the scene fixtures and prints a Markdown table.
#
#   Benchmarks/compare-scenes.sh [SCENE ...]
#
# By default it runs twenty scenes: the ten of Tests/Fixtures/scenes, and a second of each kind that
# Tools/vary_scenes.py makes from them (NAME-moved: the same items scaled, moved by a fraction of a pixel and, for
# the random-geometry scenes, turned), written into OUT_DIR/scenes with references drawn there by cairo-scene.
#
# The renderers follow one protocol: parse once, untimed renders for 0.25 s (3 at least), then ITERATIONS timed
# renders, each drawing every path afresh; the table shows the medians. RefreshLab (`refreshlab scene`, on one thread,
# --threads 1, and on two, --threads 2) and cairo (`cairo-scene`) are release builds; Blend2D is its release library
# through its C API (`blend2d_scene.py`, one call per render): with a synchronous context (`--native`), and, for the
# column "Blend2D, 2 threads", with an asynchronous context of two threads in all, the caller and one worker
# (`--threads 2`, flushed synchronously within the timing). Blend2D flattens curves within BLEND2D_TOLERANCE pixels:
# by default 0.1, as RefreshLab and cairo do, so that all three draw the same geometry (Blend2D's own default, 0.2,
# gives a curve about 1/sqrt(2) as many edges; BLEND2D_TOLERANCE=default keeps it). Without a C compiler the
# one-thread column falls back to the Python binding, which pays one Python call per drawing call and cannot set the
# tolerance. The renderers take turns scene by scene, ROUNDS times over, so that a slow spell of a shared machine
# falls on all alike; each cell is the median of a scene's round medians. The last column, and the geometric means
# printed a second time, take each renderer's fastest round per scene instead, which a busy neighbour on the machine
# disturbs least (other work only ever adds time); the two-thread columns suffer most from a busy neighbour on a
# machine of few cores. Under the table: the geometric mean and the worst scene of RefreshLab / Blend2D on 2 threads,
# and RefreshLab on 2 threads / on 1 thread for stress, polys, curves and strokes (and their -moved variants). PNGs
# are written to OUT_DIR, and how far each is from the stored cairo reference is printed under the table.
#
# Needs: cairo's development files (sudo apt-get install libcairo2-dev) unless CAIRO_SCENE is given; Blend2D's
# Python binding (pip install --user blend2d-python numpy); without the binding the Blend2D columns are left out. Its
# C API also needs g++ (blend2d_scene.py builds a small library from the binding's libblend2d.a on first use);
# without it the column "Blend2D, 2 threads" is left out.
#
# Environment: ITERATIONS (default 30), ROUNDS (default 3), BLEND2D_TOLERANCE (default 0.1), OUT_DIR (default
# out/compare-scenes), SCRATCH_PATH (SwiftPM build folder, default .build, used for both packages), PYTHON (default
# python3), REFRESHLAB and CAIRO_SCENE (a `refreshlab` or `cairo-scene` binary to use instead of building it).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
iterations="${ITERATIONS:-30}"
rounds="${ROUNDS:-3}"
out_dir="${OUT_DIR:-out/compare-scenes}"
scratch="${SCRATCH_PATH:-.build}"
python="${PYTHON:-python3}"
# A binary given by the caller, as an absolute path (the script works from the repository's root).
given_binary() { [ -z "$1" ] || echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
ours="$(given_binary "${REFRESHLAB:-}")"
cairo="$(given_binary "${CAIRO_SCENE:-}")"

if [ -z "$cairo" ] && ! pkg-config --exists cairo; then
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
# Blend2D's curves within the tolerance asked for (the C API only).
tolerance="${BLEND2D_TOLERANCE:-0.1}"
tolerance_options=(--tolerance "$tolerance")
[ "$tolerance" = default ] && tolerance_options=()
# Pixels above 0 and at most 10, as blend2d_scene.py takes them: a value it refused would quietly send Blend2D
# through the binding at its own tolerance.
if [ "$tolerance" != default ] && ! { [[ "$tolerance" =~ ^[0-9]*\.?[0-9]+$ ]] &&
                                      awk -v t="$tolerance" 'BEGIN { exit !(t > 0 && t <= 10) }'; }; then
    echo "compare-scenes: BLEND2D_TOLERANCE is '$tolerance'; give pixels above 0 and at most 10 (0.1, as" \
         "RefreshLab) or 'default'" >&2
    exit 1
fi
# Blend2D goes through its C API (blend2d_scene.py --native, --threads 2): try it once on a fixture.
blend2d_threads="$blend2d"
blend2d_one=(--native "${tolerance_options[@]}")
fixtures=(Tests/Fixtures/scenes/*.json)
if [ -n "$blend2d" ] &&
   ! failure="$("$python" "$blend2d" "${fixtures[0]}" --threads 2 "${tolerance_options[@]}" --iterations 1 \
                2>&1 >/dev/null)"; then
    echo "compare-scenes: Blend2D's C API cannot be used here, so the column 'Blend2D, 2 threads' is left out and" >&2
    echo "'Blend2D' goes through the Python binding, at Blend2D's own tolerance:" >&2
    echo "$failure" >&2
    blend2d_threads=""
    blend2d_one=()
fi

if [ -z "$ours" ]; then
    echo "Building RefreshLab (release)..." >&2
    swift build -c release --product refreshlab --scratch-path "$scratch" >&2
    ours="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/refreshlab"
fi
if [ -z "$cairo" ]; then
    echo "Building cairo-scene (release)..." >&2
    (cd Benchmarks && swift build -c release --product cairo-scene --scratch-path "$scratch" >&2)
    cairo="$(cd Benchmarks && swift build -c release --scratch-path "$scratch" --show-bin-path)/cairo-scene"
fi

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
        ours) line="$("$ours" scene "$scene" --iterations "$iterations" --threads 1)" ;;
        ours2) line="$("$ours" scene "$scene" --iterations "$iterations" --threads 2)" ;;
        cairo) line="$("$cairo" "$scene" --iterations "$iterations")" ;;
        blend2d) line="$("$python" "$blend2d" "$scene" --iterations "$iterations" "${blend2d_one[@]}")" ;;
        blend2d2) line="$("$python" "$blend2d" "$scene" --iterations "$iterations" --threads 2 \
                          "${tolerance_options[@]}")" ;;
    esac
    ns="$(echo "$line" | median_ns)"
    [ -n "$ns" ] || { echo "compare-scenes: no timing from $who for $name" >&2; exit 1; }
    echo "$name $who $ns" >>"$times"
}

renderers=(ours ours2 cairo)
[ -n "$blend2d" ] && renderers+=(blend2d)
[ -n "$blend2d_threads" ] && renderers+=(blend2d2)

# Pixels first, once per scene and renderer (untimed).
for name in "${scenes[@]}"; do
    scene="$(scene_file "$name")"
    reference="$(reference_file "$name")"
    "$ours" scene "$scene" --threads 1 --out "$out_dir/$name-refreshlab.png" --reference "$reference" \
        >/dev/null 2>>"$agreement"
    # `refreshlab scene` does not name itself in its line; this one is told apart from the one-thread line.
    { "$ours" scene "$scene" --threads 2 --out "$out_dir/$name-refreshlab-2threads.png" --reference "$reference" \
        2>&1 >/dev/null; } | sed 's/: against / (RefreshLab, 2 threads): against /' >>"$agreement"
    "$cairo" "$scene" --out "$out_dir/$name-cairo.png" --reference "$reference" >/dev/null 2>>"$agreement"
    if [ -n "$blend2d" ]; then
        "$python" "$blend2d" "$scene" "${blend2d_one[@]}" --out "$out_dir/$name-blend2d.png" --reference "$reference" \
            2>>"$agreement"
    fi
    if [ -n "$blend2d_threads" ]; then
        "$python" "$blend2d" "$scene" --threads 2 "${tolerance_options[@]}" \
            --out "$out_dir/$name-blend2d-2threads.png" --reference "$reference" 2>>"$agreement"
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

# Per scene and renderer, the median of the round medians; then the table, the geometric means and the thread ratios.
awk -v iter="$iterations" -v rounds="$rounds" -v blend="${blend2d:+1}" -v blend2="${blend2d_threads:+1}" '
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
        head = "| scene | RefreshLab ms | RefreshLab, 2 threads ms | cairo ms"
        rule = "| --- | ---: | ---: | ---:"
        if (blend) { head = head " | Blend2D ms"; rule = rule " | ---:" }
        if (blend2) { head = head " | Blend2D, 2 threads ms"; rule = rule " | ---:" }
        head = head " | RefreshLab / cairo"; rule = rule " | ---:"
        if (blend) { head = head " | RefreshLab / Blend2D | fastest rounds"; rule = rule " | ---: | ---:" }
        print head " |"
        print rule " |"
        for (k = 1; k <= count; k++) {
            s = order[k]; a = median(runs[s " ours"]); a2 = median(runs[s " ours2"]); c = median(runs[s " cairo"])
            lc += log(a / c)
            # The same from the least disturbed round of each renderer: work of other tenants only ever adds time.
            fa = least(runs[s " ours"]); lfc += log(fa / least(runs[s " cairo"]))
            threads[s] = a2 / a
            row = sprintf("| %s | %.2f | %.2f | %.2f", s, a / 1e6, a2 / 1e6, c / 1e6)
            if (blend) {
                b = median(runs[s " blend2d"]); lb += log(a / b); fb = fa / least(runs[s " blend2d"]); lfb += log(fb)
                row = row sprintf(" | %.2f", b / 1e6)
            }
            if (blend2) {
                b2 = median(runs[s " blend2d2"]); r2 = a2 / b2; lb2 += log(r2)
                if (k == 1 || r2 > worst) { worst = r2; worst_scene = s }
                lfb2 += log(least(runs[s " ours2"]) / least(runs[s " blend2d2"]))
                row = row sprintf(" | %.2f", b2 / 1e6)
            }
            row = row sprintf(" | %.2f", a / c)
            if (blend) row = row sprintf(" | %.2f | %.2f", a / b, fb)
            print row " |"
        }
        printf "\nGeometric mean of the ratios over %d scenes: RefreshLab / cairo %.2f", count, exp(lc / count)
        if (blend) printf ", RefreshLab / Blend2D %.2f", exp(lb / count)
        printf " (medians of %d rounds of %d timed renders each).\n", rounds, iter
        printf "From the fastest round of each renderer instead: RefreshLab / cairo %.2f", exp(lfc / count)
        if (blend) printf ", RefreshLab / Blend2D %.2f", exp(lfb / count)
        printf ".\n"
        if (blend2) printf "On 2 threads, RefreshLab / Blend2D: geometric mean %.2f (from the fastest rounds %.2f), " \
                           "worst scene %s at %.2f.\n", exp(lb2 / count), exp(lfb2 / count), worst_scene, worst
        n = split("stress stress-moved polys polys-moved curves curves-moved strokes strokes-moved", named, " ")
        line = ""
        for (i = 1; i <= n; i++)
            if (named[i] in threads)
                line = line sprintf("%s%s %.2f", line == "" ? "" : ", ", named[i], threads[named[i]])
        if (line != "") print "RefreshLab on 2 threads / on 1 thread: " line "."
    }' "$times"
if [ -n "$blend2d" ]; then
    if [ "${#blend2d_one[@]}" -gt 0 ]; then
        echo "Blend2D through its C API, curves flattened within ${tolerance} px (its own default when 'default')."
    else
        echo "Blend2D on one thread through its Python binding, curves flattened within its default 0.2 px."
    fi
fi
echo
echo "Pixels against the stored cairo references (PNGs in $out_dir):"
echo
sed 's/^/    /' "$agreement"

#!/usr/bin/env bash
# Builds the fuzz targets and runs each for SECONDS (60 by default): Fuzz/run.sh [SECONDS] [TARGET...]
# Exits 1 when any target finds a crash, a memory error, a leak, a timeout or an out-of-memory input; the input is
# kept in .build/fuzz/findings to replay with `.build/fuzz/fuzz-TARGET FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(scene gesture svgpath style lottie expression gif image timings raster assetpath)
out=.build/fuzz
Fuzz/build.sh "$out" 2>&1 | grep -v "Cannot export local symbol" || true
for t in "${targets[@]}"; do [ -x "$out/fuzz-$t" ] || { echo "fuzz: no target '$t' was built" >&2; exit 1; }; done

# Seeds: the project's own files (scenes, gesture scripts) and the small ones in Fuzz/seeds. The generated corpus
# grows in .build/fuzz/corpus, never in the repository.
mkdir -p "$out/findings" "$out/seeds/scene" "$out/seeds/lottie"
cp Tests/Fixtures/scenes/{sticky,dots,ring,strokes,stress,curves}.json "$out/seeds/scene/"
cp Resources/animations/refresh.json "$out/seeds/lottie/"
seeds_scene=("$out/seeds/scene" Fuzz/seeds/scene)
seeds_gesture=(Resources/gestures)
seeds_svgpath=(Fuzz/seeds/svgpath)
seeds_style=(Fuzz/seeds/style)
seeds_lottie=("$out/seeds/lottie" Fuzz/seeds/lottie)
seeds_gif=(Fuzz/seeds/gif)
seeds_image=(Tests/Fixtures/images)
seeds_timings=(Fuzz/seeds/timings)
seeds_raster=(Fuzz/seeds/raster)
seeds_assetpath=(Fuzz/seeds/assetpath)
seeds_expression=(Fuzz/seeds/expression)

# Leaks are findings, but for what a system library keeps for the whole process (listed in Fuzz/lsan.supp).
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0"
failed=()
for t in "${targets[@]}"; do
  mkdir -p "$out/corpus/$t"
  declare -n seeds="seeds_$t"
  case $t in scene | lottie) max_len=100000 ;; raster) max_len=2048 ;; *) max_len=8192 ;; esac
  echo "== fuzz $t for ${seconds}s"
  # A second per input at most, and 2 GB: a slower or larger input is a finding (the inputs are bounded).
  if ! "$out/fuzz-$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
      -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$out/findings/$t-" \
      "$out/corpus/$t" "${seeds[@]}" >"$out/$t.log" 2>&1; then
    failed+=("$t")
    grep -E "ERROR|SUMMARY|Test unit written|timeout|out-of-memory" "$out/$t.log" | head -20 >&2 || true
  fi
  grep -E "^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)" "$out/$t.log" | tr '\n' ' '
  echo
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]} (inputs in $out/findings; logs in $out/TARGET.log)" >&2
  exit 1
fi

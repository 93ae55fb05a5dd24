#!/usr/bin/env bash
# Measures what the real window presents under Xvfb, driven by xdotool, and prints it as Markdown lines.
#
#   Benchmarks/window-rates.sh BIN [ROUNDS] [-- WINDOW OPTIONS ...]
#
# BIN is a release build of refreshlab. Two measures, each ROUNDS times (default 3), every round a window of its own:
#
# - **Fling, largest phone.** The iPhone 16 Pro Max (1320×2868, 120 Hz) with vsync off (SDL_RENDER_VSYNC=0, so the
#   window's own limiter paces the phone's 120 Hz) and the HUD on (G): a quick drag up released while moving, then no
#   input for 4 s. The rate is the frames the window's trace shows while the list coasts (no finger, still moving);
#   the parts are the medians of the timings recorded with R around the fling (draw, upload, present, and the
#   frame's processor time).
# - **The first refresh.** The default phone with vsync on: Space pressed 2 s after the window opened, the rate over
#   the 3 s that follow, and the longest gap between two frames.
#
# Options after `--` go to every window (`-- --threads 2`). Needs Xvfb, xdotool, xdpyinfo (x11-utils) and python3.
set -euo pipefail

binary=$(realpath "$1")
rounds=${2:-3}
shift $(( $# >= 2 ? 2 : 1 ))
[ "${1:-}" = "--" ] && shift
extra=("$@")

work=$(mktemp -d)
xvfb=""
app=""
cleanup() {
  [ -n "$app" ] && kill "$app" 2>/dev/null || true
  [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null || true
}
trap cleanup EXIT

# Starts Xvfb and the window with the given environment assignments and options; sets `window`.
open_window() {
  local dir=$1; shift
  mkdir -p "$dir"
  display=:$((90 + RANDOM % 100))
  Xvfb "$display" -screen 0 1280x1024x24 -nolisten tcp >"$dir/xvfb.log" 2>&1 &
  xvfb=$!
  export DISPLAY=$display
  for _ in $(seq 50); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
  (cd "$dir" && exec env "$@") >"$dir/app.log" 2>&1 &
  app=$!
  window=$(timeout 20 xdotool search --sync --name '^RefreshLab' | head -n 1)
}

close_window() {
  kill "$app" 2>/dev/null || true
  wait "$app" 2>/dev/null || true
  kill "$xvfb" 2>/dev/null || true
  wait "$xvfb" 2>/dev/null || true
  app=""; xvfb=""
}

# Prints "frames rate longest-gap-ms" for the trace's lines from line $2 on that the filter $3 keeps.
rate() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])][int(sys.argv[2]):]
keep = {"coasting": lambda l: l["finger"] is None and l["motion"] != "none", "all": lambda l: True}[sys.argv[3]]
times = [l["time"] for l in lines if keep(l)]
if sys.argv[3] == "all":
    times = [t for t in times if t - times[0] <= 3.0]
span = times[-1] - times[0]
print(len(times), round((len(times) - 1) / span, 1), round(max(b - a for a, b in zip(times, times[1:])) * 1000, 1))
PY
}

# Prints the medians of the timings CSV's draw, upload, present and processor time, in ms.
parts() {
  python3 - "$1" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(" ".join("%.2f" % statistics.median(float(r[k]) for r in rows)
               for k in ("draw_ms", "upload_ms", "present_ms", "cpu_ms")))
PY
}

echo "| round | the 16 Pro Max flinging, HUD on: fps while coasting | draw / upload / present / CPU ms (medians) |"
echo "| ---: | ---: | --- |"
for round in $(seq "$rounds"); do
  dir="$work/fling-$round"
  open_window "$dir" SDL_RENDER_VSYNC=0 "$binary" --device iphone-16-pro-max --trace "$dir/trace.jsonl" \
    --output-dir "$dir/out" "${extra[@]}"
  sleep 5   # the start's hint fades
  xdotool key --window "$window" g
  sleep 0.3
  eval "$(xdotool getwindowgeometry --shell "$window")"
  cx=$((X + WIDTH / 2)); y0=$((Y + HEIGHT * 8 / 10))
  start=$(wc -l <"$dir/trace.jsonl")
  xdotool key --window "$window" r
  sleep 0.3
  xdotool mousemove "$cx" "$y0" mousedown 1
  for i in 1 2 3 4 5 6; do xdotool mousemove "$cx" $((y0 - i * 40)); sleep 0.01; done
  xdotool mouseup 1
  sleep 4
  xdotool key --window "$window" r
  sleep 0.5
  read -r _ fps _ < <(rate "$dir/trace.jsonl" "$start" coasting)
  read -r draw upload present cpu < <(parts "$(ls "$dir"/out/*.csv | head -n 1)")
  echo "| $round | $fps | $draw / $upload / $present / $cpu |"
  close_window
done

echo
echo "| round | the first refresh, Space 2 s after the window opened: fps over 3 s | longest gap ms |"
echo "| ---: | ---: | ---: |"
for round in $(seq "$rounds"); do
  dir="$work/start-$round"
  open_window "$dir" "$binary" --trace "$dir/trace.jsonl" "${extra[@]}"
  sleep 2
  start=$(wc -l <"$dir/trace.jsonl")
  xdotool key --window "$window" space
  sleep 3.5
  read -r _ fps gap < <(rate "$dir/trace.jsonl" "$start" all)
  echo "| $round | $fps | $gap |"
  close_window
done

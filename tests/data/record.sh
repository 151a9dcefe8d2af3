#!/usr/bin/env bash
# Re-record the real Chrome traces in tests/data/real/ from the test page in
# tests/data/page/{old,new}/ with headless Chromium and startup tracing.
#
# Usage: tests/data/record.sh [RUNS]       (default RUNS=3)
# Env:   CHROMIUM    browser binary          (default /usr/bin/chromium)
#        CATS        trace categories        (default: see below)
#        DURATION    --trace-startup-duration in seconds (default 4)
#        OUTDIR      output directory        (default tests/data/real)
#
# Records old-1, new-1, old-2, new-2, ... alternately, one fresh browser and
# one fresh profile dir per file, and writes OUTDIR/{old,new}/run-N.json.gz
# (gzip -9 -n of the JSON trace Chromium wrote). Nothing is downloaded: the
# page is served by python3's http.server on 127.0.0.1 (a free port).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
RUNS=${1:-3}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
CATS=${CATS:-disabled-by-default-v8.cpu_profiler,v8.execute,devtools.timeline,__metadata}
DURATION=${DURATION:-4}
OUTDIR=${OUTDIR:-$HERE/real}
TIMEOUT=${TIMEOUT:-90}   # seconds to wait for one trace file

command -v python3 >/dev/null || { echo "record.sh: python3 needed" >&2; exit 1; }
[ -x "$CHROMIUM" ] || { echo "record.sh: no browser at $CHROMIUM" >&2; exit 1; }
mkdir -p "$OUTDIR"

WORK=$(mktemp -d)
SERVER_PIDS=()
CHROME_PID=

stop_chrome() {
  if [ -n "$CHROME_PID" ]; then
    # Chromium was started by setsid, so its pid is also its process group:
    # end the browser and its zygote/renderer/utility children together.
    kill -TERM -- "-$CHROME_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do
      kill -0 "$CHROME_PID" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL -- "-$CHROME_PID" 2>/dev/null || true
    wait "$CHROME_PID" 2>/dev/null || true
    CHROME_PID=
  fi
}

cleanup() {
  stop_chrome
  for pid in "${SERVER_PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# One loopback web server per build, each on its own free port (port 0: the
# kernel picks one) with the build at its root, as zamcap's agent serves a
# build folder: the script URLs then differ only in their origin.
start_server() {  # start_server VARIANT -> sets PORT_<VARIANT>
  local variant=$1 log="$WORK/server-$1.log" port=
  python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$HERE/page/$variant" \
    >"$log" 2>&1 &
  SERVER_PIDS+=($!)
  for _ in $(seq 1 100); do
    port=$(sed -n 's/.* port \([0-9][0-9]*\).*/\1/p' "$log" | head -n1)
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || { echo "record.sh: http server did not start" >&2; cat "$log" >&2; exit 1; }
  printf -v "PORT_$variant" '%s' "$port"
  echo "serving $HERE/page/$variant on http://127.0.0.1:$port/"
}
start_server old
start_server new

# true once FILE exists and holds complete, parseable JSON
trace_complete() {
  [ -s "$1" ] && python3 - "$1" <<'EOF' 2>/dev/null
import json, sys
json.load(open(sys.argv[1]))
EOF
}

record() {  # record VARIANT N
  local variant=$1 n=$2
  local profile="$WORK/profile-$variant-$n"
  local trace="$WORK/$variant-$n.json"
  mkdir -p "$profile"
  echo "recording $variant-$n ..."
  setsid "$CHROMIUM" \
    --headless --no-sandbox --disable-gpu \
    --disable-background-networking --disable-component-update \
    --disable-sync --no-first-run --disable-default-apps --disable-extensions \
    --user-data-dir="$profile" \
    --trace-startup="$CATS" \
    --trace-startup-format=json \
    --trace-startup-file="$trace" \
    --trace-startup-duration="$DURATION" \
    "http://127.0.0.1:$(eval echo "\$PORT_$variant")/index.html" \
    >"$WORK/chrome-$variant-$n.log" 2>&1 &
  CHROME_PID=$!
  local waited=0
  until trace_complete "$trace"; do
    if ! kill -0 "$CHROME_PID" 2>/dev/null; then
      echo "record.sh: chromium exited before writing $trace" >&2
      tail -n 20 "$WORK/chrome-$variant-$n.log" >&2
      exit 1
    fi
    if [ "$waited" -ge $((TIMEOUT * 10)) ]; then
      echo "record.sh: timed out waiting for $trace" >&2
      exit 1
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  stop_chrome
  rm -rf "$profile"
  mkdir -p "$OUTDIR/$variant"
  gzip -9 -n -c "$trace" >"$OUTDIR/$variant/run-$n.json.gz"
  rm -f "$trace"
  echo "  -> $OUTDIR/$variant/run-$n.json.gz ($(wc -c <"$OUTDIR/$variant/run-$n.json.gz") bytes)"
}

for n in $(seq 1 "$RUNS"); do
  record old "$n"
  record new "$n"
done
echo "done"

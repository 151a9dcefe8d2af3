#!/usr/bin/env bash
# Capture benchmark: runs zamcap record against real headless Chromium and
# prints figures (nothing is asserted; README.md records them).
#   1. a large trace (?marks=400000: about 140 MB of JSON): zamcap's CPU
#      share, the stream from Chrome to disk, peak memory;
#   2. the test page, 10 runs traced and 10 untraced: tracing's overhead on
#      the page (time from navigation to settled).
# usage: tests/bench/capture.sh [ZAMCAP]
set -euo pipefail
cd "$(dirname "$0")/../.."
ZAMCAP=${1:-build/zamcap}
WORK=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

# Not in $(...): a subshell would keep the server's pid from PIDS, and the
# server would outlive the script.
serve() {  # serve DIR NAME -> sets PORT
  python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$1" \
    >"$WORK/srv-$2.log" 2>&1 &
  PIDS+=($!)
  PORT=
  for _ in $(seq 100); do
    PORT=$(sed -n 's/.* port \([0-9][0-9]*\).*/\1/p' "$WORK/srv-$2.log" | head -n1)
    [ -n "$PORT" ] && return
    sleep 0.1
  done
  echo "capture.sh: server did not start" >&2; exit 1
}
serve tests/bench/page big; BIG=$PORT
serve tests/cdp/page page; PAGE=$PORT

echo "capture benchmark ($("$ZAMCAP" --version), $(chromium --version 2>/dev/null | head -n1))"
echo
echo "1. a large trace: bigtrace.html?marks=400000"
"$ZAMCAP" record --url "http://127.0.0.1:$BIG/bigtrace.html?marks=400000" \
  --timeout 180000 --out "$WORK/big" -v 2>"$WORK/big.log" >/dev/null
f=$(ls "$WORK"/big/traces/run-1.json*)
raw=$(zcat -f "$f" | wc -c)
grep -E "trace:|zamcap itself" "$WORK/big.log" | sed 's/^zamcap: /  /'
awk -v raw="$raw" -v gz="$(stat -c %s "$f")" '
  /trace: Tracing.end/ { for (i = 1; i <= NF; i++) { if ($i == "calls" || $i == "call") ms = $(i + 2) } }
  END { printf "  trace: %.1f MB of JSON (%.1f MB gzip on disk): from stream to disk at %.0f MB/s of trace\n",
        raw / 1e6, gz / 1e6, raw / 1e6 / (ms / 1000) }' "$WORK/big.log"

echo
echo "2. tracing overhead on the page (index.html, 10 runs each)"
for mode in trace no-trace; do
  extra=; [ "$mode" = no-trace ] && extra=--no-trace
  "$ZAMCAP" record --url "http://127.0.0.1:$PAGE/index.html" --runs 10 \
    --settle 300 $extra --out "$WORK/$mode" 2>"$WORK/$mode.log" >/dev/null
  sed -n 's/.*settled \([0-9]*\) ms after navigation.*/\1/p' "$WORK/$mode.log" |
    sort -n | awk -v m="$mode" '{ v[NR] = $1; s += $1 }
      END { printf "  %-9s navigation to settled: median %d ms, mean %.0f ms (n=%d)\n",
            m, v[int((NR + 1) / 2)], s / NR, NR }'
  grep "zamcap itself" "$WORK/$mode.log" | sed 's/^zamcap: /  /'
done

echo
echo "3. the one command on the todo demo (1 warm-up run per build, 3 pairs):"
echo "   zamcap's overhead beyond the runs' own time (replaying and settling)"
for i in 1 2 3; do
  "$ZAMCAP" scenarios/demo/todo.json --old scenarios/demo/todo/old \
    --new scenarios/demo/todo/new --out "$WORK/demo-$i" -vv \
    2>"$WORK/demo-$i.log" >/dev/null || true
  grep -E "overhead beyond" "$WORK/demo-$i.log" | sed 's/^zamcap: /  /'
  grep -E "Tracing.end to" "$WORK/demo-$i.log" |
    awk '{ for (i = 1; i <= NF; i++) if ($i == "tracingComplete") s += $(i + 1) }
         END { printf "    of it, Chrome flushing %d traces: %.1f s\n", NR, s / 1000 }'
done

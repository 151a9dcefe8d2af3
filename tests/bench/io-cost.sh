#!/usr/bin/env bash
# --io's cost and what it does to the timed figures (issue 36; docs/io.md
# records the figures; nothing is asserted). Real headless Chromium: run
# it under the shared lock (flock /tmp/zamcap-e2e.lock tests/bench/io-cost.sh).
#   1. the demo todo app against itself (A/A), --pairs P (default 5),
#      without --io and with it: the wall time, the timed scenario wall
#      time old -> new with its interval, the causes named (time's and
#      I/O's);
#   2. the storage wrapper's cost per write: tests/bench/iowrite writes
#      20 000 times to localStorage and leaves the time it took in its
#      trace; in one comparison its timed runs have no wrapper and its I/O
#      runs have it: (with - without) / 20 000, medians over the runs.
# usage: tests/bench/io-cost.sh [ZAMCAP] [PAIRS]
set -euo pipefail
cd "$(dirname "$0")/../.."
ZAMCAP=${1:-build/zamcap}
PAIRS=${2:-5}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "--io's cost ($("$ZAMCAP" --version), $(chromium --version 2>/dev/null | head -n1))"
echo
echo "1. todo demo, A/A, --pairs $PAIRS"
for mode in no-io io; do
  flag=; [ "$mode" = io ] && flag=--io
  t0=$(date +%s.%N)
  rc=0
  "$ZAMCAP" scenarios/demo/todo.json --old scenarios/demo/todo/old \
    --new scenarios/demo/todo/old --pairs "$PAIRS" $flag --no-history \
    --format json --out "$WORK/$mode" -q >/dev/null 2>&1 || rc=$?
  t1=$(date +%s.%N)
  python3 - "$WORK/$mode/report.json" "$mode" "$t0" "$t1" "$rc" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
mode, t0, t1, rc = sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
sc = next((m for m in d["end_to_end"]["metrics"] if m["name"] == "scenario_ms"), None)
io = d.get("io", {})
wall = (t1 - t0)
iow = d.get("inputs", {}).get("io", {}).get("wall_ms")
print(f"  {'--io' if mode == 'io' else 'no --io':7} {wall:6.1f} s in all" +
      (f" ({iow / 1e3:.1f} s of I/O pairs)" if iow else "") + f", exit {rc}")
if sc:
    dl = sc["delta"]
    print(f"          scenario wall time {sc['old']['mean']:.1f} -> {sc['new']['mean']:.1f} ms, "
          f"{dl['mean']:+.1f} (95 % CI {dl['ci95'][0]:+.1f} to {dl['ci95'][1]:+.1f})")
print(f"          causes: {len(d.get('regression_causes', []))} of time, "
      f"{len(io.get('regression_causes', []))} of I/O")
PY
done

echo
echo "2. the storage wrapper, 20 000 localStorage.setItem a run"
"$ZAMCAP" tests/bench/iowrite.json --old tests/bench/iowrite \
  --new tests/bench/iowrite --pairs "$PAIRS" --counts 0 --io --no-history \
  --format json --out "$WORK/w" -q >/dev/null 2>&1 || true
python3 - "$WORK/w/traces" <<'PY'
import glob, gzip, os, re, statistics, sys
def us(path):
    m = re.search(rb"iobench-us:(\d+)", gzip.open(path).read())
    return int(m.group(1)) if m else None
d = sys.argv[1]
plain = [us(p) for p in glob.glob(os.path.join(d, "*-[0-9]*.json.gz")) if "-io-" not in p]
wrapped = [us(p) for p in glob.glob(os.path.join(d, "*-io-*.json.gz"))]
plain = [x for x in plain if x]; wrapped = [x for x in wrapped if x]
if plain and wrapped:
    p, w = statistics.median(plain), statistics.median(wrapped)
    print(f"  without the wrapper (timed runs, n={len(plain)}): median {p / 1e3:.1f} ms, {p / 20000:.2f} µs a write")
    print(f"  with it (I/O runs, n={len(wrapped)}): median {w / 1e3:.1f} ms, {w / 20000:.2f} µs a write")
    print(f"  the wrapper's cost: {(w - p) / 20000:.2f} µs a write")
else:
    print("  no figures (no iobench mark in the traces)")
PY

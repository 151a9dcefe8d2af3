#!/usr/bin/env bash
# Sampling benchmark: --pairs 3 against --pairs auto on the demo apps, in
# real headless Chromium. For each mode, N A/A runs (old against old) and
# N A/B runs (old against new) of each demo; prints per run the verdict,
# the exit code, the pairs and the wall time, then false alarms (A/A not
# "no regression"), misses (A/B not "regression") and the medians. Nothing
# is asserted; README.md records the figures.
# usage: tests/bench/sampling.sh [ZAMCAP] [N]   (N: runs per cell, default 10)
set -euo pipefail
cd "$(dirname "$0")/../.."
ZAMCAP=${1:-build/zamcap}
N=${2:-10}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
D=scenarios/demo
printf '%-7s %-6s %-5s %3s  %-14s %4s %6s %6s\n' mode demo kind run verdict \
  exit pairs wall_s
for mode in 3 auto; do
  for demo in todo search; do
    for kind in AA AB; do
      new=$D/$demo/old; [ "$kind" = AB ] && new=$D/$demo/new
      for i in $(seq "$N"); do
        out=$WORK/$mode-$demo-$kind-$i
        t0=$(date +%s.%N)
        rc=0
        "$ZAMCAP" "$D/$demo.json" --old "$D/$demo/old" --new "$new" \
          --pairs "$mode" --format json --out "$out" -q >/dev/null 2>&1 || rc=$?
        t1=$(date +%s.%N)
        python3 - "$out/report.json" "$mode" "$demo" "$kind" "$i" "$rc" \
          "$t0" "$t1" <<'PY'
import json, sys
f, mode, demo, kind, i, rc, t0, t1 = sys.argv[1:]
wall = float(t1) - float(t0)
try:
    r = json.load(open(f))
    state, pairs = r['verdict'].get('state', '?'), r.get('sampling', {}).get('pairs', '?')
except Exception:
    state, pairs = 'no report', '-'
print('%-7s %-6s %-5s %3s  %-14s %4s %6s %6.1f' % (mode, demo, kind, i, state, rc, pairs, float(wall)))
PY
      done
    done
  done
done | tee "$WORK/table"
python3 - "$WORK/table" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
print()
for mode in ('3', 'auto'):
    for kind in ('AA', 'AB'):
        rs = [r for r in rows if r[0] == mode and r[2] == kind]
        if not rs:
            continue
        want = 'no regression' if kind == 'AA' else 'regression'
        state = [' '.join(r[4:-3]) for r in rs]
        wrong = sum(1 for s in state if s != want)
        pairs = [int(r[-2]) for r in rs if r[-2].isdigit()]
        wall = [float(r[-1]) for r in rs]
        print('--pairs %-4s %s: %2d runs, %d %s, median %s pairs, median %.1f s'
              % (mode, kind, len(rs), wrong,
                 'false alarms' if kind == 'AA' else 'misses',
                 statistics.median(pairs) if pairs else '-',
                 statistics.median(wall)))
PY

#!/usr/bin/env bash
# zamcap explore's searches against each other in real headless Chromium
# (issue 37): on the explore demo (tests/agent/exploreapp: slow only for a
# two-word query on more than 800 rows, about 1 input in 23), each search
# with SEEDS seeds at the default budget (80 traced runs: 31 candidates
# screened). For each search: in how many runs a slow input was among the
# candidates, the candidates it took to the first, in how many runs the
# worst input (measured again) was a slow one, and the screening pairs'
# spread on inputs that are not slow (the noise the simulation,
# tests/bench/search.c, takes). Each explore holds the Chromium tests' lock
# (/tmp/zamcap-e2e.lock), its comparison at the worst input cut to one
# pair. Figures only.
#
#   bash tests/bench/explore.sh [build/zamcap [SEEDS [SEARCHES]]]
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
ZAMCAP=$(realpath "${1:-build/zamcap}")
SEEDS=${2:-5}
SEARCHES=${3:-cover random ga}
APP=$ROOT/tests/agent/exploreapp
W=${ZC_BENCH_DIR:-$(mktemp -d /tmp/zc-explore-bench.XXXXXX)}
mkdir -p "$W"

for k in $SEARCHES; do
  for s in $(seq 1 "$SEEDS"); do
    out=$W/$k-$s
    [ -f "$out/explore.json" ] && continue
    t0=$(date +%s)
    flock /tmp/zamcap-e2e.lock "$ZAMCAP" explore "$APP/explore.json" \
      --old "$APP/old" --new "$APP/new" --search "$k" --seed "$s" \
      --pairs 1 --counts 0 --out "$out" -q || true
    echo "$k seed $s: $(( $(date +%s) - t0 )) s" >&2
  done
done

python3 - "$W" "$SEEDS" $SEARCHES <<'PY'
import json, statistics, sys
w, seeds, searches = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def slow(v):
    return " " in v["query"] and v["rows"] > 800
noise = []
print(f"{'search':8} {'found':>7} {'to first':>9} {'worst slow':>11} {'tried':>6} {'runs':>5}")
for k in searches:
    found, first, worst, tried, runs = 0, [], 0, [], []
    for s in range(1, seeds + 1):
        d = json.load(open(f"{w}/{k}-{s}/explore.json"))
        c = sorted(d["candidates"], key=lambda c: c["order"])
        hits = [x["order"] for x in c if x["status"] == "ok" and slow(x["values"])]
        found += bool(hits)
        if hits: first.append(min(hits))
        worst += bool(d["worst"]) and slow(d["worst"]["values"])
        tried.append(d["tried"]); runs.append(d["runs"])
        noise += [x["screen_ms"] for x in c
                  if x["status"] == "ok" and not slow(x["values"])]
    mf = f"{statistics.mean(first):.1f}" if first else "-"
    print(f"{k:8} {found:>3}/{seeds:<3} {mf:>9} {worst:>7}/{seeds:<3} "
          f"{statistics.mean(tried):>6.1f} {statistics.mean(runs):>5.1f}")
if len(noise) > 1:
    print(f"\nscreening pairs on inputs that are not slow: {len(noise)}, "
          f"mean {statistics.mean(noise):+.2f} ms, sd {statistics.stdev(noise):.2f} ms")
print(f"\n(explore.json files in {w})")
PY

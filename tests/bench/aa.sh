#!/bin/sh
# False alarms in A/A runs (issue 25; README, "Accuracy"): compares each
# demo app's build with itself RUNS times in headless Chromium and counts
# the runs that named anything (a regression-cause, a spread-out cause) or
# exited other than 0. --load keeps both cores busy with two other
# processes for the whole time; give the sanitizer build's zamcap to
# measure it there. Figures only: a count per app, the causes it named.
# Usage: tests/bench/aa.sh [--zamcap PATH] [--runs N] [--pairs P]
#                          [--apps todo,search] [--load] [--out DIR]
set -eu
cd "$(dirname "$0")/../.."
z=build/zamcap
runs=20
pairs=3
apps=todo,search
load=0
out=
while [ $# -gt 0 ]; do
  case $1 in
    --zamcap) z=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --pairs) pairs=$2; shift 2 ;;
    --apps) apps=$2; shift 2 ;;
    --load) load=1; shift ;;
    --out) out=$2; shift 2 ;;
    *) echo "aa.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -x "$z" ] || { echo "aa.sh: no zamcap at $z (build first)" >&2; exit 2; }
[ -n "$out" ] || out=$(mktemp -d /tmp/zamcap-aa.XXXXXX)
mkdir -p "$out"
burners=
stop() {
  for p in $burners; do kill "$p" 2>/dev/null || true; done
}
trap stop EXIT INT TERM
if [ "$load" = 1 ]; then
  for i in 1 2; do
    sh -c 'while :; do :; done' &
    burners="$burners $!"
  done
fi
echo "A/A: $runs runs per app, $pairs pairs each, load $load, $z; output in $out"
for app in $(echo "$apps" | tr , ' '); do
  alarms=0
  for i in $(seq 1 "$runs"); do
    o="$out/$app-$i"
    rc=0
    "$z" "scenarios/demo/$app.json" --old "scenarios/demo/$app/old" \
      --new "scenarios/demo/$app/old" --pairs "$pairs" --out "$o" -q \
      --no-history >/dev/null 2>"$o.err" || rc=$?
    named=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(" ".join("%s%+.1f" % (c["name"], c["delta_ms"])
               for c in r["regression_causes"] + r["spread_causes"]))
' "$o/report.json" 2>/dev/null || echo "(no report)")
    if [ "$rc" != 0 ] || [ -n "$named" ]; then
      alarms=$((alarms + 1))
      echo "  $app run $i: exit $rc, named: ${named:-nothing}"
    fi
  done
  echo "$app: $alarms false alarm(s) in $runs A/A runs"
done

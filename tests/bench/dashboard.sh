#!/bin/sh
# zamcap dashboard on 10 000 recorded runs over 50 flows
# (docs/cmd/zamcap-dashboard.md, "Performance"): fills a SQLite history
# with zc_bench_dashboard, then times `zamcap dashboard` over all of it
# and for one flow, best and median of 7, with its peak memory and the
# site's size.
# Usage: tests/bench/dashboard.sh [BUILD_DIR] [RUNS] [SCENARIOS]
set -eu
build=${1:-build}
runs=${2:-10000}
scns=${3:-50}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db=$tmp/history.db
t0=$(date +%s.%N)
"$build/tests/zc_bench_dashboard" "$db" "$runs" "$scns"
t1=$(date +%s.%N)
echo "filled $runs runs over $scns flows in $(echo "$t1 - $t0" | bc) s ($(du -k "$db" | cut -f1) KB)"
z="$build/zamcap"
time_it() { # label, then the command
  label=$1
  shift
  for i in 1 2 3 4 5 6 7; do
    a=$(date +%s%N)
    "$@" >/dev/null 2>&1
    b=$(date +%s%N)
    echo $(((b - a) / 1000))
  done | sort -n | awk -v l="$label" '{v[NR]=$1} END {
    printf "%-40s best %.0f ms, median %.0f ms\n", l, v[1]/1000, v[4]/1000}'
}
time_it "zamcap dashboard ($scns flows)" "$z" dashboard --history "$db" --out "$tmp/site"
time_it "zamcap dashboard flow-07" "$z" dashboard --history "$db" --out "$tmp/one" flow-07
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f "peak memory: %M KB" "$z" dashboard --history "$db" --out "$tmp/site" -q >/dev/null
fi
echo "site: $(ls "$tmp/site" | wc -l) files, $(du -sk "$tmp/site" | cut -f1) KB;" \
  "largest page $(ls -S "$tmp/site" | head -n 1 | xargs -I{} du -k "$tmp/site/{}" | cut -f1) KB," \
  "$(grep -o '<circle class="pt' "$tmp/site/flow-07-"*.html | wc -l) points drawn on flow-07's page"

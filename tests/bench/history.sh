#!/bin/sh
# zamcap history on 10 000 recorded runs (README, "Performance"): fills a
# SQLite history with zc_bench_history, then times `zamcap history` over
# all of it (text and json) and for one scenario, best and median of 7.
# Usage: tests/bench/history.sh [BUILD_DIR] [RUNS]
set -eu
build=${1:-build}
runs=${2:-10000}
db=$(mktemp -d)/history.db
trap 'rm -rf "$(dirname "$db")"' EXIT
t0=$(date +%s.%N)
"$build/tests/zc_bench_history" "$db" "$runs"
t1=$(date +%s.%N)
echo "filled $runs runs in $(echo "$t1 - $t0" | bc) s ($(du -k "$db" | cut -f1) KB)"
time_it() { # label, then the command
  label=$1
  shift
  for i in 1 2 3 4 5 6 7; do
    a=$(date +%s%N)
    "$@" >/dev/null
    b=$(date +%s%N)
    echo $(((b - a) / 1000))
  done | sort -n | awk -v l="$label" '{v[NR]=$1} END {
    printf "%-34s best %.1f ms, median %.1f ms\n", l, v[1]/1000, v[4]/1000}'
}
z="$build/zamcap"
time_it "zamcap history (text)" "$z" history --history "$db"
time_it "zamcap history --format json" "$z" history --history "$db" --format json
time_it "zamcap history flow-07" "$z" history flow-07 --history "$db"
"$z" history --history "$db" | head -n 1

#!/usr/bin/env bash
# The ZAM paper's accuracy experiment (section 5.2) for zamcap, as one command.
#   tests/eval/run.sh [--quick] [--subjects a,b] [--injections N] [--pairs P]
#                     [--seed S] [--out DIR] [--reanalyze DIR] ...
# Builds build-eval/zamcap (incrementally, every time), fetches the subjects' npm
# libraries, then runs tests/eval/zameval.py (see tests/eval/README.md).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
zamcap=$root/build-eval/zamcap
own=1
for a in "$@"; do case $a in --zamcap=*) zamcap=${a#--zamcap=}; own=0 ;; esac; done
if [ $own = 1 ]; then
  # Always brought up to date (a no-op when it is): a stale binary would
  # measure yesterday's zamcap.
  [ -f "$root/build-eval/CMakeCache.txt" ] ||
    cmake -S "$root" -B "$root/build-eval" -G Ninja >/dev/null
  echo "run.sh: building $zamcap" >&2
  nice -n 10 cmake --build "$root/build-eval" --target zamcap >/dev/null
fi
case " $* " in
  *" --reanalyze "*) ;;
  *) "$here/fetch-libs.sh" ;;
esac
exec python3 "$here/zameval.py" --zamcap "$zamcap" "$@"

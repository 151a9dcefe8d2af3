#!/usr/bin/env bash
# The ZAM paper's accuracy experiment (section 5.2) for zamcap, as one command.
#   tests/eval/run.sh [--quick] [--subjects a,b] [--injections N] [--pairs P]
#                     [--seed S] [--out DIR] [--reanalyze DIR] ...
# Builds build-eval/zamcap when it is missing, fetches the subjects' npm
# libraries, then runs tests/eval/zameval.py (see tests/eval/README.md).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
zamcap=$root/build-eval/zamcap
for a in "$@"; do case $a in --zamcap=*) zamcap=${a#--zamcap=} ;; esac; done
if [ ! -x "$zamcap" ]; then
  echo "run.sh: building $zamcap" >&2
  cmake -S "$root" -B "$root/build-eval" -G Ninja >/dev/null
  nice -n 10 cmake --build "$root/build-eval" --target zamcap >/dev/null
fi
case " $* " in
  *" --reanalyze "*) ;;
  *) "$here/fetch-libs.sh" ;;
esac
exec python3 "$here/zameval.py" --zamcap "$zamcap" "$@"

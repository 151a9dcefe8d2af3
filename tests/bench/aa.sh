#!/bin/sh
# False alarms in A/A runs (issue 25; README, "Accuracy"): compares each
# app's build with itself RUNS times in headless Chromium and counts the
# runs that named anything (a regression-cause, a spread-out cause) or
# exited other than 0 and 5; an inconclusive verdict that names nothing
# (exit 5: the end-to-end interval at this many pairs holds the
# threshold) is no alarm, and is counted apart. The apps are the demos todo and search
# (scenarios/demo/APP.json, build scenarios/demo/APP/old) and the accuracy
# experiment's library subjects markdown, highlight, fuzzy, grid and yaml
# (tests/eval/subjects/APP/), and the real regressions' pages, as
# real:NAME (tests/eval/real/NAME/) or heldout:NAME ($ZC_HELDOUT/NAME/,
# tests/eval/heldout by default), each compared on its old build: a
# subject's or a regression's build is made once per invocation in
# OUT/builds/, as the experiment makes its baseline (the page's files,
# then its libraries, libs.txt or old.libs.txt, through
# tests/eval/fetch-libs.sh --copy). --load keeps both cores busy with two other processes for the
# whole time; give the sanitizer build's zamcap to measure it there.
# --order app (the default) runs every run of one app before the next;
# --order round runs run 1 of every app, then run 2, and so on, so that a
# measurement cut short is even across apps. --until HH:MM (UTC, the next
# time it is that) starts no run after that time; the runs done are
# counted. Figures only: per app the runs done, the alarms and what they
# named; OUT/tally.txt has one line per app (app runs alarms
# inconclusive), rewritten
# after every run.
# Usage: tests/bench/aa.sh [--zamcap PATH] [--runs N] [--pairs P]
#                          [--apps todo,search,markdown,heldout:NAME,...]
#                          [--load]
#                          [--order app|round] [--until HH:MM] [--out DIR]
set -eu
cd "$(dirname "$0")/../.."
z=build/zamcap
runs=20
pairs=3
apps=todo,search
load=0
order=app
until=
out=
while [ $# -gt 0 ]; do
  case $1 in
    --zamcap) z=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --pairs) pairs=$2; shift 2 ;;
    --apps) apps=$2; shift 2 ;;
    --load) load=1; shift ;;
    --order) order=$2; shift 2 ;;
    --until) until=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "aa.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -x "$z" ] || { echo "aa.sh: no zamcap at $z (build first)" >&2; exit 2; }
case $order in
  app|round) ;;
  *) echo "aa.sh: --order is app or round, not '$order'" >&2; exit 2 ;;
esac
deadline=
if [ -n "$until" ]; then
  case $until in
    [01][0-9]:[0-5][0-9]|2[0-3]:[0-5][0-9]) ;;
    *) echo "aa.sh: --until takes HH:MM (UTC), not '$until'" >&2; exit 2 ;;
  esac
  # the next time it is HH:MM UTC, in seconds since the epoch
  now=$(date -u +%s)
  deadline=$((now - now % 86400 + ${until%:*} * 3600 + ${until#*:} * 60))
  [ "$deadline" -gt "$now" ] || deadline=$((deadline + 86400))
fi
apps=$(echo "$apps" | tr , ' ')
heldout=${ZC_HELDOUT:-tests/eval/heldout}
# An app's shell variable suffix: its name with every other byte as _.
key() { printf '%s' "$1" | tr -c 'a-zA-Z0-9_' '_'; }
for app in $apps; do
  case $app in
    real:*|heldout:*)
      name=${app#*:}
      base=tests/eval/real
      [ "${app%%:*}" = real ] || base=$heldout
      case $name in
        *[!a-z0-9_.-]*|''|.*) echo "aa.sh: no case '$app'" >&2; exit 2 ;;
      esac
      [ -f "$base/$name/truth.json" ] ||
        { echo "aa.sh: no case '$app' ($base/$name)" >&2; exit 2; } ;;
    *[!a-z0-9_]*|'') echo "aa.sh: no app '$app'" >&2; exit 2 ;;
    *)
      [ -f "scenarios/demo/$app.json" ] ||
        [ -f "tests/eval/subjects/$app/scenario.json" ] ||
        { echo "aa.sh: no app '$app' (scenarios/demo, tests/eval/subjects)" >&2
          exit 2; } ;;
  esac
done
[ -n "$out" ] || out=$(mktemp -d /tmp/zamcap-aa.XXXXXX)
mkdir -p "$out"
# Each app's scenario and build, and its tally so far (runs, alarms, named).
# A page's build in DIR: SRC's files but the names after LIBS (its
# metadata), then the libraries of LIBS (a subject or a .libs.txt list).
build() { # SRC DIR LIBS NAME...
  s=$1 d=$2 l=$3
  shift 3
  rm -rf "$d"
  mkdir -p "$d"
  for f in "$s"/*; do
    skip=0
    for x in "$@"; do [ "${f##*/}" != "$x" ] || skip=1; done
    [ "$skip" = 1 ] || cp -R "$f" "$d/"
  done
  tests/eval/fetch-libs.sh --copy "$l" "$d"
}
for app in $apps; do
  k=$(key "$app")
  case $app in
    real:*|heldout:*)
      src=tests/eval/real/${app#*:}
      [ "${app%%:*}" = real ] || src=$heldout/${app#*:}
      scen="$src/scenario.json"
      dir="$out/builds/$k"
      build "$src" "$dir" "$src/old.libs.txt" \
        scenario.json truth.json NOTE.md old.libs.txt new.libs.txt ;;
    *)
      if [ -f "scenarios/demo/$app.json" ]; then
        scen="scenarios/demo/$app.json"
        dir="scenarios/demo/$app/old"
      else
        src="tests/eval/subjects/$app"
        scen="$src/scenario.json"
        dir="$out/builds/$app"
        build "$src" "$dir" "$src" scenario.json libs.txt README.md
      fi ;;
  esac
  eval "scen_$k=\$scen dir_$k=\$dir done_$k=0 alarms_$k=0 named_$k= unsure_$k=0"
done
tally() {
  for a in $apps; do
    k=$(key "$a")
    eval "echo \"$a \$done_$k \$alarms_$k \$unsure_$k\""
  done >"$out/tally.txt.tmp"
  mv "$out/tally.txt.tmp" "$out/tally.txt"
}
summary() { # APP
  d='' n='' w='' u='' k=$(key "$1")
  eval "d=\$done_$k n=\$alarms_$k w=\$named_$k u=\$unsure_$k"
  echo "$1: $n false alarm(s) in $d A/A runs, named: ${w:-nothing}; $u inconclusive naming nothing"
}
timeup() {
  [ -n "$deadline" ] && [ "$(date -u +%s)" -ge "$deadline" ]
}
stopped=0
run() { # APP I: one A/A run
  k=$(key "$1")
  eval "scen=\$scen_$k dir=\$dir_$k"
  o="$out/$k-$2"
  rc=0
  "$z" "$scen" --old "$dir" --new "$dir" --pairs "$pairs" --out "$o" -q \
    --no-history >/dev/null 2>"$o.err" || rc=$?
  named=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(" ".join("%s%+.1f" % (c["name"], c["delta_ms"])
               for c in r["regression_causes"] + r["spread_causes"]))
' "$o/report.json" 2>/dev/null || echo "(no report)")
  eval "done_$k=\$((done_$k + 1))"
  if [ "$rc" = 5 ] && [ -z "$named" ]; then
    eval "unsure_$k=\$((unsure_$k + 1))"
  elif [ "$rc" != 0 ] || [ -n "$named" ]; then
    eval "alarms_$k=\$((alarms_$k + 1))"
    eval "named_$k=\"\${named_$k}\${named_$k:+; }\${named:-exit \$rc}\""
    echo "  $1 run $2: exit $rc, named: ${named:-nothing}"
  fi
  tally
}
burners=
stop() {
  for p in $burners; do kill "$p" 2>/dev/null || true; done
}
trap stop EXIT
trap 'stop; exit 130' INT TERM
if [ "$load" = 1 ]; then
  for i in 1 2; do
    sh -c 'while :; do :; done' &
    burners="$burners $!"
  done
fi
tally
echo "A/A: $runs runs per app, $pairs pairs each, load $load, order $order${until:+, until $until UTC}, $z; output in $out"
if [ "$order" = round ]; then
  for i in $(seq 1 "$runs"); do
    for app in $apps; do
      if timeup; then stopped=1; break 2; fi
      run "$app" "$i"
    done
  done
  [ "$stopped" = 0 ] || echo "(--until $until reached: no further run started)"
  for app in $apps; do
    summary "$app"
  done
else
  for app in $apps; do
    for i in $(seq 1 "$runs"); do
      if timeup; then stopped=1; break; fi
      run "$app" "$i"
    done
    summary "$app"
  done
  [ "$stopped" = 0 ] || echo "(--until $until reached: no further run started)"
fi

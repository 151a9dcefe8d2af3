#!/usr/bin/env bash
# The bisection benchmark (issue 22's goals): a 16-build series and a
# 24-commit history, each with one regression, and a 16-build A/A series,
# made from tests/agent/bisectapp; for each, zamcap bisect's answer, the
# traced runs it made and its wall time. Figures only; real headless
# Chromium and git.
#
#   bash tests/bench/bisect.sh [build/zamcap]
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
ZAMCAP=$(realpath "${1:-build/zamcap}")
APP=$ROOT/tests/agent/bisectapp
W=$(mktemp -d /tmp/zc-bisect-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT

# app DIR PARSE NOTE: the test app with PARSE million extra steps in
# parseRows (0: none), a comment NOTE
app() {
  mkdir -p "$1"
  cp "$APP/index.html" "$1/"
  cat > "$1/app.js" <<JS
// bisect bench app $3
function spinWork(units) {
  let s = 0;
  for (let i = 0; i < units * 1000000; i++) s += Math.sqrt(i) % 7;
  return s;
}
function parseRows() {
  let s = spinWork(1);
  for (let i = 0; i < $2 * 1000000; i++) s += Math.sqrt(i) % 5;
  return s;
}
document.getElementById('run').addEventListener('click', function onRun() {
  const out = document.getElementById('out');
  out.textContent = 'done ' + Math.round(parseRows());
  out.className = 'done';
});
JS
}

# report OUT WANT: the culprit found against the one wanted, runs, time
report() {
  python3 - "$1/report.json" "$2" "$3" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
c = r["culprits"]
got = c[0]["index"] if c else None
print(f"  culprit: {got} (wanted {sys.argv[2]}), exit {r['verdict']['exit_code']}, "
      f"{r['verdict']['traced_runs']} traced runs, {sys.argv[3]} s")
PY
}

echo "16 builds, the regression from build 11 on:"
b=()
for k in $(seq 0 15); do
  app "$W/s/b$k" $([ "$k" -ge 11 ] && echo 12 || echo 0) "b$k"
  b+=("$W/s/b$k")
done
t0=$(date +%s)
"$ZAMCAP" bisect "$APP/bisect.json" -q --builds "${b[@]}" --out "$W/s/out" || true
report "$W/s/out" 11 $(( $(date +%s) - t0 ))

echo "24 commits after the good one, the regression at commit 17:"
git init -q "$W/g" && git -C "$W/g" config user.email b@example.com &&
  git -C "$W/g" config user.name bench
for k in $(seq 0 24); do
  app "$W/g" $([ "$k" -ge 17 ] && echo 12 || echo 0) "c$k"
  git -C "$W/g" add -A && git -C "$W/g" commit -qm "c$k"
done
t0=$(date +%s)
"$ZAMCAP" bisect "$APP/bisect.json" -q --git HEAD~24..HEAD --repo "$W/g" \
  --build true --dist . --out "$W/g-out" || true
report "$W/g-out" 17 $(( $(date +%s) - t0 ))

echo "16 builds, A/A:"
b=()
for k in $(seq 0 15); do app "$W/a/b$k" 0 "b$k"; b+=("$W/a/b$k"); done
t0=$(date +%s)
rc=0
"$ZAMCAP" bisect "$APP/bisect.json" -q --builds "${b[@]}" --out "$W/a/out" || rc=$?
n=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(sum(1 for x in r['runs'] if x['status']=='ok'))" "$W/a/out/confirm/report.json" 2>/dev/null || echo '?')
echo "  exit $rc, $n traced runs (the ends only), $(( $(date +%s) - t0 )) s"

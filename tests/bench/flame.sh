#!/usr/bin/env bash
# Flame graph benchmark: a profile of 100 000 functions in a random tree,
# compared with zamcap, then report.html opened in headless Chromium and
# drawn, zoomed and searched; prints the times (nothing asserted; README
# records them). Needs Node.js 20 or later (for its WebSocket), which the
# project's setup does not install: apt-get install nodejs.
# usage: tests/bench/flame.sh [ZAMCAP]
set -euo pipefail
cd "$(dirname "$0")/../.."
ZAMCAP=$(realpath "${1:-build/zamcap}")
command -v node >/dev/null || { echo "flame.sh: needs node (apt-get install nodejs)"; exit 0; }
WORK=$(mktemp -d)
CPID=
cleanup() {
  if [ -n "$CPID" ]; then kill "$CPID" 2>/dev/null; wait "$CPID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$WORK/old" "$WORK/new"
python3 - "$WORK" <<'PY'
import json, random, sys
for side, seed in (('old', 1), ('new', 2)):
    rnd = random.Random(7)  # the same tree on both sides
    nodes = [{"id": 1, "callFrame": {"functionName": "(root)", "url": "",
              "lineNumber": -1, "columnNumber": -1}, "children": []}]
    for i in range(2, 100002):
        p = rnd.randint(max(1, i - 50), i - 1)
        nodes.append({"id": i, "callFrame": {"functionName": "f%d" % i,
                      "url": "http://x/app.js", "lineNumber": i,
                      "columnNumber": 0}, "children": []})
        nodes[p - 1]["children"].append(i)
    r = random.Random(seed)
    samples = [r.randint(2, 100001) for _ in range(300000)]
    json.dump({"nodes": nodes, "startTime": 0, "endTime": len(samples) * 100,
               "samples": samples, "timeDeltas": [100] * len(samples)},
              open('%s/%s/run-1.cpuprofile' % (sys.argv[1], side), 'w'))
PY
"$ZAMCAP" compare "$WORK/old" "$WORK/new" --format json,html --out "$WORK/out" -q >/dev/null || true
echo "report.html: $(stat -c %s "$WORK/out/report.html") bytes"
chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run \
  --user-data-dir="$WORK/profile" --remote-debugging-port=9339 about:blank \
  >/dev/null 2>&1 &
CPID=$!
sleep 2
node --experimental-websocket tests/bench/flame-measure.mjs 9339 \
  "file://$WORK/out/report.html" 2>/dev/null

#!/usr/bin/env python3
"""How often sampled allocation noise alone names a function in an A/A.

Give it heap profiles of one build (the .heapprofile files of several
`zamcap ... --old B --new B --memory` runs). It weighs one function's call
tree in each, then draws A/As from them at random (k pairs of distinct
profiles) and counts how many would name the function as an allocation
cause: under the rule before the sampling test (every pair's Δ at least μ,
and from 3 pairs the paired 95 % interval above 0) and with it (the
99 % interval of the mean Δ at or above μ, the sampling's noise taken as
sqrt(interval * bytes)). See docs/memory.md.

    python3 tests/eval/memnoise.py --function onRun RUNS/*/traces/*-mem-*.heapprofile
"""
import argparse
import json
import math
import random
import statistics

# two-sided 95 % t quantiles by degrees of freedom, as analysis/ uses
T95 = {2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306}


def weight(node, name, inside=False):
    """Bytes allocated by name's call trees (its callees included)."""
    inside = inside or node.get("callFrame", {}).get("functionName") == name
    own = node.get("selfSize", 0) if inside else 0
    return own + sum(weight(c, name, inside) for c in node.get("children", []))


def named(d, w, k, mu, interval, sampled):
    if min(d) < mu:
        return False
    if k >= 3:
        m, sd = statistics.mean(d), statistics.stdev(d)
        if m - T95[k - 1] * sd / math.sqrt(k) <= 0:
            return False
    if not sampled:
        return True
    return sum(d) - 2.58 * math.sqrt(interval * sum(w)) >= k * mu


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--function", required=True)
    ap.add_argument("--mu-kb", type=float, default=256)
    ap.add_argument("--interval", type=float, default=32768)
    ap.add_argument("--draws", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("profiles", nargs="+")
    a = ap.parse_args()
    ws = []
    for p in a.profiles:
        with open(p) as f:
            ws.append(weight(json.load(f)["head"], a.function))
    if len(ws) < 4:
        ap.error("need at least 4 profiles")
    print(f"{len(ws)} profiles: {a.function} {statistics.mean(ws) / 1024:.0f} KB "
          f"a run, sd {statistics.stdev(ws) / 1024:.0f} KB measured, "
          f"{math.sqrt(a.interval * statistics.mean(ws)) / 1024:.0f} KB "
          f"from the sampling")
    rnd = random.Random(a.seed)
    mu = a.mu_kb * 1024
    for k in (1, 2, 3, 5):
        if 2 * k > len(ws):
            break
        before = after = 0
        for _ in range(a.draws):
            s = rnd.sample(ws, 2 * k)
            d = [s[2 * i + 1] - s[2 * i] for i in range(k)]
            w = [s[2 * i + 1] + s[2 * i] for i in range(k)]
            before += named(d, w, k, mu, a.interval, False)
            after += named(d, w, k, mu, a.interval, True)
        print(f"{k} pair{'s' if k > 1 else ' '}: named in "
              f"{100 * before / a.draws:.3f} % of A/As before, "
              f"{100 * after / a.draws:.3f} % with the sampling test")


if __name__ == "__main__":
    main()

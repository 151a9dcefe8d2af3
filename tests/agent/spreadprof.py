#!/usr/bin/env python3
"""A Node .cpuprofile in which one helper is called from SITES call sites,
each a task of its own (site0 > helper, site1 > helper, ...), with
HELPER_MS of helper time at each and each site's own work jittered by
SEED: a regression spread over call paths that share no caller, for the
spread-out regression-cause tests.

    spreadprof.py SITES HELPER_MS SEED OUT
"""
import json
import random
import sys


def frame(name, line):
    return {"functionName": name, "url": "http://x/app.js",
            "lineNumber": line, "columnNumber": 0}


def profile(sites, helper_ms, seed):
    rnd = random.Random(seed)
    nodes = [{"id": 1, "callFrame": frame("(root)", -1), "children": []}]
    samples = []
    for s in range(sites):
        site, helper = len(nodes) + 1, len(nodes) + 2
        nodes[0]["children"].append(site)
        nodes.append({"id": site, "callFrame": frame("site%d" % s, 10 + s),
                      "children": [helper]})
        nodes.append({"id": helper, "callFrame": frame("helper", 3),
                      "children": []})
        samples += [site] * (20 + rnd.randint(-2, 2))
        samples += [helper] * int(helper_ms)
    n = len(samples)  # one sample a millisecond
    return {"nodes": nodes, "startTime": 0, "endTime": n * 1000,
            "samples": samples, "timeDeltas": [1000] * n}


def main():
    sites, helper_ms, seed = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
    with open(sys.argv[4], "w") as f:
        json.dump(profile(sites, helper_ms, seed), f)


main()

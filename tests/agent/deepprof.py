#!/usr/bin/env python3
"""A Node .cpuprofile whose samples all lie at the end of one call path
DEPTH calls deep (main > walk > walk > ... > leafWork), for MS ms; the
leaf's name is padded to LEAF_NAME_LENGTH bytes when that is given.

    deepprof.py DEPTH MS OUT [LEAF_NAME_LENGTH]
"""
import json
import sys


def frame(name, line):
    return {"functionName": name, "url": "http://x/app.js",
            "lineNumber": line, "columnNumber": 0}


def profile(depth, ms, leaf):
    nodes = [{"id": 1, "callFrame": frame("(root)", -1), "children": [2]}]
    for d in range(depth):
        nodes.append({"id": d + 2, "callFrame": frame("walk" if d else "main",
                                                      3 if d else 1),
                      "children": [d + 3]})
    last = depth + 2
    nodes.append({"id": last, "callFrame": frame(leaf, 9), "children": []})
    n = int(ms)  # one sample a millisecond
    return {"nodes": nodes, "startTime": 0, "endTime": n * 1000,
            "samples": [last] * n, "timeDeltas": [1000] * n}


def main():
    depth, ms, out = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
    leaf = "leafWork"
    if len(sys.argv) > 4:
        leaf += "_" * (int(sys.argv[4]) - len(leaf))
    with open(out, "w") as f:
        json.dump(profile(depth, ms, leaf), f)


main()

#!/usr/bin/env python3
"""A Node .cpuprofile whose samples all lie at the end of one call path
DEPTH calls deep (main > walk > walk > ... > leafWork), for MS ms.

    deepprof.py DEPTH MS OUT
"""
import json, sys
def prof(depth, ms):
    nodes = [{"id": 1, "callFrame": {"functionName": "(root)", "url": "", "lineNumber": -1, "columnNumber": -1}, "children": [2]}]
    nid = 2
    for d in range(depth):
        nodes.append({"id": nid, "callFrame": {"functionName": "walk" if d else "main", "url": "http://x/app.js", "lineNumber": 3 if d else 1, "columnNumber": 0}, "children": [nid + 1]})
        nid += 1
    nodes.append({"id": nid, "callFrame": {"functionName": "leafWork", "url": "http://x/app.js", "lineNumber": 9, "columnNumber": 0}, "children": []})
    n = int(ms)
    return {"nodes": nodes, "startTime": 0, "endTime": n * 1000, "samples": [nid] * n, "timeDeltas": [1000] * n}
d, ms, out = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
json.dump(prof(d, ms), open(out, "w"))

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare a lava-run log with expected.txt (make lava-jobs LAVA_RUN=1).

    lava-results.py LAVA_RUN_LOG EXPECTED MONITOR

lava-run logs one JSON object per line; results are those with
"lvl": "results" whose definition is not LAVA's own.  Every case that
expected.txt lists for MONITOR must be there with its expected result.
"""
import json
import sys


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    log, expected, monitor = argv
    got = {}
    with open(log, errors="replace") as f:
        for line in f:
            try:
                m = json.loads(line)
            except ValueError:
                continue
            r = m.get("msg") if m.get("lvl") == "results" else None
            if isinstance(r, dict) and r.get("definition") not in (None, "lava"):
                got[r.get("case")] = r.get("result")
    with open(expected) as f:
        want = [l.split() for l in f if l.strip() and not l.startswith("#")]
    want = [w for w in want if w[0] == monitor]
    bad = [w for w in want if got.get(w[1]) != w[2]]
    print("lava-jobs: lava-run: %d of %d expected results" % (len(want) - len(bad), len(want)))
    for w in bad:
        print("lava-jobs: lava-run: %s: want %s, got %s" % (w[1], w[2], got.get(w[1])))
    return 1 if bad or not want else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

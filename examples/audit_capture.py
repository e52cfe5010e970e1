#!/usr/bin/env python3
"""audit_capture.py DEPS_JSON: loads a captured deps.json with `import depgraph`, audits it
(what `depgraph audit` does) and prints how many races it found, by kind; the same line as the
C++ example audit_capture.cpp.

    $ PYTHONPATH=build/python python3 examples/audit_capture.py data/real/dep_probe/default/deps.json
    data/real/dep_probe/default/deps.json: 15 race(s) (RAW 5, WAW 1, WAR 9)
"""

import sys

import depgraph


def main(argv):
    if len(argv) != 2:
        print("usage: audit_capture.py DEPS_JSON", file=sys.stderr)
        return 2
    path = argv[1]
    try:
        report = depgraph.audit(depgraph.load(path))
    except depgraph.Error as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    races = report.data["races"]
    kinds = ", ".join(f"{kind} {races[kind]}" for kind in ("RAW", "WAW", "WAR"))
    print(f"{path}: {races['total']} race(s) ({kinds})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Per-folder line and branch coverage from gcovr's JSON summary, and the floors.

Usage: coverage_folders.py SUMMARY.json MIN_LINES MIN_BRANCHES
Prints each folder of src/ and the total; exits 1 when the total is below
either floor (percent), naming which.
"""
import collections
import json
import sys


def main():
    summary, min_lines, min_branches = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    with open(summary, encoding="utf-8") as f:
        files = json.load(f)["files"]
    folders = collections.defaultdict(lambda: [0, 0, 0, 0])
    for entry in files:
        folder = entry["filename"].rsplit("/", 1)[0]
        for key, value in zip(("line_covered", "line_total", "branch_covered", "branch_total"),
                              range(4)):
            folders[folder][value] += entry[key]
    total = [sum(v[i] for v in folders.values()) for i in range(4)]

    def pct(covered, count):
        return 100.0 * covered / count if count else 100.0

    print(f"{'folder':24} {'lines':>16} {'branches':>16}")
    for name in sorted(folders) + ["total"]:
        v = total if name == "total" else folders[name]
        print(f"{name:24} {pct(v[0], v[1]):6.1f}% of {v[1]:5d} {pct(v[2], v[3]):6.1f}% of {v[3]:5d}")
    lines, branches = pct(total[0], total[1]), pct(total[2], total[3])
    low = []
    if lines < min_lines:
        low.append(f"lines {lines:.1f}% < {min_lines}%")
    if branches < min_branches:
        low.append(f"branches {branches:.1f}% < {min_branches}%")
    if low:
        print("coverage below its floor: " + ", ".join(low))
        return 1
    print(f"coverage floors met: lines >= {min_lines}%, branches >= {min_branches}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())

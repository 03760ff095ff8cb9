#!/usr/bin/env python3
"""Checks the family table of docs/architecture.md against the tree.

The table sits between the `<!-- families -->` markers: one row per op
family, its first cell the family's name, the others the family's files in
each layer, each in backticks. Every file named must exist, and its base
name must start with the family's name (with `test_` allowed before it), so
that `git ls-files '*NAME*'` finds the whole family. Usage:
check_families.py ROOT (exit 0 when the table matches the tree).
"""
import os
import re
import sys


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    text = open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8").read()
    m = re.search(r"<!-- families -->(.*?)<!-- /families -->", text, re.S)
    if not m:
        sys.exit("check_families: docs/architecture.md has no <!-- families --> table")
    problems, families, files = [], 0, 0
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or cells[0] in ("family", "") or set(cells[0]) <= set("-: "):
            continue
        family = cells[0].strip("`* ")
        families += 1
        for path in re.findall(r"`([^`]+)`", " ".join(cells[1:])):
            files += 1
            base = os.path.basename(path.rstrip("/"))
            if not os.path.exists(os.path.join(root, path)):
                problems.append(f"{family}: {path} does not exist")
            elif not re.match(rf"(test_(\w+_)?)?{re.escape(family)}", base):
                problems.append(f"{family}: {path} is not named after the family")
    if families == 0:
        problems.append("the family table has no rows")
    for p in problems:
        print(p)
    print(f"check_families: {families} families, {files} files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

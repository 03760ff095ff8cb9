#!/usr/bin/env python3
"""The fenced blocks of docs/writing-a-plugin.md that the install test holds
to the truth. A block is marked by the HTML comment on the line before it:

  <!-- install-test: run -->              shell commands the test runs, in order,
                                          in an empty folder, with PREFIX set
  <!-- install-test: file NAME -->        the whole of tests/install/acme/NAME
  <!-- install-test: excerpt NAME -->     a verbatim run of lines of that file
  <!-- install-test: output KEY -->       output the test compares with what it got

  doc_blocks.py script DOC OUT            write the run blocks to OUT
  doc_blocks.py check DOC ACME_DIR KEY=FILE...
        check the file and excerpt blocks against ACME_DIR, and each output
        block KEY against FILE (paths in parentheses are not compared)
"""
import re
import sys

MARK = re.compile(r"^<!-- install-test: (\w+)(?: (\S+))? -->$")


def blocks(doc):
    lines = open(doc, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = MARK.match(lines[i])
        i += 1
        if not m:
            continue
        if i >= len(lines) or not lines[i].startswith("```"):
            sys.exit(f"{doc}:{i}: a marker must be followed by a fenced block")
        start = i + 1
        end = start
        while end < len(lines) and lines[end] != "```":
            end += 1
        yield m.group(1), m.group(2), start, "\n".join(lines[start:end]) + "\n"
        i = end + 1


def unpath(text):
    return re.sub(r" \(/[^)]*\)", " (PATH)", text)


def main():
    mode, doc = sys.argv[1], sys.argv[2]
    if mode == "script":
        runs = [b[3] for b in blocks(doc) if b[0] == "run"]
        if not runs:
            sys.exit(f"{doc}: no run blocks")
        with open(sys.argv[3], "w", encoding="utf-8") as out:
            out.write("set -euo pipefail\n" + "".join(runs))
        return
    acme = sys.argv[3]
    outputs = dict(arg.split("=", 1) for arg in sys.argv[4:])
    problems = []
    seen = set()
    for kind, name, line, text in blocks(doc):
        where = f"{doc}:{line}"
        if kind in ("file", "excerpt"):
            whole = open(f"{acme}/{name}", encoding="utf-8").read()
            if kind == "file" and text != whole:
                problems.append(f"{where}: the block is not {name} as the test builds it")
            if kind == "excerpt" and ("\n" + text) not in ("\n" + whole):
                problems.append(f"{where}: the block is not an excerpt of {name}")
        elif kind == "output":
            seen.add(name)
            if name not in outputs:
                problems.append(f"{where}: no output '{name}' to compare with")
                continue
            got = unpath(open(outputs[name], encoding="utf-8").read())
            if unpath(text) not in got:
                problems.append(f"{where}: the doc shows\n{text}but the test got\n{got}")
        elif kind != "run":
            problems.append(f"{where}: unknown marker '{kind}'")
    problems += [f"{doc}: no output block '{k}'" for k in outputs if k not in seen]
    for p in problems:
        print(p, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()

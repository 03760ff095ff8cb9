#!/usr/bin/env python3
"""Checks that the core's layers call downward only.

Reads the layer table of docs/architecture.md (the rows between the
`<!-- layers -->` markers: layer, files, ...), in order from the bottom
layer up. Every file of core/ belongs to the first row whose paths match it
(a path ending in '/' is a folder). A file may include the internal headers
and call the functions of its own layer and the layers above it in the
table, never of a layer below it in the table (that is, above it in the
stack). Functions are matched by name: every non-static `tsr_`/`tsr__`
function defined in a core .c file belongs to that file's layer.

Usage: check_layers.py ROOT    (exit 0 when clean, 1 with one line per breach)
"""
import os
import re
import sys


def read_layers(root):
    text = open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8").read()
    m = re.search(r"<!-- layers -->(.*?)<!-- /layers -->", text, re.S)
    if not m:
        sys.exit("check_layers: docs/architecture.md has no <!-- layers --> table")
    layers = []
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or cells[0] in ("layer", "") or set(cells[0]) <= set("-: "):
            continue
        paths = re.findall(r"`([^`]+)`", cells[1])
        layers.append((cells[0], paths))
    return layers


def layer_of(layers, rel):
    for rank, (_, paths) in enumerate(layers):
        for p in paths:
            if rel == p or (p.endswith("/") and rel.startswith(p)):
                return rank
    return None


DEFINITION = re.compile(r"^(?!static\b)[A-Za-z_][\w \*]*?\b(tsr_\w+)\s*\([^;]*$")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    layers = read_layers(root)
    sources = {}
    for folder, _, names in os.walk(os.path.join(root, "core")):
        for name in names:
            if name.endswith((".c", ".h")):
                rel = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
                sources[rel] = COMMENT.sub("", open(os.path.join(root, rel), encoding="utf-8").read())
    breaches = []
    unplaced = [f for f in sources if layer_of(layers, f) is None]
    breaches += [f"{f}: in no layer of docs/architecture.md" for f in sorted(unplaced)]
    defined = {}
    for f, text in sources.items():
        if f.endswith(".c"):
            for line in text.splitlines():
                m = DEFINITION.match(line)
                if m:
                    defined.setdefault(m.group(1), f)
    for f in sorted(set(sources) - set(unplaced)):
        rank, text = layer_of(layers, f), sources[f]
        for inc in re.findall(r'#include "([^"]+)"', text):
            target = layer_of(layers, "core/" + inc)
            if target is not None and target > rank:
                breaches.append(f"{f}: includes {inc} of layer {layers[target][0]}, above "
                                f"{layers[rank][0]}")
        for name in sorted(set(re.findall(r"\b(tsr_\w+)\s*\(", text))):
            home = defined.get(name)
            target = layer_of(layers, home) if home else None
            if target is not None and target > rank:
                breaches.append(f"{f}: calls {name} ({home}, layer {layers[target][0]}), above "
                                f"{layers[rank][0]}")
    for b in breaches:
        print(b)
    print(f"check_layers: {len(sources)} files in {len(layers)} layers, {len(breaches)} breaches")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())

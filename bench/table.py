"""Prints tessera-bench's JSON as a Markdown table (for docs/performance.md).

    /usr/bin/python3 bench/table.py bench-results.json [torch-avx512.json]

A second file, from a run with ATEN_CPU_CAPABILITY=avx512, adds PyTorch's
AVX-512 figures as one more column.
"""
import json
import sys


def cell(value, digits=3):
    return "–" if value is None else f"{value:.{digits}g}"


def ratio(value):
    return "–" if value is None else f"{value:.2f}×"


def main(path, avx512_path=None):
    with open(path) as f:
        run = json.load(f)
    avx512 = {}
    if avx512_path:
        with open(avx512_path) as f:
            avx512 = {e["name"]: e for e in json.load(f)["entries"]}
    head = ["entry", "shape", "unit", "tessera", "torch", "limit", "vs torch", "vs limit",
            "limit is", "target", ""]
    if avx512:
        head[7:7] = ["torch avx512", "vs torch avx512"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for e in run["entries"]:
        row = [f"`{e['name']}`", e["shape"], e["unit"], cell(e["tessera"]), cell(e["torch"]),
               cell(e["limit_figure"]), ratio(e["vs_torch"]), ratio(e["vs_limit"]),
               e["limit"] or "–", e["target"].replace(">=", "≥").replace("<=", "≤"),
               "**missed**" if e["verdict"] == "MISSED" else e["verdict"]]
        if avx512:
            other = avx512.get(e["name"], {})
            row[7:7] = [cell(other.get("torch")), ratio(other.get("vs_torch"))]
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))

"""Draws tessera-bench's JSON as a PNG: per entry, tessera's speed relative
to PyTorch and to the raw limit, with the targets marked.

    /usr/bin/python3 bench/plot.py bench-results.json bench-results.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(source, destination):
    with open(source) as f:
        run = json.load(f)
    entries = [e for e in run["entries"] if e["vs_torch"] or e["vs_limit"]]
    names = [e["name"] for e in entries]
    fig, axes = plt.subplots(1, 2, figsize=(13, 0.45 * len(names) + 2), sharey=True)
    for ax, key, title, kind in (
        (axes[0], "vs_torch", "speed vs PyTorch 1.13 (x, log scale)", ">="),
        (axes[1], "vs_limit", "fraction of the raw limit (x)", ">="),
    ):
        values = [e[key] or 0 for e in entries]
        colors = []
        for e, v in zip(entries, values):
            goal = e["target"]
            aimed = ("torch" in goal) == (key == "vs_torch") and goal != "-"
            colors.append("#999999" if not aimed else "#2a9d8f" if e["verdict"] == "met"
                          else "#e76f51")
        ax.barh(names, values, color=colors)
        ax.axvline(1.0, color="black", linewidth=0.8)
        for i, e in enumerate(entries):
            goal = e["target"]
            if goal.startswith(">=") and (("torch" in goal) == (key == "vs_torch")):
                ax.plot([float(goal.split()[1].rstrip("x"))] * 2, [i - 0.4, i + 0.4],
                        color="black", linewidth=2)
            if values[i]:
                ax.text(values[i], i, f" {values[i]:.2f}", va="center", fontsize=8)
        if key == "vs_torch":
            ax.set_xscale("log")
        ax.set_title(title)
        ax.invert_yaxis()
    fig.suptitle(f"tessera-bench: backend {run['backend']}, {run['threads']} threads "
                 f"(green: target met, red: missed, black tick: target)")
    fig.tight_layout()
    fig.savefig(destination, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))

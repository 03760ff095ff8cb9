#!/usr/bin/python3
"""Write the golden conformance cases from PyTorch.

Run with Debian's PyTorch (the only Python with torch here):
    /usr/bin/python3 golden/generate.py [--out DIR] [--check]

Clears DIR (default golden/cases next to this script) and writes
DIR/manifest.jsonl plus DIR/<op>/<case>_<slot>.npy in the format of
shared/specs/golden-format.md.  Every case seeds its own RNG from
sha256("op/case"), so output is byte-identical across runs and adding a case
changes no other.  --check re-runs every case from the written files.
Tolerance defaults the runner is assumed to apply are listed in
gen/framework.py and README.md.
"""

import argparse
import collections
import os
import shutil
import sys

sys.dont_write_bytecode = True  # keep gen/ free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

from gen import (binary, binary2, compare, convert, creation, division,  # noqa: E402
                 grads_basic, indexing, inplace, inplace2, joining, nn_act, nn_loss,
                 nn_norm, params, products, reductions, reshaping, scans, selfcheck,
                 sorting, stats, ternary, unary, unary2, views)
from gen.framework import Builder  # noqa: E402

FAMILIES = [
    binary.add_sub_mul,
    division.div,
    division.floor_divide_remainder,
    division.pow_cases,
    division.max_min,
    compare.comparisons,
    compare.logical,
    unary.unary,
    ternary.where,
    ternary.clamp,
    convert.conversions,
    creation.creation,
    views.movement,
    views.copy,
    inplace.inplace,
    binary2.float_binary,
    binary2.bitwise,
    unary2.unary2,
    params.activations,
    params.round_,
    params.nan_to_num,
    params.lerp,
    params.addc,
    inplace2.pow_,
    inplace2.fill_zero,
    inplace2.masked_fill_,
    inplace2.scatter_family,
    inplace2.index_family,
    reductions.sums,
    reductions.prod,
    reductions.extrema,
    reductions.logical,
    stats.variance,
    stats.vector_norm,
    stats.norm,
    stats.logsumexp,
    scans.scans,
    products.binary_products,
    products.add_products,
    products.einsum_tensordot,
    joining.cat_stack,
    joining.splits,
    joining.masking,
    joining.where_grads,
    indexing.selecting,
    indexing.scattering,
    indexing.lookup,
    reshaping.pad,
    reshaping.flip_roll,
    reshaping.repeats,
    reshaping.triangles,
    sorting.sorts,
    sorting.selection,
    sorting.searching,
    sorting.uniques,
    nn_act.softmax,
    nn_act.dropout,
    nn_act.linear,
    nn_act.attention,
    nn_loss.classification,
    nn_loss.regression,
    nn_loss.binary,
    nn_norm.layer_rms,
    nn_norm.batch_group,
    grads_basic.arithmetic,
    grads_basic.unary_math,
    grads_basic.clamp,
    grads_basic.movement,
]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(here, "cases"))
    parser.add_argument("--check", action="store_true",
                        help="re-run every case from the written files and compare")
    opts = parser.parse_args()

    torch.set_num_threads(1)
    builder = Builder()
    for family in FAMILIES:
        family(builder)

    if os.path.isdir(opts.out):
        # Only ever delete a directory that looks like a case set.
        if os.listdir(opts.out) and not os.path.isfile(os.path.join(opts.out, "manifest.jsonl")):
            sys.exit(f"refusing to clear {opts.out}: no manifest.jsonl in it")
        shutil.rmtree(opts.out)
    os.makedirs(opts.out)
    for path in sorted(builder.files):
        full = os.path.join(opts.out, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(builder.files[path])
    with open(os.path.join(opts.out, "manifest.jsonl"), "w", encoding="utf-8") as f:
        for line in builder.manifest_lines():
            f.write(line + "\n")

    counts = collections.Counter(op for op, _ in builder.entries)
    errors = sum(1 for e in builder.entries.values() if "error" in e)
    grads = sum(1 for e in builder.entries.values() if "grad" in e)
    for op in sorted(counts):
        print(f"{op:32s} {counts[op]:5d}")
    print(f"total {len(builder.entries)} cases ({errors} error cases, {grads} with grad), "
          f"{len(builder.files)} files, "
          f"{sum(len(v) for v in builder.files.values())} bytes")
    for note in builder.notes:
        print("note:", note)
    if opts.check:
        problems = selfcheck.check(opts.out, builder.fns)
        for p in problems:
            print("check:", p)
        print(f"self-check: {len(problems)} problems")
        if problems:
            sys.exit(1)


if __name__ == "__main__":
    main()

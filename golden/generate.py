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

from gen import (attention, copy, creation, elementwise2_binary,  # noqa: E402
                 elementwise2_params, elementwise2_unary, elementwise_binary,
                 elementwise_compare, elementwise_division, elementwise_grad,
                 elementwise_unary, elementwise_where, index, inplace, inplace2, join,
                 loss, mask, nn, norm, products, rearrange, reduce, reduce_stats, scan,
                 scatter, selfcheck, softmax, sort, ternary, unique, views,
                 views_grad)
from gen import elementwise_grad_complex  # noqa: E402
from gen import pool  # noqa: E402
from gen import conv  # noqa: E402
from gen import index_embedding, products_chain, products_structured, products_vector  # noqa: E402
from gen import resample  # noqa: E402
from gen import fft  # noqa: E402
from gen import linalg, linalg_spectral  # noqa: E402
from gen.framework import Builder  # noqa: E402

FAMILIES = [
    elementwise_binary.add_sub_mul,
    elementwise_division.div,
    elementwise_division.floor_divide_remainder,
    elementwise_division.pow_cases,
    elementwise_division.max_min,
    elementwise_compare.comparisons,
    elementwise_compare.logical,
    elementwise_unary.unary,
    elementwise_where.where,
    elementwise_where.clamp,
    copy.conversions,
    creation.creation,
    views.movement,
    copy.copy_,
    inplace.inplace,
    elementwise2_binary.float_binary,
    elementwise2_binary.bitwise,
    elementwise2_unary.unary2,
    elementwise2_params.activations,
    elementwise2_params.round_,
    elementwise2_params.nan_to_num,
    ternary.lerp,
    ternary.addc,
    inplace2.pow_,
    inplace2.fill_zero,
    inplace2.masked_fill_,
    inplace2.scatter_family,
    inplace2.index_family,
    reduce.sums,
    reduce.prod,
    reduce.extrema,
    reduce.logical,
    reduce_stats.variance,
    reduce_stats.vector_norm,
    reduce_stats.norm,
    reduce_stats.logsumexp,
    scan.scans,
    products.binary_products,
    products.add_products,
    products.einsum_tensordot,
    join.cat_stack,
    join.splits,
    mask.masking,
    index.nonzero,
    elementwise_where.where_grads,
    index.selecting,
    scatter.scattering,
    index.lookup,
    rearrange.pad,
    rearrange.flip_roll,
    rearrange.repeats,
    rearrange.triangles,
    sort.sorts,
    sort.selection,
    sort.searching,
    unique.uniques,
    softmax.softmax,
    nn.dropout,
    nn.linear,
    attention.attention,
    loss.classification,
    loss.regression,
    loss.binary,
    norm.layer_rms,
    norm.batch_group,
    elementwise_grad.arithmetic,
    elementwise_grad.unary_math,
    elementwise_grad.clamp,
    views_grad.movement,
    elementwise_unary.complex_specials,
    elementwise_grad.relu_nan,
    elementwise_division.pow_complex_accuracy,
    norm.constant_rows,
    products.bfloat16_rounding,
    reduce_stats.bfloat16_norm,
    elementwise_grad_complex.unary,
    elementwise_grad_complex.arithmetic,
    elementwise_grad_complex.ternary,
    elementwise_grad_complex.reductions,
    elementwise_grad_complex.products,
    elementwise_grad_complex.conversions,
    elementwise_grad_complex.movement,
    pool.max_pools,
    pool.avg_pools,
    pool.adaptive_pools,
    pool.max_unpools,
    pool.lp_pools,
    pool.shuffles,
    conv.convolution,
    products_vector.trace_kron,
    products_vector.inner_mv,
    products_vector.add_vector_products,
    products_vector.cross_vecdot,
    products_chain.multi_dot,
    products_chain.matrix_power,
    products_structured.diag_embed,
    products_structured.vander,
    index_embedding.max_norm_and_frequency,
    resample.interpolate,
    resample.upsample_aliases,
    resample.grid_sample,
    resample.affine_grid,
    fft.fft,
    linalg.cholesky,
    linalg.solve_triangular,
    linalg.lu,
    linalg.solve,
    linalg_spectral.spectral,
    linalg_spectral.norms,
    linalg_spectral.matrix_exp,
    linalg_spectral.tensor_ops,
    linalg_spectral.ormqr,
    linalg_spectral.geqrf,
    linalg_spectral.lstsq,
    linalg_spectral.eig,
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

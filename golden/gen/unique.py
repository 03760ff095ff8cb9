"""Sets: unique (output, inverse_indices, counts: only those asked for) and
unique_consecutive (same order).  unique never sees NaN: torch 1.13's CPU
unique gives NaN counts of 0."""

import torch

from .framework import NAMES, SHORT, T

F32, F64 = "float32", "float64"
FLOATS = (F32, F64)


def _ints(dt, vals, shape=None):
    return T(shape or (len(vals),), dt, values=vals)


def _t(torch_fn):
    return lambda input, **kw: torch_fn(input, **kw)


def uniques(b):
    un = _t(torch.unique)
    uc = _t(torch.unique_consecutive)
    flags = [("plain", {}), ("inverse", {"return_inverse": True}),
             ("counts", {"return_counts": True}),
             ("inverse_counts", {"return_inverse": True, "return_counts": True})]
    inputs = [("f32_ties", T((3, 4), F32, "ties")),
              ("i64_ties", T((12,), "int64", "range:0:5")),
              ("f64_transposed", T((4, 3), F64, "ties", ["transpose:0:1"])),
              ("f32_expanded", T((1, 4), F32, "ties", ["expand:3:4"])),
              ("zero_d", T((), F32)), ("empty", T((0, 3), F32)),
              ("f32_signed_zeros_inf", _ints(F32, ["inf", -0.0, 0.0, "-inf", "inf", 1.0]))]
    for name, x in inputs:
        for tag, args in flags:
            b.case("unique", f"{name}_{tag}", un, {"input": x},
                   dict(args, sorted=True, dim=None))
            b.case("unique_consecutive", f"{name}_{tag}", uc, {"input": x},
                   dict(args, dim=None))
    runs = _ints(F32, [1.0, 1.0, 2.0, 2.0, 2.0, 1.0, "nan", "nan", 3.0])
    for tag, args in flags:
        b.case("unique_consecutive", f"runs_with_nan_{tag}", uc, {"input": runs}, args)
        b.case("unique", f"rows_dim0_{tag}", un,
               {"input": _ints("int64", [1, 2, 0, 5, 1, 2, 0, 4], (4, 2))}, dict(args, dim=0))
        b.case("unique_consecutive", f"rows_dim0_{tag}", uc,
               {"input": _ints("int64", [1, 2, 1, 2, 0, 4, 1, 2], (4, 2))}, dict(args, dim=0))
    b.case("unique", "default_args", un, {"input": T((8,), "int64", "range:0:3")})
    for dt in NAMES:
        if dt not in FLOATS:
            x = T((8,), dt, "small")
            b.case("unique", f"{SHORT[dt]}_values", un, {"input": x},
                   {"sorted": True, "return_counts": True}, expect="any")
            b.case("unique_consecutive", f"{SHORT[dt]}_values", uc, {"input": x},
                   {"return_counts": True}, expect="any")
    unique_dims(b)


def unique_dims(b):
    """unique(dim=...): slices in PyTorch's lexicographic order, every flag combination."""
    un = _t(torch.unique)
    inputs = [("i64_dim0", T((6, 3), "int64", "range:0:3"), 0),
              ("i64_dim1", T((3, 7), "int64", "range:0:2"), 1),
              ("f32_3d_dim1", T((2, 6, 2), F32, "range:0:2"), 1),
              ("f64_3d_dim_neg1", T((2, 3, 6), F64, "range:0:2"), -1),
              ("i32_transposed_dim0", T((3, 6), "int32", "range:0:2", ["transpose:0:1"]), 0),
              ("bool_dim0", T((6, 2), "bool"), 0),
              ("f32_signed_zero_dim0", _ints(F32, [0.0, 1.0, -0.0, 1.0, 2.0, -1.0], (3, 2)), 0)]
    for name, x, dim in inputs:
        for srt in (True, False):
            for inv in (False, True):
                for cnt in (False, True):
                    tag = f"{'sorted' if srt else 'unsorted'}{'_inverse' if inv else ''}" \
                          f"{'_counts' if cnt else ''}"
                    b.case("unique", f"dim_{name}_{tag}", un, {"input": x},
                           {"sorted": srt, "return_inverse": inv, "return_counts": cnt,
                            "dim": dim})

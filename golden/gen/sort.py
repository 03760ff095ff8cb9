"""Sorting: sort (values, indices), argsort, topk (values, indices), kthvalue
(values, indices), median (full: value; with dim: values, indices),
searchsorted, bucketize.  unique and unique_consecutive are in unique.py.

Where torch's choice among equal elements is implementation-defined (sort and
argsort with stable=False, topk, kthvalue, median) the inputs have no ties
(value kind "distinct"); stable sorts use inputs with ties.  NaN sorts above
+inf."""

import torch

from .framework import NAMES, SHORT, T, S

F32, F64 = "float32", "float64"
FLOATS = (F32, F64)


def _ints(dt, vals, shape=None):
    return T(shape or (len(vals),), dt, values=vals)


def _t(torch_fn):
    return lambda input, **kw: torch_fn(input, **kw)


SORT_LAYOUTS = [
    ("last_dim", (3, 5), [], {}), ("dim0", (4, 3), [], {"dim": 0}),
    ("negative_dim", (2, 4, 3), [], {"dim": -2}),
    ("transposed", (5, 3), ["transpose:0:1"], {"dim": 1}),
    ("stepped", (3, 10), ["slice:1:0:10:2"], {}),
    ("expanded", (1, 5), ["expand:2:5"], {"dim": 0}),
    ("zero_d", (), [], {}), ("empty", (0, 3), [], {"dim": 0}),
    ("long_vector", (1037,), [], {}),
]
NAN_ROW = [3.0, "nan", 1.0, "-inf", 1.0, "inf", "nan", -0.0, 0.0, -2.5]


def sorts(b):
    sort, argsort = _t(torch.sort), _t(torch.argsort)
    for op, fn in (("sort", sort), ("argsort", argsort)):
        for name, shape, view, args in SORT_LAYOUTS:
            for desc in (False, True):
                tag = f"{name}_descending" if desc else name
                for dt in FLOATS if name != "long_vector" else (F32,):
                    kind = "distinct" if dt == F32 else "ties"
                    a = dict(args, descending=desc, stable=True)
                    grad = ["input"] if op == "sort" and "empty" not in name else None
                    b.case(op, f"{SHORT[dt]}_{tag}", fn, {"input": T(shape, dt, kind, view)}, a,
                           grad=grad)
            b.case(op, f"f32_{name}_unstable_distinct", fn,
                   {"input": T(shape, F32, "distinct", view)}, dict(args, stable=False))
        for desc in (False, True):
            tag = "descending" if desc else "ascending"
            for dt in ("float32", "float64", "float16", "bfloat16"):
                b.case(op, f"{SHORT[dt]}_nan_inf_zeros_{tag}", fn,
                       {"input": _ints(dt, NAN_ROW)}, {"descending": desc, "stable": True})
            b.case(op, f"ties_stable_{tag}", fn, {"input": T((4, 6), F32, "ties")},
                   {"descending": desc, "stable": True})
        b.case(op, "default_args_distinct", fn, {"input": T((3, 4), F32, "distinct")})
        for dt in NAMES:
            if dt not in FLOATS:
                b.case(op, f"{SHORT[dt]}_stable", fn,
                       {"input": T((3, 5), dt, "ties" if dt != "bool" else "normal")},
                       {"stable": True}, expect="any")
        b.case(op, "dim_out_of_range_error", fn, {"input": T((3, 4), F32)}, {"dim": 2},
               expect="error")


def selection(b):
    topk, kth = _t(torch.topk), _t(torch.kthvalue)
    med = _t(torch.median)
    cases = [("last_dim", (3, 6), [], {}), ("dim0", (5, 3), [], {"dim": 0}),
             ("negative_dim", (2, 5, 3), [], {"dim": -2}),
             ("transposed", (5, 3), ["transpose:0:1"], {"dim": 1}),
             ("stepped", (3, 12), ["slice:1:0:12:2"], {}),
             ("long_vector", (257,), [], {})]
    for name, shape, view, args in cases:
        for dt in FLOATS:
            sh = SHORT[dt]
            x = T(shape, dt, "distinct", view)
            for k in (1, 3):
                for largest in (True, False):
                    tag = f"k{k}_{'largest' if largest else 'smallest'}"
                    b.case("topk", f"{sh}_{name}_{tag}", topk, {"input": x},
                           dict(args, k=k, largest=largest, sorted=True), grad=["input"])
            b.case("kthvalue", f"{sh}_{name}_k2", kth, {"input": x}, dict(args, k=2),
                   grad=["input"])
            b.case("kthvalue", f"{sh}_{name}_k_last_keepdim", kth, {"input": x},
                   dict(args, k=3, keepdim=True), grad=["input"])
            b.case("median", f"{sh}_{name}_dim", med, {"input": x},
                   dict(args, dim=args.get("dim", -1)), grad=["input"])
            b.case("median", f"{sh}_{name}_keepdim", med, {"input": x},
                   dict(args, dim=args.get("dim", -1), keepdim=True), grad=["input"])
        b.case("median", f"f32_{name}_full", med, {"input": T(shape, F32, "distinct", view)},
               grad=["input"])
    b.case("median", "f64_even_count_lower", med, {"input": _ints(F64, [4.0, 3.0, 1.0, 2.0])},
           grad=["input"])
    b.case("median", "f32_nan_row", med, {"input": _ints(F32, [3.0, "nan", 1.0, 1.5, 2.0, 3.5],
                                                        (2, 3))}, {"dim": 1})
    b.case("median", "f32_nan_full", med, {"input": _ints(F32, [3.0, "nan", 1.0])})
    b.case("median", "f32_empty_full", med, {"input": T((0,), F32)})
    b.case("median", "f32_empty_rows", med, {"input": T((0, 3), F32)}, {"dim": 1})
    b.case("median", "f32_zero_d", med, {"input": T((), F32)}, {"dim": 0})
    b.case("topk", "f32_nan_is_largest", topk, {"input": _ints(F32, [3.0, "nan", 1.0, -1.0])},
           {"k": 2})
    b.case("topk", "f32_nan_smallest", topk, {"input": _ints(F32, [3.0, "nan", 1.0, -1.0])},
           {"k": 2, "largest": False})
    b.case("topk", "k_zero", topk, {"input": T((3, 4), F32, "distinct")}, {"k": 0})
    b.case("topk", "k_equals_size", topk, {"input": T((2, 4), F32, "distinct")}, {"k": 4})
    b.case("topk", "zero_d", topk, {"input": T((), F32)}, {"k": 1})
    b.case("topk", "k_too_large_error", topk, {"input": T((3,), F32)}, {"k": 4}, expect="error")
    b.case("kthvalue", "f32_nan_last", kth, {"input": _ints(F32, [3.0, "nan", 1.0])}, {"k": 3})
    b.case("kthvalue", "k_too_large_error", kth, {"input": T((3,), F32)}, {"k": 4},
           expect="error")
    b.case("kthvalue", "k_zero_error", kth, {"input": T((3,), F32)}, {"k": 0}, expect="error")
    b.case("kthvalue", "zero_d", kth, {"input": T((), F32)}, {"k": 1})
    for dt in NAMES:
        if dt not in FLOATS:
            kind = "distinct" if dt != "bool" else "normal"
            x = T((2, 5) if dt != "bool" else (1, 2), dt, kind)
            b.case("topk", f"{SHORT[dt]}_values", topk, {"input": x}, {"k": 2}, expect="any")
            b.case("kthvalue", f"{SHORT[dt]}_values", kth, {"input": x}, {"k": 2}, expect="any")
            b.case("median", f"{SHORT[dt]}_dim", med, {"input": x}, {"dim": 1}, expect="any")
            b.case("median", f"{SHORT[dt]}_full", med, {"input": x}, expect="any")


def searching(b):
    ss = lambda sorted_sequence, input, **kw: torch.searchsorted(  # noqa: E731
        sorted_sequence, input, **kw)
    bk = lambda input, boundaries, **kw: torch.bucketize(input, boundaries, **kw)  # noqa: E731
    seq = _ints(F32, [-1.0, 0.0, 0.5, 0.5, 0.5, 2.0, 3.0])
    vals = _ints(F32, [0.5, -2.0, 3.0, 4.0, 0.25, "nan", "inf", "-inf", -0.0, 2.0])
    for right in (False, True):
        for out32 in (False, True):
            tag = f"{'right' if right else 'left'}{'_int32' if out32 else ''}"
            a = {"right": right, "out_int32": out32}
            b.case("searchsorted", f"f32_{tag}", ss, {"sorted_sequence": seq, "input": vals}, a)
            b.case("bucketize", f"f32_{tag}", bk, {"input": vals, "boundaries": seq}, a)
        tag = "right" if right else "left"
        b.case("searchsorted", f"batched_{tag}", ss,
               {"sorted_sequence": T((2, 3, 6), F32, values=list(range(36))),
                "input": T((2, 3, 4), F32, "range:0:36")}, {"right": right})
        b.case("searchsorted", f"side_{tag}", ss, {"sorted_sequence": seq, "input": vals},
               {"side": tag})
        b.case("searchsorted", f"i64_{tag}", ss,
               {"sorted_sequence": _ints("int64", [1, 3, 3, 7]),
                "input": T((2, 3), "int64", "range:0:9")}, {"right": right})
        b.case("bucketize", f"i64_{tag}", bk, {"input": T((2, 3), "int64", "range:0:9"),
                                                "boundaries": _ints("int64", [1, 3, 3, 7])},
               {"right": right})
        b.case("bucketize", f"f64_two_d_input_{tag}", bk,
               {"input": T((3, 4), F64), "boundaries": _ints(F64, [-1.0, 0.0, 1.5])},
               {"right": right})
    b.case("searchsorted", "views", ss,
           {"sorted_sequence": T((14,), F32, values=list(range(14)), view=["slice:0:0:14:2"]),
            "input": T((4, 3), F32, "range:0:14", ["transpose:0:1"])})
    b.case("searchsorted", "scalar_input", ss, {"sorted_sequence": seq, "input": S(0.5)},
           expect="any")
    b.case("searchsorted", "zero_d_input", ss,
           {"sorted_sequence": seq, "input": T((), F32, values=[0.5])})
    b.case("searchsorted", "mixed_i64_sequence_f32_values", ss,
           {"sorted_sequence": _ints("int64", [1, 2, 2, 3]), "input": _ints(F32, [2.5, 2.0])})
    b.case("searchsorted", "empty_sequence", ss,
           {"sorted_sequence": T((0,), F32), "input": _ints(F32, [1.0])})
    b.case("searchsorted", "sorter", ss,
           {"sorted_sequence": _ints(F32, [3.0, 1.0, 2.0]), "input": _ints(F32, [2.0, 0.0]),
            "sorter": _ints("int64", [1, 2, 0])})
    b.case("searchsorted", "side_right_conflict_error", ss,
           {"sorted_sequence": seq, "input": vals}, {"side": "left", "right": True},
           expect="error")
    b.case("searchsorted", "batch_mismatch_error", ss,
           {"sorted_sequence": T((2, 2), F32), "input": _ints(F32, [1.0])}, expect="error")
    b.case("bucketize", "two_d_boundaries_error", bk,
           {"input": _ints(F32, [1.0]), "boundaries": T((1, 3), F32)}, expect="error")
    b.case("bucketize", "zero_d_input", bk,
           {"input": T((), F32, values=[2.0]), "boundaries": _ints(F32, [1.0, 2.0, 3.0])})
    for dt in NAMES:
        if dt not in FLOATS:
            b.case("searchsorted", f"{SHORT[dt]}_values", ss,
                   {"sorted_sequence": T((4,), dt, values=[0, 1, 1, 3]),
                    "input": T((3,), dt, values=[1, 0, 3])}, expect="any")

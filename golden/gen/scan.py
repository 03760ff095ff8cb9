"""Scans along one dim: cumsum, cumprod (dtype), cummax, cummin (values,
indices), logcumsumexp.

cummax/cummin pick the *last* index among equal running extrema (torch compares
with >= / <=), and once a NaN is seen the values stay NaN while the index moves
to each later NaN."""

import torch

from .framework import NAMES, SHORT, TRANSCENDENTAL, T
from .reduce_common import LONG_REDUCE, REDUCE, raises, wrap

SCAN_TOL = REDUCE


def _ints(dt, vals, shape=None):
    return T(shape or (len(vals),), dt, values=vals)


def _layouts(dt, kind):
    return [
        ("dim0", T((3, 4), dt, kind), {"dim": 0}),
        ("dim1", T((3, 4), dt, kind), {"dim": 1}),
        ("dim_negative", T((2, 3, 4), dt, kind), {"dim": -2}),
        ("transposed_dim1", T((4, 3), dt, kind, ["transpose:0:1"]), {"dim": 1}),
        ("permuted_dim0", T((4, 2, 3), dt, kind, ["permute:2:0:1"]), {"dim": 0}),
        ("stepped_dim1", T((3, 9), dt, kind, ["slice:1:1:9:2"]), {"dim": 1}),
        ("expanded_dim0", T((1, 4), dt, kind, ["expand:3:4"]), {"dim": 0}),
        ("diagonal_dim0", T((4, 4), dt, kind, ["diagonal:0:0:1"]), {"dim": 0}),
        ("zero_d", T((), dt, kind), {"dim": 0}),
        ("empty_dim0", T((0, 3), dt, kind), {"dim": 0}),
        ("empty_dim1", T((0, 3), dt, kind), {"dim": 1}),
        ("long_vector", T((1037,), dt, kind), {"dim": 0}),
    ]


GRAD_LAYOUTS = ("dim0", "dim1", "dim_negative", "transposed_dim1", "expanded_dim0", "zero_d",
                "stepped_dim1")


def _driver(b, op, fn, kind="normal", tol=SCAN_TOL, grad=True):
    def add(name, x, args, **kw):
        kw.setdefault("tol", LONG_REDUCE if name.endswith("long_vector") else tol)
        if ("empty" in name or name == "zero_d_dim_one") and raises(fn, x, args):
            name, kw["expect"] = name + "_error", "error"
        b.case(op, name, fn, {"input": x}, args, **kw)

    for name, x, args in _layouts("float32", kind):
        add(f"f32_{name}", x, args)
    add("dim_out_of_range_error", T((3, 4), "float32"), {"dim": 2}, expect="error")
    add("zero_d_dim_one", T((), "float32"), {"dim": 1})
    for dt in NAMES:
        k = kind if dt != "bool" else "normal"
        add(f"{SHORT[dt]}_sweep", T((3, 4), dt, k), {"dim": 1}, expect="any")
        add(f"{SHORT[dt]}_sweep_transposed", T((4, 3), dt, k, ["transpose:0:1"]), {"dim": 0},
            expect="any")
    nan = [1.0, "nan", 3.0, -2.0, 0.5, "inf", -1.0, "-inf", 2.0, 1.0, "nan", 0.0]
    for dt in ("float32", "float64", "float16", "bfloat16"):
        add(f"{SHORT[dt]}_nan_inf_dim1", T((3, 4), dt, values=nan), {"dim": 1}, expect="any")
    if grad:
        for dt in ("float32", "float64"):
            for name, x, args in _layouts(dt, kind):
                if name in GRAD_LAYOUTS:
                    add(f"grad_{SHORT[dt]}_{name}", x, args, grad=["input"])


def scans(b):
    for op, tfn, kind in (("cumsum", torch.cumsum, "normal"), ("cumprod", torch.cumprod,
                                                               "nonzero")):
        fn = wrap(tfn)
        _driver(b, op, fn, kind)
        for dt, out in (("float32", "float64"), ("int32", "int64"), ("bool", "int64"),
                        ("uint8", "uint8"), ("int64", "float32"), ("float16", "float32")):
            b.case(op, f"{SHORT[dt]}_dtype_{SHORT[out]}", fn,
                   {"input": T((3, 4), dt, "small")}, {"dim": 1, "dtype": out}, tol=SCAN_TOL,
                   expect="any")
        b.case(op, "u8_promotes_to_i64", fn, {"input": _ints("uint8", [200, 100, 3])},
               {"dim": 0})
        b.case(op, "i64_wraps", fn, {"input": _ints("int64", [2**62, 2**62, 3])}, {"dim": 0})
    cp = wrap(torch.cumprod)
    for dt in ("float32", "float64"):
        b.case("cumprod", f"grad_{SHORT[dt]}_zeros", cp,
               {"input": _ints(dt, [2.0, 0.0, 3.0, 0.0, -1.0, 0.5, 0.0, 1.5], (2, 4))},
               {"dim": 1}, tol=SCAN_TOL, grad=["input"])
    for op, tfn in (("cummax", torch.cummax), ("cummin", torch.cummin)):
        fn = wrap(tfn)
        _driver(b, op, fn, "ties", tol=None)
        b.case(op, "f32_ties_last_index", fn,
               {"input": _ints("float32", [1.0, 1.0, 2.0, 2.0, 0.0, 2.0, -1.0, -1.0])},
               {"dim": 0})
        b.case(op, "f32_nan_sticks", fn,
               {"input": _ints("float32", [1.0, "nan", 3.0, "nan", -1.0, 5.0])}, {"dim": 0})
        b.case(op, "f32_signed_zero_ties", fn,
               {"input": _ints("float32", [0.0, -0.0, 0.0, -0.0])}, {"dim": 0}, expect="any")
        b.case(op, "grad_f64_ties", fn,
               {"input": _ints("float64", [1.0, 1.0, 2.0, 2.0, 0.0, 2.0, 3.0, -1.0])},
               {"dim": 0}, grad=["input"])
    fn = wrap(torch.logcumsumexp)
    tol = {k: (max(v[0], 1e-5), max(v[1], 1e-6)) for k, v in SCAN_TOL.items()}
    tol.update({k: v for k, v in TRANSCENDENTAL.items() if k not in tol})
    _driver(b, "logcumsumexp", fn, tol=tol)
    b.case("logcumsumexp", "f32_large_values_stable", fn,
           {"input": _ints("float32", [1000.0, 1000.0, -1000.0, 88.0, 89.0, 90.0])}, {"dim": 0},
           tol=tol)
    b.case("logcumsumexp", "f32_infinities", fn,
           {"input": _ints("float32", ["-inf", "-inf", 1.0, "inf", 2.0, "inf", "nan", 1.0])},
           {"dim": 0})
    b.case("logcumsumexp", "grad_f64_minus_inf_prefix", fn,
           {"input": _ints("float64", ["-inf", "-inf", 1.0, 2.0])}, {"dim": 0},
           grad=["input"], expect="any")

"""softmax and log_softmax (torch.nn.functional names; dim, dtype)."""

import torch.nn.functional as F

from .framework import NAMES, SHORT, T
from .reduce_common import torch_kw

F32, F64 = "float32", "float64"
FLOATS = (F32, F64)
TOL = {"float32": (1e-5, 1e-5), "complex64": (1e-5, 1e-5), "bfloat16": (1.6e-2, 1.6e-2),
       "float16": (2e-3, 2e-3)}
LONG_TOL = {"float32": (1e-4, 1e-4), "float64": (1e-10, 1e-10)}


def _softmax(input, **kw):
    return F.softmax(input, **torch_kw(kw))


def _log_softmax(input, **kw):
    return F.log_softmax(input, **torch_kw(kw))


def _ints(dt, vals, shape=None):
    return T(shape or (len(vals),), dt, values=vals)


def softmax(b):
    layouts = [("last_dim", (3, 5), [], {"dim": -1}), ("dim0", (4, 3), [], {"dim": 0}),
               ("middle_dim", (2, 3, 4), [], {"dim": 1}),
               ("transposed", (5, 3), ["transpose:0:1"], {"dim": 1}),
               ("stepped", (3, 10), ["slice:1:0:10:2"], {"dim": 1}),
               ("expanded", (1, 4), ["expand:3:4"], {"dim": 0}),
               ("zero_d", (), [], {"dim": 0}), ("empty", (0, 3), [], {"dim": 1}),
               ("long_rows", (2, 300), [], {"dim": 1})]
    for op, fn in (("softmax", _softmax), ("log_softmax", _log_softmax)):
        for name, shape, view, args in layouts:
            for dt in FLOATS:
                tol = LONG_TOL if name.startswith("long") else TOL
                b.case(op, f"{SHORT[dt]}_{name}", fn, {"input": T(shape, dt, view=view)}, args,
                       tol=tol, grad=["input"] if name != "empty" else None)
        b.case(op, "f32_large_values_stable", fn,
               {"input": _ints(F32, [1000.0, 1000.0, -1000.0, 88.0, 89.0, 90.0], (2, 3))},
               {"dim": 1}, tol=TOL)
        b.case(op, "f32_infinities", fn,
               {"input": _ints(F32, ["-inf", 0.0, "-inf", "-inf", "inf", 1.0, "nan", 1.0],
                               (4, 2))}, {"dim": 1})
        b.case(op, "grad_f64_minus_inf_entries", fn,
               {"input": _ints(F64, ["-inf", 0.5, 2.0, "-inf", 1.0, -1.0], (2, 3))}, {"dim": 1},
               grad=["input"])
        for dt, out in (("float16", "float32"), ("bfloat16", "float32"), ("float64", "float32"),
                        ("float32", "float64")):
            b.case(op, f"{SHORT[dt]}_dtype_{SHORT[out]}", fn, {"input": T((3, 4), dt)},
                   {"dim": 1, "dtype": out}, tol=TOL)
        b.case(op, "grad_f32_dtype_f64", fn, {"input": T((3, 4), F32)},
               {"dim": 1, "dtype": "float64"}, grad=["input"])
        for dt in NAMES:
            if dt not in FLOATS:
                b.case(op, f"{SHORT[dt]}_values", fn, {"input": T((3, 4), dt)}, {"dim": 1},
                       tol=TOL, expect="any")
        b.case(op, "dim_out_of_range_error", fn, {"input": T((3, 4), F32)}, {"dim": 2},
               expect="error")

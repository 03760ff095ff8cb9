"""Reductions: sum, nansum, prod, mean, nanmean, amax, amin, max, min, argmax,
argmin, all, any, count_nonzero, aminmax.

max/min without dim give one output; with dim they give (values, indices).
aminmax gives (min, max).  Index outputs pick the first occurrence of a tie
or NaN (torch 1.13 CPU, checked for every layout here)."""

import torch

from .framework import SHORT, T
from .reduce_common import REDUCE, driver, wrap

I64_MIN, I64_MAX = -2**63, 2**63 - 1


def _ints(dt, vals, shape=None):
    return T(shape or (len(vals),), dt, values=vals)


def sums(b):
    for op, tfn in (("sum", torch.sum), ("nansum", torch.nansum), ("mean", torch.mean),
                    ("nanmean", torch.nanmean)):
        fn = wrap(tfn)
        driver(b, op, fn)
        for dt, out in (("float32", "float64"), ("int64", "float32"), ("int32", "int64"),
                        ("bool", "int64"), ("float16", "float32"), ("uint8", "uint8"),
                        ("float64", "float32"), ("int8", "float16")):
            b.case(op, f"{SHORT[dt]}_dtype_{SHORT[out]}", fn, {"input": T((3, 4), dt)},
                   {"dtype": out}, tol=REDUCE, expect="any")
            b.case(op, f"{SHORT[dt]}_dim1_dtype_{SHORT[out]}", fn, {"input": T((3, 4), dt)},
                   {"dim": 1, "dtype": out}, tol=REDUCE, expect="any")
        b.case(op, "f32_empty_dim_list_reduces_all", fn, {"input": T((3, 4), "float32")},
               {"dim": []}, tol=REDUCE, expect="any")
        b.case(op, "f32_all_nan_row", fn,
               {"input": _ints("float32", ["nan", "nan", 1.0, 2.0], (2, 2))}, {"dim": 1})
        b.case(op, "f32_dim_none_keepdim", fn, {"input": T((3, 4), "float32")},
               {"dim": None, "keepdim": True}, tol=REDUCE, expect="any")
        b.case(op, "grad_f64_nan_inf", fn,
               {"input": _ints("float64", [1.0, "nan", 3.0, "inf", -2.0, 0.5], (2, 3))},
               {"dim": 1}, grad=["input"], expect="any")
    s = wrap(torch.sum)
    b.case("sum", "u8_promotes_to_i64", s, {"input": _ints("uint8", [200, 100, 255])})
    b.case("sum", "u8_dtype_u8_wraps", s, {"input": _ints("uint8", [200, 100, 255])},
           {"dtype": "uint8"})
    b.case("sum", "i64_wraps", s, {"input": _ints("int64", [I64_MAX, 1, 5])})
    b.case("sum", "f32_inf_minus_inf", s, {"input": _ints("float32", ["inf", "-inf", 1.0])})
    b.case("sum", "f32_negative_zeros", s, {"input": _ints("float32", [-0.0, -0.0])},
           signed_zeros=True)
    b.case("sum", "f16_overflow_to_inf", s, {"input": _ints("float16", [60000.0, 60000.0])})
    b.case("sum", "f16_accumulates_in_f32", s,
           {"input": T((2048,), "float16", values=[1.0] + [2.0 ** -11] * 2047)})
    b.case("sum", "c64_values", s, {"input": T((3, 4), "complex64")}, {"dim": 1}, tol=REDUCE)


def prod(b):
    fn = wrap(torch.prod)
    driver(b, "prod", fn, dims="int", none_dim=False, kind="nonzero")
    for dt, out in (("float32", "float64"), ("int32", "int64"), ("bool", "int64"),
                    ("int64", "float32"), ("uint8", "uint8")):
        b.case("prod", f"{SHORT[dt]}_dtype_{SHORT[out]}", fn, {"input": T((3, 4), dt, "small")},
               {"dtype": out}, tol=REDUCE, expect="any")
        b.case("prod", f"{SHORT[dt]}_dim0_dtype_{SHORT[out]}", fn,
               {"input": T((3, 4), dt, "small")}, {"dim": 0, "dtype": out}, tol=REDUCE,
               expect="any")
    b.case("prod", "i64_wraps", fn, {"input": _ints("int64", [2**40, 2**30, 3])})
    b.case("prod", "u8_promotes_to_i64", fn, {"input": _ints("uint8", [200, 100, 3])})
    b.case("prod", "dim_list_error", fn, {"input": T((3, 4), "float32")}, {"dim": [0, 1]},
           expect="error")
    for dt in ("float32", "float64"):
        sh = SHORT[dt]
        zeros = [1.5, 0.0, 2.0, -1.0, 0.0, 0.0, 3.0, -0.5, 2.0, 1.0, 0.5, 4.0]
        b.case("prod", f"grad_{sh}_zeros_dim1", fn, {"input": _ints(dt, zeros, (4, 3))},
               {"dim": 1}, tol=REDUCE, grad=["input"])
        b.case("prod", f"grad_{sh}_one_zero_all", fn,
               {"input": _ints(dt, [1.5, 0.0, 2.0, -1.0, 0.5, 4.0])}, tol=REDUCE, grad=["input"])
        b.case("prod", f"grad_{sh}_two_zeros_all", fn,
               {"input": _ints(dt, [1.5, 0.0, 2.0, 0.0, 0.5, 4.0])}, tol=REDUCE, grad=["input"])


def extrema(b):
    for op, tfn in (("amax", torch.amax), ("amin", torch.amin)):
        fn = wrap(tfn)
        driver(b, op, fn, kind="ties", none_dim=False, tol=None)
        b.case(op, "grad_f64_ties_split_evenly", fn,
               {"input": _ints("float64", [3.0, 1.0, 3.0, 3.0, -3.0, -3.0], (2, 3))},
               {"dim": 1}, grad=["input"])
        b.case(op, "grad_f64_all_ties", fn,
               {"input": _ints("float64", [2.0, -2.0, 2.0, -2.0, 2.0, -2.0])}, grad=["input"])
    for op, tfn in (("max", torch.max), ("min", torch.min)):
        fn = wrap(tfn)
        driver(b, op, fn, kind="ties", dims="int", none_dim=False, tol=None)
        vals = [3.0, 1.0, 3.0, "nan", 2.0, "nan", -1.0, -1.0, 0.0, 0.0, -0.0, 5.0]
        b.case(op, "f32_ties_and_nan_first_index", fn, {"input": _ints("float32", vals, (4, 3))},
               {"dim": 1})
        b.case(op, "f32_ties_and_nan_first_index_dim0", fn,
               {"input": _ints("float32", vals, (3, 4))}, {"dim": 0})
        b.case(op, "grad_f64_ties_full_split_evenly", fn,
               {"input": _ints("float64", [2.0, -2.0, 2.0, -2.0, 2.0, -2.0])}, grad=["input"])
        b.case(op, "grad_f64_ties_dim_goes_to_index", fn,
               {"input": _ints("float64", [3.0, 1.0, 3.0, -3.0, -3.0, 0.0], (2, 3))},
               {"dim": 1}, grad=["input"])
        b.case(op, "i64_extremes", fn, {"input": _ints("int64", [I64_MIN, I64_MAX, 0])})
        other_forms(b, op, tfn)
    for op, tfn in (("argmax", torch.argmax), ("argmin", torch.argmin)):
        fn = wrap(tfn)
        driver(b, op, fn, kind="ties", dims="int", tol=None, grad=False)
        vals = [3.0, 1.0, 3.0, "nan", 2.0, "nan", -1.0, -1.0, 0.0, 0.0, -0.0, 5.0]
        b.case(op, "f32_ties_and_nan_first_index", fn, {"input": _ints("float32", vals, (4, 3))},
               {"dim": 1})
        b.case(op, "f32_ties_full", fn, {"input": _ints("float32", [1.0, 5.0, 5.0, -5.0, -5.0])})
        b.case(op, "f32_nan_full", fn, {"input": _ints("float32", [1.0, "nan", 5.0, "nan"])})
        b.case(op, "f32_keepdim_no_dim", fn, {"input": T((3, 4), "float32", "ties")},
               {"keepdim": True})
    fn = wrap(torch.aminmax)
    driver(b, "aminmax", fn, kind="ties", dims="int", tol=None, grad=False)
    b.case("aminmax", "f32_nan", fn, {"input": _ints("float32", [1.0, "nan", -2.0, 3.0])})
    b.case("aminmax", "f32_signed_zeros", fn, {"input": _ints("float32", [0.0, -0.0, 0.0])},
           expect="any")


def logical(b):
    for op, tfn in (("all", torch.all), ("any", torch.any)):
        fn = wrap(tfn)
        driver(b, op, fn, kind="bool", dims="int", none_dim=False, tol=None, grad=False)
        for dt in ("float32", "int64", "uint8", "int8"):
            b.case(op, f"{SHORT[dt]}_zeros_and_nan", fn,
                   {"input": T((3, 2), dt, values=[0, 0, 1, 0, 2, 3] if dt != "float32" else
                               [0.0, -0.0, "nan", 0.0, 1e-40, 2.0])}, {"dim": 1})
        b.case(op, "bool_all_true_rows", fn,
               {"input": T((2, 3), "bool", values=[True, True, True, False, False, False])},
               {"dim": 1, "keepdim": True})
    fn = wrap(torch.count_nonzero)
    driver(b, "count_nonzero", fn, keepdim=False, tol=None, grad=False)
    b.case("count_nonzero", "f32_nan_and_negative_zero", fn,
           {"input": _ints("float32", ["nan", -0.0, 0.0, 1e-40, "inf"])})


def other_forms(b, op, tfn):
    """torch.max / torch.min(input, other): the elementwise maximum / minimum."""
    fn = lambda input, other: tfn(input, other)  # noqa: E731
    nan = [1.0, "nan", -2.0, 0.0, -0.0, 3.0]
    b.case(op, "other_f32_same_shape", fn, {"input": T((3, 4), "float32"),
                                            "other": T((3, 4), "float32")}, grad=["input", "other"])
    b.case(op, "other_f32_broadcast", fn, {"input": T((3, 1), "float32"),
                                           "other": T((4, 1), "float32", view=["transpose:0:1"])})
    b.case(op, "other_f32_nan_signed_zero", fn, {"input": _ints("float32", nan),
                                                 "other": _ints("float32", nan[::-1])})
    b.case(op, "other_i32_f64_promotes", fn, {"input": T((2, 3), "int32", "int"),
                                              "other": T((3,), "float64")})
    b.case(op, "other_i64_0d", fn, {"input": T((4,), "int64", "int"), "other": T((), "int64", "int")})
    b.case(op, "other_bool", fn, {"input": T((5,), "bool", "bool"), "other": T((5,), "bool", "bool")})
    b.case(op, "other_shape_mismatch_error", fn, {"input": T((3,), "float32"),
                                                  "other": T((4,), "float32")}, expect="error")

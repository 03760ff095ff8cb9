"""More unary elementwise ops: exp2, log2, log10, tan, asin, acos, atan, sinh,
cosh, asinh, acosh, atanh, erfc, silu, floor, ceil, trunc, frac, reciprocal,
square, isnan, isinf, isfinite."""

import torch
import torch.nn.functional as F

from . import elementwise_unary
from .framework import SHORT, TRANSCENDENTAL, T

TR = TRANSCENDENTAL


def _f(torch_fn):
    return lambda input: torch_fn(input)


ROUNDING = [2.5, -2.5, 0.4999999, -0.5, 1.5, 8388607.5, -8388609.0, 4503599627370495.5, 1e-40]

# op -> (callable, value kind, tolerance, extra special inputs, has a gradient)
OPS = {
    "exp2": (_f(torch.exp2), "normal", TR, [128.0, 127.5, -126.0, -149.0, -150.0, 1024.0,
                                             -1075.0, 0.5], True),
    "log2": (_f(torch.log2), "positive", TR, [-1.0, 2.0, 1024.0, 1e-3, 3.0], True),
    "log10": (_f(torch.log10), "positive", TR, [-1.0, 10.0, 1000.0, 1e-3], True),
    "tan": (_f(torch.tan), "unit", TR, [1.5707963, -1.5707963, 3.14159265, 1e6, 1e-7], True),
    "asin": (_f(torch.asin), "unit", TR, [1.0001, -1.5, 0.5, -0.9999, 1e-7], True),
    "acos": (_f(torch.acos), "unit", TR, [1.0001, -1.5, 0.5, -0.9999, 1e-7], True),
    "atan": (_f(torch.atan), "normal", TR, [1e10, -1e10, 1e-7, 0.5], True),
    "sinh": (_f(torch.sinh), "normal", TR, [88.5, 90.0, -88.5, 710.0, 1e-7, 0.5], True),
    "cosh": (_f(torch.cosh), "normal", TR, [88.5, 90.0, -88.5, 710.0, 1e-7, 0.5], True),
    "asinh": (_f(torch.asinh), "normal", TR, [1e10, -1e10, 1e-7, 0.5, 1e20], True),
    "acosh": (_f(torch.acosh), "above_one", TR, [0.5, 1.0001, 1e10, 2.0, 1e20], True),
    "atanh": (_f(torch.atanh), "unit", TR, [1.5, -1.5, 0.5, 0.9999, 1e-7], True),
    "erfc": (_f(torch.erfc), "normal", TR, [5.0, 10.0, -5.0, 26.0, 1e-7, 0.5], True),
    "silu": (_f(F.silu), "normal", TR, [20.0, -20.0, -90.0, 90.0, 1e-7, -1.278], True),
    "floor": (_f(torch.floor), "normal", None, ROUNDING, True),
    "ceil": (_f(torch.ceil), "normal", None, ROUNDING, True),
    "trunc": (_f(torch.trunc), "normal", None, ROUNDING, True),
    "frac": (_f(torch.frac), "normal", None, ROUNDING, True),
    "reciprocal": (_f(torch.reciprocal), "nonzero", None, [2.0, 1e-40, 1e38, 3.0, -4.0], True),
    "square": (_f(torch.square), "normal", None, [1e20, -1e20, 1e-30, 3.0, 65504.0], True),
    "isnan": (_f(torch.isnan), "normal", None, [], False),
    "isinf": (_f(torch.isinf), "normal", None, [], False),
    "isfinite": (_f(torch.isfinite), "normal", None, [], False),
}


def _ints(dt, vals):
    return T((len(vals),), dt, values=vals)


def unary2(b):
    for op, (fn, kind, tol, extra, grad) in OPS.items():
        elementwise_unary._generic(b, op, spec=(fn, kind, tol), extra=extra, grad=grad)
        if op in ("isnan", "isinf", "isfinite", "floor", "ceil", "trunc", "square", "frac", "silu",
                  "reciprocal"):
            continue
        b.case(op, "i64_promotes_to_f32", fn, {"input": _ints("int64", [1, 2, 3, 0, -1])},
               tol=TR)
        b.case(op, "c64_values", fn, {"input": T((2, 3), "complex64", "unit")}, tol=TR,
               expect="any")
    fn = {op: v[0] for op, v in OPS.items()}
    for op in ("floor", "ceil", "trunc", "square"):
        for dt in ("int64", "uint8", "int8"):
            b.case(op, f"{dt}_keeps_dtype", fn[op], {"input": _ints(dt, [0, 1, 3, 100, 127])})
        b.case(op, "bool_input", fn[op], {"input": _ints("bool", [True, False])}, expect="any")
    b.case("square", "i8_wraps", fn["square"], {"input": _ints("int8", [12, -12, 16, -128])})
    b.case("square", "i64_wraps", fn["square"],
           {"input": _ints("int64", [3037000500, -2**62, 2**32])})
    b.case("reciprocal", "i64_promotes_to_f32", fn["reciprocal"],
           {"input": _ints("int64", [0, 1, 2, -4])})
    b.case("reciprocal", "f32_signed_zeros", fn["reciprocal"],
           {"input": _ints("float32", [0.0, -0.0, "inf", "-inf"])}, signed_zeros=True)
    b.case("frac", "i64_error", fn["frac"], {"input": _ints("int64", [1, 2])}, expect="error")
    for op in ("floor", "ceil", "trunc", "frac"):
        b.case(op, "f32_signed_zeros", fn[op],
               {"input": _ints("float32", [-0.0, 0.0, -0.5, 0.5, -1.0, "-inf", "nan"])},
               signed_zeros="auto")
    for op in ("isnan", "isinf", "isfinite"):
        for dt in ("int64", "uint8", "bool"):
            b.case(op, f"{SHORT[dt]}_input", fn[op], {"input": T((4,), dt)})
        b.case(op, "c64_specials", fn[op],
               {"input": _ints("complex64", [complex(float("nan"), 0), complex(0, float("inf")),
                                             complex(1, 2), complex(float("-inf"), float("nan"))])})
    b.case("atan", "c128_unit_transposed", fn["atan"],
           {"input": T((3, 2), "complex128", "unit", ["transpose:0:1"])}, expect="any")
    b.case("silu", "f32_saturation", fn["silu"],
           {"input": _ints("float32", [-88.0, -104.0, -1000.0, 88.0, 1000.0])}, tol=TR)

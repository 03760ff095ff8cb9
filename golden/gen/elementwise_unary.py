"""Unary elementwise ops: neg, abs, sign, exp, log, log1p, expm1, sqrt, rsqrt,
sin, cos, tanh, sigmoid, relu, gelu, erf, logical_not."""

import torch
import torch.nn.functional as F

from .framework import NAMES, SHORT, SPECIALS, TRANSCENDENTAL, T

I64_MIN, I64_MAX = -2**63, 2**63 - 1


def _f(torch_fn):
    return lambda input, **kw: torch_fn(input, **kw)


# op -> (callable, value kind for random inputs, tolerance)
OPS = {
    "neg": (_f(torch.neg), "normal", None),
    "abs": (_f(torch.abs), "normal", None),
    "sign": (_f(torch.sign), "ties", None),
    "exp": (_f(torch.exp), "normal", TRANSCENDENTAL),
    "log": (_f(torch.log), "positive", TRANSCENDENTAL),
    "log1p": (_f(torch.log1p), "positive", TRANSCENDENTAL),
    "expm1": (_f(torch.expm1), "normal", TRANSCENDENTAL),
    "sqrt": (_f(torch.sqrt), "positive", TRANSCENDENTAL),
    "rsqrt": (_f(torch.rsqrt), "positive", TRANSCENDENTAL),
    "sin": (_f(torch.sin), "normal", TRANSCENDENTAL),
    "cos": (_f(torch.cos), "normal", TRANSCENDENTAL),
    "tanh": (_f(torch.tanh), "normal", TRANSCENDENTAL),
    "sigmoid": (_f(torch.sigmoid), "normal", TRANSCENDENTAL),
    "relu": (_f(torch.relu), "normal", None),
    "gelu": (_f(F.gelu), "normal", TRANSCENDENTAL),
    "erf": (_f(torch.erf), "normal", TRANSCENDENTAL),
    "logical_not": (_f(torch.logical_not), "small", None),
}

# Extra in-domain / out-of-domain values per op, on top of SPECIALS.
EXTRA = {
    "log": [-1.0, 2.718281828, 1e-3, 100.0],
    "log1p": [-1.0, -0.5, -2.0, 1e-7, -1e-7, 1e-20],
    "expm1": [1e-7, -1e-7, 1e-20, 88.0, -100.0, 0.69314718],
    "exp": [88.0, 89.0, -87.0, -104.0, 0.69314718, 700.0, -750.0],
    "sqrt": [-1.0, 4.0, 2.0, 1e-20],
    "rsqrt": [-1.0, 4.0, 0.25, 1e-20],
    "sin": [3.14159265, 1e6, -1e4, 1e-7],
    "cos": [3.14159265, 1e6, -1e4, 1e-7],
    "tanh": [20.0, -20.0, 1e-7, 0.5493],
    "sigmoid": [20.0, -20.0, 90.0, -90.0, 1e-7],
    "gelu": [5.0, -5.0, -10.0, 1e-7, -0.5],
    "erf": [4.0, -4.0, 1e-7, 0.4769],
}


def _specials(dt, op, extra=None):
    vals = list(SPECIALS[dt]) + (EXTRA.get(op, []) if extra is None else extra)
    if dt == "float16":
        vals = [v for v in vals if isinstance(v, str) or abs(v) <= 60000.0]
    return T((len(vals),), dt, values=vals)


def _generic(b, op, args=None, tag="", *, spec=None, extra=None, grad=False):
    """Layouts, dtype sweep and special values of one unary op.  spec
    (callable, kind, tol) and extra (special inputs) default to this module's
    OPS and EXTRA; grad adds float32/float64 gradient cases grad_<layout>."""
    fn, kind, tol = spec or OPS[op]
    args = args or {}

    def add(name, x, **kw):
        kw.setdefault("tol", tol)
        b.case(op, tag + name, fn, {"input": x}, args, **kw)

    for name, x in _layouts("float32", kind):
        add(f"f32_{name}", x)
    for dt in NAMES:
        if dt == "float32":
            continue
        add(f"{SHORT[dt]}_contiguous", T((3, 4), dt, kind), expect="any")
        add(f"{SHORT[dt]}_transposed", T((4, 3), dt, kind, ["transpose:0:1"]), expect="any")
    for dt in ("float32", "float64", "float16", "bfloat16"):
        add(f"special_values_{SHORT[dt]}", _specials(dt, op, extra), signed_zeros="auto",
            expect="any")
    for name, x in (grad_layouts(kind) if grad else ()):
        add(f"grad_{name}", x, grad=["input"])


def grad_layouts(kind="normal"):
    out = []
    for dt in ("float32", "float64"):
        sh = SHORT[dt]
        out += [(f"{sh}_contiguous", T((3, 4), dt, kind)),
                (f"{sh}_transposed", T((4, 3), dt, kind, ["transpose:0:1"])),
                (f"{sh}_expanded", T((1, 4), dt, kind, ["expand:3:4"]))]
    out.append(("f32_stepped_slice", T((3, 9), "float32", kind, ["slice:1:1:9:2"])))
    out.append(("f64_zero_d", T((), "float64", kind)))
    return out


def _layouts(dt, kind):
    return [
        ("contiguous", T((3, 4), dt, kind)),
        ("vector", T((7,), dt, kind)),
        ("transposed", T((4, 3), dt, kind, ["transpose:0:1"])),
        ("permuted", T((4, 2, 3), dt, kind, ["permute:2:0:1"])),
        ("stepped_slice", T((3, 9), dt, kind, ["slice:1:1:9:2"])),
        ("expanded", T((1, 4), dt, kind, ["expand:3:4"])),
        ("unsqueezed_expanded", T((3,), dt, kind, ["unsqueeze:0", "expand:2:3"])),
        ("diagonal", T((4, 4), dt, kind, ["diagonal:0:0:1"])),
        ("zero_d", T((), dt, kind)),
        ("empty", T((0, 3), dt, kind)),
        ("long_vector", T((1037,), dt, kind)),
        ("long_transposed", T((67, 5), dt, kind, ["transpose:0:1"])),
    ]


def _ints(dt, vals):
    return T((len(vals),), dt, values=vals)


def unary(b):
    for op in OPS:
        if op != "gelu":
            _generic(b, op)
    for mode in ("none", "tanh"):
        _generic(b, "gelu", {"approximate": mode}, tag=f"{mode}_")
    fn = {op: v[0] for op, v in OPS.items()}
    b.case("gelu", "default_approximate", fn["gelu"], {"input": T((3, 4), "float32")},
           tol=TRANSCENDENTAL)
    b.case("gelu", "invalid_approximate_error", fn["gelu"], {"input": T((3,), "float32")},
           {"approximate": "fast"}, expect="error")

    # Integer edge cases: two's complement wrap and sign rules.
    for dt, lo, hi in (("int8", -128, 127), ("int16", -32768, 32767),
                       ("int32", -2**31, 2**31 - 1), ("int64", I64_MIN, I64_MAX)):
        vals = [lo, hi, 0, -1, 1, lo + 1]
        for op in ("neg", "abs", "sign", "relu"):
            b.case(op, f"{dt}_extremes", fn[op], {"input": _ints(dt, vals)})
    for op in ("neg", "abs", "sign", "relu"):
        b.case(op, "uint8_extremes", fn[op], {"input": _ints("uint8", [0, 1, 128, 255])},
               expect="any")
        b.case(op, "bool_values", fn[op], {"input": _ints("bool", [True, False])}, expect="any")
    b.case("neg", "f32_signed_zero", fn["neg"],
           {"input": _ints("float32", [0.0, -0.0, "nan", "inf"])}, signed_zeros=True)
    b.case("abs", "f32_signed_zero", fn["abs"],
           {"input": _ints("float32", [0.0, -0.0, "-inf", -1e-40])}, signed_zeros=True)
    b.case("sign", "f32_signed_zero_and_nan", fn["sign"],
           {"input": _ints("float32", [0.0, -0.0, "nan", "-inf", -1e-40, 1e-40])},
           signed_zeros="auto")
    b.case("relu", "f32_nan_and_signed_zero", fn["relu"],
           {"input": _ints("float32", ["nan", -0.0, 0.0, "-inf", "inf", -1e-40])},
           signed_zeros="auto")
    for op in ("exp", "log", "sqrt", "sin", "tanh", "sigmoid", "erf", "log1p", "expm1", "rsqrt"):
        b.case(op, "i64_promotes_to_f32", fn[op], {"input": _ints("int64", [1, 2, 3, 10])},
               tol=TRANSCENDENTAL)
        b.case(op, "bool_promotes_to_f32", fn[op], {"input": _ints("bool", [True, False])},
               tol=TRANSCENDENTAL)
    for op in ("exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "rsqrt"):
        b.case(op, "c64_values", fn[op], {"input": T((2, 3), "complex64", "unit")},
               tol=TRANSCENDENTAL, expect="any")
        b.case(op, "c128_unit_transposed", fn[op],
               {"input": T((3, 2), "complex128", "unit", ["transpose:0:1"])}, expect="any")
    b.case("abs", "c64_magnitude", fn["abs"],
           {"input": _ints("complex64", [3 + 4j, -1j, 0j, 1e-20 + 1e-20j])})
    b.case("neg", "c128_values", fn["neg"], {"input": T((2, 2), "complex128")})
    b.case("sigmoid", "f32_saturation", fn["sigmoid"],
           {"input": _ints("float32", [-88.0, -100.0, -1000.0, 88.0, 17.0, -17.0])},
           tol=TRANSCENDENTAL)
    b.case("exp", "f32_overflow_boundary", fn["exp"],
           {"input": _ints("float32", [88.72, 88.73, -103.97, -87.33, -88.0])},
           tol=TRANSCENDENTAL)


def complex_specials(b):
    """abs and sigmoid of complex values at infinities and NaNs (issue 13). Each row of the
    grid is its own case of 7 elements: torch's vectorised complex abs (8 or more elements)
    answers NaN for (inf, NaN) where its scalar path, like C's hypot, answers inf."""
    parts = [0.0, -0.0, 1.5, -1.0, float("inf"), float("-inf"), float("nan")]
    tag = {0.0: "zero", 1.5: "one_p5", -1.0: "minus_one", float("inf"): "inf",
           float("-inf"): "minus_inf"}
    for dt in ("complex64", "complex128"):
        sh = SHORT[dt]
        for i, re in enumerate(parts):
            name = "minus_zero" if i == 1 else tag.get(re, "nan")
            row = [complex(re, im) for im in parts]
            for op, fn in (("abs", torch.abs), ("sigmoid", torch.sigmoid)):
                b.case(op, f"{sh}_specials_re_{name}", _f(fn), {"input": T((7,), dt, values=row)},
                       tol=TRANSCENDENTAL)

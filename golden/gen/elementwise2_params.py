"""Elementwise ops with parameters: softplus (beta, threshold), leaky_relu
(negative_slope), elu (alpha), hardtanh (min_val, max_val), round (decimals),
nan_to_num (nan, posinf, neginf).  lerp, addcmul and addcdiv are in
ternary.py."""

import torch
import torch.nn.functional as F

from . import elementwise_unary
from .framework import NAMES, SHORT, TRANSCENDENTAL, T

TR = TRANSCENDENTAL


def _f(torch_fn):
    return lambda input, **kw: torch_fn(input, **kw)


ACTIVATIONS = {
    "softplus": (_f(F.softplus), TR, [{"beta": 2.0, "threshold": 1.0}, {"beta": 0.5},
                                      {"threshold": 5.0}, {"beta": -1.0}],
                 [20.0, 21.0, -20.0, 1e-7, 0.5, -100.0]),
    "leaky_relu": (_f(F.leaky_relu), None, [{"negative_slope": 0.2}, {"negative_slope": -2.0},
                                            {"negative_slope": 0.0}], [-1e-40, 1e-40, -0.5]),
    "elu": (_f(F.elu), TR, [{"alpha": 0.5}, {"alpha": 2.0}, {"alpha": -1.0}],
            [-20.0, -1e-7, 1e-7, -0.5, -100.0]),
    "hardtanh": (_f(F.hardtanh), None, [{"min_val": -0.5, "max_val": 0.5},
                                        {"min_val": 0.0, "max_val": 6.0},
                                        {"min_val": 1.0, "max_val": -1.0}],
                 [-1.0, 1.0, -1.0000001, 0.9999999]),
}


def _ints(dt, vals):
    return T((len(vals),), dt, values=vals)


def activations(b):
    for op, (fn, tol, variants, extra) in ACTIVATIONS.items():
        elementwise_unary._generic(b, op, spec=(fn, "normal", tol), extra=extra, grad=True)
        for i, args in enumerate(variants):
            tag = "_".join(f"{k}_{v}".replace(".", "p").replace("-", "m")
                           for k, v in args.items())
            for name, x in (("f32_contiguous", T((3, 4), "float32")),
                            ("f32_transposed", T((4, 3), "float32", view=["transpose:0:1"])),
                            ("f64_long_vector", T((1037,), "float64"))):
                b.case(op, f"{tag}_{name}", fn, {"input": x}, args, tol=tol)
            vals = ["nan", "inf", "-inf", 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0] + extra
            b.case(op, f"{tag}_special_values_f32", fn, {"input": _ints("float32", vals)}, args,
                   tol=tol, signed_zeros="auto")
            for dt in ("float32", "float64"):
                b.case(op, f"{tag}_grad_{SHORT[dt]}", fn,
                       {"input": T((4, 3), dt, view=["transpose:0:1"])}, args, tol=tol,
                       grad=["input"])
    b.case("hardtanh", "i64_input", ACTIVATIONS["hardtanh"][0],
           {"input": _ints("int64", [-5, -1, 0, 1, 5])}, {"min_val": -2, "max_val": 3})
    b.case("hardtanh", "grad_f64_at_bounds", ACTIVATIONS["hardtanh"][0],
           {"input": _ints("float64", [-1.0, 1.0, -2.0, 2.0, 0.0])}, grad=["input"])
    b.case("leaky_relu", "grad_f64_at_zero", ACTIVATIONS["leaky_relu"][0],
           {"input": _ints("float64", [0.0, -0.0, 1.0, -1.0])}, {"negative_slope": 0.1},
           grad=["input"])
    b.case("softplus", "grad_f64_at_threshold", ACTIVATIONS["softplus"][0],
           {"input": _ints("float64", [10.0, 20.0, 20.0001, -20.0])}, {"beta": 1.0,
                                                                       "threshold": 20.0},
           grad=["input"], tol=TR)


def round_(b):
    fn = lambda input, **kw: torch.round(input, **kw)  # noqa: E731
    elementwise_unary._generic(b, "round", spec=(fn, "normal", None),
                   extra=[2.5, -2.5, 0.5, -0.5, 1.5, 3.5, 8388607.5, 4503599627370495.5,
                          1e-40], grad=True)
    halves = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.125, 0.375, 1.005, 123.456, -0.0, "nan",
              "inf", 1e30]
    for d in (0, 1, 2, 3, -1, -2):
        tag = f"decimals_{d}" if d >= 0 else f"decimals_minus_{-d}"
        for dt in ("float32", "float64", "float16", "bfloat16"):
            b.case("round", f"{tag}_{SHORT[dt]}_values", fn, {"input": _ints(dt, halves)},
                   {"decimals": d}, expect="any")
        b.case("round", f"{tag}_f32_transposed", fn,
               {"input": T((4, 3), "float32", view=["transpose:0:1"])}, {"decimals": d})
        b.case("round", f"{tag}_grad_f64", fn, {"input": T((3, 4), "float64")},
               {"decimals": d}, grad=["input"])
    b.case("round", "decimals_i64_error", fn, {"input": _ints("int64", [1, 2])},
           {"decimals": 1}, expect="error")
    b.case("round", "i64_keeps_values", fn, {"input": _ints("int64", [1, -2, 7])})
    b.case("round", "f32_half_to_even_signed_zero", fn,
           {"input": _ints("float32", [0.5, -0.5, -0.4, 0.4, 2.5, -2.5])}, signed_zeros="auto")


def nan_to_num(b):
    fn = lambda input, **kw: torch.nan_to_num(input, **kw)  # noqa: E731
    vals = ["nan", "inf", "-inf", 0.0, -0.0, 1.5, -2.5, 1e30]
    argsets = [("default", {}), ("nan_only", {"nan": 7.0}),
               ("all_three", {"nan": 1.0, "posinf": 2.0, "neginf": -3.0}),
               ("posinf_only", {"posinf": 1e10}),
               ("neginf_nan", {"neginf": -1.0, "nan": float("nan")}),
               ("explicit_none", {"nan": 0.0, "posinf": None, "neginf": None})]
    for tag, args in argsets:
        for dt in ("float32", "float64", "float16", "bfloat16"):
            b.case("nan_to_num", f"{tag}_{SHORT[dt]}", fn, {"input": _ints(dt, vals)},
                   args, signed_zeros=True)
    for dt in NAMES:
        b.case("nan_to_num", f"{SHORT[dt]}_transposed", fn,
               {"input": T((4, 3), dt, view=["transpose:0:1"])}, expect="any")
    b.case("nan_to_num", "f32_stepped_specials", fn,
           {"input": T((2, 8), "float32", values=vals * 2, view=["slice:1:0:8:2"])},
           {"posinf": 5.0})
    b.case("nan_to_num", "f32_expanded", fn,
           {"input": T((1, 4), "float32", values=vals[:4], view=["expand:3:4"])})
    b.case("nan_to_num", "f32_empty", fn, {"input": T((0, 3), "float32")})
    b.case("nan_to_num", "f32_zero_d", fn, {"input": T((), "float32", values=["inf"])})
    b.case("nan_to_num", "i64_with_args", fn, {"input": _ints("int64", [1, -2])}, {"nan": 3.0})
    b.case("nan_to_num", "f16_large_posinf_overflows", fn,
           {"input": _ints("float16", ["inf", 1.0])}, {"posinf": 1e6}, expect="any")
    for dt in ("float32", "float64"):
        b.case("nan_to_num", f"grad_{SHORT[dt]}", fn,
               {"input": T((8,), dt, values=vals)}, {"nan": 0.5}, grad=["input"])
        b.case("nan_to_num", f"grad_{SHORT[dt]}_transposed", fn,
               {"input": T((4, 3), dt, view=["transpose:0:1"])}, grad=["input"])

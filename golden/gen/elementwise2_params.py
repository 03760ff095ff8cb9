"""Elementwise ops with parameters: softplus (beta, threshold), leaky_relu
(negative_slope), elu (alpha), hardtanh (min_val, max_val), round (decimals),
nan_to_num (nan, posinf, neginf), lerp (weight tensor or scalar), addcmul and
addcdiv (value)."""

import torch
import torch.nn.functional as F

from . import elementwise_unary
from .framework import NAMES, SHORT, TRANSCENDENTAL, T, S

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


def lerp(b):
    fn = lambda input, end, weight: torch.lerp(input, end, weight)  # noqa: E731

    def add(name, x, e, w, **kw):
        b.case("lerp", name, fn, {"input": x, "end": e, "weight": w}, **kw)

    f32 = "float32"
    for dt in ("float32", "float64"):
        sh = SHORT[dt]
        add(f"{sh}_scalar_weight", T((3, 4), dt), T((3, 4), dt), S(0.3),
            grad=["input", "end"])
        add(f"{sh}_scalar_weight_above_half", T((3, 4), dt), T((3, 4), dt), S(0.75),
            grad=["input", "end"])
        add(f"{sh}_tensor_weight", T((3, 4), dt), T((3, 4), dt), T((3, 4), dt, "unit"),
            grad=["input", "end", "weight"])
        add(f"{sh}_broadcast", T((2, 3, 4), dt), T((4,), dt), T((3, 1), dt, "unit"),
            grad=["input", "end", "weight"])
        add(f"{sh}_views", T((4, 3), dt, view=["transpose:0:1"]),
            T((1, 4), dt, view=["expand:3:4"]), T((3, 9), dt, "unit", ["slice:1:1:9:2"]),
            grad=["input", "end", "weight"])
        add(f"{sh}_zero_d_weight", T((5,), dt), T((5,), dt), T((), dt, "unit"),
            grad=["input", "end", "weight"])
    add("f32_weight_outside_unit", T((6,), f32), T((6,), f32),
        T((6,), f32, values=[-1.0, 0.0, 0.5, 1.0, 2.0, 0.4999]))
    add("f32_scalar_weight_one", T((6,), f32), T((6,), f32), S(1.0))
    add("f32_scalar_weight_int", T((6,), f32), T((6,), f32), S(2))
    add("f32_specials", T((6,), f32, values=["nan", "inf", "-inf", 1.0, "inf", 0.0]),
        T((6,), f32, values=[1.0, "inf", "inf", "-inf", "-inf", "nan"]), S(0.5))
    add("f32_empty", T((0, 3), f32), T((3,), f32), S(0.5))
    add("f32_long_vector", T((1037,), f32), T((1037,), f32), T((1037,), f32, "unit"))
    for dt in ("float16", "bfloat16", "complex64", "complex128", "int64"):
        add(f"{SHORT[dt]}_values", T((2, 3), dt, "unit"), T((2, 3), dt, "unit"), S(0.25),
            expect="any")
    add("mixed_end_dtype_error", T((3,), f32), T((3,), "float64"), S(0.5), expect="error")
    add("mixed_weight_dtype_error", T((3,), f32), T((3,), f32), T((), "float64"),
        expect="error")
    add("end_not_broadcastable_error", T((3,), f32), T((4,), f32), S(0.5), expect="error")


def addc(b):
    for op, tfn in (("addcmul", torch.addcmul), ("addcdiv", torch.addcdiv)):
        fn = (lambda t: lambda input, tensor1, tensor2, **kw: t(input, tensor1, tensor2, **kw))(tfn)
        k2 = "nonzero" if op == "addcdiv" else "normal"

        def add(name, x, t1, t2, args=None, **kw):
            b.case(op, name, fn, {"input": x, "tensor1": t1, "tensor2": t2}, args, **kw)

        for dt in ("float32", "float64"):
            sh = SHORT[dt]
            add(f"{sh}_same_shape", T((3, 4), dt), T((3, 4), dt), T((3, 4), dt, k2),
                grad=["input", "tensor1", "tensor2"])
            add(f"{sh}_value", T((3, 4), dt), T((3, 4), dt), T((3, 4), dt, k2), {"value": -0.5},
                grad=["input", "tensor1", "tensor2"])
            add(f"{sh}_broadcast", T((4,), dt), T((3, 1), dt), T((2, 1, 4), dt, k2),
                {"value": 2}, grad=["input", "tensor1", "tensor2"])
            add(f"{sh}_views", T((4, 3), dt, view=["transpose:0:1"]),
                T((1, 4), dt, view=["expand:3:4"]), T((3, 9), dt, k2, ["slice:1:1:9:2"]),
                {"value": 1.5}, grad=["input", "tensor1", "tensor2"])
        add("f32_zero_d_operands", T((), "float32"), T((3,), "float32"), T((), "float32", k2))
        add("f32_empty", T((0, 3), "float32"), T((3,), "float32"), T((0, 1), "float32", k2))
        add("f32_long_vector", T((1037,), "float32"), T((1037,), "float32"),
            T((1037,), "float32", k2), {"value": 0.25})
        add("f32_value_int", T((3,), "float32"), T((3,), "float32"), T((3,), "float32", k2),
            {"value": 3})
        for dt in NAMES:
            if dt != "float32":
                add(f"{SHORT[dt]}_values", T((2, 3), dt), T((2, 3), dt), T((2, 3), dt, k2),
                    expect="any")
        add("mixed_f16_f32", T((3,), "float16"), T((3,), "float32"), T((3,), "float32", k2),
            expect="any")
        add("mixed_i64_f64", T((3,), "int64"), T((3,), "float64"), T((3,), "float64", k2),
            expect="any")
        if op == "addcmul":  # torch truncates a float value for integer tensors
            add("i64_float_value_truncates", T((3,), "int64"), T((3,), "int64"),
                T((3,), "int64"), {"value": 1.7})
    fn = lambda input, tensor1, tensor2, **kw: torch.addcdiv(input, tensor1, tensor2, **kw)  # noqa
    b.case("addcdiv", "f32_by_zero", fn,
           {"input": T((4,), "float32"), "tensor1": _ints("float32", [1.0, -1.0, 0.0, "nan"]),
            "tensor2": _ints("float32", [0.0, 0.0, 0.0, 1.0])})

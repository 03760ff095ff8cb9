"""where(condition, input, other), with its gradient cases, and clamp(input,
min, max)."""

import torch

from .framework import NAMES, SHORT, T, S

FLOATS = ("float32", "float64")


def _where(condition, input, other):
    return torch.where(condition, input, other)


def _clamp(input, min=None, max=None):
    return torch.clamp(input, min=min, max=max)


def _ints(dt, vals, shape=None):
    return T(shape or (len(vals),), dt, values=vals)


def where(b):
    def add(name, c, x, y, **kw):
        b.case("where", name, _where, {"condition": c, "input": x, "other": y}, **kw)

    f32 = "float32"
    add("same_shape", T((3, 4), "bool"), T((3, 4), f32), T((3, 4), f32))
    add("condition_broadcast", T((3, 1), "bool"), T((3, 4), f32), T((3, 4), f32))
    add("three_way_broadcast", T((1, 4), "bool"), T((3, 1), f32), T((2, 1, 1), f32))
    add("transposed_condition", T((4, 3), "bool", view=["transpose:0:1"]),
        T((3, 4), f32), T((4,), f32))
    add("all_views", T((3, 9), "bool", view=["slice:1:1:9:2"]),
        T((4, 3), f32, view=["transpose:0:1"]), T((1, 4), f32, view=["expand:3:4"]))
    add("permuted_input", T((4, 2, 3), "bool"), T((2, 3, 4), f32, view=["permute:2:0:1"]),
        T((4, 2, 3), f32))
    add("diagonal_operands", T((4,), "bool"), T((4, 4), f32, view=["diagonal:0:0:1"]),
        T((4, 5), f32, view=["diagonal:1:0:1"]))
    add("zero_d_all", T((), "bool"), T((), f32), T((), f32))
    add("zero_d_condition", T((), "bool"), T((2, 3), f32), T((2, 3), f32))
    add("empty", T((0, 3), "bool"), T((0, 3), f32), T((3,), f32))
    add("long_vector", T((1037,), "bool"), T((1037,), f32), T((1037,), f32))
    add("scalar_other", T((3, 4), "bool"), T((3, 4), f32), S(0.0))
    add("scalar_input", T((3, 4), "bool"), S(-1.5), T((3, 4), f32))
    add("scalar_both_float", T((2, 3), "bool"), S(1.0), S(0.0), expect="any")
    add("scalar_both_int", T((2, 3), "bool"), S(1), S(0), expect="any")
    add("i64_tensor_float_scalar", T((4,), "bool"), T((4,), "int64"), S(2.5), expect="any")
    add("f16_tensor_float_scalar", T((4,), "bool"), T((4,), "float16"), S(2.5), expect="any")
    add("i32_tensor_int_scalar", T((4,), "bool"), T((4,), "int32"), S(7), expect="any")
    add("u8_tensor_negative_scalar", T((4,), "bool"), T((4,), "uint8"), S(-1), expect="any")
    add("mixed_i64_f32", T((3, 4), "bool"), T((3, 4), "int64"), T((4,), f32), expect="any")
    add("mixed_f16_f64_zero_d", T((4,), "bool"), T((4,), "float16"), T((), "float64"),
        expect="any")
    add("mixed_i8_u8", T((4,), "bool"), T((4,), "int8"), T((4,), "uint8"), expect="any")
    add("mixed_bool_f32", T((4,), "bool"), T((4,), "bool"), T((4,), f32), expect="any")
    add("nan_passthrough", T((4,), "bool", values=[True, False, True, False]),
        T((4,), f32, values=["nan", 1.0, -0.0, "inf"]),
        T((4,), f32, values=[2.0, "nan", 3.0, -0.0]), signed_zeros=True)
    for dt in NAMES:
        add(f"{SHORT[dt]}_values", T((3, 4), "bool"), T((3, 4), dt), T((3, 4), dt), expect="any")
        if dt != "bool":
            add(f"{SHORT[dt]}_as_condition", T((4,), dt), T((4,), f32), T((4,), f32),
                expect="any")


def clamp(b):
    def add(name, x, lo=None, hi=None, **kw):
        ops = {"input": x}
        if lo is not None:
            ops["min"] = lo
        if hi is not None:
            ops["max"] = hi
        b.case("clamp", name, _clamp, ops, **kw)

    f32 = "float32"
    add("f32_scalar_both", T((3, 4), f32), S(-0.5), S(0.5))
    add("f32_scalar_min_only", T((3, 4), f32), S(0.0))
    add("f32_scalar_max_only", T((3, 4), f32), hi=S(1.0))
    add("f32_min_greater_than_max", T((6,), f32), S(1.0), S(-1.0))
    add("f32_tensor_both", T((3, 4), f32), T((3, 4), f32), T((3, 4), f32))
    add("f32_tensor_min_broadcast", T((3, 4), f32), T((4,), f32))
    add("f32_tensor_max_broadcast", T((3, 4), f32), hi=T((3, 1), f32))
    add("f32_transposed_input", T((4, 3), f32, view=["transpose:0:1"]), S(-1.0), S(1.0))
    add("f32_stepped_input_tensor_bounds", T((3, 9), f32, view=["slice:1:1:9:2"]),
        T((1, 4), f32, view=["expand:3:4"]), T((4, 3), f32, view=["transpose:0:1"]))
    add("f32_broadcast_bounds_grow_shape", T((4,), f32), T((3, 1), f32), T((3, 4), f32))
    add("f32_zero_d", T((), f32), S(-0.5), S(0.5))
    add("f32_empty", T((0, 4), f32), S(-0.5), S(0.5))
    add("f32_long_vector", T((1037,), f32), S(-0.5), S(0.5))
    add("none_both_error", T((3,), f32), expect="error")
    add("f32_nan_input", T((5,), f32, values=["nan", 1.0, -3.0, "inf", "-inf"]), S(-1.0), S(2.0))
    add("f32_nan_min_scalar", T((3,), f32, values=[1.0, -3.0, "nan"]), S("nan"))
    add("f32_nan_max_scalar", T((3,), f32, values=[1.0, -3.0, "nan"]), hi=S("nan"))
    add("f32_nan_bound_tensor", T((4,), f32, values=[1.0, -3.0, 0.5, "nan"]),
        T((4,), f32, values=["nan", 0.0, "nan", 0.0]), T((4,), f32, values=[2.0, "nan", "nan", 1.0]))
    add("f32_infinite_bounds", T((4,), f32, values=[1.0, -3.0, "inf", "-inf"]), S("-inf"), S("inf"))
    add("i64_int_bounds", T((6,), "int64"), S(-3), S(4))
    add("i64_float_bounds", T((6,), "int64"), S(-2.5), S(3.5), expect="any")
    add("u8_negative_min", T((5,), "uint8"), S(-1), S(10), expect="any")
    add("i32_tensor_bounds_i64", T((6,), "int32"), T((6,), "int64"), T((6,), "int64"),
        expect="any")
    add("f16_fractional_bounds", T((6,), "float16"), S(-0.5), S(0.5), expect="any")
    add("f16_tensor_min_f32", T((6,), "float16"), T((6,), f32), expect="any")
    add("i64_extremes", T((3,), "int64", values=[-2**63, 2**63 - 1, 0]), S(-5), S(5))
    add("bool_bounds", T((4,), "bool"), S(False), S(True), expect="any")
    for dt in NAMES:
        if dt not in ("float32", "bool"):
            add(f"{SHORT[dt]}_scalar_bounds", T((3, 4), dt), S(-1), S(2), expect="any")
            add(f"{SHORT[dt]}_transposed_tensor_bounds", T((4, 3), dt, view=["transpose:0:1"]),
                T((4,), dt), T((3, 1), dt), expect="any")


def where_grads(b):
    w = lambda condition, input, other: torch.where(condition, input, other)  # noqa: E731
    for dt in FLOATS:
        sh, g = SHORT[dt], ["input", "other"]
        b.case("where", f"grad_{sh}_same_shape", w,
               {"condition": T((3, 4), "bool"), "input": T((3, 4), dt), "other": T((3, 4), dt)},
               grad=g)
        b.case("where", f"grad_{sh}_broadcast", w,
               {"condition": T((3, 1), "bool"), "input": T((4,), dt), "other": T((3, 4), dt)},
               grad=g)
        b.case("where", f"grad_{sh}_views", w,
               {"condition": T((4, 3), "bool", view=["transpose:0:1"]),
                "input": T((3, 9), dt, view=["slice:1:1:9:2"]),
                "other": T((1, 4), dt, view=["expand:3:4"])}, grad=g)
        b.case("where", f"grad_{sh}_scalar_other", w,
               {"condition": T((2, 3), "bool"), "input": T((2, 3), dt), "other": S(0.0)},
               grad=["input"])
        b.case("where", f"grad_{sh}_zero_d_operand", w,
               {"condition": T((2, 3), "bool"), "input": T((), dt), "other": T((2, 3), dt)},
               grad=g)
        b.case("where", f"grad_{sh}_nan_not_selected", w,
               {"condition": _ints("bool", [True, False, True]),
                "input": _ints(dt, [1.0, "nan", 2.0]), "other": _ints(dt, ["inf", 3.0, "nan"])},
               grad=g)

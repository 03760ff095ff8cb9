"""Ternary ops: lerp (weight tensor or scalar), addcmul and addcdiv (value)."""

import torch

from .framework import NAMES, SHORT, T, S


def _ints(dt, vals):
    return T((len(vals),), dt, values=vals)


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

"""Arithmetic binary ops: add, sub, mul, div, floor_divide, remainder, pow,
maximum, minimum."""

import torch

from .framework import NAMES, SHORT, TRANSCENDENTAL, T, S
from .patterns import CORE_LAYOUTS, MIXED_PAIRS, binary_layouts, promotion_operands, special_grid

I64_MIN, I64_MAX = -2**63, 2**63 - 1
I32_MIN, I32_MAX = -2**31, 2**31 - 1


def _f(torch_fn, b="other"):
    """Adapter: operand names input/<b> plus keyword args."""
    return lambda input, **kw: torch_fn(input, kw.pop(b), **kw)


OPS = {
    "add": _f(torch.add), "sub": _f(torch.sub), "mul": _f(torch.mul),
    "div": _f(torch.div), "floor_divide": _f(torch.floor_divide),
    "remainder": _f(torch.remainder), "pow": _f(torch.pow, "exponent"),
    "maximum": _f(torch.maximum), "minimum": _f(torch.minimum),
}
SECOND = {"pow": "exponent"}
# Operand value kinds: divisors avoid zero, pow bases stay positive so that
# random fractional exponents give finite results.
KINDS = {
    "div": ("normal", "nonzero"), "floor_divide": ("normal", "nonzero"),
    "remainder": ("normal", "nonzero"), "pow": ("positive", "unit"),
    "maximum": ("ties", "ties"), "minimum": ("ties", "ties"),
}
TOL = {"pow": TRANSCENDENTAL}
# torch.maximum/minimum accept no Python scalar operand.
TENSOR_ONLY = ("maximum", "minimum")


def _generic(b, op, args=None, tag="", *, fn=None, kinds=None, tol=None, scalars=None,
             grad=None):
    """Layouts, dtype sweep, mixed dtypes, 0-d/scalar promotion, special values.

    fn/kinds/tol/scalars default to this module's tables (OPS, KINDS, TOL,
    TENSOR_ONLY); other families pass their own.  grad: add float32/float64
    gradient cases named grad_<layout> for these operand names."""
    fn, second = fn or OPS[op], SECOND.get(op, "other")
    ka, kb = kinds or KINDS.get(op, ("normal", "normal"))
    tol = tol or TOL.get(op)
    scalars = op not in TENSOR_ONLY if scalars is None else scalars
    args = args or {}

    def add(name, x, y, **kw):
        if not scalars and isinstance(y, S):
            return
        kw.setdefault("tol", tol)
        b.case(op, tag + name, fn, {"input": x, second: y}, args, **kw)

    for name, x, y in binary_layouts("float32", ka, kb):
        if not tag or name in CORE_LAYOUTS:
            add(f"f32_{name}", x, y)
    for dt in NAMES:
        sh = SHORT[dt]
        for name, x, y in binary_layouts(dt, ka, kb) if dt != "float32" else ():
            if name in ("same_shape", "transposed_broadcast", "zero_d_other"):
                add(f"{sh}_{name}", x, y, expect="any")
    for da, db in MIXED_PAIRS:
        add(f"mixed_{SHORT[da]}_{SHORT[db]}", T((3, 4), da, ka), T((4,), db, kb),
            expect="any")
    for name, x, y in promotion_operands(ka, kb):
        add(name, x, y, expect="any")
    add("f32_tensor_int_scalar", T((2, 3), "float32", ka), S(3))
    add("f32_tensor_float_scalar", T((2, 3), "float32", ka), S(-1.25))
    add("f32_transposed_float_scalar", T((3, 2), "float32", ka, ["transpose:0:1"]), S(0.75))
    for dt in ("float32", "float64", "float16", "bfloat16"):
        x, y = special_grid(dt)
        add(f"special_values_{SHORT[dt]}", x, y, signed_zeros="auto", expect="any")
    for name, x, y in (grad_layouts(ka, kb) if grad else ()):
        add(f"grad_{name}", x, y, grad=[n for n in grad if n != second or not isinstance(y, S)])


def grad_layouts(ka="normal", kb="normal"):
    """Operand pairs for gradient cases: float32 and float64, views, broadcasting."""
    out = []
    for dt in ("float32", "float64"):
        sh = SHORT[dt]
        out += [
            (f"{sh}_same_shape", T((3, 4), dt, ka), T((3, 4), dt, kb)),
            (f"{sh}_broadcast", T((2, 3, 4), dt, ka), T((3, 1), dt, kb)),
            (f"{sh}_transposed", T((4, 3), dt, ka, ["transpose:0:1"]), T((4,), dt, kb)),
            (f"{sh}_expanded", T((1, 4), dt, ka, ["expand:3:4"]),
             T((3, 8), dt, kb, ["slice:1:0:8:2"])),
        ]
    out.append(("f32_zero_d_other", T((2, 3), "float32", ka), T((), "float32", kb)))
    out.append(("f64_scalar_other", T((2, 3), "float64", ka), S(0.75)))
    return out


def _ints(dt, vals):
    return T((len(vals),), dt, values=vals)


# Where each operand is a Python scalar: PyTorch's schemas decide which forms
# exist (a both-scalar add/sub/mul/div/floor_divide is a 0-d tensor; maximum,
# atan2, logical_and ... take no scalar at all); "any" records what torch does.
SCALAR_FORMS = (
    ("i64_scalar", lambda: T((3,), "int64", "int"), lambda: S(2)),
    ("f32_scalar", lambda: T((3,), "float32"), lambda: S(2.5)),
    ("bool_scalar", lambda: T((3,), "bool", "bool"), lambda: S(True)),
)
BOTH_SCALARS = (("int_int", 7, -2), ("bool_bool", False, True), ("float_int", 2.5, 3),
                ("float_float", -1.5, 0.25))


def _expect(fn, a, b):
    """"error" where torch's argument parser refuses the form (a TypeError,
    which depends on the operand types only), else "any"."""
    probe = lambda v: torch.ones(v.shape, dtype=getattr(torch, v.dtype)) if isinstance(v, T) \
        else v.value  # noqa: E731
    try:
        fn(probe(a), probe(b))
    except TypeError:
        return "error"
    except (RuntimeError, ValueError):
        pass
    return "any"


def scalar_forms(b, op, fn):
    forms = []
    for tag, tensor, scalar in SCALAR_FORMS:
        forms += [(f"{tag}_other", tensor(), scalar()), (f"{tag}_input", scalar(), tensor())]
    forms += [(f"both_{tag}", S(x), S(y)) for tag, x, y in BOTH_SCALARS]
    for tag, x, y in forms:
        b.case(op, f"scalar_form_{tag}", fn, {"input": x, "other": y}, expect=_expect(fn, x, y))


def add_sub_mul(b):
    for op in ("add", "sub", "mul"):
        _generic(b, op)
    for op in ("add", "sub", "mul", "div", "floor_divide", "remainder", "maximum", "minimum",
               "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor"):
        tfn = getattr(torch, op)
        scalar_forms(b, op, lambda input, other, tfn=tfn: tfn(input, other))
    add, sub, mul = OPS["add"], OPS["sub"], OPS["mul"]
    for op, fn in (("add", add), ("sub", sub)):
        b.case(op, "f32_alpha_float", fn,
               {"input": T((3, 4), "float32"), "other": T((4,), "float32")}, {"alpha": 2.5})
        b.case(op, "i64_alpha_int", fn,
               {"input": T((3, 4), "int64"), "other": T((3, 4), "int64")}, {"alpha": 3})
        b.case(op, "i32_alpha_negative", fn,
               {"input": T((5,), "int32"), "other": T((5,), "int32")}, {"alpha": -2})
        b.case(op, "f64_alpha_transposed", fn,
               {"input": T((4, 3), "float64", view=["transpose:0:1"]),
                "other": T((3, 1), "float64")}, {"alpha": -0.5})
        b.case(op, "f32_scalar_other_alpha", fn,
               {"input": T((2, 3), "float32"), "other": S(1.5)}, {"alpha": 2})
        b.case(op, "i64_alpha_float_error", fn,
               {"input": T((3,), "int64"), "other": T((3,), "int64")}, {"alpha": 0.5},
               expect="error")
        b.case(op, "bool_alpha_int", fn,
               {"input": T((4,), "bool"), "other": T((4,), "bool")}, {"alpha": 2},
               expect="any")
        b.case(op, "u8_alpha_wraps", fn,
               {"input": _ints("uint8", [0, 1, 200, 255]),
                "other": _ints("uint8", [100, 200, 3, 255])}, {"alpha": 3})
        b.case(op, "f16_alpha", fn,
               {"input": T((8,), "float16"), "other": T((8,), "float16")}, {"alpha": 0.5})
    # Two's complement wrap-around.
    add_wrap = [("i8", "int8", [127, -128, 100, -100], [1, -1, 100, -100]),
                ("u8", "uint8", [255, 0, 128, 200], [1, 255, 128, 100]),
                ("i16", "int16", [32767, -32768, 20000], [1, -1, 20000]),
                ("i32", "int32", [I32_MAX, I32_MIN, 2**30], [1, -1, 2**30]),
                ("i64", "int64", [I64_MAX, I64_MIN, 2**62], [1, -1, 2**62])]
    for sh, dt, x, y in add_wrap:
        b.case("add", f"{sh}_overflow_wraps", add, {"input": _ints(dt, x), "other": _ints(dt, y)})
        b.case("sub", f"{sh}_overflow_wraps", sub, {"input": _ints(dt, x), "other": _ints(dt, y)})
    mul_wrap = [("i8", "int8", [100, -128, 16, -1], [2, -1, 16, -128]),
                ("u8", "uint8", [16, 255, 128], [16, 255, 2]),
                ("i16", "int16", [300, -32768, 256], [300, -1, 256]),
                ("i32", "int32", [65536, I32_MIN, 46341], [65536, -1, 46341]),
                ("i64", "int64", [2**62, I64_MIN, 3037000500], [4, -1, 3037000500])]
    for sh, dt, x, y in mul_wrap:
        b.case("mul", f"{sh}_overflow_wraps", mul, {"input": _ints(dt, x), "other": _ints(dt, y)})
    b.case("add", "i64_max_plus_one_scalar", add, {"input": _ints("int64", [I64_MAX]), "other": S(1)})
    b.case("sub", "u8_zero_minus_one_scalar", sub, {"input": _ints("uint8", [0, 5]), "other": S(1)})
    b.case("sub", "bool_bool_error", sub,
           {"input": T((3,), "bool"), "other": T((3,), "bool")}, expect="error")
    b.case("sub", "bool_tensor_bool_scalar_error", sub,
           {"input": T((3,), "bool"), "other": S(True)}, expect="error")
    b.case("add", "bool_bool_is_or", add,
           {"input": T((2, 2), "bool", values=[True, True, False, False]),
            "other": T((2, 2), "bool", values=[True, False, True, False])})
    b.case("mul", "bool_bool_is_and", mul,
           {"input": T((2, 2), "bool", values=[True, True, False, False]),
            "other": T((2, 2), "bool", values=[True, False, True, False])})
    b.case("mul", "f32_minus_one_times_zero", mul,
           {"input": T((4,), "float32", values=[-1.0, 1.0, -0.0, 0.0]), "other": S(0.0)},
           signed_zeros=True)
    b.case("mul", "f32_zero_scalar_negative_zero", mul,
           {"input": T((3,), "float32", values=[-2.0, 3.0, -0.0]), "other": S(-0.0)},
           signed_zeros=True)
    b.case("add", "f32_negative_zero_sum", add,
           {"input": T((4,), "float32", values=[-0.0, -0.0, 0.0, 0.0]),
            "other": T((4,), "float32", values=[-0.0, 0.0, -0.0, 0.0])}, signed_zeros=True)
    b.case("mul", "u8_tensor_negative_scalar_wraps", mul,
           {"input": _ints("uint8", [3, 100, 255]), "other": S(-1)})
    b.case("mul", "c64_complex_product", mul,
           {"input": T((2, 3), "complex64"), "other": T((2, 3), "complex64")})

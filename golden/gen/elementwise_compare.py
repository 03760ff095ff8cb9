"""Comparisons (eq, ne, lt, le, gt, ge) and logical_and/or/xor."""

import torch

from .framework import NAMES, SHORT, T, S
from .patterns import CORE_LAYOUTS, MIXED_PAIRS, binary_layouts, promotion_operands, special_grid

COMPARE = {"eq": torch.eq, "ne": torch.ne, "lt": torch.lt, "le": torch.le,
           "gt": torch.gt, "ge": torch.ge}
LOGICAL = {"logical_and": torch.logical_and, "logical_or": torch.logical_or,
           "logical_xor": torch.logical_xor}


def _f(torch_fn):
    return lambda input, other: torch_fn(input, other)


def _generic(b, op, fn, kind, full=True):
    def add(name, x, y, **kw):
        if op in LOGICAL and isinstance(y, S):
            return  # torch.logical_* take no Python scalar operand
        b.case(op, name, fn, {"input": x, "other": y}, **kw)

    for name, x, y in binary_layouts("float32", kind, kind):
        if full or name in CORE_LAYOUTS:
            add(f"f32_{name}", x, y)
    for dt in NAMES:
        if dt == "float32":
            continue
        for name, x, y in binary_layouts(dt, kind, kind):
            if name in ("same_shape", "transposed_broadcast", "zero_d_other"):
                add(f"{SHORT[dt]}_{name}", x, y, expect="any")
    for da, db in MIXED_PAIRS:
        add(f"mixed_{SHORT[da]}_{SHORT[db]}", T((3, 4), da, kind), T((4,), db, kind),
            expect="any")
    for name, x, y in promotion_operands(kind, kind):
        add(name, x, y, expect="any")
    for dt in ("float32", "float64", "float16", "bfloat16"):
        x, y = special_grid(dt)
        add(f"special_values_{SHORT[dt]}", x, y, expect="any")


def comparisons(b):
    for op, tfn in COMPARE.items():
        fn = _f(tfn)
        _generic(b, op, fn, "ties", full=op in ("eq", "lt"))

        def add(name, x, y, **kw):
            b.case(op, name, fn, {"input": x, "other": y}, **kw)

        # int64 vs float32 compares in float32: 2^24+1 rounds to 2^24.
        add("i64_vs_f32_precision", T((3,), "int64", values=[16777217, 16777216, -16777217]),
            T((3,), "float32", values=[16777216.0, 16777216.0, -16777216.0]))
        add("i64_extremes", T((4,), "int64", values=[-2**63, 2**63 - 1, 0, -1]),
            T((4,), "int64", values=[2**63 - 1, -2**63, 0, 0]))
        add("u8_vs_i8", T((4,), "uint8", values=[0, 200, 255, 5]),
            T((4,), "int8", values=[-1, -56, -1, 5]))
        add("u8_vs_negative_scalar", T((4,), "uint8", values=[0, 200, 255, 5]), S(-1))
        add("i32_vs_float_scalar", T((5,), "int32", values=[-3, 2, 3, 0, 1]), S(2.5))
        add("f32_vs_nan_scalar", T((3,), "float32", values=[1.0, "nan", "inf"]), S("nan"))
        add("f32_vs_inf_scalar", T((3,), "float32", values=[1.0, "nan", "inf"]), S("inf"))
        add("f32_signed_zero", T((2,), "float32", values=[0.0, -0.0]),
            T((2,), "float32", values=[-0.0, 0.0]))
        add("bool_vs_int_scalar", T((2,), "bool", values=[True, False]), S(1))
        add("f16_vs_zero_d_f64", T((3,), "float16", values=[0.1, 0.5, 1.0]),
            T((), "float64", values=[0.1]))
        add("c64_complex", T((4,), "complex64", values=[1 + 1j, 1 + 0j, 2j, 0j]),
            T((4,), "complex64", values=[1 + 1j, 1 - 0j, 2j, 1j]), expect="any")


def logical(b):
    for op, tfn in LOGICAL.items():
        fn = _f(tfn)
        _generic(b, op, fn, "small", full=op == "logical_and")
        vals = ["nan", 0.0, -0.0, 1e-40, "inf", 2.0]

        b.case(op, "f32_truthiness", fn,
               {"input": T((6, 1), "float32", values=vals), "other": T((1, 6), "float32", values=vals)})
        b.case(op, "c64_truthiness", fn,
               {"input": T((4,), "complex64", values=[0j, 1j, 1 + 0j, 0j]),
                "other": T((4,), "complex64", values=[0j, 0j, 1j, -0.0 + 0j])})
        b.case(op, "i64_vs_bool", fn,
               {"input": T((4,), "int64", values=[0, 5, -3, 0]),
                "other": T((4,), "bool", values=[True, False, True, False])})
        b.case(op, "u8_vs_f16", fn,
               {"input": T((4,), "uint8", values=[0, 5, 0, 255]),
                "other": T((4,), "float16", values=[0.0, "nan", 0.5, -0.0])})

"""More binary elementwise ops: fmod, atan2, hypot, copysign, fmax, fmin and
the bitwise family (bitwise_and/or/xor/not, bitwise_left_shift/right_shift)."""

import torch

from . import elementwise_binary
from .framework import INTS, NAMES, SHORT, TRANSCENDENTAL, T, S
from .patterns import CORE_LAYOUTS, MIXED_PAIRS, binary_layouts, promotion_operands


def _f(torch_fn):
    return lambda input, other, **kw: torch_fn(input, other, **kw)


# op -> (callable, operand kinds, tolerance, accepts a Python scalar `other`)
FLOAT_OPS = {
    "fmod": (_f(torch.fmod), ("normal", "nonzero"), None, True),
    "atan2": (_f(torch.atan2), ("normal", "normal"), TRANSCENDENTAL, False),
    "hypot": (_f(torch.hypot), ("normal", "normal"), TRANSCENDENTAL, False),
    "copysign": (_f(torch.copysign), ("normal", "normal"), None, True),
    "fmax": (_f(torch.fmax), ("ties", "ties"), None, False),
    "fmin": (_f(torch.fmin), ("ties", "ties"), None, False),
}
BITWISE = {
    "bitwise_and": _f(torch.bitwise_and), "bitwise_or": _f(torch.bitwise_or),
    "bitwise_xor": _f(torch.bitwise_xor),
    "bitwise_left_shift": _f(torch.bitwise_left_shift),
    "bitwise_right_shift": _f(torch.bitwise_right_shift),
}
SHIFTS = ("bitwise_left_shift", "bitwise_right_shift")


def _ints(dt, vals):
    return T((len(vals),), dt, values=vals)


def float_binary(b):
    for op, (fn, kinds, tol, scalars) in FLOAT_OPS.items():
        elementwise_binary._generic(b, op, fn=fn, kinds=kinds, tol=tol, scalars=scalars,
                        grad=["input", "other"])
    for op in ("fmod", "atan2", "hypot", "copysign", "fmax", "fmin", "bitwise_and",
               "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"):
        tfn = getattr(torch, op)
        elementwise_binary.scalar_forms(b, op, lambda input, other, tfn=tfn: tfn(input, other))
    fmod, copysign = FLOAT_OPS["fmod"][0], FLOAT_OPS["copysign"][0]
    fmax, fmin = FLOAT_OPS["fmax"][0], FLOAT_OPS["fmin"][0]
    # Sign of fmod follows the dividend (unlike remainder).
    for dt in ("int64", "int32", "int8", "int16"):
        b.case("fmod", f"{dt}_signs", fmod,
               {"input": _ints(dt, [7, -7, 7, -7, 0, 5]),
                "other": _ints(dt, [2, 2, -2, -2, 3, 5])})
    b.case("fmod", "i8_min_by_minus_one", fmod,
           {"input": _ints("int8", [-128, 127]), "other": _ints("int8", [-1, -1])})
    b.case("fmod", "i64_by_zero_error", fmod,
           {"input": _ints("int64", [5, 1]), "other": _ints("int64", [0, 1])}, expect="error")
    b.case("fmod", "f32_signs", fmod,
           {"input": _ints("float32", [7.5, -7.5, 7.5, -7.5, 0.0, -0.0, 5.0, -1e-30]),
            "other": _ints("float32", [2.0, 2.0, -2.0, -2.0, 3.0, 3.0, 0.0, 1.0])},
           signed_zeros="auto")
    b.case("fmod", "i64_float_scalar", fmod, {"input": _ints("int64", [5, -5, 7]), "other": S(2.5)})
    b.case("fmod", "f32_zero_scalar", fmod, {"input": T((4,), "float32"), "other": S(0)})
    b.case("copysign", "i64_inputs_give_float", copysign,
           {"input": _ints("int64", [3, -3, 0, 5]), "other": _ints("int64", [-1, 1, -1, 0])})
    b.case("copysign", "f32_signed_zero_other", copysign,
           {"input": _ints("float32", [1.0, 2.0, "nan", "inf", 0.0]),
            "other": _ints("float32", [-0.0, 0.0, -1.0, -0.0, -0.0])}, signed_zeros=True)
    b.case("copysign", "f32_scalar_negative_zero", copysign,
           {"input": T((2, 3), "float32"), "other": S(-0.0)}, signed_zeros=True)
    for op, fn in (("fmax", fmax), ("fmin", fmin)):
        b.case(op, "f32_nan_ignored", fn,
               {"input": _ints("float32", ["nan", 1.0, "nan", -0.0, 0.0, "-inf"]),
                "other": _ints("float32", [2.0, "nan", "nan", 0.0, -0.0, "nan"])})
        b.case(op, "i64_values", fn, {"input": T((3, 4), "int64"), "other": T((4,), "int64")})
        b.case(op, "grad_f64_ties_and_nan", fn,
               {"input": _ints("float64", [1.0, 2.0, "nan", 3.0, 4.0]),
                "other": _ints("float64", [1.0, 1.0, 5.0, "nan", 4.0])},
               grad=["input", "other"])
    b.case("atan2", "f32_quadrants_and_zeros", FLOAT_OPS["atan2"][0],
           {"input": _ints("float32", [0.0, -0.0, 0.0, -0.0, 1.0, -1.0, 1.0, "inf", "-inf"]),
            "other": _ints("float32", [0.0, 0.0, -0.0, -0.0, "-inf", "-inf", 0.0, "inf", "-inf"])},
           tol=TRANSCENDENTAL, signed_zeros="auto")
    b.case("hypot", "f32_inf_beats_nan", FLOAT_OPS["hypot"][0],
           {"input": _ints("float32", ["inf", "nan", 3.0, 1e30, 1e-30]),
            "other": _ints("float32", ["nan", "-inf", 4.0, 1e30, 1e-30])}, tol=TRANSCENDENTAL)


def _int_layouts():
    return [(n, x, y) for n, x, y in binary_layouts("int32", "normal", "normal")
            if n in CORE_LAYOUTS + ("both_transposed", "four_d_broadcast", "diagonal")]


def bitwise(b):
    for op, fn in BITWISE.items():
        shift = op in SHIFTS
        kb = "range:0:8" if shift else "normal"

        def add(name, x, y, **kw):
            b.case(op, name, fn, {"input": x, "other": y}, **kw)

        for name, x, y in _int_layouts():
            y.kind = kb if y.kind == "normal" else y.kind
            add(f"i32_{name}", x, y)
        for dt in NAMES:
            if dt != "int32":
                add(f"{SHORT[dt]}_same_shape", T((3, 4), dt), T((3, 4), dt, "range:0:4" if shift
                                                              else "normal"), expect="any")
                add(f"{SHORT[dt]}_transposed_broadcast", T((4, 3), dt, view=["transpose:0:1"]),
                    T((4,), dt, "range:0:4" if shift else "normal"), expect="any")
        for da, db in MIXED_PAIRS:
            add(f"mixed_{SHORT[da]}_{SHORT[db]}", T((3, 4), da),
                T((4,), db, "range:0:4" if shift else "normal"), expect="any")
        for name, x, y in promotion_operands("normal", "range:0:4" if shift else "normal"):
            add(name, x, y, expect="any")
        add("i64_int_scalar", T((2, 3), "int64"), S(3))
        add("i64_tensor_float_scalar_error", T((2, 3), "int64"), S(1.5), expect="error")
        add("f32_error", T((3,), "float32"), T((3,), "float32"), expect="error")
    band, bor, bxor = (BITWISE[o] for o in ("bitwise_and", "bitwise_or", "bitwise_xor"))
    for op, fn in (("bitwise_and", band), ("bitwise_or", bor), ("bitwise_xor", bxor)):
        b.case(op, "bool_truth_table", fn,
               {"input": _ints("bool", [False, False, True, True]),
                "other": _ints("bool", [False, True, False, True])})
        for dt, lo, hi in (("int8", -128, 127), ("uint8", 0, 255), ("int64", -2**63, 2**63 - 1)):
            b.case(op, f"{dt}_extremes", fn,
                   {"input": _ints(dt, [lo, hi, lo, -1 if lo else 0, 85]),
                    "other": _ints(dt, [hi, hi, -1 if lo else 255, lo, -86 if lo else 170])})
        b.case(op, "bool_tensor_int_scalar_two", fn, {"input": T((4,), "bool"), "other": S(2)})
    _shifts(b)
    _not(b)


def _shifts(b):
    lsh, rsh = BITWISE["bitwise_left_shift"], BITWISE["bitwise_right_shift"]
    for op, fn in (("bitwise_left_shift", lsh), ("bitwise_right_shift", rsh)):
        for dt, bits in (("int8", 8), ("int16", 16), ("int32", 32), ("int64", 64)):
            lo = -2**(bits - 1)
            b.case(op, f"{dt}_in_range", fn,
                   {"input": _ints(dt, [1, -1, 5, lo, -lo - 1, -7, 3]),
                    "other": _ints(dt, [0, 1, 2, 1, bits - 1, 3, bits - 2])})
            # Counts >= the bit width or negative: undefined in C; torch 1.13
            # on x86-64 masks the count to 6 bits for 64-bit operands and
            # shifts the promoted int for narrower ones.
            b.case(op, f"{dt}_count_out_of_range", fn,
                   {"input": _ints(dt, [1, -1, 8, -8, 1]),
                    "other": _ints(dt, [bits, bits + 6, -1, bits, 2 * bits])},
                   signed_zeros="auto")
        b.case(op, "u8_values", fn,
               {"input": _ints("uint8", [1, 128, 255, 7, 200]),
                "other": _ints("uint8", [7, 1, 4, 0, 3])})
        b.case(op, "u8_count_out_of_range", fn,
               {"input": _ints("uint8", [1, 255, 5]), "other": _ints("uint8", [8, 9, 200])})
        b.case(op, "int_scalar_input", fn, {"input": S(5), "other": T((3,), "int64", "range:0:4")})
        b.case(op, "bool_error", fn, {"input": T((3,), "bool"), "other": T((3,), "bool")},
               expect="error")


def _not(b):
    fn = lambda input: torch.bitwise_not(input)  # noqa: E731
    for dt in INTS + ["bool"]:
        sh = SHORT[dt]
        b.case("bitwise_not", f"{sh}_contiguous", fn, {"input": T((3, 4), dt)})
        b.case("bitwise_not", f"{sh}_transposed", fn,
               {"input": T((4, 3), dt, view=["transpose:0:1"])})
    b.case("bitwise_not", "i64_extremes", fn, {"input": _ints("int64", [-2**63, 2**63 - 1, 0, -1])})
    b.case("bitwise_not", "u8_extremes", fn, {"input": _ints("uint8", [0, 255, 170])})
    b.case("bitwise_not", "i32_stepped", fn, {"input": T((3, 9), "int32", view=["slice:1:1:9:2"])})
    b.case("bitwise_not", "i32_expanded", fn, {"input": T((1, 4), "int32", view=["expand:3:4"])})
    b.case("bitwise_not", "i32_zero_d", fn, {"input": T((), "int32")})
    b.case("bitwise_not", "i32_empty", fn, {"input": T((0, 3), "int32")})
    b.case("bitwise_not", "i16_long_vector", fn, {"input": T((1037,), "int16")})
    for dt in ("float16", "bfloat16", "float32", "float64", "complex64", "complex128"):
        b.case("bitwise_not", f"{SHORT[dt]}_error", fn, {"input": T((3,), dt)}, expect="error")

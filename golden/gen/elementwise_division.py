"""Division family (div with rounding modes, floor_divide, remainder), pow,
maximum and minimum."""

from .elementwise_binary import OPS, _generic, _ints, I64_MIN, I64_MAX, I32_MIN
from .framework import TRANSCENDENTAL, T, S

NEG = [7, -7, 7, -7, 6, -6, 0, 1, -1]
NEG_D = [2, 2, -2, -2, 3, 3, 5, -5, 5]
FLT = [7.5, -7.5, 7.5, -7.5, 0.0, -0.0, 1.0, -1.0, 5.0, -5.0, 0.3, -0.3]
FLT_D = [2.0, 2.0, -2.0, -2.0, 3.0, 3.0, -3.0, 3.0, 0.1, -0.1, 0.1, 0.1]


def _pair(dt, x, y):
    return {"input": T((len(x),), dt, values=x), "other": T((len(y),), dt, values=y)}


def div(b):
    fn = OPS["div"]
    _generic(b, "div")
    for mode in ("trunc", "floor"):
        _generic(b, "div", {"rounding_mode": mode}, tag=f"{mode}_")
    b.case("div", "rounding_none_explicit", fn,
           {"input": T((3, 4), "float32"), "other": T((4,), "float32", "nonzero")},
           {"rounding_mode": None})
    b.case("div", "rounding_invalid_error", fn,
           {"input": T((3,), "float32"), "other": T((3,), "float32", "nonzero")},
           {"rounding_mode": "round"}, expect="error")
    for dt in ("int64", "int32", "int8", "uint8", "int16"):
        vals = [abs(v) for v in NEG] if dt == "uint8" else NEG
        dens = [abs(v) for v in NEG_D] if dt == "uint8" else NEG_D
        b.case("div", f"{dt}_true_division_is_float", fn, _pair(dt, vals, dens))
        for mode in ("trunc", "floor"):
            b.case("div", f"{dt}_{mode}_negative_signs", fn, _pair(dt, vals, dens),
                   {"rounding_mode": mode})
            b.case("div", f"{dt}_{mode}_by_zero_error", fn, _pair(dt, [1, 2], [1, 0]),
                   {"rounding_mode": mode}, expect="error")
    b.case("div", "i64_true_division_by_zero", fn,
           _pair("int64", [1, -1, 0, 5], [0, 0, 0, 0]))
    for mode in (None, "trunc", "floor"):
        tag = mode or "true"
        b.case("div", f"f32_{tag}_signs", fn, _pair("float32", FLT, FLT_D),
               {"rounding_mode": mode}, signed_zeros="auto")
        b.case("div", f"f64_{tag}_by_zero", fn,
               _pair("float64", [1.0, -1.0, 0.0, -0.0, 2.5, "nan"],
                     [0.0, 0.0, 0.0, -0.0, -0.0, 0.0]),
               {"rounding_mode": mode}, signed_zeros="auto")
        b.case("div", f"i64_{tag}_by_float_scalar", fn,
               {"input": _ints("int64", [7, -7, 0]), "other": S(2.0)}, {"rounding_mode": mode})
        b.case("div", f"f32_{tag}_by_int_scalar", fn,
               {"input": T((5,), "float32"), "other": S(-3)}, {"rounding_mode": mode})
    for dt, m in (("int8", -128), ("int16", -32768)):
        for mode in ("trunc", "floor"):
            b.case("div", f"{dt}_min_{mode}_minus_one_wraps", fn, _pair(dt, [m, m], [-1, 1]),
                   {"rounding_mode": mode})
    b.case("div", "f32_floor_large_quotient", fn,
           _pair("float32", [1e30, -1e30, 3e38, 1e-30], [3.0, 7.0, 0.5, 1e30]),
           {"rounding_mode": "floor"}, signed_zeros="auto")


def floor_divide_remainder(b):
    for op in ("floor_divide", "remainder"):
        fn = OPS[op]
        _generic(b, op)
        for dt in ("int64", "int32", "int16", "int8", "uint8"):
            vals = [abs(v) for v in NEG] if dt == "uint8" else NEG
            dens = [abs(v) for v in NEG_D] if dt == "uint8" else NEG_D
            b.case(op, f"{dt}_negative_signs", fn, _pair(dt, vals, dens))
            b.case(op, f"{dt}_by_zero_error", fn, _pair(dt, [3, 4], [1, 0]), expect="error")
            b.case(op, f"{dt}_by_zero_scalar_error", fn,
                   {"input": _ints(dt, [3, 4]), "other": S(0)}, expect="error")
        for dt, m in (("int8", -128), ("int16", -32768)):
            b.case(op, f"{dt}_min_by_minus_one_wraps", fn, _pair(dt, [m, m, m], [-1, 1, 2]))
        b.case(op, "i64_extremes", fn,
               _pair("int64", [I64_MIN, I64_MAX, I64_MIN, I64_MAX], [2, -2, I64_MAX, I64_MIN]))
        b.case(op, "i32_min_by_two", fn, _pair("int32", [I32_MIN, I32_MIN + 1], [2, -2]))
        b.case(op, "f32_signs", fn, _pair("float32", FLT, FLT_D), signed_zeros="auto")
        b.case(op, "f64_signs", fn, _pair("float64", FLT, FLT_D), signed_zeros="auto")
        b.case(op, "f32_by_zero", fn,
               _pair("float32", [1.0, -1.0, 0.0, "inf", "nan"], [0.0, -0.0, 0.0, 0.0, 1.0]),
               signed_zeros="auto")
        b.case(op, "f32_by_infinity", fn,
               _pair("float32", [1.0, -1.0, 0.0, -0.0, "inf"], ["inf", "inf", "-inf", "inf", "inf"]),
               signed_zeros="auto")
        b.case(op, "i64_by_negative_scalar", fn, {"input": _ints("int64", [7, -7, 0, 6]), "other": S(-4)})
        b.case(op, "f32_by_float_scalar", fn, {"input": T((6,), "float32"), "other": S(0.75)})
        b.case(op, "i32_by_float_scalar", fn, {"input": _ints("int32", [7, -7, 3]), "other": S(2.5)})


def pow_cases(b):
    fn = OPS["pow"]
    _generic(b, "pow")

    def case(name, x, e, **kw):
        kw.setdefault("tol", TRANSCENDENTAL)
        b.case("pow", name, fn, {"input": x, "exponent": e}, **kw)

    # torch special-cases some scalar exponents (square, sqrt, reciprocal, ...).
    for e in (2, 3, -1, -2, 0, 1, 0.5, -0.5, 2.0, 1.5, -3.0):
        tag = str(e).replace("-", "minus_").replace(".", "p")
        case(f"f32_scalar_exponent_{tag}", T((3, 4), "float32", "positive"), S(e))
        case(f"f64_scalar_exponent_{tag}", T((5,), "float64", "nonzero"), S(e))
    for e in (2, 3, 0, 1):
        case(f"i64_scalar_exponent_{e}", T((6,), "int64"), S(e))
    case("i64_negative_scalar_exponent_error", T((3,), "int64"), S(-1), expect="error")
    case("i32_negative_scalar_exponent_error", T((3,), "int32"), S(-2), expect="error")
    case("i64_negative_tensor_exponent", _ints("int64", [2, -1, 1, 0, -2, 3, -1]),
         _ints("int64", [-1, -3, -2, -1, -2, -1, -4]), expect="any")
    case("i64_overflow_wraps", _ints("int64", [3, 2, -3, 10]), _ints("int64", [40, 63, 41, 19]))
    case("i32_overflow_wraps", _ints("int32", [3, 2, -3, 7]), _ints("int32", [21, 31, 21, 12]))
    case("u8_overflow_wraps", _ints("uint8", [3, 2, 255, 16]), _ints("uint8", [6, 8, 2, 2]))
    case("i8_signs", _ints("int8", [-2, -2, -3, 0, 0]), _ints("int8", [3, 4, 3, 0, 5]))
    case("zero_to_zero", T((3,), "float32", values=[0.0, -0.0, "nan"]), S(0))
    case("f32_negative_base_fractional", T((3,), "float32", values=[-2.0, -0.5, -8.0]),
         T((3,), "float32", values=[0.5, 1.5, 1.0 / 3.0]))
    case("f32_negative_base_integral", T((4,), "float32", values=[-2.0, -0.5, -3.0, -1.0]),
         T((4,), "float32", values=[3.0, -2.0, 2.0, 1e10]))
    case("i64_tensor_float_scalar_exponent", T((4,), "int64", "positive"), S(0.5))
    case("f32_tensor_int_tensor_exponent", T((2, 3), "float32"), T((3,), "int64", "small"))
    case("i32_tensor_f32_tensor_exponent", T((2, 3), "int32", "positive"), T((3,), "float32", "unit"))
    b.case("pow", "scalar_base_tensor_exponent", lambda self, exponent: fn(self, exponent=exponent),
           {"self": S(2.0), "exponent": T((2, 3), "float32")}, tol=TRANSCENDENTAL)
    b.case("pow", "int_scalar_base_int_exponent",
           lambda self, exponent: fn(self, exponent=exponent),
           {"self": S(3), "exponent": _ints("int64", [0, 1, 2, 5])})
    b.case("pow", "int_scalar_base_f16_exponent",
           lambda self, exponent: fn(self, exponent=exponent),
           {"self": S(2), "exponent": T((4,), "float16", "unit")})
    case("bool_base_error", T((3,), "bool"), T((3,), "bool"), expect="any")
    case("c64_tensor_exponent", T((2, 3), "complex64"), T((2, 3), "complex64", "unit"))
    case("c128_scalar_exponent_2", T((4,), "complex128"), S(2))


def max_min(b):
    for op in ("maximum", "minimum"):
        fn = OPS[op]
        _generic(b, op)
        b.case(op, "f32_nan_propagates", fn,
               _pair("float32", ["nan", 1.0, "nan", "-inf", "inf", 0.0],
                     [1.0, "nan", "nan", "nan", 2.0, -0.0]))
        b.case(op, "f64_nan_propagates_long", fn,
               {"input": T((40,), "float64", values=["nan", 1.0] * 20),
                "other": T((40,), "float64", values=[2.0, "nan", -1.0, 3.0] * 10)})
        b.case(op, "i64_extremes", fn,
               _pair("int64", [I64_MIN, I64_MAX, 0], [I64_MAX, I64_MIN, -1]))
        b.case(op, "u8_vs_i8", fn,
               {"input": _ints("uint8", [0, 200, 5]), "other": _ints("int8", [-1, -100, 6])})
        b.case(op, "c64_error", fn,
               {"input": T((3,), "complex64"), "other": T((3,), "complex64")}, expect="error")


def pow_complex_accuracy(b):
    """complex64 pow where rounding each step in single precision loses digits: large
    exponents and bases far from 1 (issue 13; tessera computes in complex128, rounds once)."""
    fn = OPS["pow"]
    bases = [1.01 + 0.02j, 0.99 - 0.1j, 2.0 + 3.0j, -1.5 + 0.5j, 0.3 + 0.9j, 1e3 + 1e2j,
             -0.7 - 0.7j, 1.0 + 1e-3j]
    exps = [12.0 + 0.0j, -7.5 + 0.25j, 3.3 - 1.2j, 0.5 + 4.0j, 20.0 + 0.0j, -3.0 + 2.0j,
            9.75 + 0.0j, 1.0 + 1.0j]
    b.case("pow", "c64_accuracy_tensor_tensor", fn,
           {"input": T((8,), "complex64", values=bases),
            "exponent": T((8,), "complex64", values=exps)}, tol=TRANSCENDENTAL)
    b.case("pow", "c64_accuracy_broadcast_exponent", fn,
           {"input": T((8,), "complex64", values=bases),
            "exponent": T((1,), "complex64", values=[10.5 - 0.5j])},
           tol=TRANSCENDENTAL)

"""Copies: dtype conversion (op "to" with args {"dtype": NAME}) and copy_
(self, src: broadcasting, views, cross-dtype).

Regular cases keep float->int values inside the target range (C leaves the
rest undefined).  What torch gives on x86-64 for NaN, infinities and
out-of-range values is recorded in separately named *_out_of_range cases.
"""

from .framework import DTYPES, FLOATS, INTS, NAMES, SHORT, T

# In-range sample values per (source class, target) so that the conversion is
# defined in C: fractional floats truncate toward zero.
FLOAT_IN_RANGE = {
    "uint8": [0.0, 1.5, 2.999, 254.9, 100.25, 0.0001, 37.0],
    "int8": [0.0, -1.5, 2.999, -127.9, 126.75, -0.0001, 37.0],
    "int16": [0.0, -1.5, 2.999, -32767.5, 32000.25, -0.9, 37.0],
    "int32": [0.0, -1.5, 2.999, -2147483000.0, 2147483000.0, -0.9, 37.0],
    "int64": [0.0, -1.5, 2.999, -9.0e18, 9.0e18, -0.9, 37.0],
    "bool": [0.0, -0.0, 0.5, -2.0, "nan", "inf", 1e-40],
}
INT_VALUES = {
    "uint8": [0, 1, 127, 128, 200, 255],
    "int8": [0, 1, -1, 127, -128, -7],
    "int16": [0, -1, 255, 256, -129, 32767, -32768, 300],
    "int32": [0, -1, 255, 65535, 65536, -129, 2**31 - 1, -2**31, 16777217],
    "int64": [0, -1, 255, 65536, -129, 2**31, -2**31 - 1, 2**53 + 1, 2**63 - 1, -2**63],
    "bool": [True, False, True],
}
# half precision: values that cannot be represented exactly or are in range
# for float16 (max 65504) so no overflow in regular cases.
SMALL_FLOAT = [0.0, -0.0, 1.0, -2.5, 0.333333, 1000.125, 3.0e-5, -65504.0]


def _to(self, dtype):
    return self.to(DTYPES[dtype])


def _case(b, name, src, dst, values=None, kind="normal", shape=None, view=()):
    if values is not None:
        spec = T(shape or (len(values),), src, values=values, view=view)
    else:
        spec = T(shape or (3, 4), src, kind, view)
    b.case("to", name, _to, {"self": spec}, {"dtype": dst}, signed_zeros="auto")


def _values(src, dst):
    """In-range values for a src->dst conversion."""
    if src in INTS or src == "bool":
        vals = INT_VALUES[src]
        return vals
    if src in ("complex64", "complex128"):
        if dst in INTS:
            base = [v for v in FLOAT_IN_RANGE[dst] if isinstance(v, float) and abs(v) < 1e4]
            return [complex(v, 1.0) for v in base]
        return [0j, 1 + 2j, -2.5 - 0.5j, complex(0.0, -0.0), 3e-5 + 1e4j, 1000.125 + 0j]
    if dst in INTS or dst == "bool":
        vals = FLOAT_IN_RANGE[dst]
        if src in ("float16", "bfloat16"):
            lim = {"float16": 65504.0, "bfloat16": 1e30}[src]
            vals = [v for v in vals if isinstance(v, str) or abs(v) <= lim]
        return vals
    return SMALL_FLOAT


def conversions(b):
    for src in NAMES:
        for dst in NAMES:
            tag = f"{SHORT[src]}_to_{SHORT[dst]}"
            _case(b, tag, src, dst, values=_values(src, dst))
            # random data through a non-contiguous view
            kind = "positive" if dst == "uint8" else "normal"
            if (src in FLOATS or src.startswith("complex")) and dst in INTS:
                kind = "ties" if dst != "uint8" else "positive"
            _case(b, f"{tag}_transposed", src, dst, kind=kind, shape=(4, 3),
                  view=["transpose:0:1"])
    _special_float_cases(b)
    _out_of_range_cases(b)


def _special_float_cases(b):
    inf_nan = ["nan", "inf", "-inf", 0.0, -0.0]
    for src in FLOATS:
        for dst in FLOATS + ["complex64", "complex128"]:
            if src != dst:
                _case(b, f"{SHORT[src]}_to_{SHORT[dst]}_nan_inf_zero", src, dst, values=inf_nan)
    # Round to nearest, ties to even, at float16 / bfloat16 precision.
    f16_ties = [1.0 + 2**-11, 1.0 + 3 * 2**-11, 1.0 + 2**-11 + 2**-20, -(1.0 + 2**-11),
                2048.0 + 1.0, 2048.0 + 3.0, 65519.0, 65520.0, 65504.0, 70000.0, -65520.0,
                2**-24, 2**-25, 2**-25 + 2**-30, 3 * 2**-25, 6.0e-8, 1e-8, 2**-14 - 2**-25]
    bf16_ties = [1.0 + 2**-8, 1.0 + 3 * 2**-8, 1.0 + 2**-8 + 2**-20, -(1.0 + 2**-8),
                 256.0 + 1.0, 256.0 + 3.0, 3.3895313892515355e38, 3.4028234663852886e38,
                 -3.4e38, 1e-40, 9.2e-41, 2**-133, 2**-134, 1.0 + 2**-9]
    for src in ("float32", "float64"):
        _case(b, f"{SHORT[src]}_to_f16_round_ties_even", src, "float16", values=f16_ties)
        _case(b, f"{SHORT[src]}_to_bf16_round_ties_even", src, "bfloat16", values=bf16_ties)
    # torch converts double to half through float, so it can round twice.
    _case(b, "f64_to_f16_double_rounding", "float64", "float16",
          values=[1.0 + 2**-11 + 2**-40, 1.0 + 2**-11 - 2**-40, 2**-25 + 2**-60, 65520.0 - 2**-30])
    _case(b, "f64_to_bf16_double_rounding", "float64", "bfloat16",
          values=[1.0 + 2**-8 + 2**-40, 1.0 + 2**-8 - 2**-40, 3.3961e38])
    _case(b, "f64_to_f32_round_ties_even", "float64", "float32",
          values=[1.0 + 2**-24, 1.0 + 3 * 2**-24, 1e39, -1e39, 1e-46, 1e-45, 2**-150,
                  3 * 2**-150, 3.4028235677973366e38])
    _case(b, "i64_to_f32_rounding", "int64", "float32",
          values=[2**24 + 1, 2**24 + 3, -(2**24 + 1), 2**63 - 1, 2**25 + 2, 123456789])
    _case(b, "i64_to_f64_rounding", "int64", "float64",
          values=[2**53 + 1, 2**53 + 3, -(2**53 + 1), 2**63 - 1, -2**63])
    _case(b, "i32_to_f16_rounding_and_overflow", "int32", "float16",
          values=[2049, 2051, 4097, 65504, 65519, 65520, 100000, -100000])
    _case(b, "i32_to_bf16_rounding", "int32", "bfloat16",
          values=[257, 259, 513, 2**31 - 1, -2**31, 65535])
    _case(b, "f16_to_bf16_precision_loss", "float16", "bfloat16",
          values=[1.0 + 2**-10, 2**-24, 65504.0, 1.0 + 2**-8, 1.0 + 3 * 2**-8])
    _case(b, "bf16_to_f16_overflow", "bfloat16", "float16",
          values=[1e5, -1e5, 65504.0, 1e-10, 1.0 + 2**-7, 3e38])
    _case(b, "c64_to_c128_widen", "complex64", "complex128",
          values=[complex(float("nan"), 1.0), complex(float("inf"), -0.0), 1e-40 + 1e30j])
    _case(b, "c128_to_c64_narrow", "complex128", "complex64",
          values=[1e39 + 1e-46j, complex(1.0 + 2**-24, 1.0 + 3 * 2**-24), complex(-0.0, 0.0)])
    _case(b, "c64_to_f32_discards_imaginary", "complex64", "float32",
          values=[1 + 2j, -0.0 + 5j, complex(float("nan"), 1), complex(3, float("nan"))])
    _case(b, "c128_to_bool_either_part", "complex128", "bool",
          values=[0j, 1j, 1 + 0j, complex(-0.0, -0.0), complex(float("nan"), 0)])
    _case(b, "f32_to_bool_nan_is_true", "float32", "bool",
          values=["nan", -0.0, 0.0, 1e-45, "-inf"])
    _case(b, "i64_to_u8_wraps", "int64", "uint8", values=[-1, 256, 257, -256, 2**40 + 5])
    _case(b, "i64_to_i8_wraps", "int64", "int8", values=[128, -129, 255, 2**40 - 1])
    _case(b, "u8_to_i8_wraps", "uint8", "int8", values=[128, 255, 200])
    _case(b, "f32_to_i64_truncates_toward_zero", "float32", "int64",
          values=[2.5, -2.5, 0.999, -0.999, 1e18, -1e18, 16777217.0])
    _case(b, "f32_expanded_to_f64", "float32", "float64", shape=(1, 4), view=["expand:3:4"])
    _case(b, "i32_stepped_to_f32", "int32", "float32", shape=(3, 9), view=["slice:1:1:9:2"])
    _case(b, "f64_zero_d_to_i32", "float64", "int32", values=[-7.75], shape=())
    _case(b, "f32_empty_to_f16", "float32", "float16", shape=(0, 5))


def _out_of_range_cases(b):
    """float -> int where C is undefined; values are what torch gives on x86-64."""
    oor = ["nan", "inf", "-inf", 1e30, -1e30, 3e9, -3e9, 300.0, -129.0, -1.5, 255.9, 256.0]
    for src in FLOATS:
        vals = oor
        if src == "float16":
            vals = [v for v in oor if isinstance(v, str) or abs(v) <= 65504.0]
        for dst in INTS:
            _case(b, f"{SHORT[src]}_to_{SHORT[dst]}_out_of_range", src, dst, values=vals)
    for dst in INTS:
        _case(b, f"c64_to_{SHORT[dst]}_out_of_range", "complex64", dst,
              values=[complex(float("nan"), 0), complex(1e30, 0), complex(-1.5, 0)])


def _copy_(self, src, **kw):
    self.copy_(src, **kw)
    return self


def copy_(b):
    def add(name, dst, src, **kw):
        b.case("copy_", name, _copy_, {"self": dst, "src": src}, **kw)

    f32 = "float32"
    add("same_shape", T((3, 4), f32), T((3, 4), f32))
    add("broadcast_src_row", T((3, 4), f32), T((4,), f32))
    add("broadcast_src_column", T((3, 4), f32), T((3, 1), f32))
    add("zero_d_src", T((2, 3), f32), T((), f32))
    add("transposed_self", T((4, 3), f32, view=["transpose:0:1"]), T((3, 4), f32))
    add("transposed_src", T((3, 4), f32), T((4, 3), f32, view=["transpose:0:1"]))
    add("stepped_self", T((3, 9), f32, view=["slice:1:1:9:2"]), T((3, 4), f32))
    add("stepped_self_broadcast_src", T((7, 4), f32, view=["slice:0:0:7:3"]), T((1, 4), f32))
    add("diagonal_self", T((4, 4), f32, view=["diagonal:0:0:1"]), T((4,), f32))
    add("permuted_self_expanded_src", T((4, 2, 3), f32, view=["permute:1:2:0"]),
        T((1, 4), f32, view=["expand:3:4"]))
    add("expanded_self_error", T((1, 4), f32, view=["expand:3:4"]), T((3, 4), f32),
        expect="error")
    add("src_not_broadcastable_error", T((3, 4), f32), T((2, 4), f32), expect="error")
    add("src_larger_error", T((4,), f32), T((3, 4), f32), expect="error")
    add("empty", T((0, 4), f32), T((4,), f32))
    add("zero_d_self", T((), f32), T((), "int64"))
    add("nan_inf_to_f16", T((5,), "float16"),
        T((5,), f32, values=["nan", "inf", 1e5, -0.0, 0.1]), signed_zeros=True)
    add("f32_to_i32_truncates", T((2, 3), "int32"), T((2, 3), f32))
    add("c64_to_f32_discards_imaginary", T((3,), f32), T((3,), "complex64"))
    add("i64_to_u8_wraps", T((4,), "uint8"), T((4,), "int64", values=[-1, 256, 300, 7]))
    add("bool_to_f32", T((4,), f32), T((4,), "bool"))
    add("f32_to_bool", T((4,), "bool"), T((4,), f32, values=[0.0, -0.0, "nan", 0.5]))
    add("transposed_self_cross_dtype", T((4, 3), "float64", view=["transpose:0:1"]),
        T((4,), "bfloat16"))
    for dt in NAMES:
        for src in ("float32", "int64"):
            if dt != src:
                add(f"{SHORT[src]}_to_{SHORT[dt]}_transposed_self",
                    T((3, 2), dt, view=["transpose:0:1"]),
                    T((2, 3), src, "positive" if dt == "uint8" else "ties"))

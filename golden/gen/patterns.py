"""Reusable operand layouts and value sets shared by the elementwise families."""

from .framework import NAMES, NAME_OF, SHORT, SPECIALS, T, S, fval


def binary_layouts(dt="float32", ka="normal", kb="normal"):
    """(name, operand_a, operand_b) covering shapes, broadcasting and views.

    Base shapes are chosen so that after the view steps the operands have the
    shapes named in the comments.
    """
    return [
        ("same_shape", T((3, 4), dt, ka), T((3, 4), dt, kb)),
        ("rank_broadcast", T((2, 3, 4), dt, ka), T((4,), dt, kb)),
        ("size1_broadcast", T((3, 1), dt, ka), T((1, 4), dt, kb)),
        ("mutual_broadcast_3d", T((2, 1, 4), dt, ka), T((3, 1), dt, kb)),
        ("four_d_broadcast", T((2, 1, 3, 1), dt, ka), T((1, 4, 1, 5), dt, kb)),
        # (4,3) -> (3,4)
        ("transposed", T((4, 3), dt, ka, ["transpose:0:1"]), T((3, 4), dt, kb)),
        ("both_transposed", T((4, 3), dt, ka, ["transpose:0:1"]),
         T((4, 3), dt, kb, ["transpose:1:0"])),
        ("transposed_broadcast", T((4, 3), dt, ka, ["transpose:0:1"]), T((4,), dt, kb)),
        ("other_transposed", T((3, 4), dt, ka), T((4, 3), dt, kb, ["transpose:0:1"])),
        # (4,2,3) permute 1,2,0 -> (2,3,4)
        ("permuted", T((4, 2, 3), dt, ka, ["permute:1:2:0"]), T((2, 3, 4), dt, kb)),
        ("permuted_broadcast", T((4, 1, 3), dt, ka, ["permute:2:0:1"]), T((1, 5), dt, kb)),
        # (3,9) cols 1,3,5,7 -> (3,4)
        ("stepped_slice", T((3, 9), dt, ka, ["slice:1:1:9:2"]), T((3, 4), dt, kb)),
        ("stepped_rows", T((7, 4), dt, ka, ["slice:0:1:7:2"]),
         T((3, 8), dt, kb, ["slice:1:0:8:2"])),
        ("slice_transposed", T((6, 5), dt, ka, ["slice:0:0:6:2", "transpose:0:1"]),
         T((5, 1), dt, kb)),
        ("expanded", T((1, 4), dt, ka, ["expand:3:4"]), T((3, 4), dt, kb)),
        ("both_expanded", T((3, 1), dt, ka, ["expand:3:4"]),
         T((1, 4), dt, kb, ["expand:3:-1"])),
        ("unsqueezed", T((3,), dt, ka, ["unsqueeze:1"]), T((3, 4), dt, kb)),
        ("diagonal", T((4, 4), dt, ka, ["diagonal:0:0:1"]), T((4,), dt, kb)),
        ("diagonal_offset", T((3, 5), dt, ka, ["diagonal:1:0:1"]),
         T((5, 3), dt, kb, ["diagonal:-1:0:1"])),
        ("zero_d_both", T((), dt, ka), T((), dt, kb)),
        ("zero_d_other", T((3, 4), dt, ka), T((), dt, kb)),
        ("zero_d_input", T((), dt, ka), T((2, 3), dt, kb)),
        ("empty", T((0, 4), dt, ka), T((4,), dt, kb)),
        ("empty_broadcast", T((0, 1), dt, ka), T((1, 3), dt, kb)),
        ("long_vector", T((1037,), dt, ka), T((1037,), dt, kb)),
        ("long_transposed", T((67, 5), dt, ka, ["transpose:0:1"]), T((5, 67), dt, kb)),
    ]


# A smaller set for variants of an op whose kernel the full set already covers.
CORE_LAYOUTS = ("same_shape", "rank_broadcast", "size1_broadcast", "transposed",
                "stepped_slice", "expanded", "zero_d_other", "empty", "long_vector")


def unary_layouts(dt="float32", kind="normal"):
    return [
        ("contiguous", T((3, 4), dt, kind)),
        ("vector", T((7,), dt, kind)),
        ("transposed", T((4, 3), dt, kind, ["transpose:0:1"])),
        ("permuted", T((4, 2, 3), dt, kind, ["permute:2:0:1"])),
        ("stepped_slice", T((3, 9), dt, kind, ["slice:1:1:9:2"])),
        ("expanded", T((1, 4), dt, kind, ["expand:3:4"])),
        ("diagonal", T((4, 4), dt, kind, ["diagonal:0:0:1"])),
        ("zero_d", T((), dt, kind)),
        ("empty", T((0, 3), dt, kind)),
        ("long_vector", T((1037,), dt, kind)),
    ]


# Mixed dtype pairs for promotion (dimensioned tensors on both sides).
MIXED_PAIRS = [
    ("bool", "uint8"), ("bool", "int64"), ("bool", "float32"), ("uint8", "int8"),
    ("uint8", "int16"), ("int8", "int64"), ("int16", "int32"), ("int32", "int64"),
    ("int32", "float16"), ("int64", "float32"), ("int64", "bfloat16"),
    ("float16", "bfloat16"), ("float16", "float32"), ("bfloat16", "float32"),
    ("float32", "float64"), ("float16", "float64"), ("int8", "float64"),
    ("uint8", "bfloat16"), ("float32", "complex64"), ("float64", "complex64"),
    ("complex64", "complex128"), ("int64", "complex64"), ("bool", "complex128"),
    ("float16", "complex64"),
]


def promotion_operands(kind_a="normal", kind_b="normal"):
    """(name, a, b): 0-d tensors and Python scalars against dimensioned tensors."""
    return [
        ("i64_tensor_float_scalar", T((3,), "int64", kind_a), S(2.5)),
        ("i32_tensor_int_scalar", T((3,), "int32", kind_a), S(3)),
        ("i8_tensor_zero_d_i64", T((4,), "int8", kind_a), T((), "int64", kind_b)),
        ("u8_tensor_negative_int_scalar", T((4,), "uint8", kind_a), S(-3)),
        ("u8_tensor_zero_d_i8", T((4,), "uint8", kind_a), T((), "int8", kind_b)),
        ("f16_tensor_zero_d_f64", T((4,), "float16", kind_a), T((), "float64", kind_b)),
        ("bf16_tensor_zero_d_f32", T((4,), "bfloat16", kind_a), T((), "float32", kind_b)),
        ("f16_tensor_float_scalar", T((4,), "float16", kind_a), S(2.5)),
        ("bool_tensor_int_scalar", T((4,), "bool", kind_a), S(3)),
        ("bool_tensor_bool_scalar", T((4,), "bool", kind_a), S(True)),
        ("bool_tensor_float_scalar", T((4,), "bool", kind_a), S(1.5)),
        ("i64_tensor_zero_d_f64", T((4,), "int64", kind_a), T((), "float64", kind_b)),
        ("f32_tensor_zero_d_c128", T((4,), "float32", kind_a), T((), "complex128", kind_b)),
        ("zero_d_i64_zero_d_f16", T((), "int64", kind_a), T((), "float16", kind_b)),
        ("zero_d_f64_tensor_i32", T((), "float64", kind_a), T((3,), "int32", kind_b)),
        ("zero_d_i64_tensor_u8", T((), "int64", kind_a), T((3,), "uint8", kind_b)),
        ("f32_tensor_bool_scalar", T((4,), "float32", kind_a), S(True)),
        ("i32_tensor_zero_d_bool", T((4,), "int32", kind_a), T((), "bool", kind_b)),
        ("c64_tensor_float_scalar", T((3,), "complex64", kind_a), S(2.5)),
        ("i8_tensor_huge_float_scalar", T((3,), "int8", kind_a), S(1e10)),
        ("i16_tensor_nan_scalar", T((3,), "int16", kind_a), S("nan")),
        ("f64_tensor_int_scalar", T((3,), "float64", kind_a), S(-7)),
        ("zero_d_f32_float_scalar", T((), "float32", kind_a), S(0.25)),
        ("f32_tensor_zero_d_i64", T((2, 2), "float32", kind_a), T((), "int64", kind_b)),
    ]


def special_grid(dt):
    """Every pair of SPECIALS[dt]: a (n,1) column against a (1,n) row."""
    vals = SPECIALS[dt]
    n = len(vals)
    return (T((n, 1), dt, values=vals), T((1, n), dt, values=vals))


def short(dt):
    return SHORT[dt]

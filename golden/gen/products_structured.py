"""Structured matrices from vectors: diag_embed (args offset, dim1, dim2) and
linalg_vander (arg N, absent for None). Both are copies and cumulative
products, so every case compares exactly (no tolerance beyond the default)."""

import torch

from .framework import NAMES, SHORT, T

FLOATS = ("float32", "float64")


def _diag_embed(input, **kw):
    return torch.diag_embed(input, **kw)


def _vander(x, **kw):
    return torch.linalg.vander(x, **kw)


def diag_embed(b):
    forms = [("default", (3,), [], {}), ("batched", (2, 3), [], {}),
             ("offset_above", (2, 3), [], {"offset": 2}),
             ("offset_below", (3,), [], {"offset": -1}),
             ("dims_swapped", (2, 3), [], {"offset": 1, "dim1": -1, "dim2": -2}),
             ("dims_apart", (2, 3), [], {"offset": 1, "dim1": 0, "dim2": 2}),
             ("dims_reversed_apart", (2, 3), [], {"offset": 1, "dim1": 2, "dim2": 0}),
             ("views", (4, 3), ["transpose:0:1"], {"dim1": 0, "dim2": 1}),
             ("stepped", (8,), ["slice:0:0:8:2"], {"offset": -2})]
    for name, shape, view, args in forms:
        for dt in FLOATS:
            b.case("diag_embed", f"{SHORT[dt]}_{name}", _diag_embed,
                   {"input": T(shape, dt, view=view)}, args, grad=["input"])
    b.case("diag_embed", "f32_empty", _diag_embed, {"input": T((0,), "float32")}, {"offset": 2})
    b.case("diag_embed", "f32_empty_batch", _diag_embed, {"input": T((0, 2), "float32")})
    b.case("diag_embed", "f32_nan_stays_on_the_diagonal", _diag_embed,
           {"input": T((2,), "float32", values=["nan", "-inf"])})
    for dt in NAMES:
        if dt not in FLOATS:
            b.case("diag_embed", f"{SHORT[dt]}_values", _diag_embed,
                   {"input": T((2, 2), dt, "small")}, {"offset": 1})
    b.case("diag_embed", "identical_dims_error", _diag_embed, {"input": T((2, 3), "float32")},
           {"dim1": 1, "dim2": 1}, expect="error")
    b.case("diag_embed", "dim_out_of_range_error", _diag_embed,
           {"input": T((2, 3), "float32")}, {"dim1": 3}, expect="error")
    b.case("diag_embed", "zero_d_error", _diag_embed, {"input": T((), "float32")},
           expect="error")


def vander(b):
    for dt in FLOATS:
        sh = SHORT[dt]
        b.case("linalg_vander", f"{sh}_default", _vander, {"x": T((4,), dt)}, grad=["x"])
        b.case("linalg_vander", f"{sh}_n", _vander, {"x": T((3,), dt)}, {"N": 5}, grad=["x"])
        b.case("linalg_vander", f"{sh}_batched", _vander, {"x": T((2, 3), dt)}, {"N": 2},
               grad=["x"])
        b.case("linalg_vander", f"{sh}_views", _vander,
               {"x": T((3, 2), dt, view=["transpose:0:1"])}, grad=["x"])
    b.case("linalg_vander", "f32_zero_d_with_n", _vander, {"x": T((), "float32")}, {"N": 3})
    b.case("linalg_vander", "f32_empty_batch", _vander, {"x": T((0, 3), "float32")})
    b.case("linalg_vander", "i8_powers_in_int64", _vander,
           {"x": T((2,), "int8", values=[100, -3])}, {"N": 4})
    b.case("linalg_vander", "i64_wraps", _vander,
           {"x": T((1,), "int64", values=[2**40])}, {"N": 3})
    for dt in NAMES:
        if dt not in FLOATS:
            b.case("linalg_vander", f"{SHORT[dt]}_values", _vander,
                   {"x": T((3,), dt, "small")}, expect="any")
    b.case("linalg_vander", "n_one_error", _vander, {"x": T((3,), "float32")}, {"N": 1},
           expect="error")
    b.case("linalg_vander", "zero_d_default_error", _vander, {"x": T((), "float32")},
           expect="error")
    b.case("linalg_vander", "empty_default_error", _vander, {"x": T((0,), "float32")},
           expect="error")

"""Chains of products: linalg_multi_dot (operand list `tensors`) and
linalg_matrix_power (arg `n`).

multi_dot's order (PyTorch's dynamic programme) changes only rounding, so
the cases pin values within the usual product tolerances (float32 chains of
four or more take the long-K ones: their gradients chain three products); test_products_
structured.c pins the order itself. matrix_power has no n < 0 case with a
value: it needs linalg_inv (another op family), and tessera refuses it."""

import torch

from .framework import NAMES, SHORT, T, L
from .products import LARGE_K, SMALL_K

FLOATS = ("float32", "float64")


def _multi_dot(tensors):
    return torch.linalg.multi_dot(tensors)


def _matrix_power(input, n):
    return torch.linalg.matrix_power(input, n)


CHAINS = [("two", [(3, 4), (4, 2)]), ("three_left_first", [(2, 5), (5, 3), (3, 4)]),
          ("three_right_first", [(6, 2), (2, 5), (5, 1)]),
          ("four", [(3, 6), (6, 2), (2, 5), (5, 4)]),
          ("five", [(2, 4), (4, 6), (6, 3), (3, 1), (1, 5)]),
          ("row_first", [(4,), (4, 3), (3, 2)]), ("column_last", [(2, 3), (3, 4), (4,)]),
          ("vector_ends", [(3,), (3, 4), (4, 2), (2,)]), ("two_vectors", [(5,), (5,)])]


def multi_dot(b):
    for name, shapes in CHAINS:
        for dt in FLOATS:
            b.case("linalg_multi_dot", f"{SHORT[dt]}_{name}", _multi_dot,
                   {"tensors": L([T(s, dt) for s in shapes])},
                   tol=SMALL_K if len(shapes) < 4 else LARGE_K, grad=["tensors"])
    b.case("linalg_multi_dot", "f32_views", _multi_dot,
           {"tensors": L([T((4, 3), "float32", view=["transpose:0:1"]),
                          T((4, 6), "float32", view=["slice:1:0:6:2"]),
                          T((1, 2), "float32", view=["expand:3:2"])])}, tol=SMALL_K,
           grad=["tensors"])
    b.case("linalg_multi_dot", "f32_empty_inner", _multi_dot,
           {"tensors": L([T((2, 0), "float32"), T((0, 3), "float32"), T((3, 2), "float32")])})
    b.case("linalg_multi_dot", "f32_empty_outer", _multi_dot,
           {"tensors": L([T((0, 2), "float32"), T((2, 3), "float32"), T((3, 2), "float32")])})
    b.case("linalg_multi_dot", "i8_wraps", _multi_dot,
           {"tensors": L([T((1, 1), "int8", values=[100]), T((1, 1), "int8", values=[3]),
                          T((1, 1), "int8", values=[2])])})
    for dt in NAMES:
        if dt not in FLOATS:
            b.case("linalg_multi_dot", f"{SHORT[dt]}_values", _multi_dot,
                   {"tensors": L([T((2, 3), dt, "small"), T((3, 2), dt, "small"),
                                  T((2, 2), dt, "small")])}, expect="any")
    errors = [("one_tensor_error", [((2, 2), "float32")]),
              ("three_d_last_error", [((2, 2), "float32"), ((2, 2, 2), "float32")]),
              ("zero_d_first_error", [((), "float32"), ((2, 2), "float32")]),
              ("one_d_middle_error", [((2, 2), "float32"), ((2,), "float32"),
                                      ((2, 2), "float32")]),
              ("shape_mismatch_error", [((2, 3), "float32"), ((2, 2), "float32")]),
              ("mixed_dtype_error", [((2, 2), "float32"), ((2, 2), "float64")])]
    for name, specs in errors:
        b.case("linalg_multi_dot", name, _multi_dot,
               {"tensors": L([T(s, dt) for s, dt in specs])}, expect="error")


def matrix_power(b):
    for dt in FLOATS:
        sh = SHORT[dt]
        for n in (0, 1, 2, 3, 4, 5, 6, 7, 10):
            b.case("linalg_matrix_power", f"{sh}_n{n}", _matrix_power,
                   {"input": T((3, 3), dt, "unit")}, {"n": n}, tol=SMALL_K,
                   grad=["input"])
        b.case("linalg_matrix_power", f"{sh}_batched", _matrix_power,
               {"input": T((2, 2, 3, 3), dt, "unit")}, {"n": 5}, tol=SMALL_K, grad=["input"])
        b.case("linalg_matrix_power", f"{sh}_views", _matrix_power,
               {"input": T((3, 3), dt, "unit", view=["transpose:0:1"])}, {"n": 3}, tol=SMALL_K,
               grad=["input"])
    b.case("linalg_matrix_power", "f32_empty_batch", _matrix_power,
           {"input": T((0, 2, 2), "float32")}, {"n": 3})
    b.case("linalg_matrix_power", "f32_empty_matrix_n0", _matrix_power,
           {"input": T((2, 0, 0), "float32")}, {"n": 0})
    b.case("linalg_matrix_power", "i32_wraps", _matrix_power,
           {"input": T((2, 2), "int32", values=[1000, 1000, 1000, 1000])}, {"n": 4})
    for dt in NAMES:
        if dt not in FLOATS:
            for n in (0, 1, 3):
                b.case("linalg_matrix_power", f"{SHORT[dt]}_n{n}", _matrix_power,
                       {"input": T((2, 2), dt, "small")}, {"n": n}, expect="any")
    b.case("linalg_matrix_power", "non_square_error", _matrix_power,
           {"input": T((2, 3), "float32")}, {"n": 2}, expect="error")
    b.case("linalg_matrix_power", "one_d_error", _matrix_power,
           {"input": T((3,), "float32")}, {"n": 2}, expect="error")
    b.case("linalg_matrix_power", "i64_negative_n_error", _matrix_power,
           {"input": T((2, 2), "int64")}, {"n": -1}, expect="error")

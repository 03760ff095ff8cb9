"""Indexing: index_select, gather, take, take_along_dim, embedding, one_hot,
nonzero.
`dim` is an arg; index tensors are operands (`index`, `indices` for
take_along_dim, `input` for embedding and one_hot, whose table is `weight`).
The scatter family is in scatter.py."""

import torch
import torch.nn.functional as F

from .framework import NAMES, SHORT, T

F32, F64 = "float32", "float64"
FLOATS = (F32, F64)


def _ints(dt, vals, shape=None):
    return T(shape or (len(vals),), dt, values=vals)


def _index_select(input, index, dim):
    return torch.index_select(input, dim, index)


def _gather(input, index, dim):
    return torch.gather(input, dim, index)


def _take(input, index):
    return torch.take(input, index)


def _take_along_dim(input, indices, dim=None):
    return torch.take_along_dim(input, indices, dim=dim)


def _embedding(input, weight, **kw):
    return F.embedding(input, weight, **kw)


def _one_hot(input, **kw):
    return F.one_hot(input, **kw)


def selecting(b):
    def isel(name, x, idx, dim, **kw):
        b.case("index_select", name, _index_select, {"input": x, "index": idx}, {"dim": dim}, **kw)

    def gat(name, x, idx, dim, **kw):
        b.case("gather", name, _gather, {"input": x, "index": idx}, {"dim": dim}, **kw)

    def take(name, x, idx, **kw):
        b.case("take", name, _take, {"input": x, "index": idx}, **kw)

    def tad(name, x, idx, args=None, **kw):
        b.case("take_along_dim", name, _take_along_dim, {"input": x, "indices": idx}, args, **kw)

    for dt in FLOATS:
        sh, g = SHORT[dt], ["input"]
        isel(f"{sh}_dim0_repeats", T((4, 3), dt), _ints("int64", [3, 0, 3, 1]), 0, grad=g)
        isel(f"{sh}_dim1", T((3, 5), dt), _ints("int64", [4, 1]), 1, grad=g)
        isel(f"{sh}_negative_dim", T((2, 3, 4), dt), _ints("int64", [2, 2, 0]), -1, grad=g)
        isel(f"{sh}_transposed", T((4, 3), dt, view=["transpose:0:1"]), _ints("int64", [1]), 1,
             grad=g)
        isel(f"{sh}_expanded", T((1, 4), dt, view=["expand:3:4"]), _ints("int64", [2, 0]), 0,
             grad=g)
        isel(f"{sh}_i32_index", T((4, 3), dt), _ints("int32", [0, 2]), 0, grad=g)
        gat(f"{sh}_dim0", T((3, 4), dt), T((2, 4), "int64", "range:0:3"), 0, grad=g)
        gat(f"{sh}_dim1_wider_index", T((3, 4), dt), T((2, 6), "int64", "range:0:4"), 1, grad=g)
        gat(f"{sh}_negative_dim", T((2, 3, 4), dt), T((2, 3, 5), "int64", "range:0:4"), -1,
            grad=g)
        gat(f"{sh}_views", T((4, 3), dt, view=["transpose:0:1"]),
            T((5, 2), "int64", "range:0:4", ["transpose:0:1"]), 1, grad=g)
        gat(f"{sh}_expanded_index", T((3, 4), dt), T((1, 4), "int64", "range:0:3",
                                                     ["expand:5:4"]), 0, grad=g)
        take(f"{sh}_flat_indices", T((3, 4), dt), T((2, 3), "int64", "range:-12:12"), grad=g)
        take(f"{sh}_transposed_input", T((4, 3), dt, view=["transpose:0:1"]),
             _ints("int64", [0, 1, 11, -1]), grad=g)
        tad(f"{sh}_dim1", T((3, 4), dt), T((3, 2), "int64", "range:0:4"), {"dim": 1}, grad=g)
        tad(f"{sh}_broadcast_indices", T((3, 4), dt), T((1, 2), "int64", "range:0:4"),
            {"dim": 1}, grad=g)
        tad(f"{sh}_dim_none_flat", T((3, 4), dt), _ints("int64", [11, 0, 5]), grad=g)
        tad(f"{sh}_negative_dim", T((2, 3, 4), dt), T((2, 3, 1), "int64", "range:0:4"),
            {"dim": -1}, grad=g)
        tad(f"{sh}_views", T((4, 3), dt, view=["transpose:0:1"]),
            T((2, 4), "int64", "range:0:3", ["slice:0:0:2:1"]), {"dim": 0}, grad=g)
    isel("f32_zero_d_index", T((4,), F32), T((), "int64", values=[2]), 0)
    isel("zero_d_input", T((), F32), _ints("int64", [0]), 0)
    isel("f32_empty_index", T((4, 3), F32), T((0,), "int64"), 0)
    isel("index_out_of_range_error", T((4, 3), F32), _ints("int64", [4]), 0, expect="error")
    isel("negative_index_error", T((4, 3), F32), _ints("int64", [-1]), 0, expect="error")
    isel("two_d_index_error", T((4, 3), F32), _ints("int64", [0, 1], (1, 2)), 0, expect="error")
    isel("float_index_error", T((4, 3), F32), _ints(F32, [0.0]), 0, expect="error")
    gat("index_out_of_range_error", T((3, 4), F32), _ints("int64", [3], (1, 1)), 0,
        expect="error")
    gat("negative_index_error", T((3, 4), F32), _ints("int64", [-1], (1, 1)), 0, expect="error")
    gat("index_too_large_error", T((3, 4), F32), T((5, 2), "int64", "range:0:4"), 1,
        expect="error")
    gat("rank_mismatch_error", T((3, 4), F32), T((4,), "int64", "range:0:3"), 0, expect="error")
    gat("i32_index_error", T((3, 4), F32), T((2, 4), "int32", "range:0:3"), 0, expect="error")
    gat("f32_empty_index", T((3, 4), F32), T((0, 4), "int64"), 0)
    gat("zero_d", T((), F32), T((), "int64", values=[0]), 0)
    take("negative_indices_wrap", T((2, 3), F32), _ints("int64", [-1, -6, 0]))
    take("index_out_of_range_error", T((2, 3), F32), _ints("int64", [6]), expect="error")
    take("negative_out_of_range_error", T((2, 3), F32), _ints("int64", [-7]), expect="error")
    take("i32_index_error", T((2, 3), F32), _ints("int32", [1]), expect="error")
    take("zero_d_input", T((), F32), _ints("int64", [0, 0]))
    take("f32_empty_index", T((2, 3), F32), T((0,), "int64"))
    tad("index_out_of_range_error", T((2, 3), F32), _ints("int64", [3], (1, 1)), {"dim": 1},
        expect="error")
    tad("negative_index_error", T((2, 3), F32), _ints("int64", [-1], (1, 1)), {"dim": 1},
        expect="error")
    tad("not_broadcastable_error", T((2, 3), F32), T((3, 1), "int64", "range:0:3"), {"dim": 1},
        expect="error")
    for dt in NAMES:
        if dt not in FLOATS:
            sh = SHORT[dt]
            isel(f"{sh}_values", T((4, 3), dt), _ints("int64", [3, 0]), 0)
            gat(f"{sh}_values", T((3, 4), dt), T((2, 4), "int64", "range:0:3"), 0)
            take(f"{sh}_values", T((3, 4), dt), _ints("int64", [5, -1, 0]))
            tad(f"{sh}_values", T((3, 4), dt), T((3, 1), "int64", "range:0:4"), {"dim": 1})


def lookup(b):
    for dt in FLOATS:
        sh = SHORT[dt]
        b.case("embedding", f"{sh}_basic", _embedding,
               {"input": _ints("int64", [0, 3, 3, 1]), "weight": T((4, 3), dt)}, grad=["weight"])
        b.case("embedding", f"{sh}_two_d_indices", _embedding,
               {"input": T((2, 3), "int64", "range:0:5"), "weight": T((5, 2), dt)},
               grad=["weight"])
        b.case("embedding", f"{sh}_padding_idx", _embedding,
               {"input": _ints("int64", [0, 2, 2, 1]), "weight": T((3, 2), dt)},
               {"padding_idx": 2}, grad=["weight"])
        b.case("embedding", f"{sh}_negative_padding_idx", _embedding,
               {"input": _ints("int64", [0, 2, 2, 1]), "weight": T((3, 2), dt)},
               {"padding_idx": -1}, grad=["weight"])
        b.case("embedding", f"{sh}_transposed_weight", _embedding,
               {"input": _ints("int64", [1, 0]), "weight": T((3, 4), dt, view=["transpose:0:1"])},
               grad=["weight"])
    b.case("embedding", "zero_d_index", _embedding,
           {"input": T((), "int64", values=[1]), "weight": T((3, 2), F32)})
    b.case("embedding", "empty_indices", _embedding,
           {"input": T((0,), "int64"), "weight": T((3, 2), F32)})
    b.case("embedding", "i32_indices", _embedding,
           {"input": _ints("int32", [2, 0]), "weight": T((3, 2), F32)})
    b.case("embedding", "index_out_of_range_error", _embedding,
           {"input": _ints("int64", [3]), "weight": T((3, 2), F32)}, expect="error")
    b.case("embedding", "negative_index_error", _embedding,
           {"input": _ints("int64", [-1]), "weight": T((3, 2), F32)}, expect="error")
    b.case("embedding", "float_indices_error", _embedding,
           {"input": _ints(F32, [1.0]), "weight": T((3, 2), F32)}, expect="error")
    for dt in NAMES:
        if dt not in FLOATS:
            b.case("embedding", f"{SHORT[dt]}_weight", _embedding,
                   {"input": _ints("int64", [2, 0]), "weight": T((3, 2), dt)}, expect="any")
    oh = _one_hot
    b.case("one_hot", "explicit_classes", oh, {"input": _ints("int64", [0, 2, 1, 2])},
           {"num_classes": 4})
    b.case("one_hot", "inferred_classes", oh, {"input": _ints("int64", [0, 3, 1])})
    b.case("one_hot", "inferred_minus_one", oh, {"input": _ints("int64", [1, 2])},
           {"num_classes": -1})
    b.case("one_hot", "two_d", oh, {"input": T((2, 3), "int64", "range:0:3")}, {"num_classes": 3})
    b.case("one_hot", "transposed", oh, {"input": T((3, 2), "int64", "range:0:4",
                                                    ["transpose:0:1"])}, {"num_classes": 4})
    b.case("one_hot", "zero_d", oh, {"input": T((), "int64", values=[2])}, {"num_classes": 3})
    b.case("one_hot", "empty_explicit", oh, {"input": T((0,), "int64")}, {"num_classes": 3})
    b.case("one_hot", "empty_inferred_error", oh, {"input": T((0,), "int64")}, expect="error")
    b.case("one_hot", "class_too_large_error", oh, {"input": _ints("int64", [3])},
           {"num_classes": 3}, expect="error")
    b.case("one_hot", "negative_class_error", oh, {"input": _ints("int64", [-1])},
           {"num_classes": 3}, expect="error")
    b.case("one_hot", "i32_input_error", oh, {"input": _ints("int32", [1])}, {"num_classes": 3},
           expect="error")


def nonzero(b):
    nz = lambda input: torch.nonzero(input)  # noqa: E731
    for dt in NAMES:
        b.case("nonzero", f"{SHORT[dt]}_values", nz, {"input": T((3, 4), dt, "small")})
    b.case("nonzero", "f32_nan_and_negative_zero", nz,
           {"input": _ints(F32, ["nan", -0.0, 0.0, 1e-40, "-inf"])})
    b.case("nonzero", "f32_transposed", nz, {"input": T((4, 3), F32, "small", ["transpose:0:1"])})
    b.case("nonzero", "bool_3d", nz, {"input": T((2, 3, 2), "bool")})
    b.case("nonzero", "bool_expanded", nz, {"input": T((1, 3), "bool", view=["expand:2:3"])})
    b.case("nonzero", "zero_d_nonzero", nz, {"input": T((), F32, values=[3.0])})
    b.case("nonzero", "zero_d_zero", nz, {"input": T((), F32, values=[0.0])})
    b.case("nonzero", "empty", nz, {"input": T((0, 3), F32)})
    b.case("nonzero", "all_zero", nz, {"input": T((2, 2), "int64", values=[0] * 4)})
    b.case("nonzero", "long_vector", nz, {"input": T((1037,), "bool")})
    c64 = [complex(0, 0), complex(0, 1), complex(1, 0), complex(0, -0.0)]
    b.case("nonzero", "c64_imaginary_counts", nz, {"input": _ints("complex64", c64)})
    tup = lambda input, **kw: torch.nonzero(input, **kw)  # noqa: E731
    for case, spec in (("f32_2d", T((3, 4), F32, "small")), ("bool_3d", T((2, 3, 2), "bool")),
                       ("i64_transposed", T((4, 3), "int64", "small", ["transpose:0:1"])),
                       ("vector", T((7,), F32, "small")), ("empty", T((0, 3), F32)),
                       ("zero_d_nonzero", T((), F32, values=[3.0])),
                       ("zero_d_zero", T((), F32, values=[0.0])),
                       ("all_zero", T((2, 2), "int64", values=[0] * 4))):
        b.case("nonzero", f"as_tuple_{case}", tup, {"input": spec}, {"as_tuple": True})

"""Vector products: trace, kron, inner, mv, addmv, addr, addbmm.

Operand names are PyTorch 1.13's keywords (mv's vector is `vec`, addr's
`vec1`/`vec2`); beta and alpha are args. Each op gets float32/float64 cases
with gradients (plain, views, broadcasting, empty), a sweep over every other
dtype (`expect="any"`: whatever torch does, error or value), integer
wrap-around, beta = 0 with NaN in input, and the errors torch raises."""

import torch

from .framework import NAMES, SHORT, T
from .products import SMALL_K

FLOATS = ("float32", "float64")


def _trace(input):
    return torch.trace(input)


def _kron(input, other):
    return torch.kron(input, other)


def _kron_of_copies(input, other):
    """torch 1.13's kron raises "view size is not compatible" for some
    non-contiguous operands (a transposed first operand): a layout-dependent
    bug tessera does not copy. Its expectation is kron of contiguous copies."""
    return torch.kron(input.contiguous(), other.contiguous())


def _inner(input, other):
    return torch.inner(input, other)


def _mv(input, vec):
    return torch.mv(input, vec)


def _addmv(input, mat, vec, **kw):
    return torch.addmv(input, mat, vec, **kw)


def _addr(input, vec1, vec2, **kw):
    return torch.addr(input, vec1, vec2, **kw)


def _addbmm(input, batch1, batch2, **kw):
    return torch.addbmm(input, batch1, batch2, **kw)


def _sweep(b, op, fn, make):
    """Every dtype other than float32/float64, small values, whatever torch does."""
    for dt in NAMES:
        if dt not in FLOATS:
            b.case(op, f"{SHORT[dt]}_values", fn, make(dt), expect="any")


def trace_kron(b):
    for dt in FLOATS:
        sh = SHORT[dt]
        b.case("trace", f"{sh}_square", _trace, {"input": T((4, 4), dt)}, grad=["input"])
        b.case("trace", f"{sh}_wide", _trace, {"input": T((2, 5), dt)}, grad=["input"])
        b.case("trace", f"{sh}_transposed", _trace,
               {"input": T((5, 3), dt, view=["transpose:0:1"])}, grad=["input"])
        b.case("trace", f"{sh}_empty", _trace, {"input": T((0, 3), dt)})
        b.case("kron", f"{sh}_matrices", _kron, {"input": T((2, 3), dt), "other": T((3, 2), dt)},
               grad=["input", "other"])
        b.case("kron", f"{sh}_ranks_differ", _kron,
               {"input": T((2, 1, 3), dt), "other": T((2, 2), dt)}, grad=["input", "other"])
        b.case("kron", f"{sh}_views", _kron_of_copies,
               {"input": T((3, 2), dt, view=["transpose:0:1"]),
                "other": T((4,), dt, view=["slice:0:0:4:2"])}, grad=["input", "other"])
        b.case("kron", f"{sh}_zero_d", _kron, {"input": T((), dt), "other": T((2, 3), dt)},
               grad=["input", "other"])
    b.case("kron", "f32_empty", _kron, {"input": T((0, 2), "float32"),
                                        "other": T((2, 2), "float32")})
    b.case("kron", "mixed_i32_f32_promotes", _kron,
           {"input": T((2,), "int32"), "other": T((3,), "float32")})
    b.case("kron", "i8_wraps", _kron, {"input": T((2,), "int8", values=[100, -100]),
                                       "other": T((2,), "int8", values=[3, 2])})
    b.case("trace", "i64_sums_as_int64", _trace,
           {"input": T((2, 2), "int64", values=[2**62, 0, 0, 2**62])})
    b.case("trace", "three_d_error", _trace, {"input": T((2, 2, 2), "float32")}, expect="error")
    b.case("trace", "one_d_error", _trace, {"input": T((3,), "float32")}, expect="error")
    _sweep(b, "trace", _trace, lambda dt: {"input": T((3, 3), dt, "small")})
    _sweep(b, "kron", _kron, lambda dt: {"input": T((2, 2), dt, "small"),
                                         "other": T((2,), dt, "small")})


def inner_mv(b):
    for dt in FLOATS:
        sh = SHORT[dt]
        g = ["input", "other"]
        b.case("inner", f"{sh}_vectors", _inner, {"input": T((5,), dt), "other": T((5,), dt)},
               tol=SMALL_K, grad=g)
        b.case("inner", f"{sh}_batched", _inner,
               {"input": T((2, 3, 4), dt), "other": T((5, 4), dt)}, tol=SMALL_K, grad=g)
        b.case("inner", f"{sh}_views", _inner,
               {"input": T((4, 3), dt, view=["transpose:0:1"]),
                "other": T((2, 8), dt, view=["slice:1:0:8:2"])}, tol=SMALL_K, grad=g)
        b.case("inner", f"{sh}_zero_d", _inner, {"input": T((), dt), "other": T((2, 3), dt)},
               grad=g)
        g = ["input", "vec"]
        b.case("mv", f"{sh}_basic", _mv, {"input": T((3, 4), dt), "vec": T((4,), dt)},
               tol=SMALL_K, grad=g)
        b.case("mv", f"{sh}_views", _mv,
               {"input": T((4, 3), dt, view=["transpose:0:1"]),
                "vec": T((8,), dt, view=["slice:0:0:8:2"])}, tol=SMALL_K, grad=g)
        b.case("mv", f"{sh}_expanded", _mv,
               {"input": T((1, 4), dt, view=["expand:3:4"]), "vec": T((4,), dt)},
               tol=SMALL_K, grad=g)
    b.case("inner", "f32_empty_last_dim", _inner,
           {"input": T((2, 0), "float32"), "other": T((3, 0), "float32")})
    b.case("inner", "mixed_i32_f32_zero_d_promotes", _inner,
           {"input": T((), "int32"), "other": T((3,), "float32")})
    b.case("inner", "mixed_dtype_error", _inner,
           {"input": T((3,), "int32"), "other": T((3,), "float32")}, expect="error")
    b.case("inner", "last_dim_mismatch_error", _inner,
           {"input": T((2, 3), "float32"), "other": T((4,), "float32")}, expect="error")
    b.case("inner", "i8_wraps", _inner, {"input": T((2,), "int8", values=[100, 100]),
                                         "other": T((2,), "int8", values=[1, 2])})
    b.case("mv", "f32_empty_rows", _mv, {"input": T((0, 3), "float32"),
                                         "vec": T((3,), "float32")})
    b.case("mv", "f32_empty_k", _mv, {"input": T((2, 0), "float32"), "vec": T((0,), "float32")})
    b.case("mv", "i16_wraps", _mv, {"input": T((1, 2), "int16", values=[30000, 30000]),
                                    "vec": T((2,), "int16", values=[1, 1])})
    b.case("mv", "three_d_error", _mv, {"input": T((2, 2, 2), "float32"),
                                        "vec": T((2,), "float32")}, expect="error")
    b.case("mv", "size_mismatch_error", _mv, {"input": T((2, 3), "float32"),
                                              "vec": T((2,), "float32")}, expect="error")
    b.case("mv", "mixed_dtype_error", _mv, {"input": T((2, 3), "float64"),
                                            "vec": T((3,), "float32")}, expect="error")
    _sweep(b, "inner", _inner, lambda dt: {"input": T((2, 3), dt, "small"),
                                           "other": T((3,), dt, "small")})
    _sweep(b, "mv", _mv, lambda dt: {"input": T((2, 3), dt, "small"),
                                     "vec": T((3,), dt, "small")})


def add_vector_products(b):
    def amv(name, x, m, v, args=None, **kw):
        b.case("addmv", name, _addmv, {"input": x, "mat": m, "vec": v}, args, tol=SMALL_K, **kw)

    def ar(name, x, v1, v2, args=None, **kw):
        b.case("addr", name, _addr, {"input": x, "vec1": v1, "vec2": v2}, args, tol=SMALL_K,
               **kw)

    def abm(name, x, b1, b2, args=None, **kw):
        b.case("addbmm", name, _addbmm, {"input": x, "batch1": b1, "batch2": b2}, args,
               tol=SMALL_K, **kw)

    for dt in FLOATS:
        sh = SHORT[dt]
        g = ["input", "mat", "vec"]
        amv(f"{sh}_default", T((3,), dt), T((3, 4), dt), T((4,), dt), grad=g)
        amv(f"{sh}_beta_alpha", T((3,), dt), T((3, 4), dt), T((4,), dt),
            {"beta": 0.5, "alpha": -2.0}, grad=g)
        amv(f"{sh}_broadcast_input", T((1,), dt), T((3, 4), dt), T((4,), dt), {"beta": 2},
            grad=g)
        amv(f"{sh}_zero_d_input", T((), dt), T((3, 4), dt), T((4,), dt), grad=g)
        amv(f"{sh}_views", T((6,), dt, view=["slice:0:0:6:2"]),
            T((4, 3), dt, view=["transpose:0:1"]), T((4,), dt), {"alpha": 0.25}, grad=g)
        g = ["input", "vec1", "vec2"]
        ar(f"{sh}_default", T((3, 2), dt), T((3,), dt), T((2,), dt), grad=g)
        ar(f"{sh}_beta_alpha", T((3, 2), dt), T((3,), dt), T((2,), dt),
           {"beta": -1.5, "alpha": 0.5}, grad=g)
        ar(f"{sh}_broadcast_input", T((2,), dt), T((3,), dt), T((2,), dt), {"beta": 2},
           grad=g)
        ar(f"{sh}_views", T((2, 3), dt, view=["transpose:0:1"]),
           T((6,), dt, view=["slice:0:0:6:2"]), T((2,), dt), {"alpha": 3}, grad=g)
        g = ["input", "batch1", "batch2"]
        abm(f"{sh}_default", T((3, 2), dt), T((4, 3, 5), dt), T((4, 5, 2), dt), grad=g)
        abm(f"{sh}_beta_alpha", T((3, 2), dt), T((4, 3, 5), dt), T((4, 5, 2), dt),
            {"beta": 0.5, "alpha": -1.0}, grad=g)
        abm(f"{sh}_broadcast_input", T((2,), dt), T((2, 3, 4), dt), T((2, 4, 2), dt),
            {"beta": 2}, grad=g)
        abm(f"{sh}_views", T((2, 3), dt, view=["transpose:0:1"]),
            T((3, 2, 4), dt, view=["permute:1:0:2"]), T((2, 2, 4), dt, view=["transpose:1:2"]),
            {"alpha": 0.5}, grad=g)
    nan_input = ["nan", "inf", "nan", 1.0, "nan", "-inf"]
    amv("f32_beta_zero_ignores_nan", T((3,), "float32", values=nan_input[:3]),
        T((3, 2), "float32"), T((2,), "float32"), {"beta": 0})
    ar("f32_beta_zero_ignores_nan", T((3, 2), "float32", values=nan_input),
       T((3,), "float32"), T((2,), "float32"), {"beta": 0})
    abm("f32_beta_zero_ignores_nan", T((3, 2), "float32", values=nan_input),
        T((2, 3, 4), "float32"), T((2, 4, 2), "float32"), {"beta": 0})
    amv("f32_empty_k", T((3,), "float32"), T((3, 0), "float32"), T((0,), "float32"),
        {"beta": 2})
    ar("f32_empty", T((0, 2), "float32"), T((0,), "float32"), T((2,), "float32"))
    abm("f32_empty_batch", T((3, 2), "float32"), T((0, 3, 4), "float32"),
        T((0, 4, 2), "float32"), {"beta": 2})
    amv("i32_wraps", T((1,), "int32", values=[2**31 - 1]), T((1, 1), "int32", values=[1]),
        T((1,), "int32", values=[1]))
    ar("i8_wraps", T((1, 1), "int8", values=[100]), T((1,), "int8", values=[10]),
       T((1,), "int8", values=[10]), {"alpha": 2})
    abm("u8_wraps", T((1, 1), "uint8", values=[200]), T((2, 1, 1), "uint8", values=[10, 5]),
        T((2, 1, 1), "uint8", values=[10, 2]))
    amv("i64_float_beta_truncates", T((2,), "int64"), T((2, 3), "int64"), T((3,), "int64"),
        {"beta": 0.5}, expect="any")
    amv("mixed_input_converted", T((3,), "float64"), T((3, 4), "float32"), T((4,), "float32"))
    ar("mixed_dtypes_promote", T((3, 2), "float64"), T((3,), "int64"), T((2,), "float32"))
    ar("bool_beta_alpha", T((3, 2), "bool"), T((3,), "bool"), T((2,), "bool"),
       {"beta": True, "alpha": False})
    ar("bool_beta_zero", T((3, 2), "bool"), T((3,), "bool"), T((2,), "bool"), {"beta": False})
    ar("f16_half_beta", T((3, 2), "float16"), T((3,), "float16"), T((2,), "float16"),
       {"beta": 0.5}, expect="any")
    ar("int_float_alpha_error", T((2, 2), "int64"), T((2,), "int64"), T((2,), "int64"),
       {"alpha": 1.5}, expect="error")
    ar("float_bool_beta_error", T((2, 2), "float32"), T((2,), "float32"), T((2,), "float32"),
       {"beta": True}, expect="error")
    ar("two_d_vec1_error", T((2, 2), "float32"), T((2, 1), "float32"), T((2,), "float32"),
       expect="error")
    ar("input_not_broadcastable_error", T((3, 3), "float32"), T((3,), "float32"),
       T((2,), "float32"), expect="error")
    amv("two_d_input_error", T((1, 3), "float32"), T((3, 2), "float32"), T((2,), "float32"),
        expect="error")
    amv("input_size_error", T((2,), "float32"), T((3, 2), "float32"), T((2,), "float32"),
        expect="error")
    amv("size_mismatch_error", T((3,), "float32"), T((3, 2), "float32"), T((3,), "float32"),
        expect="error")
    abm("mixed_dtype_error", T((3, 2), "float64"), T((2, 3, 4), "float32"),
        T((2, 4, 2), "float32"), expect="error")
    abm("batch_count_error", T((3, 2), "float32"), T((2, 3, 4), "float32"),
        T((3, 4, 2), "float32"), expect="error")
    abm("two_d_batch_error", T((3, 2), "float32"), T((3, 4), "float32"),
        T((3, 4, 2), "float32"), expect="error")
    abm("input_not_broadcastable_error", T((3, 3), "float32"), T((2, 3, 4), "float32"),
        T((2, 4, 2), "float32"), expect="error")
    _sweep(b, "addmv", _addmv, lambda dt: {"input": T((2,), dt, "small"),
                                           "mat": T((2, 3), dt, "small"),
                                           "vec": T((3,), dt, "small")})
    _sweep(b, "addr", _addr, lambda dt: {"input": T((2, 3), dt, "small"),
                                         "vec1": T((2,), dt, "small"),
                                         "vec2": T((3,), dt, "small")})
    _sweep(b, "addbmm", _addbmm, lambda dt: {"input": T((2, 2), dt, "small"),
                                             "batch1": T((2, 2, 3), dt, "small"),
                                             "batch2": T((2, 3, 2), dt, "small")})


def _cross(input, other, **kw):
    return torch.cross(input, other, **kw)


def _linalg_cross(input, other, **kw):
    return torch.linalg.cross(input, other, **kw)


def _vecdot(x, y, **kw):
    return torch.linalg.vecdot(x, y, **kw)


def cross_vecdot(b):
    """cross without dim takes input's first dim of size 3 (torch 1.13 warns
    nothing); linalg_cross's dim is -1 unless given; both broadcast the other
    dims of operands of one rank. vecdot conjugates x."""
    for dt in FLOATS:
        sh = SHORT[dt]
        g = ["input", "other"]
        b.case("cross", f"{sh}_default_dim", _cross,
               {"input": T((2, 3, 3), dt), "other": T((2, 3, 3), dt)}, grad=g)
        b.case("cross", f"{sh}_default_dim_first", _cross,
               {"input": T((3, 4), dt), "other": T((3, 4), dt)}, grad=g)
        b.case("cross", f"{sh}_dim", _cross, {"input": T((3, 3), dt), "other": T((3, 3), dt)},
               {"dim": 1}, grad=g)
        b.case("cross", f"{sh}_default_dim_broadcast", _cross,
               {"input": T((1, 3), dt), "other": T((4, 3), dt)}, grad=g)
        b.case("linalg_cross", f"{sh}_last_dim", _linalg_cross,
               {"input": T((4, 3), dt), "other": T((4, 3), dt)}, grad=g)
        b.case("linalg_cross", f"{sh}_broadcast", _linalg_cross,
               {"input": T((2, 1, 3), dt), "other": T((1, 4, 3), dt)}, grad=g)
        b.case("linalg_cross", f"{sh}_dim0_views", _linalg_cross,
               {"input": T((4, 3), dt, view=["transpose:0:1"]),
                "other": T((3, 8), dt, view=["slice:1:0:8:2"])}, {"dim": 0}, grad=g)
        g = ["x", "y"]
        b.case("linalg_vecdot", f"{sh}_last_dim", _vecdot,
               {"x": T((3, 4), dt), "y": T((3, 4), dt)}, tol=SMALL_K, grad=g)
        b.case("linalg_vecdot", f"{sh}_broadcast", _vecdot,
               {"x": T((2, 1, 4), dt), "y": T((3, 4), dt)}, tol=SMALL_K, grad=g)
        b.case("linalg_vecdot", f"{sh}_dim_views", _vecdot,
               {"x": T((4, 3), dt, view=["transpose:0:1"]), "y": T((3, 1), dt)}, {"dim": 1},
               tol=SMALL_K, grad=g)
    for dt in ("complex64", "complex128"):
        b.case("linalg_vecdot", f"{SHORT[dt]}_conjugates_x", _vecdot,
               {"x": T((2, 3), dt), "y": T((2, 3), dt)}, tol=SMALL_K)
    b.case("linalg_vecdot", "f32_empty_dim", _vecdot,
           {"x": T((2, 0), "float32"), "y": T((2, 0), "float32")})
    b.case("linalg_vecdot", "f32_zero_d", _vecdot,
           {"x": T((), "float32"), "y": T((), "float32")})
    b.case("linalg_vecdot", "bf16_values", _vecdot,
           {"x": T((3,), "bfloat16", "small"), "y": T((3,), "bfloat16", "small")},
           expect="any")
    for dt in ("int64", "bool"):
        b.case("linalg_vecdot", f"{SHORT[dt]}_error", _vecdot,
               {"x": T((3,), dt), "y": T((3,), dt)}, expect="error")
    # torch 1.13 hands two 1-d operands to vdot, which refuses float16.
    b.case("linalg_vecdot", "f16_vectors_error", _vecdot,
           {"x": T((3,), "float16"), "y": T((3,), "float16")}, expect="error")
    b.case("linalg_vecdot", "f16_batched", _vecdot,
           {"x": T((2, 3), "float16", "small"), "y": T((2, 3), "float16", "small")})
    b.case("linalg_vecdot", "mixed_dtype_error", _vecdot,
           {"x": T((3,), "float32"), "y": T((3,), "float64")}, expect="error")
    b.case("linalg_vecdot", "shape_mismatch_error", _vecdot,
           {"x": T((2, 3), "float32"), "y": T((2, 4), "float32")}, expect="error")
    b.case("linalg_vecdot", "dim_out_of_range_error", _vecdot,
           {"x": T((2, 3), "float32"), "y": T((2, 3), "float32")}, {"dim": 2}, expect="error")
    b.case("linalg_cross", "i8_wraps", _linalg_cross,
           {"input": T((3,), "int8", values=[100, 100, 1]),
            "other": T((3,), "int8", values=[1, -100, 100])})
    b.case("linalg_cross", "f32_empty_batch", _linalg_cross,
           {"input": T((0, 3), "float32"), "other": T((0, 3), "float32")})
    b.case("linalg_cross", "f32_special_values", _linalg_cross,
           {"input": T((3,), "float32", values=["inf", 1.0, 0.0]),
            "other": T((3,), "float32", values=[0.0, "nan", 2.0])})
    for dt in NAMES:
        if dt not in FLOATS:
            b.case("linalg_cross", f"{SHORT[dt]}_values", _linalg_cross,
                   {"input": T((2, 3), dt, "small"), "other": T((2, 3), dt, "small")},
                   expect="any")
            b.case("cross", f"{SHORT[dt]}_values", _cross,
                   {"input": T((3, 2), dt, "small"), "other": T((3, 2), dt, "small")},
                   expect="any")
    b.case("cross", "no_dim_of_size_3_error", _cross,
           {"input": T((2, 4), "float32"), "other": T((2, 4), "float32")}, expect="error")
    b.case("cross", "default_dim_other_not_3_error", _cross,
           {"input": T((3, 4), "float32"), "other": T((1, 4), "float32")}, expect="error")
    b.case("cross", "rank_mismatch_error", _cross,
           {"input": T((4, 3), "float32"), "other": T((3,), "float32")}, expect="error")
    b.case("linalg_cross", "not_3_error", _linalg_cross,
           {"input": T((3, 4), "float32"), "other": T((3, 4), "float32")}, expect="error")
    b.case("linalg_cross", "rank_mismatch_error", _linalg_cross,
           {"input": T((4, 3), "float32"), "other": T((3,), "float32")}, expect="error")
    b.case("linalg_cross", "mixed_dtype_error", _linalg_cross,
           {"input": T((3,), "float32"), "other": T((3,), "float64")}, expect="error")
    b.case("linalg_cross", "broadcast_dim_error", _linalg_cross,
           {"input": T((3, 1), "float32"), "other": T((1, 3), "float32")}, {"dim": 0},
           expect="error")
    b.case("linalg_cross", "zero_d_error", _linalg_cross,
           {"input": T((), "float32"), "other": T((), "float32")}, expect="error")

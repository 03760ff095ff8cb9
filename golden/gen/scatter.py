"""Scattering: scatter (src and value forms), scatter_add, scatter_reduce,
index_add.  `dim` is an arg; `index` and `src`/`source` (or a scalar `value`)
are operands."""

import torch

from .framework import NAMES, SHORT, T, S

F32, F64 = "float32", "float64"
FLOATS = (F32, F64)
REDUCES = ("sum", "prod", "mean", "amax", "amin")


def _ints(dt, vals, shape=None):
    return T(shape or (len(vals),), dt, values=vals)


def _scatter(input, index, src=None, value=None, **kw):
    return torch.scatter(input, kw.pop("dim"), index, src if src is not None else value, **kw)


def _scatter_add(input, index, src, dim):
    return torch.scatter_add(input, dim, index, src)


def _scatter_reduce(input, index, src, dim, **kw):
    return torch.scatter_reduce(input, dim, index, src, **kw)


def _index_add(input, index, source, dim, **kw):
    return torch.index_add(input, dim, index, source, **kw)


def scattering(b):
    def sc(name, x, idx, src=None, value=None, args=None, **kw):
        ops = {"input": x, "index": idx}
        ops.update({"src": src} if src is not None else {"value": value})
        b.case("scatter", name, _scatter, ops, {"dim": 0, **(args or {})}, **kw)

    def sa(name, x, idx, src, dim=0, **kw):
        b.case("scatter_add", name, _scatter_add, {"input": x, "index": idx, "src": src},
               {"dim": dim}, **kw)

    def ia(name, x, idx, src, args=None, **kw):
        b.case("index_add", name, _index_add, {"input": x, "index": idx, "source": src},
               {"dim": 0, **(args or {})}, **kw)

    for dt in FLOATS:
        sh, g = SHORT[dt], ["input", "src"]
        sc(f"{sh}_src", T((3, 4), dt), T((2, 4), "int64", "perm:0:3"), T((2, 4), dt), grad=g)
        sc(f"{sh}_src_dim1", T((3, 5), dt), T((3, 2), "int64", "perm:1:5"), T((3, 2), dt),
           args={"dim": 1}, grad=g)
        sc(f"{sh}_src_views", T((4, 3), dt, view=["transpose:0:1"]),
           T((2, 4), "int64", "perm:0:3"), T((1, 4), dt, view=["expand:2:4"]), grad=g)
        sc(f"{sh}_value", T((3, 4), dt), T((2, 4), "int64", "range:0:3"), value=S(-2.5),
           grad=["input"])
        sa(f"{sh}_duplicates", T((3, 4), dt), T((5, 4), "int64", "range:0:3"), T((5, 4), dt),
           grad=g)
        sa(f"{sh}_dim1_views", T((5, 3), dt, view=["transpose:0:1"]),
           T((3, 6), "int64", "range:0:5"), T((3, 12), dt, view=["slice:1:0:12:2"]), dim=1,
           grad=g)
        g = ["input", "source"]
        ia(f"{sh}_duplicates", T((3, 4), dt), _ints("int64", [2, 0, 2]), T((3, 4), dt), grad=g)
        ia(f"{sh}_alpha", T((4, 3), dt, view=["transpose:0:1"]), _ints("int64", [1]),
           T((1, 4), dt), {"alpha": -1.5}, grad=g)
        ia(f"{sh}_dim1", T((3, 5), dt), _ints("int64", [4, 0]), T((3, 2), dt),
           {"dim": 1, "alpha": 2}, grad=g)
    sc("f32_reduce_add", T((3, 4), F32), T((3, 4), "int64", "range:0:3"), T((3, 4), F32),
       {"reduce": "add"})
    sc("f32_reduce_multiply", T((3, 4), F32), T((3, 4), "int64", "range:0:3"), T((3, 4), F32),
       {"reduce": "multiply"})
    sc("f32_value_reduce_add", T((3, 4), F32), T((3, 4), "int64", "range:0:3"), value=S(1.5),
       args={"reduce": "add"})
    sc("i64_float_value", T((3, 4), "int64"), T((1, 4), "int64", "range:0:3"), value=S(2.5))
    sc("index_out_of_range_error", T((3, 4), F32), _ints("int64", [3], (1, 1)),
       T((1, 1), F32), expect="error")
    sc("negative_index_error", T((3, 4), F32), _ints("int64", [-1], (1, 1)), T((1, 1), F32),
       expect="error")
    sc("src_dtype_mismatch_error", T((3, 4), F32), T((1, 4), "int64", "range:0:3"),
       T((1, 4), F64), expect="error")
    sc("f32_empty_index", T((3, 4), F32), T((0, 4), "int64"), T((2, 4), F32))
    sa("index_out_of_range_error", T((3, 4), F32), _ints("int64", [3], (1, 1)), T((1, 1), F32),
       expect="error")
    sa("index_larger_than_src_error", T((3, 4), F32), T((2, 4), "int64", "range:0:3"),
       T((1, 4), F32), expect="error")
    ia("index_out_of_range_error", T((3, 4), F32), _ints("int64", [3]), T((1, 4), F32),
       expect="error")
    ia("negative_index_error", T((3, 4), F32), _ints("int64", [-1]), T((1, 4), F32),
       expect="error")
    ia("source_dtype_mismatch_error", T((3, 4), F32), _ints("int64", [0]), T((1, 4), F64),
       expect="error")
    ia("i64_alpha", T((3, 4), "int64"), _ints("int64", [0, 0]), T((2, 4), "int64"),
       {"alpha": 3})
    for dt in NAMES:
        if dt not in FLOATS:
            sh = SHORT[dt]
            sc(f"{sh}_src", T((3, 4), dt), T((2, 4), "int64", "perm:0:3"), T((2, 4), dt))
            sa(f"{sh}_values", T((3, 4), dt), T((4, 4), "int64", "range:0:3"), T((4, 4), dt),
               expect="any")
            ia(f"{sh}_values", T((3, 4), dt), _ints("int64", [2, 0, 2]), T((3, 4), dt),
               expect="any")
    _scatter_reduce_cases(b)


def _scatter_reduce_cases(b):
    def sr(name, x, idx, src, args, **kw):
        b.case("scatter_reduce", name, _scatter_reduce, {"input": x, "index": idx, "src": src},
               args, **kw)

    for red in REDUCES:
        for inc in (True, False):
            tag = f"{red}_{'include_self' if inc else 'exclude_self'}"
            args = {"dim": 0, "reduce": red, "include_self": inc}
            for dt in FLOATS:
                kind = "distinct" if red in ("amax", "amin") else "normal"
                sr(f"{tag}_{SHORT[dt]}", T((4, 3), dt, kind), T((6, 3), "int64", "range:0:3"),
                   T((6, 3), dt, kind), args, grad=["input", "src"])
            sr(f"{tag}_f32_dim1_views", T((5, 3), F32, view=["transpose:0:1"]),
               T((3, 4), "int64", "range:0:5"), T((3, 8), F32, view=["slice:1:0:8:2"]),
               dict(args, dim=1))
            sr(f"{tag}_f32_ties", T((3,), F32, values=[1.0, 2.0, 2.0]),
               _ints("int64", [0, 0, 1, 1]), _ints(F32, [1.0, 1.0, 2.0, 3.0]), args,
               grad=["input", "src"] if red not in ("prod",) else None)
            sr(f"{tag}_f32_nan", T((3,), F32, values=[1.0, "nan", 2.0]),
               _ints("int64", [0, 1, 2, 2]), _ints(F32, ["nan", 1.0, 3.0, "nan"]), args)
            sr(f"{tag}_i64", T((3, 2), "int64"), T((4, 2), "int64", "range:0:3"),
               T((4, 2), "int64"), args)
            sr(f"{tag}_f32_untouched_rows", T((5, 2), F32), T((2, 2), "int64", "range:0:2"),
               T((2, 2), F32), args)
            sr(f"{tag}_grad_f64_zeros", T((3,), F64, values=[0.0, 2.0, 0.0]),
               _ints("int64", [0, 0, 1, 2]), _ints(F64, [3.0, 0.0, 0.0, 4.0]), args,
               grad=["input", "src"], expect="any")
    args = {"dim": 0, "reduce": "sum"}
    for dt in NAMES:
        if dt not in FLOATS:
            sr(f"{SHORT[dt]}_sum", T((3, 2), dt), T((4, 2), "int64", "range:0:3"),
               T((4, 2), dt), args, expect="any")
            sr(f"{SHORT[dt]}_mean", T((3, 2), dt), T((4, 2), "int64", "range:0:3"),
               T((4, 2), dt), dict(args, reduce="mean"), expect="any")
    sr("invalid_reduce_error", T((3,), F32), _ints("int64", [0]), T((1,), F32),
       {"dim": 0, "reduce": "max"}, expect="error")
    sr("index_out_of_range_error", T((3,), F32), _ints("int64", [3]), T((1,), F32), args,
       expect="error")
    sr("src_dtype_mismatch_error", T((3,), F32), _ints("int64", [0]), T((1,), F64), args,
       expect="error")

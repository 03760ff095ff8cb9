"""Shared driver for reductions: dim forms, layouts, dtype sweep, NaN, grads.

Conventions: `dim` absent means torch's default (all dims, except where the op
requires one); `dim: null` is recorded only where torch accepts None.  A
`dtype` arg is a dtype name.  Float32 reductions carry rtol/atol from REDUCE
(LONG_REDUCE for the 1037-element and longer cases): summation order is not
specified, so a runner's sum may differ from torch's by a few ulps.
"""

import torch

from .framework import DTYPES, NAMES, SHORT, T, apply_view

# Per output dtype (rtol, atol); float16/bfloat16 allow two ulps.
REDUCE = {"float32": (1e-5, 1e-5), "complex64": (1e-5, 1e-5),
          "float16": (2e-3, 2e-3), "bfloat16": (1.6e-2, 1.6e-2)}
LONG_REDUCE = {"float32": (1e-4, 1e-4), "complex64": (1e-4, 1e-4),
               "float16": (4e-3, 4e-3), "bfloat16": (3.2e-2, 3.2e-2),
               "float64": (1e-10, 1e-10)}
LONG = ("long_vector", "long_rows_dim1", "long_transposed_dim1")


def torch_kw(kw):
    """Turn a dtype name in kw into a torch dtype (args are stored as names)."""
    if isinstance(kw.get("dtype"), str):
        kw = dict(kw, dtype=DTYPES[kw["dtype"]])
    return kw


def wrap(torch_fn):
    return lambda input, **kw: torch_fn(input, **torch_kw(kw))


def layouts(dt="float32", kind="normal", dims="list", keepdim=True, none_dim=True,
            needs_dim=False):
    """(name, tensor spec, args).  dims: "list" (int or list), "int" (one int)."""
    def kd(args):
        return args if keepdim else {k: v for k, v in args.items() if k != "keepdim"}
    out = [] if needs_dim else [("all", T((3, 4), dt, kind), {})]
    if none_dim and not needs_dim:
        out.append(("all_dim_none", T((3, 4), dt, kind), {"dim": None}))
    out += [
        ("dim0", T((3, 4), dt, kind), {"dim": 0}),
        ("dim1_keepdim", T((3, 4), dt, kind), kd({"dim": 1, "keepdim": True})),
        ("dim_negative", T((2, 3, 4), dt, kind), {"dim": -2}),
        ("transposed_dim0", T((4, 3), dt, kind, ["transpose:0:1"]), {"dim": 0}),
        ("stepped_dim1", T((3, 9), dt, kind, ["slice:1:1:9:2"]), {"dim": 1}),
        ("expanded_dim0", T((1, 4), dt, kind, ["expand:3:4"]), {"dim": 0}),
        ("diagonal_dim0", T((4, 5), dt, kind, ["diagonal:1:0:1"]), {"dim": 0}),
        ("zero_d_dim0", T((), dt, kind), {"dim": 0}),
        ("zero_d_dim_minus1_keepdim", T((), dt, kind), kd({"dim": -1, "keepdim": True})),
        ("empty_dim1", T((0, 3), dt, kind), {"dim": 1}),
        ("empty_dim0", T((0, 3), dt, kind), {"dim": 0}),
        ("long_rows_dim1", T((5, 301), dt, kind), {"dim": 1}),
        ("long_transposed_dim1", T((67, 5), dt, kind, ["transpose:0:1"]), {"dim": 1}),
    ]
    if not needs_dim:
        out += [
            ("transposed_all", T((4, 3), dt, kind, ["transpose:0:1"]), {}),
            ("expanded_all", T((1, 4), dt, kind, ["expand:3:4"]), {}),
            ("diagonal_all", T((4, 4), dt, kind, ["diagonal:0:0:1"]), {}),
            ("zero_d_all", T((), dt, kind), {}),
            ("empty_all", T((0, 3), dt, kind), {}),
            ("long_vector", T((1037,), dt, kind), {}),
        ]
    if dims == "list":
        out += [
            ("dim_list", T((2, 3, 4), dt, kind), {"dim": [0, 2]}),
            ("dim_list_negative_keepdim", T((2, 3, 4), dt, kind),
             kd({"dim": [-1, -3], "keepdim": True})),
            ("dim_list_single", T((3, 4), dt, kind), {"dim": [1]}),
            ("dim_list_all", T((2, 3, 4), dt, kind), {"dim": [0, 1, 2]}),
            ("permuted_dim_list", T((4, 2, 3), dt, kind, ["permute:2:0:1"]), {"dim": [0, 2]}),
            ("stepped_4d_dim_list", T((2, 3, 2, 8), dt, kind, ["slice:3:0:8:2"]),
             {"dim": [1, 3]}),
        ]
    else:
        out.append(("permuted_dim1", T((4, 2, 3), dt, kind, ["permute:2:0:1"]), {"dim": 1}))
    return out


def errors(dims="list"):
    out = [("dim_out_of_range_error", T((3, 4), "float32"), {"dim": 2}),
           ("dim_negative_out_of_range_error", T((3, 4), "float32"), {"dim": -3})]
    if dims == "list":
        out.append(("dim_list_repeated_error", T((3, 4), "float32"), {"dim": [0, -2]}))
    return out


def raises(fn, spec, args):
    """Whether torch rejects this empty input (reductions without an identity);
    such cases get the _error suffix.  Empty inputs need no data to tell."""
    x = torch.zeros(spec.shape, dtype=DTYPES[spec.dtype])
    try:
        fn(apply_view(x, spec.view), **args)
    except (RuntimeError, IndexError, ValueError):
        return True
    return False


NAN_ROWS = [1.0, "nan", 3.0, -2.0, 0.5, 4.0, "nan", "nan", "inf", -1.0, 2.0, "-inf"]


def driver(b, op, fn, *, kind="normal", dims="list", keepdim=True, none_dim=True,
           needs_dim=False, tol=REDUCE, grad=True, sweep_args=None):
    """The generic set: float32 layouts, errors, 12-dtype sweep, NaN and
    infinities, float32/float64 gradient cases."""
    def add(name, x, args, **kw):
        kw.setdefault("tol", LONG_REDUCE if name.endswith(LONG) else tol)
        if "empty" in name and raises(fn, x, args):
            name, kw["expect"] = name + "_error", "error"
        b.case(op, name, fn, {"input": x}, args, **kw)

    for name, x, args in layouts("float32", kind, dims, keepdim, none_dim, needs_dim):
        add(f"f32_{name}", x, args)
    for name, x, args in errors(dims):
        if needs_dim and "dim" not in args:
            continue
        add(name, x, args, expect="error")
    sweep = sweep_args or ({"dim": 1} if needs_dim else {})
    for dt in NAMES:
        sh = SHORT[dt]
        k = kind if dt not in ("bool",) else "normal"
        add(f"{sh}_sweep", T((3, 4), dt, k), sweep, expect="any")
        add(f"{sh}_sweep_dim1", T((4, 3), dt, k, ["transpose:0:1"]), {"dim": 1}, expect="any")
    nan_sweep = sweep_args or ({"dim": 0} if needs_dim else {})
    for dt in ("float32", "float64", "float16", "bfloat16"):
        sh = SHORT[dt]
        add(f"{sh}_nan_inf", T((12,), dt, values=NAN_ROWS), nan_sweep, expect="any")
        add(f"{sh}_nan_inf_dim1", T((3, 4), dt, values=NAN_ROWS), {"dim": 1}, expect="any")
        add(f"{sh}_nan_inf_dim0", T((4, 3), dt, values=NAN_ROWS), {"dim": 0}, expect="any")
    if not grad:
        return
    for dt in ("float32", "float64"):
        for name, x, args in layouts(dt, kind, dims, keepdim, none_dim, needs_dim):
            if name in ("all", "dim1_keepdim", "dim_negative", "transposed_dim0", "expanded_dim0",
                        "dim_list", "dim_list_negative_keepdim", "permuted_dim_list",
                        "zero_d_dim0", "empty_dim1", "stepped_dim1", "permuted_dim1"):
                add(f"grad_{SHORT[dt]}_{name}", x, args, grad=["input"])

"""Gradient cases (`grad_c64_*`, `grad_c128_*`) of the ops whose backward
handles complex tensors (docs/autograd.md, "Complex numbers"): elementwise
math, arithmetic (mixed real/complex too), where, lerp/addcmul/addcdiv,
reductions, scans, matrix products, movement ops (index_select, gather,
masked_fill, cat, stack, transpose, permute) and the real/complex conversions.  The
expected gradients are PyTorch's, in its conjugate Wirtinger convention,
with complex grad_outputs (gradients.record draws real and imaginary parts).
New case names only: every older case stays byte-identical."""

import torch

from . import elementwise2_unary, elementwise_binary, elementwise_unary, index, join, views
from .framework import SHORT, TRANSCENDENTAL, T, L, S
from .products import OPS as PRODUCTS, _addmm, _baddbmm, _einsum, _tensordot, SMALL_K
from .reduce_common import REDUCE, wrap

C64, C128, F32, F64 = "complex64", "complex128", "float32", "float64"
COMPLEX = (C64, C128)
REAL_OF = {C64: F32, C128: F64}
# Ops whose complex forward the reference backend lacks (log1p, expm1, exp2)
# and ops that PyTorch does not define for complex (sign, relu, ...) are left out.
UNARY = ("neg", "abs", "exp", "log", "sqrt", "rsqrt", "sin", "cos", "tanh", "sigmoid")
UNARY2 = ("log2", "log10", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh",
          "atanh", "reciprocal", "square")
TR = dict(TRANSCENDENTAL)


def _kind(kind):
    # complex draws put the same distribution on both parts; positive keeps
    # log, sqrt and pow away from the negative real axis (their branch cut)
    return "positive" if kind in ("positive", "nonzero", "above_one") else kind


def unary(b):
    for dt in COMPLEX:
        sh = SHORT[dt]
        for op in UNARY:
            fn, kind, tol = elementwise_unary.OPS[op]
            b.case(op, f"grad_{sh}", fn, {"input": T((3, 4), dt, _kind(kind))}, tol=TR,
                   grad=["input"])
        for op in UNARY2:
            fn, kind = elementwise2_unary.OPS[op][:2]
            x = T((3, 4), dt, "above_one" if op == "acosh" else _kind(kind))
            b.case(op, f"grad_{sh}", fn, {"input": x}, tol=TR, grad=["input"])
        b.case("abs", f"grad_{sh}_transposed", elementwise_unary.OPS["abs"][0],
               {"input": T((4, 3), dt, view=["transpose:0:1"])}, grad=["input"])


def arithmetic(b):
    for dt in COMPLEX:
        sh, real = SHORT[dt], REAL_OF[dt]
        for op in ("add", "sub", "mul", "div", "pow"):
            fn, second = elementwise_binary.OPS[op], elementwise_binary.SECOND.get(op, "other")
            ka = "positive" if op == "pow" else "normal"
            kb = "positive" if op == "div" else "unit" if op == "pow" else "normal"
            args = {"alpha": 2} if op == "sub" else {}
            g = ["input", second]
            b.case(op, f"grad_{sh}", fn, {"input": T((3, 4), dt, ka), second: T((3, 4), dt, kb)},
                   args, tol=TR, grad=g)
            b.case(op, f"grad_{sh}_broadcast_real_{second}", fn,
                   {"input": T((3, 4), dt, ka), second: T((4,), real, kb)}, args, tol=TR,
                   grad=g)
            b.case(op, f"grad_{sh}_real_input", fn,
                   {"input": T((3, 4), real, "positive" if op == "pow" else ka),
                    second: T((3, 1), dt, kb)}, args, tol=TR, grad=g)
        b.case("mul", f"grad_{sh}_views", elementwise_binary.OPS["mul"],
               {"input": T((4, 3), dt, view=["transpose:0:1"]),
                "other": T((1, 4), dt, view=["expand:3:4"])}, grad=["input", "other"])
        b.case("pow", f"grad_{sh}_scalar_exponent", elementwise_binary.OPS["pow"],
               {"input": T((3, 4), dt, "positive"), "exponent": S(2.5)}, tol=TR,
               grad=["input"])
        w = lambda condition, input, other: torch.where(condition, input, other)  # noqa: E731
        b.case("where", f"grad_{sh}", w,
               {"condition": T((3, 4), "bool"), "input": T((3, 4), dt), "other": T((4,), dt)},
               grad=["input", "other"])


def ternary(b):
    lerp = lambda input, end, weight: torch.lerp(input, end, weight)  # noqa: E731
    for dt in COMPLEX:
        sh = SHORT[dt]
        b.case("lerp", f"grad_{sh}_tensor_weight", lerp,
               {"input": T((3, 4), dt), "end": T((3, 4), dt), "weight": T((3, 4), dt, "unit")},
               grad=["input", "end", "weight"])
        for op, tfn in (("addcmul", torch.addcmul), ("addcdiv", torch.addcdiv)):
            fn = (lambda t: lambda input, tensor1, tensor2, **kw: t(input, tensor1, tensor2,
                                                                     **kw))(tfn)
            k2 = "positive" if op == "addcdiv" else "normal"
            b.case(op, f"grad_{sh}_value", fn,
                   {"input": T((3, 4), dt), "tensor1": T((3, 4), dt),
                    "tensor2": T((3, 4), dt, k2)}, {"value": -0.5},
                   grad=["input", "tensor1", "tensor2"])


def reductions(b):
    for dt in COMPLEX:
        sh = SHORT[dt]
        for op, tfn in (("sum", torch.sum), ("mean", torch.mean)):
            b.case(op, f"grad_{sh}_dim1", wrap(tfn), {"input": T((3, 4), dt)}, {"dim": 1},
                   tol=REDUCE, grad=["input"])
        pr = wrap(torch.prod)
        b.case("prod", f"grad_{sh}_dim1", pr, {"input": T((3, 4), dt, "positive")}, {"dim": 1},
               tol=REDUCE, grad=["input"])
        b.case("prod", f"grad_{sh}_all", pr, {"input": T((2, 3), dt, "positive")}, tol=REDUCE,
               grad=["input"])
        b.case("prod", f"grad_{sh}_with_zero", pr,
               {"input": T((2, 3), dt, values=[1 + 2j, 0j, -0.5 + 1j, 2 - 1j, 1.5j, 0.5 + 0.5j])},
               {"dim": 1}, tol=REDUCE, grad=["input"])
        norm = wrap(torch.linalg.vector_norm)
        for tag, o in (("ord_2", 2), ("ord_1", 1), ("ord_3", 3), ("ord_inf", float("inf"))):
            b.case("linalg_vector_norm", f"grad_{sh}_{tag}", norm, {"input": T((3, 4), dt)},
                   {"ord": o, "dim": 1}, tol=TR, grad=["input"])
        for op, tfn in (("var", torch.var), ("std", torch.std)):
            b.case(op, f"grad_{sh}_dim1", wrap(tfn), {"input": T((3, 4), dt)}, {"dim": 1},
                   tol=REDUCE, grad=["input"])
        for op, tfn, kind in (("cumsum", torch.cumsum, "normal"),
                              ("cumprod", torch.cumprod, "positive")):
            b.case(op, f"grad_{sh}_dim1", wrap(tfn), {"input": T((3, 4), dt, kind)}, {"dim": 1},
                   tol=REDUCE, grad=["input"])


def products(b):
    shapes = {"matmul": ((2, 3, 4), (4, 2)), "mm": ((3, 4), (4, 2)), "bmm": ((2, 3, 4), (2, 4, 2)),
              "dot": ((5,), (5,)), "vdot": ((5,), (5,)), "outer": ((3,), (4,))}
    for dt in COMPLEX:
        sh = SHORT[dt]
        for op, (fn, second) in PRODUCTS.items():
            sa, sb = shapes[op]
            b.case(op, f"grad_{sh}", fn, {"input": T(sa, dt), second: T(sb, dt)}, tol=SMALL_K,
                   grad=["input", second])
        b.case("addmm", f"grad_{sh}_beta_alpha", _addmm,
               {"input": T((3, 2), dt), "mat1": T((3, 4), dt), "mat2": T((4, 2), dt)},
               {"beta": 0.5, "alpha": -2.0}, tol=SMALL_K, grad=["input", "mat1", "mat2"])
        b.case("baddbmm", f"grad_{sh}_beta_alpha", _baddbmm,
               {"input": T((2, 3, 2), dt), "batch1": T((2, 3, 4), dt),
                "batch2": T((2, 4, 2), dt)}, {"beta": 1.5, "alpha": 0.5}, tol=SMALL_K,
               grad=["input", "batch1", "batch2"])
        b.case("einsum", f"grad_{sh}_matmul", _einsum,
               {"operands": L([T((3, 4), dt), T((4, 2), dt)])}, {"equation": "ij,jk->ik"},
               tol=SMALL_K, grad=["operands"])
        b.case("tensordot", f"grad_{sh}_dims1", _tensordot,
               {"a": T((2, 3), dt), "b": T((3, 4), dt)}, {"dims": 1}, tol=SMALL_K,
               grad=["a", "b"])


def conversions(b):
    to = lambda self, dtype: self.to(getattr(torch, dtype))  # noqa: E731
    for dt in COMPLEX:
        sh, real = SHORT[dt], REAL_OF[dt]
        # complex -> real keeps the real part; its gradient is g + 0i
        b.case("to", f"grad_{sh}_to_{SHORT[real]}", to, {"self": T((3, 4), dt)},
               {"dtype": real}, grad=["self"])
        # real -> complex: the real input's gradient is Re g
        b.case("to", f"grad_{SHORT[real]}_to_{sh}", to, {"self": T((3, 4), real)},
               {"dtype": dt}, grad=["self"])


def movement(b):
    mf = lambda input, mask, value: torch.masked_fill(input, mask, value)  # noqa: E731
    for dt in COMPLEX:
        sh = SHORT[dt]
        idx = T((4,), "int64", values=[3, 0, 3, 1])
        b.case("index_select", f"grad_{sh}_dim0_repeats", index._index_select,
               {"input": T((4, 3), dt), "index": idx}, {"dim": 0}, grad=["input"])
        b.case("gather", f"grad_{sh}_dim1", index._gather,
               {"input": T((3, 4), dt), "index": T((3, 2), "int64", "range:0:4")}, {"dim": 1},
               grad=["input"])
        b.case("masked_fill", f"grad_{sh}_scalar", mf,
               {"input": T((3, 4), dt), "mask": T((3, 4), "bool"), "value": S(-1.5)},
               grad=["input"])
        b.case("masked_fill", f"grad_{sh}_zero_d_value", mf,
               {"input": T((3, 4), dt), "mask": T((3, 1), "bool"), "value": T((), dt)},
               grad=["input", "value"])
        b.case("cat", f"grad_{sh}_dim0", join._list(torch.cat),
               {"tensors": L([T((2, 3), dt), T((1, 3), dt)])}, {"dim": 0}, grad=["tensors"])
        b.case("stack", f"grad_{sh}_dim1", join._list(torch.stack),
               {"tensors": L([T((2, 3), dt), T((2, 3), dt)])}, {"dim": 1}, grad=["tensors"])
        b.case("transpose", f"grad_{sh}", views.OPS["transpose"], {"input": T((3, 4), dt)},
               {"dim0": 0, "dim1": 1}, grad=["input"])
        b.case("permute", f"grad_{sh}", views.OPS["permute"], {"input": T((2, 3, 4), dt)},
               {"dims": [2, 0, 1]}, grad=["input"])

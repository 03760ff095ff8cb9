"""Neural-network functions (torch.nn.functional names): softmax, log_softmax
(dim, dtype), dropout (p = 0, p = 1 and training=False only: a seeded dropout
mask cannot match torch's generator), linear, bilinear, and
scaled_dot_product_attention, which torch 1.13 lacks: its expected values are
computed by definition in float64 (see _sdpa) and rounded to the query dtype."""

import math

import torch
import torch.nn.functional as F

from .framework import NAMES, SHORT, T
from .reduce_common import torch_kw

F32, F64 = "float32", "float64"
FLOATS = (F32, F64)
TOL = {"float32": (1e-5, 1e-5), "complex64": (1e-5, 1e-5), "bfloat16": (1.6e-2, 1.6e-2),
       "float16": (2e-3, 2e-3)}
LONG_TOL = {"float32": (1e-4, 1e-4), "float64": (1e-10, 1e-10)}


def _softmax(input, **kw):
    return F.softmax(input, **torch_kw(kw))


def _log_softmax(input, **kw):
    return F.log_softmax(input, **torch_kw(kw))


def _dropout(input, **kw):
    return F.dropout(input, **kw)


def _linear(input, weight, bias=None):
    return F.linear(input, weight, bias)


def _bilinear(input1, input2, weight, bias=None):
    return F.bilinear(input1, input2, weight, bias)


def _sdpa(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None):
    """softmax(query key^T * scale + mask) value in float64, by definition:
    scale defaults to 1/sqrt(E); is_causal keeps key j <= query i (an (L, S)
    lower-triangular mask aligned top-left); a bool attn_mask keeps True
    positions, a float one is added to the scores."""
    if dropout_p != 0.0:
        raise ValueError("only dropout_p = 0 has a reference")
    if is_causal and attn_mask is not None:
        raise RuntimeError("attn_mask and is_causal are mutually exclusive")
    q, k, v = (t.to(torch.float64) for t in (query, key, value))
    n_q, n_k = q.shape[-2], k.shape[-2]
    s = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    scores = (q @ k.transpose(-2, -1)) * s
    if is_causal:
        keep = torch.ones(n_q, n_k, dtype=torch.bool).tril()
        scores = scores.masked_fill(~keep, float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = scores.masked_fill(~attn_mask, float("-inf"))
        else:
            scores = scores + attn_mask.to(torch.float64)
    return (torch.softmax(scores, dim=-1) @ v).to(query.dtype)


def _ints(dt, vals, shape=None):
    return T(shape or (len(vals),), dt, values=vals)


def softmax(b):
    layouts = [("last_dim", (3, 5), [], {"dim": -1}), ("dim0", (4, 3), [], {"dim": 0}),
               ("middle_dim", (2, 3, 4), [], {"dim": 1}),
               ("transposed", (5, 3), ["transpose:0:1"], {"dim": 1}),
               ("stepped", (3, 10), ["slice:1:0:10:2"], {"dim": 1}),
               ("expanded", (1, 4), ["expand:3:4"], {"dim": 0}),
               ("zero_d", (), [], {"dim": 0}), ("empty", (0, 3), [], {"dim": 1}),
               ("long_rows", (2, 300), [], {"dim": 1})]
    for op, fn in (("softmax", _softmax), ("log_softmax", _log_softmax)):
        for name, shape, view, args in layouts:
            for dt in FLOATS:
                tol = LONG_TOL if name.startswith("long") else TOL
                b.case(op, f"{SHORT[dt]}_{name}", fn, {"input": T(shape, dt, view=view)}, args,
                       tol=tol, grad=["input"] if name != "empty" else None)
        b.case(op, "f32_large_values_stable", fn,
               {"input": _ints(F32, [1000.0, 1000.0, -1000.0, 88.0, 89.0, 90.0], (2, 3))},
               {"dim": 1}, tol=TOL)
        b.case(op, "f32_infinities", fn,
               {"input": _ints(F32, ["-inf", 0.0, "-inf", "-inf", "inf", 1.0, "nan", 1.0],
                               (4, 2))}, {"dim": 1})
        b.case(op, "grad_f64_minus_inf_entries", fn,
               {"input": _ints(F64, ["-inf", 0.5, 2.0, "-inf", 1.0, -1.0], (2, 3))}, {"dim": 1},
               grad=["input"])
        for dt, out in (("float16", "float32"), ("bfloat16", "float32"), ("float64", "float32"),
                        ("float32", "float64")):
            b.case(op, f"{SHORT[dt]}_dtype_{SHORT[out]}", fn, {"input": T((3, 4), dt)},
                   {"dim": 1, "dtype": out}, tol=TOL)
        b.case(op, "grad_f32_dtype_f64", fn, {"input": T((3, 4), F32)},
               {"dim": 1, "dtype": "float64"}, grad=["input"])
        for dt in NAMES:
            if dt not in FLOATS:
                b.case(op, f"{SHORT[dt]}_values", fn, {"input": T((3, 4), dt)}, {"dim": 1},
                       tol=TOL, expect="any")
        b.case(op, "dim_out_of_range_error", fn, {"input": T((3, 4), F32)}, {"dim": 2},
               expect="error")


def dropout(b):
    vals = ["nan", "inf", -0.0, 1.5, -2.0, 0.0]
    for dt in FLOATS:
        sh = SHORT[dt]
        for name, args in (("p0_training", {"p": 0.0, "training": True}),
                           ("p1_training", {"p": 1.0, "training": True}),
                           ("eval_p0p5", {"p": 0.5, "training": False}),
                           ("eval_default_p", {"training": False}),
                           ("eval_p1", {"p": 1.0, "training": False})):
            b.case("dropout", f"{sh}_{name}", _dropout, {"input": T((3, 4), dt)}, args,
                   grad=["input"])
            b.case("dropout", f"{sh}_{name}_transposed", _dropout,
                   {"input": T((4, 3), dt, view=["transpose:0:1"])}, args, grad=["input"])
            b.case("dropout", f"{sh}_{name}_specials", _dropout, {"input": _ints(dt, vals)}, args)
    b.case("dropout", "p_above_one_error", _dropout, {"input": T((3,), F32)}, {"p": 1.5},
           expect="error")
    b.case("dropout", "p_negative_error", _dropout, {"input": T((3,), F32)}, {"p": -0.1},
           expect="error")
    b.case("dropout", "f32_empty_p1", _dropout, {"input": T((0, 3), F32)}, {"p": 1.0})
    b.case("dropout", "i64_eval", _dropout, {"input": T((3,), "int64")}, {"training": False})


def linear(b):
    for dt in FLOATS:
        sh = SHORT[dt]
        cases = [("matrix_bias", T((3, 4), dt), T((2, 4), dt), T((2,), dt)),
                 ("matrix_no_bias", T((3, 4), dt), T((2, 4), dt), None),
                 ("batched", T((2, 3, 4), dt), T((5, 4), dt), T((5,), dt)),
                 ("vector_input", T((4,), dt), T((3, 4), dt), T((3,), dt)),
                 ("transposed_weight", T((3, 4), dt), T((4, 2), dt, view=["transpose:0:1"]),
                  T((2,), dt)),
                 ("views", T((4, 3), dt, view=["transpose:0:1"]), T((2, 8), dt,
                                                                   view=["slice:1:0:8:2"]),
                  T((1,), dt, view=["expand:2"])),
                 ("zero_d_bias", T((3, 4), dt), T((2, 4), dt), T((), dt)),
                 ("long_k", T((2, 300), dt), T((3, 300), dt), T((3,), dt)),
                 ("empty_batch", T((0, 4), dt), T((2, 4), dt), T((2,), dt))]
        for name, x, w, bias in cases:
            ops = {"input": x, "weight": w}
            if bias is not None:
                ops["bias"] = bias
            grad = list(ops) if name != "empty_batch" else None
            b.case("linear", f"{sh}_{name}", _linear, ops, tol=LONG_TOL if "long" in name
                   else TOL, grad=grad)
        g = ["input1", "input2", "weight", "bias"]
        b.case("bilinear", f"{sh}_batch", _bilinear,
               {"input1": T((3, 2), dt), "input2": T((3, 4), dt), "weight": T((5, 2, 4), dt),
                "bias": T((5,), dt)}, tol=TOL, grad=g)
        b.case("bilinear", f"{sh}_no_bias", _bilinear,
               {"input1": T((3, 2), dt), "input2": T((3, 4), dt), "weight": T((5, 2, 4), dt)},
               tol=TOL, grad=g[:3])
        b.case("bilinear", f"{sh}_unbatched", _bilinear,
               {"input1": T((2,), dt), "input2": T((4,), dt), "weight": T((3, 2, 4), dt),
                "bias": T((3,), dt)}, tol=TOL, grad=g)
        b.case("bilinear", f"{sh}_leading_dims_views", _bilinear,
               {"input1": T((2, 3, 2), dt), "input2": T((4, 3, 2), dt, view=["permute:2:1:0"]),
                "weight": T((2, 2, 4), dt), "bias": T((2,), dt)}, tol=TOL, grad=g)
    b.case("linear", "i64_values", _linear,
           {"input": T((3, 4), "int64", "small"), "weight": T((2, 4), "int64", "small")})
    b.case("linear", "bf16_values", _linear,
           {"input": T((3, 4), "bfloat16"), "weight": T((2, 4), "bfloat16"),
            "bias": T((2,), "bfloat16")}, tol=TOL)
    b.case("linear", "mixed_dtype_error", _linear,
           {"input": T((3, 4), F32), "weight": T((2, 4), F64)}, expect="error")
    b.case("linear", "shape_mismatch_error", _linear,
           {"input": T((3, 4), F32), "weight": T((2, 5), F32)}, expect="error")
    b.case("bilinear", "shape_mismatch_error", _bilinear,
           {"input1": T((3, 2), F32), "input2": T((3, 4), F32), "weight": T((5, 3, 4), F32)},
           expect="error")


def attention(b):
    def add(name, q, k, v, args=None, mask=None, **kw):
        ops = {"query": q, "key": k, "value": v}
        if mask is not None:
            ops["attn_mask"] = mask
        kw.setdefault("grad", ["query", "key", "value"] if kw.get("expect") is None else None)
        kw.setdefault("tol", TOL)
        b.case("scaled_dot_product_attention", name, _sdpa, ops, args, **kw)

    for dt in FLOATS:
        sh = SHORT[dt]
        add(f"{sh}_basic", T((2, 3, 4), dt), T((2, 5, 4), dt), T((2, 5, 6), dt))
        add(f"{sh}_heads", T((2, 2, 3, 4), dt), T((2, 2, 3, 4), dt), T((2, 2, 3, 4), dt))
        add(f"{sh}_unbatched", T((3, 4), dt), T((5, 4), dt), T((5, 2), dt))
        add(f"{sh}_causal", T((2, 4, 4), dt), T((2, 4, 4), dt), T((2, 4, 3), dt),
            {"is_causal": True})
        add(f"{sh}_causal_more_keys", T((1, 3, 4), dt), T((1, 5, 4), dt), T((1, 5, 2), dt),
            {"is_causal": True})
        add(f"{sh}_scale", T((2, 3, 4), dt), T((2, 3, 4), dt), T((2, 3, 4), dt),
            {"scale": 0.3})
        add(f"{sh}_bool_mask", T((2, 3, 4), dt), T((2, 4, 4), dt), T((2, 4, 2), dt),
            mask=T((3, 4), "bool", values=[True, False, True, True, False, True, False, True,
                                           True, True, True, False]))
        add(f"{sh}_float_mask_broadcast", T((2, 3, 4), dt), T((2, 4, 4), dt), T((2, 4, 2), dt),
            mask=T((1, 3, 4), dt))
        add(f"{sh}_views", T((2, 4, 3), dt, view=["transpose:1:2"]),
            T((4, 2, 4), dt, view=["permute:1:0:2"]), T((2, 4, 1), dt, view=["expand:2:4:3"]))
    add("f32_long_keys", T((1, 2, 8), F32), T((1, 300, 8), F32), T((1, 300, 4), F32),
        tol=LONG_TOL)
    add("dropout_p_nonzero_error", T((2, 3), F32), T((2, 3), F32), T((2, 3), F32),
        {"dropout_p": 0.5}, expect="error")
    add("mask_and_causal_error", T((2, 3), F32), T((2, 3), F32), T((2, 3), F32),
        {"is_causal": True}, mask=T((2, 2), "bool"), expect="error")
    add("head_dim_mismatch_error", T((2, 3), F32), T((2, 4), F32), T((2, 3), F32),
        expect="error")

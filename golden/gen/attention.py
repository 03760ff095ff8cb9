"""scaled_dot_product_attention, which torch 1.13 lacks: its expected values
are computed by definition in float64 (see _sdpa) and rounded to the query
dtype."""

import math

import torch

from .framework import SHORT, T

F32, F64 = "float32", "float64"
FLOATS = (F32, F64)
TOL = {"float32": (1e-5, 1e-5), "complex64": (1e-5, 1e-5), "bfloat16": (1.6e-2, 1.6e-2),
       "float16": (2e-3, 2e-3)}
LONG_TOL = {"float32": (1e-4, 1e-4), "float64": (1e-10, 1e-10)}


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

"""Normalisation (torch.nn.functional names): layer_norm, rms_norm, batch_norm,
group_norm.

rms_norm is not in torch 1.13: its expected values are computed by definition
in float64, x / sqrt(mean(x^2 over the normalized dims) + eps) * weight, with
eps = None meaning torch.finfo(input.dtype).eps (torch 2.4's F.rms_norm), and
rounded to the input dtype.

batch_norm in training mode normalises with the batch statistics (biased
variance) and updates running_mean/running_var in place; the cases record only
the result, not the updated running statistics (a runner need not check
them).  Operands: input, running_mean, running_var, weight, bias (absent when
None); training, momentum, eps are args."""

import torch
import torch.nn.functional as F

from .framework import NAMES, SHORT, T

F32, F64 = "float32", "float64"
FLOATS = (F32, F64)
TOL = {"float32": (1e-5, 1e-5), "bfloat16": (1.6e-2, 1.6e-2), "float16": (2e-3, 2e-3)}


def _layer_norm(input, weight=None, bias=None, **kw):
    return F.layer_norm(input, weight=weight, bias=bias, **kw)


def _rms_norm(input, normalized_shape, weight=None, eps=None):
    """By definition, in float64 (torch 1.13 has no rms_norm)."""
    n = len(normalized_shape)
    if tuple(input.shape[input.dim() - n:]) != tuple(normalized_shape) or n == 0:
        raise RuntimeError("normalized_shape must match the trailing dims of input")
    if weight is not None and tuple(weight.shape) != tuple(normalized_shape):
        raise RuntimeError("weight must have normalized_shape")
    eps = torch.finfo(input.dtype).eps if eps is None else eps
    x = input.to(torch.float64)
    dims = tuple(range(-n, 0))
    y = x * torch.rsqrt(x.pow(2).mean(dims, keepdim=True) + eps)
    if weight is not None:
        y = y * weight.to(torch.float64)
    return y.to(input.dtype)


def _batch_norm(input, running_mean=None, running_var=None, weight=None, bias=None, **kw):
    return F.batch_norm(input, running_mean, running_var, weight=weight, bias=bias, **kw)


def _group_norm(input, weight=None, bias=None, **kw):
    return F.group_norm(input, weight=weight, bias=bias, **kw)


def layer_rms(b):
    for dt in FLOATS:
        sh = SHORT[dt]
        shapes = [("last_dim", (3, 5), [], [5]), ("last_two_dims", (2, 3, 4), [], [3, 4]),
                  ("transposed", (5, 3), ["transpose:0:1"], [5]),
                  ("expanded", (1, 4), ["expand:3:4"], [4]), ("all_dims", (2, 3), [], [2, 3]),
                  ("long_rows", (2, 260), [], [260])]
        for name, shape, view, ns in shapes:
            w, bias = T(tuple(ns), dt), T(tuple(ns), dt)
            x = T(shape, dt, view=view)
            for tag, ops in (("affine", {"weight": w, "bias": bias}), ("no_affine", {}),
                             ("weight_only", {"weight": w})):
                b.case("layer_norm", f"{sh}_{name}_{tag}", _layer_norm, {"input": x, **ops},
                       {"normalized_shape": ns, "eps": 1e-5}, tol=TOL,
                       grad=["input", *ops])
                if tag == "affine":
                    continue
                for eps_tag, eps in (("", 1e-6), ("_eps_none", None)):
                    b.case("rms_norm", f"{sh}_{name}_{tag}{eps_tag}", _rms_norm,
                           {"input": x, **ops}, {"normalized_shape": ns, "eps": eps}, tol=TOL,
                           grad=["input", *ops])
        b.case("layer_norm", f"{sh}_default_eps", _layer_norm, {"input": T((3, 4), dt)},
               {"normalized_shape": [4]}, tol=TOL, grad=["input"])
        b.case("layer_norm", f"{sh}_constant_rows", _layer_norm,
               {"input": T((2, 3), dt, values=[2.0] * 3 + [0.5, 0.5, 0.5])},
               {"normalized_shape": [3]}, tol=TOL, grad=["input"])
        b.case("rms_norm", f"{sh}_zero_rows", _rms_norm,
               {"input": T((2, 3), dt, values=[0.0] * 3 + [1.0, -2.0, 2.0])},
               {"normalized_shape": [3], "eps": 1e-6}, tol=TOL, grad=["input"])
    b.case("layer_norm", "f32_large_offset", _layer_norm,
           {"input": T((1, 4), F32, values=[1e4 + 1, 1e4 - 1, 1e4 + 2, 1e4 - 2])},
           {"normalized_shape": [4]}, tol={"float32": (1e-4, 1e-4)})
    b.case("layer_norm", "f32_empty_batch", _layer_norm, {"input": T((0, 3), F32)},
           {"normalized_shape": [3]})
    b.case("layer_norm", "shape_mismatch_error", _layer_norm, {"input": T((3, 4), F32)},
           {"normalized_shape": [3]}, expect="error")
    b.case("rms_norm", "shape_mismatch_error", _rms_norm, {"input": T((3, 4), F32)},
           {"normalized_shape": [3]}, expect="error")
    for dt in ("bfloat16", "float16"):
        b.case("layer_norm", f"{SHORT[dt]}_values", _layer_norm,
               {"input": T((3, 4), dt), "weight": T((4,), dt), "bias": T((4,), dt)},
               {"normalized_shape": [4]}, tol=TOL, expect="any")
        b.case("rms_norm", f"{SHORT[dt]}_values", _rms_norm,
               {"input": T((3, 4), dt), "weight": T((4,), dt)},
               {"normalized_shape": [4], "eps": 1e-5}, tol=TOL)


def batch_group(b):
    for dt in FLOATS:
        sh = SHORT[dt]
        for name, shape, view in (("nc", (4, 3), []), ("ncl", (2, 3, 5), []),
                                  ("nchw", (2, 3, 2, 2), []),
                                  ("transposed", (3, 4), ["transpose:0:1"])):
            c = 3
            stats = {"running_mean": T((c,), dt), "running_var": T((c,), dt, "positive")}
            affine = {"weight": T((c,), dt), "bias": T((c,), dt)}
            x = T(shape, dt, view=view)
            for training in (False, True):
                mode = "train" if training else "eval"
                args = {"training": training, "momentum": 0.1, "eps": 1e-5}
                b.case("batch_norm", f"{sh}_{name}_{mode}_affine", _batch_norm,
                       {"input": x, **stats, **affine}, args, tol=TOL,
                       grad=["input", "weight", "bias"])
                b.case("batch_norm", f"{sh}_{name}_{mode}_no_affine", _batch_norm,
                       {"input": x, **stats}, args, tol=TOL, grad=["input"])
            b.case("batch_norm", f"{sh}_{name}_train_no_running_stats", _batch_norm,
                   {"input": x, **affine}, {"training": True, "eps": 1e-3}, tol=TOL,
                   grad=["input", "weight", "bias"])
        b.case("batch_norm", f"{sh}_eval_momentum_ignored", _batch_norm,
               {"input": T((4, 3), dt), "running_mean": T((3,), dt),
                "running_var": T((3,), dt, "positive")}, {"training": False, "momentum": 0.9},
               tol=TOL, grad=["input"])
        for name, shape, groups in (("two_groups", (2, 4, 3), 2), ("one_group", (2, 3, 2), 1),
                                    ("per_channel", (2, 3, 4), 3), ("nchw", (2, 4, 2, 2), 2),
                                    ("nc_only", (3, 6), 3)):
            c = shape[1]
            w, bias = T((c,), dt), T((c,), dt)
            x = T(shape, dt)
            # Two values per group ("nc_only") make the input gradient almost
            # pure cancellation: float32 answers differ from the float64 truth
            # by ~0.5 %, torch's included.
            tol = {**TOL, "float32": (1e-2, 1e-3)} if name == "nc_only" else TOL
            b.case("group_norm", f"{sh}_{name}_affine", _group_norm,
                   {"input": x, "weight": w, "bias": bias}, {"num_groups": groups, "eps": 1e-5},
                   tol=tol, grad=["input", "weight", "bias"])
            b.case("group_norm", f"{sh}_{name}", _group_norm, {"input": x},
                   {"num_groups": groups}, tol=TOL, grad=["input"])
        b.case("group_norm", f"{sh}_views", _group_norm,
               {"input": T((2, 4, 3), dt, view=["permute:0:2:1"]), "weight": T((3,), dt)},
               {"num_groups": 3}, tol=TOL, grad=["input", "weight"])
    for name, shape in (("empty_batch", (0, 3)), ("empty_length", (2, 3, 0)),
                        ("empty_batch_ncl", (0, 3, 4))):
        for training in (False, True):
            mode = "train" if training else "eval"
            b.case("batch_norm", f"f32_{name}_{mode}", _batch_norm,
                   {"input": T(shape, F32), "running_mean": T((3,), F32),
                    "running_var": T((3,), F32, "positive"), "weight": T((3,), F32),
                    "bias": T((3,), F32)}, {"training": training})
    b.case("batch_norm", "one_d_input_error", _batch_norm,
           {"input": T((3,), F32), "running_mean": T((3,), F32),
            "running_var": T((3,), F32, "positive")}, {"training": False}, expect="error")
    b.case("batch_norm", "train_one_value_per_channel_error", _batch_norm,
           {"input": T((1, 3), F32)}, {"training": True}, expect="error")
    b.case("batch_norm", "eval_missing_stats_error", _batch_norm, {"input": T((4, 3), F32)},
           {"training": False}, expect="error")
    b.case("batch_norm", "channel_mismatch_error", _batch_norm,
           {"input": T((4, 3), F32), "running_mean": T((4,), F32),
            "running_var": T((4,), F32, "positive")}, expect="error")
    b.case("batch_norm", "bf16_eval", _batch_norm,
           {"input": T((4, 3), "bfloat16"), "running_mean": T((3,), "bfloat16"),
            "running_var": T((3,), "bfloat16", "positive")}, tol=TOL, expect="any")
    b.case("group_norm", "groups_not_dividing_error", _group_norm, {"input": T((2, 6, 3), F32)},
           {"num_groups": 4}, expect="error")
    b.case("group_norm", "bf16_values", _group_norm, {"input": T((2, 4, 3), "bfloat16")},
           {"num_groups": 2}, tol=TOL, expect="any")
    for dt in NAMES:
        if dt not in FLOATS + ("bfloat16", "float16"):
            b.case("layer_norm", f"{SHORT[dt]}_values", _layer_norm, {"input": T((3, 4), dt)},
                   {"normalized_shape": [4]}, expect="any")


def constant_rows(b):
    """layer_norm of constant rows: the mean is the value exactly and the variance 0, and
    PyTorch's one visible rounding is fma(x, rstd, -rstd * mean). Tight tolerance: an error of
    an ulp in the mean, times 1/sqrt(eps), fails (issue 13)."""
    for dt, tol in ((F32, (0.0, 1e-6)), (F64, (0.0, 1e-14))):
        for c in (0.1, 3.3, -7.1, 1000.0, 1.0):
            tag = str(c).replace("-", "minus_").replace(".", "p")
            for n in (3, 8, 37, 260):
                b.case("layer_norm", f"{SHORT[dt]}_constant_{tag}_n{n}", _layer_norm,
                       {"input": T((2, n), dt, values=[c] * (2 * n))},
                       {"normalized_shape": [n]}, tol={dt: tol})
        b.case("layer_norm", f"{SHORT[dt]}_constant_affine", _layer_norm,
               {"input": T((3, 16), dt, values=[0.1] * 16 + [-7.1] * 16 + [1000.0] * 16),
                "weight": T((16,), dt), "bias": T((16,), dt)},
               {"normalized_shape": [16]}, tol={dt: tol})

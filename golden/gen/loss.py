"""Losses (torch.nn.functional names): cross_entropy (class indices or class
probabilities; weight, ignore_index, reduction, label_smoothing), nll_loss,
mse_loss, l1_loss, smooth_l1_loss (beta), binary_cross_entropy,
binary_cross_entropy_with_logits (pos_weight).  Operands: input, target,
weight, pos_weight; the rest are args.  Gradients are taken with respect to
`input` (and `target` where torch differentiates it); torch 1.13 does not
differentiate class weights."""

import torch.nn.functional as F

from .framework import NAMES, SHORT, T

F32, F64 = "float32", "float64"
FLOATS = (F32, F64)
TOL = {"float32": (1e-5, 1e-5), "bfloat16": (1.6e-2, 1.6e-2), "float16": (2e-3, 2e-3)}
REDUCTIONS = ("none", "mean", "sum")


def _ce(input, target, weight=None, **kw):
    return F.cross_entropy(input, target, weight=weight, **kw)


def _nll(input, target, weight=None, **kw):
    return F.nll_loss(input, target, weight=weight, **kw)


def _bce(input, target, weight=None, **kw):
    return F.binary_cross_entropy(input, target, weight=weight, **kw)


def _bce_logits(input, target, weight=None, pos_weight=None, **kw):
    return F.binary_cross_entropy_with_logits(input, target, weight=weight,
                                              pos_weight=pos_weight, **kw)


def _pointwise(fn):
    return lambda input, target, **kw: fn(input, target, **kw)


def _ints(dt, vals, shape=None):
    return T(shape or (len(vals),), dt, values=vals)


def classification(b):
    for op, fn in (("cross_entropy", _ce), ("nll_loss", _nll)):
        for dt in FLOATS:
            sh = SHORT[dt]
            for red in REDUCTIONS:
                r = {"reduction": red}
                add = (lambda name, ops, args, **kw: b.case(op, f"{sh}_{name}_{red}", fn, ops,
                                                            {**args, **r}, tol=TOL, **kw))
                add("indices", {"input": T((4, 5), dt), "target": T((4,), "int64", "range:0:5")},
                    {}, grad=["input"])
                add("weight", {"input": T((4, 5), dt), "target": T((4,), "int64", "range:0:5"),
                               "weight": T((5,), dt, "positive")}, {}, grad=["input"])
                add("ignore_index", {"input": T((4, 3), dt),
                                     "target": _ints("int64", [0, 2, 1, 2])},
                    {"ignore_index": 2}, grad=["input"])
                add("ignore_default_minus_100", {"input": T((3, 3), dt),
                                                 "target": _ints("int64", [0, -100, 1])}, {},
                    grad=["input"])
                add("spatial", {"input": T((2, 3, 4), dt),
                                "target": T((2, 4), "int64", "range:0:3")}, {}, grad=["input"])
                add("unbatched", {"input": T((5,), dt), "target": T((), "int64", values=[3])},
                    {}, grad=["input"])
                add("weight_ignore_views", {"input": T((5, 4), dt, view=["transpose:0:1"]),
                                            "target": _ints("int64", [0, 4, 1, 4]),
                                            "weight": T((5,), dt, "positive")},
                    {"ignore_index": 4}, grad=["input"])
                if op == "cross_entropy":
                    add("label_smoothing", {"input": T((4, 5), dt),
                                            "target": T((4,), "int64", "range:0:5")},
                        {"label_smoothing": 0.1}, grad=["input"])
                    add("label_smoothing_weight_ignore",
                        {"input": T((4, 3), dt), "target": _ints("int64", [0, 2, 1, 2]),
                         "weight": T((3,), dt, "positive")},
                        {"label_smoothing": 0.25, "ignore_index": 2}, grad=["input"])
                    add("probabilities", {"input": T((4, 5), dt), "target": T((4, 5), dt, "prob")},
                        {}, grad=["input", "target"])
                    add("probabilities_weight_smoothing",
                        {"input": T((3, 4), dt), "target": T((3, 4), dt, "prob"),
                         "weight": T((4,), dt, "positive")}, {"label_smoothing": 0.2},
                        grad=["input", "target"])
                    add("probabilities_spatial", {"input": T((2, 3, 2), dt),
                                                  "target": T((2, 3, 2), dt, "prob")}, {},
                        grad=["input", "target"])
        b.case(op, "f32_all_ignored_mean_is_nan", fn,
               {"input": T((2, 3), F32), "target": _ints("int64", [-100, -100])})
        b.case(op, "target_out_of_range_error", fn,
               {"input": T((2, 3), F32), "target": _ints("int64", [0, 3])}, expect="error")
        b.case(op, "negative_target_error", fn,
               {"input": T((2, 3), F32), "target": _ints("int64", [0, -1])}, expect="error")
        b.case(op, "i32_target_error", fn,
               {"input": T((2, 3), F32), "target": _ints("int32", [0, 1])}, expect="error")
        b.case(op, "batch_mismatch_error", fn,
               {"input": T((2, 3), F32), "target": _ints("int64", [0, 1, 2])}, expect="error")
        b.case(op, "invalid_reduction_error", fn,
               {"input": T((2, 3), F32), "target": _ints("int64", [0, 1])},
               {"reduction": "average"}, expect="error")
        b.case(op, "f32_empty_batch_mean", fn,
               {"input": T((0, 3), F32), "target": T((0,), "int64")}, expect="any")
        b.case(op, "f32_empty_batch_sum", fn,
               {"input": T((0, 3), F32), "target": T((0,), "int64")}, {"reduction": "sum"})
        b.case(op, "bf16_values", fn,
               {"input": T((3, 4), "bfloat16"), "target": T((3,), "int64", "range:0:4")},
               tol=TOL, expect="any")
        b.case(op, "mixed_weight_dtype_error", fn,
               {"input": T((2, 3), F32), "target": _ints("int64", [0, 1]),
                "weight": T((3,), F64, "positive")}, expect="error")


def regression(b):
    ops = [("mse_loss", _pointwise(F.mse_loss), [{}]),
           ("l1_loss", _pointwise(F.l1_loss), [{}]),
           ("smooth_l1_loss", _pointwise(F.smooth_l1_loss),
            [{}, {"beta": 0.5}, {"beta": 0.0}, {"beta": 2.0}])]
    for op, fn, variants in ops:
        for extra in variants:
            btag = f"beta_{str(extra['beta']).replace('.', 'p')}_" if extra else ""
            for dt in FLOATS:
                sh = SHORT[dt]
                for red in REDUCTIONS:
                    args = {**extra, "reduction": red}
                    g = ["input", "target"]
                    b.case(op, f"{btag}{sh}_{red}", fn,
                           {"input": T((3, 4), dt), "target": T((3, 4), dt)}, args, tol=TOL,
                           grad=g)
                    b.case(op, f"{btag}{sh}_views_{red}", fn,
                           {"input": T((4, 3), dt, view=["transpose:0:1"]),
                            "target": T((1, 4), dt, view=["expand:3:4"])}, args, tol=TOL, grad=g)
            b.case(op, f"{btag}f64_ties_at_kinks", fn,
                   {"input": _ints(F64, [1.0, 2.0, 0.5, -1.0, 3.0]),
                    "target": _ints(F64, [1.0, 1.5, 0.0, -1.0, 1.0])}, extra,
                   grad=["input", "target"])
        b.case(op, "f32_target_broadcast", fn, {"input": T((3, 4), F32), "target": T((4,), F32)},
               tol=TOL)
        b.case(op, "f32_mixed_f64_target", fn,
               {"input": T((3, 4), F32), "target": T((3, 4), F64)}, tol=TOL, expect="any")
        b.case(op, "f32_nan_inf", fn,
               {"input": _ints(F32, ["nan", 1.0, "inf", 2.0]),
                "target": _ints(F32, [1.0, 1.0, "inf", "-inf"])}, {"reduction": "none"})
        b.case(op, "f32_empty_mean", fn, {"input": T((0, 3), F32), "target": T((0, 3), F32)},
               expect="any")
        b.case(op, "f32_zero_d", fn, {"input": T((), F32), "target": T((), F32)}, tol=TOL)
        b.case(op, "f32_long", fn, {"input": T((1037,), F32), "target": T((1037,), F32)},
               tol={"float32": (1e-4, 1e-4)})
        for dt in NAMES:
            if dt not in FLOATS:
                b.case(op, f"{SHORT[dt]}_values", fn, {"input": T((3, 4), dt),
                                                       "target": T((3, 4), dt)}, tol=TOL,
                       expect="any")


def binary(b):
    for dt in FLOATS:
        sh = SHORT[dt]
        for red in REDUCTIONS:
            r = {"reduction": red}
            b.case("binary_cross_entropy", f"{sh}_{red}", _bce,
                   {"input": T((3, 4), dt, "prob"), "target": T((3, 4), dt, "prob")}, r, tol=TOL,
                   grad=["input", "target"])
            b.case("binary_cross_entropy", f"{sh}_weight_{red}", _bce,
                   {"input": T((3, 4), dt, "prob"), "target": T((3, 4), dt, "prob"),
                    "weight": T((4,), dt, "positive")}, r, tol=TOL, grad=["input", "target"])
            b.case("binary_cross_entropy", f"{sh}_views_{red}", _bce,
                   {"input": T((4, 3), dt, "prob", ["transpose:0:1"]),
                    "target": T((3, 1), dt, "prob", ["expand:3:4"])}, r, tol=TOL,
                   grad=["input", "target"])
            lg = _bce_logits
            g = ["input", "target"]
            b.case("binary_cross_entropy_with_logits", f"{sh}_{red}", lg,
                   {"input": T((3, 4), dt), "target": T((3, 4), dt, "prob")}, r, tol=TOL, grad=g)
            b.case("binary_cross_entropy_with_logits", f"{sh}_weight_{red}", lg,
                   {"input": T((3, 4), dt), "target": T((3, 4), dt, "prob"),
                    "weight": T((3, 1), dt, "positive")}, r, tol=TOL, grad=g)
            b.case("binary_cross_entropy_with_logits", f"{sh}_pos_weight_{red}", lg,
                   {"input": T((3, 4), dt), "target": T((3, 4), dt, "prob"),
                    "pos_weight": T((4,), dt, "positive")}, r, tol=TOL, grad=g)
            b.case("binary_cross_entropy_with_logits", f"{sh}_both_weights_views_{red}", lg,
                   {"input": T((4, 3), dt, view=["transpose:0:1"]),
                    "target": T((3, 4), dt, "prob"), "weight": T((4,), dt, "positive"),
                    "pos_weight": T((1,), dt, "positive", ["expand:4"])}, r, tol=TOL, grad=g)
    b.case("binary_cross_entropy", "f32_log_clamped_at_minus_100", _bce,
           {"input": _ints(F32, [0.0, 1.0, 0.0, 1.0]), "target": _ints(F32, [1.0, 0.0, 0.0, 1.0])},
           {"reduction": "none"})
    b.case("binary_cross_entropy", "grad_f64_at_bounds", _bce,
           {"input": _ints(F64, [1e-13, 1.0 - 1e-13, 0.5]), "target": _ints(F64, [1.0, 0.0, 0.5])},
           {"reduction": "sum"}, grad=["input"])
    b.case("binary_cross_entropy", "input_above_one_error", _bce,
           {"input": _ints(F32, [1.5]), "target": _ints(F32, [1.0])}, expect="error")
    b.case("binary_cross_entropy", "shape_mismatch_error", _bce,
           {"input": T((3, 4), F32, "prob"), "target": T((4,), F32, "prob")}, expect="error")
    b.case("binary_cross_entropy_with_logits", "f32_large_logits_stable", _bce_logits,
           {"input": _ints(F32, [100.0, -100.0, 1000.0, -1000.0, 0.0]),
            "target": _ints(F32, [0.0, 1.0, 1.0, 0.0, 0.5])}, {"reduction": "none"}, tol=TOL)
    b.case("binary_cross_entropy_with_logits", "shape_mismatch_error", _bce_logits,
           {"input": T((3, 4), F32), "target": T((4,), F32, "prob")}, expect="error")
    b.case("binary_cross_entropy_with_logits", "bf16_values", _bce_logits,
           {"input": T((3, 4), "bfloat16"), "target": T((3, 4), "bfloat16", "prob")}, tol=TOL,
           expect="any")

"""Neural-network functions (torch.nn.functional names) outside the other
families: dropout (p = 0, p = 1 and training=False only: a seeded dropout mask
cannot match torch's generator), linear, bilinear.  softmax and log_softmax
are in softmax.py, scaled_dot_product_attention in attention.py."""

import torch.nn.functional as F

from .framework import SHORT, T

F32, F64 = "float32", "float64"
FLOATS = (F32, F64)
TOL = {"float32": (1e-5, 1e-5), "complex64": (1e-5, 1e-5), "bfloat16": (1.6e-2, 1.6e-2),
       "float16": (2e-3, 2e-3)}
LONG_TOL = {"float32": (1e-4, 1e-4), "float64": (1e-10, 1e-10)}


def _dropout(input, **kw):
    return F.dropout(input, **kw)


def _linear(input, weight, bias=None):
    return F.linear(input, weight, bias)


def _bilinear(input1, input2, weight, bias=None):
    return F.bilinear(input1, input2, weight, bias)


def _ints(dt, vals, shape=None):
    return T(shape or (len(vals),), dt, values=vals)


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

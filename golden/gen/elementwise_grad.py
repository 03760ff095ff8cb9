"""Gradient cases (`grad_*`) for the foundation's elementwise ops (arithmetic,
unary math, clamp), whose value cases live in elementwise_binary.py,
elementwise_division.py, elementwise_unary.py and elementwise_where.py; those
of the movement ops are in views_grad.py.  New case names only, so the older
cases stay byte-identical."""

from . import elementwise_binary, elementwise_unary
from .framework import SHORT, TRANSCENDENTAL, T, S
from .elementwise_where import _clamp

F32, F64 = "float32", "float64"
FLOATS = (F32, F64)


def _ints(dt, vals, shape=None):
    return T(shape or (len(vals),), dt, values=vals)


def arithmetic(b):
    ops = {"add": ({}, None), "sub": ({"alpha": 2}, None), "mul": ({}, None),
           "div": ({}, None), "maximum": ({}, None), "minimum": ({}, None),
           "pow": ({}, TRANSCENDENTAL)}
    for op, (args, tol) in ops.items():
        fn, second = elementwise_binary.OPS[op], elementwise_binary.SECOND.get(op, "other")
        ka, kb = elementwise_binary.KINDS.get(op, ("normal", "normal"))
        for name, x, y in elementwise_binary.grad_layouts(ka, kb):
            if op in elementwise_binary.TENSOR_ONLY and isinstance(y, S):
                continue
            wrt = ["input"] + ([second] if not isinstance(y, S) else [])
            b.case(op, f"grad_{name}", fn, {"input": x, second: y}, args, tol=tol, grad=wrt)
    fn = elementwise_binary.OPS["div"]
    for mode in ("trunc", "floor"):
        b.case("div", f"grad_f64_{mode}_rounding_is_zero", fn,
               {"input": T((3, 4), F64), "other": T((3, 4), F64, "nonzero")},
               {"rounding_mode": mode}, grad=["input", "other"])
    b.case("div", "grad_f64_by_zero", fn,
           {"input": _ints(F64, [1.0, -1.0, 0.0]), "other": _ints(F64, [0.0, 0.0, 2.0])},
           grad=["input", "other"])
    pw = elementwise_binary.OPS["pow"]
    b.case("pow", "grad_f64_zero_base", pw,
           {"input": _ints(F64, [0.0, 0.0, 0.0, 2.0]),
            "exponent": _ints(F64, [2.0, 0.5, 0.0, 0.0])},
           grad=["input", "exponent"])
    b.case("pow", "grad_f64_negative_base_int_exponent", pw,
           {"input": _ints(F64, [-2.0, -1.5, -3.0]), "exponent": _ints(F64, [2.0, 3.0, -1.0])},
           grad=["input"])
    b.case("pow", "grad_f32_scalar_base", lambda self, exponent: pw(self, exponent=exponent),
           {"self": S(2.5), "exponent": T((3, 4), F32, "unit")}, tol=TRANSCENDENTAL,
           grad=["exponent"])
    for op in ("maximum", "minimum"):
        b.case(op, "grad_f64_ties_split", elementwise_binary.OPS[op],
               {"input": _ints(F64, [1.0, 2.0, -1.0, 0.0]),
                "other": _ints(F64, [1.0, 1.0, -1.0, 0.0])}, grad=["input", "other"])
        b.case(op, "grad_f64_nan", elementwise_binary.OPS[op],
               {"input": _ints(F64, ["nan", 2.0]), "other": _ints(F64, [1.0, "nan"])},
               grad=["input", "other"])


def unary_math(b):
    for op, (fn, kind, tol) in elementwise_unary.OPS.items():
        if op == "logical_not":
            continue
        args = {"approximate": "none"} if op == "gelu" else {}
        for name, x in elementwise_unary.grad_layouts(kind):
            b.case(op, f"grad_{name}", fn, {"input": x}, args, tol=tol, grad=["input"])
    b.case("gelu", "grad_tanh_f64", elementwise_unary.OPS["gelu"][0], {"input": T((3, 4), F64)},
           {"approximate": "tanh"}, grad=["input"])
    b.case("gelu", "grad_tanh_f32_transposed", elementwise_unary.OPS["gelu"][0],
           {"input": T((4, 3), F32, view=["transpose:0:1"])}, {"approximate": "tanh"},
           tol=TRANSCENDENTAL, grad=["input"])
    at_kinks = _ints(F64, [0.0, -0.0, 1.0, -1.0])
    for op in ("abs", "relu", "sign", "sqrt"):
        b.case(op, "grad_f64_at_zero", elementwise_unary.OPS[op][0], {"input": at_kinks},
               grad=["input"])


def clamp(b):
    for dt in FLOATS:
        sh = SHORT[dt]
        b.case("clamp", f"grad_{sh}_scalars", _clamp,
               {"input": T((3, 4), dt), "min": S(-0.5), "max": S(0.5)}, grad=["input"])
        b.case("clamp", f"grad_{sh}_tensor_bounds", _clamp,
               {"input": T((3, 4), dt), "min": T((4,), dt), "max": T((3, 1), dt)},
               grad=["input", "min", "max"])
        b.case("clamp", f"grad_{sh}_views", _clamp,
               {"input": T((4, 3), dt, view=["transpose:0:1"]),
                "min": T((1, 4), dt, view=["expand:3:4"])}, grad=["input", "min"])
    b.case("clamp", "grad_f64_at_bounds", _clamp,
           {"input": _ints(F64, [-1.0, 1.0, 0.0, -2.0, 2.0]), "min": S(-1.0), "max": S(1.0)},
           grad=["input"])
    b.case("clamp", "grad_f64_tensor_bounds_ties", _clamp,
           {"input": _ints(F64, [-1.0, 1.0, 0.0, 3.0]), "min": _ints(F64, [-1.0, 0.0, 0.0, 2.0]),
            "max": _ints(F64, [0.0, 1.0, 0.0, 1.0])}, grad=["input", "min", "max"])


def relu_nan(b):
    """relu's backward is threshold_backward (grad where x > 0 is false gives 0): a NaN input
    passes the gradient through, since NaN <= 0 is false (issue 13)."""
    fn = elementwise_unary.OPS["relu"][0]
    for dt in (F32, F64):
        b.case("relu", f"grad_{SHORT[dt]}_nan_inputs", fn,
               {"input": _ints(dt, ["nan", 1.0, -1.0, 0.0, "inf", "-inf", "nan"])},
               grad=["input"])

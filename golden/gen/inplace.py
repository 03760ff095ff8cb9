"""In-place arithmetic on views: add_, sub_, mul_, div_, clamp_.  The
expected output is the mutated self as seen through its view."""

from .framework import T, S


def _method(name):
    def run(self, other, **kw):
        getattr(self, name)(other, **kw)
        return self
    return run


def _clamp_(self, min=None, max=None):
    self.clamp_(min=min, max=max)
    return self


OPS = {op: _method(op) for op in ("add_", "sub_", "mul_", "div_")}


def inplace(b):
    f32 = "float32"
    for op, fn in OPS.items():
        other_kind = "nonzero" if op == "div_" else "normal"

        def add(name, self_, other, args=None, **kw):
            b.case(op, name, fn, {"self": self_, "other": other}, args, **kw)

        add("f32_same_shape", T((3, 4), f32), T((3, 4), f32, other_kind))
        add("f32_transposed_self", T((4, 3), f32, view=["transpose:0:1"]),
            T((3, 4), f32, other_kind))
        add("f32_stepped_self_broadcast_other", T((3, 9), f32, view=["slice:1:1:9:2"]),
            T((4,), f32, other_kind))
        add("f32_diagonal_self", T((4, 4), f32, view=["diagonal:0:0:1"]),
            T((), f32, other_kind))
        add("f32_permuted_self_expanded_other", T((4, 2, 3), f32, view=["permute:1:2:0"]),
            T((1, 4), f32, other_kind, ["expand:3:4"]))
        add("f32_scalar_other", T((2, 3), f32), S(1.5))
        add("f64_self_f32_other", T((2, 3), "float64"), T((2, 3), f32, other_kind))
        add("f16_self_f64_other", T((2, 3), "float16"), T((3,), "float64", other_kind))
        add("bf16_self_zero_d_f64", T((4,), "bfloat16"), T((), "float64", other_kind))
        add("f32_self_i64_other", T((2, 3), f32), T((2, 3), "int64", "nonzero"))
        add("zero_d_self", T((), f32), T((), f32, other_kind))
        add("empty_self", T((0, 3), f32), T((3,), f32, other_kind))
        add("expanded_self_error", T((1, 4), f32, view=["expand:3:4"]),
            T((3, 4), f32, other_kind), expect="error")
        add("broadcasting_self_error", T((3, 1), f32), T((3, 4), f32, other_kind),
            expect="error")
        add("zero_d_self_broadcast_error", T((), f32), T((3,), f32, other_kind), expect="error")
        add("i64_self_float_scalar_cast_error", T((3,), "int64"), S(2.5), expect="any")
        add("i64_self_f32_tensor_cast_error", T((3,), "int64"), T((3,), f32, other_kind), expect="any")
        add("i32_self_int_scalar", T((2, 3), "int32"), S(3), expect="any")
        add("u8_self_i64_other", T((4,), "uint8", values=[0, 5, 250, 255]),
            T((4,), "int64", values=[1, 2, 3, 7]), expect="any")
        add("bool_self_int_scalar_cast_error", T((3,), "bool"), S(1), expect="any")
        add("i64_self_zero_d_f64_cast_error", T((3,), "int64"), T((), "float64", other_kind),
            expect="any")
        add("f32_self_c64_other_cast_error", T((3,), f32), T((3,), "complex64"), expect="any")
        if op in ("add_", "sub_"):
            add("f32_alpha", T((4, 3), f32, view=["transpose:0:1"]), T((4,), f32), {"alpha": -2})
            add("i64_alpha", T((3,), "int64"), T((3,), "int64"), {"alpha": 3})
        if op == "div_":
            for mode in ("trunc", "floor"):
                add(f"i64_{mode}_rounding", T((5,), "int64", values=[7, -7, 7, -7, 0]),
                    T((5,), "int64", values=[2, 2, -2, -2, 3]), {"rounding_mode": mode})
                add(f"f32_{mode}_rounding_transposed", T((4, 3), f32, view=["transpose:0:1"]),
                    T((3, 4), f32, "nonzero"), {"rounding_mode": mode})
            add("i64_true_division_error", T((3,), "int64"), T((3,), "int64", "nonzero"),
                expect="error")

    def clamp(name, self_, lo=None, hi=None, **kw):
        ops = {"self": self_}
        if lo is not None:
            ops["min"] = lo
        if hi is not None:
            ops["max"] = hi
        b.case("clamp_", name, _clamp_, ops, **kw)

    clamp("f32_scalars", T((3, 4), f32), S(-0.5), S(0.5))
    clamp("f32_transposed_self", T((4, 3), f32, view=["transpose:0:1"]), S(-0.5), S(0.5))
    clamp("f32_stepped_self_min_only", T((3, 9), f32, view=["slice:1:1:9:2"]), S(0.0))
    clamp("f32_tensor_bounds_broadcast", T((4, 3), f32, view=["transpose:0:1"]),
          T((4,), f32), T((3, 1), f32))
    clamp("f32_max_only_tensor", T((3, 4), f32), hi=T((4,), f32))
    clamp("f32_nan_self", T((4,), f32, values=["nan", 2.0, -2.0, 0.1]), S(-1.0), S(1.0))
    clamp("i64_int_bounds", T((6,), "int64"), S(-3), S(3))
    clamp("i64_float_bounds_error", T((6,), "int64"), S(-2.5), S(2.5), expect="any")
    clamp("u8_self", T((5,), "uint8"), S(2), S(9))
    clamp("expanded_self_error", T((1, 4), f32, view=["expand:3:4"]), S(0.0), S(1.0),
          expect="error")
    clamp("broadcasting_self_error", T((3, 1), f32), T((3, 4), f32), expect="error")
    clamp("none_both_error", T((3,), f32), expect="error")
    clamp("f16_self_scalars", T((6,), "float16"), S(-0.5), S(0.5), expect="any")
    clamp("bf16_self_tensor_bounds", T((6,), "bfloat16"), T((6,), "bfloat16"),
          T((6,), "bfloat16"), expect="any")

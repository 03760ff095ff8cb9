"""More in-place ops on views: pow_, fill_, zero_, masked_fill_, scatter_,
scatter_add_, index_add_, index_copy_.  The expected output is the mutated
self as seen through its view; `dim` is an arg, index/src/source operands."""

from .framework import NAMES, SHORT, TRANSCENDENTAL, T, S

F32 = "float32"


def _pow_(self, exponent):
    return self.pow_(exponent)


def _fill_(self, value):
    return self.fill_(value)


def _zero_(self):
    return self.zero_()


def _masked_fill_(self, mask, value):
    return self.masked_fill_(mask, value)


def _scatter_(self, index, src=None, value=None, **kw):
    return self.scatter_(kw.pop("dim"), index, src if src is not None else value, **kw)


def _scatter_add_(self, index, src, dim):
    return self.scatter_add_(dim, index, src)


def _index_add_(self, index, source, dim, **kw):
    return self.index_add_(dim, index, source, **kw)


def _index_copy_(self, index, source, dim):
    return self.index_copy_(dim, index, source)


def _ints(dt, vals):
    return T((len(vals),), dt, values=vals)


def pow_(b):
    def add(name, s, e, **kw):
        b.case("pow_", name, _pow_, {"self": s, "exponent": e}, **kw)

    add("f32_tensor_exponent", T((3, 4), F32, "positive"), T((3, 4), F32, "unit"),
        tol=TRANSCENDENTAL)
    add("f32_transposed_self", T((4, 3), F32, "positive", ["transpose:0:1"]),
        T((4,), F32, "unit"), tol=TRANSCENDENTAL)
    add("f32_stepped_self_scalar", T((3, 9), F32, view=["slice:1:1:9:2"]), S(2))
    add("f32_diagonal_self_float_scalar", T((4, 4), F32, "positive", ["diagonal:0:0:1"]),
        S(0.5), tol=TRANSCENDENTAL)
    add("f32_scalar_three", T((2, 3), F32), S(3.0), tol=TRANSCENDENTAL)
    add("f32_scalar_negative", T((2, 3), F32, "nonzero"), S(-2), tol=TRANSCENDENTAL)
    add("f32_scalar_zero", T((4,), F32, values=["nan", 0.0, "inf", -1.0]), S(0))
    add("f64_zero_d_exponent", T((5,), "float64", "positive"), T((), "float64"))
    add("f32_self_i64_exponent", T((2, 3), F32), T((2, 3), "int64", "range:0:4"))
    add("i64_int_scalar", T((5,), "int64"), S(3))
    add("i64_tensor_exponent", T((5,), "int64"), T((5,), "int64", "range:0:4"))
    add("u8_wraps", _ints("uint8", [2, 3, 16, 255]), S(2))
    add("i64_negative_int_scalar_error", T((3,), "int64"), S(-1), expect="error")
    add("i64_float_scalar_error", T((3,), "int64"), S(0.5), expect="error")
    add("i64_self_f32_exponent_error", T((3,), "int64"), T((3,), F32), expect="error")
    add("f32_self_f64_exponent", T((3,), F32, "positive"), T((3,), "float64", "unit"),
        expect="any")
    add("f32_self_c64_exponent_error", T((3,), F32), T((3,), "complex64"), expect="error")
    add("expanded_self_error", T((1, 4), F32, view=["expand:3:4"]), S(2), expect="error")
    add("broadcasting_self_error", T((3, 1), F32), T((3, 4), F32), expect="error")
    add("empty_self", T((0, 3), F32), S(2))
    for dt in NAMES:
        if dt not in ("float32", "bool"):
            add(f"{SHORT[dt]}_self_scalar_two", T((2, 3), dt, "small"), S(2), expect="any")


def fill_zero(b):
    def fill(name, s, v, **kw):
        b.case("fill_", name, _fill_, {"self": s, "value": v}, **kw)

    fill("f32_float_scalar", T((3, 4), F32), S(2.5))
    fill("f32_transposed", T((4, 3), F32, view=["transpose:0:1"]), S(-1.0))
    fill("f32_stepped", T((3, 9), F32, view=["slice:1:1:9:2"]), S(7))
    fill("f32_diagonal", T((4, 4), F32, view=["diagonal:0:0:1"]), S(0.5))
    fill("f32_nan", T((2, 2), F32), S("nan"))
    fill("f32_negative_zero", T((3,), F32), S(-0.0), signed_zeros=True)
    fill("f32_zero_d_tensor_value", T((2, 3), F32), T((), F32))
    fill("f32_zero_d_f64_tensor_value", T((2, 3), F32), T((), "float64"))
    fill("i64_zero_d_f32_tensor_value", T((2, 3), "int64"), T((), F32))
    fill("f32_one_element_tensor_error", T((3,), F32), T((1,), F32), expect="error")
    fill("zero_d_self", T((), F32), S(4.0))
    fill("empty_self", T((0, 2), F32), S(1.0))
    fill("i64_float_truncates", T((3,), "int64"), S(2.7))
    fill("i64_negative_float_truncates", T((3,), "int64"), S(-2.7))
    fill("u8_minus_one_wraps", T((3,), "uint8"), S(-1))
    fill("u8_overflow_error", T((3,), "uint8"), S(300), expect="error")
    fill("i8_huge_float_error", T((3,), "int8"), S(1e10), expect="error")
    fill("f16_overflow_error", T((3,), "float16"), S(1e6), expect="error")
    fill("f16_inf", T((3,), "float16"), S("inf"))
    fill("bool_half_is_true", T((3,), "bool"), S(0.5))
    fill("bool_int", T((3,), "bool"), S(0))
    fill("c64_float_scalar", T((3,), "complex64"), S(1.5))
    for dt in NAMES:
        fill(f"{SHORT[dt]}_int_scalar", T((2, 3), dt), S(1))
    b.case("zero_", "f32_contiguous", _zero_, {"self": T((3, 4), F32)})
    b.case("zero_", "f32_transposed", _zero_, {"self": T((4, 3), F32, view=["transpose:0:1"])})
    b.case("zero_", "f32_stepped", _zero_, {"self": T((3, 9), F32, view=["slice:1:1:9:2"])})
    b.case("zero_", "f32_diagonal", _zero_, {"self": T((4, 5), F32, view=["diagonal:1:0:1"])})
    b.case("zero_", "f32_negative_zeros_become_positive", _zero_,
           {"self": _ints(F32, [-0.0, "nan", -1.0])}, signed_zeros=True)
    b.case("zero_", "zero_d", _zero_, {"self": T((), F32)})
    b.case("zero_", "empty", _zero_, {"self": T((0, 3), F32)})
    for dt in NAMES:
        b.case("zero_", f"{SHORT[dt]}_values", _zero_, {"self": T((2, 3), dt)})


def masked_fill_(b):
    def add(name, s, m, v, **kw):
        b.case("masked_fill_", name, _masked_fill_, {"self": s, "mask": m, "value": v}, **kw)

    add("f32_scalar", T((3, 4), F32), T((3, 4), "bool"), S(-1.5))
    add("f32_mask_broadcast", T((3, 4), F32), T((4,), "bool"), S(0.0))
    add("f32_transposed_self", T((4, 3), F32, view=["transpose:0:1"]), T((3, 1), "bool"), S(9))
    add("f32_stepped_self_transposed_mask", T((3, 9), F32, view=["slice:1:1:9:2"]),
        T((4, 3), "bool", view=["transpose:0:1"]), S("inf"))
    add("f32_zero_d_tensor_value", T((3, 4), F32), T((3, 4), "bool"), T((), F32))
    add("f32_zero_d_f64_value", T((3, 4), F32), T((3, 4), "bool"), T((), "float64"))
    add("i64_float_value_truncates", T((5,), "int64"), T((5,), "bool"), S(2.5))
    add("i64_zero_d_float_value", T((5,), "int64"), T((5,), "bool"), T((), F32))
    add("f32_one_d_value_error", T((3,), F32), T((3,), "bool"), T((1,), F32), expect="error")
    add("mask_grows_self_error", T((4,), F32), T((3, 4), "bool"), S(1.0), expect="error")
    add("u8_mask", T((4,), F32), _ints("uint8", [1, 0, 1, 0]), S(1.0), expect="any")
    add("u8_mask_value_two_error", T((4,), F32), _ints("uint8", [1, 0, 2, 0]), S(1.0),
        expect="error")
    add("i64_mask", T((4,), F32), _ints("int64", [1, 0, 1, 0]), S(1.0), expect="any")
    add("zero_d_self", T((), F32), T((), "bool", values=[True]), S(3.0))
    add("empty", T((0, 3), F32), T((3,), "bool"), S(3.0))
    add("nan_value", T((4,), F32), T((4,), "bool", values=[True, False, True, False]), S("nan"))
    for dt in NAMES:
        if dt != "float32":
            add(f"{SHORT[dt]}_self_int_value", T((2, 3), dt), T((2, 3), "bool"), S(1))


def scatter_family(b):
    def sc(name, s, idx, src=None, value=None, dim=0, **kw):
        ops = {"self": s, "index": idx}
        if src is not None:
            ops["src"] = src
        if value is not None:
            ops["value"] = value
        args = {"dim": dim, **kw.pop("args", {})}
        b.case("scatter_", name, _scatter_, ops, args, **kw)

    sc("f32_src_dim0", T((3, 4), F32), T((2, 4), "int64", "perm:0:3"), T((2, 4), F32))
    sc("f32_src_dim1", T((3, 5), F32), T((3, 2), "int64", "perm:1:5"), T((3, 4), F32), dim=1)
    sc("f32_negative_dim", T((2, 3, 4), F32), T((2, 3, 2), "int64", "perm:2:4"),
       T((2, 3, 2), F32), dim=-1)
    sc("f32_index_smaller_than_src", T((4, 4), F32), T((2, 2), "int64", "perm:0:4"),
       T((3, 4), F32))
    sc("f32_transposed_self", T((4, 3), F32, view=["transpose:0:1"]),
       T((2, 4), "int64", "perm:0:3"), T((2, 4), F32))
    sc("f32_views_everywhere", T((3, 9), F32, view=["slice:1:1:9:2"]),
       T((4, 2), "int64", "perm:1:3", ["transpose:0:1"]), T((1, 4), F32, view=["expand:3:4"]))
    sc("f32_value", T((3, 4), F32), T((3, 4), "int64", "range:0:3"), value=S(7.5))
    sc("i64_float_value_truncates", T((3, 4), "int64"), T((1, 4), "int64", "range:0:3"),
       value=S(2.5))
    sc("f32_empty_index", T((3, 4), F32), T((0, 4), "int64"), T((2, 4), F32))
    sc("zero_d", T((), F32), T((), "int64", values=[0]), T((), F32))
    sc("f32_reduce_add", T((3, 4), F32), T((3, 4), "int64", "range:0:3"), T((3, 4), F32),
       args={"reduce": "add"})
    sc("f32_reduce_multiply_value", T((3, 4), F32), T((2, 4), "int64", "range:0:3"),
       value=S(2.0), args={"reduce": "multiply"})
    sc("index_out_of_range_error", T((3, 4), F32), T((1, 1), "int64", values=[3]),
       T((1, 1), F32), expect="error")
    sc("negative_index_error", T((3, 4), F32), T((1, 1), "int64", values=[-1]),
       T((1, 1), F32), expect="error")
    sc("i32_index_error", T((3, 4), F32), T((1, 4), "int32", "range:0:3"), T((1, 4), F32),
       expect="error")
    sc("src_dtype_mismatch_error", T((3, 4), F32), T((1, 4), "int64", "range:0:3"),
       T((1, 4), "float64"), expect="error")
    sc("index_larger_than_src_error", T((3, 4), F32), T((2, 4), "int64", "range:0:3"),
       T((1, 4), F32), expect="error")
    sc("index_rank_mismatch_error", T((3, 4), F32), T((4,), "int64", "range:0:3"),
       T((3, 4), F32), expect="error")
    sc("expanded_self_error", T((1, 4), F32, view=["expand:3:4"]),
       T((1, 4), "int64", "range:0:3"), T((1, 4), F32), expect="error")
    for dt in NAMES:
        if dt != "float32":
            sc(f"{SHORT[dt]}_values", T((3, 4), dt), T((2, 4), "int64", "perm:0:3"),
               T((2, 4), dt), expect="any")

    def sa(name, s, idx, src, dim=0, **kw):
        b.case("scatter_add_", name, _scatter_add_, {"self": s, "index": idx, "src": src},
               {"dim": dim}, **kw)

    sa("f32_duplicates_accumulate", T((3, 4), F32), T((5, 4), "int64", "range:0:3"),
       T((5, 4), F32))
    sa("f32_dim1", T((3, 5), F32), T((3, 6), "int64", "range:0:5"), T((3, 6), F32), dim=1)
    sa("f32_transposed_self", T((4, 3), F32, view=["transpose:0:1"]),
       T((4, 4), "int64", "range:0:3"), T((4, 4), F32))
    sa("f64_index_smaller_than_src", T((4, 4), "float64"), T((3, 2), "int64", "range:0:4"),
       T((5, 4), "float64"))
    sa("i64_values", T((3, 4), "int64"), T((6, 4), "int64", "range:0:3"), T((6, 4), "int64"))
    sa("f32_negative_dim", T((2, 3, 4), F32), T((2, 3, 6), "int64", "range:0:4"),
       T((2, 3, 6), F32), dim=-1)
    sa("index_out_of_range_error", T((3, 4), F32), T((1, 1), "int64", values=[5]),
       T((1, 1), F32), expect="error")
    sa("expanded_self_error", T((1, 4), F32, view=["expand:3:4"]),
       T((1, 4), "int64", "range:0:3"), T((1, 4), F32), expect="error")
    sa("src_dtype_mismatch_error", T((3, 4), F32), T((1, 4), "int64", "range:0:3"),
       T((1, 4), "int64"), expect="error")
    for dt in NAMES:
        if dt not in ("float32", "int64"):
            sa(f"{SHORT[dt]}_values", T((3, 4), dt), T((4, 4), "int64", "range:0:3"),
               T((4, 4), dt), expect="any")


def index_family(b):
    def ia(name, s, idx, src, dim=0, args=None, **kw):
        b.case("index_add_", name, _index_add_, {"self": s, "index": idx, "source": src},
               {"dim": dim, **(args or {})}, **kw)

    ia("f32_dim0", T((5, 4), F32), _ints("int64", [0, 4, 2]), T((3, 4), F32))
    ia("f32_duplicates_accumulate", T((3, 4), F32), _ints("int64", [1, 1, 0, 1]), T((4, 4), F32))
    ia("f32_dim1_alpha", T((3, 5), F32), _ints("int64", [4, 0]), T((3, 2), F32), dim=1,
       args={"alpha": -2.5})
    ia("f32_negative_dim", T((2, 3, 4), F32), _ints("int64", [3, 1]), T((2, 3, 2), F32), dim=-1)
    ia("f32_transposed_self_stepped_source", T((4, 3), F32, view=["transpose:0:1"]),
       _ints("int64", [2, 0]), T((2, 8), F32, view=["slice:1:0:8:2"]))
    ia("i32_index", T((4, 3), F32), _ints("int32", [3, 1]), T((2, 3), F32))
    ia("i64_self_int_alpha", T((4, 3), "int64"), _ints("int64", [3, 1]), T((2, 3), "int64"),
       args={"alpha": 3})
    ia("vector_self", T((6,), F32), _ints("int64", [5, 0, 5]), T((3,), F32))
    ia("zero_d_self", T((), F32), T((1,), "int64", values=[0]), T((), F32))
    ia("empty_index", T((3, 4), F32), T((0,), "int64"), T((0, 4), F32))
    ia("index_out_of_range_error", T((3, 4), F32), _ints("int64", [3]), T((1, 4), F32),
       expect="error")
    ia("negative_index_error", T((3, 4), F32), _ints("int64", [-1]), T((1, 4), F32),
       expect="error")
    ia("source_dtype_mismatch_error", T((3, 4), F32), _ints("int64", [0]), T((1, 4), "float64"),
       expect="error")
    ia("i64_self_f32_source_error", T((3, 4), "int64"), _ints("int64", [0]), T((1, 4), F32),
       expect="error")
    ia("float_index_error", T((3, 4), F32), _ints(F32, [0.0]), T((1, 4), F32), expect="error")
    ia("source_shape_error", T((3, 4), F32), _ints("int64", [0, 1]), T((2, 3), F32),
       expect="error")
    ia("expanded_self_error", T((1, 4), F32, view=["expand:3:4"]), _ints("int64", [0]),
       T((1, 4), F32), expect="error")
    ia("i64_self_float_alpha_truncates", T((3, 4), "int64"), _ints("int64", [0]),
       T((1, 4), "int64"), args={"alpha": 1.7})
    for dt in NAMES:
        if dt not in ("float32",):
            ia(f"{SHORT[dt]}_values", T((4, 3), dt), _ints("int64", [3, 0, 3]), T((3, 3), dt),
               expect="any")

    def ic(name, s, idx, src, dim=0, **kw):
        b.case("index_copy_", name, _index_copy_, {"self": s, "index": idx, "source": src},
               {"dim": dim}, **kw)

    ic("f32_dim0", T((5, 4), F32), _ints("int64", [4, 0, 2]), T((3, 4), F32))
    ic("f32_dim1", T((3, 5), F32), _ints("int64", [1, 3]), T((3, 2), F32), dim=1)
    ic("f32_negative_dim", T((2, 3, 4), F32), _ints("int64", [0, 3]), T((2, 3, 2), F32), dim=-1)
    ic("f32_transposed_self", T((4, 3), F32, view=["transpose:0:1"]), _ints("int64", [2]),
       T((1, 4), F32))
    ic("f32_diagonal_self", T((4, 4), F32, view=["diagonal:0:0:1"]), _ints("int64", [3, 1]),
       T((2,), F32))
    ic("zero_d_self", T((), F32), T((1,), "int64", values=[0]), T((), F32))
    ic("empty_index", T((3, 4), F32), T((0,), "int64"), T((0, 4), F32))
    ic("index_out_of_range_error", T((3, 4), F32), _ints("int64", [3]), T((1, 4), F32),
       expect="error")
    ic("negative_index_error", T((3, 4), F32), _ints("int64", [-1]), T((1, 4), F32),
       expect="error")
    ic("i32_index_error", T((3, 4), F32), _ints("int32", [0]), T((1, 4), F32), expect="error")
    ic("source_dtype_mismatch_error", T((3, 4), F32), _ints("int64", [0]), T((1, 4), "float64"),
       expect="error")
    ic("source_shape_error", T((3, 4), F32), _ints("int64", [0, 1]), T((1, 4), F32),
       expect="error")
    ic("expanded_self_error", T((1, 4), F32, view=["expand:3:4"]), _ints("int64", [0]),
       T((1, 4), F32), expect="error")
    for dt in NAMES:
        if dt != "float32":
            ic(f"{SHORT[dt]}_values", T((4, 3), dt), _ints("int64", [3, 0]), T((2, 3), dt))

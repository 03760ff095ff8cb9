"""Joining and splitting: cat, stack, hstack, vstack (`tensors` list operand),
split, chunk, unbind (one output per piece)."""

import torch

from .framework import NAMES, SHORT, T, L

F32, F64 = "float32", "float64"
FLOATS = (F32, F64)


def _list(fn):
    return lambda tensors, **kw: fn(tensors, **kw)


def cat_stack(b):
    cat, stack = _list(torch.cat), _list(torch.stack)
    hstack, vstack = _list(torch.hstack), _list(torch.vstack)

    def add(op, fn, name, items, args=None, **kw):
        b.case(op, name, fn, {"tensors": L(items)}, args, **kw)

    for dt in FLOATS:
        sh, g = SHORT[dt], ["tensors"]
        add("cat", cat, f"{sh}_dim0", [T((2, 3), dt), T((4, 3), dt)], {"dim": 0}, grad=g)
        add("cat", cat, f"{sh}_dim1_three", [T((2, 3), dt), T((2, 1), dt), T((2, 4), dt)],
            {"dim": 1}, grad=g)
        add("cat", cat, f"{sh}_negative_dim", [T((2, 3, 2), dt), T((2, 3, 1), dt)], {"dim": -1},
            grad=g)
        add("cat", cat, f"{sh}_views", [T((3, 2), dt, view=["transpose:0:1"]),
                                        T((1, 5), dt, view=["expand:2:5"]),
                                        T((2, 8), dt, view=["slice:1:1:8:3"])], {"dim": 1},
            grad=g)
        add("cat", cat, f"{sh}_single", [T((2, 3), dt)], {"dim": 1}, grad=g)
        add("cat", cat, f"{sh}_default_dim", [T((1, 3), dt), T((2, 3), dt)], grad=g)
        add("stack", stack, f"{sh}_dim0", [T((2, 3), dt), T((2, 3), dt)], {"dim": 0}, grad=g)
        add("stack", stack, f"{sh}_dim1_three", [T((2, 3), dt)] * 3, {"dim": 1}, grad=g)
        add("stack", stack, f"{sh}_new_last_dim", [T((2, 3), dt), T((2, 3), dt)], {"dim": 2},
            grad=g)
        add("stack", stack, f"{sh}_negative_dim", [T((2, 3), dt), T((2, 3), dt)], {"dim": -1},
            grad=g)
        add("stack", stack, f"{sh}_views", [T((3, 2), dt, view=["transpose:0:1"]),
                                            T((1, 3), dt, view=["expand:2:3"])], {"dim": 1},
            grad=g)
        add("stack", stack, f"{sh}_zero_d", [T((), dt), T((), dt), T((), dt)], grad=g)
        for op, fn in (("hstack", hstack), ("vstack", vstack)):
            add(op, fn, f"{sh}_vectors", [T((3,), dt), T((3,), dt)], grad=g)
            add(op, fn, f"{sh}_matrices", [T((2, 3), dt), T((2, 3), dt)], grad=g)
            add(op, fn, f"{sh}_three_d", [T((2, 2, 3), dt), T((2, 2, 3), dt)], grad=g)
            add(op, fn, f"{sh}_views", [T((3, 2), dt, view=["transpose:0:1"]),
                                        T((2, 6), dt, view=["slice:1:0:6:2"])], grad=g)
    add("hstack", hstack, "f32_unequal_vectors", [T((3,), F32), T((2,), F32)])
    add("hstack", hstack, "f32_zero_d_and_vector", [T((), F32), T((2,), F32)])
    add("hstack", hstack, "mismatched_rows_error", [T((2, 3), F32), T((3, 3), F32)],
        expect="error")
    add("vstack", vstack, "f32_vector_and_matrix", [T((3,), F32), T((2, 3), F32)])
    add("vstack", vstack, "f32_zero_d", [T((), F32), T((), F32)])
    add("vstack", vstack, "mismatched_cols_error", [T((3,), F32), T((2, 4), F32)],
        expect="error")
    add("cat", cat, "f32_legacy_empty_1d_skipped", [T((2, 3), F32), T((0,), F32)], {"dim": 0})
    add("cat", cat, "f32_empty_rows", [T((2, 3), F32), T((0, 3), F32)], {"dim": 0})
    add("cat", cat, "f32_all_empty", [T((0, 3), F32), T((0, 3), F32)], {"dim": 1})
    add("cat", cat, "f32_long", [T((700,), F32), T((337,), F32)], {"dim": 0})
    add("cat", cat, "zero_d_error", [T((), F32), T((), F32)], {"dim": 0}, expect="error")
    add("cat", cat, "rank_mismatch_error", [T((2, 3), F32), T((3,), F32)], {"dim": 0},
        expect="error")
    add("cat", cat, "size_mismatch_error", [T((2, 3), F32), T((2, 4), F32)], {"dim": 0},
        expect="error")
    add("cat", cat, "dim_out_of_range_error", [T((2, 3), F32), T((2, 3), F32)], {"dim": 2},
        expect="error")
    add("cat", cat, "empty_list_error", [], {"dim": 0}, expect="error")
    add("stack", stack, "shape_mismatch_error", [T((2, 3), F32), T((3, 2), F32)],
        expect="error")
    add("stack", stack, "dim_out_of_range_error", [T((2, 3), F32), T((2, 3), F32)],
        {"dim": 3}, expect="error")
    add("stack", stack, "empty_list_error", [], expect="error")
    add("stack", stack, "f32_empty_tensors", [T((0, 3), F32), T((0, 3), F32)], {"dim": 1})
    for da, db in (("float32", "int64"), ("int8", "uint8"), ("float16", "bfloat16"),
                   ("bool", "int32"), ("float32", "complex64"), ("int64", "float64")):
        name = f"mixed_{SHORT[da]}_{SHORT[db]}"
        add("cat", cat, name, [T((2, 3), da), T((1, 3), db)], {"dim": 0}, expect="any")
        add("stack", stack, name, [T((2, 3), da), T((2, 3), db)], expect="any")
    for dt in NAMES:
        add("cat", cat, f"{SHORT[dt]}_values", [T((2, 3), dt), T((2, 2), dt)], {"dim": 1})
        add("stack", stack, f"{SHORT[dt]}_values", [T((2, 3), dt), T((2, 3), dt)], {"dim": 1})


def splits(b):
    split = lambda tensor, **kw: torch.split(tensor, **kw)  # noqa: E731
    chunk = lambda input, **kw: torch.chunk(input, **kw)  # noqa: E731
    unbind = lambda input, **kw: torch.unbind(input, **kw)  # noqa: E731
    cases = [("split", split, "tensor", [
        ("even_int", (6, 3), [], {"split_size_or_sections": 2}),
        ("uneven_int", (5, 3), [], {"split_size_or_sections": 2}),
        ("int_larger_than_dim", (3, 2), [], {"split_size_or_sections": 5}),
        ("sections", (6, 3), [], {"split_size_or_sections": [1, 3, 2]}),
        ("sections_with_zero", (4, 3), [], {"split_size_or_sections": [0, 4, 0]}),
        ("dim1_sections", (2, 5), [], {"split_size_or_sections": [2, 3], "dim": 1}),
        ("negative_dim", (2, 3, 4), [], {"split_size_or_sections": 3, "dim": -1}),
        ("transposed", (4, 3), ["transpose:0:1"], {"split_size_or_sections": 2, "dim": 1}),
        ("expanded", (1, 4), ["expand:3:4"], {"split_size_or_sections": [1, 2]}),
        ("empty_dim", (0, 3), [], {"split_size_or_sections": 2})]),
        ("chunk", chunk, "input", [
            ("even", (6, 3), [], {"chunks": 3}), ("uneven", (5, 3), [], {"chunks": 3}),
            ("more_chunks_than_needed", (6, 2), [], {"chunks": 4}),
            ("more_chunks_than_size", (2, 3), [], {"chunks": 5}),
            ("dim1", (2, 7), [], {"chunks": 2, "dim": 1}),
            ("negative_dim", (2, 3, 4), [], {"chunks": 2, "dim": -1}),
            ("stepped", (3, 9), ["slice:1:1:9:2"], {"chunks": 2, "dim": 1}),
            ("empty_dim", (0, 3), [], {"chunks": 2})]),
        ("unbind", unbind, "input", [
            ("dim0", (3, 2), [], {"dim": 0}), ("dim1", (2, 3), [], {"dim": 1}),
            ("negative_dim", (2, 3, 2), [], {"dim": -2}),
            ("transposed", (4, 3), ["transpose:0:1"], {"dim": 0}),
            ("expanded", (1, 3), ["expand:2:3"], {"dim": 1}), ("vector", (4,), [], {}),
            ("empty_dim", (0, 3), [], {"dim": 0})])]
    for op, fn, name, shapes in cases:
        for case, shape, view, args in shapes:
            for dt in FLOATS:
                grad = [name] if "empty" not in case else None
                b.case(op, f"{SHORT[dt]}_{case}", fn, {name: T(shape, dt, view=view)}, args,
                       grad=grad)
        for dt in NAMES:
            if dt not in FLOATS:
                b.case(op, f"{SHORT[dt]}_values", fn, {name: T((4, 3), dt)},
                       {"split_size_or_sections": 3} if op == "split" else
                       ({"chunks": 2} if op == "chunk" else {"dim": 1}))
    b.case("split", "sections_sum_mismatch_error", split, {"tensor": T((5,), F32)},
           {"split_size_or_sections": [1, 3]}, expect="error")
    b.case("split", "zero_size_error", split, {"tensor": T((5,), F32)},
           {"split_size_or_sections": 0}, expect="error")
    b.case("chunk", "zero_chunks_error", chunk, {"input": T((5,), F32)}, {"chunks": 0},
           expect="error")
    b.case("chunk", "zero_d_error", chunk, {"input": T((), F32)}, {"chunks": 1}, expect="error")
    b.case("unbind", "zero_d_error", unbind, {"input": T((), F32)}, {"dim": 0}, expect="error")
    b.case("unbind", "dim_out_of_range_error", unbind, {"input": T((2, 3), F32)}, {"dim": 2},
           expect="error")
    many_pieces(b)


def many_pieces(b):
    """More pieces than the runner once had room for (8): any count binds."""
    b.case("split", "f32_many_pieces", lambda tensor, **kw: torch.split(tensor, **kw),
           {"tensor": T((12, 2), F32)}, {"split_size_or_sections": 1}, grad=["tensor"])
    b.case("split", "f32_many_sections", lambda tensor, **kw: torch.split(tensor, **kw),
           {"tensor": T((2, 12), F32)}, {"split_size_or_sections": [1] * 9 + [0, 3], "dim": 1},
           grad=["tensor"])
    b.case("chunk", "f32_many_pieces", lambda input, **kw: torch.chunk(input, **kw),
           {"input": T((11,), F32)}, {"chunks": 11}, grad=["input"])
    b.case("unbind", "f32_many_pieces", lambda input, **kw: torch.unbind(input, **kw),
           {"input": T((3, 10), F32)}, {"dim": 1}, grad=["input"])

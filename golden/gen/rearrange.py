"""Copying rearrangements: pad (torch.nn.functional.pad: constant, reflect,
replicate), flip, roll, repeat (Tensor method, operand `self`), tile,
repeat_interleave (`repeats` operand: Python int or int64 tensor), tril, triu."""

import torch
import torch.nn.functional as F

from .framework import NAMES, SHORT, T, S

F32, F64 = "float32", "float64"
FLOATS = (F32, F64)


def _pad(input, **kw):
    return F.pad(input, **kw)


def _flip(input, dims):
    return torch.flip(input, dims)


def _roll(input, **kw):
    return torch.roll(input, **kw)


def _repeat(self, repeats):
    return self.repeat(repeats)


def _tile(input, dims):
    return torch.tile(input, dims)


def _repeat_interleave(input, repeats, **kw):
    return torch.repeat_interleave(input, repeats, **kw)


def _tril(input, **kw):
    return torch.tril(input, **kw)


def _triu(input, **kw):
    return torch.triu(input, **kw)


PAD = [
    ("constant_last_dim", (2, 3), [], {"pad": [1, 2]}),
    ("constant_two_dims_value", (2, 3), [], {"pad": [1, 0, 2, 1], "value": -1.5}),
    ("constant_negative_crops", (3, 4), [], {"pad": [-1, 2, 0, -1]}),
    ("constant_three_dims", (2, 2, 2), [], {"pad": [1, 1, 0, 1, 1, 0], "value": 0.5}),
    ("constant_transposed", (4, 3), ["transpose:0:1"], {"pad": [2, 0], "mode": "constant"}),
    ("constant_empty_pad", (2, 3), [], {"pad": []}),
    ("reflect_1d_batched", (1, 2, 4), [], {"pad": [2, 3], "mode": "reflect"}),
    ("reflect_1d_unbatched", (2, 4), [], {"pad": [1, 2], "mode": "reflect"}),
    ("reflect_2d", (1, 2, 3, 4), [], {"pad": [1, 2, 2, 1], "mode": "reflect"}),
    ("reflect_2d_unbatched", (2, 3, 4), [], {"pad": [3, 0, 1, 2], "mode": "reflect"}),
    ("reflect_transposed", (1, 4, 3), ["transpose:1:2"], {"pad": [1, 1], "mode": "reflect"}),
    ("replicate_1d", (1, 2, 3), [], {"pad": [2, 4], "mode": "replicate"}),
    ("replicate_2d", (1, 1, 2, 3), [], {"pad": [1, 2, 3, 0], "mode": "replicate"}),
    ("replicate_negative", (1, 2, 4), [], {"pad": [-1, 2], "mode": "replicate"}),
    ("replicate_stepped", (1, 2, 9), ["slice:2:0:9:2"], {"pad": [2, 1], "mode": "replicate"}),
    ("circular_1d", (1, 2, 3), [], {"pad": [1, 2], "mode": "circular"}),
    ("circular_full_wrap", (2, 1, 3), [], {"pad": [3, 3], "mode": "circular"}),
    ("circular_negative_left", (1, 2, 4), [], {"pad": [-1, 2], "mode": "circular"}),
    ("circular_negative_both", (1, 2, 5), [], {"pad": [-1, -2], "mode": "circular"}),
    ("circular_2d", (1, 1, 3, 4), [], {"pad": [1, 2, 3, 0], "mode": "circular"}),
    ("circular_3d", (1, 1, 2, 2, 3), [], {"pad": [1, 1, 0, 2, 1, 1], "mode": "circular"}),
    ("circular_transposed", (1, 4, 3), ["transpose:1:2"], {"pad": [2, 1], "mode": "circular"}),
    ("reflect_3d", (1, 1, 3, 3, 4), [], {"pad": [1, 2, 2, 0, 1, 1], "mode": "reflect"}),
    ("reflect_negative", (1, 2, 5), [], {"pad": [-1, 2], "mode": "reflect"}),
    ("replicate_3d_unbatched", (1, 2, 2, 3), [], {"pad": [1, 0, 1, 1, 2, 1],
                                                  "mode": "replicate"}),
]
PAD_ERRORS = [
    ("odd_pad_length_error", (2, 3), {"pad": [1, 1, 1]}),
    ("too_many_pads_error", (2, 3), {"pad": [1, 1, 1, 1, 1, 1]}),
    ("reflect_pad_too_large_error", (1, 2, 3), {"pad": [3, 0], "mode": "reflect"}),
    ("reflect_1d_input_error", (4,), {"pad": [1, 1], "mode": "reflect"}),
    ("reflect_wrong_pad_count_error", (2, 3), {"pad": [1, 1, 1, 1], "mode": "reflect"}),
    ("unknown_mode_error", (1, 2, 3), {"pad": [1, 1], "mode": "mirror"}),
    ("negative_past_size_error", (2, 3), {"pad": [-2, -2]}),
    ("circular_wraps_twice_error", (1, 2, 3), {"pad": [4, 0], "mode": "circular"}),
    ("circular_2d_input_error", (2, 3), {"pad": [1, 1], "mode": "circular"}),
    ("circular_wrong_pad_count_error", (1, 2, 3), {"pad": [1, 1, 1, 1], "mode": "circular"}),
    ("circular_6d_input_error", (1, 1, 1, 1, 2, 3), {"pad": [1, 1], "mode": "circular"}),
]


def pad(b):
    for name, shape, view, args in PAD:
        for dt in FLOATS:
            b.case("pad", f"{SHORT[dt]}_{name}", _pad, {"input": T(shape, dt, view=view)}, args,
                   grad=["input"])
    for name, shape, args in PAD_ERRORS:
        b.case("pad", name, _pad, {"input": T(shape, F32)}, args, expect="error")
    b.case("pad", "f32_constant_nan_value", _pad, {"input": T((2, 2), F32)},
           {"pad": [1, 1], "value": float("nan")})
    b.case("pad", "i64_constant_float_value", _pad, {"input": T((2, 2), "int64")},
           {"pad": [1, 1], "value": 2.5})
    b.case("pad", "f32_zero_d_empty_pad", _pad, {"input": T((), F32)}, {"pad": []},
           expect="any")
    b.case("pad", "f32_empty_input_constant", _pad, {"input": T((0, 3), F32)}, {"pad": [1, 1]})
    for dt in NAMES:
        if dt not in FLOATS:
            b.case("pad", f"{SHORT[dt]}_constant", _pad, {"input": T((2, 3), dt)},
                   {"pad": [1, 1, 1, 0], "value": 1})
            b.case("pad", f"{SHORT[dt]}_reflect", _pad, {"input": T((1, 2, 3), dt)},
                   {"pad": [1, 1], "mode": "reflect"}, expect="any")
            b.case("pad", f"{SHORT[dt]}_replicate", _pad, {"input": T((1, 2, 3), dt)},
                   {"pad": [1, 1], "mode": "replicate"}, expect="any")
            b.case("pad", f"{SHORT[dt]}_circular", _pad, {"input": T((1, 2, 3), dt)},
                   {"pad": [2, -1], "mode": "circular"}, expect="any")
    b.case("pad", "f32_circular_crop_to_empty", _pad, {"input": T((1, 2, 3), F32)},
           {"pad": [-3, 0], "mode": "circular"})


def flip_roll(b):
    flips = [("dim0", (3, 4), [], [0]), ("both", (3, 4), [], [0, 1]),
             ("negative", (2, 3, 4), [], [-1, 0]), ("transposed", (4, 3), ["transpose:0:1"], [1]),
             ("expanded", (1, 4), ["expand:3:4"], [0, 1]), ("empty_dims", (2, 3), [], []),
             ("zero_d", (), [], []), ("empty_input", (0, 3), [], [0, 1]),
             ("long", (1037,), [], [0])]
    for name, shape, view, dims in flips:
        for dt in FLOATS:
            b.case("flip", f"{SHORT[dt]}_{name}", _flip, {"input": T(shape, dt, view=view)},
                   {"dims": dims}, grad=["input"])
    b.case("flip", "repeated_dim_error", _flip, {"input": T((2, 3), F32)}, {"dims": [0, -2]},
           expect="error")
    b.case("flip", "dim_out_of_range_error", _flip, {"input": T((2, 3), F32)}, {"dims": [2]},
           expect="error")
    rolls = [("flat_no_dims", (3, 4), [], {"shifts": 5}),
             ("one_dim", (3, 4), [], {"shifts": 1, "dims": 1}),
             ("two_dims", (3, 4), [], {"shifts": [1, -5], "dims": [0, 1]}),
             ("negative_dim", (2, 3, 4), [], {"shifts": [2], "dims": [-1]}),
             ("shift_larger_than_size", (3, 4), [], {"shifts": 11, "dims": 1}),
             ("same_dim_twice", (3, 4), [], {"shifts": [1, 2], "dims": [1, 1]}),
             ("transposed", (4, 3), ["transpose:0:1"], {"shifts": -1, "dims": 0}),
             ("transposed_flat", (4, 3), ["transpose:0:1"], {"shifts": 2}),
             ("expanded", (1, 4), ["expand:3:4"], {"shifts": 1, "dims": 1}),
             ("empty", (0, 3), [], {"shifts": 1})]
    for name, shape, view, args in rolls:
        for dt in FLOATS:
            b.case("roll", f"{SHORT[dt]}_{name}", _roll, {"input": T(shape, dt, view=view)}, args,
                   grad=["input"])
    b.case("roll", "shifts_dims_mismatch_error", _roll, {"input": T((2, 3), F32)},
           {"shifts": [1], "dims": [0, 1]}, expect="error")
    b.case("roll", "zero_d", _roll, {"input": T((), F32)}, {"shifts": 1}, expect="any")
    for dt in NAMES:
        if dt not in FLOATS:
            b.case("flip", f"{SHORT[dt]}_values", _flip, {"input": T((3, 4), dt)}, {"dims": [1]})
            b.case("roll", f"{SHORT[dt]}_values", _roll, {"input": T((3, 4), dt)},
                   {"shifts": [1, 2], "dims": [0, 1]})


def repeats(b):
    reps = [("same_rank", (2, 3), [], [2, 3]), ("more_dims", (2, 3), [], [2, 1, 2]),
            ("ones", (2, 3), [], [1, 1]), ("zero_repeat", (2, 3), [], [0, 2]),
            ("transposed", (4, 3), ["transpose:0:1"], [1, 2]),
            ("expanded", (1, 3), ["expand:2:3"], [2, 1]), ("zero_d", (), [], [3]),
            ("zero_d_no_repeats", (), [], [])]
    for name, shape, view, r in reps:
        for dt in FLOATS:
            b.case("repeat", f"{SHORT[dt]}_{name}", _repeat, {"self": T(shape, dt, view=view)},
                   {"repeats": r}, grad=["self"])
            b.case("tile", f"{SHORT[dt]}_{name}", _tile, {"input": T(shape, dt, view=view)},
                   {"dims": r}, grad=["input"])
    for dt in FLOATS:
        b.case("tile", f"{SHORT[dt]}_fewer_dims", _tile, {"input": T((2, 3), dt)}, {"dims": [2]},
               grad=["input"])
        b.case("tile", f"{SHORT[dt]}_empty_dims", _tile, {"input": T((2, 3), dt)}, {"dims": []},
               grad=["input"])
    b.case("repeat", "fewer_dims_error", _repeat, {"self": T((2, 3), F32)}, {"repeats": [2]},
           expect="error")
    b.case("repeat", "negative_error", _repeat, {"self": T((2, 3), F32)}, {"repeats": [1, -1]},
           expect="error")
    b.case("tile", "negative_error", _tile, {"input": T((2, 3), F32)}, {"dims": [1, -1]},
           expect="error")
    ri = _repeat_interleave
    for dt in FLOATS:
        sh = SHORT[dt]
        for name, x, r, args in (
                ("int_flat", T((2, 3), dt), S(2), {}),
                ("int_dim1", T((2, 3), dt), S(3), {"dim": 1}),
                ("int_zero", T((2, 3), dt), S(0), {"dim": 0}),
                ("zero_d_tensor_dim1", T((2, 3), dt), T((), "int64", values=[3]), {"dim": 1}),
                ("tensor_dim0", T((3, 2), dt), T((3,), "int64", values=[1, 0, 2]), {"dim": 0}),
                ("tensor_flat", T((2, 2), dt), T((4,), "int64", values=[2, 1, 0, 3]), {}),
                ("one_element_tensor", T((2, 3), dt), T((1,), "int64", values=[2]), {"dim": 1}),
                ("transposed", T((3, 2), dt, view=["transpose:0:1"]),
                 T((3,), "int64", values=[0, 2, 1]), {"dim": -1})):
            b.case("repeat_interleave", f"{sh}_{name}", ri, {"input": x, "repeats": r}, args,
                   grad=["input"])
    b.case("repeat_interleave", "negative_int_error", ri,
           {"input": T((3,), F32), "repeats": S(-1)}, expect="error")
    b.case("repeat_interleave", "negative_repeats_error", ri,
           {"input": T((3,), F32), "repeats": T((3,), "int64", values=[1, -1, 2])},
           expect="error")
    b.case("repeat_interleave", "length_mismatch_error", ri,
           {"input": T((3,), F32), "repeats": T((2,), "int64", values=[1, 2])}, {"dim": 0},
           expect="error")
    b.case("repeat_interleave", "i64_values", ri,
           {"input": T((2, 3), "int64"), "repeats": T((3,), "int64", values=[2, 0, 1])},
           {"dim": 1})
    for dt in NAMES:
        if dt not in FLOATS:
            b.case("repeat", f"{SHORT[dt]}_values", _repeat, {"self": T((2, 3), dt)},
                   {"repeats": [2, 1]})
            b.case("tile", f"{SHORT[dt]}_values", _tile, {"input": T((2, 3), dt)}, {"dims": [2]})


def triangles(b):
    shapes = [("square", (4, 4), [], {}), ("wide_positive", (3, 5), [], {"diagonal": 2}),
              ("tall_negative", (5, 3), [], {"diagonal": -1}),
              ("batched", (2, 3, 3), [], {"diagonal": 1}),
              ("beyond_size", (3, 4), [], {"diagonal": 10}),
              ("below_size", (3, 4), [], {"diagonal": -10}),
              ("transposed", (4, 3), ["transpose:0:1"], {"diagonal": 0}),
              ("expanded", (1, 4), ["expand:3:4"], {"diagonal": -1}),
              ("empty", (0, 3), [], {})]
    for op, fn in (("tril", _tril), ("triu", _triu)):
        for name, shape, view, args in shapes:
            for dt in FLOATS:
                b.case(op, f"{SHORT[dt]}_{name}", fn, {"input": T(shape, dt, view=view)}, args,
                       grad=["input"])
        b.case(op, "vector_error", fn, {"input": T((3,), F32)}, expect="error")
        b.case(op, "f32_nan_kept_or_zeroed", fn,
               {"input": T((2, 2), F32, values=["nan", "inf", "nan", "-inf"])})
        for dt in NAMES:
            if dt not in FLOATS:
                b.case(op, f"{SHORT[dt]}_values", fn, {"input": T((3, 3), dt)},
                       {"diagonal": 1}, expect="any")

"""Movement ops (outputs are the resulting values, contiguous), with contiguous
and clone (copy family), whose cases share the movement table.  copy_ is in
copy.py."""

import torch

from .framework import NAMES, SHORT, T


def _m(method):
    """Adapter for a Tensor method taking keyword args: operand `self`."""
    return lambda self, **kw: getattr(self, method)(**kw)


def _t(torch_fn):
    """Adapter for a torch function: operand `input`."""
    return lambda input, **kw: torch_fn(input, **kw)


def _squeeze(input, dim=None):
    return torch.squeeze(input) if dim is None else torch.squeeze(input, dim)


OPS = {
    "reshape": _t(torch.reshape), "view": _m("view"), "transpose": _t(torch.transpose),
    "permute": _t(torch.permute), "expand": _m("expand"), "narrow": _t(torch.narrow),
    "squeeze": _squeeze, "unsqueeze": _t(torch.unsqueeze), "diagonal": _t(torch.diagonal),
    "flatten": _t(torch.flatten), "unflatten": _m("unflatten"), "contiguous": _m("contiguous"),
    "clone": _t(torch.clone),
}
SELF = ("view", "expand", "unflatten", "contiguous")

# (op, case, base shape, view steps, args, expect)
CASES = [
    ("reshape", "contiguous_2d_to_3d", (3, 4), [], {"shape": [2, 3, 2]}, "ok"),
    ("reshape", "infer_minus_one", (3, 4), [], {"shape": [-1, 6]}, "ok"),
    ("reshape", "transposed_needs_copy", (4, 3), ["transpose:0:1"], {"shape": [12]}, "ok"),
    ("reshape", "stepped_slice", (3, 9), ["slice:1:1:9:2"], {"shape": [2, 6]}, "ok"),
    ("reshape", "expanded_input", (1, 4), ["expand:3:4"], {"shape": [4, 3]}, "ok"),
    ("reshape", "to_zero_d", (1, 1), [], {"shape": []}, "ok"),
    ("reshape", "from_zero_d", (), [], {"shape": [1, 1]}, "ok"),
    ("reshape", "empty", (0, 4), [], {"shape": [2, 0, 3]}, "ok"),
    ("reshape", "empty_minus_one_error", (0, 4), [], {"shape": [0, -1]}, "any"),
    ("reshape", "two_minus_one_error", (3, 4), [], {"shape": [-1, -1]}, "error"),
    ("reshape", "size_mismatch_error", (3, 4), [], {"shape": [5, 3]}, "error"),
    ("reshape", "permuted_3d", (2, 3, 4), ["permute:2:0:1"], {"shape": [4, 6]}, "ok"),
    ("view", "contiguous_split", (3, 4), [], {"size": [2, 2, 3]}, "ok"),
    ("view", "merge_contiguous_dims", (2, 3, 4), [], {"size": [6, 4]}, "ok"),
    ("view", "transposed_split_compatible", (4, 6), ["transpose:0:1"], {"size": [2, 3, 4]}, "ok"),
    ("view", "transposed_flatten_error", (4, 3), ["transpose:0:1"], {"size": [12]}, "error"),
    ("view", "stepped_rows_merge_error", (6, 4), ["slice:0:0:6:2"], {"size": [12]}, "any"),
    ("view", "stepped_cols_split", (3, 8), ["slice:1:0:8:2"], {"size": [3, 2, 2]}, "ok"),
    ("view", "expanded_split", (1, 4), ["expand:3:4"], {"size": [3, 2, 2]}, "ok"),
    ("view", "expanded_merge_error", (3, 1), ["expand:3:4"], {"size": [12]}, "error"),
    ("view", "minus_one", (3, 4), [], {"size": [-1]}, "ok"),
    ("view", "zero_d_to_one", (), [], {"size": [1]}, "ok"),
    ("transpose", "matrix", (3, 4), [], {"dim0": 0, "dim1": 1}, "ok"),
    ("transpose", "negative_dims", (2, 3, 4), [], {"dim0": -1, "dim1": 0}, "ok"),
    ("transpose", "same_dim", (2, 3), [], {"dim0": 1, "dim1": 1}, "ok"),
    ("transpose", "of_transposed", (4, 3), ["transpose:0:1"], {"dim0": 1, "dim1": 0}, "ok"),
    ("transpose", "stepped", (3, 9), ["slice:1:1:9:2"], {"dim0": 0, "dim1": 1}, "ok"),
    ("transpose", "zero_d", (), [], {"dim0": 0, "dim1": -1}, "any"),
    ("transpose", "dim_out_of_range_error", (2, 3), [], {"dim0": 0, "dim1": 2}, "error"),
    ("permute", "three_d", (2, 3, 4), [], {"dims": [2, 0, 1]}, "ok"),
    ("permute", "negative_dims", (2, 3, 4), [], {"dims": [-1, -3, -2]}, "ok"),
    ("permute", "of_expanded", (1, 3), ["expand:2:3", "unsqueeze:0"], {"dims": [2, 1, 0]}, "ok"),
    ("permute", "zero_d", (), [], {"dims": []}, "ok"),
    ("permute", "repeated_dim_error", (2, 3), [], {"dims": [0, 0]}, "error"),
    ("permute", "wrong_length_error", (2, 3), [], {"dims": [1]}, "error"),
    ("expand", "add_leading_dims", (3,), [], {"size": [2, 4, 3]}, "ok"),
    ("expand", "size_one_dims", (3, 1), [], {"size": [3, 5]}, "ok"),
    ("expand", "minus_one_keeps", (1, 4), [], {"size": [3, -1]}, "ok"),
    ("expand", "of_transposed", (1, 3), ["transpose:0:1"], {"size": [3, 4]}, "ok"),
    ("expand", "zero_d_to_matrix", (), [], {"size": [2, 2]}, "ok"),
    ("expand", "to_zero_extent", (1, 3), [], {"size": [0, 3]}, "ok"),
    ("expand", "non_one_dim_error", (3, 4), [], {"size": [3, 5]}, "error"),
    ("expand", "fewer_dims_error", (2, 3), [], {"size": [3]}, "error"),
    ("expand", "minus_one_new_dim_error", (3,), [], {"size": [-1, 3]}, "error"),
    ("narrow", "rows", (5, 4), [], {"dim": 0, "start": 1, "length": 3}, "ok"),
    ("narrow", "negative_start", (5, 4), [], {"dim": 1, "start": -2, "length": 2}, "ok"),
    ("narrow", "negative_dim", (2, 5, 4), [], {"dim": -2, "start": 0, "length": 5}, "ok"),
    ("narrow", "zero_length", (5, 4), [], {"dim": 0, "start": 2, "length": 0}, "ok"),
    ("narrow", "of_transposed", (4, 6), ["transpose:0:1"], {"dim": 0, "start": 2, "length": 3}, "ok"),
    ("narrow", "past_end_error", (5, 4), [], {"dim": 0, "start": 3, "length": 3}, "error"),
    ("narrow", "zero_d_error", (), [], {"dim": 0, "start": 0, "length": 1}, "error"),
    ("narrow", "start_out_of_range_error", (5, 4), [], {"dim": 0, "start": 6, "length": 0}, "error"),
    ("squeeze", "all_dims", (1, 3, 1, 2), [], {}, "ok"),
    ("squeeze", "dim_of_size_one", (1, 3, 1, 2), [], {"dim": 2}, "ok"),
    ("squeeze", "dim_not_size_one_noop", (1, 3, 1, 2), [], {"dim": 1}, "ok"),
    ("squeeze", "negative_dim", (3, 1), [], {"dim": -1}, "ok"),
    ("squeeze", "all_ones_to_zero_d", (1, 1), [], {}, "ok"),
    ("squeeze", "zero_d", (), [], {"dim": 0}, "ok"),
    ("squeeze", "of_expanded", (1, 1, 3), ["expand:1:2:3"], {}, "ok"),
    ("squeeze", "dim_out_of_range_error", (1, 3), [], {"dim": 2}, "error"),
    ("unsqueeze", "front", (3, 4), [], {"dim": 0}, "ok"),
    ("unsqueeze", "back_negative", (3, 4), [], {"dim": -1}, "ok"),
    ("unsqueeze", "middle", (3, 4), [], {"dim": 1}, "ok"),
    ("unsqueeze", "of_transposed", (4, 3), ["transpose:0:1"], {"dim": 2}, "ok"),
    ("unsqueeze", "zero_d", (), [], {"dim": 0}, "ok"),
    ("unsqueeze", "dim_out_of_range_error", (3, 4), [], {"dim": 3}, "error"),
    ("diagonal", "main", (4, 4), [], {"offset": 0, "dim1": 0, "dim2": 1}, "ok"),
    ("diagonal", "positive_offset", (3, 5), [], {"offset": 2, "dim1": 0, "dim2": 1}, "ok"),
    ("diagonal", "negative_offset", (5, 3), [], {"offset": -1, "dim1": 0, "dim2": 1}, "ok"),
    ("diagonal", "swapped_dims", (3, 5), [], {"offset": 1, "dim1": 1, "dim2": 0}, "ok"),
    ("diagonal", "batched_last_dims", (2, 3, 3), [], {"offset": 0, "dim1": -2, "dim2": -1}, "ok"),
    ("diagonal", "outer_dims", (3, 2, 3), [], {"offset": 0, "dim1": 0, "dim2": 2}, "ok"),
    ("diagonal", "offset_past_end", (3, 3), [], {"offset": 5, "dim1": 0, "dim2": 1}, "ok"),
    ("diagonal", "of_transposed", (4, 3), ["transpose:0:1"], {"offset": 1, "dim1": 0, "dim2": 1}, "ok"),
    ("diagonal", "same_dims_error", (3, 3), [], {"offset": 0, "dim1": 1, "dim2": 1}, "error"),
    ("flatten", "all", (2, 3, 4), [], {"start_dim": 0, "end_dim": -1}, "ok"),
    ("flatten", "middle", (2, 3, 4, 5), [], {"start_dim": 1, "end_dim": 2}, "ok"),
    ("flatten", "single_dim_noop", (2, 3), [], {"start_dim": 1, "end_dim": 1}, "ok"),
    ("flatten", "zero_d_to_one", (), [], {"start_dim": 0, "end_dim": -1}, "ok"),
    ("flatten", "transposed", (4, 3), ["transpose:0:1"], {"start_dim": 0, "end_dim": 1}, "ok"),
    ("flatten", "empty", (2, 0, 3), [], {"start_dim": 0, "end_dim": 1}, "ok"),
    ("flatten", "start_after_end_error", (2, 3, 4), [], {"start_dim": 2, "end_dim": 1}, "error"),
    ("unflatten", "split_last", (2, 12), [], {"dim": 1, "sizes": [3, 4]}, "ok"),
    ("unflatten", "minus_one", (12,), [], {"dim": 0, "sizes": [2, -1, 3]}, "ok"),
    ("unflatten", "negative_dim", (6, 2), [], {"dim": -2, "sizes": [3, 2]}, "ok"),
    ("unflatten", "of_transposed", (4, 6), ["transpose:0:1"], {"dim": 0, "sizes": [2, 3]}, "ok"),
    ("unflatten", "size_mismatch_error", (12,), [], {"dim": 0, "sizes": [5, 2]}, "error"),
    ("contiguous", "already", (3, 4), [], {}, "ok"),
    ("contiguous", "transposed", (4, 3), ["transpose:0:1"], {}, "ok"),
    ("contiguous", "permuted", (4, 2, 3), ["permute:2:0:1"], {}, "ok"),
    ("contiguous", "stepped_slice", (3, 9), ["slice:1:1:9:2"], {}, "ok"),
    ("contiguous", "expanded", (1, 4), ["expand:3:4"], {}, "ok"),
    ("contiguous", "diagonal", (4, 5), ["diagonal:1:0:1"], {}, "ok"),
    ("contiguous", "unsqueezed_expanded", (3,), ["unsqueeze:1", "expand:3:2"], {}, "ok"),
    ("contiguous", "zero_d", (), [], {}, "ok"),
    ("contiguous", "empty", (0, 3), ["transpose:0:1"], {}, "ok"),
    ("clone", "contiguous", (3, 4), [], {}, "ok"),
    ("clone", "transposed", (4, 3), ["transpose:0:1"], {}, "ok"),
    ("clone", "stepped_slice", (7, 4), ["slice:0:1:7:3"], {}, "ok"),
    ("clone", "expanded", (3, 1), ["expand:3:4"], {}, "ok"),
    ("clone", "diagonal", (5, 4), ["diagonal:-1:0:1"], {}, "ok"),
    ("clone", "zero_d", (), [], {}, "ok"),
    ("clone", "empty", (2, 0), [], {}, "ok"),
]


def movement(b):
    for op, name, shape, view, args, expect in CASES:
        key = "self" if op in SELF else "input"
        b.case(op, name, OPS[op], {key: T(shape, "float32", view=view)}, args, expect=expect)
    # Values must travel unchanged whatever the dtype.
    for dt in NAMES:
        sh = SHORT[dt]
        b.case("contiguous", f"{sh}_transposed", OPS["contiguous"],
               {"self": T((4, 3), dt, view=["transpose:0:1"])})
        b.case("clone", f"{sh}_stepped", OPS["clone"],
               {"input": T((3, 9), dt, view=["slice:1:1:9:2"])})
        b.case("reshape", f"{sh}_permuted", OPS["reshape"],
               {"input": T((2, 3, 4), dt, view=["permute:1:2:0"])}, {"shape": [4, 6]})
        b.case("transpose", f"{sh}_values", OPS["transpose"],
               {"input": T((2, 3), dt)}, {"dim0": 0, "dim1": 1})
    b.case("clone", "f32_special_values_bits", OPS["clone"],
           {"input": T((6,), "float32", values=["nan", "-inf", -0.0, 1e-45, 0.0, "inf"])},
           signed_zeros=True)

"""embedding's max_norm, norm_type, scale_grad_by_freq and sparse=False (issue 13).

With max_norm, F.embedding renormalises the referenced rows of weight in
place before the lookup; those cases record the renormalised weight as a
second output after the lookup (the runner keeps inputs unchanged, so the
adapter renormalises a copy of weight and returns it). The second output is
weight itself in torch, so its gradient is its grad_output plus the lookup's.
sparse=True has no case: torch returns a sparse gradient, which tessera
refuses (test_index_embedding.c checks the refusal)."""

import torch.nn.functional as F

from .framework import NAMES, SHORT, T

FLOATS = ("float32", "float64")


def _ints(vals, shape=None, dt="int64"):
    return T(shape or (len(vals),), dt, values=vals)


def _embedding(input, weight, **kw):
    out = F.embedding(input, weight, **kw)
    return (out, weight) if kw.get("max_norm") is not None else out


def max_norm_and_frequency(b):
    def case(name, indices, weight, args, **kw):
        b.case("embedding", name, _embedding, {"input": indices, "weight": weight}, args, **kw)

    g = ["weight"]
    for dt in FLOATS:
        sh = SHORT[dt]
        case(f"{sh}_max_norm", _ints([0, 3, 3, 1]), T((5, 3), dt), {"max_norm": 1.0}, grad=g)
        case(f"{sh}_max_norm_l1", _ints([2, 0, 2]), T((4, 3), dt),
             {"max_norm": 1.5, "norm_type": 1.0}, grad=g)
        case(f"{sh}_max_norm_inf", _ints([1, 2]), T((3, 4), dt),
             {"max_norm": 0.5, "norm_type": float("inf")}, grad=g)
        case(f"{sh}_max_norm_large_keeps_rows", _ints([1, 2]), T((3, 4), dt),
             {"max_norm": 100.0}, grad=g)
        case(f"{sh}_max_norm_padding_idx", _ints([0, 2, 2, 1]), T((3, 2), dt),
             {"max_norm": 0.75, "padding_idx": 2}, grad=g)
        case(f"{sh}_max_norm_transposed_weight", _ints([1, 0, 1]),
             T((3, 4), dt, view=["transpose:0:1"]), {"max_norm": 1.0}, grad=g)
        case(f"{sh}_scale_grad_by_freq", _ints([0, 2, 2, 1, 2, 0]), T((4, 3), dt),
             {"scale_grad_by_freq": True}, grad=g)
        case(f"{sh}_scale_grad_by_freq_two_d", T((3, 4), "int64", "range:0:3"), T((3, 2), dt),
             {"scale_grad_by_freq": True, "padding_idx": 1}, grad=g)
        case(f"{sh}_max_norm_and_scale_grad_by_freq", _ints([1, 1, 3]), T((4, 2), dt),
             {"max_norm": 0.5, "norm_type": 3.0, "scale_grad_by_freq": True}, grad=g)
        case(f"{sh}_sparse_false", _ints([2, 0]), T((3, 2), dt), {"sparse": False}, grad=g)
    case("f32_negative_max_norm_flips_rows", _ints([0]), T((2, 3), "float32"),
         {"max_norm": -1.0})
    case("f32_max_norm_i32_indices", _ints([1, 1], dt="int32"), T((2, 3), "float32"),
         {"max_norm": 0.25})
    case("f32_max_norm_empty_indices", T((0,), "int64"), T((2, 3), "float32"),
         {"max_norm": 0.25})
    case("f32_max_norm_nan_row", _ints([0, 1]),
         T((2, 2), "float32", values=["nan", 1.0, 3.0, 4.0]), {"max_norm": 1.0})
    for dt in NAMES:
        if dt not in FLOATS:
            case(f"{SHORT[dt]}_max_norm", _ints([1, 0]), T((3, 2), dt), {"max_norm": 1.0},
                 expect="any")
            case(f"{SHORT[dt]}_scale_grad_by_freq", _ints([1, 1]), T((3, 2), dt),
                 {"scale_grad_by_freq": True}, expect="any")
    case("max_norm_index_out_of_range_error", _ints([0, 3]), T((3, 2), "float32"),
         {"max_norm": 1.0}, expect="error")

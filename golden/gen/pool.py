"""Pooling (torch.nn.functional names): max_pool{1,2,3}d (return_indices),
max_unpool{1,2,3}d, avg_pool{1,2,3}d, adaptive_avg_pool{1,2,3}d,
adaptive_max_pool{1,2,3}d, lp_pool{1,2}d, pixel_shuffle, pixel_unshuffle.

Max cases use "distinct" values unless they pin ties (the first index wins),
NaN (propagates; the last NaN's index) or -inf.  Gradients only where the
window maximum is unique, so torch's choice of gradient is the only one."""

import torch
import torch.nn.functional as F

from .framework import NAMES, SHORT, T

F32, F64, BF16 = "float32", "float64", "bfloat16"
FLOATS = (F32, F64)
NAN_ROW = [1.0, "nan", 3.0, "nan", 2.0, "-inf", "-inf", "-inf", 0.5, 4.0, 4.0, -1.0]


def _f(fn):
    return lambda input, **kw: fn(input, **kw)


def _spatial(d, sizes):
    return tuple(sizes[:d])


MAX = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}
AVG = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}
AAVG = {1: F.adaptive_avg_pool1d, 2: F.adaptive_avg_pool2d, 3: F.adaptive_avg_pool3d}
AMAX = {1: F.adaptive_max_pool1d, 2: F.adaptive_max_pool2d, 3: F.adaptive_max_pool3d}
UNPOOL = {1: F.max_unpool1d, 2: F.max_unpool2d, 3: F.max_unpool3d}
SIZES = {1: (9,), 2: (7, 6), 3: (5, 4, 5)}

# (name, window args, per-rank) shared by max and avg.
WINDOWS = [
    ("k2", {"kernel_size": 2}),
    ("k3_s2", {"kernel_size": 3, "stride": 2}),
    ("k3_s1_p1", {"kernel_size": 3, "stride": 1, "padding": 1}),
    ("k3_s2_p1_ceil", {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True}),
    ("k2_s2_ceil", {"kernel_size": 2, "stride": 2, "ceil_mode": True}),
    # the last window would start in the right padding: ceil_mode drops it
    ("k2_s2_p1_ceil_edge", {"kernel_size": 2, "stride": 2, "padding": 1, "ceil_mode": True}),
    ("k4_s3_p2_ceil", {"kernel_size": 4, "stride": 3, "padding": 2, "ceil_mode": True}),
]


def _tuple_args(d):
    """Per-dim tuples (asymmetric where the rank allows)."""
    k = (3, 2, 2)[:d]
    s = (2, 1, 2)[:d]
    p = (1, 0, 1)[:d]
    return {"kernel_size": list(k), "stride": list(s), "padding": list(p)}


def _shape(d, batched=True, n=2, c=2):
    return ((n, c) if batched else (c,)) + SIZES[d]


def max_pools(b):
    for d, fn in MAX.items():
        op = f"max_pool{d}d"
        f = _f(fn)
        dts = FLOATS + ((BF16,) if d < 3 else ())
        for name, args in WINDOWS + [("tuples", _tuple_args(d))]:
            for dt in FLOATS:
                for ri in (False, True):
                    tag = f"{SHORT[dt]}_{name}" + ("_indices" if ri else "")
                    b.case(op, tag, f, {"input": T(_shape(d), dt, "distinct")},
                           dict(args, return_indices=ri), grad=["input"])
        for dil in (2, 3):
            b.case(op, f"f64_dilation{dil}", f, {"input": T(_shape(d), F64, "distinct")},
                   {"kernel_size": 2, "dilation": dil, "padding": 1, "return_indices": True},
                   grad=["input"])
        b.case(op, "f32_dilation2_ceil", f, {"input": T(_shape(d), F32, "distinct")},
               {"kernel_size": 3, "stride": 2, "dilation": 2, "padding": 1, "ceil_mode": True,
                "return_indices": True})
        b.case(op, "f64_unbatched", f, {"input": T(_shape(d, False), F64, "distinct")},
               {"kernel_size": 2, "return_indices": True}, grad=["input"])
        b.case(op, "f32_empty_batch", f, {"input": T(_shape(d, n=0), F32)},
               {"kernel_size": 2, "return_indices": True})
        b.case(op, "f64_transposed", f,
               {"input": T(_shape(d), F64, "distinct", ["transpose:0:1"])},
               {"kernel_size": 2, "stride": 1, "return_indices": True}, grad=["input"])
        b.case(op, "f32_stepped", f,
               {"input": T(_shape(d, c=6), F32, "distinct", ["slice:1:0:6:2"])},
               {"kernel_size": 2, "return_indices": True})
        b.case(op, "f32_expanded", f,
               {"input": T(_shape(d, n=1), F32, "distinct", [f"expand:3:{2}" + "".join(
                   f":{s}" for s in SIZES[d])])},
               {"kernel_size": 2, "return_indices": True})
        b.case(op, "f32_ties_first_index", f, {"input": T(_shape(d), F32, "ties")},
               {"kernel_size": 3, "stride": 1, "return_indices": True})
        row = (1, 1) + (1,) * (d - 1) + (len(NAN_ROW),)
        for dt in dts:
            b.case(op, f"{SHORT[dt]}_nan_inf", f, {"input": T(row, dt, values=NAN_ROW)},
                   {"kernel_size": [1] * (d - 1) + [2], "return_indices": True})
            b.case(op, f"{SHORT[dt]}_nan_window", f, {"input": T(row, dt, values=NAN_ROW)},
                   {"kernel_size": [1] * (d - 1) + [5], "stride": [1] * (d - 1) + [3],
                    "padding": [0] * (d - 1) + [2], "return_indices": True})
        if d < 3:
            b.case(op, "bf16_k3_s2_p1", f, {"input": T(_shape(d), BF16, "distinct")},
                   {"kernel_size": 3, "stride": 2, "padding": 1, "return_indices": True})
        b.case(op, "f32_large_plane", f, {"input": T((1, 1) + (3,) * (d - 1) + (300,), F32)},
               {"kernel_size": 3, "stride": 2, "return_indices": True})
        for dt in NAMES:
            if dt not in dts:
                b.case(op, f"{SHORT[dt]}_dtype", f, {"input": T(_shape(d, n=1), dt)},
                       {"kernel_size": 2}, expect="any")
        _window_errors(b, op, f, d)


def _window_errors(b, op, f, d):
    x = T(_shape(d), F32)
    errs = [("stride_zero", {"kernel_size": 2, "stride": 0}),
            ("negative_stride", {"kernel_size": 2, "stride": -1}),
            ("pad_over_half", {"kernel_size": 2, "padding": 2}),
            ("negative_padding", {"kernel_size": 2, "padding": -1}),
            ("kernel_too_large", {"kernel_size": 10, "return_indices": True}),
            ("negative_kernel", {"kernel_size": -1, "stride": 1})]
    if op == "max_pool1d":  # its kernel without indices allows an empty output
        b.case(op, "f32_kernel_too_large_no_indices", f, {"input": x}, {"kernel_size": 10})
    if not op.startswith("max"):
        errs = [(n, {k: v for k, v in a.items() if k != "return_indices"}) for n, a in errs]
    if op.startswith("max"):
        errs.append(("dilation_zero", {"kernel_size": 2, "dilation": 0}))
    for name, args in errs:
        b.case(op, f"error_{name}", f, {"input": x}, args, expect="error")
    b.case(op, "error_rank", f, {"input": T((3,) * d, F32)}, {"kernel_size": 1},
           expect="error")
    b.case(op, "error_empty_channels", f, {"input": T(_shape(d, c=0), F32)},
           {"kernel_size": 1}, expect="error")
    b.case(op, "error_empty_unbatched", f, {"input": T((0,) + SIZES[d], F32)},
           {"kernel_size": 1}, expect="error")


def avg_pools(b):
    for d, fn in AVG.items():
        op = f"avg_pool{d}d"
        f = _f(fn)
        dts = FLOATS + ((BF16,) if d < 3 else ()) + ("int64",)
        for name, args in WINDOWS + [("tuples", _tuple_args(d))]:
            for dt in FLOATS:
                for cip in (True, False):
                    tag = f"{SHORT[dt]}_{name}" + ("" if cip else "_exclude_pad")
                    b.case(op, tag, f, {"input": T(_shape(d), dt)},
                           dict(args, count_include_pad=cip), grad=["input"])
        if d > 1:
            for div in (3, -2):
                b.case(op, f"f64_divisor{div}", f, {"input": T(_shape(d), F64)},
                       {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True,
                        "divisor_override": div}, grad=["input"])
            if d == 3:  # avg_pool3d checks the unpadded input against the kernel
                b.case(op, "error_input_smaller_than_kernel", f,
                       {"input": T((1, 2, 5, 4, 3), F32)},
                       {"kernel_size": 4, "stride": 3, "padding": 2}, expect="error")
            b.case(op, "error_divisor_zero", f, {"input": T(_shape(d), F32)},
                   {"kernel_size": 2, "divisor_override": 0}, expect="error")
        b.case(op, "f64_unbatched", f, {"input": T(_shape(d, False), F64)},
               {"kernel_size": 2, "padding": 1}, grad=["input"])
        b.case(op, "f32_empty_batch", f, {"input": T(_shape(d, n=0), F32)}, {"kernel_size": 2})
        b.case(op, "f64_transposed", f, {"input": T(_shape(d), F64, view=["transpose:0:1"])},
               {"kernel_size": 2, "stride": 1}, grad=["input"])
        b.case(op, "i64_k3_p1_ceil", f, {"input": T(_shape(d), "int64", "int")},
               {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True})
        b.case(op, "i64_negative_truncates", f,
               {"input": T((1, 1) + (1,) * (d - 1) + (5,), "int64", values=[-1, -2, 3, 4, -7])},
               {"kernel_size": [1] * (d - 1) + [2], "ceil_mode": True})
        if d < 3:
            b.case(op, "bf16_k3_s2_p1", f, {"input": T(_shape(d), BF16)},
                   {"kernel_size": 3, "stride": 2, "padding": 1})
        b.case(op, "f32_specials", f,
               {"input": T((1, 1) + (1,) * (d - 1) + (len(NAN_ROW),), F32, values=NAN_ROW)},
               {"kernel_size": [1] * (d - 1) + [2]})
        b.case(op, "f32_large_plane", f, {"input": T((1, 1) + (3,) * (d - 1) + (300,), F32)},
               {"kernel_size": 3, "stride": 2})
        for dt in NAMES:
            if dt not in dts:
                b.case(op, f"{SHORT[dt]}_dtype", f, {"input": T(_shape(d, n=1), dt)},
                       {"kernel_size": 2}, expect="any")
        _window_errors(b, op, f, d)


def adaptive_pools(b):
    for kind, table in (("avg", AAVG), ("max", AMAX)):
        for d, fn in table.items():
            op = f"adaptive_{kind}_pool{d}d"
            f = _f(fn)
            if kind == "avg":
                dts = FLOATS + ((BF16,) if d < 3 else ("float16",))
            else:
                dts = FLOATS + ((BF16,) if d < 3 else ())
            extra = {"return_indices": True} if kind == "max" else {}
            vk = "distinct" if kind == "max" else "normal"
            sizes = [("smaller", (4, 3, 2)), ("same", SIZES[d]), ("larger", (11, 8, 7)),
                     ("one", (1, 1, 1)), ("uneven", (5, 4, 3))]
            for name, size in sizes:
                for dt in FLOATS:
                    b.case(op, f"{SHORT[dt]}_{name}", f, {"input": T(_shape(d), dt, vk)},
                           dict(extra, output_size=list(size[:d])), grad=["input"])
            b.case(op, "f64_int_size", f, {"input": T(_shape(d), F64, vk)},
                   dict(extra, output_size=3), grad=["input"])
            b.case(op, "f64_unbatched", f, {"input": T(_shape(d, False), F64, vk)},
                   dict(extra, output_size=2), grad=["input"])
            b.case(op, "f32_empty_batch", f, {"input": T(_shape(d, n=0), F32)},
                   dict(extra, output_size=2))
            b.case(op, "f32_zero_output", f, {"input": T(_shape(d), F32)},
                   dict(extra, output_size=[0] + [2] * (d - 1)))
            b.case(op, "f32_empty_channels", f, {"input": T(_shape(d, c=0), F32)},
                   dict(extra, output_size=2), expect="any")
            b.case(op, "f32_empty_unbatched_channels", f, {"input": T((0,) + SIZES[d], F32)},
                   dict(extra, output_size=2), expect="any")
            b.case(op, "f64_transposed", f,
                   {"input": T(_shape(d), F64, vk, ["transpose:0:1"])},
                   dict(extra, output_size=3), grad=["input"])
            for dt in dts:
                if dt not in FLOATS:
                    b.case(op, f"{SHORT[dt]}_uneven", f, {"input": T(_shape(d), dt, vk)},
                           dict(extra, output_size=list((5, 4, 3)[:d])))
            b.case(op, "f32_specials", f,
                   {"input": T((1, 1) + (1,) * (d - 1) + (len(NAN_ROW),), F32, values=NAN_ROW)},
                   dict(extra, output_size=[1] * (d - 1) + [5]))
            b.case(op, "f32_large_plane", f, {"input": T((1, 1) + (2,) * (d - 1) + (400,), F32)},
                   dict(extra, output_size=[2] * (d - 1) + [37]))
            for dt in NAMES:
                if dt not in dts:
                    b.case(op, f"{SHORT[dt]}_dtype", f, {"input": T(_shape(d, n=1), dt)},
                           dict(extra, output_size=2), expect="any")
            b.case(op, "error_negative_size", f, {"input": T(_shape(d), F32)},
                   dict(extra, output_size=-1), expect="error")
            b.case(op, "error_rank", f, {"input": T((3,) * d, F32)},
                   dict(extra, output_size=2), expect="error")
            b.case(op, "error_empty_spatial", f,
                   {"input": T((2, 3) + (0,) + SIZES[d][1:], F32)},
                   dict(extra, output_size=2), expect="error")
            if kind == "avg":  # size 1 is torch's mean over the spatial dims
                b.case(op, "f32_size_one_empty_spatial", f,
                       {"input": T((2, 3) + (0,) + SIZES[d][1:], F32)}, {"output_size": 1})
                for dt in ("float16", "complex64", "int64"):
                    b.case(op, f"{SHORT[dt]}_size_one", f, {"input": T(_shape(d), dt)},
                           {"output_size": 1}, expect="any")


def _unpool(d):
    fn = UNPOOL[d]
    return lambda input, indices, **kw: fn(input, indices, **kw)


def _pool_indices(d, shape, **kw):
    """Indices of a max pool of a fixed tensor: a valid unpooling input."""
    g = torch.Generator().manual_seed(100 + d)
    x = torch.randn(shape, generator=g, dtype=torch.float64)
    return MAX[d](x, return_indices=True, **kw)[1]


def max_unpools(b):
    for d in (1, 2, 3):
        op = f"max_unpool{d}d"
        f = _unpool(d)
        for name, shape, args in (("k2", _shape(d), {"kernel_size": 2}),
                                  ("k3_s2_p1", _shape(d), {"kernel_size": 3, "stride": 2,
                                                           "padding": 1}),
                                  ("unbatched", _shape(d, False), {"kernel_size": 2})):
            idx = _pool_indices(d, shape, **args)
            small = tuple(idx.shape)
            # odd sizes: the indices reach past the default output size
            args = dict(args, output_size=list(SIZES[d]))
            for dt in FLOATS:
                b.case(op, f"{SHORT[dt]}_{name}", f,
                       {"input": T(small, dt), "indices": T(small, "int64",
                                                            values=idx.flatten().tolist())},
                       args, grad=["input"] if dt == F64 else None)
        idx = _pool_indices(d, _shape(d), kernel_size=2)
        small = tuple(idx.shape)
        ins = {"input": T(small, F64), "indices": T(small, "int64",
                                                    values=idx.flatten().tolist())}
        size = list(SIZES[d])
        b.case(op, "f64_output_size_full", f, ins,
               {"kernel_size": 2, "output_size": [2, 3] + size})
        even = (2, 3) + (4, 6, 4)[:d]
        eidx = _pool_indices(d, even, kernel_size=2)
        b.case(op, "f64_default_size", f,
               {"input": T(tuple(eidx.shape), F64),
                "indices": T(tuple(eidx.shape), "int64", values=eidx.flatten().tolist())},
               {"kernel_size": 2}, grad=["input"])
        b.case(op, "error_output_size_far", f, ins,
               {"kernel_size": 2, "output_size": [s + 5 for s in SIZES[d]]}, expect="error")
        b.case(op, "error_shape_mismatch", f,
               {"input": T(small, F32), "indices": T(tuple(eidx.shape), "int64",
                                                     values=eidx.flatten().tolist())},
               {"kernel_size": 2, "output_size": size}, expect="error")
        b.case(op, "error_indices_dtype", f,
               {"input": T(small, F32), "indices": T(small, "int32",
                                                     values=idx.flatten().tolist())},
               {"kernel_size": 2, "output_size": size}, expect="error")
        b.case(op, "error_out_of_range", f,
               {"input": T(small, F32), "indices": T(small, "int64",
                                                     values=[10 ** 4] * idx.numel())},
               {"kernel_size": 2}, expect="error")
        for dt in ("int64", "bfloat16", "float16"):
            b.case(op, f"{SHORT[dt]}_dtype", f,
                   {"input": T(small, dt), "indices": T(small, "int64",
                                                        values=idx.flatten().tolist())},
                   {"kernel_size": 2, "output_size": size}, expect="any")


def _lp(d):
    fn = F.lp_pool1d if d == 1 else F.lp_pool2d
    return lambda input, **kw: fn(input, **kw)


def lp_pools(b):
    for d in (1, 2):
        op = f"lp_pool{d}d"
        f = _lp(d)
        for p in (2.0, 3.0, 1.5):
            for dt in FLOATS:
                b.case(op, f"{SHORT[dt]}_p{p:g}".replace(".", "_"), f,
                       {"input": T(_shape(d), dt, "positive")},
                       {"norm_type": p, "kernel_size": 2}, grad=["input"])
        b.case(op, "f64_p3_signed", f, {"input": T(_shape(d), F64)},
               {"norm_type": 3.0, "kernel_size": 3, "stride": 2, "ceil_mode": True})
        ks = 3 if d == 1 else [3, 2]
        b.case(op, "f64_stride_ceil", f, {"input": T(_shape(d), F64, "positive")},
               {"norm_type": 2.0, "kernel_size": ks, "stride": 2, "ceil_mode": True},
               grad=["input"])
        b.case(op, "f64_unbatched", f, {"input": T(_shape(d, False), F64, "positive")},
               {"norm_type": 2.0, "kernel_size": 2}, grad=["input"])
        b.case(op, "bf16_p2", f, {"input": T(_shape(d), BF16, "positive")},
               {"norm_type": 2.0, "kernel_size": 2})
        b.case(op, "error_kernel_too_large", f, {"input": T(_shape(d), F32)},
               {"norm_type": 2.0, "kernel_size": 10}, expect="error")


def shuffles(b):
    f_up = lambda input, **kw: F.pixel_shuffle(input, **kw)  # noqa: E731
    f_down = lambda input, **kw: F.pixel_unshuffle(input, **kw)  # noqa: E731
    for dt in NAMES:
        b.case("pixel_shuffle", f"{SHORT[dt]}_r2", f_up, {"input": T((2, 8, 3, 2), dt)},
               {"upscale_factor": 2})
        b.case("pixel_unshuffle", f"{SHORT[dt]}_r2", f_down, {"input": T((2, 2, 4, 6), dt)},
               {"downscale_factor": 2})
    for dt in FLOATS:
        for r in (1, 3):
            b.case("pixel_shuffle", f"{SHORT[dt]}_r{r}", f_up, {"input": T((2, 9, 2, 3), dt)},
                   {"upscale_factor": r}, grad=["input"])
            b.case("pixel_unshuffle", f"{SHORT[dt]}_r{r}", f_down,
                   {"input": T((2, 1, 3, 6), dt)}, {"downscale_factor": r}, grad=["input"])
    b.case("pixel_shuffle", "f64_leading_dims", f_up, {"input": T((2, 1, 4, 2, 2), F64)},
           {"upscale_factor": 2}, grad=["input"])
    b.case("pixel_shuffle", "f64_unbatched_transposed", f_up,
           {"input": T((4, 3, 2), F64, view=["transpose:1:2"])}, {"upscale_factor": 2},
           grad=["input"])
    b.case("pixel_unshuffle", "f64_leading_dims", f_down, {"input": T((2, 1, 1, 4, 2), F64)},
           {"downscale_factor": 2}, grad=["input"])
    b.case("pixel_shuffle", "f32_empty_batch", f_up, {"input": T((0, 4, 2, 2), F32)},
           {"upscale_factor": 2})
    b.case("pixel_unshuffle", "f32_empty_batch", f_down, {"input": T((0, 1, 2, 2), F32)},
           {"downscale_factor": 2})
    for name, shape, r in (("channels_not_divisible", (1, 6, 2, 2), 2),
                           ("rank", (4, 2), 2), ("factor_zero", (1, 4, 2, 2), 0)):
        b.case("pixel_shuffle", f"error_{name}", f_up, {"input": T(shape, F32)},
               {"upscale_factor": r}, expect="error")
    for name, shape, r in (("height_not_divisible", (1, 1, 3, 4), 2),
                           ("width_not_divisible", (1, 1, 4, 3), 2),
                           ("rank", (4, 2), 2), ("factor_negative", (1, 1, 2, 2), -1)):
        b.case("pixel_unshuffle", f"error_{name}", f_down, {"input": T(shape, F32)},
               {"downscale_factor": r}, expect="error")

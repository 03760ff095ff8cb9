"""Resampling (torch.nn.functional names): interpolate in every mode ('area'
being adaptive_avg_pool, a handful of cases here), the upsample aliases,
grid_sample (bilinear, nearest and 4-d bicubic, every padding mode) and
affine_grid.

Sizes stay small; the cases cover upscaling and downscaling, non-integer and
per-dim scales, recompute_scale_factor, align_corners both ways, views,
empty batches, 1-pixel inputs, grids outside [-1, 1], dtypes torch refuses and
argument errors, with gradient entries for the floating cases."""

import math

import torch.nn.functional as F

from .framework import SHORT, T

F32, F64, BF16, U8 = "float32", "float64", "bfloat16", "uint8"
TOL = {"float32": (1e-5, 1e-5), "bfloat16": (1.6e-2, 1.6e-2), "float64": (1e-10, 1e-10)}
RANK = {"nearest": None, "nearest-exact": None, "linear": 3, "bilinear": 4, "bicubic": 4,
        "trilinear": 5}


def _interpolate(input, **kw):
    return F.interpolate(input, **kw)


def _upsample(input, **kw):
    return F.upsample(input, **kw)


def _upsample_nearest(input, **kw):
    return F.upsample_nearest(input, **kw)


def _upsample_bilinear(input, **kw):
    return F.upsample_bilinear(input, **kw)


def _grid_sample(input, grid, **kw):
    return F.grid_sample(input, grid, **kw)


def _affine_grid(theta, **kw):
    return F.affine_grid(theta, **kw)


def _spatial(rank, sizes):
    """(N, C) followed by `sizes` truncated to the rank's spatial dims."""
    return (2, 3) + tuple(sizes[:rank - 2])


def _grid_values(n, lo=-1.6, hi=1.6):
    """n deterministic coordinates spread over [lo, hi], off the pixel grid."""
    return [round(lo + (hi - lo) * ((i * 0.6180339887 + 0.137) % 1.0), 4) for i in range(n)]


def _interp_args(mode, extra):
    args = {"mode": mode}
    args.update(extra)
    return args


def interpolate(b):
    sizings = [
        ("up_size", lambda r: {"size": [5, 4, 3][:r - 2]}),
        ("down_size", lambda r: {"size": [2, 3, 2][:r - 2]}),
        ("scale2", lambda r: {"scale_factor": 2.0}),
        ("scale1p7", lambda r: {"scale_factor": 1.7}),
        ("scale0p6", lambda r: {"scale_factor": 0.6}),
        ("scale_list", lambda r: {"scale_factor": [1.5, 0.8, 2.25][:r - 2]}),
        ("scale1p2_same_size", lambda r: {"scale_factor": 1.2}),
        ("recompute", lambda r: {"scale_factor": 1.7, "recompute_scale_factor": True}),
        ("int_size", lambda r: {"size": 3}),
    ]
    base = {3: (7,), 4: (4, 5), 5: (3, 4, 3)}
    for mode, rank in RANK.items():
        ranks = (3, 4, 5) if rank is None else (rank,)
        aligns = (None,) if rank is None else (False, True)
        for r in ranks:
            shape = (2, 3) + base[r]
            for sname, make in sizings:
                if r == 5 and sname in ("scale1p7", "int_size"):
                    continue
                for align in aligns:
                    extra = make(r)
                    if align is not None:
                        extra["align_corners"] = align
                    tag = f"{r}d_{sname}" + ("" if align is None else f"_ac{int(align)}")
                    dts = (F32, F64) if sname in ("up_size", "scale1p7") else (F32,)
                    for dt in dts:
                        b.case("interpolate", f"{mode}_{tag}_{SHORT[dt]}", _interpolate,
                               {"input": T(shape, dt)}, _interp_args(mode, extra), tol=TOL,
                               grad=["input"])
        # layouts, empty batch, one pixel, other dtypes
        r = rank or 4
        shape = (2, 3) + base[r]
        extra = {"size": [6, 5, 4][:r - 2]}
        if rank is not None:
            extra["align_corners"] = False
        args = _interp_args(mode, extra)
        perm = "permute:" + ":".join(str(i) for i in [0, 2, 1] + list(range(3, r)))
        b.case("interpolate", f"{mode}_transposed_f32", _interpolate,
               {"input": T((shape[0], shape[2], shape[1]) + shape[3:], F32, view=[perm])},
               args, tol=TOL, grad=["input"])
        b.case("interpolate", f"{mode}_stepped_f32", _interpolate,
               {"input": T(shape[:-1] + (shape[-1] * 2,), F32,
                           view=[f"slice:{r - 1}:0:{shape[-1] * 2}:2"])}, args, tol=TOL,
               grad=["input"])
        b.case("interpolate", f"{mode}_empty_batch_f32", _interpolate,
               {"input": T((0,) + shape[1:], F32)}, args, tol=TOL)
        b.case("interpolate", f"{mode}_one_pixel_f64", _interpolate,
               {"input": T((1, 2) + (1,) * (r - 2), F64)}, args, tol=TOL, grad=["input"])
        b.case("interpolate", f"{mode}_to_one_pixel_f64", _interpolate,
               {"input": T(shape, F64)}, dict(args, size=[1] * (r - 2)), tol=TOL,
               grad=["input"])
        for dt in (BF16, U8, "float16", "int64"):
            b.case("interpolate", f"{mode}_{SHORT[dt]}_values", _interpolate,
                   {"input": T(shape, dt)}, args, tol=TOL, expect="any")
    _interpolate_errors(b)
    _interpolate_area(b)


def _interpolate_area(b):
    """Mode 'area' is adaptive_avg_pool1d/2d/3d to the output size: windows
    that overlap (sizes that do not divide), upscaling, scale factors (always
    recomputed to a size), with gradients; bfloat16 values (without a
    gradient entry: the runner reads gradient files as their stored dtype,
    which for bfloat16 is uint16); align_corners
    refused."""
    area = [
        ("3d_down_size", (2, 3, 7), {"size": 3}, (F32, F64)),
        ("3d_scale0p6", (2, 3, 7), {"scale_factor": 0.6}, (F32,)),
        ("4d_down_size", (2, 3, 5, 7), {"size": [2, 3]}, (F32, F64)),
        ("4d_up_size", (2, 3, 3, 2), {"size": [5, 4]}, (F64,)),
        ("4d_scale_list", (1, 2, 6, 5), {"scale_factor": [0.5, 0.7]}, (F32,)),
        ("4d_values", (2, 3, 5, 7), {"size": [2, 3]}, (BF16,)),
        ("5d_down_size", (1, 2, 4, 5, 3), {"size": [3, 2, 2]}, (F32, F64)),
    ]
    for tag, shape, extra, dts in area:
        for dt in dts:
            b.case("interpolate", f"area_{tag}_{SHORT[dt]}", _interpolate,
                   {"input": T(shape, dt)}, _interp_args("area", extra), tol=TOL,
                   grad=None if dt == BF16 else ["input"])
    b.case("interpolate", "area_transposed_f32", _interpolate,
           {"input": T((2, 5, 3, 7), F32, view=["permute:0:2:1:3"])},
           _interp_args("area", {"size": [3, 4]}), tol=TOL, grad=["input"])
    b.case("interpolate", "error_area_align_corners", _interpolate,
           {"input": T((1, 2, 3, 3), F32)},
           {"mode": "area", "size": [2, 2], "align_corners": False}, expect="error")


def _interpolate_errors(b):
    x4 = T((1, 2, 3, 3), F32)
    errors = [
        ("both_size_and_scale", x4, {"size": [4, 4], "scale_factor": 2.0}),
        ("neither_size_nor_scale", x4, {}),
        ("size_length_mismatch", x4, {"size": [4, 4, 4]}),
        ("scale_length_mismatch", x4, {"scale_factor": [2.0]}),
        ("align_corners_with_nearest", x4, {"size": [4, 4], "align_corners": True}),
        ("align_corners_false_with_nearest", x4, {"size": [4, 4], "align_corners": False}),
        ("recompute_with_size", x4, {"size": [4, 4], "recompute_scale_factor": True}),
        ("bilinear_on_3d", T((1, 2, 3), F32), {"size": 4, "mode": "bilinear"}),
        ("linear_on_4d", x4, {"size": 4, "mode": "linear"}),
        ("trilinear_on_4d", x4, {"size": 4, "mode": "trilinear"}),
        ("bicubic_on_5d", T((1, 1, 2, 2, 2), F32), {"size": 4, "mode": "bicubic"}),
        ("nearest_on_2d", T((2, 3), F32), {"size": 4}),
        ("output_size_zero", x4, {"size": [0, 4]}),
        ("scale_to_zero", x4, {"scale_factor": 0.2}),
        ("empty_channels", T((1, 0, 3, 3), F32), {"size": [4, 4]}),
        ("empty_spatial", T((1, 2, 0, 3), F32), {"size": [4, 4]}),
    ]
    for name, spec, args in errors:
        b.case("interpolate", f"error_{name}", _interpolate, {"input": spec}, args,
               expect="error")


def upsample_aliases(b):
    x = T((1, 2, 3, 4), F32)
    b.case("upsample", "bilinear_f32", _upsample, {"input": x},
           {"size": [5, 7], "mode": "bilinear", "align_corners": False}, tol=TOL, grad=["input"])
    b.case("upsample", "nearest_scale_f32", _upsample, {"input": x}, {"scale_factor": 2.0},
           tol=TOL, grad=["input"])
    b.case("upsample_nearest", "size_f32", _upsample_nearest, {"input": x}, {"size": [5, 7]},
           tol=TOL, grad=["input"])
    b.case("upsample_nearest", "scale_f64", _upsample_nearest, {"input": T((1, 2, 5), F64)},
           {"scale_factor": 1.5}, tol=TOL, grad=["input"])
    b.case("upsample_bilinear", "size_f32", _upsample_bilinear, {"input": x}, {"size": [5, 7]},
           tol=TOL, grad=["input"])
    b.case("upsample_bilinear", "scale_f64", _upsample_bilinear, {"input": T((1, 1, 3, 3), F64)},
           {"scale_factor": 2.5}, tol=TOL, grad=["input"])


def _grid(shape, dt, lo=-1.6, hi=1.6):
    n = math.prod(shape)
    return T(shape, dt, values=_grid_values(n, lo, hi))


def grid_sample(b):
    for k in (2, 3):
        xs = (2, 3, 4, 5) if k == 2 else (2, 2, 3, 4, 3)
        gs = (2, 3, 4, 2) if k == 2 else (2, 2, 3, 2, 3)
        for mode in ("bilinear", "nearest"):
            for pad in ("zeros", "border", "reflection"):
                for align in (False, True):
                    tag = f"{k}d_{mode}_{pad}_ac{int(align)}"
                    for dt in ((F32, F64) if pad == "zeros" else (F64,)):
                        b.case("grid_sample", f"{tag}_{SHORT[dt]}", _grid_sample,
                               {"input": T(xs, dt), "grid": _grid(gs, dt)},
                               {"mode": mode, "padding_mode": pad, "align_corners": align},
                               tol=TOL, grad=["input", "grid"])
        if k == 2:
            for pad in ("zeros", "border", "reflection"):
                for align in (False, True):
                    for dt in ((F32, F64) if pad == "zeros" else (F64,)):
                        b.case("grid_sample", f"2d_bicubic_{pad}_ac{int(align)}_{SHORT[dt]}",
                               _grid_sample, {"input": T(xs, dt), "grid": _grid(gs, dt)},
                               {"mode": "bicubic", "padding_mode": pad, "align_corners": align},
                               tol=TOL, grad=["input", "grid"])
        args = {"mode": "bilinear", "padding_mode": "zeros", "align_corners": False}
        # far outside [-1, 1]: reflection folds several times
        for pad in ("zeros", "border", "reflection"):
            b.case("grid_sample", f"{k}d_far_outside_{pad}_f64", _grid_sample,
                   {"input": T(xs, F64), "grid": _grid(gs, F64, -4.3, 5.1)},
                   dict(args, padding_mode=pad), tol=TOL, grad=["input", "grid"])
        b.case("grid_sample", f"{k}d_empty_batch_f32", _grid_sample,
               {"input": T((0,) + xs[1:], F32), "grid": _grid((0,) + gs[1:], F32)}, args,
               tol=TOL)
        b.case("grid_sample", f"{k}d_one_pixel_f64", _grid_sample,
               {"input": T((1, 2) + (1,) * k, F64), "grid": _grid((1,) + gs[1:], F64)},
               dict(args, padding_mode="border"), tol=TOL, grad=["input", "grid"])
        perm = "permute:" + ":".join(str(i) for i in [0, 2, 1] + list(range(3, k + 2)))
        b.case("grid_sample", f"{k}d_transposed_input_f32", _grid_sample,
               {"input": T((xs[0], xs[2], xs[1]) + xs[3:], F32, view=[perm]),
                "grid": _grid(gs, F32)}, args, tol=TOL, grad=["input", "grid"])
        b.case("grid_sample", f"{k}d_align_none_f32", _grid_sample,
               {"input": T(xs, F32), "grid": _grid(gs, F32)}, {"mode": "bilinear"}, tol=TOL,
               grad=["input", "grid"])
    for dt in (BF16, "float16", "int64"):
        b.case("grid_sample", f"{SHORT[dt]}_values", _grid_sample,
               {"input": T((1, 1, 3, 3), dt), "grid": T((1, 2, 2, 2), dt, kind="unit")},
               {"align_corners": False}, expect="any")
    errors = [
        ("dtype_mismatch", T((1, 1, 3, 3), F32), T((1, 2, 2, 2), F64), {}),
        ("batch_mismatch", T((2, 1, 3, 3), F32), T((1, 2, 2, 2), F32), {}),
        ("last_dim_not_2", T((1, 1, 3, 3), F32), T((1, 2, 2, 3), F32), {}),
        ("rank_mismatch", T((1, 1, 3, 3), F32), T((1, 2, 2, 2, 3), F32), {}),
        ("three_d_input", T((1, 1, 3), F32), T((1, 2, 1), F32), {}),
        ("empty_spatial", T((1, 1, 0, 3), F32), T((1, 2, 2, 2), F32), {}),
        ("bicubic_5d", T((1, 1, 2, 2, 2), F32), T((1, 2, 2, 2, 3), F32), {"mode": "bicubic"}),
        ("bad_mode", T((1, 1, 3, 3), F32), T((1, 2, 2, 2), F32), {"mode": "linear"}),
        ("bad_padding", T((1, 1, 3, 3), F32), T((1, 2, 2, 2), F32), {"padding_mode": "wrap"}),
    ]
    for name, x, g, args in errors:
        b.case("grid_sample", f"error_{name}", _grid_sample, {"input": x, "grid": g},
               dict({"align_corners": False}, **args), expect="error")


def affine_grid(b):
    for k in (2, 3):
        size = [2, 3, 4, 5] if k == 2 else [2, 3, 3, 4, 2]
        for align in (False, True):
            for dt in (F32, F64, BF16):
                b.case("affine_grid", f"{k}d_ac{int(align)}_{SHORT[dt]}", _affine_grid,
                       {"theta": T((2, k, k + 1), dt)}, {"size": size, "align_corners": align},
                       tol=TOL, grad=["theta"] if dt != BF16 else None)
        b.case("affine_grid", f"{k}d_unit_size_f64", _affine_grid,
               {"theta": T((1, k, k + 1), F64)},
               {"size": [1, 1] + [1] * k, "align_corners": False}, tol=TOL, grad=["theta"])
        b.case("affine_grid", f"{k}d_transposed_theta_f64", _affine_grid,
               {"theta": T((2, k + 1, k), F64, view=["transpose:1:2"])},
               {"size": size, "align_corners": False}, tol=TOL, grad=["theta"])
    for dt in ("float16", "int64"):
        b.case("affine_grid", f"{SHORT[dt]}_values", _affine_grid,
               {"theta": T((1, 2, 3), dt)}, {"size": [1, 1, 2, 2], "align_corners": False},
               expect="any")
    errors = [
        ("theta_shape_for_4d", T((1, 3, 4), F32), [1, 1, 2, 2]),
        ("theta_shape_for_5d", T((1, 2, 3), F32), [1, 1, 2, 2, 2]),
        ("size_rank_3", T((1, 2, 3), F32), [1, 2, 2]),
        ("zero_size", T((1, 2, 3), F32), [1, 1, 0, 2]),
        ("batch_mismatch", T((2, 2, 3), F32), [1, 1, 2, 2]),
    ]
    for name, theta, size in errors:
        b.case("affine_grid", f"error_{name}", _affine_grid, {"theta": theta},
               {"size": size, "align_corners": False}, expect="error")

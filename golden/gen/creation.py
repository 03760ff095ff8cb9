"""Creation ops: zeros, ones, full, arange, linspace, eye.  No tensor inputs;
every parameter is an arg.  Cases that omit dtype only use arguments whose
JSON form decides the inferred dtype unambiguously (integral JSON numbers for
int64 inference, non-integral ones for float inference), because a JSON
reader cannot tell 3 from 3.0."""

import torch

from .framework import DTYPES, NAMES, SHORT, TRANSCENDENTAL


def _dtype(kw):
    if kw.get("dtype") is not None:
        kw["dtype"] = DTYPES[kw["dtype"]]
    return kw


def _zeros(**kw):
    return torch.zeros(**_dtype(kw))


def _ones(**kw):
    return torch.ones(**_dtype(kw))


def _full(**kw):
    return torch.full(**_dtype(kw))


def _arange(**kw):
    return torch.arange(**_dtype(kw))


def _linspace(**kw):
    return torch.linspace(**_dtype(kw))


def _eye(**kw):
    return torch.eye(**_dtype(kw))


def creation(b):
    for op, fn in (("zeros", _zeros), ("ones", _ones)):
        b.case(op, "default_dtype", fn, {}, {"size": [2, 3]})
        b.case(op, "zero_d", fn, {}, {"size": [], "dtype": "float32"})
        b.case(op, "empty_extent", fn, {}, {"size": [3, 0], "dtype": "int64"})
        b.case(op, "three_d", fn, {}, {"size": [2, 1, 3], "dtype": "float64"})
        b.case(op, "negative_size_error", fn, {}, {"size": [2, -1]}, expect="error")
        for dt in NAMES:
            b.case(op, f"{SHORT[dt]}_dtype", fn, {}, {"size": [4], "dtype": dt})
    full = [
        ("f32_fill", {"size": [2, 3], "fill_value": 2.5, "dtype": "float32"}),
        ("default_float_inference", {"size": [3], "fill_value": -1.25}),
        ("default_int_inference", {"size": [3], "fill_value": 7}),
        ("bool_inference", {"size": [2], "fill_value": True}),
        ("nan_fill", {"size": [2], "fill_value": float("nan"), "dtype": "float32"}),
        ("inf_fill_f16", {"size": [2], "fill_value": float("-inf"), "dtype": "float16"}),
        ("f16_rounds_fill", {"size": [2], "fill_value": 0.1, "dtype": "float16"}),
        ("bf16_rounds_fill", {"size": [2], "fill_value": 0.1, "dtype": "bfloat16"}),
        ("f16_overflow_fill", {"size": [2], "fill_value": 1e5, "dtype": "float16"}),
        ("i8_fill_negative", {"size": [2, 2], "fill_value": -100, "dtype": "int8"}),
        ("i64_fill_large", {"size": [2], "fill_value": 2**62, "dtype": "int64"}),
        ("u8_fill_out_of_range_error", {"size": [2], "fill_value": 300, "dtype": "uint8"}),
        ("i32_fill_fractional", {"size": [2], "fill_value": 2.5, "dtype": "int32"}),
        ("c64_fill_real", {"size": [2], "fill_value": 1.5, "dtype": "complex64"}),
        ("bool_fill_int", {"size": [3], "fill_value": 2, "dtype": "bool"}),
        ("zero_d", {"size": [], "fill_value": 4.0, "dtype": "float64"}),
        ("empty", {"size": [0, 2], "fill_value": 4.0, "dtype": "float32"}),
    ]
    for dt in NAMES:
        full.append((f"{SHORT[dt]}_dtype", {"size": [2, 2], "fill_value": 1, "dtype": dt}))
    for name, args in full:
        b.case("full", name, _full, {}, args, expect="any")
    arange = [
        ("end_only_int", {"end": 5}),
        ("start_end_int", {"start": -3, "end": 4}),
        ("int_step", {"start": 1, "end": 20, "step": 3}),
        ("negative_step", {"start": 10, "end": -2, "step": -3}),
        ("float_step_inference", {"start": 0, "end": 1, "step": 0.25}),
        ("float_end_inference", {"start": 0.5, "end": 4.5}),
        ("f32_step_not_dividing", {"start": 0.0, "end": 1.0, "step": 0.3, "dtype": "float32"}),
        ("f64_tenth_step", {"start": 0.0, "end": 1.0, "step": 0.1, "dtype": "float64"}),
        ("f32_tenth_step", {"start": 0.0, "end": 1.0, "step": 0.1, "dtype": "float32"}),
        ("f16_dtype", {"start": 0, "end": 10, "step": 1, "dtype": "float16"}),
        ("bf16_large_values", {"start": 250, "end": 270, "step": 1, "dtype": "bfloat16"}),
        ("empty_range", {"start": 5, "end": 5, "dtype": "int64"}),
        ("zero_step_error", {"start": 0, "end": 5, "step": 0}),
        ("wrong_sign_step_error", {"start": 0, "end": 5, "step": -1}),
        ("i32_dtype", {"start": -5, "end": 5, "step": 2, "dtype": "int32"}),
        ("u8_dtype", {"start": 0, "end": 10, "dtype": "uint8"}),
        ("int_dtype_fractional_step", {"start": 0, "end": 3, "step": 0.5, "dtype": "int64"}),
        ("f32_int_args", {"start": 1, "end": 4, "dtype": "float32"}),
        ("f64_negative_fractional", {"start": 1.5, "end": -1.0, "step": -0.5, "dtype": "float64"}),
        ("long", {"start": 0, "end": 1000, "dtype": "float32"}),
    ]
    for dt in NAMES:
        if dt not in ("bool",):
            arange.append((f"{SHORT[dt]}_sweep", {"start": 0, "end": 6, "step": 2, "dtype": dt}))
    for name, args in arange:
        b.case("arange", name, _arange, {}, args, expect="any")
    linspace = [
        ("f32_basic", {"start": 0.0, "end": 1.0, "steps": 5}),
        ("f32_negative_direction", {"start": 2.0, "end": -3.0, "steps": 11}),
        ("single_step", {"start": 3.0, "end": 7.0, "steps": 1}),
        ("zero_steps", {"start": 3.0, "end": 7.0, "steps": 0}),
        ("negative_steps_error", {"start": 0.0, "end": 1.0, "steps": -1}),
        ("f64_thirds", {"start": 0.0, "end": 1.0, "steps": 4, "dtype": "float64"}),
        ("f32_many", {"start": -1.0, "end": 1.0, "steps": 101, "dtype": "float32"}),
        ("f16_dtype", {"start": 0.0, "end": 1.0, "steps": 7, "dtype": "float16"}),
        ("bf16_dtype", {"start": 0.0, "end": 10.0, "steps": 7, "dtype": "bfloat16"}),
        ("i64_truncates", {"start": 0, "end": 10, "steps": 4, "dtype": "int64"}),
        ("i32_negative", {"start": -7, "end": 3, "steps": 6, "dtype": "int32"}),
        ("u8_dtype", {"start": 0, "end": 255, "steps": 5, "dtype": "uint8"}),
        ("i64_float_bounds", {"start": -1.5, "end": 2.5, "steps": 5, "dtype": "int64"}),
        ("c64_dtype", {"start": 0.0, "end": 1.0, "steps": 3, "dtype": "complex64"}),
        ("int_args_default_float", {"start": 0, "end": 5, "steps": 6}),
        ("same_start_end", {"start": 1.5, "end": 1.5, "steps": 3}),
    ]
    for name, args in linspace:
        b.case("linspace", name, _linspace, {}, args, expect="any", tol=TRANSCENDENTAL)
    eye = [
        ("square_default", {"n": 3}),
        ("rectangular_wide", {"n": 2, "m": 4}),
        ("rectangular_tall", {"n": 4, "m": 2}),
        ("empty", {"n": 0, "m": 3}),
        ("negative_error", {"n": -1}),
        ("one", {"n": 1, "dtype": "float64"}),
    ]
    for dt in NAMES:
        eye.append((f"{SHORT[dt]}_dtype", {"n": 3, "m": 3, "dtype": dt}))
    for name, args in eye:
        b.case("eye", name, _eye, {}, args, expect="any")

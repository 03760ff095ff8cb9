"""Convolution (torch.nn.functional names): unfold, fold, conv1d/2d/3d and
conv_transpose1d/2d/3d, with stride, padding (numbers, 'valid', 'same'),
dilation, groups, output_padding, unbatched inputs, views, empty batches and
the errors PyTorch raises.  Gradients are float64 entries, and float32 ones for a few geometries.

PyTorch 1.13's bfloat16 conv_transpose on CPU reads the weight as if it were
a forward convolution's (it fails or answers wrongly), so bfloat16 appears
for the forward convolutions only."""

import torch.nn.functional as F

from .framework import SHORT, T

F32, F64, BF16 = "float32", "float64", "bfloat16"
TOL = {"float32": (1e-5, 1e-5), "float64": (1e-10, 1e-10), "bfloat16": (2e-2, 2e-2),
       "complex64": (1e-5, 1e-5), "complex128": (1e-10, 1e-10), "float16": (2e-3, 2e-3)}

# float32 gradient entries too, for backends without float64 (vulkan)
F32_GRADS = ("plain", "groups", "stride_padding", "stride_output_padding", "depthwise")

CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
CONV_T = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}


def _fn(torch_fn):
    def call(input, weight, bias=None, **kw):
        return torch_fn(input, weight, bias, **kw)
    return call


def _unfold(input, **kw):
    return F.unfold(input, **kw)


def _fold(input, **kw):
    return F.fold(input, **kw)


def _conv_case(b, nd, name, dt, x, w, bias, args, grad=True, transposed=False, expect="ok"):
    op = f"conv_transpose{nd}d" if transposed else f"conv{nd}d"
    fn = _fn(CONV_T[nd] if transposed else CONV[nd])
    inputs = {"input": T(x, dt) if isinstance(x, tuple) else x,
              "weight": T(w, dt) if isinstance(w, tuple) else w}
    if bias is not None:
        inputs["bias"] = T(bias, dt) if isinstance(bias, tuple) else bias
    wants = dt == F64 or (dt == F32 and name in F32_GRADS)
    names = [k for k in inputs] if grad and wants and expect == "ok" else None
    b.case(op, f"{SHORT[dt]}_{name}", fn, inputs, args, tol=TOL, grad=names, expect=expect)


def _forward_geometries(nd):
    """(name, input shape, weight shape, bias?, args) for conv{nd}d."""
    s = lambda *v: tuple(v[:nd])  # noqa: E731
    return [
        ("plain", (2, 3) + s(6, 5, 4), (4, 3) + s(3, 2, 2), True, {}),
        ("no_bias", (1, 2) + s(5, 4, 4), (3, 2) + s(2, 3, 2), False, {}),
        ("stride_padding", (2, 2) + s(7, 6, 5), (3, 2) + s(3, 3, 2), True,
         {"stride": 2, "padding": 1}),
        ("asymmetric", (1, 2) + s(8, 7, 6), (2, 2) + s(3, 2, 2), True,
         {"stride": list(s(2, 1, 3)), "padding": list(s(1, 0, 2)),
          "dilation": list(s(1, 2, 1))}),
        ("dilation", (1, 1) + s(9, 8, 7), (2, 1) + s(3, 3, 2), False, {"dilation": 2}),
        ("padding_past_half", (1, 2) + s(4, 3, 3), (2, 2) + s(3, 2, 2), True, {"padding": 3}),
        ("groups", (2, 4) + s(5, 5, 4), (6, 2) + s(3, 2, 2), True, {"groups": 2}),
        ("depthwise", (1, 3) + s(6, 5, 4), (6, 1) + s(3, 3, 2), True, {"groups": 3}),
        ("valid", (1, 2) + s(5, 5, 4), (3, 2) + s(2, 3, 2), True, {"padding": "valid"}),
        ("same_odd", (1, 2) + s(5, 4, 4), (3, 2) + s(3, 3, 3), True, {"padding": "same"}),
        ("same_even_kernel", (1, 2) + s(6, 5, 4), (2, 2) + s(4, 2, 2), True,
         {"padding": "same"}),
        ("same_dilated", (1, 1) + s(7, 6, 5), (2, 1) + s(2, 3, 2), False,
         {"padding": "same", "dilation": list(s(3, 2, 1))}),
        ("unbatched", (2,) + s(6, 5, 4), (3, 2) + s(3, 2, 2), True, {"padding": 1}),
        ("kernel_one", (2, 3) + s(4, 3, 3), (2, 3) + s(1, 1, 1), True, {}),
        ("odd_sizes", (3, 3) + s(7, 5, 3), (5, 3) + s(3, 3, 3), True, {"stride": 3}),
    ]


def forward(b):
    for nd in (1, 2, 3):
        for name, x, w, bias, args in _forward_geometries(nd):
            for dt in (F32, F64, BF16):
                if dt == BF16 and name not in ("plain", "groups", "same_even_kernel"):
                    continue
                _conv_case(b, nd, name, dt, x, w, (w[0],) if bias else None, args)
        cin = 2
        s = (5,) * nd
        _conv_case(b, nd, "empty_batch", F32, (0, cin) + s, (3, cin) + (2,) * nd, (3,), {},
                   grad=False)
        _conv_case(b, nd, "empty_batch", F64, (0, cin) + s, (3, cin) + (2,) * nd, (3,), {})
        x_t = T((1, 5, cin) + s[1:], F64, view=[f"transpose:1:2"]) if nd > 1 else \
            T((1, 5, cin), F64, view=["transpose:1:2"])
        _conv_case(b, nd, "transposed_input", F64, x_t, (3, cin) + (2,) * nd, (3,), {})
        w_view = T((3, cin * 2) + (2,) * nd, F64, view=[f"slice:1:0:{cin * 2}:2"])
        _conv_case(b, nd, "strided_weight", F64, (2, cin) + s, w_view, None, {"stride": 2})
        # channels-last input (PyTorch's memory_format=channels_last strides)
        perm = ":".join(str(i) for i in [0, nd + 1] + list(range(1, nd + 1)))
        for dt in (F32, F64, BF16):
            x_cl = T((2,) + (5,) * nd + (3,), dt, view=[f"permute:{perm}"])
            _conv_case(b, nd, "channels_last", dt, x_cl, (4, 3) + (2,) * nd, (4,),
                       {"padding": 1}, grad=dt != BF16)
        for dt in ("complex64", "complex128"):
            _conv_case(b, nd, "complex", dt, (1, 2) + s, (3, 2) + (2,) * nd, (3,),
                       {"padding": 1}, grad=False)


def transposed(b):
    for nd in (1, 2, 3):
        s = lambda *v: tuple(v[:nd])  # noqa: E731
        geos = [
            ("plain", (2, 3) + s(4, 3, 3), (3, 2) + s(3, 2, 2), True, {}),
            ("stride_output_padding", (1, 2) + s(3, 4, 2), (2, 3) + s(3, 2, 2), True,
             {"stride": 2, "padding": 1, "output_padding": 1}),
            ("asymmetric", (1, 2) + s(3, 4, 3), (2, 2) + s(2, 3, 2), False,
             {"stride": list(s(3, 1, 2)), "padding": list(s(1, 0, 1)),
              "output_padding": list(s(2, 0, 1)), "dilation": list(s(1, 2, 1))}),
            ("output_padding_below_dilation", (1, 1) + s(4, 3, 3), (1, 2) + s(2, 2, 2), True,
             {"dilation": 3, "output_padding": 2}),
            ("groups", (1, 4) + s(3, 3, 2), (4, 1) + s(3, 2, 2), True, {"groups": 2}),
            ("depthwise", (1, 3) + s(4, 3, 2), (3, 1) + s(2, 2, 2), True, {"groups": 3}),
            ("unbatched", (2,) + s(4, 3, 3), (2, 3) + s(2, 2, 2), True, {"stride": 2}),
            ("padding_crops", (1, 2) + s(5, 4, 4), (2, 2) + s(3, 3, 3), True, {"padding": 2}),
        ]
        for name, x, w, bias, args in geos:
            cout = w[1] * args.get("groups", 1)
            for dt in (F32, F64):
                _conv_case(b, nd, name, dt, x, w, (cout,) if bias else None, args,
                           transposed=True)
        _conv_case(b, nd, "empty_batch", F64, (0, 2) + (3,) * nd, (2, 3) + (2,) * nd, (3,), {},
                   transposed=True)


def _err(b, nd, name, x, w, bias=None, args=None, transposed=False, dt=F32):
    _conv_case(b, nd, name + "_error", dt, x, w, bias, args or {}, grad=False,
               transposed=transposed, expect="error")


def errors(b):
    _err(b, 2, "input_rank", (4, 5), (3, 2, 2, 2))
    _err(b, 1, "input_rank", (5,), (3, 1, 2))
    _err(b, 2, "weight_rank", (1, 2, 5, 5), (3, 2, 2))
    _err(b, 2, "groups_not_dividing_out_channels", (1, 4, 5, 5), (5, 2, 3, 3), None,
         {"groups": 2})
    _err(b, 2, "channels_mismatch", (1, 4, 5, 5), (6, 3, 3, 3))
    _err(b, 2, "groups_not_dividing_in_channels", (1, 5, 5, 5), (4, 2, 3, 3), None,
         {"groups": 2})
    _err(b, 2, "bias_size", (1, 2, 5, 5), (3, 2, 3, 3), (4,))
    _err(b, 2, "kernel_larger_than_padded_input", (1, 2, 3, 3), (3, 2, 6, 6), None,
         {"padding": 1})
    _err(b, 3, "kernel_larger_than_input", (1, 1, 2, 4, 4), (1, 1, 3, 3, 3))
    _err(b, 2, "negative_padding", (1, 2, 5, 5), (3, 2, 3, 3), None, {"padding": -1})
    _err(b, 2, "zero_stride", (1, 2, 5, 5), (3, 2, 3, 3), None, {"stride": 0})
    _err(b, 2, "zero_dilation", (1, 2, 5, 5), (3, 2, 3, 3), None, {"dilation": 0})
    _err(b, 2, "negative_groups", (1, 2, 5, 5), (3, 2, 3, 3), None, {"groups": -1})
    _err(b, 2, "same_with_stride", (1, 2, 5, 5), (3, 2, 3, 3), None,
         {"padding": "same", "stride": 2})
    _err(b, 2, "padding_string_unknown", (1, 2, 5, 5), (3, 2, 3, 3), None, {"padding": "full"})
    _err(b, 2, "stride_list_length", (1, 2, 5, 5), (3, 2, 3, 3), None, {"stride": [1, 1, 1]})
    b.case("conv2d", "f32_weight_dtype_mismatch_error", _fn(F.conv2d),
           {"input": T((1, 2, 4, 4), F32), "weight": T((3, 2, 2, 2), F64)}, expect="error")
    _err(b, 2, "output_padding_too_large", (1, 2, 4, 4), (2, 3, 3, 3), None,
         {"output_padding": 1}, transposed=True)
    _err(b, 2, "output_size_too_small", (1, 2, 1, 1), (2, 3, 1, 1), None, {"padding": 1},
         transposed=True)
    _err(b, 2, "channels_mismatch", (1, 4, 3, 3), (3, 2, 3, 3), None, {}, transposed=True)
    _err(b, 1, "groups_not_dividing", (1, 4, 3), (4, 2, 3), None, {"groups": 3},
         transposed=True)
    _err(b, 2, "float16_unsupported", (1, 2, 4, 4), (3, 2, 2, 2), dt="float16")


def unfold_fold(b):
    geos = [("plain", (2, 3, 5, 4), {"kernel_size": 2}),
            ("tuple_args", (1, 2, 7, 6), {"kernel_size": [3, 2], "stride": [2, 1],
                                          "padding": [1, 2], "dilation": [1, 2]}),
            ("padding_past_half", (1, 1, 3, 3), {"kernel_size": 2, "padding": 2}),
            ("stride_skips", (1, 2, 7, 7), {"kernel_size": 2, "stride": 3}),
            ("unbatched", (3, 4, 5), {"kernel_size": [2, 3], "padding": 1}),
            ("empty_batch", (0, 2, 4, 4), {"kernel_size": 2})]
    for name, shape, args in geos:
        for dt in (F32, F64, BF16, "float16", "complex64"):
            wants = dt == F64 or (dt == F32 and name in F32_GRADS)
            grad = ["input"] if wants and shape[0] != 0 else None
            b.case("unfold", f"{SHORT[dt]}_{name}", _unfold, {"input": T(shape, dt)}, args,
                   tol=TOL, grad=grad)
            cols = F.unfold(__import__("torch").zeros(shape), **args)
            fold_args = dict(args, output_size=list(shape[-2:]))
            b.case("fold", f"{SHORT[dt]}_{name}", _fold, {"input": T(tuple(cols.shape), dt)},
                   fold_args, tol=TOL, grad=grad)
    b.case("unfold", "f64_transposed_input", _unfold,
           {"input": T((1, 5, 2, 4), F64, view=["transpose:1:3"])}, {"kernel_size": 2},
           grad=["input"])
    b.case("fold", "f64_sliced_input", _fold,
           {"input": T((1, 8, 18), F64, view=["slice:2:0:18:2"])},
           {"output_size": [4, 4], "kernel_size": 2}, grad=["input"])
    for name, shape, args in [("rank_2", (4, 5), {"kernel_size": 2}),
                              ("rank_5", (1, 1, 4, 4, 4), {"kernel_size": 2}),
                              ("kernel_too_large", (1, 2, 5, 5), {"kernel_size": 6}),
                              ("negative_padding", (1, 2, 5, 5), {"kernel_size": 2,
                                                                  "padding": -1}),
                              ("zero_kernel", (1, 2, 5, 5), {"kernel_size": 0}),
                              ("zero_stride", (1, 2, 5, 5), {"kernel_size": 2, "stride": 0}),
                              ("integer_input", (1, 2, 5, 5), {"kernel_size": 2})]:
        dt = "int64" if name == "integer_input" else F32
        b.case("unfold", f"{name}_error", _unfold, {"input": T(shape, dt)}, args,
               expect="error")
    for name, shape, args in [("blocks_mismatch", (1, 8, 5), {"kernel_size": 2}),
                              ("channels_not_divisible", (1, 7, 9), {"kernel_size": 2}),
                              ("rank_4", (1, 1, 8, 9), {"kernel_size": 2})]:
        b.case("fold", f"{name}_error", _fold, {"input": T(shape, F32)},
               dict(args, output_size=[4, 4]), expect="error")


def convolution(b):
    forward(b)
    transposed(b)
    errors(b)
    unfold_fold(b)

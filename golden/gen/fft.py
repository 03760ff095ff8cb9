"""torch.fft (transforms, fftfreq, rfftfreq, fftshift, ifftshift) and the
spectral windows.

Transform cases carry an absolute tolerance from the error bound the kernels
state (docs/accuracy.md, "Fourier transforms"): K u sqrt(N) ||x||_2, u the
unit roundoff of the operand's parts, N the points transformed, ||x|| the
whole operand's norm (a c2r's sqrt(2) times it), times the norm's scale.
K (8 for single, 32 for double precision) is far below the bound's eps (at
least 30 for two points) and above what PyTorch's pocketfft and our kernels
err together on these small lengths. Operands are drawn here, so the
tolerance can read them."""

import math

import numpy as np
import torch

from .framework import DTYPES, SHORT, T, apply_view

REAL = ("float32", "float64")
CPLX = ("complex64", "complex128")
UNIT = {"float32": 2.0 ** -24, "complex64": 2.0 ** -24,
        "float64": 2.0 ** -53, "complex128": 2.0 ** -53}
K = {"float32": 8.0, "complex64": 8.0, "float64": 32.0, "complex128": 32.0}
# One-dim ops: (name, kind) with kind c2c, r2c (real input) or c2r.
ONE_DIM = [("fft", "c2c"), ("ifft", "c2c"), ("rfft", "r2c"), ("irfft", "c2r"),
           ("hfft", "c2r"), ("ihfft", "r2c")]
FORWARD = {"fft", "rfft", "hfft", "fft2", "rfft2", "hfft2", "fftn", "rfftn", "hfftn"}


def _call(name):
    fn = getattr(torch.fft, name)

    def call(input, **kw):
        # ihfft's result is a conjugate view; its values are what count.
        return fn(input, **kw).resolve_conj()
    return call


def _operand(rng, shape, dt, view=()):
    """A T with drawn values, and the viewed tensor torch will see."""
    n = int(np.prod(shape)) if shape else 1
    re = rng.standard_normal(n)
    if dt in CPLX:
        im = rng.standard_normal(n)
        vals = [complex(a, b) for a, b in zip(re, im)]
    else:
        vals = [float(a) for a in re]
    base = torch.tensor(vals, dtype=DTYPES[dt]).reshape(shape)
    return T(shape, dt, view=list(view), values=vals), apply_view(base, list(view))


def _scale(op, norm, points):
    forward = op[len("fft_"):] in FORWARD
    if norm == "ortho":
        return 1.0 / math.sqrt(points)
    if (norm in (None, "backward")) != forward:
        return 1.0 / points
    return 1.0


def _atol(op, kind, x, points, norm):
    dt = {torch.float32: "float32", torch.float64: "float64",
          torch.complex64: "complex64", torch.complex128: "complex128"}[x.dtype]
    norm_x = float(x.to(torch.complex128).abs().pow(2).sum().sqrt())
    if kind == "c2r":
        norm_x *= math.sqrt(2.0)
    tol = K[dt] * UNIT[dt] * math.sqrt(points) * norm_x * _scale(op, norm, points)
    return max(tol, 1e-300)


def _points_1d(kind, x, n, dim):
    size = x.shape[dim]
    if kind == "c2r":
        return n if n is not None else 2 * (size - 1)
    return n if n is not None else size


def one_dim(b):
    rng = np.random.default_rng(17)
    lengths = [1, 2, 7, 8, 12, 15, 17, 32]
    for op, kind in ONE_DIM:
        dts = REAL if kind == "r2c" else CPLX + REAL
        name = "fft_" + op
        for dt in dts:
            for length in lengths:
                if kind == "c2r" and length == 1:
                    continue
                spec, x = _operand(rng, (3, length), dt)
                pts = _points_1d(kind, x, None, -1)
                b.case(name, f"{SHORT[dt]}_n{length}", _call(op), {"input": spec}, {},
                       rtol=0.0, atol=_atol(name, kind, x, pts, None))
            for norm in ("backward", "ortho", "forward"):
                spec, x = _operand(rng, (2, 9), dt)
                pts = _points_1d(kind, x, None, -1)
                b.case(name, f"{SHORT[dt]}_norm_{norm}", _call(op), {"input": spec},
                       {"norm": norm}, rtol=0.0, atol=_atol(name, kind, x, pts, norm))
            for label, n in (("pad", 13), ("trim", 5), ("pad_even", 16)):
                spec, x = _operand(rng, (4, 10), dt)
                b.case(name, f"{SHORT[dt]}_{label}", _call(op), {"input": spec}, {"n": n},
                       rtol=0.0, atol=_atol(name, kind, x, n, None))
            spec, x = _operand(rng, (6, 3, 2), dt)
            b.case(name, f"{SHORT[dt]}_dim0", _call(op), {"input": spec}, {"dim": 0},
                   rtol=0.0, atol=_atol(name, kind, x, _points_1d(kind, x, None, 0), None))
            spec, x = _operand(rng, (3, 5, 4), dt)
            b.case(name, f"{SHORT[dt]}_negative_dim", _call(op), {"input": spec},
                   {"dim": -2, "norm": "ortho"}, rtol=0.0,
                   atol=_atol(name, kind, x, _points_1d(kind, x, None, -2), "ortho"))
            spec, x = _operand(rng, (5, 7), dt, view=["transpose:0:1"])
            b.case(name, f"{SHORT[dt]}_transposed", _call(op), {"input": spec}, {},
                   rtol=0.0, atol=_atol(name, kind, x, _points_1d(kind, x, None, -1), None))
            spec, x = _operand(rng, (3, 20), dt, view=["slice:1:0:20:2"])
            b.case(name, f"{SHORT[dt]}_stepped", _call(op), {"input": spec}, {"n": 11},
                   rtol=0.0, atol=_atol(name, kind, x, 11, None))
        spec, x = _operand(rng, (2, 300), dts[0])
        b.case(name, f"{SHORT[dts[0]]}_long_prime_307", _call(op), {"input": spec},
               {"n": 307}, rtol=0.0, atol=_atol(name, kind, x, 307, None))
        for dt in ("int64", "bool"):
            b.case(name, f"{SHORT[dt]}_promotes", _call(op), {"input": T((2, 6), dt)}, {},
                   rtol=1e-5, atol=1e-4)
        b.case(name, "f16_error", _call(op), {"input": T((2, 4), "float16")}, {},
               expect="error")
        if kind == "r2c":
            b.case(name, "c64_input_error", _call(op), {"input": T((2, 4), "complex64")}, {},
                   expect="error")
        b.case(name, "n_zero_error", _call(op), {"input": T((2, 4), dts[0])}, {"n": 0},
               expect="error")
        b.case(name, "norm_invalid_error", _call(op), {"input": T((2, 4), dts[0])},
               {"norm": "bad"}, expect="error")
        b.case(name, "dim_out_of_range_error", _call(op), {"input": T((2, 4), dts[0])},
               {"dim": 2}, expect="error")
        b.case(name, "empty_dim_error", _call(op), {"input": T((2, 0), dts[0])}, {},
               expect="error")
        if kind == "c2r":
            b.case(name, "one_bin_error", _call(op), {"input": T((3, 1), "complex64")}, {},
                   expect="error")


N_DIM = [("fft2", "c2c"), ("ifft2", "c2c"), ("rfft2", "r2c"), ("irfft2", "c2r"),
         ("hfft2", "c2r"), ("ihfft2", "r2c"), ("fftn", "c2c"), ("ifftn", "c2c"),
         ("rfftn", "r2c"), ("irfftn", "c2r"), ("hfftn", "c2r"), ("ihfftn", "r2c")]


def _points_nd(kind, x, s, dim):
    if dim is None:
        dim = list(range(x.dim() - len(s), x.dim())) if s is not None else list(range(x.dim()))
    points = 1
    for i, d in enumerate(dim):
        size = s[i] if s is not None and s[i] != -1 else x.shape[d]
        if kind == "c2r" and i == len(dim) - 1 and (s is None or s[i] == -1):
            size = 2 * (x.shape[d] - 1)
        points *= size
    return points


def n_dim(b):
    rng = np.random.default_rng(29)
    for op, kind in N_DIM:
        two = op.endswith("2")
        dts = REAL if kind == "r2c" else CPLX + ("float32",)
        name = "fft_" + op
        layouts = [("default", (3, 5, 6), [], {}),
                   ("s_pad_trim", (4, 6), [], {"s": [6, 5]}),
                   ("dims_01", (4, 5, 3), [], {"dim": [0, 1]}),
                   ("dims_reversed", (4, 5, 3), [], {"dim": [1, 0], "norm": "ortho"}),
                   ("negative_dims", (3, 4, 5), [], {"dim": [-3, -1], "norm": "forward"}),
                   ("s_and_dims", (5, 4, 3), [], {"s": [7, -1], "dim": [0, 2]}),
                   ("transposed", (6, 5), ["transpose:0:1"], {}),
                   ("odd_prime", (7, 11), [], {"norm": "backward"})]
        if not two:
            layouts.append(("three_dims", (3, 4, 5), [], {"dim": [0, 1, 2]}))
            layouts.append(("one_dim_s", (3, 8), [], {"s": [5]}))
        for dt in dts:
            for label, shape, view, args in layouts:
                spec, x = _operand(rng, shape, dt, view)
                dim = args.get("dim")
                if two and dim is None:
                    dim = [-2, -1]
                pts = _points_nd(kind, x, args.get("s"), dim)
                b.case(name, f"{SHORT[dt]}_{label}", _call(op), {"input": spec}, args,
                       rtol=0.0, atol=_atol(name, kind, x, pts, args.get("norm")))
        b.case(name, "i32_promotes", _call(op), {"input": T((3, 4), "int32")}, {},
               rtol=1e-5, atol=1e-4)
        b.case(name, "duplicate_dims_error", _call(op), {"input": T((3, 4), dts[0])},
               {"dim": [0, 0]}, expect="error")
        b.case(name, "s_dim_length_error", _call(op), {"input": T((3, 4), dts[0])},
               {"s": [3], "dim": [0, 1]}, expect="error")
        b.case(name, "s_zero_error", _call(op), {"input": T((3, 4), dts[0])},
               {"s": [0, 4]}, expect="error")
        b.case(name, "empty_dim_error", _call(op), {"input": T((3, 0), dts[0])}, {},
               expect="error")
        b.case(name, "dim_out_of_range_error", _call(op), {"input": T((3, 4), dts[0])},
               {"dim": [0, 3]}, expect="error")
        b.case(name, "f16_error", _call(op), {"input": T((2, 4), "float16")}, {},
               expect="error")
        if not two:
            b.case(name, "s_too_long_error", _call(op), {"input": T((3, 4), dts[0])},
                   {"s": [2, 3, 4]}, expect="error")


def _freq(fn):
    def call(**kw):
        if kw.get("dtype") is not None:
            kw["dtype"] = DTYPES[kw["dtype"]]
        return fn(**kw)
    return call


def helpers(b):
    for op, fn in (("fft_fftfreq", torch.fft.fftfreq), ("fft_rfftfreq", torch.fft.rfftfreq)):
        for n in (1, 5, 8, 11):
            for d in (1.0, 0.1):
                for dt in ("float32", "float64"):
                    b.case(op, f"{SHORT[dt]}_n{n}_d{str(d).replace('.', '_')}", _freq(fn), {},
                           {"n": n, "d": d, "dtype": dt}, rtol=0.0, atol=0.0)
        b.case(op, "default_dtype", _freq(fn), {}, {"n": 6}, rtol=0.0, atol=0.0)
        if op == "fft_rfftfreq":  # PyTorch's n / 2 + 1 truncates: n = -1 gives one bin
            b.case(op, "n_minus_one", _freq(fn), {}, {"n": -1}, rtol=0.0, atol=0.0,
                   signed_zeros=True)
        b.case(op, "empty", _freq(fn), {}, {"n": 0, "dtype": "float64"}, rtol=0.0, atol=0.0)
        b.case(op, "negative_error", _freq(fn), {}, {"n": -4}, expect="error")
        b.case(op, "i32_error", _freq(fn), {}, {"n": 4, "dtype": "int32"}, expect="error")
    for op, fn in (("fft_fftshift", torch.fft.fftshift), ("fft_ifftshift", torch.fft.ifftshift)):
        def call(input, _fn=fn, **kw):
            return _fn(input, **kw)
        for label, shape, args in (("all_dims", (5, 4), {}), ("dim1", (3, 7), {"dim": 1}),
                                   ("dims_list", (4, 5, 3), {"dim": [0, -1]}),
                                   ("odd_1d", (9,), {})):
            for dt in ("float32", "complex64", "int64"):
                b.case(op, f"{SHORT[dt]}_{label}", call, {"input": T(shape, dt)}, args)
        b.case(op, "dim_out_of_range_error", call, {"input": T((3, 4), "float32")},
               {"dim": 2}, expect="error")


def _window(name):
    fn = getattr(torch, name)

    def call(**kw):
        if kw.get("dtype") is not None:
            kw["dtype"] = DTYPES[kw["dtype"]]
        return fn(**kw)
    return call


WINDOW_TOL = {"float32": (2e-6, 2e-6), "float64": (1e-13, 1e-13), "bfloat16": (1e-2, 1e-2)}


def windows(b):
    extra = {"hamming_window": [("alpha_beta", {"periodic": False, "alpha": 0.6, "beta": 0.3})],
             "kaiser_window": [("beta_5", {"periodic": True, "beta": 5.0}),
                               ("beta_0", {"periodic": False, "beta": 0.0})]}
    for op in ("hann_window", "hamming_window", "blackman_window", "bartlett_window",
               "kaiser_window"):
        for length in (0, 1, 2, 5, 10, 64):
            for periodic in (True, False):
                for dt in ("float32", "float64"):
                    args = {"window_length": length, "periodic": periodic, "dtype": dt}
                    b.case(op, f"{SHORT[dt]}_n{length}_{'periodic' if periodic else 'symmetric'}",
                           _window(op), {}, args, tol=WINDOW_TOL)
        b.case(op, "default_dtype", _window(op), {}, {"window_length": 7}, tol=WINDOW_TOL)
        b.case(op, "bf16", _window(op), {}, {"window_length": 9, "dtype": "bfloat16"},
               tol=WINDOW_TOL)
        for label, args in extra.get(op, []):
            b.case(op, label, _window(op), {}, dict(window_length=11, dtype="float64", **args),
                   tol=WINDOW_TOL)
        b.case(op, "negative_length_error", _window(op), {}, {"window_length": -1},
               expect="error")
        b.case(op, "i32_error", _window(op), {}, {"window_length": 4, "dtype": "int32"},
               expect="error")


def _stft(input, window=None, **kw):
    return torch.stft(input, window=window, **kw)


def stft(b):
    rng = np.random.default_rng(41)
    layouts = [("default", (64,), {"n_fft": 16}),
               ("hop_win", (60,), {"n_fft": 12, "hop_length": 5, "win_length": 9}),
               ("no_center", (50,), {"n_fft": 16, "hop_length": 4, "center": False}),
               ("batch", (3, 40), {"n_fft": 8, "hop_length": 3}),
               ("normalized", (48,), {"n_fft": 10, "normalized": True}),
               ("two_sided", (40,), {"n_fft": 8, "onesided": False})]
    for mode in ("reflect", "constant", "replicate", "circular"):
        layouts.append((f"pad_{mode}", (30,), {"n_fft": 8, "hop_length": 2, "pad_mode": mode}))
    for dt in ("float32", "float64", "complex64"):
        for label, shape, args in layouts:
            if dt == "complex64" and "onesided" not in args:
                args = dict(args, onesided=False)
            spec, x = _operand(rng, shape, dt)
            frames_pts = args["n_fft"]
            b.case("stft", f"{SHORT[dt]}_{label}", _stft, {"input": spec},
                   dict(args, return_complex=True), rtol=0.0,
                   atol=_atol("fft_fft", "c2c", x, frames_pts, None))
        wspec, w = _operand(rng, (12,), "float32" if dt != "float64" else "float64")
        spec, x = _operand(rng, (70,), dt)
        b.case("stft", f"{SHORT[dt]}_window", _stft, {"input": spec, "window": wspec},
               {"n_fft": 16, "win_length": 12, "hop_length": 4, "return_complex": True,
                "onesided": dt != "complex64"},
               rtol=0.0, atol=_atol("fft_fft", "c2c", x * float(w.abs().max()), 16, None))
    err = {"input": T((40,), "float32")}
    b.case("stft", "n_fft_zero_error", _stft, err, {"n_fft": 0, "return_complex": True},
           expect="error")
    b.case("stft", "hop_zero_error", _stft, err, {"n_fft": 8, "hop_length": 0,
                                                   "return_complex": True}, expect="error")
    b.case("stft", "win_length_error", _stft, err, {"n_fft": 8, "win_length": 9,
                                                     "return_complex": True}, expect="error")
    b.case("stft", "window_size_error", _stft, {"input": T((40,), "float32"),
                                                "window": T((7,), "float32")},
           {"n_fft": 8, "return_complex": True}, expect="error")
    b.case("stft", "three_d_error", _stft, {"input": T((2, 2, 40), "float32")},
           {"n_fft": 8, "return_complex": True}, expect="error")
    b.case("stft", "onesided_complex_error", _stft, {"input": T((40,), "complex64")},
           {"n_fft": 8, "onesided": True, "return_complex": True}, expect="error")
    b.case("stft", "pad_mode_error", _stft, err, {"n_fft": 8, "pad_mode": "bogus",
                                                   "return_complex": True}, expect="error")


def _istft(input, window=None, **kw):
    return torch.istft(input, window=window, **kw)


def istft(b):
    """Spectrograms of drawn signals (torch.stft), inverted; windows that
    pass the NOLA check, and ones that do not."""
    rng = np.random.default_rng(43)
    layouts = [("hann", 64, {"n_fft": 16, "hop_length": 4}, "hann"),
               ("hann_length", 64, {"n_fft": 16, "hop_length": 4, "length": 60}, "hann"),
               ("hann_long_length", 64, {"n_fft": 16, "hop_length": 4, "length": 70}, "hann"),
               ("rect_no_center", 48, {"n_fft": 8, "hop_length": 4, "center": False}, None),
               ("win_length", 60, {"n_fft": 12, "hop_length": 3, "win_length": 8}, "hann8"),
               ("normalized", 40, {"n_fft": 8, "hop_length": 2, "normalized": True}, "hann"),
               ("two_sided", 40, {"n_fft": 8, "hop_length": 2, "onesided": False}, "hann"),
               ("return_complex", 40, {"n_fft": 8, "hop_length": 2, "onesided": False,
                                       "return_complex": True}, "hann")]
    for dt in ("float32", "float64"):
        cdt = "complex64" if dt == "float32" else "complex128"
        for label, n, args, wname in layouts:
            sig = torch.tensor(rng.standard_normal(n), dtype=DTYPES[dt])
            wlen = args.get("win_length", args["n_fft"])
            w = torch.hann_window(wlen, dtype=DTYPES[dt]) if wname else None
            spec = torch.stft(sig, args["n_fft"], hop_length=args["hop_length"],
                              win_length=args.get("win_length"), window=w,
                              center=args.get("center", True),
                              onesided=args.get("onesided"), return_complex=True)
            vals = [complex(v) for v in spec.reshape(-1).tolist()]
            inputs = {"input": T(tuple(spec.shape), cdt, values=vals)}
            if w is not None:
                inputs["window"] = T((wlen,), dt, values=w.tolist())
            tol = 64 * UNIT[dt] * math.sqrt(args["n_fft"]) * float(spec.abs().max()) + \
                64 * UNIT[dt] * float(sig.abs().max())
            b.case("istft", f"{SHORT[cdt]}_{label}", _istft, inputs, args, rtol=0.0, atol=tol)
    spec = T((5, 9), "complex64")
    b.case("istft", "real_input_error", _istft, {"input": T((5, 9), "float32")},
           {"n_fft": 8}, expect="error")
    b.case("istft", "frequencies_error", _istft, {"input": spec}, {"n_fft": 10},
           expect="error")
    b.case("istft", "hop_error", _istft, {"input": spec}, {"n_fft": 8, "hop_length": 9},
           expect="error")
    b.case("istft", "nola_error", _istft,
           {"input": spec, "window": T((8,), "float32", values=[0.0] * 8)},
           {"n_fft": 8, "hop_length": 2}, expect="error")


def _grad_atol(op, kind, x, pts, norm, out_numel):
    """A tolerance for the outputs and the gradients alike: a gradient is
    the transform of the other direction of a standard normal grad_output
    (of norm about sqrt(numel), 4 times that bounds it here) with the same
    scale, doubled on a c2r's mirrored bins."""
    dt = "complex128" if x.is_complex() else "float64"
    g_norm = 4.0 * math.sqrt(2.0 * out_numel)
    grad_tol = 2.0 * K[dt] * UNIT[dt] * math.sqrt(pts) * g_norm * _scale(op, norm, pts)
    return max(_atol(op, kind, x, pts, norm), grad_tol)


def grad_cases(b):
    """Gradients (first order) of every transform on float64 and complex128
    inputs: even and odd lengths, n and s that pad and trim, every norm,
    dims listed out of order; stft and istft. Own RNG, so the other cases
    draw as before."""
    rng = np.random.default_rng(43)
    configs = [("n8", (3, 8), {}), ("odd_ortho", (2, 7), {"norm": "ortho"}),
               ("pad_forward", (3, 5), {"n": 9, "norm": "forward"}),
               ("trim", (2, 10), {"n": 6})]
    for op, kind in ONE_DIM:
        name = "fft_" + op
        for dt in (("float64",) if kind == "r2c" else ("complex128", "float64")):
            for label, shape, args in configs:
                spec, x = _operand(rng, shape, dt)
                pts = _points_1d(kind, x, args.get("n"), -1)
                numel = _call(op)(x, **args).numel()
                b.case(name, f"{SHORT[dt]}_grad_{label}", _call(op), {"input": spec}, args,
                       rtol=0.0, atol=_grad_atol(name, kind, x, pts, args.get("norm"), numel),
                       grad=["input"])
    layouts = [("default", (3, 4, 5), {}),
               ("s_dims_reversed", (4, 5), {"s": [5, 3], "dim": [1, 0], "norm": "ortho"})]
    for op, kind in N_DIM:
        name = "fft_" + op
        dt = "float64" if kind == "r2c" else "complex128"
        for label, shape, args in layouts:
            spec, x = _operand(rng, shape, dt)
            dim = args.get("dim")
            if op.endswith("2") and dim is None:
                dim = [-2, -1]
            pts = _points_nd(kind, x, args.get("s"), dim)
            numel = _call(op)(x, **args).numel()
            b.case(name, f"{SHORT[dt]}_grad_{label}", _call(op), {"input": spec}, args,
                   rtol=0.0, atol=_grad_atol(name, kind, x, pts, args.get("norm"), numel),
                   grad=["input"])
    # stft and istft with respect to the signal (spectrogram) and the window,
    # whose values stay well away from zero (istft divides by its envelope).
    # Double precision, values of order one, sums of a few dozen terms.
    window = [0.6 + 0.35 * ((i * 3) % 7) / 7.0 for i in range(8)]
    spectral = [
        ("stft", _stft, "f64_grad_onesided", (24,), "float64", 8,
         {"n_fft": 8, "hop_length": 2, "return_complex": True}),
        ("stft", _stft, "c128_grad_two_sided_normalized", (17,), "complex128", 6,
         {"n_fft": 8, "hop_length": 3, "win_length": 6, "onesided": False,
          "normalized": True, "pad_mode": "constant", "return_complex": True}),
        ("istft", _istft, "c128_grad_onesided", (5, 9), "complex128", 8,
         {"n_fft": 8, "hop_length": 2}),
        ("istft", _istft, "c128_grad_length_normalized", (5, 8), "complex128", 8,
         {"n_fft": 8, "hop_length": 2, "length": 13, "normalized": True}),
    ]
    for op, fn, label, shape, dt, wlen, args in spectral:
        spec, _ = _operand(rng, shape, dt)
        inputs = {"input": spec, "window": T((wlen,), "float64", values=window[:wlen])}
        b.case(op, label, fn, inputs, args, rtol=0.0, atol=1e-11, grad=["input", "window"])


def fft(b):
    stft(b)
    istft(b)
    one_dim(b)
    n_dim(b)
    helpers(b)
    windows(b)
    grad_cases(b)
